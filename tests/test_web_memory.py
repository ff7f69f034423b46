"""The web app's memory of games: the in-memory game table is bounded (the least recently
used game that nothing is using is let go and reloaded from the database on its next use),
and a cached game is reloaded when another process on the same database moved it on."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient
from serve_known_bags import naming_headers
from web_api_support import bearer, best_play, new_game, seat_view, serving

from binscrabble.cli import main
from binscrabble.rules import Rules
from binscrabble.web.active_games import DEFAULT_MAX_GAMES, GameTable
from binscrabble.web.app import create_app
from binscrabble.web.storage import SeatRecord, Storage

TWO_PEOPLE = [{"name": "Ann"}, {"name": "Bo"}]


@contextmanager
def app_client(database: Path, **options: Any) -> Iterator[TestClient]:
    """A test client of an app on ``database`` built with ``options``."""
    with TestClient(create_app(str(database), workers=1, **options)) as client:
        yield client


def tokens_of(created: dict[str, Any]) -> list[str]:
    return [seat["token"] for seat in created["seats"] if seat.get("token")]


def play_turn(client: TestClient, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """Play the seat to move's best placement, else exchange its rack; the answer."""
    view = seat_view(client, game_id)
    token = tokens[view["to_move"]]
    own = seat_view(client, game_id, token)
    move = best_play(own) or f"exchange {own['rack']}"
    answer = client.post(
        f"/api/games/{game_id}/moves",
        json={"move": move, "turn": own["turn"]},
        headers=bearer(token),
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def every_view(client: TestClient, game_id: str, tokens: list[str]) -> list[dict[str, Any]]:
    """The spectator's view, then each seat's."""
    return [seat_view(client, game_id)] + [seat_view(client, game_id, t) for t in tokens]


def test_a_second_process_sees_the_first_ones_moves_on_its_next_read(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    with app_client(database) as first, app_client(database) as second:
        created = new_game(first, TWO_PEOPLE)
        game_id, tokens = created["id"], tokens_of(created)
        for _ in range(2):
            play_turn(first, game_id, tokens)
        assert seat_view(second, game_id)["turn"] == 2  # the second process holds it now
        for _ in range(7):
            play_turn(first, game_id, tokens)
        assert seat_view(second, game_id)["turn"] == 9
        assert every_view(second, game_id, tokens) == every_view(first, game_id, tokens)

        # A preview and a submission on the second process judge the game as stored.
        own = seat_view(first, game_id, tokens[1])
        move = best_play(own) or f"exchange {own['rack']}"
        preview = second.post(
            f"/api/games/{game_id}/preview", json={"move": move}, headers=bearer(tokens[1])
        )
        assert preview.status_code == 200 and preview.json()["legal"] is True, preview.text
        answer = second.post(
            f"/api/games/{game_id}/moves",
            json={"move": move, "turn": 9},
            headers=bearer(tokens[1]),
        )
        assert answer.status_code == 200, answer.text
        # And the first process, on its next read, sees the second one's move.
        with first.websocket_connect(f"/api/games/{game_id}/live") as socket:
            assert socket.receive_json()["turn"] == 10
        assert every_view(first, game_id, tokens) == every_view(second, game_id, tokens)


def test_a_submission_to_a_process_whose_copy_is_behind_is_judged_as_stored(
    tmp_path: Path,
) -> None:
    """A submission reads no progress first: a refusal on a copy that is behind asks the
    database, and the move is judged again on the game as stored."""
    database = tmp_path / "games.db"
    with app_client(database) as first, app_client(database) as second:
        created = new_game(first, TWO_PEOPLE)
        game_id, tokens = created["id"], tokens_of(created)
        play_turn(first, game_id, tokens)
        assert seat_view(second, game_id)["turn"] == 1  # the second process holds it now
        for _ in range(2):
            play_turn(first, game_id, tokens)
        own = seat_view(first, game_id, tokens[1])
        move = best_play(own) or f"exchange {own['rack']}"
        answer = second.post(
            f"/api/games/{game_id}/moves", json={"move": move, "turn": 3}, headers=bearer(tokens[1])
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["turn"] == 4
        stale = second.post(
            f"/api/games/{game_id}/moves",
            json={"move": "pass", "turn": 3},
            headers=bearer(tokens[1]),
        )
        assert stale.status_code == 409, stale.text
        assert every_view(first, game_id, tokens) == every_view(second, game_id, tokens)


def test_a_rematch_made_by_another_process_is_seen(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    with app_client(database) as first, app_client(database) as second:
        created = new_game(first, TWO_PEOPLE)
        game_id, tokens = created["id"], tokens_of(created)
        for turn in range(6):
            answer = first.post(
                f"/api/games/{game_id}/moves",
                json={"move": "pass", "turn": turn},
                headers=bearer(tokens[turn % 2]),
            )
            assert answer.status_code == 200, answer.text
        assert seat_view(second, game_id)["over"] is True
        again = first.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[0]))
        assert again.status_code == 201, again.text
        assert seat_view(second, game_id)["rematch"] == again.json()["id"]


def held(client: TestClient) -> OrderedDict[str, Any]:
    """The games the app holds in memory."""
    return client.app.state.server.table.active_games  # type: ignore[attr-defined, no-any-return]


def test_the_game_table_stays_within_its_bound_and_let_go_games_come_back(
    tmp_path: Path,
) -> None:
    with app_client(tmp_path / "games.db", max_games=3) as client:
        created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}])
        game_id, tokens = created["id"], tokens_of(created)
        for _ in range(7):
            play_turn(client, game_id, tokens)
        before = every_view(client, game_id, tokens)
        against = new_game(client, [{"name": "Di"}, {"name": "Hal", "computer": "beginner"}])
        computer_game = every_view(client, against["id"], tokens_of(against))
        for _ in range(8):
            other = new_game(client, TWO_PEOPLE)
            seat_view(client, other["id"], tokens_of(other)[1])
            assert len(held(client)) <= 3
        assert game_id not in held(client) and against["id"] not in held(client)
        assert every_view(client, game_id, tokens) == before
        assert every_view(client, against["id"], tokens_of(against)) == computer_game
        assert len(held(client)) <= 3
        # The game goes on where it was: the next turn is played and counted.
        assert play_turn(client, game_id, tokens)["turn"] == 8


