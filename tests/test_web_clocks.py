"""Games that end (INTERFACES.md §7) through the web API: resign, abort, and clocks that
run out on their own, with nobody connected and across a restart of the server.

The clocks are real: a test waits for a 5-second clock to run out (bounded waits), or moves
the stored time of a game back in the database while the server is stopped. Each test runs
on SQLite and on PostgreSQL (the PostgreSQL runs in ``make test-full``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from test_web_api_game import check_no_leak
from web_api_support import (
    bearer,
    best_play,
    game_with_a_play,
    new_game,
    seat_view,
    server_truth,
    serving,
    sql,
    stored_moves,
    web_client,
)

from binscrabble.record import read_record
from binscrabble.web.active_games import new_game_id, new_seed, now_ms
from binscrabble.web.storage import NewGame, SeatRecord, Storage, database_url

#: The longest a test waits for something the server does on its own, in seconds.
PATIENCE = 60.0
LIVE_5S = {"kind": "live", "seconds": 5}


@pytest.fixture
def database(any_database_full: Path | str) -> Path | str:
    return any_database_full


@pytest.fixture
def client(database: Path | str) -> Iterator[TestClient]:
    with web_client(database) as test_client:
        yield test_client


def create(client: TestClient | httpx.Client, players: int = 2, **body: Any) -> dict[str, Any]:
    """A new game of ``players`` people; ``body`` adds to the request (a clock)."""
    names = ["Ann", "Bo", "Cy", "Di"][:players]
    answer = client.post("/api/games", json={"players": [{"name": n} for n in names], **body})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def tokens(created: dict[str, Any]) -> list[str]:
    return [seat["token"] for seat in created["seats"]]


def wait_for(condition: Callable[[], Any], what: str) -> Any:
    """Poll ``condition`` until it is true (bounded by :data:`PATIENCE`)."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"waited {PATIENCE:g} s for {what}")


def stored_departures(database: Path | str, game_id: str) -> list[tuple[int, str, int]]:
    """The departures stored in the database: (seat, reason, at)."""
    rows = sql(
        database,
        "SELECT seat, reason, at FROM departures WHERE game_id = :id ORDER BY turn, at",
        id=game_id,
    )
    return [(int(seat), str(reason), int(at)) for seat, reason, at in rows]


def passes(client: TestClient | httpx.Client, game_id: str, seat_tokens: list[str]) -> None:
    """Each token's seat passes once, in turn from turn 0."""
    for turn, token in enumerate(seat_tokens):
        moved = client.post(
            f"/api/games/{game_id}/moves",
            json={"move": "pass", "turn": turn},
            headers=bearer(token),
        )
        assert moved.status_code == 200, moved.text


def move_times(database: Path | str, game_id: str) -> list[int]:
    """When each stored move of the game was made (ms since the epoch)."""
    rows = sql(database, "SELECT at FROM moves WHERE game_id = :id ORDER BY turn", id=game_id)
    return [int(at) for (at,) in rows]


def second_deadline(database: Path | str, game_id: str, seconds: int) -> int:
    """When Ann runs out of a live clock of ``seconds`` after Ann and Bo each passed once
    (:func:`passes`): Ann passed before Bo joined, so her time first runs from Bo's pass."""
    _ann_at, bo_at = move_times(database, game_id)
    return bo_at + seconds * 1000


def join_all(client: TestClient | httpx.Client, created: dict[str, Any]) -> None:
    """Each seat opens its game (a GET with its token): a timed game's clocks start."""
    for token in tokens(created):
        assert client.get(f"/api/games/{created['id']}", headers=bearer(token)).status_code == 200


def downtime(database: Path | str) -> int:
    """How long the server was down, all told (the stored pauses), in milliseconds: no
    clock runs then (docs/web.md)."""
    rows = sql(database, "SELECT COALESCE(SUM(down_to - down_from), 0) FROM pauses")
    return int(rows[0][0])


def last_join(database: Path | str, game_id: str) -> int:
    """When the last seat of the game joined it (its clocks started)."""
    rows = sql(database, "SELECT MAX(joined) FROM seats WHERE game_id = :id", id=game_id)
    return int(rows[0][0])


