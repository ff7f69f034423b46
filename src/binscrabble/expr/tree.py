"""The parse tree of an equation (docs/rules.md §6): the reference the fast checker is held to.

:func:`parse` builds a tree with each node's position in the text as given; explanations
walk it, and the tests compare the fast checker's verdicts with the tree's.

>>> parse("1+1x10=11", Rules()).sides[0].right
BinaryOperation(operator='x', left=Number(digits='1'), right=Number(digits='10'))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from binscrabble.expr.diagnosis import syntax_failure
from binscrabble.expr.errors import EquationError, Positions, as_error
from binscrabble.expr.evaluation import OPERATOR_SPLIT, apply_operation
from binscrabble.expr.normalizing import codes_and_positions
from binscrabble.expr.symbols import (
    IDENTITY_SWITCH,
    NEUTRAL_LITERALS,
    not_value,
    precedence_of,
    show_fragment,
)
from binscrabble.rules import Rules


@dataclass(frozen=True, slots=True)
class Number:
    """A number literal, e.g. ``Number("101")``; its value is its digits read in binary."""

    digits: str
    position: int | None = field(default=None, compare=False, repr=False)

    def format(self) -> str:
        """The canonical codes text."""
        return self.digits


@dataclass(frozen=True, slots=True)
class Not:
    """NOT applied to the digits right after it; the written digits set the width."""

    digits: str
    position: int | None = field(default=None, compare=False, repr=False)

    def format(self) -> str:
        """The canonical codes text.

        >>> Not("011").format()
        '~011'
        """
        return "~" + self.digits


@dataclass(frozen=True, slots=True)
class BinaryOperation:
    """A binary operator (its code: ``+ - x / & | ^``) applied to two operands."""

    operator: str
    left: Expression
    right: Expression
    position: int | None = field(default=None, compare=False, repr=False)

    def format(self) -> str:
        """The canonical codes text (no parentheses: the tree came from that precedence)."""
        return self.left.format() + self.operator + self.right.format()


Expression: TypeAlias = Number | Not | BinaryOperation


@dataclass(frozen=True, slots=True)
class Equation:
    """Two or more sides joined by ``=``."""

    sides: tuple[Expression, ...]
    equals_positions: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def format(self) -> str:
        """The canonical codes text.

        >>> parse("1 + 1 = 10", Rules()).format()
        '1+1=10'
        """
        return "=".join(side.format() for side in self.sides)


def parse(text: str, rules: Rules) -> Equation:
    """The parse tree of an equation under the precedence in force; grammar errors raise.

    Only the grammar (and the leading_zeros rule) is checked here; values, identity
    fragments and equality are for :func:`~binscrabble.expr.equation_value` and
    :func:`~binscrabble.expr.check`. Positions in the tree are indexes in `text`.

    >>> tree = parse("1+1x10=100", Rules(precedence="left-to-right"))
    >>> tree.sides[0].format(), tree.sides[0].operator
    ('1+1x10', 'x')
    """
    codes, positions = codes_and_positions(text)
    failure = syntax_failure(codes, rules.leading_zeros)
    if failure is not None:
        raise as_error(failure, positions)
    where: Positions = positions if positions is not None else _Identity()
    precedence = precedence_of(rules)
    sides: list[Expression] = []
    equals: list[int] = []
    offset = 0
    for side in codes.split("="):
        sides.append(_side_tree(side, offset, precedence, where))
        offset += len(side) + 1
        if offset - 1 < len(codes):
            equals.append(where[offset - 1])
    return Equation(tuple(sides), tuple(equals))


class _Identity:
    """Positions of codes that are the text itself: each code where it is."""

    def __getitem__(self, index: int) -> int:
        return index


def _side_tree(
    side: str, offset: int, precedence: Mapping[str, int], where: Positions
) -> Expression:
    """The tree of one side whose first code is code number `offset` of the equation."""
    operands: list[Expression] = []
    operators: list[tuple[str, int]] = []
    at = offset
    for index, token in enumerate(OPERATOR_SPLIT.split(side)):
        if index % 2 == 0:
            if token[0] == "~":
                operands.append(Not(token[1:], where[at]))
            else:
                operands.append(Number(token, where[at]))
        else:
            strength = precedence[token]
            while operators and precedence[operators[-1][0]] >= strength:
                _reduce_tree(operands, operators)
            operators.append((token, where[at]))
        at += len(token)
    while operators:
        _reduce_tree(operands, operators)
    return operands[0]


def _reduce_tree(operands: list[Expression], operators: list[tuple[str, int]]) -> None:
    operator, position = operators.pop()
    right = operands.pop()
    left = operands.pop()
    operands.append(BinaryOperation(operator, left, right, position))


@dataclass(frozen=True, slots=True)
class IdentityFragment:
    """A binary operation with a neutral bare literal (docs/rules.md §7), e.g. ``x1``."""

    text: str
    switch: str
    position: int | None


def identity_fragments(tree: Equation | Expression) -> tuple[IdentityFragment, ...]:
    """Every identity fragment of a parse tree, in reading order.

    >>> [fragment.text for fragment in identity_fragments(parse("1x1=1+0", Rules()))]
    ['×1', '+0']
    """
    found: list[IdentityFragment] = []
    pending: list[Expression] = list(tree.sides) if isinstance(tree, Equation) else [tree]
    while pending:
        node = pending.pop()
        if not isinstance(node, BinaryOperation):
            continue
        neutral, either_side = NEUTRAL_LITERALS[node.operator]
        switch = IDENTITY_SWITCH[node.operator]
        right, left = node.right, node.left
        if isinstance(right, Number) and int(right.digits, 2) == neutral:
            found.append(
                IdentityFragment(show_fragment(node.operator, right.digits), switch, node.position)
            )
        elif either_side and isinstance(left, Number) and int(left.digits, 2) == neutral:
            found.append(
                IdentityFragment(show_fragment(left.digits, node.operator), switch, node.position)
            )
        pending.append(left)
        pending.append(right)
    found.sort(key=lambda fragment: -1 if fragment.position is None else fragment.position)
    return tuple(found)


def side_value(expression: Expression, rules: Rules) -> int:
    """The exact value of one side's tree; raises EquationError on a bad step.

    >>> side_value(parse("11/10=1", Rules()).sides[0], Rules())
    Traceback (most recent call last):
    ...
    binscrabble.expr.errors.EquationError: 11 ÷ 10 leaves a remainder
    """
    if isinstance(expression, Number):
        return int(expression.digits, 2)
    if isinstance(expression, Not):
        return not_value(expression.digits)
    left = side_value(expression.left, rules)
    right = side_value(expression.right, rules)
    value, failure = apply_operation(expression.operator, left, right, rules.allow_negatives, [], 0)
    if failure is not None:
        kind, _, template = failure
        raise EquationError(template, kind=kind, position=expression.position)
    return value
