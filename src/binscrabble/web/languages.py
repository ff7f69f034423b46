"""Each request's language (INTERFACES.md §7, docs/languages.md).

:class:`Languages` is plain ASGI middleware: for every request and WebSocket it chooses the
language (:func:`choose`) and makes it current (:mod:`binscrabble.i18n`) while the app
answers, so error sentences, views and pages are in it. A valid ``?lang=`` is remembered
in the ``lang`` cookie; every HTTP answer says its language in ``Content-Language`` and
that it varies with the cookie and ``Accept-Language`` (but the page's files under
``/static/``, the same in every language).

The choice costs next to nothing whatever a request carries (docs/limits.md): the query is
read once, among its first :data:`QUERY_FIELDS` fields, and only ``lang`` is decoded; the
cookie is read among its first :data:`COOKIE_PAIRS` pairs. A query string of more fields is
refused (400) before anything parses it, and the app is given no ``Cookie`` header (it reads
none but ``lang``, which is read here), so neither FastAPI nor Starlette parses a flood.

>>> choose("lang=he", "lang=fr", "fr"), choose("", "lang=bg", "fr"), choose("", "", "fr-CA")
('he', 'bg', 'fr')
>>> choose("lang=xx", "", "de, en;q=0.5"), choose("", "", "")
('en', 'en')
"""

from __future__ import annotations

from typing import Final
from urllib.parse import unquote_plus

from starlette.datastructures import MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from binscrabble import i18n
from binscrabble.i18n import _

#: The cookie that remembers a language chosen with ``?lang=``.
COOKIE: Final = "lang"
#: How long the cookie is kept: a year.
COOKIE_SECONDS: Final = 365 * 24 * 3600


#: The fields of a query string looked at for ``lang``, and the most a query may have.
QUERY_FIELDS: Final = 100
#: The pairs of a ``Cookie`` header looked at for ``lang`` (a browser keeps at most ~180
#: cookies a site, each a pair; ours is one).
COOKIE_PAIRS: Final = 50
# The longest value of ``lang`` worth decoding: a language's name is two letters.
_LONGEST_VALUE: Final = 16


def query_fields(query: str) -> list[str]:
    """The first :data:`QUERY_FIELDS` fields of a query string, still encoded: the rest is
    neither split nor read.

    >>> query_fields("a=1&lang=he"), len(query_fields("a&" * 30_000))
    (['a=1', 'lang=he'], 100)
    """
    return query.split("&", QUERY_FIELDS)[:QUERY_FIELDS]


def too_many_fields(query: bytes) -> bool:
    """Whether a query string has more fields than :data:`QUERY_FIELDS` (counted without
    splitting it)."""
    return query.count(b"&") >= QUERY_FIELDS


def asked(query: str) -> str | None:
    """The language of a query string's first ``lang``, if it names one of ours."""
    for field in query_fields(query):
        name, _eq, value = field.partition("=")
        if len(name) <= _LONGEST_VALUE and unquote_plus(name) == "lang":
            if len(value) > _LONGEST_VALUE:
                return None
            value = unquote_plus(value).lower()
            return value if value in i18n.LANGUAGES else None
    return None


def remembered(cookie: str) -> str | None:
    """The language of a ``Cookie`` header's ``lang`` (the last one, among its first
    :data:`COOKIE_PAIRS` pairs), if it names one of ours."""
    found = ""
    for pair in cookie.split(";", COOKIE_PAIRS)[:COOKIE_PAIRS]:
        name, _eq, value = pair.partition("=")
        if name.strip() == COOKIE:
            found = value.strip()
    if len(found) > 2 and found[0] == found[-1] == '"':
        found = found[1:-1]
    return found.lower() if found.lower() in i18n.LANGUAGES else None


def choose(query: str, cookie: str, accept_language: str) -> str:
    """The language of a request: its ``?lang=``, else its ``lang`` cookie, else its
    ``Accept-Language``, else English. A value that is not one of ours is passed over."""
    return chosen(asked(query), cookie, accept_language)


def chosen(from_query: str | None, cookie: str, accept_language: str) -> str:
    """:func:`choose` once the query's language (:func:`asked`) is known."""
    if from_query is not None:
        return from_query
    return remembered(cookie) or i18n.from_accept_language(accept_language) or i18n.ENGLISH


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
        raw_query: bytes = scope.get("query_string", b"")
        from_query = asked(raw_query.decode("latin-1"))
        cookie = _header(scope, b"cookie")
        language = chosen(from_query, cookie, _header(scope, b"accept-language"))
        remember = scope["type"] == "http" and from_query is not None
        if cookie:
            # The app reads no cookie but ``lang``, read above: it is not given the header.
            headers = [(key, value) for key, value in scope["headers"] if key != b"cookie"]
            scope = {**scope, "headers": headers}
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
            if scope["type"] == "http" and too_many_fields(raw_query):
                refusal = JSONResponse(
                    {
                        "error": _(
                            "the address has more than {count} query fields: "
                            "send the address as this site's pages write it"
                        ).format(count=QUERY_FIELDS)
                    },
                    status_code=400,
                )
                await refusal(scope, receive, send_with_language)
                return
            await self.app(scope, receive, send_with_language)