def created_at(database: Path | str, game_id: str) -> int:
    rows = sql(database, "SELECT created_at FROM games WHERE id = :id", id=game_id)
    return int(rows[0][0])


# -- resign and abort ------------------------------------------------------------------------


def test_resigning_one_of_two_seats_ends_the_game_and_the_other_wins(client: TestClient) -> None:
    created = create(client)
    ann, bo = tokens(created)
    game_id = created["id"]
    answer = client.post(f"/api/games/{game_id}/resign", headers=bearer(bo))
    assert answer.status_code == 200, answer.text
    view = answer.json()
    assert view["seat"] == 1 and view["over"] is True and view["to_move"] is None
    assert view["end"] == {"reason": "resigned", "seat": 1, "winners": [0]}
    check_no_leak(view, 1, client)
    assert seat_view(client, game_id)["end"] == view["end"]
    again = client.post(f"/api/games/{game_id}/resign", headers=bearer(ann))
    assert again.status_code == 409 and "over" in again.json()["error"]
    move = client.post(
        f"/api/games/{game_id}/moves", json={"move": "pass", "turn": 0}, headers=bearer(ann)
    )
    assert move.status_code == 409
    record = client.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200 and "#seed" not in record.text
    lines = record.text.splitlines()
    assert "#left Bo resigned" in lines and lines[-1] == "# Bo resigned: Ann wins (Ann 0, Bo 0)"
    # The record reads back: the racks the game ended with, and how it ended.
    replayed = read_record(record.text)
    assert replayed.racks == tuple(server_truth(client, game_id)[0])
    assert replayed.end_view() == view["end"]


def test_resign_and_abort_need_a_seat_of_a_game(client: TestClient) -> None:
    created = create(client)
    game_id = created["id"]
    for action in ("resign", "abort"):
        assert client.post(f"/api/games/{game_id}/{action}").status_code == 401
        wrong = client.post(f"/api/games/{game_id}/{action}", headers=bearer("nope"))
        assert wrong.status_code == 401
        assert client.post(f"/api/games/nope/{action}", headers=bearer("x")).status_code == 404
    assert seat_view(client, game_id)["end"] is None


def test_a_seat_of_three_that_resigns_is_skipped_until_one_seat_is_left(
    client: TestClient,
) -> None:
    created = create(client, players=3)
    ann, bo, cy = tokens(created)
    game_id = created["id"]
    view = client.post(f"/api/games/{game_id}/resign", headers=bearer(ann)).json()
    assert view["end"] is None and view["over"] is False and view["to_move"] == 1
    assert [player["left"] for player in view["players"]] == ["resigned", None, None]
    played = client.post(
        f"/api/games/{game_id}/moves", json={"move": "pass", "turn": 0}, headers=bearer(bo)
    )
    assert played.status_code == 200, played.text
    assert seat_view(client, game_id)["to_move"] == 2
    assert (
        client.post(
            f"/api/games/{game_id}/moves", json={"move": "pass", "turn": 1}, headers=bearer(ann)
        ).status_code
        == 409
    )
    again = client.post(f"/api/games/{game_id}/resign", headers=bearer(ann))
    assert again.status_code == 409 and again.json()["error"] == "Ann has left the game"
    view = client.post(f"/api/games/{game_id}/resign", headers=bearer(cy)).json()
    assert view["end"] == {"reason": "resigned", "seat": 2, "winners": [1]}
    assert view["result"]["reason"] == "resigned" and view["over"] is True


