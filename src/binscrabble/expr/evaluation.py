"""Exact evaluation of grammatical sides, with the reason when a step is not allowed.

This is the full path: it finds every identity fragment of a side (docs/rules.md §7) and its
first failing step (a negative subtraction, an inexact division, a division by zero), in
the order of a post-order walk of the parse tree, and says which failure of an equation to
report first. The shape evaluators (:mod:`binscrabble.expr.shapes`) answer the common cases
faster and leave the rest here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final, TypeAlias

from binscrabble.expr.errors import Failure, counted
from binscrabble.expr.symbols import (
    IDENTITY_SWITCH,
    NEUTRAL_LITERALS,
    TOTAL_OPERATIONS,
    binary,
    not_value,
    show_fragment,
)
from binscrabble.rules import RULE_LABELS

#: Splits a side into operands and the operators between them (kept, at odd indexes).
OPERATOR_SPLIT: Final = re.compile(r"([-+x/&|^])")

#: An identity fragment of a side: (position in the side, text, switch).
Fragment: TypeAlias = tuple[int, str, str]
#: A side in full: (value or None, first arithmetic failure or None, identity fragments).
#: Positions are relative to the side's first symbol.
SideResult: TypeAlias = tuple[int | None, Failure | None, tuple[Fragment, ...]]
#: A side as the checker caches it: its value (no identity fragment), its value and how
#: many identity fragments (all allowed) it has, or the full result with reasons.
CachedSide: TypeAlias = int | tuple[int, int] | SideResult
#: An equation's outcome: its value, or why it fails.
Outcome: TypeAlias = int | Failure

#: The sentence for two sides of different values.
SIDES_DIFFER: Final = "the left side is {:b} but the right side is {:b}"


def house_rule(switch: str) -> str:
    """A switch named in a reason as people read it, by its words, not its code (the
    words of ``RULE_LABELS``, translated with the reason by ``sentences.say``).

    >>> house_rule("identity_times_one")
    'the house rule “Times 1 and divided by 1 allowed”'
    """
    return f"the house rule “{RULE_LABELS[switch]}”"


def operation_position(tokens: list[str], index: int) -> int:
    """Where token number `index` of a side split by OPERATOR_SPLIT starts in the side."""
    return sum(map(len, tokens[:index]))


def apply_operation(
    operator: str, left: int, right: int, negatives: bool, tokens: list[str], index: int
) -> tuple[int, Failure | None]:
    """One binary operation on exact integers, or why it is not allowed.

    `tokens` and `index` place the operator for the failure (``[]`` and 0: position 0).

    >>> apply_operation("-", 1, 2, False, [], 0)
    (0, ('negative', 0, '1 − 10 would be negative'))
    """
    if operator == "+":
        return left + right, None
    if operator == "-":
        if left < right and not negatives:
            return 0, (
                "negative",
                operation_position(tokens, index),
                f"{binary(left)} − {binary(right)} would be negative",
            )
        return left - right, None
    if operator == "x":
        return left * right, None
    if operator == "/":
        return _divide(left, right, tokens, index)
    if operator == "&":
        return left & right, None
    if operator == "|":
        return left | right, None
    return left ^ right, None


def _divide(left: int, right: int, tokens: list[str], index: int) -> tuple[int, Failure | None]:
    if right == 0:
        return 0, (
            "division_by_zero",
            operation_position(tokens, index),
            f"{binary(left)} ÷ 0 is a division by zero",
        )
    if left % right:
        return 0, (
            "remainder",
            operation_position(tokens, index),
            f"{binary(left)} ÷ {binary(right)} leaves a remainder",
        )
    return left // right, None


def evaluate_side(side: str, precedence: Mapping[str, int], negatives: bool) -> SideResult:
    """Evaluate one side (already known to follow the grammar) in the precedence given.

    Operator precedence parsing with two stacks; its reductions happen in the order of
    a post-order walk of the parse tree, so the first failure is the tree's first. An
    operand is a *bare literal* (identity fragments need one) until it is reduced.
    One flat loop: this is the hot path of every new side.

    >>> from binscrabble.expr.symbols import STANDARD_PRECEDENCE
    >>> evaluate_side("1+1x10", STANDARD_PRECEDENCE, False)
    (3, None, ((3, '1×', 'identity_times_one'),))
    """
    tokens = OPERATOR_SPLIT.split(side)
    count = len(tokens)
    first = tokens[0]
    if count == 1:
        return (not_value(first[1:]) if first[0] == "~" else int(first, 2), None, ())
    if first[0] == "~":
        values = [not_value(first[1:])]
        literals = [False]
    else:
        values = [int(first, 2)]
        literals = [True]
    operators: list[int] = []  # indexes of operator tokens waiting for their right side
    failure: Failure | None = None
    fragments: list[tuple[int, bool]] = []  # (operator index, neutral literal on right)
    index = 1
    while True:
        if index < count and not (
            operators and precedence[tokens[operators[-1]]] >= precedence[tokens[index]]
        ):
            operators.append(index)
            operand = tokens[index + 1]
            if operand[0] == "~":
                values.append(not_value(operand[1:]))
                literals.append(False)
            else:
                values.append(int(operand, 2))
                literals.append(True)
            index += 2
            continue
        if not operators:
            break
        at = operators.pop()
        operator = tokens[at]
        right = values.pop()
        left = values[-1]
        neutral, either_side = NEUTRAL_LITERALS[operator]
        if literals.pop() and right == neutral:
            fragments.append((at, True))
        elif either_side and literals[-1] and left == neutral:
            fragments.append((at, False))
        literals[-1] = False
        if failure is not None:
            continue
        always = TOTAL_OPERATIONS.get(operator)
        if always is not None:
            values[-1] = always(left, right)
        else:
            # `-` and `/`, which may fail (their value is then never read).
            values[-1], failure = apply_operation(operator, left, right, negatives, tokens, at)
    value = None if failure is not None else values[0]
    if not fragments:
        return (value, failure, ())
    return (value, failure, _named_fragments(tokens, fragments))


def _named_fragments(tokens: list[str], fragments: list[tuple[int, bool]]) -> tuple[Fragment, ...]:
    """Each fragment (operator index, neutral literal on its right?) with its place,
    text and switch, in reading order."""
    named = []
    for at, on_right in sorted(fragments):
        operator = tokens[at]
        text = (
            show_fragment(operator, tokens[at + 1])
            if on_right
            else show_fragment(tokens[at - 1], operator)
        )
        named.append((operation_position(tokens, at), text, IDENTITY_SWITCH[operator]))
    return tuple(named)


def identity_or_arithmetic(
    sides: list[str], results: list[SideResult], allowed: Mapping[str, bool], chains: bool
) -> Failure | None:
    """The failure to report first for an equation's sides, positions in the whole codes:
    a forbidden identity fragment, then a chain the rules forbid, then the first failing
    step, side by side."""
    fragments: list[Fragment] = []
    offset = 0
    # zip without strict= (equal lengths here): the keyword costs each call a thousand
    # instructions more, and this runs once per text with something to explain.
    for side, result in zip(sides, results):  # noqa: B905
        for position, text, switch in result[2]:
            fragments.append((offset + position, text, switch))
        offset += len(side) + 1
    for position, text, switch in fragments:
        if not allowed[switch]:
            return (
                "identity_not_allowed",
                position,
                f"{text} is an identity fragment, not allowed under these rules "
                f"({house_rule(switch)} is off)",
            )
    if len(fragments) > 1 and not chains:
        listed = ", ".join(text for _, text, _ in fragments)
        return (
            "identity_chain",
            fragments[1][0],
            f"more than one identity fragment ({listed}) while "
            f"{house_rule('identity_chains')} is off",
        )
    offset = 0
    for side, result in zip(sides, results):  # noqa: B905
        failure = result[1]
        if failure is not None:
            kind, at, template = failure
            assert at is not None
            return (kind, offset + at, template)
        offset += len(side) + 1
    return None


def sides_differ(sides: list[str], values: list[int], number: int) -> Failure:
    """Side `number` differs from the first: the failure, at the `=` before that side."""
    first = values[0]
    other = values[number]
    # Each side before this one and its `=`, back to the `=` before this side.
    position = sum(map(len, sides[:number])) + number - 1
    if len(sides) == 2:
        message = SIDES_DIFFER.format(first, other)
    else:
        message = f"the first side is {first:b} but side {number + 1} is {other:b}"
    return ("sides_differ", position, message)


def fragments_allowed(left: CachedSide, right: CachedSide, chains: bool) -> tuple[int, int] | None:
    """The values of two cached sides when every identity fragment in them is allowed.

    None when either side has something to explain (a failure, a forbidden fragment), or
    when together they make a chain the rules forbid.
    """
    if isinstance(left, int):
        left_value, left_count = left, 0
    elif len(left) == 2:
        left_value, left_count = left
    else:
        return None
    if isinstance(right, int):
        right_value, right_count = right, 0
    elif len(right) == 2:
        right_value, right_count = right
    else:
        return None
    if left_count + right_count > 1 and not chains:
        return None
    return left_value, right_value


def failed_pair(
    left: str, left_value: CachedSide, right_value: CachedSide
) -> tuple[str, str, int | None] | None:
    """Message, kind and position for two sides of which one fails a step (a negative
    one, a remainder, a division by zero) and neither has an identity fragment: the
    failure of the first failing side, as :func:`identity_or_arithmetic` finds it. None
    when there is more to look at (identity fragments): then the full path answers.

    `left_value` may be the value of a left side without fragments (an int).
    """
    if type(left_value) is tuple:
        if len(left_value) != 3 or left_value[2]:
            return None
        failure = left_value[1]
        offset = 0
        if failure is None:
            return None
    else:
        failure = None
    if failure is None:
        if type(right_value) is not tuple or len(right_value) != 3 or right_value[2]:
            return None
        failure = right_value[1]
        if failure is None:
            return None
        offset = len(left) + 1
    elif type(right_value) is tuple and (len(right_value) != 3 or right_value[2]):
        return None
    kind, at, message = failure
    assert at is not None
    position = offset + at
    if "{" in message:
        message = message.replace("{position}", counted(position))
    return message, kind, position
