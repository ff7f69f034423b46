"""Explanations for learners: why an equation is true or false, step by step, in binary.

>>> print(explain("11 x 11 = 1001", Rules()))
11 × 11 = 1001 is true (standard precedence: NOT, then × ÷, then + −, then AND, XOR, OR)
left side: 11 × 11
  11 × 11 = 1001   (3 × 3 = 9)
right side: 1001   (9)
both sides are 1001 (9): the value is 1001 (9), bonus 8 points (its leading bit, 1000)

>>> print(explain("100 AND 1 = 101", Rules()))
100 AND 1 = 101 is false (standard precedence: NOT, then × ÷, then + −, then AND, XOR, OR)
left side: 100 AND 1
  100 AND 1 = 0   (4 AND 1 = 0)
right side: 101   (5)
identity fragment: AND 1 (identity_and_one_or_zero is on)
the left side is 0 but the right side is 101
100 AND 1 = 0, not 101 — one symbol away, 100 + 1 = 101 would be true (so would 100 OR 1 = 101)

>>> print(explain("1+xx1==10", Rules()))
1+xx1==10
  ^
two binary operators in a row at position 2 (+ then ×)
"""

from __future__ import annotations

from dataclasses import dataclass

from binscrabble.expr.checks import check, equation_value
from binscrabble.expr.errors import EquationError
from binscrabble.expr.evaluation import apply_operation
from binscrabble.expr.symbols import binary, bonus, not_value
from binscrabble.expr.tree import (
    BinaryOperation,
    Equation,
    Expression,
    IdentityFragment,
    Not,
    Number,
    identity_fragments,
    parse,
)
from binscrabble.rules import Rules

__all__ = ["Explanation", "explain", "one_symbol_fixes", "show"]

# Operators as on the tiles, in the binary lines and their decimal translations alike.
_BINARY_SHOWN = {"+": "+", "-": "−", "x": "×", "/": "÷", "&": "AND", "|": "OR", "^": "XOR"}
_DECIMAL_SHOWN = _BINARY_SHOWN
_PRECEDENCE_NOTE = {
    "standard": "standard precedence: NOT, then × ÷, then + −, then AND, XOR, OR",
    "left-to-right": "left-to-right precedence: NOT first, then every operator in written order",
}


@dataclass(frozen=True, slots=True)
class Explanation:
    """An explanation: ``lines`` of text, ``valid`` as ``check`` says; ``str()`` joins them."""

    text: str
    valid: bool
    lines: tuple[str, ...]

    def __str__(self) -> str:
        return "\n".join(self.lines)


def show(codes: str) -> str:
    """Codes as people read them: words for logic, spaces around operators and ``=``.

    >>> show("~101&1=1")
    'NOT 101 AND 1 = 1'
    """
    parts: list[str] = []
    for symbol in codes:
        if symbol in _BINARY_SHOWN:
            parts.append(f" {_BINARY_SHOWN[symbol]} ")
        elif symbol == "=":
            parts.append(" = ")
        elif symbol == "~":
            parts.append("NOT ")
        else:
            parts.append(symbol)
    return "".join(parts)


def _show_tree(node: Expression) -> str:
    return show(node.format())


def explain(text: str, rules: Rules) -> Explanation:
    """Explain `text` under `rules`: the steps of each side, the verdict, and nearby fixes.

    A true equation: every step of each side in binary with the decimals beside it, then
    its value and bonus. A false one: each side's value, and every equation one symbol
    away (one digit flipped or one operator swapped) that would be true. Malformed input:
    the reason, with a caret under the symbol to blame.
    """
    result = check(text, rules)
    try:
        tree = parse(text, rules)
    except EquationError as error:
        return Explanation(text, False, tuple(_pointing(text, error)))
    lines: list[str] = []
    verdict = "true" if result.valid else "false"
    lines.append(f"{show(tree.format())} is {verdict} ({_PRECEDENCE_NOTE[rules.precedence]})")
    values = _explain_sides(tree, rules, lines)
    fragments = identity_fragments(tree)
    if fragments:
        lines.append(_identity_note(fragments, rules))
    if result.valid:
        assert result.value is not None
        lines.append(_value_note(result.value, len(tree.sides)))
        return Explanation(text, True, tuple(lines))
    assert result.error is not None
    if result.error.kind == "sides_differ" or result.error.kind.startswith("identity"):
        lines.append(str(result.error))
    else:
        lines.extend(_pointing(text, result.error))
    fixes = one_symbol_fixes(tree.format(), rules)
    if fixes:
        lines.append(_fix_sentence(tree, values, fixes, result.error.kind))
    return Explanation(text, False, tuple(lines))


def _value_note(value: int, side_count: int) -> str:
    """The last line of a true equation's explanation: its value and bonus."""
    points = bonus(value)
    sides = "both sides" if side_count == 2 else f"all {side_count} sides"
    bonus_note = (
        f"bonus {points} point{'' if points == 1 else 's'} (its leading bit, {binary(points)})"
        if points
        else "bonus 0 points (a value of 0 or less has no leading bit)"
    )
    return (
        f"{sides} are {binary(value)} ({value}): the value is {binary(value)} ({value}), "
        f"{bonus_note}"
    )


