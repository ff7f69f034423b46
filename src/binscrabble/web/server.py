"""The state one app holds (:class:`Server`): storage, the open games, live listeners and the
computer's workers. The routes reach it through :data:`binscrabble.web.depends.ServerDep`."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from typing import Any

from binscrabble.web.active_games import (
    DEFAULT_MAX_GAMES,
    Accepted,
    ActiveGame,
    GameTable,
    MoveOrReader,
    RefereeError,
    expire,
    join,
    now_ms,
    read_move,
    reload,
    standing,
    submit,
)
from binscrabble.web.computer import Computer, Fairness
from binscrabble.web.leases import CLOCK, COMPUTER, Leases
from binscrabble.web.live import Hub
from binscrabble.web.news import News, Tidings
from binscrabble.web.playing import (
    ABANDONED_SECONDS,
    IDLE_SECONDS,
    LISTED,
    PER_CLIENT,
    SHARED_SECONDS,
    Playing,
    stored_entry,
)
from binscrabble.web.ratelimit import UNKNOWN_CLIENT
from binscrabble.web.storage import Storage
from binscrabble.web.table_games import ActiveTable, TableGames
from binscrabble.web.timers import HORIZON_SECONDS, Timers
from binscrabble.web.views import build_view

LOG = logging.getLogger("binscrabble.web")


class Server:
    """The state one app holds: storage, the open games, live listeners and the workers."""

    def __init__(self, url: str, fairness: Fairness, max_games: int = DEFAULT_MAX_GAMES) -> None:
        self.storage = Storage(url)
        self.tables = TableGames(self.storage)
        self.table = GameTable(self.storage, max_games, self.in_use, self.changed)
        self.hub = Hub()
        #: The claims on the work other processes on the same database share (web/leases.py).
        self.leases = Leases(self.storage)
        self.computer = Computer(fairness, self.leases)
        self.tasks: set[asyncio.Task[None]] = set()
        self.thinking: set[str] = set()
        #: The client address charged for each game's computer moves while they play.
        self.charged: dict[str, str] = {}
        #: The games being played now, for the lobby (kept up to date by :meth:`publish`).
        self.playing = Playing(connected=self.seat_connected)
        #: On a shared database, the list last read from it and when (:meth:`listing`).
        self.listed: tuple[float, list[dict[str, Any]]] | None = None
        #: The alarm of the timed games (INTERFACES.md §7).
        self.timers = Timers(self.ring, self.due)
        #: What other processes on the same database store (``None``: none can).
        listen = self.storage.news_url()
        self.news = (
            None if listen is None else News(listen, self.storage.origin, self.hear, self.resync)
        )
        #: The games whose news is being caught up with: whether more came meanwhile.
        self.hearing: dict[str, bool] = {}

    def seat_connected(self, game_id: str) -> bool:
        """Whether a seat of the game has its WebSocket open (a spectator's does not count)."""
        return any(listener.seat is not None for listener in self.hub.listeners.get(game_id, ()))

    def in_use(self, game_id: str) -> bool:
        """Whether a game must stay in memory: a WebSocket listens, or its computer thinks."""
        return game_id in self.thinking or bool(self.hub.listeners.get(game_id))

    async def open_game(self, game_id: str, *, fresh: bool = True) -> ActiveGame:
        """The open game; also sets its computer thinking when the computer is to move
        (``fresh``: see :meth:`GameTable.get`)."""
        active = await self.table.get(game_id, fresh=fresh)
        self.wake_computer(active)
        return active

    async def find_game(self, game_id: str, *, fresh: bool = True) -> ActiveGame | ActiveTable:
        """The game ``game_id``, at a table or not (a ``RefereeError`` 404 when there is
        none); opening a game sets its computer thinking when the computer is to move
        (``fresh``: see :meth:`GameTable.get`)."""
        if (table := await self.tables.find(game_id)) is not None:
            return table
        return await self.open_game(game_id, fresh=fresh)

    async def submit(
        self, active: ActiveGame, seat: int, move: MoveOrReader, turn: int | None
    ) -> Accepted:
        """:func:`submit` the move; when it is refused with 409 and this process's copy of
        the game was behind the database, once more on the database's game."""
        try:
            return await submit(active, self.storage, seat, move, turn)
        except RefereeError as problem:
            if problem.status != 409 or not await self.table.refresh(active):
                raise
        return await submit(active, self.storage, seat, move, turn)

    def publish(self, active: ActiveGame | ActiveTable) -> None:
        """Send every listener of the game its new view; the list of games being played
        now takes note of a game on the board here (a game at a table is played on a
        real board, not watched here, so it is not listed)."""
        if isinstance(active, ActiveGame):
            self.playing.saw(active)
            self.listed = None  # a shared database's list is read again
        self.hub.publish(active.game_id, lambda seat: build_view(active, seat))

    async def listing(self) -> list[dict[str, Any]]:
        """The games being played now, as ``GET /api/games`` answers them (web/playing.py):
        this process's list, or on a shared database the list read from it (at most once
        every :data:`~binscrabble.web.playing.SHARED_SECONDS`, unless a game changed)."""
        if not self.storage.shared:
            return self.playing.listing()
        now = time.monotonic()
        if self.listed is not None and now - self.listed[0] < SHARED_SECONDS:
            return self.listed[1]
        connected = [game_id for game_id in self.hub.listeners if self.seat_connected(game_id)]
        rows = await asyncio.to_thread(
            self.storage.playing_now, LISTED, PER_CLIENT, IDLE_SECONDS, ABANDONED_SECONDS, connected
        )
        answer = [stored_entry(*row) for row in rows]
        self.listed = (now, answer)
        return answer

    def changed(self, active: ActiveGame) -> None:
        """A game changed: send its listeners the new view and set its clock's alarm (and
        forget who held its computer's claim: it may be free now)."""
        self.leases.forget(COMPUTER, active.game_id)
        self.publish(active)
        self.set_alarm(active)

    def set_alarm(self, active: ActiveGame) -> None:
        """Ring when the running seat of the game's clock would lose on time."""
        clock = active.clock
        over = active.game.is_over()
        self.timers.set(active.game_id, None if clock is None or over else clock.deadline())

    async def join(self, held: ActiveGame | ActiveTable, seat: int) -> None:
        """A request came with ``seat``'s token: the seat's first one joins it to the game
        (a timed game's clocks start when every person seat has), and a timed game's
        listeners hear of it."""
        if not isinstance(held, ActiveGame) or not await join(held, self.storage, seat):
            return
        if held.clock is not None:  # a timed game's view shows whom it waits for
            self.changed(held)

    async def due(self, before: int, limit: int) -> list[tuple[str, int]]:
        """The stored deadlines up to ``before`` (for the alarm), which also stores the
        server's heartbeat: it asks every :data:`~binscrabble.web.timers.SWEEP_SECONDS`."""
        await asyncio.to_thread(self.storage.beat, now_ms())
        return await asyncio.to_thread(self.storage.due, before, limit)

    async def ring(self, game_id: str) -> None:
        """A game's deadline passed: settle the running seat's time running out (if it has:
        it may have moved meanwhile, or the deadline moved past a pause), then play on. A
        deadline that moved is stored anew, so that the alarm finds it. Among the processes
        on one database, the one that claims it does (web/leases.py); the others ring again
        when its lease ends, unless its news came first."""
        if not await self.leases.claim(CLOCK, game_id):
            self.timers.set(game_id, self.leases.lease_end(CLOCK, game_id))
            return
        try:
            active = await self.table.get(game_id)
            if self.storage.shared:
                # Another process may have stored what its news does not carry (a seat
                # joining): the clock is judged on the game as stored.
                async with active.lock:
                    await reload(active, self.storage)
            if await expire(active, self.storage):
                self.publish(active)
                self.wake_computer(active)
            elif not active.game.is_over():
                mended = standing(active.game, active.clock)
                await asyncio.to_thread(self.storage.stand, game_id, mended)
            self.set_alarm(active)
        finally:
            await self.leases.release(CLOCK, game_id)

    async def start(self) -> None:
        """Start the alarm, which asks the database for the deadlines coming up (the clocks
        that ran out while the server was down among them), and take up in the background
        the games whose computer is to move: nothing holds the start, whatever the number
        of games going on. The time since the last heartbeat of any process is a pause
        first when no other process is serving (the site was down): no clock ran in it."""
        await asyncio.to_thread(self.storage.resume, now_ms())
        self.timers.start()
        if self.news is not None:
            self.news.start()
        self.leases.start(self.take_on)
        self.background(self.take_up())

    def background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, kept until it ends (cancelled by :meth:`close`)."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def take_on(self, game_id: str) -> None:
        """Play the computer of a game nobody played for (its process died): this process
        claimed it (web/leases.py)."""
        try:
            active = await self.table.get(game_id)
        except RefereeError:
            await self.leases.release(COMPUTER, game_id)
            return
        self.wake_computer(active)

    def hear(self, tidings: Tidings) -> None:
        """Another process stored a change of a game (web/news.py): the alarm takes note of
        its deadline, and a game held here is brought up to the database (its listeners
        get the new view); the news of one game are caught up with one at a time."""
        horizon = now_ms() + int(HORIZON_SECONDS * 1000)
        deadline = tidings.deadline
        game_id = tidings.game_id
        if game_id in self.timers.deadlines or (deadline is not None and deadline <= horizon):
            self.timers.set(game_id, deadline)
        self.read_again(game_id)

    def read_again(self, game_id: str) -> None:
        """Bring the game up to the database in the background if it is held here; a game
        being loaded is brought up once it is held (its load may have read the database
        before the change)."""
        # Both may be loading it (a table game is looked for first), held or not: a load
        # that read the database before the change brings its game up once held.
        self.tables.heard(game_id)
        self.table.heard(game_id)
        if game_id not in self.table.active_games and game_id not in self.tables.held:
            return
        if game_id in self.hearing:
            self.hearing[game_id] = True
            return
        self.hearing[game_id] = False
        self.background(self.catch_up(game_id))

    async def catch_up(self, game_id: str) -> None:
        """Bring a held game up to the database, again while more news of it comes."""
        try:
            while True:
                await self.catch_up_once(game_id)
                if not self.hearing[game_id]:
                    return
                self.hearing[game_id] = False
        except Exception:
            LOG.exception("reading game %s again after another process changed it", game_id)
        finally:
            del self.hearing[game_id]

    async def catch_up_once(self, game_id: str) -> None:
        """Bring a held game (at a table or not) up to the database."""
        active = self.table.active_games.get(game_id)
        if active is not None:
            await self.table.catch_up(active)
            return
        if game_id in self.tables.held:
            table = await self.tables.find(game_id)
            if table is not None:
                self.publish(table)

    def resync(self) -> None:
        """News may have been missed (the listening connection was down): every held game
        that someone watches, or that is being loaded, is brought up to the database."""
        loading = [*self.table.loading, *self.tables.loading]
        for game_id in dict.fromkeys([*self.hub.listeners, *loading]):
            self.read_again(game_id)

    async def take_up(self) -> None:
        """Let each computer to move play, and mend the games whose standing or deadline
        was stored before those were kept; one game at a time."""
        for game_id, unknown, computer in await asyncio.to_thread(self.storage.open_games):
            try:
                active = await self.table.get(game_id)
            except RefereeError:
                continue
            if unknown:
                await self.ring(game_id)
            if computer:
                self.wake_computer(active)
            if unknown or active.game.is_over():
                mended = standing(active.game, active.clock)
                await asyncio.to_thread(self.storage.stand, game_id, mended)

    def wake_computer(self, active: ActiveGame, address: str = "") -> None:
        """Start the computer's moves of a game unless they are already under way. They are
        charged to ``address``, the client whose request handed the computers their turn
        (a move, the game's creation, a resignation, a rematch), from now on even when they
        are under way; woken by nobody's request (a restart, a clock, a reading), to the
        client that made the game, so never to no address."""
        if active.computer_to_move() is None:
            return
        if address:
            self.charged[active.game_id] = address
        if active.game_id in self.thinking or self.leases.taken_elsewhere(COMPUTER, active.game_id):
            return
        self.thinking.add(active.game_id)
        self.computer.started(active, self.charge(active))
        self.background(self.play_computers(active))

    def charge(self, active: ActiveGame) -> str:
        """The client address the game's next computer move is charged to."""
        return self.charged.get(active.game_id) or active.stored.client or UNKNOWN_CLIENT

    async def play_computers(self, active: ActiveGame) -> None:
        """Play the computer's moves for as long as a computer is to move, once this
        process holds the claim on them (web/leases.py): a computer that cannot move keeps
        it (the game waits, as it would for a single process), else it is given up."""
        failed = False
        try:
            if not await self.leases.claim(COMPUTER, active.game_id):
                return
            while (level := active.computer_to_move()) is not None:
                turn, seat = active.turn, active.game.to_move
                left = len(active.stored.departures)
                notation = await self.computer.move(active, level, self.charge(active))
                # The game moved on meanwhile: a move, or a seat that resigned or ran out
                # of time (the computer's own clock included).
                if active.turn != turn or len(active.stored.departures) != left:
                    continue
                move = read_move(notation, active.game)
                try:
                    await submit(active, self.storage, seat, move, turn)
                except RefereeError as refused:
                    if refused.status != 409:
                        raise
                    self.changed(active)  # its time ran out as it moved
                    continue
                self.changed(active)
        except Exception:
            # A computer that cannot move leaves the game waiting; the log says why.
            failed = True
            LOG.exception("the computer's move in game %s failed", active.game_id)
            raise
        finally:
            if not failed:
                await self.leases.release(COMPUTER, active.game_id)
            self.thinking.discard(active.game_id)
            self.charged.pop(active.game_id, None)
            self.computer.stopped(active)
            self.table.trim()

    def close(self) -> None:
        """Stop the workers and release the database."""
        for task in self.tasks:
            task.cancel()
        if self.news is not None:
            self.news.close()
        self.leases.close()
        self.timers.close()
        self.computer.close()
        self.storage.stop(now_ms())  # marked stopped: the pause of a restart starts now
        self.storage.close()
