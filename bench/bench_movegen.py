"""How fast the move generator finds every legal placement, against the brute force.

The corpus bench/data/movegen_positions.jsonl (made by scripts/make_movegen_corpus.py)
holds 72 positions from seeded self-play games: empty boards, openings, midgames, crowded
and late boards, with 0, 1 or 2 blanks on the rack. For each position this prints the time
to find every legal placement (``generate_placements``: every equation found, as groups of
side fillings, and every move counted; no move object made yet), the time to also make every
move object (``list(...)`` of the result: "all ms", the figure comparable to a plain list),
the move count and moves per second (of "all"), the time to find only the best one
(``best_moves(game, 1)``, which skips plays that cannot win); then the
time of the brute-force oracle of tests/bruteforce.py, run in a child process that is
stopped after a timeout (60 s by default), and the speed-up against "all ms" (the brute
force makes every move, so that is like for like; the summary also gives it against
"find ms"). Times are CPU times of the
process doing the work, so other work on the machine disturbs them less. Prints figures,
asserts nothing.

    .venv/bin/python bench/bench_movegen.py [--bruteforce small|sample|all|none] [--timeout S]

By default the brute force runs only on the positions whose rack holds at most 5 tiles
(the late boards): on a 9-tile rack it needs hours, and is reported as not finished.
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from bruteforce import legal_placements  # noqa: E402

from binscrabble.game import Game  # noqa: E402
from binscrabble.movegen import best_moves, generate_placements  # noqa: E402
from binscrabble.position import load_position  # noqa: E402

CORPUS = ROOT / "bench" / "data" / "movegen_positions.jsonl"


def load_corpus() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]


def _bruteforce_child(position: dict[str, Any], results: Any) -> None:
    game = load_position(position)
    started = time.process_time()
    found = legal_placements(game)
    results.put((len(found), time.process_time() - started))


def run_bruteforce(position: dict[str, Any], timeout: float) -> tuple[int, float] | None:
    """(move count, CPU seconds) of the brute force, or None when it runs out of time."""
    results: Any = multiprocessing.Queue()
    child = multiprocessing.Process(target=_bruteforce_child, args=(position, results))
    child.start()
    # Wall-clock timeout: a loaded machine only makes the brute force look slower.
    child.join(timeout)
    if child.is_alive():
        child.terminate()
        child.join()
        return None
    outcome: tuple[int, float] = results.get()
    return outcome


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def after_best_moves() -> list[tuple[str, Game, frozenset[int]]]:
    """Per corpus position: its best move played, the next seat to move, and that move's
    squares (positions where the game ends or no placement exists are left out)."""
    found = []
    for seed, record in enumerate(load_corpus()):
        loaded = load_position(record["position"])
        # Dealt from a seed, so that the next seat's rack is the same on every run.
        game = Game.from_setup(loaded.rules, loaded.board, [loaded.rack(), None], seed=seed)
        best = best_moves(game, 1)
        if not best:
            continue
        game.push(best[0].place)
        if game.is_over():
            continue
        found.append((record["name"], game, frozenset(best[0].squares)))
    return found


def touching_main(variant: str) -> int:
    """best_moves(game, 8) against best_moves(game, 8, touching=...) after each best move:
    the rollout's question (docs/movegen.md, "Plays touching given squares")."""
    positions = after_best_moves()
    if variant != "both":
        # One variant alone, so that it warms no cache for the other (instruction counts).
        for _, game, squares in positions:
            if variant == "full":
                best_moves(game, 8)
            elif variant == "near":
                best_moves(game, 8, touching=squares)
        return 0
    print(f"{len(positions)} positions after their best move (CPU times)")
    print(f"{'position':<34} {'rack':<10} {'full ms':>9} {'touching ms':>12} {'ratio':>7}")
    full_times: list[float] = []
    near_times: list[float] = []
    for index, (name, game, squares) in enumerate(positions):
        # Alternate which goes first: the first call warms the caches (cross-checks,
        # scoring tables) for the second.
        near = full = 0.0
        for turn in (0, 1) if index % 2 else (1, 0):
            gc.collect()
            started = time.process_time()
            if turn == 0:
                best_moves(game, 8)
                full = time.process_time() - started
            else:
                best_moves(game, 8, touching=squares)
                near = time.process_time() - started
        full_times.append(full)
        near_times.append(near)
        print(
            f"{name:<34} {game.rack():<10} {full * 1000:>9.1f} {near * 1000:>12.1f}"
            f" {full / max(near, 1e-9):>6.1f}x",
            flush=True,
        )
    ratios = [full / max(near, 1e-9) for full, near in zip(full_times, near_times, strict=True)]
    print()
    print(
        f"best_moves(game, 8): total {sum(full_times):.2f} s, median"
        f" {statistics.median(full_times) * 1000:.1f} ms; with touching: total"
        f" {sum(near_times):.2f} s, median {statistics.median(near_times) * 1000:.1f} ms;"
        f" total ratio {sum(full_times) / sum(near_times):.1f}x, per position median"
        f" {statistics.median(ratios):.1f}x (smallest {min(ratios):.1f}x, largest"
        f" {max(ratios):.1f}x)"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--bruteforce",
        choices=("small", "sample", "all", "none"),
        default="small",
        help="where to run the brute force: racks of at most 5 tiles (default), those and"
        " every position of the first game, every position, or nowhere",
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per position")
    parser.add_argument(
        "--touching",
        choices=("both", "full", "near", "none"),
        help="instead: after each position's best move, time best_moves(next rack, 8) (full)"
        " and best_moves(next rack, 8, touching=that move's squares) (near); one of them alone"
        " (or none: only the set-up) is for instruction counts, one process per variant",
    )
    args = parser.parse_args()
    if args.touching is not None:
        return touching_main(args.touching)
    corpus = load_corpus()
    print(f"{len(corpus)} positions from {CORPUS.relative_to(ROOT)}")
    header = (
        f"{'position':<34} {'rack':<10} {'tiles':>5} {'moves':>7} {'find ms':>9} {'all ms':>9}"
        f" {'moves/s':>9}"
        f" {'best1 ms':>9} {'brute s':>9} {'speed-up':>9}"
    )
    print(header)
    find_times: list[float] = []
    fast_times: list[float] = []
    best_times: list[float] = []
    speedups: list[float] = []
    find_speedups: list[float] = []
    unfinished = 0
    total_moves = 0
    for record in corpus:
        position = record["position"]
        game = load_position(position)
        # Each position starts from the same state: the last one's moves freed and collected
        # (the module's caches stay warm, as in a long-running engine).
        moves = []
        gc.collect()
        started = time.process_time()
        moves = generate_placements(game.board, game.rack(), game.rules)
        found = time.process_time() - started
        moves = list(moves)
        elapsed = time.process_time() - started
        find_times.append(found)
        fast_times.append(elapsed)
        total_moves += len(moves)
        started = time.process_time()
        generate_placements(game.board, game.rack(), game.rules, limit=1)
        best_times.append(time.process_time() - started)
        rate = len(moves) / elapsed if elapsed > 0 else float("inf")
        brute_text = speed_text = "-"
        rack = game.rack()
        wanted = (
            args.bruteforce == "all"
            or (args.bruteforce in ("small", "sample") and len(rack) <= 5)
            or (args.bruteforce == "sample" and record["name"].startswith("game00-"))
        )
        if wanted:
            outcome = run_bruteforce(position, args.timeout)
            if outcome is None:
                unfinished += 1
                brute_text = f">{args.timeout:.0f}"
                speed_text = f">{args.timeout / max(elapsed, 1e-6):.0f}x"
            else:
                count, brute_seconds = outcome
                if count != len(moves):
                    print(f"  !! brute force found {count} moves, the generator {len(moves)}")
                brute_text = f"{brute_seconds:.2f}"
                speedup = brute_seconds / max(elapsed, 1e-6)
                speedups.append(speedup)
                find_speedups.append(brute_seconds / max(found, 1e-6))
                speed_text = f"{speedup:.0f}x"
        print(
            f"{record['name']:<34} {rack:<10} {game.board.tile_count:>5} {len(moves):>7}"
            f" {found * 1000:>9.1f} {elapsed * 1000:>9.1f} {rate:>9.0f}"
            f" {best_times[-1] * 1000:>9.1f}"
            f" {brute_text:>9} {speed_text:>9}",
            flush=True,
        )
    total = sum(fast_times)
    print()
    print(
        f"find all (generate_placements): median {statistics.median(find_times) * 1000:.1f} ms, "
        f"90th percentile {percentile(find_times, 0.9) * 1000:.1f} ms, "
        f"worst {max(find_times) * 1000:.1f} ms, "
        f"mean {sum(find_times) / len(find_times) * 1000:.1f} ms"
    )
    print(
        f"find and make every move object: median {statistics.median(fast_times) * 1000:.1f} ms, "
        f"90th percentile {percentile(fast_times, 0.9) * 1000:.1f} ms, "
        f"worst {max(fast_times) * 1000:.1f} ms, "
        f"mean {total / len(fast_times) * 1000:.1f} ms; "
        f"{total_moves} moves in {total:.2f} s ({total_moves / total:.0f} moves/s)"
    )
    print(
        f"best move only (best_moves(game, 1)): median {statistics.median(best_times) * 1000:.1f}"
        f" ms, 90th percentile {percentile(best_times, 0.9) * 1000:.1f} ms, worst "
        f"{max(best_times) * 1000:.1f} ms"
    )
    if speedups:
        print(
            f"brute force finished on {len(speedups)} positions: speed-up (against find and"
            f" make every move object, like for like) median {statistics.median(speedups):.0f}x,"
            f" smallest {min(speedups):.0f}x, largest {max(speedups):.0f}x; against find only"
            f" median {statistics.median(find_speedups):.0f}x, smallest"
            f" {min(find_speedups):.0f}x; {unfinished} did not finish within"
            f" {args.timeout:.0f} s"
        )
    elif args.bruteforce != "none":
        print(f"brute force: none finished within {args.timeout:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
