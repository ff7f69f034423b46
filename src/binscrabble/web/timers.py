"""The server's alarm clock: it calls back at each timed game's deadline, on its own.

One task sleeps until the earliest deadline it knows of. It learns of deadlines two ways:
each change of a game in memory sets its new one (:meth:`Timers.set`), and every
:data:`SWEEP_SECONDS` it asks the database for the stored deadlines of the next
:data:`HORIZON_SECONDS` (``due``: one indexed query), so a game far from its deadline
stays in the database, however many there are, until its time is near or it is opened. A
deadline that moved (the seat moved in time) replaces the old one; the call back judges
anew whether the time really ran out (:func:`binscrabble.web.active_games.expire`), so a
late or stale alarm does no harm.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import time
from collections.abc import Awaitable, Callable

from binscrabble.web.active_games import now_ms

LOG = logging.getLogger("binscrabble.web")
#: How often the alarm asks the database for the deadlines coming up, in seconds.
SWEEP_SECONDS = 30.0
#: How far ahead each of those questions looks, in seconds: beyond the next one.
HORIZON_SECONDS = 2 * SWEEP_SECONDS
#: The most deadlines one question brings (the earliest); when it brings that many, the
#: next question comes as soon as they have rung.
SWEEP_LIMIT = 500
#: The least time between two questions, in seconds (a guard against asking in a loop).
LEAST_SWEEP_SECONDS = 1.0


async def nothing_due(_before: int, _limit: int) -> list[tuple[str, int]]:
    """The default of :class:`Timers`'s ``due``: no stored deadlines to ask for."""
    return []


class Timers:
    """Deadlines by game (milliseconds since the epoch), and the task that waits for them;
    ``ring(game_id)`` is awaited once a game's deadline has passed; ``due(before, limit)``
    answers the stored deadlines up to ``before`` (see :meth:`Storage.due
    <binscrabble.web.storage.Storage.due>`)."""

    def __init__(
        self,
        ring: Callable[[str], Awaitable[None]],
        due: Callable[[int, int], Awaitable[list[tuple[str, int]]]] = nothing_due,
    ) -> None:
        self.ring = ring
        self.due = due
        self.deadlines: dict[str, int] = {}
        #: How many times the database was asked for the deadlines coming up.
        self.sweeps = 0
        self._heap: list[tuple[int, str]] = []
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._next_sweep = 0.0

    def start(self) -> None:
        """Start waiting (and ask the database at once)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def set(self, game_id: str, deadline: int | None) -> None:
        """Ring for ``game_id`` at ``deadline`` (``None``: no more)."""
        if deadline is None:
            self.deadlines.pop(game_id, None)
            return
        if self._keep(game_id, deadline):
            self._changed.set()
            self.start()

    def _keep(self, game_id: str, deadline: int) -> bool:
        """Note the deadline; whether it is new."""
        if self.deadlines.get(game_id) == deadline:
            return False
        self.deadlines[game_id] = deadline
        heapq.heappush(self._heap, (deadline, game_id))
        if len(self._heap) > 2 * len(self.deadlines) + 64:
            # Drop the alarms of deadlines that moved.
            self._heap = [(due, game) for game, due in self.deadlines.items()]
            heapq.heapify(self._heap)
        return True

    async def _sweep(self) -> None:
        """Ask the database for the deadlines of the next :data:`HORIZON_SECONDS`."""
        self.sweeps += 1
        found = await self.due(now_ms() + int(HORIZON_SECONDS * 1000), SWEEP_LIMIT)
        for game_id, deadline in found:
            self._keep(game_id, deadline)
        wait = SWEEP_SECONDS
        if len(found) == SWEEP_LIMIT:
            # More may be due: ask again once the last of these has rung.
            wait = min(wait, max(LEAST_SWEEP_SECONDS, (found[-1][1] - now_ms()) / 1000))
        self._next_sweep = time.monotonic() + wait

    async def _run(self) -> None:
        while True:
            if time.monotonic() >= self._next_sweep:
                try:
                    await self._sweep()
                except Exception:
                    LOG.exception("asking the database for the deadlines coming up failed")
                    self._next_sweep = time.monotonic() + SWEEP_SECONDS
            while self._heap and self._heap[0][0] <= now_ms():
                deadline, game_id = heapq.heappop(self._heap)
                if self.deadlines.get(game_id) != deadline:
                    continue  # moved or cancelled
                del self.deadlines[game_id]
                try:
                    await self.ring(game_id)
                except Exception:
                    LOG.exception("settling the clock of game %s failed", game_id)
            self._changed.clear()
            wait = max(0.0, self._next_sweep - time.monotonic())
            if self._heap:
                wait = min(wait, max(0.0, (self._heap[0][0] - now_ms()) / 1000))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), wait)

    def close(self) -> None:
        """Stop waiting."""
        if self._task is not None:
            self._task.cancel()
