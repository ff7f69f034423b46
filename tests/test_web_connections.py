"""The server's connections, on a real uvicorn server in this process (the socket and the
configuration `binscrabble serve` uses, with bounds set by each test): TCP_NODELAY on every
accepted connection, requests that arrive too slowly closed with 408, the bound on open
connections, WebSocket frames the page never sends refused with a close code, and
`serve --workers` kept within its bounds.

Every wait is bounded (GUARD seconds, far above the timeouts the tests set); no test asserts
on how long anything took.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from binscrabble.web.app import create_app
from binscrabble.web.connections import ConnectionLimits, server_config
from binscrabble.web.serve import bound_socket

# Seconds any one wait of a test may last before the test fails.
GUARD = 20.0
# Timeouts short enough for a test (the server's defaults are 10 and 20 seconds).
QUICK = ConnectionLimits(header_timeout=0.3, body_timeout=0.3)


@contextlib.asynccontextmanager
async def running(folder: Path, limits: ConnectionLimits) -> AsyncIterator[uvicorn.Server]:
    """The app served on a free port of 127.0.0.1 as `binscrabble serve` serves it."""
    sock = bound_socket("127.0.0.1", 0)
    app = create_app(str(folder / "games.sqlite3"), workers=1)
    server = uvicorn.Server(server_config(app, limits))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    for _ in range(1000):
        if server.started or task.done():
            break
        await asyncio.sleep(0.02)
    assert server.started, "the server did not start"
    server.port = sock.getsockname()[1]  # type: ignore[attr-defined]
    try:
        yield server
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, GUARD)
        sock.close()


def serve_and(
    folder: Path, limits: ConnectionLimits, test: Callable[[Any], Awaitable[None]]
) -> None:
    """Run ``test(server)`` against a running server, then stop it."""

    async def main() -> None:
        async with running(folder, limits) as server:
            await test(server)

    asyncio.run(main())


async def open_stream(server: Any) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", server.port)


async def read_to_end(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection."""
    return await asyncio.wait_for(reader.read(), GUARD)


async def read_answer(reader: asyncio.StreamReader) -> tuple[bytes, bytes]:
    """One answer on a kept-alive connection: its head, and its body."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), GUARD)
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    return head, await asyncio.wait_for(reader.readexactly(length), GUARD)


GET_LOBBY = b"GET /api/meta HTTP/1.1\r\nHost: test\r\n\r\n"


def test_every_accepted_connection_has_tcp_nodelay(tmp_path: Path) -> None:
    """Without TCP_NODELAY, each answer on a kept-alive connection waited for the client's
    delayed acknowledgement (some 40 ms)."""

    async def check(server: Any) -> None:
        reader, writer = await open_stream(server)
        for _ in range(2):  # the same connection, kept alive
            writer.write(GET_LOBBY)
            head, _body = await read_answer(reader)
            assert head.startswith(b"HTTP/1.1 200")
        accepted = [
            connection.transport.get_extra_info("socket")
            for connection in server.server_state.connections
        ]
        assert accepted, "the server holds no connection"
        for sock in accepted:
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        writer.close()

    serve_and(tmp_path, ConnectionLimits(), check)


def test_half_sent_headers_get_408_and_the_connection_closes(tmp_path: Path) -> None:
    async def check(server: Any) -> None:
        reader, writer = await open_stream(server)
        writer.write(b"GET /api/meta HTTP/1.1\r\nHost: test\r\n")  # the blank line never comes
        answer = await read_to_end(reader)
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert b"headers did not arrive within 0.3 seconds" in answer
        writer.close()
        # A connection that sends nothing at all is closed too.
        reader, writer = await open_stream(server)
        assert (await read_to_end(reader)).startswith(b"HTTP/1.1 408 ")
        writer.close()

    serve_and(tmp_path, QUICK, check)


def test_a_half_sent_body_gets_408_and_the_connection_closes(tmp_path: Path) -> None:
    async def check(server: Any) -> None:
        reader, writer = await open_stream(server)
        writer.write(
            b"POST /api/games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"players": '
        )
        answer = await read_to_end(reader)
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert b"body did not arrive" in answer
        writer.close()

    serve_and(tmp_path, QUICK, check)


def test_the_next_request_on_a_kept_alive_connection_is_timed_too(tmp_path: Path) -> None:
    async def check(server: Any) -> None:
        reader, writer = await open_stream(server)
        writer.write(GET_LOBBY)
        head, _body = await read_answer(reader)
        assert head.startswith(b"HTTP/1.1 200")
        writer.write(b"GET /api/meta HTTP/1.1\r\n")
        assert (await read_to_end(reader)).startswith(b"HTTP/1.1 408 ")
        writer.close()

    serve_and(tmp_path, QUICK, check)


def test_a_request_sent_in_pieces_in_time_is_served(tmp_path: Path) -> None:
    async def check(server: Any) -> None:
        reader, writer = await open_stream(server)
        body = b'{"players": [{"name": "Ann"}, {"name": "Bo"}]}'
        pieces = [
            b"POST /api/games HTTP/1.1\r\nHost: te",
            b"st\r\nContent-Type: application/json\r\n",
            f"Content-Length: {len(body)}\r\n\r\n".encode(),
            body[:10],
            body[10:],
        ]
        for piece in pieces:
            writer.write(piece)
            await writer.drain()
            await asyncio.sleep(0.02)
        head, answer = await read_answer(reader)
        assert head.startswith(b"HTTP/1.1 201"), head + answer
        writer.close()

    serve_and(tmp_path, ConnectionLimits(header_timeout=5, body_timeout=5), check)


def test_a_connection_over_the_bound_gets_503_with_retry_after(tmp_path: Path) -> None:
    async def check(server: Any) -> None:
        held = [await open_stream(server) for _ in range(2)]
        for reader, writer in held:
            writer.write(GET_LOBBY)
            head, _body = await read_answer(reader)
            assert head.startswith(b"HTTP/1.1 200")
        reader, writer = await open_stream(server)
        writer.write(GET_LOBBY)
        answer = await read_to_end(reader)
        assert answer.startswith(b"HTTP/1.1 503 ")
        assert b"retry-after: 5" in answer.lower()
        assert b"try again in a few seconds" in answer
        writer.close()
        # A WebSocket over the bound is refused the same way.
        with pytest.raises(InvalidStatus, match="503"):
            async with connect(f"ws://127.0.0.1:{server.port}/api/games/x/live", proxy=None):
                pass
        # The connections within the bound are still served.
        reader, writer = held[0]
        writer.write(GET_LOBBY)
        head, _body = await read_answer(reader)
        assert head.startswith(b"HTTP/1.1 200")
        for _reader, writer in held:
            writer.close()

    serve_and(tmp_path, ConnectionLimits(max_connections=2), check)


async def new_game(server: Any) -> tuple[str, str]:
    """A game between two people: its id and the first seat's token."""
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{server.port}", trust_env=False, timeout=GUARD
    ) as http:
        created = await http.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}]})
        assert created.status_code == 201
        answer = created.json()
        return answer["id"], answer["seats"][0]["token"]


