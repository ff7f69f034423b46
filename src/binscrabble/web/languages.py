"""Each request's language (INTERFACES.md §7, docs/languages.md).

:class:`Languages` is plain ASGI middleware: for every request and WebSocket it chooses the
language (:func:`choose`) and makes it current (:mod:`binscrabble.i18n`) while the app
answers, so error sentences, views and pages are in it. A valid ``?lang=`` is remembered
in the ``lang`` cookie; every HTTP answer says its language in ``Content-Language`` and
that it varies with the cookie and ``Accept-Language`` (but the page's files under
``/static/``, the same in every language).

>>> choose("lang=he", "lang=fr", "fr"), choose("", "lang=bg", "fr"), choose("", "", "fr-CA")
('he', 'bg', 'fr')
>>> choose("lang=xx", "", "de, en;q=0.5"), choose("", "", "")
('en', 'en')
"""

from __future__ import annotations

from typing import Final
from urllib.parse import parse_qsl

from starlette.datastructures import MutableHeaders
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from binscrabble import i18n

#: The cookie that remembers a language chosen with ``?lang=``.
COOKIE: Final = "lang"
#: How long the cookie is kept: a year.
COOKIE_SECONDS: Final = 365 * 24 * 3600


def asked(query: str) -> str | None:
    """The language of a query string's ``lang``, if it names one of ours."""
    for name, value in parse_qsl(query, keep_blank_values=True)[:100]:
        if name == "lang":
            return value.lower() if value.lower() in i18n.LANGUAGES else None
    return None


def choose(query: str, cookie: str, accept_language: str) -> str:
    """The language of a request: its ``?lang=``, else its ``lang`` cookie, else its
    ``Accept-Language``, else English. A value that is not one of ours is passed over."""
    from_query = asked(query)
    if from_query is not None:
        return from_query
    remembered = cookie_parser(cookie).get(COOKIE, "").lower() if cookie else ""
    if remembered in i18n.LANGUAGES:
        return remembered
    return i18n.from_accept_language(accept_language) or i18n.ENGLISH


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return ""


class Languages:
    """ASGI middleware: the request's language is the current one while the app answers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        query = scope.get("query_string", b"").decode("latin-1")
        language = choose(query, _header(scope, b"cookie"), _header(scope, b"accept-language"))
        remember = scope["type"] == "http" and asked(query) is not None
        # The page's files are the same in every language (their words come with the page).
        varies = not str(scope.get("path", "")).startswith("/static/")

        async def send_with_language(message: Message) -> None:
            if message["type"] == "http.response.start" and varies:
                headers = MutableHeaders(raw=list(message.get("headers", [])))
                headers.setdefault("content-language", language)
                headers.add_vary_header("Accept-Language")
                headers.add_vary_header("Cookie")
                if remember:
                    headers.append(
                        "set-cookie",
                        f"{COOKIE}={language}; Path=/; Max-Age={COOKIE_SECONDS}; SameSite=Lax",
                    )
                message = {**message, "headers": headers.raw}
            await send(message)

        with i18n.use_language(language):
            await self.app(scope, receive, send_with_language)
