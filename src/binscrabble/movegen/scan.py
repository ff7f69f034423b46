"""The board scan: every line, every stretch of squares a play could fill there (a segment)
and its shape, cross-checks and score bounds; the segments' equations are found by
:mod:`.join` and kept (every move) or read best first (best moves).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, cast

from binscrabble.board import (
    ACROSS,
    CENTER,
    DOWN,
    LETTER_MULTIPLIERS,
    SIZE,
    WORD_MULTIPLIERS,
    Board,
    Direction,
    Tile,
)
from binscrabble.expr import EquationError, bonus, number_value
from binscrabble.rules import BLANK, TILE_POINTS, Rules

from .blanks import realizations_of
from .bounds import (
    BONUS_BOUNDS,
    CROSSING_SHIFT,
    DIGIT_BONUS_BOUNDS,
    DIGITS_SHIFT,
    DOUBLED_SHIFT,
    FIELD_BYTE,
    FREE_SHIFT,
    SIDE_BONUS_BOUNDS,
    SQUARE_BOUNDS,
    SQUARE_FIELDS,
    TRIPLED_SHIFT,
    WIDTH_SHIFT,
    WORD_MASK,
    WORD_PRODUCTS,
    WORD_SHIFT,
    BestScores,
    most_points,
    square_bound_fields,
)
from .caches import clear_tracked
from .context import Context, CrossInfo, JoinGroup, Rack
from .crosscheck import CROSS_EQUATION, cross_info, rules_cross_cache
from .fillings import group_fillings
from .generated import GeneratedMove, Row, row_moves
from .grammar import CANNOT_END, CANNOT_START
from .join import segment_groups
from .options import (
    ALL_OPTIONS,
    DIGIT_OPTIONS,
    EQUALS_OPTION,
    OPERAND_END_OPTIONS,
    OPERAND_START_OPTIONS,
    OPTION_COUNT,
    OPTION_POINTS,
    OPTION_TEXTS,
    OPTION_USAGE,
    ROTATED,
    blank_option_mask,
)
from .rows import FoundRows
from .scoring import SegmentPlace, SegmentScoring, segment_scoring
from .usage import make_context

#: A line beyond the board's edge (no tiles).
_NO_LINE: Final[list[Tile | None]] = [None] * SIZE


def _line_squares(direction: Direction, line: int) -> range:
    if direction == ACROSS:
        return range(line * SIZE, line * SIZE + SIZE)
    return range(line, SIZE * SIZE, SIZE)


def _perpendicular_texts(cells: Sequence[Tile | None], sq: int, step: int) -> tuple[str, str]:
    """The texts of the tiles right before and after `sq` along `step` (ACROSS or DOWN)."""
    # Crossing runs are short: strings joined as they are read beat a list and a join.
    # (`step` is a plain int, 1 for ACROSS: comparing it with the IntEnum is slower.)
    if step == 1:
        low = sq - sq % SIZE
        high = low + SIZE - 1
    else:
        low = sq % SIZE
        high = low + SIZE * (SIZE - 1)
    before = ""
    current = sq - step
    while current >= low:
        tile = cells[current]
        if tile is None:
            break
        before = tile.text + before
        current -= step
    after = ""
    current = sq + step
    while current <= high:
        tile = cells[current]
        if tile is None:
            break
        after += tile.text
        current += step
    return before, after


#: Per direction (ACROSS, DOWN), the squares a segment in that direction must cover so
#: that a run of its plays contains one of the squares asked for (see touch_keys_of).
_TouchKeys = tuple[frozenset[int], frozenset[int]]


def touch_keys_of(cells: Sequence[Tile | None], touching: Iterable[int]) -> _TouchKeys:
    """The squares a segment must cover for its plays to touch one of `touching`.

    Every empty square of a segment is filled by the play, so whether a play has a run
    through a square depends only on its segment: its main run is the segment itself, and
    the crossing run through one of its new tiles reaches an occupied square `s` exactly when
    that new tile stands on the empty square just beyond the tiles joined to `s` across the
    line. So a segment along a direction qualifies when it covers a square asked for (an
    empty one is then filled) or one of those ends of the crossing direction's tile blocks.
    """
    squares: set[int] = set()
    # (Read as objects: the compiled module would reject a non-integer before the check.)
    for sq in cast("Iterable[object]", touching):
        if not isinstance(sq, int):
            raise TypeError(f"touching holds {sq!r}, not a square index")
        if not 0 <= sq < SIZE * SIZE:
            raise ValueError(f"touching holds {sq}, not a square index (0 to {SIZE * SIZE - 1})")
        squares.add(int(sq))
    keys: list[frozenset[int]] = []
    for direction in (ACROSS, DOWN):
        # Crossing runs of a play along `direction` go the other way.
        step = direction.other
        found = set(squares)
        for sq in squares:
            if cells[sq] is None:
                continue
            if step == ACROSS:
                low, high = sq - sq % SIZE, sq - sq % SIZE + SIZE - 1
            else:
                low, high = sq % SIZE, sq % SIZE + SIZE * (SIZE - 1)
            current = sq
            while current > low and cells[current - step] is not None:
                current -= step
            if current > low:
                found.add(current - step)
            current = sq
            while current < high and cells[current + step] is not None:
                current += step
            if current < high:
                found.add(current + step)
        keys.append(frozenset(found))
    return keys[0], keys[1]


#: A line as the scan reads it: per square its tiles' text (None when empty, and a None past
#: the end), its options mask, its cross-check; the line indexes a segment must reach one
#: of (its tiles and the squares with a crossing run, then _PAST_LINE); and for best moves
#: the running sums of the squares' packed bounds (see bounds.py) and where its `=` tiles
#: are.
_Line = tuple[
    list["str | None"], list[int], list["CrossInfo | None"], list[int], list[int], list[int]
]


def search(
    board: Board,
    rack: str,
    rules: Rules,
    limit: int | None,
    touch_keys: _TouchKeys | None = None,
    min_score: int | None = None,
) -> tuple[Rack, FoundRows, list[GeneratedMove]]:
    """Find every legal placement: as rows to be made when read (no `limit`) or, with
    `limit`, as the moves that may be among the `limit` best (and, with `min_score`, score
    at least that); with `touch_keys`, only those whose segment covers one of its squares of
    the segment's direction (see touch_keys_of)."""
    group_cache: dict[tuple[str | int, ...], list[JoinGroup]]
    if limit is None or BLANK in rack:
        # A blank's fillings are many (tens of megabytes with two blanks), and the
        # simulation's rollouts ask for racks without blanks (the opponent's are swapped
        # into the bag, our answer's stand for 1s): such a context is not kept.
        context = make_context(rack, rules)
        group_cache = {}
    else:
        context, group_cache = _kept_context(rack, rules)
    rows = FoundRows(context.blanks > 0, rules.identity_chains, rules.rotated_equals)
    moves: list[GeneratedMove] = []
    if not rack:
        return context.rack, rows, moves
    keeper = BestScores(limit, min_score) if limit is not None else None
    scan = _Scan(board, rack, context, group_cache, rows, keeper)
    for direction in (ACROSS, DOWN):
        direction_keys = None if touch_keys is None else touch_keys[direction != ACROSS]
        for line in range(SIZE):
            scan.scan_line(direction, line, direction_keys)
    if keeper is not None:
        scan.emit_best(moves.append)
    if rules.parallel_numbers and not scan.first_play:
        lone_rows: list[Row] = []
        # A lone digit's runs are its across and down runs: it touches a key square of
        # either direction's segments.
        candidates = None if touch_keys is None else touch_keys[0] | touch_keys[1]
        _lone_digits_beside_numbers(context, board.cells, lone_rows.append, candidates)
        if keeper is None:
            rows.extra.extend(lone_rows)
        else:
            moves = _with_lone_moves(context.rack, moves, lone_rows, min_score)
    return context.rack, rows, moves


