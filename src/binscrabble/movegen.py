"""Every legal placement for a rack, fast (docs/movegen.md).

There is no word list in Binary Scrabble: the grammar of RULES.md §6 and arithmetic decide
what may be played. The generator walks every line of the board and every maximal stretch
of squares (a *segment*) a play could fill there, splits the segment at its ``=`` signs
(the ones on the board and the one new ``=`` the play may add) into *sides*, enumerates the
fillings of each side that follow the grammar together with their values (worked out as
each side is written), and joins sides of equal value. Sides are cached by their shape, so
on an empty board, where a side's position changes nothing, each side shape is enumerated
once and reused at every offset. Identity fragments (RULES.md §7) are counted side by side
in each side's parse tree; crossing runs are judged by
:func:`binscrabble.expr.equation_value`. A join keeps its equations as groups (per value
and rack usage, the sides' filling lists), so moves are counted without making them; they
are returned as a :class:`MoveList`, which makes the equations' rows and the move objects
only when read.
The generator's own grammar automaton, side arithmetic, identity rules and scoring are held
to the referee (:class:`binscrabble.game.Game`) by a brute-force comparison in the tests.

>>> from binscrabble.board import Board
>>> from binscrabble.rules import Rules
>>> moves = generate_placements(Board(), "11+=01", Rules())
>>> best = min(moves, key=sort_key)
>>> best.score, best.text, best.place.notation(Board())
(18, '10=1+1', '8C 10=1+1')
>>> len({move.place for move in moves}) == len(moves)
True
"""

from __future__ import annotations

import heapq
import operator
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, combinations, product
from math import comb
from typing import TYPE_CHECKING, Any, Final, cast

from binscrabble.board import (
    ACROSS,
    CENTER,
    DOWN,
    LETTER_MULTIPLIERS,
    SIZE,
    WORD_MULTIPLIERS,
    Board,
    Direction,
    Tile,
)
from binscrabble.expr import EquationError, bonus, equation_value_or_none, number_value
from binscrabble.expr.symbols import (
    FLAT_PRECEDENCE,
    IDENTITY_SWITCH,
    NEUTRAL_LITERALS,
    STANDARD_PRECEDENCE,
)
from binscrabble.move import CODE_ORDER, Exchange, Move, Pass, Place, PlacedTile
from binscrabble.movelist import MoveList
from binscrabble.movelist import collector_paused as _collector_paused
from binscrabble.rules import BLANK, FACES, TILE_POINTS, Rules, faces_in_game

if TYPE_CHECKING:
    from binscrabble.game import Game

__all__ = [
    "GeneratedMove",
    "LegalMoves",
    "MoveList",
    "best_moves",
    "exchanges",
    "generate_moves",
    "generate_placements",
    "sort_key",
]

# -- options --------------------------------------------------------------------------------
#
# An *option* is what a square can show: one of the faces (index into FACES) or, at index
# ROTATED, an `=` turned to read `11`. Whether a natural tile or a blank shows it is decided
# last (see _realizations).

ROTATED: Final = len(FACES)
OPTION_COUNT: Final = ROTATED + 1
_OPTION_TEXTS: Final = (*FACES, "11")
_OPTION_FACES: Final = (*FACES, "=")
_OPTION_POINTS: Final = (*(TILE_POINTS[face] for face in FACES), TILE_POINTS["="])
_EQUALS_OPTION: Final = FACES.index("=")
_DIGIT_OPTIONS: Final = frozenset({FACES.index("0"), FACES.index("1"), ROTATED})

# Rack usage is one int with a 5-bit field per rack code (the faces, then the blank), so the
# usage of two sides adds with `+` and "does the rack hold this?" is one subtraction: each
# field of the rack carries a guard bit (16) that survives exactly when the usage fits.
# The fields start at bit _FIELDS_AT; below them a usage holds a *mix* of its counts, each
# face's weighted by a prime (_FIELD_MIX), which no field reads: usages are dict keys (the
# steps a partial may take, side tables, deficits), and a dict finds a key by the low bits
# of its hash, an int's own value. Fields alone would put only the first one or two there,
# and usages that differ in a later field only would collide (game08-midgame-turn06-2blank:
# 4.5-5.9 probes a key; with the mix about 1.4). Every field is at most 31, so the mix stays
# below 341 * 2999 < 2 ** 20 and never carries into the fields; the rack's guarded counts
# hold ones below the fields, so that a subtraction never borrows from them either.
_FIELD_BITS: Final = 5
_GUARD: Final = 16
_GUARD_BIT: Final = 4
_BLANK_FIELD: Final = len(FACES)
_FIELDS_AT: Final = 20
_FIELD_MIX: Final = (2999, 2731, 2503, 2287, 2069, 1811, 1597, 1297, 1009, 761, 523, 0)
_MIX_ROOM: Final = (1 << _FIELDS_AT) - 1
_GUARDS: Final = sum(
    _GUARD << (_FIELDS_AT + _FIELD_BITS * field) for field in range(_BLANK_FIELD + 1)
)


_ALL_OPTIONS: Final = (1 << OPTION_COUNT) - 1

# -- the side grammar as a small automaton -------------------------------------------------
#
# States while reading one side (RULES.md §6): expecting an operand, after NOT, inside a
# number, inside the number "0" (which may not grow without leading_zeros), inside NOT's
# digits, expecting a divisor (an operand after `/`). A side may end only inside a number
# or NOT's digits. The divisor is a state of its own because without leading_zeros the
# number "0" there divides by zero whatever follows (`/` binds as strongly as any
# operator, so the next operator or the side's end applies it): no side goes on from it,
# and the partial is not made (game10-midgame-turn06-1blank: 3,548 of 52,593 partials).
# (Each a Final of its own: the compiled module reads them as constants, not from the
# module's dictionary.)
_EXPECT: Final = 0
_AFTER_NOT: Final = 1
_NUMBER: Final = 2
_ZERO: Final = 3
_NOT_DIGITS: Final = 4
_DIVISOR: Final = 5
_DEAD: Final = 6
_ACCEPTING: Final = frozenset({_NUMBER, _ZERO, _NOT_DIGITS})
_BINARY: Final = frozenset("+-x/&|^")
#: An equation starts with an operand (a digit, a rotated `=` reading ``11``, or NOT) and ends
#: with a digit (RULES.md §6): the options a segment's first and last free squares need, and
#: the symbols its first and last tiles' texts may not start or end with.
_OPERAND_END_OPTIONS: Final = sum(1 << option for option in _DIGIT_OPTIONS)
_OPERAND_START_OPTIONS: Final = _OPERAND_END_OPTIONS | 1 << FACES.index("~")
_CANNOT_START: Final = frozenset("+-x/&|^=")
_CANNOT_END: Final = frozenset("+-x/&|^=~")


def _step(state: int, symbol: str, leading_zeros: bool) -> int:
    if state == _DEAD:
        return _DEAD
    if symbol in "01":
        if state in (_EXPECT, _DIVISOR, _NUMBER):
            if state != _NUMBER and symbol == "0" and not leading_zeros:
                # (A divisor 0 that cannot grow: see above.)
                return _ZERO if state == _EXPECT else _DEAD
            return _NUMBER
        if state in (_AFTER_NOT, _NOT_DIGITS):
            return _NOT_DIGITS
        return _DEAD
    if symbol == "~":
        return _AFTER_NOT if state in (_EXPECT, _DIVISOR) else _DEAD
    if symbol in _BINARY:
        if state not in _ACCEPTING:
            return _DEAD
        return _DIVISOR if symbol == "/" else _EXPECT
    return _DEAD  # "=" never appears inside a side


def _feed(state: int, text: str, leading_zeros: bool) -> int:
    for symbol in text:
        state = _step(state, symbol, leading_zeros)
    return state


def _transition_table(leading_zeros: bool) -> tuple[tuple[int, ...], ...]:
    """next state = table[state][option] for every option's text."""
    return tuple(
        tuple(_feed(state, _OPTION_TEXTS[option], leading_zeros) for option in range(OPTION_COUNT))
        for state in range(_DEAD + 1)
    )


_TRANSITIONS: Final = {zeros: _transition_table(zeros) for zeros in (False, True)}
#: Per leading_zeros, per state: the next state after each face's symbol (fixed text is
#: read a symbol at a time; a lookup instead of a call of _step).
_SYMBOL_STEPS: Final = {
    zeros: tuple(
        {symbol: _step(state, symbol, zeros) for symbol in FACES} for state in range(_DEAD + 1)
    )
    for zeros in (False, True)
}

# -- side values ---------------------------------------------------------------------------

# How strongly each operator binds: the referee's precedence tables.
_STANDARD_STRENGTH: Final = STANDARD_PRECEDENCE
_FLAT_STRENGTH: Final = FLAT_PRECEDENCE


def _natural_difference(left: int, right: int) -> int | None:
    return None if left < right else left - right


def _exact_quotient(left: int, right: int) -> int | None:
    return None if right == 0 or left % right else left // right


#: What a side's last operation gives when it fails (:func:`_last_value`): below every
#: side's value and below every context's :attr:`_Context.floor`, so that the side loops
#: drop it by their floor test alone, with no test for None per filling. (A side's text
#: holds at most two characters a square, a rotated `=` reading ``11``, so at most 30
#: digits: its value's magnitude stays below ``2 ** 31``.)
_FAILED: Final = -(1 << 64)
#: The floor under `allow_negatives`: below every side's value, above :data:`_FAILED`.
_NEGATIVE_FLOOR: Final = -(1 << 63)


#: A side's last operation by code (:func:`_last_value`): none waiting (the operand is the
#: value), then one per operator. A code, not a function to call: the compiled module works
#: the operation out in place on machine integers, where a call of ``operator.add`` and the
#: like needed an object for each operand and a generic call per filling.
# (Each a Final of its own: the compiled module then reads them as constants.)
_LAST_NONE: Final = 0
_LAST_ADD: Final = 1
_LAST_SUB: Final = 2
_LAST_MUL: Final = 3
_LAST_DIV: Final = 4
_LAST_AND: Final = 5
_LAST_OR: Final = 6
_LAST_XOR: Final = 7
_LAST_CODES: Final = {
    "+": _LAST_ADD,
    "-": _LAST_SUB,
    "x": _LAST_MUL,
    "/": _LAST_DIV,
    "&": _LAST_AND,
    "|": _LAST_OR,
    "^": _LAST_XOR,
}


def _last_value(code: int, left: int, right: int) -> int:
    """A side's last operation (:data:`_LAST_CODES`) on `left` and `right`. It never gives
    None: a difference is Python's, so a negative one fails by being below the context's
    floor (the side loops drop it; no test for None per filling), and a division that
    fails (by zero, or inexact) gives :data:`_FAILED`.

    >>> _last_value(_LAST_SUB, 1, 10), _last_value(_LAST_DIV, 110, 10)
    (-9, 11)
    >>> _last_value(_LAST_NONE, 0, 5), _last_value(_LAST_XOR, 6, 3)
    (5, 5)
    >>> _last_value(_LAST_DIV, 3, 2) == _last_value(_LAST_DIV, 1, 0) == _FAILED
    True
    """
    if code == _LAST_NONE:
        return right
    if code == _LAST_ADD:
        return left + right
    if code == _LAST_SUB:
        return left - right
    if code == _LAST_MUL:
        return left * right
    if code == _LAST_DIV:
        return _FAILED if right == 0 or left % right else left // right
    if code == _LAST_AND:
        return left & right
    if code == _LAST_OR:
        return left | right
    return left ^ right


#: An _Operation gives the result, or None when the step fails (a negative difference
#: without allow_negatives, an inexact division, division by zero).
_Operation = Callable[[int, int], "int | None"]
#: Per allow_negatives, per operator: the operation (C functions where nothing can fail).
_OPERATIONS: Final[dict[bool, dict[str, _Operation]]] = {
    negatives: {
        "+": operator.add,
        "-": operator.sub if negatives else _natural_difference,
        "x": operator.mul,
        "/": _exact_quotient,
        "&": operator.and_,
        "|": operator.or_,
        "^": operator.xor,
    }
    for negatives in (False, True)
}


# An identity fragment (RULES.md §7) is an operation of the parse tree with a bare number
# literal of its operator's neutral value as an operand; sides count theirs as they are
# written (see _pushed).
# Identity switches as bits (a side's fragments need all of its bits switched on).
_TIMES_ONE: Final = 1
_PLUS_MINUS_ZERO: Final = 2
_AND_ONE_OR_ZERO: Final = 4
_SWITCH_BITS: Final = {
    "identity_times_one": _TIMES_ONE,
    "identity_plus_minus_zero": _PLUS_MINUS_ZERO,
    "identity_and_one_or_zero": _AND_ONE_OR_ZERO,
}
# Per operator: its neutral literal value, whether a neutral literal on its left makes a
# fragment too (both as the referee has them), and the bit of the switch that allows its
# fragments (RULES.md §7).
_NEUTRAL: Final = {
    symbol: (value, either_side, _SWITCH_BITS[IDENTITY_SWITCH[symbol]])
    for symbol, (value, either_side) in NEUTRAL_LITERALS.items()
}

# -- cross-checks --------------------------------------------------------------------------

_CROSS_NONE: Final = 0
_CROSS_EQUATION: Final = 1
_CROSS_NUMBER: Final = 2


class _Tracker:
    """An object the cyclic garbage collector tracks (see :func:`_kept_tracked`)."""

    __slots__ = ()


_TRACKER: Final = _Tracker()


def _kept_tracked(table: dict[Any, Any]) -> dict[Any, Any]:
    """`table` with an entry no lookup asks for (keyed by :data:`_TRACKER`), so that the
    collector never untracks it.

    A dict whose keys and values are all untracked (tuples of numbers and strings, numbers)
    is untracked by every full collection, and tracked again, as a young object, by the
    next entry of a new tuple: the young collection that follows a call then walks the
    whole table (the pending operations tables grow to tens of thousands of entries: on a
    small rack's call after a full collection, a quarter of its instructions). Kept
    tracked, such a table stays in the oldest generation, which only full collections
    walk."""
    table[_TRACKER] = None
    return table


def _clear_tracked(table: dict[Any, Any]) -> None:
    """Empty a table of :func:`_kept_tracked`, keeping it tracked."""
    table.clear()
    table[_TRACKER] = None


# (before, after, rules, wanted) -> (mask of allowed options, per option: kind, value)
_CrossInfo = tuple[int, tuple[int, ...], tuple[int, ...]]
#: Per rules, (before, after, wanted) -> cross-check: hashing a Rules (a dataclass of many
#: fields) once per call instead of once per square.
_CROSS_CACHES: dict[Rules, dict[tuple[str, str, int], _CrossInfo]] = {}


def _cross_cache(rules: Rules) -> dict[tuple[str, str, int], _CrossInfo]:
    found = _CROSS_CACHES.get(rules)
    if found is None:
        if len(_CROSS_CACHES) >= 64:
            _CROSS_CACHES.clear()
        found = _CROSS_CACHES[rules] = _kept_tracked({})
    return found


@lru_cache(maxsize=64)
def _blank_options(rules: Rules) -> int:
    """The options a blank may show under `rules`, as a mask: what a rack with a blank
    wants (:attr:`_Context.wanted`)."""
    return sum(
        1 << option for option in _designations(rules) if option != ROTATED or rules.rotated_equals
    )


#: Per mask of options: its options in order (the options a cross-check tries).
_MASK_OPTIONS: dict[int, tuple[int, ...]] = _kept_tracked({})


def _cross_info(
    before: str,
    after: str,
    rules: Rules,
    wanted: int = _ALL_OPTIONS,
    cache: dict[tuple[str, str, int], _CrossInfo] | None = None,
    every: int = -1,
) -> _CrossInfo:
    """Which of the `wanted` options (a mask) may go between `before` and `after` (a
    crossing run), and as what: kind (equation or number) and value per option. `cache` is
    ``_cross_cache(rules)`` when the caller has it (a Rules hash is dear), and `every`
    ``_blank_options(rules)``."""
    if cache is None:
        cache = _cross_cache(rules)
    key = (before, after, wanted)
    found = cache.get(key)
    if found is not None:
        return found
    # A rack with a blank wants every option a blank may show: its cross-check, when made
    # already (often: an earlier rack's), holds this rack's too, as every option is tried
    # alone (kinds and values of options outside `wanted` are never read).
    if every < 0:
        every = _blank_options(rules)
    if wanted != every:
        whole = cache.get((before, after, every))
        if whole is not None:
            found = cache[key] = (whole[0] & wanted, whole[1], whole[2])
            return found
    mask = 0
    kinds = [_CROSS_NONE] * OPTION_COUNT
    values = [0] * OPTION_COUNT
    # Without an `=` in the run, only an `=` here could make it an equation (and, under
    # parallel_numbers, any option a number): the other options are not tried.
    has_equals = "=" in before or "=" in after
    parallel = rules.parallel_numbers
    if has_equals or parallel:
        tried = _MASK_OPTIONS.get(wanted)
        if tried is None:
            tried = _MASK_OPTIONS[wanted] = tuple(
                option for option in range(OPTION_COUNT) if wanted >> option & 1
            )
    else:
        tried = (_EQUALS_OPTION,) if wanted >> _EQUALS_OPTION & 1 else ()
    for option in tried:
        text = before + _OPTION_TEXTS[option] + after
        if has_equals or option == _EQUALS_OPTION:
            # Most options fail here: asking for None spares raising and catching.
            value = equation_value_or_none(text, rules)
            if value is not None:
                values[option] = value
                kinds[option] = _CROSS_EQUATION
                mask |= 1 << option
                continue
        if parallel and all(symbol in "01" for symbol in text):
            try:
                number_value(text, rules)
            except EquationError:
                continue
            kinds[option] = _CROSS_NUMBER
            mask |= 1 << option
    info = (mask, tuple(kinds), tuple(values))
    if len(cache) >= 1 << 16:
        _clear_tracked(cache)
    cache[key] = info
    return info


# -- results ---------------------------------------------------------------------------------


class GeneratedMove:
    """One legal placement found by the generator, with its score.

    ``squares`` are the squares of the new tiles in line order; ``options`` what each shows
    (internal codes: an index into :data:`binscrabble.rules.FACES`, or 11 for a rotated
    ``=``); ``blanks`` the indexes (into ``squares``) of the tiles that are blanks;
    ``direction`` the direction of the main run (:func:`binscrabble.move.play_direction`),
    ``text`` the main run and ``value`` its value (an equation's; under
    ``parallel_numbers`` a lone digit's main run may be a number, and then it is that
    number). Read :attr:`place` or :attr:`tiles` for the move itself: the
    :class:`~binscrabble.move.Place` is built on first use, because most generated moves
    are only ranked by score.
    """

    __slots__ = ("_place", "blanks", "direction", "options", "score", "squares", "text", "value")
    _place: Place

    def __init__(
        self,
        squares: tuple[int, ...],
        options: tuple[int, ...],
        blanks: tuple[int, ...],
        score: int,
        text: str,
        value: int,
        direction: Direction,
    ) -> None:
        self.squares = squares
        self.options = options
        self.blanks = blanks
        self.score = score
        self.text = text
        self.value = value
        self.direction = direction
        # `_place` is set on first use of :attr:`place` (a slot left empty until then:
        # most generated moves are only ranked, and one store fewer per move counts).

    @property
    def tiles(self) -> tuple[PlacedTile, ...]:
        """The new tiles, in square order."""
        return self.place.tiles

    @property
    def place(self) -> Place:
        """This placement as a :class:`~binscrabble.move.Place`."""
        try:
            return self._place
        except AttributeError:
            pass
        blanks = self.blanks
        place = self._place = Place(
            tuple(
                PlacedTile(
                    square,
                    _OPTION_FACES[option],
                    index in blanks,
                    option == ROTATED,
                )
                for index, (square, option) in enumerate(
                    zip(self.squares, self.options, strict=True)
                )
            )
        )
        return place

    @property
    def tile_count(self) -> int:
        """How many tiles the play puts down."""
        return len(self.squares)

    def __repr__(self) -> str:
        return f"<GeneratedMove {self.place!r} score={self.score}>"

    def __reduce__(self) -> tuple[Any, ...]:
        # Spelled out: a compiled class (see docs/movegen.md) has no default pickling.
        return (
            GeneratedMove,
            (
                self.squares,
                self.options,
                self.blanks,
                self.score,
                self.text,
                self.value,
                self.direction,
            ),
        )


