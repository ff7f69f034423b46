"""Bounds on connections: how long a request may take to arrive, how long an answer may
wait for its client to read it, how many connections are served at once and to one address,
and how large a WebSocket message may be (docs/web.md, "Connections").

uvicorn closes a kept-alive connection that stays silent, but it waits forever for the rest
of a request that was begun, and for a client that never reads its answers.
:class:`GuardedH11Protocol` is uvicorn's HTTP/1.1 protocol with three more timers: the request
line and headers must arrive within ``header_timeout`` seconds (counted from the connection's
opening, or from the first byte of a later request on a kept-alive connection), the body
within ``body_timeout`` seconds of the headers, and an answer whose writing is paused (the
client's receive window and the kernel's send buffer full) must resume within
``write_stall_timeout`` seconds. A request that misses either of the first two is answered
408 and its connection closed; a stalled connection is aborted.

A connection opened while ``max_connections`` are open, or while its address (an IPv6
client: its ``/64``) holds ``max_per_address``, is answered 503 with ``Retry-After`` at once
and closed; it is not counted. A WebSocket stays counted until it closes.

A WebSocket handshake that fails (no key, a wrong version, a request line over 8 KiB, an
upgrade to an address with no socket) is answered as every other error: ``{"error":
sentence}`` in the request's language when its headers were read, with the security
headers (:class:`JsonRefusals`, ahead of the websockets library's protocol).
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.datastructures import Headers
from websockets.http11 import Response

from binscrabble import i18n
from binscrabble.i18n import N_, _
from binscrabble.web.headers import EVERY_ANSWER
from binscrabble.web.languages import asked, chosen
from binscrabble.web.ratelimit import client_key

# How long the server waits for a request's headers, then for its body, in seconds.
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 20.0
# How long a kept-alive connection may stay silent between requests, in seconds.
KEEP_ALIVE = 5
# Connections served at once (WebSockets included); any other is answered 503.
MAX_CONNECTIONS = 1000
# Connections served at once to one address (an IPv6 client: its /64); any other gets 503.
MAX_PER_ADDRESS = 50
# How long an answer may wait for its client to read it (writing paused), in seconds.
WRITE_STALL_TIMEOUT = 20.0
# How long a refused connection is kept for its client to read the 503, in seconds.
REFUSED_LINGER = 2.0
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
    max_per_address: int = MAX_PER_ADDRESS
    write_stall_timeout: float = WRITE_STALL_TIMEOUT
    ws_max_size: int = WS_MAX_SIZE
    #: The addresses of the reverse proxies in front of the server (``serve --proxy``):
    #: their connections carry many clients', so the bound per address does not apply to
    #: them (the proxy bounds each client's), and uvicorn takes the client's address from
    #: their ``X-Forwarded-For`` (by default it does from 127.0.0.1 only).
    proxies: frozenset[str] = frozenset()


class ConnectionCount:
    """The connections one server serves: in all, and per address (``client_key``)."""

    def __init__(
        self,
        most: int = MAX_CONNECTIONS,
        most_per_address: int = MAX_PER_ADDRESS,
        proxies: frozenset[str] = frozenset(),
    ):
        self.most = most
        self.most_per_address = most_per_address
        #: Addresses whose connections count in the total only (reverse proxies).
        self.proxies = proxies
        self.total = 0
        self.per_address: dict[str, int] = {}

    def take(self, key: str) -> str | None:
        """Count a connection of ``key``; or, over a bound, why it is refused (not counted).

        >>> count = ConnectionCount(most=3, most_per_address=1)
        >>> count.take("192.0.2.1"), count.take("192.0.2.2"), count.take("192.0.2.1") is None
        (None, None, False)
        >>> count.release("192.0.2.1"); count.take("192.0.2.1") is None
        True
        >>> proxied = ConnectionCount(most=3, most_per_address=1, proxies=frozenset({"10.0.0.1"}))
        >>> [proxied.take("10.0.0.1") for _ in range(4)][-2:] == [None, BUSY_MESSAGE]
        True
        """
        if self.total >= self.most:
            return BUSY_MESSAGE
        if key not in self.proxies and self.per_address.get(key, 0) >= self.most_per_address:
            return ADDRESS_MESSAGE.format(most=self.most_per_address)
        self.total += 1
        self.per_address[key] = self.per_address.get(key, 0) + 1
        return None

    def release(self, key: str) -> None:
        """A connection of ``key`` counted by :meth:`take` closed."""
        self.total -= 1
        left = self.per_address.pop(key) - 1
        if left:
            self.per_address[key] = left


# The headers every answer carries (web/headers.py), on the answers written here as bytes.
SECURITY_HEADERS = "".join(
    f"{name}: {value}\r\n" for name, value in {**EVERY_ANSWER, "cache-control": "no-store"}.items()
)


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
        f"{SECURITY_HEADERS}"
        f"{extra}"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


BUSY_MESSAGE = "the server is serving as many connections as it can: try again in a few seconds"
MALFORMED_MESSAGE = "the request is not valid HTTP/1.1: check its request line and headers"
BOTH_FRAMINGS_MESSAGE = (
    "a request carries Content-Length or Transfer-Encoding, not both: send only one of them"
)


class StrictConnection(h11.Connection):
    """h11's server side, which also refuses a request that carries both
    ``Content-Length`` and ``Transfer-Encoding``.

    h11 frames such a body by ``Transfer-Encoding`` alone, as RFC 9112 allows; a proxy in
    front that frames it by ``Content-Length`` would take what follows the chunks for
    another request (request smuggling). RFC 9112 lets a server refuse it: this one does.
    """

    #: Why this connection refused the request it read (``None``: h11 could not read it).
    refusal: str | None = None

    def next_event(self) -> Any:
        event = super().next_event()
        if isinstance(event, h11.Request):
            names = {name for name, _value in event.headers}  # lower case in h11
            if b"content-length" in names and b"transfer-encoding" in names:
                self.refusal = BOTH_FRAMINGS_MESSAGE
                raise h11.RemoteProtocolError(self.refusal, 400)
        return event


ADDRESS_MESSAGE = (
    "this address has {most} connections open, as many as the server serves to one address: "
    "close one, or try again in a few seconds"
)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with header, body and write-stall timeouts and the
    connection bounds.

    The bounds are class attributes: :func:`guarded_protocol` makes a subclass for one
    :class:`ConnectionLimits` (with its own :class:`ConnectionCount`), since uvicorn builds
    each connection's protocol itself.
    """

    header_timeout = HEADER_TIMEOUT
    body_timeout = BODY_TIMEOUT
    write_stall_timeout = WRITE_STALL_TIMEOUT
    count = ConnectionCount()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request_timer: asyncio.TimerHandle | None = None
        self.stall_timer: asyncio.TimerHandle | None = None
        self.waiting_for = ""  # "headers", "body", or "" when no request is arriving
        self.counted_as: str | None = None  # the address key while the connection counts
        self.refused = False
        self.upgraded = False
        size = self.config.h11_max_incomplete_event_size
        self.conn = (
            StrictConnection(h11.SERVER) if size is None else StrictConnection(h11.SERVER, size)
        )
        if self.ws_protocol_class is not None:
            self.ws_protocol_class = released_on_close(self.ws_protocol_class)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        key = client_key(get_remote_addr(self.transport))
        refusal = self.count.take(key)
        if refusal is None:
            self.counted_as = key
            self.expect("headers")
        else:
            self.refuse(refusal)

    def refuse(self, message: str) -> None:
        """Answer 503 at once; close when the client does, or after :data:`REFUSED_LINGER`."""
        extra = f"retry-after: {RETRY_AFTER}\r\n"
        self.answer_and_close(plain_answer(503, "Service Unavailable", message, extra))

    def answer_and_close(self, answer: bytes) -> None:
        """Send ``answer`` (one that closes the connection) and read nothing more."""
        self.refused = True
        self.stop_timer()
        self.transport.write(answer)
        # Closed at once, a request that arrived meanwhile would make the kernel reset the
        # connection, and the client could lose the answer: what it sends is read and dropped;
        # the connection closes when the client closes it, or after REFUSED_LINGER.
        self.request_timer = self.loop.call_later(REFUSED_LINGER, self.transport.close)

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot read (or :class:`StrictConnection` refuses): 400 with an
        ``{"error"}`` body and the headers every answer carries (uvicorn's own is plain
        text without them), then the connection closes. An answer already under way is
        cut short instead."""
        if self.answering():
            self.transport.close()
            return
        conn = self.conn
        refusal = conn.refusal if isinstance(conn, StrictConnection) else None
        refusal = refusal or MALFORMED_MESSAGE
        self.answer_and_close(plain_answer(400, "Bad Request", refusal))

    def answering(self) -> bool:
        """Whether an answer has begun and is not finished."""
        cycle = self.cycle
        return cycle is not None and cycle.response_started and not cycle.response_complete

    def release(self) -> None:
        """The connection no longer counts against the bounds (it closed)."""
        if self.counted_as is not None:
            self.count.release(self.counted_as)
            self.counted_as = None

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_timer()
        self.stop_stall_timer()
        self.release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
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
        self.stop_stall_timer()
        self.upgraded = True
        super().handle_websocket_upgrade(event)
        # The WebSocket's protocol now has the transport, and the count: it releases it.
        protocol = self.transport.get_protocol()
        if isinstance(protocol, ReleasedOnClose):
            protocol.on_close = self.release
        else:
            self.release()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self.stall_timer is None:
            self.stall_timer = self.loop.call_later(self.write_stall_timeout, self.stalled)

    def resume_writing(self) -> None:
        self.stop_stall_timer()
        super().resume_writing()

    def stop_stall_timer(self) -> None:
        if self.stall_timer is not None:
            self.stall_timer.cancel()
            self.stall_timer = None

    def stalled(self) -> None:
        """The client read nothing of its answers for ``write_stall_timeout``: abort."""
        self.stall_timer = None
        self.logger.info(
            "closed a connection from %s: it read no answer for %g seconds",
            self.peer(),
            self.write_stall_timeout,
        )
        # close() would wait for the unread answers to be sent, and a plain abort() leaves
        # them in the kernel's send queue until it gives up on the client: a linger of 0
        # resets the connection and frees both at once.
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()

    def follow_request(self) -> None:
        """Set the timer for the part of a request still to arrive, if any."""
        if self.refused:
            return  # answered and closing: its linger timer runs
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
        if not self.answering():
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


#: What a failed WebSocket handshake is told, by its status.
HANDSHAKE_SENTENCES = {
    403: N_("there is no WebSocket at this address: a game's socket is /api/games/ID/live"),
    500: N_("the WebSocket could not be opened: try again in a few seconds"),
    503: N_("the WebSocket could not be opened: try again in a few seconds"),
}
HANDSHAKE_INVALID = N_(
    "the WebSocket handshake is not valid: open the socket with a WebSocket client, "
    "as the game's page does"
)


class JsonRefusals(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (on the websockets library) whose refusals of a
    handshake are ``{"error": sentence}`` with the security headers and
    ``Content-Language``, instead of the library's English plain text or an empty body."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        send = self.conn.send_response

        def send_as_json(response: Response) -> None:
            send(self.as_json(response))

        # Every answer of the handshake goes through here: the library's own refusals (a
        # missing key, a wrong version, a request line too long) and uvicorn's 403.
        self.conn.send_response = send_as_json  # type: ignore[method-assign]

    def handle_handshake_exception(self) -> None:
        """A request the library could not read: its queued refusal, else a 400."""
        self.handshake_complete = True
        self.close_sent = True
        output = b"".join(self.conn.data_to_send())
        if not output:
            output = self.as_json(self.conn.reject(400, "")).serialize()
        self.transport.write(output)
        self.transport.close()

    def as_json(self, response: Response) -> Response:
        """A refusal (4xx, 5xx) as JSON with the headers of every answer; others as they
        are."""
        if response.status_code < 400:
            return response
        language = self.handshake_language()
        with i18n.use_language(language):
            message = _(HANDSHAKE_SENTENCES.get(response.status_code, HANDSHAKE_INVALID))
        body = json.dumps({"error": message}).encode()
        headers = Headers(
            [
                *(
                    (name, value)
                    for name, value in response.headers.raw_items()
                    if name.lower() not in ("content-type", "content-length")
                ),
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(body))),
                ("Content-Language", language),
                *EVERY_ANSWER.items(),
                ("Cache-Control", "no-store"),
            ]
        )
        return Response(response.status_code, response.reason_phrase, headers, body)

    def handshake_language(self) -> str:
        """The request's language, when its request line and headers were read."""
        request = getattr(self, "request", None)
        if request is None:
            return i18n.ENGLISH
        query = str(request.path).partition("?")[2]
        cookie = str(request.headers.get("cookie", ""))
        return chosen(asked(query), cookie, str(request.headers.get("accept-language", "")))


