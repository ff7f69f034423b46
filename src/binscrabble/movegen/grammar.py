"""The side grammar (docs/rules.md §6) as a small automaton, and what each character of a
side does to its value (a digit, NOT, or a binary operator).
"""

from __future__ import annotations

from typing import Final

from binscrabble.rules import FACES

from .caches import clear_tracked, kept_tracked
from .options import OPTION_COUNT, OPTION_TEXTS

#
# States while reading one side (docs/rules.md §6): expecting an operand, after NOT, inside a
# number, inside the number "0" (which may not grow without leading_zeros), inside NOT's
# digits, expecting a divisor (an operand after `/`). A side may end only inside a number
# or NOT's digits. The divisor is a state of its own because without leading_zeros the
# number "0" there divides by zero whatever follows (`/` binds as strongly as any
# operator, so the next operator or the side's end applies it): no side goes on from it,
# and the partial is not made.
# (Each a Final of its own: the compiled module reads them as constants, not from the
# module's dictionary.)
EXPECT: Final = 0
_AFTER_NOT: Final = 1
_NUMBER: Final = 2
_ZERO: Final = 3
NOT_DIGITS: Final = 4
_DIVISOR: Final = 5
DEAD: Final = 6
ACCEPTING: Final = frozenset({_NUMBER, _ZERO, NOT_DIGITS})
BINARY: Final = frozenset("+-x/&|^")
CANNOT_START: Final = frozenset("+-x/&|^=")
CANNOT_END: Final = frozenset("+-x/&|^=~")


def _step(state: int, symbol: str, leading_zeros: bool) -> int:
    if state == DEAD:
        return DEAD
    if symbol in "01":
        if state in (EXPECT, _DIVISOR, _NUMBER):
            if state != _NUMBER and symbol == "0" and not leading_zeros:
                # (A divisor 0 that cannot grow: see above.)
                return _ZERO if state == EXPECT else DEAD
            return _NUMBER
        if state in (_AFTER_NOT, NOT_DIGITS):
            return NOT_DIGITS
        return DEAD
    if symbol == "~":
        return _AFTER_NOT if state in (EXPECT, _DIVISOR) else DEAD
    if symbol in BINARY:
        if state not in ACCEPTING:
            return DEAD
        return _DIVISOR if symbol == "/" else EXPECT
    return DEAD  # "=" never appears inside a side


def _feed(state: int, text: str, leading_zeros: bool) -> int:
    for symbol in text:
        state = _step(state, symbol, leading_zeros)
    return state


def _transition_table(leading_zeros: bool) -> tuple[tuple[int, ...], ...]:
    """next state = table[state][option] for every option's text."""
    return tuple(
        tuple(_feed(state, OPTION_TEXTS[option], leading_zeros) for option in range(OPTION_COUNT))
        for state in range(DEAD + 1)
    )


TRANSITIONS: Final = {zeros: _transition_table(zeros) for zeros in (False, True)}
#: Per leading_zeros, per state: the next state after each face's symbol (fixed text is
#: read a symbol at a time; a lookup instead of a call of _step).
SYMBOL_STEPS: Final = {
    zeros: tuple(
        {symbol: _step(state, symbol, zeros) for symbol in FACES} for state in range(DEAD + 1)
    )
    for zeros in (False, True)
}
#: What a character does to the value: a digit (the operand is multiplied and added to: a
#: rotated `=` adds two digits), NOT, or a binary operator.
DIGITS: Final = 0
_NOT_SIGN: Final = 1
OPERATOR: Final = 2
#: (effect, multiplier, addend); after NOT a digit's addend is complemented (``multiplier -
#: 1 - addend``: see :data:`_Partial`).
CHARACTER_EFFECTS: Final = {
    "0": (DIGITS, 2, 0),
    "1": (DIGITS, 2, 1),
    "R": (DIGITS, 4, 3),
    "~": (_NOT_SIGN, 1, 0),
    **{symbol: (OPERATOR, 1, 0) for symbol in BINARY},
}


#: The states whose digits are NOT's (a side ending there ends in NOT's operand).
NEGATING: Final = frozenset({_AFTER_NOT, NOT_DIGITS})
#: These and the accepting states by state, for a test in a hot loop (an index is cheaper
#: than a set lookup).
IS_NEGATING: Final = tuple(state in NEGATING for state in range(DEAD + 1))
IS_ACCEPTING: Final = tuple(state in ACCEPTING for state in range(DEAD + 1))


#: Per (run of fixed digits, leading_zeros): the state after it from each state, its
#: length and its value (the same runs recur in every call on a board).
_DIGIT_RUNS: dict[tuple[str, bool], tuple[tuple[int, ...], int, int, int]] = kept_tracked({})


def digit_run(digits: str, leading_zeros: bool) -> tuple[tuple[int, ...], int, int, int]:
    """A run of fixed digits: the state after it from each state, its length, its value, and
    its value complemented (read as NOT's digits, see :data:`_Partial`)."""
    run = (digits, leading_zeros)
    known = _DIGIT_RUNS.get(run)
    if known is None:
        if len(_DIGIT_RUNS) >= 1 << 14:
            clear_tracked(_DIGIT_RUNS)
        known = _DIGIT_RUNS[run] = (
            tuple(_feed(state, digits, leading_zeros) for state in range(DEAD + 1)),
            len(digits),
            int(digits, 2),
            (1 << len(digits)) - 1 - int(digits, 2),
        )
    return known
