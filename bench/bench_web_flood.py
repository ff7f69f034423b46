"""A flood on a real `binscrabble serve` (run by `make bench`): people's games while other
addresses create games and ask for analyses as fast as the rate limits let them; and the
server's memory after 10,000 games created.

It starts `binscrabble serve --port 0` on 127.0.0.1 with its default rate limits and a
database in a temporary folder. Two people play, each thinking `--think` seconds before
each move (the move is the best placement, found in a process of its own, or an exchange
or a pass): one from 127.0.0.1 against the `beginner` computer, one from 127.0.1.1 both
seats of a game on one device. They play first for `--seconds` with nothing else going on,
then for as long again while `--flooders` other addresses (127.0.0.2, 127.0.0.3, ...:
loopback addresses the server counts apart) each send, at its limits, new games, the
passes that end them (6 a game) and an analysis of each game ended. A move's latency is
the time from its submission to its HTTP answer; the computer's reply is timed from the
person's submission to the WebSocket view that shows it.

Then it starts a second server on a new database (no limit on new games) and creates
`--memory-games` games from 8 clients, reading the server's resident memory (VmRSS) before
and after, with the server's default bound on the games held in memory.

This script and its move finders run at niceness 10 (the server at normal priority), as in
bench_web_load.py. Prints figures; exits 1 only on errors (an unexpected status), never on time.

    .venv/bin/python bench/bench_web_flood.py [--seconds 30] [--flooders 20] [--think 0.5]
        [--memory-games 10000] [--no-analyses]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import limits
import websockets
from bench_web_load import (
    EMPTY_VIEW,
    ServeProcess,
    bearer,
    choose_move,
    percentile,
    yield_to_the_server,
)

from binscrabble.web.active_games import DEFAULT_MAX_GAMES
from binscrabble.web.ratelimit import DEFAULT_LIMITS

TIMEOUT = 60.0
TWO_PEOPLE = [{"name": "Ann"}, {"name": "Bo"}]
#: The address of the hot-seat game's client (the flood comes from 127.0.0.2 on).
HOT_SEAT_ADDRESS = "127.0.1.1"


def interval(name: str) -> float:
    """Seconds between two requests that keep to the default limit of ``name``."""
    item = limits.parse_many(DEFAULT_LIMITS[name])[0]
    return item.get_expiry() / item.amount


@dataclass
class Person:
    """The figures of the person's game in one phase."""

    moves: list[float] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    #: CPU seconds of the server's own process and of its workers, and the phase's length.
    server_cpu: float = 0.0
    workers_cpu: float = 0.0
    seconds: float = 0.0
    load: float = 0.0


@dataclass
class Flood:
    """What the flooding addresses sent and got."""

    answers: Counter[str] = field(default_factory=Counter)
    analysed: list[str] = field(default_factory=list)


async def play_as_a_person(
    base: str, thinker: ProcessPoolExecutor, think: float, deadline: float, person: Person
) -> None:
    """Two people's games until ``deadline``: one against `beginner` (from 127.0.0.1), one
    of two seats on one device (from 127.0.1.1), whose moves are timed whatever the
    computer does."""
    other = httpx.AsyncHTTPTransport(local_address=HOT_SEAT_ADDRESS)
    async with (
        httpx.AsyncClient(base_url=base, timeout=TIMEOUT, trust_env=False) as http,
        httpx.AsyncClient(
            base_url=base, timeout=TIMEOUT, trust_env=False, transport=other
        ) as hot_seat,
    ):
        await asyncio.gather(
            play_against_the_computer(base, http, thinker, think, deadline, person),
            play_hot_seat(hot_seat, thinker, think, deadline, person),
        )


async def start(http: httpx.AsyncClient, players: list[dict[str, str]], person: Person) -> Any:
    created = await http.post("/api/games", json={"players": players})
    if created.status_code != 201:
        person.errors[f"create {created.status_code}"] += 1
        return None
    return created.json()