def _with_lone_moves(
    rack: Rack, moves: list[GeneratedMove], lone_rows: list[Row], min_score: int | None
) -> list[GeneratedMove]:
    """A best-moves search's moves, with those of the lone digits' rows (parallel_numbers)
    added, then those under `min_score` left out."""
    for row in lone_rows:
        moves.extend(row_moves(rack, row))
    if min_score is not None:
        moves = [move for move in moves if move.score >= min_score]
    return moves


def _usable_rack_size(rack: str, rules: Rules) -> int:
    """How many tiles of `rack` one play can put down: at most one `=` goes down as an `=`
    (docs/rules.md §4), the others only rotated, under rotated_equals. A segment needs one tile
    per free square, so with two `=` or more on a rack (common late in a game), the
    longest segments cannot be filled at all."""
    equals_count = rack.count("=")
    if equals_count > 1 and not rules.rotated_equals:
        return len(rack) - (equals_count - 1)
    return len(rack)


def _top_points(rack: str) -> list[int]:
    """The most letter points k tiles of the rack can score on plain squares, by k: the sum
    of its k best natural tiles' points (a blank scores none). A segment's new tiles are
    distinct rack tiles, so on t triple-letter, d double-letter and k free squares in all
    they score at most top[t] + top[t + d] + top[k] (the best tiles on the best squares):
    far below the sum of each square's best option when the rack holds one tile worth
    more than the others (a `/` is worth 4, an `x` 2)."""
    top = [0]
    for points in sorted((TILE_POINTS[code] for code in rack if code != BLANK), reverse=True):
        top.append(top[-1] + points)
    top.extend([top[-1]] * (len(rack) + 1 - len(top)))
    return top


