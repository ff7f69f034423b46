"""Moves as the analysis and the record viewer show them: the notation, the same move
written with the tiles' faces (:func:`~binscrabble.move.display_notation`), and the tiles a
play puts down, for the marks on a board."""

from __future__ import annotations

from typing import Any

from binscrabble.board import Board, square_name
from binscrabble.move import Move, Place, display_notation, parse_move


def people_notation(notation: str) -> str:
    """``notation`` written with the tiles' faces; text that is no notation (a table's
    ``exchange 3``) as it is."""
    try:
        return display_notation(notation)
    except ValueError:
        return notation


def placed_tiles(move: object) -> list[dict[str, Any]]:
    """The tiles a play puts down, square by square (none for any other move)."""
    if not isinstance(move, Place):
        return []
    return [
        {
            "square": square_name(tile.square),
            "face": tile.face,
            "blank": tile.blank,
            "rotated": tile.rotated,
        }
        for tile in move.tiles
    ]


def shown_move(notation: str, score: int, board: Board) -> dict[str, Any]:
    """A move of the analysis, on the board before it: its notation, the same for people,
    its score and the tiles it puts down.

    >>> from binscrabble.board import Board
    >>> shown = shown_move("8G 1|0=1", 6, Board())
    >>> shown["display"], [tile["square"] for tile in shown["tiles"]]
    ('8G 1 OR 0=1', ['G8', 'H8', 'I8', 'J8', 'K8'])
    """
    try:
        move: Move | None = parse_move(notation, board)
    except ValueError:
        move = None
    return {
        "notation": notation,
        "display": people_notation(notation),
        "score": score,
        "tiles": placed_tiles(move),
    }
