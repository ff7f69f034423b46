"""Side enumeration: every filling of a side's free squares that reads as a valid side, by
value and usage, grown from cached frontiers of partial sides.
"""

from __future__ import annotations

from typing import Any, Final, cast

from .arithmetic import (
    LAST_NONE,
    last_operations_of,
    last_value,
    new_reading,
    pushed_number,
    read_text,
)
from .context import Context, Frontier, LastStep, SideBucket, Step
from .grammar import (
    ACCEPTING,
    DEAD,
    DIGITS,
    EXPECT,
    IS_ACCEPTING,
    IS_NEGATING,
    NOT_DIGITS,
    OPERATOR,
    digit_run,
)
from .options import GUARDS
from .usage import deficit_of, square_steps, usable_last_steps_of, usable_steps_of

_PARTIAL_FIELDS: Final = 5
#: The frontier before a side's first item: the empty side.
_START: Final[list[Any]] = [EXPECT, "", 0, 0, 0]


#: Fixed text after fewer partials than this is read by each (see :func:`_frontier`): the
#: readings are kept only for the long frontiers of racks with many fillings, where many
#: partials stand alike; for short frontiers keeping them costs more than it saves.
_SHARED_READINGS: Final = 128


def _frontier(context: Context, items: tuple[str | int, ...]) -> Frontier:
    """Every grammatical partial side over the shape `items`, as the rack allows.

    A partial (:data:`Partial`) carries its text, usage and the value of what is written
    so far; a frontier holds them flat (:data:`Frontier`). In the text a free square is
    one character (a rotated `=` is ``R``: :data:`SIDE_CHARACTERS`), so where each free
    square's option is can be read back from the text. Frontiers are cached by shape
    prefix, so sides that start alike (very common: most begin with a few free squares)
    share the work of their common beginning. Each partial's fields are appended one by
    one (see Frontier): the compiled module appends to a list without a call, where a
    tuple of them for `extend` would be an object made and freed per partial.
    """
    cache = context.frontiers
    known = cache.get(items)
    if known is not None:
        return known
    item = items[-1]
    parent = _frontier(context, items[:-1]) if len(items) > 1 else _START
    if type(item) is not str:
        found = _free_square_frontier(context, parent, cast(int, item))
    elif item.isdigit():
        found = _digits_frontier(parent, item, context.rules.leading_zeros)
    elif len(parent) < _SHARED_READINGS * _PARTIAL_FIELDS:
        found = _text_frontier(context, parent, item)
    else:
        found = _shared_text_frontier(context, parent, item)
    cache[items] = found
    return found


def _digits_frontier(parent: Frontier, digits_text: str, leading_zeros: bool) -> Frontier:
    """The partials of `parent` once fixed digits follow (the commonest fixed text): the
    operand grows, nothing is reduced."""
    found: Frontier = []
    after, digits, digits_value, complement = digit_run(digits_text, leading_zeros)
    # The fields of a partial, typed: the compiled module then reads them as machine
    # integers (see docs/movegen.md, "Compiled or source").
    state: int
    text: str
    usage: Any
    pending: Any
    current: int
    # (The frontier's partials, see Frontier.)
    fields = iter(parent)
    for state, text, usage, pending, current in zip(  # noqa: B905 (see Frontier)
        fields, fields, fields, fields, fields
    ):
        state = after[state]
        if state != DEAD:
            current = (current << digits) + (complement if state == NOT_DIGITS else digits_value)
            found.append(state)
            found.append(text + digits_text)
            found.append(usage)
            found.append(pending)
            found.append(current)
    return found


def _text_frontier(context: Context, parent: Frontier, item: str) -> Frontier:
    """The partials of a short `parent` once fixed text with operators follows: each
    partial reads the text itself.

    A near-copy of :func:`_shared_text_frontier`, kept: reading every frontier through the
    shared readings instead costs 1.5 M instructions more (callgrind, `generate_placements`
    on 15 positions of the bench corpus: the two functions 58.2 M, merged 59.7 M, +2.6 %;
    0.1 % of the whole) and puts every short frontier's readings in the table shared by
    all calls, which then fills up sooner."""
    found: Frontier = []
    state: int
    text: str
    usage: Any
    pending: Any
    current: int
    fields = iter(parent)
    for state, text, usage, pending, current in zip(  # noqa: B905 (see Frontier)
        fields, fields, fields, fields, fields
    ):
        read = read_text(context, state, pending, current, item)
        if read:
            state, pending, current = read
            found.append(state)
            found.append(text + item)
            found.append(usage)
            found.append(pending)
            found.append(current)
    return found


