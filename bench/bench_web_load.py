"""Load on a real `binscrabble serve` (run by `make bench`): concurrent games played as fast
as the server accepts their moves, with every seat and spectator following on a WebSocket.

It starts `binscrabble serve --port 0` on 127.0.0.1 with a database in a temporary folder,
then keeps 50 games going (40 between two seats this script plays, 10 of one seat against
the `hard` computer, each followed by a spectator too): 100 WebSocket clients. Each seat
finds its move (the best placement; an exchange or a pass when there is none) in a process
of its own, so the time spent thinking is not counted; this script and those processes
run at a lower priority (niceness 10) than the server, so that on a machine of few cores
they do not take the CPU the server's figures depend on; a move's latency is the time from its
submission to the moment every client of its game has a view that includes it. A game that
ends is replaced by a new one. After the run it stops the server, starts it again on the same
file and checks that every acknowledged move is stored, at its turn, as acknowledged.

Before the load, and again spread over it, one client sends sequential GETs of a game's view
on one kept-alive connection: the time each takes is the latency every request on a reused
connection pays (a missing TCP_NODELAY on the server shows here as some 40 ms each).

Prints figures (targets: p95 <= 50 ms, keep-alive p50 <= 5 ms, zero errors, zero lost
moves); exits 1 only when moves were lost or errors happened, never on time.

With ``--db URL`` the servers use that database (a new, empty PostgreSQL database), and with
``--processes N`` the script starts N servers on it: each game submits its moves to one of
them, in turn, and its WebSocket clients follow it on that one and the next ones, so that a
move reaches most of its clients through another process (bench_web_processes.py compares
1 and 2 processes on PostgreSQL with 1 on SQLite under the same load).

    .venv/bin/python bench/bench_web_load.py [--seconds 60] [--games 50] [--hard-games 10]
        [--db postgresql+psycopg://USER@HOST/DATABASE] [--processes 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from serve_support import stop_server

from binscrabble.move import move_notation
from binscrabble.movegen import best_moves
from binscrabble.position import load_position
from binscrabble.web.connections import KEEP_ALIVE

READY = re.compile(r"binscrabble serving on (http://127\.0\.0\.1:\d+)/")
# Niceness of this script and of its move finders (never the server's): the server keeps
# first call on the CPU, so the figures are the server's and not the client's.
CLIENT_NICENESS = 10
# Seconds any one request or message may take before it counts as an error.
STEP_TIMEOUT = 30.0
# Seconds after the end of the run for the last deliveries to arrive.
DRAIN_SECONDS = 5.0
# Sequential GETs on one kept-alive connection, on the idle server and again during the load.
KEEPALIVE_REQUESTS = 200
# Seconds a client keeps an idle connection for its next request: well within the server's
# KEEP_ALIVE. A connection kept as long as the server keeps it races the server's close: a
# request sent as the server closes is lost with the connection (ReadError), and a POST is
# not sent again (it is not idempotent). The server's clock starts as it sends an answer,
# the client's as it reads it, later on a loaded machine.
CLIENT_KEEP_ALIVE = KEEP_ALIVE / 2


def choose_move(view: dict[str, Any]) -> str:
    """The seat's move, from its own view: its best placement, else an exchange or a pass."""
    game = load_position(
        {
            "rules": view["rules"],
            "board": view["board"],
            "blanks": view["blanks"],
            "rotated": view["rotated"],
            "rack": view["rack"],
        }
    )
    found = best_moves(game, 1)
    if found:
        return move_notation(found[0].place, game.board)
    if view["bag"] >= 9:
        return "exchange " + str(view["rack"])
    return "pass"


def yield_to_the_server() -> None:
    """Lower this process's priority: on a machine of few cores the load script would
    otherwise take CPU from the server it measures."""
    os.nice(CLIENT_NICENESS)


