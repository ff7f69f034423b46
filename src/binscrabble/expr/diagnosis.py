"""Why codes break the grammar (docs/rules.md §6): the first error in reading order.

Two finders give the same answer. :func:`syntax_failure` reads the codes symbol by symbol,
as a person would, and is the reference. :func:`quick_syntax_failure` finds the same error
with one regular-expression search: each state of the reading is fixed by the symbol
before (a digit, an operator, NOT, `=` or the start), so every error but one is a bad pair
of neighbours, and a leading zero is a bad triple; the symbols at the first bad spot name
the error. The checker uses the quick one; the tests hold it to the reference.

A failure is a tuple (kind, position in the codes, message template): see
:mod:`binscrabble.expr.errors`.
"""

from __future__ import annotations

import re
from typing import Final

from binscrabble.expr.errors import Failure
from binscrabble.expr.limits import MAX_SYMBOLS
from binscrabble.expr.symbols import BINARY_OPERATORS, CODES, DIGITS, SHOWN

# -- the failures, each sentence written once ---------------------------------------------

EMPTY_INPUT: Final[Failure] = ("empty_input", None, "empty input: there is nothing to check")
NO_EQUALS: Final[Failure] = ("no_equals", None, "no = sign: an equation needs at least two sides")


def too_long(length: int) -> Failure:
    return (
        "too_long",
        None,
        f"the input has {length} symbols; an equation may have at most {MAX_SYMBOLS}",
    )


def leading_zero(position: int) -> Failure:
    return ("leading_zero", position, "a number may not start with 0 (position {position})")


def unknown_symbol(symbol: str, position: int) -> Failure:
    return ("unknown_symbol", position, f"unknown symbol {symbol!r} at position {{position}}")


def leading_operator(operator: str, position: int) -> Failure:
    where = "an equation" if position == 0 else "a side"
    return (
        "leading_operator",
        position,
        f"{where} may not start with {SHOWN[operator]} (position {{position}}): "
        "numbers have no signs",
    )


def consecutive_operators(first: str, second: str, position: int) -> Failure:
    return (
        "consecutive_operators",
        position,
        f"two binary operators in a row at position {{position}} "
        f"({SHOWN[first]} then {SHOWN[second]})",
    )


def double_not(position: int) -> Failure:
    return (
        "double_not",
        position,
        "NOT NOT at position {position}: NOT must be followed by digits",
    )


def not_after_number(position: int) -> Failure:
    return (
        "not_after_number",
        position,
        "NOT at position {position} follows a number: write an operator between "
        "them (there is no implied operation)",
    )


def not_without_operand(position: int) -> Failure:
    return ("not_without_operand", position, "NOT at position {position} is not followed by digits")


def trailing_operator(codes: str, position: int) -> Failure:
    return (
        "trailing_operator",
        position,
        f"the operator {SHOWN[codes[position]]} at position {{position}} has nothing after it",
    )


def missing_side(codes: str, position: int) -> Failure:
    """An `=` at the start, right after another `=`, or at the end of `codes`."""
    if position == 0:
        message = "the equation starts with =, so its first side is missing"
    elif codes[position - 1] == "=":
        message = "two = signs in a row at position {position}: a side is missing"
    else:
        message = "the equation ends with =, so its last side is missing"
    return ("empty_side", position, message)


# -- the reference: reading symbol by symbol ----------------------------------------------

# What the reading expects next, fixed by the symbol before.
_SIDE_START, _AFTER_OPERATOR, _AFTER_NOT, _IN_NUMBER, _IN_NOT_DIGITS = range(5)


class _Reading:
    """The state of a left-to-right reading of codes, one symbol at a time."""

    __slots__ = ("codes", "equals_seen", "leading_zeros", "not_at", "number_at", "operator_at")

    def __init__(self, codes: str, leading_zeros: bool) -> None:
        self.codes = codes
        self.leading_zeros = leading_zeros
        self.number_at = 0
        self.not_at = 0
        self.operator_at = 0
        self.equals_seen = False

    def digit(self, state: int, index: int) -> tuple[int, Failure | None]:
        if state in (_SIDE_START, _AFTER_OPERATOR):
            self.number_at = index
            return _IN_NUMBER, None
        if state == _AFTER_NOT:
            return _IN_NOT_DIGITS, None
        codes = self.codes
        starts_with_zero = index == self.number_at + 1 and codes[self.number_at] == "0"
        if state == _IN_NUMBER and starts_with_zero and not self.leading_zeros:
            return state, leading_zero(self.number_at)
        return state, None

    def operator(self, state: int, index: int) -> tuple[int, Failure | None]:
        symbol = self.codes[index]
        if state == _SIDE_START:
            return state, leading_operator(symbol, index)
        if state == _AFTER_OPERATOR:
            return state, consecutive_operators(self.codes[self.operator_at], symbol, index)
        if state == _AFTER_NOT:
            return state, not_without_operand(self.not_at)
        self.operator_at = index
        return _AFTER_OPERATOR, None

    def not_sign(self, state: int, index: int) -> tuple[int, Failure | None]:
        if state in (_SIDE_START, _AFTER_OPERATOR):
            self.not_at = index
            return _AFTER_NOT, None
        if state == _AFTER_NOT:
            return state, double_not(index)
        return state, not_after_number(index)

    def equals(self, state: int, index: int) -> tuple[int, Failure | None]:
        self.equals_seen = True
        if state == _SIDE_START:
            return state, missing_side(self.codes, index)
        return _SIDE_START, self.side_end_failure(state)

    def side_end_failure(self, state: int) -> Failure | None:
        """What is wrong with a side that ends in this state (an empty side aside)."""
        if state == _AFTER_OPERATOR:
            return trailing_operator(self.codes, self.operator_at)
        if state == _AFTER_NOT:
            return not_without_operand(self.not_at)
        return None


