"""Why a text is not a valid equation: :class:`EquationError`, its kinds, and failures.

Inside the package a failure travels as a plain tuple (:data:`Failure`) until someone
needs the exception or the sentence: building an exception costs more than the check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, Protocol, TypeAlias

from binscrabble.expr.limits import MAX_SYMBOLS

#: Every way an equation can fail, by `EquationError.kind`, with a short description.
ERROR_KINDS: Final[Mapping[str, str]] = {
    "empty_input": "nothing to check (empty, or only spaces)",
    "unknown_symbol": "a symbol that is no tile code, alias or word",
    "too_long": f"more than {MAX_SYMBOLS} symbols",
    "no_equals": "no = sign, so only one side",
    "empty_side": "a side is missing: = at the start or end, or == ",
    "leading_operator": "a side starts with a binary operator (there are no signs)",
    "trailing_operator": "a binary operator with nothing after it",
    "consecutive_operators": "two binary operators in a row",
    "double_not": "NOT NOT",
    "not_without_operand": "NOT not followed by digits",
    "not_after_number": "NOT right after a number (there is no implied operation)",
    "leading_zero": "a number starting with 0 (rule leading_zeros is off)",
    "not_a_number": "a digits-only run expected (parallel_numbers)",
    "negative": "a subtraction below zero (rule allow_negatives is off)",
    "remainder": "a division that leaves a remainder",
    "division_by_zero": "a division by zero",
    "identity_not_allowed": "an identity fragment whose rule is off",
    "identity_chain": "more than one identity fragment (rule identity_chains is off)",
    "sides_differ": "sides of different values",
}


class EquationError(ValueError):
    """Why a text is not a valid equation.

    ``kind`` names the way it failed (one of :data:`ERROR_KINDS`), ``position`` is the index
    of the offending symbol in the text as the caller gave it, counted from 0 (``None`` when
    no single symbol is to blame), and ``str(error)`` is a sentence for a person, which
    counts the symbols from 1 (:func:`counted`).

    >>> error = EquationError("empty input", kind="empty_input")
    >>> error.kind, error.position, str(error)
    ('empty_input', None, 'empty input')
    """

    def __init__(self, message: str, *, kind: str, position: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.position = position

    def __reduce__(self) -> tuple[Callable[..., EquationError], tuple[object, ...]]:
        # Keyword-only fields need help to survive pickling (process pools, for instance).
        return _rebuild_error, (str(self), self.kind, self.position)

    def __repr__(self) -> str:
        return f"EquationError({str(self)!r}, kind={self.kind!r}, position={self.position!r})"


def _rebuild_error(message: str, kind: str, position: int | None) -> EquationError:
    return EquationError(message, kind=kind, position=position)


#: An error found while working on codes: (kind, position in the codes, message template
#: whose "{position}" is filled in with the position in the caller's text, as a person
#: counts it: see :func:`counted`).
Failure: TypeAlias = tuple[str, int | None, str]


class Positions(Protocol):
    """Where each code of a normalized text stood in the text as given."""

    def __getitem__(self, index: int, /) -> int: ...


def counted(position: int | None) -> str:
    """A position as a sentence says it: counted from 1, as a person counts the symbols of
    what they typed (``EquationError.position``, for programs, counts from 0).

    >>> counted(0), counted(None)
    ('1', 'None')
    """
    return "None" if position is None else str(position + 1)


def located(failure: Failure, positions: Positions | None) -> tuple[str, int | None, str]:
    """Kind, position in the caller's text, and the finished sentence of a failure."""
    kind, position, template = failure
    if position is not None and positions is not None:
        position = positions[position]
    if "{" in template:
        template = template.replace("{position}", counted(position))
    return kind, position, template


def as_error(failure: Failure, positions: Positions | None = None) -> EquationError:
    """The exception for a failure, its position in the caller's text."""
    kind, position, message = located(failure, positions)
    return EquationError(message, kind=kind, position=position)
