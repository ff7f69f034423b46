"""The web app's load (bench_web_load.py) on 1 SQLite process, 1 PostgreSQL process and 2
PostgreSQL processes, the same load each time (run by `make bench`).

It starts a PostgreSQL server of its own (tests/postgres_server.py: a temporary folder,
127.0.0.1, durability off, as SQLite's `synchronous=NORMAL` also skips the disk sync of each
commit), then runs bench_web_load.py three times, each in a process of its own, on a new
database: 1 process on an SQLite file, 1 process on PostgreSQL, 2 processes on PostgreSQL
(each game's moves submitted to one process and its WebSocket clients spread over both, so
most deliveries cross from one process to the other). With `--repeat N` it runs the three
N times, in turn. It prints each run's figures, then one line a run: moves a second,
delivery p50/p95/p99, errors, lost moves, the `serve` processes' CPU a move acknowledged
(their start-up excluded) and PostgreSQL's (its server processes', which end with the
run's connections; the check of the stored moves included), and the load average; with
several runs, each figure's range over them (targets: p95 <= 100 ms, zero errors, zero
lost). Exits 1 only when moves were lost or errors happened.

    .venv/bin/python bench/bench_web_processes.py [--seconds 30] [--games 30] [--hard-games 6]
        [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from postgres_server import PostgresServer  # noqa: E402

#: The figures of one run, as bench_web_load.py prints them.
RATE = re.compile(r"moves acknowledged: (\d+) in [\d.]+ s: ([\d.]+)/s")
DELIVERY = re.compile(
    r"submission to every client of the game: "
    r"p50 ([\d.]+) ms, p95 ([\d.]+) ms, p99 ([\d.]+) ms"
)
ERRORS = re.compile(r"^errors: (\d+)", re.MULTILINE)
LOST = re.compile(r"lost moves \(acknowledged but not stored after a restart\): (\d+)")
CPU = re.compile(r"CPU: server [\d.]+ s \(([\d.]+) ms a move acknowledged")
#: The figures a summary line gives, in order, with their units.
FIGURES = (
    ("moves/s", ""),
    ("p50", " ms"),
    ("p95", " ms"),
    ("p99", " ms"),
    ("errors", ""),
    ("lost", ""),
    ("serve CPU", " ms/move"),
    ("PostgreSQL CPU", " ms/move"),
    ("load", ""),
)


def postgres_cpu(postgres: PostgresServer) -> float:
    """The CPU seconds PostgreSQL's ended server processes took (the postmaster's reaped
    children, as /proc tells it): a run's share is the difference once its connections
    have closed."""
    pid = (postgres.data / "postmaster.pid").read_text().split()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # cutime and cstime are fields 16 and 17 of stat(5), in clock ticks.
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def run(
    load: list[str], database: list[str], postgres: PostgresServer
) -> tuple[list[float] | None, str, bool]:
    """One run of bench_web_load.py: its figures (:data:`FIGURES`; ``None`` when it printed
    none), what it printed, whether it passed."""
    command = [sys.executable, str(HERE / "bench_web_load.py"), *load, *database]
    before = postgres_cpu(postgres)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    time.sleep(1)  # the server processes of the run's connections end and are reaped
    database_cpu = postgres_cpu(postgres) - before
    output = done.stdout + (done.stderr if done.returncode not in (0, 1) else "")
    rate, delivery = RATE.search(output), DELIVERY.search(output)
    errors, lost, cpu = ERRORS.search(output), LOST.search(output), CPU.search(output)
    if None in (rate, delivery, errors, lost, cpu):
        return None, output, False
    assert rate and delivery and errors and lost and cpu
    moves = max(1, int(rate.group(1)))
    on_postgres = any(argument.startswith("postgresql") for argument in database)
    figures = [float(rate.group(2)), *(float(delivery.group(n)) for n in (1, 2, 3))]
    figures += [float(errors.group(1)), float(lost.group(1)), float(cpu.group(1))]
    figures += [1000 * database_cpu / moves if on_postgres else 0.0, os.getloadavg()[0]]
    return figures, output, done.returncode == 0


def summary(label: str, runs: list[list[float]]) -> str:
    """One line: each figure of the runs, or its range over them."""
    parts = []
    for index, (name, unit) in enumerate(FIGURES):
        values = [figures[index] for figures in runs]
        low, high = min(values), max(values)
        shown = f"{low:.1f}" if low == high else f"{low:.1f}-{high:.1f}"
        parts.append(f"{name} {shown}{unit}")
    return f"{label} ({len(runs)} run{'s' if len(runs) > 1 else ''}): " + ", ".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each run")
    parser.add_argument("--games", type=int, default=30, help="games at once")
    parser.add_argument("--hard-games", type=int, default=6, help="of them against hard")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each setup, in turn")
    options = parser.parse_args()
    load = ["--seconds", str(options.seconds), "--games", str(options.games)]
    load += ["--hard-games", str(options.hard_games)]
    postgres = PostgresServer()
    labels = ["1 process, SQLite", "1 process, PostgreSQL", "2 processes, PostgreSQL"]
    results: dict[str, list[list[float]]] = {label: [] for label in labels}
    passed = True
    try:
        for number in range(options.repeat):
            setups = [
                [],
                ["--db", postgres.new_database()],
                ["--db", postgres.new_database(), "--processes", "2"],
            ]
            for label, database in zip(labels, setups, strict=True):
                print(f"-- {label}, run {number + 1} of {options.repeat}", flush=True)
                figures, output, ok = run(load, database, postgres)
                print(output.rstrip(), flush=True)
                if figures is None:
                    print(f"{label}: no figures", flush=True)
                else:
                    print(summary(label, [figures]), flush=True)
                    results[label].append(figures)
                passed = passed and ok
    finally:
        postgres.stop()
    print(f"-- the same load ({options.games} games, {options.seconds:g} s) on each:")
    for label in labels:
        print(summary(label, results[label]) if results[label] else f"{label}: no figures")
    print("targets: p95 <= 100 ms, zero errors, zero lost moves")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
