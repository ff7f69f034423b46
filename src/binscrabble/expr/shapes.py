"""Evaluators made for a side's *shape*: its symbols with the digits removed.

``"x~+"`` is the shape of ``11x~10+1``. The parse of a shape is the same for every side of
that shape, so it is done once, and each side then costs a few integer operations. Two
kinds, each cheaper to build and slower to run than the next: a register program run by
:func:`interpret_shape`, and straight-line Python generated and compiled by
:func:`compile_shape`. Both answer a side's value (with its count of identity fragments
when the rules allow each), or None when the side needs the full path of
:mod:`binscrabble.expr.evaluation` (a forbidden fragment, a negative step, an inexact
division).
"""

from __future__ import annotations

import operator as operator_module
from collections.abc import Callable, Mapping
from typing import TypeAlias

from binscrabble.expr.symbols import IDENTITY_SWITCH, NEUTRAL_LITERALS, TOTAL_OPERATIONS

#: A shape's evaluator: a side's value, (value, identity fragments), or None.
ShapeFunction: TypeAlias = Callable[[str], int | tuple[int, int] | None]
#: One operation of a side: (operator, left register, right register, left is a bare
#: literal, right is a bare literal).
Step: TypeAlias = tuple[str, int, int, bool, bool]


def shape_steps(shape: str, precedence: Mapping[str, int]) -> tuple[list[int], list[Step]]:
    """The parse of a side's *shape* (its symbols with the digits removed) as register steps.

    ``"x~+"`` is the shape of ``11x~10+1``. Returns the indexes of the operands under NOT,
    and the operations in evaluation order as (operator, left register, right register,
    left is a bare literal, right is a bare literal); registers 0..n-1 hold the operands
    and each step appends its result as the next register.
    """
    under_not: list[bool] = []
    operators: list[str] = []
    index = 0
    if shape[:1] == "~":
        under_not.append(True)
        index = 1
    else:
        under_not.append(False)
    while index < len(shape):
        operators.append(shape[index])
        index += 1
        if index < len(shape) and shape[index] == "~":
            under_not.append(True)
            index += 1
        else:
            under_not.append(False)
    steps: list[Step] = []
    stack: list[tuple[int, bool]] = [(0, not under_not[0])]  # (register, bare literal?)
    waiting: list[str] = []
    registers = len(under_not)

    def reduce() -> None:
        nonlocal registers
        operator = waiting.pop()
        right, right_literal = stack.pop()
        left, left_literal = stack.pop()
        steps.append((operator, left, right, left_literal, right_literal))
        stack.append((registers, False))
        registers += 1

    for number, operator in enumerate(operators, start=1):
        while waiting and precedence[waiting[-1]] >= precedence[operator]:
            reduce()
        waiting.append(operator)
        stack.append((number, not under_not[number]))
    while waiting:
        reduce()
    return [number for number, flag in enumerate(under_not) if flag], steps


def column_steps(operators: str, precedence: Mapping[str, int]) -> list[Step]:
    """``shape_steps(operators, precedence)[1]`` for a shape without NOT, in fewer steps
    (every operand register is a bare literal, every result register is not): it is
    worked out for every group of sides in a batch.

    >>> from binscrabble.expr.symbols import STANDARD_PRECEDENCE
    >>> column_steps("+x", STANDARD_PRECEDENCE)
    [('x', 1, 2, True, True), ('+', 0, 3, True, False)]
    """
    operands = len(operators) + 1
    steps: list[Step] = []
    stack = [0]
    waiting: list[str] = []
    register = operands
    for number, operator in enumerate(operators, start=1):
        strength = precedence[operator]
        while waiting and precedence[waiting[-1]] >= strength:
            right = stack.pop()
            left = stack[-1]
            steps.append((waiting.pop(), left, right, left < operands, right < operands))
            stack[-1] = register
            register += 1
        waiting.append(operator)
        stack.append(number)
    while waiting:
        right = stack.pop()
        left = stack[-1]
        steps.append((waiting.pop(), left, right, left < operands, right < operands))
        stack[-1] = register
        register += 1
    return steps


class _NeedsCloserLook(Exception):
    """A step a shape evaluator leaves to the full evaluation (negative, inexact)."""


def _subtract(left: int, right: int) -> int:
    if left < right:
        raise _NeedsCloserLook
    return left - right


def _divide(left: int, right: int) -> int:
    if not right or left % right:
        raise _NeedsCloserLook
    return left // right


def _digit_splitter(shape: str) -> Callable[[str], list[str]]:
    """A function giving the digit runs of a side of this shape, with plain string methods.

    The shape says which operators occur, so the split needs no regular expression: one
    ``str.split`` when a single operator occurs, a few ``str.replace`` first otherwise.
    """
    operators = sorted(set(shape) - {"~"})
    has_not = "~" in shape
    if not operators:
        return _strip_not if has_not else _alone
    first, *others = operators
    if not others and not has_not:
        splitter: Callable[[str], list[str]] = operator_module.methodcaller("split", first)
        return splitter

    def split(side: str) -> list[str]:
        if has_not:
            side = side.replace("~", "")
        for other in others:
            side = side.replace(other, first)
        return side.split(first)

    return split