class ServeProcess:
    """`binscrabble serve` on a free port of 127.0.0.1, its output drained by a thread."""

    def __init__(
        self,
        database: str,
        folder: Path,
        workers: int,
        options: tuple[str, ...] = ("--rate-limit", "all=off"),
    ) -> None:
        """``serve`` on ``database`` (a file's path or a URL), its log in ``folder``;
        ``options`` go to ``serve``; by default no rate limit: this script's one address
        stands for the people of every game it plays."""
        command = [sys.executable, "-m", "binscrabble", "serve", "--host", "127.0.0.1"]
        command += ["--port", "0", "--db", database, "--workers", str(workers), *options]
        self.log = (folder / "server.log").open("a")
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=self.log, text=True, cwd=folder
        )
        self.url = ""
        ready = threading.Event()
        threading.Thread(target=self._drain, args=(ready,), daemon=True).start()
        if not ready.wait(60) or not self.url:
            self.stop()
            raise RuntimeError(f"binscrabble serve did not start: see {self.log.name}")

    def _drain(self, ready: threading.Event) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            found = READY.search(line)
            if found and not self.url:
                self.url = found.group(1)
                ready.set()
        ready.set()

    def cpu_seconds(self) -> float | None:
        """The server process's CPU time so far (user + system), where /proc tells it."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        # utime and stime are fields 14 and 15 of stat(5), in clock ticks.
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.process.poll() is None:
            stop_server(self.process)
        self.log.close()


@dataclass
class Totals:
    """What the whole run counts."""

    latencies: list[float] = field(default_factory=list)
    answers: list[float] = field(default_factory=list)
    acknowledged: list[tuple[str, int, str, str]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    server_cpu: float | None = None
    script_cpu: float = 0.0
    loop_lag: list[float] = field(default_factory=list)
    thinking_cpu: float | None = None
    games_started: int = 0
    games_finished: int = 0
    undelivered: int = 0
    keepalive_idle: list[float] = field(default_factory=list)
    keepalive_loaded: list[float] = field(default_factory=list)


class LiveGame:
    """One game: its WebSocket clients, the latest view each seat holds, and the moves
    whose delivery is being timed."""

    def __init__(self, game_id: str, tokens: dict[int, str], spectator: bool) -> None:
        self.game_id = game_id
        self.tokens = tokens
        self.clients = [*tokens.items()] + ([(-1, "")] if spectator else [])
        self.views: dict[int, dict[str, Any]] = {}
        self.changed = asyncio.Event()
        # turn -> (submitted at, clients that have not yet seen it)
        self.pending: dict[int, tuple[float, set[int]]] = {}
        self.tasks: list[asyncio.Task[None]] = []

    def expect(self, turn: int, submitted: float) -> None:
        self.pending[turn] = (submitted, set(range(len(self.clients))))

    def seen(self, client: int, turn: int, totals: Totals) -> None:
        now = time.perf_counter()
        for waiting in [number for number in self.pending if number <= turn]:
            submitted, missing = self.pending[waiting]
            missing.discard(client)
            if not missing:
                totals.latencies.append(now - submitted)
                del self.pending[waiting]


async def follow(game: LiveGame, client: int, base: str, totals: Totals, source: str) -> None:
    """One WebSocket client of a game: records when each view arrives."""
    seat, token = game.clients[client]
    url = f"{base.replace('http', 'ws', 1)}/api/games/{game.game_id}/live"
    if token:
        url += f"?token={token}"
    try:
        async with websockets.connect(
            url, open_timeout=STEP_TIMEOUT, proxy=None, local_addr=(source, 0)
        ) as socket:
            async for message in socket:
                view = json_view(message)
                game.seen(client, view["turn"], totals)
                if seat >= 0:
                    game.views[seat] = view
                    game.changed.set()
                if view["over"]:
                    return
    except (OSError, websockets.WebSocketException) as problem:
        totals.errors[f"websocket: {type(problem).__name__}"] += 1


def json_view(message: str | bytes) -> dict[str, Any]:
    view: dict[str, Any] = json.loads(message)
    return view


async def start_game(http: httpx.AsyncClient, hard: bool, totals: Totals) -> LiveGame | None:
    players = [{"name": "Ann"}, {"name": "Hal", "computer": "hard"} if hard else {"name": "Bob"}]
    answer = await http.post("/api/games", json={"players": players})
    if answer.status_code != 201:
        totals.errors[f"create: {answer.status_code}"] += 1
        return None
    created = answer.json()
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"] if seat.get("token")}
    totals.games_started += 1
    return LiveGame(created["id"], tokens, spectator=hard)


async def seat_to_move(game: LiveGame) -> dict[str, Any] | None:
    """The latest view of the seat this script plays that is to move; None once the game
    is over."""
    while True:
        if game.views:
            latest = max(game.views.values(), key=lambda view: view["turn"])
            if latest["over"]:
                return None
            mover = game.views.get(latest["to_move"])
            if mover is not None and mover["turn"] == latest["turn"]:
                return mover
        game.changed.clear()
        await asyncio.wait_for(game.changed.wait(), STEP_TIMEOUT)


async def play_game(
    game: LiveGame,
    http: httpx.AsyncClient,
    thinker: ProcessPoolExecutor,
    deadline: float,
    totals: Totals,
) -> None:
    """Submit this game's moves as fast as they are accepted, until it ends or time is up."""
    loop = asyncio.get_running_loop()
    while time.perf_counter() < deadline:
        view = await seat_to_move(game)
        if view is None:
            totals.games_finished += 1
            return
        move = await loop.run_in_executor(thinker, choose_move, view)
        if time.perf_counter() >= deadline:
            return
        turn = view["turn"]
        token = game.tokens[view["seat"]]
        submitted = time.perf_counter()
        game.expect(turn + 1, submitted)
        answer = await http.post(
            f"/api/games/{game.game_id}/moves",
            json={"move": move, "turn": turn},
            headers=bearer(token),
        )
        if answer.status_code != 200:
            totals.errors[f"move: {answer.status_code} {answer.json().get('error', '')}"] += 1
            game.pending.pop(turn + 1, None)
            return
        totals.answers.append(time.perf_counter() - submitted)
        accepted = answer.json()
        totals.acknowledged.append((game.game_id, turn, accepted["notation"], token))
        # Wait for this seat's own view of the move before choosing the next one.
        while game.views[view["seat"]]["turn"] <= turn:
            game.changed.clear()
            await asyncio.wait_for(game.changed.wait(), STEP_TIMEOUT)


