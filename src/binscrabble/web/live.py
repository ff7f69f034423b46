"""Live updates: every WebSocket of a game gets the new view after each accepted move.

Each connection has a :class:`Listener` holding the newest message not yet sent; a slow
connection only ever skips to the newest view, it never holds up the others or the game.

The page sends nothing on its WebSocket. uvicorn refuses a message over a few KiB (close
code 1009); :func:`read_until_closed` ignores a text message and closes the connection on a
binary one with 1003, the close code for data of a kind an endpoint does not take.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

from binscrabble import i18n

# RFC 6455 §7.4.1: the endpoint received data of a type it cannot accept.
UNSUPPORTED_DATA = 1003


class Listener:
    """One WebSocket's mailbox: the newest view to send, and a flag that one is waiting.
    Its views are in the language its connection was opened in."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.language = i18n.language()
        self.pending: dict[str, Any] | None = None
        self.ready = asyncio.Event()

    def offer(self, message: dict[str, Any]) -> None:
        """Replace the waiting message with a newer one."""
        self.pending = message
        self.ready.set()

    async def next_message(self) -> dict[str, Any]:
        """Wait for the next message to send."""
        await self.ready.wait()
        self.ready.clear()
        message = self.pending
        self.pending = None
        assert message is not None  # ready is set only together with pending
        return message


class Hub:
    """The listeners of every game, by game id."""

    def __init__(self) -> None:
        self.listeners: defaultdict[str, set[Listener]] = defaultdict(set)

    def join(self, game_id: str, seat: int | None) -> Listener:
        """A new listener on a game."""
        listener = Listener(seat)
        self.listeners[game_id].add(listener)
        return listener

    def leave(self, game_id: str, listener: Listener) -> None:
        """Forget a listener whose connection closed."""
        group = self.listeners.get(game_id)
        if group is not None:
            group.discard(listener)
            if not group:
                del self.listeners[game_id]

    def publish(self, game_id: str, view_for: Callable[[int | None], dict[str, Any]]) -> None:
        """Offer every listener of the game its own view (built once per seat and
        language)."""
        views: dict[tuple[int | None, str], dict[str, Any]] = {}
        for listener in self.listeners.get(game_id, ()):
            key = (listener.seat, listener.language)
            if key not in views:
                with i18n.use_language(listener.language):
                    views[key] = view_for(listener.seat)
            listener.offer(views[key])


async def read_until_closed(websocket: WebSocket) -> None:
    """Read what the other end sends until the connection ends: text is ignored, and a
    binary message closes the connection with :data:`UNSUPPORTED_DATA`."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("bytes") is not None:
            await websocket.close(UNSUPPORTED_DATA, "this socket takes no binary messages")
            return