def _identity_note(fragments: tuple[IdentityFragment, ...], rules: Rules) -> str:
    """Which identity fragments the equation has, and whether the rules in force allow them."""
    parts = []
    for fragment in fragments:
        state = "on" if getattr(rules, fragment.switch) else "off"
        parts.append(f"{fragment.text} ({fragment.switch} is {state})")
    note = "identity fragment: " if len(parts) == 1 else "identity fragments: "
    note += ", ".join(parts)
    if len(parts) > 1:
        chains = "on" if rules.identity_chains else "off"
        note += f"; more than one needs identity_chains, which is {chains}"
    return note


def _pointing(text: str, error: EquationError) -> list[str]:
    """The reason, under the text with a caret below the symbol to blame."""
    if error.position is None or not text.strip():
        return [str(error)]
    # Tabs would move the caret; every other symbol takes one column.
    line = text.replace("\t", " ")
    return [line, " " * error.position + "^", str(error)]


def _explain_sides(tree: Equation, rules: Rules, lines: list[str]) -> list[int | None]:
    values: list[int | None] = []
    count = len(tree.sides)
    for number, side in enumerate(tree.sides):
        name = _side_name(number, count)
        steps: list[tuple[str, str]] = []
        value = _steps(side, rules, steps)
        if isinstance(side, Number):
            lines.append(f"{name}: {side.digits}   ({int(side.digits, 2)})")
        else:
            lines.append(f"{name}: {_show_tree(side)}")
            width = max(len(binary_part) for binary_part, _ in steps)
            for binary_part, decimal_part in steps:
                lines.append(f"  {binary_part.ljust(width)}   ({decimal_part})")
        values.append(value)
    return values


def _side_name(number: int, count: int) -> str:
    if count == 2:
        return ("left side", "right side")[number]
    return f"side {number + 1}"


def _steps(node: Expression, rules: Rules, steps: list[tuple[str, str]]) -> int | None:
    """The value of `node`, recording each step; None after a step that is not allowed."""
    if isinstance(node, Number):
        return int(node.digits, 2)
    if isinstance(node, Not):
        value = not_value(node.digits)
        steps.append(
            (
                f"NOT {node.digits} = {binary(value)}",
                f"NOT {int(node.digits, 2)} = {value}, flipping all {len(node.digits)} digits",
            )
        )
        return value
    left = _steps(node.left, rules, steps)
    right = _steps(node.right, rules, steps)
    if left is None or right is None:
        return None
    value, failure = apply_operation(node.operator, left, right, rules.allow_negatives, [], 0)
    if failure is not None:
        steps.append((failure[2], _failed(node, left, right)))
        return None
    shown, decimal = _BINARY_SHOWN[node.operator], _DECIMAL_SHOWN[node.operator]
    steps.append(
        (
            f"{binary(left)} {shown} {binary(right)} = {binary(value)}",
            f"{left} {decimal} {right} = {value}",
        )
    )
    return value


def _failed(node: BinaryOperation, left: int, right: int) -> str:
    if node.operator == "-":
        return f"{left} − {right} = {left - right}, below zero"
    if right == 0:
        return f"{left} ÷ 0 has no value"
    return f"{left} ÷ {right} = {left // right} remainder {left % right}"


def one_symbol_fixes(codes: str, rules: Rules, limit: int = 4) -> list[str]:
    """True equations one symbol away: one digit flipped or one operator swapped.

    >>> one_symbol_fixes("100&1=101", Rules())
    ['100+1=101', '100|1=101']
    """
    operators = "+-x/&|" + ("^" if rules.xor_tiles else "")
    found: list[str] = []
    for index, symbol in enumerate(codes):
        if symbol in "01":
            replacements = "1" if symbol == "0" else "0"
        elif symbol in _BINARY_SHOWN:
            replacements = operators.replace(symbol, "")
        else:
            continue
        for replacement in replacements:
            candidate = codes[:index] + replacement + codes[index + 1 :]
            try:
                equation_value(candidate, rules)
            except EquationError:
                continue
            found.append(candidate)
            if len(found) >= limit:
                return found
    return found


def _fix_sentence(tree: Equation, values: list[int | None], fixes: list[str], kind: str) -> str:
    first, *others = (show(fix) for fix in fixes)
    also = f" (so would {', '.join(others)})" if others else ""
    left_value, right_value = values if len(values) == 2 else (None, None)
    if kind == "sides_differ" and left_value is not None and right_value is not None:
        left = _show_tree(tree.sides[0])
        return (
            f"{left} = {binary(left_value)}, not {binary(right_value)} — "
            f"one symbol away, {first} would be true{also}"
        )
    return f"one symbol away, {first} would be true{also}"
