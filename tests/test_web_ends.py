"""Games that end, finished (issue 38, the audit of clocks, resign and abort): each test is
written from a reproducer of the audit (docs/web.md, "Games that end").

Clocks are real, as in ``test_web_clocks.py``: a test waits for a short clock to run out
(bounded waits), or moves the stored times of a game back in the database file while the
server is stopped.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from test_web_clocks import (
    LIVE_5S,
    create,
    created_at,
    join_all,
    passes,
    stored_departures,
    tokens,
    wait_for,
)
from web_api_support import bearer, seat_view, serving, web_client

from binscrabble.record import read_record
from binscrabble.web.active_games import now_ms
from binscrabble.web.storage import (
    Departure,
    NewGame,
    SeatRecord,
    Standing,
    Storage,
    database_url,
)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(database: Path) -> Iterator[TestClient]:
    with web_client(database) as test_client:
        yield test_client


def raw_post(client: TestClient, path: str, body: bytes, token: str | None = None) -> Any:
    """POST ``body`` as it is (JSON the test client would not write), with a seat's token."""
    headers = {"Content-Type": "application/json", **(bearer(token) if token else {})}
    return client.post(path, content=body, headers=headers)


# -- 7. strict inputs ---------------------------------------------------------------------------


def test_a_null_clock_gets_400_with_what_to_send(client: TestClient) -> None:
    answer = client.post(
        "/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}], "clock": None}
    )
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error.startswith("the field 'clock' is wrong: leave 'clock' out"), error


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/games", b'{"players": [{"name": "Ann"}, {"name": "Bo"}], "players": []}'),
        ("/api/games", b'{"players": [{"name": "Ann", "name": "Cy"}, {"name": "Bo"}]}'),
        ("/api/games/GAME/moves", b'{"move": "pass", "turn": 0, "turn": 1}'),
        ("/api/games/GAME/preview", b'{"move": "pass", "move": "8H 1=1"}'),
        ("/api/games/GAME/resign", b'{"a": 1, "a": 2}'),
        ("/api/records/view", b'{"record": "x", "record": "y"}'),
    ],
)
def test_a_body_that_gives_a_key_twice_gets_400_on_every_route(
    client: TestClient, path: str, body: bytes
) -> None:
    created = create(client)
    ann = tokens(created)[0]
    answer = raw_post(client, path.replace("GAME", created["id"]), body, ann)
    assert answer.status_code == 400, answer.text
    assert "twice: send each key once" in answer.json()["error"]
    assert seat_view(client, created["id"])["turn"] == 0
    assert seat_view(client, created["id"])["end"] is None


@pytest.mark.parametrize("action", ["resign", "abort"])
def test_resign_and_abort_take_no_body_or_an_empty_object(client: TestClient, action: str) -> None:
    for body in (b'{"seat": 1}', b"[]", b'"please"', b"not json"):
        created = create(client)
        ann = tokens(created)[0]
        answer = raw_post(client, f"/api/games/{created['id']}/{action}", body, ann)
        assert answer.status_code == 400, (body, answer.text)
        assert answer.json()["error"] == "this request takes no body: send none, or {}"
        assert seat_view(client, created["id"])["end"] is None
    for body in (b"", b"{}", b" { } "):
        created = create(client)
        ann = tokens(created)[0]
        answer = raw_post(client, f"/api/games/{created['id']}/{action}", body, ann)
        assert answer.status_code == 200, (body, answer.text)
        assert answer.json()["end"]["reason"] == ("resigned" if action == "resign" else "aborted")


def test_a_missing_or_wrong_token_gets_401_before_the_kind_of_game_409(
    client: TestClient,
) -> None:
    """A game at a table (INTERFACES.md §9) is not resigned, aborted, hinted or rematched
    here, and a game with a bag takes no rack: 409, but only once the token is right."""
    at_table = {"players": [{"name": "Cy"}, {"name": "Di"}], "table": True}
    table = client.post("/api/games", json=at_table).json()
    table_token = table["seats"][0]["token"]
    bagged = create(client)
    cases = [
        (f"/api/games/{table['id']}/{action}", None, table_token)
        for action in ("resign", "abort", "hint", "rematch")
    ]
    cases.append((f"/api/games/{bagged['id']}/rack", {"rack": "01"}, tokens(bagged)[0]))
    for path, body, token in cases:
        for wrong in ({}, bearer("not-a-token")):
            answer = client.post(path, json=body, headers=wrong)
            assert answer.status_code == 401, (path, wrong, answer.text)
        answer = client.post(path, json=body, headers=bearer(token))
        assert answer.status_code == 409, (path, answer.text)


