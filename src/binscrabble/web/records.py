"""Records uploaded for viewing: every turn of a record with its board."""

from __future__ import annotations

from typing import Any

from binscrabble.board import square_name
from binscrabble.game import Game
from binscrabble.web.shown import people_notation, placed_tiles


def record_turns(game: Game) -> dict[str, Any]:
    """The players, the rules and every turn of a game read from a record.

    Each turn has its notation (also written with the tiles' faces), the tiles it put
    down, the seat, the score, the board after it and every total.
    """
    replay = game.copy()
    played = []
    while replay.history:
        played.append(replay.pop())
    played.reverse()
    notations = game.notations()
    turns: list[dict[str, Any]] = []
    for number, (move, notation) in enumerate(zip(played, notations, strict=True), 1):
        seat = replay.to_move
        replay.push(move)
        turn = replay.history[-1]
        turns.append(
            {
                "turn": number,
                "notation": notation,
                "display": people_notation(notation),
                "tiles": placed_tiles(move),
                "seat": seat,
                "score": turn.score,
                "board": replay.board.rows(),
                "blanks": [square_name(sq) for sq in replay.board.blank_squares()],
                "rotated": [square_name(sq) for sq in replay.board.rotated_squares()],
                "scores": list(replay.scores),
            }
        )
    return {"players": list(game.players), "rules": game.rules.to_mapping(), "turns": turns}