async def close_code(server: Any, game_id: str, frame: str | bytes) -> int:
    """The close code the server answers ``frame`` with on a spectator's WebSocket."""
    url = f"ws://127.0.0.1:{server.port}/api/games/{game_id}/live"
    async with connect(url, proxy=None, max_size=None) as socket_:
        await asyncio.wait_for(socket_.recv(), GUARD)  # the view on connecting
        await socket_.send(frame)
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(socket_.recv(), GUARD)
        assert closed.value.rcvd is not None, "the server sent no close frame"
        return closed.value.rcvd.code


def test_a_binary_websocket_frame_is_closed_with_1003(tmp_path: Path) -> None:
    async def check(server: Any) -> None:
        game_id, _token = await new_game(server)
        assert await close_code(server, game_id, b"\x00\x01") == 1003

    serve_and(tmp_path, ConnectionLimits(), check)


def test_a_one_megabyte_websocket_message_is_refused_with_1009(tmp_path: Path) -> None:
    async def check(server: Any) -> None:
        game_id, _token = await new_game(server)
        assert await close_code(server, game_id, "x" * 1_000_000) == 1009

    serve_and(tmp_path, ConnectionLimits(), check)


def test_a_small_text_message_is_ignored_and_the_views_go_on(tmp_path: Path) -> None:
    async def check(server: Any) -> None:
        game_id, token = await new_game(server)
        url = f"ws://127.0.0.1:{server.port}/api/games/{game_id}/live"
        async with connect(url, proxy=None) as live:
            await asyncio.wait_for(live.recv(), GUARD)
            await live.send("hello")
            async with httpx.AsyncClient(
                base_url=f"http://127.0.0.1:{server.port}", trust_env=False, timeout=GUARD
            ) as http:
                played = await http.post(
                    f"/api/games/{game_id}/moves",
                    json={"move": "pass", "turn": 0},
                    headers={"Authorization": f"Bearer {token}"},
                )
                assert played.status_code == 200
            view = await asyncio.wait_for(live.recv(), GUARD)
            assert '"turn":1' in str(view).replace(" ", "")

    serve_and(tmp_path, ConnectionLimits(), check)


