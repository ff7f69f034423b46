"""The storage module (web/storage.py) on SQLite and on a real PostgreSQL server: the same
calls give the same answers, one move only is stored per turn however many storage objects
race for it, and the migrations run once when several processes open a new database."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from binscrabble.web.storage import (
    ALIVE_MS,
    MIGRATIONS,
    Departure,
    NewGame,
    RateWindow,
    SeatRecord,
    Standing,
    Storage,
    database_url,
)

ANN = SeatRecord(0, "Ann", None, "a" * 64)
BO = SeatRecord(1, "Bo", None, "b" * 64)
COMPUTER = SeatRecord(1, "Computer (hard)", "hard", None)
LIVE = {"kind": "live", "seconds": 60, "increment": 0, "overtime": 0}


@pytest.fixture
def storage(any_database: Path | str) -> Iterator[Storage]:
    opened = Storage(database_url(str(any_database)))
    try:
        yield opened
    finally:
        opened.close()


def test_a_game_goes_in_and_comes_back_the_same(storage: Storage) -> None:
    rules = {"precedence": "standard", "blanks": 2, "name": "Zoë ÷ × −"}
    storage.create_game(NewGame("g1", rules, "1234", [ANN, BO], LIVE, 1_700_000_000_000, "::1"))
    assert storage.append_move("g1", 0, 0, "H8 1=1", 1_700_000_001_000, Standing(1, None, 5))
    assert storage.append_move("g1", 1, 1, "pass", None, Standing(0, None, None))
    assert storage.add_departure("g1", Departure(1, 2, "resigned", 1_700_000_002_000))
    stored = storage.load_game("g1")
    assert stored is not None
    assert (stored.rules, stored.seed, stored.seats) == (rules, "1234", [ANN, BO])
    assert stored.moves == ["H8 1=1", "pass"]
    assert stored.move_times == [1_700_000_001_000, None]
    assert stored.departures == [Departure(1, 2, "resigned", 1_700_000_002_000)]
    assert (stored.clock, stored.created_at, stored.client) == (LIVE, 1_700_000_000_000, "::1")
    assert storage.progress("g1") == (2, None, 1, 0)
    assert storage.move_count("g1") == 2
    assert storage.load_game("nope") is None and storage.progress("nope") is None


def test_a_move_of_a_turn_already_stored_or_of_no_game_is_refused(storage: Storage) -> None:
    storage.create_game(NewGame("g1", {}, "1", [ANN, BO]))
    assert storage.append_move("g1", 0, 0, "pass")
    assert not storage.append_move("g1", 0, 1, "exchange 1")
    assert not storage.append_move("missing", 0, 0, "pass")
    assert storage.load_game("g1").moves == ["pass"]  # type: ignore[union-attr]


def test_a_departure_needs_the_move_count_it_was_decided_on(storage: Storage) -> None:
    storage.create_game(NewGame("g1", {}, "1", [ANN, BO]))
    storage.append_move("g1", 0, 0, "pass")
    assert not storage.add_departure("g1", Departure(1, 0, "resigned", None))
    assert storage.add_departure(
        "g1", Departure(1, 1, "resigned", None), Standing(None, "resigned")
    )
    assert not storage.add_departure("g1", Departure(1, 1, "aborted", None))
    assert storage.open_games() == []


def test_open_games_due_deadlines_and_rematches(storage: Storage) -> None:
    # Ann has opened "person" as it was made: its clock runs (docs/web.md).
    joined = SeatRecord(0, "Ann", None, "a" * 64, 1000)
    storage.create_game(NewGame("person", {}, "1", [joined, COMPUTER], LIVE, 1000))
    storage.create_game(NewGame("computer", {}, "2", [ANN, COMPUTER], LIVE, 2000))
    storage.append_move("computer", 0, 0, "pass", 2500, Standing(1, None, 90_000))
    storage.create_game(NewGame("over", {}, "3", [ANN, COMPUTER], LIVE, 3000))
    storage.stand("over", Standing(None, "time", None))
    assert storage.open_games() == [("computer", False, True)]
    assert storage.due(61_000, 10) == [("person", 61_000)]
    assert storage.due(100_000, 10) == [("person", 61_000), ("computer", 90_000)]
    assert storage.due(100_000, 1) == [("person", 61_000)]
    assert storage.set_rematch("person", "again") == "again"
    assert storage.set_rematch("person", "other") == "again"
    assert storage.progress("person") == (0, "again", 0, 1)


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together; their results in the calls' order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait(timeout=30)
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_storages_racing_for_one_turn_store_it_once(any_database: Path | str) -> None:
    url = database_url(str(any_database))
    first, second = Storage(url), Storage(url)
    try:
        first.create_game(NewGame("g1", {}, "1", [ANN, BO]))
        for turn in range(30):
            seat = turn % 2
            after = Standing(1 - seat, None)
            results = race(
                [
                    partial(first.append_move, "g1", turn, seat, "pass", None, after),
                    partial(second.append_move, "g1", turn, seat, "exchange 1", None, after),
                ]
            )
            assert sorted(results) == [False, True], (turn, results)
        stored = second.load_game("g1")
        assert stored is not None and len(stored.moves) == 30
    finally:
        first.close()
        second.close()


def test_two_storages_racing_for_one_rematch_keep_one(any_database: Path | str) -> None:
    url = database_url(str(any_database))
    first, second = Storage(url), Storage(url)
    try:
        for number in range(10):
            game_id = f"g{number}"
            first.create_game(NewGame(game_id, {}, "1", [ANN, BO]))
            kept = race(
                [
                    partial(first.set_rematch, game_id, "first"),
                    partial(second.set_rematch, game_id, "second"),
                ]
            )
            assert kept[0] == kept[1] and kept[0] in ("first", "second")
    finally:
        first.close()
        second.close()


def test_requests_are_counted_in_sliding_windows(storage: Storage) -> None:
    three = RateWindow("create 3 per 1 second 192.0.2.1", 3, 1000)
    other = RateWindow("create 3 per 1 second 192.0.2.2", 3, 1000)
    start = 1_700_000_000_000
    assert [storage.count_request([three], start + 100 * step) for step in range(3)] == [None] * 3
    # The fourth in the same second is refused, and not counted: it waits for the next one,
    # where the full window weighs less and less.
    assert storage.count_request([three], start + 400) == (0, 601)
    assert storage.count_request([three], start + 900) == (0, 101)
    assert storage.count_request([other], start + 900) is None
    assert storage.count_request([three], start + 1200) is None  # 3 × 0.8 + 0 < 3
    assert storage.count_request([three], start + 1300) == (0, 34)  # 3 × 0.7 + 1 ≥ 3
    assert storage.count_request([three], start + 1334) is None  # 3 × 0.666 + 1 < 3
    # Several limits: the request must fit each, and is counted in none when one refuses.
    second = RateWindow("hint 5 per 1 second 192.0.2.3", 5, 1000)
    hour = RateWindow("hint 2 per 1 hour 192.0.2.3", 2, 3_600_000)
    hour_start = start - start % 3_600_000
    assert storage.count_request([second, hour], start + 5000) is None
    assert storage.count_request([second, hour], start + 5100) is None
    wait = hour_start + 3_600_000 - (start + 5200) + 1
    assert storage.count_request([second, hour], start + 5200) == (1, wait)
    assert [storage.count_request([second], start + 5300 + step) for step in range(4)] == [
        None,
        None,
        None,
        (0, 6001 - 5303),
    ]


def test_two_storages_counting_one_client_at_once_keep_its_limit(
    any_database: Path | str,
) -> None:
    url = database_url(str(any_database))
    first, second = Storage(url), Storage(url)
    limit = RateWindow("move 10 per 1 minute 192.0.2.1", 10, 60_000)
    now = 1_700_000_000_000  # a whole minute's window, whatever the machine's speed
    try:
        results = race(
            [partial(storage.count_request, [limit], now) for storage in (first, second) * 8]
        )
        assert results.count(None) == 10, results
        assert sorted(result for result in results if result is not None)[0][0] == 0
    finally:
        first.close()
        second.close()


#: A process that opens the storage at a given moment (the same for all) and says "opened".
OPEN_AT = """
import sys, time
from binscrabble.web.storage import Storage
url, at = sys.argv[1], float(sys.argv[2])
time.sleep(max(0.0, at - time.time()))
Storage(url).close()
print("opened")
"""


def test_processes_opening_a_new_database_together_migrate_it_once(
    empty_database: Path | str,
) -> None:
    url = database_url(str(empty_database))
    start = f"{time.time() + 4:.3f}"  # every process has imported SQLAlchemy by then
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", OPEN_AT, url, start],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    outputs = [process.communicate(timeout=120) for process in processes]
    for process, (out, err) in zip(processes, outputs, strict=True):
        assert process.returncode == 0 and out.strip() == "opened", err[-3000:]
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            versions = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    finally:
        engine.dispose()
    assert len(versions) == 1


def test_a_process_opening_a_new_database_waits_while_another_sets_its_journal(
    tmp_path: Path,
) -> None:
    # Two processes opening a new file both switch it to WAL: each reads the file's
    # header, then one takes the write lock, and SQLite refuses the other's upgrade from
    # reading to writing at once, without its busy wait. It must wait and try again.
    path = tmp_path / "games.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # the write lock, the file not yet in WAL mode
    release = threading.Timer(0.5, holder.execute, ["COMMIT"])
    release.start()
    try:
        storage = Storage(database_url(str(path)))
    finally:
        release.join()
        holder.close()
    try:
        with storage.engine.connect() as connection:
            mode = connection.exec_driver_sql("PRAGMA journal_mode").scalar()
            versions = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    finally:
        storage.close()
    assert (mode, len(versions)) == ("wal", 1)


def migrate(url: str, revision: str, down: bool = False) -> None:
    """Run the migrations up (or down) to ``revision`` on the database at ``url``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            (command.downgrade if down else command.upgrade)(config, revision)
    finally:
        engine.dispose()


