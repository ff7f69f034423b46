"""The verdict on one text: :class:`CheckResult`."""

from __future__ import annotations

from typing import Final, NamedTuple

from binscrabble.expr.errors import EquationError
from binscrabble.expr.symbols import bonus


class CheckResult(NamedTuple):
    """The verdict on one text: valid with its value and bonus, or invalid with a reason.

    A named tuple ``(input, value, reason, kind, position)``: ``value`` is None when
    invalid, ``reason`` None when valid, ``kind`` and ``position`` are the error's.
    Derived when read: ``valid``, ``binary``, ``bonus`` and ``error`` (the
    :class:`EquationError` itself, a new one each time). A tuple because batches make
    hundreds of thousands of them, and a tuple is built in C.

    >>> result = CheckResult("1 = 10", None, "the left side is 1 but the right side is 10",
    ...     "sides_differ", 2)
    >>> result.valid, result.reason, result.kind, result.position
    (False, 'the left side is 1 but the right side is 10', 'sides_differ', 2)
    >>> result.error
    EquationError('the left side is 1 but the right side is 10', kind='sides_differ', position=2)
    >>> CheckResult("11x11=1001", 9, None)
    CheckResult(input='11x11=1001', valid=True, value=9, binary='1001', bonus=8, reason=None)
    """

    input: str
    value: int | None
    reason: str | None
    kind: str | None = None
    position: int | None = None

    @property
    def valid(self) -> bool:
        """True when the text is a valid equation under the rules it was checked with."""
        return self.reason is None

    @property
    def binary(self) -> str | None:
        """The value in binary (``-101`` when negative), None when invalid."""
        return None if self.value is None else format(self.value, "b")

    @property
    def bonus(self) -> int | None:
        """The bonus of the value (docs/rules.md §8), None when invalid."""
        return None if self.value is None else bonus(self.value)

    @property
    def error(self) -> EquationError | None:
        """The error as an exception (a new one each time: raise it freely), or None."""
        if self.reason is None or self.kind is None:
            return None
        return EquationError(self.reason, kind=self.kind, position=self.position)

    def __repr__(self) -> str:
        if self.reason is None:
            return (
                f"CheckResult(input={self.input!r}, valid=True, value={self.value!r}, "
                f"binary={self.binary!r}, bonus={self.bonus!r}, reason=None)"
            )
        return (
            f"CheckResult(input={self.input!r}, valid=False, reason={self.reason!r}, "
            f"kind={self.kind!r}, position={self.position!r})"
        )

    def to_json(self) -> dict[str, object]:
        """The object `binscrabble check --json` prints (INTERFACES.md §1)."""
        return {
            "input": self.input,
            "valid": self.valid,
            "value": self.value,
            "binary": self.binary,
            "bonus": self.bonus,
            "reason": self.reason,
        }


# The named tuple's own constructor is Python code; tuple.__new__ with the fields in
# order builds the same object in C (what the named tuple's _make does).
_new_tuple: Final = tuple.__new__


#: Builds a CheckResult from its fields in order, in C. The named tuple's own constructor is
#: Python code; ``tuple.__new__`` makes the same object (what the named tuple's _make does).
new_tuple: Final = tuple.__new__


def make_result(
    text: str, value: int | None, reason: str | None, kind: str | None, position: int | None
) -> CheckResult:
    """A CheckResult, built in C (see new_tuple)."""
    return new_tuple(CheckResult, (text, value, reason, kind, position))
