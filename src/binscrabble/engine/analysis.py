"""Analysis: the engine's view of a position (``best``) and of every turn of a game (``analyze``).

:func:`analyze_position` asks a player (a level or a strategy) for its move and reports it
with its score and equity, next to the runners-up. :func:`analyze_game` walks through a
game turn by turn and compares the move played with the engine's choice: how many points
and how much equity (score plus leave value) the move played gave away.

>>> game = Game(("A", "B"), seed=4)
>>> analysis = analyze_position(game, "greedy")
>>> analysis.chosen.score == max(move.score for move in generate_moves(game))
True
>>> len(analysis.runners_up)
5
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.levels import player_from_name
from binscrabble.engine.players import (
    Candidate,
    EquityEvaluator,
    leave_after,
    ranked_candidates,
)
from binscrabble.engine.simulation import SimulationPlayer
from binscrabble.game import Game
from binscrabble.move import Exchange, Move, Pass, Place
from binscrabble.movegen import generate_moves


@dataclass(frozen=True, slots=True)
class MoveEvaluation:
    """One move as the engine sees it: score, tiles kept, equity, simulated value if any."""

    move: Move
    notation: str
    score: int
    leave: str
    equity: float
    simulated: float | None = None

    def to_dict(self) -> dict[str, object]:
        """JSON-able fields, numbers rounded to a tenth."""
        return {
            "notation": self.notation,
            "score": self.score,
            "leave": self.leave,
            "equity": round(self.equity, 1),
            "simulated": None if self.simulated is None else round(self.simulated, 1),
        }


@dataclass(frozen=True, slots=True)
class PositionAnalysis:
    """The choice of `player` in a position, and the moves it weighed against it."""

    player: str
    chosen: MoveEvaluation
    runners_up: tuple[MoveEvaluation, ...]
    #: The best moves of the position by equity, best first: as many as the runners-up
    #: needed (ranking every move would take minutes on a rack with blanks).
    candidates: tuple[Candidate, ...]
    seconds: float

    def to_dict(self) -> dict[str, object]:
        """The analysis as a JSON-able mapping."""
        return {
            "player": self.player,
            "move": self.chosen.to_dict(),
            "runners_up": [evaluation.to_dict() for evaluation in self.runners_up],
            "seconds": round(self.seconds, 2),
        }


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """One turn of a game: what was played, what the engine prefers, and what it cost."""

    turn: int
    player: str
    rack: str
    played: MoveEvaluation
    best: MoveEvaluation

    @property
    def points_lost(self) -> int:
        """Points the engine's move would have scored over the move played (at least 0)."""
        return max(0, self.best.score - self.played.score)

    @property
    def equity_lost(self) -> float:
        """Equity (score plus leave value) given away by the move played (at least 0)."""
        return max(0.0, self.best.equity - self.played.equity)

    def to_dict(self) -> dict[str, object]:
        """The turn as a JSON-able mapping."""
        return {
            "turn": self.turn,
            "player": self.player,
            "rack": self.rack,
            "played": self.played.to_dict(),
            "best": self.best.to_dict(),
            "points_lost": self.points_lost,
            "equity_lost": round(self.equity_lost, 1),
        }


def notation_of(move: Move, game: Game) -> str:
    """A move's notation on the game's board (``-CODES`` for an exchange, ``pass``)."""
    if isinstance(move, Place):
        return move.notation(game.board)
    if isinstance(move, Exchange):
        return move.notation()
    return Pass().notation()


def evaluate_candidate(
    candidate: Candidate, game: Game, simulated: float | None = None
) -> MoveEvaluation:
    """A ranked candidate as a :class:`MoveEvaluation`."""
    return MoveEvaluation(
        move=candidate.move,
        notation=notation_of(candidate.move, game),
        score=candidate.score,
        leave=candidate.leave,
        equity=candidate.equity,
        simulated=simulated,
    )


def evaluate_move(move: Move, game: Game, table: LeaveTable) -> MoveEvaluation:
    """Any legal `move` of the seat to move: its score, the tiles it keeps and its equity."""
    rack = game.rack()
    if isinstance(move, Place):
        leave = leave_after(rack, move.codes)
    elif isinstance(move, Exchange):
        leave = leave_after(rack, move.tiles)
    else:
        leave = rack
    score = game.score(move)
    equity = score + EquityEvaluator(game, table).leave_value(leave)
    return MoveEvaluation(move, notation_of(move, game), score, leave, equity)


