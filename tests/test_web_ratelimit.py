"""Rate limits per client address (web/ratelimit.py, docs/web.md): each limited endpoint
answers 429 with Retry-After past its limit and changes nothing, another address is not
affected, the limits reset, and ``serve --rate-limit`` sets them. Each test runs on SQLite
(counted in the process's memory) and on PostgreSQL (counted in the database), where two
server processes share one budget."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from web_api_support import bearer, new_game, seat_view, serving, sql

from binscrabble.cli import main
from binscrabble.web.app import create_app
from binscrabble.web.ratelimit import DEFAULT_LIMITS, ENDPOINTS, RateLimits

TWO_PEOPLE = [{"name": "Ann"}, {"name": "Bo"}]
ADDRESS = ("192.0.2.1", 50000)


@contextmanager
def limited_client(database: Path | str, *options: str) -> Iterator[TestClient]:
    """A client from one address of an app with only the limits ``options`` (NAME=LIMIT)."""
    limits = RateLimits.parse(["all=off", *options])
    app = create_app(str(database), workers=1, rate_limits=limits)
    with TestClient(app, client=ADDRESS) as client:
        yield client


@pytest.fixture
def database(any_database: Path | str) -> Path | str:
    return any_database


def stored_games(database: Path | str) -> int:
    return int(sql(database, "SELECT count(*) FROM games")[0][0])


def assert_refused(answer: httpx.Response, called: str) -> None:
    """A 429 answer: ``Retry-After`` in whole seconds and a sentence naming what was refused."""
    assert answer.status_code == 429, answer.text
    assert 1 <= int(answer.headers["Retry-After"]) <= 60
    # The headers of every answer (web/headers.py) are on it too.
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    message = answer.json()["error"]
    assert message.startswith(f"too many {called} from your address (at most 2 in 60 seconds)")
    assert "try again in" in message


Request = Callable[[TestClient, dict[str, Any], int], httpx.Response]


def create(client: TestClient, _game: dict[str, Any], _index: int) -> httpx.Response:
    return client.post("/api/games", json={"players": TWO_PEOPLE})


def move(client: TestClient, game: dict[str, Any], index: int) -> httpx.Response:
    token = game["seats"][index % 2]["token"]
    body = {"move": "pass", "turn": index}
    return client.post(f"/api/games/{game['id']}/moves", json=body, headers=bearer(token))


def preview(client: TestClient, game: dict[str, Any], _index: int) -> httpx.Response:
    token = game["seats"][0]["token"]
    return client.post(
        f"/api/games/{game['id']}/preview", json={"move": "pass"}, headers=bearer(token)
    )


def hint(client: TestClient, game: dict[str, Any], _index: int) -> httpx.Response:
    token = game["seats"][0]["token"]
    return client.post(f"/api/games/{game['id']}/hint", headers=bearer(token))


def analysis(client: TestClient, game: dict[str, Any], _index: int) -> httpx.Response:
    return client.get(f"/api/games/{game['id']}/analysis")


def record(client: TestClient, _game: dict[str, Any], _index: int) -> httpx.Response:
    return client.post("/api/records/view", json={"record": "not a record"})


REQUESTS: dict[str, Request] = {
    "create": create,
    "move": move,
    "preview": preview,
    "hint": hint,
    "analysis": analysis,
    "record": record,
}


def test_every_limited_endpoint_has_a_request_here() -> None:
    assert set(REQUESTS) == set(ENDPOINTS) == set(DEFAULT_LIMITS)


@pytest.mark.parametrize("name", list(REQUESTS))
def test_past_its_limit_an_endpoint_answers_429_and_changes_nothing(
    database: Path | str, name: str
) -> None:
    request = REQUESTS[name]
    with limited_client(database, f"{name}=2/minute") as client:
        game = new_game(client, TWO_PEOPLE)
        first = 1 if name == "create" else 0  # the game above was the first new game
        for index in range(first, 2):
            assert request(client, game, index).status_code != 429
        views = [seat_view(client, game["id"], seat["token"]) for seat in game["seats"]]
        games = stored_games(database)
        # The third request would be accepted (a move: the next seat's pass at its turn).
        assert_refused(request(client, game, 2), ENDPOINTS[name].called)
        assert [seat_view(client, game["id"], seat["token"]) for seat in game["seats"]] == views
        assert stored_games(database) == games
        # Other endpoints are not limited by it.
        others = [other for other in REQUESTS if other != name]
        for other in others:
            assert REQUESTS[other](client, game, 2).status_code != 429


def test_a_rematch_counts_as_a_new_game(database: Path | str) -> None:
    with limited_client(database, "create=2/minute") as client:
        game = new_game(client, TWO_PEOPLE)
        for index in range(6):
            assert move(client, game, index).status_code == 200
        new_game(client, TWO_PEOPLE)
        token = game["seats"][0]["token"]
        answer = client.post(f"/api/games/{game['id']}/rematch", headers=bearer(token))
        assert_refused(answer, "new games")
        assert seat_view(client, game["id"])["rematch"] is None
        assert stored_games(database) == 2


def start_of_a_window(seconds: int, skipped: int = 0) -> None:
    """Sleep until just after a multiple of ``seconds`` since the epoch, ``skipped`` whole
    windows later: the counting windows start there, so a short burst falls in one window,
    not across two (a sliding window would weigh the two and let the burst's last request
    through)."""
    time.sleep(seconds - time.time() % seconds + seconds * skipped + 0.02)


def test_the_limits_reset_after_retry_after(database: Path | str) -> None:
    with limited_client(database, "create=2/3 seconds") as client:
        start_of_a_window(3)
        for round_ in range(2):
            if round_:
                # A whole window with nothing between the rounds: the next starts afresh.
                start_of_a_window(3, skipped=1)
            for _ in range(2):
                assert create(client, {}, 0).status_code == 201
            refused = create(client, {}, 0)
            assert refused.status_code == 429
            time.sleep(int(refused.headers["Retry-After"]))
            assert create(client, {}, 0).status_code == 201


def test_the_openapi_description_lists_429_where_a_limit_is_on(tmp_path: Path) -> None:
    with limited_client(tmp_path / "games.db", "move=2/minute", "record=5/hour") as client:
        description = client.get("/openapi.json").json()
    paths = description["paths"]
    assert "429" in paths["/api/games/{game_id}/moves"]["post"]["responses"]
    assert "429" in paths["/api/records/view"]["post"]["responses"]
    assert "429" not in paths["/api/games"]["post"]["responses"]
    assert "429" not in paths["/api/games/{game_id}"]["get"]["responses"]
    refused = paths["/api/games/{game_id}/moves"]["post"]["responses"]["429"]
    assert "Retry-After" in refused["headers"]
    schema = refused["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert "error" in description["components"]["schemas"][schema]["properties"]


def test_bad_rate_limit_options_get_a_sentence_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for option, words in [
        ("create", "is not NAME=LIMIT"),
        ("nothing=3/minute", "knows no 'nothing'"),
        ("move=lots", "cannot be read"),
        ("move=0/minute", "cannot be read"),
    ]:
        assert main(["serve", "--port", "0", "--rate-limit", option]) == 2
        error = capsys.readouterr().err
        assert words in error and "Traceback" not in error
    assert main(["serve", "--port", "0", "--max-games", "0"]) == 2
    assert "--max-games needs at least 1" in capsys.readouterr().err


def test_serve_limits_each_address_on_its_own(database: Path | str) -> None:
    options = ("--rate-limit", "all=off", "--rate-limit", "create=2/minute")
    body = {"players": TWO_PEOPLE}
    with serving(database, *options) as served, served.client() as first:
        assert [first.post("/api/games", json=body).status_code for _ in range(3)] == [
            201,
            201,
            429,
        ]
        # The other address (another loopback address of this machine) has its own count.
        with served.client("127.0.0.2") as second:
            assert second.post("/api/games", json=body).status_code == 201
        assert first.post("/api/games", json=body).status_code == 429


def test_two_servers_on_one_postgresql_share_one_budget(postgres_url: str) -> None:
    """Two apps on one PostgreSQL database (as two server processes are) count one client's
    requests together: the limit holds across them, and a refused request is not counted."""
    body = {"players": TWO_PEOPLE}
    with (
        limited_client(postgres_url, "create=3/minute") as first,
        limited_client(postgres_url, "create=3/minute") as second,
    ):
        answers = [
            server.post("/api/games", json=body).status_code
            for server in (first, second, first, second, first)
        ]
        assert answers == [201, 201, 201, 429, 429]
        assert stored_games(postgres_url) == 3


def test_two_serve_processes_on_one_postgresql_share_one_budget(postgres_url: str) -> None:
    options = ("--rate-limit", "all=off", "--rate-limit", "create=2/minute")
    body = {"players": TWO_PEOPLE}
    with (
        serving(postgres_url, *options) as one,
        serving(postgres_url, *options) as other,
        one.client() as first,
        other.client() as second,
    ):
        assert first.post("/api/games", json=body).status_code == 201
        assert second.post("/api/games", json=body).status_code == 201
        refused = first.post("/api/games", json=body)
        assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 60
        assert second.post("/api/games", json=body).status_code == 429
        # Another address has its own budget, on both.
        with one.client("127.0.0.2") as third:
            assert third.post("/api/games", json=body).status_code == 201
