"""The tests' own PostgreSQL server (tests/postgres_server.py): it runs as Debian's
``postgres`` user when the tests run as root, listens on 127.0.0.1 only, leaves nothing
behind, and on a machine without PostgreSQL says how to install it."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import postgres_server
import psycopg
import pytest
from postgres_server import PostgresMissing, PostgresServer, server_programs


def test_the_server_runs_as_postgres_under_root_and_leaves_nothing_behind() -> None:
    server = PostgresServer()
    try:
        owner = pwd.getpwuid(server.data.stat().st_uid).pw_name
        expected = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        assert owner == expected
        address = f"host=127.0.0.1 port={server.port} user={postgres_server.USER} dbname=postgres"
        with psycopg.connect(address) as connection:
            listening = connection.execute("SHOW listen_addresses").fetchone()
            folder = connection.execute("SHOW unix_socket_directories").fetchone()
        assert listening == ("127.0.0.1",) and folder == (str(server.folder),)
    finally:
        server.stop()
    assert not server.folder.exists()


def test_without_postgresql_the_tests_say_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PG_BIN", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(postgres_server, "DEBIAN_SERVERS", tmp_path)
    with pytest.raises(PostgresMissing, match=r"as root, `make deps` installs Debian's postgresql"):
        server_programs()