def _top_digits(rack: str, rotated: bool) -> list[int]:
    """The most digit characters k tiles of the rack can write, by k: a 0 or a 1 one, a
    blank one (two as a rotated `=`, "11"), an `=` two when it may go down rotated. An
    equation's value is below 2 ** the digits of either side (see DIGIT_BONUS_BOUNDS)."""
    rotated_digits = 2 if rotated else 0
    digit_counts = {"0": 1, "1": 1, BLANK: max(1, rotated_digits), "=": rotated_digits}
    top = [0]
    for digits in sorted((digit_counts.get(code, 0) for code in rack), reverse=True):
        top.append(top[-1] + digits)
    return top


def _line_keys(squares: range, keys: frozenset[int]) -> list[int]:
    """Line indexes of the squares of `keys` on a line of `squares`."""
    return [index for index, sq in enumerate(squares) if sq in keys]


def _may_open(texts: list[str | None], masks: list[int], start: int, can_start: int) -> bool:
    """Whether a segment may start at `start` of a line read as `texts` and `masks`: not
    right after a tile (at start 0 this reads the sentinel, ``texts[-1]``), and on a square
    that can start an equation."""
    if texts[start - 1] is not None:
        return False
    first_text = texts[start]
    if first_text is None:
        return masks[start] & can_start != 0
    return first_text[0] not in CANNOT_START