async def play_move(
    http: httpx.AsyncClient,
    game_id: str,
    token: str,
    view: dict[str, Any],
    move: str,
    person: Person,
) -> int | None:
    """Submit a move and time it; the turn after it, ``None`` when it was refused."""
    submitted = time.perf_counter()
    answer = await http.post(
        f"/api/games/{game_id}/moves",
        json={"move": move, "turn": view["turn"]},
        headers=bearer(token),
    )
    if answer.status_code != 200:
        person.errors[f"move {answer.status_code}"] += 1
        return None
    person.moves.append(time.perf_counter() - submitted)
    return int(answer.json()["turn"])


async def play_hot_seat(
    http: httpx.AsyncClient,
    thinker: ProcessPoolExecutor,
    think: float,
    deadline: float,
    person: Person,
) -> None:
    """Games of two seats played from one client, one after the other, until ``deadline``."""
    loop = asyncio.get_running_loop()
    while time.perf_counter() < deadline:
        created = await start(http, TWO_PEOPLE, person)
        if created is None:
            return
        game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
        seat = 0
        while time.perf_counter() < deadline:
            answer = await http.get(f"/api/games/{game_id}", headers=bearer(tokens[seat]))
            view = answer.json()
            if view["over"]:
                break
            await asyncio.sleep(think)
            move = await loop.run_in_executor(thinker, choose_move, view)
            if await play_move(http, game_id, tokens[seat], view, move, person) is None:
                return
            seat = 1 - seat


async def play_against_the_computer(
    base: str,
    http: httpx.AsyncClient,
    thinker: ProcessPoolExecutor,
    think: float,
    deadline: float,
    person: Person,
) -> None:
    """Games against `beginner`, one after the other, until ``deadline``; the computer's
    reply is timed from the person's submission to the WebSocket view that shows it."""
    loop = asyncio.get_running_loop()
    players = [{"name": "Ann"}, {"name": "Bot", "computer": "beginner"}]
    while time.perf_counter() < deadline:
        created = await start(http, players, person)
        if created is None:
            return
        game_id, token = created["id"], created["seats"][0]["token"]
        url = f"{base.replace('http', 'ws', 1)}/api/games/{game_id}/live?token={token}"
        async with websockets.connect(url, open_timeout=TIMEOUT, proxy=None) as socket:
            view = json.loads(await socket.recv())
            while not view["over"] and time.perf_counter() < deadline:
                await asyncio.sleep(think)
                move = await loop.run_in_executor(thinker, choose_move, view)
                submitted = time.perf_counter()
                turn = await play_move(http, game_id, token, view, move, person)
                if turn is None:
                    return
                try:
                    view = await next_turn_of(socket, turn + 1)
                except TimeoutError:
                    person.errors["no reply from the computer in 60 s"] += 1
                    return
                if view["turn"] > turn:
                    person.replies.append(time.perf_counter() - submitted)


async def next_turn_of(socket: Any, turn: int) -> dict[str, Any]:
    """The first view at ``turn`` or later, or of a game over."""
    while True:
        view: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
        if view["turn"] >= turn or view["over"]:
            return view