def _strip_not(side: str) -> list[str]:
    return [side[1:]]


def _alone(side: str) -> list[str]:
    return [side]


def _splitting_source(shape: str) -> str:
    """The Python expression `_digit_splitter` evaluates, for compiled evaluators."""
    operators = sorted(set(shape) - {"~"})
    expression = "side"
    if "~" in shape:
        expression += '.replace("~", "")'
    if not operators:
        return f"[{expression}]"
    first, *others = operators
    for other in others:
        expression += f".replace({other!r}, {first!r})"
    return f"{expression}.split({first!r})"


def interpret_shape(
    shape: str, precedence: Mapping[str, int], negatives: bool, allowed: Mapping[str, bool]
) -> ShapeFunction:
    """An evaluator for every side of one shape, ready at once (see :func:`compile_shape`).

    It runs the shape's steps as a small register program; cheaper to build than the
    compiled evaluator, slower to run, so it serves a shape until the shape proves common.
    """
    under_not, steps = shape_steps(shape, precedence)
    program = []
    for operator, left, right, left_literal, right_literal in steps:
        neutral, either_side = NEUTRAL_LITERALS[operator]
        tests = tuple(
            register
            for register, literal in ((right, right_literal), (left, left_literal and either_side))
            if literal
        )
        if operator == "-":
            function = operator_module.sub if negatives else _subtract
        elif operator == "/":
            function = _divide
        else:
            function = TOTAL_OPERATIONS[operator]
        forbidden = not allowed[IDENTITY_SWITCH[operator]]
        program.append((function, left, right, tests, neutral, forbidden))

    split = _digit_splitter(shape)

    def evaluate(side: str) -> int | tuple[int, int] | None:
        digits = split(side)
        registers = [int(written, 2) for written in digits]
        for number in under_not:
            registers[number] ^= (1 << len(digits[number])) - 1
        fragments = 0
        try:
            for function, left, right, tests, neutral, forbidden in program:
                for register in tests:
                    if registers[register] == neutral:
                        if forbidden:
                            return None
                        fragments += 1
                        break
                registers.append(function(registers[left], registers[right]))
        except _NeedsCloserLook:
            return None
        return (registers[-1], fragments) if fragments else registers[-1]

    return evaluate


def compile_shape(
    shape: str, precedence: Mapping[str, int], negatives: bool, allowed: Mapping[str, bool]
) -> ShapeFunction:
    """A function evaluating every side of one shape, compiled to straight-line code.

    The function takes the side (codes) and returns its value (or its value and its
    count of identity fragments, when it has some and the rules allow each), or None when
    the side needs a closer look (a fragment the rules forbid, a negative step, an inexact
    division). The parse is done once, here, and baked into Python source, so a side costs
    a few integer operations; compiling costs as much as some dozens of interpreted sides.
    """
    under_not, steps = shape_steps(shape, precedence)
    lines = ["def evaluate(side):", f"    digits = {_splitting_source(shape)}", "    fragments = 0"]
    operands = len(steps) + 1
    for number in range(operands):
        if number in under_not:
            lines.append(
                f"    r{number} = ((1 << len(digits[{number}])) - 1) ^ int(digits[{number}], 2)"
            )
        else:
            lines.append(f"    r{number} = int(digits[{number}], 2)")
    result = operands
    for operator, left, right, left_literal, right_literal in steps:
        neutral, either_side = NEUTRAL_LITERALS[operator]
        found = "fragments += 1" if allowed[IDENTITY_SWITCH[operator]] else "return None"
        tests = []
        if right_literal:
            tests.append(f"r{right} == {neutral}")
        if either_side and left_literal:
            tests.append(f"r{left} == {neutral}")
        if tests:
            lines.append(f"    if {' or '.join(tests)}: {found}")
        if operator == "-":
            if not negatives:
                lines.append(f"    if r{left} < r{right}: return None")
            lines.append(f"    r{result} = r{left} - r{right}")
        elif operator == "/":
            lines.append(f"    if not r{right} or r{left} % r{right}: return None")
            lines.append(f"    r{result} = r{left} // r{right}")
        else:
            python = {"+": "+", "x": "*", "&": "&", "|": "|", "^": "^"}[operator]
            lines.append(f"    r{result} = r{left} {python} r{right}")
        result += 1
    last = f"r{result - 1}"
    lines.append(f"    return ({last}, fragments) if fragments else {last}")
    namespace: dict[str, ShapeFunction] = {}
    # The source is built only from operator codes and numbers made here, never from input.
    exec("\n".join(lines), {"int": int, "len": len}, namespace)
    return namespace["evaluate"]
