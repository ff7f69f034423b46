"""``binscrabble serve``: the web app (the work is done in :mod:`binscrabble.web`)."""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import os
import stat
import sys
from pathlib import Path

from binscrabble.cli.arguments import RawDescriptionHelpFormatter
from binscrabble.cli.common import CliError
from binscrabble.i18n import N_, _
from binscrabble.limits import control_character, quoted

EPILOG = N_(
    """\
Open the printed address in a browser: the lobby starts games against the computer, on
one device, or online with invite links. Games are kept in the database (--db: a file
path or an SQLAlchemy URL) and resume after a restart. See docs/web.md.
"""
)
# Bounds of --workers: each worker is a process holding the move generator's tables
# (binscrabble.web.workers.MOST_WORKERS caps the default the same way).
MIN_WORKERS = 1
MAX_WORKERS = 32


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "serve",
        help=_("serve the web app (play in the browser)"),
        description=_("Serve Binary Scrabble in the browser, with its JSON API and WebSocket."),
        epilog=_(EPILOG),
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1", help=_("address to listen on"))
    parser.add_argument("--port", type=int, default=8000, help=_("port (0: any free port)"))
    parser.add_argument(
        "--db",
        default="binscrabble.db",
        metavar="PATH_OR_URL",
        help=_("SQLite file or SQLAlchemy URL (default: binscrabble.db here)"),
    )
    parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help=_(
            "processes for the computer's moves, {least} to {most} (default: one per core but one)"
        ).format(least=MIN_WORKERS, most=MAX_WORKERS),
    )
    parser.add_argument(
        "--max-games",
        type=int,
        metavar="N",
        help=_(
            "games held in memory: past N, the least recently used game nobody is using "
            "is let go, and reloads from the database on its next use (default: 1000)"
        ),
    )
    parser.add_argument(
        "--rate-limit",
        action="append",
        default=[],
        metavar="NAME=LIMIT",
        help=_(
            "change a limit per client address: NAME is create, move, preview, hint, "
            "analysis, record or all; LIMIT is e.g. 30/minute, 30/minute,500/hour, or off "
            "(repeat the option for several; the defaults are in docs/web.md)"
        ),
    )
    parser.add_argument(
        "--proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help=_(
            "the IP address of a reverse proxy in front of this server (nginx; repeat for "
            "several): its connections are not bounded as one client's, and the client's address "
            "is read from its X-Forwarded-For (see docs/deploy.md)"
        ),
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    missing = [
        name
        for name in ("fastapi", "uvicorn", "sqlalchemy", "alembic", "limits")
        if importlib.util.find_spec(name) is None
    ]
    if missing:
        print(
            _(
                "binscrabble serve needs {modules}: install the web extra, "
                "pip install 'binscrabble[web]'"
            ).format(modules=", ".join(missing)),
            file=sys.stderr,
        )
        return 2
    if args.workers is not None and not MIN_WORKERS <= args.workers <= MAX_WORKERS:
        print(
            _(
                "binscrabble serve: --workers takes {least} to {most} processes, not {workers}: "
                "each is a process of its own that thinks for the computer"
            ).format(least=MIN_WORKERS, most=MAX_WORKERS, workers=args.workers),
            file=sys.stderr,
        )
        return 2
    if args.max_games is not None and args.max_games < 1:
        print(_("binscrabble serve: --max-games needs at least 1"), file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(_("binscrabble serve: --port takes 0 to 65535"), file=sys.stderr)
        return 2
    from binscrabble.web.ratelimit import RateLimitError, RateLimits

    try:
        rate_limits = RateLimits.parse(args.rate_limit)
    except RateLimitError as problem:
        print(_("binscrabble serve: {problem}").format(problem=problem), file=sys.stderr)
        return 2
    unusable = proxy_problem(args.proxy) or host_problem(args.host) or database_problem(args.db)
    if unusable is not None:
        raise CliError(unusable)
    from binscrabble.web.serve import serve

    options = {} if args.max_games is None else {"max_games": args.max_games}
    proxies = frozenset(str(ipaddress.ip_address(proxy)) for proxy in args.proxy)
    return serve(
        args.host,
        args.port,
        args.db,
        args.workers,
        rate_limits=rate_limits,
        proxies=proxies,
        **options,
    )


def proxy_problem(proxies: list[str]) -> str | None:
    """Why a ``--proxy`` is not an IP address, or None.

    >>> proxy_problem(["127.0.0.1", "::1"]) is None, proxy_problem(["nginx"])
    (True, "--proxy 'nginx' is not an IP address: give the proxy's, e.g. --proxy 127.0.0.1")
    """
    for proxy in proxies:
        try:
            ipaddress.ip_address(proxy)
        except ValueError:
            return _(
                "--proxy {proxy} is not an IP address: give the proxy's, e.g. --proxy 127.0.0.1"
            ).format(proxy=quoted(proxy))
    return None


#: The longest host name (DNS allows 253 characters).
MAX_HOST = 253
#: The first bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"


def host_problem(host: str) -> str | None:
    """Why ``--host`` cannot be listened on before even trying, or None."""
    if len(host) > MAX_HOST or control_character(host) is not None:
        return _(
            "--host {host} is not an address or a host name (at most {most} characters, no "
            "control characters)"
        ).format(host=quoted(host), most=MAX_HOST)
    return None


def _sqlite_file_problem(path: Path) -> str | None:
    """Why the SQLite file ``path`` cannot hold the games, or None (it may not exist yet)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        folder = path.parent
        if not folder.is_dir():
            return _("there is no folder {folder} to make the database file in").format(
                folder=folder
            )
        return None
    except OSError as error:
        return _unreadable(path, error)
    if stat.S_ISDIR(mode):
        return _("{path} is a folder: give the path of a database file, e.g. {example}").format(
            path=path, example=path / "games.db"
        )
    if not stat.S_ISREG(mode):
        return _(
            "{path} is not a regular file (a FIFO, a device or a socket): give a file path"
        ).format(path=path)
    try:
        with open(path, "rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as error:
        return _unreadable(path, error)
    if header and header != SQLITE_HEADER[: len(header)]:
        return _(
            "{path} is not an SQLite database: give a new file or a database binscrabble made"
        ).format(path=path)
    if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
        return _(
            "{path} (or its folder) cannot be written: the server saves every move there"
        ).format(path=path)
    return None


def _unreadable(path: Path, error: OSError) -> str:
    return _("{path} cannot be read: {problem}").format(path=path, problem=error.strerror or error)


def database_problem(given: str) -> str | None:
    """Why ``--db`` names no database the server can use, or None (it is then ready, its
    tables made). Said before the server listens, so a mistyped path never half-starts it."""
    from alembic.util import CommandError
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    from binscrabble.web.storage import Storage, database_url

    url_text = database_url(given)
    shown = quoted(given)
    try:
        url = make_url(url_text)
    except (ArgumentError, ValueError):
        return _(
            "--db {database} is neither a file path nor a database URL such as sqlite:///games.db"
        ).format(database=shown)
    if "://" in given:
        shown = quoted(url.render_as_string(hide_password=True))
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        problem = _sqlite_file_problem(Path(url.database))
        if problem is not None:
            return _("--db {database}: {problem}").format(database=shown, problem=problem)
    try:
        Storage(url_text).close()
    except NoSuchModuleError:
        return _(
            "--db {database}: no database of the kind {kind} is known; give a file path, or a "
            "URL such as sqlite:///games.db or postgresql://..."
        ).format(database=shown, kind=quoted(url.drivername))
    except ImportError as error:
        return _(
            "--db {database}: the driver for {kind} is not installed (the module {module} is "
            "missing): install it, or give a file path"
        ).format(database=shown, kind=url.get_backend_name(), module=quoted(error.name))
    except CommandError as error:
        return _(
            "--db {database}: its tables are not ones this version can use ({problem})"
        ).format(database=shown, problem=quoted(str(error)))
    except (SQLAlchemyError, OSError, ValueError) as error:
        reason = getattr(error, "orig", None) or error
        return _("--db {database}: the database cannot be opened: {problem}").format(
            database=shown, problem=quoted(str(reason), 200)
        )
    return None