# -- 1. clocks start when every person has opened the game ------------------------------------


def stored_joins(database: Path, game_id: str) -> list[int | None]:
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "SELECT joined FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()
    return [None if joined is None else int(joined) for (joined,) in rows]


def test_a_live_clock_waits_until_every_seat_has_opened_the_game(
    client: TestClient, database: Path
) -> None:
    """Ann makes a 5-second game and opens it; Bo opens his link later than 5 seconds:
    nobody's time ran meanwhile. Then Ann's runs, and runs out before her first move: the
    game is aborted, and the record and the analysis say why."""
    created = create(client, clock=LIVE_5S)
    game_id = created["id"]
    ann, bo = tokens(created)
    assert stored_joins(database, game_id) == [None, None]  # the creating POST is no join
    first = seat_view(client, game_id, ann)
    assert first["clock"]["running"] is None and first["clock"]["waiting"] == [1]
    opened = created_at(database, game_id)
    wait_for(lambda: now_ms() > opened + 6000, "six seconds")
    waited = seat_view(client, game_id, ann)
    assert waited["end"] is None, waited["end"]
    assert waited["clock"] == {
        "kind": "live",
        "remaining_ms": [5000, 5000],
        "running": None,
        "waiting": [1],
    }
    assert stored_departures(database, game_id) == []
    seen = seat_view(client, game_id, bo)  # Bo opens his link: the clocks start
    assert seen["clock"]["running"] == 0 and seen["clock"]["waiting"] == []
    bo_joined = stored_joins(database, game_id)[1]
    assert bo_joined is not None and bo_joined > opened + 6000
    left = wait_for(lambda: stored_departures(database, game_id), "Ann's time to run out")
    assert left == [(0, "time-first-move", bo_joined + 5000)]
    end = seat_view(client, game_id)["end"]
    assert end == {"reason": "aborted", "seat": 0, "winners": [], "cause": "time"}
    # 4. The record and the analysis say what happened.
    record = client.get(f"/api/games/{game_id}/record").text.splitlines()
    assert "#left Ann time-first-move" in record
    assert record[-1].startswith("# Ann's time ran out before their first move, the game is")
    assert read_record("\n".join(record)).end_view() == end
    analysis = client.get(f"/api/games/{game_id}/analysis").json()
    assert analysis["end"]["cause"] == "time"


def test_any_request_with_the_token_joins_and_the_join_survives_a_restart(
    database: Path,
) -> None:
    with web_client(database) as client:
        created = create(client, clock={"kind": "live", "seconds": 300})
        game_id = created["id"]
        ann, bo = tokens(created)
        preview = client.post(
            f"/api/games/{game_id}/preview", json={"move": "pass"}, headers=bearer(ann)
        )
        assert preview.status_code == 200
        assert stored_joins(database, game_id)[0] is not None
        assert seat_view(client, game_id)["clock"]["waiting"] == [1]
    with web_client(database) as client:
        assert seat_view(client, game_id)["clock"]["waiting"] == [1]
        with client.websocket_connect(f"/api/games/{game_id}/live?token={bo}") as socket:
            view = socket.receive_json()
        assert view["clock"]["running"] == 0 and view["clock"]["waiting"] == []
        assert None not in stored_joins(database, game_id)


def test_a_rematch_clock_waits_for_both_players_to_open_it(client: TestClient) -> None:
    created = create(client, clock=LIVE_5S)
    game_id = created["id"]
    ann, bo = tokens(created)
    assert client.post(f"/api/games/{game_id}/resign", headers=bearer(bo)).status_code == 200
    again = client.post(f"/api/games/{game_id}/rematch", headers=bearer(ann)).json()["id"]
    clock = seat_view(client, again)["clock"]
    assert clock["running"] is None and clock["waiting"] == [0, 1]
    assert client.post(f"/api/games/{again}/abort", headers=bearer(ann)).status_code == 200
    assert seat_view(client, again)["end"]["reason"] == "aborted"


