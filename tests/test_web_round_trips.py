"""What the hot paths of a shared database (PostgreSQL) send to the server, counted in the
server's own log of statements (``log_statement = all``): a move is one statement, its
transaction and its announcement included; so are taking a claim, giving it up, and a
process reading the moves another stored. A connection the server closed is replaced
before use, without a query sent to find out. docs/deploy.md, "What a move costs"."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from postgres_server import USER, PostgresServer
from sqlalchemy import text

from binscrabble.web.active_games import now_ms
from binscrabble.web.leases import ANALYSIS_KEPT_MS, CLAIM_KEPT_MS, COMPUTER, Leases
from binscrabble.web.storage import Departure, NewGame, SeatRecord, Standing, Storage

ANN = SeatRecord(0, "Ann", None, "a" * 64)
BO = SeatRecord(1, "Bo", None, "b" * 64)
#: The first line of each statement the server logs (simple and extended protocol).
LOGGED = re.compile(r"LOG:  (?:statement|execute [^:]*): ")


@pytest.fixture
def logged_url(postgres: PostgresServer, postgres_url: str) -> Iterator[str]:
    """A new database whose every statement the server logs (for the sessions opened
    after this)."""
    name = postgres_url.rsplit("/", 1)[1]
    postgres.admin(f"ALTER DATABASE {name} SET log_statement = 'all'")
    yield postgres_url


def sent(postgres: PostgresServer, call: Callable[[], Any]) -> tuple[Any, list[str]]:
    """What ``call`` answers, and the statements the server received while it ran."""
    before = postgres.log.stat().st_size
    answer = call()
    with postgres.log.open(errors="replace") as log:
        log.seek(before)
        lines = log.read().splitlines()
    return answer, [line.split(": ", 2)[-1][:60] for line in lines if LOGGED.search(line)]


def test_a_move_is_one_statement_with_its_announcement(
    postgres: PostgresServer, logged_url: str
) -> None:
    storage = Storage(logged_url)
    try:
        storage.create_game(NewGame("g1", {}, "1", [ANN, BO]))
        storage.append_move("g1", 0, 0, "pass", 1, Standing(1, None), 0)  # a warm pool
        stored, statements = sent(
            postgres, lambda: storage.append_move("g1", 1, 1, "pass", 2, Standing(0, None), 0)
        )
        assert stored and len(statements) == 1, statements
        refused, statements = sent(
            postgres, lambda: storage.append_move("g1", 1, 1, "pass", 3, Standing(0, None), 0)
        )
        assert not refused and len(statements) == 1, statements
        read, statements = sent(postgres, lambda: storage.moves_after("g1", 1))
        assert read == ([("pass", 2)], 0, None, 0) and len(statements) == 1, statements
        _, statements = sent(postgres, lambda: storage.progress("g1"))
        assert len(statements) == 1, statements
    finally:
        storage.close()


def test_a_move_is_refused_once_another_process_stored_a_departure(postgres_url: str) -> None:
    """The move's one statement judges the departures on the game's row: a move made on a
    copy of the game that missed a resignation stored by another process is refused."""
    here, there = Storage(postgres_url), Storage(postgres_url)
    try:
        here.create_game(NewGame("g1", {}, "1", [ANN, BO]))
        assert there.add_departure("g1", Departure(1, 0, "resigned", 5), Standing(None, "r"))
        assert not here.append_move("g1", 0, 0, "pass", 6, Standing(1, None), 0)
        assert here.moves_after("g1", 0) == ([], 1, None, 0)
        # A departure decided on a move count another process moved past is refused too.
        here.create_game(NewGame("g2", {}, "1", [ANN, BO]))
        assert there.append_move("g2", 0, 0, "pass", 6, Standing(1, None), 0)
        assert not here.add_departure("g2", Departure(1, 0, "resigned", 7))
        assert here.append_move("g2", 1, 1, "pass", 8, Standing(0, None), 0)
    finally:
        here.close()
        there.close()


def test_a_claim_and_its_release_are_one_statement_each(
    postgres: PostgresServer, logged_url: str
) -> None:
    first, second = Storage(logged_url), Storage(logged_url)
    try:
        mine, theirs = Leases(first), Leases(second)
        taken, statements = sent(postgres, lambda: mine._claim(COMPUTER, "g1"))
        assert taken and len(statements) == 1, statements
        refused, statements = sent(postgres, lambda: theirs._claim(COMPUTER, "g1"))
        assert not refused and len(statements) == 1, statements
        assert theirs.taken_elsewhere(COMPUTER, "g1")
        end = theirs.lease_end(COMPUTER, "g1")
        assert end is not None and end > 0
        _, statements = sent(postgres, lambda: asyncio.run(mine.release(COMPUTER, "g1")))
        assert len(statements) == 1, statements
        assert theirs._claim(COMPUTER, "g1")
    finally:
        first.close()
        second.close()


def test_a_connection_the_server_closed_is_replaced_without_a_query(
    postgres: PostgresServer, logged_url: str
) -> None:
    storage = Storage(logged_url)
    try:
        storage.create_game(NewGame("g1", {}, "1", [ANN, BO]))
        # Every connection of the pool is closed by the server (a restart, an idle timeout).
        with storage.engine.connect() as connection:
            mine = connection.execute(text("SELECT pg_backend_pid()")).scalar()
        postgres.admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE application_name = 'binscrabble' AND pid = {mine}"
        )
        gone(postgres, mine)
        stored, statements = sent(
            postgres, lambda: storage.append_move("g1", 0, 0, "pass", 1, Standing(1, None), 0)
        )
        assert stored and len(statements) == 1, statements
    finally:
        storage.close()


def gone(postgres: PostgresServer, pid: int) -> None:
    """Wait (at most 10 s) until the server process ``pid`` has ended."""
    address = f"host=127.0.0.1 port={postgres.port} user={USER} dbname=postgres"
    with psycopg.connect(address, autocommit=True) as connection:
        for _ in range(100):
            found = connection.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
            if found.fetchone() is None:
                return
            time.sleep(0.1)
    raise AssertionError(f"the server process {pid} did not end")


def test_old_analyses_and_dead_claims_are_let_go(postgres_url: str) -> None:
    """docs/deploy.md, "What the database keeps": a turn of an analysis stored over a week
    ago is deleted (the game's analysis is computed again when asked for), and so is a
    claim whose lease ended over an hour ago; what is newer stays."""
    storage = Storage(postgres_url)
    try:
        leases = Leases(storage)
        asyncio.run(leases.store_turn("old", 1, {"turn": 1}))
        asyncio.run(leases.store_turn("new", 1, {"turn": 1}))
        assert leases._claim(COMPUTER, "dead") and leases._claim(COMPUTER, "alive")
        now = now_ms()
        with storage.engine.begin() as connection:
            connection.execute(
                text("UPDATE analysed SET at = :at WHERE game_id = 'old'"),
                {"at": now - ANALYSIS_KEPT_MS - 1000},
            )
            connection.execute(
                text("UPDATE claims SET expires = :at WHERE game_id = 'dead'"),
                {"at": now - CLAIM_KEPT_MS - 1000},
            )
        leases.prune(now)
        assert asyncio.run(leases.analysed_turns("old")) == []
        assert asyncio.run(leases.analysed_turns("new")) == [{"turn": 1}]
        with storage.engine.connect() as connection:
            kept = connection.execute(text("SELECT game_id FROM claims")).scalars().all()
        assert kept == ["alive"]
    finally:
        storage.close()