def test_the_others_see_that_a_seat_of_three_resigned(client: TestClient) -> None:
    """Seat 1 of three resigns while seat 0 is to move: the other seats' views, the
    spectators' and the WebSocket's show it (``players[i].left``)."""
    created = create(client, players=3)
    game_id = created["id"]
    ann, bo, _cy = tokens(created)
    before_seat, before_spectator = seat_view(client, game_id, ann), seat_view(client, game_id)
    with client.websocket_connect(f"/api/games/{game_id}/live?token={ann}") as socket:
        assert socket.receive_json()["players"][1]["left"] is None
        resigned = client.post(f"/api/games/{game_id}/resign", headers=bearer(bo))
        assert resigned.status_code == 200, resigned.text
        heard = socket.receive_json()
    after_seat, after_spectator = seat_view(client, game_id, ann), seat_view(client, game_id)
    assert after_seat != before_seat and after_spectator != before_spectator
    for view in (after_seat, after_spectator, heard):
        assert [player["left"] for player in view["players"]] == [None, "resigned", None]
        assert view["end"] is None and view["to_move"] == 0


def test_abort_is_allowed_until_every_seat_has_moved_once(client: TestClient) -> None:
    created = create(client)
    ann, bo = tokens(created)
    game_id = created["id"]
    client.post(
        f"/api/games/{game_id}/moves", json={"move": "pass", "turn": 0}, headers=bearer(ann)
    )
    answer = client.post(f"/api/games/{game_id}/abort", headers=bearer(ann))
    assert answer.status_code == 200, answer.text
    assert answer.json()["end"] == {"reason": "aborted", "seat": 0, "winners": []}
    assert client.post(f"/api/games/{game_id}/abort", headers=bearer(bo)).status_code == 409

    later = create(client)
    ann, bo = tokens(later)
    for turn, token in enumerate((ann, bo)):
        moved = client.post(
            f"/api/games/{later['id']}/moves",
            json={"move": "pass", "turn": turn},
            headers=bearer(token),
        )
        assert moved.status_code == 200
    refused = client.post(f"/api/games/{later['id']}/abort", headers=bearer(ann))
    assert refused.status_code == 409
    assert "every player has moved once: resign instead" in refused.json()["error"]
    assert seat_view(client, later["id"])["end"] is None


def test_the_analysis_says_how_the_game_ended(client: TestClient) -> None:
    created, play = game_with_a_play(client)
    ann = tokens(created)[0]
    game_id = created["id"]
    client.post(f"/api/games/{game_id}/moves", json={"move": play, "turn": 0}, headers=bearer(ann))
    client.post(f"/api/games/{game_id}/resign", headers=bearer(ann))
    analysis = client.get(f"/api/games/{game_id}/analysis").json()
    assert analysis["end"] == {"reason": "resigned", "seat": 0, "winners": [1], "cause": None}


# -- clocks ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "clock",
    [
        {"kind": "live"},
        {"kind": "live", "seconds": 4},
        {"kind": "live", "seconds": 60, "overtime": 601},
        {"kind": "correspondence", "days": 15},
        {"kind": "correspondence", "days": 2, "seconds": 5},
        {"kind": "sudden"},
        "live",
    ],
)
def test_a_clock_outside_the_rules_gets_400_with_a_sentence(client: TestClient, clock: Any) -> None:
    answer = client.post(
        "/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}], "clock": clock}
    )
    assert answer.status_code == 400
    assert "clock" in answer.json()["error"]  # the clock's field, named in words or by its path


def test_views_carry_the_clock_as_of_the_moment_they_are_built(client: TestClient) -> None:
    untimed = create(client, clock={"kind": "untimed"})
    assert seat_view(client, untimed["id"])["clock"] is None
    created = create(client, clock={"kind": "live", "seconds": 600, "increment": 5})
    ann, bo = tokens(created)
    join_all(client, created)
    first = seat_view(client, created["id"], ann)
    clock = first["clock"]
    assert clock["kind"] == "live" and clock["running"] == 0
    assert clock["remaining_ms"][1] == 600_000 and 0 < clock["remaining_ms"][0] <= 600_000
    check_no_leak(first, 0, client)
    moved = client.post(
        f"/api/games/{created['id']}/moves", json={"move": "pass", "turn": 0}, headers=bearer(ann)
    )
    assert moved.status_code == 200
    after = seat_view(client, created["id"], bo)["clock"]
    assert after["running"] == 1 and after["remaining_ms"][0] > clock["remaining_ms"][0]
    days = create(client, clock={"kind": "correspondence", "days": 3})
    assert seat_view(client, days["id"])["clock"]["remaining_ms"][1] == 3 * 86_400_000


