"""Rate limits per client address on the endpoints that cost work or storage.

Six kinds of request are counted, each against its own limits (``serve --rate-limit``):
new games (and rematches), moves, previews, hints, analyses and record uploads. Limits are
written as the `limits` library reads them (``30/minute``, or several: ``30/minute,500/hour``)
and counted in sliding windows: in the server's memory on SQLite (one process), in the
database on PostgreSQL (:meth:`~binscrabble.web.storage.Storage.count_request`), where every
server process on it counts against the same windows. A request past a limit is answered
``429`` with ``Retry-After`` (whole seconds) and ``{"error": sentence}`` before the app
reads its body, so it changes nothing, and it does not count.

A client is its address as the server sees it (uvicorn takes ``X-Forwarded-For`` only from a
proxy on this machine); an IPv6 client is its ``/64`` network, the block one subscriber gets.

>>> chosen = RateLimits.parse(["create=5/minute", "hint=off"]).describe()
>>> chosen["create"], chosen["hint"], chosen["move"]
('5 per 1 minute', 'off', '120 per 1 minute')
>>> endpoint_of("POST", "/api/games/abc/moves"), endpoint_of("GET", "/api/games/abc")
('move', None)
>>> client_key(("2001:db8:1:2:3:4:5:6", 5000)), client_key(("192.0.2.7", 5000))
('2001:db8:1:2::/64', '192.0.2.7')
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import limits
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

from binscrabble.i18n import N_, _, ngettext
from binscrabble.limits import quoted
from binscrabble.web.limits import send_error
from binscrabble.web.storage import RateWindow, Storage


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A kind of request that is counted: its methods, its path, and what it is called."""

    methods: frozenset[str]
    path: re.Pattern[str]
    called: str


ENDPOINTS: dict[str, Endpoint] = {
    "create": Endpoint(
        frozenset({"POST"}), re.compile(r"/api/games(/[^/]+/rematch)?/?"), N_("new games")
    ),
    # A rack entered at a table (INTERFACES.md §9) is stored as a move is: counted as one.
    "move": Endpoint(
        frozenset({"POST"}), re.compile(r"/api/games/[^/]+/(moves|rack)/?"), N_("moves")
    ),
    "preview": Endpoint(
        frozenset({"POST"}), re.compile(r"/api/games/[^/]+/preview/?"), N_("previews")
    ),
    "hint": Endpoint(frozenset({"POST"}), re.compile(r"/api/games/[^/]+/hint/?"), N_("hints")),
    "analysis": Endpoint(
        frozenset({"GET", "HEAD"}), re.compile(r"/api/games/[^/]+/analysis/?"), N_("analyses")
    ),
    "record": Endpoint(
        frozenset({"POST"}), re.compile(r"/api/records/view/?"), N_("record uploads")
    ),
}

#: The limits of ``serve`` when no option changes them: well above what a person playing fast
#: sends (the page previews at most every 120 ms while tiles are placed), and a bound on what
#: one address can make the server do or store. docs/web.md explains each.
DEFAULT_LIMITS: dict[str, str] = {
    "create": "30/minute",
    "move": "120/minute",
    "preview": "600/minute",
    "hint": "30/minute",
    "analysis": "120/minute",
    "record": "30/minute",
}

OFF = "off"


class RateLimitError(ValueError):
    """A ``--rate-limit`` option that cannot be read; the message says how to write it."""


def endpoint_of(method: str, path: str) -> str | None:
    """The name of the counted endpoint a request goes to, ``None`` for one not counted."""
    for name, endpoint in ENDPOINTS.items():
        if method in endpoint.methods and endpoint.path.fullmatch(path):
            return name
    return None


#: The key of a client whose address is not known.
UNKNOWN_CLIENT = "unknown"


