"""What Debian's nginx, configured as docs/deploy.md shows, does with the requests that
``binscrabble serve`` itself refuses at the HTTP level (tests/test_web_connections.py):
it answers them before they reach the process."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from nginx_support import Nginx
from web_api_support import Served

#: A real nginx and a real process: with the PostgreSQL suites, in `make test-full`.
pytestmark = pytest.mark.full

#: The seconds any one wait of a test may last.
WAIT = 20.0


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Served, Nginx]]:
    served = Served(tmp_path / "games.db", "--proxy", "127.0.0.1")
    nginx = None
    try:
        nginx = Nginx(tmp_path / "nginx", [served.url.removeprefix("http://")])
        yield served, nginx
    finally:
        if nginx is not None:
            nginx.stop()
        served.stop()


def exchange(url: str, request: bytes) -> bytes:
    """Send ``request`` to ``url`` (``http://host:port``) and read until the close."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=WAIT) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_nginx_refuses_both_framings_and_malformed_requests_itself(
    proxied: tuple[Served, Nginx],
) -> None:
    _served, nginx = proxied
    chunked = b"2\r\n{}\r\n0\r\n\r\n"
    both = (
        b"POST /api/games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(chunked)}\r\n".encode()
        + b"Transfer-Encoding: chunked\r\n\r\n"
        + chunked
        + b"GET /api/games/nothing HTTP/1.1\r\nHost: test\r\n\r\n"
    )
    for request in (both, b"GARBAGE\r\n\r\n", b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n"):
        answer = exchange(nginx.url, request)
        assert answer.startswith(b"HTTP/1.1 400 "), answer
        assert answer.count(b"HTTP/1.1 ") == 1, answer
    # None of them reached the process: nginx logged no upstream for them.
    log = (nginx.folder / "access.log").read_text()
    assert log.count(" 400 upstream=-") == 3, log
    # A well-formed request goes through.
    assert exchange(
        nginx.url, b"GET /api/meta HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
    ).startswith(b"HTTP/1.1 200 ")
