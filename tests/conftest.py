"""Fixtures shared by the test files: the PostgreSQL server of the tests and the databases
the storage and web API suites run on (each such test runs on SQLite and on PostgreSQL).

The server starts once a session, when the first test that needs it runs
(:class:`postgres_server.PostgresServer`), and stops at the end. On a machine without
PostgreSQL those tests fail with a sentence saying how to install it (``make deps`` as
root installs it); they are never skipped: docs/deploy.md, "Tests".
"""

from __future__ import annotations

import hashlib
import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from postgres_server import PostgresMissing, PostgresServer

#: The databases the parametrized suites run on.
DATABASES = ["sqlite", "postgresql"]
#: The same for the heaviest suites: their PostgreSQL run is marked ``full`` and runs in
#: ``make test-full`` (``pytest -m full``), which ``.ci/run`` runs after ``make test``.
DATABASES_FULL = ["sqlite", pytest.param("postgresql", marks=pytest.mark.full)]


@pytest.fixture(autouse=True)
def known_bags(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games a test's own app creates draw from bags seeded from the test's id (one seed
    after another), so a test meets the same racks on every run and on every machine.
    ``BINSCRABBLE_TEST_RANDOM_BAGS=1`` leaves the server's secret random seeds in place,
    to run the suites over new racks (docs/deploy.md, "Tests"). Servers the tests start
    as processes get theirs from serve_known_bags.py."""
    if os.environ.get("BINSCRABBLE_TEST_RANDOM_BAGS") == "1":
        return
    try:
        from binscrabble.web import active_games
    except ImportError:  # without the web extra there is no server to seed
        return
    digest = hashlib.sha256(request.node.nodeid.encode()).digest()
    seeds = itertools.count(int.from_bytes(digest[:8]) >> 1)
    monkeypatch.setattr(active_games, "new_seed", lambda: str(next(seeds)))


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """The tests' PostgreSQL server (started on first use, stopped at the end)."""
    try:
        server = PostgresServer()
    except PostgresMissing as missing:
        pytest.fail(str(missing), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres: PostgresServer) -> Iterator[str]:
    """A new PostgreSQL database with the newest schema, dropped after the test."""
    url = postgres.new_database()
    try:
        yield url
    finally:
        postgres.drop_database(url)


def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """The new database of the parameter: an SQLite file's path, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "games.db"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture(params=DATABASES)
def any_database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A new database, once an SQLite file (its path) and once PostgreSQL (its URL)."""
    return new_database(request, tmp_path)


@pytest.fixture(params=DATABASES_FULL)
def any_database_full(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """:func:`any_database` for the heaviest suites: PostgreSQL in ``make test-full``."""
    return new_database(request, tmp_path)


@pytest.fixture(params=DATABASES)
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    """A new database without any table (no migration run), on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        yield tmp_path / "games.db"
        return
    server: PostgresServer = request.getfixturevalue("postgres")
    url = server.new_database(migrated=False)
    try:
        yield url
    finally:
        server.drop_database(url)
