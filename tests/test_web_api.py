"""The web API (INTERFACES.md §5 and docs/web.md) through FastAPI's TestClient: every
endpoint, every bad input, token checks, rematches, records and analysis."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_api_support import (
    bearer,
    game_with_a_play,
    new_game,
    seat_view,
    server_truth,
    web_client,
)

from binscrabble.web.storage import Storage, database_url

TWO_PEOPLE = [{"name": "Ann"}, {"name": "Bo"}]


@pytest.fixture
def database(any_database_full: Path | str) -> Path | str:
    # The API's PostgreSQL run is in `make test-full` (tests/conftest.py).
    return any_database_full


@pytest.fixture
def client(database: Path | str) -> Any:
    with web_client(database) as test_client:
        yield test_client


def tokens_of(created: dict[str, Any]) -> list[str]:
    return [seat["token"] for seat in created["seats"]]


def test_meta_describes_levels_presets_switches_tiles_and_premiums(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert [level["name"] for level in meta["levels"]] == [
        "beginner",
        "easy",
        "medium",
        "hard",
        "max",
    ]
    assert meta["presets"]["learning"]["identity_chains"] is True
    assert meta["presets"]["expert"]["identity_times_one"] is False
    switches = {switch["name"]: switch for switch in meta["switches"]}
    assert switches["xor_tiles"] | {"explanation": ""} == {
        "name": "xor_tiles",
        "default": 0,
        "type": "int",
        "min": 0,
        "max": 20,
        "explanation": "",
    }
    assert switches["precedence"]["choices"] == ["standard", "left-to-right"]
    assert all(switch["explanation"].endswith(".") for switch in meta["switches"])
    assert meta["tiles"]["/"] == {"points": 4, "label": "÷", "count": 2}
    assert sum(tile["count"] for tile in meta["tiles"].values()) == 100
    assert meta["premiums"]["H8"] == "double word"
    assert meta["premiums"]["A1"] == "triple word"
    assert meta["premiums"]["D8"] == "double letter"
    assert len(meta["premiums"]) == 8 + 17 + 12 + 24


def test_create_gives_tokens_and_invite_urls_to_people_only(client: TestClient) -> None:
    created = new_game(client, [{"name": "Ann"}, {"name": "Bot", "computer": "medium"}])
    person, computer = created["seats"]
    assert person["seat"] == 0 and person["name"] == "Ann"
    assert person["url"] == f"/games/{created['id']}?token={person['token']}"
    assert len(person["token"]) >= 32
    assert computer == {"seat": 1, "name": "Bot", "computer": "medium"}


def test_tokens_are_stored_only_as_hashes(client: TestClient, database: Path) -> None:
    created = new_game(client, TWO_PEOPLE)
    storage = Storage(database_url(str(database)))
    stored = storage.load_game(created["id"])
    storage.close()
    assert stored is not None
    for seat, token in zip(stored.seats, tokens_of(created), strict=True):
        assert seat.token_hash is not None and token not in seat.token_hash
        assert len(seat.token_hash) == 64


def test_spectator_and_seat_views(client: TestClient) -> None:
    created = new_game(client, TWO_PEOPLE, {"preset": "expert", "xor_tiles": 2})
    spectator = seat_view(client, created["id"])
    assert "rack" not in spectator and "seat" not in spectator
    assert spectator["rules"]["identity_times_one"] is False
    assert spectator["rules"]["xor_tiles"] == 2
    assert spectator["board"] == ["." * 15] * 15
    assert spectator["players"] == [
        {"name": "Ann", "score": 0, "computer": None, "tiles": 9, "left": None},
        {"name": "Bo", "score": 0, "computer": None, "tiles": 9, "left": None},
    ]
    assert (spectator["to_move"], spectator["turn"], spectator["bag"]) == (0, 0, 102 - 18)
    assert spectator["moves"] == [] and spectator["over"] is False
    assert len(spectator["unseen"]) == 102
    first = seat_view(client, created["id"], tokens_of(created)[1])
    racks, _, _ = server_truth(client, created["id"])
    assert first["seat"] == 1 and first["rack"] == racks[1]
    assert len(first["unseen"]) == 102 - 9


def test_a_whole_move_its_score_and_the_log(client: TestClient) -> None:
    created, play = game_with_a_play(client)
    ann = tokens_of(created)[0]
    preview = client.post(
        f"/api/games/{created['id']}/preview", json={"move": play}, headers=bearer(ann)
    ).json()
    assert preview["legal"] is True and preview["reason"] is None
    assert preview["score"] == sum(run["score"] for run in preview["runs"]) + preview["bingo"]
    for run in preview["runs"]:
        assert int(run["binary"], 2) == run["value"]
    answer = client.post(
        f"/api/games/{created['id']}/moves", json={"move": play, "turn": 0}, headers=bearer(ann)
    )
    assert answer.status_code == 200
    assert answer.json() == {
        "turn": 1,
        "notation": preview["notation"],
        "display": preview["display"],
        "score": preview["score"],
    }
    after = seat_view(client, created["id"])
    assert after["turn"] == 1 and after["to_move"] == 1
    assert after["players"][0]["score"] == preview["score"]
    assert after["moves"][0]["notation"] == preview["notation"]
    assert after["moves"][0]["running"] == [preview["score"], 0]
    assert after["last_move"] == {"seat": 0, "squares": after["moves"][0]["squares"]}
    assert after["board"][7] != "." * 15


def test_moves_may_be_sent_as_placed_tiles(client: TestClient) -> None:
    created, play = game_with_a_play(client)
    ann = tokens_of(created)[0]
    preview = client.post(
        f"/api/games/{created['id']}/preview", json={"move": play}, headers=bearer(ann)
    ).json()
    squares = preview["runs"][0]["squares"]
    faces = preview["runs"][0]["text"]
    tiles = [{"square": sq, "face": face} for sq, face in zip(squares, faces, strict=True)]
    as_tiles = client.post(
        f"/api/games/{created['id']}/preview", json={"tiles": tiles}, headers=bearer(ann)
    ).json()
    if "?" not in seat_view(client, created["id"], ann)["rack"]:
        assert as_tiles == preview
    scattered = [{"square": "A1", "face": "1"}, {"square": "O15", "face": "1"}]
    refused = client.post(
        f"/api/games/{created['id']}/preview", json={"tiles": scattered}, headers=bearer(ann)
    ).json()
    assert refused["legal"] is False and refused["reason"]


def test_an_illegal_preview_gives_the_referees_reason(client: TestClient) -> None:
    created = new_game(client, TWO_PEOPLE)
    ann = tokens_of(created)[0]
    answer = client.post(
        f"/api/games/{created['id']}/preview", json={"move": "8A 1=1"}, headers=bearer(ann)
    ).json()
    assert answer["legal"] is False and answer["score"] is None
    assert "centre square H8" in answer["reason"] or "rack" in answer["reason"]
    unreadable = client.post(
        f"/api/games/{created['id']}/preview", json={"move": "8Z 1=1"}, headers=bearer(ann)
    ).json()
    assert unreadable["legal"] is False and "cannot be read" in unreadable["reason"]


def post_move(client: TestClient, game_id: str, body: Any, token: str | None = None) -> Any:
    headers = bearer(token) if token else {}
    if isinstance(body, bytes):
        headers["Content-Type"] = "application/json"
        return client.post(f"/api/games/{game_id}/moves", content=body, headers=headers)
    return client.post(f"/api/games/{game_id}/moves", json=body, headers=headers)


BAD_MOVES = [
    pytest.param(b'{"move": "pass", "turn": 0', 0, 400, "not valid JSON", id="malformed JSON"),
    pytest.param({"move": "pass", "turn": 0, "seat": 1}, 0, 400, "unknown field", id="unknown"),
    pytest.param({"move": "pass"}, 0, 400, "lacks the field 'turn'", id="no turn"),
    pytest.param({"move": "pass", "turn": "0"}, 0, 400, "turn", id="turn as text"),
    pytest.param({"move": 7, "turn": 0}, 0, 400, "move", id="move as number"),
    pytest.param({"move": "8Q 1", "turn": 0}, 0, 400, "cannot be read", id="bad notation"),
    pytest.param({"turn": 0}, 0, 400, "either as 'move'", id="neither move nor tiles"),
    pytest.param({"move": "pass", "turn": 0}, None, 401, "token", id="no token"),
    pytest.param({"move": "pass", "turn": 0}, "forged", 401, "token", id="wrong token"),
    pytest.param({"move": "pass", "turn": 0}, 1, 409, "Ann's turn", id="out of turn"),
    pytest.param({"move": "pass", "turn": 3}, 0, 409, "not the current turn", id="stale turn"),
    pytest.param({"move": "8A 1=1", "turn": 0}, 0, 422, "illegal move", id="illegal"),
    pytest.param({"move": "-", "turn": 0, "tiles": []}, 0, 400, "either", id="move and tiles"),
]


@pytest.mark.parametrize(("body", "who", "status", "words"), BAD_MOVES)
def test_bad_moves_get_their_status_and_change_nothing(
    client: TestClient, body: Any, who: Any, status: int, words: str
) -> None:
    created = new_game(client, TWO_PEOPLE)
    game_id = created["id"]
    token = tokens_of(created)[who] if isinstance(who, int) else who
    before = [seat_view(client, game_id, token) for token in tokens_of(created)]
    answer = post_move(client, game_id, body, token)
    assert answer.status_code == status
    assert set(answer.json()) == {"error"}
    assert words in answer.json()["error"]
    after = [seat_view(client, game_id, token) for token in tokens_of(created)]
    assert after == before


def test_unknown_games_get_404(client: TestClient) -> None:
    for answer in [
        client.get("/api/games/nothing-here"),
        post_move(client, "nothing-here", {"move": "pass", "turn": 0}, "x"),
        client.post("/api/games/nothing-here/preview", json={"move": "pass"}),
        client.get("/api/games/nothing-here/record"),
        client.get("/api/games/" + "x" * 200),
    ]:
        assert answer.status_code == 404
        assert "no game" in answer.json()["error"]


def test_oversized_bodies_get_413(client: TestClient) -> None:
    created = new_game(client, TWO_PEOPLE)
    big = {"move": "pass", "turn": 0, "pad": "x" * (64 * 1024)}
    answer = post_move(client, created["id"], big, tokens_of(created)[0])
    assert answer.status_code == 413 and "KiB" in answer.json()["error"]

    def chunks() -> Any:
        for _ in range(70):
            yield b" " * 1024

    streamed = client.post(
        "/api/games", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert streamed.status_code == 413
    assert seat_view(client, created["id"])["turn"] == 0


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"players": [{"name": "Ann"}]}, "holds 1, at least 2"),
        ({"players": [{"name": f"P{n}"} for n in range(5)]}, "holds 5, at most 4"),
        (
            {"players": [{"name": "Ann"}, {"name": "Bot", "computer": "god"}]},
            "takes one of 'beginner'",
        ),
        ({"players": TWO_PEOPLE, "rules": {"gravity": True}}, "unknown field 'rules.gravity'"),
        ({"players": TWO_PEOPLE, "rules": {"xor_tiles": 99}}, "xor_tiles"),
        (
            {"players": TWO_PEOPLE, "rules": {"preset": "chaos"}},
            "'standard', 'expert', not 'chaos'",
        ),
        ({"players": [{"name": "Ann"}, {"name": "Ann"}]}, "name of their own"),
        ({"players": [{"name": "Ann"}, {"name": "B\no"}]}, "no line break"),
        ({"players": [{"name": "Ann"}, {"name": ""}]}, "player 2's name"),
        ({"players": TWO_PEOPLE, "colour": "red"}, "unknown field 'colour'"),
        ({}, "players"),
    ],
)
def test_bad_new_games_get_400(client: TestClient, body: Any, words: str) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400
    assert words in answer.json()["error"]


def test_a_wrong_authorization_header_gets_401(client: TestClient) -> None:
    created = new_game(client, TWO_PEOPLE)
    for header in ["Basic abc", "Bearer", "Bearer " + "x" * 43]:
        answer = client.get(f"/api/games/{created['id']}", headers={"Authorization": header})
        assert answer.status_code == 401
    other = new_game(client, TWO_PEOPLE)
    foreign = client.get(f"/api/games/{created['id']}", headers=bearer(tokens_of(other)[0]))
    assert foreign.status_code == 401
    preview = client.post(f"/api/games/{created['id']}/preview", json={"move": "pass"})
    assert preview.status_code == 401


def test_the_websocket_sends_the_view_on_connect_and_after_each_move(client: TestClient) -> None:
    created = new_game(client, TWO_PEOPLE)
    game_id = created["id"]
    ann, bo = tokens_of(created)
    with (
        client.websocket_connect(f"/api/games/{game_id}/live?token={ann}") as seat_socket,
        client.websocket_connect(f"/api/games/{game_id}/live") as watcher,
    ):
        assert seat_socket.receive_json() == seat_view(client, game_id, ann)
        assert watcher.receive_json() == seat_view(client, game_id)
        assert post_move(client, game_id, {"move": "pass", "turn": 0}, ann).status_code == 200
        assert seat_socket.receive_json() == seat_view(client, game_id, ann)
        assert watcher.receive_json()["turn"] == 1
        assert post_move(client, game_id, {"move": "pass", "turn": 1}, bo).status_code == 200
        assert watcher.receive_json() == seat_view(client, game_id)


def test_the_websocket_refuses_unknown_games_and_wrong_tokens(client: TestClient) -> None:
    created = new_game(client, TWO_PEOPLE)
    for address, code in [
        ("/api/games/nothing-here/live", 4404),
        (f"/api/games/{created['id']}/live?token=forged", 4401),
    ]:
        with (
            client.websocket_connect(address) as socket,
            pytest.raises(WebSocketDisconnect) as closed,
        ):
            socket.receive_json()
        assert closed.value.code == code


def race(client: TestClient, game_id: str, token: str) -> list[int]:
    """Two threads submit a pass for turn 0 at the same moment; their statuses."""
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def submit() -> None:
        barrier.wait()
        answer = post_move(client, game_id, {"move": "pass", "turn": 0}, token)
        statuses.append(answer.status_code)

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def test_two_submissions_for_one_turn_apply_exactly_one(client: TestClient) -> None:
    for _ in range(25):
        created = new_game(client, TWO_PEOPLE)
        assert sorted(race(client, created["id"], tokens_of(created)[0])) == [200, 409]
        view = seat_view(client, created["id"])
        assert view["turn"] == 1 and len(view["moves"]) == 1


def test_two_servers_on_one_database_never_both_apply_a_turn(database: Path) -> None:
    with web_client(database) as first, web_client(database) as second:
        for round_number in range(10):
            created = new_game(first, TWO_PEOPLE)
            ann = tokens_of(created)[0]
            seat_view(second, created["id"])  # both servers hold the game in memory
            answers = [
                post_move(server, created["id"], {"move": "pass", "turn": 0}, ann)
                for server in ((first, second) if round_number % 2 else (second, first))
            ]
            assert sorted(answer.status_code for answer in answers) == [200, 409]
            storage = Storage(database_url(str(database)))
            assert storage.move_count(created["id"]) == 1
            storage.close()


def test_the_pages_and_their_files_are_served(client: TestClient) -> None:
    for address in ["/", "/games/any-id", "/games/any-id/analysis", "/viewer"]:
        page = client.get(address)
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        scripts = re.findall(r'src="(/static/[^"]+\.js)"', page.text)
        assert scripts, f"{address} loads no script"
        for script in scripts:
            served = client.get(script)
            assert served.status_code == 200
            assert "javascript" in served.headers["content-type"]
    missing = client.get("/static/nothing.js")
    assert missing.status_code == 404 and set(missing.json()) == {"error"}


def test_the_openapi_description_lists_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths) >= {
        "/api/meta",
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/moves",
        "/api/games/{game_id}/preview",
        "/api/games/{game_id}/hint",
        "/api/games/{game_id}/record",
        "/api/games/{game_id}/analysis",
        "/api/games/{game_id}/rematch",
        "/api/records/view",
    }
    moves = paths["/api/games/{game_id}/moves"]["post"]
    assert {"200", "400", "401", "404", "409", "413", "422"} <= set(moves["responses"])
