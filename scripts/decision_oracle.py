"""How well does a simulating level choose? Measured decision by decision against a long look-ahead.

    .venv/bin/python scripts/decision_oracle.py oracle 540 560 oracle-a.json
    .venv/bin/python scripts/decision_oracle.py choose max oracle-a.json max.json
    .venv/bin/python scripts/decision_oracle.py choose max oracle-a.json spread.json \
        --objective spread
    .venv/bin/python scripts/decision_oracle.py report oracle-a.json max.json spread.json

`oracle` plays equity self-play games (seeds FIRST to LAST - 1) and, at every other turn of
one seat with 10 to 90 tiles in the bag, simulates the CANDIDATES best distinct equity
candidates for ITERATIONS two-ply iterations each, for the spread, with no pruning: every
candidate meets every deal. It saves each candidate's equity, mean and per-iteration values.
With `--to-end` every rollout is played on to the end of the game instead (both sides by the
rollouts' equity moves), and a value is the change of the final spread.

`choose` replays the same positions and lets a level (with the overrides given) decide each
one at its usual budget; it saves the moves.

`report` values each saved choice by the oracle's mean for that move, minus the oracle's
mean of the equity player's move (the first candidate): the points of two-ply (or, with a
`--to-end` oracle, final) spread a decision gains over equity. Since the level's rollouts
use other deals than the oracle's, the oracle's noise does not favour any choice. With the
oracle alone it also prints what choosing with the first M of the odd-numbered iterations
gains when valued on the even-numbered ones (independent deals): the gain a simulation of M
iterations a candidate could reach, for several M. The spread is the measure: a level
playing for the chance of winning is judged on points here, not on wins (docs/engine.md,
Simulation).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from binscrabble.engine import simulation
from binscrabble.engine.levels import player_from_name
from binscrabble.engine.players import EquityPlayer
from binscrabble.game import Game

#: The positions: every other turn of one seat (which alternates with the seed's parity),
#: with at least this many tiles in the bag ...
LEAST_BAG = 10
#: ... and at most this many.
MOST_BAG = 90


def positions(first: int, last: int) -> Iterator[tuple[int, int, Game]]:
    """(seed, turn, game) of the measured positions of equity games `first` to `last` - 1."""
    equity = EquityPlayer()
    for seed in range(first, last):
        game = Game(("A", "B"), seed=seed)
        turn = 0
        while not game.is_over() and game.bag_size >= LEAST_BAG:
            if game.bag_size <= MOST_BAG and turn % 4 == (seed % 2) * 2:
                yield seed, turn, game
            game.push(equity.choose(game))
            turn += 1


def make_oracle(
    first: int, last: int, candidates: int, iterations: int, path: Path, to_end: bool = False
) -> None:
    # Every candidate takes part in every iteration: nothing is dropped on the way. The
    # simulation module's constants are set for the oracle and put back afterwards.
    saved = (simulation.PRUNE_MARGIN, simulation.EQUITY_GAP, simulation.MIN_ITERATIONS)
    simulation.PRUNE_MARGIN = math.inf
    simulation.EQUITY_GAP = math.inf
    simulation.MIN_ITERATIONS = 0
    try:
        _simulate_positions(first, last, candidates, iterations, path, to_end)
    finally:
        simulation.PRUNE_MARGIN, simulation.EQUITY_GAP, simulation.MIN_ITERATIONS = saved


def _simulate_positions(
    first: int, last: int, candidates: int, iterations: int, path: Path, to_end: bool
) -> None:
    records: list[dict[str, Any]] = []
    for seed, turn, game in positions(first, last):
        started = time.perf_counter()
        player = simulation.SimulationPlayer(
            budget=1e9,
            candidates=candidates,
            plies=2,
            max_iterations=iterations,
            seed=seed * 1000 + turn,
            objective="spread",
            answer_exchanges=True,
            late_bag=MOST_BAG + 1 if to_end else 0,
        )
        player.choose(game)
        seat = game.to_move
        records.append(
            {
                "seed": seed,
                "turn": turn,
                "bag": game.bag_size,
                "spread": game.scores[seat] - game.scores[1 - seat],
                "candidates": [
                    {
                        "move": repr(entry.candidate.move),
                        "equity": entry.candidate.equity,
                        "mean": entry.raw_mean,
                        "values": entry.values,
                    }
                    for entry in player.last_report.candidates
                ],
            }
        )
        path.write_text(json.dumps(records), encoding="utf-8")
        print(
            f"seed {seed} turn {turn}: bag {game.bag_size}, "
            f"{player.last_report.iterations} iterations, {time.perf_counter() - started:.1f} s",
            file=sys.stderr,
            flush=True,
        )


def choose(level: str, oracle: Path, path: Path, overrides: dict[str, Any]) -> None:
    records = json.loads(oracle.read_text(encoding="utf-8"))
    wanted = {(record["seed"], record["turn"]) for record in records}
    seeds = sorted({seed for seed, _ in wanted})
    choices: list[dict[str, Any]] = []
    done = 0
    for seed, turn, game in positions(seeds[0], seeds[-1] + 1):
        if (seed, turn) not in wanted:
            continue
        player = player_from_name(level, seed=seed * 7 + turn + 1)
        for name, value in overrides.items():
            setattr(player, name, value)
        move = player.choose(game)
        choices.append({"seed": seed, "turn": turn, "move": repr(move)})
        done += 1
        print(f"\r{done}/{len(wanted)} positions", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    path.write_text(json.dumps(choices), encoding="utf-8")


def _mean_and_error(values: Sequence[float]) -> str:
    if not values:
        return "none"
    error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return f"{statistics.mean(values):+.2f} ± {error:.2f}"


def report(oracle: Path, runs: Sequence[Path]) -> None:
    records = {(r["seed"], r["turn"]): r for r in json.loads(oracle.read_text(encoding="utf-8"))}
    print(f"{len(records)} positions")
    gains: dict[Path, dict[tuple[int, int], float]] = {}
    for run in runs:
        found: dict[tuple[int, int], float] = {}
        missing = 0
        for choice in json.loads(run.read_text(encoding="utf-8")):
            record = records.get((choice["seed"], choice["turn"]))
            if record is None:
                continue
            means = {c["move"]: c["mean"] for c in record["candidates"]}
            if choice["move"] not in means:
                missing += 1
                continue
            found[(choice["seed"], choice["turn"])] = (
                means[choice["move"]] - record["candidates"][0]["mean"]
            )
        gains[run] = found
        outside = f"{missing} moves outside the oracle's candidates"
        if found:
            print(
                f"{run}: {_mean_and_error(list(found.values()))} points a decision over the "
                f"equity move ({len(found)} decisions; {outside})"
            )
        else:
            print(f"{run}: no decision valued ({outside})")
    if runs:
        first = gains[runs[0]]
        for run in runs[1:]:
            common = sorted(set(first) & set(gains[run]))
            differences = [gains[run][key] - first[key] for key in common]
            if differences:
                print(f"{run} minus {runs[0]}: {_mean_and_error(differences)}")
    print("choosing with M odd-numbered iterations, valued on the even-numbered ones:")
    for m in (5, 10, 20, 30, 45, 60):
        curve = []
        for record in records.values():
            candidates = record["candidates"]
            if min(len(c["values"]) for c in candidates) < 2 * m:
                continue
            chosen = [statistics.mean(c["values"][1::2][:m]) for c in candidates]
            best = max(range(len(candidates)), key=lambda i: (chosen[i], candidates[i]["equity"]))
            valued = [statistics.mean(c["values"][0::2]) for c in candidates]
            curve.append(valued[best] - valued[0])
        if curve:
            print(f"  M = {m:>2}: {_mean_and_error(curve)} ({len(curve)} decisions)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    oracle = commands.add_parser("oracle", help="long simulations of the positions' candidates")
    oracle.add_argument("first", type=int)
    oracle.add_argument("last", type=int)
    oracle.add_argument("out", type=Path)
    oracle.add_argument("--candidates", type=int, default=10)
    oracle.add_argument("--iterations", type=int, default=120)
    oracle.add_argument(
        "--to-end",
        action="store_true",
        help="play every rollout to the end of the game (the final spread) instead of two plies",
    )
    chooser = commands.add_parser("choose", help="a level's choices on the oracle's positions")
    chooser.add_argument("level")
    chooser.add_argument("oracle", type=Path)
    chooser.add_argument("out", type=Path)
    chooser.add_argument("--objective", choices=simulation.OBJECTIVES)
    chooser.add_argument("--candidates", type=int)
    chooser.add_argument("--plies", type=int, choices=simulation.PLIES)
    reporter = commands.add_parser("report", help="gains over the equity move")
    reporter.add_argument("oracle", type=Path)
    reporter.add_argument("runs", type=Path, nargs="*")
    arguments = parser.parse_args(argv)
    if arguments.command == "oracle":
        make_oracle(
            arguments.first,
            arguments.last,
            arguments.candidates,
            arguments.iterations,
            arguments.out,
            arguments.to_end,
        )
    elif arguments.command == "choose":
        overrides: dict[str, Any] = {}
        if arguments.objective is not None:
            overrides["objective"] = arguments.objective
        if arguments.candidates is not None:
            overrides["candidate_count"] = arguments.candidates
        if arguments.plies is not None:
            overrides["plies"] = arguments.plies
        choose(arguments.level, arguments.oracle, arguments.out, overrides)
    else:
        report(arguments.oracle, arguments.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