def test_a_live_clock_runs_out_with_nobody_connected(
    client: TestClient, database: Path | str
) -> None:
    created = create(client, clock=LIVE_5S)
    game_id = created["id"]
    passes(client, game_id, tokens(created))
    # Nobody asks anything of the game: the server settles it on its own.
    left = wait_for(lambda: stored_departures(database, game_id), "the clock to run out")
    assert left == [(0, "time", second_deadline(database, game_id, 5))]
    view = seat_view(client, game_id, tokens(created)[1])
    assert view["end"] == {"reason": "time", "seat": 0, "winners": [1]}
    clock = view["clock"]
    assert clock["running"] is None and clock["remaining_ms"][0] == 0
    assert 0 < clock["remaining_ms"][1] <= 5000
    check_no_leak(view, 1, client)
    refused = client.post(
        f"/api/games/{game_id}/moves",
        json={"move": "pass", "turn": 2},
        headers=bearer(tokens(created)[0]),
    )
    assert refused.status_code == 409


def test_a_seat_whose_time_runs_out_before_its_first_move_does_not_hand_a_win(
    client: TestClient, database: Path | str
) -> None:
    """Both open a 5-second game; Ann, first, never moves: the game ends aborted, nobody
    winning (INTERFACES.md §7 allows an abort until every seat has moved once)."""
    created = create(client, clock=LIVE_5S)
    game_id = created["id"]
    join_all(client, created)
    left = wait_for(lambda: stored_departures(database, game_id), "the clock to run out")
    assert left == [(0, "time-first-move", last_join(database, game_id) + 5000)]
    view = seat_view(client, game_id, tokens(created)[1])
    assert view["end"] == {"reason": "aborted", "seat": 0, "winners": [], "cause": "time"}
    assert view["result"]["reason"] == "aborted" and view["over"] is True
    check_no_leak(view, 1, client)


def test_a_second_seat_that_never_moved_does_not_hand_a_win_on_time(
    client: TestClient, database: Path | str
) -> None:
    created = create(client, clock=LIVE_5S)
    game_id = created["id"]
    join_all(client, created)
    passes(client, game_id, tokens(created)[:1])
    left = wait_for(lambda: stored_departures(database, game_id), "the clock to run out")
    assert left == [(1, "time-first-move", move_times(database, game_id)[0] + 5000)]
    end = seat_view(client, game_id)["end"]
    assert end == {"reason": "aborted", "seat": 1, "winners": [], "cause": "time"}


def test_a_rematch_does_not_force_a_running_clock_on_the_other_player(
    client: TestClient, database: Path | str
) -> None:
    """Ann asks for a rematch of a 5-second game; Bo, who now starts it, opens it and
    never moves: his time runs out before his first move and the rematch ends aborted, not
    won by Ann (test_web_ends.py: the rematch's clocks wait for both to open it)."""
    created = create(client, clock=LIVE_5S)
    game_id = created["id"]
    ann, bo = tokens(created)
    join_all(client, created)
    passes(client, game_id, [ann])
    resigned = client.post(f"/api/games/{game_id}/resign", headers=bearer(bo))
    assert resigned.status_code == 200, resigned.text
    rematch = client.post(f"/api/games/{game_id}/rematch", headers=bearer(ann))
    assert rematch.status_code == 201, rematch.text
    again = rematch.json()["id"]
    join_all(client, {"id": again, "seats": [{"token": bo}, {"token": ann}]})
    view = wait_for(
        lambda: (seen := seat_view(client, again))["over"] and seen, "the rematch's clock"
    )
    assert [player["name"] for player in view["players"]] == ["Bo", "Ann"]
    assert view["end"] == {"reason": "aborted", "seat": 0, "winners": [], "cause": "time"}
    assert stored_departures(database, again) == [
        (0, "time-first-move", last_join(database, again) + 5000)
    ]