def http_client(base: str, source: str = "127.0.0.1") -> httpx.AsyncClient:
    """A client of one game's own: httpx's pool looks over all its connections on every
    request, which a single pool of a hundred connections turns into this script's main
    cost (and a delay added to every figure)."""
    return httpx.AsyncClient(
        base_url=base,
        # The transport's own limits: a client given a transport leaves its ``limits`` unused.
        transport=httpx.AsyncHTTPTransport(
            local_address=source,
            limits=httpx.Limits(max_connections=1, keepalive_expiry=CLIENT_KEEP_ALIVE),
        ),
        timeout=httpx.Timeout(STEP_TIMEOUT),
        trust_env=False,
    )


async def keep_a_game_going(
    bases: list[str],
    thinker: ProcessPoolExecutor,
    hard: bool,
    deadline: float,
    totals: Totals,
    finished: list[LiveGame],
    source: str,
) -> None:
    """One of the concurrent games: when it ends, the next one starts, until time is up.

    Each runs from an address of its own (``source``), as the people of a game would: the
    server bounds the connections of one address. Its moves go to the first of ``bases``
    (the servers' addresses), its WebSocket clients to each in turn."""
    async with http_client(bases[0], source) as http:
        await play_games(bases, http, thinker, hard, deadline, totals, finished, source)


async def play_games(
    bases: list[str],
    http: httpx.AsyncClient,
    thinker: ProcessPoolExecutor,
    hard: bool,
    deadline: float,
    totals: Totals,
    finished: list[LiveGame],
    source: str,
) -> None:
    """Games one after the other, each replacing the last one that ended."""
    while time.perf_counter() < deadline:
        game = await start_game(http, hard, totals)
        if game is None:
            return
        # Each client of the game on the next process in turn: with several processes, a
        # move submitted to one reaches clients of the others.
        game.tasks = [
            asyncio.create_task(follow(game, client, bases[client % len(bases)], totals, source))
            for client in range(len(game.clients))
        ]
        try:
            await play_game(game, http, thinker, deadline, totals)
        except (TimeoutError, httpx.HTTPError) as problem:
            totals.errors[f"play: {type(problem).__name__}"] += 1
        finished.append(game)
        if time.perf_counter() >= deadline:
            return  # its clients stay to receive the last moves, and are stopped after
        over = any(view["over"] for view in game.views.values())
        if not over:
            return  # an error ended this game's play: counted, and not replaced
        # The game is over: its clients end on their own when they see it.
        await asyncio.wait(game.tasks, timeout=STEP_TIMEOUT)


async def keepalive_gets(
    base: str, count: int, pause: float, times: list[float], totals: Totals
) -> None:
    """``count`` sequential GETs of one game's view on one kept-alive connection, ``pause``
    seconds apart, each one's time appended to ``times``."""
    async with http_client(base) as http:
        created = await http.post("/api/games", json={"players": [{"name": "A"}, {"name": "B"}]})
        if created.status_code != 201:
            totals.errors[f"keep-alive: create {created.status_code}"] += 1
            return
        path = f"/api/games/{created.json()['id']}"
        for _ in range(count):
            started = time.perf_counter()
            answer = await http.get(path)
            if answer.status_code != 200:
                totals.errors[f"keep-alive: {answer.status_code}"] += 1
                return
            times.append(time.perf_counter() - started)
            await asyncio.sleep(pause)