def client_key(client: tuple[str, int] | None) -> str:
    """Who a request is counted against: its address, or an IPv6 address's ``/64``."""
    if client is None:
        return UNKNOWN_CLIENT
    host = client[0]
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an IP address (a test client's name, a Unix socket)
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class RateLimits:
    """The limits in force: for each endpoint name, its `limits` items (none: not limited)."""

    def __init__(self, items: Mapping[str, list[limits.RateLimitItem]]) -> None:
        self.items = {name: list(items.get(name, [])) for name in ENDPOINTS}

    @classmethod
    def parse(
        cls, options: Iterable[str], defaults: Mapping[str, str] = DEFAULT_LIMITS
    ) -> RateLimits:
        """The defaults changed by ``NAME=LIMIT`` options; ``NAME`` is an endpoint's name or
        ``all``, ``LIMIT`` a `limits` string or ``off``. Raises :class:`RateLimitError`."""
        chosen = dict(defaults)
        for option in options:
            name, equals, value = option.partition("=")
            name, value = name.strip(), value.strip()
            if not equals or not value:
                raise RateLimitError(
                    _(
                        "--rate-limit {option} is not NAME=LIMIT: write e.g. create=30/minute "
                        "or move=off"
                    ).format(option=quoted(option))
                )
            if name == "all":
                chosen = dict.fromkeys(ENDPOINTS, value)
            elif name in ENDPOINTS:
                chosen[name] = value
            else:
                raise RateLimitError(
                    _("--rate-limit knows no {name}: name one of {names} or all").format(
                        name=quoted(name), names=", ".join(ENDPOINTS)
                    )
                )
        return cls({name: read_limits(name, text) for name, text in chosen.items()})

    def describe(self) -> dict[str, str]:
        """Each endpoint's limits in words, ``off`` for none."""
        return {
            name: ", ".join(str(item) for item in items) or OFF
            for name, items in self.items.items()
        }

    def any(self) -> bool:
        """Whether anything is limited."""
        return any(self.items.values())


def read_limits(name: str, text: str) -> list[limits.RateLimitItem]:
    """The `limits` items of one option's value; ``off`` is none."""
    if text.lower() == OFF:
        return []
    try:
        items = limits.parse_many(text)
    except ValueError:
        items = []
    if not items or any(item.amount < 1 for item in items):
        raise RateLimitError(
            _(
                "the rate limit {name}={text} cannot be read: write a count per period, "
                "e.g. 30/minute, 500/hour, or several as 30/minute,500/hour, or off"
            ).format(name=name, text=quoted(text))
        )
    return items


class RateLimit:
    """ASGI middleware: counts each limited request against its client's limits and
    answers one past them ``429`` before the app sees it. The counts are kept in
    ``storage`` when it is shared by several processes (:attr:`Storage.shared`),
    else in this process's memory."""

    def __init__(
        self, app: ASGIApp, rate_limits: RateLimits, storage: Storage | None = None
    ) -> None:
        self.app = app
        self.rate_limits = rate_limits
        self.limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
        self.shared = storage if storage is not None and storage.shared else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        name = endpoint_of(scope["method"], scope["path"]) if scope["type"] == "http" else None
        if name is not None and self.rate_limits.items[name]:
            key = client_key(scope.get("client"))
            past = await self.count(name, key)
            if past is not None:
                await refuse(send, name, past)
                return
        await self.app(scope, receive, send)

    async def count(self, name: str, key: str) -> tuple[limits.RateLimitItem, int] | None:
        """Count a request of ``key`` to ``name``; past a limit, that limit and the seconds
        to wait instead (the request is then not counted)."""
        items = self.rate_limits.items[name]
        if self.shared is not None:
            return await count_shared(self.shared, name, key, items)
        for item in items:
            if not await self.limiter.test(item, name, key):
                stats = await self.limiter.get_window_stats(item, name, key)
                return item, max(1, math.ceil(stats.reset_time - time.time()))
        for item in items:
            await self.limiter.hit(item, name, key)
        return None


async def count_shared(
    storage: Storage, name: str, key: str, items: list[limits.RateLimitItem]
) -> tuple[limits.RateLimitItem, int] | None:
    """:meth:`RateLimit.count` in the database ``storage``, shared by every process on it."""
    windows = [
        RateWindow(f"{name} {item} {key}", item.amount, item.get_expiry() * 1000) for item in items
    ]
    now = int(time.time() * 1000)
    past = await asyncio.to_thread(storage.count_request, windows, now)
    if past is None:
        return None
    index, wait_ms = past
    period = items[index].get_expiry()
    return items[index], max(1, min(period, math.ceil(wait_ms / 1000)))


async def refuse(send: Send, name: str, past: tuple[limits.RateLimitItem, int]) -> None:
    """Answer 429 with ``Retry-After`` and the error body."""
    item, wait = past
    period = item.get_expiry()
    limit = ngettext(
        "at most {amount} in {count} second", "at most {amount} in {count} seconds", period
    ).format(amount=item.amount, count=period)
    later = ngettext("{count} second", "{count} seconds", wait).format(count=wait)
    message = _("too many {what} from your address ({limit}): try again in {later}").format(
        what=_(ENDPOINTS[name].called), limit=limit, later=later
    )
    await send_error(send, 429, message, [(b"retry-after", str(wait).encode())])


def documented_429(route: Any, rate_limits: RateLimits) -> dict[int, dict[str, Any]]:
    """The 429 answer of a route's OpenAPI description when ``rate_limits`` limit it (none
    when they do not): the route itself is left as declared, for every app shares it."""
    methods = getattr(route, "methods", None) or set()
    names = {endpoint_of(method, getattr(route, "path", "")) for method in methods}
    limited = sorted(name for name in names if name is not None and rate_limits.items[name])
    return {429: too_many(limited[0])} if limited else {}


def too_many(name: str) -> dict[str, Any]:
    """The OpenAPI description of a 429 answer of endpoint ``name``."""
    return {
        "description": f"Too many {ENDPOINTS[name].called} from this address",
        "headers": {
            "Retry-After": {
                "description": "seconds to wait before asking again",
                "schema": {"type": "integer"},
            }
        },
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    }
