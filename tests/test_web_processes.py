"""Two real ``binscrabble serve`` processes on one real PostgreSQL, behind a real nginx
configured as docs/deploy.md shows (HTTP and WebSocket to both).

A move made through one process reaches the WebSocket clients of the other; two
submissions of one turn through the two at once apply once; a process killed (SIGKILL)
while its computer thinks leaves the game to the other, which plays on; a live clock that
runs out while its game's process is killed is settled by the other at its deadline.
Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from costly_analyses import THREE_BLANKS_SEEDS
from nginx_support import Nginx
from serve_known_bags import naming_headers
from web_api_support import Served, bearer, best_play, store_three_blanks_game, whole_analysis
from websockets.sync.client import ClientConnection, connect

from binscrabble.web.connections import MAX_PER_ADDRESS
from binscrabble.web.storage import Departure, NewGame, SeatRecord, Standing, Storage

#: Two processes and nginx for each test: they run in `make test-full` (docs/deploy.md).
pytestmark = pytest.mark.full

#: How docs/deploy.md starts each process behind nginx.
PROXIED = ("--proxy", "127.0.0.1")
#: The longest any wait for a view lasts, in seconds.
WAIT = 60.0
#: How long after its deadline a clock that ran out must be settled, in seconds (a bound,
#: well below the 30 s between two looks of a process at the deadlines coming up).
SETTLED_WITHIN = 10.0


@dataclass
class Site:
    """Two processes on one database, and nginx in front of them."""

    database: str
    processes: list[Served]
    nginx: Nginx

    def client(self, where: str) -> httpx.Client:
        """A client of ``where``: a process's address or nginx's."""
        return httpx.Client(base_url=where, trust_env=False, timeout=WAIT, headers=naming_headers())

    def moves(self, game_id: str) -> list[tuple[int, int, str]]:
        """The game's stored moves (turn, seat, notation), read in the database."""
        libpq = self.database.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(libpq) as connection:
            rows = connection.execute(
                "SELECT turn, seat, notation FROM moves WHERE game_id = %s ORDER BY turn",
                (game_id,),
            ).fetchall()
        return [(int(turn), int(seat), str(notation)) for turn, seat, notation in rows]

    def query(self, sql: str, *arguments: Any) -> list[tuple[Any, ...]]:
        """The rows of a query of the database."""
        libpq = self.database.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(libpq, autocommit=True) as connection:
            return connection.execute(sql, arguments).fetchall()

    def wait_until(self, sql: str, *arguments: Any) -> list[tuple[Any, ...]]:
        """Ask the database ``sql`` again until it answers some rows (within :data:`WAIT`)."""
        deadline = time.monotonic() + WAIT
        while not (rows := self.query(sql, *arguments)):
            assert time.monotonic() < deadline, f"no rows for {sql!r} within {WAIT:g} s"
            time.sleep(0.01)
        return rows

    def wait_for_claim(self, game_id: str, kind: str) -> str:
        """Wait until a process holds the game's claim of ``kind`` (web/leases.py); its owner."""
        claim = "SELECT owner FROM claims WHERE game_id = %s AND kind = %s"
        return str(self.wait_until(claim, game_id, kind)[0][0])


@contextlib.contextmanager
def running(database: str, folder: Path, *options: str) -> Iterator[Site]:
    """Two ``serve`` processes on ``database`` with the further ``options``, and nginx."""
    processes: list[Served] = []
    nginx = None
    try:
        for _ in range(2):
            processes.append(Served(database, *options))
        upstreams = [process.url.removeprefix("http://") for process in processes]
        nginx = Nginx(folder / "nginx", upstreams)
        yield Site(database, processes, nginx)
    finally:
        if nginx is not None:
            nginx.stop()
        for process in processes:
            process.stop()


@pytest.fixture
def site(postgres_url: str, tmp_path: Path) -> Iterator[Site]:
    with running(postgres_url, tmp_path, *PROXIED) as both:
        yield both


