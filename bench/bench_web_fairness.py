"""Fair shares of the computer on a real `binscrabble serve` (run by `make bench`).

1. A person's game against `beginner`: the time from the person's move to the view with
   the computer's reply on the game's WebSocket, for `--replies` moves, first on an idle
   server, then while `--flood` games of two `max` computers (no person in them) are asked
   for and the costly analyses are asked for too.
2. The analysis of a costly game (issue 37): two seats under permissive rules, the first
   holding three blanks, six passes. The time from the first request until the answer is
   complete, and the peak memory of the server with its worker processes.

The script runs at niceness 10 (like bench_web_load.py), the server at the normal priority.
Prints figures; never fails on time.

    .venv/bin/python bench/bench_web_fairness.py [--replies 20] [--flood 20]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from serve_support import start_server, stop_server
from websockets.sync.client import connect

from binscrabble.move import move_notation
from binscrabble.movegen import best_moves
from binscrabble.position import load_position
from binscrabble.web.storage import NewGame, SeatRecord, Storage, database_url

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

# The rules and seeds of the tests' costly analyses (issue 37), shared with them.
from costly_analyses import PERMISSIVE, THREE_BLANKS_SEEDS

CLIENT_NICENESS = 10
MAX_GAME = {"players": [{"name": "A", "computer": "max"}, {"name": "B", "computer": "max"}]}
PERSON_GAME = {"players": [{"name": "Ann"}, {"name": "Cpu", "computer": "beginner"}]}


class Server:
    """`binscrabble serve` on a database file, with a sampler of its memory (its own and
    its worker processes' resident memory, summed, every 20 ms)."""

    def __init__(self, database: Path) -> None:
        self.process, self.url = start_server(database)
        self.client = httpx.Client(base_url=self.url, trust_env=False, timeout=120)
        self.peak = 0
        self._sampling = True
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self) -> None:
        while self._sampling:
            self.peak = max(self.peak, tree_memory(self.process.pid))
            time.sleep(0.02)

    def stop(self) -> None:
        self._sampling = False
        self.client.close()
        stop_server(self.process)


def tree_memory(pid: int) -> int:
    """Resident bytes of a process and its children, where /proc tells them."""
    total = 0
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        total += int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) * 1024  # type: ignore[union-attr]
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except (OSError, AttributeError):
        return total
    return total + sum(tree_memory(int(child)) for child in children)


def choose(view: dict[str, Any]) -> str:
    """The seat's best placement from its own view, else a pass."""
    game = load_position(
        {key: view[key] for key in ("rules", "board", "blanks", "rotated", "rack")}
    )
    found = best_moves(game, 1)
    return move_notation(found[0].place, game.board) if found else "pass"


def person_replies(server: Server, count: int) -> list[float]:
    """Seconds from each of ``count`` moves of a person to the computer's reply, as seen on
    the game's WebSocket (a new game when one ends)."""
    latencies: list[float] = []
    while len(latencies) < count:
        created = server.client.post("/api/games", json=PERSON_GAME).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        address = server.url.replace("http", "ws", 1)
        with connect(f"{address}/api/games/{game_id}/live?token={token}") as socket:
            view = json.loads(socket.recv(timeout=60))
            while not view["over"] and len(latencies) < count:
                started = time.perf_counter()
                answer = server.client.post(
                    f"/api/games/{game_id}/moves",
                    json={"move": choose(view), "turn": view["turn"]},
                    headers={"Authorization": f"Bearer {token}"},
                )
                if answer.status_code != 200:
                    break
                turn = view["turn"]
                while view["turn"] < turn + 2 and not view["over"]:
                    view = json.loads(socket.recv(timeout=120))
                latencies.append(time.perf_counter() - started)
    return latencies


def figures(latencies: list[float]) -> str:
    """p50 / p95 / max in milliseconds."""
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {ordered[-1] * 1000:.0f} ms ({len(ordered)} replies)"
    )


def store_costly(database: Path) -> None:
    """Store the costly games: six passes, the first seat holding three blanks."""
    storage = Storage(database_url(str(database)))
    seats = [SeatRecord(0, "Ann", None, "a" * 64), SeatRecord(1, "Bo", None, "b" * 64)]
    for number, seed in enumerate(THREE_BLANKS_SEEDS):
        storage.create_game(NewGame(f"costly{number}", dict(PERMISSIVE), seed, seats))
        for turn in range(6):
            storage.append_move(f"costly{number}", turn, turn % 2, "pass")
    storage.close()


def ask_without_waiting(server: Server, path: str) -> None:
    """Ask for ``path`` and go on after half a second whether it answered or not."""
    with contextlib.suppress(httpx.TimeoutException):
        server.client.get(path, timeout=0.5)


def whole_analysis(server: Server, game_id: str) -> tuple[float, dict[str, Any]]:
    """Seconds from the first request until the analysis is complete, and the answer."""
    started = time.perf_counter()
    while True:
        answer = server.client.get(f"/api/games/{game_id}/analysis")
        body = answer.json()
        if answer.status_code == 200 and body.get("complete", True):
            return time.perf_counter() - started, body
        time.sleep(0.1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replies", type=int, default=20)
    parser.add_argument("--flood", type=int, default=20)
    options = parser.parse_args()
    os.nice(CLIENT_NICENESS)
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "games.db"
        store_costly(database)
        server = Server(database)
        try:
            person_replies(server, 1)  # the worker processes start
            idle = person_replies(server, options.replies)
            print(f"a person's game against beginner, idle server: {figures(idle)}")
            answers = [
                server.client.post("/api/games", json=MAX_GAME) for _ in range(options.flood)
            ]
            accepted = sum(1 for answer in answers if answer.status_code == 201)
            for number in range(len(THREE_BLANKS_SEEDS)):
                ask_without_waiting(server, f"/api/games/costly{number}/analysis")
            flooded = person_replies(server, options.replies)
            print(
                f"the same with {options.flood} games of two max computers asked for "
                f"({accepted} accepted, {options.flood - accepted} refused with 503) and "
                f"{len(THREE_BLANKS_SEEDS)} analyses: {figures(flooded)}"
            )
        except httpx.TimeoutException:
            print("the server did not answer within the client's timeout")
        finally:
            server.stop()
        analysis_server = Server(database)
        try:
            seconds, body = whole_analysis(analysis_server, "costly0")
            analysed = sum(1 for turn in body["turns"] if turn.get("analysed", True))
            print(
                f"the costly analysis: {seconds:.2f} s to complete, "
                f"{analysed} of {len(body['turns'])} turns analysed, "
                f"peak memory of the server and its workers {analysis_server.peak / 2**20:.0f} MB"
            )
        finally:
            analysis_server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