class _Scan:
    """One search's walk over the board: what every line and segment needs of the call
    (the rack's context, the options it can show, score bounds for best moves), and what
    the walk finds: the segments with their equations (every move), or the segments with
    their score bounds, searched afterwards best bound first (best moves)."""

    def __init__(
        self,
        board: Board,
        rack: str,
        context: Context,
        group_cache: dict[tuple[str | int, ...], list[JoinGroup]],
        rows: FoundRows,
        keeper: BestScores | None,
    ) -> None:
        rules = context.rules
        self.context = context
        self.rules = rules
        self.group_cache = group_cache
        self.rows = rows
        self.keeper = keeper
        self.cells = board.cells
        self.first_play = board.is_empty()
        # Cross-checks only try what this rack can put down.
        wanted = context.wanted
        self.wanted = wanted
        # What a segment's first and last free squares must allow (see
        # OPERAND_START_OPTIONS).
        self.can_start = wanted & OPERAND_START_OPTIONS
        self.can_end = wanted & OPERAND_END_OPTIONS
        # A free square may take the new `=` when its mask has this bit.
        self.equals_bit = 1 << EQUALS_OPTION if context.equals_usable else 0
        self.cross_cache = rules_cross_cache(rules)
        self.blank_options = blank_option_mask(rules)
        self.rack_size = _usable_rack_size(rack, rules)
        # Where the new `=` may go among a segment's first `k` squares when they are free
        # squares that cross nothing (see walk): any but the first.
        self.leading_places: list[list[tuple[int, int]]] = [
            [(index, index) for index in range(1, lead)] if self.equals_bit else []
            for lead in range(self.rack_size + 1)
        ]
        self.bingo = rules.bingo_bonus
        self.full_rack = rules.rack_size
        self.parallel = rules.parallel_numbers
        # A free square reads as one character, or two when it may hold a rotated `=`.
        rotated = wanted >> ROTATED & 1 == 1
        self.natural_mask = sum(
            1 << option for option, usable in enumerate(context.natural) if usable
        )
        # The most points a natural tile scores on a plain square without crossing run.
        self.plain_points = most_points(wanted & self.natural_mask)
        self.square_fields = SQUARE_FIELDS[2 if rotated else 1]
        self.top_points = _top_points(rack)
        self.top_digits = _top_digits(rack, rotated)
        # Without best moves (no score bounds summed per square), a line is read for its
        # tiles and crossing runs only (_plain_line).
        self.plain_scan = keeper is None and not self.first_play
        # Best moves: the segments found, with their bounds (see segment_bound).
        self.segments: list[tuple[tuple[str | int, ...], SegmentPlace]] = []
        self.bounds: list[int] = []
        self.score_parts: list[tuple[int, int, int]] = []

    def scan_line(self, direction: Direction, line: int, keys: frozenset[int] | None) -> None:
        """Find the segments of one line (with `keys`, only those covering one of them)."""
        squares = _line_squares(direction, line)
        # Line indexes of the squares a segment here must cover (every index when the
        # search is not restricted): lines without any are skipped, scan and all.
        line_keys = None if keys is None else _line_keys(squares, keys)
        if line_keys is not None and not line_keys:
            return
        if self.plain_scan:
            read = self.plain_line(direction, line, squares)
        else:
            read = self.bounded_line(direction, squares)
        if read is None:
            return
        anchors = read[3]
        # The next anchor at or after the start (anchors end with _PAST_LINE).
        next_anchor = 0
        # No segment starting more free squares before the line's first anchor than the
        # rack can fill reaches it: the walk starts no earlier.
        rack_size = self.rack_size
        first_start = anchors[0] - rack_size
        texts, masks = read[0], read[1]
        can_start = self.can_start
        for start in range(first_start if first_start > 0 else 0, SIZE):
            if not _may_open(texts, masks, start, can_start):
                continue
            # A segment must hold a tile or a square with a crossing run (but the first
            # play): none is reached from here when the rack cannot fill the free squares
            # before the first one, nor from any later start past the last.
            while anchors[next_anchor] < start:
                next_anchor += 1
            anchor = anchors[next_anchor]
            if anchor - start > rack_size:
                if anchor == _PAST_LINE:
                    return
                continue
            # A segment from here ends at `shortest` or later: an equation takes three
            # squares at least (a digit, `=`, a digit), the segment must reach the first
            # anchor (so it touches the board) and the first key square at or after `start`.
            shortest = anchor if anchor >= start + 2 else start + 2
            if line_keys is not None:
                need = next((index for index in line_keys if index >= start), SIZE)
                if need == SIZE:
                    return
                shortest = max(shortest, need)
            self.walk(direction, squares, read, start, anchor, shortest)

    def plain_line(self, direction: Direction, line: int, squares: range) -> _Line | None:
        """A line read for every move (no bounds): None when it holds no anchor. The lists
        are made whole (a free square without crossing run, and the sentinel past the
        line's end); only the squares that differ are written. A square has a crossing run
        when the line before or after this one (read as slices of the board) holds a tile
        beside it."""
        cells = self.cells
        texts: list[str | None] = [None] * (SIZE + 1)
        masks = [ALL_OPTIONS] * SIZE
        crosses: list[CrossInfo | None] = [None] * SIZE
        if direction == ACROSS:
            low = line * SIZE
            line_before = cells[low - SIZE : low] if line else _NO_LINE
            line_after = cells[low + SIZE : low + 2 * SIZE] if line < SIZE - 1 else _NO_LINE
        else:
            line_before = cells[line - 1 :: SIZE] if line else _NO_LINE
            line_after = cells[line + 1 :: SIZE] if line < SIZE - 1 else _NO_LINE
        # A plain int: arithmetic on an IntEnum takes the interpreter's slow path.
        cross_step = int(direction.other)
        cross_cache = self.cross_cache
        wanted = self.wanted
        # Line indexes of the tiles and of the squares with a crossing run: a segment must
        # hold one.
        anchors = []
        index = 0
        for sq in squares:
            tile = cells[sq]
            if tile is not None:
                texts[index] = tile.text
                masks[index] = 0
                anchors.append(index)
            elif line_before[index] is not None or line_after[index] is not None:
                anchors.append(index)
                before, after = _perpendicular_texts(cells, sq, cross_step)
                info = cross_cache.get((before, after, wanted))
                if info is None:
                    info = cross_info(
                        before, after, self.rules, wanted, cross_cache, self.blank_options
                    )
                masks[index] = info[0]
                crosses[index] = info
            index += 1  # noqa: SIM113 (enumerate costs more per square)
        if not anchors:
            return None
        anchors.append(_PAST_LINE)
        return texts, masks, crosses, anchors, [], []

    def bounded_line(self, direction: Direction, squares: range) -> _Line | None:
        """A line read with what bounds its segments' scores (best moves, and the first
        play): None when it holds no anchor. Per square its packed bounds (see bounds.py)
        are summed from the line's start: sums[j] covers the squares before index j, so a
        segment's sums are one subtraction."""
        cells = self.cells
        first_play = self.first_play
        bounded = self.keeper is not None
        texts: list[str | None] = []
        masks: list[int] = []
        crosses: list[CrossInfo | None] = []
        sums = [0]
        # Line indexes of the `=` tiles (for best moves' bonus bounds).
        equals_at: list[int] = []
        # Line indexes of the tiles and the squares with a crossing run: a play must touch
        # one (but the first), so a line without either holds no segment.
        anchors = []
        across = direction == ACROSS
        for sq in squares:
            tile = cells[sq]
            if tile is not None:
                anchors.append(len(texts))
                texts.append(tile.text)
                masks.append(0)
                crosses.append(None)
                if bounded:
                    sums.append(sums[-1] + _tile_fields(tile.text))
                    if tile.text == "=":
                        equals_at.append(len(texts) - 1)
                continue
            texts.append(None)
            # Most empty squares have no tile beside them across the line: looking at the
            # two neighbours first spares reading the crossing texts.
            if first_play or not _has_crossing(cells, sq, across):
                masks.append(ALL_OPTIONS)
                crosses.append(None)
                if bounded:
                    sums.append(
                        sums[-1]
                        + self.square_fields[sq]
                        + self.plain_points * LETTER_MULTIPLIERS[sq]
                    )
                continue
            anchors.append(len(texts) - 1)
            before, after = _perpendicular_texts(cells, sq, int(direction.other))
            info = self.cross_cache.get((before, after, self.wanted))
            if info is None:
                info = cross_info(
                    before, after, self.rules, self.wanted, self.cross_cache, self.blank_options
                )
            masks.append(info[0])
            crosses.append(info)
            if bounded:
                bounds = self.crossed_bounds(sq, before, after, info)
                sums.append(sums[-1] + self.square_fields[sq] + bounds)
        if first_play:
            anchors = _EVERY_INDEX  # the first play need not touch anything
        elif not anchors:
            return None
        else:
            anchors.append(_PAST_LINE)
        # A sentinel past the line's end: a segment may end where the next text is None.
        texts.append(None)
        return texts, masks, crosses, anchors, sums, equals_at

    def crossed_bounds(self, sq: int, before: str, after: str, info: CrossInfo) -> int:
        """The packed letter and crossing bounds of an empty square with a crossing run:
        they depend on its crossing texts and the rack only, so they are kept across calls
        (the boards of a rollout differ little)."""
        wanted = self.wanted
        square_key = (sq, before, after, wanted, self.natural_mask)
        found = SQUARE_BOUNDS.get(square_key)
        if found is None:
            found = square_bound_fields(sq, info, wanted, self.natural_mask)
            if len(SQUARE_BOUNDS) >= 1 << 16:
                clear_tracked(SQUARE_BOUNDS)
            SQUARE_BOUNDS[square_key] = found
        return found

    def walk(
        self,
        direction: Direction,
        squares: range,
        read: _Line,
        start: int,
        anchor: int,
        shortest: int,
    ) -> None:
        """Every segment from `start`, grown square by square (the segments from one start
        are each other's beginnings), each that may hold an equation handed on
        (:meth:`segment`). The squares before the anchor are free and cross nothing, so
        they allow every option: their part of the walk is written at once (the segment
        cannot end before the anchor), and the walk goes on from it."""
        texts, masks = read[0], read[1]
        rack_size = self.rack_size
        equals_bit = self.equals_bit
        can_end = self.can_end
        lead = anchor - start
        free = lead
        touches = False
        # An equation needs an `=`: one on the board, or a free square the rack's `=` (or a
        # blank) may take.
        may_equal = lead > 0 and equals_bit != 0
        # The segment's shape (see join.py), grown square by square.
        items: list[str | int] = [ALL_OPTIONS] * lead
        # Where the new `=` may go (see segment_groups), and whether a tile of the segment
        # is an `=`.
        equals_places = self.leading_places[lead][:]
        fixed_equals = False
        # Whether the last item is tiles, and their text (neighbouring tiles join).
        after_tile = False
        block = ""
        mask = 0
        for end in range(anchor, SIZE):
            text = texts[end]
            if text is None:
                free += 1
                if free > rack_size:
                    return
                mask = masks[end]
                if mask == 0:
                    return  # nothing may go here, and every segment through it fails
                items.append(mask)
                after_tile = False
                if mask & equals_bit:
                    may_equal = True
                    if end != start:  # not the first item
                        equals_places.append((len(items) - 1, free - 1))
            else:
                touches = True
                if "=" in text:
                    may_equal = fixed_equals = True
                if after_tile:
                    block += text
                    items[-1] = block
                else:
                    block = text
                    items.append(block)
                    after_tile = True
            if texts[end + 1] is not None:
                continue
            if not may_equal or free == 0 or end < shortest:
                continue
            if text is None:
                if not mask & can_end:
                    continue
            elif text[-1] in CANNOT_END:
                continue
            ends = (start, end, free)
            self.segment(
                direction, squares, read, ends, touches, items, equals_places, fixed_equals
            )

    def segment(
        self,
        direction: Direction,
        squares: range,
        read: _Line,
        ends: tuple[int, int, int],
        touches: bool,
        items: list[str | int],
        equals_places: list[tuple[int, int]],
        fixed_equals: bool,
    ) -> None:
        """A segment the walk found, from `start` to `end` with `free` free squares (`ends`),
        that may hold an equation: kept with its join groups (every move) or its bound
        (best moves), unless the first play misses H8 or it is a lone tile counted across."""
        start, end, free = ends
        if self.first_play and (free < 3 or CENTER not in squares[start : end + 1]):
            return
        texts = read[0]
        if free == 1 and direction != ACROSS and self.counted_across(squares, texts, start, end):
            return
        place = (
            direction,
            squares,
            texts,
            read[2],
            start,
            end,
            self.bingo if free == self.full_rack else 0,
            # Under parallel_numbers a segment touching only through crossings must check
            # that its equations touch.
            self.parallel and not touches and not self.first_play,
        )
        if self.keeper is None:
            self.keep_segment(tuple(items), place, equals_places, fixed_equals)
        else:
            self.bound_segment(tuple(items), place, read, free)

    def counted_across(self, squares: range, texts: list[str | None], start: int, end: int) -> bool:
        """Whether a down segment of one free square is counted as an across play instead
        (its tile has a neighbour across: see play_direction)."""
        cells = self.cells
        lone = next(squares[i] for i in range(start, end + 1) if texts[i] is None)
        column = lone % SIZE
        return (column > 0 and cells[lone - 1] is not None) or (
            column < SIZE - 1 and cells[lone + 1] is not None
        )

    def keep_segment(
        self,
        shape: tuple[str | int, ...],
        place: SegmentPlace,
        equals_places: list[tuple[int, int]],
        fixed_equals: bool,
    ) -> None:
        """Every move: the segment's join groups, found (or kept by shape) at once, kept
        with where the segment is (for its scoring tables) when it has equations. (Under
        parallel_numbers, with a touch check, some equations may not touch: they are left
        out when read, and counted without rows, rows.touching_move_count.)"""
        groups = self.group_cache.get(shape)
        if groups is None:
            places = equals_places
            if places and places[-1][0] == len(shape) - 1:
                places = places[:-1]  # not at the end
            groups = self.group_cache[shape] = segment_groups(
                self.context, shape, None, places, fixed_equals
            )[0]
        if groups:
            self.rows.segments.append((place, groups))

    def bound_segment(
        self, shape: tuple[str | int, ...], place: SegmentPlace, read: _Line, free: int
    ) -> None:
        """Best moves: the segment's score bound, its letter points (the sum of each free
        square's best, or the rack's best tiles on its best squares, whichever is less)
        plus the bonus, times the word multipliers, plus the crossing runs' scores and the
        bingo; the segment is kept to be searched in the order of its bound."""
        keeper = self.keeper
        assert keeper is not None  # (only best moves bound segments)
        sums, equals_at = read[4], read[5]
        start, end, segment_bingo = place[4], place[5], place[6]
        top_points = self.top_points
        fields = sums[end + 1] - sums[start]
        letters = fields & FIELD_BYTE
        tripled = fields >> TRIPLED_SHIFT & FIELD_BYTE
        best_letters = (
            top_points[tripled]
            + top_points[tripled + (fields >> DOUBLED_SHIFT & FIELD_BYTE)]
            + top_points[free]
        )
        if letters < best_letters:
            best_letters = letters
        word = WORD_PRODUCTS[fields >> WORD_SHIFT & WORD_MASK]
        crossing = (fields >> CROSSING_SHIFT) + segment_bingo
        bonus_bound = BONUS_BOUNDS[fields >> WIDTH_SHIFT & FIELD_BYTE]
        digits = (fields >> DIGITS_SHIFT & FIELD_BYTE) + self.top_digits[free]
        if DIGIT_BONUS_BOUNDS[digits] < bonus_bound:
            bonus_bound = DIGIT_BONUS_BOUNDS[digits]
        if equals_at and equals_at[-1] >= start:
            side_bound = self.sides_bonus_bound(sums, equals_at, start, end)
            if side_bound < bonus_bound:
                bonus_bound = side_bound
        bound = (best_letters + bonus_bound) * word + crossing
        if bound < keeper.floor:
            # Below the floor before any segment is searched (min_score): it never will be.
            return
        self.segments.append((shape, place))
        self.bounds.append(bound)
        self.score_parts.append((best_letters, word, crossing))

    def sides_bonus_bound(self, sums: list[int], equals_at: list[int], start: int, end: int) -> int:
        """With `=` tiles in the segment, each stretch between them (and the segment's ends)
        is a side, or holds several: the value is below 2 ** the digits it can hold,
        whichever is fewest."""
        stops = [at for at in equals_at if start <= at <= end]
        stops.append(end + 1)  # the last stretch ends with the segment
        side_start = start
        fewest = SIZE * 2
        for stop in stops:
            side = sums[stop] - sums[side_start]
            side_digits = (side >> DIGITS_SHIFT & FIELD_BYTE) + self.top_digits[
                side >> FREE_SHIFT & FIELD_BYTE
            ]
            if side_digits < fewest:
                fewest = side_digits
            side_start = stop + 1
        return SIDE_BONUS_BOUNDS[fewest]

    def emit_best(self, emit: Callable[[Any], None]) -> None:
        """Best moves: search the segments, most promising first; stop once no later one
        can reach the floor."""
        keeper = self.keeper
        assert keeper is not None  # (only best moves keep bounded segments)
        bounds = self.bounds
        order = sorted(range(len(self.segments)), key=bounds.__getitem__, reverse=True)
        for index in order:
            if bounds[index] < keeper.floor:
                break
            shape, place = self.segments[index]
            _emit_segment(
                self.context, shape, place, self.group_cache, emit, keeper, self.score_parts[index]
            )


