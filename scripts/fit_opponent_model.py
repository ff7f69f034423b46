"""Fit the simulation's model of the tiles an opponent keeps, and write
src/binscrabble/engine/data/opponent.json.

    .venv/bin/python scripts/fit_opponent_model.py --games 200 --seed 70000 --jobs 2

A simulation deals the tiles it cannot see at random. The opponent's rack, though, is not a
random draw: after its last move it kept the tiles it valued (its *leave*) and drew the rest.
The equity player, for instance, keeps a NOT three times as often as the unseen tiles would
give it and an `=` a third as often. This script plays `--games` games between two equity
players (the shipped leave table) and records, after every move that leaves tiles in the
bag, the tiles the mover kept and the tiles its opponent could not see at that moment. It
then fits one weight per tile face such that drawing the kept tiles from the unseen tiles
with those weights (without replacement; :func:`binscrabble.engine.simulation.deal_kept`)
gives each face as often as the players kept it. The fit is a fixed number of
multiplicative updates against Monte-Carlo expected counts with a fixed seed, so the result
is reproducible from the seed of the games.

It prints, for the record, the mean leave value of the opponent's real racks, of racks
dealt uniformly, and of racks dealt with the fitted weights.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.players import ranked_candidates
from binscrabble.engine.simulation import deal_kept
from binscrabble.game import Game

HERE = Path(__file__).resolve().parent
OUTPUT = HERE.parent / "src/binscrabble/engine/data/opponent.json"
FIT_ROUNDS = 10
FIT_DRAWS = 10
#: How far each round moves a weight towards its ratio (below 1 damps the updates).
FIT_STEP = 0.8

#: One observation: the tiles the mover kept, the tiles its opponent could not see, and the
#: mover's whole rack after drawing.
Observation = tuple[str, str, str]


def play_game(seed: int) -> list[Observation]:
    """One game between equity players; what each move kept, seen from the other seat."""
    table = LeaveTable.default()
    game = Game(("A", "B"), seed=seed)
    found: list[Observation] = []
    while not game.is_over():
        chosen = ranked_candidates(game, table, limit=1)[0]
        mover = game.to_move
        game.push(chosen.move)
        if game.is_over() or game.bag_size == 0:
            continue
        found.append((chosen.leave, game.unseen(game.to_move), game.rack(mover)))
    return found


def _played(seeds: Sequence[int], jobs: int) -> Iterator[list[Observation]]:
    """The observations of each game, in order (in this process with one job)."""
    if jobs == 1:
        yield from map(play_game, seeds)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(play_game, seeds)


def collect(games: int, seed: int, jobs: int) -> list[Observation]:
    found: list[Observation] = []
    started = time.monotonic()
    for done, observations in enumerate(_played(range(seed, seed + games), jobs), 1):
        found.extend(observations)
        elapsed = time.monotonic() - started
        print(
            f"\r{done}/{games} games, {len(found)} moves, {elapsed:.0f} s",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    return found


def fit(observations: Sequence[Observation], seed: int = 1) -> dict[str, float]:
    """One weight per face: kept tiles drawn from the unseen ones with these weights come out
    as often as observed. Faces never seen get weight 1."""
    kept = [(leave, unseen) for leave, unseen, _ in observations if leave]
    faces = sorted({face for _, unseen in kept for face in unseen})
    observed = Counter(face for leave, _ in kept for face in leave)
    weights = {face: 1.0 for face in faces}
    rng = random.Random(seed)
    for _ in range(FIT_ROUNDS):
        expected: Counter[str] = Counter()
        for leave, unseen in kept:
            for _ in range(FIT_DRAWS):
                for face in deal_kept(unseen, len(leave), weights, rng)[: len(leave)]:
                    expected[face] += 1 / FIT_DRAWS
        for face in faces:
            if expected[face] > 0 and observed[face] > 0:
                weights[face] *= (observed[face] / expected[face]) ** FIT_STEP
        mean = sum(weights.values()) / len(weights)
        weights = {face: weight / mean for face, weight in weights.items()}
    return {face: round(weight, 3) for face, weight in weights.items()}


def rack_values(
    observations: Sequence[Observation], weights: dict[str, float], seed: int = 2
) -> tuple[float, float, float]:
    """Mean leave value of the real racks, of uniform deals and of deals with `weights`."""
    table = LeaveTable.default()
    rng = random.Random(seed)
    real, uniform, modelled = [], [], []
    for leave, unseen, rack in observations:
        real.append(table.value(rack))
        pool = list(unseen)
        rng.shuffle(pool)
        uniform.append(table.value("".join(pool[: len(rack)])))
        modelled.append(table.value(deal_kept(unseen, len(leave), weights, rng)[: len(rack)]))
    return statistics.mean(real), statistics.mean(uniform), statistics.mean(modelled)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=70000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, not {args.jobs}")
    observations = collect(args.games, args.seed, args.jobs)
    weights = fit(observations)
    real, uniform, modelled = rack_values(observations, weights)
    kept_tiles = sum(len(leave) for leave, _, _ in observations)
    result = {
        "weights": weights,
        "games": args.games,
        "seed": args.seed,
        "moves": len(observations),
        "kept_tiles": kept_tiles,
        "rack_value": {
            "real": round(real, 2),
            "uniform": round(uniform, 2),
            "modelled": round(modelled, 2),
        },
    }
    args.output.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print(json.dumps(result, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
