"""Work that several server processes on one database share, each piece claimed by one.

The computer's moves of a game, settling a clock that ran out and a game's analysis are
each done by exactly one process: the one that holds the game's claim of that kind (a row
of ``claims``). A claim is a lease: it runs :data:`LEASE_MS` from its taking, and its owner
renews every lease it holds every :data:`RENEW_SECONDS` in one statement, so a process that
dies (killed, its machine gone) lets its leases expire, and then another process takes the
work over. Taking a claim is one atomic statement, an ``INSERT ... ON CONFLICT DO UPDATE``
that replaces only an expired lease or the taker's own: two processes asking at once, one
gets it. Every :data:`SWEEP_SECONDS` each process looks for games whose computer is to move
and whose claim is missing or expired (``SELECT ... FOR UPDATE SKIP LOCKED``, so processes
sweeping at the same moment take different games) and takes them on.

On a database only one process uses (SQLite: :attr:`Storage.shared
<binscrabble.web.storage.Storage.shared>` false) every claim is granted at once, with no
row written: nothing changes for a single server.

The database still decides who moves on which turn (one move a turn, one departure a seat):
a process whose lease expired while it still thought at worst has its move refused.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

from sqlalchemy import BigInteger, Column, Integer, String, Table, Text, delete, select, update
from sqlalchemy.dialects.postgresql import insert

from binscrabble.web.active_games import now_ms
from binscrabble.web.storage import Storage, games, metadata, seats

LOG = logging.getLogger("binscrabble.web")

#: The kinds of work claimed.
COMPUTER: Final = "computer"
CLOCK: Final = "clock"
ANALYSIS: Final = "analysis"
#: How long a lease runs unless renewed, in milliseconds: how long the work of a process that
#: died waits before another takes it over (plus up to one sweep).
LEASE_MS = 10_000
#: How often a process renews the leases it holds, in seconds (well within a lease).
RENEW_SECONDS = 2.0
#: How often a process looks for computers to move that nobody plays for, in seconds.
SWEEP_SECONDS = 4.0
#: The most games one sweep takes on.
SWEEP_LIMIT = 20
#: How long a stored turn of an analysis is kept (ms): past it, it is deleted, and the
#: game's analysis, asked for again, is computed again from its stored moves.
ANALYSIS_KEPT_MS = 7 * 24 * 3600 * 1000
#: How long the claim of a process that died is kept once its lease ended (ms): a claim
#: nobody took over (the game ended meanwhile) is deleted then.
CLAIM_KEPT_MS = 3600 * 1000
#: How often (seconds) each process deletes what is kept no longer (:meth:`Leases.prune`).
PRUNE_SECONDS = 600.0

#: One row a piece of work taken on (see migration 0007).
claims = Table(
    "claims",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("owner", String(32), nullable=False),
    Column("expires", BigInteger, nullable=False),
)
#: One row a turn of a game's analysis, as the analysis answers it (JSON), and when it was
#: stored (migration 0009; kept :data:`ANALYSIS_KEPT_MS`).
analysed = Table(
    "analysed",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("turn", Integer, primary_key=True),
    Column("facts", Text, nullable=False),
    Column("at", BigInteger, nullable=True),
)


class Leases:
    """This process's claims on a database: :meth:`claim`, :meth:`release`, and the task
    that renews them and takes on the computers nobody plays for (:meth:`start`)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.shared = storage.shared
        #: This process's name in ``claims.owner``.
        self.owner = storage.origin
        #: The claims this process holds.
        self.held: set[tuple[str, str]] = set()
        #: Claims another process holds, each with when its lease ends (ms since the epoch)
        #: as last seen: until then, asking again is pointless.
        self.elsewhere: dict[tuple[str, str], int] = {}
        self._task: asyncio.Task[None] | None = None

    def taken_elsewhere(self, kind: str, game_id: str) -> bool:
        """Whether another process held the claim when last asked, and its lease runs."""
        until = self.elsewhere.get((kind, game_id))
        if until is None:
            return False
        if until > now_ms():
            return True
        del self.elsewhere[kind, game_id]
        return False

    def forget(self, kind: str, game_id: str) -> None:
        """Forget that another process held the claim (the game moved on: it may be free)."""
        self.elsewhere.pop((kind, game_id), None)

    def lease_end(self, kind: str, game_id: str) -> int | None:
        """When another process's lease on the claim ends, as last seen (``None``: not
        known to be held elsewhere)."""
        return self.elsewhere.get((kind, game_id))

    async def claim(self, kind: str, game_id: str) -> bool:
        """Take the claim of ``kind`` on a game for this process (or renew it); whether it
        is this process's now."""
        if not self.shared:
            return True
        return await asyncio.to_thread(self._claim, kind, game_id)

    def _claim(self, kind: str, game_id: str) -> bool:
        now = now_ms()
        with self.storage.autocommit.connect() as connection:
            found = connection.execute(claiming(kind, game_id, self.owner, now)).first()
        if found is not None and found.owner == self.owner:
            self.held.add((kind, game_id))
            self.elsewhere.pop((kind, game_id), None)
            return True
        self.elsewhere[kind, game_id] = int(now if found is None else found.expires)
        return False

    async def release(self, kind: str, game_id: str) -> None:
        """Give up the claim (the work is done, or this process stops it)."""
        if not self.shared or (kind, game_id) not in self.held:
            return
        self.held.discard((kind, game_id))
        statement = delete(claims).where(
            claims.c.game_id == game_id, claims.c.kind == kind, claims.c.owner == self.owner
        )
        try:
            await asyncio.to_thread(self._run, statement)
        except Exception:
            # Its lease ends by itself: another process may take the work a little later.
            LOG.exception("releasing the %s claim of game %s failed", kind, game_id)

    def _run(self, statement: Any) -> None:
        """Run one statement, committed by itself."""
        with self.storage.autocommit.connect() as connection:
            connection.execute(statement)

    def _renew(self) -> None:
        """Push back the end of every lease this process holds, in one statement."""
        if self.held:
            self._run(
                update(claims)
                .where(claims.c.owner == self.owner)
                .values(expires=now_ms() + LEASE_MS)
            )

    def _orphans(self, limit: int) -> list[str]:
        """Take on (claim) at most ``limit`` games whose computer is to move and whose
        computer claim is missing or expired; their ids."""
        now = now_ms()
        # A shared database writes the seat to move on the game's row with every move: the
        # open games are read from their index (migration 0008, games_sweep).
        on_move = (seats.c.game_id == games.c.id) & (seats.c.seat == games.c.to_move)
        claimed = (claims.c.game_id == games.c.id) & (claims.c.kind == COMPUTER)
        query = (
            select(games.c.id)
            .select_from(games.join(seats, on_move).outerjoin(claims, claimed))
            .where(
                games.c.ended.is_(None),
                seats.c.computer.is_not(None),
                claims.c.owner.is_(None) | (claims.c.expires < now),
            )
            .limit(limit)
            .with_for_update(skip_locked=True, of=games)
        )
        taken: list[str] = []
        with self.storage.engine.begin() as connection:
            for (game_id,) in connection.execute(query).all():
                if connection.execute(taking(COMPUTER, game_id, self.owner, now)).first():
                    taken.append(game_id)
        for game_id in taken:
            self.held.add((COMPUTER, game_id))
            self.elsewhere.pop((COMPUTER, game_id), None)
        return taken

    def start(self, take_on: Callable[[str], Awaitable[None]]) -> None:
        """Renew this process's leases, and hand each game whose computer nobody plays for
        to ``take_on`` (its claim already taken), until :meth:`close` (shared only)."""
        if self.shared and (self._task is None or self._task.done()):
            self._task = asyncio.get_running_loop().create_task(self._keep(take_on))

    def prune(self, now: int) -> None:
        """Delete the turns of analyses stored over :data:`ANALYSIS_KEPT_MS` ago and the
        claims whose lease ended over :data:`CLAIM_KEPT_MS` ago (the turns found by their
        index; the claims are one row a piece of work under way)."""
        self._run(delete(analysed).where(analysed.c.at < now - ANALYSIS_KEPT_MS))
        self._run(delete(claims).where(claims.c.expires < now - CLAIM_KEPT_MS))

    async def _keep(self, take_on: Callable[[str], Awaitable[None]]) -> None:
        loop = asyncio.get_running_loop()
        next_sweep = next_prune = loop.time()
        while True:
            now = now_ms()
            self.elsewhere = {key: until for key, until in self.elsewhere.items() if until > now}
            try:
                await asyncio.to_thread(self._renew)
                if loop.time() >= next_sweep:
                    next_sweep = loop.time() + SWEEP_SECONDS
                    for game_id in await asyncio.to_thread(self._orphans, SWEEP_LIMIT):
                        await take_on(game_id)
                if loop.time() >= next_prune:
                    next_prune = loop.time() + PRUNE_SECONDS
                    await asyncio.to_thread(self.prune, now_ms())
            except Exception:
                LOG.exception("renewing the leases or looking for work nobody does failed")
            await asyncio.sleep(RENEW_SECONDS)

    def close(self) -> None:
        """Stop renewing (the leases then expire, and other processes take the work)."""
        if self._task is not None:
            self._task.cancel()

    async def analysed_turns(self, game_id: str) -> list[dict[str, Any]]:
        """The turns of a game's analysis stored so far, in order."""
        return await asyncio.to_thread(self._analysed_turns, game_id)

    def _analysed_turns(self, game_id: str) -> list[dict[str, Any]]:
        query = select(analysed.c.facts).where(analysed.c.game_id == game_id)
        with self.storage.engine.connect() as connection:
            rows = connection.execute(query.order_by(analysed.c.turn)).all()
        return [json.loads(row[0]) for row in rows]

    async def store_turn(self, game_id: str, turn: int, facts: dict[str, Any]) -> None:
        """Store one turn of a game's analysis (once: a turn stored already stays)."""
        statement = (
            insert(analysed)
            .values(game_id=game_id, turn=turn, facts=json.dumps(facts), at=now_ms())
            .on_conflict_do_nothing()
        )
        try:
            await asyncio.to_thread(self._run, statement)
        except Exception:
            LOG.exception("storing turn %d of the analysis of game %s failed", turn, game_id)


def claiming(kind: str, game_id: str, owner: str, now: int) -> Any:
    """One statement that takes a claim (:func:`taking`) and, when another holds it, reads
    its holder and when its lease ends: a row ``(owner, expires)``, the owner this process
    when taken; no row when another process took it at the same moment (its row not yet
    visible to the statement)."""
    took = taking(kind, game_id, owner, now).cte("took")
    held = select(claims.c.owner, claims.c.expires).where(
        claims.c.game_id == game_id,
        claims.c.kind == kind,
        ~select(took.c.owner).exists(),
    )
    return select(took.c.owner, took.c.expires).union_all(held)


def taking(kind: str, game_id: str, owner: str, now: int) -> Any:
    """The statement that takes a claim for ``owner`` when nobody holds it, its lease
    expired or ``owner`` holds it already; it returns a row when taken."""
    values = insert(claims).values(game_id=game_id, kind=kind, owner=owner, expires=now + LEASE_MS)
    return values.on_conflict_do_update(
        index_elements=[claims.c.game_id, claims.c.kind],
        set_={"owner": values.excluded.owner, "expires": values.excluded.expires},
        where=(claims.c.expires < now) | (claims.c.owner == owner),
    ).returning(claims.c.owner, claims.c.expires)
