"""Many sides evaluated at once, column by column: the batch form of the shape evaluators.

:func:`evaluate_sides` groups sides by their operators and runs each step of a group over
whole columns (one list per operand) with ``map``, in C. A pass over a list costs about as
much per item as a few lines of Python, so the work is arranged in few passes, each done
once per distinct item.
"""

from __future__ import annotations

import collections
import operator as operator_module
from collections.abc import Mapping, Sequence
from typing import Final, TypeVar

from binscrabble.expr.limits import CACHE_LIMIT
from binscrabble.expr.shapes import column_steps
from binscrabble.expr.symbols import (
    IDENTITY_SWITCH,
    NEUTRAL_LITERALS,
    TOTAL_OPERATIONS,
    not_value,
)

#: Operand texts (digits, or NOT and its digits) and their values, under every set of rules,
#: and those that are bare literals (no NOT) worth 0 and worth 1.
OPERAND_VALUES: dict[str, int] = {}
BARE_NEUTRALS: Final[tuple[set[str], set[str]]] = (set(), set())

_OPERATORS_ONLY: Final = str.maketrans("", "", "01~")
_OPERATORS_TO_PLUS: Final = str.maketrans("-x/&|^", "++++++")

_Key = TypeVar("_Key")
_Value = TypeVar("_Value")


def clear_operand_values() -> None:
    """Forget every operand value (see OPERAND_VALUES)."""
    OPERAND_VALUES.clear()
    for runs in BARE_NEUTRALS:
        runs.clear()


def look_up_all(mapping: Mapping[_Key, _Value], keys: list[_Key]) -> Sequence[_Value]:
    """``mapping[key]`` for every key, in order: by one ``operator.itemgetter`` call when
    there are several (all looked up in C, a third cheaper than a ``map`` over
    ``mapping.__getitem__``). Raises KeyError for a missing key (unless the mapping makes
    it, as a defaultdict does).

    >>> look_up_all({"0": 0, "1": 1}, ["1", "0", "1"]), look_up_all({"1": 1}, ["1"])
    ((1, 0, 1), [1])
    """
    if len(keys) > 1:
        found: tuple[_Value, ...] = operator_module.itemgetter(*keys)(mapping)
        return found
    return [mapping[key] for key in keys]


def evaluate_sides(
    sides: list[str],
    precedence: Mapping[str, int],
    negatives: bool,
    allowed: Mapping[str, bool],
    smallest_group: int = 1,
) -> tuple[dict[str, int | tuple[int, int] | None], list[str]]:
    """What the shape evaluators answer, for many sides at once, and the sides they leave
    to the full evaluation (a forbidden identity fragment, a negative step, an inexact
    division; and every side of a group smaller than `smallest_group`), which are answered
    None.

    The sides are grouped by their operators (NOT set aside: it is folded into the
    operand's value); all the operands of a group come out of one ``str.split`` and get
    their values by one dictionary lookup each (NOT included), and each step of the group
    runs over whole columns. Identity fragments need a bare literal: an operand is tested
    by its text, so that a NOT operand never counts.

    >>> from binscrabble.expr.symbols import STANDARD_PRECEDENCE
    >>> evaluate_sides([], STANDARD_PRECEDENCE, False, {})
    ({}, [])
    >>> values, rejected = evaluate_sides(
    ...     ["1+1", "10x~10", "11-100", "1+0", "~0"], STANDARD_PRECEDENCE, False,
    ...     dict.fromkeys(IDENTITY_SWITCH.values(), True))
    >>> values, rejected
    ({'1+1': 2, '1+0': (1, 1), '10x~10': 2, '11-100': None, '~0': 1}, ['11-100'])
    >>> evaluate_sides(["1+1", "1+0", "10x~10"], STANDARD_PRECEDENCE, False,
    ...     dict.fromkeys(IDENTITY_SWITCH.values(), True), smallest_group=2)
    ({'1+1': 2, '1+0': (1, 1), '10x~10': None}, ['10x~10'])
    """
    if not sides:
        return {}, []
    shapes = "\n".join(sides).translate(_OPERATORS_ONLY).split("\n")
    groups: collections.defaultdict[str, list[str]] = collections.defaultdict(list)
    # Each side appended to its group's list in C.
    collections.deque(map(list.append, look_up_all(groups, shapes), sides), maxlen=0)
    found: dict[str, int | tuple[int, int] | None] = {}
    all_rejected: list[str] = []
    for shape, group in groups.items():
        if len(group) < smallest_group:
            # A program over columns costs about twice a side's full evaluation to set up
            # (parsing the shape, splitting, a dozen lists): not worth it for a side or two.
            found.update(dict.fromkeys(group))
            all_rejected.extend(group)
            continue
        last, fragments, rejected = _evaluate_group(shape, group, precedence, negatives, allowed)
        found.update(zip(group, last, strict=True))
        for index, count in fragments.items():
            found[group[index]] = (last[index], count)
        for index in rejected:
            found[group[index]] = None
            all_rejected.append(group[index])
    return found, all_rejected


