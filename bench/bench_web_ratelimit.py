"""What one rate-limit check costs: in the server's memory (the `limits` library, as on
SQLite) and in the database (web/storage.py ``Storage.count_request``, as on PostgreSQL,
where every server process counts against the same windows; also timed on an SQLite file).

The PostgreSQL server is the tests' own (tests/postgres_server.py): a temporary one on
127.0.0.1, with durability off as in the tests, so its figures leave out the disk sync a
real server's commits may wait for. Each check is timed alone, one after another, over
CLIENTS client addresses within one window. Prints figures; never asserts on time.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import limits
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from postgres_server import PostgresMissing, PostgresServer

from binscrabble.web.storage import RateWindow, Storage, database_url

CHECKS = 2000
CLIENTS = 50


def figures(name: str, timings: list[float]) -> None:
    """One line: the median, p95 and p99 of ``timings`` (seconds) in microseconds."""
    cuts = statistics.quantiles(timings, n=100)
    print(
        f"{name}: p50 {statistics.median(timings) * 1e6:.0f} µs, p95 {cuts[94] * 1e6:.0f} µs, "
        f"p99 {cuts[98] * 1e6:.0f} µs ({len(timings)} checks)"
    )


def timed(check: Callable[[int], object]) -> list[float]:
    """Each check's time, for ``CHECKS`` checks spread over ``CLIENTS`` clients."""
    timings = []
    for number in range(CHECKS):
        started = time.perf_counter()
        check(number % CLIENTS)
        timings.append(time.perf_counter() - started)
    return timings


def in_memory() -> list[float]:
    """The memory limiter's test and hit, as the middleware calls them on SQLite."""
    limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
    item = limits.parse("1000000/minute")

    async def run() -> list[float]:
        timings = []
        for number in range(CHECKS):
            key = f"192.0.2.{number % CLIENTS}"
            started = time.perf_counter()
            if await limiter.test(item, "move", key):
                await limiter.hit(item, "move", key)
            timings.append(time.perf_counter() - started)
        return timings

    return asyncio.run(run())


def in_database(url: str) -> list[float]:
    """``Storage.count_request`` for one limit, as the middleware calls it on PostgreSQL."""
    storage = Storage(url)
    try:

        def check(client: int) -> object:
            window = RateWindow(f"move 120 per 1 minute 192.0.2.{client}", 1_000_000, 60_000)
            return storage.count_request([window], int(time.time() * 1000))

        check(0)  # the pool's first connection
        return timed(check)
    finally:
        storage.close()


def main() -> None:
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    figures("in memory (SQLite's servers)", in_memory())
    with tempfile.TemporaryDirectory() as folder:
        figures("SQLite file", in_database(database_url(str(Path(folder) / "games.db"))))
    try:
        server = PostgresServer()
    except PostgresMissing as missing:
        print(f"PostgreSQL: not measured ({missing})")
        return
    try:
        figures("PostgreSQL 127.0.0.1", in_database(server.new_database()))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
