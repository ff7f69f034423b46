"""The move-generation oracle: simple, slow and obviously right (used only by tests).

It asks the referee about every candidate: for every row and column, every window of that
line between two empty squares, the set of all empty squares in the window (a play leaves
no gap, RULES.md §4, so a legal play's squares are always exactly such a set), and every
way to put rack tiles there — every ordering, every blank designation, every rotation —
it calls :meth:`Game.is_legal` and, for each legal play, :meth:`Game.score`.

The one shortcut: a window that neither touches a tile on the board nor covers H8 on an
empty board is skipped, because RULES.md §4 forbids every play there.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from binscrabble.board import CENTER, SIZE
from binscrabble.game import Game
from binscrabble.move import Place, PlacedTile
from binscrabble.rules import BLANK, EQUALS, faces_in_game


def _lines() -> Iterator[list[int]]:
    for row in range(SIZE):
        yield [row * SIZE + column for column in range(SIZE)]
    for column in range(SIZE):
        yield [row * SIZE + column for row in range(SIZE)]


def _neighbours(square: int) -> Iterator[int]:
    row, column = divmod(square, SIZE)
    if row > 0:
        yield square - SIZE
    if row < SIZE - 1:
        yield square + SIZE
    if column > 0:
        yield square - 1
    if column < SIZE - 1:
        yield square + 1


def candidate_square_sets(game: Game) -> set[tuple[int, ...]]:
    """Every set of empty squares a play could cover: all empty squares of a line window."""
    cells = game.board.cells
    rack_size = len(game.rack())
    empty_board = game.board.tile_count == 0
    found: set[tuple[int, ...]] = set()
    for line in _lines():
        for first in range(SIZE):
            for last in range(first, SIZE):
                if cells[line[first]] is not None or cells[line[last]] is not None:
                    continue
                window = line[first : last + 1]
                squares = tuple(sq for sq in window if cells[sq] is None)
                if len(squares) > rack_size:
                    break
                if empty_board:
                    if CENTER not in squares:
                        continue
                elif not any(
                    cells[neighbour] is not None for sq in squares for neighbour in _neighbours(sq)
                ):
                    continue
                found.add(tuple(sorted(squares)))
    return found


def tile_versions(code: str, game: Game) -> list[tuple[str, bool, bool]]:
    """What one rack tile can become on the board: (face, blank, rotated)."""
    rotated_too = game.rules.rotated_equals
    faces = faces_in_game(game.rules) if code == BLANK else (code,)
    versions = []
    for face in faces:
        versions.append((face, code == BLANK, False))
        if rotated_too and face == EQUALS:
            versions.append((face, code == BLANK, True))
    return versions


def legal_placements(game: Game) -> dict[Place, int]:
    """Every legal placement for the player to move, with its score."""
    rack = game.rack()
    found: dict[Place, int] = {}
    for squares in candidate_square_sets(game):
        for codes in set(itertools.permutations(rack, len(squares))):
            options = [tile_versions(code, game) for code in codes]
            for versions in itertools.product(*options):
                place = Place(
                    tuple(
                        PlacedTile(sq, face, blank, rotated)
                        for sq, (face, blank, rotated) in zip(squares, versions, strict=True)
                    )
                )
                if place not in found and game.is_legal(place):
                    found[place] = game.score(place)
    return found
