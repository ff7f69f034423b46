"""Engine benchmark: time per move of the hard (equity) and max (simulation) levels, and of
whole greedy games.

Prints figures; never passes or fails on time. Positions come from seeded games between
greedy players (openings, middle games and late boards), so the run is the same every time.
Wall-clock seconds are shown next to CPU seconds: the simulation's time budget is CPU time
of its thread (at most three times the budget on the wall clock), so on a busy machine its
CPU time stays near the budget while its wall time grows.
"""

from __future__ import annotations

import statistics
import sys
import time

from binscrabble.engine.levels import player_from_name
from binscrabble.engine.players import EquityPlayer, GreedyPlayer
from binscrabble.engine.rollout import Plies
from binscrabble.engine.selfplay import play_game
from binscrabble.engine.simulation import SimulationPlayer
from binscrabble.game import Game

#: (seed, turns played before the position) of the positions timed.
POSITIONS = ((1, 0), (2, 3), (3, 6), (4, 9), (5, 12))


def position(seed: int, turns: int) -> Game:
    game = Game(("A", "B"), seed=seed)
    greedy = GreedyPlayer()
    for _ in range(turns):
        if game.is_over():
            break
        game.push(greedy.choose(game))
    return game


def time_level(level: str, positions: list[Game]) -> None:
    walls, cpus = [], []
    for number, game in enumerate(positions):
        player = player_from_name(level, seed=number)
        wall, cpu = time.perf_counter(), time.process_time()
        move = player.choose(game)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        report = player.last_report if isinstance(player, SimulationPlayer) else None
        detail = (
            f"{report.iterations:>3} iterations, {report.rollouts:>3} rollouts"
            f"{' (endgame)' if report.endgame else ''}"
            if report is not None
            else ""
        )
        print(
            f"  {level:<5} position {number + 1} (bag {game.bag_size:>2}): "
            f"{walls[-1]:5.2f} s wall, {cpus[-1]:5.2f} s CPU  {detail}  -> "
            f"{move.notation(game.board)}"
        )
    print(
        f"  {level}: mean {statistics.mean(walls):.2f} s, worst {max(walls):.2f} s per move "
        f"(wall); mean CPU {statistics.mean(cpus):.2f} s"
    )


#: Seeds of the equity self-play games whose positions (bag not empty) the rollout count uses.
ROLLOUT_GAMES = (1, 2)


def equity_positions(seed: int) -> list[Game]:
    """Every position of an equity self-play game with tiles in the bag."""
    game = Game(("A", "B"), seed=seed)
    equity = EquityPlayer()
    positions = []
    while not game.is_over() and game.bag_size > 0:
        positions.append(game.copy())
        game.push(equity.choose(game))
    return positions


def rollouts_per_decision(budget: float = 0.5, plies: Plies = 2) -> None:
    """Iterations and rollouts of a simulation of the 6 best candidates (as `max` and
    `simulation`) with `budget` seconds a move and `plies` plies, on the positions of equity
    games."""
    print(f"rollouts per decision, 6 candidates, {plies} ply, {budget:g} s (CPU budget)")
    phases: dict[str, list[tuple[int, int, int]]] = {}
    for seed in ROLLOUT_GAMES:
        for number, game in enumerate(equity_positions(seed)):
            player = SimulationPlayer(budget=budget, candidates=6, plies=plies, seed=number)
            player.choose(game)
            report = player.last_report
            simulated = sum(1 for entry in report.candidates if entry.count)
            phase = (
                "opening (bag >= 80)"
                if game.bag_size >= 80
                else ("middle (bag 10-79)" if game.bag_size >= 10 else "late (bag 1-9)")
            )
            phases.setdefault(phase, []).append((report.iterations, report.rollouts, simulated))
    for phase, rows in phases.items():
        print(
            f"  {phase:<20} {len(rows):>3} decisions: "
            f"{statistics.mean(row[0] for row in rows):5.1f} iterations, "
            f"{statistics.mean(row[1] for row in rows):6.1f} rollouts, "
            f"{statistics.mean(row[2] for row in rows):4.1f} candidates simulated (means); "
            f"{sum(1 for row in rows if row[0] == 0)} with no iteration"
        )


def main() -> int:
    if "--rollouts" in sys.argv[1:]:
        rollouts_per_decision(plies=1)
        rollouts_per_decision(plies=2)
        return 0
    positions = [position(seed, turns) for seed, turns in POSITIONS]
    print("time per move")
    time_level("hard", positions)
    time_level("max", positions)
    print("greedy self-play games (whole games, both seats greedy)")
    seconds, cpus = [], []
    for index in range(4):
        wall, cpu = time.perf_counter(), time.process_time()
        result = play_game(("greedy", "greedy"), index, seed=1)
        seconds.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        print(
            f"  game {index + 1}: {seconds[-1]:.2f} s wall, {cpus[-1]:.2f} s CPU, "
            f"{result.turns} turns, scores {result.scores}"
        )
    print(
        f"  mean {statistics.mean(seconds):.2f} s wall ({statistics.mean(cpus):.2f} s CPU) per "
        f"game, worst {max(seconds):.2f} s wall"
    )
    rollouts_per_decision(plies=1)
    rollouts_per_decision(plies=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
