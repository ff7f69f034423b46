"""The headers of every answer, HEAD wherever GET works, and ``Allow`` on every 405: through
FastAPI's TestClient, on pages, the API, the page's files and error answers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from web_api_support import bearer, new_game, web_client

POLICY_PARTS = {
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with web_client(tmp_path / "games.sqlite3") as running:
        yield running


@pytest.fixture
def game(client: TestClient) -> dict[str, str]:
    created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
    return {"id": created["id"], "token": created["seats"][0]["token"]}


def answers(client: TestClient, game: dict[str, str]) -> dict[str, httpx.Response]:
    """One answer of each kind: pages, API views and errors, files, 404, 405, 413, 400."""
    path = f"/api/games/{game['id']}"
    return {
        "lobby": client.get("/"),
        "game page": client.get(f"/games/{game['id']}"),
        "analysis page": client.get(f"/games/{game['id']}/analysis"),
        "viewer": client.get("/viewer"),
        "script": client.get("/static/js/game.js"),
        "style": client.get("/static/css/app.css"),
        "meta": client.get("/api/meta"),
        "spectator's view": client.get(path),
        "seat's view": client.get(path, headers=bearer(game["token"])),
        "created": client.post("/api/games", json={"players": [{"name": "A"}, {"name": "B"}]}),
        "preview": client.post(
            f"{path}/preview", json={"move": "pass"}, headers=bearer(game["token"])
        ),
        "unknown game": client.get("/api/games/nope"),
        "nothing here": client.get("/nothing"),
        "wrong method": client.post("/api/meta"),
        "malformed": client.post("/api/games", content=b"{"),
        "too large": client.post("/api/records/view", content=b"x" * 70_000),
        "wrong token": client.get(path, headers=bearer("nope")),
    }


def test_every_answer_carries_the_security_headers(
    client: TestClient, game: dict[str, str]
) -> None:
    for kind, answer in answers(client, game).items():
        headers = answer.headers
        policy = headers.get("content-security-policy", "")
        parts = {part.strip() for part in policy.split(";")}
        assert parts >= POLICY_PARTS, kind
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, kind
        assert headers.get("x-content-type-options") == "nosniff", kind
        assert headers.get("referrer-policy") == "no-referrer", kind
        assert headers.get("x-frame-options") == "DENY", kind
        assert headers.get("cache-control"), kind


def test_answers_carrying_a_token_or_a_view_are_never_stored(
    client: TestClient, game: dict[str, str]
) -> None:
    every = answers(client, game)
    for kind in (
        "game page",
        "analysis page",
        "spectator's view",
        "seat's view",
        "created",
        "preview",
        "wrong token",
    ):
        assert every[kind].headers["cache-control"] == "no-store", kind
    for kind in ("lobby", "viewer"):
        assert every[kind].headers["cache-control"] == "no-cache", kind
    for kind, path in (("script", "/static/js/game.js"), ("style", "/static/css/app.css")):
        # Kept, but checked against the server's ETag on every use (304 when unchanged).
        served = every[kind]
        assert served.headers["cache-control"] == "no-cache", kind
        etag = served.headers["etag"]
        assert client.get(path, headers={"If-None-Match": etag}).status_code == 304, kind


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/viewer",
        "/games/{id}",
        "/games/{id}/analysis",
        "/static/js/game.js",
        "/api/meta",
        "/api/games/{id}",
        "/openapi.json",
    ],
)
def test_head_answers_wherever_get_does(
    client: TestClient, game: dict[str, str], path: str
) -> None:
    address = path.format(id=game["id"])
    got = client.get(address)
    head = client.head(address)
    assert got.status_code == 200
    assert head.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["content-security-policy"] == got.headers["content-security-policy"]
    if "content-length" in got.headers:
        assert head.headers["content-length"] == str(len(got.content))


def test_head_of_an_unknown_game_is_404_without_a_body(client: TestClient) -> None:
    answer = client.head("/api/games/nope")
    assert answer.status_code == 404
    assert answer.content == b""


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("POST", "/api/meta", {"GET", "HEAD"}),
        ("DELETE", "/api/games/{id}", {"GET", "HEAD"}),
        ("DELETE", "/api/games", {"GET", "HEAD", "POST"}),
        ("PUT", "/api/games/{id}/moves", {"POST"}),
        ("POST", "/", {"GET", "HEAD"}),
        ("POST", "/games/{id}", {"GET", "HEAD"}),
        ("DELETE", "/static/css/app.css", {"GET", "HEAD"}),
    ],
)
def test_every_405_names_the_allowed_methods(
    client: TestClient, game: dict[str, str], method: str, path: str, allowed: set[str]
) -> None:
    answer = client.request(method, path.format(id=game["id"]))
    assert answer.status_code == 405
    named = {part.strip() for part in answer.headers["allow"].split(",")}
    assert named == allowed
    assert answer.json() == {"error": "this address does not take that method: see /openapi.json"}
