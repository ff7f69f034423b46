"""Explanations for learners: why an equation is true or false, step by step, in binary.

>>> print(explain("11 x 11 = 1001", Rules()))
11 × 11 = 1001 is true (standard precedence: NOT, then × ÷, then + −, then AND, XOR, OR)
left side: 11 × 11
  11 × 11 = 1001   (3 × 3 = 9)
right side: 1001   (9)
both sides are 1001 (9): the value is 1001 (9), bonus 8 points (its leading bit, 1000)

>>> print(explain("100 AND 1 = 101", Rules()))  # doctest: +NORMALIZE_WHITESPACE
100 AND 1 = 101 is false (standard precedence: NOT, then × ÷, then + −, then AND, XOR, OR)
left side: 100 AND 1
  100 AND 1 = 0   (4 AND 1 = 0)
right side: 101   (5)
AND 1 keeps only the last binary digit of the other number: allowed by the house rule “AND 1,
OR 0 and XOR 0 allowed”
the left side is 0 but the right side is 101
100 AND 1 = 0, not 101 — changing one symbol gives the true equation 100 + 1 = 101
(or 100 OR 1 = 101)

>>> print(explain("1+xx1==10", Rules()))
1+xx1==10
  ^
two binary operators in a row at position 3 (+ then ×)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from binscrabble.expr.checks import check, equation_value
from binscrabble.expr.errors import EquationError
from binscrabble.expr.evaluation import apply_operation
from binscrabble.expr.sentences import say
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
from binscrabble.i18n import N_, _, ngettext
from binscrabble.rules import Rules, rule_words

__all__ = ["Explanation", "explain", "one_symbol_fixes", "show"]

# Operators as on the tiles, in the binary lines and their decimal translations alike.
_BINARY_SHOWN = {"+": "+", "-": "−", "x": "×", "/": "÷", "&": "AND", "|": "OR", "^": "XOR"}
_DECIMAL_SHOWN = _BINARY_SHOWN
_PRECEDENCE_NOTE = {
    "standard": N_("standard precedence: NOT, then × ÷, then + −, then AND, XOR, OR"),
    "left-to-right": N_(
        "left-to-right precedence: NOT first, then every operator in written order"
    ),
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


def explain(
    text: str,
    rules: Rules,
    switch_names: Mapping[str, str] | None = None,
    *,
    options: bool = False,
) -> Explanation:
    """Explain `text` under `rules`: the steps of each side, the verdict, and nearby fixes.

    A true equation: every step of each side in binary with the decimals beside it, then
    its value and bonus. A false one: each side's value, and every equation one symbol
    away (one digit flipped or one operator swapped) that would be true. Malformed input:
    the reason, with a caret under the symbol to blame. A house rule is named by its
    words, as the lobby and the printed card name it (``switch_names`` may give others);
    with ``options`` (the command line) the ``--rule`` option that would change it follows,
    as it is typed (``--rule identity_times_one=off``).
    """
    result = check(text, rules)
    try:
        tree = parse(text, rules)
    except EquationError as error:
        return Explanation(text, False, tuple(_pointing(text, error)))
    lines: list[str] = []
    verdict = (
        _("{equation} is true ({precedence})")
        if result.valid
        else _("{equation} is false ({precedence})")
    )
    precedence = _(_PRECEDENCE_NOTE[rules.precedence])
    lines.append(verdict.format(equation=show(tree.format()), precedence=precedence))
    values = _explain_sides(tree, rules, lines)
    fragments = identity_fragments(tree)
    if fragments:
        lines += _identity_note(fragments, rules, switch_names or {}, options)
    if result.valid:
        assert result.value is not None
        lines.append(_value_note(result.value, len(tree.sides)))
        return Explanation(text, True, tuple(lines))
    assert result.error is not None
    if result.error.kind == "sides_differ" or result.error.kind.startswith("identity"):
        lines.append(say(str(result.error)))
    else:
        lines.extend(_pointing(text, result.error))
    fixes = one_symbol_fixes(tree.format(), rules)
    if fixes:
        lines.append(_fix_sentence(tree, values, fixes, result.error.kind))
    return Explanation(text, False, tuple(lines))


def _value_note(value: int, side_count: int) -> str:
    """The last line of a true equation's explanation: its value and bonus."""
    points = bonus(value)
    if points:
        bonus_note = ngettext(
            "bonus {count} point (its leading bit, {bit})",
            "bonus {count} points (its leading bit, {bit})",
            points,
        ).format(count=points, bit=_bits(points))
    else:
        bonus_note = _("bonus 0 points (a value of 0 or less has no leading bit)")
    if side_count == 2:
        sentence = _("both sides are {binary} ({value}): the value is {binary} ({value}), {bonus}")
    else:
        sentence = _(
            "all {count} sides are {binary} ({value}): the value is {binary} ({value}), {bonus}"
        )
    return sentence.format(
        count=side_count, binary=_bits(value), value=signed(value), bonus=bonus_note
    )


