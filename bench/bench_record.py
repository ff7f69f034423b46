"""Game records: how fast whole games are written and read back (every move verified).

Prints figures; never asserts on time.
"""

from __future__ import annotations

import random
import time

from binscrabble.game import Game
from binscrabble.move import Pass
from binscrabble.movegen import generate_placements
from binscrabble.record import read_record, write_record

GAMES = 4
REPEATS = 20


def play(seed: int, players: int, seeded: bool) -> Game:
    """A finished game of random legal plays (from a random part of the rack, to be quick)."""
    rng = random.Random(seed)
    game = Game([f"P{seat + 1}" for seat in range(players)], seed=seed if seeded else None)
    while not game.is_over():
        rack = game.rack()
        part = "".join(rng.sample(rack, min(len(rack), 6)))
        placements = generate_placements(game.board, part, game.rules)
        game.push(rng.choice(placements).place if placements else Pass())
    return game


def main() -> None:
    games = [play(seed, 2 + seed % 3, seed % 2 == 0) for seed in range(GAMES)]
    texts = [write_record(game) for game in games]
    turns = sum(len(game.history) for game in games)
    started = time.perf_counter()
    for _ in range(REPEATS):
        for game in games:
            write_record(game)
    written = time.perf_counter() - started
    started = time.perf_counter()
    for _ in range(REPEATS):
        for text in texts:
            read_record(text)
    read = time.perf_counter() - started
    count = GAMES * REPEATS
    print(f"{GAMES} games, {turns} turns, {sum(map(len, texts)) // GAMES} bytes a record")
    print(f"write_record: {written / count * 1000:.2f} ms a game")
    print(
        f"read_record (replay and verify): {read / count * 1000:.2f} ms a game, "
        f"{read / (REPEATS * turns) * 1e6:.0f} µs a turn"
    )


if __name__ == "__main__":
    main()
