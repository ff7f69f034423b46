"""The web app's load (bench_web_load.py) on 1 SQLite process, 1 PostgreSQL process and 2
PostgreSQL processes, the same load each time (run by `make bench`).

It starts a PostgreSQL server of its own (tests/postgres_server.py: a temporary folder,
127.0.0.1, durability off, as SQLite's `synchronous=NORMAL` also skips the disk sync of each
commit), then runs bench_web_load.py three times, each in a process of its own, on a new
database: 1 process on an SQLite file, 1 process on PostgreSQL, 2 processes on PostgreSQL
(each game's moves submitted to one process and its WebSocket clients spread over both, so
most deliveries cross from one process to the other). It prints each run's figures, then
one line a run: moves a second, delivery p50/p95/p99, errors and lost moves (targets: p95
<= 100 ms, zero errors, zero lost). Exits 1 only when moves were lost or errors happened.

    .venv/bin/python bench/bench_web_processes.py [--seconds 30] [--games 30] [--hard-games 6]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from postgres_server import PostgresServer  # noqa: E402

#: The figures of one run, as bench_web_load.py prints them.
RATE = re.compile(r"moves acknowledged: \d+ in [\d.]+ s: ([\d.]+)/s")
DELIVERY = re.compile(
    r"submission to every client of the game: "
    r"p50 ([\d.]+) ms, p95 ([\d.]+) ms, p99 ([\d.]+) ms"
)
ERRORS = re.compile(r"^errors: (\d+)", re.MULTILINE)
LOST = re.compile(r"lost moves \(acknowledged but not stored after a restart\): (\d+)")


def run(label: str, load: list[str], database: list[str]) -> tuple[str, str, bool]:
    """One run of bench_web_load.py: its summary line, what it printed, whether it passed."""
    command = [sys.executable, str(HERE / "bench_web_load.py"), *load, *database]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    output = done.stdout + (done.stderr if done.returncode not in (0, 1) else "")
    rate, delivery = RATE.search(output), DELIVERY.search(output)
    errors, lost = ERRORS.search(output), LOST.search(output)
    if rate is None or delivery is None or errors is None or lost is None:
        return f"{label}: no figures (exit {done.returncode})", output, False
    line = (
        f"{label}: {rate.group(1)} moves/s, delivery p50 {delivery.group(1)} ms, "
        f"p95 {delivery.group(2)} ms, p99 {delivery.group(3)} ms, "
        f"errors {errors.group(1)}, lost {lost.group(1)}"
    )
    return line, output, done.returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each run")
    parser.add_argument("--games", type=int, default=30, help="games at once")
    parser.add_argument("--hard-games", type=int, default=6, help="of them against hard")
    options = parser.parse_args()
    load = ["--seconds", str(options.seconds), "--games", str(options.games)]
    load += ["--hard-games", str(options.hard_games)]
    postgres = PostgresServer()
    summary: list[str] = []
    passed = True
    try:
        runs = [
            ("1 process, SQLite", []),
            ("1 process, PostgreSQL", ["--db", postgres.new_database(migrated=False)]),
            ("2 processes, PostgreSQL", ["--db", postgres.new_database(migrated=False)]),
        ]
        runs[2][1].extend(["--processes", "2"])
        for label, database in runs:
            print(f"-- {label}", flush=True)
            line, output, ok = run(label, load, database)
            print(output.rstrip(), flush=True)
            summary.append(line)
            passed = passed and ok
    finally:
        postgres.stop()
    print(f"-- the same load ({options.games} games, {options.seconds:g} s) on each:")
    for line in summary:
        print(line)
    print("targets: p95 <= 100 ms, zero errors, zero lost moves")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
