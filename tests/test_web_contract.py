"""The web API's contract exactly (INTERFACES.md §5, docs/web.md): 409 for every stale,
raced or out-of-turn submission whatever its move, strict types, one answer for a malformed
body on every endpoint, an OpenAPI description that refuses what the server refuses, and
a record that never carries the seed."""

from __future__ import annotations

import re
import threading
import typing
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from fastapi.responses import PlainTextResponse, Response
from fastapi.testclient import TestClient
from web_api_support import bearer, game_with_a_play, new_game, seat_view, server_truth, web_client

from binscrabble.cli import main
from binscrabble.record import read_record
from binscrabble.rules import Rules, RulesError
from binscrabble.web.app import BinscrabbleAPI
from binscrabble.web.responses import STATUS_MEANINGS, error_statuses

TWO_PEOPLE = [{"name": "Ann"}, {"name": "Bo"}]


@pytest.fixture
def client(any_database_full: Path | str) -> Any:
    # The contract's PostgreSQL run is in `make test-full` (tests/conftest.py).
    with web_client(any_database_full) as test_client:
        yield test_client


def tokens_of(created: dict[str, Any]) -> list[str]:
    return [seat["token"] for seat in created["seats"]]


def post_move(client: TestClient, game_id: str, body: Any, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/moves", json=body, headers=bearer(token))


# -- 409 whatever the move ---------------------------------------------------------------


def test_twenty_racing_copies_of_one_play_apply_one_and_409_the_rest(
    client: TestClient,
) -> None:
    created, play = game_with_a_play(client)
    ann = tokens_of(created)[0]
    barrier = threading.Barrier(20)
    statuses: list[int] = []

    def submit() -> None:
        barrier.wait()
        statuses.append(
            post_move(client, created["id"], {"move": play, "turn": 0}, ann).status_code
        )

    threads = [threading.Thread(target=submit) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Counter(statuses) == {200: 1, 409: 19}
    assert seat_view(client, created["id"])["turn"] == 1


def test_a_replayed_play_gets_409_not_400(client: TestClient) -> None:
    created, play = game_with_a_play(client)
    ann, bo = tokens_of(created)
    assert post_move(client, created["id"], {"move": play, "turn": 0}, ann).status_code == 200
    assert post_move(client, created["id"], {"move": "pass", "turn": 1}, bo).status_code == 200
    # Ann's turn again: the same play read on the new board puts no new tile.
    replayed = post_move(client, created["id"], {"move": play, "turn": 0}, ann)
    assert replayed.status_code == 409
    assert "not the current turn" in replayed.json()["error"]


@pytest.mark.parametrize(
    "move",
    [
        {"move": "8Z zz", "turn": 0},
        {"move": "", "turn": 0},
        {"tiles": [{"square": "H8", "face": "1"}], "turn": 0},
    ],
)
def test_stale_out_of_turn_and_finished_submissions_get_409_whatever_the_move(
    client: TestClient, move: dict[str, Any]
) -> None:
    created = new_game(client, TWO_PEOPLE)
    ann, bo = tokens_of(created)
    assert post_move(client, created["id"], {"move": "pass", "turn": 0}, ann).status_code == 200
    stale = post_move(client, created["id"], move, bo)
    assert stale.status_code == 409 and "not the current turn" in stale.json()["error"]
    out_of_turn = post_move(client, created["id"], {**move, "turn": 1}, ann)
    assert out_of_turn.status_code == 409 and "Bo's turn" in out_of_turn.json()["error"]
    for turn in range(1, 6):
        token = (ann, bo)[turn % 2]
        passed = post_move(client, created["id"], {"move": "pass", "turn": turn}, token)
        assert passed.status_code == 200
    assert seat_view(client, created["id"])["over"] is True
    over = post_move(client, created["id"], {**move, "turn": 6}, ann)
    assert over.status_code == 409 and "over" in over.json()["error"]


def test_unreadable_notation_on_the_current_turn_is_still_400(client: TestClient) -> None:
    created = new_game(client, TWO_PEOPLE)
    answer = post_move(client, created["id"], {"move": "8Z zz", "turn": 0}, tokens_of(created)[0])
    assert answer.status_code == 400 and "cannot be read" in answer.json()["error"]


# -- strict types --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "switch"),
    [
        ({"xor_tiles": "3"}, "xor_tiles"),
        ({"xor_tiles": True}, "xor_tiles"),
        ({"xor_tiles": 3.5}, "xor_tiles"),
        ({"identity_chains": "on"}, "identity_chains"),
        ({"identity_chains": 1}, "identity_chains"),
        ({"precedence": "Left-To-Right"}, "precedence"),
        ({"precedence": None}, "precedence"),
        ({"preset": None}, "preset"),
        ({"preset": "chaos"}, "preset"),
        ({"rack_size": 2}, "rack_size"),
        ({"gravity": True}, "gravity"),
    ],
)
def test_rule_values_must_have_the_switchs_own_type(
    client: TestClient, rules: dict[str, Any], switch: str
) -> None:
    answer = client.post("/api/games", json={"players": TWO_PEOPLE, "rules": rules})
    assert answer.status_code == 400
    assert switch in answer.json()["error"]


def test_typed_rule_values_are_taken(client: TestClient) -> None:
    # JSON does not tell 3 from 3.0.
    rules = {
        "preset": "expert",
        "xor_tiles": 3.0,
        "identity_chains": True,
        "precedence": "standard",
    }
    created = new_game(client, TWO_PEOPLE, rules)
    shown = seat_view(client, created["id"])["rules"]
    assert (shown["xor_tiles"], shown["identity_chains"], shown["identity_times_one"]) == (
        3,
        True,
        False,
    )


def test_the_strict_rules_path_refuses_text_and_the_lenient_one_reads_it() -> None:
    assert Rules.from_mapping({"xor_tiles": "3", "identity_chains": "on"}).xor_tiles == 3
    for data in [{"xor_tiles": "3"}, {"identity_chains": "on"}, {"bingo_bonus": False}]:
        with pytest.raises(RulesError) as refused:
            Rules.from_mapping(data, strict=True)
        assert refused.value.rule == next(iter(data))
    strict = Rules.from_mapping({"preset": "learning", "xor_tiles": 2}, strict=True)
    assert strict == Rules.preset("learning").override("xor_tiles", 2)


MALFORMED_MOVES = [
    {"move": "pass", "tiles": [{"square": "H8", "face": "1"}]},
    {"move": None},
    {"tiles": []},
    {"tiles": [{"square": "H16", "face": "1"}]},
    {"tiles": [{"square": "H8", "face": "11"}]},
    {},
]


@pytest.mark.parametrize("body", MALFORMED_MOVES)
def test_a_malformed_move_gets_400_from_moves_and_preview_alike(
    client: TestClient, body: dict[str, Any]
) -> None:
    created = new_game(client, TWO_PEOPLE)
    ann = tokens_of(created)[0]
    moves = post_move(client, created["id"], {**body, "turn": 0}, ann)
    preview = client.post(f"/api/games/{created['id']}/preview", json=body, headers=bearer(ann))
    assert (moves.status_code, preview.status_code) == (400, 400)
    assert set(preview.json()) == {"error"}
    assert seat_view(client, created["id"])["turn"] == 0


# -- the OpenAPI description refuses what the server refuses -------------------------------


def body_validator(client: TestClient, path: str) -> Any:
    """A JSON Schema validator of the request body of ``POST path`` in /openapi.json."""
    document = client.get("/openapi.json").json()
    body = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    return jsonschema_rs.validator_for({**body["schema"], "components": document["components"]})


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/games", {"players": []}),
        ("/api/games", {"players": TWO_PEOPLE * 3}),
        ("/api/games", {"players": [{"name": "Ann"}, {"name": "   "}]}),
        ("/api/games", {"players": [{"name": "Ann"}, {"name": "B\no"}]}),
        ("/api/games", {"players": TWO_PEOPLE, "rules": {"xor_tiles": "3"}}),
        ("/api/games", {"players": [{"name": "Ann"}, {"name": "Bot", "computer": "god"}]}),
        ("/api/games/{game_id}/moves", {"move": None, "tiles": [], "turn": 0}),
        ("/api/games/{game_id}/moves", {"tiles": [], "turn": 0}),
        ("/api/games/{game_id}/moves", {"move": "pass", "tiles": [], "turn": 0}),
        ("/api/games/{game_id}/preview", {"move": "pass", "tiles": []}),
        ("/api/records/view", {"record": ""}),
    ],
)
def test_the_schema_refuses_the_bodies_the_server_refuses(
    client: TestClient, path: str, body: dict[str, Any]
) -> None:
    assert not body_validator(client, path).is_valid(body)
    created = new_game(client, TWO_PEOPLE)
    answer = client.post(
        path.replace("{game_id}", created["id"]), json=body, headers=bearer(tokens_of(created)[0])
    )
    assert answer.status_code == 400 and set(answer.json()) == {"error"}


