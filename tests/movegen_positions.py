"""Positions for move-generation tests, the baseline and the benchmark corpus.

Boards come from seeded self-play games whose moves are drawn from the move generator
(a mix of the best move and random legal moves, so boards get both long high-scoring
equations and odd little plays); the rack to test is then drawn from the tiles not on the
board, with a chosen number of blanks.
"""

from __future__ import annotations

import random
from collections import Counter

from binscrabble.game import Game
from binscrabble.move import Exchange, Pass
from binscrabble.movegen import generate_placements, sort_key
from binscrabble.rules import BLANK, Rules, tile_counts


def play_game(rules: Rules, seed: int, plies: int, best_share: float = 0.5) -> Game:
    """A two-player game of `plies` turns from seed `seed` (fewer if it ends first)."""
    game = Game(("A", "B"), rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over():
            break
        moves = generate_placements(game.board, game.rack(), rules)
        if moves:
            if rng.random() < best_share:
                move = min(moves, key=sort_key).place
            else:
                move = rng.choice(moves).place
            game.push(move)
        elif game.bag_size >= rules.rack_size:
            game.push(Exchange(game.rack()))
        else:
            game.push(Pass())
    return game


def pool(game: Game) -> Counter[str]:
    """The tiles of the set that are not on the board, as codes."""
    counts = Counter(tile_counts(game.rules))
    counts.subtract(tile.code for _, tile in game.board)
    return +counts


def draw_rack(game: Game, rng: random.Random, size: int, blanks: int) -> str:
    """`size` tiles from the pool, `blanks` of them blanks (as many as are left)."""
    remaining = pool(game)
    blanks = min(blanks, remaining[BLANK], size)
    others = [code for code, count in remaining.items() if code != BLANK for _ in range(count)]
    return BLANK * blanks + "".join(rng.sample(others, min(size - blanks, len(others))))


def position(game: Game, rack: str, seed: int = 0) -> Game:
    """The board of `game` with `rack` to move (the other rack is dealt from the rest)."""
    return Game.from_setup(game.rules, game.board, [rack, None], seed=seed)
