"""What each seat may see: the one function every outgoing game state goes through.

A seat sees the board, the scores, the move log, how many tiles are in the bag, and its own
rack; never another seat's rack, the bag's order or the seed. Another seat's exchange shows
only how many tiles were exchanged. A spectator (no seat) sees no rack at all.
"""

from __future__ import annotations

from typing import Any

from binscrabble.board import Board, square_name
from binscrabble.game import Outcome, ScoreBreakdown, Turn
from binscrabble.move import CODE_ORDER, Exchange, Place
from binscrabble.rules import Rules
from binscrabble.table import TableTurn
from binscrabble.web.active_games import ActiveGame


def preset_name(rules: Rules) -> str | None:
    """The preset these rules are exactly, or ``None`` when a switch differs from each."""
    return rules.preset_name()


def sorted_codes(codes: list[str]) -> str:
    """Tile codes in the tile set's order, as one string."""
    return "".join(sorted(codes, key=CODE_ORDER.index))


def board_fields(rules: Rules, board: Board) -> dict[str, Any]:
    """The rules and the board of a view: what every seat and spectator sees alike."""
    return {
        "rules": rules.to_mapping(),
        "preset": preset_name(rules),
        "board": board.rows(),
        "blanks": [square_name(sq) for sq in board.blank_squares()],
        "rotated": [square_name(sq) for sq in board.rotated_squares()],
    }


def result_view(outcome: Outcome | None) -> dict[str, Any] | None:
    """The ``result`` of a view: how the game ended, or ``None`` while it goes on."""
    if outcome is None:
        return None
    return {
        "reason": outcome.reason,
        "adjustments": list(outcome.adjustments),
        "final": list(outcome.scores),
        "winners": list(outcome.winners),
    }


def score_runs(breakdown: ScoreBreakdown) -> list[dict[str, Any]]:
    """The runs of a move's score as a preview shows them: each equation, its value, its
    bonus and score, its squares and its sum written out."""
    return [
        {
            "text": run.text,
            "value": run.value,
            "binary": format(run.value, "b"),
            "bonus": run.bonus,
            "score": run.score,
            "squares": [square_name(sq) for sq in run.squares],
            "sum": run.explain(),
        }
        for run in breakdown.runs
    ]


def logged_move(turn: Turn | TableTurn, shown: str, squares: list[str]) -> dict[str, Any]:
    """One entry of a view's move log: the move as this seat may see it (``shown``), the
    squares it covered, its score and every player's total after it."""
    return {
        "seat": turn.seat,
        "notation": shown,
        "score": turn.score,
        "squares": squares,
        "running": list(turn.scores),
    }


def build_view(active: ActiveGame, seat: int | None) -> dict[str, Any]:
    """The game as ``seat`` may see it (``None``: a spectator), as JSON-able data."""
    game = active.game
    stored = active.stored
    moves: list[dict[str, Any]] = []
    for turn, notation in zip(game.history, stored.moves, strict=True):
        squares: list[str] = []
        shown = notation
        if isinstance(turn.move, Place):
            squares = [square_name(tile.square) for tile in turn.move.tiles]
        elif isinstance(turn.move, Exchange) and turn.seat != seat:
            shown = f"exchange {len(turn.move.tiles)}"
        moves.append(logged_move(turn, shown, squares))
    # A seat cannot see the bag nor the other racks; a spectator cannot see any rack.
    unseen = (
        game.unseen(seat) if seat is not None else sorted_codes([*game.bag, *"".join(game.racks)])
    )
    outcome = game.outcome()
    view: dict[str, Any] = {
        "id": stored.game_id,
        **board_fields(game.rules, game.board),
        "players": [
            {
                "name": record.name,
                "score": game.scores[record.seat],
                "computer": record.computer,
                "tiles": len(game.racks[record.seat]),
            }
            for record in stored.seats
        ],
        "to_move": None if outcome is not None else game.to_move,
        "turn": len(game.history),
        "bag": game.bag_size,
        "moves": moves,
        "over": outcome is not None,
        "unseen": unseen,
        "last_move": (
            {"seat": moves[-1]["seat"], "squares": moves[-1]["squares"]} if moves else None
        ),
        "result": result_view(outcome),
        "rematch": stored.rematch,
    }
    if seat is not None:
        view["seat"] = seat
        view["rack"] = game.rack(seat)
    return view
