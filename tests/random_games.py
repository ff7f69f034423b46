"""Random legal games for tests (records, terminal, positions): cheap and reproducible.

Plays come from the move generator run on a random part of the rack (at most six tiles),
which keeps each turn fast while every move stays legal for the whole rack.
"""

from __future__ import annotations

import random

from binscrabble.engine.players import GreedyPlayer
from binscrabble.game import Game
from binscrabble.move import Exchange, Move, Pass
from binscrabble.movegen import generate_placements
from binscrabble.rules import Rules

NAMES = ("Ada", "Bob", "Cy", "Di")


def random_move(game: Game, rng: random.Random) -> Move:
    """A legal move for the seat to move: mostly plays, sometimes exchanges and passes."""
    rack = game.rack()
    part = "".join(rng.sample(rack, min(len(rack), 6)))
    placements = generate_placements(game.board, part, game.rules)
    roll = rng.random()
    if placements and roll < 0.9:
        return rng.choice(placements).place
    if game.bag_size >= game.rules.rack_size and roll < 0.95:
        return Exchange("".join(rng.sample(rack, rng.randint(1, len(rack)))))
    return Pass()


def random_game(
    seed: int,
    players: int = 2,
    seeded_bag: bool = True,
    max_turns: int | None = None,
    rules: Rules | None = None,
) -> Game:
    """A game of random legal moves, played to the end or for ``max_turns`` turns."""
    rng = random.Random(seed)
    game = Game(NAMES[:players], rules, seed=seed if seeded_bag else None)
    while not game.is_over() and (max_turns is None or len(game.history) < max_turns):
        game.push(random_move(game, rng))
    return game


def greedy_midgame(seed: int, turns: int = 4, least_bag: int = 9) -> Game:
    """A two-player game of seed `seed` after `turns` greedy moves, with at least
    `least_bag` tiles still in the bag (checked)."""
    game = Game(("A", "B"), seed=seed)
    greedy = GreedyPlayer()
    for _ in range(turns):
        game.push(greedy.choose(game))
    assert game.bag_size >= least_bag
    return game
