"""Upper bounds on a segment's scores, for best moves: per square, packed in one integer so
that a line's running sums give a segment's bound in one subtraction; and the best scores
found so far (:class:`BestScores`).
"""

from __future__ import annotations

import heapq
from typing import Final

from binscrabble.board import (
    LETTER_MULTIPLIERS,
    SIZE,
    WORD_MULTIPLIERS,
)

from .caches import kept_tracked
from .context import CrossInfo
from .options import OPTION_COUNT, OPTION_POINTS
from .scoring import crossing_tables

_MOST_POINTS: dict[int, int] = kept_tracked({})


def most_points(mask: int) -> int:
    """The most points a natural tile can score among the options of `mask`."""
    found = _MOST_POINTS.get(mask)
    if found is None:
        found = _MOST_POINTS[mask] = max(
            (OPTION_POINTS[option] for option in range(OPTION_COUNT) if mask >> option & 1),
            default=0,
        )
    return found


# What bounds a segment's score (best moves), per square, packed in one integer so that a
# line's running sums give a segment's in one subtraction: bits 0-7 the most letter points
# its tile can score (letter multiplier included), 8-15 its width in characters (a tile's
# text, or a free square's one or two), 16-23 and 24-31 whether it is a free triple- or
# double-letter square, 32-35 and 36-39 whether it is a free double- or triple-word square,
# 40-47 the digit characters of its tile's text (a `0` or `1`; a rotated `=` reads `11`),
# 48-55 whether it is free, 56 and up the best score of its crossing run. Every field but
# the last stays below its next one on a line of 15 squares (at most 180 letter points, 30
# characters, 15 squares, 4 word squares, 30 digits), so sums never carry from one field
# into the next.
FIELD_BYTE: Final = 255
WIDTH_SHIFT: Final = 8
TRIPLED_SHIFT: Final = 16
DOUBLED_SHIFT: Final = 24
WORD_SHIFT: Final = 32
WORD_MASK: Final = FIELD_BYTE
DIGITS_SHIFT: Final = 40
FREE_SHIFT: Final = 48
CROSSING_SHIFT: Final = 56
#: The word multiplier of a segment by its packed counts of double- and triple-word squares.
WORD_PRODUCTS: Final = tuple(2 ** (index & 15) * 3 ** (index >> 4) for index in range(256))
#: The bonus bound of an equation `width` characters wide: it has two sides or more around
#: at least one `=`, so its value is that of a side at most (width - 1) // 2 characters
#: long: below 2 ** that (each operator's result is below 2 ** the length of its text), so
#: its leading bit is at most half of it.
BONUS_BOUNDS: Final = tuple(1 << max((width - 1) // 2 - 1, 0) for width in range(256))
#: The bonus bound of an equation one of whose sides holds `digits` digit characters at
#: most: its value is below 2 ** digits.
SIDE_BONUS_BOUNDS: Final = tuple(1 << (digits - 1) if digits >= 1 else 0 for digits in range(512))
#: The bonus bound of an equation whose text holds `digits` digit characters: a value
#: written with d digits is below 2 ** d, whatever the operators (a sum or a product of
#: operands below 2 ** p and 2 ** q is below 2 ** (p + q); a difference, a quotient, AND,
#: OR and XOR are no larger in size than their larger operand; NOT of d digits is below
#: 2 ** d), and the two sides have equal values, so the one with fewer digits (at most half)
#: bounds both: the bound of a side of half the digits (:data:`SIDE_BONUS_BOUNDS`).
DIGIT_BONUS_BOUNDS: Final = tuple(SIDE_BONUS_BOUNDS[digits // 2] for digits in range(512))


def _square_field(sq: int, free_width: int) -> int:
    """The packed fields of an empty square `sq` that do not depend on the board: its
    width, and its letter and word premiums."""
    letter = LETTER_MULTIPLIERS[sq]
    word = WORD_MULTIPLIERS[sq]
    return (
        (free_width << WIDTH_SHIFT)
        + ((letter == 3) << TRIPLED_SHIFT)
        + ((letter == 2) << DOUBLED_SHIFT)
        + ((word == 2) << WORD_SHIFT)
        + ((word == 3) << (WORD_SHIFT + 4))
        + (1 << FREE_SHIFT)
    )


#: Per free-square width (1, or 2 when a rotated `=` may go down), per square.
SQUARE_FIELDS: Final = {
    width: tuple(_square_field(sq, width) for sq in range(SIZE * SIZE)) for width in (1, 2)
}
#: Packed letter and crossing bounds of an empty square with a crossing run, by (square,
#: crossing texts, options wanted, the rack's natural options).
SQUARE_BOUNDS: dict[tuple[int, str, str, int, int], int] = kept_tracked({})


def square_bound_fields(sq: int, info: CrossInfo, wanted: int, natural_mask: int) -> int:
    """The packed letter and crossing bounds of an empty square with a crossing run: the
    most points a natural tile of the rack allowed there scores (a blank scores none), and
    the best score of the crossing run over the options allowed."""
    usable = info[0] & wanted
    cross_scores = crossing_tables(sq, info)[1]
    return most_points(usable & natural_mask) * LETTER_MULTIPLIERS[sq] + (
        max((cross_scores[o] for o in range(OPTION_COUNT) if usable >> o & 1), default=0)
        << CROSSING_SHIFT
    )


class BestScores:
    """The `limit` best scores seen so far; `floor` is the lowest of them once full (and
    `minimum`, when given, until then: no score below it is wanted)."""

    __slots__ = ("floor", "limit", "scores")

    def __init__(self, limit: int, minimum: int | None = None) -> None:
        self.limit = max(limit, 1)
        self.scores: list[int] = []
        # Below every score until `limit` scores are in. Only scores reaching the floor are
        # added, so once full the floor stays at `minimum` or above.
        self.floor = -(1 << 62) if minimum is None else minimum

    def add(self, score: int) -> None:
        scores = self.scores
        heapq.heappush(scores, score)
        if len(scores) > self.limit:
            heapq.heappop(scores)
        if len(scores) == self.limit:
            self.floor = scores[0]
