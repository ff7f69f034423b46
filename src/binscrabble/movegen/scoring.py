"""Scoring: per free square of a segment and per option, the letter points, the crossing
run's score and what a blank loses there; and the rows of a segment's equations.
"""

from __future__ import annotations

from typing import Final

from binscrabble.board import (
    LETTER_MULTIPLIERS,
    SIZE,
    WORD_MULTIPLIERS,
    Direction,
)
from binscrabble.expr import bonus

from .caches import clear_tracked, kept_tracked
from .context import CrossInfo, Filling
from .crosscheck import CROSS_EQUATION
from .generated import Row
from .options import CHARACTER_OPTIONS, OPTION_COUNT, OPTION_POINTS

#: Per square and option: the option's points times the square's letter multiplier.
_LETTER_TABLES: Final = tuple(
    tuple(points * LETTER_MULTIPLIERS[sq] for points in OPTION_POINTS) for sq in range(SIZE * SIZE)
)
_CROSSING_CACHE: dict[tuple[int, CrossInfo], tuple[tuple[bool, ...], tuple[int, ...]]] = (
    kept_tracked({})
)


def crossing_tables(sq: int, info: CrossInfo) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """Per option at `sq`: does its crossing run count as an equation, and that run's score."""
    key = (sq, info)
    found = _CROSSING_CACHE.get(key)
    if found is None:
        _, kinds, values = info
        letter = LETTER_MULTIPLIERS[sq]
        word = WORD_MULTIPLIERS[sq]
        crossing = tuple(kind == CROSS_EQUATION for kind in kinds)
        scores = tuple(
            (OPTION_POINTS[option] * letter + bonus(values[option])) * word
            if crossing[option]
            else 0
            for option in range(OPTION_COUNT)
        )
        if len(_CROSSING_CACHE) >= 1 << 16:
            clear_tracked(_CROSSING_CACHE)
        found = _CROSSING_CACHE[key] = (crossing, scores)
    return found


_BLANK_LOSSES: dict[tuple[int, int, tuple[bool, ...] | None], tuple[int, ...]] = kept_tracked({})


def _blank_losses(
    sq: int, word_multiplier: int, crossing: tuple[bool, ...] | None
) -> tuple[int, ...]:
    """Per option: the points a play loses when a blank shows it at `sq`, the play's word
    multiplier being `word_multiplier` and `crossing` telling (per option) whether the
    crossing run there is a scored equation (None: no crossing run). Cached: the same few
    squares and multipliers recur in every segment through them."""
    key = (sq, word_multiplier, crossing)
    found = _BLANK_LOSSES.get(key)
    if found is None:
        letter_table = _LETTER_TABLES[sq]
        if crossing is None:
            found = tuple([points * word_multiplier for points in letter_table])
        else:
            word = WORD_MULTIPLIERS[sq]
            found = tuple(
                [
                    points * (word_multiplier + word) if crossed else points * word_multiplier
                    for points, crossed in zip(letter_table, crossing, strict=True)
                ]
            )
        if len(_BLANK_LOSSES) >= 1 << 16:
            clear_tracked(_BLANK_LOSSES)
        _BLANK_LOSSES[key] = found
    return found


#: Where a segment is, for its scoring tables: (direction, squares of the line, texts,
#: cross-checks, start, end, bingo, whether its equations must be checked for touching).
SegmentPlace = tuple[
    Direction, range, list[str | None], list["CrossInfo | None"], int, int, int, bool
]


def segment_free_squares(place: SegmentPlace) -> tuple[list[int], list[CrossInfo | None], int]:
    """A segment's free squares, in order, with their cross-checks, and the product of their
    word multipliers."""
    _, squares, texts, crosses, start, end, _, _ = place
    free_squares = []
    free_crosses = []
    word_multiplier = 1
    for index in range(start, end + 1):
        if texts[index] is None:
            sq = squares[index]
            free_squares.append(sq)
            free_crosses.append(crosses[index])
            word_multiplier *= WORD_MULTIPLIERS[sq]
    return free_squares, free_crosses, word_multiplier


def segment_scoring(place: SegmentPlace, with_blanks: bool) -> SegmentScoring:
    """The scoring tables of a segment (see :class:`SegmentScoring`)."""
    direction, bingo, check_touch = place[0], place[6], place[7]
    free_squares, free_crosses, word_multiplier = segment_free_squares(place)
    # Per free square and option (natural tile): the letter score in the main run, the
    # crossing run's whole score (0 when there is none or it is a number under
    # parallel_numbers), and what the play loses when a blank shows that option there.
    letter_tables: list[tuple[int, ...]] = []
    cross_tables: list[tuple[int, ...] | None] = []
    blank_losses: list[tuple[int, ...]] = []
    equation_crossings: list[tuple[bool, ...] | None] = []
    # (Equal lengths; no `strict=`, whose keyword call is slow: this runs per segment read.)
    for sq, info in zip(free_squares, free_crosses):  # noqa: B905
        letter_table = _LETTER_TABLES[sq]
        letter_tables.append(letter_table)
        if info is None:
            cross_tables.append(None)
            equation_crossings.append(None)
            if with_blanks:
                blank_losses.append(_blank_losses(sq, word_multiplier, None))
            continue
        crossing, cross_scores = crossing_tables(sq, info)
        equation_crossings.append(crossing)
        cross_tables.append(cross_scores)
        if with_blanks:
            blank_losses.append(_blank_losses(sq, word_multiplier, crossing))
    return SegmentScoring(
        tuple(free_squares),
        direction,
        letter_tables,
        cross_tables,
        blank_losses,
        equation_crossings,
        word_multiplier,
        bingo,
        check_touch,
    )


