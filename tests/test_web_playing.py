"""The games being played now (``GET /api/games``, web/playing.py): listed from their first
move, most recently moved first, at most 30, gone once over; each entry is what a spectator
sees (names, computer levels, scores, turn) and its address, and never a token, a rack,
the bag or its seed."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_api_support import (
    bearer,
    from_address,
    new_game,
    seat_view,
    server_truth,
    web_client,
)

from binscrabble.web.playing import LISTED, PER_CLIENT, SHARED_SECONDS

ENTRY_KEYS = {"id", "url", "players", "to_move", "turn", "idle_seconds"}
PLAYER_KEYS = {"name", "computer", "score"}


@pytest.fixture
def client(any_database: Path | str) -> Any:
    with web_client(any_database) as test_client:
        yield test_client


def playing(client: TestClient) -> list[dict[str, Any]]:
    answer = client.get("/api/games")
    assert answer.status_code == 200, answer.text
    assert set(answer.json()) == {"games"}
    games: list[dict[str, Any]] = answer.json()["games"]
    return games


def pass_once(client: TestClient, created: dict[str, Any]) -> None:
    """The seat to move of a game of people passes."""
    view = seat_view(client, created["id"])
    token = created["seats"][view["to_move"]]["token"]
    answer = client.post(
        f"/api/games/{created['id']}/moves",
        json={"move": "pass", "turn": view["turn"]},
        headers=bearer(token),
    )
    assert answer.status_code == 200, answer.text


def test_games_are_listed_from_their_first_move_most_recent_first(client: TestClient) -> None:
    games = [new_game(client, [{"name": "Ann"}, {"name": f"Bo{number}"}]) for number in range(3)]
    assert playing(client) == []  # no game has moved yet
    for number in (0, 1, 2, 0):
        pass_once(client, games[number])
    listed = playing(client)
    assert [entry["id"] for entry in listed] == [games[0]["id"], games[2]["id"], games[1]["id"]]
    for entry in listed:
        view = seat_view(client, entry["id"])
        assert set(entry) == ENTRY_KEYS
        assert entry["url"] == f"/games/{entry['id']}"
        assert entry["players"] == [
            {"name": player["name"], "computer": player["computer"], "score": player["score"]}
            for player in view["players"]
        ]
        assert (entry["to_move"], entry["turn"]) == (view["to_move"], view["turn"])
        assert 0 <= entry["idle_seconds"] <= 60
    # The spectator's page the entry links to is there.
    assert client.get(listed[0]["url"]).status_code == 200


def test_a_game_over_leaves_the_list(client: TestClient) -> None:
    ended, going = (new_game(client, [{"name": "Ann"}, {"name": "Bo"}]) for _ in range(2))
    pass_once(client, going)
    for _ in range(6):  # six scoreless turns end a game
        pass_once(client, ended)
        if seat_view(client, ended["id"])["over"] is False:
            assert playing(client)[0]["id"] == ended["id"]
    assert seat_view(client, ended["id"])["over"] is True
    assert [entry["id"] for entry in playing(client)] == [going["id"]]


def test_a_resigned_game_leaves_the_list(client: TestClient) -> None:
    created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
    pass_once(client, created)
    assert [entry["id"] for entry in playing(client)] == [created["id"]]
    token = created["seats"][0]["token"]
    answer = client.post(f"/api/games/{created['id']}/resign", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    assert playing(client) == []


def test_the_list_holds_the_most_recent_games_only(client: TestClient) -> None:
    games = []
    for number in range(LISTED + 2):  # each from its own address
        with from_address(client, f"10.0.0.{number + 1}"):
            games.append(new_game(client, [{"name": "Ann"}, {"name": "Bo"}]))
    for created in games:
        pass_once(client, created)
    listed = [entry["id"] for entry in playing(client)]
    assert listed == [created["id"] for created in reversed(games[2:])]
    # A game let go comes back on top with its next move.
    pass_once(client, games[0])
    assert [entry["id"] for entry in playing(client)][:2] == [games[0]["id"], games[-1]["id"]]
    assert len(playing(client)) == LISTED


def test_one_client_cannot_push_every_other_game_off_the_lobby_list(client: TestClient) -> None:
    """Audit finding: within the default limits (30 games and 120 moves a minute) one client
    made 30 games and passed once in each, and the whole list was its games: a game others
    played a moment before was gone from the lobby. At most PER_CLIENT games of one
    creating address are listed, its most recently moved."""
    with from_address(client, "10.0.0.1"):
        real = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
        pass_once(client, real)
    assert [entry["id"] for entry in playing(client)] == [real["id"]]
    with from_address(client, "10.0.0.66"):
        junk = [
            new_game(client, [{"name": f"visit spam.example {number}"}, {"name": "buy now"}])
            for number in range(30)
        ]
        for created in junk:
            pass_once(client, created)
    listed = [entry["id"] for entry in playing(client)]
    assert listed == [created["id"] for created in reversed(junk[-PER_CLIENT:])] + [real["id"]]
    # An older game of that address comes back with its next move, in place of its oldest.
    pass_once(client, junk[0])
    listed = [entry["id"] for entry in playing(client)]
    assert listed == [junk[0]["id"], junk[-1]["id"], junk[-2]["id"], real["id"]]


def test_games_with_only_computers_left_to_play_are_not_listed(client: TestClient) -> None:
    """A game whose only person resigned plays on among its computers, moving by itself:
    it is not listed (it would go to the top with every computer move)."""
    created = new_game(
        client,
        [
            {"name": "Ann"},
            {"name": "Hal", "computer": "beginner"},
            {"name": "Ivy", "computer": "beginner"},
        ],
    )
    pass_once(client, created)
    assert [entry["id"] for entry in playing(client)] == [created["id"]]
    token = created["seats"][0]["token"]
    assert (
        client.post(f"/api/games/{created['id']}/resign", headers=bearer(token)).status_code == 200
    )
    for _ in range(600):  # the computers play on (at most 60 s)
        if seat_view(client, created["id"])["turn"] >= 4:
            break
        time.sleep(0.1)
    assert seat_view(client, created["id"])["turn"] >= 4
    assert playing(client) == []


def test_a_computer_game_is_listed_with_its_level_and_nothing_secret(client: TestClient) -> None:
    created = new_game(client, [{"name": "Hal", "computer": "beginner"}, {"name": "Ann"}])
    for _ in range(600):  # the computer moves first (at most 60 s)
        if seat_view(client, created["id"])["turn"] >= 1:
            break
        time.sleep(0.1)
    people = new_game(client, [{"name": "Cy"}, {"name": "Di"}, {"name": "Ed"}])
    pass_once(client, people)
    listed = playing(client)
    entry = next(entry for entry in listed if entry["id"] == created["id"])
    assert [(player["name"], player["computer"]) for player in entry["players"]] == [
        ("Hal", "beginner"),
        ("Ann", None),
    ]
    text = json.dumps(listed)
    for game in (created, people):
        racks, seed, bag = server_truth(client, game["id"])
        assert seed not in text
        assert "".join(bag) not in text and "".join(reversed(bag)) not in text
        assert all(rack not in text for rack in racks if len(rack) >= 5)
        for seat in game["seats"]:
            assert seat.get("token") is None or seat["token"] not in text
    for entry in listed:
        assert set(entry) == ENTRY_KEYS
        assert all(set(player) == PLAYER_KEYS for player in entry["players"])


def test_the_list_is_documented(client: TestClient) -> None:
    description = client.get("/openapi.json").json()
    answer = description["paths"]["/api/games"]["get"]["responses"]["200"]
    schema = answer["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert set(description["components"]["schemas"][schema]["properties"]) == {"games"}


def test_each_process_of_a_shared_database_lists_the_games_played_through_the_others(
    postgres_url: str,
) -> None:
    """docs/deploy.md, "Several processes": the list is read from the database, so a game
    played through one process is listed by the other, with its scores and turn."""
    with web_client(postgres_url) as here, web_client(postgres_url) as there:
        created = new_game(here, [{"name": "Ann"}, {"name": "Bo"}])
        pass_once(here, created)
        listed = playing(there)
        assert [entry["id"] for entry in listed] == [created["id"]]
        assert listed == playing(here)
        assert (listed[0]["turn"], listed[0]["to_move"]) == (1, 1)
        # A game over leaves the other's list too (once its list is read again).
        token = created["seats"][1]["token"]
        resigned = here.post(f"/api/games/{created['id']}/resign", headers=bearer(token))
        assert resigned.status_code == 200, resigned.text
        time.sleep(SHARED_SECONDS)
        assert playing(there) == []
