"""The public checks: :func:`check`, :func:`check_many`, :func:`equation_value` and kin.

Each set of the rules that matter to equations gets one :class:`Evaluator` and its caches,
found by the rules object's identity: nearly every call uses the same rules as the one
before, and looking up by ``id()`` avoids hashing the dataclass on every call.
"""

from __future__ import annotations

from collections.abc import Iterable

from binscrabble.expr.batch import check_batch
from binscrabble.expr.checker import Evaluator
from binscrabble.expr.columns import clear_operand_values
from binscrabble.expr.diagnosis import too_long
from binscrabble.expr.errors import EquationError, as_error, counted
from binscrabble.expr.limits import MAX_SYMBOLS
from binscrabble.expr.results import CheckResult
from binscrabble.expr.symbols import DIGITS
from binscrabble.rules import Rules

_EVALUATORS: dict[int, tuple[Rules, Evaluator]] = {}
# The evaluator asked for last: nearly every call uses the same rules as the one before.
_LAST: tuple[Rules | None, Evaluator] = (None, Evaluator(Rules()))
_EVALUATORS_BY_KEY: dict[tuple[object, ...], Evaluator] = {}


def evaluator_for(rules: Rules) -> Evaluator:
    """The evaluator (and caches) of the rules that matter to equations in `rules`."""
    # Keeping the Rules in the entry keeps its id from being reused while the entry lives.
    global _LAST
    entry = _EVALUATORS.get(id(rules))
    if entry is not None and entry[0] is rules:
        _LAST = entry
        return entry[1]
    key = (
        rules.precedence,
        rules.identity_times_one,
        rules.identity_plus_minus_zero,
        rules.identity_and_one_or_zero,
        rules.identity_chains,
        rules.allow_negatives,
        rules.leading_zeros,
    )
    evaluator = _EVALUATORS_BY_KEY.get(key)
    if evaluator is None:
        evaluator = _EVALUATORS_BY_KEY[key] = Evaluator(rules)
    if len(_EVALUATORS) >= 256:
        _EVALUATORS.clear()
    _EVALUATORS[id(rules)] = (rules, evaluator)
    _LAST = (rules, evaluator)
    return evaluator


def clear_caches() -> None:
    """Forget every cached result, equation, side, shape and operand (for every set of rules).

    The caches are bounded and never need clearing for correctness; this is for timing
    cold runs and for tests that want a fresh start.

    >>> clear_caches()
    >>> check("1+1=10", Rules()).valid
    True
    """
    clear_operand_values()
    for evaluator in _EVALUATORS_BY_KEY.values():
        evaluator.clear()


def equation_value(codes: str, rules: Rules) -> int:
    """The value of a valid equation written in codes (no spaces, no aliases).

    Raises :class:`EquationError` when it is not a valid equation under `rules`.
    Results are cached, so asking again about the same run is cheap.

    >>> equation_value("10x10=100=11+1", Rules())
    4
    >>> equation_value("1+1x10=100", Rules(precedence="left-to-right"))
    4
    >>> equation_value("1-10=0", Rules())
    Traceback (most recent call last):
    ...
    binscrabble.expr.errors.EquationError: 1 − 10 would be negative
    """
    last = _LAST
    evaluator = last[1] if last[0] is rules else evaluator_for(rules)
    outcome = evaluator.outcome(codes)
    if type(outcome) is int:
        return outcome
    assert isinstance(outcome, tuple)
    raise as_error(outcome)


def equation_value_or_none(codes: str, rules: Rules) -> int | None:
    """Like :func:`equation_value`, but None instead of an exception: for callers that try
    many runs and do not need the reason (raising and catching costs more than the check).

    >>> equation_value_or_none("11x11=1001", Rules()), equation_value_or_none("1=10", Rules())
    (9, None)
    """
    last = _LAST
    evaluator = last[1] if last[0] is rules else evaluator_for(rules)
    outcome = evaluator.outcome(codes)
    return outcome if type(outcome) is int else None


def number_value(codes: str, rules: Rules) -> int:
    """The value of a digits-only run (rule ``parallel_numbers``): it must be a valid number.

    >>> number_value("101", Rules())
    5
    >>> number_value("011", Rules())
    Traceback (most recent call last):
    ...
    binscrabble.expr.errors.EquationError: a number may not start with 0 (position 1)
    >>> number_value("011", Rules(leading_zeros=True))
    3
    """
    if not codes:
        raise EquationError("empty input: there is nothing to check", kind="empty_input")
    for index, symbol in enumerate(codes):
        if symbol not in DIGITS:
            raise EquationError(
                f"{symbol!r} at position {counted(index)} is not a binary digit: a run of digits "
                "only must be a number",
                kind="not_a_number",
                position=index,
            )
    if len(codes) > MAX_SYMBOLS:
        raise as_error(too_long(len(codes)))
    if codes[0] == "0" and len(codes) > 1 and not rules.leading_zeros:
        raise EquationError(
            "a number may not start with 0 (position 1)",
            kind="leading_zero",
            position=0,
        )
    return int(codes, 2)


def check(text: str, rules: Rules) -> CheckResult:
    """Check people's input (aliases, words, spaces allowed); never raises on bad input.

    Results are cached per rules and text, so the same text gives the same object.

    >>> result = check("1000 x 11 = 11000", Rules())
    >>> result.valid, result.value, result.binary, result.bonus
    (True, 24, '11000', 16)
    >>> check("1+xx1==10", Rules()).reason
    'two binary operators in a row at position 3 (+ then ×)'
    """
    last = _LAST
    if last[0] is rules:
        return last[1].check(text)
    return evaluator_for(rules).check(text)


def check_many(texts: Iterable[str], rules: Rules) -> list[CheckResult]:
    """Check many texts at once: the same verdicts as :func:`check`, in the same order.

    Faster than one call per text for large batches (``binscrabble check`` reading a file,
    a referee checking a whole game): each distinct text is read once, each distinct side
    evaluated once (all the new sides together, grouped by their operators), each distinct
    error spot worked out once. The per-rules caches of sides are shared with
    :func:`check`.

    >>> [result.valid for result in check_many(["1+1=10", "1=10", "1+1=10"], Rules())]
    [True, False, True]
    """
    last = _LAST
    evaluator = last[1] if last[0] is rules else evaluator_for(rules)
    return check_batch(evaluator, texts)