def test_games_stored_before_the_rate_windows_migrate_and_migrate_back(
    empty_database: Path | str,
) -> None:
    url = database_url(str(empty_database))
    migrate(url, "0004")
    statements = [
        "INSERT INTO games (id, rules, seed, to_move, client) VALUES ('old', '{}', '5', 0, 'x')",
        "INSERT INTO seats (game_id, seat, name) VALUES ('old', 0, 'Ann'), ('old', 1, 'Bo')",
        "INSERT INTO moves (game_id, turn, seat, notation) VALUES ('old', 0, 0, 'pass')",
    ]
    engine = create_engine(url)
    with engine.begin() as connection:
        for statement in statements:
            connection.execute(text(statement))
    engine.dispose()
    storage = Storage(url)  # migrates to the newest
    try:
        assert storage.load_game("old").moves == ["pass"]  # type: ignore[union-attr]
        longest = "refused 8A" + " " * 190 + "1+1=11"
        assert storage.append_move("old", 1, 1, longest)
        assert storage.count_request([RateWindow("k", 1, 1000)], 5000) is None
    finally:
        storage.close()
    migrate(url, "0004", down=True)
    engine = create_engine(url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM moves")).scalar() == 2
    engine.dispose()


def test_a_start_is_a_pause_only_when_no_process_was_serving(any_database: Path | str) -> None:
    """A server's start makes the time since the last heartbeat a pause of every clock; on a
    shared database (PostgreSQL) a process that starts while another beats makes none (the
    clocks ran: the other process was serving), and a start after every process stopped does."""
    url = database_url(str(any_database))
    first, second = Storage(url), Storage(url)
    try:
        assert first.resume(1_000_000) is None  # a new database: no heartbeat yet
        first.beat(1_010_000)
        # 20 s after the first process's heartbeat, a second process starts.
        pause = second.resume(1_030_000)
        if second.shared:
            assert pause is None
            assert second.pauses() == ()
        else:
            assert pause == (1_010_000, 1_030_000)
        # Every process stopped; one starts ten minutes after the last heartbeat.
        late = Storage(url)
        try:
            assert late.resume(1_630_000) == (1_030_000, 1_630_000)
            assert late.pauses()[-1] == (1_030_000, 1_630_000)
        finally:
            late.close()
    finally:
        first.close()
        second.close()


def heartbeats(url: str) -> list[tuple[int, bool]]:
    """The stored heartbeats, one a process (migration 0010): (when it last beat, stopped)."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT at, stopped FROM heartbeat ORDER BY at")).all()
    finally:
        engine.dispose()
    return [(int(at), bool(stopped)) for at, stopped in rows]


def test_a_lone_process_restarted_at_once_after_its_stop_stores_the_pause(
    any_database: Path | str,
) -> None:
    # A process's stop marks its heartbeat: the next start, 5 s later, knows that nobody
    # served since, on PostgreSQL as on SQLite (before, PostgreSQL took the stop for a
    # process still serving, and the clocks counted the 5 s).
    url = database_url(str(any_database))
    first = Storage(url)
    try:
        assert first.resume(1_000_000) is None
        first.beat(1_030_000)
        first.stop(1_040_000)
    finally:
        first.close()
    assert heartbeats(url) == [(1_040_000, True)]
    again = Storage(url)
    try:
        assert again.resume(1_045_000) == (1_040_000, 1_045_000)
        assert again.pauses() == ((1_040_000, 1_045_000),)
        assert heartbeats(url) == [(1_040_000, True), (1_045_000, False)]
    finally:
        again.close()


def test_a_process_that_stops_while_another_serves_lets_a_start_store_no_pause(
    any_database: Path | str,
) -> None:
    url = database_url(str(any_database))
    first, second = Storage(url), Storage(url)
    try:
        assert first.resume(1_000_000) is None
        assert second.resume(1_010_000) == (None if second.shared else (1_000_000, 1_010_000))
        second.beat(1_030_000)
        first.stop(1_040_000)  # the newest heartbeat is a stop, but the second still serves
        third = Storage(url)
        try:
            pause = third.resume(1_050_000)
            if third.shared:
                assert (pause, third.pauses()) == (None, ())
            else:  # one process a file: a start is always after the last one's stop
                assert pause == (1_040_000, 1_050_000)
            # Every process stops; one starts at once: the pause runs from the last stop.
            second.stop(1_060_000)
            third.stop(1_070_000)
        finally:
            third.close()
        fourth = Storage(url)
        try:
            assert fourth.resume(1_071_000) == (1_070_000, 1_071_000)
        finally:
            fourth.close()
    finally:
        first.close()
        second.close()


def test_a_process_killed_without_stopping_counts_as_serving_for_alive_ms(
    any_database: Path | str,
) -> None:
    # Killed, a process marks nothing: on PostgreSQL its heartbeat younger than ALIVE_MS is
    # that of a process that may be serving, so a start then stores no pause; past ALIVE_MS
    # the pause runs from its last heartbeat. An SQLite file has one process: always a pause.
    url = database_url(str(any_database))
    killed = Storage(url)
    try:
        assert killed.resume(1_000_000) is None
        killed.beat(1_030_000)
    finally:
        killed.close()  # no stop
    soon = Storage(url)
    try:
        pause = soon.resume(1_030_000 + ALIVE_MS - 1)
        assert pause == (None if soon.shared else (1_030_000, 1_030_000 + ALIVE_MS - 1))
    finally:
        soon.close()  # killed too
    late = Storage(url)
    try:
        last, now = 1_030_000 + ALIVE_MS - 1, 1_030_000 + 3 * ALIVE_MS
        assert late.resume(now) == (last, now)
        # The rows of the processes long gone are deleted as a process starts.
        assert heartbeats(url) == [(now, False)]
    finally:
        late.close()


def test_processes_starting_together_store_one_pause(postgres_url: str) -> None:
    # Every process is gone; several start at the same moment: they take turns, so the
    # first stores the pause and the others find it serving (none fails on the pause's key).
    url = postgres_url
    gone = Storage(url)
    try:
        gone.resume(1_000_000)
        gone.beat(1_010_000)
    finally:
        gone.close()
    starting = [Storage(url) for _ in range(4)]
    try:
        barrier = threading.Barrier(len(starting))
        results: list[tuple[int, int] | None] = []

        def start(storage: Storage) -> None:
            barrier.wait()
            results.append(storage.resume(1_100_000))

        threads = [threading.Thread(target=start, args=(storage,)) for storage in starting]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert len(results) == len(starting)  # no start failed
        assert [pause for pause in results if pause is not None] == [(1_010_000, 1_100_000)]
    finally:
        for storage in starting:
            storage.close()


def test_the_one_heartbeat_of_before_migrates_to_a_process_that_did_not_stop(
    empty_database: Path | str,
) -> None:
    # Migration 0010: the one row of before says neither whose it is nor whether its process
    # stopped, so it becomes a process that may be serving; the downgrade keeps the newest.
    url = database_url(str(empty_database))
    migrate(url, "0009")
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO heartbeat (id, at) VALUES (1, 1000000)"))
    engine.dispose()
    storage = Storage(url)  # migrates to the newest
    try:
        assert heartbeats(url) == [(1_000_000, False)]
        pause = storage.resume(1_020_000)
        assert pause == (None if storage.shared else (1_000_000, 1_020_000))
        storage.stop(1_030_000)
    finally:
        storage.close()
    migrate(url, "0009", down=True)
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT id, at FROM heartbeat")).all()
    finally:
        engine.dispose()
    assert [tuple(row) for row in rows] == [(1, 1_030_000)]
    migrate(url, "head")
    assert heartbeats(url) == [(1_030_000, False)]


def test_a_process_reads_the_moves_stored_after_the_ones_it_holds(storage: Storage) -> None:
    storage.create_game(NewGame("g1", {}, "1", [ANN, BO]))
    assert storage.moves_after("g1", 0) == ([], 0, None, 0)
    assert storage.append_move("g1", 0, 0, "pass", 5, Standing(1, None), 0)
    assert storage.append_move("g1", 1, 1, "exchange 1", 6, Standing(0, None), 0)
    assert storage.moves_after("g1", 0) == ([("pass", 5), ("exchange 1", 6)], 0, None, 0)
    assert storage.moves_after("g1", 1) == ([("exchange 1", 6)], 0, None, 0)
    assert storage.add_departure("g1", Departure(1, 2, "resigned", 7), Standing(None, "resigned"))
    assert storage.set_rematch("g1", "g2") == "g2"
    assert storage.moves_after("g1", 2) == ([], 1, "g2", 0)
    assert storage.moves_after("nope", 0) == ([], 0, None, 0)


def departed(url: str) -> list[tuple[str, int]]:
    """Each game's stored count of departures (migration 0008)."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT id, departed FROM games ORDER BY id")).all()
    finally:
        engine.dispose()
    return [(str(game_id), int(count)) for game_id, count in rows]


def test_departures_stored_before_their_count_are_counted_by_the_migration(
    empty_database: Path | str,
) -> None:
    url = database_url(str(empty_database))
    migrate(url, "0005")
    statements = [
        "INSERT INTO games (id, rules, seed, to_move) VALUES ('old', '{}', '5', 0)",
        "INSERT INTO games (id, rules, seed, to_move) VALUES ('new', '{}', '6', 0)",
        "INSERT INTO seats (game_id, seat, name) VALUES ('old', 0, 'Ann'), ('old', 1, 'Bo')",
        "INSERT INTO moves (game_id, turn, seat, notation) VALUES ('old', 0, 0, 'pass')",
        "INSERT INTO departures (game_id, seat, turn, reason) VALUES ('old', 1, 1, 'resigned')",
    ]
    engine = create_engine(url)
    with engine.begin() as connection:
        for statement in statements:
            connection.execute(text(statement))
    engine.dispose()
    Storage(url).close()  # migrates to the newest
    assert departed(url) == [("new", 0), ("old", 1)]
    migrate(url, "0005", down=True)
    migrate(url, "head")
    assert departed(url) == [("new", 0), ("old", 1)]
    storage = Storage(url)
    try:
        assert storage.add_departure("old", Departure(0, 1, "aborted", None))
        assert storage.moves_after("old", 0) == ([("pass", None)], 2, None, 0)
    finally:
        storage.close()
    assert departed(url) == [("new", 0), ("old", 2)]
