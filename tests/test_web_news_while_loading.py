"""A process on a shared PostgreSQL database that is loading a game when another process
stores a move of it: the load may have read the moves before that move was committed, and
the news of it (``NOTIFY``) arrives while the game is not yet held. The game, once held,
must still be brought up to the database, or its WebSocket clients never see that move
(the `web_processes` benchmark's seats that waited 30 s for a view).

The test holds the load between its read of the moves and its read of the departures (a
lock on the departures table, as a slow load under load is held there by the machine),
stores a move through another process's storage meanwhile, and lets the load go on once
the loading process has heard the news.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import psycopg

from binscrabble.move import parse_move
from binscrabble.rules import Rules
from binscrabble.web.active_games import ActiveGame, GameTable, submit
from binscrabble.web.computer import Fairness
from binscrabble.web.news import Tidings
from binscrabble.web.server import Server
from binscrabble.web.storage import Storage
from binscrabble.web.table_games import ActiveTable, TableGames, submit_table_move

#: The longest any wait of these tests lasts, in seconds.
WAIT = 30.0
#: A load of a game (``Storage.load_game``'s read of its departures, its last statement)
#: waiting for the lock on the departures table.
LOAD_WAITING = """
SELECT count(*) FROM pg_stat_activity
WHERE datname = current_database() AND wait_event_type = 'Lock'
    AND query LIKE '%FROM departures%ORDER BY departures.turn, departures.at%'
"""


def libpq(url: str) -> str:
    """The database's URL as psycopg takes it."""
    return url.replace("postgresql+psycopg://", "postgresql://")


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait until ``condition`` holds, at most :data:`WAIT` seconds."""
    deadline = asyncio.get_running_loop().time() + WAIT
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"{what}: not within {WAIT:g} s"
        await asyncio.sleep(0.01)


def hearing(server: Server, game_id: str, moves: int) -> asyncio.Event:
    """An event set once ``server`` has heard the news of ``game_id`` with ``moves`` moves
    stored (after handling it as it always does)."""
    assert server.news is not None
    heard = asyncio.Event()
    hear = server.news.hear

    def hear_and_note(tidings: Tidings) -> None:
        hear(tidings)
        if tidings.game_id == game_id and tidings.moves == moves:
            heard.set()

    server.news.hear = hear_and_note
    return heard


async def load_while_moved(
    url: str,
    there: Server,
    game_id: str,
    load: Callable[[], Any],
    move: Callable[[], Any],
) -> Any:
    """``load()`` on ``there``, held on the lock of the departures table while ``move()``
    stores a move through another process and until ``there`` has heard of it; what the
    load answers."""
    heard = hearing(there, game_id, 1)
    with (
        psycopg.connect(libpq(url)) as blocker,
        psycopg.connect(libpq(url), autocommit=True) as looker,
    ):
        blocker.execute("LOCK TABLE departures IN ACCESS EXCLUSIVE MODE")
        loading = asyncio.create_task(load())

        def load_waits() -> bool:
            row = looker.execute(LOAD_WAITING).fetchone()
            return row is not None and row[0] > 0

        await until(load_waits, "the load waiting for the departures")
        await move()
        await asyncio.wait_for(heard.wait(), WAIT)
        blocker.commit()
    return await asyncio.wait_for(loading, WAIT)


async def started(url: str) -> Server:
    """A server on ``url``, listening for the other processes' news."""
    server = Server(url, Fairness())
    await server.start()
    assert server.news is not None
    await asyncio.wait_for(server.news.listening.wait(), WAIT)
    return server


def test_a_game_loaded_while_another_process_moves_it_holds_that_move(postgres_url: str) -> None:
    async def scenario() -> tuple[int, int]:
        there = await started(postgres_url)
        first = Storage(postgres_url)
        try:
            here = GameTable(first)
            made = await here.create(["Ann", "Bo"], [None, None], Rules(), ["a", "b"])

            async def pass_here() -> None:
                await submit(made, first, 0, parse_move("pass", made.game.board), 0)

            async def open_there() -> ActiveGame:
                return await there.open_game(made.game_id)

            held = await load_while_moved(postgres_url, there, made.game_id, open_there, pass_here)
            assert isinstance(held, ActiveGame)
            await until(lambda: held.turn == 1, "the game held there has Ann's pass")
            # Its WebSocket clients get the view of the game as stored.
            listener = there.hub.join(made.game_id, 1)
            there.publish(held)
            view = await asyncio.wait_for(listener.next_message(), WAIT)
            return held.turn, view["turn"]
        finally:
            there.close()
            first.close()

    assert asyncio.run(scenario()) == (1, 1)


def test_a_table_game_loaded_while_another_process_moves_it_holds_that_move(
    postgres_url: str,
) -> None:
    async def scenario() -> int:
        there = await started(postgres_url)
        first = Storage(postgres_url)
        try:
            tables = TableGames(first)  # another process's table games
            made = await tables.create(["Ann", "Bo"], Rules(), ["a", "b"], False)

            async def pass_here() -> None:
                await submit_table_move(made, first, 0, "pass", 0)

            async def find_there() -> ActiveTable | None:
                return await there.tables.find(made.game_id)

            held = await load_while_moved(postgres_url, there, made.game_id, find_there, pass_here)
            assert isinstance(held, ActiveTable)
            await until(
                lambda: len(there.tables.held[made.game_id].stored.moves) == 1,
                "the table game held there has Ann's pass",
            )
            return len(there.tables.held[made.game_id].stored.moves)
        finally:
            there.close()
            first.close()

    assert asyncio.run(scenario()) == 1


def test_two_loads_of_a_table_game_at_once_share_one_copy(postgres_url: str) -> None:
    """Two WebSockets open a table game at once: both loads read it, and both get the one
    copy held (the copy a later change brings up to date and publishes), not each its own,
    the second replacing the first, with the news heard in between lost for it."""

    async def scenario() -> tuple[bool, bool]:
        there = await started(postgres_url)
        first = Storage(postgres_url)
        try:
            made = await TableGames(first).create(["Ann", "Bo"], Rules(), ["a", "b"], False)
            with (
                psycopg.connect(libpq(postgres_url)) as blocker,
                psycopg.connect(libpq(postgres_url), autocommit=True) as looker,
            ):
                blocker.execute("LOCK TABLE departures IN ACCESS EXCLUSIVE MODE")
                loads = [asyncio.create_task(there.tables.find(made.game_id)) for _ in range(2)]

                def both_wait() -> bool:
                    row = looker.execute(LOAD_WAITING).fetchone()
                    return row is not None and row[0] == 2

                await until(both_wait, "both loads waiting for the departures")
                blocker.commit()
            one, two = await asyncio.wait_for(asyncio.gather(*loads), WAIT)
            held = there.tables.held[made.game_id]
            return one is held, two is held
        finally:
            there.close()
            first.close()

    assert asyncio.run(scenario()) == (True, True)