def syntax_failure(codes: str, leading_zeros: bool) -> Failure | None:
    """The first grammar error of `codes` in reading order, or None if the grammar holds.

    >>> syntax_failure("1+xx1==10", False)[:2]
    ('consecutive_operators', 2)
    >>> syntax_failure("1+1=10", False) is None
    True
    """
    if not codes:
        return EMPTY_INPUT
    if len(codes) > MAX_SYMBOLS:
        return too_long(len(codes))
    reading = _Reading(codes, leading_zeros)
    state = _SIDE_START
    for index, symbol in enumerate(codes):
        if symbol in DIGITS:
            state, failure = reading.digit(state, index)
        elif symbol in BINARY_OPERATORS:
            state, failure = reading.operator(state, index)
        elif symbol == "~":
            state, failure = reading.not_sign(state, index)
        elif symbol == "=":
            state, failure = reading.equals(state, index)
        else:
            failure = unknown_symbol(symbol, index)
        if failure is not None:
            return failure
    if state == _SIDE_START:
        return missing_side(codes, len(codes) - 1)
    failure = reading.side_end_failure(state)
    if failure is None and not reading.equals_seen:
        return NO_EQUALS
    return failure


# -- the quick finder: one search for the first bad spot ----------------------------------

_BAD_SPOT_SOURCE: Final = (
    r"[^01=+\-x/&|^~]"  # an unknown symbol
    r"|(?<![^=])[-+x/&|^=]"  # an operator or `=` at the start of a side
    r"|(?<=[-+x/&|^~])[-+x/&|^=]"  # an operator or `=` after an operator or NOT
    r"|(?<=[~01])~"  # NOT after NOT or after a digit
)
#: The first bad spot of codes, with leading zeros allowed.
BAD_SPOT: Final = re.compile(_BAD_SPOT_SOURCE)
#: With leading_zeros off, also the digit after a 0 that starts a number (not NOT's digits).
BAD_SPOT_NO_LEADING_ZEROS: Final = re.compile(_BAD_SPOT_SOURCE + r"|(?<=(?<![01~])0)[01]")


def quick_syntax_failure(codes: str, leading_zeros: bool) -> Failure | None:
    """The same answer as :func:`syntax_failure`, from one regular-expression search.

    >>> quick_syntax_failure("1+xx1==10", False)[:2]
    ('consecutive_operators', 2)
    """
    length = len(codes)
    if not length or length > MAX_SYMBOLS:
        return syntax_failure(codes, leading_zeros)
    spot = (BAD_SPOT if leading_zeros else BAD_SPOT_NO_LEADING_ZEROS).search(codes)
    if spot is None:
        return _end_failure(codes)
    return _spot_failure(codes, spot.start())


def _end_failure(codes: str) -> Failure | None:
    """The error of codes whose every pair of neighbours is fine: only the end can be wrong."""
    last = codes[-1]
    if last == "=":
        return missing_side(codes, len(codes) - 1)
    if last == "~":
        return not_without_operand(len(codes) - 1)
    if last in BINARY_OPERATORS:
        return trailing_operator(codes, len(codes) - 1)
    if "=" not in codes:
        return NO_EQUALS
    return None


def _spot_failure(codes: str, index: int) -> Failure:
    """The error named by the symbol at the first bad spot and the one before it."""
    symbol = codes[index]
    if symbol in DIGITS:
        return leading_zero(index - 1)
    if symbol not in CODES:
        return unknown_symbol(symbol, index)
    before = codes[index - 1] if index else "="
    if symbol == "~":
        return double_not(index) if before == "~" else not_after_number(index)
    if before == "~":
        return not_without_operand(index - 1)
    if before != "=":
        if symbol == "=":
            return trailing_operator(codes, index - 1)
        return consecutive_operators(before, symbol, index)
    if symbol == "=":
        return missing_side(codes, index)
    return leading_operator(symbol, index)


def malformed(codes: str, leading_zeros: bool) -> Failure:
    """The first grammar error of codes known to have one."""
    failure = quick_syntax_failure(codes, leading_zeros)
    assert failure is not None, codes
    return failure