def live(base: str, game_id: str, token: str | None = None) -> ClientConnection:
    """A WebSocket client of a game at ``base`` (a process's address or nginx's)."""
    url = f"{base.replace('http://', 'ws://', 1)}/api/games/{game_id}/live"
    return connect(url + (f"?token={token}" if token else ""), open_timeout=WAIT)


def view_until(
    socket: ClientConnection, wanted: Callable[[dict[str, Any]], bool], within: float = WAIT
) -> dict[str, Any]:
    """The first view the socket receives that is ``wanted`` (within ``within`` seconds)."""
    deadline = time.monotonic() + within
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no wanted view within {within:g} s"
        view: dict[str, Any] = json.loads(socket.recv(timeout=left))
        if wanted(view):
            return view


def create(client: httpx.Client, players: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"players": players, **body})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def tokens(created: dict[str, Any]) -> list[str]:
    return [seat["token"] for seat in created["seats"] if seat.get("token")]


def seat_view(client: httpx.Client, game_id: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def play(client: httpx.Client, game_id: str, token: str, view: dict[str, Any]) -> httpx.Response:
    """Submit the seat's best play (else a pass) on the turn of its ``view``."""
    move = best_play(view) or "pass"
    body = {"move": move, "turn": view["turn"]}
    return client.post(f"/api/games/{game_id}/moves", json=body, headers=bearer(token))


def at_once(submissions: list[Callable[[], httpx.Response]]) -> list[httpx.Response]:
    """Run the submissions in threads of their own, let go at the same moment."""
    start = threading.Barrier(len(submissions))
    answers: list[httpx.Response] = []

    def submit(submission: Callable[[], httpx.Response]) -> None:
        start.wait(WAIT)
        answers.append(submission())

    threads = [threading.Thread(target=submit, args=(one,)) for one in submissions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    return answers


def test_a_move_through_one_process_reaches_the_websockets_of_the_other(site: Site) -> None:
    first, second = (site.client(process.url) for process in site.processes)
    created = create(site.client(site.nginx.url), [{"name": "Ann"}, {"name": "Bo"}])
    game_id = created["id"]
    seats = tokens(created)
    # Two spectators through nginx (taken in turn by its processes), one on each process.
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(live(site.nginx.url, game_id)) for _ in range(2)]
        sockets += [stack.enter_context(live(process.url, game_id)) for process in site.processes]
        for socket in sockets:
            view_until(socket, lambda view: view["turn"] == 0)
        for turn in range(6):
            # Moves go alternately through one process and the other.
            through = first if turn % 2 == 0 else second
            view = seat_view(through, game_id, seats[turn % 2])
            assert view["turn"] == turn
            answer = play(through, game_id, seats[turn % 2], view)
            assert answer.status_code == 200, answer.text
            for socket in sockets:
                seen = view_until(socket, lambda view, turn=turn: view["turn"] == turn + 1)
                assert seen["moves"][-1]["notation"] == answer.json()["notation"]
    assert [turn for turn, _, _ in site.moves(game_id)] == list(range(6))


def test_one_turn_submitted_through_both_processes_at_once_applies_once(site: Site) -> None:
    clients = [site.client(process.url) for process in site.processes]
    created = create(clients[0], [{"name": "Ann"}, {"name": "Bo"}])
    game_id = created["id"]
    seats = tokens(created)
    for turn in range(8):
        token = seats[turn % 2]
        # Each process has read the game as it stands (so neither refuses it as stale).
        views = [seat_view(client, game_id, token) for client in clients]
        assert [view["turn"] for view in views] == [turn, turn]
        answers = at_once(
            [
                functools.partial(play, client, game_id, token, view)
                for client, view in zip(clients, views, strict=True)
            ]
        )
        assert sorted(answer.status_code for answer in answers) == [200, 409]
    stored = site.moves(game_id)
    assert [(turn, seat) for turn, seat, _ in stored] == [(turn, turn % 2) for turn in range(8)]
    # Both processes tell the same game.
    assert seat_view(clients[0], game_id, seats[0]) == seat_view(clients[1], game_id, seats[0])


def test_a_process_killed_while_its_computer_thinks_leaves_the_game_to_the_other(
    site: Site,
) -> None:
    doomed, survivor = site.processes
    with site.client(doomed.url) as client:
        created = create(client, [{"name": "Ann"}, {"name": "Max", "computer": "max"}])
        game_id = created["id"]
        (ann,) = tokens(created)
        answer = play(client, game_id, ann, seat_view(client, game_id, ann))
        assert answer.status_code == 200, answer.text
    # The computer is now to move: once the process that stored Ann's move has claimed its
    # move (it thinks), that process dies.
    site.wait_for_claim(game_id, "computer")
    doomed.process.kill()
    doomed.process.wait(WAIT)
    assert len(site.moves(game_id)) == 1, "the computer had moved before its process died"
    with site.client(site.nginx.url) as client, live(survivor.url, game_id, ann) as socket:
        view = view_until(socket, lambda view: view["turn"] == 2)
        assert view["moves"][1]["seat"] == 1
        # The game goes on, through nginx (to the process left).
        answer = play(client, game_id, ann, seat_view(client, game_id, ann))
        assert answer.status_code == 200, answer.text
        view_until(socket, lambda view: view["turn"] >= 4)
    stored = site.moves(game_id)
    assert [turn for turn, _, _ in stored] == list(range(len(stored)))
    assert [seat for _, seat, _ in stored[:4]] == [0, 1, 0, 1]


def test_a_clock_that_runs_out_while_its_process_is_killed_is_settled_by_the_other(
    site: Site,
) -> None:
    doomed, survivor = site.processes
    clock = {"kind": "live", "seconds": 8}
    with site.client(doomed.url) as client:
        created = create(client, [{"name": "Ann"}, {"name": "Bo"}], clock=clock)
        game_id = created["id"]
        ann, bo = tokens(created)
        with live(doomed.url, game_id, ann) as socket:
            for turn, token in enumerate((ann, bo)):
                body = {"move": "pass", "turn": turn}
                answer = client.post(
                    f"/api/games/{game_id}/moves", json=body, headers=bearer(token)
                )
                assert answer.status_code == 200, answer.text
            running = view_until(socket, lambda view: view["turn"] == 2)["clock"]
    # Ann's time runs; her game's process dies before it runs out.
    doomed.process.kill()
    doomed.process.wait(WAIT)
    assert running["running"] == 0
    # The other process settles it at its deadline: it knows of it from the news of Bo's
    # move, not from its look at the deadlines coming up (every 30 s), which could be later.
    within = running["remaining_ms"][0] / 1000 + SETTLED_WITHIN
    with live(survivor.url, game_id, bo) as socket:
        view = view_until(socket, lambda view: view["over"], within)
    assert view["end"] == {"reason": "time", "seat": 0, "winners": [1]}
    assert len(site.moves(game_id)) == 2


def test_a_move_from_a_copy_that_missed_a_departure_is_not_stored(postgres_url: str) -> None:
    # Two processes' storages; the second's copy of the game has not heard that Bo resigned.
    first, second = Storage(postgres_url), Storage(postgres_url)
    try:
        seats = [SeatRecord(0, "Ann", None, "a" * 64), SeatRecord(1, "Bo", None, "b" * 64)]
        first.create_game(NewGame("g", {}, "7", seats))
        resigned = Standing(None, "resigned")
        assert first.add_departure("g", Departure(1, 0, "resigned", 5), resigned)
        assert not second.append_move("g", 0, 0, "pass", 6, Standing(1, None), departures=0)
        stored = second.load_game("g")
        assert stored is not None and stored.moves == [] and len(stored.departures) == 1
        # A copy that knows of the departure is refused by the game, not by the storage.
        assert second.append_move("g", 0, 0, "pass", 7, None, departures=1)
    finally:
        first.close()
        second.close()


def test_an_analysis_is_computed_by_one_process_and_taken_over_when_it_dies(site: Site) -> None:
    store_three_blanks_game(site.database, "costly", THREE_BLANKS_SEEDS[0])
    doomed, survivor = site.processes
    libpq = site.database.replace("postgresql+psycopg://", "postgresql://")
    # The whole analysis takes well under a second of work: to find its process at work,
    # a transaction of this test holds turn 2's row, so the process that stores turn 1
    # then waits on it, its claim held, until it is killed.
    with psycopg.connect(libpq) as holder:
        holder.execute("INSERT INTO analysed (game_id, turn, facts) VALUES ('costly', 2, '{}')")
        with site.client(doomed.url) as client:
            first = client.get("/api/games/costly/analysis")
            assert first.status_code == 200, first.text
        owner = site.wait_for_claim("costly", "analysis")
        # The other process answers with the turns stored, and does not compute them again.
        with site.client(survivor.url) as client:
            answer = client.get("/api/games/costly/analysis")
            assert answer.status_code == 200, answer.text
            assert answer.json()["total"] == 6
            claims = site.query("SELECT owner FROM claims WHERE kind = 'analysis'")
            assert claims == [(owner,)]
        assert site.wait_until("SELECT turn FROM analysed WHERE game_id = 'costly'") == [(1,)]
        doomed.process.kill()
        doomed.process.wait(WAIT)
        holder.rollback()
    with site.client(survivor.url) as client:
        analysis = whole_analysis(client, "costly")  # type: ignore[arg-type]
    assert analysis["complete"] and [turn["turn"] for turn in analysis["turns"]] == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    stored = site.query("SELECT turn FROM analysed WHERE game_id = 'costly' ORDER BY turn")
    assert stored == [(turn,) for turn in range(1, 7)]


def test_behind_nginx_each_client_has_one_budget_across_both_processes(
    postgres_url: str, tmp_path: Path
) -> None:
    # nginx passes each client's address on (X-Forwarded-For); the processes count it together.
    options = (*PROXIED, "--rate-limit", "all=off", "--rate-limit", "create=3/minute")
    body = {"players": [{"name": "Ann"}, {"name": "Bo"}]}
    with running(postgres_url, tmp_path, *options) as both:
        with nginx_client(both, "127.0.0.2") as client:
            answers = [client.post("/api/games", json=body).status_code for _ in range(5)]
        assert answers == [201, 201, 201, 429, 429]
        with nginx_client(both, "127.0.0.3") as other:
            assert other.post("/api/games", json=body).status_code == 201
        log = (both.nginx.folder / "access.log").read_text()
        # Its requests went to both processes, in turn (a new connection for each).
        assert len(set(re.findall(r"upstream=(\S+)", log))) == 2


def nginx_client(site: Site, address: str) -> httpx.Client:
    """A client of nginx whose requests come from ``address``, a new connection each."""
    transport = httpx.HTTPTransport(local_address=address)
    limits = httpx.Limits(max_keepalive_connections=0)
    return httpx.Client(
        base_url=site.nginx.url,
        transport=transport,
        limits=limits,
        trust_env=False,
        timeout=WAIT,
        headers=naming_headers(),
    )


def test_behind_nginx_a_process_takes_more_connections_than_one_address_may_open(
    postgres_url: str, tmp_path: Path
) -> None:
    # Every connection nginx opens comes from its one address; a process started with
    # --proxy (as docs/deploy.md starts them) does not bound that address's connections as
    # a client's (nginx bounds each client's own: limit_conn).
    many = 2 * MAX_PER_ADDRESS + 10
    with running(postgres_url, tmp_path, *PROXIED) as both:
        created = create(both.client(both.nginx.url), [{"name": "Ann"}, {"name": "Bo"}])
        with contextlib.ExitStack() as stack:
            sockets = []
            for index in range(many):
                source = f"127.0.3.{index % 200 + 1}"  # many clients, each under nginx's bound
                sockets.append(
                    stack.enter_context(live_from(both.nginx.url, created["id"], source))
                )
            for socket in sockets:
                view_until(socket, lambda view: view["turn"] == 0)


def live_from(base: str, game_id: str, source: str) -> ClientConnection:
    """A WebSocket spectator of a game at ``base``, its connection from ``source``."""
    url = f"{base.replace('http://', 'ws://', 1)}/api/games/{game_id}/live"
    return connect(url, open_timeout=WAIT, proxy=None, source_address=(source, 0))


def test_a_process_that_starts_beside_a_running_one_stops_no_clock(site: Site) -> None:
    # The second process started while the first was alive (its heartbeat fresh): the
    # site was never down, so no pause (a time in which no clock runs) may be stored.
    assert site.query("SELECT count(*) FROM heartbeat WHERE NOT stopped") == [(2,)]
    assert site.query("SELECT down_from, down_to FROM pauses") == []


def test_a_start_is_a_pause_only_once_every_process_stopped(site: Site) -> None:
    # The first process stops while the second serves: its stop is the newest heartbeat,
    # yet a third process starting then stores no pause (the second was serving).
    first, second = site.processes
    first.stop()
    third = Served(site.database, *PROXIED)
    try:
        assert site.query("SELECT down_from, down_to FROM pauses") == []
        # Every process stops, and one starts at once: the site was down from the last stop.
        second.stop()
        third.stop()
        [(last_stop,)] = site.query("SELECT MAX(at) FROM heartbeat")  # the last stop
        fourth = Served(site.database, *PROXIED)
        fourth.stop()
    finally:
        third.stop()
    [(down_from, down_to)] = site.query("SELECT down_from, down_to FROM pauses")
    assert down_from == last_stop < down_to


def test_a_process_killed_is_taken_for_one_serving_until_its_heartbeat_is_old(
    postgres_url: str,
) -> None:
    # A process killed marks nothing: one that starts within ALIVE_MS of its last
    # heartbeat cannot tell it from a process serving, and stores no pause.
    killed = Served(postgres_url)
    killed.process.kill()
    killed.process.wait(timeout=WAIT)
    killed.stop()
    started = Served(postgres_url)
    try:
        with psycopg.connect(postgres_url.replace("postgresql+psycopg://", "postgresql://")) as db:
            assert db.execute("SELECT down_from FROM pauses").fetchall() == []
            assert db.execute("SELECT count(*) FROM heartbeat WHERE NOT stopped").fetchall() == [
                (2,)
            ]
    finally:
        started.stop()


def test_a_join_on_one_process_starts_the_clock_in_the_others_views(site: Site) -> None:
    # Attack audit F11: Bo's join stored by the second process never reached the first,
    # whose views said "waiting for Bo, no clock runs" while Bo's time ran out.
    first, second = (site.client(process.url) for process in site.processes)
    clock = {"kind": "live", "seconds": 60}
    created = create(first, [{"name": "Ann"}, {"name": "Bo"}], clock=clock)
    game_id = created["id"]
    ann, bo = tokens(created)
    assert seat_view(first, game_id, ann)["clock"]["waiting"] == [1]
    with live(site.processes[0].url, game_id, ann) as socket:
        view_until(socket, lambda view: view["clock"]["waiting"] == [1])
        assert seat_view(second, game_id, bo)["clock"]["running"] == 0
        # The first process hears of the join and tells its WebSocket listeners at once.
        heard = view_until(socket, lambda view: not view["clock"]["waiting"])
        assert heard["clock"]["running"] == 0
    # Its reads say so too.
    clock_now = seat_view(first, game_id, ann)["clock"]
    assert clock_now["waiting"] == [] and clock_now["running"] == 0