def _shared_text_frontier(context: Context, parent: Frontier, item: str) -> Frontier:
    """:func:`_text_frontier` of a long `parent`: partials that stand alike before the text
    (many differ only in their text and usage) read it alike, so each reading is worked
    out once per context."""
    found: Frontier = []
    readings = context.readings
    state: int
    text: str
    usage: Any
    pending: Any
    current: int
    fields = iter(parent)
    for state, text, usage, pending, current in zip(  # noqa: B905 (see Frontier)
        fields, fields, fields, fields, fields
    ):
        reading_key = (state, pending, current, item)
        reading = readings.get(reading_key)
        if reading is None:
            reading = readings[reading_key] = new_reading(context, state, pending, current, item)
        if reading:
            state, pending, current = reading
            found.append(state)
            found.append(text + item)
            found.append(usage)
            found.append(pending)
            found.append(current)
    return found


def _free_square_frontier(context: Context, parent: Frontier, mask: int) -> Frontier:
    """The partials of `parent` once a free square of `mask` follows: each takes every step
    the rack still allows after its usage (the hottest loop of the search)."""
    found: Frontier = []
    pushes = context.pushes
    by_state = context.steps_by_state.get(mask)
    if by_state is None:
        by_state = context.steps_by_state[mask] = [
            square_steps(context, state, mask) for state in range(DEAD + 1)
        ]
    usable_by_state = context.usable_steps.get(mask)
    if usable_by_state is None:
        usable_by_state = context.usable_steps[mask] = [{} for _ in range(DEAD + 1)]
    # Module constants as locals: the loop below is the hottest of the search.
    digit_effect, operator_effect, not_digits = DIGITS, OPERATOR, NOT_DIGITS
    state: int
    text: str
    usage: Any
    pending: Any
    current: int
    fields = iter(parent)
    for state, text, usage, pending, current in zip(  # noqa: B905 (see Frontier)
        fields, fields, fields, fields, fields
    ):
        operand = -1
        # Only the steps the rack still allows after this usage (most partials share their
        # usage with many others, and most steps fail once tiles run out).
        usable = usable_by_state[state]
        steps = usable.get(usage)
        if steps is None:
            steps = usable[usage] = usable_steps_of(context, by_state[state], usage)
        for character, next_state, next_usage, effect, multiplier, addend in steps:
            if effect == digit_effect:
                found.append(next_state)
                found.append(text + character)
                found.append(next_usage)
                found.append(pending)
                found.append(current * multiplier + addend)
            elif effect == operator_effect:
                if operand < 0:
                    # (NOT's operand, complemented already, is never a bare literal.)
                    operand = current
                    literal = current if state != not_digits else -1
                # Partials with equal pending operations and operand push alike (their texts
                # differ): each push is worked out once per context (a failed one kept as -1).
                # (An object, as the table holds it: it goes into the frontier as is.)
                pushed: Any = pushes.get((pending, operand, literal, character))
                if pushed is None:
                    pushed = pushed_number(context, pending, operand, literal, character)
                if cast(int, pushed) >= 0:
                    found.append(next_state)
                    found.append(text + character)
                    found.append(next_usage)
                    found.append(pushed)
                    found.append(0)
            else:
                found.append(next_state)
                found.append(text + character)
                found.append(next_usage)
                found.append(pending)
                found.append(0)
    return found


def enumerate_side(context: Context, items: tuple[str | int, ...]) -> dict[int, SideBucket]:
    """Every filling of one side's free squares that reads as a valid side, by value.

    `items` is the side's shape: fixed text (tiles on the board) or a mask of the options
    a free square allows. Fillings are grouped by value, then by option usage, then by
    identity fragments (:data:`KindParts`), as texts (see :func:`_frontier`); a filling is
    kept when the rack's tiles, blanks included, can show it, and its identity fragments
    are allowed. When the frontier of `items` is not cached, the last square is stepped
    here without storing partials: a side's whole shape is often no other side's
    beginning.
    """
    cached = context.side_cache.get(items)
    if cached is not None:
        return cached
    item = items[-1]
    alone = len(items) == 1 and type(item) is str
    if alone:
        cached = _fixed_side(context, cast(str, item))
        if cached is not None:
            context.side_cache[items] = cached
            return cached
    results: dict[int, SideBucket] = {}
    if type(item) is str and item[-1] != "0" and item[-1] != "1":
        # A side ends in a digit (docs/rules.md §6), so one whose fixed text ends in an operator
        # or NOT has no filling: its squares are not read (with two blanks such a side
        # could cost as much as a real one, for nothing).
        pass
    elif items in context.frontiers or type(item) is str or len(items) == 1:
        _sides_from_partials(context, items, results)
    else:
        _sides_ending_free(context, items, cast(int, item), results)
    context.side_cache[items] = results
    if alone and len(context.fixed_sides) < _FIXED_SIDES:
        context.fixed_sides[cast(str, item)] = results
    return results


