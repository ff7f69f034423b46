"""Where games live: SQLAlchemy 2 Core over SQLite (or any SQLAlchemy URL), nothing else.

This is the only module of the web app that touches the database. A game is stored as its
rules, its seats, its secret bag seed and its list of accepted moves (notation and turn
index); replaying the moves on a new :class:`~binscrabble.game.Game` with the same seed
gives back every rack and the bag. The table of moves has ``(game_id, turn)`` as its key,
so that two server processes can never both store a move for one turn.

A timed game stores its clock and when it was created, and every move when it was stored;
the seats that resigned, ran out of time or aborted are ``departures``, each with the move
count when it left and when. Each game also stores how it stands (the seat to move and why
it ended), so that a server that starts finds the games it must play on without replaying
every game, and its deadline (when the seat to move loses on time), so that the alarm asks
for the deadlines coming up (:meth:`Storage.due`) instead of loading every timed game. A
move stores the seat to move after it in its own row (``next_seat``), and writes the game's
row only when the ending or the deadline changes: an untimed game's move is one statement.

The counting windows of the rate limits live here too (:meth:`Storage.count_request`),
for the databases that several processes share (:attr:`Storage.shared`).

The schema is made by the Alembic migrations in ``migrations/``, applied when a
:class:`Storage` opens the database.

>>> storage = Storage("sqlite://")
>>> seat = SeatRecord(0, "Ann", None, "hash")
>>> storage.create_game(NewGame("g1", {"precedence": "standard"}, "7", [seat]))
>>> storage.append_move("g1", 0, 0, "pass"), storage.append_move("g1", 0, 0, "pass")
(True, False)
>>> stored = storage.load_game("g1")
>>> stored.moves, stored.seats[0].name
(['pass'], 'Ann')
>>> storage.progress("g1"), storage.progress("nope")
((1, None, 0, 0), None)
"""

from __future__ import annotations

import json
import math
import os
import secrets
import select as readiness
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    bindparam,
    case,
    create_engine,
    delete,
    event,
    false,
    func,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError, IntegrityError
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.elements import TextClause

from binscrabble.clock import Clock, ClockRules

metadata = MetaData()

