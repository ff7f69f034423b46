"""News of the changes other server processes store in a shared database.

Every stored change of a game is announced on PostgreSQL's channel
:data:`~binscrabble.web.storage.NEWS_CHANNEL` by the transaction that stores it (``NOTIFY``
is delivered at the commit, never for a change rolled back). :class:`News` keeps one
connection of its own listening there (``LISTEN``) and hands each announcement made by
another process to ``hear(game_id, moves, deadline)``: the database stays the one truth,
the news only says which game to read again. While the connection is down nothing is
heard: once it is back, ``resync()`` is called, for the games whose news may have been
missed to be read again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from binscrabble.web.storage import NEWS_CHANNEL

LOG = logging.getLogger("binscrabble.web")
#: Seconds between two attempts to listen again after the connection was lost.
RECONNECT_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Tidings:
    """One announcement: which process stored a change of which game, the game's stored
    move count after it (``-1``: not told), and its deadline (``None``: none)."""

    origin: str
    game_id: str
    moves: int
    deadline: int | None


def read_tidings(payload: str) -> Tidings | None:
    """An announcement's payload read (``None`` for one that is not ours).

    >>> read_tidings("ab12 g1 3 -"), read_tidings("ab12 g1 -1 1700000000000").deadline
    (Tidings(origin='ab12', game_id='g1', moves=3, deadline=None), 1700000000000)
    >>> read_tidings("nonsense") is None
    True
    """
    words = payload.split(" ")
    if len(words) != 4:
        return None
    origin, game_id, moves, deadline = words
    try:
        return Tidings(origin, game_id, int(moves), None if deadline == "-" else int(deadline))
    except ValueError:
        return None


class News:
    """Listens on a PostgreSQL database (``url``, libpq's form) for the changes that the
    processes other than ``origin`` store, until :meth:`close`."""

    def __init__(
        self,
        url: str,
        origin: str,
        hear: Callable[[Tidings], None],
        resync: Callable[[], None],
    ) -> None:
        self.url = url
        self.origin = origin
        self.hear = hear
        self.resync = resync
        #: Set while the connection listens (for the tests and the start-up).
        self.listening = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start listening, in the background."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                await self._listen()
            except Exception as problem:
                LOG.warning(
                    "listening for the other server processes' changes failed (%s): "
                    "trying again in %g s",
                    problem,
                    RECONNECT_SECONDS,
                )
            self.listening.clear()
            await asyncio.sleep(RECONNECT_SECONDS)

    async def _listen(self) -> None:
        import psycopg  # only a server on PostgreSQL needs it

        connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        async with connection:
            await connection.execute(f"LISTEN {NEWS_CHANNEL}")
            self.listening.set()
            # What was stored while nobody listened is read again now.
            self.resync()
            async for notice in connection.notifies():
                tidings = read_tidings(notice.payload)
                if tidings is not None and tidings.origin != self.origin:
                    self.hear(tidings)

    def close(self) -> None:
        """Stop listening."""
        if self._task is not None:
            self._task.cancel()
