"""A search's results read back: per segment, its join groups made into rows or moves when
read, and counted without being made (:class:`FoundRows`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from binscrabble.board import (
    WORD_MULTIPLIERS,
)

from .blanks import one_blank_fields, one_blank_realizations, searched_realizations, variant_count
from .caches import UNSPLIT, clear_tracked, kept_tracked
from .context import GROUP_SIDES, TWO_SIDED, JoinGroup, Rack
from .fillings import group_fillings
from .generated import GeneratedMove, Row, batch_moves, plain_moves
from .options import (
    CHARACTER_OPTIONS,
    EQUALS_CHARACTER,
    EQUALS_OPTION,
    OPTION_FIELD,
    ROTATED_CHARACTER,
)
from .scoring import (
    SQUARE_TABLES,
    SegmentPlace,
    SegmentScoring,
    crossing_tables,
    segment_free_squares,
    segment_scoring,
    square_tables_of,
)


class FoundRows:
    """The rows a search found: per segment, rows made from join groups when read
    (:data:`_Segment`, :func:`read_segment`), and a few made already."""

    __slots__ = ("chains", "extra", "rotated", "segments", "with_blanks")

    def __init__(self, with_blanks: bool, chains: bool, rotated: bool) -> None:
        self.segments: list[_Segment] = []
        self.extra: list[Row] = []
        self.with_blanks = with_blanks
        self.chains = chains
        self.rotated = rotated

    def __iter__(self) -> Iterator[Row]:
        for batch in self.batches():
            yield from batch

    def batches(self) -> Iterator[list[Row]]:
        """The rows, a segment at a time."""
        with_blanks, chains, rotated = self.with_blanks, self.chains, self.rotated
        for segment in self.segments:
            yield read_segment(segment, with_blanks, chains, rotated, False)
        yield self.extra

    def move_batches(self, rack: Rack) -> Iterator[list[GeneratedMove]]:
        """The moves of the rows, in order, a segment at a time (without blanks, made
        straight from the join groups: :func:`read_segment`)."""
        with_blanks, chains, rotated = self.with_blanks, self.chains, self.rotated
        if rack.blanks:
            for segment in self.segments:
                yield read_segment(segment, with_blanks, chains, rotated, True, rack)
        else:
            for segment in self.segments:
                yield read_segment(segment, with_blanks, chains, rotated, True)
        yield batch_moves(rack, self.extra)

    def move_count(self, rack: Rack) -> int:
        """How many moves the rows make (blank variants included)."""
        # Segments of one shape share its join groups (one list, kept by shape for the
        # call), so each list is counted once.
        counts: dict[int, int] = {}
        count = 0
        for segment in self.segments:
            if not segment[0][7]:
                groups = id(segment[1])
                known = counts.get(groups)
                if known is None:
                    known = counts[groups] = segment_move_count(segment, rack, self.chains)
                count += known
            else:
                count += segment_move_count(segment, rack, self.chains)
        if not rack.blanks:
            return count + len(self.extra)
        return count + sum(variant_count(rack, row[7]) for row in self.extra)


#: One segment's equations, their rows made when read (:func:`read_segment`): where the
#: segment is, and its join groups. Counting them needs no row: each group knows how many
#: equations it joins, and every equation of a group has the same rack usage, so the same
#: number of blank variants (under parallel_numbers, a segment touching only through
#: crossings keeps the equations that touch: :func:`touching_move_count`). (A tuple, not
#: an object: a search makes one per segment with equations.)
_Segment = tuple[SegmentPlace, list[JoinGroup]]


def read_segment(
    segment: _Segment,
    with_blanks: bool,
    chains: bool,
    rotated: bool,
    whole_moves: bool,
    rack: Rack | None = None,
) -> list[Any]:
    """A segment's rows, in the order of its groups' equations (:func:`group_fillings`);
    or with `whole_moves` their moves (for a rack with blanks, `rack`: per row, one per way
    the rack can show it, as :func:`batch_moves` makes them), made without the rows
    themselves. `with_blanks`: whether the rack holds a blank; `chains` and `rotated`:
    the rules' identity_chains and rotated_equals."""
    place, groups = segment
    found: list[Any] = []
    if place[7]:
        # Under parallel_numbers, a segment touching only through crossings (rare).
        row_of = segment_scoring(place, with_blanks).row
        for group in groups:
            for filling in group_fillings(group, chains, rotated):
                row = row_of(filling)
                if row is not None:
                    found.append(row)
        if not whole_moves:
            return found
        return plain_moves(found) if rack is None else batch_moves(rack, found)
    direction = place[0]
    bingo = place[6]
    known_realizations = rack.realizations if rack is not None else {}
    # What lists the blank squares of an equation the rack has not shown yet (see
    # realizations_of: this segment's rows all go the same way).
    one_blank = rack if rack is not None and rack.blanks == 1 else None
    # With one blank, the field a group's usage is short of (every equation of a group has
    # its usage): the blank is on one of that field's squares (see one_blank_fields).
    short = -1
    option_field = OPTION_FIELD
    # What the rows need of the scoring tables (see segment_scoring): per free square
    # its reading (:func:`_reading`) and what a blank loses there.
    # (segment_free_squares inline: this runs per segment.)
    _, line_squares, texts, crosses, start, end, _, _ = place
    free_squares = []
    free_crosses = []
    word_multiplier = 1
    for index in range(start, end + 1):
        if texts[index] is None:
            sq = line_squares[index]
            free_squares.append(sq)
            free_crosses.append(crosses[index])
            word_multiplier *= WORD_MULTIPLIERS[sq]
    squares = tuple(free_squares)
    reading = []
    blank_losses = []
    square_tables = SQUARE_TABLES
    # (Equal lengths; no `strict=`, whose keyword call is slow: this runs per segment.)
    for sq, info in zip(free_squares, free_crosses):  # noqa: B905
        key = (sq, word_multiplier, info)
        tables = square_tables.get(key)
        if tables is None:
            tables = square_tables_of(sq, word_multiplier, info)
        reading.append(tables[0])
        if with_blanks:
            blank_losses.append(tables[1])
    # Consecutive groups mostly come from one join: where their sides' free squares
    # are read is worked out once for them.
    last_positions: tuple[tuple[int, ...], ...] | None = None
    last_slot = -2
    first_places: list[tuple[int, dict[str, tuple[int, int]]]] = []
    second_places: list[tuple[int, dict[str, tuple[int, int]]]] = []
    equals_points = 0
    equals_options: tuple[int, ...] = ()
    # Groups of three sides or more (a fixed `=` and the new one) are read through the
    # segment's scoring tables, made once for them all.
    scoring: SegmentScoring | None = None
    for group in groups:
        if len(group) != TWO_SIDED:
            if scoring is None:
                scoring = segment_scoring(place, with_blanks)
            for filling in group_fillings(group, chains, rotated):
                row = scoring.row(filling)
                if row is None:
                    continue
                if not whole_moves:
                    found.append(row)
                elif rack is None:
                    found.append(GeneratedMove(row[0], row[1], (), row[5], row[2], row[3], row[4]))
                else:
                    found.extend(batch_moves(rack, [row]))
            continue
        # Two sides (the commonest case): each side's fillings read once (options,
        # and points: letter points times the word multiplier plus crossing scores),
        # then paired.
        (
            value,
            equals_slot,
            free_positions,
            usage,
            _,
            first_fillings,
            second_fillings,
        ) = group
        if one_blank is not None:
            pair = one_blank.short_fields.get(usage)
            short = (pair if pair is not None else one_blank_fields(one_blank, usage))[0]
        if free_positions is not last_positions or equals_slot != last_slot:
            last_positions = free_positions
            last_slot = equals_slot
            first_positions, second_positions = free_positions
            first_count = len(first_positions)
            if equals_slot >= 0:
                equals_options = (EQUALS_OPTION,)
                equals_points = reading[first_count][EQUALS_CHARACTER][1]
                second_start = first_count + 1
            else:
                equals_options = ()
                equals_points = 0
                second_start = first_count
            # Each side's positions with its free squares' tables (the first side's are
            # the segment's first ones, the second side's its last ones). No `strict=`:
            # zip called with a keyword takes CPython 3.11's slow call path.
            first_places = list(zip(first_positions, reading))  # noqa: B905
            second_places = list(zip(second_positions, reading[second_start:]))  # noqa: B905
        # (bonus inline: the leading bit of the value, 0 for 0 or below.)
        points = (
            (1 << (value.bit_length() - 1) if value > 0 else 0) * word_multiplier
            + bingo
            + equals_points
        )
        # Each side's fillings (see KindParts): read in place, each list's head (its
        # count) skipped as it comes, under identity_chains (kinds pair freely) or when
        # each side's fillings are of one kind; sliced by kind only otherwise.
        pairs: list[tuple[list[Any], list[Any]]]
        first_head = first_fillings[0]
        second_head = second_fillings[0]
        if chains:
            pairs = [(first_fillings, second_fillings)]
        else:
            first_end = first_head + 1
            second_end = second_head + 1
            if (not first_head or first_end == len(first_fillings)) and (
                not second_head or second_end == len(second_fillings)
            ):
                # One kind a side: one pair at most (fragments in both are not joined).
                pairs = [(first_fillings, second_fillings)] if first_head or second_head else []
            else:
                # (Slices hold no count: the heads below skip nothing in them. Only pairs
                # of fillings on both sides.)
                first_plain = first_fillings[1:first_end]
                second_plain = second_fillings[1:second_end]
                pairs = [(first_plain, second_plain)] if first_head and second_head else []
                if second_head and len(first_fillings) > first_end:
                    pairs.append((first_fillings[first_end:], second_plain))
                if first_head and len(second_fillings) > second_end:
                    pairs.append((first_plain, second_fillings[second_end:]))
        for first_texts, second_texts in pairs:
            second_read = []
            for text in second_texts:
                if text is second_head:
                    continue  # the list's count (see above)
                options = []
                gained = 0
                for at, table in second_places:
                    option, option_points = table[text[at]]
                    options.append(option)
                    gained += option_points
                if rotated:
                    text = text.replace(ROTATED_CHARACTER, "11")
                second_read.append(("=" + text, tuple(options), gained))
            for text in first_texts:
                if text is first_head:
                    continue
                options = []
                gained = points
                for at, table in first_places:
                    option, option_points = table[text[at]]
                    options.append(option)
                    gained += option_points
                if rotated:
                    text = text.replace(ROTATED_CHARACTER, "11")
                first_options = (*options, *equals_options)
                if rack is not None:
                    # The moves themselves, each way the rack can show the equation:
                    # no row to make and unpack again.
                    for second_text, second_options, second_points in second_read:
                        every_option = first_options + second_options
                        realizations = known_realizations.get(every_option)
                        if realizations is None:
                            if short >= 0:
                                # One blank, on a square of the short field (in square
                                # order, as one_blank_realizations lists them).
                                realizations = []
                                position = 0
                                for option in every_option:
                                    if option_field[option] == short:
                                        realizations.append((position,))
                                    position += 1  # noqa: SIM113 (cheaper than enumerate)
                            elif one_blank is not None:
                                realizations = one_blank_realizations(one_blank, every_option)
                            else:
                                assert rack is not None  # (moves with blanks have a rack)
                                realizations = searched_realizations(rack, every_option)
                            known_realizations[every_option] = realizations
                        natural_score = gained + second_points
                        whole_text = text + second_text
                        for blanks in realizations:
                            score = natural_score
                            for position in blanks:
                                score -= blank_losses[position][every_option[position]]
                            found.append(
                                GeneratedMove(
                                    squares,
                                    every_option,
                                    blanks,
                                    score,
                                    whole_text,
                                    value,
                                    direction,
                                )
                            )
                    continue
                if whole_moves:
                    # The move itself: no row to make and unpack again.
                    for second_text, second_options, second_points in second_read:
                        found.append(
                            GeneratedMove(
                                squares,
                                first_options + second_options,
                                (),
                                gained + second_points,
                                text + second_text,
                                value,
                                direction,
                            )
                        )
                    continue
                for second_text, second_options, second_points in second_read:
                    found.append(
                        (
                            squares,
                            first_options + second_options,
                            text + second_text,
                            value,
                            direction,
                            gained + second_points,
                            blank_losses,
                            usage,
                        )
                    )
    return found