def test_a_game_a_seat_never_opens_is_aborted_a_day_after_it_was_made(database: Path) -> None:
    """The bound is a day, or a seat's whole time when longer (docs/web.md)."""
    with web_client(database) as client:
        created = create(client, clock={"kind": "live", "seconds": 60})
        days = create(client, clock={"kind": "correspondence", "days": 3})
        for game in (created, days):
            seat_view(client, game["id"], tokens(game)[0])  # Ann opens; Bo never does
    day = 86_400_000
    with sqlite3.connect(database) as connection:
        for column in ("created_at", "deadline"):
            connection.execute(f"UPDATE games SET {column} = {column} - ?", (day + 60_000,))
        connection.execute("UPDATE seats SET joined = joined - ?", (day + 60_000,))
    with web_client(database) as client:
        left = wait_for(lambda: stored_departures(database, created["id"]), "the abort")
        assert left == [(1, "absent", created_at(database, created["id"]) + day)]
        view = seat_view(client, created["id"])
        assert view["end"] == {"reason": "aborted", "seat": 1, "winners": [], "cause": "absent"}
        record = client.get(f"/api/games/{created['id']}/record").text
        assert record.splitlines()[-1].startswith("# Bo never opened the game, it is aborted")
        # Three days of correspondence: the bound is the seat's whole time.
        assert stored_departures(database, days["id"]) == []
        assert seat_view(client, days["id"])["clock"]["waiting"] == [1]


# -- 2. time the server is down counts against nobody -----------------------------------------


def shift_back(database: Path, game_id: str, milliseconds: int, *, heartbeat: bool) -> None:
    """Every stored time of the game (and the heartbeat) moves ``milliseconds`` back, as if
    the server had been down that much longer."""
    with sqlite3.connect(database) as connection:
        for table, column, key in (
            ("games", "created_at", "id"),
            ("games", "deadline", "id"),
            ("seats", "joined", "game_id"),
            ("moves", "at", "game_id"),
            ("departures", "at", "game_id"),
        ):
            connection.execute(
                f"UPDATE {table} SET {column} = {column} - ? WHERE {key} = ?",
                (milliseconds, game_id),
            )
        if heartbeat:
            connection.execute("UPDATE heartbeat SET at = at - ?", (milliseconds,))
        else:
            connection.execute("DELETE FROM heartbeat")


@pytest.mark.parametrize(
    ("clock", "down"),
    [
        ({"kind": "live", "seconds": 600}, 3_600_000),
        ({"kind": "correspondence", "days": 1}, 2 * 86_400_000),
    ],
)
def test_time_the_server_is_down_is_given_back_to_every_running_clock(
    database: Path, clock: dict[str, Any], down: int
) -> None:
    """A real server is stopped with Ann's clock running and started again; its stored
    times move back (an hour, two days) as if it had been down that long: Ann has the
    time she had when it stopped, less the moments it was up."""
    with serving(database) as server, server.client() as client:
        created = create(client, clock=clock)
        game_id = created["id"]
        join_all(client, created)
        ann, bo = tokens(created)
        passes(client, game_id, [ann, bo])
        before = client.get(f"/api/games/{game_id}").json()["clock"]
    shift_back(database, game_id, down, heartbeat=True)
    with serving(database) as server, server.client() as client:
        view = client.get(f"/api/games/{game_id}").json()
        assert view["end"] is None, view["end"]
        running = view["clock"]["running"]
        assert running == 0 == before["running"]
        assert view["clock"]["remaining_ms"][0] > before["remaining_ms"][0] - 60_000
        moved = client.post(
            f"/api/games/{game_id}/moves", json={"move": "pass", "turn": 2}, headers=bearer(ann)
        )
        assert moved.status_code == 200, moved.text


# -- 3. a time-out settled late starts the next clock when it is settled -----------------------


def test_a_time_out_settled_late_starts_the_next_seat_clock_then(database: Path) -> None:
    """Three seats, 30-second clocks: the server is stopped while Ann's time runs, and
    comes back (with no heartbeat to give the time back) two minutes after her deadline.
    Her time-out is settled then, and Bo's time starts then, not at her deadline."""
    with serving(database) as server, server.client() as client:
        created = create(client, players=3, clock={"kind": "live", "seconds": 30})
        game_id = created["id"]
        join_all(client, created)
        ann, bo, cy = tokens(created)
        passes(client, game_id, [ann, bo, cy])
    shift_back(database, game_id, 150_000, heartbeat=False)
    with serving(database) as server, server.client() as client:
        left = wait_for(lambda: stored_departures(database, game_id), "the settling")
        view = client.get(f"/api/games/{game_id}").json()
    assert [seat for seat, _reason, _at in left] == [0] and left[0][1] == "time"
    assert view["end"] is None and view["clock"]["running"] == 1
    assert view["clock"]["remaining_ms"][1] > 0, view["clock"]