def _tile_fields(text: str) -> int:
    """The packed bound fields of a tile's square (see bounds.py): its width and digits."""
    return (len(text) << WIDTH_SHIFT) + ((text.count("0") + text.count("1")) << DIGITS_SHIFT)


def _has_crossing(cells: Sequence[Tile | None], sq: int, across: bool) -> bool:
    """Whether an empty square has a tile beside it across the line (a crossing run)."""
    if across:
        return (sq >= SIZE and cells[sq - SIZE] is not None) or (
            sq < SIZE * (SIZE - 1) and cells[sq + SIZE] is not None
        )
    return (sq % SIZE != 0 and cells[sq - 1] is not None) or (
        sq % SIZE != SIZE - 1 and cells[sq + 1] is not None
    )


#: Past every line index: ends a line's list of anchors (see search).
_PAST_LINE: Final = 4 * SIZE
#: The anchors of a line on the empty board (the first play need not touch a tile).
_EVERY_INDEX: Final = [*range(SIZE), _PAST_LINE]


#: Best moves keep the context of the last few racks, per thread (:func:`_kept_context`).
KEPT: Final = threading.local()
#: How many racks' contexts a thread keeps; and the most sides one may hold before it is
#: started afresh (a few megabytes; a heavy position enumerates some 300 sides).
KEPT_RACKS: Final = 3
_KEPT_SIDES: Final = 4000