def _fixed_side(context: Context, text: str) -> dict[int, SideBucket] | None:
    """The table of a side of tiles alone (one text: the shape merges neighbouring tiles),
    when known: it has no free square, so its table holds no rack usage and serves every
    rack, and is kept across calls, as the tiles of a board stay on the next ones (from
    the older generation of the tables too, see Generation)."""
    found = context.fixed_sides.get(text)
    if found is None:
        older = context.generation.older
        if older is not None:
            found = older.fixed_sides.get(text)
            if found is not None and len(context.fixed_sides) < _FIXED_SIDES:
                context.fixed_sides[text] = found
    return found


def _sides_from_partials(
    context: Context, items: tuple[str | int, ...], results: dict[int, SideBucket]
) -> None:
    """Fill `results` from the partials of the whole shape: a side that ends in fixed
    digits (common beside a tile) is read from the partials before them, the digits added
    in place; its own partials are not stored, since a whole side is seldom another's
    beginning."""
    item = items[-1]
    ending = item if isinstance(item, str) else ""
    digit_end = len(items) > 1 and ending.isdigit() and items not in context.frontiers
    if digit_end:
        after, digits, digits_value, complement = digit_run(ending, context.rules.leading_zeros)
    operations = context.operations
    kinds = context.kinds_by_marks
    floor = context.floor
    memo = context.last_operations
    is_accepting, not_digits, last_none = IS_ACCEPTING, NOT_DIGITS, LAST_NONE
    # The fields of a partial, typed (see _digits_frontier).
    state: int
    text: str
    usage: Any
    pending: Any
    current: int
    value: Any
    fields = iter(_frontier(context, items[:-1] if digit_end else items))
    for state, text, usage, pending, current in zip(  # noqa: B905 (see Frontier)
        fields, fields, fields, fields, fields
    ):
        if digit_end:
            state = after[state]
            current = (current << digits) + (complement if state == not_digits else digits_value)
            text += ending
        if not is_accepting[state]:
            continue
        # As at a last free square (_sides_ending_free).
        # (The pending operations' number, read as a machine integer to index.)
        number = cast(int, pending)
        summary = memo[number]
        if summary is None:
            summary = memo[number] = last_operations_of(
                context.pending_tuples[number], operations, kinds
            )
        left, code, neutral, kind_with, kind_other, lower = summary
        if state == not_digits:
            # NOT's operand (complemented already) is never a bare literal.
            neutral = -1
        kind = kind_with if current == neutral else kind_other
        if kind < 0:
            continue
        value = current if code == last_none else last_value(code, left, current)
        if cast(int, value) < floor:  # (compared as a machine integer)
            continue
        if lower:
            value = _weaker_applied(lower, value)
            if value is None:
                continue
        add_filling(results, value, usage, text, kind)


def _sides_ending_free(
    context: Context, items: tuple[str | int, ...], mask: int, results: dict[int, SideBucket]
) -> None:
    """Fill `results` by stepping the last free square (of `mask`) from the partials
    before it, without storing partials of the whole shape."""
    by_state, usable_by_state = _last_step_tables(context, mask)
    operations = context.operations
    kinds = context.kinds_by_marks
    floor = context.floor
    is_negating, last_none = IS_NEGATING, LAST_NONE
    memo = context.last_operations
    state: int
    text: str
    usage: Any
    pending: Any
    current: int
    value: Any
    fields = iter(_frontier(context, items[:-1]))
    for state, text, usage, pending, current in zip(  # noqa: B905 (see Frontier)
        fields, fields, fields, fields, fields
    ):
        usable = usable_by_state[state]
        steps = usable.get(usage)
        if steps is None:
            steps = usable[usage] = usable_last_steps_of(context, by_state[state], usage)
        if not steps:
            continue
        # The last operand meets the strongest waiting operation first, then each weaker one
        # in turn (see last_operations_of): worked out once per pending tuple, which
        # partials with a common beginning share.
        number = cast(int, pending)
        summary = memo[number]
        if summary is None:
            summary = memo[number] = last_operations_of(
                context.pending_tuples[number], operations, kinds
            )
        left, code, neutral, kind_with, kind_other, lower = summary
        if is_negating[state]:
            # The operand is NOT's digits (complemented already, and the steps add
            # complemented digits): never a bare literal.
            neutral = -1
        for character, next_usage, multiplier, addend in steps:
            operand = current * multiplier + addend
            # (The identity kind first: a side whose fragments the rules forbid is dropped
            # before its arithmetic.)
            kind = kind_with if operand == neutral else kind_other
            if kind < 0:
                continue
            value = operand if code == last_none else last_value(code, left, operand)
            if cast(int, value) < floor:
                continue
            if lower:
                value = _weaker_applied(lower, value)
                if value is None:
                    continue
            add_filling(results, value, next_usage, text + character, kind)


