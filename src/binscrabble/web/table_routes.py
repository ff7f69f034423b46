"""What the routes of the web app answer for a game at a real table (INTERFACES.md §9).

The routes of :mod:`binscrabble.web.app` ask :class:`~binscrabble.web.table_games.TableGames`
first whether a game is at a table, and then answer with these functions.
"""

from __future__ import annotations

import asyncio
from typing import Any

from binscrabble.board import square_name
from binscrabble.game import move_for_people
from binscrabble.i18n import _
from binscrabble.move import Place, move_notation
from binscrabble.movegen import generate_placements
from binscrabble.table import TableGame
from binscrabble.web.active_games import RefereeError
from binscrabble.web.shown import placed_tiles, shown_move
from binscrabble.web.table_games import ActiveTable, apply_entry, read_table_move
from binscrabble.web.views import score_runs


def table_preview(active: ActiveTable, text: str, seat: int | None) -> dict[str, Any]:
    """Whether a move is legal for ``seat`` now, its score run by run, or why not."""
    table = active.table
    try:
        move = read_table_move(text, table)
    except RefereeError as unread:
        return {"legal": False, "score": None, "runs": [], "reason": unread.message}
    problem = table.illegal_reason(move, seat)
    if problem is not None:
        return {"legal": False, "score": None, "runs": [], "reason": str(problem)}
    breakdown = table.score_breakdown(move)
    runs = score_runs(breakdown)
    notation = move_notation(move, table.board) if isinstance(move, Place) else move.notation()
    return {
        "legal": True,
        "score": breakdown.total,
        "runs": runs,
        "reason": None,
        "notation": notation,
        "display": move_for_people(notation),
        "bingo": breakdown.bingo,
    }


def _analysed_turns(active: ActiveTable) -> list[dict[str, Any]]:
    """Each turn whose rack was entered next to the best play from that rack."""
    stored = active.stored
    table = TableGame(
        active.table.players,
        active.table.rules,
        refused_play_loses_turn=active.table.refused_play_loses_turn,
    )
    answers = []
    for entry in stored.moves:
        turns_before = len(table.history)
        if not entry.startswith("rack ") and turns_before < len(active.table.history):
            turn = active.table.history[turns_before]
            if turn.rack is not None:
                found = generate_placements(table.board, turn.rack, table.rules, limit=1)
                best = max(found, key=lambda placed: placed.score, default=None)
                best_notation = move_notation(best.place, table.board) if best else "pass"
                best_score = best.score if best else 0
                answers.append(
                    {
                        "turn": turns_before,
                        "seat": turn.seat,
                        "played": {
                            **shown_move(turn.notation, turn.score, table.board),
                            "tiles": placed_tiles(turn.move if turn.kind == "place" else None),
                        },
                        "best": shown_move(best_notation, best_score, table.board),
                        "lost": max(best_score - turn.score, 0),
                        "board": table.board.rows(),
                        "blanks": [square_name(sq) for sq in table.board.blank_squares()],
                        "rotated": [square_name(sq) for sq in table.board.rotated_squares()],
                        "scores": list(turn.scores),
                        "analysed": True,
                        "reason": None,
                    }
                )
        apply_entry(table, entry)
    return answers


async def table_analysis(active: ActiveTable) -> dict[str, Any]:
    """The analysis of a finished table game: the turns whose racks were entered."""
    turns = await asyncio.to_thread(_analysed_turns, active)
    note = None
    if not turns:
        note = _("no rack was entered in this game, so no turn can be analysed")
    return {"turns": turns, "total": len(turns), "complete": True, "note": note}