def test_live_listeners_hear_of_a_clock_that_runs_out(client: TestClient) -> None:
    created = create(client, clock=LIVE_5S)
    bo = tokens(created)[1]
    game_id = created["id"]
    passes(client, game_id, tokens(created))
    with client.websocket_connect(f"/api/games/{game_id}/live?token={bo}") as socket:
        first = socket.receive_json()
        assert first["end"] is None and first["clock"]["running"] == 0
        ended = socket.receive_json()  # the next message is the end, sent on its own
    assert ended["end"] == {"reason": "time", "seat": 0, "winners": [1]}
    check_no_leak(ended, 1, client)


def test_overtime_costs_ten_points_a_started_minute(client: TestClient) -> None:
    created = create(client, clock={"kind": "live", "seconds": 5, "overtime": 120})
    ann, bo = tokens(created)
    game_id = created["id"]
    join_all(client, created)
    wait_for(
        lambda: seat_view(client, game_id, ann)["clock"]["remaining_ms"][0] < -100,
        "Ann to be in overtime",
    )
    moved = client.post(
        f"/api/games/{game_id}/moves", json={"move": "pass", "turn": 0}, headers=bearer(ann)
    )
    assert moved.status_code == 200, moved.text
    ended = client.post(f"/api/games/{game_id}/resign", headers=bearer(bo)).json()
    assert ended["end"] == {"reason": "resigned", "seat": 1, "winners": [0]}
    # Ann started one minute of overtime: 10 points off her final score (she scored 0).
    assert ended["result"]["final"] == [-10, 0]
    assert ended["clock"]["remaining_ms"][0] < 0 and ended["clock"]["running"] is None


def test_an_aborted_game_takes_no_overtime_penalty(client: TestClient) -> None:
    """Ann passes at once; Bo, in overtime before his first move, aborts: the game has no
    result, so his started minute of overtime costs him nothing (final scores and the
    penalties all zero), where a game played on would take 10 points."""
    created = create(client, clock={"kind": "live", "seconds": 5, "overtime": 120})
    ann, bo = tokens(created)
    game_id = created["id"]
    join_all(client, created)
    passes(client, game_id, [ann])
    wait_for(
        lambda: seat_view(client, game_id, bo)["clock"]["remaining_ms"][1] < -100,
        "Bo to be in overtime",
    )
    ended = client.post(f"/api/games/{game_id}/abort", headers=bearer(bo))
    assert ended.status_code == 200, ended.text
    view = seat_view(client, game_id, ann)
    assert view["end"] == {"reason": "aborted", "seat": 1, "winners": []}
    assert view["clock"]["remaining_ms"][1] < 0
    assert view["result"]["penalties"] == [0, 0]
    assert view["result"]["final"] == [0, 0]
    assert [player["score"] for player in view["players"]] == [0, 0]


def test_the_computer_does_not_lose_on_time_in_a_five_second_game(database: Path | str) -> None:
    """A person answers ``max`` at once (with the library's best play) in a 5-second live
    game on a real server: the computer keeps within the time it has left, so the game
    never ends by the computer's time running out (it thinks at most a share of its time
    left, and passes rather than run out). Bounded: 50 s of play."""
    with serving(database) as server, server.client() as client:
        players = [{"name": "Ann"}, {"name": "Hal", "computer": "max"}]
        answer = client.post("/api/games", json={"players": players, "clock": LIVE_5S})
        assert answer.status_code == 201, answer.text
        game_id, ann = answer.json()["id"], answer.json()["seats"][0]["token"]
        stop = time.monotonic() + 50
        view: dict[str, Any] = {}
        while time.monotonic() < stop:
            view = client.get(f"/api/games/{game_id}", headers=bearer(ann)).json()
            if view["over"]:
                break
            if view["to_move"] == 0:
                play = best_play(view) or "pass"
                client.post(
                    f"/api/games/{game_id}/moves",
                    headers=bearer(ann),
                    json={"move": play, "turn": view["turn"]},
                )
            else:
                time.sleep(0.05)
    end = view["end"]
    assert view["over"], f"the game did not end in 50 s: turn {view['turn']}, {view['clock']}"
    assert not (end and end["seat"] == 1 and end["reason"] in ("time", "aborted")), (
        f"the computer ran out of time at turn {view['turn']}: {end}, clock {view['clock']}"
    )


