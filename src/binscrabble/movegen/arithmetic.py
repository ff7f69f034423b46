"""Side arithmetic: a side's value and its identity fragments (docs/rules.md §7), worked out as
the side is written, one square at a time, with a shunting-yard stack of pending
operations; and the tables of pending operations, shared by every call under rules of the
same arithmetic.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final

from binscrabble.expr.symbols import (
    FLAT_PRECEDENCE,
    IDENTITY_SWITCH,
    NEUTRAL_LITERALS,
    STANDARD_PRECEDENCE,
)
from binscrabble.rules import Rules

from .context import Context, Generation, LastOperations, Operation, Pending, Reading
from .grammar import DEAD, NOT_DIGITS, SYMBOL_STEPS

# How strongly each operator binds: the referee's precedence tables.
STANDARD_STRENGTH: Final = STANDARD_PRECEDENCE
FLAT_STRENGTH: Final = FLAT_PRECEDENCE


def _natural_difference(left: int, right: int) -> int | None:
    return None if left < right else left - right


def _exact_quotient(left: int, right: int) -> int | None:
    return None if right == 0 or left % right else left // right


#: What a side's last operation gives when it fails (:func:`last_value`): below every
#: side's value and below every context's :attr:`Context.floor`, so that the side loops
#: drop it by their floor test alone, with no test for None per filling. (A side's text
#: holds at most two characters a square, a rotated `=` reading ``11``, so at most 30
#: digits: its value's magnitude stays below ``2 ** 31``.)
_FAILED: Final = -(1 << 64)
#: The floor under `allow_negatives`: below every side's value, above :data:`_FAILED`.
NEGATIVE_FLOOR: Final = -(1 << 63)


#: A side's last operation by code (:func:`last_value`): none waiting (the operand is the
#: value), then one per operator. A code, not a function to call: the compiled module works
#: the operation out in place on machine integers, where a call of ``operator.add`` and the
#: like needed an object for each operand and a generic call per filling.
# (Each a Final of its own: the compiled module then reads them as constants.)
LAST_NONE: Final = 0
_LAST_ADD: Final = 1
_LAST_SUB: Final = 2
_LAST_MUL: Final = 3
_LAST_DIV: Final = 4
_LAST_AND: Final = 5
_LAST_OR: Final = 6
_LAST_XOR: Final = 7
_LAST_CODES: Final = {
    "+": _LAST_ADD,
    "-": _LAST_SUB,
    "x": _LAST_MUL,
    "/": _LAST_DIV,
    "&": _LAST_AND,
    "|": _LAST_OR,
    "^": _LAST_XOR,
}


def last_value(code: int, left: int, right: int) -> int:
    """A side's last operation (:data:`_LAST_CODES`) on `left` and `right`. It never gives
    None: a difference is Python's, so a negative one fails by being below the context's
    floor (the side loops drop it; no test for None per filling), and a division that
    fails (by zero, or inexact) gives :data:`_FAILED`.

    >>> last_value(_LAST_SUB, 1, 10), last_value(_LAST_DIV, 110, 10)
    (-9, 11)
    >>> last_value(LAST_NONE, 0, 5), last_value(_LAST_XOR, 6, 3)
    (5, 5)
    >>> last_value(_LAST_DIV, 3, 2) == last_value(_LAST_DIV, 1, 0) == _FAILED
    True
    """
    if code == LAST_NONE:
        return right
    if code == _LAST_ADD:
        return left + right
    if code == _LAST_SUB:
        return left - right
    if code == _LAST_MUL:
        return left * right
    if code == _LAST_DIV:
        return _FAILED if right == 0 or left % right else left // right
    if code == _LAST_AND:
        return left & right
    if code == _LAST_OR:
        return left | right
    return left ^ right


#: Per allow_negatives, per operator: the operation (C functions where nothing can fail).
OPERATIONS: Final[dict[bool, dict[str, Operation]]] = {
    negatives: {
        "+": operator.add,
        "-": operator.sub if negatives else _natural_difference,
        "x": operator.mul,
        "/": _exact_quotient,
        "&": operator.and_,
        "|": operator.or_,
        "^": operator.xor,
    }
    for negatives in (False, True)
}


# An identity fragment (docs/rules.md §7) is an operation of the parse tree with a bare number
# literal of its operator's neutral value as an operand; sides count theirs as they are
# written (see pushed_number).
# Identity switches as bits (a side's fragments need all of its bits switched on).
_TIMES_ONE: Final = 1
_PLUS_MINUS_ZERO: Final = 2
_AND_ONE_OR_ZERO: Final = 4
_SWITCH_BITS: Final = {
    "identity_times_one": _TIMES_ONE,
    "identity_plus_minus_zero": _PLUS_MINUS_ZERO,
    "identity_and_one_or_zero": _AND_ONE_OR_ZERO,
}
# Per operator: its neutral literal value, whether a neutral literal on its left makes a
# fragment too (both as the referee has them), and the bit of the switch that allows its
# fragments (docs/rules.md §7).
_NEUTRAL: Final = {
    symbol: (value, either_side, _SWITCH_BITS[IDENTITY_SWITCH[symbol]])
    for symbol, (value, either_side) in NEUTRAL_LITERALS.items()
}


#: Per thread, per arithmetic (:func:`_arithmetic_key`): the tables of pending operations
#: (see :func:`arithmetic_tables`), the most recently used last.
ARITHMETIC: Final = threading.local()
#: How many pushes and readings one generation of tables may hold before new contexts start
#: a new one (:func:`arithmetic_tables`): about 30 MB (180 bytes an entry, see there).
ARITHMETIC_ENTRIES: Final = (1 << 17) + (1 << 15)
#: How many pushes and readings the tables of one thread may hold, every arithmetic and
#: both generations counted, before the least recently used arithmetic's are dropped: two
#: generations at the cap, and what a heavy call adds before the next context checks
#: (up to about 25,000): about 62 MB.
ARITHMETIC_BUDGET: Final = 2 * ARITHMETIC_ENTRIES + (1 << 14)


@lru_cache(maxsize=64)
def _arithmetic_key(rules: Rules) -> tuple[object, ...]:
    """What the pending operations tables' entries depend on, and nothing else: the
    operators' precedence (:attr:`Context.strength`) and negatives
    (:attr:`Context.operations`) for pushes and the last operations; which identity
    fragments a side may hold (:func:`identity_kinds`), for the pushes that fail on a
    forbidden fragment and the last operations' kinds; leading zeros for the readings of
    fixed text (:func:`read_text`) and the sides of tiles alone (:func:`digit_run`).
    Rules that differ only elsewhere (``parallel_numbers``, ``rotated_equals``, the XOR
    tiles, the rack size, the bonus) share the tables. (Kept per rules: the same key
    object every call, so that moving it in the table of tables frees nothing, not even a
    key a caller's ``gc.freeze()`` froze.)"""
    return (
        rules.precedence,
        rules.allow_negatives,
        rules.leading_zeros,
        rules.identity_times_one,
        rules.identity_plus_minus_zero,
        rules.identity_and_one_or_zero,
        rules.identity_chains,
    )


def arithmetic_tables(rules: Rules) -> Generation:
    """The pending operations tables a context uses (see :class:`Generation`), shared by
    every context of rules of the same arithmetic (:func:`_arithmetic_key`), across calls:
    they hold arithmetic only (what the operators do under the rules' precedence and
    negatives, which parts are identity fragments, what a side of tiles alone is worth),
    never anything of the rack or the board, so each call starts with the pending
    operations the earlier ones worked out. Kept per thread (a table is filled as it is
    used).

    Two generations: a generation past ARITHMETIC_ENTRIES pushes and readings becomes
    the older one of a new, empty generation for the contexts made afterwards (never
    cleared under a context in use), and the one before it is dropped. Entries the new
    generation lacks are copied from the older one as they are asked for, so what calls
    still use survives a change of generation, and what they no longer use goes with the
    older one. Per thread at most ARITHMETIC_BUDGET pushes and readings are kept over
    every arithmetic: past it, the least recently used arithmetic's tables are dropped.
    Memory: about 180 bytes an entry, pending operations, last operations and sides of
    tiles included, so about 30 MB a generation at its cap and at most about 62 MB per
    thread (ARITHMETIC_BUDGET, plus what the call in progress adds)."""
    kept: dict[tuple[object, ...], Generation] | None = getattr(ARITHMETIC, "tables", None)
    if kept is None:
        kept = ARITHMETIC.tables = {}
    key = _arithmetic_key(rules)
    found = kept.get(key)
    if found is None or len(found.pushes) + len(found.readings) > ARITHMETIC_ENTRIES:
        if found is not None:
            # The older generation's own older one goes (a context still using `found`
            # then works out what it lacks).
            found.older = None
            found.older_numbers = {0: 0}
        found = Generation(found)
        kept.pop(key, None)
        kept[key] = found
    elif next(reversed(kept)) != key:
        # Most recently used last.
        del kept[key]
        kept[key] = found
    total = sum(generation.entries() for generation in kept.values())
    while total > ARITHMETIC_BUDGET and len(kept) > 1:
        total -= kept.pop(next(iter(kept))).entries()
    if total > ARITHMETIC_BUDGET and found.older is not None:
        found.older = None
        found.older_numbers = {0: 0}
    return found


def _older_number(generation: Generation, older: Generation, pending: int) -> int:
    """The older generation's number of `generation`'s pending operations `pending`, or
    -1 when it has none."""
    numbers = generation.older_numbers
    found = numbers.get(pending)
    if found is None:
        found = numbers[pending] = older.pending_numbers.get(generation.pending_tuples[pending], -1)
    return found


def _adopted(generation: Generation, older: Generation, number: int) -> int:
    """`generation`'s number of the older generation's pending operations `number`, taken
    in with its last operations when it lacks them."""
    pending = older.pending_tuples[number]
    found = generation.pending_numbers.get(pending)
    if found is None:
        found = generation.pending_numbers[pending] = len(generation.pending_tuples)
        generation.pending_tuples.append(pending)
        generation.last_operations.append(older.last_operations[number])
        generation.older_numbers[found] = number
    return found


#: A side's identity marks: how many fragments (0, 1, or 2 for "more than one") times
#: _ONE_FRAGMENT, plus the switches they need as bits. A pending operations tuple keeps
#: only whether the side has a fragment (_ONE_FRAGMENT or 0): see :func:`pushed_number`.
_ONE_FRAGMENT: Final = 8
_TWO_FRAGMENTS: Final = 16


def pushed_number(context: Context, pending: int, operand: int, literal: int, operator: str) -> int:
    """The pending operations (by number, see :data:`_Partial`) once `operand` is read and
    `operator` follows it; -1 when a step fails. Kept in :attr:`Context.pushes`.

    `literal` is the operand's value when it is a bare number (not under NOT), else -1: an
    operation of the parse tree with a bare literal of its operator's neutral value as an
    operand is an identity fragment (docs/rules.md §7), counted in the marks at ``pending[0]``
    of the pending operations tuple.

    The tuple keeps only what can still matter, so that partials differing in nothing else
    share it: of the marks, whether the side has a fragment (the switches were checked
    here, as each fragment was written, and a second fragment matters only as "more than
    one", which the kinds of one fragment more tell: so one stands for any number); of a
    waiting operand's literal value, only the operator's neutral value when a neutral
    literal on the left makes a fragment (the only test that reads it), else -1.
    """
    key = (pending, operand, literal, operator)
    adopted = _older_push(context, key)
    if adopted is not None:
        context.pushes[key] = adopted
        return adopted
    if pending:
        found = _reduced(context, pending, operand, literal, operator)
    else:
        # Nothing waits (a side's first operator, number 0 is _NO_PENDING): nothing applies.
        neutral, either_side, switch = _NEUTRAL[operator]
        kept = literal if either_side and literal == neutral else -1
        if kept >= 0 and context.kinds_by_marks[_with_fragment(0, switch)] < 0:
            # (A fragment written already, whose switch is off: see _reduced.)
            found = None
        else:
            found = (0, (operand, operator, kept))
    number = -1 if found is None else _pending_number(context, found)
    context.pushes[key] = number
    return number


def _older_push(context: Context, key: tuple[int, int, int, str]) -> int | None:
    """The push `key` as the generation before worked it out (its numbers are its own),
    taken in; None when it did not."""
    generation = context.generation
    older = generation.older
    if older is None:
        return None
    pending, operand, literal, operator = key
    older_pending = _older_number(generation, older, pending)
    if older_pending < 0:
        return None
    older_found = older.pushes.get((older_pending, operand, literal, operator))
    if older_found is None:
        return None
    return -1 if older_found < 0 else _adopted(generation, older, older_found)


def _reduced(
    context: Context, pending: int, operand: int, literal: int, operator: str
) -> Pending | None:
    """The pending operations `pending` once `operand` is read and `operator` follows: every
    waiting operation at least as strong applied first; None when one fails or the side's
    fragments can no longer be allowed."""
    waiting_tuple = context.pending_tuples[pending]
    strength = context.strength
    level = strength[operator]
    marks = waiting_tuple[0]
    end = len(waiting_tuple)
    while end > 1:
        left, waiting, left_literal = waiting_tuple[end - 1]
        if strength[waiting] < level:
            break
        neutral, either_side, switch = _NEUTRAL[waiting]
        if literal == neutral or (either_side and left_literal == neutral):
            marks = (marks + _ONE_FRAGMENT if marks < _TWO_FRAGMENTS else marks) | switch
        result = context.operations[waiting](left, operand)
        if result is None:
            return None
        operand = result
        literal = -1
        end -= 1
    # (Only what can still matter: see pushed_number.)
    neutral, either_side, switch = _NEUTRAL[operator]
    kept = literal if either_side and literal == neutral else -1
    # A neutral literal on the left of a waiting operation is a fragment whatever its right
    # operand (see last_operations_of), and every waiting operation applies before the side
    # ends: those fragments are written already.
    certain = marks
    for _, still_waiting, waiting_literal in waiting_tuple[1:end]:
        if waiting_literal >= 0:
            certain = _with_fragment(certain, _NEUTRAL[still_waiting][2])
    if kept >= 0:
        certain = _with_fragment(certain, switch)
    if context.kinds_by_marks[certain] < 0:
        # Fragments the rules forbid in one side (more than one without `identity_chains`,
        # or one whose switch is off): marks only grow as a side is written, so no side that
        # starts so is kept (see last_operations_of); the partial is dropped here, with
        # everything that would follow it.
        return None
    return (
        _ONE_FRAGMENT if marks >= _ONE_FRAGMENT else 0,
        *waiting_tuple[1:end],
        (operand, operator, kept),
    )


def _pending_number(context: Context, found: Pending) -> int:
    """The number of the pending operations `found`, given one when first met (with what
    the older generation knows of their last operations, when it holds them)."""
    number = context.pending_numbers.get(found)
    if number is None:
        number = context.pending_numbers[found] = len(context.pending_tuples)
        context.pending_tuples.append(found)
        summary = None
        generation = context.generation
        older = generation.older
        if older is not None:
            # The older generation may hold the tuple (reached by another push), and what
            # it does to a last operand.
            older_number = generation.older_numbers[number] = older.pending_numbers.get(found, -1)
            if older_number >= 0:
                summary = older.last_operations[older_number]
        context.last_operations.append(summary)
    return number


def _with_fragment(marks: int, switch: int) -> int:
    """Identity marks (see :data:`_ONE_FRAGMENT`) with one fragment more, of `switch`."""
    return (marks + _ONE_FRAGMENT if marks < _TWO_FRAGMENTS else marks) | switch


def last_operations_of(
    pending: Pending, operations: Mapping[str, Operation], kinds: tuple[int, ...]
) -> LastOperations:
    """What `pending` does to a side's last operand, worked out once for many operands.

    The strongest waiting operation's left operand, operation (by code: :func:`last_value`)
    and neutral value; the
    identity kind of the side (:attr:`Context.kinds_by_marks`, negative when the rules
    forbid its fragments) when the last operand is that neutral value as a bare literal,
    and when it is anything else; and the weaker operations in the order they apply, as
    (left operand, operation, the ones after) nested, or () for none (a loop over a list
    would make an iterator per filling, and most sides have one weaker operation at most).
    Only the strongest can have a bare literal on its right, so the marks of the others
    are known before the last operand. With nothing pending the last operand is the value
    (:data:`LAST_NONE`), and no operand is the neutral value -1. The strongest operation
    never fails with None: the caller drops a value below :attr:`Context.floor` (0
    without `allow_negatives`), which a negative difference is, and a failed division
    gives :data:`_FAILED`.
    """
    if len(pending) == 1:
        kind = kinds[pending[0]]
        return (0, LAST_NONE, -1, kind, kind, ())
    left, waiting, left_literal = pending[-1]
    neutral, either_side, switch = _NEUTRAL[waiting]
    marks_before = pending[0]
    # (The weaker operations as (left operand, operation): no lookup by operator per side.)
    weaker: list[tuple[int, Operation]] = []
    for lower_left, lower_operator, lower_literal in pending[-2:0:-1]:
        weaker.append((lower_left, operations[lower_operator]))
        lower_neutral, lower_either, lower_switch = _NEUTRAL[lower_operator]
        if lower_either and lower_literal == lower_neutral:
            marks_before = (
                marks_before + _ONE_FRAGMENT if marks_before < _TWO_FRAGMENTS else marks_before
            ) | lower_switch
    marks_with = (
        marks_before + _ONE_FRAGMENT if marks_before < _TWO_FRAGMENTS else marks_before
    ) | switch
    kind_with = kinds[marks_with]
    # A neutral literal on the left is a fragment whatever the last operand is.
    kind_other = kind_with if either_side and left_literal == neutral else kinds[marks_before]
    lower: tuple[Any, ...] = ()
    for lower_left, lower_operation in reversed(weaker):
        lower = (lower_left, lower_operation, lower)
    return (
        left,
        _LAST_CODES[waiting],
        neutral,
        kind_with,
        kind_other,
        lower,
    )


#: What a digit symbol adds to the operand (after NOT, complemented: see :data:`_Partial`).
_BITS: Final = {"0": 0, "1": 1}
_NOT_BITS: Final = {"0": 1, "1": 0}


def read_text(context: Context, state: int, pending: int, current: int, text: str) -> Reading:
    """Where a partial standing at (`state`, `pending`, `current`) stands once fixed text
    (tiles on the board) follows; () when that cannot be."""
    steps = SYMBOL_STEPS[context.rules.leading_zeros]
    for symbol in text:
        next_state = steps[state][symbol]
        if next_state == DEAD:
            return ()
        if symbol == "0" or symbol == "1":
            # (NOT's digits complemented: see _Partial.)
            bits = _NOT_BITS if next_state == NOT_DIGITS else _BITS
            current = current * 2 + bits[symbol]
        elif symbol != "~":
            # NOT's operand is never a bare literal.
            literal = current if state != NOT_DIGITS else -1
            operand = current
            found = context.pushes.get((pending, operand, literal, symbol))
            if found is None:
                found = pushed_number(context, pending, operand, literal, symbol)
            if found < 0:
                return ()
            pending = found
            current = 0
        state = next_state
    return (state, pending, current)


def new_reading(context: Context, state: int, pending: int, current: int, text: str) -> Reading:
    """:func:`read_text` for :attr:`Context.readings`: from the older generation of the
    tables when it holds the reading (see :class:`Generation`)."""
    generation = context.generation
    older = generation.older
    if older is not None:
        older_pending = _older_number(generation, older, pending)
        if older_pending >= 0:
            found = older.readings.get((state, older_pending, current, text))
            if found is not None:
                if not found:
                    return found
                state, older_pending, current = found
                return (state, _adopted(generation, older, older_pending), current)
    return read_text(context, state, pending, current, text)


@lru_cache(maxsize=64)
def identity_kinds(rules: Rules) -> tuple[int, ...]:
    """Per identity marks (see :func:`pushed_number`): -1 when the rules forbid a side with them
    (a fragment whose switch is off, or a chain within the side while ``identity_chains``
    is off), 1 when the side has fragments the rules allow, 0 when it has none. Kept per
    rules: every context asks."""
    allowed = sum(bit for switch, bit in _SWITCH_BITS.items() if getattr(rules, switch))
    kinds = []
    for marks in range(3 * _ONE_FRAGMENT):
        fragments = marks // _ONE_FRAGMENT
        switches = marks % _ONE_FRAGMENT
        if not fragments:
            kinds.append(0)
        elif switches & ~allowed or (fragments > 1 and not rules.identity_chains):
            kinds.append(-1)
        else:
            kinds.append(1)
    return tuple(kinds)
