"""``binscrabble serve``: the web app (the work is done in :mod:`binscrabble.web`)."""

from __future__ import annotations

import argparse
import importlib.util
import sys

EPILOG = """\
Open the printed address in a browser: the lobby starts games against the computer, on
one device, or online with invite links. Games are kept in the database (--db: a file
path or an SQLAlchemy URL) and resume after a restart. See docs/web.md.
"""
# Bounds of --workers: each worker is a process holding the move generator's tables
# (binscrabble.web.workers.MOST_WORKERS caps the default the same way).
MIN_WORKERS = 1
MAX_WORKERS = 32


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the web app (play in the browser)",
        description="Serve Binary Scrabble in the browser, with its JSON API and WebSocket.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (0: any free port)")
    parser.add_argument(
        "--db",
        default="binscrabble.db",
        metavar="PATH_OR_URL",
        help="SQLite file or SQLAlchemy URL (default: binscrabble.db here)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help=f"processes for the computer's moves, {MIN_WORKERS} to {MAX_WORKERS} "
        "(default: one per core but one)",
    )
    parser.add_argument(
        "--max-games",
        type=int,
        metavar="N",
        help="games held in memory: past N, the least recently used game nobody is using "
        "is let go, and reloads from the database on its next use (default: 1000)",
    )
    parser.add_argument(
        "--rate-limit",
        action="append",
        default=[],
        metavar="NAME=LIMIT",
        help="change a limit per client address: NAME is create, move, preview, hint, "
        "analysis, record or all; LIMIT is e.g. 30/minute, 30/minute,500/hour, or off "
        "(repeat the option for several; the defaults are in docs/web.md)",
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
            f"binscrabble serve needs {', '.join(missing)}: install the web extra, "
            "pip install 'binscrabble[web]'",
            file=sys.stderr,
        )
        return 2
    if args.workers is not None and not MIN_WORKERS <= args.workers <= MAX_WORKERS:
        print(
            f"binscrabble serve: --workers takes {MIN_WORKERS} to {MAX_WORKERS} processes, "
            f"not {args.workers}: each is a process of its own that thinks for the computer",
            file=sys.stderr,
        )
        return 2
    if args.max_games is not None and args.max_games < 1:
        print("binscrabble serve: --max-games needs at least 1", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print("binscrabble serve: --port takes 0 to 65535", file=sys.stderr)
        return 2
    from binscrabble.web.ratelimit import RateLimitError, RateLimits

    try:
        rate_limits = RateLimits.parse(args.rate_limit)
    except RateLimitError as problem:
        print(f"binscrabble serve: {problem}", file=sys.stderr)
        return 2
    from binscrabble.web.serve import serve

    options = {} if args.max_games is None else {"max_games": args.max_games}
    return serve(args.host, args.port, args.db, args.workers, rate_limits=rate_limits, **options)