def test_the_schema_takes_the_bodies_the_page_sends(client: TestClient) -> None:
    games = body_validator(client, "/api/games")
    assert games.is_valid({"players": [{"name": "Ann"}, {"name": "Computer", "computer": "max"}]})
    assert games.is_valid({"players": TWO_PEOPLE, "rules": {"preset": "learning", "xor_tiles": 2}})
    moves = body_validator(client, "/api/games/{game_id}/moves")
    tile = {"square": "H8", "face": "1", "blank": False, "rotated": False}
    assert moves.is_valid({"tiles": [tile], "turn": 0})
    assert moves.is_valid({"move": "8G 1=1", "turn": 3})


def test_the_schema_documents_every_status_with_its_content(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    record = paths["/api/games/{game_id}/record"]["get"]["responses"]
    assert set(record["200"]["content"]) == {"text/plain"}
    for status in ("404", "409", "413"):
        assert set(record[status]["content"]) == {"application/json"}
    moves = paths["/api/games/{game_id}/moves"]["post"]["responses"]
    assert set(moves) == {"200", "400", "401", "404", "409", "413", "422"}
    assert "400" not in paths["/api/meta"]["get"]["responses"]
    for route in paths.values():
        for operation in route.values():
            for status, answer in operation["responses"].items():
                assert set(answer["content"]) <= {"application/json", "text/plain"}, status
                for media in answer["content"].values():
                    assert media["schema"], f"{status} has no schema"


def test_every_route_declares_its_errors_and_the_model_of_its_answer(
    client: TestClient,
) -> None:
    app = client.app
    assert isinstance(app, BinscrabbleAPI)
    routes = [route for route in app.api_routes() if route.include_in_schema]
    paths = client.get("/openapi.json").json()["paths"]
    operations = [operation for methods in paths.values() for operation in methods.values()]
    assert len(routes) == len(operations) >= 11
    for route in routes:
        statuses = error_statuses(route)
        assert 413 in statuses and set(statuses) <= set(STATUS_MEANINGS), route.name
        if route.response_class is PlainTextResponse:
            continue  # the record: a text file
        # A JSON answer is checked against its model: the route returns data, never a
        # response of its own that would go round the model.
        assert route.response_model is not None, route.name
        returned = typing.get_type_hints(route.endpoint)["return"]
        assert not (isinstance(returned, type) and issubclass(returned, Response)), route.name
        for method in route.methods or ():
            answer = paths[route.path_format][method.lower()]["responses"][
                str(route.status_code or 200)
            ]
            assert answer["content"]["application/json"]["schema"]["$ref"].startswith(
                "#/components/schemas/"
            ), route.name


# -- the record never carries the seed ------------------------------------------------------


def test_the_record_of_a_finished_game_has_the_racks_but_not_the_seed(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    created, play = game_with_a_play(client)
    game_id = created["id"]
    tokens = tokens_of(created)
    refused = client.get(f"/api/games/{game_id}/record")
    assert refused.status_code == 409 and "over" in refused.json()["error"]
    for turn, move in enumerate([play, "pass", "pass", "pass", "pass", "pass", "pass"]):
        assert post_move(client, game_id, {"move": move, "turn": turn}, tokens[turn % 2]).is_success
    _, seed, _ = server_truth(client, game_id)
    record = client.get(f"/api/games/{game_id}/record").text
    assert "#seed" not in record and str(seed) not in record
    view = seat_view(client, game_id)
    replayed = read_record(record)
    assert replayed.seed is None
    assert replayed.board.rows() == view["board"]
    assert list(replayed.scores) == view["result"]["final"]
    assert f">Ann: ({replayed.racks[0]})" in record
    saved = tmp_path / "game.bsr"
    saved.write_text(record, encoding="utf-8")
    assert main(["replay", str(saved)]) == 0
    assert "Game over (scoreless)" in capsys.readouterr().out


# -- bodies that are not JSON objects, and the cost of reading a move -----------------------

NOT_JSON_BODIES = [
    (b"\xff\xfe{", "application/json"),  # not UTF-8
    (b'{"turn": ' + b"1" * 5000 + b"}", "application/json"),  # past Python's digits
    (b"[" * 5000, "application/json"),  # past the parser's depth
    (b'{"turn": 0} x', "application/json"),  # trailing text
    (b'{"move": "pass", "turn": 0}', "text/plain"),  # another content type
    (b"[1, 2]", "application/json"),  # JSON, but not an object
]


@pytest.mark.parametrize(("body", "content_type"), NOT_JSON_BODIES)
def test_a_body_that_is_not_a_json_object_gets_one_answer_on_every_endpoint(
    client: TestClient, body: bytes, content_type: str
) -> None:
    created = new_game(client, TWO_PEOPLE)
    game_id, ann = created["id"], tokens_of(created)[0]
    before = seat_view(client, game_id, ann)
    headers = {**bearer(ann), "content-type": content_type}
    for path in ("/api/games", f"/api/games/{game_id}/moves", f"/api/games/{game_id}/preview"):
        answer = client.post(path, content=body, headers=headers)
        assert answer.status_code == 400, (path, answer.text)
        assert answer.json() == {"error": "the body is not valid JSON: send a JSON object"}
    answer = client.post("/api/records/view", content=body, headers=headers)
    assert answer.json() == {"error": "the body is not valid JSON: send a JSON object"}
    assert seat_view(client, game_id, ann) == before


def test_a_notation_longer_than_any_move_is_refused_before_it_is_read(
    client: TestClient,
) -> None:
    # The attacker's audit: 60 KB of notation took 175-205 ms of the event loop each, and
    # the preview's reason echoed it whole.
    created = new_game(client, TWO_PEOPLE)
    game_id, ann = created["id"], tokens_of(created)[0]
    long_play = "8A " + "1+" * 30_000 + "1"
    for path, body in (
        (f"/api/games/{game_id}/preview", {"move": long_play}),
        (f"/api/games/{game_id}/moves", {"move": long_play, "turn": 0}),
        (f"/api/games/{game_id}/preview", {"move": "exchange " + "1" * 30_000}),
    ):
        answer = client.post(path, json=body, headers=bearer(ann))
        assert answer.status_code == 400, answer.text
        assert "at most 200" in answer.json()["error"]
        assert len(answer.text) < 300
    tiles = [{"square": f"H{column}", "face": "1"} for column in range(1, 16)] * 2
    answer = client.post(
        f"/api/games/{game_id}/preview", json={"tiles": tiles}, headers=bearer(ann)
    )
    assert answer.status_code == 400 and "at most 15" in answer.json()["error"]
    # The longest real move is far under the bound and still read.
    assert (
        client.post(
            f"/api/games/{game_id}/preview", json={"move": "8A " + "1" * 15}, headers=bearer(ann)
        ).json()["legal"]
        is False
    )


@pytest.mark.parametrize(
    "names",
    [
        ["A\u200b", "A"],  # a zero-width space: two names that look the same
        ["\u202eAnn", "Bo"],  # a right-to-left override turns what follows around
        ["Ann\u2066", "Bo"],  # an isolate left open
        ["\ufeffAnn", "Bo"],  # a byte order mark
        ["\uff21", "A"],  # a full-width A beside an A
        ["ann", "Ann"],  # the same name in other letters' case
    ],
)
def test_names_that_read_alike_or_hide_characters_are_refused(
    client: TestClient, names: list[str]
) -> None:
    answer = client.post("/api/games", json={"players": [{"name": name} for name in names]})
    assert answer.status_code == 400, answer.text
    # The name's field named in words (web/limits.py), or the players' own check.
    assert re.match(r"player \d's name is wrong: |each player needs", answer.json()["error"])


# -- which check answers first --------------------------------------------------------------


def test_a_request_is_answered_by_the_first_check_it_fails(client: TestClient) -> None:
    """docs/web.md, "The order of the checks": body, game, token, kind of game."""
    created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
    token = tokens_of(created)[0]
    game_id = created["id"]
    at_table = {"players": [{"name": "Cy"}, {"name": "Di"}], "table": True}
    table_game = client.post("/api/games", json=at_table).json()
    table = table_game["id"]
    wrong = bearer("not-a-token")

    def answer(path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        sent = client.post(path, json=body, headers=headers or {})
        return sent.status_code, sent.json()["error"]

    # A malformed body gets 400 whatever the game and the token.
    for path in ("/api/games/nope/moves", "/api/games/nope/preview", "/api/games/nope/rack"):
        status, message = answer(path, {"turn": "0"}, wrong)
        assert status == 400, (path, message)
    # Then an unknown game 404, whatever the token.
    assert answer("/api/games/nope/moves", {"move": "pass", "turn": 0})[0] == 404
    assert answer("/api/games/nope/hint", headers=wrong)[0] == 404
    # Then the token: none, or a wrong one, whatever the kind of game.
    assert answer(f"/api/games/{game_id}/moves", {"move": "pass", "turn": 0})[0] == 401
    assert answer(f"/api/games/{table}/preview", {"move": "pass"}, wrong)[0] == 401
    assert answer(f"/api/games/{table}/hint")[0] == 401
    assert answer(f"/api/games/{table}/rematch", headers=wrong)[0] == 401
    assert answer(f"/api/games/{game_id}/rack", {"rack": "01"})[0] == 401
    # Then a kind of game the route does not serve: 409.
    table_token = bearer(tokens_of(table_game)[0])
    assert answer(f"/api/games/{table}/hint", headers=table_token) == (
        409,
        "no hints are given in a game at a table",
    )
    assert answer(f"/api/games/{table}/rematch", headers=table_token)[0] == 409
    assert answer(f"/api/games/{game_id}/rack", {"rack": "01"}, bearer(token)) == (
        409,
        "racks are entered only in a game at a table",
    )
    # Then the route's own checks.
    stale = answer(f"/api/games/{game_id}/moves", {"move": "pass", "turn": 3}, bearer(token))
    assert stale[0] == 409
