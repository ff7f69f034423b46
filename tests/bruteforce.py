"""The move-generation oracle: simple, slow and obviously right (used only by tests).

It asks the referee about every candidate: for every row and column, every window of that
line between two empty squares, the set of all empty squares in the window (a play leaves
no gap, docs/rules.md §4, so a legal play's squares are always exactly such a set), and every
way to put rack tiles there — every ordering, every blank designation, every rotation —
it calls :meth:`Game.is_legal` and, for each legal play, :meth:`Game.score`.

Two shortcuts keep it fast enough for hundreds of positions, each a plain consequence of
the rule book, not of the generator's method:

- a window that neither touches a tile on the board nor covers H8 on an empty board is
  skipped (docs/rules.md §4 forbids every play there);
- a candidate whose line through the window (new tiles and the tiles between and beside
  them) is a run of two or more squares that is neither a valid equation nor, under
  ``parallel_numbers``, a valid number is not sent to the referee: every run that holds a
  new tile must be one of those (docs/rules.md §5, §10), so the referee would refuse it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from binscrabble.board import CENTER, SIZE
from binscrabble.expr import EquationError, equation_value, number_value
from binscrabble.game import Game
from binscrabble.move import Place, PlacedTile
from binscrabble.rules import BLANK, EQUALS, Rules, faces_in_game


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


def candidate_windows(game: Game) -> Iterator[tuple[list[int], int, int]]:
    """Every line window (line, first, last) between two empty squares that could hold a play."""
    cells = game.board.cells
    rack_size = len(game.rack())
    empty_board = game.board.tile_count == 0
    for line in _lines():
        for first in range(SIZE):
            for last in range(first, SIZE):
                if cells[line[first]] is not None or cells[line[last]] is not None:
                    continue
                squares = [sq for sq in line[first : last + 1] if cells[sq] is None]
                if len(squares) > rack_size:
                    break
                if empty_board:
                    if CENTER not in squares:
                        continue
                elif not any(
                    cells[neighbour] is not None for sq in squares for neighbour in _neighbours(sq)
                ):
                    continue
                yield line, first, last


def tile_versions(code: str, rules: Rules) -> list[tuple[str, bool, bool, str]]:
    """What one rack tile can become on the board: (face, blank, rotated, text it reads)."""
    faces = faces_in_game(rules) if code == BLANK else (code,)
    versions = []
    for face in faces:
        versions.append((face, code == BLANK, False, face))
        if rules.rotated_equals and face == EQUALS:
            versions.append((face, code == BLANK, True, "11"))
    return versions


def _could_be_run(text: str, rules: Rules, seen: dict[str, bool]) -> bool:
    """Whether `text` is a valid equation, or a valid number under parallel_numbers."""
    known = seen.get(text)
    if known is not None:
        return known
    try:
        equation_value(text, rules)
        result = True
    except EquationError:
        result = False
        if rules.parallel_numbers and not text.strip("01"):
            try:
                number_value(text, rules)
                result = True
            except EquationError:
                pass
    seen[text] = result
    return result


def legal_placements(game: Game) -> dict[Place, int]:
    """Every legal placement for the player to move, with its score."""
    rules = game.rules
    cells = game.board.cells
    rack = game.rack()
    found: dict[Place, int] = {}
    seen: dict[str, bool] = {}
    for line, first, last in candidate_windows(game):
        # The whole run along the line: the window plus the tiles right beside it.
        start, end = first, last
        while start > 0 and cells[line[start - 1]] is not None:
            start -= 1
        while end < SIZE - 1 and cells[line[end + 1]] is not None:
            end += 1
        run = line[start : end + 1]
        squares = [sq for sq in run if cells[sq] is None]
        for codes in set(itertools.permutations(rack, len(squares))):
            options = [tile_versions(code, rules) for code in codes]
            for versions in itertools.product(*options):
                if len(run) >= 2:
                    new_text = dict(zip(squares, (version[3] for version in versions), strict=True))
                    text = "".join(
                        new_text[sq] if cells[sq] is None else cells[sq].text  # type: ignore[union-attr]
                        for sq in run
                    )
                    if not _could_be_run(text, rules, seen):
                        continue
                place = Place(
                    tuple(
                        PlacedTile(sq, face, blank, rotated)
                        for sq, (face, blank, rotated, _) in zip(squares, versions, strict=True)
                    )
                )
                if place not in found and game.is_legal(place):
                    found[place] = game.score(place)
    return found
