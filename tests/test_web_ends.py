"""Games that end, finished (issue 38, the audit of clocks, resign and abort): each test is
written from a reproducer of the audit (docs/web.md, "Games that end").

Clocks are real, as in ``test_web_clocks.py``: a test waits for a short clock to run out
(bounded waits), or moves the stored times of a game back in the database file while the
server is stopped.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_clocks import create, tokens
from web_api_support import bearer, seat_view, web_client


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