async def watch_loop_lag(totals: Totals, until: float) -> None:
    """How late this script's own event loop wakes up: a busy or starved loop would make
    every delivery look slower than the server made it."""
    while time.perf_counter() < until:
        asked = time.perf_counter()
        await asyncio.sleep(0.01)
        totals.loop_lag.append(time.perf_counter() - asked - 0.01)


async def run_load(bases: list[str], options: argparse.Namespace, totals: Totals) -> list[LiveGame]:
    """The load on the servers at ``bases``: game ``i`` submits its moves to server ``i``
    (in turn), and its clients follow it on that server and the next ones."""
    base = bases[0]
    games: list[LiveGame] = []
    thinkers = options.thinkers
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with ProcessPoolExecutor(thinkers, initializer=yield_to_the_server) as thinker:
        # Each thinking process loads the move generator before the clock starts.
        await asyncio.gather(
            *(
                asyncio.get_running_loop().run_in_executor(thinker, choose_move, EMPTY_VIEW)
                for _ in range(thinkers)
            )
        )
        await keepalive_gets(base, KEEPALIVE_REQUESTS, 0.0, totals.keepalive_idle, totals)
        deadline = time.perf_counter() + options.seconds
        lag = asyncio.create_task(watch_loop_lag(totals, deadline))
        pause = options.seconds / KEEPALIVE_REQUESTS
        await asyncio.gather(
            lag,
            keepalive_gets(base, KEEPALIVE_REQUESTS, pause, totals.keepalive_loaded, totals),
            *(
                keep_a_game_going(
                    bases[index % len(bases) :] + bases[: index % len(bases)],
                    thinker,
                    index < options.hard_games,
                    deadline,
                    totals,
                    games,
                    f"127.0.2.{index + 1}",
                )
                for index in range(options.games)
            ),
        )
        drain_until = time.perf_counter() + DRAIN_SECONDS
        while any(game.pending for game in games) and time.perf_counter() < drain_until:
            await asyncio.sleep(0.05)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    totals.thinking_cpu = (children.ru_utime + children.ru_stime) - (
        children_before.ru_utime + children_before.ru_stime
    )
    for game in games:
        totals.undelivered += len(game.pending)
        for task in game.tasks:
            task.cancel()
    await asyncio.gather(*(task for game in games for task in game.tasks), return_exceptions=True)
    return games


EMPTY_VIEW: dict[str, Any] = {
    "rules": {"preset": "standard"},
    "board": ["." * 15] * 15,
    "blanks": [],
    "rotated": [],
    "rack": "1+1=10",
    "bag": 80,
}


