"""Bounds on connections: how long a request may take to arrive, how many connections are
served at once, and how large a WebSocket message may be (docs/web.md, "Connections").

uvicorn closes a kept-alive connection that stays silent, but it waits forever for the rest
of a request that was begun. :class:`GuardedH11Protocol` is uvicorn's HTTP/1.1 protocol with
two more timers: the request line and headers must arrive within ``header_timeout`` seconds
(counted from the connection's opening, or from the first byte of a later request on a
kept-alive connection), and the body within ``body_timeout`` seconds of the headers. A
request that misses either is answered 408 and its connection closed. A connection opened
while ``max_connections`` are open (WebSockets included) is answered 503 with
``Retry-After`` on its first request and closed.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr

from binscrabble.web.limits import send_error

# How long the server waits for a request's headers, then for its body, in seconds.
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 20.0
# How long a kept-alive connection may stay silent between requests, in seconds.
KEEP_ALIVE = 5
# Connections served at once (WebSockets included); a request on any other gets 503.
MAX_CONNECTIONS = 1000
# The largest WebSocket message read, in bytes: the page sends none at all.
WS_MAX_SIZE = 4096
# Seconds a refused client is asked to wait before it tries again.
RETRY_AFTER = 5


@dataclass(frozen=True)
class ConnectionLimits:
    """The bounds one server applies to its connections."""

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    keep_alive: int = KEEP_ALIVE
    max_connections: int = MAX_CONNECTIONS
    ws_max_size: int = WS_MAX_SIZE


def plain_answer(status: int, reason: str, message: str, extra: str = "") -> bytes:
    """A whole HTTP/1.1 answer that closes its connection, with an ``{"error"}`` body.

    >>> plain_answer(408, "Request Timeout", "too slow").split(b"\\r\\n")[0]
    b'HTTP/1.1 408 Request Timeout'
    """
    body = json.dumps({"error": message}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "x-content-type-options: nosniff\r\n"
        f"{extra}"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


BUSY_MESSAGE = "the server is serving as many connections as it can: try again in a few seconds"


async def busy(scope: Any, receive: Any, send: Any) -> None:
    """The ASGI app a connection over the bound is served by: 503 with ``Retry-After``."""
    headers = [
        (b"retry-after", str(RETRY_AFTER).encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"connection", b"close"),
    ]
    await send_error(send, 503, BUSY_MESSAGE, headers)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with header and body timeouts and a connection bound.

    The bounds are class attributes: :func:`guarded_protocol` makes a subclass for one
    :class:`ConnectionLimits`, since uvicorn builds each connection's protocol itself.
    """

    header_timeout = HEADER_TIMEOUT
    body_timeout = BODY_TIMEOUT
    max_connections = MAX_CONNECTIONS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request_timer: asyncio.TimerHandle | None = None
        self.waiting_for = ""  # "headers", "body", or "" when no request is arriving
        self.refused = False
        self.upgraded = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        if len(self.connections) > self.max_connections:
            self.refused = True
            self.app = busy
        self.expect("headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self.waiting_for and self.conn.their_state is h11.IDLE:
            # The first bytes of the next request on a kept-alive connection.
            self.expect("headers")
        super().data_received(data)
        self.follow_request()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self.follow_request()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self.stop_timer()
        self.upgraded = True
        if self.refused:
            self.transport.write(
                plain_answer(
                    503,
                    "Service Unavailable",
                    BUSY_MESSAGE,
                    f"retry-after: {RETRY_AFTER}\r\n",
                )
            )
            self.transport.close()
            return
        super().handle_websocket_upgrade(event)

    def follow_request(self) -> None:
        """Set the timer for the part of a request still to arrive, if any."""
        if self.upgraded or self.transport.is_closing():
            self.stop_timer()
            return
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            if self.waiting_for != "body":
                self.expect("body")
        elif state is h11.IDLE:
            if not self.waiting_for and self.conn.trailing_data[0]:
                self.expect("headers")  # part of a pipelined request is waiting
        else:
            self.stop_timer()

    def expect(self, part: str) -> None:
        """Start the timer for ``part`` ("headers" or "body") of a request."""
        self.stop_timer()
        self.waiting_for = part
        seconds = self.header_timeout if part == "headers" else self.body_timeout
        self.request_timer = self.loop.call_later(seconds, self.too_slow)

    def stop_timer(self) -> None:
        if self.request_timer is not None:
            self.request_timer.cancel()
            self.request_timer = None
        self.waiting_for = ""

    def too_slow(self) -> None:
        """The request did not arrive in time: 408 (unless an answer is under way), close."""
        part = self.waiting_for
        self.request_timer = None
        self.waiting_for = ""
        if self.transport.is_closing():
            return
        cycle = self.cycle
        answering = cycle is not None and cycle.response_started and not cycle.response_complete
        if not answering:
            seconds = self.header_timeout if part == "headers" else self.body_timeout
            self.transport.write(
                plain_answer(
                    408,
                    "Request Timeout",
                    f"the request's {part} did not arrive within {seconds:g} seconds: "
                    "send the whole request at once",
                )
            )
        self.logger.info("closed a connection from %s: its request was too slow", self.peer())
        self.transport.close()

    def peer(self) -> str:
        address = get_remote_addr(self.transport)
        return f"{address[0]}:{address[1]}" if address else "an unknown address"


def guarded_protocol(limits: ConnectionLimits) -> type[GuardedH11Protocol]:
    """The protocol class with the bounds of ``limits``."""
    return type(
        "BoundedH11Protocol",
        (GuardedH11Protocol,),
        {
            "header_timeout": limits.header_timeout,
            "body_timeout": limits.body_timeout,
            "max_connections": limits.max_connections,
        },
    )


def server_config(app: Any, limits: ConnectionLimits) -> uvicorn.Config:
    """uvicorn's configuration for the app with the bounds of ``limits``."""
    return uvicorn.Config(
        app,
        http=guarded_protocol(limits),
        log_level="warning",
        timeout_graceful_shutdown=3,
        timeout_keep_alive=limits.keep_alive,
        ws_max_size=limits.ws_max_size,
        ws_ping_interval=20,
    )
