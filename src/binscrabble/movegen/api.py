"""The generator's public functions: placements for a board, a rack and rules; the moves of
the player to move in a game; the legal-moves view a game hands out.

Functions that take a game read it through :class:`Turn` (and :class:`LegalMoves` through
:class:`Referee`): a :class:`~binscrabble.game.Game` is one, and the generator never
imports the game module, which builds on it.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import chain, product
from typing import Protocol

from binscrabble.board import (
    Board,
)
from binscrabble.move import CODE_ORDER, Exchange, Move, Pass, Place
from binscrabble.movelist import MoveList, collector_paused
from binscrabble.rules import Rules

from .blanks import variant_count
from .generated import BestFirst, GeneratedMove, sort_key
from .scan import search, touch_keys_of

__all__ = [
    "GeneratedMove",
    "LegalMoves",
    "Referee",
    "Turn",
    "best_moves",
    "best_placements",
    "exchanges",
    "generate_moves",
    "generate_placements",
    "sort_key",
]


class Turn(Protocol):
    """What the generator reads of a game: the board, the rules, the rack of the player to
    move, whether the game is over and how many tiles the bag holds."""

    @property
    def board(self) -> Board: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def bag_size(self) -> int: ...

    def rack(self) -> str: ...

    def is_over(self) -> bool: ...


class Referee(Turn, Protocol):
    """A :class:`Turn` that also judges a move (:class:`LegalMoves` asks it, ``move in``)."""

    def is_legal(self, move: Move) -> bool: ...


def generate_placements(
    board: Board,
    rack: str,
    rules: Rules,
    *,
    limit: int | None = None,
    touching: Iterable[int] | None = None,
) -> list[GeneratedMove]:
    """Every legal placement of tiles from `rack` (codes, ``?`` for a blank) on `board`.

    Each placement appears exactly once, with its score; the list is in no particular
    order (sort with :func:`sort_key`). The first play is the one made on an empty board.

    The result is a :class:`MoveList`: every equation is found and counted before this
    returns, but the :class:`GeneratedMove` objects of its blank variants are made only when
    the list is read (``len`` needs none of them).

    With `limit`, moves that cannot be among the `limit` best are left out (the list still
    holds every move scoring at least the `limit`-th best score): segments are searched in
    the order of an upper bound on their scores and the search stops when the bound falls
    below the `limit`-th best score found; a blank scores 0, so a play with blanks never
    outscores the same play with natural tiles, and plays are skipped, blank variants and
    all, once that bound is below the current `limit`-th best.

    With `touching` (square indexes), only the placements with a run that contains one of
    those squares are found: the play's main run or the crossing run through one of its new
    tiles, runs of two squares or more (a number beside the play under parallel_numbers
    counts too, since the referee checks it). An empty square counts when the play puts a
    tile on it. Only the lines through those squares and the stretches of other lines whose
    crossing runs reach them are searched, so the search costs far less than the whole board
    (docs/movegen.md, "Plays touching given squares"). With `limit` as well, the `limit`
    best of those.

    >>> from binscrabble.rules import Rules
    >>> len(generate_placements(Board(), "1=", Rules()))
    0
    >>> sorted(move.text for move in generate_placements(Board(), "1=1", Rules()))[:1]
    ['1=1']
    >>> board = Board.from_rows(["." * 15] * 7 + [".......1=1....."] + ["." * 15] * 7)
    >>> every = generate_placements(board, "1=1", Rules())
    >>> beside_j8 = generate_placements(board, "1=1", Rules(), touching=[7 * 15 + 9])
    >>> 0 < len(beside_j8) < len(every)
    True
    """
    keys = None if touching is None else touch_keys_of(board.cells, touching)
    with collector_paused():
        found, rows, moves = search(board, rack, rules, limit, keys)
        if limit is not None:
            return MoveList(moves)
        total = rows.move_count(found)
    return MoveList.lazy(total, chain.from_iterable(rows.move_batches(found)))


def generate_moves(game: Turn) -> list[GeneratedMove]:
    """Every legal placement for the player to move in `game`, best first (:func:`sort_key`).

    Empty when the game is over. The result is a :class:`MoveList`; with blanks on the
    rack its moves are made in order as it is read (a heap merges the equations' blank
    variants), so reading the best few costs little even when there are millions.
    """
    if game.is_over():
        return MoveList()
    with collector_paused():
        rack, found, _ = search(game.board, game.rack(), game.rules, None)
        if not rack.blanks:
            moves = MoveList(chain.from_iterable(found.move_batches(rack)))
            list.sort(moves, key=sort_key)
            return moves
        rows = list(found)
        total = sum(variant_count(rack, row[7]) for row in rows)
    return MoveList.lazy(total, BestFirst(rack, rows))


def best_moves(
    game: Turn,
    count: int,
    *,
    touching: Iterable[int] | None = None,
    min_score: int | None = None,
) -> list[GeneratedMove]:
    """The `count` best placements for the player to move, in :func:`sort_key` order.

    It finds every equation as :func:`generate_moves` does, but skips plays (and their
    blank variants) whose score cannot reach the `count`-th best found so far. With
    `touching` (square indexes), the `count` best of the plays with a run through one of
    those squares (see :func:`generate_placements`), found without searching the rest of
    the board. With `min_score`, the `count` best of the plays scoring at least that (the
    head of the unrestricted result, cut there): the search starts with that floor, so
    it skips more (the simulation knows, before it looks near a candidate, the score the
    plays found there must reach to matter).
    """
    if game.is_over():
        return MoveList()
    return best_placements(
        game.board, game.rack(), game.rules, count, touching=touching, min_score=min_score
    )


def best_placements(
    board: Board,
    rack: str,
    rules: Rules,
    count: int,
    *,
    touching: Iterable[int] | None = None,
    min_score: int | None = None,
) -> list[GeneratedMove]:
    """The `count` best placements of any `rack` on `board`, in :func:`sort_key` order.

    What :func:`best_moves` gives the player to move, for a rack that is not (or not all of)
    the player's: another seat's, or the rack without its blanks.

    >>> from binscrabble.rules import Rules
    >>> [move.text for move in best_placements(Board(), "1=1", Rules(), 1)]
    ['1=1']
    >>> board = Board.from_rows(["." * 15] * 7 + [".......1=1....."] + ["." * 15] * 7)
    >>> [move.score for move in best_placements(board, "1+1=10x", Rules(), 30)][-3:]
    [30, 30, 30]
    >>> len(best_placements(board, "1+1=10x", Rules(), 30, min_score=33))  # 36 and 33s
    21
    """
    if count <= 0:
        return MoveList()
    # generate_placements(..., limit=count) without its list type: the moves are all made.
    keys = None if touching is None else touch_keys_of(board.cells, touching)
    with collector_paused():
        moves = search(board, rack, rules, count, keys, min_score)[2]
    return MoveList(heapq.nsmallest(count, moves, key=sort_key))


def exchanges(game: Turn) -> list[Exchange]:
    """Every legal exchange for the player to move: each different set of rack tiles.

    None while the bag holds fewer tiles than a rack (docs/rules.md §3).
    """
    if game.is_over() or game.bag_size < game.rules.rack_size:
        return []
    counts = Counter(game.rack())
    codes = sorted(counts, key=CODE_ORDER.index)
    found = []
    for numbers in product(*(range(counts[code] + 1) for code in codes)):
        if any(numbers):
            found.append(
                Exchange("".join(code * n for code, n in zip(codes, numbers, strict=True)))
            )
    return found


class LegalMoves:
    """The legal moves of a game right now, as a lazy view (like python-chess's).

    Iterating yields every legal :class:`~binscrabble.move.Place` best first
    (:func:`sort_key`), then every legal :class:`~binscrabble.move.Exchange`, then
    :class:`~binscrabble.move.Pass`. ``move in view`` asks the referee
    (:meth:`Game.is_legal`) without generating anything; ``bool(view)`` is true while the
    game goes on (passing is always legal then). Moves are generated on first need and
    kept, so build a new view (``game.legal_moves``) after the game changes.

    >>> from binscrabble.game import Game
    >>> from binscrabble.move import Pass, parse_move
    >>> game = Game.from_setup(Rules(), Board(), ["11+=01", "1"])
    >>> moves = game.legal_moves
    >>> parse_move("8D 1+1=10", game.board) in moves, Pass() in moves, bool(moves)
    (True, True, True)
    >>> next(iter(moves)).notation(game.board)
    '8C 10=1+1'
    """

    __slots__ = ("_game", "_moves")

    def __init__(self, game: Referee) -> None:
        self._game = game
        self._moves: list[Move] | None = None

    def placements(self) -> list[GeneratedMove]:
        """Every legal placement with its score, best first."""
        return generate_moves(self._game)

    def _all(self) -> list[Move]:
        if self._moves is None:
            game = self._game
            # Read through the MoveList's own iterator (it makes its moves lazily): typed as
            # a list, the compiled module would read a list's storage directly.
            found: Iterable[GeneratedMove] = generate_moves(game)
            moves: list[Move] = [generated.place for generated in found]
            moves.extend(exchanges(game))
            if not game.is_over():
                moves.append(Pass())
            self._moves = moves
        return self._moves

    def __iter__(self) -> Iterator[Move]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Place | Exchange | Pass):
            return False
        return self._game.is_legal(move)

    def __bool__(self) -> bool:
        return not self._game.is_over()

    def __repr__(self) -> str:
        return f"<LegalMoves of a game with {len(self)} moves>"