def lost_moves(base: str, acknowledged: list[tuple[str, int, str, str]]) -> tuple[list[str], int]:
    """Each acknowledged move that the restarted server does not have at its turn, and how
    many moves its games hold in all (the computer's included). Each move is read in the
    view of the seat that made it (others see an exchange's tile count only)."""
    stored: dict[tuple[str, str], list[dict[str, Any]]] = {}
    missing: list[str] = []
    with httpx.Client(base_url=base, timeout=STEP_TIMEOUT, trust_env=False) as http:
        for game_id, turn, notation, token in acknowledged:
            if (game_id, token) not in stored:
                answer = http.get(f"/api/games/{game_id}", headers=bearer(token))
                stored[game_id, token] = answer.json()["moves"]
            moves = stored[game_id, token]
            if turn >= len(moves) or moves[turn]["notation"] != notation:
                missing.append(f"{game_id} turn {turn} {notation}")
    games = {game_id: moves for (game_id, _), moves in stored.items()}
    return missing, sum(len(moves) for moves in games.values())


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(
    options: argparse.Namespace, totals: Totals, clients: int, lost: list[str], stored: int
) -> None:
    moves = len(totals.acknowledged)
    kind = "SQLite" if not options.db else options.db.partition(":")[0].partition("+")[0]
    print(f"servers: {options.processes} process(es) on {kind}")
    print(f"games: {options.games} at once ({options.hard_games} against hard), ", end="")
    print(f"{totals.games_started} started, {totals.games_finished} finished")
    print(f"WebSocket clients at once: {clients}")
    print(f"moves acknowledged: {moves} in {options.seconds:g} s: {moves / options.seconds:.1f}/s")
    print(f"moves stored, the computer's included: {stored}: {stored / options.seconds:.1f}/s")
    if totals.latencies:
        in_ms = [value * 1000 for value in totals.latencies]
        print(
            "submission to every client of the game: "
            f"p50 {percentile(in_ms, 0.50):.1f} ms, p95 {percentile(in_ms, 0.95):.1f} ms, "
            f"p99 {percentile(in_ms, 0.99):.1f} ms, max {max(in_ms):.1f} ms "
            f"({len(in_ms)} moves timed)"
        )
    if totals.answers:
        in_ms = [value * 1000 for value in totals.answers]
        print(
            "submission to its HTTP answer: "
            f"p50 {percentile(in_ms, 0.50):.1f} ms, p95 {percentile(in_ms, 0.95):.1f} ms, "
            f"p99 {percentile(in_ms, 0.99):.1f} ms"
        )
    for when, times in (("idle", totals.keepalive_idle), ("loaded", totals.keepalive_loaded)):
        if times:
            in_ms = [value * 1000 for value in times]
            print(
                f"sequential GETs on one kept-alive connection, server {when}: "
                f"p50 {percentile(in_ms, 0.50):.1f} ms, p95 {percentile(in_ms, 0.95):.1f} ms "
                f"({len(in_ms)} requests)"
            )
    errors = sum(totals.errors.values()) + totals.undelivered
    print(f"errors: {errors}" + (f" {dict(totals.errors)}" if totals.errors else ""))
    if totals.undelivered:
        print(f"moves some client never received: {totals.undelivered}")
    print(f"lost moves (acknowledged but not stored after a restart): {len(lost)}")
    for line in lost[:10]:
        print(f"  lost: {line}")
    if totals.server_cpu is not None:
        print(
            f"CPU: server {totals.server_cpu:.1f} s "
            f"({1000 * totals.server_cpu / max(1, moves):.1f} ms a move acknowledged, "
            "start-up excluded), "
            f"this script's move finding {totals.thinking_cpu:.1f} s, "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
    if totals.loop_lag:
        lag_ms = [value * 1000 for value in totals.loop_lag]
        print(
            f"this script: {totals.script_cpu:.1f} s of CPU, its event loop woke "
            f"p50 {percentile(lag_ms, 0.5):.1f} ms / p95 {percentile(lag_ms, 0.95):.1f} ms late"
        )
    print("targets: p95 <= 50 ms, keep-alive p50 <= 5 ms, zero errors, zero lost moves")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the run")
    parser.add_argument("--games", type=int, default=50, help="games at once")
    parser.add_argument("--hard-games", type=int, default=10, help="of them against hard")
    parser.add_argument("--workers", type=int, default=1, help="the server's computer workers")
    parser.add_argument(
        "--thinkers",
        type=int,
        default=max(1, (os.cpu_count() or 2) - 1),
        help="processes finding this script's moves (default: one less than the cores)",
    )
    parser.add_argument(
        "--db",
        help="the database's URL (postgresql+psycopg://USER@HOST/DATABASE, new and empty); "
        "default: a new SQLite file",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="serve processes on the database, each game's clients spread over them "
        "(more than one: --db must be PostgreSQL)",
    )
    options = parser.parse_args()
    if not 1 <= options.games <= 254:
        parser.error("--games must be between 1 and 254 (each game has an address 127.0.2.N)")
    if not 0 <= options.hard_games <= options.games:
        parser.error("--hard-games must be between 0 and --games")
    if options.processes > 1 and not (options.db or "").startswith("postgresql"):
        parser.error("several --processes share one PostgreSQL database: give its --db URL")
    clients = 2 * options.games
    totals = Totals()
    with tempfile.TemporaryDirectory(prefix="binscrabble-load-") as folder:
        database = options.db or str(Path(folder) / "load.sqlite3")
        servers: list[ServeProcess] = []
        try:
            for _ in range(options.processes):
                servers.append(ServeProcess(database, Path(folder), options.workers))
            # After the servers have started, so that they keep the normal priority (the
            # server started again below to count the stored moves is niced: not timed).
            yield_to_the_server()
            started = resource.getrusage(resource.RUSAGE_SELF)
            # The servers' CPU from here on: their start-up is not the load's.
            before = [server.cpu_seconds() for server in servers]
            asyncio.run(run_load([server.url for server in servers], options, totals))
            ended = resource.getrusage(resource.RUSAGE_SELF)
            totals.script_cpu = (ended.ru_utime + ended.ru_stime) - (
                started.ru_utime + started.ru_stime
            )
            after = [server.cpu_seconds() for server in servers]
            if None not in before and None not in after:
                totals.server_cpu = sum(
                    (end or 0.0) - (start or 0.0) for start, end in zip(before, after, strict=True)
                )
        finally:
            for server in servers:
                server.stop()
        again = ServeProcess(database, Path(folder), options.workers)
        try:
            lost, stored = lost_moves(again.url, totals.acknowledged)
        finally:
            again.stop()
    report(options, totals, clients, lost, stored)
    return 1 if lost or totals.errors or totals.undelivered else 0


if __name__ == "__main__":
    sys.exit(main())
