"""Blank variants: which squares of an equation the rack's blanks can show
(:func:`realizations_of`), and how many ways there are (:func:`variant_count`), counted
without listing them.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Final

from binscrabble.board import (
    SIZE,
)

from .context import Rack
from .options import (
    FIELD_BITS,
    FIELD_MASK,
    FIELD_ONES,
    FIELDS_AT,
    GUARD,
    GUARDS,
    OPTION_FIELD,
    TOP_FIELD_SHIFT,
)


def realizations_of(rack: Rack, options: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way the rack can show `options`: which squares hold blanks (index tuples).

    Two plays that differ only in which tiles are blanks are different moves (they score
    differently), so each choice of blank squares the rack allows is listed.
    """
    found = rack.realizations.get(options)
    if found is not None:
        return found
    if not rack.blanks:
        found = [()]
        rack.realizations[options] = found
        return found
    if rack.blanks == 1:
        found = rack.realizations[options] = one_blank_realizations(rack, options)
        return found
    found = rack.realizations[options] = searched_realizations(rack, options)
    return found


def field_positions(options: tuple[int, ...]) -> dict[int, list[int]]:
    """Per rack field (an `=` and a rotated `=` share one), in the order fields first
    appear, its positions in `options`. (One loop, no comprehension: this runs once per
    equation a rack with blanks shows, for :func:`searched_realizations` and
    :func:`one_blank_realizations`, which held a copy each; as one function, making every
    move of 15 positions of the bench corpus took no more instructions under callgrind.)"""
    positions: dict[int, list[int]] = {}
    option_field = OPTION_FIELD
    for position, option in enumerate(options):
        field = option_field[option]
        bucket = positions.get(field)
        if bucket is None:
            positions[field] = [position]
        else:
            bucket.append(position)
    return positions


def searched_realizations(rack: Rack, options: tuple[int, ...]) -> list[tuple[int, ...]]:
    """:func:`realizations_of` for any rack with blanks, by a search field by field (kept by
    what it depends on, for every rack and call)."""
    # Per rack field, its squares, and how many of them may or must be blanks. Whether a
    # face can come from a natural tile or a blank depends only on its field.
    positions = field_positions(options)
    counts = rack.rack_counts
    natural = rack.natural
    designable = rack.designable
    # What the choice depends on: per field, its squares, how many natural tiles it has,
    # whether a blank may show it; the same for many options (and racks), so it is cached.
    # As bytes (see _PATTERN_REALIZATIONS): the blanks, then per field its squares' positions
    # and a byte past any position for its tiles and whether a blank may show it.
    parts = [rack.blanks]
    for rack_field, squares in positions.items():
        parts.extend(squares)
        parts.append(
            _PATTERN_FIELD_END
            + 2 * (counts[rack_field] if natural[rack_field] else 0)
            + designable[rack_field]
        )
    pattern = bytes(parts)
    found = _PATTERN_REALIZATIONS.get(pattern)
    if found is not None:
        return found
    # Partial choices of blank squares, field by field, within the rack's blanks.
    partials: list[tuple[int, tuple[int, ...]]] = [(rack.blanks, ())]
    for rack_field, squares in positions.items():
        if not designable[rack_field]:
            if natural[rack_field] and len(squares) <= counts[rack_field]:
                continue  # natural tiles only, and enough of them
            partials = []
            break
        fewest = max(0, len(squares) - counts[rack_field]) if natural[rack_field] else len(squares)
        extended: list[tuple[int, tuple[int, ...]]] = []
        for budget, blank_at in partials:
            for size in range(fewest, min(len(squares), budget) + 1):
                if size == 0:
                    extended.append((budget, blank_at))
                    continue
                for chosen in combinations(squares, size):
                    extended.append((budget - size, blank_at + chosen))
        partials = extended
        if not partials:
            break
    if len(_BLANK_SQUARES) >= 1 << 14:
        _BLANK_SQUARES.clear()
    shared = _BLANK_SQUARES.setdefault
    listed: list[tuple[int, ...]] = []
    for _, blank_at in partials:
        squares_at = tuple(sorted(blank_at))
        listed.append(shared(squares_at, squares_at))
    if len(_PATTERN_REALIZATIONS) >= 1 << 14:
        _PATTERN_REALIZATIONS.clear()
    _PATTERN_REALIZATIONS[pattern] = listed
    return listed