def test_a_game_with_a_websocket_listening_is_never_let_go(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.db", max_games=2) as client:
        watched = new_game(client, TWO_PEOPLE)["id"]
        with client.websocket_connect(f"/api/games/{watched}/live") as socket:
            socket.receive_json()
            held_game = held(client)[watched]
            for _ in range(5):
                new_game(client, TWO_PEOPLE)
                assert len(held(client)) <= 2
            assert held(client)[watched] is held_game
        # Once its socket closed, it is an ordinary game again.
        for _ in range(2):
            new_game(client, TWO_PEOPLE)
        assert watched not in held(client) and len(held(client)) == 2


def test_games_in_use_stay_and_the_table_shrinks_back_once_they_are_let_go() -> None:
    storage = Storage("sqlite://")
    pinned: set[str] = set()
    table = GameTable(storage, max_games=2, in_use=pinned.__contains__)
    seats = [SeatRecord(0, "Ann", None, "h0"), SeatRecord(1, "Bo", None, "h1")]
    rules = Rules.preset("standard")

    async def scenario() -> None:
        first = await table.create_with_seats(seats, rules)
        second = await table.create_with_seats(seats, rules)
        pinned.add(second.game_id)
        async with first.lock:  # a submission under way
            third = await table.create_with_seats(seats, rules)
            # Every game is in use (the third one just opened): none is let go.
            assert list(table.active_games) == [first.game_id, second.game_id, third.game_id]
            fourth = await table.create_with_seats(seats, rules)
            assert set(table.active_games) == {first.game_id, second.game_id, fourth.game_id}
        table.trim()
        assert set(table.active_games) == {second.game_id, fourth.game_id}
        again = await table.get(first.game_id)
        assert again is not first and again.stored == first.stored
        assert len(table.active_games) == 2 and second.game_id in table.active_games

    try:
        asyncio.run(scenario())
    finally:
        storage.close()


def test_serve_help_names_the_default_bound(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--help"])
    assert stop.value.code == 0
    assert f"(default: {DEFAULT_MAX_GAMES})" in " ".join(capsys.readouterr().out.split())


def test_two_serve_processes_on_one_postgresql_tell_their_websockets(postgres_url: str) -> None:
    # (On SQLite a second serve on the same file is refused: test_web_hostile_requests.py.)
    with serving(postgres_url) as first, serving(postgres_url) as second:
        asyncio.run(news_of_the_other_process(first.url, second.url))


async def news_of_the_other_process(first: str, second: str) -> None:
    """A WebSocket of the second process hears of the first one's moves, at the latest at
    the next read of the game in the second process."""
    named = naming_headers()
    async with (
        httpx.AsyncClient(base_url=first, trust_env=False, timeout=30, headers=named) as one,
        httpx.AsyncClient(base_url=second, trust_env=False, timeout=30, headers=named) as two,
    ):
        created = (await one.post("/api/games", json={"players": TWO_PEOPLE})).json()
        game_id, tokens = created["id"], tokens_of(created)
        url = f"{second.replace('http', 'ws', 1)}/api/games/{game_id}/live"
        async with websockets.connect(url, proxy=None) as socket:
            assert json.loads(await asyncio.wait_for(socket.recv(), 30))["turn"] == 0
            for turn in range(2):
                answer = await one.post(
                    f"/api/games/{game_id}/moves",
                    json={"move": "pass", "turn": turn},
                    headers=bearer(tokens[turn % 2]),
                )
                assert answer.status_code == 200, answer.text
            assert (await two.get(f"/api/games/{game_id}")).json()["turn"] == 2
            # PostgreSQL tells each move at once (turn 1, then 2); the read tells the last.
            heard = [json.loads(await asyncio.wait_for(socket.recv(), 30))["turn"]]
            while heard[-1] != 2 and len(heard) < 3:
                heard.append(json.loads(await asyncio.wait_for(socket.recv(), 30))["turn"])
            assert heard[-1] == 2