# -- 6. the games being played now --------------------------------------------------------------


def listed(client: TestClient) -> list[str]:
    return [game["id"] for game in client.get("/api/games").json()["games"]]


def test_an_abandoned_game_leaves_the_lobby_list_after_ten_minutes(client: TestClient) -> None:
    """Nobody connected and no move for 10 minutes: not being played now. A game with a
    seat's WebSocket open stays up to the hour. (The list's clock is set forward.)"""
    playing = client.app.state.server.playing  # type: ignore[attr-defined]
    now = [playing.clock()]
    playing.clock = lambda: now[0]
    abandoned, watched = create(client), create(client)
    for game in (abandoned, watched):
        passes(client, game["id"], tokens(game)[:1])
    assert set(listed(client)) == {abandoned["id"], watched["id"]}
    bo = tokens(watched)[1]
    with client.websocket_connect(f"/api/games/{watched['id']}/live?token={bo}") as socket:
        socket.receive_json()
        now[0] += 601
        assert listed(client) == [watched["id"]]
        now[0] += 3000
        assert listed(client) == []


@pytest.mark.parametrize("ending", ["resign", "abort", "time"])
def test_a_game_that_ends_leaves_the_lobby_list_at_once(client: TestClient, ending: str) -> None:
    created = create(client, clock=LIVE_5S)
    game_id = created["id"]
    ann, bo = tokens(created)
    join_all(client, created)
    passes(client, game_id, [ann])
    assert listed(client) == [game_id]
    if ending == "time":
        wait_for(lambda: seat_view(client, game_id)["over"], "Bo's time to run out")
    else:
        assert client.post(f"/api/games/{game_id}/{ending}", headers=bearer(bo)).status_code == 200
    assert listed(client) == []


# -- 8. a move writes its game's row only when its ending or deadline changes ------------------


def statements_of_a_pass(
    client: TestClient, game: dict[str, Any], turn: int, token: str
) -> list[str]:
    """The SQL statements the server runs while it accepts one pass."""
    engine = client.app.state.server.storage.engine  # type: ignore[attr-defined]
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", note)
    try:
        moved = client.post(
            f"/api/games/{game['id']}/moves",
            json={"move": "pass", "turn": turn},
            headers=bearer(token),
        )
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert moved.status_code == 200, moved.text
    return seen


def test_an_untimed_move_is_one_statement_and_a_timed_one_updates_its_deadline(
    client: TestClient,
) -> None:
    untimed = create(client)
    join_all(client, untimed)
    ann = tokens(untimed)[0]
    writes = [
        sql
        for sql in statements_of_a_pass(client, untimed, 0, ann)
        if sql.startswith(("INSERT", "UPDATE", "DELETE"))
    ]
    assert len(writes) == 1 and writes[0].startswith("INSERT INTO moves"), writes
    timed = create(client, clock={"kind": "live", "seconds": 300})
    join_all(client, timed)
    updates = [
        sql
        for sql in statements_of_a_pass(client, timed, 0, tokens(timed)[0])
        if sql.startswith("UPDATE games")
    ]
    assert len(updates) == 1, updates


def test_a_computer_to_move_after_an_untimed_move_is_found_by_a_server_that_starts(
    database: Path,
) -> None:
    """A move stores the seat to move after it (the game's row still says seat 0); a
    seat that leaves after it stores the seat to move in the game's row."""
    storage = Storage(database_url(str(database)))
    try:
        seats = [
            SeatRecord(0, "Ann", None, "a" * 64),
            SeatRecord(1, "Hal", "easy", None),
            SeatRecord(2, "Bo", None, "b" * 64),
        ]
        storage.create_game(NewGame("g", {}, "11", seats))
        assert storage.open_games() == []
        assert storage.append_move("g", 0, 0, "pass", now_ms(), Standing(1, None), False)
        assert storage.open_games() == [("g", False, True)]
        seats[1] = SeatRecord(1, "Cy", None, "c" * 64)
        seats[2] = SeatRecord(2, "Hal", "easy", None)
        storage.create_game(NewGame("h", {}, "11", seats))
        assert storage.append_move("h", 0, 0, "pass", now_ms(), Standing(1, None), False)
        assert storage.open_games() == [("g", False, True)]
        left = Departure(1, 1, "resigned", now_ms())
        assert storage.add_departure("h", left, Standing(2, None))
        assert sorted(storage.open_games()) == [("g", False, True), ("h", False, True)]
    finally:
        storage.close()