def _kept_context(
    rack: str, rules: Rules
) -> tuple[Context, dict[tuple[str | int, ...], list[JoinGroup]]]:
    """The context of `rack` under `rules` for best moves, with its complete join groups
    by shape, kept across calls.

    Everything a context caches (side fillings, automaton steps, join groups of a shape)
    depends on the rack, the rules and the shapes only, never on the board: a shape carries
    its fixed texts and its squares' cross-check masks. The simulation asks for the same
    rack many times in a row (the opponent's dealt rack: its best plays before our move,
    then near each candidate, or in full after each), so the sides enumerated for one board
    serve the next. Kept per thread (a context's caches are filled as it is used), for the
    last KEPT_RACKS racks without blanks.
    """
    kept: dict[tuple[str, Rules], tuple[Context, dict[tuple[str | int, ...], list[JoinGroup]]]]
    if hasattr(KEPT, "contexts"):
        kept = KEPT.contexts
    else:
        kept = KEPT.contexts = {}
    key = (rack, rules)
    found = kept.pop(key, None)
    if found is None or len(found[0].side_cache) > _KEPT_SIDES:
        found = (make_context(rack, rules), {})
        if len(kept) >= KEPT_RACKS:
            del kept[next(iter(kept))]
    # The most recently used last.
    kept[key] = found
    return found


