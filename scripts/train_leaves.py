"""Learn the leave table from self-play and write src/binscrabble/engine/data/leaves.json.

The shipped table, weight for weight (docs/engine.md, Equity and the leave table):

    .venv/bin/python scripts/train_leaves.py --games 216 --rounds 1 --seed 2 --jobs 1 \
        --output scripts/leaves_round1.json
    .venv/bin/python scripts/train_leaves.py --games 501 --rounds 1 --seed 21 --jobs 1 \
        --start scripts/leaves_round1.json

Each round plays `--games` games between two exploring equity players that use the table
of the previous round (the first round starts from the hand-set table
scripts/leaves_prior.json, or --start FILE, or zero weights with --from-zero). Every turn
after which the bag still refills the rack gives one sample: the leave kept, and what the
same player then made of it on its next turn, the score of that turn plus the value of the
leave it kept then (so a leave that pays off two turns later still gets credit); with
`--turns N`, over its next N turns (their scores plus the value of the leave kept after the
last). A ridge
regression over the leave features of binscrabble.engine.leaves, pulled towards the
starting table where the data are thin, then gives each feature its weight in points. The
explorers pick a random move among their 6 best equity moves a quarter of the time, so
that leaves the equity player would never keep are seen too.

The result is reproducible from the seed (games and regression are deterministic).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from binscrabble.engine.leaves import LeaveTable, LeaveTableError, leave_features
from binscrabble.engine.players import ranked_candidates
from binscrabble.game import Game
from binscrabble.move import Move

HERE = Path(__file__).resolve().parent
OUTPUT = HERE.parent / "src/binscrabble/engine/data/leaves.json"
#: The hand-set table the training starts from, and the prior its regression pulls towards.
PRIOR = HERE / "leaves_prior.json"
EXPLORE_RATE = 0.25
EXPLORE_WIDTH = 6
RIDGE = 50.0

# One sample: (leave kept, target points, the opponent's points in between). The last is a
# covariate of the regression, not a leave feature: it measures how open the board was, so
# that the board's openness is not credited to (or blamed on) the tiles kept.
Sample = tuple[str, float, float]


def explorer_move(game: Game, table: LeaveTable, rng: random.Random) -> tuple[Move, int, str]:
    """An equity move, or now and then one of the next best; its score and its leave."""
    candidates = ranked_candidates(game, table, limit=EXPLORE_WIDTH)
    chosen = rng.choice(candidates) if rng.random() < EXPLORE_RATE else candidates[0]
    return chosen.move, chosen.score, chosen.leave


def play_training_game(task: tuple[int, dict[str, float], int]) -> tuple[int, list[Sample]]:
    """Play one game; its seed and the samples it gives.

    A leave's target is what the same seat made of it over its next `turns` turns: their
    scores, plus the worth of the leave kept after the last of them (nothing when the game
    is over or the bag is empty by then). A game the seat ends on its own turn ends the
    count there; one the opponent ends drops the leaves still waiting (as with one turn).
    """
    seed, weights, turns = task
    table = LeaveTable(weights)
    rng = random.Random(seed)
    game = Game(("A", "B"), seed=seed)
    # For each seat: the leaves of its last turns still waiting for their target, each with
    # the opponents' total score when it was kept, the points made since, and the turns
    # counted so far.
    pending: list[list[tuple[str, int, int, int]]] = [[], []]
    samples: list[Sample] = []
    while not game.is_over():
        seat = game.to_move
        others = sum(game.scores) - game.scores[seat]
        move, score, leave = explorer_move(game, table, rng)
        game.push(move)
        going_on = game.bag_size > 0 and not game.is_over()
        waiting = []
        for kept, others_then, points, counted in pending[seat]:
            points += score
            counted += 1
            if counted < turns and not game.is_over():
                waiting.append((kept, others_then, points, counted))
                continue
            # What the kept tiles became: the turns' scores and the worth of the new leave.
            follow_up = table.value(leave) if going_on else 0.0
            samples.append((kept, points + follow_up, float(others - others_then)))
        # A leave is a fair sample only when the bag refilled the rack after it.
        if going_on:
            waiting.append((leave, others, 0, 0))
        pending[seat] = waiting
    return seed, samples


def fit(
    samples: Sequence[tuple[str, float] | Sample],
    ridge: float = RIDGE,
    prior: dict[str, float] | None = None,
) -> dict[str, float]:
    """Least squares with a ridge penalty pulling each weight towards its `prior` value.

    The targets are noisy (a turn's score varies by tens of points), so a feature seen in few
    samples keeps close to the prior, and one seen often moves to what the games say. Numbers
    after the target in a sample are covariates: fitted alongside (without penalty), so that
    what they explain is not put on the leave features, and then left out of the table.
    """
    prior = prior or {}
    names = sorted({name for sample in samples for name in leave_features(sample[0])} | set(prior))
    index = {name: position for position, name in enumerate(names)}
    covariates = min((len(sample) - 2 for sample in samples), default=0)
    # After the features: one column per covariate, and last the intercept.
    size = len(names) + covariates + 1
    normal = [[0.0] * size for _ in range(size)]
    right = [0.0] * size
    for sample in samples:
        leave, target = sample[0], sample[1]
        active = [(index[name], 1.0) for name in leave_features(leave)]
        active += [(len(names) + k, float(sample[2 + k])) for k in range(covariates)]  # type: ignore[misc]
        active.append((size - 1, 1.0))
        for row, row_value in active:
            right[row] += row_value * target
            normal_row = normal[row]
            for column, column_value in active:
                normal_row[column] += row_value * column_value
    for name, position in index.items():
        normal[position][position] += ridge
        right[position] += ridge * prior.get(name, 0.0)
    solution = solve(normal, right)
    return {name: solution[index[name]] for name in names}


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve a symmetric positive definite system by Gaussian elimination with pivoting."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        if abs(lead) < 1e-12:
            continue
        for row in range(column + 1, size):
            factor = rows[row][column] / lead
            if factor:
                target, source = rows[row], rows[column]
                for position in range(column, size + 1):
                    target[position] -= factor * source[position]
    solution = [0.0] * size
    for row in range(size - 1, -1, -1):
        lead = rows[row][row]
        if abs(lead) < 1e-12:
            continue
        total = rows[row][size] - sum(rows[row][k] * solution[k] for k in range(row + 1, size))
        solution[row] = total / lead
    return solution


def read_samples(path: Path) -> tuple[set[int], list[Sample]]:
    """The games already played and their samples, from a samples file (JSON lines).

    A line cut short (the run was stopped while writing it) is skipped: that game is played
    again.
    """
    seeds: set[int] = set()
    samples: list[Sample] = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            seeds.add(record["seed"])
            samples.extend(
                (leave, float(target), float(others)) for leave, target, others in record["samples"]
            )
    return seeds, samples


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games per round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of play and fit")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--turns",
        type=int,
        default=1,
        help="a leave's target is what its seat made of it over this many of its next turns"
        " (their scores and the worth of the leave kept after them; default 1)",
    )
    parser.add_argument(
        "--start",
        type=Path,
        default=PRIOR,
        help="the table to start from and pull towards (default: scripts/leaves_prior.json)",
    )
    parser.add_argument("--from-zero", action="store_true", help="start from all-zero weights")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument(
        "--samples",
        type=Path,
        help="keep every game's samples in this file (JSON lines), so that a stopped run "
        "resumes where it was; rounds play on with the samples of every game so far",
    )
    parser.add_argument(
        "--fit-only", action="store_true", help="play nothing: fit the samples file only"
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        help="stop playing after this long (wall clock) and fit what was played; with "
        "--samples, running the same command again goes on from there",
    )
    args = parser.parse_args(argv)
    if args.turns < 1:
        parser.error(f"--turns must be at least 1, not {args.turns}")

    try:
        start = LeaveTable.from_file(args.start)
    except (OSError, LeaveTableError) as error:
        parser.error(f"cannot read the leave table {args.start}: {error}")
    weights = {} if args.from_zero else dict(start.weights)
    # The table the games start from is also the prior the regression pulls towards.
    prior = dict(weights)
    started = time.perf_counter()
    samples: list[Sample] = []
    done_seeds: set[int] = set()
    played_seeds: set[int] = set()
    if args.samples is not None:
        done_seeds, samples = read_samples(args.samples)
    rounds = 0 if args.fit_only else args.rounds
    for round_number in range(rounds):
        seeds = [
            args.seed * 1_000_003 + round_number * 100_000 + game for game in range(args.games)
        ]
        tasks = [(seed, weights, args.turns) for seed in seeds if seed not in done_seeds]
        round_samples: list[Sample] = []
        out_of_time = False
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            for done, (seed, game_samples) in enumerate(
                pool.imap_unordered(play_training_game, tasks), 1
            ):
                round_samples.extend(game_samples)
                played_seeds.add(seed)
                if args.samples is not None:
                    with args.samples.open("a", encoding="utf-8") as handle:
                        handle.write(json.dumps({"seed": seed, "samples": game_samples}) + "\n")
                elapsed = time.perf_counter() - started
                print(
                    f"round {round_number + 1}: {done}/{len(tasks)} games, "
                    f"{len(round_samples)} samples, {elapsed:.0f} s, "
                    f"about {elapsed / done * (len(tasks) - done):.0f} s to go",
                    file=sys.stderr,
                    flush=True,
                )
                if args.max_seconds is not None and elapsed >= args.max_seconds:
                    out_of_time = True
                    pool.terminate()
                    break
        samples.extend(round_samples)
        weights = fit(samples, prior=prior)
        report(weights, round_number + 1)
        if out_of_time:
            print(f"stopped after {args.max_seconds:g} s", file=sys.stderr)
            break
    if args.fit_only:
        weights = fit(samples, prior=prior)
        report(weights, 0)
    metadata = {
        "source": "scripts/train_leaves.py",
        "command": "scripts/train_leaves.py "
        + " ".join(
            argument
            for argument in (sys.argv[1:] if argv is None else argv)
            if not argument.startswith("--samples") and not argument.endswith(".jsonl")
        ),
        "games_per_round": args.games,
        "rounds": args.rounds,
        "seed": args.seed,
        "games": len(done_seeds | played_seeds),
        "samples": len(samples),
        "ridge": RIDGE,
        "turns": args.turns,
        "covariate": "the opponent's points between the turns (fitted, not kept)",
    }
    args.output.write_text(LeaveTable(weights, metadata).to_json(), encoding="utf-8")
    print(f"wrote {args.output} ({len(weights)} weights)", file=sys.stderr)
    print(json.dumps({"weights": len(weights), "samples": len(samples)}))
    return 0


def report(weights: dict[str, float], round_number: int) -> None:
    table = LeaveTable(weights)
    shown = ", ".join(
        f"{leave} {table.value(leave):+.1f}"
        for leave in ("?", "=", "1", "0", "/", "x", "1=1", "0000")
    )
    print(f"round {round_number}: {shown}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