def _placement_key(move: Move) -> object:
    """What a move puts where, blanks aside (exchanges and passes are themselves)."""
    if isinstance(move, Place):
        return tuple((tile.square, tile.face, tile.rotated) for tile in move.tiles)
    return move


def analyze_position(
    game: Game,
    player: str = "max",
    runners_up: int = 5,
    seed: int | None = 0,
    budget: float | None = None,
    table: LeaveTable | None = None,
) -> PositionAnalysis:
    """What `player` plays for the seat to move of `game`, with the runners-up.

    The runners-up are the next best moves in the player's own ranking: by simulated value
    for a simulating player, otherwise by equity.
    """
    table = table if table is not None else LeaveTable.default()
    engine = player_from_name(player, seed=seed, table=table)
    started = time.perf_counter()
    move = engine.choose(game.copy(), budget)
    seconds = time.perf_counter() - started
    ranking: list[tuple[Candidate, float | None]]
    if isinstance(engine, SimulationPlayer) and engine.last_report.candidates:
        simulated = sorted(
            engine.last_report.candidates,
            key=lambda entry: (entry.count == 0, -entry.mean, -entry.candidate.equity),
        )
        ranking = [(entry.candidate, entry.mean if entry.count else None) for entry in simulated]
        candidates = [candidate for candidate, _ in ranking]
    else:
        candidates = _best_by_equity(game, table, move, runners_up)
        ranking = [(candidate, None) for candidate in candidates]
    chosen = next(
        (
            evaluate_candidate(candidate, game, value)
            for candidate, value in ranking
            if candidate.move == move
        ),
        None,
    ) or evaluate_move(move, game, table)
    others = _runners_up(ranking, move, game, runners_up)
    return PositionAnalysis(
        player=engine.name,
        chosen=chosen,
        runners_up=others,
        candidates=tuple(candidates),
        seconds=seconds,
    )


def _best_by_equity(game: Game, table: LeaveTable, chosen: Move, wanted: int) -> list[Candidate]:
    """The best moves by equity, enough to hold `wanted` runners-up besides `chosen`.

    Placements that differ only in a blank count once among the runners-up, so the ranking
    is asked for twice as many again until it holds enough or has nothing more to give.
    """
    limit = 2 * wanted + 2
    while True:
        candidates = ranked_candidates(game, table, generate_moves(game), limit=limit)
        distinct = {_placement_key(candidate.move) for candidate in candidates}
        distinct.discard(_placement_key(chosen))
        if len(distinct) >= wanted or len(candidates) < limit:
            return candidates
        limit *= 2


def _runners_up(
    ranking: Sequence[tuple[Candidate, float | None]], chosen: Move, game: Game, wanted: int
) -> tuple[MoveEvaluation, ...]:
    """The first `wanted` moves of `ranking` other than `chosen`, one line per placement: a
    version that only puts a blank where a natural tile would do is another legal move, but
    listing it again says nothing new."""
    shown = {_placement_key(chosen)}
    others: list[MoveEvaluation] = []
    for candidate, value in ranking:
        if len(others) == wanted:
            break
        key = _placement_key(candidate.move)
        if key not in shown:
            shown.add(key)
            others.append(evaluate_candidate(candidate, game, value))
    return tuple(others)


def analyze_game(
    game: Game,
    player: str = "hard",
    seed: int | None = 0,
    budget: float | None = None,
    table: LeaveTable | None = None,
) -> list[TurnAnalysis]:
    """Every turn of `game` (as played so far), compared with the choice of `player`.

    `game` is left as it is: the analysis works on a copy, taken back to the start.
    """
    table = table if table is not None else LeaveTable.default()
    replay = game.copy()
    moves: list[Move] = []
    while replay.history:
        moves.append(replay.pop())
    moves.reverse()
    turns: list[TurnAnalysis] = []
    for number, move in enumerate(moves, 1):
        seat = replay.to_move
        analysis = analyze_position(
            replay, player, runners_up=0, seed=seed, budget=budget, table=table
        )
        played = evaluate_move(move, replay, table)
        turns.append(
            TurnAnalysis(
                turn=number,
                player=replay.players[seat],
                rack=replay.rack(),
                played=played,
                best=analysis.chosen,
            )
        )
        replay.push(move)
    return turns
