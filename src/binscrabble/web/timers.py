"""The server's alarm clock: it calls back at each timed game's deadline, on its own.

One task sleeps until the earliest deadline of the games it was told about. A deadline
that moved (the seat moved in time) replaces the old one; the call back judges anew
whether the time really ran out (:func:`binscrabble.web.active_games.expire`), so a late
or stale alarm does no harm.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import Awaitable, Callable

from binscrabble.web.active_games import now_ms

LOG = logging.getLogger("binscrabble.web")
#: The longest the alarm sleeps at once, in seconds (a guard against a lost wake-up).
LONGEST_SLEEP = 60.0


class Timers:
    """Deadlines by game (milliseconds since the epoch), and the task that waits for them;
    ``ring(game_id)`` is awaited once a game's deadline has passed."""

    def __init__(self, ring: Callable[[str], Awaitable[None]]) -> None:
        self.ring = ring
        self.deadlines: dict[str, int] = {}
        self._heap: list[tuple[int, str]] = []
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def set(self, game_id: str, deadline: int | None) -> None:
        """Ring for ``game_id`` at ``deadline`` (``None``: no more)."""
        if deadline is None:
            self.deadlines.pop(game_id, None)
            return
        if self.deadlines.get(game_id) == deadline:
            return
        self.deadlines[game_id] = deadline
        heapq.heappush(self._heap, (deadline, game_id))
        if len(self._heap) > 2 * len(self.deadlines) + 64:
            # Drop the alarms of deadlines that moved.
            self._heap = [(due, game) for game, due in self.deadlines.items()]
            heapq.heapify(self._heap)
        self._changed.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
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
            wait = LONGEST_SLEEP
            if self._heap:
                wait = min(wait, max(0.0, (self._heap[0][0] - now_ms()) / 1000))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), wait)

    def close(self) -> None:
        """Stop waiting."""
        if self._task is not None:
            self._task.cancel()
