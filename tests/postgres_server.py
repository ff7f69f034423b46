"""A PostgreSQL server of the tests' own, on 127.0.0.1, in a temporary folder.

:class:`PostgresServer` runs Debian's ``initdb`` in a new temporary folder and starts the
server with ``pg_ctl`` on a free port of 127.0.0.1 (its Unix socket in the same folder, so
it never meets the machine's own cluster), with durability off (the data is thrown away).
PostgreSQL refuses to run as root: as root (as CI runs) every server command runs as
Debian's ``postgres`` user through ``runuser``, and the folder is handed to that user; as
anyone else, as oneself. :meth:`PostgresServer.stop` stops the server and removes the folder.

Each test gets its own database (:meth:`PostgresServer.new_database`), copied from a
template that already holds the newest schema, or from the empty ``template0``
(``migrated=False``) for the tests of the migrations themselves. Copying the small template
takes some 30 to 90 ms on a busy 2-core machine; migrating a new database takes a second.

``python tests/postgres_server.py`` starts one and prints its ``postgresql+psycopg://`` URL,
for trying the server by hand (Ctrl-C stops it and removes its folder).
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg

from binscrabble.web.storage import Storage

#: Where Debian installs each major version's server programs (none of them is on PATH).
DEBIAN_SERVERS = Path("/usr/lib/postgresql")
#: The superuser ``initdb`` makes; the tests connect as it, trusted on 127.0.0.1.
USER = "binscrabble"
#: The database every test database is copied from: the newest schema, no games.
TEMPLATE = "binscrabble_template"
#: ``initdb``'s options: the superuser, trusted (only this machine can connect), UTF-8.
INITDB = ["-U", USER, "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"]
#: Settings of a server whose data is thrown away: nothing waits for the disk.
SETTINGS = {
    "listen_addresses": "127.0.0.1",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
}


class PostgresMissing(RuntimeError):
    """PostgreSQL's server programs are not on this machine; the message says what to do."""


def server_programs() -> Path:
    """The folder of the newest PostgreSQL's ``initdb`` and ``pg_ctl``: ``PG_BIN`` when set,
    else the one on PATH, else Debian's newest under /usr/lib/postgresql. Raises
    :class:`PostgresMissing` when there is none."""
    chosen = os.environ.get("PG_BIN")
    if chosen:
        folder = Path(chosen)
        if (folder / "initdb").exists():
            return folder
        raise PostgresMissing(f"PG_BIN={chosen} holds no initdb: point it at PostgreSQL's bin")
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(
        DEBIAN_SERVERS.glob("*/bin/initdb"),
        key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0,
    )
    if versions:
        return versions[-1].parent
    raise PostgresMissing(
        "the PostgreSQL tests need PostgreSQL's server programs (initdb, pg_ctl), and this "
        "machine has none: as root, `make deps` installs Debian's postgresql package "
        "(or apt-get install postgresql); elsewhere, set PG_BIN to the folder that holds them"
    )


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """A started PostgreSQL server in its own temporary folder (see the module's text)."""

    def __init__(self) -> None:
        self.programs = server_programs()
        self.as_postgres = os.geteuid() == 0
        self.folder = Path(tempfile.mkdtemp(prefix="binscrabble-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.port = 0
        self.numbers = itertools.count(1)
        try:
            if self.as_postgres:
                shutil.chown(self.folder, user="postgres", group="postgres")
            self.run("initdb", "-D", str(self.data), *INITDB)
            self.start()
            self.make_template()
        except BaseException:
            self.stop()
            raise

    def run(self, program: str, *arguments: str) -> None:
        """Run one of the server's programs (as ``postgres`` when we are root)."""
        command = [str(self.programs / program), *arguments]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            said = (done.stderr or done.stdout).strip()
            raise RuntimeError(f"{program} failed (exit {done.returncode}): {said}")

    def start(self) -> None:
        """Start the server on a free port (a few tries: another program may take the port
        between choosing and binding it)."""
        problem: Exception | None = None
        for _ in range(5):
            self.port = free_port()
            options = [f"-c {name}={value}" for name, value in SETTINGS.items()]
            options += [f"-p {self.port}", f"-k {self.folder}"]
            try:
                logged = ["-l", str(self.log), "-o", " ".join(options)]
                self.run("pg_ctl", "start", "-w", "-t", "60", "-D", str(self.data), *logged)
                return
            except RuntimeError as failed:
                problem = failed
        log = self.log.read_text(errors="replace") if self.log.exists() else ""
        raise RuntimeError(f"PostgreSQL did not start: {problem}\n{log[-2000:]}")

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of one of the server's databases."""
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def admin(self, *statements: str) -> None:
        """Run statements on the ``postgres`` database, each in its own transaction."""
        address = f"host=127.0.0.1 port={self.port} user={USER} dbname=postgres"
        with psycopg.connect(address, autocommit=True) as connection:
            for statement in statements:
                connection.execute(statement.encode())

    def make_template(self) -> None:
        """Make the template database: the newest schema, migrated once."""
        self.admin(f"CREATE DATABASE {TEMPLATE}")
        Storage(self.url(TEMPLATE)).close()
        self.admin(f"ALTER DATABASE {TEMPLATE} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false")

    def new_database(self, migrated: bool = True) -> str:
        """A new database's URL: the newest schema, or empty (``migrated=False``)."""
        name = f"test_{next(self.numbers)}"
        template = TEMPLATE if migrated else "template0"
        self.admin(f"CREATE DATABASE {name} TEMPLATE {template}")
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drop a database made by :meth:`new_database`, closing what is still connected."""
        name = url.rsplit("/", 1)[1]
        self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the server (if it runs) and remove its folder."""
        try:
            if (self.data / "postmaster.pid").exists():
                self.run("pg_ctl", "stop", "-w", "-D", str(self.data), "-m", "immediate")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


if __name__ == "__main__":
    import signal

    stops = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    server = PostgresServer()
    try:
        print(server.new_database(), flush=True)
        signal.sigwait(stops)
    finally:
        server.stop()
