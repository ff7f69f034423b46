"""Helpers of the web API tests: a client per database file, seats, and legal moves found
with the library from a seat's own view (what a careful player can know)."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import serve_known_bags
from costly_analyses import PERMISSIVE
from fastapi.testclient import TestClient
from serve_known_bags import naming_headers
from sqlalchemy import bindparam, create_engine, text

from binscrabble.board import Board
from binscrabble.game import Game
from binscrabble.move import move_notation, parse_move
from binscrabble.movegen import generate_moves
from binscrabble.rules import Rules
from binscrabble.web.active_games import standing
from binscrabble.web.app import create_app
from binscrabble.web.computer import Fairness
from binscrabble.web.storage import NewGame, SeatRecord, Storage, database_url

#: Bound on the turns of one game (a game between people who always play ends far sooner).
MAX_TURNS = 300


#: The line ``binscrabble serve`` prints once it accepts connections: its address.
READY = re.compile(r"^binscrabble serving on (http://127\.0\.0\.1:(\d+))/$")


def start_serve(database: Path | str, *options: str) -> tuple[subprocess.Popen[str], str]:
    """``binscrabble serve --port 0`` on a database (a file's path or a URL) with one worker
    for people's games and the further ``options``: the process and the first line it printed
    (where it serves)."""
    # The games a test creates draw bags seeded from its id (serve_known_bags.py).
    command = [sys.executable, serve_known_bags.PATH, "serve", "--port", "0"]
    command += ["--db", str(database), "--workers", "1", *options]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert process.stdout is not None
    return process, process.stdout.readline().rstrip("\n")


class Served:
    """A real ``binscrabble serve`` (:func:`start_serve`) on a free port of 127.0.0.1."""

    def __init__(self, database: Path | str, *options: str) -> None:
        self.database = database
        self.process, line = start_serve(database, *options)
        ready = READY.match(line)
        if ready is None:
            self.stop()
            raise AssertionError(f"binscrabble serve did not print its address: {line!r}")
        self.url = ready.group(1)

    def client(self, address: str = "127.0.0.1") -> httpx.Client:
        """A client of the server whose requests come from ``address`` (a loopback address)."""
        transport = httpx.HTTPTransport(local_address=address)
        return httpx.Client(
            base_url=self.url,
            transport=transport,
            trust_env=False,
            timeout=60,
            headers=naming_headers(),
        )

    def stop(self) -> None:
        """Ask the server to stop (SIGTERM); kill it when it has not ended within 30 s."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        if self.process.stdout is not None:
            self.process.stdout.close()


@contextmanager
def serving(database: Path | str, *options: str) -> Iterator[Served]:
    """A :class:`Served` server for the block, stopped at its end whatever happened."""
    served = Served(database, *options)
    try:
        yield served
    finally:
        served.stop()


def sql(database: Path | str, statement: str, **parameters: Any) -> list[tuple[Any, ...]]:
    """Run one SQL statement (``:name`` parameters) on the database (an SQLite file's path or
    a URL), committed, as another process would: the rows it answers."""
    url = database_url(str(database))
    wait = {"timeout": 30} if url.startswith("sqlite") else {}
    engine = create_engine(url, connect_args=wait)
    try:
        with engine.begin() as connection:
            result = connection.execute(text(statement), parameters)
            return [tuple(row) for row in result] if result.returns_rows else []
    finally:
        engine.dispose()


def stored_moves(database: Path | str, game_ids: list[str], seat: int | None = None) -> int:
    """How many moves the games ``game_ids`` have stored in the database (only those of
    ``seat`` when one is given), read as another process reads them."""
    if not game_ids:
        return 0
    query = "SELECT COUNT(*) FROM moves WHERE game_id IN :ids"
    if seat is not None:
        query += " AND seat = :seat"
    url = database_url(str(database))
    engine = create_engine(url, connect_args={"timeout": 30} if url.startswith("sqlite") else {})
    try:
        with engine.connect() as connection:
            statement = text(query).bindparams(bindparam("ids", expanding=True))
            count = connection.execute(statement, {"ids": game_ids, "seat": seat}).scalar()
    finally:
        engine.dispose()
    return int(count or 0)


@contextmanager
def web_client(database: Path | str, fairness: Fairness | None = None) -> Iterator[TestClient]:
    """A test client of an app on ``database``, its background tasks running throughout."""
    with TestClient(create_app(str(database), workers=1, fairness=fairness)) as client:
        yield client


@contextmanager
def from_address(client: TestClient, host: str) -> Iterator[TestClient]:
    """Within the block, the test client's requests come from ``host`` (the server counts
    client addresses apart: rate limits, the computer's shares, the lobby's list)."""
    transport = client._transport
    before = transport.client  # type: ignore[attr-defined]
    transport.client = (host, 50000)  # type: ignore[attr-defined]
    try:
        yield client
    finally:
        transport.client = before  # type: ignore[attr-defined]


def bearer(token: str) -> dict[str, str]:
    """The header that proves a seat."""
    return {"Authorization": f"Bearer {token}"}


def new_game(
    client: TestClient, players: list[dict[str, Any]], rules: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Create a game; the answer of ``POST /api/games``."""
    body: dict[str, Any] = {"players": players}
    if rules is not None:
        body["rules"] = rules
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def seat_view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    """``GET /api/games/ID``, with a seat's token or as a spectator."""
    answer = client.get(f"/api/games/{game_id}", headers=bearer(token) if token else {})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def best_play(view: dict[str, Any]) -> str | None:
    """The best-scoring placement for the seat of ``view`` in notation, ``None`` if none."""
    board = Board.from_rows(view["board"], view["blanks"], view["rotated"])
    seat = view["seat"]
    racks: list[str | None] = [None] * len(view["players"])
    racks[seat] = view["rack"]
    game = Game.from_setup(
        Rules.from_mapping(view["rules"]), board, racks, to_move=seat, unseen=None, seed=0
    )
    generated = generate_moves(game)
    if not generated:
        return None
    return move_notation(generated[0].place, game.board)


def server_truth(client: TestClient, game_id: str) -> tuple[tuple[str, ...], str, tuple[str, ...]]:
    """What the server keeps secret about a game: every rack, the seed and the bag."""
    active = client.app.state.server.table.active_games[game_id]  # type: ignore[attr-defined]
    return active.game.racks, active.stored.seed, active.game.bag


def game_with_a_play(client: TestClient) -> tuple[dict[str, Any], str]:
    """A new game of two people whose first seat has a play (a rack may hold no ``=``)."""
    for _ in range(50):
        created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
        play = best_play(seat_view(client, created["id"], created["seats"][0]["token"]))
        if play is not None:
            return created, play
    raise AssertionError("fifty racks in a row without a play: the deal is broken")


def store_three_blanks_game(database: Path | str, game_id: str, seed: str) -> None:
    """Store a finished game of two people under permissive rules, its first seat holding
    three blanks, ended by six passes (each a costly turn to analyse, one in two)."""
    storage = Storage(database_url(str(database)))
    try:
        seats = [SeatRecord(0, "Ann", None, "a" * 64), SeatRecord(1, "Bo", None, "b" * 64)]
        storage.create_game(NewGame(game_id, dict(PERMISSIVE), seed, seats))
        for turn in range(6):
            assert storage.append_move(game_id, turn, turn % 2, "pass")
    finally:
        storage.close()


def whole_analysis(client: TestClient, game_id: str) -> dict[str, Any]:
    """``GET /api/games/ID/analysis`` asked again until it is complete (at most 120 s)."""
    deadline = time.monotonic() + 120
    while True:
        answer = client.get(f"/api/games/{game_id}/analysis")
        assert answer.status_code == 200, answer.text
        analysis = dict(answer.json())
        if analysis["complete"] or time.monotonic() > deadline:
            return analysis
        time.sleep(0.1)


def weak_play(game: Game) -> str:
    """A legal play for the seat to move of at most four tiles, without a blank when there
    is one, from the middle of the ranking (so an analysis finds a better one); ``pass``
    when the seat has no play."""
    fitting = [move for move in generate_moves(game)[:2000] if len(move.place.tiles) <= 4]
    plain = [move for move in fitting if not any(tile.blank for tile in move.place.tiles)]
    chosen = plain or fitting
    return move_notation(chosen[len(chosen) // 2].place, game.board) if chosen else "pass"


def store_game(
    database: Path | str,
    game_id: str,
    seed: str,
    seats: list[SeatRecord],
    choose: Callable[[Game, int], str],
) -> list[str]:
    """Store a finished game of ``seats`` under the default rules on the bag of ``seed``,
    each turn's move in notation given by ``choose(game, turn)`` (the game as it stands,
    knowing every rack) until the game ends. The same seed and choices always give the same
    game. Its moves, in order."""
    game = Game(tuple(seat.name for seat in seats), Rules(), seed=int(seed))
    storage = Storage(database_url(str(database)))
    try:
        storage.create_game(NewGame(game_id, dict(Rules().to_mapping()), seed, seats))
        turn = 0
        while not game.is_over() and turn < MAX_TURNS:
            seat = game.to_move
            notation = choose(game, turn)
            game.push(parse_move(notation, game.board))
            assert storage.append_move(game_id, turn, seat, notation, standing=standing(game))
            turn += 1
        assert game.is_over(), f"the game of seed {seed} did not end in {MAX_TURNS} turns"
        return game.notations()
    finally:
        storage.close()


def store_played_game(
    database: Path | str, game_id: str, seed: str, seats: list[SeatRecord], plays: int | None
) -> list[str]:
    """:func:`store_game` with :func:`weak_play` for the first ``plays`` turns (every turn
    when ``None``), then passes until the game ends."""

    def choose(game: Game, turn: int) -> str:
        return weak_play(game) if plays is None or turn < plays else "pass"

    return store_game(database, game_id, seed, seats, choose)