def _evaluate_group(
    shape: str,
    group: list[str],
    precedence: Mapping[str, int],
    negatives: bool,
    allowed: Mapping[str, bool],
) -> tuple[Sequence[int], dict[int, int], set[int]]:
    """The sides of one shape, column by column: each side's last register, the count of
    identity fragments of each side that has some, and the sides (by index) left to the
    full evaluation."""
    operands = len(shape) + 1
    runs = "+".join(group).translate(_OPERATORS_TO_PLUS).split("+")
    values = _operand_values(runs)
    registers: list[Sequence[int]] = [values[number::operands] for number in range(operands)]
    rejected: set[int] = set()
    fragments: dict[int, int] = {}
    for operator, left, right, left_literal, right_literal in column_steps(shape, precedence):
        neutral, either_side = NEUTRAL_LITERALS[operator]
        tested = [right] if right_literal else []
        if left_literal and either_side:
            tested.append(left)
        hits: set[int] = set()
        for register in tested:
            _find_runs(runs[register::operands], BARE_NEUTRALS[neutral], hits)
        if hits:
            if not allowed[IDENTITY_SWITCH[operator]]:
                rejected.update(hits)
            else:
                for index in hits:  # one fragment per step, however many operands
                    fragments[index] = fragments.get(index, 0) + 1
        registers.append(
            _column_step(operator, registers[left], registers[right], negatives, rejected)
        )
    return registers[-1], fragments, rejected


def _operand_values(runs: list[str]) -> Sequence[int]:
    """The value of each operand text, remembered across batches.

    Few operand texts recur (a batch of 100,000 texts has some hundreds): looked up straight
    away, and only the unknown ones worked out.
    """
    known = OPERAND_VALUES
    try:
        return look_up_all(known, runs)
    except KeyError:
        pass
    missing = set(runs).difference(known)
    if len(known) + len(missing) > CACHE_LIMIT:
        clear_operand_values()
        missing = set(runs)
    for run in missing:
        value = known[run] = not_value(run[1:]) if run[0] == "~" else int(run, 2)
        if value < 2 and run[0] != "~":
            # The bare literals worth 0 and 1: "0" and "1", more with leading zeros.
            BARE_NEUTRALS[value].add(run)
    return look_up_all(known, runs)


def _find_runs(column_runs: list[str], literals: set[str], hits: set[int]) -> None:
    """Add to `hits` the index of every operand text of the column that is in `literals`."""
    for literal in literals:
        # Found by list methods in C: the same one-character strings recur, and most of a
        # column is skipped at C speed.
        index = -1
        for _ in range(column_runs.count(literal)):
            index = column_runs.index(literal, index + 1)
            hits.add(index)


def _column_step(
    operator: str,
    left_column: Sequence[int],
    right_column: Sequence[int],
    negatives: bool,
    rejected: set[int],
) -> list[int]:
    """One operation over whole columns; rows whose step is not allowed go to `rejected`
    (their result is a stand-in)."""
    if operator == "-":
        result = list(map(operator_module.sub, left_column, right_column))
        if not negatives and min(result) < 0:
            rejected.update(index for index, value in enumerate(result) if value < 0)
        return result
    if operator == "/":
        if 0 in right_column:
            rejected.update(index for index, value in enumerate(right_column) if not value)
            right_column = [value or 1 for value in right_column]
        remainders = list(map(operator_module.mod, left_column, right_column))
        if any(remainders):
            rejected.update(index for index, value in enumerate(remainders) if value)
        return list(map(operator_module.floordiv, left_column, right_column))
    return list(map(TOTAL_OPERATIONS[operator], left_column, right_column))