def one_blank_realizations(rack: Rack, options: tuple[int, ...]) -> list[tuple[int, ...]]:
    """:func:`realizations_of` for a rack of one blank, in the same order, without the table
    of partial choices: when some field's natural tiles fall one short, the blank is on one
    of that field's squares; else it is on no square, or on any square a blank may show,
    field by field from the last field to appear (as the general search lists them)."""
    positions = field_positions(options)
    counts = rack.rack_counts
    natural = rack.natural
    designable = rack.designable
    short_of: list[int] | None = None
    for rack_field, squares in positions.items():
        short = len(squares) - counts[rack_field] if natural[rack_field] else len(squares)
        if short > 0:
            if short > 1 or short_of is not None or not designable[rack_field]:
                return []
            short_of = squares
    if short_of is not None:
        return [(position,) for position in short_of]
    found: list[tuple[int, ...]] = [()]
    for rack_field in reversed(positions):
        if designable[rack_field]:
            found.extend([(position,) for position in positions[rack_field]])
    return found


def field_uses(rack: Rack, usage: int) -> list[tuple[int, int, int]]:
    """Per rack field an option usage takes squares of, in field order: (the field, its
    squares, how many of them the rack's natural tiles leave short: at most 0 when they
    suffice). The walk the variant counts share (:func:`variant_count`)."""
    counts = rack.rack_counts
    natural = rack.natural
    uses = []
    field = -1
    rest = usage >> FIELDS_AT
    while rest:
        used = rest & FIELD_MASK
        rest >>= FIELD_BITS
        field += 1
        if used:
            uses.append((field, used, used - counts[field] if natural[field] else used))
    return uses


