"""``binscrabble serve``: the web app under uvicorn, on a socket bound before it starts.

Binding first gives the real port with ``--port 0``; the line
``binscrabble serving on http://HOST:PORT/`` is printed (and flushed) once the server
accepts connections. uvicorn stops cleanly on SIGINT and SIGTERM.

The socket is made as a TCP socket by name (``IPPROTO_TCP``), with ``TCP_NODELAY``: asyncio
sets ``TCP_NODELAY`` on an accepted connection only when its listening socket says it is TCP,
and without it every answer on a kept-alive connection waited some 40 ms (Nagle's algorithm
holding its body back until the client's delayed acknowledgement of its headers).

On SQLite one process serves a database file (docs/deploy.md): ``serve`` holds an exclusive
lock (``flock``) on a file beside it, ``NAME.serving``, for as long as it runs; a second
``serve`` on the same file is refused with a sentence instead of starting beside the first
(its WebSockets would never hear the other's moves). The kernel lets the lock go when the
process ends, a crash included; the file itself stays (it holds the serving process's id,
for the sentence): only its lock counts. PostgreSQL takes many processes.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import gc
import os
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import uvicorn

from binscrabble.i18n import _
from binscrabble.web.active_games import DEFAULT_MAX_GAMES
from binscrabble.web.app import create_app
from binscrabble.web.connections import ConnectionLimits, server_config
from binscrabble.web.ratelimit import RateLimits
from binscrabble.web.storage import database_url

#: The suffix of the file whose lock says a process serves an SQLite database.
LOCK_SUFFIX = ".serving"

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
# Connections the kernel holds ready for the server to accept.
BACKLOG = 2048


class AnnouncingServer(uvicorn.Server):
    """A uvicorn server that says where it serves once it is ready."""

    def __init__(self, config: uvicorn.Config, address: str) -> None:
        super().__init__(config)
        self.address = address

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.should_exit:
            print(f"binscrabble serving on {self.address}", flush=True)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Stop gracefully on SIGINT and SIGTERM, then exit with status 0.

        uvicorn's own version raises the signal again once stopped, which ends the process
        as killed by it; a server asked to stop has not failed.
        """
        previous = {how: signal.signal(how, self.stop_on_signal) for how in STOP_SIGNALS}
        try:
            yield
        finally:
            for how, handler in previous.items():
                signal.signal(how, handler)

    def stop_on_signal(self, how: int, _frame: FrameType | None) -> None:
        """A first signal stops gracefully; a second Ctrl-C stops at once."""
        if self.should_exit and how == signal.SIGINT:
            self.force_exit = True
        else:
            self.should_exit = True


def bound_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (``port`` 0: a free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.listen(BACKLOG)
    sock.set_inheritable(True)
    return sock


def listen_problem(host: str, port: int, problem: OSError) -> str:
    """Why the server cannot listen on ``host:port``, and what to do about it.

    >>> busy = OSError(errno.EADDRINUSE, "Address already in use")
    >>> said = listen_problem("127.0.0.1", 8000, busy)
    >>> said.split(":")[:2], "--port 8001" in said, "make play PORT=8001" in said
    (['127.0.0.1', '8000 is in use by another program (another binscrabble serve?)'], True, True)
    """
    shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    other = port + 1 if 0 < port < 65535 else 8001
    choose = _("choose another port with --port {port}, or make play PORT={port}").format(
        port=other
    )
    if problem.errno == errno.EADDRINUSE:
        return _(
            "{address} is in use by another program (another binscrabble serve?): {choose} "
            "(--port 0: any free port)"
        ).format(address=shown, choose=choose)
    if problem.errno == errno.EACCES:
        return _(
            "{address} needs privileges this user lacks (ports below 1024 do): {choose}"
        ).format(address=shown, choose=choose)
    reason = problem.strerror or str(problem)
    return _("cannot listen on {address}: {problem}; check --host, or {choose}").format(
        address=shown, problem=reason, choose=choose
    )


def sqlite_path(database: str) -> Path | None:
    """The file of an SQLite ``--db`` (a path or an ``sqlite:///`` URL), or None for another
    database or SQLite in memory.

    >>> sqlite_path("/tmp/games.db"), sqlite_path("postgresql://h/db"), sqlite_path(":memory:")
    (PosixPath('/tmp/games.db'), None, None)
    """
    url = database_url(database)
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url[len(prefix) :] in ("", ":memory:"):
        return None
    name = url[len(prefix) :].split("?", 1)[0]
    return None if name.endswith(":memory:") else Path(name)


def lock_database(database: str) -> tuple[int | None, str | None]:
    """Hold the lock that says this process serves ``database`` (an SQLite file): the lock
    file's descriptor (held open until the process ends), or why another process holds it.
    ``(None, None)`` for a database that takes several processes."""
    path = sqlite_path(database)
    if path is None:
        return None, None
    lock = Path(str(path) + LOCK_SUFFIX)
    try:
        descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as problem:
        return None, _("--db {database}: cannot make the lock file {lock}: {problem}").format(
            database=path, lock=lock, problem=problem.strerror or problem
        )
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.read(descriptor, 32).decode("ascii", "replace").strip() or "?"
        os.close(descriptor)
        return None, _(
            "--db {database} is already served by another binscrabble serve (process "
            "{pid}): SQLite serves a file from one process; stop that one, or use "
            "PostgreSQL to run several (docs/deploy.md)"
        ).format(database=path, pid=holder)
    os.ftruncate(descriptor, 0)
    os.write(descriptor, f"{os.getpid()}\n".encode("ascii"))
    return descriptor, None


def serve(
    host: str,
    port: int,
    database: str,
    workers: int | None,
    *,
    max_games: int = DEFAULT_MAX_GAMES,
    rate_limits: RateLimits | None = None,
    proxies: frozenset[str] = frozenset(),
) -> int:
    """Serve the web app until interrupted; the exit status. ``rate_limits`` ``None``: the
    defaults (:data:`~binscrabble.web.ratelimit.DEFAULT_LIMITS`); ``proxies``: the
    addresses of the reverse proxies in front (:class:`ConnectionLimits`)."""
    lock, held_elsewhere = lock_database(database)
    if held_elsewhere is not None:
        print(_("binscrabble serve: {problem}").format(problem=held_elsewhere), file=sys.stderr)
        return 2
    try:
        sock = bound_socket(host, port)
    except OSError as problem:
        said = _("binscrabble serve: {problem}").format(problem=listen_problem(host, port, problem))
        print(said, file=sys.stderr)
        return 2
    real_port = sock.getsockname()[1]
    shown_host = f"[{host}]" if ":" in host else host
    if rate_limits is None:
        rate_limits = RateLimits.parse([])
    app = create_app(database, workers, max_games=max_games, rate_limits=rate_limits)
    config = server_config(app, ConnectionLimits(proxies=proxies))
    server = AnnouncingServer(config, f"http://{shown_host}:{real_port}/")
    # What start-up made lives as long as the server: out of the garbage collector's way,
    # its full collections (which stop every request while they run) walk only the games.
    gc.collect()
    gc.freeze()
    try:
        server.run(sockets=[sock])
    finally:
        if lock is not None:
            os.close(lock)  # the lock goes with it (and with the process, however it ends)
    return 0