def segment_move_count(segment: _Segment, rack: Rack, chains: bool) -> int:
    """How many moves a segment's rows make (blank variants included); `chains`: the
    rules' identity_chains."""
    place, groups = segment
    if place[7]:
        return touching_move_count(place, groups, rack, chains)
    # (A group's count includes its blank variants: see JoinGroup.)
    return sum([group[4] for group in groups])


def touching_move_count(
    place: SegmentPlace, groups: list[JoinGroup], rack: Rack, chains: bool
) -> int:
    """:func:`segment_move_count` of a segment that touches the board only through
    crossing runs under parallel_numbers, whose equations count only when one of its free
    squares shows an option with an equation crossing (see SegmentScoring.row): counted
    without rows. Whether an equation touches depends on each side's filling alone, so per
    group the equations that touch are all of them but those in which no side touches
    (joined as :func:`join_count` joins them)."""
    free_squares, free_crosses, _ = segment_free_squares(place)
    # Per free square: the characters whose option there has an equation crossing (None
    # when none has).
    touching: list[frozenset[str] | None] = []
    equals_touches: list[bool] = []
    # (Equal lengths; no `strict=`, whose keyword call is slow.)
    for sq, info in zip(free_squares, free_crosses):  # noqa: B905
        if info is None:
            touching.append(None)
            equals_touches.append(False)
            continue
        crossing = crossing_tables(sq, info)[0]
        shown = _TOUCHING_CHARACTERS.get(crossing, UNSPLIT)
        if shown is UNSPLIT:
            if len(_TOUCHING_CHARACTERS) >= 1 << 12:
                clear_tracked(_TOUCHING_CHARACTERS)
            shown = _TOUCHING_CHARACTERS[crossing] = (
                frozenset(
                    [character for option, character in CHARACTER_OPTIONS if crossing[option]]
                )
                or None
            )
        touching.append(shown)
        equals_touches.append(crossing[EQUALS_OPTION])
    count = 0
    blanks = rack.blanks
    known = rack.variant_counts
    # Consecutive groups mostly come from one join: where their sides' free squares are
    # is worked out once for them.
    last_positions: tuple[tuple[int, ...], ...] | None = None
    last_slot = -2
    equals_touch = False
    side_checks: list[list[tuple[int, frozenset[str]]]] = []
    for group in groups:
        equals_slot = group[1]
        positions = group[2]
        if positions is not last_positions or equals_slot != last_slot:
            last_positions = positions
            last_slot = equals_slot
            equals_touch = equals_slot >= 0 and equals_touches[equals_slot]
            side_checks = []
            index = 0
            for side_positions in positions:
                checks = []
                for at in side_positions:
                    if index == equals_slot:
                        index += 1
                    characters = touching[index]
                    if characters is not None:
                        checks.append((at, characters))
                    index += 1
                side_checks.append(checks)
        moves = group[4]
        if not equals_touch:
            # The equations in which no side touches: per side its plain fillings and all
            # its fillings (plain ones first) of which no free square touches.
            plains: list[int] = []
            alls: list[int] = []
            for checks, fillings in zip(side_checks, group[GROUP_SIDES:]):  # noqa: B905
                plain = fillings[0]
                if not checks:
                    plains.append(plain)
                    alls.append(len(fillings) - 1)
                    continue
                plain_apart = apart = 0
                for number, text in enumerate(fillings):
                    if number:
                        for at, characters in checks:
                            if text[at] in characters:
                                break
                        else:
                            apart += 1
                            if number <= plain:
                                plain_apart += 1
                plains.append(plain_apart)
                alls.append(apart)
            if len(alls) == 2:
                # (Two sides, nearly every group: no loops.)
                first_plain, second_plain = plains
                first_all, second_all = alls
                if chains:
                    apart = first_all * second_all
                else:
                    apart = first_all * second_plain + first_plain * (second_all - second_plain)
            elif chains:
                apart = 1
                for found in alls:
                    apart *= found
            else:
                # Plain in every side, or fragments in one (see join_count).
                apart = 1
                for found in plains:
                    apart *= found
                for side, found in enumerate(alls):
                    fragments = found - plains[side]
                    if fragments:
                        for other, plain in enumerate(plains):
                            if other != side:
                                fragments *= plain
                        apart += fragments
            if apart:
                # (The group counts moves, blank variants included: see JoinGroup.)
                if blanks:
                    variants = known.get(group[3])
                    apart *= variants if variants is not None else variant_count(rack, group[3])
                moves -= apart
        count += moves
    return count


#: Per crossing table (:func:`crossing_tables`): the characters of a side's text whose
#: option has an equation crossing, None when none has (see touching_move_count).
_TOUCHING_CHARACTERS: dict[tuple[bool, ...], frozenset[str] | None] = kept_tracked({})
