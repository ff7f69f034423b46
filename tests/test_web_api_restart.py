"""A real ``binscrabble serve`` process: its ready line, clean stops on SIGTERM and SIGINT,
and games that resume exactly (racks and bag included) after the process is killed with
SIGKILL in the middle of a game and started again on the same database: each test on an
SQLite file and on PostgreSQL (``serve --db postgresql+psycopg://...``)."""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serve_known_bags import naming_headers
from web_api_support import start_serve

from binscrabble.game import Game
from binscrabble.move import Exchange, Move, Pass, move_notation
from binscrabble.rules import Rules
from binscrabble.web.storage import Storage, database_url

READY = re.compile(r"^binscrabble serving on (http://127\.0\.0\.1:(\d+)/)$")


class ServeProcess:
    """``binscrabble serve --port 0`` on a database, and a client for its address."""

    def __init__(self, database: Path | str) -> None:
        self.process, self.line = start_serve(database)
        ready = READY.match(self.line)
        assert ready is not None, f"unexpected first line {self.line!r}"
        self.address = ready.group(1)
        self.client = httpx.Client(
            base_url=self.address, trust_env=False, timeout=30, headers=naming_headers()
        )

    def stop(self, how: signal.Signals) -> int:
        """Send ``how`` and wait for the process to end; its exit status."""
        self.client.close()
        self.process.send_signal(how)
        try:
            return self.process.wait(timeout=30)
        finally:
            if self.process.stdout is not None:
                self.process.stdout.close()


@pytest.fixture
def database(any_database: Path | str) -> Path | str:
    return any_database


@pytest.fixture
def started(database: Path | str) -> Iterator[list[ServeProcess]]:
    """The servers a test starts; any still running at the end are killed."""
    servers: list[ServeProcess] = []
    yield servers
    for server in servers:
        if server.process.poll() is None:
            server.stop(signal.SIGKILL)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
def test_serve_prints_its_address_and_stops_cleanly(
    database: Path | str, started: list[ServeProcess], how: signal.Signals
) -> None:
    server = ServeProcess(database)
    started.append(server)
    assert int(READY.match(server.line).group(2)) > 0  # type: ignore[union-attr]
    assert server.client.get("/api/meta").status_code == 200
    assert server.client.get("/openapi.json").json()["paths"]["/api/games"]
    assert server.stop(how) == 0


def children(pid: int) -> list[int]:
    """The processes ``pid`` started that are still running (Linux's /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def control_move(game: Game, turn: int) -> Move:
    """The test's own choice of move: the best play, with an exchange and a pass mixed in."""
    if turn == 2 and game.bag_size >= game.rules.rack_size:
        return Exchange(game.rack()[:3])
    if turn == 5:
        return Pass()
    plays = game.legal_moves.placements()
    return plays[0].place if plays else Pass()


def check_same(server: ServeProcess, game: Game, game_id: str, tokens: list[str]) -> None:
    """Every seat's view on the server agrees with the test's own copy of the game."""
    for seat, token in enumerate(tokens):
        view = server.client.get(
            f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}
        ).json()
        assert view["rack"] == game.rack(seat)
        assert view["unseen"] == game.unseen(seat)
        assert view["board"] == game.board.rows()
        assert [player["score"] for player in view["players"]] == game.scores
        assert (view["turn"], view["bag"]) == (len(game.history), game.bag_size)


def play_turns(
    server: ServeProcess, game: Game, game_id: str, tokens: list[str], count: int
) -> None:
    """Play ``count`` turns chosen by the test, checking every seat's view after each."""
    for _ in range(count):
        if game.is_over():
            # Racks with no play can end a game in six scoreless turns: nothing more to play.
            return
        turn = len(game.history)
        move = control_move(game, turn)
        notation = move_notation(move, game.board)
        seat = game.to_move
        answer = server.client.post(
            f"/api/games/{game_id}/moves",
            json={"move": notation, "turn": turn},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert answer.status_code == 200, answer.text
        game.push(move)
        check_same(server, game, game_id, tokens)


def test_games_resume_exactly_after_sigkill(
    database: Path | str, started: list[ServeProcess]
) -> None:
    first = ServeProcess(database)
    started.append(first)
    created = first.client.post(
        "/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}], "rules": {"xor_tiles": 2}}
    ).json()
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    storage = Storage(database_url(str(database)))
    stored = storage.load_game(game_id)
    storage.close()
    assert stored is not None
    # The test's own copy of the game, from the secret seed the server stored.
    game = Game(("Ann", "Bo"), Rules.from_mapping(stored.rules), seed=int(stored.seed))
    check_same(first, game, game_id, tokens)
    play_turns(first, game, game_id, tokens, 6)
    os.kill(first.process.pid, signal.SIGKILL)
    first.process.wait(timeout=30)
    second = ServeProcess(database)
    started.append(second)
    check_same(second, game, game_id, tokens)
    play_turns(second, game, game_id, tokens, 6)


def test_an_acknowledged_move_survives_a_kill_in_flight(
    database: Path | str, started: list[ServeProcess]
) -> None:
    first = ServeProcess(database)
    started.append(first)
    created = first.client.post(
        "/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}]}
    ).json()
    tokens = [seat["token"] for seat in created["seats"]]
    answers: list[Any] = []

    def submit() -> None:
        try:
            answers.append(
                first.client.post(
                    f"/api/games/{created['id']}/moves",
                    json={"move": "pass", "turn": 0},
                    headers={"Authorization": f"Bearer {tokens[0]}"},
                ).status_code
            )
        except httpx.HTTPError as problem:
            answers.append(problem)

    sender = threading.Thread(target=submit)
    sender.start()
    os.kill(first.process.pid, signal.SIGKILL)
    sender.join(timeout=60)
    first.process.wait(timeout=30)
    second = ServeProcess(database)
    started.append(second)
    turn = second.client.get(f"/api/games/{created['id']}").json()["turn"]
    if answers == [200]:
        assert turn == 1
    else:
        assert turn in (0, 1)


def test_a_computer_killed_while_thinking_moves_after_the_restart(
    database: Path | str, started: list[ServeProcess]
) -> None:
    first = ServeProcess(database)
    started.append(first)
    created = first.client.post(
        "/api/games", json={"players": [{"name": "Ann"}, {"name": "Bot", "computer": "medium"}]}
    ).json()
    ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    answer = first.client.post(
        f"/api/games/{created['id']}/moves", json={"move": "pass", "turn": 0}, headers=ann
    )
    assert answer.status_code == 200
    # The answer can arrive before the server has started the worker that thinks.
    for _ in range(300):
        helpers = children(first.process.pid)
        if helpers:
            break
        time.sleep(0.05)
    assert helpers, "the computer's worker process should be running"
    os.kill(first.process.pid, signal.SIGKILL)
    first.process.wait(timeout=30)
    # The worker processes of a killed server end by themselves.
    for _ in range(300):
        if not any(Path(f"/proc/{pid}").exists() for pid in helpers):
            break
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in helpers)
    second = ServeProcess(database)
    started.append(second)
    for _ in range(600):
        view = second.client.get(f"/api/games/{created['id']}").json()
        if view["turn"] == 2:
            break
        time.sleep(0.1)
    assert view["turn"] == 2 and view["to_move"] == 0
    assert view["moves"][1]["seat"] == 1
