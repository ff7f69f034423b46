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
from .context import JoinGroup, KindParts, Rack
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
    if place[7]:
        return _read_touching_segment(segment, with_blanks, chains, rotated, whole_moves, rack)
    reader = _SegmentReader(place, with_blanks, chains, rotated, whole_moves, rack)
    for group in groups:
        if not group.more:
            reader.read_two_sided(group)
        else:
            reader.read_group(group)
    return reader.found


def _read_touching_segment(
    segment: _Segment,
    with_blanks: bool,
    chains: bool,
    rotated: bool,
    whole_moves: bool,
    rack: Rack | None,
) -> list[Any]:
    """:func:`read_segment` of a segment that touches only through crossings under
    parallel_numbers (rare): its equations that touch, through its scoring tables."""
    place, groups = segment
    found: list[Row] = []
    row_of = segment_scoring(place, with_blanks).row
    for group in groups:
        for filling in group_fillings(group, chains, rotated):
            row = row_of(filling)
            if row is not None:
                found.append(row)
    if not whole_moves:
        return found
    return plain_moves(found) if rack is None else batch_moves(rack, found)


#: A side's filling read on its free squares: (its text, as the run shows it; its options;
#: the points they add to the play's natural score).
_ReadSide = tuple[str, tuple[int, ...], int]
#: Per free square of a side: where it is in the side's text, and its reading (per
#: character: the option and the points it adds, see scoring.square_reading).
_SidePlaces = list[tuple[int, dict[str, tuple[int, int]]]]


class _SegmentReader:
    """What reads one segment's join groups into rows or moves: the segment's free squares
    with their readings (per character: option and points) and what a blank loses there,
    the moves or rows found, and the places of the sides of the last join read
    (consecutive groups mostly come from one join, so they are worked out once)."""

    def __init__(
        self,
        place: SegmentPlace,
        with_blanks: bool,
        chains: bool,
        rotated: bool,
        whole_moves: bool,
        rack: Rack | None,
    ) -> None:
        self.place = place
        self.with_blanks = with_blanks
        self.chains = chains
        self.rotated = rotated
        self.whole_moves = whole_moves
        self.rack = rack
        self.direction = place[0]
        self.bingo = place[6]
        self.found: list[Any] = []
        self.squares, self.word_multiplier, self.reading, self.blank_losses = _segment_tables(
            place, with_blanks
        )
        # Groups of three sides or more (a fixed `=` and the new one) are read through the
        # segment's scoring tables, made once for them all.
        self.scoring: SegmentScoring | None = None
        # The sides' places for the last join read (see place_sides).
        self.last_positions: tuple[tuple[int, ...], ...] | None = None
        self.last_slot = -2
        self.first_places: _SidePlaces = []
        self.second_places: _SidePlaces = []
        self.equals_points = 0
        self.equals_options: tuple[int, ...] = ()

    def read_group(self, group: JoinGroup) -> None:
        """A group of three sides or more, one equation at a time."""
        scoring = self.scoring
        if scoring is None:
            scoring = self.scoring = segment_scoring(self.place, self.with_blanks)
        rack = self.rack
        found = self.found
        for filling in group_fillings(group, self.chains, self.rotated):
            row = scoring.row(filling)
            if row is None:
                continue
            if not self.whole_moves:
                found.append(row)
            elif rack is None:
                found.append(GeneratedMove(row[0], row[1], (), row[5], row[2], row[3], row[4]))
            else:
                found.extend(batch_moves(rack, [row]))

    def read_two_sided(self, group: JoinGroup) -> None:
        """A group of two sides (the commonest case): each side's fillings read once
        (options, and points: letter points times the word multiplier plus crossing
        scores), then paired."""
        value, equals_slot, usage = group.value, group.equals_slot, group.usage
        free_positions = group.free_positions
        first_fillings, second_fillings = group.first, group.second
        if free_positions is not self.last_positions or equals_slot != self.last_slot:
            self.place_sides(free_positions, equals_slot)
        # (bonus inline: the leading bit of the value, 0 for 0 or below.)
        points = (
            (1 << (value.bit_length() - 1) if value > 0 else 0) * self.word_multiplier
            + self.bingo
            + self.equals_points
        )
        rotated = self.rotated
        for first_texts, second_texts in _kind_pairs(first_fillings, second_fillings, self.chains):
            first_read = _read_side(
                first_texts,
                first_fillings[0],
                self.first_places,
                rotated,
                "",
                points,
                self.equals_options,
            )
            second_read = _read_side(
                second_texts, second_fillings[0], self.second_places, rotated, "=", 0, ()
            )
            if self.rack is not None:
                self.pair_blank_moves(first_read, second_read, value, usage)
            elif self.whole_moves:
                self.pair_moves(first_read, second_read, value)
            else:
                self.pair_rows(first_read, second_read, value, usage)

    def place_sides(self, free_positions: tuple[tuple[int, ...], ...], equals_slot: int) -> None:
        """Each side's positions with its free squares' readings (the first side's are the
        segment's first ones, the second side's its last ones), and the new `=`'s."""
        self.last_positions = free_positions
        self.last_slot = equals_slot
        first_positions, second_positions = free_positions
        first_count = len(first_positions)
        reading = self.reading
        if equals_slot >= 0:
            self.equals_options = (EQUALS_OPTION,)
            self.equals_points = reading[first_count][EQUALS_CHARACTER][1]
            second_start = first_count + 1
        else:
            self.equals_options = ()
            self.equals_points = 0
            second_start = first_count
        # (No `strict=`: zip called with a keyword takes CPython 3.11's slow call path.)
        self.first_places = list(zip(first_positions, reading))  # noqa: B905
        self.second_places = list(zip(second_positions, reading[second_start:]))  # noqa: B905

    def pair_rows(
        self, firsts: list[_ReadSide], seconds: list[_ReadSide], value: int, usage: int
    ) -> None:
        """The rows of every pair of the two sides' fillings."""
        found = self.found
        squares, direction, blank_losses = self.squares, self.direction, self.blank_losses
        for text, first_options, gained in firsts:
            for second_text, second_options, second_points in seconds:
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

    def pair_moves(self, firsts: list[_ReadSide], seconds: list[_ReadSide], value: int) -> None:
        """The moves of every pair, for a rack without blanks: no row to make and unpack."""
        found = self.found
        squares, direction = self.squares, self.direction
        for text, first_options, gained in firsts:
            for second_text, second_options, second_points in seconds:
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

    def pair_blank_moves(
        self, firsts: list[_ReadSide], seconds: list[_ReadSide], value: int, usage: int
    ) -> None:
        """The moves of every pair for a rack with blanks: each way the rack can show the
        equation (:func:`realizations_of`), each scoring its natural score less what its
        blanks lose."""
        rack = self.rack
        assert rack is not None  # (moves with blanks have a rack)
        found = self.found
        squares, direction, blank_losses = self.squares, self.direction, self.blank_losses
        known_realizations = rack.realizations
        # With one blank, the field a group's usage is short of (every equation of a group
        # has its usage): the blank is on one of that field's squares (one_blank_fields).
        short = -1
        if rack.blanks == 1:
            pair = rack.short_fields.get(usage)
            short = (pair if pair is not None else one_blank_fields(rack, usage))[0]
        for text, first_options, gained in firsts:
            for second_text, second_options, second_points in seconds:
                every_option = first_options + second_options
                realizations = known_realizations.get(every_option)
                if realizations is None:
                    realizations = known_realizations[every_option] = _blank_squares(
                        rack, every_option, short
                    )
                natural_score = gained + second_points
                whole_text = text + second_text
                for blanks in realizations:
                    score = natural_score
                    for position in blanks:
                        score -= blank_losses[position][every_option[position]]
                    found.append(
                        GeneratedMove(
                            squares, every_option, blanks, score, whole_text, value, direction
                        )
                    )