#: One row a game: its rules (JSON), its bag seed (secret: never sent to a client), the
#: id of its rematch once one was asked for, and the address of the client that made it.
games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("rules", Text, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("rematch", String(32), nullable=True),
    Column("clock", Text, nullable=True),
    Column("created_at", BigInteger, nullable=True),
    Column("to_move", Integer, nullable=True),
    Column("ended", String(20), nullable=True),
    Column("deadline", BigInteger, nullable=True),
    Column("client", Text, nullable=True),
    #: How many seats left the game (migration 0008): a move on a shared database is
    #: stored only while it is the count its process knows of.
    Column("departed", Integer, nullable=False, server_default="0"),
    #: A shared database (migration 0009): what the lobby's list shows of the game after
    #: its last move (JSON: ``players``, each ``[name, computer, score]``, and ``turn``)
    #: and when that move was stored (microseconds, on the database server's clock).
    Column("listed", Text, nullable=True),
    Column("moved_at", BigInteger, nullable=True),
)
#: One row a seat: a computer level, or the sha256 of the seat's token (a human).
seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(100), nullable=False),
    Column("computer", String(20), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("joined", BigInteger, nullable=True),
)
#: One row an accepted move; the key (game_id, turn) lets one move only exist per turn.
moves = Table(
    "moves",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("turn", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("notation", Text, nullable=False),
    Column("at", BigInteger, nullable=True),
    Column("next_seat", Integer, nullable=True),
)
#: One row a seat that left a game (``reason``: resigned, time or aborted): ``turn`` is
#: how many moves were stored when it left; the key lets a seat leave once.
departures = Table(
    "departures",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("turn", Integer, nullable=False),
    Column("reason", String(20), nullable=False),
    Column("at", BigInteger, nullable=True),
    Column("settled", BigInteger, nullable=True),
)
#: One row a server process (migration 0010), named by its :attr:`Storage.origin`: when it
#: last said it was alive (ms since the epoch), and whether it stopped cleanly (then ``at``
#: is the moment of its stop).
heartbeat = Table(
    "heartbeat",
    metadata,
    Column("process", String(32), primary_key=True),
    Column("at", BigInteger, nullable=False),
    Column("stopped", Boolean, nullable=False, server_default=false()),
)
#: Each stretch of time the server was down: no clock runs in it.
pauses = Table(
    "pauses",
    metadata,
    Column("down_from", BigInteger, primary_key=True),
    Column("down_to", BigInteger, nullable=False),
)

#: One row a counting window of a rate limit and a client (``key``): the requests it counted
#: since ``start`` (ms since the epoch), and when the row is of no more use.
rate_windows = Table(
    "rate_windows",
    metadata,
    Column("key", Text, primary_key=True),
    Column("start", BigInteger, primary_key=True),
    Column("hits", Integer, nullable=False),
    Column("expires", BigInteger, nullable=False),
)

MIGRATIONS = Path(__file__).with_name("migrations")

#: A heartbeat younger than this, of a process that did not stop, means that process is
#: alive (they beat every 30 s, ``web/timers.py``): a process that starts then on a shared
#: database adds no pause. A heartbeat older than this is deleted as a process starts.
ALIVE_MS = 75_000
#: The key of the PostgreSQL advisory lock held while a process starts (:meth:`Storage.resume`):
#: processes starting together take turns, each seeing the heartbeats of those before.
RESUME_LOCK = 0x62656174  # "beat"

#: The PostgreSQL channel on which every stored change of a game is announced, in the
#: transaction that stores it (so at its commit, and never for a change rolled back):
#: ``ORIGIN GAME_ID MOVES DEADLINE``, ``ORIGIN`` the :attr:`Storage.origin` of the process
#: that stored it, ``MOVES`` the game's stored move count (``-1``: not told) and
#: ``DEADLINE`` when its seat to move loses on time (``-``: none). ``web/news.py`` listens.
NEWS_CHANNEL = "binscrabble_games"
ANNOUNCE = text("SELECT pg_notify(:channel, :news)")


def _store_move(assignments: str) -> TextClause:
    """PostgreSQL: a move in one statement, committed by itself, the game's row updated with
    ``assignments``. The update holds only while ``departed`` is the count the storing
    process knows of; it waits for another transaction changing that row (a move or a
    departure of the same game) and is then judged on the row as that one left it. The move
    is inserted only when the row was updated (the key of ``moves`` refuses a second move of
    a turn), and only then announced. A row comes back when the move is stored."""
    return text(
        f"""
WITH stood AS (
    UPDATE games SET {assignments}
    WHERE id = :game_id AND (CAST(:departed AS INTEGER) IS NULL OR departed = :departed)
    RETURNING id
), stored AS (
    INSERT INTO moves (game_id, turn, seat, notation, at, next_seat)
    SELECT id, :turn, :seat, :notation, :at, :to_move FROM stood
    RETURNING turn
)
SELECT pg_notify(:channel, :news) FROM stored
"""
    )


#: A move that changes the game's standing (:func:`_store_move`).
STORE_MOVE = _store_move(
    "to_move = :to_move, ended = :ended, deadline = :deadline, listed = :listed,"
    " moved_at = CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1e6 AS BIGINT)"
)
#: A move that leaves the game's standing as it was: the row is updated all the same, for
#: the wait and the judgement on ``departed``.
STORE_MOVE_KEEPING = _store_move("departed = departed")

#: PostgreSQL: the games being played now, for the lobby (:meth:`Storage.playing_now`):
#: going on, with a person seat that has not left, moved within ``idle`` µs (and within
#: ``abandoned`` µs unless among ``connected``), at most ``per_client`` of one creating
#: address (its most recently moved), most recently moved first; with how long ago (µs).
PLAYING_NOW = text(
    """
WITH now AS (SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1e6 AS BIGINT) AS at),
recent AS (
    SELECT games.id, games.listed, games.to_move, games.moved_at, now.at - games.moved_at AS idle,
        row_number() OVER (PARTITION BY games.client ORDER BY games.moved_at DESC) AS rank,
        games.client
    FROM games, now
    WHERE games.ended IS NULL AND games.listed IS NOT NULL
        AND games.moved_at > now.at - :idle
        AND (games.moved_at > now.at - :abandoned OR games.id = ANY(:connected))
        AND EXISTS (
            SELECT 1 FROM seats WHERE seats.game_id = games.id AND seats.computer IS NULL
                AND NOT EXISTS (
                    SELECT 1 FROM departures
                    WHERE departures.game_id = games.id AND departures.seat = seats.seat
                )
        )
)
SELECT id, listed, to_move, idle FROM recent
WHERE client IS NULL OR rank <= :per_client
ORDER BY moved_at DESC
LIMIT :size
"""
)

#: PostgreSQL: count a request in its current windows (``{values}``: one row each) and read
#: the windows before them (a window's period is half its time to expire) in one statement.
COUNT_AND_READ = """
WITH hit AS (
    INSERT INTO rate_windows (key, start, hits, expires) VALUES {values}
    ON CONFLICT (key, start) DO UPDATE SET hits = rate_windows.hits + 1
    RETURNING key, start, hits, expires
)
SELECT hit.key, hit.hits, coalesce(earlier.hits, 0) FROM hit
LEFT JOIN rate_windows AS earlier
    ON earlier.key = hit.key AND earlier.start = hit.start - (hit.expires - hit.start) / 2
"""
#: :data:`COUNT_AND_READ` made for each number of limits counted at once.
COUNTING: dict[int, TextClause] = {}

#: A game's stored move count, rematch, departures and seats joined, as columns of a query
#: on ``games`` (:data:`PROGRESS`, :data:`CATCH_UP`).
PROGRESS_COLUMNS = (
    select(func.count()).select_from(moves).where(moves.c.game_id == games.c.id).scalar_subquery(),
    games.c.rematch,
    select(func.count())
    .select_from(departures)
    .where(departures.c.game_id == games.c.id)
    .scalar_subquery(),
    select(func.count())
    .select_from(seats)
    .where(seats.c.game_id == games.c.id, seats.c.joined.is_not(None))
    .scalar_subquery(),
)
#: A game's progress (:meth:`Storage.progress`). Built once: building the statement took
#: three times as long as running it.
PROGRESS = select(*PROGRESS_COLUMNS).where(games.c.id == bindparam("game_id"))
#: A game's progress with each of its moves from turn ``known`` on (notation and time),
#: in one statement (:meth:`Storage.moves_after`): one row a move, or one row with no move.
LATER = moves.alias("later")
CATCH_UP = (
    select(*PROGRESS_COLUMNS, LATER.c.notation, LATER.c.at)
    .select_from(
        games.outerjoin(
            LATER, (LATER.c.game_id == games.c.id) & (LATER.c.turn >= bindparam("known"))
        )
    )
    .where(games.c.id == bindparam("game_id"))
    .order_by(LATER.c.turn)
)


def _to_move_now() -> Any:
    """The seat to move in each game as stored (an SQL expression on ``games``): the
    ``next_seat`` of its last move, unless a seat left after it or the move was stored
    before ``next_seat`` was kept; then ``games.to_move``, written when a seat leaves."""
    last_turn = (
        select(func.max(moves.c.turn))
        .where(moves.c.game_id == games.c.id)
        .correlate(games)
        .scalar_subquery()
    )
    last_next = (
        select(moves.c.next_seat)
        .where(moves.c.game_id == games.c.id)
        .order_by(moves.c.turn.desc())
        .limit(1)
        .correlate(games)
        .scalar_subquery()
    )
    left_turn = (
        select(func.max(departures.c.turn))
        .where(departures.c.game_id == games.c.id)
        .correlate(games)
        .scalar_subquery()
    )
    after_move = last_next.is_not(None) & (left_turn.is_(None) | (left_turn <= last_turn))
    return case((after_move, last_next), else_=games.c.to_move)


#: The seat to move in each game as stored (:func:`_to_move_now`).
TO_MOVE_NOW = _to_move_now()


class MovedOn(Exception):
    """Another process changed the game first: the transaction is rolled back."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A stored seat: ``computer`` is a level name for a computer, ``None`` for a person;
    ``joined`` when its first request with its token came (``None``: not yet)."""

    seat: int
    name: str
    computer: str | None
    token_hash: str | None
    joined: int | None = None


@dataclass(frozen=True, slots=True)
class NewGame:
    """What a new game is stored as: its id, rules (a mapping of switches), seed and seats."""

    game_id: str
    rules: dict[str, Any]
    seed: str
    seats: list[SeatRecord]
    #: The clock's settings (``None``: untimed) and when the game began (ms since the epoch).
    clock: dict[str, Any] | None = None
    created_at: int | None = None
    #: The address of the client that made it (``ratelimit.client_key``), if known.
    client: str | None = None


@dataclass(frozen=True, slots=True)
class Departure:
    """A seat that left a game: ``reason`` is one of
    :data:`~binscrabble.game.LEAVING_REASONS`; it left when ``turn`` moves were stored, at
    ``at`` (ms since the epoch, ``None``: unknown), and the server settled it at
    ``settled`` (a time-out may be settled after its time ran out; ``None``: at ``at``)."""

    seat: int
    turn: int
    reason: str
    at: int | None
    settled: int | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """How a game stands after a change: the seat to move (``None`` once over), why it
    ended (``None`` while it goes on) and when the seat to move loses on time (``None``
    when untimed or over)."""

    to_move: int | None
    ended: str | None
    deadline: int | None = None


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored, with the notation of every accepted move in turn order."""

    game_id: str
    rules: dict[str, Any]
    seed: str
    seats: list[SeatRecord]
    moves: list[str]
    rematch: str | None
    clock: dict[str, Any] | None = None
    created_at: int | None = None
    #: When each move was stored (ms since the epoch; ``None`` for moves stored before
    #: times were kept).
    move_times: list[int | None] = field(default_factory=list)
    departures: list[Departure] = field(default_factory=list)
    #: The address of the client that made it (``None``: unknown, stored before it was kept).
    client: str | None = None
    #: The stretches of time the server was down, in order (no clock ran in them).
    pauses: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class RateWindow:
    """A limit a request is counted against: at most ``amount`` requests in any ``period``
    (ms), counted under ``key`` (the endpoint, the limit and the client)."""

    key: str
    amount: int
    period: int

    def wait(self, start: int, now: int, previous: int, current: int) -> int:
        """How many ms from ``now`` until one more request fits, 0 when it fits now, given
        the hits of the window that began at ``start`` (``current``) and of the one before
        (``previous``). The count is a sliding window's, as the `limits` library counts in
        memory: the previous window's hits weighed by how much of it is still within one
        period of now, plus the current ones; one more fits while that is below ``amount``.

        >>> limit = RateWindow("k", 2, 3000)
        >>> limit.wait(0, 20, 0, 1), limit.wait(0, 20, 0, 2)
        (0, 2981)
        >>> limit.wait(3000, 3500, 2, 0), limit.wait(3000, 3500, 2, 1)
        (0, 1001)
        """
        if current >= self.amount:
            # A full window: the next one begins with this one's whole weight, just too much.
            return start + self.period - now + 1
        left = previous * (self.period - (now - start)) / self.period
        if left + current < self.amount:
            return 0
        share = (self.amount - current) / previous
        return max(1, math.floor(start + self.period * (1 - share) - now) + 1)


def first_deadline(game: NewGame) -> int | None:
    """When a new game's clock must hear of it (``None``: untimed): its clocks wait for
    every person seat to join, and it is aborted when one has not by then
    (:attr:`~binscrabble.clock.ClockRules.absence`).

    >>> seat = SeatRecord(0, "Ann", None, None)
    >>> first_deadline(NewGame("g", {}, "1", [seat, seat], {"kind": "live", "seconds": 5}, 7))
    86400007
    """
    rules = ClockRules.from_mapping(game.clock)
    if rules is None:
        return None
    joins = [seat.joined for seat in game.seats if seat.computer is None]
    start = None if None in joins else max(filter(None, joins), default=game.created_at or 0)
    return Clock(rules, len(game.seats), start, opened=game.created_at or 0).deadline()


def deadline_of(standing: Standing | None) -> int | None:
    """The deadline of a standing (``None``: none, or no standing)."""
    return None if standing is None else standing.deadline


def database_url(path_or_url: str) -> str:
    """An SQLAlchemy URL for ``--db``: a URL as it is, a file path as an SQLite URL.

    >>> database_url("sqlite:///x.db"), database_url("/tmp/games.db")
    ('sqlite:///x.db', 'sqlite:////tmp/games.db')
    """
    if "://" in path_or_url:
        return path_or_url
    return "sqlite:///" + str(Path(path_or_url).expanduser().resolve())


#: The connections one server process keeps open to PostgreSQL: one for each of asyncio's
#: worker threads, on which every storage call runs (the machine's cores + 4, at most 32),
#: and a few more at a burst for a call made elsewhere (closed when returned).
POOL_SIZE = min(32, (os.cpu_count() or 1) + 4)
POOL_OVERFLOW = 4
#: The seconds a connection to PostgreSQL may take to be made before the call fails.
CONNECT_SECONDS = 10
#: How often (ms) one process deletes the rate limits' windows past their use.
SWEEP_EVERY = 60_000
#: The key of the PostgreSQL advisory lock held while the migrations run (any constant
#: number: it names the lock for every process on the database).
MIGRATION_LOCK = 0x62696E73  # "bins"
#: How long (ms) an SQLite process waits for another's migrations before it gives up.
SQLITE_MIGRATION_WAIT = 120_000
#: How long (ms) an SQLite statement waits for another process's lock before it fails.
SQLITE_LOCK_WAIT = 5_000
#: The pause (s) before trying again to put an SQLite file in WAL mode.
SQLITE_WAL_RETRY = 0.02


def _set_wal(cursor: Any) -> None:
    """Put the database in WAL mode (it stays so in the file), waiting for another
    process that holds the file's write lock meanwhile. A file not yet in WAL mode is
    switched in a transaction that reads its header, then writes it: when two processes
    open a new file together, SQLite refuses the second one's step from reading to
    writing at once, without the busy wait, so the switch is tried again here."""
    deadline = time.monotonic() + SQLITE_LOCK_WAIT / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
            time.sleep(SQLITE_WAL_RETRY)


def _sqlite_engine(url: str) -> Engine:
    if url in ("sqlite://", "sqlite:///:memory:"):
        # One shared connection, or every connection would see its own empty database.
        return create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    engine = create_engine(url)

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        # First the wait for a lock: a process migrating the file holds it (``upgrade``).
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_LOCK_WAIT}")
        # WAL lets readers go on while a move is written. A commit is in the WAL file
        # when it returns, so it survives the server being killed; NORMAL leaves the
        # disk sync to checkpoints (only a crash of the machine can lose the last moves).
        _set_wal(cursor)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        return _sqlite_engine(url)
    if url.startswith("postgresql"):
        engine = create_engine(
            url,
            pool_size=POOL_SIZE,
            max_overflow=POOL_OVERFLOW,
            connect_args={"connect_timeout": CONNECT_SECONDS, "application_name": "binscrabble"},
        )
        event.listen(engine, "checkout", _drop_if_closed)
        return engine
    return create_engine(url)


def _drop_if_closed(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """Before a pooled PostgreSQL connection is used: replace it when the server closed it
    (a restart, an idle timeout), instead of failing the call that drew it. A connection at
    rest in the pool has nothing to read unless the server said something unasked, which
    is its last word before it closes the connection; looking costs no round trip
    (SQLAlchemy's ``pool_pre_ping`` sends a query to the server for every call)."""
    if dbapi_connection.closed or dbapi_connection.broken:
        raise DisconnectionError("the connection to PostgreSQL was closed")
    try:
        # poll, not select: a server with many WebSockets has descriptors past select's 1024.
        looking = readiness.poll()
        looking.register(dbapi_connection.pgconn.socket, readiness.POLLIN)
        said = looking.poll(0)
    except Exception as problem:
        raise DisconnectionError("the connection to PostgreSQL is unusable") from problem
    if said:
        raise DisconnectionError("PostgreSQL closed the connection")


def upgrade(engine: Engine) -> None:
    """Bring the database's schema up to the newest migration, once however many processes
    start together: on PostgreSQL they queue on an advisory lock held for the migration's
    transaction (its DDL is transactional: the next one finds the schema current); on
    SQLite the migration's transaction takes the database's write lock up front."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql(f"PRAGMA busy_timeout={SQLITE_MIGRATION_WAIT}")
            # The driver sends BEGIN only before a change; this takes the lock before
            # Alembic reads which revision the database is at.
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        elif engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
        connection.commit()
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql(f"PRAGMA busy_timeout={SQLITE_LOCK_WAIT}")


class Storage:
    """The games of one database. Every method is one short transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _make_engine(url)
        upgrade(self.engine)
        #: When this process last deleted the rate limits' windows past their use (ms).
        self.swept = 0
        #: Whether several server processes may share this database (PostgreSQL): then
        #: each change is announced on :data:`NEWS_CHANNEL`, work is claimed
        #: (``web/leases.py``) and the rate limits are counted here (:meth:`count_request`).
        #: An SQLite file has one server process.
        self.shared = self.engine.dialect.name == "postgresql"
        #: This storage's name in the announcements it makes (one a process).
        self.origin = secrets.token_hex(8)
        self._pauses: tuple[tuple[int, int], ...] | None = None
        #: The same database, each statement committed by itself.
        self.autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        #: Where a read of one statement goes: on PostgreSQL without a transaction around
        #: it (no BEGIN and ROLLBACK to send); SQLite begins none for a read anyway.
        self.reads = self.autocommit if self.shared else self.engine

    def news_url(self) -> str | None:
        """Where to listen for the announcements of every process's changes (a libpq URL),
        ``None`` when the database is not shared."""
        if not self.shared:
            return None
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def _announce(
        self, connection: Any, game_id: str, moves: int, deadline: int | None = None
    ) -> None:
        """Announce a change of a game to the other processes, at the commit (shared only)."""
        if self.shared:
            news = self._news(game_id, moves, deadline)
            connection.execute(ANNOUNCE, {"channel": NEWS_CHANNEL, "news": news})

    def _news(self, game_id: str, moves: int, deadline: int | None) -> str:
        """An announcement's payload (:data:`NEWS_CHANNEL`)."""
        return f"{self.origin} {game_id} {moves} {'-' if deadline is None else deadline}"

    def close(self) -> None:
        """Release the database's connections."""
        self.engine.dispose()

    def create_game(self, game: NewGame) -> None:
        """Store a new game with its seats."""
        with self.engine.begin() as connection:
            connection.execute(
                games.insert().values(
                    id=game.game_id,
                    rules=json.dumps(game.rules),
                    seed=game.seed,
                    rematch=None,
                    clock=None if game.clock is None else json.dumps(game.clock),
                    created_at=game.created_at,
                    to_move=0,
                    deadline=first_deadline(game),
                    client=game.client,
                )
            )
            connection.execute(
                seats.insert(),
                [
                    {
                        "game_id": game.game_id,
                        "seat": seat.seat,
                        "name": seat.name,
                        "computer": seat.computer,
                        "token_hash": seat.token_hash,
                        "joined": seat.joined,
                    }
                    for seat in game.seats
                ],
            )
            self._announce(connection, game.game_id, 0, first_deadline(game))

    def load_game(self, game_id: str) -> StoredGame | None:
        """The stored game, or ``None`` when there is none with that id."""
        with self.engine.connect() as connection:
            row = connection.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                return None
            seat_rows = connection.execute(
                select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat)
            ).all()
            move_rows = connection.execute(
                select(moves.c.turn, moves.c.notation, moves.c.at)
                .where(moves.c.game_id == game_id)
                .order_by(moves.c.turn)
            ).all()
            left_rows = connection.execute(
                select(departures)
                .where(departures.c.game_id == game_id)
                .order_by(departures.c.turn, departures.c.at)
            ).all()
        return StoredGame(
            game_id=row.id,
            rules=json.loads(row.rules),
            seed=row.seed,
            seats=[
                SeatRecord(seat.seat, seat.name, seat.computer, seat.token_hash, seat.joined)
                for seat in seat_rows
            ],
            moves=[move.notation for move in move_rows],
            rematch=row.rematch,
            clock=None if row.clock is None else json.loads(row.clock),
            created_at=row.created_at,
            move_times=[move.at for move in move_rows],
            departures=[
                Departure(left.seat, left.turn, left.reason, left.at, left.settled)
                for left in left_rows
            ],
            client=row.client,
            pauses=self.pauses(),
        )

    def append_move(
        self,
        game_id: str,
        turn: int,
        seat: int,
        notation: str,
        at: int | None = None,
        standing: Standing | None = None,
        departures: int | None = None,
        changed: bool = True,
        listed: str | None = None,
    ) -> bool:
        """Store the move of ``turn``, made at ``at``, with the seat to move after it
        (``standing.to_move``), and how the game stands after it when its ending or
        deadline ``changed`` (else, on SQLite, the game's row is not written: one statement
        a move; a shared database writes it with every move); ``False`` when that turn
        already has a move, or, on a shared database, when more seats left the game than
        the caller knows of (``departures``): another process stored a resignation or a
        time-out first. (On SQLite one process stores, and its
        copy of a game is never behind.)

        ``listed``: what the lobby's list shows of the game after the move (JSON, see
        ``games.listed``), kept on a shared database.

        Committed when this returns ``True``: the move survives the process being killed.
        """
        if self.shared:
            return self._store_move(game_id, turn, seat, notation, at, standing, departures, listed)
        next_seat = None if standing is None else standing.to_move
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    moves.insert().values(
                        game_id=game_id,
                        turn=turn,
                        seat=seat,
                        notation=notation,
                        at=at,
                        next_seat=next_seat,
                    )
                )
                if changed:
                    self._stand(connection, game_id, standing)
        except IntegrityError:
            return False
        return True

    def _store_move(
        self,
        game_id: str,
        turn: int,
        seat: int,
        notation: str,
        at: int | None,
        standing: Standing | None,
        departures: int | None,
        listed: str | None = None,
    ) -> bool:
        """A shared database: :meth:`append_move` in one statement (:data:`STORE_MOVE`),
        committed by itself; the game's row is written with every move (the other
        processes find the computers to move by it, web/leases.py)."""
        deadline = deadline_of(standing)
        parameters: dict[str, Any] = {
            "game_id": game_id,
            "departed": departures,
            "turn": turn,
            "seat": seat,
            "notation": notation,
            "at": at,
            "to_move": None if standing is None else standing.to_move,
            "ended": None if standing is None else standing.ended,
            "deadline": deadline,
            "listed": listed,
            "channel": NEWS_CHANNEL,
            "news": self._news(game_id, turn + 1, deadline),
        }
        statement = STORE_MOVE_KEEPING if standing is None else STORE_MOVE
        try:
            with self.autocommit.connect() as connection:
                stored = connection.execute(statement, parameters).first()
        except IntegrityError:
            return False
        return stored is not None

    def add_departure(
        self, game_id: str, departure: Departure, standing: Standing | None = None
    ) -> bool:
        """Store a seat's leaving, if the game has exactly ``departure.turn`` moves stored
        and the seat did not leave before, and how the game stands after it; ``False``
        when not (another process moved the game on first).

        The game's row is updated first (its count of departures goes up), which waits for
        a move of the game that another process is storing; the moves are counted after
        it, so that move is counted, and a move stored after it finds the count changed
        (:data:`STORE_MOVE`)."""
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    update(games).where(games.c.id == game_id).values(departed=games.c.departed + 1)
                )
                stored = connection.execute(
                    select(func.count()).select_from(moves).where(moves.c.game_id == game_id)
                ).scalar()
                if stored != departure.turn:
                    raise MovedOn  # rolls the count back
                connection.execute(
                    departures.insert().values(
                        game_id=game_id,
                        seat=departure.seat,
                        turn=departure.turn,
                        reason=departure.reason,
                        at=departure.at,
                        settled=departure.settled,
                    )
                )
                self._stand(connection, game_id, standing)
                self._announce(connection, game_id, departure.turn, deadline_of(standing))
        except (IntegrityError, MovedOn):
            return False
        return True

    def join(self, game_id: str, seat: int, at: int, standing: Standing | None = None) -> bool:
        """Store that ``seat`` joined the game at ``at`` (its first request with its
        token), and how the game stands then; ``False`` when it had joined already."""
        with self.engine.begin() as connection:
            joined = connection.execute(
                update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat, seats.c.joined.is_(None))
                .values(joined=at)
            ).rowcount
            if joined and standing is not None:
                self._stand(connection, game_id, standing)
            if joined:
                # The other processes holding the game read its seats and clock again.
                deadline = None if standing is None else standing.deadline
                self._announce(connection, game_id, -1, deadline)
        return bool(joined)

    def pauses(self) -> tuple[tuple[int, int], ...]:
        """The stretches of time the server was down, in order (kept in memory: they
        change only as a server starts, :meth:`resume`)."""
        if self._pauses is None:
            with self.engine.connect() as connection:
                rows = connection.execute(
                    select(pauses.c.down_from, pauses.c.down_to).order_by(pauses.c.down_from)
                ).all()
            self._pauses = tuple((int(start), int(end)) for start, end in rows)
        return self._pauses

    def beat(self, at: int) -> None:
        """Store that this process is alive at ``at`` (its heartbeat); nothing once it
        stopped (:meth:`stop`: a beat under way as the process stops comes too late)."""
        mine = heartbeat.c.process == self.origin
        with self.engine.begin() as connection:
            done = connection.execute(
                update(heartbeat).where(mine & heartbeat.c.stopped.is_(False)).values(at=at)
            ).rowcount
            if not done and connection.execute(select(heartbeat.c.at).where(mine)).first() is None:
                connection.execute(
                    heartbeat.insert().values(process=self.origin, at=at, stopped=False)
                )

    def stop(self, at: int) -> None:
        """Store that this process stops at ``at``: its last heartbeat, marked stopped, so
        that a process starting next knows this one serves no more (:meth:`resume`)."""
        with self.engine.begin() as connection:
            done = connection.execute(
                update(heartbeat)
                .where(heartbeat.c.process == self.origin)
                .values(at=at, stopped=True)
            ).rowcount
            if not done:
                connection.execute(
                    heartbeat.insert().values(process=self.origin, at=at, stopped=True)
                )

    def resume(self, now: int) -> tuple[int, int] | None:
        """A server starts at ``now``: the time since the newest heartbeat (the last moment
        any process served) becomes a pause, in which no clock ran; on a shared database
        only when no other process is alive (a heartbeat not marked stopped and younger than
        :data:`ALIVE_MS`: a process that joins others serving makes no pause). Answers the
        pause (``None``: no heartbeat stored, a new database, or another process serving).
        Then this process's heartbeat is stored and those older than :data:`ALIVE_MS`
        deleted. The stored deadlines stay: those that fell in the pause ring early, and the
        alarm stores each game's new one (a clock knows the pauses)."""
        with self.engine.begin() as connection:
            if self.shared:
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": RESUME_LOCK})
            beats = connection.execute(
                select(heartbeat.c.at, heartbeat.c.stopped, heartbeat.c.process != self.origin)
            ).all()
            last = max((int(at) for at, _stopped, _other in beats), default=None)
            # On a shared database another process alive is serving: the games' clocks
            # ran, so this start is no pause. One process a file (SQLite): always a pause.
            alive = self.shared and any(
                other and not stopped and now - at < ALIVE_MS for at, stopped, other in beats
            )
            pause = None
            if last is not None and now > last and not alive:
                pause = (last, now)
                connection.execute(pauses.insert().values(down_from=pause[0], down_to=pause[1]))
            # Past ALIVE_MS a heartbeat says nothing more: not alive, and older than this one.
            gone = (heartbeat.c.at < now - ALIVE_MS) | (heartbeat.c.process == self.origin)
            connection.execute(delete(heartbeat).where(gone))
            connection.execute(
                heartbeat.insert().values(process=self.origin, at=now, stopped=False)
            )
        self._pauses = None
        return pause

    def stand(self, game_id: str, standing: Standing) -> None:
        """Store how the game stands (to mend a game whose standing was not known)."""
        with self.engine.begin() as connection:
            self._stand(connection, game_id, standing)
            self._announce(connection, game_id, -1, standing.deadline)

    @staticmethod
    def _stand(connection: Any, game_id: str, standing: Standing | None) -> None:
        if standing is not None:
            connection.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(to_move=standing.to_move, ended=standing.ended, deadline=standing.deadline)
            )

    def open_games(self) -> list[tuple[str, bool, bool]]:
        """The games going on that a server that starts must load: ``(id, timed without a
        stored deadline, computer to move)`` for each game whose computer is to move or
        whose clock has no stored deadline (stored before deadlines were kept). The other
        timed games wait in the database for their deadlines (:meth:`due`)."""
        unknown = games.c.clock.is_not(None) & games.c.deadline.is_(None)
        query = (
            select(games.c.id, unknown, seats.c.computer.is_not(None))
            .select_from(games)
            .join(seats, (seats.c.game_id == games.c.id) & (seats.c.seat == TO_MOVE_NOW))
            .where(games.c.ended.is_(None), unknown | seats.c.computer.is_not(None))
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [(row[0], bool(row[1]), bool(row[2])) for row in rows]

    def due(self, before: int, limit: int) -> list[tuple[str, int]]:
        """The games going on whose deadline is at most ``before``, earliest first, at most
        ``limit`` of them: ``(id, deadline)``. One query on the index of deadlines."""
        query = (
            select(games.c.id, games.c.deadline)
            .where(games.c.deadline <= before, games.c.ended.is_(None))
            .order_by(games.c.deadline)
            .limit(limit)
        )
        with self.reads.connect() as connection:
            rows = connection.execute(query).all()
        return [(str(row[0]), int(row[1])) for row in rows]

    def set_rematch(self, game_id: str, rematch_id: str) -> str:
        """Record ``rematch_id`` as the game's rematch unless it has one; return the one kept."""
        with self.engine.begin() as connection:
            connection.execute(
                update(games)
                .where(games.c.id == game_id, games.c.rematch.is_(None))
                .values(rematch=rematch_id)
            )
            self._announce(connection, game_id, -1)
            kept = connection.execute(select(games.c.rematch).where(games.c.id == game_id)).scalar()
        return str(kept)

    def progress(self, game_id: str) -> tuple[int, str | None, int, int] | None:
        """How many moves the game has stored, its rematch's id, how many seats left it and
        how many joined it (``None``: no such game).

        One query on two keys, built once: cheap enough to ask on every read of a game.
        """
        with self.reads.connect() as connection:
            row = connection.execute(PROGRESS, {"game_id": game_id}).first()
        if row is None:
            return None
        return int(row[0]), row[1], int(row[2]), int(row[3])

    def count_request(self, limits: Sequence[RateWindow], now: int) -> tuple[int, int] | None:
        """Count one request made at ``now`` (ms since the epoch) against each of ``limits``
        (:meth:`RateWindow.wait` says how): ``None`` when it fits them all, and it is then
        counted; else the index of a limit it does not fit and the ms until it would, and
        it is not counted.

        The current windows' counts go up in one ``INSERT ... ON CONFLICT DO UPDATE``, which
        locks their rows until it ends, so processes counting one client take turns and
        none counts past a limit. On PostgreSQL that statement also reads the previous
        windows' counts and commits by itself (one round trip); on SQLite a second statement
        reads them in the same transaction. A refused request is then taken back."""
        starts = [now - now % limit.period for limit in limits]
        rows = [
            {"key": limit.key, "start": start, "hits": 1, "expires": start + 2 * limit.period}
            for limit, start in zip(limits, starts, strict=True)
        ]
        if self.engine.dialect.name == "postgresql":
            counted = self._count_in_one_statement(rows)
        else:
            counted = self._count_in_a_transaction(rows, starts, limits)
        for index, (limit, start) in enumerate(zip(limits, starts, strict=True)):
            current, previous = counted[limit.key]
            wait = limit.wait(start, now, previous, current - 1)
            if wait:
                self._take_back(rows)
                return index, wait
        if now - self.swept >= SWEEP_EVERY:
            self.swept = now
            with self.engine.begin() as connection:
                connection.execute(delete(rate_windows).where(rate_windows.c.expires < now))
        return None

    def _count_in_one_statement(self, rows: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
        """PostgreSQL: count ``rows`` (committed at once) and read the windows before them;
        for each key, its count now and the previous window's."""
        statement = COUNTING.get(len(rows))
        if statement is None:
            values = ", ".join(f"(:k{n}, :s{n}, 1, :e{n})" for n in range(len(rows)))
            statement = COUNTING[len(rows)] = text(COUNT_AND_READ.format(values=values))
        parameters: dict[str, Any] = {}
        for n, row in enumerate(rows):
            parameters.update({f"k{n}": row["key"], f"s{n}": row["start"], f"e{n}": row["expires"]})
        with self.autocommit.connect() as connection:
            found = connection.execute(statement, parameters).all()
        return {str(key): (int(hits), int(before)) for key, hits, before in found}

    def _count_in_a_transaction(
        self, rows: list[dict[str, Any]], starts: list[int], limits: Sequence[RateWindow]
    ) -> dict[str, tuple[int, int]]:
        """SQLite: count ``rows`` and read the windows before them, in one transaction."""
        counted = (
            sqlite.insert(rate_windows)
            .values(rows)
            .on_conflict_do_update(
                index_elements=[rate_windows.c.key, rate_windows.c.start],
                set_={"hits": rate_windows.c.hits + 1},
            )
            .returning(rate_windows.c.key, rate_windows.c.hits)
        )
        earlier = [
            and_(rate_windows.c.key == limit.key, rate_windows.c.start == start - limit.period)
            for limit, start in zip(limits, starts, strict=True)
        ]
        before = select(rate_windows.c.key, rate_windows.c.hits).where(or_(*earlier))
        with self.engine.begin() as connection:
            hits = {str(key): int(count) for key, count in connection.execute(counted).all()}
            previous = {str(key): int(count) for key, count in connection.execute(before).all()}
        return {key: (count, previous.get(key, 0)) for key, count in hits.items()}

    def _take_back(self, rows: list[dict[str, Any]]) -> None:
        """Uncount a refused request from the windows of ``rows``."""
        counted = [
            and_(rate_windows.c.key == row["key"], rate_windows.c.start == row["start"])
            for row in rows
        ]
        with self.engine.begin() as connection:
            connection.execute(
                update(rate_windows).where(or_(*counted)).values(hits=rate_windows.c.hits - 1)
            )

    def moves_after(
        self, game_id: str, known: int
    ) -> tuple[list[tuple[str, int | None]], int, str | None, int]:
        """The game's stored moves after the first ``known`` (notation and time of each),
        how many seats left it, its rematch's id and how many seats joined it: what a
        process that holds the game's first ``known`` moves needs to catch up. One
        statement (:data:`CATCH_UP`)."""
        with self.reads.connect() as connection:
            rows = connection.execute(CATCH_UP, {"game_id": game_id, "known": known}).all()
        if not rows:
            return [], 0, None, 0
        found = [(row.notation, row.at) for row in rows if row.notation is not None]
        first = rows[0]
        return found, int(first[2]), first[1], int(first[3])

    def playing_now(
        self, size: int, per_client: int, idle: float, abandoned: float, connected: list[str]
    ) -> list[tuple[str, dict[str, Any], int, float]]:
        """A shared database: the games being played now (:data:`PLAYING_NOW`), at most
        ``size``: ``(id, listed, to move, seconds since the last move)`` each; ``idle`` and
        ``abandoned`` are seconds, ``connected`` the games with a seat connected here."""
        parameters = {
            "size": size,
            "per_client": per_client,
            "idle": int(idle * 1e6),
            "abandoned": int(abandoned * 1e6),
            "connected": connected,
        }
        with self.reads.connect() as connection:
            rows = connection.execute(PLAYING_NOW, parameters).all()
        return [
            (str(row.id), json.loads(row.listed), int(row.to_move), max(0, row.idle) / 1e6)
            for row in rows
        ]

    def move_count(self, game_id: str) -> int:
        """How many moves the game has stored."""
        with self.engine.connect() as connection:
            count = connection.execute(
                select(func.count()).select_from(moves).where(moves.c.game_id == game_id)
            ).scalar()
        return int(count or 0)
