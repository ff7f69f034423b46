"""Joining: split a segment's shape into sides at its ``=`` signs (and the one new ``=`` a
play may add), enumerate the sides, and pair the fillings of equal value that the rack can
show together, kept as join groups (:class:`~.context.JoinGroup`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final, cast

from binscrabble.expr import bonus

from .blanks import variant_count
from .caches import UNSPLIT, clear_tracked, kept_tracked
from .context import Context, JoinGroup, KindParts, SideBucket
from .grammar import CANNOT_END, CANNOT_START
from .options import EQUALS_OPTION, OPERAND_END_OPTIONS, OPERAND_START_OPTIONS, OPTION_USAGE
from .sides import enumerate_side, narrowed_side
from .usage import deficit_of


def _free_positions(side: tuple[str | int, ...]) -> tuple[int, ...]:
    """Where a side's free squares are in its text (:func:`_frontier`)."""
    positions = []
    at = 0
    for item in side:
        if type(item) is str:
            at += len(item)
        else:
            positions.append(at)
            at += 1
    return tuple(positions)


def _two_layouts(
    layouts: dict[tuple[str | int, ...], tuple[int, ...]], sides: Sequence[tuple[str | int, ...]]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The free positions of a two-sided join's sides (:func:`_free_positions`), cached in
    `layouts`: two plain lookups, since two sides are the commonest join."""
    first_side, second_side = sides
    first_layout = layouts.get(first_side)
    if first_layout is None:
        first_layout = layouts[first_side] = _free_positions(first_side)
    second_layout = layouts.get(second_side)
    if second_layout is None:
        second_layout = layouts[second_side] = _free_positions(second_side)
    return first_layout, second_layout


def _split_sides(items: Sequence[str | int]) -> list[tuple[str | int, ...]] | None:
    """Cut a shape at its fixed `=` signs, merging neighbouring fixed text.

    None when a side would be empty (`=` at an end, or two in a row).
    """
    sides: list[tuple[str | int, ...]] = []
    current: list[str | int] = []
    for item in items:
        if type(item) is str:
            parts = item.split("=")
            for number, part in enumerate(parts):
                if number:
                    if not current:
                        return None
                    sides.append(tuple(current))
                    current = []
                if part:
                    if current and type(current[-1]) is str:
                        current[-1] = current[-1] + part
                    else:
                        current.append(part)
        else:
            current.append(item)
    if not current:
        return None
    sides.append(tuple(current))
    return sides


#: A join's sides ready to pair: each side's table (value -> usage groups), the values they
#: all share, and per side where its free squares are in its text.
_Tables = tuple[list[dict[int, SideBucket]], set[int], tuple[tuple[int, ...], ...]]


def _join(
    context: Context,
    sides: list[tuple[str | int, ...]],
    equals_slot: int,
    out: list[JoinGroup],
    reach: Callable[[int], bool] | None = None,
    side_context: Context | None = None,
) -> bool:
    """Pair up fillings of the sides that share a value and that the rack can show together.

    Sides are enumerated and cached in `side_context` (by default `context`: the sides of a
    play that adds the new `=` come from :attr:`Context.equals_sides`); the rack check of
    the join is always against `context`, the whole rack.

    `equals_slot` is the index (among the segment's free squares) where the new `=` goes,
    or -1; it is inserted into the options there. Appends the equations as groups
    (:class:`JoinGroup`): per value, per combination of the sides' usage groups the rack can
    show, the sides' fillings, to be combined when read (:func:`group_fillings`).

    `reach` (best moves only) says whether the segment could still reach the best scores
    with a bonus up to the given one; when the values the cheaper sides share cannot give a
    large enough bonus, the costliest side is not enumerated, and this returns False (the
    equations appended are then not all of them).
    """
    found = _side_tables(context, sides, reach, side_context or context)
    if isinstance(found, bool):
        return found
    tables, shared, free_positions = found
    start_usage = OPTION_USAGE[EQUALS_OPTION] if equals_slot >= 0 else 0
    head = (equals_slot, free_positions, start_usage)
    if len(tables) == 2:
        if context.blanks:
            _join_two_with_blanks(context, tables, shared, head, out)
        else:
            _join_two(context, tables, shared, head, out)
    elif len(tables) == 3:
        _join_three(context, tables, shared, head, out)
    else:
        _join_many(context, tables, shared, head, out)
    return True


def _side_tables(
    context: Context,
    sides: list[tuple[str | int, ...]],
    reach: Callable[[int], bool] | None,
    side_context: Context,
) -> _Tables | bool:
    """The sides' tables and the values they share; or True when they share none (the join
    is complete, empty), False when `reach` cut the costliest side (see :func:`_join`)."""
    side_cache = side_context.side_cache
    if len(sides) == 2:
        # Two sides are the commonest join: looked up without a comprehension's own frame.
        first_known = side_cache.get(sides[0])
        second_known = side_cache.get(sides[1])
        if reach is None and first_known is not None and second_known is not None:
            # Two sides enumerated already (the commonest join): one intersection of their
            # values (CPython walks the smaller table).
            shared = first_known.keys() & second_known.keys()
            if not shared:
                return True
            free_positions = _two_layouts(context.layouts, sides)
            return [first_known, second_known], shared, free_positions
        known = [first_known, second_known]
    else:
        # (map: a comprehension is a function call of its own in CPython 3.11.)
        known = list(map(side_cache.get, sides))
    if reach is None and None not in known:
        # Every side enumerated already (most joins: sides recur across segments).
        return _known_tables(context, sides, cast("list[dict[int, SideBucket]]", known))
    return _enumerated_tables(context, sides, known, reach, side_context)


def _layouts(context: Context, sides: list[tuple[str | int, ...]]) -> tuple[tuple[int, ...], ...]:
    """Where each side's free squares are in its text (:func:`_free_positions`), cached."""
    layouts = context.layouts
    return tuple(
        [
            layouts[side] if side in layouts else layouts.setdefault(side, _free_positions(side))
            for side in sides
        ]
    )


def _known_tables(
    context: Context, sides: list[tuple[str | int, ...]], tables: list[dict[int, SideBucket]]
) -> _Tables | bool:
    """:func:`_side_tables` when every side is enumerated already."""
    shared: set[int] | None = None
    for table in sorted(tables, key=len):
        shared = set(table) if shared is None else shared.intersection(table)
        if not shared:
            return True
    assert shared is not None  # (a join has two sides or more)
    return tables, shared, _layouts(context, sides)


def _enumerated_tables(
    context: Context,
    sides: list[tuple[str | int, ...]],
    known: list[dict[int, SideBucket] | None],
    reach: Callable[[int], bool] | None,
    side_context: Context,
) -> _Tables | bool:
    """:func:`_side_tables` when sides are to be enumerated: those with the fewest free
    squares first, as they are the cheapest to enumerate, and when one has no filling (or
    no value another shares) the costly ones are not needed."""
    tables: list[dict[int, SideBucket]] = [{}] * len(sides)
    free_positions: tuple[tuple[int, ...], ...]
    if len(sides) == 2:
        free_positions = first_layout, second_layout = _two_layouts(context.layouts, sides)
        order = [0, 1] if len(first_layout) <= len(second_layout) else [1, 0]
        free = len(first_layout) + len(second_layout)
    else:
        free_positions = _layouts(context, sides)
        order = sorted(range(len(sides)), key=lambda index: len(free_positions[index]))
        free = sum([len(positions) for positions in free_positions])
    if free >= LONG_JOIN and free > context.digit_capacity and not may_fill(context, sides, free):
        return True
    shared: set[int] | None = None
    for position in order:
        # The equation's value is one the cheaper sides share, so is its bonus.
        costliest = position == order[-1]
        if reach is not None and costliest and shared is not None and not reach(bonus(max(shared))):
            return False
        enumerated = known[position]
        if enumerated is None:
            side = sides[position]
            whole = context.side_cache.get(side) if side_context is not context else None
            enumerated = (
                enumerate_side(side_context, side)
                if whole is None
                else narrowed_side(side_context, side, whole)
            )
        tables[position] = enumerated
        shared = set(enumerated) if shared is None else shared.intersection(enumerated)
        if not shared:
            return True
    assert shared is not None  # (a join has two sides or more)
    return tables, shared, free_positions


#: What every group of one join holds before its value: (free square of the new `=` or -1,
#: per side where its free squares are, the usage of the new `=` or 0).
_JoinHead = tuple[int, tuple[tuple[int, ...], ...], int]


# `_join_two`, `_join_two_with_blanks` and `_join_three` are near-copies of one walk, kept
# apart: joining every two-sided table through `_join_two_with_blanks` and every larger one
# through `_join_many` costs 20 M instructions more (callgrind, `generate_placements` on 15
# positions of the bench corpus: two sides 334.7 M -> 344.0 M, +2.8 %; three sides 62.7 M
# -> 73.6 M, +17 %; 1.3 % of the whole search).


def _join_two(
    context: Context,
    tables: list[dict[int, SideBucket]],
    shared: set[int],
    head: _JoinHead,
    out: list[JoinGroup],
) -> None:
    """Two sides (the commonest case) for a rack without blanks (most racks of the median
    and of rollouts): the product of their usage groups as two loops, each group read in
    place (the groups it fits are those its partners fit; :func:`_first_groups` costs more
    there than it saves). Whether a usage fits is read from the blanks it needs
    (:func:`deficit_of`, cached), not from the guarded subtraction: usages take up to 80
    bits, and CPython's arithmetic on such ints makes a new object per step where a lookup
    makes none."""
    equals_slot, free_positions, start_usage = head
    deficits = context.deficits
    chains = context.rules.identity_chains
    first_table, second_table = tables
    for value in shared:
        second_bucket = second_table[value]
        for first_usage, first_fillings in first_table[value].items():
            usage = start_usage + first_usage
            needed = deficits.get(usage)
            if needed if needed is not None else deficit_of(context, usage):
                continue
            first_plain = first_fillings[0]
            first_all = len(first_fillings) - 1
            for second_usage in second_bucket:
                total = usage + second_usage
                needed = deficits.get(total)
                if needed if needed is not None else deficit_of(context, total):
                    continue
                second_fillings = second_bucket[second_usage]
                # (Counts of fillings: see KindParts.)
                if chains:
                    count = first_all * (len(second_fillings) - 1)
                else:
                    count = (
                        first_plain * (len(second_fillings) - 1)
                        + (first_all - first_plain) * second_fillings[0]
                    )
                if count:
                    out.append(
                        JoinGroup(
                            value,
                            equals_slot,
                            free_positions,
                            total,
                            count,
                            first_fillings,
                            second_fillings,
                            (),
                        )
                    )


def _join_two_with_blanks(
    context: Context,
    tables: list[dict[int, SideBucket]],
    shared: set[int],
    head: _JoinHead,
    out: list[JoinGroup],
) -> None:
    """Two sides for a rack with blanks. What a first group needs does not depend on its
    partner, and a bucket is the first side of many joins: its groups are read once
    (:func:`_first_groups`) and kept. A group counts moves: its equations times the ways the
    rack can show their usage (see JoinGroup)."""
    equals_slot, free_positions, start_usage = head
    blanks = context.blanks
    chains = context.rules.identity_chains
    fitting, unfitting = context.fitting, context.unfitting
    rack = context.rack
    first_groups = context.first_groups if equals_slot < 0 else context.equals_first_groups
    first_table, second_table = tables
    candidates: Iterable[int]
    levels: list[list[int]] | None
    for value in shared:
        second_bucket = second_table[value]
        first_bucket = first_table[value]
        prepared = first_groups.get(id(first_bucket))
        if prepared is None:
            prepared = _first_groups(context, first_bucket, start_usage, first_groups)
        levels = None
        for usage, room, with_length, with_head, first_fillings in prepared:
            if room == blanks:
                candidates = second_bucket
            else:
                # The blanks this group needs cannot serve the second side: only its groups
                # that need at most the others alone can fit (a sum of usages needs at least
                # the blanks of its parts).
                if levels is None:
                    levels = context.deficit_levels.get(id(second_bucket))
                    if levels is None:
                        levels = deficit_levels(context, second_bucket)
                candidates = levels[room]
            for second_usage in candidates:
                total = usage + second_usage
                if total in unfitting:
                    continue
                variants = fitting.get(total)
                if variants is None:
                    if deficit_of(context, total) > blanks:
                        unfitting.add(total)
                        continue
                    variants = fitting[total] = variant_count(rack, total)
                second_fillings = second_bucket[second_usage]
                if chains:
                    count = with_length * (len(second_fillings) - 1)
                else:
                    # Fragments in one side at most: plain with any, fragments with plain.
                    count = (
                        with_length * (len(second_fillings) - 1) + with_head * second_fillings[0]
                    )
                if count:
                    out.append(
                        JoinGroup(
                            value,
                            equals_slot,
                            free_positions,
                            total,
                            count * variants,
                            first_fillings,
                            second_fillings,
                            (),
                        )
                    )


def _join_three(
    context: Context,
    tables: list[dict[int, SideBucket]],
    shared: set[int],
    head: _JoinHead,
    out: list[JoinGroup],
) -> None:
    """Three sides (a fixed `=` and the new one, nearly every join of more than two): the
    walk of :func:`_join_many` as three loops, in its order (its stack takes the first two
    sides' groups last first), without a stack entry and a tuple per partial join."""
    equals_slot, free_positions, start_usage = head
    blanks = context.blanks
    deficits = context.deficits
    chains = context.rules.identity_chains
    rack = context.rack
    first_table, second_table, third_table = tables
    for value in shared:
        second_items = second_table[value].items()
        third_items = third_table[value].items()
        for first_usage, first_fillings in reversed(first_table[value].items()):
            usage = start_usage + first_usage
            needed = deficits.get(usage)
            if (needed if needed is not None else deficit_of(context, usage)) > blanks:
                continue
            for second_usage, second_fillings in reversed(second_items):
                pair = usage + second_usage
                needed = deficits.get(pair)
                if (needed if needed is not None else deficit_of(context, pair)) > blanks:
                    continue
                for third_usage, third_fillings in third_items:
                    total = pair + third_usage
                    needed = deficits.get(total)
                    if (needed if needed is not None else deficit_of(context, total)) > blanks:
                        continue
                    joined = (first_fillings, second_fillings, third_fillings)
                    count = join_count(joined, chains)
                    if count:
                        if blanks:
                            count *= variant_count(rack, total)
                        out.append(
                            JoinGroup(
                                value,
                                equals_slot,
                                free_positions,
                                total,
                                count,
                                first_fillings,
                                second_fillings,
                                (third_fillings,),
                            )
                        )


def _join_many(
    context: Context,
    tables: list[dict[int, SideBucket]],
    shared: set[int],
    head: _JoinHead,
    out: list[JoinGroup],
) -> None:
    """Any number of sides: a depth-first product of the sides' usage groups, dropping
    partial joins the rack cannot show; every surviving combination is one group."""
    equals_slot, free_positions, start_usage = head
    blanks = context.blanks
    deficits = context.deficits
    chains = context.rules.identity_chains
    last = len(tables) - 1
    for value in shared:
        buckets = [table[value] for table in tables]
        stack: list[tuple[int, int, tuple[KindParts, ...]]] = [(0, start_usage, ())]
        while stack:
            depth, usage, groups = stack.pop()
            for side_usage, fillings in buckets[depth].items():
                total = usage + side_usage
                needed = deficits.get(total)
                if (needed if needed is not None else deficit_of(context, total)) > blanks:
                    continue
                if depth < last:
                    stack.append((depth + 1, total, (*groups, fillings)))
                    continue
                every = (*groups, fillings)
                count = join_count(every, chains)
                if count:
                    if blanks:
                        count *= variant_count(context.rack, total)
                    out.append(
                        JoinGroup(
                            value,
                            equals_slot,
                            free_positions,
                            total,
                            count,
                            every[0],
                            every[1],
                            every[2:],
                        )
                    )


def _first_groups(
    context: Context,
    bucket: SideBucket,
    start_usage: int,
    kept: dict[int, list[tuple[int, int, int, int, KindParts]]],
) -> list[tuple[int, int, int, int, KindParts]]:
    """The usage groups of `bucket` the rack can show as the first side of a two-sided join
    (with `start_usage`, the new `=`'s or none, added), in the bucket's order: for each,
    (its usage with `start_usage`, the blanks the rack has left once it is shown, `a`, `b`,
    its fillings), where it makes ``a * (len(other) - 1) + b * other[0]`` equations with a
    group `other` of the second side (see KindParts). Kept in `kept` by the bucket's
    ``id``: a bucket is the first side of many joins, and what a group needs does not depend
    on its partner."""
    blanks = context.blanks
    deficits = context.deficits
    chains = context.rules.identity_chains
    prepared: list[tuple[int, int, int, int, KindParts]] = []
    for usage, fillings in bucket.items():
        usage += start_usage
        needed = deficits.get(usage)
        if needed is None:
            needed = deficit_of(context, usage)
        if needed <= blanks:
            # The pairs it makes with a group of the other side: `a` times all the other's
            # fillings and `b` times those without fragments (see KindParts); under
            # identity_chains any with any, else fragments in one side at most.
            if chains:
                prepared.append((usage, blanks - needed, len(fillings) - 1, 0, fillings))
            else:
                plain = fillings[0]
                prepared.append(
                    (usage, blanks - needed, plain, len(fillings) - 1 - plain, fillings)
                )
    kept[id(bucket)] = prepared
    return prepared


def deficit_levels(context: Context, bucket: SideBucket) -> list[list[int]]:
    """The usages of `bucket`, for each number of blanks `k` below the rack's: those that
    need at most `k` blanks alone (:func:`deficit_of`), in the bucket's order. Kept in
    :attr:`Context.deficit_levels`: the usages only, not (usage, fillings) pairs, which
    would be one more object per entry to free at the call's end (10,000-15,000 on the
    heavy racks); the join looks a usage's fillings up in the bucket once the rack allows
    the pair."""
    blanks = context.blanks
    levels: list[list[int]]
    deficits = context.deficits
    if blanks == 2:
        # (The heavy racks; one blank below.) Each level by itself, without a range per
        # usage.
        none: list[int] = []
        one: list[int] = []
        levels = [none, one]
        for usage in bucket:
            needed = deficits.get(usage)
            if needed is None:
                needed = deficit_of(context, usage)
            if needed == 0:
                none.append(usage)
                one.append(usage)
            elif needed == 1:
                one.append(usage)
    elif blanks == 1:
        none = []
        levels = [none]
        for usage in bucket:
            needed = deficits.get(usage)
            if needed is None:
                needed = deficit_of(context, usage)
            if needed == 0:
                none.append(usage)
    else:
        levels = [[] for _ in range(blanks)]
        for usage in bucket:
            needed = deficits.get(usage)
            if needed is None:
                needed = deficit_of(context, usage)
            for level in range(needed, blanks):
                levels[level].append(usage)
    context.deficit_levels[id(bucket)] = levels
    return levels


#: Joins of fewer free squares are not tested by :func:`may_fill`: their sides are cheap to
#: enumerate, and the test would cost more than it saves.
LONG_JOIN: Final = 6


def may_fill(context: Context, sides: list[tuple[str | int, ...]], free: int) -> bool:
    """Whether the rack holds enough digits for `sides` to take `free` tiles at all: False
    only when no choice of tiles can fill them (a test of tile counts, no more).

    In a side of `o` operands there are ``o - 1`` binary operators and at most `o` NOT
    signs, and every operand holds a digit: a free square's, or one of a run of fixed
    digits. So the free squares hold at most ``d + runs - sides - fixed operators`` binary
    operators and ``d + runs`` NOT signs, `d` being the free squares showing digits (as many
    as the rack allows: more digits only leave fewer squares to fill otherwise). Blanks
    are counted as any of the three, which only makes the test weaker.
    """
    runs = operators = 0
    counts = _TEXT_COUNTS
    for side in sides:
        for item in side:
            if type(item) is str:
                found = counts.get(item)
                if found is None:
                    found = counts[item] = _text_counts(item)
                runs += found[0]
                operators += found[1]
    digits = min(context.digit_capacity, free)
    binary = min(context.operator_capacity, digits + runs - len(sides) - operators)
    negations = min(context.not_capacity, digits + runs)
    return free - digits <= max(binary, 0) + max(negations, 0)


#: Per fixed text: its runs of digits, and its binary operators (see :func:`may_fill`).
_TEXT_COUNTS: dict[str, tuple[int, int]] = kept_tracked({})


def _text_counts(text: str) -> tuple[int, int]:
    runs = operators = 0
    after_digit = False
    for symbol in text:
        if symbol == "0" or symbol == "1":
            if not after_digit:
                runs += 1
                after_digit = True
        else:
            after_digit = False
            if symbol != "~":
                operators += 1
    if len(_TEXT_COUNTS) >= 1 << 14:
        clear_tracked(_TEXT_COUNTS)
    return runs, operators


def join_count(parts: tuple[KindParts, ...], chains: bool) -> int:
    """How many equations join one filling of each side: identity fragments may be in any
    number of sides under ``identity_chains``, else in one side at most."""
    if len(parts) == 3:
        # (Nearly every join of more than two sides.) Plain in all three, or fragments in
        # one: all of the first's with plain of the others, and so on.
        first, second, third = parts
        if chains:
            return (len(first) - 1) * (len(second) - 1) * (len(third) - 1)
        plain_first, plain_second, plain_third = first[0], second[0], third[0]
        joined: int = (
            (len(first) - 1) * plain_second * plain_third
            + plain_first * (len(second) - 1 - plain_second) * plain_third
            + plain_first * plain_second * (len(third) - 1 - plain_third)
        )
        return joined
    if chains:
        count = 1
        for fillings in parts:
            count *= len(fillings) - 1
        return count
    plain_only = 1
    for fillings in parts:
        plain_only *= fillings[0]
    count = plain_only
    for index, fillings in enumerate(parts):
        with_fragments = len(fillings) - 1 - fillings[0]
        if with_fragments:
            others = 1
            for other, other_fillings in enumerate(parts):
                if other != index:
                    others *= other_fillings[0]
            count += with_fragments * others
    return count


def segment_groups(
    context: Context,
    items: tuple[str | int, ...],
    reach: Callable[[int], bool] | None = None,
    equals_places: Sequence[tuple[int, int]] | None = None,
    fixed_equals: bool | None = None,
) -> tuple[list[JoinGroup], bool]:
    """Every way to fill a segment's free squares (as options) so it reads as an equation,
    as join groups; and whether that is all of them (see `reach` in :func:`_join`).

    `equals_places` and `fixed_equals`, when given, say what the shape holds (the search
    knows it from its walk): where the new `=` may go, as (position in `items`, index among
    the free squares) for each free square that allows it, neither end; and whether a
    fixed text holds an `=`.
    """
    out: list[JoinGroup] = []
    complete = True
    if fixed_equals is None:
        fixed_equals = any(type(item) is str and "=" in item for item in items)
    if fixed_equals:
        sides = _split(context, items)
        if sides is not None:
            complete = _join(context, sides, -1, out, reach)
    if not context.equals_usable:
        return out, complete
    if equals_places is None:
        equals_places = _equals_places(items)
    equals_sides = context.equals_sides or context
    for position, free_index in equals_places:
        if not _may_take_equals(context, items, position):
            continue
        if not fixed_equals:
            # The new `=` cuts the shape into its two sides.
            sides = [items[:position], items[position + 1 :]]
        else:
            # The new `=` cuts the shape in two; each half is split at its own fixed `=`
            # signs. Halves recur (segments of a line that start, or end, alike), so their
            # splits are kept.
            left = _split(context, items[:position])
            right = _split(context, items[position + 1 :]) if left is not None else None
            if left is None or right is None:
                continue
            sides = left + right
        complete = _join(context, sides, free_index, out, reach, equals_sides) and complete
    return out, complete


def _split(context: Context, shape: tuple[str | int, ...]) -> list[tuple[str | int, ...]] | None:
    """:func:`_split_sides` of `shape`, kept across calls: a whole shape recurs when a later
    call meets the same line."""
    sides = context.splits.get(shape, UNSPLIT)
    if sides is UNSPLIT:
        sides = context.splits[shape] = _split_sides(shape)
    return cast("list[tuple[str | int, ...]] | None", sides)


def _may_take_equals(context: Context, items: tuple[str | int, ...], position: int) -> bool:
    """Whether the new `=` may go at `position`: it ends the side before it, which must end
    with a digit, and starts the one after it, which must start with an operand (see
    OPERAND_START_OPTIONS); beside a square or a tile that cannot, one of its sides has no
    filling."""
    before = items[position - 1]
    if type(before) is str:
        if before[-1] in CANNOT_END:
            return False
    elif not cast(int, before) & context.wanted & OPERAND_END_OPTIONS:
        return False
    after = items[position + 1]
    if type(after) is str:
        return after[0] not in CANNOT_START
    return cast(int, after) & context.wanted & OPERAND_START_OPTIONS != 0


def _equals_places(items: tuple[str | int, ...]) -> list[tuple[int, int]]:
    """Where the new `=` may go in a shape (see :func:`segment_groups`): each free square
    whose mask allows it, but at either end (a side on each hand)."""
    places = []
    free_index = -1
    last = len(items) - 1
    for position, item in enumerate(items):
        if type(item) is str:
            continue
        free_index += 1
        if item >> EQUALS_OPTION & 1 and 0 < position < last:  # type: ignore[operator]
            places.append((position, free_index))
    return places
