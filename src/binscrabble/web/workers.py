"""The computer's thinking, off the event loop: a bounded pool of worker processes.

A job carries a game as its stored facts (players, rules, seed, moves in notation); the
worker replays it and answers with plain data, so a ``max`` player thinking in one game
never delays a move in another. :func:`replay` is also how the server rebuilds games.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from binscrabble.board import square_name
from binscrabble.engine.analysis import analyze_position
from binscrabble.engine.levels import player_from_name
from binscrabble.expr import explain
from binscrabble.game import Game
from binscrabble.move import Place, move_notation, parse_move
from binscrabble.movegen import generate_moves
from binscrabble.rules import Rules

Result = TypeVar("Result")
#: How often a worker looks whether the server that started it is still there, in seconds.
PARENT_CHECK_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class GameJob:
    """A game as the worker needs it: what is stored, nothing more."""

    players: tuple[str, ...]
    rules: dict[str, Any]
    seed: str
    moves: tuple[str, ...]


def replay(job: GameJob) -> Game:
    """The game the job stands for: its moves replayed on its seeded bag.

    >>> game = replay(GameJob(("A", "B"), {}, "5", ("pass",)))
    >>> game.to_move, len(game.rack(0))
    (1, 9)
    """
    game = Game(job.players, Rules.from_mapping(job.rules), seed=int(job.seed))
    for notation in job.moves:
        game.push(parse_move(notation, game.board))
    return game


def computer_move(job: GameJob, level: str) -> str:
    """The notation of the move a computer of ``level`` plays for the seat to move."""
    game = replay(job)
    player = player_from_name(level, seed=int(job.seed) % 1_000_003 + len(job.moves))
    move = player.choose(game.copy())
    return move_notation(move, game.board)


def hint(job: GameJob) -> dict[str, Any]:
    """The best move of the ``hard`` computer for the seat to move, each run explained."""
    game = replay(job)
    chosen = analyze_position(game, "hard", runners_up=0).chosen
    runs: list[dict[str, Any]] = []
    if isinstance(chosen.move, Place):
        for run in game.score_breakdown(chosen.move).runs:
            runs.append(
                {
                    "text": run.text,
                    "value": run.value,
                    "binary": format(run.value, "b"),
                    "bonus": run.bonus,
                    "score": run.score,
                    "sum": run.explain(),
                    "explanation": str(explain(run.text, game.rules)),
                }
            )
        explanation = (
            f"{chosen.notation} scores {chosen.score}, keeping {chosen.leave or 'no tiles'}: "
            "the best score plus the value of the tiles kept."
        )
    else:
        explanation = (
            f"{chosen.notation}: no play is worth more than changing tiles or passing here."
        )
    return {
        "notation": chosen.notation,
        "score": chosen.score,
        "runs": runs,
        "explanation": explanation,
    }


def analysis(job: GameJob) -> list[dict[str, Any]]:
    """Every turn of a game next to the highest-scoring play there was, and the board
    before it.

    One move generation a turn bounds the cost (a deeper player on every turn of a long
    game takes minutes); a turn whose move scored as much as the best play lost nothing.
    """
    game = replay(GameJob(job.players, job.rules, job.seed, ()))
    result: list[dict[str, Any]] = []
    for number, notation in enumerate(job.moves, 1):
        move = parse_move(notation, game.board)
        score = game.score(move)
        played: dict[str, Any] = {"notation": notation, "score": score}
        best = max(generate_moves(game), key=lambda candidate: candidate.score, default=None)
        best_play = played
        if best is not None and best.score > score:
            best_play = {"notation": move_notation(best.place, game.board), "score": best.score}
        result.append(
            {
                "turn": number,
                "seat": game.to_move,
                "played": played,
                "best": best_play,
                "lost": best_play["score"] - score,
                "board": game.board.rows(),
                "blanks": [square_name(sq) for sq in game.board.blank_squares()],
                "rotated": [square_name(sq) for sq in game.board.rotated_squares()],
            }
        )
        game.push(move)
    return result


def leave_with_parent(parent: int) -> None:
    """In a worker: exit as soon as the server process that started it is gone.

    A killed server cannot stop its workers, and they never see the end of their queue (each
    holds its writing end too), so each watches its parent instead.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


# The most workers by default, as `serve --workers` allows (binscrabble.cli.serve_command).
MOST_WORKERS = 32


def default_workers() -> int:
    """One worker per core but one (kept for the server), at least one and at most 32."""
    return max(1, min(MOST_WORKERS, (os.cpu_count() or 2) - 1))


class Workers:
    """A bounded pool of worker processes, started when first needed."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"the worker pool needs at least 1 process, not {size}")
        self.size = size
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Spawned, not forked: a fork of a running server would copy its threads' locks.
            self._pool = ProcessPoolExecutor(
                max_workers=self.size,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=leave_with_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def run(self, function: Callable[..., Result], *arguments: Any) -> Result:
        """Run ``function(*arguments)`` in a worker process and wait for its answer."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), function, *arguments)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a new pool and try once more.
            self._pool = None
            return await loop.run_in_executor(self._executor(), function, *arguments)

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