def one_blank_fields(rack: Rack, usage: int) -> tuple[int, int]:
    """For a rack of one blank and an option usage: (the field the rack's natural tiles
    fall one square short of, whose squares then take the blank, or -1; how many ways the
    rack can show the usage, :func:`variant_count`).

    With a short field, the blank is on one of its squares (:func:`one_blank_realizations`);
    without one, on none or on any square of a field a blank may show (the running
    products of :func:`_few_blanks_variant_count` folded into a sum). A usage short of more
    than one tile, of two fields, or of a field no blank may show cannot be shown: (-1, 0).
    Kept in :attr:`Rack.short_fields`.

    Read from the guarded difference of the rack and the usage (see :func:`deficit_of`), not
    field by field: a field short of tiles has lost its guard bit, and holds 15 when it is
    short of exactly one.
    """
    difference = rack.guarded - usage
    short = ~difference & GUARDS
    if short:
        shift = short.bit_length() - FIELD_BITS
        if (
            short == GUARD << shift
            and difference >> shift & FIELD_MASK == GUARD - 1
            and rack.designable[(shift - FIELDS_AT) // FIELD_BITS]
        ):
            found = ((shift - FIELDS_AT) // FIELD_BITS, usage >> shift & FIELD_MASK)
        else:
            found = (-1, 0)
    else:
        # The squares of the fields a blank may show: their fields summed by one
        # multiplication, which adds every field into the top one (a usage takes at most
        # a rack's tiles, far below a field's 31: no field carries into the next).
        anywhere = (usage & rack.designable_fields) * FIELD_ONES >> TOP_FIELD_SHIFT & FIELD_MASK
        found = (-1, 1 + anywhere)
    rack.short_fields[usage] = found
    return found


#: :func:`realizations_of` by what they depend on (the rack's blanks, then per field: its
#: squares, its natural tiles, whether a blank may show it), for every rack and call.
#: Kept across calls, so kept in few objects: keyed by bytes (see
#: :func:`searched_realizations`), its lists holding the tuples of :data:`_BLANK_SQUARES`.
#: (Keyed by tuples of tuples, and holding tuples of their own, an entry would be about 17
#: small objects, and the listing of a two-blank rack adds thousands of entries: their
#: blocks, scattered among the call's freed ones, would keep those pools in use, and the
#: next calls' objects would land in them, all over the heap.)
_PATTERN_REALIZATIONS: dict[bytes, list[tuple[int, ...]]] = {}
#: Every tuple of blank positions the lists of _PATTERN_REALIZATIONS hold, once.
_BLANK_SQUARES: dict[tuple[int, ...], tuple[int, ...]] = {}
#: In a key of _PATTERN_REALIZATIONS, a field's last byte: this (past any position of a
#: segment's squares), plus twice its natural tiles (below GUARD), plus one when a blank
#: may show it.
_PATTERN_FIELD_END: Final = SIZE


def variant_count(rack: Rack, usage: int) -> int:
    """How many ways the rack can show an equation of this option usage: the length of
    :func:`realizations_of` for any options with that usage, counted without listing them.

    The count depends only on how many squares of each rack field the equation uses: a
    field of ``used`` squares with ``lowest`` to ``highest`` of them blanks adds
    C(used, b) ways for each b, within the rack's blanks overall.
    """
    found = rack.variant_counts.get(usage)
    if found is not None:
        return found
    if not rack.blanks:
        found = 1
    elif rack.blanks == 1:
        pair = rack.short_fields.get(usage)
        found = (pair if pair is not None else one_blank_fields(rack, usage))[1]
    elif rack.blanks == 2:
        found = _few_blanks_variant_count(rack, usage)
    else:
        designable = rack.designable
        # Ways so far, by how many blanks are still unspent.
        ways = {rack.blanks: 1}
        for rack_field, used, short in field_uses(rack, usage):
            if not designable[rack_field]:
                if short <= 0:
                    continue  # natural tiles only, and enough of them
                ways = {}
                break
            lowest = max(0, short)
            spread: dict[int, int] = {}
            for budget, number in ways.items():
                for size in range(lowest, min(used, budget) + 1):
                    spread[budget - size] = spread.get(budget - size, 0) + number * comb(used, size)
            ways = spread
            if not ways:
                break
        found = sum(ways.values())
    rack.variant_counts[usage] = found
    return found


def _few_blanks_variant_count(rack: Rack, usage: int) -> int:
    """:func:`variant_count` for a rack of two blanks (one is counted by
    :func:`one_blank_fields`), read from the guarded difference of the rack and the usage
    (see :func:`deficit_of`), not field by field.

    Per field of `used` squares the ways to put 0, 1 or 2 of them on blanks are C(used, b)
    when the rack's natural tiles leave at least b of them to blanks and a blank may show
    the field. The fields the natural tiles suffice for and a blank may show, `s` squares
    in all, thus give 1, s and C(s, 2) ways; a field short of tiles (its guard bit lost)
    takes one blank or two, and no usage short of more than two tiles, or of a field no
    blank may show, can be shown.
    """
    difference = rack.guarded - usage
    short = ~difference & GUARDS
    anywhere = usage & rack.designable_fields
    if not short:
        # (A usage takes at most a segment's squares: no field of the sum carries.)
        spread = anywhere * FIELD_ONES >> TOP_FIELD_SHIFT & FIELD_MASK
        return 1 + spread + spread * (spread - 1) // 2
    designable = rack.designable_fields
    shift = short.bit_length() - FIELD_BITS
    if not designable >> shift & 1:
        return 0
    lacking = GUARD - (difference >> shift & FIELD_MASK)
    used = usage >> shift & FIELD_MASK
    rest = short ^ GUARD << shift
    if rest:
        # Two fields short of one tile each: a blank on a square of each.
        if lacking != 1:
            return 0
        other = rest.bit_length() - FIELD_BITS
        if (
            rest != GUARD << other
            or not designable >> other & 1
            or difference >> other & FIELD_MASK != GUARD - 1
        ):
            return 0
        return used * (usage >> other & FIELD_MASK)
    if lacking == 2:
        return used * (used - 1) // 2
    if lacking != 1:
        return 0
    # One blank on the short field, and none, a second there, or one on another field.
    anywhere ^= anywhere & FIELD_MASK << shift
    spread = anywhere * FIELD_ONES >> TOP_FIELD_SHIFT & FIELD_MASK
    return used * (1 + spread) + used * (used - 1) // 2
