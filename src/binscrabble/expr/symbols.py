"""The symbols of the equation language and what they mean (docs/rules.md §6-§8).

The codes (``01=+-x/&|^~``), how people are shown them, the binding strength of each
operator, the identity switches and neutral literals of docs/rules.md §7, and values in binary.
The move generator reads the same tables, so that both agree on every rule.
"""

from __future__ import annotations

import operator as operator_module
from collections.abc import Callable, Mapping
from typing import Final

from binscrabble.rules import Rules

DIGITS: Final = frozenset("01")
BINARY_OPERATORS: Final = frozenset("+-x/&|^")
CODES: Final = frozenset("01=+-x/&|^~")
#: The codes as one string, for ``str.strip`` and ``str.translate``.
CODE_TEXT: Final = "01=+-x/&|^~"

#: How operators are shown to people in messages: as on the tiles (words for the logical ones).
SHOWN: Final[Mapping[str, str]] = {
    "+": "+",
    "-": "−",
    "x": "×",
    "/": "÷",
    "&": "AND",
    "|": "OR",
    "^": "XOR",
    "~": "NOT",
    "=": "=",
}

#: Binding strength of each binary operator under `standard` precedence (docs/rules.md §6).
STANDARD_PRECEDENCE: Final[Mapping[str, int]] = {
    "x": 5,
    "/": 5,
    "+": 4,
    "-": 4,
    "&": 3,
    "^": 2,
    "|": 1,
}
#: Under `left-to-right` precedence every operator binds alike.
FLAT_PRECEDENCE: Final[Mapping[str, int]] = dict.fromkeys(STANDARD_PRECEDENCE, 1)

#: Which switch of docs/rules.md §7 allows an identity fragment of each operator.
IDENTITY_SWITCH: Final[Mapping[str, str]] = {
    "x": "identity_times_one",
    "/": "identity_times_one",
    "+": "identity_plus_minus_zero",
    "-": "identity_plus_minus_zero",
    "&": "identity_and_one_or_zero",
    "|": "identity_and_one_or_zero",
    "^": "identity_and_one_or_zero",
}
#: The neutral literal value of each operator (1 for x / AND, 0 for the others) and
#: whether a neutral literal on the left also makes a fragment (not for `/` and `-`).
NEUTRAL_LITERALS: Final[Mapping[str, tuple[int, bool]]] = {
    "x": (1, True),
    "/": (1, False),
    "+": (0, True),
    "-": (0, False),
    "&": (1, True),
    "|": (0, True),
    "^": (0, True),
}

#: The operations defined for every two values (all but `-` and `/`), as Python functions.
TOTAL_OPERATIONS: Final[Mapping[str, Callable[[int, int], int]]] = {
    "+": operator_module.add,
    "x": operator_module.mul,
    "&": operator_module.and_,
    "|": operator_module.or_,
    "^": operator_module.xor,
}


def precedence_of(rules: Rules) -> Mapping[str, int]:
    """The binding strength of each operator under the precedence `rules` sets.

    >>> precedence_of(Rules(precedence="left-to-right"))["x"]
    1
    """
    return STANDARD_PRECEDENCE if rules.precedence == "standard" else FLAT_PRECEDENCE


def allowed_identities(rules: Rules) -> dict[str, bool]:
    """Whether `rules` allow the identity fragments of each switch of docs/rules.md §7."""
    return {
        "identity_times_one": rules.identity_times_one,
        "identity_plus_minus_zero": rules.identity_plus_minus_zero,
        "identity_and_one_or_zero": rules.identity_and_one_or_zero,
    }


def binary(value: int) -> str:
    """A value written in binary, with a minus sign when negative.

    >>> binary(5), binary(0), binary(-5)
    ('101', '0', '-101')
    """
    return format(value, "b")


def bonus(value: int) -> int:
    """The bonus of an equation's value (docs/rules.md §8): its leading bit; 0 for 0.

    Negative values (only possible under ``allow_negatives``) earn no bonus: see
    docs/equations.md.

    >>> bonus(2), bonus(9), bonus(24), bonus(0), bonus(-5)
    (2, 8, 16, 0, 0)
    """
    if value <= 0:
        return 0
    return 1 << (value.bit_length() - 1)


def not_value(digits: str) -> int:
    """NOT flips each written digit: the width is the number of digits written.

    >>> not_value("011"), not_value("1")
    (4, 0)
    """
    return ((1 << len(digits)) - 1) ^ int(digits, 2)


def show_fragment(left: str, right: str) -> str:
    """`×1`, `+0`, `AND 1`, `1 AND`: an operator shown with its neutral literal.

    >>> show_fragment("&", "1"), show_fragment("1", "x")
    ('AND 1', '1×')
    """
    shown_left = SHOWN.get(left, left)
    shown_right = SHOWN.get(right, right)
    if (shown_left.isalpha() and len(shown_left) > 1) or (
        shown_right.isalpha() and len(shown_right) > 1
    ):
        return f"{shown_left} {shown_right}"
    return f"{shown_left}{shown_right}"