@pytest.mark.parametrize("workers", ["0", "33", "100000"])
def test_serve_refuses_a_worker_count_out_of_bounds(tmp_path: Path, workers: str) -> None:
    finished = subprocess.run(
        [sys.executable, "-m", "binscrabble", "serve", "--port", "0", "--workers", workers],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert finished.returncode == 2
    assert finished.stdout == ""
    assert finished.stderr.startswith("binscrabble serve: --workers takes 1 to 32")
    assert "Traceback" not in finished.stderr
    assert not list(tmp_path.iterdir()), "no database is made"


async def open_from(server: Any, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection from ``source`` (another 127.0.0.x address: another client)."""
    return await asyncio.open_connection("127.0.0.1", server.port, local_addr=(source, 0))


async def served(server: Any, source: str) -> bytes:
    """The status line of GET /api/meta on a new connection from ``source``."""
    reader, writer = await open_from(server, source)
    writer.write(GET_LOBBY)
    head = await asyncio.wait_for(reader.readuntil(b"\r\n"), GUARD)
    writer.close()
    return head


def test_one_address_cannot_take_every_connection(tmp_path: Path) -> None:
    """From the audit's idle_conns.py: 1,100 idle connections from one address left every
    other client 503. Now the 51st connection of an address is refused, others are served."""

    async def check(server: Any) -> None:
        held = [await open_from(server, "127.0.0.2") for _ in range(50)]
        reader, writer = await open_from(server, "127.0.0.2")
        writer.write(GET_LOBBY)
        answer = await read_to_end(reader)
        assert answer.startswith(b"HTTP/1.1 503 ")
        assert b"retry-after: 5" in answer.lower()
        assert b"this address" in answer
        writer.close()
        assert (await served(server, "127.0.0.3")).startswith(b"HTTP/1.1 200")
        # A connection of the address closed, the address is served again.
        held.pop()[1].close()
        for _ in range(200):
            if (await served(server, "127.0.0.2")).startswith(b"HTTP/1.1 200"):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the address was not served after closing a connection")
        for _reader, writer in held:
            writer.close()

    serve_and(tmp_path, ConnectionLimits(max_connections=100), check)


def test_websockets_count_against_their_address_and_are_released(tmp_path: Path) -> None:
    """From wsflood.py: 1,000 spectator WebSockets of one address held every slot."""

    async def check(server: Any) -> None:
        game_id, _token = await new_game(server)
        url = f"ws://127.0.0.1:{server.port}/api/games/{game_id}/live"
        held = []
        for _ in range(2):
            live = await connect(url, proxy=None, local_addr=("127.0.0.4", 0))
            await asyncio.wait_for(live.recv(), GUARD)
            held.append(live)
        with pytest.raises(InvalidStatus, match="503"):
            async with connect(url, proxy=None, local_addr=("127.0.0.4", 0)):
                pass
        assert (await served(server, "127.0.0.4")).startswith(b"HTTP/1.1 503")
        assert (await served(server, "127.0.0.5")).startswith(b"HTTP/1.1 200")
        await held.pop().close()
        for _ in range(200):
            if (await served(server, "127.0.0.4")).startswith(b"HTTP/1.1 200"):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("a closed WebSocket still counts against its address")
        for live in held:
            await live.close()

    serve_and(tmp_path, ConnectionLimits(max_per_address=2), check)


def test_a_client_that_never_reads_is_closed_when_writing_stalls(tmp_path: Path) -> None:
    """From nonreader.py: pipelined requests never read kept their connection forever."""

    async def check(server: Any) -> None:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind(("127.0.0.3", 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
        requests = b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n" * 500
        with contextlib.suppress(BlockingIOError):
            sock.send(requests)

        def from_the_reader() -> list[Any]:
            return [
                connection
                for connection in server.server_state.connections
                if connection.transport.get_extra_info("peername")[0] == "127.0.0.3"
            ]

        for _ in range(100):  # the server has the connection first
            if from_the_reader():
                break
            await asyncio.sleep(0.02)
        assert from_the_reader(), "the server never held the connection"
        for _ in range(int(GUARD / 0.05)):
            if not from_the_reader():
                break
            await asyncio.sleep(0.05)
        assert not from_the_reader(), "the server still holds the connection"
        sock.close()

    serve_and(tmp_path, ConnectionLimits(write_stall_timeout=0.5), check)


SECURITY_HEADERS = (
    b"content-security-policy: default-src 'none'",
    b"referrer-policy: no-referrer",
    b"x-frame-options: deny",
    b"x-content-type-options: nosniff",
    b"cache-control: no-store",
)


def test_the_408_and_503_carry_the_security_headers(tmp_path: Path) -> None:
    async def check(server: Any) -> None:
        reader, writer = await open_stream(server)
        timed_out = await read_to_end(reader)
        writer.close()
        held = await open_stream(server)
        held[1].write(GET_LOBBY)  # served, then kept alive for 5 s
        head, _body = await read_answer(held[0])
        assert head.startswith(b"HTTP/1.1 200")
        reader, writer = await open_stream(server)
        writer.write(GET_LOBBY)
        busy = await read_to_end(reader)
        writer.close()
        held[1].close()
        assert timed_out.startswith(b"HTTP/1.1 408 ")
        assert busy.startswith(b"HTTP/1.1 503 ")
        for answer in (timed_out, busy):
            for header in SECURITY_HEADERS:
                assert header in answer.lower(), (header, answer)

    serve_and(tmp_path, ConnectionLimits(header_timeout=0.3, max_connections=1), check)


@pytest.mark.parametrize("language", ["en", "fr", "he", "bg"])
def test_a_refused_websocket_is_closed_with_its_code_in_every_language(
    tmp_path: Path, language: str
) -> None:
    """A wrong token or game is told by a close frame (4401, 4404) whose reason, in the
    reader's language, fits the 123 bytes a close frame allows (Hebrew and Bulgarian
    sentences take two bytes a letter)."""

    async def check(server: Any) -> None:
        game_id, _token = await new_game(server)
        base = f"ws://127.0.0.1:{server.port}/api/games"
        for url, code in [
            (f"{base}/{game_id}/live?token=forged&lang={language}", 4401),
            (f"{base}/{'x' * 200}/live?lang={language}", 4404),
        ]:
            async with connect(url, proxy=None) as socket_:
                with pytest.raises(ConnectionClosed) as closed:
                    await asyncio.wait_for(socket_.recv(), GUARD)
            assert closed.value.rcvd is not None, "the server sent no close frame"
            assert closed.value.rcvd.code == code
            assert closed.value.rcvd.reason

    serve_and(tmp_path, ConnectionLimits(), check)


def answer_body(answer: bytes) -> dict[str, Any]:
    """The JSON body of a whole answer read to its connection's close."""
    body: dict[str, Any] = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    return body


@pytest.mark.parametrize(
    "request_bytes",
    [b"GARBAGE\r\n\r\n", b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n"],
    ids=["no request line", "a NUL in the target"],
)
def test_a_malformed_request_gets_a_json_400_with_the_security_headers(
    tmp_path: Path, request_bytes: bytes
) -> None:
    # uvicorn's own answer was plain text without the headers every answer carries.
    async def check(server: Any) -> None:
        reader, writer = await open_stream(server)
        writer.write(request_bytes)
        answer = await read_to_end(reader)
        writer.close()
        assert answer.startswith(b"HTTP/1.1 400 ")
        assert b"content-type: application/json\r\n" in answer.lower()
        for header in SECURITY_HEADERS:
            assert header in answer.lower(), (header, answer)
        assert "not valid HTTP/1.1" in answer_body(answer)["error"]

    serve_and(tmp_path, ConnectionLimits(), check)


def test_a_request_with_both_content_length_and_transfer_encoding_is_refused(
    tmp_path: Path,
) -> None:
    # A proxy that frames the body by one header and this server by the other would see
    # two requests where this server sees one (request smuggling): refused, closed.
    smuggled = b"GET /api/games/nothing HTTP/1.1\r\nHost: test\r\n\r\n"
    chunked = b"2\r\n{}\r\n0\r\n\r\n"

    async def check(server: Any) -> None:
        for order in (b"Content-Length", b"Transfer-Encoding"):
            headers = {
                b"Content-Length": f"Content-Length: {len(chunked)}\r\n".encode(),
                b"Transfer-Encoding": b"Transfer-Encoding: chunked\r\n",
            }
            both = headers[order] + b"".join(v for k, v in headers.items() if k != order)
            reader, writer = await open_stream(server)
            writer.write(
                b"POST /api/games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                + both
                + b"\r\n"
                + chunked
                + smuggled
            )
            answer = await read_to_end(reader)
            writer.close()
            assert answer.startswith(b"HTTP/1.1 400 "), answer
            assert answer.count(b"HTTP/1.1 ") == 1, answer  # the smuggled request unanswered
            assert "Content-Length or Transfer-Encoding" in answer_body(answer)["error"]
            for header in SECURITY_HEADERS:
                assert header in answer.lower(), (header, answer)
        # Transfer-Encoding alone is served as before.
        body = json.dumps({"players": [{"name": "Ann"}, {"name": "Bo"}]}).encode()
        reader, writer = await open_stream(server)
        writer.write(
            b"POST /api/games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + f"{len(body):x}\r\n".encode()
            + body
            + b"\r\n0\r\n\r\n"
        )
        alone = await read_to_end(reader)
        writer.close()
        assert alone.startswith(b"HTTP/1.1 201 "), alone

    serve_and(tmp_path, ConnectionLimits(), check)
