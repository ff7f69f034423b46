"""Computer players: one interface, ``choose(game, budget) -> Move``, several strategies.

Every player looks at the game from the seat to move and returns a legal move for it:

- :class:`RandomPlayer` plays a legal placement chosen at random;
- :class:`GreedyPlayer` plays the highest-scoring placement;
- :class:`EquityPlayer` maximises *equity*, the score plus the value of the tiles kept
  (:mod:`binscrabble.engine.leaves`), and exchanges when that is worth more;
- :class:`SamplingPlayer` plays like a person who does not see every move: it looks at a
  random part of the placements (optionally only the short ones) and takes the best of them;
- :class:`~binscrabble.engine.simulation.SimulationPlayer` looks ahead by sampling.

When no placement is legal, every player exchanges its whole rack if the bag allows it, and
passes otherwise (the equity player exchanges only the tiles it is best rid of).

A player sees only what its seat may see: its own rack, the board, the scores and how many
tiles the others hold. Nothing here reads another rack or the order of the bag.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Protocol, runtime_checkable

from binscrabble.engine.leaves import LeaveTable
from binscrabble.game import Game
from binscrabble.move import Exchange, Move, Pass, Place
from binscrabble.movegen import GeneratedMove, best_moves, generate_moves, sort_key
from binscrabble.rules import BLANK, FACES, TILE_POINTS


@runtime_checkable
class Player(Protocol):
    """Anything that chooses a move for the seat to move of a game.

    `budget` is the time the player may think, in seconds; ``None`` lets the player use its
    own default. Players that do not search ignore it.
    """

    name: str

    def choose(self, game: Game, budget: float | None = None) -> Move: ...


@dataclass(frozen=True, slots=True)
class Candidate:
    """A move with what the engine thinks of it.

    ``leave`` is what stays on the rack (as codes, before drawing); ``equity`` is the score
    plus the leave's value, the number the equity player maximises.
    """

    move: Move
    score: int
    leave: str
    equity: float


# -- reading the position from the seat to move -----------------------------------------


def leave_after(rack: str, used: Iterable[str]) -> str:
    """The rack codes left after using `used` (each used code removes one tile).

    >>> leave_after("1101=+x0?", "1=1")
    '01+x0?'
    """
    remaining = list(rack)
    for code in used:
        remaining.remove(code)
    return "".join(remaining)


def leave_points(leave: str) -> int:
    """The face points of tiles (what they cost at the end of the game).

    >>> leave_points("1x/?")
    7
    """
    return sum(TILE_POINTS[code] for code in leave)


def move_key(move: Move) -> tuple[int, tuple[tuple[int, str, bool, bool], ...], str]:
    """A total order on moves, used to break ties the same way every time.

    Placements come first, in the order of their squares and faces; then exchanges; then pass.

    >>> move_key(Pass()) > move_key(Exchange("1"))
    True
    """
    if isinstance(move, Place):
        return (0, tuple((t.square, t.face, t.blank, t.rotated) for t in move.tiles), "")
    if isinstance(move, Exchange):
        return (1, (), move.tiles)
    return (2, (), "")


def can_exchange(game: Game) -> bool:
    """Whether the bag is full enough for an exchange (docs/rules.md §3)."""
    return game.bag_size >= game.rules.rack_size and bool(game.rack())


def fallback_move(game: Game) -> Move:
    """What a player does with no placement: exchange the whole rack, else pass."""
    if can_exchange(game):
        return Exchange(game.rack())
    return Pass()


# -- equity ---------------------------------------------------------------------------------


class EquityEvaluator:
    """Equity of moves in one position: score plus what the kept tiles are worth.

    While the bag holds a rack's worth of tiles the leave table counts fully; as it empties
    its weight falls, and once it is empty the tiles kept count against us (twice their
    points, since the opponent who goes out also gains them), while going out earns twice
    the points of the unseen tiles (which are then exactly the other racks).
    """

    def __init__(self, game: Game, table: LeaveTable) -> None:
        self.rack = game.rack()
        self.table = table
        rack_size = game.rules.rack_size
        self.bag_size = game.bag_size
        self.weight = min(1.0, self.bag_size / rack_size)
        self.unseen_points = leave_points(game.unseen()) if self.bag_size == 0 else 0
        self._values: dict[str, float] = {}

    def leave_value(self, leave: str) -> float:
        """The worth of keeping `leave` (codes, any order) in this position."""
        key = "".join(sorted(leave))
        value = self._values.get(key)
        if value is None:
            if self.bag_size == 0:
                value = -2.0 * leave_points(key) if key else 2.0 * self.unseen_points
            else:
                value = self.weight * self.table.value(key)
            self._values[key] = value
        return value

    def best_leave_value(self) -> float:
        """An upper bound on any leave of this rack: the best of its sub-racks."""
        return max(self.leave_value(kept) for kept in distinct_subsets(self.rack))


def ranked_candidates(
    game: Game,
    table: LeaveTable,
    moves: Sequence[GeneratedMove] | None = None,
    limit: int | None = None,
    include_exchanges: bool = True,
    best_first: bool = False,
    distinct: bool = False,
) -> list[Candidate]:
    """The best moves by equity (all of them, or the best `limit`), best first.

    Placements, the distinct exchanges (when the bag allows) and pass are all considered.
    Ties are broken by score and then :func:`move_key`, so the order is deterministic.
    `moves` are the placements, if already generated, in any order; `best_first` says they
    are already in :func:`~binscrabble.movegen.sort_key` order (as
    :func:`~binscrabble.movegen.generate_moves` lists them), so they need no sorting.

    With `distinct`, placements that put the same tiles on the same squares (the same
    equation in another order, a blank standing for another face) count once: only the
    first in the generator's order is kept. They have the same score and leave, hence the
    same equity, and a simulation would spend its rollouts comparing near twins: two in
    five of the top six candidates of middle games are such twins.

    >>> from binscrabble.board import Board
    >>> from binscrabble.game import Game
    >>> from binscrabble.rules import Rules
    >>> game = Game.from_setup(Rules(), Board(), ["1+1=10x", "000000"], bag=list("10=" * 5))
    >>> table = LeaveTable.default()
    >>> [c.move.notation(game.board) for c in ranked_candidates(game, table, limit=3)]
    ['H4 0+1=1', 'H4 1+0=1', 'H4 1=0+1']
    >>> twins = ranked_candidates(game, table, limit=3, distinct=True)
    >>> [c.move.notation(game.board) for c in twins]
    ['H4 0+1=1', '8D 0+1=1', '8H 0+1=1']
    """
    evaluator = EquityEvaluator(game, table)
    rack = evaluator.rack
    if moves is None:
        moves, best_first = generate_moves(game), True
    # A generated MoveList is read lazily, best first: with `limit`, the scan below stops
    # long before the end, so most move objects (millions, with blanks) are never made.
    by_score: Iterable[GeneratedMove] = moves if best_first else sorted(moves, key=sort_key)
    candidates: list[Candidate] = [Candidate(Pass(), 0, rack, evaluator.leave_value(rack))]
    if include_exchanges and can_exchange(game):
        for kept in distinct_subsets(rack):
            if len(kept) < len(rack):
                thrown = leave_after(rack, kept)
                candidates.append(Candidate(Exchange(thrown), 0, kept, evaluator.leave_value(kept)))
    ceiling = evaluator.best_leave_value()
    # The `limit` best equities so far (a min-heap): its smallest is the bar to clear.
    best: list[float] = []
    if limit is not None:
        for candidate in candidates:
            _keep_best(best, candidate.equity, limit)
    # The leave of each distinct set of tiles used, computed once (many moves use the same).
    leaves: dict[str, str] = {}
    seen: set[tuple[tuple[int, ...], str]] = set()
    for generated in by_score:
        # Moves come best score first: once even the best leave cannot lift a move above
        # the bar, no later move can clear it either.
        if limit is not None and len(best) == limit and generated.score + ceiling < best[0]:
            break
        used = used_codes(generated)
        if distinct:
            twin = (generated.squares, used)
            if twin in seen:
                continue
            seen.add(twin)
        leave = leaves.get(used)
        if leave is None:
            leave = leaves[used] = leave_after(rack, used)
        equity = generated.score + evaluator.leave_value(leave)
        if limit is not None:
            if len(best) == limit and equity < best[0]:
                continue  # not among the best: its Place is never built
            _keep_best(best, equity, limit)
        candidates.append(Candidate(generated.place, generated.score, leave, equity))
    candidates.sort(key=candidate_order)
    return candidates if limit is None else candidates[:limit]


#: The rack code of each generated option (an index into FACES; the last is a rotated ``=``,
#: which is an ``=`` tile).
_OPTION_CODES: tuple[str, ...] = (*FACES, "=")


def used_codes(generated: GeneratedMove) -> str:
    """The rack codes a generated placement uses, sorted (``?`` for each blank), read from
    the generator's option codes without building its :class:`~binscrabble.move.Place`.

    >>> from binscrabble.board import Board
    >>> from binscrabble.movegen import generate_placements
    >>> from binscrabble.rules import Rules
    >>> move = generate_placements(Board(), "1=1", Rules())[0]
    >>> used_codes(move) == "".join(sorted(move.place.codes))
    True
    """
    blanks = generated.blanks
    options = generated.options
    if not blanks:
        return "".join(sorted([_OPTION_CODES[option] for option in options]))
    return "".join(
        sorted(
            [
                BLANK if index in blanks else _OPTION_CODES[option]
                for index, option in enumerate(options)
            ]
        )
    )


def _keep_best(best: list[float], value: float, limit: int) -> None:
    if len(best) < limit:
        heapq.heappush(best, value)
    elif value > best[0]:
        heapq.heapreplace(best, value)


def candidate_order(candidate: Candidate) -> tuple[float, int, tuple[object, ...]]:
    """The sort key of the equity ranking: best equity first, then best score, then
    :func:`move_key`."""
    return (-candidate.equity, -candidate.score, move_key(candidate.move))


def distinct_subsets(rack: str) -> list[str]:
    """Every distinct sub-multiset of the rack (as sorted codes), from empty to all.

    >>> distinct_subsets("110")
    ['', '0', '1', '01', '11', '011']
    """
    seen: set[str] = set()
    subsets: list[str] = []
    ordered = "".join(sorted(rack))
    for size in range(len(ordered) + 1):
        for chosen in combinations(ordered, size):
            text = "".join(chosen)
            if text not in seen:
                seen.add(text)
                subsets.append(text)
    return subsets


# -- the players --------------------------------------------------------------------------


class RandomPlayer:
    """Plays a legal placement chosen uniformly at random (seeded)."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.random = random.Random(seed)

    def choose(self, game: Game, budget: float | None = None) -> Move:
        # Generated moves come in a fixed order, so a seed gives the same choice every time.
        moves = generate_moves(game)
        if not moves:
            return fallback_move(game)
        return self.random.choice(moves).place