#: Per (square, word multiplier, cross-check): :func:`square_tables_of`.
SQUARE_TABLES: dict[
    tuple[int, int, CrossInfo | None], tuple[dict[str, tuple[int, int]], tuple[int, ...]]
] = kept_tracked({})


def square_tables_of(
    sq: int, word_multiplier: int, info: CrossInfo | None
) -> tuple[dict[str, tuple[int, int]], tuple[int, ...]]:
    """What rows need of a free square: its reading (:func:`_reading`) and what a blank
    loses there (:func:`_blank_losses`), for a play of that word multiplier. Cached."""
    if info is None:
        found = (
            _reading(sq, word_multiplier, None),
            _blank_losses(sq, word_multiplier, None),
        )
    else:
        crossing, cross_scores = crossing_tables(sq, info)
        found = (
            _reading(sq, word_multiplier, cross_scores),
            _blank_losses(sq, word_multiplier, crossing),
        )
    if len(SQUARE_TABLES) >= 1 << 16:
        clear_tracked(SQUARE_TABLES)
    SQUARE_TABLES[(sq, word_multiplier, info)] = found
    return found


_READINGS: dict[tuple[int, int, tuple[int, ...] | None], dict[str, tuple[int, int]]] = kept_tracked(
    {}
)


def _reading(
    sq: int, word_multiplier: int, cross_scores: tuple[int, ...] | None
) -> dict[str, tuple[int, int]]:
    """Per character a free square at `sq` may show: its option, and what it adds to a
    play's natural score there (letter points times the play's word multiplier, plus the
    crossing run's score `cross_scores`). Cached: squares recur in every segment through
    them."""
    key = (sq, word_multiplier, cross_scores)
    found = _READINGS.get(key)
    if found is None:
        letter_table = _LETTER_TABLES[sq]
        found = {
            character: (
                option,
                letter_table[option] * word_multiplier
                + (0 if cross_scores is None else cross_scores[option]),
            )
            for option, character in CHARACTER_OPTIONS
        }
        if len(_READINGS) >= 1 << 16:
            clear_tracked(_READINGS)
        _READINGS[key] = found
    return found


class SegmentScoring:
    """What scores the equations of one segment: per free square and option, the letter
    score in the main run, the crossing run's whole score, and what a blank loses there."""

    __slots__ = (
        "bingo",
        "blank_losses",
        "check_touch",
        "cross_tables",
        "direction",
        "equation_crossings",
        "letter_tables",
        "squares",
        "word_multiplier",
    )

    def __init__(
        self,
        squares: tuple[int, ...],
        direction: Direction,
        letter_tables: list[tuple[int, ...]],
        cross_tables: list[tuple[int, ...] | None],
        blank_losses: list[tuple[int, ...]],
        equation_crossings: list[tuple[bool, ...] | None],
        word_multiplier: int,
        bingo: int,
        check_touch: bool,
    ) -> None:
        self.squares = squares
        self.direction = direction
        self.letter_tables = letter_tables
        self.cross_tables = cross_tables
        self.blank_losses = blank_losses
        self.equation_crossings = equation_crossings
        self.word_multiplier = word_multiplier
        self.bingo = bingo
        # Under parallel_numbers a number crossing does not count as touching: a segment
        # that touches only through crossings keeps the equations with an equation crossing.
        self.check_touch = check_touch

    def row(self, filling: Filling) -> Row | None:
        """The row of one equation; None when it does not touch (see `check_touch`)."""
        options, text, value, usage = filling
        letters = 0
        crossing_score = 0
        # (Equal lengths; no `strict=`: zip called with a keyword takes CPython 3.11's slow
        # call path, and best moves make a row per equation they read.)
        if self.check_touch:
            # Whether it touches, in the same loop (not a generator of its own).
            touches = False
            for letter_table, cross_table, crossing, option in zip(  # noqa: B905
                self.letter_tables, self.cross_tables, self.equation_crossings, options
            ):
                letters += letter_table[option]
                if cross_table is not None:
                    crossing_score += cross_table[option]
                if crossing is not None and crossing[option]:
                    touches = True
            if not touches:
                return None
        else:
            for letter_table, cross_table, option in zip(  # noqa: B905
                self.letter_tables, self.cross_tables, options
            ):
                letters += letter_table[option]
                if cross_table is not None:
                    crossing_score += cross_table[option]
        # The score with natural tiles only; each blank then takes its tile's points away.
        natural_score = (
            (letters + bonus(value)) * self.word_multiplier + crossing_score + self.bingo
        )
        return (
            self.squares,
            options,
            text,
            value,
            self.direction,
            natural_score,
            self.blank_losses,
            usage,
        )
