"""The generator's moves (:class:`GeneratedMove`), their order (:func:`sort_key`), and rows:
found equations whose blank variants are made into moves on demand.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from typing import Any

from binscrabble.board import (
    Direction,
)
from binscrabble.move import Place, PlacedTile

from .blanks import realizations_of
from .context import Rack
from .options import OPTION_FACES, ROTATED


class GeneratedMove:
    """One legal placement found by the generator, with its score.

    ``squares`` are the squares of the new tiles in line order; ``options`` what each shows
    (internal codes: an index into :data:`binscrabble.rules.FACES`, or 11 for a rotated
    ``=``); ``blanks`` the indexes (into ``squares``) of the tiles that are blanks;
    ``direction`` the direction of the main run (:func:`binscrabble.move.play_direction`),
    ``text`` the main run and ``value`` its value (an equation's; under
    ``parallel_numbers`` a lone digit's main run may be a number, and then it is that
    number). Read :attr:`place` or :attr:`tiles` for the move itself: the
    :class:`~binscrabble.move.Place` is built on first use, because most generated moves
    are only ranked by score.
    """

    __slots__ = ("_place", "blanks", "direction", "options", "score", "squares", "text", "value")
    _place: Place

    def __init__(
        self,
        squares: tuple[int, ...],
        options: tuple[int, ...],
        blanks: tuple[int, ...],
        score: int,
        text: str,
        value: int,
        direction: Direction,
    ) -> None:
        self.squares = squares
        self.options = options
        self.blanks = blanks
        self.score = score
        self.text = text
        self.value = value
        self.direction = direction
        # `_place` is set on first use of :attr:`place` (a slot left empty until then:
        # most generated moves are only ranked, and one store fewer per move counts).

    @property
    def tiles(self) -> tuple[PlacedTile, ...]:
        """The new tiles, in square order."""
        return self.place.tiles

    @property
    def place(self) -> Place:
        """This placement as a :class:`~binscrabble.move.Place`."""
        try:
            return self._place
        except AttributeError:
            pass
        blanks = self.blanks
        place = self._place = Place(
            tuple(
                PlacedTile(
                    square,
                    OPTION_FACES[option],
                    index in blanks,
                    option == ROTATED,
                )
                for index, (square, option) in enumerate(
                    zip(self.squares, self.options, strict=True)
                )
            )
        )
        return place

    @property
    def tile_count(self) -> int:
        """How many tiles the play puts down."""
        return len(self.squares)

    def __repr__(self) -> str:
        return f"<GeneratedMove {self.place!r} score={self.score}>"

    def __reduce__(self) -> tuple[Any, ...]:
        # Spelled out: a compiled class (see docs/movegen.md) has no default pickling.
        return (
            GeneratedMove,
            (
                self.squares,
                self.options,
                self.blanks,
                self.score,
                self.text,
                self.value,
                self.direction,
            ),
        )


def sort_key(
    move: GeneratedMove,
) -> tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The order moves are listed in: best score first, then a fixed tie-break.

    Among equal scores: fewer tiles first (they keep more of the rack), then across plays
    before down plays, then by squares (top-left first), then by what goes on them (faces
    in the order of :data:`binscrabble.rules.FACES`, flat before rotated), then by which
    are blanks (no blank first, then blanks further left first). The order depends on
    nothing but the moves, so it never varies.
    """
    return (-move.score, len(move.squares), move.direction, move.squares, move.options, move.blanks)


#
# (squares, options, main-run text, value, direction, score with natural tiles only, per
# position of the squares the points a blank there would lose by option, option usage).
# Every blank variant of a row scores its natural score minus the losses at its blanks.
Row = tuple[
    tuple[int, ...], tuple[int, ...], str, int, Direction, int, Sequence[tuple[int, ...]], int
]


def row_moves(rack: Rack, row: Row) -> list[GeneratedMove]:
    """The moves of one row: one per way the rack can show it (:func:`realizations_of`)."""
    return batch_moves(rack, [row])


def plain_moves(rows: list[Row]) -> list[GeneratedMove]:
    """The moves of `rows` for a rack without blanks: one per row."""
    moves: list[GeneratedMove] = []
    for squares, options, text, value, direction, score, _, _ in rows:
        moves.append(GeneratedMove(squares, options, (), score, text, value, direction))
    return moves


def batch_moves(rack: Rack, rows: list[Row]) -> list[GeneratedMove]:
    """The moves of `rows`, in order: per row, one per way the rack can show it
    (:func:`realizations_of`)."""
    if not rack.blanks:
        return plain_moves(rows)
    moves: list[GeneratedMove] = []
    known = rack.realizations
    for squares, options, text, value, direction, natural_score, losses, _ in rows:
        realizations = known.get(options)
        if realizations is None:
            realizations = realizations_of(rack, options)
        for blanks in realizations:
            score = natural_score
            for position in blanks:
                score -= losses[position][options[position]]
            moves.append(GeneratedMove(squares, options, blanks, score, text, value, direction))
    return moves


_HeapEntry = tuple[
    tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]],
    int,
    list[GeneratedMove] | None,
    int,
]


class BestFirst:
    """The moves of the rows in :func:`sort_key` order, each row expanded when first needed.

    A heap holds one entry per row. A row not yet expanded stands under the key of a
    variant with natural tiles only — its score bounds every variant's, and no blanks sort
    first — so it comes up no later than its first real variant; it is then expanded,
    its variants sorted, and it goes back under its first variant's real key.
    :meth:`drain` returns all the moves not yet given, in order, by one sort: cheaper than
    the heap when most of them are wanted.
    """

    __slots__ = ("heap", "rack", "rows")

    def __init__(self, rack: Rack, rows: list[Row]) -> None:
        self.rack = rack
        self.rows = rows
        self.heap: list[_HeapEntry] | None = None

    def __iter__(self) -> Iterator[GeneratedMove]:
        return self

    def __next__(self) -> GeneratedMove:
        heap = self.heap
        if heap is None:
            heap = self.heap = [
                ((-row[5], len(row[0]), row[4], row[0], row[1], ()), index, None, 0)
                for index, row in enumerate(self.rows)
            ]
            heapq.heapify(heap)
        while heap:
            _, index, variants, position = heap[0]
            if variants is None:
                variants = row_moves(self.rack, self.rows[index])
                if not variants:
                    heapq.heappop(heap)
                    continue
                variants.sort(key=sort_key)
                heapq.heapreplace(heap, (sort_key(variants[0]), index, variants, 0))
                continue
            if position + 1 < len(variants):
                following = variants[position + 1]
                heapq.heapreplace(heap, (sort_key(following), index, variants, position + 1))
            else:
                heapq.heappop(heap)
            return variants[position]
        raise StopIteration

    def drain(self) -> list[GeneratedMove]:
        """Every move not given yet, in order (the iterator is then exhausted)."""
        rest: list[GeneratedMove] = []
        if self.heap is None:
            for row in self.rows:
                rest.extend(row_moves(self.rack, row))
        else:
            for _, index, variants, position in self.heap:
                if variants is None:
                    rest.extend(row_moves(self.rack, self.rows[index]))
                else:
                    rest.extend(variants[position:])
        self.heap = []
        rest.sort(key=sort_key)
        return rest