def _identity_note(
    fragments: tuple[IdentityFragment, ...],
    rules: Rules,
    names: Mapping[str, str],
    options: bool,
) -> list[str]:
    """A line for each identity fragment of the equation: what it does, in words a newcomer
    knows, and whether the rules in force allow it (each rule named by ``names``, else by its
    words; with ``options``, followed by the ``--rule`` option that would change it, as it is
    typed); with more than one, a line for the rule that allows several."""
    lines = []
    for fragment in fragments:
        on = bool(getattr(rules, fragment.switch))
        switch = names.get(fragment.switch) or rule_words(fragment.switch)
        if options:
            line = (
                _("{what}: allowed by {switch} ({option} turns it off)")
                if on
                else _("{what}: not allowed, as {switch} is off ({option} turns it on)")
            )
        else:
            line = (
                _("{what}: allowed by {switch}")
                if on
                else _("{what}: not allowed, as {switch} is off")
            )
        option = _rule_option(fragment.switch, not on)
        lines.append(line.format(what=_fragment_words(fragment), switch=switch, option=option))
    if len(fragments) > 1:
        chains = names.get("identity_chains") or rule_words("identity_chains")
        on = rules.identity_chains
        if options:
            more = (
                _(
                    "an equation with more than one of these needs {switch}, which is "
                    "on ({option} turns it off)"
                )
                if on
                else _(
                    "an equation with more than one of these needs {switch}, which is "
                    "off ({option} turns it on)"
                )
            )
        else:
            more = (
                _("an equation with more than one of these needs {switch}, which is on")
                if on
                else _("an equation with more than one of these needs {switch}, which is off")
            )
        lines.append(more.format(switch=chains, option=_rule_option("identity_chains", not on)))
    return lines


def _fragment_words(fragment: IdentityFragment) -> str:
    """What an identity fragment does: ×1, +0, OR 0 and the others change nothing; AND 1
    keeps only the last digit of the other number (``100 AND 1`` is 0)."""
    if "AND" in fragment.text.split():
        return _("{fragment} keeps only the last binary digit of the other number").format(
            fragment=fragment.text
        )
    return _("{fragment} changes nothing here").format(fragment=fragment.text)


def _rule_option(switch: str, on: bool) -> str:
    """The option that sets a switch, as it is typed at the command line."""
    return f"--rule {switch}={'on' if on else 'off'}"


def _pointing(text: str, error: EquationError) -> list[str]:
    """The reason, under the text with a caret below the symbol to blame."""
    if error.position is None or not text.strip():
        return [say(str(error))]
    # Tabs would move the caret; every other symbol takes one column.
    line = text.replace("\t", " ")
    return [line, " " * error.position + "^", say(str(error))]


def _explain_sides(tree: Equation, rules: Rules, lines: list[str]) -> list[int | None]:
    values: list[int | None] = []
    count = len(tree.sides)
    for number, side in enumerate(tree.sides):
        name = _side_name(number, count)
        steps: list[tuple[str, str]] = []
        value = _steps(side, rules, steps)
        if isinstance(side, Number):
            shown = f"{side.digits}   ({int(side.digits, 2)})"
        else:
            shown = _show_tree(side)
        lines.append(_("{side}: {expression}").format(side=name, expression=shown))
        if not isinstance(side, Number):
            width = max(len(binary_part) for binary_part, _ in steps)
            for binary_part, decimal_part in steps:
                lines.append(f"  {binary_part.ljust(width)}   ({decimal_part})")
        values.append(value)
    return values


def signed(number: int) -> str:
    """A number as a person reads it: a negative one with the minus sign of the tiles and
    the page (U+2212), not a hyphen. Programs (``--json``) keep plain numbers.

    >>> signed(-1), signed(10)
    ('−1', '10')
    """
    return f"−{-number}" if number < 0 else str(number)


def _bits(value: int) -> str:
    """A value in binary as a person reads it (a negative one with ``−``)."""
    return f"−{binary(-value)}" if value < 0 else binary(value)


def _side_name(number: int, count: int) -> str:
    if count == 2:
        return _("left side") if number == 0 else _("right side")
    return _("side {number}").format(number=number + 1)


def _steps(node: Expression, rules: Rules, steps: list[tuple[str, str]]) -> int | None:
    """The value of `node`, recording each step; None after a step that is not allowed."""
    if isinstance(node, Number):
        return int(node.digits, 2)
    if isinstance(node, Not):
        value = not_value(node.digits)
        count = len(node.digits)
        if count == 1:
            flipping = _("NOT {number} = {value}, flipping its one digit")
        else:
            flipping = ngettext(
                "NOT {number} = {value}, flipping its {count} digit",
                "NOT {number} = {value}, flipping all {count} digits",
                count,
            )
        decimal = flipping.format(number=int(node.digits, 2), value=value, count=count)
        steps.append((f"NOT {node.digits} = {_bits(value)}", decimal))
        return value
    left = _steps(node.left, rules, steps)
    right = _steps(node.right, rules, steps)
    if left is None or right is None:
        return None
    value, failure = apply_operation(node.operator, left, right, rules.allow_negatives, [], 0)
    if failure is not None:
        steps.append((say(failure[2]), _failed(node, left, right)))
        return None
    shown, decimal = _BINARY_SHOWN[node.operator], _DECIMAL_SHOWN[node.operator]
    steps.append(
        (
            f"{_bits(left)} {shown} {_bits(right)} = {_bits(value)}",
            f"{signed(left)} {decimal} {signed(right)} = {signed(value)}",
        )
    )
    return value


def _failed(node: BinaryOperation, left: int, right: int) -> str:
    if node.operator == "-":
        return _("{left} − {right} = {difference}, below zero").format(
            left=left, right=right, difference=signed(left - right)
        )
    if right == 0:
        return _("{left} ÷ 0 has no value").format(left=left)
    return _("{left} ÷ {right} = {quotient} remainder {remainder}").format(
        left=left, right=right, quotient=left // right, remainder=left % right
    )


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
    if others:
        near = _("changing one symbol gives the true equation {first} (or {others})")
    else:
        near = _("changing one symbol gives the true equation {first}")
    near = near.format(first=first, others=", ".join(others))
    left_value, right_value = values if len(values) == 2 else (None, None)
    if kind == "sides_differ" and left_value is not None and right_value is not None:
        return _("{left} = {value}, not {other} — {near}").format(
            left=_show_tree(tree.sides[0]),
            value=_bits(left_value),
            other=_bits(right_value),
            near=near,
        )
    return near