# -- across a restart --------------------------------------------------------------------------


def test_a_live_clock_runs_out_after_a_restart_by_the_time_the_server_was_down(
    database: Path | str,
) -> None:
    """The server stops before Ann's 5 seconds are out and starts after they would be: the
    time it was down counts against nobody, so her time runs out that much later."""
    with serving(database) as server, server.client() as client:
        created = create(client, clock=LIVE_5S)
        game_id = created["id"]
        passes(client, game_id, tokens(created))
    deadline = second_deadline(database, game_id, 5)
    wait_for(lambda: time.time() * 1000 > deadline, "five seconds")
    assert stored_departures(database, game_id) == []
    with serving(database):
        left = wait_for(lambda: stored_departures(database, game_id), "the settling")
    assert left == [(0, "time", deadline + downtime(database))]


def test_a_live_clock_set_before_a_restart_rings_after_it(database: Path | str) -> None:
    # The restart is a pause (the stop marks the process's heartbeat stopped): of Ann's
    # time, only the moments before the stop and after the start run, on PostgreSQL too,
    # where the process that starts at once after the stop knows that nobody was serving.
    seconds = 10
    with serving(database) as server, server.client() as client:
        created = create(client, clock={"kind": "live", "seconds": seconds})
        game_id = created["id"]
        passes(client, game_id, tokens(created))
    with serving(database) as server, server.client() as client:
        assert stored_departures(database, game_id) == []  # well before the time is out
        left = wait_for(lambda: stored_departures(database, game_id), "the clock to run out")
        view = client.get(f"/api/games/{game_id}").json()
    # One pause, from the stop (after Bo's pass) to the start: Ann loses none of her time.
    [(down_from, down_to)] = sql(database, "SELECT down_from, down_to FROM pauses")
    assert move_times(database, game_id)[-1] <= down_from < down_to
    assert left == [(0, "time", second_deadline(database, game_id, seconds) + downtime(database))]
    assert view["end"] == {"reason": "time", "seat": 0, "winners": [1]}


def test_a_correspondence_clock_runs_out_while_the_server_is_down(database: Path | str) -> None:
    with serving(database) as server, server.client() as client:
        created = create(client, clock={"kind": "correspondence", "days": 2})
        ann, bo = tokens(created)
        game_id = created["id"]
        passes(client, game_id, [ann, bo, ann])
    # Two days and a minute pass: the stored times of the moves move back, and the stored
    # deadline with them.
    shifted = (("moves", "at", "game_id"), ("games", "deadline", "id"))
    for table, column, key in (*shifted, ("seats", "joined", "game_id")):
        sql(
            database,
            f"UPDATE {table} SET {column} = {column} - :back WHERE {key} = :id",
            back=2 * 86_400_000 + 60_000,
            id=game_id,
        )
    moved_at = move_times(database, game_id)[-1]
    with serving(database) as server, server.client() as client:
        left = wait_for(lambda: stored_departures(database, game_id), "the settling")
        view = client.get(f"/api/games/{game_id}", headers=bearer(bo)).json()
    # The time ran out (in the moved times) a minute before the server stopped: the pause
    # that followed does not count.
    assert left == [(1, "time", moved_at + 2 * 86_400_000)]
    assert view["end"] == {"reason": "time", "seat": 1, "winners": [0]}


