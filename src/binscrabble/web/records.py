"""Records uploaded for viewing: every turn of a record with its board."""

from __future__ import annotations

from typing import Any

from binscrabble.board import square_name
from binscrabble.game import Game
from binscrabble.web.shown import people_notation, placed_tiles


def record_turns(game: Game) -> dict[str, Any]:
    """The players, the rules, every turn of a game read from a record, and how it ended
    (``result`` and ``end`` as in a view, ``None`` for a record of a game not over).

    Each turn has its notation (also written with the tiles' faces), the tiles it put
    down, the seat, the score, the board after it and every total. The turns are taken
    back one by one from the end, each position seen before its move is taken back: a
    record without its seed had its bag arranged for each draw as it was read, and
    playing the moves again would draw other tiles.
    """
    replay = game.copy()
    notations = game.notations()
    turns: list[dict[str, Any]] = []
    while replay.history:
        turn = replay.history[-1]
        notation = notations[len(replay.history) - 1]
        turns.append(
            {
                "turn": len(replay.history),
                "notation": notation,
                "display": people_notation(notation),
                "tiles": placed_tiles(turn.move),
                "seat": turn.seat,
                "score": turn.score,
                "board": replay.board.rows(),
                "blanks": [square_name(sq) for sq in replay.board.blank_squares()],
                "rotated": [square_name(sq) for sq in replay.board.rotated_squares()],
                "scores": list(replay.scores),
            }
        )
        replay.pop()
    turns.reverse()
    outcome = game.outcome()
    return {
        "players": list(game.players),
        "rules": game.rules.to_mapping(),
        "turns": turns,
        "result": None if outcome is None else outcome.view(),
        "end": None if outcome is None else outcome.end_view(),
    }