def _segment_tables(
    place: SegmentPlace, with_blanks: bool
) -> tuple[tuple[int, ...], int, list[dict[str, tuple[int, int]]], list[tuple[int, ...]]]:
    """What the rows of a segment need of the scoring tables: its free squares, their word
    multiplier, per free square its reading (:func:`square_reading`) and what a blank loses
    there (with blanks)."""
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
    return tuple(free_squares), word_multiplier, reading, blank_losses


def _kind_pairs(
    first_fillings: KindParts, second_fillings: KindParts, chains: bool
) -> list[tuple[list[Any], list[Any]]]:
    """Which of each side's fillings (see KindParts) pair: read in place, each list's head
    (its count) skipped as it comes, under identity_chains (kinds pair freely) or when each
    side's fillings are of one kind; sliced by kind only otherwise (plain with any,
    fragments with plain)."""
    if chains:
        return [(first_fillings, second_fillings)]
    first_head = first_fillings[0]
    second_head = second_fillings[0]
    first_end = first_head + 1
    second_end = second_head + 1
    if (not first_head or first_end == len(first_fillings)) and (
        not second_head or second_end == len(second_fillings)
    ):
        # One kind a side: one pair at most (fragments in both are not joined).
        return [(first_fillings, second_fillings)] if first_head or second_head else []
    # (Slices hold no count: the heads skip nothing in them. Only pairs of fillings on both
    # sides.)
    first_plain = first_fillings[1:first_end]
    second_plain = second_fillings[1:second_end]
    pairs = [(first_plain, second_plain)] if first_head and second_head else []
    if second_head and len(first_fillings) > first_end:
        pairs.append((first_fillings[first_end:], second_plain))
    if first_head and len(second_fillings) > second_end:
        pairs.append((first_plain, second_fillings[second_end:]))
    return pairs


