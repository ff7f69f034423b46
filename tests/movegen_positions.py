"""Positions for move-generation tests, the baseline and the benchmark corpus.

Boards come from seeded self-play games whose moves are drawn from the move generator
(a mix of the best move and random legal moves, so boards get both long high-scoring
equations and odd little plays); the rack to test is then drawn from the tiles not on the
board, with a chosen number of blanks.
"""

from __future__ import annotations

import random
from collections import Counter

from binscrabble.board import Board
from binscrabble.game import Game
from binscrabble.move import Exchange, Pass
from binscrabble.movegen import generate_placements, sort_key
from binscrabble.position import save_position
from binscrabble.rules import BLANK, Rules, tile_counts

#: A position as plain data: (rules as a mapping, board rows, blank squares, rotated
#: squares, rack).
Case = tuple[dict[str, object], list[str], list[int], list[int], str]


def advance(
    game: Game,
    rng: random.Random,
    plies: int,
    best_share: float = 0.5,
    part: int | None = None,
    keep_blanks: bool = False,
) -> Game:
    """Play `plies` more turns of `game` in place (fewer if it ends) and return it.

    Each play is the best or a random legal one; with `part`, it is chosen among the plays
    of `part` random tiles of the rack (still legal for the whole rack, and much cheaper).
    With `keep_blanks` no blank is played, so positions late in the game can still get
    racks with blanks.
    """
    rules = game.rules
    for _ in range(plies):
        if game.is_over():
            break
        rack = game.rack()
        if keep_blanks:
            rack = rack.replace(BLANK, "")
        if part is not None and len(rack) > part:
            rack = "".join(rng.sample(rack, part))
        moves = generate_placements(game.board, rack, rules)
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


def play_game(
    rules: Rules,
    seed: int,
    plies: int,
    best_share: float = 0.5,
    part: int | None = None,
    keep_blanks: bool = False,
) -> Game:
    """A two-player game of `plies` turns from seed `seed` (fewer if it ends first)."""
    game = Game(("A", "B"), rules, seed=seed)
    return advance(game, random.Random(seed), plies, best_share, part, keep_blanks)


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


def case_of(game: Game, rack: str) -> Case:
    """The board of `game` with `rack` to move, as plain data."""
    board = game.board
    return (
        game.rules.to_mapping(),
        board.rows(),
        board.blank_squares(),
        board.rotated_squares(),
        rack,
    )


def game_of(case: Case, seed: int = 1) -> Game:
    """The position of `case` as a game, its rack to move (the other rack dealt from the rest)."""
    mapping, rows, blanks, rotated, rack = case
    rules = Rules.from_mapping(mapping)
    return Game.from_setup(rules, Board.from_rows(rows, blanks, rotated), [rack, None], seed=seed)


def position_json(game: Game) -> dict[str, object]:
    """The position of `game` for the player to move: the five keys of INTERFACES.md §2 only."""
    full = save_position(game)
    return {key: full[key] for key in ("rules", "board", "blanks", "rotated", "rack")}
