"""How fast the referee is: legality checks, push+pop, scoring, copies (binscrabble.game).

Positions come from random games played by the bounded play search of
tests/test_game_random.py; at each position the candidate plays of that search (legal and
illegal ones, as a move generator would offer) are judged. Rates use the process's CPU
time, so other work on the machine disturbs them less. Prints figures, asserts nothing.

    .venv/bin/python bench/bench_game.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_game_random import candidate_plays, find_plays, random_game

from binscrabble.game import Game
from binscrabble.move import Move, Place
from binscrabble.rules import Rules


def collect(games: int) -> tuple[list[tuple[Game, list[Place]]], list[tuple[Game, Move]]]:
    """(position, candidate plays) pairs and (position, legal move) pairs from random games."""
    rng = random.Random(2026)
    candidates: list[tuple[Game, list[Place]]] = []
    legal: list[tuple[Game, Move]] = []
    for seed in range(games):
        for game in random_game(seed, Rules(), max_turns=200):
            if game.is_over():
                break
            position = game.copy()
            candidates.append((position, candidate_plays(position, rng, 40)))
            for move in find_plays(position, rng, limit=3):
                legal.append((position, move))
    return candidates, legal


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>12,.0f}/s  ({count:,} in {seconds:.2f} s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    args = parser.parse_args()
    started = time.process_time()
    candidates, legal = collect(args.games)
    print(
        f"positions: {len(candidates)} from {args.games} random games "
        f"({time.process_time() - started:.1f} s to make)"
    )

    # Warm the equation caches once, as a long-running engine would have them warm.
    for game, moves in candidates:
        for move in moves:
            game.illegal_reason(move)

    checks = 0
    legal_count = 0
    started = time.process_time()
    for _ in range(3):
        for game, moves in candidates:
            for move in moves:
                if game.illegal_reason(move) is None:
                    legal_count += 1
                checks += 1
    seconds = time.process_time() - started
    print(f"legality checks        {rate(checks, seconds)}  [{legal_count / checks:.0%} legal]")

    legal_only = [(game, move) for game, move in legal if isinstance(move, Place)]
    started = time.process_time()
    count = 0
    for _ in range(10):
        for game, place in legal_only:
            game.is_legal(place)
            count += 1
    print(f"legality (legal plays) {rate(count, time.process_time() - started)}")

    pairs = 0
    started = time.process_time()
    for _ in range(20):
        for game, played in legal:
            game.push(played, checked=False)
            game.pop()
            pairs += 1
    print(f"push+pop unchecked     {rate(pairs, time.process_time() - started)}")

    pairs = 0
    started = time.process_time()
    for _ in range(10):
        for game, played in legal:
            game.push(played)
            game.pop()
            pairs += 1
    print(f"push+pop checked       {rate(pairs, time.process_time() - started)}")

    count = 0
    started = time.process_time()
    for _ in range(5):
        for game, place in legal_only:
            game.score_breakdown(place)
            count += 1
    print(f"score_breakdown        {rate(count, time.process_time() - started)}")

    count = 0
    started = time.process_time()
    for game, _ in candidates:
        game.copy()
        count += 1
    print(f"copy                   {rate(count, time.process_time() - started)}")


if __name__ == "__main__":
    main()
