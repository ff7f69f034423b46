"""The endgame: once the bag is empty, every tile is known.

The opponent's rack is exactly the tiles our seat cannot see, so nothing is left to sample.
With few tiles on the racks the game is searched exactly to its end (:func:`solve_endgame`:
every move of both sides, alpha-beta with a transposition table). Otherwise, or when that
search does not finish in its budget, each candidate is followed by the opponent's best
replies and both sides play on greedily to the end (:func:`endgame_value`).

>>> from binscrabble.board import Board
>>> from binscrabble.rules import Rules
>>> world = Game.from_setup(Rules(), Board(), ["1=1", "0"], bag=[])
>>> move, value = solve_endgame(world)
>>> move.notation(world.board), value
('8F 1=1', 10.0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Final

from binscrabble.engine.winchance import score_lead
from binscrabble.game import Game
from binscrabble.move import Move, Pass, Place
from binscrabble.movegen import best_moves, generate_moves

#: Endgames with at most this many tiles on the two racks are searched exactly (with half
#: the budget; the play-outs get what is left when the search does not finish): at 0.5 s
#: the search finished on 81 of 207 positions with 11-14 tiles and gained 0.5 points of
#: final spread a decision; with 15 or more it finished on none of 44 in a quarter second.
EXACT_TILES: Final = 14
#: How many equity candidates the endgame play-outs consider (when it is not solved exactly).
ENDGAME_CANDIDATES: Final = 16
#: How many of the opponent's best replies each round of the endgame play-outs tries.
ENDGAME_REPLY_WIDTHS: Final = (4, 8)


def endgame_value(world: Game, seat: int, move: Move, replies: int = 4) -> float:
    """The final spread for `seat` after `move`, once the bag is empty.

    The opponent answers with whichever of its `replies` best-scoring moves (or pass) leaves
    it best off when both sides then play greedily to the end. `world` is left unchanged.
    """
    start = score_lead(world.scores, seat)
    world.push(move, checked=False)
    try:
        if world.is_over():
            return float(score_lead(world.scores, seat) - start)
        options: list[Move] = [generated.place for generated in best_moves(world, replies)]
        if replies > 1 or not options:
            options.append(Pass())
        worst = math.inf
        for reply in options:
            world.push(reply, checked=False)
            try:
                worst = min(worst, greedy_to_end(world, seat))
            finally:
                world.pop()
        return worst - start
    finally:
        world.pop()


class _OutOfBudget(Exception):
    """The exact endgame search ran out of its time or of its positions."""


def solve_endgame(
    world: Game,
    deadline: float = math.inf,
    clock: Callable[[], float] = time.perf_counter,
    max_positions: int | None = None,
) -> tuple[Move, float] | None:
    """The best move for the seat to move of a two-player endgame, searched exactly.

    Every placement and pass of both sides, to the end of the game (going out, or six
    scoreless turns), with alpha-beta pruning and a transposition table; the value is the
    final spread for the seat to move. ``None`` when the search cannot finish before
    `deadline`, a time on `clock` (the wall clock unless told), or within `max_positions`
    positions searched (a bound that does not depend on the machine's speed). `world` is
    left unchanged.
    """
    search = _EndgameSearch(world, deadline, clock, max_positions)
    try:
        value, move = search.negamax(frozenset(), -math.inf, math.inf)
    except _OutOfBudget:
        return None
    return (move if move is not None else Pass()), value


#: Kinds of values in the endgame's transposition table (alpha-beta bounds).
_EXACT, _LOWER, _UPPER = 0, 1, 2


class _EndgameSearch:
    """Negamax with alpha-beta over every move of a known endgame.

    Positions reached by different orders of the same plays (and, above all, by passes,
    which change nothing but whose turn it is and the count of scoreless turns) are looked
    up in a table. What is stored is the value *still to come* (the final spread minus the
    spread now), so that positions reached with different scores share it: what remains of
    the game depends only on the board, the racks, the seat to move and the scoreless count.
    The placements of a board and rack are generated once and reused.
    """

    def __init__(
        self,
        world: Game,
        deadline: float,
        clock: Callable[[], float],
        max_positions: int | None,
    ) -> None:
        self.world = world
        self.deadline = deadline
        self.clock = clock
        #: Positions left to search (``math.inf``: no bound but the time).
        self.positions_left: float = math.inf if max_positions is None else max_positions
        self.table: dict[tuple[object, ...], tuple[float, int, Move | None]] = {}
        self.moves: dict[tuple[object, ...], list[Move]] = {}

    def negamax(
        self, placed: frozenset[object], alpha: float, beta: float
    ) -> tuple[float, Move | None]:
        world = self.world
        now = float(score_lead(world.scores, world.to_move))
        if world.is_over():
            return now, None
        racks = tuple("".join(sorted(rack)) for rack in world.racks)
        key = (placed, racks, world.to_move, world.scoreless_turns)
        first: Move | None = None
        entry = self.table.get(key)
        if entry is not None:
            stored, kind, first = entry
            value = stored + now
            if kind == _EXACT:
                return value, first
            if kind == _LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value, first
        self.positions_left -= 1
        if self.positions_left < 0 or self.clock() >= self.deadline:
            raise _OutOfBudget
        original_alpha = alpha
        moves = self._moves(placed, racks[world.to_move])
        if first is not None and first in moves:
            # The best move found before (at a shallower bound) first: it cuts soonest.
            moves = [first, *(move for move in moves if move != first)]
        best, best_move = -math.inf, None
        for move in moves:
            after = placed | frozenset(move.tiles) if isinstance(move, Place) else placed
            world.push(move, checked=False)
            try:
                value = -self.negamax(after, -beta, -alpha)[0]
            finally:
                world.pop()
            if value > best:
                best, best_move = value, move
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        kind = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        self.table[key] = (best - now, kind, best_move)
        return best, best_move

    def _moves(self, placed: frozenset[object], rack: str) -> list[Move]:
        """Every placement (best scores first: good moves early make alpha-beta cut more)
        and pass."""
        key = (placed, rack)
        moves = self.moves.get(key)
        if moves is None:
            moves = [generated.place for generated in generate_moves(self.world)]
            moves.append(Pass())
            self.moves[key] = moves
        return moves


def greedy_to_end(world: Game, seat: int) -> float:
    """Both sides play their best-scoring move (or pass) until the game ends; the spread."""
    pushed = 0
    try:
        while not world.is_over():
            best = best_moves(world, 1)
            world.push(best[0].place if best else Pass(), checked=False)
            pushed += 1
        return float(score_lead(world.scores, seat))
    finally:
        for _ in range(pushed):
            world.pop()


__all__ = [
    "ENDGAME_CANDIDATES",
    "ENDGAME_REPLY_WIDTHS",
    "EXACT_TILES",
    "endgame_value",
    "greedy_to_end",
    "solve_endgame",
]
