"""The headers every answer carries, HEAD wherever GET works, and ``Allow`` on every 405.

:class:`ResponseHeaders` is plain ASGI middleware around the whole app (docs/web.md,
"Headers"):

- a Content-Security-Policy that lets a page run only the scripts and styles the server
  itself serves (no inline script, no inline style, no other site), talk only to this server
  (its WebSocket included), and never be framed;
- ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``: a seat's token
  travels in an invite link, and no Referer carries it to another site;
- ``Cache-Control``: ``no-store`` on the API and the game pages (they carry a token or a
  seat's view); the page's files are kept but revalidated (``no-cache``, with their ETag),
  so a new version of the server never runs with an old script;
- HEAD is answered as GET without the body, and a 405 names the methods in ``Allow``.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        # The pages' icon is the empty data: URL (no request for /favicon.ico).
        "img-src 'self' data:",
        # 'self' covers the WebSocket of the same host (ws: or wss:).
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
EVERY_ANSWER = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
# Paths whose answers may be kept by a browser, revalidated on every use.
REVALIDATED = ("/static/", "/openapi.json")
# The methods of every path under /static/ (Starlette's StaticFiles names none on its 405).
STATIC_METHODS = "GET, HEAD"


def cache_control(path: str, status: int) -> str:
    """The ``Cache-Control`` of an answer with ``status`` to ``path``.

    >>> cache_control("/api/games/abc", 200), cache_control("/static/js/game.js", 200)
    ('no-store', 'no-cache')
    >>> cache_control("/static/nothing.js", 404)
    'no-store'
    """
    kept = path.startswith(REVALIDATED) or path in ("/", "/viewer")
    return "no-cache" if kept and status in (200, 304) else "no-store"


class ResponseHeaders:
    """ASGI middleware: the security and caching headers, HEAD, and ``Allow`` on 405."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        if head:
            # The app answers GET; the body is dropped below (its length stays in the headers).
            scope = {**scope, "method": "GET"}
        path: str = scope["path"]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(raw=list(message.get("headers", [])))
                for name, value in EVERY_ANSWER.items():
                    headers.setdefault(name, value)
                headers.setdefault("cache-control", cache_control(path, message["status"]))
                if message["status"] == 405:
                    allow_head(headers, path)
                message = {**message, "headers": headers.raw}
            elif message["type"] == "http.response.body" and head:
                message = {**message, "body": b""}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def allow_head(headers: MutableHeaders, path: str) -> None:
    """Name the allowed methods on a 405, HEAD wherever GET is allowed."""
    allowed = [method.strip() for method in headers.get("allow", "").split(",") if method.strip()]
    if not allowed and path.startswith("/static/"):
        allowed = [method.strip() for method in STATIC_METHODS.split(",")]
    if "GET" in allowed and "HEAD" not in allowed:
        allowed.append("HEAD")
    if allowed:
        headers["allow"] = ", ".join(allowed)