class GreedyPlayer:
    """Plays the highest-scoring placement (ties: the generator's fixed order, fewest tiles
    first)."""

    def __init__(self, name: str = "greedy") -> None:
        self.name = name

    def choose(self, game: Game, budget: float | None = None) -> Move:
        moves = best_moves(game, 1)
        if not moves:
            return fallback_move(game)
        return moves[0].place


class EquityPlayer:
    """Maximises score plus leave value; exchanges or passes when those are worth more."""

    def __init__(self, table: LeaveTable | None = None, name: str = "equity") -> None:
        self.name = name
        self.table = table if table is not None else LeaveTable.default()

    def choose(self, game: Game, budget: float | None = None) -> Move:
        return ranked_candidates(game, self.table, limit=1)[0].move


class SamplingPlayer:
    """A player who misses moves, as people do: a weaker level by design.

    It sees each placement with probability `seen` (and only placements of at most
    `max_tiles` tiles, when set) and takes the best score among what it sees. If it sees
    nothing while there are placements, it finds one of them at random.
    """

    def __init__(
        self,
        seen: float,
        max_tiles: int | None = None,
        seed: int | None = None,
        name: str = "sampling",
    ) -> None:
        if not 0 < seen <= 1:
            raise ValueError(f"seen must be a fraction in (0, 1], not {seen}")
        self.name = name
        self.seen = seen
        self.max_tiles = max_tiles
        self.random = random.Random(seed)

    def choose(self, game: Game, budget: float | None = None) -> Move:
        moves = generate_moves(game)  # best score first, in a fixed order
        if not moves:
            return fallback_move(game)
        draw = self.random.random
        visible = [
            move
            for move in moves
            if (self.max_tiles is None or len(move.squares) <= self.max_tiles)
            and draw() < self.seen
        ]
        if not visible:
            return self.random.choice(moves).place
        return visible[0].place
