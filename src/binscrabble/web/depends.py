"""What the routes depend on (FastAPI dependencies): the server, the game a path names (404
when there is none) and the seat a token opens (401 for no token where one is needed, or a
wrong one).

FastAPI resolves a route's dependencies in the order of its parameters, each once per
request, before its body is checked; a route whose body must be checked first (a malformed
body gets 400 whatever the game) takes the game from a dependency that reads the body too
(:func:`game_after`). The token is checked before the kind of game a route serves: a route
that refuses some games (a hint in a game at a table gets 409) refuses them in a dependency
that takes the seat, so that a missing or wrong token gets 401 first, as on every route.
A route that takes no body (resign, abort, rematch, hint) takes :data:`NoBody`: nothing, or
``{}``.

This module leaves out ``from __future__ import annotations``: the dependencies made by
:func:`game_after` and :func:`seat_in` carry their parameters' types as objects, which
FastAPI reads.
"""

import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeAlias

from fastapi import Depends, Header, Request
from starlette.requests import HTTPConnection

from binscrabble.i18n import _
from binscrabble.web.active_games import ActiveGame, HeldGame, RefereeError
from binscrabble.web.server import Server
from binscrabble.web.table_games import ActiveTable

#: A game the app holds: with a bag, or at a real table (INTERFACES.md §9).
Held: TypeAlias = ActiveGame | ActiveTable


def one_authorization(
    connection: HTTPConnection, authorization: Annotated[str | None, Header()] = None
) -> str | None:
    """The request's ``Authorization`` header, if any; 400 when it gives two (a request
    with two credentials is ambiguous: a proxy or another reader may take the other)."""
    if len(connection.headers.getlist("authorization")) > 1:
        raise RefereeError(
            400, _("the request has two Authorization headers: send one, with your seat's token")
        )
    return authorization


#: The ``Authorization`` header of a request, if any (400 for two).
Authorization = Annotated[str | None, Depends(one_authorization)]


def server_of(connection: HTTPConnection) -> Server:
    """The app's :class:`Server`."""
    server: Server = connection.app.state.server
    return server


ServerDep = Annotated[Server, Depends(server_of)]


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, ``None`` without one.

    >>> bearer_token("Bearer abc"), bearer_token(None)
    ('abc', None)
    """
    if authorization is None:
        return None
    scheme, _space, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise RefereeError(
            401, _("the Authorization header must read 'Bearer TOKEN', with your seat's token")
        )
    return token.strip()


def seat_for(held: HeldGame, token: str | None, required: bool) -> int | None:
    """The seat a token opens; 401 for a wrong token, or for none when one is ``required``."""
    if token is None:
        if required:
            raise RefereeError(
                401, _("this needs your seat's token: send 'Authorization: Bearer TOKEN'")
            )
        return None
    seat = held.seat_of(token)
    if seat is None:
        raise RefereeError(401, _("this token opens no seat of this game: use your invite link"))
    return seat


async def held_game(game_id: str, server: ServerDep) -> Held:
    """The game of the path; 404 when there is none."""
    return await server.find_game(game_id)


GameDep = Annotated[Held, Depends(held_game)]


def game_after(body_type: Any, *, fresh: bool = True) -> Callable[..., Awaitable[Held]]:
    """A dependency: the game of the path, looked for once the request's body has been
    checked as ``body_type`` (the route's own body: FastAPI reads it once); ``fresh``: see
    :meth:`~binscrabble.web.active_games.GameTable.get`."""

    async def game_of_request(game_id: str, server: ServerDep, body: body_type) -> Held:
        del body  # checked, so that a malformed body gets 400 before an unknown game 404
        return await server.find_game(game_id, fresh=fresh)

    return game_of_request


async def seat_or_spectator(
    held: GameDep, server: ServerDep, authorization: Authorization = None
) -> int | None:
    """The seat the request's token opens, or ``None`` without a token (a spectator); the
    seat's first request joins it to the game (:meth:`Server.join`)."""
    seat = seat_for(held, bearer_token(authorization), required=False)
    if seat is not None:
        await server.join(held, seat)
    return seat


def seat_in(game: Callable[..., Awaitable[Held]]) -> Callable[..., Awaitable[int]]:
    """A dependency: the seat the request's token opens in the game of dependency ``game``;
    401 without a token. The seat's first request joins it to the game."""

    async def seat_of_request(
        held: Annotated[Held, Depends(game)], server: ServerDep, authorization: Authorization = None
    ) -> int:
        seat = seat_for(held, bearer_token(authorization), required=True)
        assert seat is not None
        await server.join(held, seat)
        return seat

    return seat_of_request


async def no_body(request: Request) -> None:
    """A route that takes no body: nothing, or the empty object ``{}``; 400 for anything
    else (the body is read whole already, under the size limit)."""
    body = (await request.body()).strip()
    if body in (b"", b"{}"):
        return
    try:
        empty = json.loads(body) == {}
    except (ValueError, RecursionError):
        empty = False
    if not empty:
        raise RefereeError(400, _("this request takes no body: send none, or {{}}").format())


#: A route that takes no body (:func:`no_body`); checked before the game.
NoBody = Annotated[None, Depends(no_body)]

#: The seat of a request with or without a token (``None``: a spectator).
SeatOrSpectator = Annotated[int | None, Depends(seat_or_spectator)]
#: The seat of a request that needs a token, in the game of the path.
SeatDep = Annotated[int, Depends(seat_in(held_game))]