def _lone_digits_beside_numbers(
    context: Context,
    cells: Sequence[Tile | None],
    append: Callable[[Row], None],
    candidates: Iterable[int] | None = None,
) -> None:
    """Under parallel_numbers: one digit whose across run is a number, down run an equation.

    A single tile's main run is across when it has a neighbour left or right
    (:func:`binscrabble.move.play_direction`); under parallel_numbers that run may be a
    number, and the play then touches, and scores, only through its down run. The line
    walk above never finds these plays, because it asks every main run to be an equation.
    With `candidates`, only those squares are tried.
    """
    rules = context.rules
    wanted = context.wanted
    digit_options = tuple(
        option
        for option in sorted(DIGIT_OPTIONS)
        if context.natural[option] or context.designable[option]
    )
    for sq in range(SIZE * SIZE) if candidates is None else sorted(candidates):
        if cells[sq] is not None:
            continue
        # Most squares have no tile beside them both across and down: the neighbours are
        # looked at before any text is read.
        column = sq % SIZE
        if (column == 0 or cells[sq - 1] is None) and (column == SIZE - 1 or cells[sq + 1] is None):
            continue
        if (sq < SIZE or cells[sq - SIZE] is None) and (
            sq >= SIZE * (SIZE - 1) or cells[sq + SIZE] is None
        ):
            continue
        across = _perpendicular_texts(cells, sq, ACROSS)
        down = _perpendicular_texts(cells, sq, DOWN)
        _, down_kinds, down_values = cross_info(down[0], down[1], rules, wanted)
        letter = LETTER_MULTIPLIERS[sq]
        word = WORD_MULTIPLIERS[sq]
        for option in digit_options:
            if down_kinds[option] != CROSS_EQUATION:
                continue
            number_text = across[0] + OPTION_TEXTS[option] + across[1]
            try:
                number = number_value(number_text, rules)
            except EquationError:
                continue
            # Only the down run scores; a blank there loses its tile's letter points.
            loss = OPTION_POINTS[option] * letter * word
            score = (OPTION_POINTS[option] * letter + bonus(down_values[option])) * word
            losses = ((loss,) * OPTION_COUNT,)
            usage = OPTION_USAGE[option]
            append(((sq,), (option,), number_text, number, ACROSS, score, losses, usage))


