"""The WebSocket of a game: its view on connect and after every accepted move."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket

from binscrabble.i18n import _
from binscrabble.web.active_games import RefereeError
from binscrabble.web.depends import ServerDep, seat_for
from binscrabble.web.live import read_until_closed
from binscrabble.web.views import build_view

router = APIRouter()

#: The longest reason a close frame carries: 125 bytes of payload less the 2 of the code.
CLOSE_REASON_BYTES = 123


def close_reason(sentence: str) -> str:
    """``sentence`` cut to fit a close frame: at most :data:`CLOSE_REASON_BYTES` bytes of
    UTF-8, cut between characters (Hebrew and Bulgarian take two bytes a letter).

    >>> close_reason("ok"), len(close_reason("я" * 100).encode())
    ('ok', 122)
    """
    return sentence.encode()[:CLOSE_REASON_BYTES].decode(errors="ignore")


@router.websocket("/api/games/{game_id}/live")
async def live(
    websocket: WebSocket, game_id: str, server: ServerDep, token: str | None = None
) -> None:
    # The game and the seat are looked for once the socket is accepted, so that a wrong
    # link or token is told as a close code the page can read.
    await websocket.accept()
    try:
        if len(websocket.query_params.getlist("token")) > 1:
            # As two Authorization headers: a proxy or a log reader may take the other.
            raise RefereeError(
                400, _("the address gives the token twice: give it once, your seat's token")
            )
        held = await server.find_game(game_id)
        seat = seat_for(held, token, required=False)
        if seat is not None:
            await server.join(held, seat)  # its first request joins the seat
        view = build_view(held, seat)
    except RefereeError as problem:
        # 4000 + the HTTP status, so a page can tell a wrong link from a wrong token.
        await websocket.close(code=4000 + problem.status, reason=close_reason(problem.message))
        return
    listener = server.hub.join(game_id, seat)
    listener.offer(view)

    async def send_views() -> None:
        while True:
            await websocket.send_json(await listener.next_message())

    sender = asyncio.get_running_loop().create_task(send_views())
    try:
        await read_until_closed(websocket)
    finally:
        sender.cancel()
        server.hub.leave(game_id, listener)
        server.table.trim()