async def flood_from(
    base: str, address: str, deadline: float, flood: Flood, analyses: bool = True
) -> None:
    """One address: new games, the passes that end them and their analyses (unless not
    ``analyses``), at the limits."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(
        base_url=base, timeout=TIMEOUT, trust_env=False, transport=transport
    ) as http:
        to_end: list[tuple[str, list[str], int]] = []
        finished: list[str] = []

        async def create() -> None:
            answer = await http.post("/api/games", json={"players": TWO_PEOPLE})
            flood.answers[f"create {answer.status_code}"] += 1
            if answer.status_code == 201:
                body = answer.json()
                to_end.append((body["id"], [seat["token"] for seat in body["seats"]], 0))

        async def pass_once() -> None:
            if not to_end:
                return
            game_id, tokens, turn = to_end.pop(0)
            answer = await http.post(
                f"/api/games/{game_id}/moves",
                json={"move": "pass", "turn": turn},
                headers=bearer(tokens[turn % 2]),
            )
            flood.answers[f"move {answer.status_code}"] += 1
            if answer.status_code != 200:
                to_end.insert(0, (game_id, tokens, turn))
            elif turn + 1 < 6:
                to_end.insert(0, (game_id, tokens, turn + 1))
            else:
                finished.append(game_id)

        async def analyse() -> None:
            if not finished or not analyses:
                return
            game_id = finished.pop(0)
            answer = await http.get(f"/api/games/{game_id}/analysis")
            flood.answers[f"analysis {answer.status_code}"] += 1
            if answer.status_code == 200:
                flood.analysed.append(game_id)
            else:
                finished.insert(0, game_id)

        await asyncio.gather(
            paced(create, interval("create"), deadline, flood),
            paced(pass_once, interval("move"), deadline, flood),
            paced(analyse, interval("analysis"), deadline, flood),
        )


async def paced(action: Any, every: float, deadline: float, flood: Flood) -> None:
    """``action`` every ``every`` seconds (never two at once) until ``deadline``."""
    due = time.perf_counter()
    while due < deadline:
        try:
            await action()
        except httpx.HTTPError as problem:
            flood.answers[f"error {type(problem).__name__}"] += 1
        due += every
        await asyncio.sleep(max(0.0, due - time.perf_counter()))


async def run_phases(
    base: str, pid: int, options: argparse.Namespace
) -> tuple[Person, Person, Flood]:
    quiet, flooded, flood = Person(), Person(), Flood()
    with ProcessPoolExecutor(1, initializer=yield_to_the_server) as thinker:
        await asyncio.get_running_loop().run_in_executor(thinker, choose_move, EMPTY_VIEW)
        deadline = time.perf_counter() + options.seconds
        with measured(pid, quiet):
            await play_as_a_person(base, thinker, options.think, deadline, quiet)
        deadline = time.perf_counter() + options.seconds
        addresses = [f"127.0.0.{2 + index}" for index in range(options.flooders)]
        flooders = [
            flood_from(base, address, deadline, flood, options.analyses) for address in addresses
        ]
        with measured(pid, flooded):
            await asyncio.gather(
                play_as_a_person(base, thinker, options.think, deadline, flooded), *flooders
            )
    return quiet, flooded, flood


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user + system), from /proc; 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime are fields 14 and 15 of stat(5), in clock ticks.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def workers_of(pid: int) -> list[int]:
    """The child processes of ``pid`` (the server's workers)."""
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        children += [int(child) for child in task.read_text().split()]
    return children


@contextlib.contextmanager
def measured(pid: int, person: Person) -> Iterator[None]:
    """Count the server's CPU (its process and its workers) and the time of a phase."""
    workers = workers_of(pid)
    server, busy = cpu_seconds(pid), sum(cpu_seconds(worker) for worker in workers)
    started = time.perf_counter()
    yield
    person.seconds = time.perf_counter() - started
    person.server_cpu = cpu_seconds(pid) - server
    # Workers started during the phase count from zero.
    person.workers_cpu = sum(cpu_seconds(worker) for worker in workers_of(pid)) - busy
    person.load = os.getloadavg()[0]


def resident_mb(pid: int) -> float:
    """A process's resident memory (VmRSS), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


async def create_games(base: str, count: int, clients: int = 8) -> Counter[str]:
    """``count`` new games of two people from ``clients`` keep-alive clients."""
    answers: Counter[str] = Counter()
    left = count

    async def one_client() -> None:
        nonlocal left
        async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT, trust_env=False) as http:
            while left > 0:
                left -= 1
                answer = await http.post("/api/games", json={"players": TWO_PEOPLE})
                answers[str(answer.status_code)] += 1

    await asyncio.gather(*(one_client() for _ in range(clients)))
    return answers


def measure_memory(folder: Path, games: int) -> tuple[float, float, float, Counter[str]]:
    """Resident memory of a fresh server, after ``games`` created, and the seconds taken."""
    server = ServeProcess(str(folder / "memory.sqlite3"), folder, 1, ("--rate-limit", "create=off"))
    try:
        time.sleep(1.0)
        before = resident_mb(server.process.pid)
        started = time.perf_counter()
        answers = asyncio.run(create_games(server.url, games))
        seconds = time.perf_counter() - started
        after = resident_mb(server.process.pid)
    finally:
        server.stop()
    return before, after, seconds, answers


def timing_line(label: str, values: list[float]) -> str:
    if not values:
        return f"{label}: none timed"
    in_ms = [value * 1000 for value in values]
    return (
        f"{label}: p50 {percentile(in_ms, 0.5):.1f} ms, p95 {percentile(in_ms, 0.95):.1f} ms, "
        f"max {max(in_ms):.1f} ms ({len(in_ms)} timed)"
    )


def report(options: argparse.Namespace, quiet: Person, flooded: Person, flood: Flood) -> None:
    print(f"limits (serve's defaults): {DEFAULT_LIMITS}")
    print(
        "two people's games, one against beginner and one of two seats on one device, "
        f"a move every {options.think:g} s of thinking:"
    )
    for label, person in (("alone", quiet), (f"{options.flooders} addresses flooding", flooded)):
        print(f"  {label}:")
        print("    " + timing_line("move submitted to its answer", person.moves))
        print("    " + timing_line("move submitted to the computer's reply", person.replies))
        print(
            f"    server CPU: {person.server_cpu:.1f} s its process, {person.workers_cpu:.1f} s "
            f"its workers, in {person.seconds:.0f} s (load average {person.load:.1f} "
            f"on {os.cpu_count()} cores)"
        )
        if person.errors:
            print(f"    errors: {dict(person.errors)}")
    print(f"flood answers in {options.seconds:g} s: {dict(sorted(flood.answers.items()))}")
    print(f"analyses answered to the flood: {len(flood.analysed)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each phase")
    parser.add_argument("--flooders", type=int, default=20, help="flooding addresses")
    parser.add_argument("--think", type=float, default=0.5, help="the person's pause, seconds")
    parser.add_argument("--memory-games", type=int, default=10_000, help="games created")
    parser.add_argument(
        "--analyses",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="whether the flood asks for analyses (--no-analyses: new games and moves only)",
    )
    options = parser.parse_args()
    if not 1 <= options.flooders <= 250:
        parser.error("--flooders takes 1 to 250 (addresses 127.0.0.2 to 127.0.0.251)")
    with tempfile.TemporaryDirectory(prefix="binscrabble-flood-") as name:
        folder = Path(name)
        server = ServeProcess(str(folder / "flood.sqlite3"), folder, 1, ())
        yield_to_the_server()
        try:
            quiet, flooded, flood = asyncio.run(run_phases(server.url, server.process.pid, options))
        finally:
            server.stop()
        report(options, quiet, flooded, flood)
        errors = sum(quiet.errors.values()) + sum(flooded.errors.values())
        if options.memory_games > 0:
            before, after, seconds, answers = measure_memory(folder, options.memory_games)
            print(
                f"memory: {before:.1f} MB at start, {after:.1f} MB after "
                f"{options.memory_games} games created in {seconds:.0f} s "
                f"(answers {dict(answers)}; at most {DEFAULT_MAX_GAMES} games held)"
            )
            errors += sum(count for status, count in answers.items() if status != "201")
    # 429 is a rate limit met; 503 the analysis lane full (at most 2 games analysed at once):
    # both are the server's bounds answering as docs/web.md says, not errors.
    expected = ("200", "201", "429", "503")
    unexpected = [key for key in flood.answers if key.split()[1] not in expected]
    print(f"errors: {errors + len(unexpected)}" + (f" {unexpected}" if unexpected else ""))
    return 1 if errors or unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