def _emit_segment(
    context: Context,
    shape: tuple[str | int, ...],
    place: SegmentPlace,
    group_cache: dict[tuple[str | int, ...], list[JoinGroup]],
    emit: Callable[[Any], None],
    keeper: BestScores,
    score_parts: tuple[int, int, int] = (0, 1, 0),
) -> None:
    """Find the equations of one segment for best moves: the moves that reach the floor of
    `keeper`, for `emit`; `score_parts` bound the segment's scores: (letter points, word
    multiplier, crossing scores and bingo). (Without best moves, :func:`search` does the
    same inline, and keeps the equations as a :data:`_Segment`.)"""
    letters, word, rest = score_parts
    groups = group_cache.get(shape)
    if groups is None:

        def reach(bonus_bound: int) -> bool:
            return (letters + bonus_bound) * word + rest >= keeper.floor

        groups, complete = segment_groups(context, shape, reach)
        if complete:
            group_cache[shape] = groups
    if not groups:
        return
    rules = context.rules
    direction = place[0]
    scoring: SegmentScoring | None = None
    rack = context.rack
    for group in groups:
        # Every equation of a group has the group's value: when its bonus cannot lift the
        # segment's bound to the floor, none of them is read.
        if (letters + bonus(group.value)) * word + rest < keeper.floor:
            continue
        if scoring is None:
            scoring = segment_scoring(place, context.blanks > 0)
            squares_tuple = scoring.squares
            blank_losses = scoring.blank_losses
        for filling in group_fillings(group, rules.identity_chains, rules.rotated_equals):
            row = scoring.row(filling)
            if row is None:
                continue
            natural_score = row[5]
            if natural_score < keeper.floor:
                continue
            options = row[1]
            for blanks in realizations_of(rack, options):
                score = natural_score
                for position in blanks:
                    score -= blank_losses[position][options[position]]
                if score < keeper.floor:
                    continue
                keeper.add(score)
                emit(
                    GeneratedMove(squares_tuple, options, blanks, score, row[2], row[3], direction)
                )
