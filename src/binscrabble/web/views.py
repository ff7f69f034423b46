"""What each seat sees of a game over the web: the core's view of it with what only the web
app knows around it.

The core builds what a seat may see (:meth:`binscrabble.game.Game.view_for`, and
:meth:`binscrabble.table.TableGame.view_for` for a game at a real table): never another
seat's rack, the bag's order or the seed. :func:`build_view` adds the web's own fields, the
same for every viewer, in one place (:func:`around`); every outgoing game state, answer or
WebSocket message, goes through it (INTERFACES.md §5).
"""

from __future__ import annotations

import functools
from typing import Any

from binscrabble import i18n
from binscrabble.board import square_name
from binscrabble.game import ScoreBreakdown
from binscrabble.i18n import _
from binscrabble.move import display_equation
from binscrabble.web.active_games import ActiveGame
from binscrabble.web.storage import StoredGame
from binscrabble.web.table_games import ActiveTable


def build_view(held: ActiveGame | ActiveTable, seat: int | None) -> dict[str, Any]:
    """The game as ``seat`` may see it (``None``: a spectator), as JSON-able data: the
    view of INTERFACES.md §5 (and §9 for a game at a table)."""
    if isinstance(held, ActiveTable):
        return around(held.stored, held.table.view_for(seat))
    view = held.game.view_for(seat, held.stored.moves)
    return around(held.stored, view, held.clock_view())


def around(
    stored: StoredGame, view: dict[str, Any], clock: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The core's ``view`` of a stored game with the web's fields: the game's id, each
    seat's computer level (``None`` for a person), the game's rematch (``None`` until one
    is made) and the ``clock`` the server keeps (INTERFACES.md §7, as of the moment the
    view is built; ``None`` when untimed). Whatever else only the web knows of a game and
    shows every viewer alike is added here, and to :class:`~binscrabble.web.models.GameView`."""
    for player, record in zip(view["players"], stored.seats, strict=True):
        player["computer"] = record.computer
        if record.computer and player["name"] in computer_default_names():
            # The lobby names a computer "Computer" in the language the game was made in;
            # each reader reads that name in its own ("Ordinateur" read in Bulgarian was
            # "Ordinateur (компютър, средно)").
            player["name"] = _("Computer")
    return {"id": stored.game_id, **view, "rematch": stored.rematch, "clock": clock}


@functools.cache
def computer_default_names() -> frozenset[str]:
    """The name the lobby gives a computer seat, "Computer", in every language."""
    names = set()
    for language in i18n.LANGUAGES:
        with i18n.use_language(language):
            names.add(_("Computer"))
    return frozenset(names)


def score_runs(breakdown: ScoreBreakdown) -> list[dict[str, Any]]:
    """The runs of a move's score as a preview shows them: each equation (in codes, and as
    people read it), its value, its bonus and score, its squares and its sum written out."""
    return [
        {
            "text": run.text,
            "display": display_equation(run.text),
            "value": run.value,
            "binary": format(run.value, "b"),
            "bonus": run.bonus,
            "score": run.score,
            "squares": [square_name(sq) for sq in run.squares],
            "sum": run.explain(),
        }
        for run in breakdown.runs
    ]