def _read_side(
    texts: list[Any],
    head: Any,
    places: _SidePlaces,
    rotated: bool,
    prefix: str,
    points: int,
    suffix: tuple[int, ...],
) -> list[_ReadSide]:
    """A side's fillings read on their free squares (:data:`_ReadSide`): `prefix` before
    each text, `suffix` after its options (the new `=` after the first side's), `points`
    added to each; the list's count `head` is skipped (see :func:`_kind_pairs`)."""
    found = []
    for text in texts:
        if text is head:
            continue  # the list's count
        options = []
        gained = points
        for at, table in places:
            option, option_points = table[text[at]]
            options.append(option)
            gained += option_points
        if suffix:
            options.extend(suffix)
        if rotated:
            text = text.replace(ROTATED_CHARACTER, "11")
        found.append((prefix + text if prefix else text, tuple(options), gained))
    return found


def _blank_squares(rack: Rack, options: tuple[int, ...], short: int) -> list[tuple[int, ...]]:
    """:func:`realizations_of` for an equation of a segment: with one blank and a `short`
    field, the blank is on a square of that field (in square order, as
    one_blank_realizations lists them)."""
    if short >= 0:
        found: list[tuple[int, ...]] = []
        position = 0
        for option in options:
            if OPTION_FIELD[option] == short:
                found.append((position,))
            position += 1  # noqa: SIM113 (cheaper than enumerate)
        return found
    if rack.blanks == 1:
        return one_blank_realizations(rack, options)
    return searched_realizations(rack, options)


def segment_move_count(segment: _Segment, rack: Rack, chains: bool) -> int:
    """How many moves a segment's rows make (blank variants included); `chains`: the
    rules' identity_chains."""
    place, groups = segment
    if place[7]:
        return touching_move_count(place, groups, rack, chains)
    # (A group's count includes its blank variants: see JoinGroup.)
    return sum([group.count for group in groups])


def touching_move_count(
    place: SegmentPlace, groups: list[JoinGroup], rack: Rack, chains: bool
) -> int:
    """:func:`segment_move_count` of a segment that touches the board only through
    crossing runs under parallel_numbers, whose equations count only when one of its free
    squares shows an option with an equation crossing (see SegmentScoring.row): counted
    without rows. Whether an equation touches depends on each side's filling alone, so per
    group the equations that touch are all of them but those in which no side touches
    (joined as :func:`join_count` joins them)."""
    touching, equals_touches = _touching_characters(place)
    count = 0
    known = rack.variant_counts
    # Consecutive groups mostly come from one join: where their sides' free squares are
    # is worked out once for them.
    last_positions: tuple[tuple[int, ...], ...] | None = None
    last_slot = -2
    equals_touch = False
    side_checks: list[list[tuple[int, frozenset[str]]]] = []
    for group in groups:
        equals_slot = group.equals_slot
        positions = group.free_positions
        if positions is not last_positions or equals_slot != last_slot:
            last_positions = positions
            last_slot = equals_slot
            equals_touch = equals_slot >= 0 and equals_touches[equals_slot]
            side_checks = _side_checks(positions, equals_slot, touching)
        moves = group.count
        if not equals_touch:
            apart = _apart_count(side_checks, group.parts, chains)
            if apart:
                # (The group counts moves, blank variants included: see JoinGroup.)
                if rack.blanks:
                    usage = group.usage
                    variants = known.get(usage)
                    apart *= variants if variants is not None else variant_count(rack, usage)
                moves -= apart
        count += moves
    return count


def _touching_characters(place: SegmentPlace) -> tuple[list[frozenset[str] | None], list[bool]]:
    """Per free square of a segment: the characters whose option there has an equation
    crossing (None when none has), and whether the new `=` there has one."""
    free_squares, free_crosses, _ = segment_free_squares(place)
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
    return touching, equals_touches


def _side_checks(
    positions: tuple[tuple[int, ...], ...],
    equals_slot: int,
    touching: list[frozenset[str] | None],
) -> list[list[tuple[int, frozenset[str]]]]:
    """Per side of a join: (position in its text, characters that touch) for each of its
    free squares where some option touches."""
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
    return side_checks


def _apart_count(
    side_checks: list[list[tuple[int, frozenset[str]]]],
    sides: tuple[KindParts, ...],
    chains: bool,
) -> int:
    """The equations of a group in which no side touches: per side its plain fillings and
    all its fillings (plain ones first) of which no free square touches, joined as
    :func:`join_count` joins them."""
    plains: list[int] = []
    alls: list[int] = []
    for checks, fillings in zip(side_checks, sides):  # noqa: B905
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
            return first_all * second_all
        return first_all * second_plain + first_plain * (second_all - second_plain)
    if chains:
        apart = 1
        for found in alls:
            apart *= found
        return apart
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
    return apart


#: Per crossing table (:func:`crossing_tables`): the characters of a side's text whose
#: option has an equation crossing, None when none has (see touching_move_count).
_TOUCHING_CHARACTERS: dict[tuple[bool, ...], frozenset[str] | None] = kept_tracked({})