def test_open_timed_games_do_not_delay_the_servers_start(database: Path | str) -> None:
    """A server that starts takes up no game before it serves: the alarm asks the database
    for the deadlines coming up (one indexed query), and a game is loaded only when its
    time is near, when it is opened, or when its computer is to move (in the background).
    Here 1,000 open correspondence games far from their deadlines stay in the database
    while a live game whose time ran out is settled and a computer to move plays."""
    storage = Storage(database_url(str(database)))
    try:
        start = now_ms()
        waiting = []
        for _ in range(1000):
            seats = [
                SeatRecord(0, "Ann", None, "a" * 64, start),
                SeatRecord(1, "Bo", None, "b" * 64, start),
            ]
            clock = {"kind": "correspondence", "days": 14}
            waiting.append(new_game_id())
            storage.create_game(NewGame(waiting[-1], {}, new_seed(), seats, clock, start))
        people = [
            SeatRecord(0, "Ann", None, "a" * 64, start - 10_000),
            SeatRecord(1, "Bo", None, "b" * 64, start - 10_000),
        ]
        storage.create_game(NewGame("overdue", {}, "3", people, LIVE_5S, start - 10_000))
        robot = [SeatRecord(0, "Bot", "easy", None), SeatRecord(1, "Ann", None, "a" * 64)]
        storage.create_game(NewGame("computer", {}, "11", robot))
    finally:
        storage.close()
    with web_client(database) as client:
        server = client.app.state.server  # type: ignore[attr-defined]
        assert client.get("/api/games").status_code == 200
        left = wait_for(lambda: stored_departures(database, "overdue"), "the overdue clock")
        assert left == [(0, "time-first-move", start - 5000)]
        wait_for(lambda: stored_moves(database, ["computer"]) == 1, "the computer's move")
        loaded = set(server.table.active_games)
        assert loaded <= {"overdue", "computer"}, (
            f"{len(loaded - {'overdue', 'computer'})} games far from their deadlines were "
            "loaded as the server started"
        )
        # A waiting game opened is taken up then, its clock as stored.
        clock = seat_view(client, waiting[0])["clock"]
        assert clock["running"] == 0 and clock["remaining_ms"][0] > 13 * 86_400_000


def test_a_timed_game_stored_without_its_deadline_gets_one_as_the_server_starts(
    database: Path | str,
) -> None:
    """Timed games stored before deadlines were kept (their ``deadline`` null) are taken
    up in the background as the server starts: one whose time ran out is settled, the
    other gets its deadline stored, so the alarm finds it from then on."""
    with serving(database) as server, server.client() as client:
        late_game, waiting_game = (create(client, clock=LIVE_5S) for _ in range(2))
        join_all(client, late_game)
        join_all(client, waiting_game)
        late, waiting = late_game["id"], waiting_game["id"]
        days = create(client, clock={"kind": "correspondence", "days": 3})["id"]
    sql(database, "UPDATE games SET deadline = NULL")
    sql(database, "UPDATE games SET created_at = created_at - 60000 WHERE id = :id", id=late)
    sql(database, "UPDATE seats SET joined = joined - 60000 WHERE game_id = :id", id=late)
    with serving(database):
        left = wait_for(lambda: stored_departures(database, late), "the settling")
        assert left == [(0, "time-first-move", last_join(database, late) + 5000)]
        wait_for(lambda: stored_departures(database, waiting), "the other to be settled")

        def stored_deadline() -> int | None:
            value = sql(database, "SELECT deadline FROM games WHERE id = :id", id=days)[0][0]
            return None if value is None else int(value)

        deadline = wait_for(stored_deadline, "the deadline to be stored")
        # Nobody opened it: it is aborted three days (its whole time) after it was made,
        # the time the server was down not counted.
        assert deadline == created_at(database, days) + 3 * 86_400_000 + downtime(database)


def test_a_computer_to_move_plays_on_after_a_restart_by_itself(database: Path | str) -> None:
    with serving(database):
        pass  # the database now has its schema
    storage = Storage(database_url(str(database)))
    try:
        seats = [SeatRecord(0, "Bot", "easy", None), SeatRecord(1, "Ann", None, "hash")]
        storage.create_game(NewGame("waiting", {}, "11", seats))
    finally:
        storage.close()
    with serving(database):
        # Nobody opens the game: the computer moves all the same.
        wait_for(lambda: stored_moves(database, ["waiting"]) == 1, "the computer's move")


def test_new_game_helper_still_makes_untimed_games(client: TestClient) -> None:
    created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
    view = seat_view(client, created["id"])
    assert view["clock"] is None and view["end"] is None and view["over"] is False