def sort_key(
    move: GeneratedMove,
) -> tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The order moves are listed in: best score first, then a fixed tie-break.

    Among equal scores: fewer tiles first (they keep more of the rack), then across plays
    before down plays, then by squares (top-left first), then by what goes on them (faces
    in the order of :data:`binscrabble.rules.FACES`, flat before rotated), then by which
    are blanks (no blank first, then blanks further left first). The order depends on
    nothing but the moves, so it never varies.
    """
    return (-move.score, len(move.squares), move.direction, move.squares, move.options, move.blanks)


# -- the generator ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Rack:
    """What the rack holds, and which of its tiles (natural or blank) can show each option.

    Kept apart from :class:`_Context` because a lazy :class:`MoveList` keeps it to expand
    blank variants later, and must not keep the context's large caches alive.
    """

    rack_counts: tuple[int, ...]
    blanks: int
    natural: tuple[bool, ...]
    designable: tuple[bool, ...]
    realizations: dict[tuple[int, ...], list[tuple[int, ...]]]
    variant_counts: dict[int, int]
    #: The rack's tile counts with guard bits (:attr:`_Context.rack_guarded`), and the
    #: usage fields of the faces a blank may show, all bits set (see :func:`_one_blank_fields`).
    guarded: int
    designable_fields: int
    #: For a rack of one blank, per option usage: the field its natural tiles fall one
    #: short of, or -1, and its number of ways to be shown (:func:`_one_blank_fields`).
    short_fields: dict[int, tuple[int, int]] = field(default_factory=dict)


@dataclass(slots=True)
class _Context:
    """Everything fixed for one call: the rack, the rules, caches of side fillings.

    Sides are enumerated over *options* (what a square shows), not over rack tiles: a blank
    that shows ``1`` reads exactly like a natural ``1``, so which tiles are blanks is decided
    only for equations that are found (:func:`_realizations`), not once per partial side.
    """

    rules: Rules
    rack_counts: tuple[int, ...]
    rack_guarded: int
    blanks: int
    transitions: tuple[tuple[int, ...], ...]
    standard: bool
    operations: Mapping[str, _Operation]
    #: The least value a side may take (see :func:`_last_operations`): 0 without
    #: `allow_negatives`, else :data:`_NEGATIVE_FLOOR` (below every side's value).
    floor: int
    strength: Mapping[str, int]
    options_by_mask: dict[int, tuple[int, ...]]
    natural: tuple[bool, ...]
    designable: tuple[bool, ...]
    equals_usable: bool
    wanted: int
    side_cache: dict[tuple[str | int, ...], dict[int, _SideBucket]]
    splits: dict[tuple[str | int, ...], list[tuple[str | int, ...]] | None]
    layouts: dict[tuple[str | int, ...], tuple[int, ...]]
    frontiers: dict[tuple[str | int, ...], _Frontier]
    steps: dict[tuple[int, int], list[_Step]]
    #: Per mask, :func:`_steps` for every state; and only the steps into an accepting
    #: state (a side's last square).
    steps_by_state: dict[int, list[list[_Step]]]
    last_steps: dict[int, list[list[_Step]]]
    #: Per mask and state, by usage: the steps the rack still allows (:func:`_usable_steps`);
    #: for every square, and for a side's last. A usage decides the blanks it needs (each
    #: option beyond the rack's natural tiles of its kind), so it is the whole key.
    usable_steps: dict[int, list[dict[int, list[_UsableStep]]]]
    usable_last_steps: dict[int, list[dict[int, list[_LastStep]]]]
    kinds_by_marks: tuple[int, ...]
    deficits: dict[int, int]
    rack: _Rack
    #: How many free squares the rack can fill with digits (a rotated `=` is one), with
    #: binary operators, with NOT signs: blanks counted in each (see :func:`_may_fill`).
    digit_capacity: int
    operator_capacity: int
    not_capacity: int
    #: For the sides of a play that adds the new `=`: the same rules with one `=` fewer on
    #: the rack (a natural one when the rack holds one, else a blank), since that `=` takes
    #: a tile every such equation needs (:func:`_make_context`). None when those sides are
    #: this context's own (or no `=` can be added).
    equals_sides: _Context | None = None
    #: Per usage bucket of a side table (by ``id``: every bucket lives in a side cache as long
    #: as the context), its usages by the blanks each needs alone (:func:`_deficit_levels`).
    deficit_levels: dict[int, list[list[int]]] = field(default_factory=dict)
    #: Per usage bucket of a side table (by ``id``, as above), as the first side of a
    #: two-sided join: its usage groups the rack can show (:func:`_first_groups`); for
    #: joins without the new `=`, and with it.
    first_groups: dict[int, list[tuple[int, int, int, int, _KindParts]]] = field(
        default_factory=dict
    )
    equals_first_groups: dict[int, list[tuple[int, int, int, int, _KindParts]]] = field(
        default_factory=dict
    )
    #: The pending operations tuples met, each once, by number (a partial holds the number,
    #: see :data:`_Partial`; 0 is nothing pending), and the number of each tuple.
    pending_tuples: list[_Pending] = field(default_factory=lambda: [_NO_PENDING])
    pending_numbers: dict[_Pending, int] = field(default_factory=lambda: {_NO_PENDING: 0})
    #: Per pending operations number, once met at a side's end: what they do to the last
    #: operand (:func:`_last_operations`). Partials that stand alike hold equal pending
    #: operations, seldom as neighbours: on the heavy and median positions nine uses in ten
    #: find theirs kept.
    last_operations: list[_LastOperations | None] = field(default_factory=lambda: [None])
    #: Per (pending operations number, operand, its literal value, operator): the number of
    #: the pending operations once the operator follows (:func:`_pushed`), -1 when a step
    #: fails.
    pushes: dict[tuple[int, int, int, str], int] = field(default_factory=dict)
    #: Per (state, pending operations number, operand, fixed text): where a partial stands
    #: after the text (:func:`_read_text`).
    readings: dict[tuple[int, int, int, str], _Reading] = field(default_factory=dict)
    #: Per text of tiles: the side table of a side of those tiles alone (no free square),
    #: the same for every rack: shared like the tables above (:func:`_enumerate_side`).
    fixed_sides: dict[str, dict[int, _SideBucket]] = field(default_factory=dict)
    #: The generation these tables belong to, and through it the one before (see
    #: :func:`_arithmetic_tables`): what a table lacks is looked up there before it is
    #: worked out.
    generation: _Generation = field(default_factory=lambda: _Generation(None))
    #: Every usage a step leads to, once (see :func:`_usable_steps`).
    usages: dict[int, int] = field(default_factory=dict)
    #: The sums of usages a two-sided join met, by whether the rack can show them (whether
    #: their :func:`_deficit` is at most the rack's blanks): a membership test per pair of
    #: usage groups, not a call of ``deficits.get`` and a comparison. Those it can show are
    #: kept with the number of ways it can (:func:`_variant_count`), for the join's count.
    fitting: dict[int, int] = field(default_factory=dict)
    unfitting: set[int] = field(default_factory=set)


#: A side's fillings of one value and usage, split by identity fragments (RULES.md §7):
#: those with none, and those with one allowed (or more, under ``identity_chains``), in one
#: list: how many have none, then their texts, then the others' texts (``[plain, *texts]``).
#: Fillings whose fragments the rules forbid are left out. One list a group, not a tuple of
#: a list per kind: a heavy call makes 10,000-30,000 groups, and every object more is one
#: more to free at the call's end (see docs/movegen.md).
_KindParts = list[Any]
# A side's fillings of one value, grouped by option usage: fillings that use the same
# tiles fit the rack together with exactly the same partners, so pairs are checked once.
_SideBucket = dict[int, _KindParts]
#: A line beyond the board's edge (no tiles).
_NO_LINE: Final[list[Tile | None]] = [None] * SIZE
_OPTION_FIELD: Final = tuple(_EQUALS_OPTION if o == ROTATED else o for o in range(OPTION_COUNT))
_OPTION_USAGE: Final = tuple(
    (1 << (_FIELDS_AT + _FIELD_BITS * field)) + _FIELD_MIX[field] for field in _OPTION_FIELD
)
_OPTION_SHIFT: Final = tuple(_FIELDS_AT + _FIELD_BITS * field for field in _OPTION_FIELD)
_FIELD_MASK: Final = (1 << _FIELD_BITS) - 1


def _make_context(rack: str, rules: Rules) -> _Context:
    """The context of one call, with its :attr:`_Context.equals_sides`.

    Sides beside the new `=` are enumerated for the rack without that `=`: without a
    natural `=` it takes a blank, and the sides then have one blank fewer to show any option
    with (on a 9-tile rack with one blank and no `=` that is the difference between strings
    of the rack's own faces and strings of all eleven faces). The join still checks every
    equation against the whole rack, the new `=` included, so the equations are the same;
    only fillings no equation could use are never made. Which tile the new `=` spends does
    not matter: the blanks an option usage needs beyond the natural tiles are the same
    either way (one more `=` counted against the whole rack, or one `=` fewer on the rack).
    """
    context = _make_rack_context(rack, rules)
    # A natural `=` shows in a side only rotated: without `rotated_equals` the sides of the
    # rack with one `=` fewer are this rack's own, so they share this context's caches.
    if context.equals_usable and ("=" not in rack or rules.rotated_equals):
        spent = "=" if "=" in rack else BLANK
        context.equals_sides = _make_rack_context(rack.replace(spent, "", 1), rules)
    return context


#: How shapes split at their fixed `=` (:func:`_split_sides`) and where sides' free squares
#: are (:func:`_free_positions`): they depend on the shape alone, and the same shapes recur
#: from call to call (most sides are free squares and a few fixed digits), so these are
#: kept for every call, each context's :attr:`_Context.splits` and :attr:`_Context.layouts`.
_SPLITS: dict[tuple[str | int, ...], list[tuple[str | int, ...]] | None] = {}
_LAYOUTS: dict[tuple[str | int, ...], tuple[int, ...]] = _kept_tracked({})


def _make_rack_context(rack: str, rules: Rules) -> _Context:
    counts = [0] * (_BLANK_FIELD + 1)
    for code in rack:
        if code == BLANK:
            counts[_BLANK_FIELD] += 1
        elif code in FACES:
            counts[FACES.index(code)] += 1
        else:
            raise ValueError(f"{code!r} is not a rack tile code ({' '.join(FACES)} {BLANK})")
    if max(counts) >= _GUARD:
        raise ValueError(f"a rack may hold at most {_GUARD - 1} tiles of one kind")
    rack_guarded = _MIX_ROOM + sum(
        (_GUARD + count) << (_FIELDS_AT + _FIELD_BITS * field) for field, count in enumerate(counts)
    )
    blanks = counts[_BLANK_FIELD]
    if len(_SPLITS) >= 1 << 15:
        _SPLITS.clear()
    if len(_LAYOUTS) >= 1 << 15:
        _clear_tracked(_LAYOUTS)
    designations = _designations(rules)
    natural: list[bool] = []
    designable: list[bool] = []
    for option in range(OPTION_COUNT):
        allowed = option != ROTATED or rules.rotated_equals
        natural.append(allowed and counts[_OPTION_FIELD[option]] > 0)
        designable.append(allowed and blanks > 0 and option in designations)
    side_options = tuple(
        option
        for option in range(OPTION_COUNT)
        if option != _EQUALS_OPTION and (natural[option] or designable[option])
    )
    generation = _arithmetic_tables(rules)
    return _Context(
        rules=rules,
        rack_counts=tuple(counts),
        rack_guarded=rack_guarded,
        blanks=blanks,
        transitions=_TRANSITIONS[rules.leading_zeros],
        standard=rules.precedence == "standard",
        operations=_OPERATIONS[rules.allow_negatives],
        floor=_NEGATIVE_FLOOR if rules.allow_negatives else 0,
        strength=_STANDARD_STRENGTH if rules.precedence == "standard" else _FLAT_STRENGTH,
        options_by_mask={_ALL_OPTIONS: side_options},
        natural=tuple(natural),
        designable=tuple(designable),
        equals_usable=natural[_EQUALS_OPTION] or designable[_EQUALS_OPTION],
        wanted=sum(
            1 << option for option in range(OPTION_COUNT) if natural[option] or designable[option]
        ),
        side_cache={},
        splits=_SPLITS,
        layouts=_LAYOUTS,
        frontiers={},
        steps={},
        steps_by_state={},
        last_steps={},
        usable_steps={},
        usable_last_steps={},
        kinds_by_marks=_identity_kinds(rules),
        deficits={},
        digit_capacity=blanks
        + counts[FACES.index("0")]
        + counts[FACES.index("1")]
        + (counts[_EQUALS_OPTION] if rules.rotated_equals else 0),
        operator_capacity=blanks + sum(counts[FACES.index(symbol)] for symbol in _BINARY),
        not_capacity=blanks + counts[FACES.index("~")],
        rack=_Rack(
            rack_counts=tuple(counts),
            blanks=blanks,
            natural=tuple(natural),
            designable=tuple(designable),
            realizations={},
            variant_counts={},
            guarded=rack_guarded,
            designable_fields=sum(
                _FIELD_MASK << (_FIELDS_AT + _FIELD_BITS * face)
                for face in range(len(FACES))
                if designable[face]
            ),
        ),
        pending_tuples=generation.pending_tuples,
        pending_numbers=generation.pending_numbers,
        last_operations=generation.last_operations,
        pushes=generation.pushes,
        readings=generation.readings,
        fixed_sides=generation.fixed_sides,
        generation=generation,
    )


#: Per thread, per arithmetic (:func:`_arithmetic_key`): the tables of pending operations
#: (see :func:`_arithmetic_tables`), the most recently used last.
_ARITHMETIC: Final = threading.local()
#: How many pushes and readings one generation of tables may hold before new contexts start
#: a new one (:func:`_arithmetic_tables`): about 30 MB (180 bytes an entry, see there).
_ARITHMETIC_ENTRIES: Final = (1 << 17) + (1 << 15)
#: How many pushes and readings the tables of one thread may hold, every arithmetic and
#: both generations counted, before the least recently used arithmetic's are dropped: two
#: generations at the cap, and what a heavy call adds before the next context checks
#: (up to about 25,000): about 62 MB.
_ARITHMETIC_BUDGET: Final = 2 * _ARITHMETIC_ENTRIES + (1 << 14)


class _Generation:
    """One generation of the pending operations tables of one arithmetic: the tables a
    context uses (:attr:`_Context.pending_tuples`, ``pending_numbers``,
    ``last_operations``, ``pushes``, ``readings``, ``fixed_sides``), and the generation
    before it (`older`, or None), which is only read: what these tables lack is looked
    up there (:func:`_older_number`, :func:`_adopted`) before it is worked out.

    The two generations number their pending operations apart (each a list indexed by
    number), so `older_numbers` holds, per number of this generation looked up, the
    older generation's number of the same tuple (-1 when it has none)."""

    __slots__ = (
        "fixed_sides",
        "last_operations",
        "older",
        "older_numbers",
        "pending_numbers",
        "pending_tuples",
        "pushes",
        "readings",
    )

    def __init__(self, older: _Generation | None) -> None:
        self.pending_tuples: list[_Pending] = [_NO_PENDING]
        self.pending_numbers: dict[_Pending, int] = _kept_tracked({_NO_PENDING: 0})
        self.last_operations: list[_LastOperations | None] = [None]
        self.pushes: dict[tuple[int, int, int, str], int] = _kept_tracked({})
        self.readings: dict[tuple[int, int, int, str], _Reading] = _kept_tracked({})
        self.fixed_sides: dict[str, dict[int, _SideBucket]] = {}
        self.older = older
        self.older_numbers: dict[int, int] = {0: 0}

    def entries(self) -> int:
        """Pushes and readings held, the older generation's too."""
        own = len(self.pushes) + len(self.readings)
        older = self.older
        return own if older is None else own + len(older.pushes) + len(older.readings)


@lru_cache(maxsize=64)
def _arithmetic_key(rules: Rules) -> tuple[object, ...]:
    """What the pending operations tables' entries depend on, and nothing else: the
    operators' precedence (:attr:`_Context.strength`) and negatives
    (:attr:`_Context.operations`) for pushes and the last operations; which identity
    fragments a side may hold (:func:`_identity_kinds`), for the pushes that fail on a
    forbidden fragment and the last operations' kinds; leading zeros for the readings of
    fixed text (:func:`_read_text`) and the sides of tiles alone (:func:`_digit_run`).
    Rules that differ only elsewhere (``parallel_numbers``, ``rotated_equals``, the XOR
    tiles, the rack size, the bonus) share the tables. (Kept per rules: the same key
    object every call, so that moving it in the table of tables frees nothing, not even a
    key a caller's ``gc.freeze()`` froze.)"""
    return (
        rules.precedence,
        rules.allow_negatives,
        rules.leading_zeros,
        rules.identity_times_one,
        rules.identity_plus_minus_zero,
        rules.identity_and_one_or_zero,
        rules.identity_chains,
    )


def _arithmetic_tables(rules: Rules) -> _Generation:
    """The pending operations tables a context uses (see :class:`_Generation`), shared by
    every context of rules of the same arithmetic (:func:`_arithmetic_key`), across calls:
    they hold arithmetic only (what the operators do under the rules' precedence and
    negatives, which parts are identity fragments, what a side of tiles alone is worth),
    never anything of the rack or the board, so each call starts with the pending
    operations the earlier ones worked out. Kept per thread (a table is filled as it is
    used).

    Two generations: a generation past _ARITHMETIC_ENTRIES pushes and readings becomes
    the older one of a new, empty generation for the contexts made afterwards (never
    cleared under a context in use), and the one before it is dropped. Entries the new
    generation lacks are copied from the older one as they are asked for, so what calls
    still use survives a change of generation, and what they no longer use goes with the
    older one. Per thread at most _ARITHMETIC_BUDGET pushes and readings are kept over
    every arithmetic: past it, the least recently used arithmetic's tables are dropped.
    Memory: about 180 bytes an entry, pending operations, last operations and sides of
    tiles included (tracemalloc, the tables after the bench's 72 positions: 153,519
    entries, 27.1 MB; with two generations, 119,673 entries, 21.8 MB), so about 30 MB a
    generation at its cap and at most about 62 MB per thread (_ARITHMETIC_BUDGET, plus
    what the call in progress adds)."""
    kept: dict[tuple[object, ...], _Generation] | None = getattr(_ARITHMETIC, "tables", None)
    if kept is None:
        kept = _ARITHMETIC.tables = {}
    key = _arithmetic_key(rules)
    found = kept.get(key)
    if found is None or len(found.pushes) + len(found.readings) > _ARITHMETIC_ENTRIES:
        if found is not None:
            # The older generation's own older one goes (a context still using `found`
            # then works out what it lacks).
            found.older = None
            found.older_numbers = {0: 0}
        found = _Generation(found)
        kept.pop(key, None)
        kept[key] = found
    elif next(reversed(kept)) != key:
        # Most recently used last.
        del kept[key]
        kept[key] = found
    total = sum(generation.entries() for generation in kept.values())
    while total > _ARITHMETIC_BUDGET and len(kept) > 1:
        total -= kept.pop(next(iter(kept))).entries()
    if total > _ARITHMETIC_BUDGET and found.older is not None:
        found.older = None
        found.older_numbers = {0: 0}
    return found


def _older_number(generation: _Generation, older: _Generation, pending: int) -> int:
    """The older generation's number of `generation`'s pending operations `pending`, or
    -1 when it has none."""
    numbers = generation.older_numbers
    found = numbers.get(pending)
    if found is None:
        found = numbers[pending] = older.pending_numbers.get(generation.pending_tuples[pending], -1)
    return found


def _adopted(generation: _Generation, older: _Generation, number: int) -> int:
    """`generation`'s number of the older generation's pending operations `number`, taken
    in with its last operations when it lacks them."""
    pending = older.pending_tuples[number]
    found = generation.pending_numbers.get(pending)
    if found is None:
        found = generation.pending_numbers[pending] = len(generation.pending_tuples)
        generation.pending_tuples.append(pending)
        generation.last_operations.append(older.last_operations[number])
        generation.older_numbers[found] = number
    return found


def _side_options(context: _Context, mask: int) -> tuple[int, ...]:
    found = context.options_by_mask.get(mask)
    if found is None:
        everything = context.options_by_mask[_ALL_OPTIONS]
        found = tuple(option for option in everything if mask >> option & 1)
        context.options_by_mask[mask] = found
    return found


def _deficit(context: _Context, usage: int) -> int:
    """How many blanks the options counted in `usage` need beyond the natural tiles."""
    found = context.deficits.get(usage)
    if found is None:
        # Each field of the guarded difference is 16 + natural tiles - used (usage fields
        # stay below 16, so nothing borrows): a field short of tiles has lost its guard
        # bit, and lacks 16 minus the field's value, one more than the field's low bits
        # complemented. Those of the short fields are summed by one multiplication, which
        # adds every field into the top one (a usage takes at most a segment's squares:
        # no field of the sum carries).
        difference = context.rack_guarded - usage
        short = ~difference & _GUARDS
        if short:
            lacking = ~difference & (short >> _GUARD_BIT) * (_GUARD - 1)
            found = (lacking * _FIELD_ONES >> _TOP_FIELD_SHIFT & _FIELD_MASK) + short.bit_count()
        else:
            found = 0
        context.deficits[usage] = found
    return found


#: A partial side: (automaton state, text, option usage, pending operations (by their number
#: in :attr:`_Context.pending_tuples`: a number hashes and compares at once, where a tuple of
#: tuples is hashed anew at every lookup), the operand being read). After NOT the operand
#: is kept complemented, as NOT will read it (:data:`_CHARACTER_EFFECTS`), so that no digit
#: count is needed: ``~c`` over `d` digits, then a digit ``a``, read
#: ``~(2c + a) = 2 * ~c + (1 - a)`` over `d + 1`. (The blanks its usage needs are
#: :func:`_deficit`'s: a blank is spent only once the natural tiles of its kind are.) The
#: pending operations are the identity marks of what is written (see :func:`_pushed`), then
#: (left operand, operator, the left operand's value if it is a bare literal that makes an
#: identity fragment of the operation, else -1) for each operator still waiting for its
#: right operand, weakest first (a shunting-yard stack: an operator first applies every
#: pending one at least as strong, so there is at most one per precedence level). The
#: side's value is thus worked out as it is written, each step once for every side sharing
#: it, and a step that fails (a negative difference, an inexact division) drops every side
#: that starts with it. A tuple holds only what decides the side's value and its identity
#: kind from there on (see :func:`_pushed`), so that partials which differ in nothing else
#: share one number, and with it the pushes, readings and last operations worked out for it.
_Pending = tuple[Any, ...]
_Partial = tuple[int, str, int, int, int]
#: A frontier (:func:`_frontier`): its partials' fields one after the other in one flat list,
#: _PARTIAL_FIELDS a partial, not a tuple per partial. A heavy call keeps 60,000-80,000
#: partials, and freeing a tuple for each at the call's end, long after it was made, misses
#: the caches (see docs/movegen.md). The partials are read back by ``zip`` of one iterator
#: over the list, once per field (``fields = iter(frontier)``, ``zip(fields, fields, fields,
#: fields, fields)``): it makes one tuple and, as each is unpacked at once, reuses it.
_Frontier = list[Any]
_PARTIAL_FIELDS: Final = 5
#: The frontier before a side's first item: the empty side.
_START: Final[list[Any]] = [_EXPECT, "", 0, 0, 0]


#: A side's identity marks: how many fragments (0, 1, or 2 for "more than one") times
#: _ONE_FRAGMENT, plus the switches they need as bits. A pending operations tuple keeps
#: only whether the side has a fragment (_ONE_FRAGMENT or 0): see :func:`_pushed`.
_ONE_FRAGMENT: Final = 8
_TWO_FRAGMENTS: Final = 16
_NO_PENDING: Final[_Pending] = (0,)
#: What a character does to the value: a digit (the operand is multiplied and added to: a
#: rotated `=` adds two digits), NOT, or a binary operator.
_DIGITS: Final = 0
_NOT_SIGN: Final = 1
_OPERATOR: Final = 2
#: (field shift, natural tiles, blank may show it, the step): the step as :func:`_usable_steps`
#: lists it (:data:`_UsableStep`), made once.
_Step = tuple[int, int, bool, "_UsableStep"]
#: A free square's character in a side's text: the face, or ``R`` for a rotated `=` (it
#: reads ``11``, two characters, which would make positions ambiguous).
_SIDE_CHARACTERS: Final = (*FACES, "R")
_ROTATED_CHARACTER: Final = "R"
_OPTION_OF_CHARACTER: Final = {
    character: option for option, character in enumerate(_SIDE_CHARACTERS)
}
#: (option, character) for every character a free square can show in a side's text, and
#: the new `=` (``=``, which shows in no side).
_EQUALS_CHARACTER: Final = "="
_CHARACTER_OPTIONS: Final = tuple(enumerate(_SIDE_CHARACTERS))
#: (effect, multiplier, addend); after NOT a digit's addend is complemented (``multiplier -
#: 1 - addend``: see :data:`_Partial`).
_CHARACTER_EFFECTS: Final = {
    "0": (_DIGITS, 2, 0),
    "1": (_DIGITS, 2, 1),
    "R": (_DIGITS, 4, 3),
    "~": (_NOT_SIGN, 1, 0),
    **{symbol: (_OPERATOR, 1, 0) for symbol in _BINARY},
}
#: One way to fill a segment: (options of its free squares, the run's text, its value,
#: option usage).
_Filling = tuple[tuple[int, ...], str, int, int]


def _pushed(context: _Context, pending: int, operand: int, literal: int, operator: str) -> int:
    """The pending operations (by number, see :data:`_Partial`) once `operand` is read and
    `operator` follows it; -1 when a step fails. Kept in :attr:`_Context.pushes`.

    `literal` is the operand's value when it is a bare number (not under NOT), else -1: an
    operation of the parse tree with a bare literal of its operator's neutral value as an
    operand is an identity fragment (RULES.md §7), counted in the marks at ``pending[0]``
    of the pending operations tuple.

    The tuple keeps only what can still matter, so that partials differing in nothing else
    share it: of the marks, whether the side has a fragment (the switches were checked
    here, as each fragment was written, and a second fragment matters only as "more than
    one", which the kinds of one fragment more tell: so one stands for any number); of a
    waiting operand's literal value, only the operator's neutral value when a neutral
    literal on the left makes a fragment (the only test that reads it), else -1. (On
    game10-midgame-turn06-1blank, alone in a process, this takes the tuples from 3,105 to
    1,974 and the pushes worked out from 7,088 to 5,871.)
    """
    key = (pending, operand, literal, operator)
    generation = context.generation
    older = generation.older
    if older is not None:
        # Worked out by the generation before? (Its numbers are its own.)
        older_pending = _older_number(generation, older, pending)
        if older_pending >= 0:
            older_found = older.pushes.get((older_pending, operand, literal, operator))
            if older_found is not None:
                adopted = -1 if older_found < 0 else _adopted(generation, older, older_found)
                context.pushes[key] = adopted
                return adopted
    if pending:
        waiting_tuple = context.pending_tuples[pending]
        strength = context.strength
        level = strength[operator]
        marks = waiting_tuple[0]
        end = len(waiting_tuple)
        while end > 1:
            left, waiting, left_literal = waiting_tuple[end - 1]
            if strength[waiting] < level:
                break
            neutral, either_side, switch = _NEUTRAL[waiting]
            if literal == neutral or (either_side and left_literal == neutral):
                marks = (marks + _ONE_FRAGMENT if marks < _TWO_FRAGMENTS else marks) | switch
            result = context.operations[waiting](left, operand)
            if result is None:
                context.pushes[key] = -1
                return -1
            operand = result
            literal = -1
            end -= 1
        # (Only what can still matter: see above.)
        neutral, either_side, switch = _NEUTRAL[operator]
        kept = literal if either_side and literal == neutral else -1
        # A neutral literal on the left of a waiting operation is a fragment whatever its
        # right operand (see _last_operations), and every waiting operation applies before
        # the side ends: those fragments are written already.
        certain = marks
        for _, still_waiting, waiting_literal in waiting_tuple[1:end]:
            if waiting_literal >= 0:
                certain = _with_fragment(certain, _NEUTRAL[still_waiting][2])
        if kept >= 0:
            certain = _with_fragment(certain, switch)
        if context.kinds_by_marks[certain] < 0:
            # Fragments the rules forbid in one side (more than one without
            # `identity_chains`, or one whose switch is off): marks only grow as a side is
            # written, so no side that starts so is kept (see _last_operations); the
            # partial is dropped here, with everything that would follow it.
            context.pushes[key] = -1
            return -1
        found = (
            _ONE_FRAGMENT if marks >= _ONE_FRAGMENT else 0,
            *waiting_tuple[1:end],
            (operand, operator, kept),
        )
    else:
        # Nothing waits (a side's first operator, number 0 is _NO_PENDING): nothing applies.
        neutral, either_side, switch = _NEUTRAL[operator]
        kept = literal if either_side and literal == neutral else -1
        if kept >= 0 and context.kinds_by_marks[_with_fragment(0, switch)] < 0:
            # (A fragment written already, as above, whose switch is off.)
            context.pushes[key] = -1
            return -1
        found = (0, (operand, operator, kept))
    number = context.pending_numbers.get(found)
    if number is None:
        number = context.pending_numbers[found] = len(context.pending_tuples)
        context.pending_tuples.append(found)
        summary = None
        if older is not None:
            # The older generation may hold the tuple (reached by another push), and what
            # it does to a last operand.
            older_number = generation.older_numbers[number] = older.pending_numbers.get(found, -1)
            if older_number >= 0:
                summary = older.last_operations[older_number]
        context.last_operations.append(summary)
    context.pushes[key] = number
    return number


def _with_fragment(marks: int, switch: int) -> int:
    """Identity marks (see :data:`_ONE_FRAGMENT`) with one fragment more, of `switch`."""
    return (marks + _ONE_FRAGMENT if marks < _TWO_FRAGMENTS else marks) | switch


#: What a pending operations tuple does to a side's last operand (:func:`_last_operations`).
_LastOperations = tuple[int, int, int, int, int, tuple[Any, ...]]


def _last_operations(
    pending: _Pending, operations: Mapping[str, _Operation], kinds: tuple[int, ...]
) -> _LastOperations:
    """What `pending` does to a side's last operand, worked out once for many operands.

    The strongest waiting operation's left operand, operation (by code: :func:`_last_value`)
    and neutral value; the
    identity kind of the side (:attr:`_Context.kinds_by_marks`, negative when the rules
    forbid its fragments) when the last operand is that neutral value as a bare literal,
    and when it is anything else; and the weaker operations in the order they apply, as
    (left operand, operation, the ones after) nested, or () for none (a loop over a list
    would make an iterator per filling, and most sides have one weaker operation at most).
    Only the strongest can have a bare literal on its right, so the marks of the others
    are known before the last operand. With nothing pending the last operand is the value
    (:data:`_LAST_NONE`), and no operand is the neutral value -1. The strongest operation
    never fails with None: the caller drops a value below :attr:`_Context.floor` (0
    without `allow_negatives`), which a negative difference is, and a failed division
    gives :data:`_FAILED`.
    """
    if len(pending) == 1:
        kind = kinds[pending[0]]
        return (0, _LAST_NONE, -1, kind, kind, ())
    left, waiting, left_literal = pending[-1]
    neutral, either_side, switch = _NEUTRAL[waiting]
    marks_before = pending[0]
    # (The weaker operations as (left operand, operation): no lookup by operator per side.)
    weaker: list[tuple[int, _Operation]] = []
    for lower_left, lower_operator, lower_literal in pending[-2:0:-1]:
        weaker.append((lower_left, operations[lower_operator]))
        lower_neutral, lower_either, lower_switch = _NEUTRAL[lower_operator]
        if lower_either and lower_literal == lower_neutral:
            marks_before = (
                marks_before + _ONE_FRAGMENT if marks_before < _TWO_FRAGMENTS else marks_before
            ) | lower_switch
    marks_with = (
        marks_before + _ONE_FRAGMENT if marks_before < _TWO_FRAGMENTS else marks_before
    ) | switch
    kind_with = kinds[marks_with]
    # A neutral literal on the left is a fragment whatever the last operand is.
    kind_other = kind_with if either_side and left_literal == neutral else kinds[marks_before]
    lower: tuple[Any, ...] = ()
    for lower_left, lower_operation in reversed(weaker):
        lower = (lower_left, lower_operation, lower)
    return (
        left,
        _LAST_CODES[waiting],
        neutral,
        kind_with,
        kind_other,
        lower,
    )


def _steps(context: _Context, state: int, mask: int) -> list[_Step]:
    """The options a free square of `mask` may show after `state`, with what each needs.

    Each is (its rack field's shift, how many natural tiles of it the rack holds (0 when
    none may show it), whether a blank may show it, and the step: (character in the side's
    text, next state, one of that field, and what it does to the value:
    :data:`_CHARACTER_EFFECTS`)). Cached per (state, mask): the
    search asks this once per partial.
    """
    key = (state, mask)
    found = context.steps.get(key)
    if found is None:
        row = context.transitions[state]
        found = []
        for option in _side_options(context, mask):
            next_state = row[option]
            if next_state == _DEAD:
                continue
            shift = _OPTION_SHIFT[option]
            natural = context.rack_counts[_OPTION_FIELD[option]] if context.natural[option] else 0
            character = _SIDE_CHARACTERS[option]
            effect, multiplier, addend = _CHARACTER_EFFECTS[character]
            if effect == _DIGITS and state in _NEGATING:
                addend = multiplier - 1 - addend
            found.append(
                (
                    shift,
                    natural,
                    context.designable[option],
                    (character, next_state, _OPTION_USAGE[option], effect, multiplier, addend),
                )
            )
        context.steps[key] = found
    return found


#: Where a partial stands after fixed text (see :func:`_read_text`): (automaton state, pending
#: operations number, the operand being read), or () when the text cannot follow.
_Reading = tuple[int, int, int] | tuple[()]


#: What a digit symbol adds to the operand (after NOT, complemented: see :data:`_Partial`).
_BITS: Final = {"0": 0, "1": 1}
_NOT_BITS: Final = {"0": 1, "1": 0}


def _read_text(context: _Context, state: int, pending: int, current: int, text: str) -> _Reading:
    """Where a partial standing at (`state`, `pending`, `current`) stands once fixed text
    (tiles on the board) follows; () when that cannot be."""
    steps = _SYMBOL_STEPS[context.rules.leading_zeros]
    for symbol in text:
        next_state = steps[state][symbol]
        if next_state == _DEAD:
            return ()
        if symbol == "0" or symbol == "1":
            # (NOT's digits complemented: see _Partial.)
            bits = _NOT_BITS if next_state == _NOT_DIGITS else _BITS
            current = current * 2 + bits[symbol]
        elif symbol != "~":
            # NOT's operand is never a bare literal.
            literal = current if state != _NOT_DIGITS else -1
            operand = current
            found = context.pushes.get((pending, operand, literal, symbol))
            if found is None:
                found = _pushed(context, pending, operand, literal, symbol)
            if found < 0:
                return ()
            pending = found
            current = 0
        state = next_state
    return (state, pending, current)


def _new_reading(context: _Context, state: int, pending: int, current: int, text: str) -> _Reading:
    """:func:`_read_text` for :attr:`_Context.readings`: from the older generation of the
    tables when it holds the reading (see :class:`_Generation`)."""
    generation = context.generation
    older = generation.older
    if older is not None:
        older_pending = _older_number(generation, older, pending)
        if older_pending >= 0:
            found = older.readings.get((state, older_pending, current, text))
            if found is not None:
                if not found:
                    return found
                state, older_pending, current = found
                return (state, _adopted(generation, older, older_pending), current)
    return _read_text(context, state, pending, current, text)


#: A step the rack allows after a given usage (see :func:`_usable_steps`): (character,
#: next state, the usage after it, what it does, multiplier, addend). In :data:`_Step`, one
#: of its rack field stands for the usage after it.
_UsableStep = tuple[str, Any, Any, int, int, int]


def _blank_left(context: _Context, usage: int) -> bool:
    """Whether a blank of the rack is left once `usage` is spent (its natural tiles first).

    Without blanks on the rack, what a usage needs is not looked up; with them it is mostly
    known already, for another state or mask: no call then.
    """
    blanks = context.blanks
    return bool(blanks) and (context.deficits.get(usage) or _deficit(context, usage)) < blanks


def _usable_steps(context: _Context, steps: list[_Step], usage: int) -> list[_UsableStep]:
    """The steps (see :func:`_steps`) the rack still allows once `usage` is spent: by a
    natural tile while one of its kind is left, else by a blank when one is left.

    Each carries the usage after it, added here once per usage rather
    than by every partial that takes the step (usages take up to 80 bits, and CPython makes
    a new object for any arithmetic on such ints).
    """
    found = []
    # Every usage after a step is one object per context, so that the dicts keyed by usage
    # (the steps of the partials that reach it, side tables) find it by identity.
    usages = context.usages
    # A blank left may show any option a blank may show; the others, and every option when
    # no blank is left, need a natural tile of their kind.
    blank_left = _blank_left(context, usage)
    for shift, natural, blank_may, step in steps:
        if usage >> shift & _FIELD_MASK < natural or (blank_left and blank_may):
            character, next_state, one, effect, multiplier, addend = step
            after = usage + one
            found.append(
                (
                    character,
                    next_state,
                    usages.setdefault(after, after),
                    effect,
                    multiplier,
                    addend,
                )
            )
    return found


#: The states whose digits are NOT's (a side ending there ends in NOT's operand).
_NEGATING: Final = frozenset({_AFTER_NOT, _NOT_DIGITS})
#: These and the accepting states by state, for a test in a hot loop (an index is cheaper
#: than a set lookup).
_IS_NEGATING: Final = tuple(state in _NEGATING for state in range(_DEAD + 1))
_IS_ACCEPTING: Final = tuple(state in _ACCEPTING for state in range(_DEAD + 1))
#: A step to a side's last square the rack allows (see :func:`_usable_last_steps`):
#: (character, the usage after it, multiplier, addend).
_LastStep = tuple[str, Any, int, int]


def _usable_last_steps(context: _Context, steps: list[_Step], usage: int) -> list[_LastStep]:
    """The steps of :func:`_usable_steps` onto a side's last square, all digits: what the
    last operand needs of each (after NOT, complemented: see :data:`_Partial`)."""
    found = []
    blank_left = _blank_left(context, usage)
    for shift, natural, blank_may, step in steps:
        if usage >> shift & _FIELD_MASK < natural or (blank_left and blank_may):
            character, _, one, _, multiplier, addend = step
            after = usage + one
            found.append((character, after, multiplier, addend))
    return found


#: Per (run of fixed digits, leading_zeros): the state after it from each state, its
#: length and its value (the same runs recur in every call on a board).
_DIGIT_RUNS: dict[tuple[str, bool], tuple[tuple[int, ...], int, int, int]] = _kept_tracked({})


def _digit_run(digits: str, leading_zeros: bool) -> tuple[tuple[int, ...], int, int, int]:
    """A run of fixed digits: the state after it from each state, its length, its value, and
    its value complemented (read as NOT's digits, see :data:`_Partial`)."""
    run = (digits, leading_zeros)
    known = _DIGIT_RUNS.get(run)
    if known is None:
        if len(_DIGIT_RUNS) >= 1 << 14:
            _clear_tracked(_DIGIT_RUNS)
        known = _DIGIT_RUNS[run] = (
            tuple(_feed(state, digits, leading_zeros) for state in range(_DEAD + 1)),
            len(digits),
            int(digits, 2),
            (1 << len(digits)) - 1 - int(digits, 2),
        )
    return known


#: Fixed text after fewer partials than this is read by each (see :func:`_frontier`): the
#: readings are kept only for the long frontiers of racks with many fillings, where many
#: partials stand alike (kept from 16 partials on, they cost the small-rack and median
#: positions 1-3 million instructions more than they saved).
_SHARED_READINGS: Final = 128


def _frontier(context: _Context, items: tuple[str | int, ...]) -> _Frontier:
    """Every grammatical partial side over the shape `items`, as the rack allows.

    A partial (:data:`_Partial`) carries its text, usage and the value of what is written
    so far; a frontier holds them flat (:data:`_Frontier`). In the text a free square is
    one character (a rotated `=` is ``R``: :data:`_SIDE_CHARACTERS`), so where each free
    square's option is can be read back from the text. Frontiers are cached by shape
    prefix, so sides that start alike (very common: most begin with a few free squares)
    share the work of their common beginning.
    """
    cache = context.frontiers
    known = cache.get(items)
    if known is not None:
        return known
    # Each partial's fields are appended one by one (see _Frontier): the compiled module
    # appends to a list without a call, where a tuple of them for `extend` was an object
    # made and freed per partial (3.4% of a heavy call's instructions).
    found: _Frontier = []
    item = items[-1]
    parent = _frontier(context, items[:-1]) if len(items) > 1 else _START
    # The fields of a partial, typed: the compiled module then reads them as machine
    # integers (see docs/movegen.md, "The compiled generator").
    state: int
    text: str
    usage: Any
    pending: Any
    current: int
    # (The frontier's partials, see _Frontier.)
    fields = iter(parent)
    if type(item) is str:
        if item.isdigit():
            # Digits only (the commonest fixed text): the operand grows, nothing is reduced.
            after, digits, digits_value, complement = _digit_run(item, context.rules.leading_zeros)
            for state, text, usage, pending, current in zip(  # noqa: B905 (see _Frontier)
                fields, fields, fields, fields, fields
            ):
                state = after[state]
                if state != _DEAD:
                    current = (current << digits) + (
                        complement if state == _NOT_DIGITS else digits_value
                    )
                    found.append(state)
                    found.append(text + item)
                    found.append(usage)
                    found.append(pending)
                    found.append(current)
        elif len(parent) < _SHARED_READINGS * _PARTIAL_FIELDS:
            for state, text, usage, pending, current in zip(  # noqa: B905 (see _Frontier)
                fields, fields, fields, fields, fields
            ):
                read = _read_text(context, state, pending, current, item)
                if read:
                    state, pending, current = read
                    found.append(state)
                    found.append(text + item)
                    found.append(usage)
                    found.append(pending)
                    found.append(current)
        else:
            # Partials that stand alike before the text (many differ only in their text and
            # usage) read it alike: each reading is worked out once per context.
            readings = context.readings
            for state, text, usage, pending, current in zip(  # noqa: B905 (see _Frontier)
                fields, fields, fields, fields, fields
            ):
                reading_key = (state, pending, current, item)
                reading = readings.get(reading_key)
                if reading is None:
                    reading = readings[reading_key] = _new_reading(
                        context, state, pending, current, item
                    )
                if reading:
                    state, pending, current = reading
                    found.append(state)
                    found.append(text + item)
                    found.append(usage)
                    found.append(pending)
                    found.append(current)
    else:
        pushes = context.pushes
        mask = cast(int, item)
        by_state = context.steps_by_state.get(mask)
        if by_state is None:
            by_state = context.steps_by_state[mask] = [
                _steps(context, state, mask) for state in range(_DEAD + 1)
            ]
        usable_by_state = context.usable_steps.get(mask)
        if usable_by_state is None:
            usable_by_state = context.usable_steps[mask] = [{} for _ in range(_DEAD + 1)]
        # Module constants as locals: the loop below is the hottest of the search.
        digit_effect, operator_effect, not_digits = _DIGITS, _OPERATOR, _NOT_DIGITS
        for state, text, usage, pending, current in zip(  # noqa: B905 (see _Frontier)
            fields, fields, fields, fields, fields
        ):
            operand = -1
            # Only the steps the rack still allows after this usage (most partials share
            # their usage with many others, and most steps fail once tiles run out).
            usable = usable_by_state[state]
            steps = usable.get(usage)
            if steps is None:
                steps = usable[usage] = _usable_steps(context, by_state[state], usage)
            for character, next_state, next_usage, effect, multiplier, addend in steps:
                if effect == digit_effect:
                    found.append(next_state)
                    found.append(text + character)
                    found.append(next_usage)
                    found.append(pending)
                    found.append(current * multiplier + addend)
                elif effect == operator_effect:
                    if operand < 0:
                        # (NOT's operand, complemented already, is never a bare literal.)
                        operand = current
                        literal = current if state != not_digits else -1
                    # Partials with equal pending operations and operand push alike (their
                    # texts differ): on the heavy positions three pushes in five repeat
                    # one made before, so each is worked out once per context (a failed
                    # one kept as -1).
                    # (An object, as the table holds it: it goes into the frontier as is.)
                    pushed: Any = pushes.get((pending, operand, literal, character))
                    if pushed is None:
                        pushed = _pushed(context, pending, operand, literal, character)
                    if cast(int, pushed) >= 0:
                        found.append(next_state)
                        found.append(text + character)
                        found.append(next_usage)
                        found.append(pushed)
                        found.append(0)
                else:
                    found.append(next_state)
                    found.append(text + character)
                    found.append(next_usage)
                    found.append(pending)
                    found.append(0)
    cache[items] = found
    return found


def _enumerate_side(context: _Context, items: tuple[str | int, ...]) -> dict[int, _SideBucket]:
    """Every filling of one side's free squares that reads as a valid side, by value.

    `items` is the side's shape: fixed text (tiles on the board) or a mask of the options
    a free square allows. Fillings are grouped by value, then by option usage, then by
    identity fragments (:data:`_KindParts`), as texts (see :func:`_frontier`); a filling is
    kept when the rack's tiles, blanks included, can show it, and its identity fragments
    are allowed. When the frontier of `items` is not cached, the last square is stepped
    here without storing partials: a side's whole shape is often no other side's
    beginning.
    """
    cached = context.side_cache.get(items)
    if cached is not None:
        return cached
    item = items[-1]
    # A side of tiles alone (one text: the shape merges neighbouring tiles) has no free
    # square, so its table holds no rack usage and serves every rack: kept across calls,
    # as the tiles of a board stay on the next ones.
    if len(items) == 1 and type(item) is str:
        cached = context.fixed_sides.get(item)
        if cached is None:
            older = context.generation.older
            if older is not None:
                cached = older.fixed_sides.get(item)
                if cached is not None and len(context.fixed_sides) < _FIXED_SIDES:
                    context.fixed_sides[item] = cached
        if cached is not None:
            context.side_cache[items] = cached
            return cached
    results: dict[int, _SideBucket] = {}
    if type(item) is str and item[-1] != "0" and item[-1] != "1":
        # A side ends in a digit (RULES.md §6), so one whose fixed text ends in an
        # operator or NOT has no filling: its squares are not read (with two blanks such a
        # side could cost as much as a real one, for nothing).
        context.side_cache[items] = results
        return results
    # The fields of a partial, typed: the compiled module then reads them as machine
    # integers (see docs/movegen.md, "The compiled generator").
    state: int
    text: str
    usage: Any
    pending: Any
    current: int
    value: Any
    lowered: Any
    operations = context.operations
    kinds = context.kinds_by_marks
    floor = context.floor
    if items in context.frontiers or type(item) is str or len(items) == 1:
        # A side that ends in fixed digits (common beside a tile) is read from the partials
        # before them, the digits added in place: its own partials are not stored, since a
        # whole side is seldom another's beginning.
        ending = item if isinstance(item, str) else ""
        digit_end = len(items) > 1 and ending.isdigit() and items not in context.frontiers
        if digit_end:
            after, digits, digits_value, complement = _digit_run(
                ending, context.rules.leading_zeros
            )
        memo = context.last_operations
        is_accepting, not_digits, last_none = _IS_ACCEPTING, _NOT_DIGITS, _LAST_NONE
        fields = iter(_frontier(context, items[:-1] if digit_end else items))
        for state, text, usage, pending, current in zip(  # noqa: B905 (see _Frontier)
            fields, fields, fields, fields, fields
        ):
            if digit_end:
                state = after[state]
                current = (current << digits) + (
                    complement if state == not_digits else digits_value
                )
                text += ending
            if not is_accepting[state]:
                continue
            # As at a last free square below.
            # (The pending operations' number, read as a machine integer to index.)
            number = cast(int, pending)
            summary = memo[number]
            if summary is None:
                summary = memo[number] = _last_operations(
                    context.pending_tuples[number], operations, kinds
                )
            left, code, neutral, kind_with, kind_other, lower = summary
            if state == not_digits:
                # NOT's operand (complemented already) is never a bare literal.
                neutral = -1
            kind = kind_with if current == neutral else kind_other
            if kind < 0:
                continue
            value = current if code == last_none else _last_value(code, left, current)
            if cast(int, value) < floor:  # (compared as a machine integer)
                continue
            if lower:
                # (A weaker operation may fail: None, so its result has a name of its own.)
                lower_left, lower_operate, further = lower
                lowered = lower_operate(lower_left, value)
                while further and lowered is not None:
                    lower_left, lower_operate, further = further
                    lowered = lower_operate(lower_left, lowered)
                if lowered is None:
                    continue
                value = lowered
            bucket = results.get(value)
            if bucket is None:
                results[value] = {usage: [0, text] if kind else [1, text]}
                continue
            parts = bucket.get(usage)
            if parts is None:
                bucket[usage] = [0, text] if kind else [1, text]
            elif kind:
                parts.append(text)
            else:
                # (A filling without fragments goes after the others without: see
                # _KindParts.)
                plain = parts[0] + 1
                parts[0] = plain
                if len(parts) == cast(int, plain):
                    # No filling with fragments yet (the commonest): the end of the list,
                    # which the compiled module appends to without a call.
                    parts.append(text)
                else:
                    parts.insert(plain, text)
    else:
        mask = cast(int, item)
        by_state = context.last_steps.get(mask)
        if by_state is None:
            by_state = context.last_steps[mask] = [
                [step for step in _steps(context, state, mask) if step[3][1] in _ACCEPTING]
                for state in range(_DEAD + 1)
            ]
        usable_by_state = context.usable_last_steps.get(mask)
        if usable_by_state is None:
            usable_by_state = context.usable_last_steps[mask] = [{} for _ in range(_DEAD + 1)]
        is_negating, last_none = _IS_NEGATING, _LAST_NONE
        memo = context.last_operations
        fields = iter(_frontier(context, items[:-1]))
        for state, text, usage, pending, current in zip(  # noqa: B905 (see _Frontier)
            fields, fields, fields, fields, fields
        ):
            usable = usable_by_state[state]
            steps = usable.get(usage)
            if steps is None:
                steps = usable[usage] = _usable_last_steps(context, by_state[state], usage)
            if not steps:
                continue
            # The last operand meets the strongest waiting operation first, then each
            # weaker one in turn (see _last_operations): worked out once per pending
            # tuple, which partials with a common beginning share.
            # (The pending operations' number, read as a machine integer to index.)
            number = cast(int, pending)
            summary = memo[number]
            if summary is None:
                summary = memo[number] = _last_operations(
                    context.pending_tuples[number], operations, kinds
                )
            left, code, neutral, kind_with, kind_other, lower = summary
            if is_negating[state]:
                # The operand is NOT's digits (complemented already, and the steps add
                # complemented digits): never a bare literal.
                neutral = -1
            for character, next_usage, multiplier, addend in steps:
                operand = current * multiplier + addend
                # (The identity kind first: a side whose fragments the rules forbid is
                # dropped before its arithmetic.)
                kind = kind_with if operand == neutral else kind_other
                if kind < 0:
                    continue
                value = operand if code == last_none else _last_value(code, left, operand)
                if cast(int, value) < floor:
                    continue
                if lower:
                    # (A weaker operation may fail: None, so its result has a name of its own.)
                    lower_left, lower_operate, further = lower
                    lowered = lower_operate(lower_left, value)
                    while further and lowered is not None:
                        lower_left, lower_operate, further = further
                        lowered = lower_operate(lower_left, lowered)
                    if lowered is None:
                        continue
                    value = lowered
                # A new value or usage group gets its list made with its first filling (as
                # above).
                bucket = results.get(value)
                if bucket is None:
                    results[value] = {
                        next_usage: [0, text + character] if kind else [1, text + character]
                    }
                    continue
                parts = bucket.get(next_usage)
                if parts is None:
                    bucket[next_usage] = [0, text + character] if kind else [1, text + character]
                elif kind:
                    parts.append(text + character)
                else:
                    plain = parts[0] + 1
                    parts[0] = plain
                    if len(parts) == cast(int, plain):
                        parts.append(text + character)
                    else:
                        parts.insert(plain, text + character)
    context.side_cache[items] = results
    if len(items) == 1 and type(item) is str and len(context.fixed_sides) < _FIXED_SIDES:
        context.fixed_sides[item] = results
    return results


#: How many sides of tiles alone the tables of one rules keep (:attr:`_Context.fixed_sides`).
_FIXED_SIDES: Final = 1 << 14


def _narrowed_side(
    context: _Context, items: tuple[str | int, ...], whole: dict[int, _SideBucket]
) -> dict[int, _SideBucket]:
    """:func:`_enumerate_side` for `context`, from the side's fillings for a larger rack.

    `whole` holds the side's fillings for the whole rack (the side was met beside a fixed
    `=` too); those `context` (the rack with one `=` fewer) can show are exactly its usage
    groups that fit the smaller rack, so they are kept by group, not enumerated again.
    """
    guarded = context.rack_guarded
    blanks = context.blanks
    results: dict[int, _SideBucket] = {}
    for value, bucket in whole.items():
        kept = {
            usage: parts
            for usage, parts in bucket.items()
            if (guarded - usage) & _GUARDS == _GUARDS
            or (blanks and _deficit(context, usage) <= blanks)
        }
        if kept:
            results[value] = kept
    context.side_cache[items] = results
    return results


@lru_cache(maxsize=64)
def _designations(rules: Rules) -> frozenset[int]:
    """The options a blank may show under `rules` (kept: every context asks)."""
    return frozenset({FACES.index(face) for face in faces_in_game(rules)} | {ROTATED})


@lru_cache(maxsize=64)
def _identity_kinds(rules: Rules) -> tuple[int, ...]:
    """Per identity marks (see :func:`_pushed`): -1 when the rules forbid a side with them
    (a fragment whose switch is off, or a chain within the side while ``identity_chains``
    is off), 1 when the side has fragments the rules allow, 0 when it has none. Kept per
    rules: every context asks."""
    allowed = sum(bit for switch, bit in _SWITCH_BITS.items() if getattr(rules, switch))
    kinds = []
    for marks in range(3 * _ONE_FRAGMENT):
        fragments = marks // _ONE_FRAGMENT
        switches = marks % _ONE_FRAGMENT
        if not fragments:
            kinds.append(0)
        elif switches & ~allowed or (fragments > 1 and not rules.identity_chains):
            kinds.append(-1)
        else:
            kinds.append(1)
    return tuple(kinds)


def _free_positions(side: tuple[str | int, ...]) -> tuple[int, ...]:
    """Where a side's free squares are in its text (:func:`_frontier`)."""
    positions = []
    at = 0
    for item in side:
        if type(item) is str:
            at += len(item)
        else:
            positions.append(at)
            at += 1
    return tuple(positions)


def _two_layouts(
    layouts: dict[tuple[str | int, ...], tuple[int, ...]], sides: Sequence[tuple[str | int, ...]]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The free positions of a two-sided join's sides (:func:`_free_positions`), cached in
    `layouts`: two plain lookups, since two sides are the commonest join."""
    first_side, second_side = sides
    first_layout = layouts.get(first_side)
    if first_layout is None:
        first_layout = layouts[first_side] = _free_positions(first_side)
    second_layout = layouts.get(second_side)
    if second_layout is None:
        second_layout = layouts[second_side] = _free_positions(second_side)
    return first_layout, second_layout


def _split_sides(items: Sequence[str | int]) -> list[tuple[str | int, ...]] | None:
    """Cut a shape at its fixed `=` signs, merging neighbouring fixed text.

    None when a side would be empty (`=` at an end, or two in a row).
    """
    sides: list[tuple[str | int, ...]] = []
    current: list[str | int] = []
    for item in items:
        if type(item) is str:
            parts = item.split("=")
            for number, part in enumerate(parts):
                if number:
                    if not current:
                        return None
                    sides.append(tuple(current))
                    current = []
                if part:
                    if current and type(current[-1]) is str:
                        current[-1] = current[-1] + part
                    else:
                        current.append(part)
        else:
            current.append(item)
    if not current:
        return None
    sides.append(tuple(current))
    return sides


def _join(
    context: _Context,
    sides: list[tuple[str | int, ...]],
    equals_slot: int,
    out: list[_JoinGroup],
    reach: Callable[[int], bool] | None = None,
    side_context: _Context | None = None,
) -> bool:
    """Pair up fillings of the sides that share a value and that the rack can show together.

    Sides are enumerated and cached in `side_context` (by default `context`: the sides of a
    play that adds the new `=` come from :attr:`_Context.equals_sides`); the rack check of
    the join is always against `context`, the whole rack.

    `equals_slot` is the index (among the segment's free squares) where the new `=` goes,
    or -1; it is inserted into the options there. Appends the equations as groups
    (:data:`_JoinGroup`): per value, per combination of the sides' usage groups the rack can
    show, the sides' fillings, to be combined when read (:func:`_group_fillings`).

    `reach` (best moves only) says whether the segment could still reach the best scores
    with a bonus up to the given one; when the values the cheaper sides share cannot give a
    large enough bonus, the costliest side is not enumerated, and this returns False (the
    equations appended are then not all of them).
    """
    if side_context is None:
        side_context = context
    side_cache = side_context.side_cache
    layouts = context.layouts
    shared: set[int] | None = None
    tables: list[dict[int, _SideBucket]]
    free_positions: tuple[tuple[int, ...], ...]
    # Two sides are the commonest join: looked up without a comprehension's own frame.
    if len(sides) == 2:
        first_known = side_cache.get(sides[0])
        second_known = side_cache.get(sides[1])
        if reach is None and first_known is not None and second_known is not None:
            # Two sides enumerated already (the commonest join): one intersection of their
            # values (CPython walks the smaller table).
            shared = first_known.keys() & second_known.keys()
            if not shared:
                return True
            known: list[dict[int, _SideBucket] | None] = []
            tables = [first_known, second_known]
            free_positions = _two_layouts(layouts, sides)
        else:
            known = [first_known, second_known]
    else:
        # (map: a comprehension is a function call of its own in CPython 3.11.)
        known = list(map(side_cache.get, sides))
    if not known:
        pass  # the two enumerated sides above
    elif reach is None and None not in known:
        # Every side enumerated already (most joins: sides recur across segments).
        tables = cast("list[dict[int, _SideBucket]]", known)
        for table in sorted(tables, key=len):
            shared = set(table) if shared is None else shared.intersection(table)
            if not shared:
                return True
        free_positions = tuple(
            [
                layouts[side]
                if side in layouts
                else layouts.setdefault(side, _free_positions(side))
                for side in sides
            ]
        )
    else:
        # Sides with the fewest free squares first: they are the cheapest to enumerate, and
        # when one has no filling (or no value another shares) the costly ones are not needed.
        tables = [{}] * len(sides)
        if len(sides) == 2:
            free_positions = first_layout, second_layout = _two_layouts(layouts, sides)
            order = [0, 1] if len(first_layout) <= len(second_layout) else [1, 0]
            free = len(first_layout) + len(second_layout)
        else:
            free_positions = tuple(
                [
                    layouts[side]
                    if side in layouts
                    else layouts.setdefault(side, _free_positions(side))
                    for side in sides
                ]
            )
            order = sorted(range(len(sides)), key=lambda index: len(free_positions[index]))
            free = sum([len(positions) for positions in free_positions])
        if (
            free >= _LONG_JOIN
            and free > context.digit_capacity
            and not _may_fill(context, sides, free)
        ):
            return True
        for position in order:
            # The equation's value is one the cheaper sides share, so is its bonus.
            costliest = position == order[-1]
            if (
                reach is not None
                and costliest
                and shared is not None
                and not reach(bonus(max(shared)))
            ):
                return False
            enumerated = known[position]
            if enumerated is None:
                side = sides[position]
                whole = context.side_cache.get(side) if side_context is not context else None
                enumerated = (
                    _enumerate_side(side_context, side)
                    if whole is None
                    else _narrowed_side(side_context, side, whole)
                )
            tables[position] = enumerated
            shared = set(enumerated) if shared is None else shared.intersection(enumerated)
            if not shared:
                return True
    blanks = context.blanks
    # Whether a usage fits is read from the blanks it needs (_deficit, cached), not from
    # the guarded subtraction: usages take up to 80 bits, and CPython's arithmetic on such
    # ints makes a new object per step where a lookup makes none.
    deficits = context.deficits
    fitting, unfitting = context.fitting, context.unfitting
    chains = context.rules.identity_chains
    last = len(tables) - 1
    start_usage = _OPTION_USAGE[_EQUALS_OPTION] if equals_slot >= 0 else 0
    if last == 1:
        # Two sides (the commonest case): the product of their usage groups as two loops.
        first_table, second_table = tables
        candidates: Iterable[int]
        levels: list[list[int]] | None
        if not blanks:
            # Without blanks (most racks of the median and of rollouts) a group is read in
            # place: the groups it fits are those its partners fit (_first_groups below
            # costs more there than it saves).
            for value in shared or ():
                second_bucket = second_table[value]
                for first_usage, first_fillings in first_table[value].items():
                    usage = start_usage + first_usage
                    needed = deficits.get(usage)
                    if needed if needed is not None else _deficit(context, usage):
                        continue
                    first_plain = first_fillings[0]
                    first_all = len(first_fillings) - 1
                    for second_usage in second_bucket:
                        total = usage + second_usage
                        needed = deficits.get(total)
                        if needed if needed is not None else _deficit(context, total):
                            continue
                        second_fillings = second_bucket[second_usage]
                        if chains:
                            count = first_all * (len(second_fillings) - 1)
                        else:
                            count = (
                                first_plain * (len(second_fillings) - 1)
                                + (first_all - first_plain) * second_fillings[0]
                            )
                        if count:
                            out.append(
                                (
                                    value,
                                    equals_slot,
                                    free_positions,
                                    total,
                                    count,
                                    first_fillings,
                                    second_fillings,
                                )
                            )
            return True
        # What a first group needs does not depend on its partner, and a bucket is the
        # first side of many joins: its groups are read once (_first_groups) and kept.
        # (With blanks, a group counts moves: its equations times the ways the rack can
        # show their usage, see _JoinGroup.)
        rack = context.rack
        first_groups = context.first_groups if equals_slot < 0 else context.equals_first_groups
        for value in shared or ():
            second_bucket = second_table[value]
            first_bucket = first_table[value]
            prepared = first_groups.get(id(first_bucket))
            if prepared is None:
                prepared = _first_groups(context, first_bucket, start_usage, first_groups)
            levels = None
            for usage, room, with_length, with_head, first_fillings in prepared:
                if room == blanks:
                    candidates = second_bucket
                else:
                    # The blanks this group needs cannot serve the second side: only its
                    # groups that need at most the others alone can fit (a sum of usages
                    # needs at least the blanks of its parts).
                    if levels is None:
                        levels = context.deficit_levels.get(id(second_bucket))
                        if levels is None:
                            levels = _deficit_levels(context, second_bucket)
                    candidates = levels[room]
                # (Counts of fillings: see _KindParts.)
                for second_usage in candidates:
                    total = usage + second_usage
                    if total in unfitting:
                        continue
                    variants = fitting.get(total)
                    if variants is None:
                        if _deficit(context, total) > blanks:
                            unfitting.add(total)
                            continue
                        variants = fitting[total] = _variant_count(rack, total)
                    second_fillings = second_bucket[second_usage]
                    if chains:
                        count = with_length * (len(second_fillings) - 1)
                    else:
                        # Fragments in one side at most: plain with any, fragments with plain.
                        count = (
                            with_length * (len(second_fillings) - 1)
                            + with_head * second_fillings[0]
                        )
                    if count:
                        out.append(
                            (
                                value,
                                equals_slot,
                                free_positions,
                                total,
                                count * variants,
                                first_fillings,
                                second_fillings,
                            )
                        )
        return True
    if last == 2:
        # Three sides (a fixed `=` and the new one, nearly every join of more than two):
        # the walk below as three loops, in its order (its stack takes the first two
        # sides' groups last first), without a stack entry and a tuple per partial join.
        rack = context.rack
        first_table, second_table, third_table = tables
        for value in shared or ():
            second_items = second_table[value].items()
            third_items = third_table[value].items()
            for first_usage, first_fillings in reversed(first_table[value].items()):
                usage = start_usage + first_usage
                needed = deficits.get(usage)
                if (needed if needed is not None else _deficit(context, usage)) > blanks:
                    continue
                for second_usage, second_fillings in reversed(second_items):
                    pair = usage + second_usage
                    needed = deficits.get(pair)
                    if (needed if needed is not None else _deficit(context, pair)) > blanks:
                        continue
                    for third_usage, third_fillings in third_items:
                        total = pair + third_usage
                        needed = deficits.get(total)
                        if (needed if needed is not None else _deficit(context, total)) > blanks:
                            continue
                        joined = (first_fillings, second_fillings, third_fillings)
                        count = _combinations(joined, chains)
                        if count:
                            if blanks:
                                count *= _variant_count(rack, total)
                            out.append((value, equals_slot, free_positions, total, count, *joined))
        return True
    for value in shared or ():
        buckets = [table[value] for table in tables]
        # Depth-first product of the sides' usage groups, dropping partial joins the rack
        # cannot show; every surviving combination is one group of equations.
        stack: list[tuple[int, int, tuple[_KindParts, ...]]] = [(0, start_usage, ())]
        while stack:
            depth, usage, groups = stack.pop()
            for side_usage, fillings in buckets[depth].items():
                total = usage + side_usage
                needed = deficits.get(total)
                if (needed if needed is not None else _deficit(context, total)) > blanks:
                    continue
                if depth < last:
                    stack.append((depth + 1, total, (*groups, fillings)))
                    continue
                every = (*groups, fillings)
                count = _combinations(every, chains)
                if count:
                    if blanks:
                        count *= _variant_count(context.rack, total)
                    out.append((value, equals_slot, free_positions, total, count, *every))
    return True


def _first_groups(
    context: _Context,
    bucket: _SideBucket,
    start_usage: int,
    kept: dict[int, list[tuple[int, int, int, int, _KindParts]]],
) -> list[tuple[int, int, int, int, _KindParts]]:
    """The usage groups of `bucket` the rack can show as the first side of a two-sided join
    (with `start_usage`, the new `=`'s or none, added), in the bucket's order: for each,
    (its usage with `start_usage`, the blanks the rack has left once it is shown, `a`, `b`,
    its fillings), where it makes ``a * (len(other) - 1) + b * other[0]`` equations with a
    group `other` of the second side (see _KindParts). Kept in `kept` by the bucket's
    ``id``: a bucket is the first side of many joins (game08-midgame-turn06-2blank: 3,827
    iterations of 914 buckets), and what a group needs does not depend on its partner."""
    blanks = context.blanks
    deficits = context.deficits
    chains = context.rules.identity_chains
    prepared: list[tuple[int, int, int, int, _KindParts]] = []
    for usage, fillings in bucket.items():
        usage += start_usage
        needed = deficits.get(usage)
        if needed is None:
            needed = _deficit(context, usage)
        if needed <= blanks:
            # The pairs it makes with a group of the other side: `a` times all the other's
            # fillings and `b` times those without fragments (see _KindParts); under
            # identity_chains any with any, else fragments in one side at most.
            if chains:
                prepared.append((usage, blanks - needed, len(fillings) - 1, 0, fillings))
            else:
                plain = fillings[0]
                prepared.append(
                    (usage, blanks - needed, plain, len(fillings) - 1 - plain, fillings)
                )
    kept[id(bucket)] = prepared
    return prepared


def _deficit_levels(context: _Context, bucket: _SideBucket) -> list[list[int]]:
    """The usages of `bucket`, for each number of blanks `k` below the rack's: those that
    need at most `k` blanks alone (:func:`_deficit`), in the bucket's order. Kept in
    :attr:`_Context.deficit_levels`: the usages only, not (usage, fillings) pairs, which
    would be one more object per entry to free at the call's end (10,000-15,000 on the
    heavy racks); the join looks a usage's fillings up in the bucket once the rack allows
    the pair."""
    blanks = context.blanks
    levels: list[list[int]]
    deficits = context.deficits
    if blanks == 2:
        # (The heavy racks; one blank below.) Each level by itself, without a range per
        # usage.
        none: list[int] = []
        one: list[int] = []
        levels = [none, one]
        for usage in bucket:
            needed = deficits.get(usage)
            if needed is None:
                needed = _deficit(context, usage)
            if needed == 0:
                none.append(usage)
                one.append(usage)
            elif needed == 1:
                one.append(usage)
    elif blanks == 1:
        none = []
        levels = [none]
        for usage in bucket:
            needed = deficits.get(usage)
            if needed is None:
                needed = _deficit(context, usage)
            if needed == 0:
                none.append(usage)
    else:
        levels = [[] for _ in range(blanks)]
        for usage in bucket:
            needed = deficits.get(usage)
            if needed is None:
                needed = _deficit(context, usage)
            for level in range(needed, blanks):
                levels[level].append(usage)
    context.deficit_levels[id(bucket)] = levels
    return levels


#: Joins of fewer free squares are not tested by :func:`_may_fill`: their sides are cheap to
#: enumerate, and the test would cost more than it saves.
_LONG_JOIN: Final = 6


def _may_fill(context: _Context, sides: list[tuple[str | int, ...]], free: int) -> bool:
    """Whether the rack holds enough digits for `sides` to take `free` tiles at all: False
    only when no choice of tiles can fill them (a test of tile counts, no more).

    In a side of `o` operands there are ``o - 1`` binary operators and at most `o` NOT
    signs, and every operand holds a digit: a free square's, or one of a run of fixed
    digits. So the free squares hold at most ``d + runs - sides - fixed operators`` binary
    operators and ``d + runs`` NOT signs, `d` being the free squares showing digits (as many
    as the rack allows: more digits only leave fewer squares to fill otherwise). Blanks
    are counted as any of the three, which only makes the test weaker.
    """
    runs = operators = 0
    counts = _TEXT_COUNTS
    for side in sides:
        for item in side:
            if type(item) is str:
                found = counts.get(item)
                if found is None:
                    found = counts[item] = _text_counts(item)
                runs += found[0]
                operators += found[1]
    digits = min(context.digit_capacity, free)
    binary = min(context.operator_capacity, digits + runs - len(sides) - operators)
    negations = min(context.not_capacity, digits + runs)
    return free - digits <= max(binary, 0) + max(negations, 0)


#: Per fixed text: its runs of digits, and its binary operators (see :func:`_may_fill`).
_TEXT_COUNTS: dict[str, tuple[int, int]] = _kept_tracked({})


def _text_counts(text: str) -> tuple[int, int]:
    runs = operators = 0
    after_digit = False
    for symbol in text:
        if symbol == "0" or symbol == "1":
            if not after_digit:
                runs += 1
                after_digit = True
        else:
            after_digit = False
            if symbol != "~":
                operators += 1
    if len(_TEXT_COUNTS) >= 1 << 14:
        _clear_tracked(_TEXT_COUNTS)
    return runs, operators


#: Equations of one segment that share a value and a rack usage: every combination of one
#: filling per side (:data:`_KindParts`, in side order) whose identity fragments the rules
#: allow together. (value, free square of the new `=` or -1, per side where its free
#: squares are in its text, option usage, how many moves: its equations times the ways the
#: rack can show their usage (:func:`_variant_count`, the blank variants), then per side
#: its fillings: in the tuple itself, not in a tuple of their own, which would be one more
#: object for each of the 10,000-15,000 groups of a heavy call.)
_JoinGroup = tuple[Any, ...]
#: Where a join group's sides' fillings start (:data:`_JoinGroup`), and the length of a
#: group of two sides (nearly all).
_GROUP_SIDES: Final = 5
_TWO_SIDED: Final = 7


def _combinations(parts: tuple[_KindParts, ...], chains: bool) -> int:
    """How many equations join one filling of each side: identity fragments may be in any
    number of sides under ``identity_chains``, else in one side at most."""
    if len(parts) == 3:
        # (Nearly every join of more than two sides.) Plain in all three, or fragments in
        # one: all of the first's with plain of the others, and so on.
        first, second, third = parts
        if chains:
            return (len(first) - 1) * (len(second) - 1) * (len(third) - 1)
        plain_first, plain_second, plain_third = first[0], second[0], third[0]
        joined: int = (
            (len(first) - 1) * plain_second * plain_third
            + plain_first * (len(second) - 1 - plain_second) * plain_third
            + plain_first * plain_second * (len(third) - 1 - plain_third)
        )
        return joined
    if chains:
        count = 1
        for fillings in parts:
            count *= len(fillings) - 1
        return count
    plain_only = 1
    for fillings in parts:
        plain_only *= fillings[0]
    count = plain_only
    for index, fillings in enumerate(parts):
        with_fragments = len(fillings) - 1 - fillings[0]
        if with_fragments:
            others = 1
            for other, other_fillings in enumerate(parts):
                if other != index:
                    others *= other_fillings[0]
            count += with_fragments * others
    return count


#: Each character a side's text may hold (and the `=` between two sides) as the byte of
#: its option, for :func:`_two_sided_fillings`.
_OPTION_BYTES: Final = bytes.maketrans(
    "".join([*_OPTION_OF_CHARACTER, _EQUALS_CHARACTER]).encode("ascii"),
    bytes([*_OPTION_OF_CHARACTER.values(), _EQUALS_OPTION]),
)


def _group_fillings(group: _JoinGroup, chains: bool, rotated: bool) -> Iterable[_Filling]:
    """The equations of a join group, as fillings (options, text, value, option usage)."""
    if len(group) == _TWO_SIDED:
        found = _two_sided_fillings(group, chains, rotated)
        if found is not None:
            return found
    return _general_fillings(group, chains, rotated)


def _two_sided_fillings(group: _JoinGroup, chains: bool, rotated: bool) -> list[_Filling] | None:
    """:func:`_group_fillings` of a group of two sides (nearly all), in the same order, as
    a list: each equation's options read from its text at once (the text's bytes mapped
    to options, :data:`_OPTION_BYTES`, then picked at the free squares, the new `=`
    included), not a comprehension per side and a tuple built around the `=` (best moves
    read every group, and so does reading, under parallel_numbers, a segment that touches
    only through crossings: game08-midgame-turn06-2blank 823 groups of 1-8 equations). None when
    an equation has fewer than two free squares (a picker of one returns no tuple)."""
    value, equals_slot, (first_at, second_at), usage, _, first, second = group
    # A side's texts are all as long (a character per free square, then its tiles' texts).
    width = len(first[1])
    after = width + 1
    if equals_slot >= 0:
        # (The new `=` is the free square between the two sides.)
        positions = (*first_at, width, *[after + at for at in second_at])
    else:
        positions = (*first_at, *[after + at for at in second_at])
    if len(positions) < 2:
        return None
    read = operator.itemgetter(*positions)
    codes = _OPTION_BYTES
    first_plain, second_plain = first[0], second[0]
    # The pairs in the order of _general_fillings: every with every under identity_chains,
    # else plain with plain, then the first's fragments with the second's plain, then the
    # first's plain with the second's fragments.
    if chains:
        runs = [(first[1:], second[1:])]
    else:
        first_plains = first[1 : first_plain + 1]
        second_plains = second[1 : second_plain + 1]
        runs = [(first_plains, second_plains)]
        if len(first) - 1 > first_plain:
            runs.append((first[first_plain + 1 :], second_plains))
        if len(second) - 1 > second_plain:
            runs.append((first_plains, second[second_plain + 1 :]))
    found: list[_Filling] = []
    for lefts, rights in runs:
        for left in lefts:
            head = left + "="
            for right in rights:
                text = head + right
                # (A picker of two or more returns a tuple.)
                options = read(text.encode("ascii").translate(codes))
                found.append(
                    (
                        options,
                        text.replace(_ROTATED_CHARACTER, "11") if rotated else text,
                        value,
                        usage,
                    )
                )
    return found


def _general_fillings(group: _JoinGroup, chains: bool, rotated: bool) -> Iterator[_Filling]:
    """:func:`_group_fillings` of any group, one equation at a time."""
    value, equals_slot, free_positions, usage = group[:4]
    parts = group[_GROUP_SIDES:]
    combinations: Iterable[tuple[str, ...]]
    # (Each side's fillings: see _KindParts.)
    if chains:
        combinations = product(*[fillings[1:] for fillings in parts])
    else:
        plain_lists = [fillings[1 : fillings[0] + 1] for fillings in parts]
        runs = [product(*plain_lists)]
        for index, fillings in enumerate(parts):
            if len(fillings) - 1 > fillings[0]:
                runs.append(
                    product(
                        *plain_lists[:index],
                        fillings[fillings[0] + 1 :],
                        *plain_lists[index + 1 :],
                    )
                )
        combinations = chain.from_iterable(runs)
    option_of = _OPTION_OF_CHARACTER
    for combination in combinations:
        text = "=".join(combination)
        if rotated:
            text = text.replace(_ROTATED_CHARACTER, "11")
        options = tuple(
            [
                option_of[side[at]]
                # (Equal lengths; no `strict=`, whose keyword call is slow: this runs
                # per equation.)
                for side, positions in zip(combination, free_positions)  # noqa: B905
                for at in positions
            ]
        )
        if equals_slot >= 0:
            options = (*options[:equals_slot], _EQUALS_OPTION, *options[equals_slot:])
        yield options, text, value, usage


def _segment_groups(
    context: _Context,
    items: tuple[str | int, ...],
    reach: Callable[[int], bool] | None = None,
    equals_places: Sequence[tuple[int, int]] | None = None,
    fixed_equals: bool | None = None,
) -> tuple[list[_JoinGroup], bool]:
    """Every way to fill a segment's free squares (as options) so it reads as an equation,
    as join groups; and whether that is all of them (see `reach` in :func:`_join`).

    `equals_places` and `fixed_equals`, when given, say what the shape holds (the search
    knows it from its walk): where the new `=` may go, as (position in `items`, index among
    the free squares) for each free square that allows it, neither end; and whether a
    fixed text holds an `=`.
    """
    out: list[_JoinGroup] = []
    complete = True
    if fixed_equals is None:
        fixed_equals = False
        for item in items:
            if type(item) is str and "=" in item:
                fixed_equals = True
                break
    if fixed_equals:
        # Kept across calls: a whole shape recurs when a later call meets the same line.
        sides = context.splits.get(items, _UNSPLIT)
        if sides is _UNSPLIT:
            sides = context.splits[items] = _split_sides(items)
        if sides is not None:
            complete = _join(context, sides, -1, out, reach)
    if not context.equals_usable:
        return out, complete
    if equals_places is None:
        equals_places = _equals_places(items)
    equals_sides = context.equals_sides or context
    splits = context.splits
    # The new `=` ends the side before it, which must end with a digit, and starts the one
    # after it, which must start with an operand (see _OPERAND_START_OPTIONS): a place
    # beside a square or a tile that cannot is not joined (one of its sides has no filling).
    can_end = context.wanted & _OPERAND_END_OPTIONS
    can_start = context.wanted & _OPERAND_START_OPTIONS
    for position, free_index in equals_places:
        before = items[position - 1]
        if type(before) is str:
            if before[-1] in _CANNOT_END:
                continue
        elif not before & can_end:  # type: ignore[operator]
            continue
        after = items[position + 1]
        if type(after) is str:
            if after[0] in _CANNOT_START:
                continue
        elif not after & can_start:  # type: ignore[operator]
            continue
        if not fixed_equals:
            # The new `=` cuts the shape into its two sides.
            complete = (
                _join(
                    context,
                    [items[:position], items[position + 1 :]],
                    free_index,
                    out,
                    reach,
                    equals_sides,
                )
                and complete
            )
            continue
        # The new `=` cuts the shape in two; each half is split at its own fixed `=`
        # signs. Halves recur (segments of a line that start, or end, alike), so their
        # splits are kept.
        half = items[:position]
        left = splits.get(half, _UNSPLIT)
        if left is _UNSPLIT:
            left = splits[half] = _split_sides(half)
        if left is None:
            continue
        half = items[position + 1 :]
        right = splits.get(half, _UNSPLIT)
        if right is _UNSPLIT:
            right = splits[half] = _split_sides(half)
        if right is not None:
            complete = (
                _join(context, left + right, free_index, out, reach, equals_sides) and complete
            )
    return out, complete


def _equals_places(items: tuple[str | int, ...]) -> list[tuple[int, int]]:
    """Where the new `=` may go in a shape (see :func:`_segment_groups`): each free square
    whose mask allows it, but at either end (a side on each hand)."""
    places = []
    free_index = -1
    last = len(items) - 1
    for position, item in enumerate(items):
        if type(item) is str:
            continue
        free_index += 1
        if item >> _EQUALS_OPTION & 1 and 0 < position < last:  # type: ignore[operator]
            places.append((position, free_index))
    return places


#: Marks a shape part not split yet (None is a result: the part cannot be sides).
_UNSPLIT: Final[Any] = object()


def _realizations(rack: _Rack, options: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way the rack can show `options`: which squares hold blanks (index tuples).

    Two plays that differ only in which tiles are blanks are different moves (they score
    differently), so each choice of blank squares the rack allows is listed.
    """
    found = rack.realizations.get(options)
    if found is not None:
        return found
    if not rack.blanks:
        found = [()]
        rack.realizations[options] = found
        return found
    if rack.blanks == 1:
        found = rack.realizations[options] = _one_blank_realizations(rack, options)
        return found
    found = rack.realizations[options] = _searched_realizations(rack, options)
    return found


def _searched_realizations(rack: _Rack, options: tuple[int, ...]) -> list[tuple[int, ...]]:
    """:func:`_realizations` for any rack with blanks, by a search field by field (kept by
    what it depends on, for every rack and call)."""
    # Per rack field (an `=` and a rotated `=` share one), in the order fields first
    # appear, its squares, and how many of them may or must be blanks. Whether a face can
    # come from a natural tile or a blank depends only on its field. (Loops rather than a
    # helper and comprehensions: this runs once per equation a rack with blanks shows.)
    positions: dict[int, list[int]] = {}
    option_field = _OPTION_FIELD
    for position, option in enumerate(options):
        field = option_field[option]
        bucket = positions.get(field)
        if bucket is None:
            positions[field] = [position]
        else:
            bucket.append(position)
    counts = rack.rack_counts
    natural = rack.natural
    designable = rack.designable
    # What the choice depends on: per field, its squares, how many natural tiles it has,
    # whether a blank may show it; the same for many options (and racks), so it is cached.
    # As bytes (see _PATTERN_REALIZATIONS): the blanks, then per field its squares' positions
    # and a byte past any position for its tiles and whether a blank may show it.
    parts = [rack.blanks]
    for rack_field, squares in positions.items():
        parts.extend(squares)
        parts.append(
            _PATTERN_FIELD_END
            + 2 * (counts[rack_field] if natural[rack_field] else 0)
            + designable[rack_field]
        )
    pattern = bytes(parts)
    found = _PATTERN_REALIZATIONS.get(pattern)
    if found is not None:
        return found
    # Partial choices of blank squares, field by field, within the rack's blanks.
    partials: list[tuple[int, tuple[int, ...]]] = [(rack.blanks, ())]
    for rack_field, squares in positions.items():
        if not designable[rack_field]:
            if natural[rack_field] and len(squares) <= counts[rack_field]:
                continue  # natural tiles only, and enough of them
            partials = []
            break
        fewest = max(0, len(squares) - counts[rack_field]) if natural[rack_field] else len(squares)
        extended: list[tuple[int, tuple[int, ...]]] = []
        for budget, blank_at in partials:
            for size in range(fewest, min(len(squares), budget) + 1):
                if size == 0:
                    extended.append((budget, blank_at))
                    continue
                for chosen in combinations(squares, size):
                    extended.append((budget - size, blank_at + chosen))
        partials = extended
        if not partials:
            break
    if len(_BLANK_SQUARES) >= 1 << 14:
        _BLANK_SQUARES.clear()
    shared = _BLANK_SQUARES.setdefault
    listed: list[tuple[int, ...]] = []
    for _, blank_at in partials:
        squares_at = tuple(sorted(blank_at))
        listed.append(shared(squares_at, squares_at))
    if len(_PATTERN_REALIZATIONS) >= 1 << 14:
        _PATTERN_REALIZATIONS.clear()
    _PATTERN_REALIZATIONS[pattern] = listed
    return listed


def _one_blank_realizations(rack: _Rack, options: tuple[int, ...]) -> list[tuple[int, ...]]:
    """:func:`_realizations` for a rack of one blank, in the same order, without the table
    of partial choices: when some field's natural tiles fall one short, the blank is on one
    of that field's squares; else it is on no square, or on any square a blank may show,
    field by field from the last field to appear (as the general search lists them)."""
    # Per field, in the order fields first appear, its positions in `options` (as in
    # _searched_realizations).
    positions: dict[int, list[int]] = {}
    option_field = _OPTION_FIELD
    for position, option in enumerate(options):
        field = option_field[option]
        bucket = positions.get(field)
        if bucket is None:
            positions[field] = [position]
        else:
            bucket.append(position)
    counts = rack.rack_counts
    natural = rack.natural
    designable = rack.designable
    short_of: list[int] | None = None
    for rack_field, squares in positions.items():
        short = len(squares) - counts[rack_field] if natural[rack_field] else len(squares)
        if short > 0:
            if short > 1 or short_of is not None or not designable[rack_field]:
                return []
            short_of = squares
    if short_of is not None:
        return [(position,) for position in short_of]
    found: list[tuple[int, ...]] = [()]
    for rack_field in reversed(positions):
        if designable[rack_field]:
            found.extend([(position,) for position in positions[rack_field]])
    return found


def _field_uses(rack: _Rack, usage: int) -> list[tuple[int, int, int]]:
    """Per rack field an option usage takes squares of, in field order: (the field, its
    squares, how many of them the rack's natural tiles leave short: at most 0 when they
    suffice). The walk the variant counts share (:func:`_variant_count`)."""
    counts = rack.rack_counts
    natural = rack.natural
    uses = []
    field = -1
    rest = usage >> _FIELDS_AT
    while rest:
        used = rest & _FIELD_MASK
        rest >>= _FIELD_BITS
        field += 1
        if used:
            uses.append((field, used, used - counts[field] if natural[field] else used))
    return uses


def _one_blank_fields(rack: _Rack, usage: int) -> tuple[int, int]:
    """For a rack of one blank and an option usage: (the field the rack's natural tiles
    fall one square short of, whose squares then take the blank, or -1; how many ways the
    rack can show the usage, :func:`_variant_count`).

    With a short field, the blank is on one of its squares (:func:`_one_blank_realizations`);
    without one, on none or on any square of a field a blank may show (the running
    products of :func:`_few_blanks_variant_count` folded into a sum). A usage short of more
    than one tile, of two fields, or of a field no blank may show cannot be shown: (-1, 0).
    Kept in :attr:`_Rack.short_fields`.

    Read from the guarded difference of the rack and the usage (see :func:`_deficit`), not
    field by field: a field short of tiles has lost its guard bit, and holds 15 when it is
    short of exactly one.
    """
    difference = rack.guarded - usage
    short = ~difference & _GUARDS
    if short:
        shift = short.bit_length() - _FIELD_BITS
        if (
            short == _GUARD << shift
            and difference >> shift & _FIELD_MASK == _GUARD - 1
            and rack.designable[(shift - _FIELDS_AT) // _FIELD_BITS]
        ):
            found = ((shift - _FIELDS_AT) // _FIELD_BITS, usage >> shift & _FIELD_MASK)
        else:
            found = (-1, 0)
    else:
        # The squares of the fields a blank may show: their fields summed by one
        # multiplication, which adds every field into the top one (a usage takes at most
        # a rack's tiles, far below a field's 31: no field carries into the next).
        anywhere = (usage & rack.designable_fields) * _FIELD_ONES >> _TOP_FIELD_SHIFT & _FIELD_MASK
        found = (-1, 1 + anywhere)
    rack.short_fields[usage] = found
    return found


#: One in every usage field: a usage times this holds the sum of its fields in the top one.
_FIELD_ONES: Final = sum(1 << (_FIELD_BITS * field) for field in range(_BLANK_FIELD + 1))
_TOP_FIELD_SHIFT: Final = _FIELDS_AT + _FIELD_BITS * _BLANK_FIELD


#: :func:`_realizations` by what they depend on (the rack's blanks, then per field: its
#: squares, its natural tiles, whether a blank may show it), for every rack and call.
#: Kept across calls, so kept in few objects: keyed by bytes (see
#: :func:`_searched_realizations`), its lists holding the tuples of :data:`_BLANK_SQUARES`.
#: (Keyed by tuples of tuples, and holding tuples of their own, an entry was about 17 small
#: objects, and the listing of a two-blank rack adds thousands of entries: their blocks,
#: scattered among the call's freed ones, keep those pools in use, and the next calls'
#: objects land in them, all over the heap.)
_PATTERN_REALIZATIONS: dict[bytes, list[tuple[int, ...]]] = {}
#: Every tuple of blank positions the lists of _PATTERN_REALIZATIONS hold, once.
_BLANK_SQUARES: dict[tuple[int, ...], tuple[int, ...]] = {}
#: In a key of _PATTERN_REALIZATIONS, a field's last byte: this (past any position of a
#: segment's squares), plus twice its natural tiles (below _GUARD), plus one when a blank
#: may show it.
_PATTERN_FIELD_END: Final = SIZE


def _variant_count(rack: _Rack, usage: int) -> int:
    """How many ways the rack can show an equation of this option usage: the length of
    :func:`_realizations` for any options with that usage, counted without listing them.

    The count depends only on how many squares of each rack field the equation uses: a
    field of ``used`` squares with ``lowest`` to ``highest`` of them blanks adds
    C(used, b) ways for each b, within the rack's blanks overall.
    """
    found = rack.variant_counts.get(usage)
    if found is not None:
        return found
    if not rack.blanks:
        found = 1
    elif rack.blanks == 1:
        pair = rack.short_fields.get(usage)
        found = (pair if pair is not None else _one_blank_fields(rack, usage))[1]
    elif rack.blanks == 2:
        found = _few_blanks_variant_count(rack, usage)
    else:
        designable = rack.designable
        # Ways so far, by how many blanks are still unspent.
        ways = {rack.blanks: 1}
        for rack_field, used, short in _field_uses(rack, usage):
            if not designable[rack_field]:
                if short <= 0:
                    continue  # natural tiles only, and enough of them
                ways = {}
                break
            lowest = max(0, short)
            spread: dict[int, int] = {}
            for budget, number in ways.items():
                for size in range(lowest, min(used, budget) + 1):
                    spread[budget - size] = spread.get(budget - size, 0) + number * comb(used, size)
            ways = spread
            if not ways:
                break
        found = sum(ways.values())
    rack.variant_counts[usage] = found
    return found


def _few_blanks_variant_count(rack: _Rack, usage: int) -> int:
    """:func:`_variant_count` for a rack of two blanks (one is counted by
    :func:`_one_blank_fields`), read from the guarded difference of the rack and the usage
    (see :func:`_deficit`), not field by field.

    Per field of `used` squares the ways to put 0, 1 or 2 of them on blanks are C(used, b)
    when the rack's natural tiles leave at least b of them to blanks and a blank may show
    the field. The fields the natural tiles suffice for and a blank may show, `s` squares
    in all, thus give 1, s and C(s, 2) ways; a field short of tiles (its guard bit lost)
    takes one blank or two, and no usage short of more than two tiles, or of a field no
    blank may show, can be shown.
    """
    difference = rack.guarded - usage
    short = ~difference & _GUARDS
    anywhere = usage & rack.designable_fields
    if not short:
        # (A usage takes at most a segment's squares: no field of the sum carries.)
        spread = anywhere * _FIELD_ONES >> _TOP_FIELD_SHIFT & _FIELD_MASK
        return 1 + spread + spread * (spread - 1) // 2
    designable = rack.designable_fields
    shift = short.bit_length() - _FIELD_BITS
    if not designable >> shift & 1:
        return 0
    lacking = _GUARD - (difference >> shift & _FIELD_MASK)
    used = usage >> shift & _FIELD_MASK
    rest = short ^ _GUARD << shift
    if rest:
        # Two fields short of one tile each: a blank on a square of each.
        if lacking != 1:
            return 0
        other = rest.bit_length() - _FIELD_BITS
        if (
            rest != _GUARD << other
            or not designable >> other & 1
            or difference >> other & _FIELD_MASK != _GUARD - 1
        ):
            return 0
        return used * (usage >> other & _FIELD_MASK)
    if lacking == 2:
        return used * (used - 1) // 2
    if lacking != 1:
        return 0
    # One blank on the short field, and none, a second there, or one on another field.
    anywhere ^= anywhere & _FIELD_MASK << shift
    spread = anywhere * _FIELD_ONES >> _TOP_FIELD_SHIFT & _FIELD_MASK
    return used * (1 + spread) + used * (used - 1) // 2


def _line_squares(direction: Direction, line: int) -> range:
    if direction == ACROSS:
        return range(line * SIZE, line * SIZE + SIZE)
    return range(line, SIZE * SIZE, SIZE)


def _perpendicular_texts(cells: Sequence[Tile | None], sq: int, step: int) -> tuple[str, str]:
    """The texts of the tiles right before and after `sq` along `step` (ACROSS or DOWN)."""
    # Crossing runs are short: strings joined as they are read beat a list and a join.
    # (`step` is a plain int, 1 for ACROSS: comparing it with the IntEnum is slower.)
    if step == 1:
        low = sq - sq % SIZE
        high = low + SIZE - 1
    else:
        low = sq % SIZE
        high = low + SIZE * (SIZE - 1)
    before = ""
    current = sq - step
    while current >= low:
        tile = cells[current]
        if tile is None:
            break
        before = tile.text + before
        current -= step
    after = ""
    current = sq + step
    while current <= high:
        tile = cells[current]
        if tile is None:
            break
        after += tile.text
        current += step
    return before, after


def generate_placements(
    board: Board,
    rack: str,
    rules: Rules,
    *,
    limit: int | None = None,
    touching: Iterable[int] | None = None,
) -> list[GeneratedMove]:
    """Every legal placement of tiles from `rack` (codes, ``?`` for a blank) on `board`.

    Each placement appears exactly once, with its score; the list is in no particular
    order (sort with :func:`sort_key`). The first play is the one made on an empty board.

    The result is a :class:`MoveList`: every equation is found and counted before this
    returns, but the :class:`GeneratedMove` objects of its blank variants are made only when
    the list is read (``len`` needs none of them).

    With `limit`, moves that cannot be among the `limit` best are left out (the list still
    holds every move scoring at least the `limit`-th best score): segments are searched in
    the order of an upper bound on their scores and the search stops when the bound falls
    below the `limit`-th best score found; a blank scores 0, so a play with blanks never
    outscores the same play with natural tiles, and plays are skipped, blank variants and
    all, once that bound is below the current `limit`-th best.

    With `touching` (square indexes), only the placements with a run that contains one of
    those squares are found: the play's main run or the crossing run through one of its new
    tiles, runs of two squares or more (a number beside the play under parallel_numbers
    counts too, since the referee checks it). An empty square counts when the play puts a
    tile on it. Only the lines through those squares and the stretches of other lines whose
    crossing runs reach them are searched, so the search costs far less than the whole board
    (docs/movegen.md, "Plays touching given squares"). With `limit` as well, the `limit`
    best of those.

    >>> from binscrabble.rules import Rules
    >>> len(generate_placements(Board(), "1=", Rules()))
    0
    >>> sorted(move.text for move in generate_placements(Board(), "1=1", Rules()))[:1]
    ['1=1']
    >>> board = Board.from_rows(["." * 15] * 7 + [".......1=1....."] + ["." * 15] * 7)
    >>> every = generate_placements(board, "1=1", Rules())
    >>> beside_j8 = generate_placements(board, "1=1", Rules(), touching=[7 * 15 + 9])
    >>> 0 < len(beside_j8) < len(every)
    True
    """
    keys = None if touching is None else _touch_keys(board.cells, touching)
    with _collector_paused():
        found, rows, moves = _search(board, rack, rules, limit, keys)
        if limit is not None:
            return MoveList(moves)
        total = rows.move_count(found)
    return MoveList._lazy(total, chain.from_iterable(rows.move_batches(found)))


# -- rows: found equations whose blank variants are listed on demand ------------------------
#
# (squares, options, main-run text, value, direction, score with natural tiles only, per
# position of the squares the points a blank there would lose by option, option usage).
# Every blank variant of a row scores its natural score minus the losses at its blanks.
_Row = tuple[
    tuple[int, ...], tuple[int, ...], str, int, Direction, int, Sequence[tuple[int, ...]], int
]


def _row_moves(rack: _Rack, row: _Row) -> list[GeneratedMove]:
    """The moves of one row: one per way the rack can show it (:func:`_realizations`)."""
    return _batch_moves(rack, [row])


def _plain_moves(rows: list[_Row]) -> list[GeneratedMove]:
    """The moves of `rows` for a rack without blanks: one per row."""
    moves: list[GeneratedMove] = []
    for squares, options, text, value, direction, score, _, _ in rows:
        moves.append(GeneratedMove(squares, options, (), score, text, value, direction))
    return moves


def _batch_moves(rack: _Rack, rows: list[_Row]) -> list[GeneratedMove]:
    """The moves of `rows`, in order: per row, one per way the rack can show it
    (:func:`_realizations`)."""
    if not rack.blanks:
        return _plain_moves(rows)
    moves: list[GeneratedMove] = []
    known = rack.realizations
    for squares, options, text, value, direction, natural_score, losses, _ in rows:
        realizations = known.get(options)
        if realizations is None:
            realizations = _realizations(rack, options)
        for blanks in realizations:
            score = natural_score
            for position in blanks:
                score -= losses[position][options[position]]
            moves.append(GeneratedMove(squares, options, blanks, score, text, value, direction))
    return moves


_HeapEntry = tuple[
    tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]],
    int,
    list[GeneratedMove] | None,
    int,
]


class _BestFirst:
    """The moves of the rows in :func:`sort_key` order, each row expanded when first needed.

    A heap holds one entry per row. A row not yet expanded stands under the key of a
    variant with natural tiles only — its score bounds every variant's, and no blanks sort
    first — so it comes up no later than its first real variant; it is then expanded,
    its variants sorted, and it goes back under its first variant's real key.
    :meth:`drain` returns all the moves not yet given, in order, by one sort: cheaper than
    the heap when most of them are wanted.
    """

    __slots__ = ("heap", "rack", "rows")

    def __init__(self, rack: _Rack, rows: list[_Row]) -> None:
        self.rack = rack
        self.rows = rows
        self.heap: list[_HeapEntry] | None = None

    def __iter__(self) -> Iterator[GeneratedMove]:
        return self

    def __next__(self) -> GeneratedMove:
        heap = self.heap
        if heap is None:
            heap = self.heap = [
                ((-row[5], len(row[0]), row[4], row[0], row[1], ()), index, None, 0)
                for index, row in enumerate(self.rows)
            ]
            heapq.heapify(heap)
        while heap:
            _, index, variants, position = heap[0]
            if variants is None:
                variants = _row_moves(self.rack, self.rows[index])
                if not variants:
                    heapq.heappop(heap)
                    continue
                variants.sort(key=sort_key)
                heapq.heapreplace(heap, (sort_key(variants[0]), index, variants, 0))
                continue
            if position + 1 < len(variants):
                following = variants[position + 1]
                heapq.heapreplace(heap, (sort_key(following), index, variants, position + 1))
            else:
                heapq.heappop(heap)
            return variants[position]
        raise StopIteration

    def drain(self) -> list[GeneratedMove]:
        """Every move not given yet, in order (the iterator is then exhausted)."""
        rest: list[GeneratedMove] = []
        if self.heap is None:
            for row in self.rows:
                rest.extend(_row_moves(self.rack, row))
        else:
            for _, index, variants, position in self.heap:
                if variants is None:
                    rest.extend(_row_moves(self.rack, self.rows[index]))
                else:
                    rest.extend(variants[position:])
        self.heap = []
        rest.sort(key=sort_key)
        return rest


#: Per direction (ACROSS, DOWN), the squares a segment in that direction must cover so
#: that a run of its plays contains one of the squares asked for (see _touch_keys).
_TouchKeys = tuple[frozenset[int], frozenset[int]]


def _touch_keys(cells: Sequence[Tile | None], touching: Iterable[int]) -> _TouchKeys:
    """The squares a segment must cover for its plays to touch one of `touching`.

    Every empty square of a segment is filled by the play, so whether a play has a run
    through a square depends only on its segment: its main run is the segment itself, and
    the crossing run through one of its new tiles reaches an occupied square `s` exactly when
    that new tile stands on the empty square just beyond the tiles joined to `s` across the
    line. So a segment along a direction qualifies when it covers a square asked for (an
    empty one is then filled) or one of those ends of the crossing direction's tile blocks.
    """
    squares: set[int] = set()
    # (Read as objects: the compiled module would reject a non-integer before the check.)
    for sq in cast("Iterable[object]", touching):
        if not isinstance(sq, int):
            raise TypeError(f"touching holds {sq!r}, not a square index")
        if not 0 <= sq < SIZE * SIZE:
            raise ValueError(f"touching holds {sq}, not a square index (0 to {SIZE * SIZE - 1})")
        squares.add(int(sq))
    keys: list[frozenset[int]] = []
    for direction in (ACROSS, DOWN):
        # Crossing runs of a play along `direction` go the other way.
        step = direction.other
        found = set(squares)
        for sq in squares:
            if cells[sq] is None:
                continue
            if step == ACROSS:
                low, high = sq - sq % SIZE, sq - sq % SIZE + SIZE - 1
            else:
                low, high = sq % SIZE, sq % SIZE + SIZE * (SIZE - 1)
            current = sq
            while current > low and cells[current - step] is not None:
                current -= step
            if current > low:
                found.add(current - step)
            current = sq
            while current < high and cells[current + step] is not None:
                current += step
            if current < high:
                found.add(current + step)
        keys.append(frozenset(found))
    return keys[0], keys[1]


def _search(
    board: Board,
    rack: str,
    rules: Rules,
    limit: int | None,
    touch_keys: _TouchKeys | None = None,
    min_score: int | None = None,
) -> tuple[_Rack, _FoundRows, list[GeneratedMove]]:
    """Find every legal placement: as rows to be made when read (no `limit`) or, with
    `limit`, as the moves that may be among the `limit` best (and, with `min_score`, score
    at least that); with `touch_keys`, only those whose segment covers one of its squares of
    the segment's direction (see _touch_keys)."""
    group_cache: dict[tuple[str | int, ...], list[_JoinGroup]]
    if limit is None or BLANK in rack:
        # A blank's fillings are many (tens of megabytes with two blanks), and the
        # simulation's rollouts ask for racks without blanks (the opponent's are swapped
        # into the bag, our answer's stand for 1s): such a context is not kept.
        context = _make_context(rack, rules)
        group_cache = {}
    else:
        context, group_cache = _kept_context(rack, rules)
    rows = _FoundRows(context.blanks > 0, rules.identity_chains, rules.rotated_equals)
    moves: list[GeneratedMove] = []
    if not rack:
        return context.rack, rows, moves
    # Cross-checks only try what this rack can put down.
    wanted = context.wanted
    # What a segment's first and last free squares must allow (see _OPERAND_START_OPTIONS).
    can_start = wanted & _OPERAND_START_OPTIONS
    can_end = wanted & _OPERAND_END_OPTIONS
    # A free square may take the new `=` when its mask has this bit.
    equals_bit = 1 << _EQUALS_OPTION if context.equals_usable else 0
    cross_cache = _cross_cache(rules)
    blank_options = _blank_options(rules)
    cells = board.cells
    first_play = board.is_empty()
    # At most one `=` goes down as an `=` (RULES.md §4); the others only rotated, under
    # rotated_equals. A segment needs one tile per free square, so with two `=` or more on
    # a rack (common late in a game), the longest segments cannot be filled at all.
    equals_count = rack.count("=")
    rack_size = len(rack)
    if equals_count > 1 and not rules.rotated_equals:
        rack_size -= equals_count - 1
    # Where the new `=` may go among a segment's first `k` squares when they are free
    # squares that cross nothing (see the walk below): any but the first.
    leading_places: list[list[tuple[int, int]]] = [
        [(index, index) for index in range(1, lead)] if equals_bit else []
        for lead in range(rack_size + 1)
    ]
    bingo = rules.bingo_bonus
    full_rack = rules.rack_size
    parallel = rules.parallel_numbers
    keeper = _BestScores(limit, min_score) if limit is not None else None
    # A free square reads as one character, or two when it may hold a rotated `=` ("11").
    free_width = 2 if wanted >> ROTATED & 1 else 1
    natural_mask = sum(1 << option for option, usable in enumerate(context.natural) if usable)
    # The most points a natural tile scores on a plain square without crossing run.
    plain_points = _most_points(wanted & natural_mask)
    square_fields = _SQUARE_FIELDS[free_width]
    segments: list[tuple[tuple[str | int, ...], _Place]] = []
    # Without best moves, segments are kept as they are found (_Segment; see _emit_segment).
    emit = rows.segments.append
    bounds: list[int] = []
    # Without best moves (no score bounds summed per square), a line is scanned for its
    # tiles and crossing runs only (below).
    plain_scan = keeper is None and not first_play
    score_parts: list[tuple[int, int, int]] = []
    # The most letter points k tiles of the rack can score on plain squares: the sum of its
    # k best natural tiles' points (a blank scores none). A segment's new tiles are
    # distinct rack tiles, so on t triple-letter, d double-letter and k free squares in all
    # they score at most top_points[t] + top_points[t + d] + top_points[k] (the best tiles
    # on the best squares): far below the sum of each square's best option when the rack
    # holds one tile worth more than the others (a `/` is worth 4, an `x` 2).
    top_points = [0]
    for points in sorted((TILE_POINTS[code] for code in rack if code != BLANK), reverse=True):
        top_points.append(top_points[-1] + points)
    top_points.extend([top_points[-1]] * (len(rack) + 1 - len(top_points)))
    # Likewise the most digit characters k tiles of the rack can write: a 0 or a 1 one, a
    # blank one (two as a rotated `=`, "11"), an `=` two when it may go down rotated. An
    # equation's value is below 2 ** the digits of either side (see _DIGIT_BONUS_BOUNDS).
    rotated_digits = 2 if wanted >> ROTATED & 1 else 0
    digit_counts = {"0": 1, "1": 1, BLANK: max(1, rotated_digits), "=": rotated_digits}
    top_digits = [0]
    for digits in sorted((digit_counts.get(code, 0) for code in rack), reverse=True):
        top_digits.append(top_digits[-1] + digits)

    for direction in (ACROSS, DOWN):
        # A plain int: arithmetic on an IntEnum takes the interpreter's slow path.
        cross_step = int(direction.other)
        # Tested per square and per segment: a plain bool (comparing IntEnums is slower).
        across = direction == ACROSS
        direction_keys = None if touch_keys is None else touch_keys[direction != ACROSS]
        for line in range(SIZE):
            squares = _line_squares(direction, line)
            # Line indexes of the squares a segment here must cover (every index when the
            # search is not restricted): lines without any are skipped, scan and all.
            if direction_keys is None:
                line_keys: list[int] = []
            else:
                line_keys = [index for index, sq in enumerate(squares) if sq in direction_keys]
                if not line_keys:
                    continue
            texts: list[str | None]
            masks: list[int]
            crosses: list[_CrossInfo | None]
            if plain_scan:
                # The lists made whole (a free square without crossing run, and the
                # sentinel past the line's end, see below); only the squares that differ
                # are written. A square has a crossing run when the line before or after
                # this one (read as slices of the board) holds a tile beside it.
                texts = [None] * (SIZE + 1)
                masks = [_ALL_OPTIONS] * SIZE
                crosses = [None] * SIZE
                if across:
                    low = line * SIZE
                    line_before = cells[low - SIZE : low] if line else _NO_LINE
                    line_after = cells[low + SIZE : low + 2 * SIZE] if line < SIZE - 1 else _NO_LINE
                else:
                    line_before = cells[line - 1 :: SIZE] if line else _NO_LINE
                    line_after = cells[line + 1 :: SIZE] if line < SIZE - 1 else _NO_LINE
                # Line indexes of the tiles and of the squares with a crossing run: a
                # segment must hold one (below).
                anchors = []
                index = 0
                for sq in squares:
                    tile = cells[sq]
                    if tile is not None:
                        texts[index] = tile.text
                        masks[index] = 0
                        anchors.append(index)
                    elif line_before[index] is not None or line_after[index] is not None:
                        anchors.append(index)
                        before, after = _perpendicular_texts(cells, sq, cross_step)
                        info = cross_cache.get((before, after, wanted))
                        if info is None:
                            info = _cross_info(
                                before, after, rules, wanted, cross_cache, blank_options
                            )
                        masks[index] = info[0]
                        crosses[index] = info
                    index += 1  # noqa: SIM113 (enumerate costs more per square)
                if not anchors:
                    continue
                anchors.append(_PAST_LINE)
            else:
                texts = []
                masks = []
                crosses = []
                # For best moves, what bounds the score of a segment, per square packed in one
                # integer (see _square_fields) and summed from the line's start: sums[j] covers
                # the squares before index j, so a segment's sums are one subtraction.
                sums = [0]
                # Line indexes of the `=` tiles (for best moves' bonus bounds).
                equals_at: list[int] = []
                # Whether the line holds a tile or a square with a crossing run: a play must
                # touch one (but the first), so a line without either holds no segment.
                anchors = []
                for sq in squares:
                    tile = cells[sq]
                    if tile is not None:
                        anchors.append(len(texts))
                        texts.append(tile.text)
                        masks.append(0)
                        crosses.append(None)
                        if keeper is not None:
                            tile_text = tile.text
                            sums.append(
                                sums[-1]
                                + (len(tile_text) << _WIDTH_SHIFT)
                                + ((tile_text.count("0") + tile_text.count("1")) << _DIGITS_SHIFT)
                            )
                            if tile_text == "=":
                                equals_at.append(len(texts) - 1)
                        continue
                    texts.append(None)
                    # Most empty squares have no tile beside them across the line: looking at
                    # the two neighbours first spares reading the crossing texts.
                    if first_play or (
                        (sq < SIZE or cells[sq - SIZE] is None)
                        and (sq >= SIZE * (SIZE - 1) or cells[sq + SIZE] is None)
                        if across
                        else (sq % SIZE == 0 or cells[sq - 1] is None)
                        and (sq % SIZE == SIZE - 1 or cells[sq + 1] is None)
                    ):
                        info = None
                        mask = _ALL_OPTIONS
                    else:
                        anchors.append(len(texts) - 1)
                        before, after = _perpendicular_texts(cells, sq, cross_step)
                        known = cross_cache.get((before, after, wanted))
                        info = (
                            known
                            if known is not None
                            else _cross_info(
                                before, after, rules, wanted, cross_cache, blank_options
                            )
                        )
                        mask = info[0]
                    masks.append(mask)
                    crosses.append(info)
                    if keeper is None:
                        continue
                    if info is None:
                        sums.append(
                            sums[-1] + square_fields[sq] + plain_points * LETTER_MULTIPLIERS[sq]
                        )
                        continue
                    # The square's letter and crossing bounds depend on its crossing texts and
                    # the rack only: kept across calls (the boards of a rollout differ little).
                    square_key = (sq, before, after, wanted, natural_mask)
                    square_bounds = _SQUARE_BOUNDS.get(square_key)
                    if square_bounds is None:
                        square_bounds = _square_bounds(sq, info, wanted, natural_mask)
                        if len(_SQUARE_BOUNDS) >= 1 << 16:
                            _clear_tracked(_SQUARE_BOUNDS)
                        _SQUARE_BOUNDS[square_key] = square_bounds
                    sums.append(sums[-1] + square_fields[sq] + square_bounds)

                if first_play:
                    anchors = _EVERY_INDEX  # the first play need not touch anything
                elif not anchors:
                    continue
                else:
                    anchors.append(_PAST_LINE)
                # A sentinel past the line's end: a segment may end where the next text is None.
                texts.append(None)
            # The next anchor at or after the start (anchors end with _PAST_LINE).
            next_anchor = 0
            # No segment starting more free squares before the line's first anchor than the
            # rack can fill reaches it: the walk starts no earlier (see below).
            first_start = anchors[0] - rack_size
            for start in range(first_start if first_start > 0 else 0, SIZE):
                # (At start 0 this reads the sentinel, texts[-1].)
                if texts[start - 1] is not None:
                    continue
                # Nothing from here can be an equation when its first square cannot start one.
                first_text = texts[start]
                if first_text is None:
                    if not masks[start] & can_start:
                        continue
                elif first_text[0] in _CANNOT_START:
                    continue
                # A segment must hold a tile or a square with a crossing run (but the first
                # play): none is reached from here when the rack cannot fill the free
                # squares before the first one, nor from any later start past the last.
                while anchors[next_anchor] < start:
                    next_anchor += 1
                if anchors[next_anchor] - start > rack_size:
                    if anchors[next_anchor] == _PAST_LINE:
                        break
                    continue
                # A segment from here ends at `shortest` or later: an equation takes three
                # squares at least (a digit, `=`, a digit), the segment must reach the first
                # anchor (so it touches the board) and the first key square at or after
                # `start`.
                anchor = anchors[next_anchor]
                shortest = anchor if anchor >= start + 2 else start + 2
                if direction_keys is not None:
                    need = next((index for index in line_keys if index >= start), SIZE)
                    if need == SIZE:
                        break
                    if need > shortest:
                        shortest = need
                # The squares before the anchor are free and cross nothing, so they allow
                # every option: their part of the walk below is written at once (the
                # segment cannot end before the anchor), and the walk goes on from it.
                lead = anchor - start
                free = lead
                touches = False
                # An equation needs an `=`: one on the board, or a free square the rack's
                # `=` (or a blank) may take.
                may_equal = lead > 0 and equals_bit != 0
                # The segment's shape (see _emit_segment), grown square by square: the
                # segments from one start are each other's beginnings.
                items: list[str | int] = [_ALL_OPTIONS] * lead
                # Where the new `=` may go (see _segment_groups), and whether a tile of
                # the segment is an `=`.
                equals_places = leading_places[lead][:]
                fixed_equals = False
                # Whether the last item is tiles, and their text (neighbouring tiles join).
                after_tile = False
                block = ""
                for end in range(anchor, SIZE):
                    text = texts[end]
                    if text is None:
                        free += 1
                        if free > rack_size:
                            break
                        mask = masks[end]
                        if mask == 0:
                            break  # nothing may go here, and every segment through it fails
                        items.append(mask)
                        after_tile = False
                        if mask & equals_bit:
                            may_equal = True
                            if end != start:  # not the first item
                                equals_places.append((len(items) - 1, free - 1))
                    else:
                        touches = True
                        if "=" in text:
                            may_equal = fixed_equals = True
                        if after_tile:
                            block += text
                            items[-1] = block
                        else:
                            block = text
                            items.append(block)
                            after_tile = True
                    if texts[end + 1] is not None:
                        continue
                    if not may_equal or free == 0 or end < shortest:
                        continue
                    if text is None:
                        if not mask & can_end:
                            continue
                    elif text[-1] in _CANNOT_END:
                        continue
                    if first_play and (free < 3 or CENTER not in squares[start : end + 1]):
                        continue
                    if free == 1 and not across:
                        lone = next(squares[i] for i in range(start, end + 1) if texts[i] is None)
                        column = lone % SIZE
                        if (column > 0 and cells[lone - 1] is not None) or (
                            column < SIZE - 1 and cells[lone + 1] is not None
                        ):
                            continue  # counted once, as an across play (see play_direction)
                    segment_bingo = bingo if free == full_rack else 0
                    if keeper is not None:
                        # The segment's bound: its letter points (the sum of each free square's
                        # best, or the rack's best tiles on its best squares, whichever is
                        # less) plus the bonus, times the word multipliers, plus the crossing
                        # runs' scores and the bingo.
                        fields = sums[end + 1] - sums[start]
                        letters = fields & _FIELD_BYTE
                        tripled = fields >> _TRIPLED_SHIFT & _FIELD_BYTE
                        best_letters = (
                            top_points[tripled]
                            + top_points[tripled + (fields >> _DOUBLED_SHIFT & _FIELD_BYTE)]
                            + top_points[free]
                        )
                        if letters < best_letters:
                            best_letters = letters
                        word = _WORD_PRODUCTS[fields >> _WORD_SHIFT & _WORD_MASK]
                        crossing = (fields >> _CROSSING_SHIFT) + segment_bingo
                        bonus_bound = _BONUS_BOUNDS[fields >> _WIDTH_SHIFT & _FIELD_BYTE]
                        digits = (fields >> _DIGITS_SHIFT & _FIELD_BYTE) + top_digits[free]
                        if _DIGIT_BONUS_BOUNDS[digits] < bonus_bound:
                            bonus_bound = _DIGIT_BONUS_BOUNDS[digits]
                        if equals_at and equals_at[-1] >= start:
                            # With `=` tiles in the segment, each stretch between them (and
                            # the segment's ends) is a side, or holds several: the value is
                            # below 2 ** the digits it can hold, whichever is fewest.
                            stops = [at for at in equals_at if start <= at <= end]
                            stops.append(end + 1)  # the last stretch ends with the segment
                            side_start = start
                            fewest = SIZE * 2
                            for stop in stops:
                                side = sums[stop] - sums[side_start]
                                side_digits = (side >> _DIGITS_SHIFT & _FIELD_BYTE) + top_digits[
                                    side >> _FREE_SHIFT & _FIELD_BYTE
                                ]
                                if side_digits < fewest:
                                    fewest = side_digits
                                side_start = stop + 1
                            if _SIDE_BONUS_BOUNDS[fewest] < bonus_bound:
                                bonus_bound = _SIDE_BONUS_BOUNDS[fewest]
                        bound = (best_letters + bonus_bound) * word + crossing
                        if bound < keeper.floor:
                            # Below the floor before any segment is searched (min_score): it
                            # never will be.
                            continue
                    shape = tuple(items)
                    # Under parallel_numbers a segment touching only through crossings must
                    # check that its equations touch.
                    touch_check = parallel and not touches and not first_play
                    if keeper is None:
                        # Without best moves each segment's join groups are kept at once.
                        groups = group_cache.get(shape)
                        if groups is None:
                            places = equals_places
                            if places and places[-1][0] == len(items) - 1:
                                places = places[:-1]  # not at the end
                            groups = group_cache[shape] = _segment_groups(
                                context, shape, None, places, fixed_equals
                            )[0]
                        if not groups:
                            continue
                        # Where the segment is, for its scoring tables (_Place): made only
                        # for a segment with equations.
                        place = (
                            direction,
                            squares,
                            texts,
                            crosses,
                            start,
                            end,
                            segment_bingo,
                            touch_check,
                        )
                        # (Under parallel_numbers, with touch_check, some equations may
                        # not touch: they are left out when read, and counted without
                        # rows, _touching_move_count.)
                        emit((place, groups))
                        continue
                    place = (
                        direction,
                        squares,
                        texts,
                        crosses,
                        start,
                        end,
                        segment_bingo,
                        touch_check,
                    )
                    segments.append((shape, place))
                    bounds.append(bound)
                    score_parts.append((best_letters, word, crossing))

    if keeper is not None:
        # Most promising segments first; stop once no later one can reach the floor.
        order = sorted(range(len(segments)), key=bounds.__getitem__, reverse=True)
        emit_move = moves.append
        for index in order:
            if bounds[index] < keeper.floor:
                break
            shape, place = segments[index]
            _emit_segment(context, shape, place, group_cache, emit_move, keeper, score_parts[index])
    if parallel and not first_play:
        lone_rows: list[_Row] = []
        # A lone digit's runs are its across and down runs: it touches a key square of
        # either direction's segments.
        candidates = None if touch_keys is None else touch_keys[0] | touch_keys[1]
        _lone_digits_beside_numbers(context, cells, lone_rows.append, candidates)
        if keeper is None:
            rows.extra.extend(lone_rows)
        else:
            for row in lone_rows:
                moves.extend(_row_moves(context.rack, row))
            if min_score is not None:
                moves = [move for move in moves if move.score >= min_score]
    return context.rack, rows, moves


#: Past every line index: ends a line's list of anchors (see _search).
_PAST_LINE: Final = 4 * SIZE
#: The anchors of a line on the empty board (the first play need not touch a tile).
_EVERY_INDEX: Final = [*range(SIZE), _PAST_LINE]


#: Best moves keep the context of the last few racks, per thread (:func:`_kept_context`).
_KEPT: Final = threading.local()
#: How many racks' contexts a thread keeps; and the most sides one may hold before it is
#: started afresh (a few megabytes; a heavy position enumerates some 300 sides).
_KEPT_RACKS: Final = 3
_KEPT_SIDES: Final = 4000


def _kept_context(
    rack: str, rules: Rules
) -> tuple[_Context, dict[tuple[str | int, ...], list[_JoinGroup]]]:
    """The context of `rack` under `rules` for best moves, with its complete join groups
    by shape, kept across calls.

    Everything a context caches (side fillings, automaton steps, join groups of a shape)
    depends on the rack, the rules and the shapes only, never on the board: a shape carries
    its fixed texts and its squares' cross-check masks. The simulation asks for the same
    rack many times in a row (the opponent's dealt rack: its best plays before our move,
    then near each candidate, or in full after each), so the sides enumerated for one board
    serve the next. Kept per thread (a context's caches are filled as it is used), for the
    last _KEPT_RACKS racks without blanks.
    """
    kept: dict[tuple[str, Rules], tuple[_Context, dict[tuple[str | int, ...], list[_JoinGroup]]]]
    if hasattr(_KEPT, "contexts"):
        kept = _KEPT.contexts
    else:
        kept = _KEPT.contexts = {}
    key = (rack, rules)
    found = kept.pop(key, None)
    if found is None or len(found[0].side_cache) > _KEPT_SIDES:
        found = (_make_context(rack, rules), {})
        if len(kept) >= _KEPT_RACKS:
            del kept[next(iter(kept))]
    # The most recently used last.
    kept[key] = found
    return found


class _FoundRows:
    """The rows a search found: per segment, rows made from join groups when read
    (:data:`_Segment`, :func:`_read_segment`), and a few made already."""

    __slots__ = ("chains", "extra", "rotated", "segments", "with_blanks")

    def __init__(self, with_blanks: bool, chains: bool, rotated: bool) -> None:
        self.segments: list[_Segment] = []
        self.extra: list[_Row] = []
        self.with_blanks = with_blanks
        self.chains = chains
        self.rotated = rotated

    def __iter__(self) -> Iterator[_Row]:
        for batch in self.batches():
            yield from batch

    def batches(self) -> Iterator[list[_Row]]:
        """The rows, a segment at a time."""
        with_blanks, chains, rotated = self.with_blanks, self.chains, self.rotated
        for segment in self.segments:
            yield _read_segment(segment, with_blanks, chains, rotated, False)
        yield self.extra

    def move_batches(self, rack: _Rack) -> Iterator[list[GeneratedMove]]:
        """The moves of the rows, in order, a segment at a time (without blanks, made
        straight from the join groups: :func:`_read_segment`)."""
        with_blanks, chains, rotated = self.with_blanks, self.chains, self.rotated
        if rack.blanks:
            for segment in self.segments:
                yield _read_segment(segment, with_blanks, chains, rotated, True, rack)
        else:
            for segment in self.segments:
                yield _read_segment(segment, with_blanks, chains, rotated, True)
        yield _batch_moves(rack, self.extra)

    def move_count(self, rack: _Rack) -> int:
        """How many moves the rows make (blank variants included)."""
        # Segments of one shape share its join groups (one list, kept by shape for the
        # call), so each list is counted once.
        counts: dict[int, int] = {}
        count = 0
        for segment in self.segments:
            if not segment[0][7]:
                groups = id(segment[1])
                known = counts.get(groups)
                if known is None:
                    known = counts[groups] = _segment_move_count(segment, rack, self.chains)
                count += known
            else:
                count += _segment_move_count(segment, rack, self.chains)
        if not rack.blanks:
            return count + len(self.extra)
        return count + sum(_variant_count(rack, row[7]) for row in self.extra)


_MOST_POINTS: dict[int, int] = _kept_tracked({})


def _most_points(mask: int) -> int:
    """The most points a natural tile can score among the options of `mask`."""
    found = _MOST_POINTS.get(mask)
    if found is None:
        found = _MOST_POINTS[mask] = max(
            (_OPTION_POINTS[option] for option in range(OPTION_COUNT) if mask >> option & 1),
            default=0,
        )
    return found


def _lone_digits_beside_numbers(
    context: _Context,
    cells: Sequence[Tile | None],
    append: Callable[[_Row], None],
    candidates: Iterable[int] | None = None,
) -> None:
    """Under parallel_numbers: one digit whose across run is a number, down run an equation.

    A single tile's main run is across when it has a neighbour left or right
    (:func:`binscrabble.move.play_direction`); under parallel_numbers that run may be a
    number, and the play then touches, and scores, only through its down run. The line
    walk above never finds these plays, because it asks every main run to be an equation.
    With `candidates`, only those squares are tried.
    """
    rules = context.rules
    wanted = context.wanted
    digit_options = tuple(
        option
        for option in sorted(_DIGIT_OPTIONS)
        if context.natural[option] or context.designable[option]
    )
    for sq in range(SIZE * SIZE) if candidates is None else sorted(candidates):
        if cells[sq] is not None:
            continue
        # Most squares have no tile beside them both across and down: the neighbours are
        # looked at before any text is read.
        column = sq % SIZE
        if (column == 0 or cells[sq - 1] is None) and (column == SIZE - 1 or cells[sq + 1] is None):
            continue
        if (sq < SIZE or cells[sq - SIZE] is None) and (
            sq >= SIZE * (SIZE - 1) or cells[sq + SIZE] is None
        ):
            continue
        across = _perpendicular_texts(cells, sq, ACROSS)
        down = _perpendicular_texts(cells, sq, DOWN)
        _, down_kinds, down_values = _cross_info(down[0], down[1], rules, wanted)
        letter = LETTER_MULTIPLIERS[sq]
        word = WORD_MULTIPLIERS[sq]
        for option in digit_options:
            if down_kinds[option] != _CROSS_EQUATION:
                continue
            number_text = across[0] + _OPTION_TEXTS[option] + across[1]
            try:
                number = number_value(number_text, rules)
            except EquationError:
                continue
            # Only the down run scores; a blank there loses its tile's letter points.
            loss = _OPTION_POINTS[option] * letter * word
            score = (_OPTION_POINTS[option] * letter + bonus(down_values[option])) * word
            losses = ((loss,) * OPTION_COUNT,)
            usage = _OPTION_USAGE[option]
            append(((sq,), (option,), number_text, number, ACROSS, score, losses, usage))


# What bounds a segment's score (best moves), per square, packed in one integer so that a
# line's running sums give a segment's in one subtraction: bits 0-7 the most letter points
# its tile can score (letter multiplier included), 8-15 its width in characters (a tile's
# text, or a free square's one or two), 16-23 and 24-31 whether it is a free triple- or
# double-letter square, 32-35 and 36-39 whether it is a free double- or triple-word square,
# 40-47 the digit characters of its tile's text (a `0` or `1`; a rotated `=` reads `11`),
# 48-55 whether it is free, 56 and up the best score of its crossing run. Every field but
# the last stays below its next one on a line of 15 squares (at most 180 letter points, 30
# characters, 15 squares, 4 word squares, 30 digits), so sums never carry from one field
# into the next.
_FIELD_BYTE: Final = 255
_WIDTH_SHIFT: Final = 8
_TRIPLED_SHIFT: Final = 16
_DOUBLED_SHIFT: Final = 24
_WORD_SHIFT: Final = 32
_WORD_MASK: Final = _FIELD_BYTE
_DIGITS_SHIFT: Final = 40
_FREE_SHIFT: Final = 48
_CROSSING_SHIFT: Final = 56
#: The word multiplier of a segment by its packed counts of double- and triple-word squares.
_WORD_PRODUCTS: Final = tuple(2 ** (index & 15) * 3 ** (index >> 4) for index in range(256))
#: The bonus bound of an equation `width` characters wide: it has two sides or more around
#: at least one `=`, so its value is that of a side at most (width - 1) // 2 characters
#: long: below 2 ** that (each operator's result is below 2 ** the length of its text), so
#: its leading bit is at most half of it.
_BONUS_BOUNDS: Final = tuple(1 << max((width - 1) // 2 - 1, 0) for width in range(256))
#: The bonus bound of an equation one of whose sides holds `digits` digit characters at
#: most: its value is below 2 ** digits.
_SIDE_BONUS_BOUNDS: Final = tuple(1 << (digits - 1) if digits >= 1 else 0 for digits in range(512))
#: The bonus bound of an equation whose text holds `digits` digit characters: a value
#: written with d digits is below 2 ** d, whatever the operators (a sum or a product of
#: operands below 2 ** p and 2 ** q is below 2 ** (p + q); a difference, a quotient, AND,
#: OR and XOR are no larger in size than their larger operand; NOT of d digits is below
#: 2 ** d), and the two sides have equal values, so the one with fewer digits (at most half)
#: bounds both: the bound of a side of half the digits (:data:`_SIDE_BONUS_BOUNDS`).
_DIGIT_BONUS_BOUNDS: Final = tuple(_SIDE_BONUS_BOUNDS[digits // 2] for digits in range(512))


def _square_field(sq: int, free_width: int) -> int:
    """The packed fields of an empty square `sq` that do not depend on the board: its
    width, and its letter and word premiums."""
    letter = LETTER_MULTIPLIERS[sq]
    word = WORD_MULTIPLIERS[sq]
    return (
        (free_width << _WIDTH_SHIFT)
        + ((letter == 3) << _TRIPLED_SHIFT)
        + ((letter == 2) << _DOUBLED_SHIFT)
        + ((word == 2) << _WORD_SHIFT)
        + ((word == 3) << (_WORD_SHIFT + 4))
        + (1 << _FREE_SHIFT)
    )


#: Per free-square width (1, or 2 when a rotated `=` may go down), per square.
_SQUARE_FIELDS: Final = {
    width: tuple(_square_field(sq, width) for sq in range(SIZE * SIZE)) for width in (1, 2)
}
#: Packed letter and crossing bounds of an empty square with a crossing run, by (square,
#: crossing texts, options wanted, the rack's natural options).
_SQUARE_BOUNDS: dict[tuple[int, str, str, int, int], int] = _kept_tracked({})


def _square_bounds(sq: int, info: _CrossInfo, wanted: int, natural_mask: int) -> int:
    """The packed letter and crossing bounds of an empty square with a crossing run: the
    most points a natural tile of the rack allowed there scores (a blank scores none), and
    the best score of the crossing run over the options allowed."""
    usable = info[0] & wanted
    cross_scores = _crossing_tables(sq, info)[1]
    return _most_points(usable & natural_mask) * LETTER_MULTIPLIERS[sq] + (
        max((cross_scores[o] for o in range(OPTION_COUNT) if usable >> o & 1), default=0)
        << _CROSSING_SHIFT
    )


class _BestScores:
    """The `limit` best scores seen so far; `floor` is the lowest of them once full (and
    `minimum`, when given, until then: no score below it is wanted)."""

    __slots__ = ("floor", "limit", "scores")

    def __init__(self, limit: int, minimum: int | None = None) -> None:
        self.limit = max(limit, 1)
        self.scores: list[int] = []
        # Below every score until `limit` scores are in. Only scores reaching the floor are
        # added, so once full the floor stays at `minimum` or above.
        self.floor = -(1 << 62) if minimum is None else minimum

    def add(self, score: int) -> None:
        scores = self.scores
        heapq.heappush(scores, score)
        if len(scores) > self.limit:
            heapq.heappop(scores)
        if len(scores) == self.limit:
            self.floor = scores[0]


#: Per square and option: the option's points times the square's letter multiplier.
_LETTER_TABLES: Final = tuple(
    tuple(points * LETTER_MULTIPLIERS[sq] for points in _OPTION_POINTS) for sq in range(SIZE * SIZE)
)
_CROSSING_CACHE: dict[tuple[int, _CrossInfo], tuple[tuple[bool, ...], tuple[int, ...]]] = (
    _kept_tracked({})
)


def _crossing_tables(sq: int, info: _CrossInfo) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """Per option at `sq`: does its crossing run count as an equation, and that run's score."""
    key = (sq, info)
    found = _CROSSING_CACHE.get(key)
    if found is None:
        _, kinds, values = info
        letter = LETTER_MULTIPLIERS[sq]
        word = WORD_MULTIPLIERS[sq]
        crossing = tuple(kind == _CROSS_EQUATION for kind in kinds)
        scores = tuple(
            (_OPTION_POINTS[option] * letter + bonus(values[option])) * word
            if crossing[option]
            else 0
            for option in range(OPTION_COUNT)
        )
        if len(_CROSSING_CACHE) >= 1 << 16:
            _clear_tracked(_CROSSING_CACHE)
        found = _CROSSING_CACHE[key] = (crossing, scores)
    return found


_BLANK_LOSSES: dict[tuple[int, int, tuple[bool, ...] | None], tuple[int, ...]] = _kept_tracked({})


def _blank_losses(
    sq: int, word_multiplier: int, crossing: tuple[bool, ...] | None
) -> tuple[int, ...]:
    """Per option: the points a play loses when a blank shows it at `sq`, the play's word
    multiplier being `word_multiplier` and `crossing` telling (per option) whether the
    crossing run there is a scored equation (None: no crossing run). Cached: the same few
    squares and multipliers recur in every segment through them."""
    key = (sq, word_multiplier, crossing)
    found = _BLANK_LOSSES.get(key)
    if found is None:
        letter_table = _LETTER_TABLES[sq]
        if crossing is None:
            found = tuple([points * word_multiplier for points in letter_table])
        else:
            word = WORD_MULTIPLIERS[sq]
            found = tuple(
                [
                    points * (word_multiplier + word) if crossed else points * word_multiplier
                    for points, crossed in zip(letter_table, crossing, strict=True)
                ]
            )
        if len(_BLANK_LOSSES) >= 1 << 16:
            _clear_tracked(_BLANK_LOSSES)
        _BLANK_LOSSES[key] = found
    return found


def _emit_segment(
    context: _Context,
    shape: tuple[str | int, ...],
    place: _Place,
    group_cache: dict[tuple[str | int, ...], list[_JoinGroup]],
    emit: Callable[[Any], None],
    keeper: _BestScores,
    score_parts: tuple[int, int, int] = (0, 1, 0),
) -> None:
    """Find the equations of one segment for best moves: the moves that reach the floor of
    `keeper`, for `emit`; `score_parts` bound the segment's scores: (letter points, word
    multiplier, crossing scores and bingo). (Without best moves, :func:`_search` does the
    same inline, and keeps the equations as a :data:`_Segment`.)"""
    letters, word, rest = score_parts
    groups = group_cache.get(shape)
    if groups is None:

        def reach(bonus_bound: int) -> bool:
            return (letters + bonus_bound) * word + rest >= keeper.floor

        groups, complete = _segment_groups(context, shape, reach)
        if complete:
            group_cache[shape] = groups
    if not groups:
        return
    rules = context.rules
    direction = place[0]
    scoring: _SegmentScoring | None = None
    rack = context.rack
    for group in groups:
        # Every equation of a group has the group's value: when its bonus cannot lift the
        # segment's bound to the floor, none of them is read.
        if (letters + bonus(group[0])) * word + rest < keeper.floor:
            continue
        if scoring is None:
            scoring = _segment_scoring(place, context.blanks > 0)
            squares_tuple = scoring.squares
            blank_losses = scoring.blank_losses
        for filling in _group_fillings(group, rules.identity_chains, rules.rotated_equals):
            row = scoring.row(filling)
            if row is None:
                continue
            natural_score = row[5]
            if natural_score < keeper.floor:
                continue
            options = row[1]
            for blanks in _realizations(rack, options):
                score = natural_score
                for position in blanks:
                    score -= blank_losses[position][options[position]]
                if score < keeper.floor:
                    continue
                keeper.add(score)
                emit(
                    GeneratedMove(squares_tuple, options, blanks, score, row[2], row[3], direction)
                )


#: Where a segment is, for its scoring tables: (direction, squares of the line, texts,
#: cross-checks, start, end, bingo, whether its equations must be checked for touching).
_Place = tuple[Direction, range, list[str | None], list["_CrossInfo | None"], int, int, int, bool]


def _free_squares(place: _Place) -> tuple[list[int], list[_CrossInfo | None], int]:
    """A segment's free squares, in order, with their cross-checks, and the product of their
    word multipliers."""
    _, squares, texts, crosses, start, end, _, _ = place
    free_squares = []
    free_crosses = []
    word_multiplier = 1
    for index in range(start, end + 1):
        if texts[index] is None:
            sq = squares[index]
            free_squares.append(sq)
            free_crosses.append(crosses[index])
            word_multiplier *= WORD_MULTIPLIERS[sq]
    return free_squares, free_crosses, word_multiplier


def _segment_scoring(place: _Place, with_blanks: bool) -> _SegmentScoring:
    """The scoring tables of a segment (see :class:`_SegmentScoring`)."""
    direction, bingo, check_touch = place[0], place[6], place[7]
    free_squares, free_crosses, word_multiplier = _free_squares(place)
    # Per free square and option (natural tile): the letter score in the main run, the
    # crossing run's whole score (0 when there is none or it is a number under
    # parallel_numbers), and what the play loses when a blank shows that option there.
    letter_tables: list[tuple[int, ...]] = []
    cross_tables: list[tuple[int, ...] | None] = []
    blank_losses: list[tuple[int, ...]] = []
    equation_crossings: list[tuple[bool, ...] | None] = []
    # (Equal lengths; no `strict=`, whose keyword call is slow: this runs per segment read.)
    for sq, info in zip(free_squares, free_crosses):  # noqa: B905
        letter_table = _LETTER_TABLES[sq]
        letter_tables.append(letter_table)
        if info is None:
            cross_tables.append(None)
            equation_crossings.append(None)
            if with_blanks:
                blank_losses.append(_blank_losses(sq, word_multiplier, None))
            continue
        crossing, cross_scores = _crossing_tables(sq, info)
        equation_crossings.append(crossing)
        cross_tables.append(cross_scores)
        if with_blanks:
            blank_losses.append(_blank_losses(sq, word_multiplier, crossing))
    return _SegmentScoring(
        tuple(free_squares),
        direction,
        letter_tables,
        cross_tables,
        blank_losses,
        equation_crossings,
        word_multiplier,
        bingo,
        check_touch,
    )


#: Per (square, word multiplier, cross-check): :func:`_square_tables`.
_SQUARE_TABLES: dict[
    tuple[int, int, _CrossInfo | None], tuple[dict[str, tuple[int, int]], tuple[int, ...]]
] = _kept_tracked({})


def _square_tables(
    sq: int, word_multiplier: int, info: _CrossInfo | None
) -> tuple[dict[str, tuple[int, int]], tuple[int, ...]]:
    """What rows need of a free square: its reading (:func:`_reading`) and what a blank
    loses there (:func:`_blank_losses`), for a play of that word multiplier. Cached."""
    if info is None:
        found = (
            _reading(sq, word_multiplier, None),
            _blank_losses(sq, word_multiplier, None),
        )
    else:
        crossing, cross_scores = _crossing_tables(sq, info)
        found = (
            _reading(sq, word_multiplier, cross_scores),
            _blank_losses(sq, word_multiplier, crossing),
        )
    if len(_SQUARE_TABLES) >= 1 << 16:
        _clear_tracked(_SQUARE_TABLES)
    _SQUARE_TABLES[(sq, word_multiplier, info)] = found
    return found


_READINGS: dict[tuple[int, int, tuple[int, ...] | None], dict[str, tuple[int, int]]] = (
    _kept_tracked({})
)


def _reading(
    sq: int, word_multiplier: int, cross_scores: tuple[int, ...] | None
) -> dict[str, tuple[int, int]]:
    """Per character a free square at `sq` may show: its option, and what it adds to a
    play's natural score there (letter points times the play's word multiplier, plus the
    crossing run's score `cross_scores`). Cached: squares recur in every segment through
    them."""
    key = (sq, word_multiplier, cross_scores)
    found = _READINGS.get(key)
    if found is None:
        letter_table = _LETTER_TABLES[sq]
        found = {
            character: (
                option,
                letter_table[option] * word_multiplier
                + (0 if cross_scores is None else cross_scores[option]),
            )
            for option, character in _CHARACTER_OPTIONS
        }
        if len(_READINGS) >= 1 << 16:
            _clear_tracked(_READINGS)
        _READINGS[key] = found
    return found


class _SegmentScoring:
    """What scores the equations of one segment: per free square and option, the letter
    score in the main run, the crossing run's whole score, and what a blank loses there."""

    __slots__ = (
        "bingo",
        "blank_losses",
        "check_touch",
        "cross_tables",
        "direction",
        "equation_crossings",
        "letter_tables",
        "squares",
        "word_multiplier",
    )

    def __init__(
        self,
        squares: tuple[int, ...],
        direction: Direction,
        letter_tables: list[tuple[int, ...]],
        cross_tables: list[tuple[int, ...] | None],
        blank_losses: list[tuple[int, ...]],
        equation_crossings: list[tuple[bool, ...] | None],
        word_multiplier: int,
        bingo: int,
        check_touch: bool,
    ) -> None:
        self.squares = squares
        self.direction = direction
        self.letter_tables = letter_tables
        self.cross_tables = cross_tables
        self.blank_losses = blank_losses
        self.equation_crossings = equation_crossings
        self.word_multiplier = word_multiplier
        self.bingo = bingo
        # Under parallel_numbers a number crossing does not count as touching: a segment
        # that touches only through crossings keeps the equations with an equation crossing.
        self.check_touch = check_touch

    def row(self, filling: _Filling) -> _Row | None:
        """The row of one equation; None when it does not touch (see `check_touch`)."""
        options, text, value, usage = filling
        letters = 0
        crossing_score = 0
        # (Equal lengths; no `strict=`: zip called with a keyword takes CPython 3.11's slow
        # call path, and best moves make a row per equation they read.)
        if self.check_touch:
            # Whether it touches, in the same loop (not a generator of its own).
            touches = False
            for letter_table, cross_table, crossing, option in zip(  # noqa: B905
                self.letter_tables, self.cross_tables, self.equation_crossings, options
            ):
                letters += letter_table[option]
                if cross_table is not None:
                    crossing_score += cross_table[option]
                if crossing is not None and crossing[option]:
                    touches = True
            if not touches:
                return None
        else:
            for letter_table, cross_table, option in zip(  # noqa: B905
                self.letter_tables, self.cross_tables, options
            ):
                letters += letter_table[option]
                if cross_table is not None:
                    crossing_score += cross_table[option]
        # The score with natural tiles only; each blank then takes its tile's points away.
        natural_score = (
            (letters + bonus(value)) * self.word_multiplier + crossing_score + self.bingo
        )
        return (
            self.squares,
            options,
            text,
            value,
            self.direction,
            natural_score,
            self.blank_losses,
            usage,
        )


#: One segment's equations, their rows made when read (:func:`_read_segment`): where the
#: segment is, and its join groups. Counting them needs no row: each group knows how many
#: equations it joins, and every equation of a group has the same rack usage, so the same
#: number of blank variants (under parallel_numbers, a segment touching only through
#: crossings keeps the equations that touch: :func:`_touching_move_count`). (A tuple, not
#: an object: a search makes one per segment with equations.)
_Segment = tuple[_Place, list[_JoinGroup]]


def _read_segment(
    segment: _Segment,
    with_blanks: bool,
    chains: bool,
    rotated: bool,
    whole_moves: bool,
    rack: _Rack | None = None,
) -> list[Any]:
    """A segment's rows, in the order of its groups' equations (:func:`_group_fillings`);
    or with `whole_moves` their moves (for a rack with blanks, `rack`: per row, one per way
    the rack can show it, as :func:`_batch_moves` makes them), made without the rows
    themselves. `with_blanks`: whether the rack holds a blank; `chains` and `rotated`:
    the rules' identity_chains and rotated_equals."""
    place, groups = segment
    found: list[Any] = []
    if place[7]:
        # Under parallel_numbers, a segment touching only through crossings (rare).
        row_of = _segment_scoring(place, with_blanks).row
        for group in groups:
            for filling in _group_fillings(group, chains, rotated):
                row = row_of(filling)
                if row is not None:
                    found.append(row)
        if not whole_moves:
            return found
        return _plain_moves(found) if rack is None else _batch_moves(rack, found)
    direction = place[0]
    bingo = place[6]
    known_realizations = rack.realizations if rack is not None else {}
    # What lists the blank squares of an equation the rack has not shown yet (see
    # _realizations: this segment's rows all go the same way).
    one_blank = rack if rack is not None and rack.blanks == 1 else None
    # With one blank, the field a group's usage is short of (every equation of a group has
    # its usage): the blank is on one of that field's squares (see _one_blank_fields).
    short = -1
    option_field = _OPTION_FIELD
    # What the rows need of the scoring tables (see _segment_scoring): per free square
    # its reading (:func:`_reading`) and what a blank loses there.
    # (_free_squares inline: this runs per segment.)
    _, line_squares, texts, crosses, start, end, _, _ = place
    free_squares = []
    free_crosses = []
    word_multiplier = 1
    for index in range(start, end + 1):
        if texts[index] is None:
            sq = line_squares[index]
            free_squares.append(sq)
            free_crosses.append(crosses[index])
            word_multiplier *= WORD_MULTIPLIERS[sq]
    squares = tuple(free_squares)
    reading = []
    blank_losses = []
    square_tables = _SQUARE_TABLES
    # (Equal lengths; no `strict=`, whose keyword call is slow: this runs per segment.)
    for sq, info in zip(free_squares, free_crosses):  # noqa: B905
        key = (sq, word_multiplier, info)
        tables = square_tables.get(key)
        if tables is None:
            tables = _square_tables(sq, word_multiplier, info)
        reading.append(tables[0])
        if with_blanks:
            blank_losses.append(tables[1])
    # Consecutive groups mostly come from one join: where their sides' free squares
    # are read is worked out once for them.
    last_positions: tuple[tuple[int, ...], ...] | None = None
    last_slot = -2
    first_places: list[tuple[int, dict[str, tuple[int, int]]]] = []
    second_places: list[tuple[int, dict[str, tuple[int, int]]]] = []
    equals_points = 0
    equals_options: tuple[int, ...] = ()
    # Groups of three sides or more (a fixed `=` and the new one) are read through the
    # segment's scoring tables, made once for them all.
    scoring: _SegmentScoring | None = None
    for group in groups:
        if len(group) != _TWO_SIDED:
            if scoring is None:
                scoring = _segment_scoring(place, with_blanks)
            for filling in _group_fillings(group, chains, rotated):
                row = scoring.row(filling)
                if row is None:
                    continue
                if not whole_moves:
                    found.append(row)
                elif rack is None:
                    found.append(GeneratedMove(row[0], row[1], (), row[5], row[2], row[3], row[4]))
                else:
                    found.extend(_batch_moves(rack, [row]))
            continue
        # Two sides (the commonest case): each side's fillings read once (options,
        # and points: letter points times the word multiplier plus crossing scores),
        # then paired.
        (
            value,
            equals_slot,
            free_positions,
            usage,
            _,
            first_fillings,
            second_fillings,
        ) = group
        if one_blank is not None:
            pair = one_blank.short_fields.get(usage)
            short = (pair if pair is not None else _one_blank_fields(one_blank, usage))[0]
        if free_positions is not last_positions or equals_slot != last_slot:
            last_positions = free_positions
            last_slot = equals_slot
            first_positions, second_positions = free_positions
            first_count = len(first_positions)
            if equals_slot >= 0:
                equals_options = (_EQUALS_OPTION,)
                equals_points = reading[first_count][_EQUALS_CHARACTER][1]
                second_start = first_count + 1
            else:
                equals_options = ()
                equals_points = 0
                second_start = first_count
            # Each side's positions with its free squares' tables (the first side's are
            # the segment's first ones, the second side's its last ones). No `strict=`:
            # zip called with a keyword takes CPython 3.11's slow call path.
            first_places = list(zip(first_positions, reading))  # noqa: B905
            second_places = list(zip(second_positions, reading[second_start:]))  # noqa: B905
        # (bonus inline: the leading bit of the value, 0 for 0 or below.)
        points = (
            (1 << (value.bit_length() - 1) if value > 0 else 0) * word_multiplier
            + bingo
            + equals_points
        )
        # Each side's fillings (see _KindParts): read in place, each list's head (its
        # count) skipped as it comes, under identity_chains (kinds pair freely) or when
        # each side's fillings are of one kind; sliced by kind only otherwise.
        pairs: list[tuple[list[Any], list[Any]]]
        first_head = first_fillings[0]
        second_head = second_fillings[0]
        if chains:
            pairs = [(first_fillings, second_fillings)]
        else:
            first_end = first_head + 1
            second_end = second_head + 1
            if (not first_head or first_end == len(first_fillings)) and (
                not second_head or second_end == len(second_fillings)
            ):
                # One kind a side: one pair at most (fragments in both are not joined).
                pairs = [(first_fillings, second_fillings)] if first_head or second_head else []
            else:
                # (Slices hold no count: the heads below skip nothing in them. Only pairs
                # of fillings on both sides.)
                first_plain = first_fillings[1:first_end]
                second_plain = second_fillings[1:second_end]
                pairs = [(first_plain, second_plain)] if first_head and second_head else []
                if second_head and len(first_fillings) > first_end:
                    pairs.append((first_fillings[first_end:], second_plain))
                if first_head and len(second_fillings) > second_end:
                    pairs.append((first_plain, second_fillings[second_end:]))
        for first_texts, second_texts in pairs:
            second_read = []
            for text in second_texts:
                if text is second_head:
                    continue  # the list's count (see above)
                options = []
                gained = 0
                for at, table in second_places:
                    option, option_points = table[text[at]]
                    options.append(option)
                    gained += option_points
                if rotated:
                    text = text.replace(_ROTATED_CHARACTER, "11")
                second_read.append(("=" + text, tuple(options), gained))
            for text in first_texts:
                if text is first_head:
                    continue
                options = []
                gained = points
                for at, table in first_places:
                    option, option_points = table[text[at]]
                    options.append(option)
                    gained += option_points
                if rotated:
                    text = text.replace(_ROTATED_CHARACTER, "11")
                first_options = (*options, *equals_options)
                if rack is not None:
                    # The moves themselves, each way the rack can show the equation:
                    # no row to make and unpack again.
                    for second_text, second_options, second_points in second_read:
                        every_option = first_options + second_options
                        realizations = known_realizations.get(every_option)
                        if realizations is None:
                            if short >= 0:
                                # One blank, on a square of the short field (in square
                                # order, as _one_blank_realizations lists them).
                                realizations = []
                                position = 0
                                for option in every_option:
                                    if option_field[option] == short:
                                        realizations.append((position,))
                                    position += 1  # noqa: SIM113 (cheaper than enumerate)
                            elif one_blank is not None:
                                realizations = _one_blank_realizations(one_blank, every_option)
                            else:
                                assert rack is not None  # (moves with blanks have a rack)
                                realizations = _searched_realizations(rack, every_option)
                            known_realizations[every_option] = realizations
                        natural_score = gained + second_points
                        whole_text = text + second_text
                        for blanks in realizations:
                            score = natural_score
                            for position in blanks:
                                score -= blank_losses[position][every_option[position]]
                            found.append(
                                GeneratedMove(
                                    squares,
                                    every_option,
                                    blanks,
                                    score,
                                    whole_text,
                                    value,
                                    direction,
                                )
                            )
                    continue
                if whole_moves:
                    # The move itself: no row to make and unpack again.
                    for second_text, second_options, second_points in second_read:
                        found.append(
                            GeneratedMove(
                                squares,
                                first_options + second_options,
                                (),
                                gained + second_points,
                                text + second_text,
                                value,
                                direction,
                            )
                        )
                    continue
                for second_text, second_options, second_points in second_read:
                    found.append(
                        (
                            squares,
                            first_options + second_options,
                            text + second_text,
                            value,
                            direction,
                            gained + second_points,
                            blank_losses,
                            usage,
                        )
                    )
    return found


def _segment_move_count(segment: _Segment, rack: _Rack, chains: bool) -> int:
    """How many moves a segment's rows make (blank variants included); `chains`: the
    rules' identity_chains."""
    place, groups = segment
    if place[7]:
        return _touching_move_count(place, groups, rack, chains)
    # (A group's count includes its blank variants: see _JoinGroup.)
    return sum([group[4] for group in groups])


def _touching_move_count(place: _Place, groups: list[_JoinGroup], rack: _Rack, chains: bool) -> int:
    """:func:`_segment_move_count` of a segment that touches the board only through
    crossing runs under parallel_numbers, whose equations count only when one of its free
    squares shows an option with an equation crossing (see _SegmentScoring.row): counted
    without rows. Whether an equation touches depends on each side's filling alone, so per
    group the equations that touch are all of them but those in which no side touches
    (joined as :func:`_combinations` joins them)."""
    free_squares, free_crosses, _ = _free_squares(place)
    # Per free square: the characters whose option there has an equation crossing (None
    # when none has).
    touching: list[frozenset[str] | None] = []
    equals_touches: list[bool] = []
    # (Equal lengths; no `strict=`, whose keyword call is slow.)
    for sq, info in zip(free_squares, free_crosses):  # noqa: B905
        if info is None:
            touching.append(None)
            equals_touches.append(False)
            continue
        crossing = _crossing_tables(sq, info)[0]
        shown = _TOUCHING_CHARACTERS.get(crossing, _UNSPLIT)
        if shown is _UNSPLIT:
            if len(_TOUCHING_CHARACTERS) >= 1 << 12:
                _clear_tracked(_TOUCHING_CHARACTERS)
            shown = _TOUCHING_CHARACTERS[crossing] = (
                frozenset(
                    [character for option, character in _CHARACTER_OPTIONS if crossing[option]]
                )
                or None
            )
        touching.append(shown)
        equals_touches.append(crossing[_EQUALS_OPTION])
    count = 0
    blanks = rack.blanks
    known = rack.variant_counts
    # Consecutive groups mostly come from one join: where their sides' free squares are
    # is worked out once for them.
    last_positions: tuple[tuple[int, ...], ...] | None = None
    last_slot = -2
    equals_touch = False
    side_checks: list[list[tuple[int, frozenset[str]]]] = []
    for group in groups:
        equals_slot = group[1]
        positions = group[2]
        if positions is not last_positions or equals_slot != last_slot:
            last_positions = positions
            last_slot = equals_slot
            equals_touch = equals_slot >= 0 and equals_touches[equals_slot]
            side_checks = []
            index = 0
            for side_positions in positions:
                checks = []
                for at in side_positions:
                    if index == equals_slot:
                        index += 1
                    characters = touching[index]
                    if characters is not None:
                        checks.append((at, characters))
                    index += 1
                side_checks.append(checks)
        moves = group[4]
        if not equals_touch:
            # The equations in which no side touches: per side its plain fillings and all
            # its fillings (plain ones first) of which no free square touches.
            plains: list[int] = []
            alls: list[int] = []
            for checks, fillings in zip(side_checks, group[_GROUP_SIDES:]):  # noqa: B905
                plain = fillings[0]
                if not checks:
                    plains.append(plain)
                    alls.append(len(fillings) - 1)
                    continue
                plain_apart = apart = 0
                for number, text in enumerate(fillings):
                    if number:
                        for at, characters in checks:
                            if text[at] in characters:
                                break
                        else:
                            apart += 1
                            if number <= plain:
                                plain_apart += 1
                plains.append(plain_apart)
                alls.append(apart)
            if len(alls) == 2:
                # (Two sides, nearly every group: no loops.)
                first_plain, second_plain = plains
                first_all, second_all = alls
                if chains:
                    apart = first_all * second_all
                else:
                    apart = first_all * second_plain + first_plain * (second_all - second_plain)
            elif chains:
                apart = 1
                for found in alls:
                    apart *= found
            else:
                # Plain in every side, or fragments in one (see _combinations).
                apart = 1
                for found in plains:
                    apart *= found
                for side, found in enumerate(alls):
                    fragments = found - plains[side]
                    if fragments:
                        for other, plain in enumerate(plains):
                            if other != side:
                                fragments *= plain
                        apart += fragments
            if apart:
                # (The group counts moves, blank variants included: see _JoinGroup.)
                if blanks:
                    variants = known.get(group[3])
                    apart *= variants if variants is not None else _variant_count(rack, group[3])
                moves -= apart
        count += moves
    return count


#: Per crossing table (:func:`_crossing_tables`): the characters of a side's text whose
#: option has an equation crossing, None when none has (see _touching_move_count).
_TOUCHING_CHARACTERS: dict[tuple[bool, ...], frozenset[str] | None] = _kept_tracked({})


def generate_moves(game: Game) -> list[GeneratedMove]:
    """Every legal placement for the player to move in `game`, best first (:func:`sort_key`).

    Empty when the game is over. The result is a :class:`MoveList`; with blanks on the
    rack its moves are made in order as it is read (a heap merges the equations' blank
    variants), so reading the best few costs little even when there are millions.
    """
    if game.is_over():
        return MoveList()
    with _collector_paused():
        rack, found, _ = _search(game.board, game.rack(), game.rules, None)
        if not rack.blanks:
            moves = MoveList(chain.from_iterable(found.move_batches(rack)))
            list.sort(moves, key=sort_key)
            return moves
        rows = list(found)
        total = sum(_variant_count(rack, row[7]) for row in rows)
    return MoveList._lazy(total, _BestFirst(rack, rows))


def best_moves(
    game: Game,
    count: int,
    *,
    touching: Iterable[int] | None = None,
    min_score: int | None = None,
) -> list[GeneratedMove]:
    """The `count` best placements for the player to move, in :func:`sort_key` order.

    It finds every equation as :func:`generate_moves` does, but skips plays (and their
    blank variants) whose score cannot reach the `count`-th best found so far. With
    `touching` (square indexes), the `count` best of the plays with a run through one of
    those squares (see :func:`generate_placements`), found without searching the rest of
    the board. With `min_score`, the `count` best of the plays scoring at least that (the
    head of the unrestricted result, cut there): the search starts with that floor, so
    it skips more (the simulation knows, before it looks near a candidate, the score the
    plays found there must reach to matter).
    """
    if game.is_over():
        return MoveList()
    return best_placements(
        game.board, game.rack(), game.rules, count, touching=touching, min_score=min_score
    )


def best_placements(
    board: Board,
    rack: str,
    rules: Rules,
    count: int,
    *,
    touching: Iterable[int] | None = None,
    min_score: int | None = None,
) -> list[GeneratedMove]:
    """The `count` best placements of any `rack` on `board`, in :func:`sort_key` order.

    What :func:`best_moves` gives the player to move, for a rack that is not (or not all of)
    the player's: another seat's, or the rack without its blanks.

    >>> from binscrabble.rules import Rules
    >>> [move.text for move in best_placements(Board(), "1=1", Rules(), 1)]
    ['1=1']
    >>> board = Board.from_rows(["." * 15] * 7 + [".......1=1....."] + ["." * 15] * 7)
    >>> [move.score for move in best_placements(board, "1+1=10x", Rules(), 30)][-3:]
    [30, 30, 30]
    >>> len(best_placements(board, "1+1=10x", Rules(), 30, min_score=33))  # 36 and 33s
    21
    """
    if count <= 0:
        return MoveList()
    # generate_placements(..., limit=count) without its list type: the moves are all made.
    keys = None if touching is None else _touch_keys(board.cells, touching)
    with _collector_paused():
        moves = _search(board, rack, rules, count, keys, min_score)[2]
    return MoveList(heapq.nsmallest(count, moves, key=sort_key))


def exchanges(game: Game) -> list[Exchange]:
    """Every legal exchange for the player to move: each different set of rack tiles.

    None while the bag holds fewer tiles than a rack (RULES.md §3).
    """
    if game.is_over() or game.bag_size < game.rules.rack_size:
        return []
    counts = Counter(game.rack())
    codes = sorted(counts, key=CODE_ORDER.index)
    found = []
    for numbers in product(*(range(counts[code] + 1) for code in codes)):
        if any(numbers):
            found.append(
                Exchange("".join(code * n for code, n in zip(codes, numbers, strict=True)))
            )
    return found


class LegalMoves:
    """The legal moves of a game right now, as a lazy view (like python-chess's).

    Iterating yields every legal :class:`~binscrabble.move.Place` best first
    (:func:`sort_key`), then every legal :class:`~binscrabble.move.Exchange`, then
    :class:`~binscrabble.move.Pass`. ``move in view`` asks the referee
    (:meth:`Game.is_legal`) without generating anything; ``bool(view)`` is true while the
    game goes on (passing is always legal then). Moves are generated on first need and
    kept, so build a new view (``game.legal_moves``) after the game changes.

    >>> from binscrabble.game import Game
    >>> from binscrabble.move import Pass, parse_move
    >>> game = Game.from_setup(Rules(), Board(), ["11+=01", "1"])
    >>> moves = game.legal_moves
    >>> parse_move("8D 1+1=10", game.board) in moves, Pass() in moves, bool(moves)
    (True, True, True)
    >>> next(iter(moves)).notation(game.board)
    '8C 10=1+1'
    """

    __slots__ = ("_game", "_moves")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._moves: list[Move] | None = None

    def placements(self) -> list[GeneratedMove]:
        """Every legal placement with its score, best first."""
        return generate_moves(self._game)

    def _all(self) -> list[Move]:
        if self._moves is None:
            game = self._game
            # Read through the MoveList's own iterator (it makes its moves lazily): typed as
            # a list, the compiled module would read a list's storage directly.
            found: Iterable[GeneratedMove] = generate_moves(game)
            moves: list[Move] = [generated.place for generated in found]
            moves.extend(exchanges(game))
            if not game.is_over():
                moves.append(Pass())
            self._moves = moves
        return self._moves

    def __iter__(self) -> Iterator[Move]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Place | Exchange | Pass):
            return False
        return self._game.is_legal(move)

    def __bool__(self) -> bool:
        return not self._game.is_over()

    def __repr__(self) -> str:
        return f"<LegalMoves of a game with {len(self)} moves>"