def _last_step_tables(
    context: Context, mask: int
) -> tuple[list[list[Step]], list[dict[int, list[LastStep]]]]:
    """For a last free square of `mask`, per automaton state: the steps into an accepting
    state, and the table of those each usage still allows (filled as usages are met)."""
    by_state = context.last_steps.get(mask)
    if by_state is None:
        by_state = context.last_steps[mask] = [
            [step for step in square_steps(context, state, mask) if step[3][1] in ACCEPTING]
            for state in range(DEAD + 1)
        ]
    usable_by_state = context.usable_last_steps.get(mask)
    if usable_by_state is None:
        usable_by_state = context.usable_last_steps[mask] = [{} for _ in range(DEAD + 1)]
    return by_state, usable_by_state


def add_filling(
    results: dict[int, SideBucket], value: Any, usage: Any, text: str, kind: int
) -> None:
    """Add a complete side to `results`, by value, then usage (see KindParts): a new value
    or usage group gets its list made with its first filling; `kind` 0 for a side without
    identity fragments, else 1. One function for the two places that complete sides,
    :func:`_sides_from_partials` and :func:`_sides_ending_free`: the call costs 3.1 M
    instructions over the two copies it replaced (callgrind, `generate_placements` on 15
    positions of the bench corpus: 802.3 M -> 805.4 M, 0.2 % of the whole search)."""
    bucket = results.get(value)
    if bucket is None:
        results[value] = {usage: [0, text] if kind else [1, text]}
        return
    parts = bucket.get(usage)
    if parts is None:
        bucket[usage] = [0, text] if kind else [1, text]
    elif kind:
        parts.append(text)
    else:
        # (A filling without fragments goes after the others without: see KindParts.)
        plain = parts[0] + 1
        parts[0] = plain
        if len(parts) == cast(int, plain):
            # No filling with fragments yet (the commonest): the end of the list, which
            # the compiled module appends to without a call.
            parts.append(text)
        else:
            parts.insert(plain, text)


def _weaker_applied(lower: tuple[Any, ...], value: int) -> Any:
    """`value` after the weaker waiting operations (see last_operations_of), or None when
    one fails."""
    lower_left, lower_operate, further = lower
    lowered = lower_operate(lower_left, value)
    while further and lowered is not None:
        lower_left, lower_operate, further = further
        lowered = lower_operate(lower_left, lowered)
    return lowered


#: How many sides of tiles alone the tables of one rules keep (:attr:`Context.fixed_sides`).
_FIXED_SIDES: Final = 1 << 14


def narrowed_side(
    context: Context, items: tuple[str | int, ...], whole: dict[int, SideBucket]
) -> dict[int, SideBucket]:
    """:func:`enumerate_side` for `context`, from the side's fillings for a larger rack.

    `whole` holds the side's fillings for the whole rack (the side was met beside a fixed
    `=` too); those `context` (the rack with one `=` fewer) can show are exactly its usage
    groups that fit the smaller rack, so they are kept by group, not enumerated again.
    """
    guarded = context.rack_guarded
    blanks = context.blanks
    results: dict[int, SideBucket] = {}
    for value, bucket in whole.items():
        kept = {
            usage: parts
            for usage, parts in bucket.items()
            if (guarded - usage) & GUARDS == GUARDS
            or (blanks and deficit_of(context, usage) <= blanks)
        }
        if kept:
            results[value] = kept
    context.side_cache[items] = results
    return results
