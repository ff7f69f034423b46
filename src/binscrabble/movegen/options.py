"""Options (what a square can show) and the rack usage arithmetic.

An *option* is one of the faces (an index into :data:`binscrabble.rules.FACES`) or, at
index :data:`ROTATED`, an ``=`` turned to read ``11``. Whether a natural tile or a blank
shows it is decided last (:mod:`.blanks`). A *usage* counts the options a filling takes,
one bit field per rack code, so that usages add with ``+`` and a rack check is one
subtraction (see the comment on the fields below).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from binscrabble.rules import FACES, TILE_POINTS, Rules, faces_in_game

ROTATED: Final = len(FACES)
OPTION_COUNT: Final = ROTATED + 1
OPTION_TEXTS: Final = (*FACES, "11")
OPTION_FACES: Final = (*FACES, "=")
OPTION_POINTS: Final = (*(TILE_POINTS[face] for face in FACES), TILE_POINTS["="])
EQUALS_OPTION: Final = FACES.index("=")
DIGIT_OPTIONS: Final = frozenset({FACES.index("0"), FACES.index("1"), ROTATED})

# Rack usage is one int with a 5-bit field per rack code (the faces, then the blank), so the
# usage of two sides adds with `+` and "does the rack hold this?" is one subtraction: each
# field of the rack carries a guard bit (16) that survives exactly when the usage fits.
# The fields start at bit FIELDS_AT; below them a usage holds a *mix* of its counts, each
# face's weighted by a prime (FIELD_MIX), which no field reads: usages are dict keys (the
# steps a partial may take, side tables, deficits), and a dict finds a key by the low bits
# of its hash, an int's own value. Fields alone would put only the first one or two there,
# and usages that differ in a later field only would collide. Every field is at most 31, so
# the mix stays
# below 341 * 2999 < 2 ** 20 and never carries into the fields; the rack's guarded counts
# hold ones below the fields, so that a subtraction never borrows from them either.
FIELD_BITS: Final = 5
GUARD: Final = 16
GUARD_BIT: Final = 4
BLANK_FIELD: Final = len(FACES)
FIELDS_AT: Final = 20
FIELD_MIX: Final = (2999, 2731, 2503, 2287, 2069, 1811, 1597, 1297, 1009, 761, 523, 0)
MIX_ROOM: Final = (1 << FIELDS_AT) - 1
GUARDS: Final = sum(GUARD << (FIELDS_AT + FIELD_BITS * field) for field in range(BLANK_FIELD + 1))


ALL_OPTIONS: Final = (1 << OPTION_COUNT) - 1
#: An equation starts with an operand (a digit, a rotated `=` reading ``11``, or NOT) and ends
#: with a digit (docs/rules.md §6): the options a segment's first and last free squares need, and
#: the symbols its first and last tiles' texts may not start or end with.
OPERAND_END_OPTIONS: Final = sum(1 << option for option in DIGIT_OPTIONS)
OPERAND_START_OPTIONS: Final = OPERAND_END_OPTIONS | 1 << FACES.index("~")


@lru_cache(maxsize=64)
def blank_option_mask(rules: Rules) -> int:
    """The options a blank may show under `rules`, as a mask: what a rack with a blank
    wants (:attr:`Context.wanted`)."""
    return sum(
        1 << option
        for option in blank_designations(rules)
        if option != ROTATED or rules.rotated_equals
    )


OPTION_FIELD: Final = tuple(EQUALS_OPTION if o == ROTATED else o for o in range(OPTION_COUNT))
OPTION_USAGE: Final = tuple(
    (1 << (FIELDS_AT + FIELD_BITS * field)) + FIELD_MIX[field] for field in OPTION_FIELD
)
OPTION_SHIFT: Final = tuple(FIELDS_AT + FIELD_BITS * field for field in OPTION_FIELD)
FIELD_MASK: Final = (1 << FIELD_BITS) - 1
#: A free square's character in a side's text: the face, or ``R`` for a rotated `=` (it
#: reads ``11``, two characters, which would make positions ambiguous).
SIDE_CHARACTERS: Final = (*FACES, "R")
ROTATED_CHARACTER: Final = "R"
OPTION_OF_CHARACTER: Final = {character: option for option, character in enumerate(SIDE_CHARACTERS)}
#: (option, character) for every character a free square can show in a side's text, and
#: the new `=` (``=``, which shows in no side).
EQUALS_CHARACTER: Final = "="
CHARACTER_OPTIONS: Final = tuple(enumerate(SIDE_CHARACTERS))


@lru_cache(maxsize=64)
def blank_designations(rules: Rules) -> frozenset[int]:
    """The options a blank may show under `rules` (kept: every context asks)."""
    return frozenset({FACES.index(face) for face in faces_in_game(rules)} | {ROTATED})


#: One in every usage field: a usage times this holds the sum of its fields in the top one.
FIELD_ONES: Final = sum(1 << (FIELD_BITS * field) for field in range(BLANK_FIELD + 1))
TOP_FIELD_SHIFT: Final = FIELDS_AT + FIELD_BITS * BLANK_FIELD