class ReleasedOnClose(asyncio.Protocol):
    """A WebSocket protocol that calls ``on_close`` when its connection closes."""

    on_close: Callable[[], None] | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)
        finally:
            if self.on_close is not None:
                self.on_close()
                self.on_close = None


# Each WebSocket protocol of uvicorn with ReleasedOnClose ahead of it, made once.
RELEASED: dict[type[asyncio.Protocol], type[asyncio.Protocol]] = {}


def released_on_close(protocol: type[asyncio.Protocol]) -> type[asyncio.Protocol]:
    """uvicorn's WebSocket ``protocol`` with :class:`ReleasedOnClose` ahead of it (the
    websockets library's as :class:`JsonRefusals`)."""
    if protocol not in RELEASED:
        if protocol is WebSocketsSansIOProtocol:
            protocol = JsonRefusals
        RELEASED[protocol] = type(f"Released{protocol.__name__}", (ReleasedOnClose, protocol), {})
    return RELEASED[protocol]


def guarded_protocol(limits: ConnectionLimits) -> type[GuardedH11Protocol]:
    """The protocol class with the bounds of ``limits``."""
    return type(
        "BoundedH11Protocol",
        (GuardedH11Protocol,),
        {
            "header_timeout": limits.header_timeout,
            "body_timeout": limits.body_timeout,
            "write_stall_timeout": limits.write_stall_timeout,
            "count": ConnectionCount(
                limits.max_connections,
                limits.max_per_address,
                frozenset(client_key((proxy, 0)) for proxy in limits.proxies),
            ),
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
        forwarded_allow_ips=sorted(limits.proxies) or None,
    )
