"""Games that end before they are played out (INTERFACES.md §7): a seat resigns, or aborts
the game. The core judges who won (:meth:`binscrabble.game.Game.resign`,
:meth:`~binscrabble.game.Game.abort`); the route stores the seat's leaving and tells the
listeners."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from binscrabble.i18n import _
from binscrabble.web.active_games import ActiveGame, RefereeError, depart
from binscrabble.web.depends import GameDep, NoBody, SeatDep, ServerDep
from binscrabble.web.models import GameView
from binscrabble.web.ratelimit import client_key
from binscrabble.web.responses import errors
from binscrabble.web.server import Server
from binscrabble.web.views import build_view

router = APIRouter()


async def game_with_a_bag(_body: NoBody, held: GameDep, _seat: SeatDep) -> ActiveGame:
    """The game of a resign or abort, which take no body (400 for one that is not ``{}``),
    then 404 for no game, 401 for no seat's token, and 409 for a game at a table."""
    if not isinstance(held, ActiveGame):
        raise RefereeError(409, _("a game at a table is not resigned or aborted here"))
    return held


LeavingGame = Annotated[ActiveGame, Depends(game_with_a_bag)]


@router.post(
    "/api/games/{game_id}/resign",
    response_model=GameView,
    response_model_exclude_unset=True,
    responses=errors(400, 401, 404, 409),
)
async def resign(
    active: LeavingGame, seat: SeatDep, server: ServerDep, request: Request
) -> dict[str, Any]:
    """Resign your seat: with two seats the other wins; with more, your seat places last,
    its turns are skipped and the others play on. Answers your view; 409 once over."""
    return await leave(server, active, seat, "resigned", client_key(request.client))


@router.post(
    "/api/games/{game_id}/abort",
    response_model=GameView,
    response_model_exclude_unset=True,
    responses=errors(400, 401, 404, 409),
)
async def abort(
    active: LeavingGame, seat: SeatDep, server: ServerDep, request: Request
) -> dict[str, Any]:
    """Abort the game, until every seat has moved once: nobody wins. Answers your view;
    409 after that or once over."""
    return await leave(server, active, seat, "aborted", client_key(request.client))


async def leave(
    server: Server, active: ActiveGame, seat: int, reason: str, address: str
) -> dict[str, Any]:
    """Store the seat's leaving (judged by the core), tell the listeners, play on: the
    computers' moves it hands the turn to are charged to ``address``, the client that
    left (with no person left, they play on the computer-only lane)."""
    await depart(active, server.storage, seat, reason)
    server.changed(active)
    server.wake_computer(active, address)
    return build_view(active, seat)
