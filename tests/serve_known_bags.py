"""``python tests/serve_known_bags.py serve ...``: ``binscrabble serve`` whose new games draw
their bags from seeds made from the test that asked for them, so a browser test meets the
same racks on every run, as the tests of an app inside the test process do (the
``known_bags`` fixture in conftest.py).

A request names its test in the ``X-Binscrabble-Test`` header (the browser tests' pages
and their API calls send the test's id); the games it creates take seeds counted up from
a number made from that id, one after another. A request without the header gets the
server's own secret random seed. The server is otherwise the command's, unchanged.
"""

from __future__ import annotations

import contextvars
import hashlib
import itertools
import os
import sys
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from typing import Any

#: This launcher, for the tests' commands.
PATH = os.path.abspath(__file__)
#: The header a test's requests carry.
HEADER = "X-Binscrabble-Test"


def naming_headers() -> dict[str, str]:
    """The header that names the running test to the server, for a test's requests: none
    with BINSCRABBLE_TEST_RANDOM_BAGS=1 (the server's secret random bags, to sweep the
    suites over new racks; docs/deploy.md, "Tests")."""
    if os.environ.get("BINSCRABBLE_TEST_RANDOM_BAGS") == "1":
        return {}
    running = os.environ.get("PYTEST_CURRENT_TEST", "")
    test = running.rsplit(" (", 1)[0]
    return {HEADER: test.encode("ascii", "backslashreplace").decode()} if test else {}


_test: contextvars.ContextVar[str | None] = contextvars.ContextVar("test", default=None)
_seeds: dict[str, Iterator[int]] = {}
_header = HEADER.lower().encode()
#: The server's own seeds, for requests that name no test (set as the server starts).
_secret_seed: Callable[[], str] = str

Scope = MutableMapping[str, Any]
App = Callable[[Scope, Any, Any], Awaitable[None]]


def known_seed() -> str:
    """The next seed of the test this request comes from, or a secret one."""
    test = _test.get()
    if test is None:
        return _secret_seed()
    if test not in _seeds:
        digest = hashlib.sha256(test.encode()).digest()
        _seeds[test] = itertools.count(int.from_bytes(digest[:8]) >> 1)
    return str(next(_seeds[test]))


class NamedTest:
    """ASGI middleware: the request's test, from its header, for :func:`known_seed`."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for name, value in scope["headers"]:
                if name == _header:
                    _test.set(value.decode("utf-8", "replace"))
                    break
        await self.app(scope, receive, send)


def serve_named(argv: list[str]) -> int:
    """``binscrabble serve`` (``argv``) with the seeds above. The server's modules are
    imported here, not as this file is read: the computer's worker processes start by
    reading this file again (multiprocessing's spawn), and need none of them."""
    global _secret_seed
    from binscrabble.cli import main
    from binscrabble.web import active_games, serve

    create_app = serve.create_app

    def named_app(*args: Any, **kwargs: Any) -> NamedTest:
        return NamedTest(create_app(*args, **kwargs))

    _secret_seed = active_games.new_seed
    serve.create_app = named_app  # type: ignore[assignment]
    active_games.new_seed = known_seed
    return main(argv)


if __name__ == "__main__":
    sys.exit(serve_named(sys.argv[1:]))
