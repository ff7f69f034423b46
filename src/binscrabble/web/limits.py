"""Guards on what a request may send: the body size limit and readable validation errors."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from binscrabble.limits import quoted


class BodyLimit:
    """ASGI middleware: a body over ``limit`` bytes gets 413 before the app reads it all,
    and a JSON body that gives a key twice gets 400 (:func:`repeated_key`) whatever the
    route: the one check of every body's keys, so that no route takes the first or the
    last of two values silently."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await refuse(send, self.limit)
            return
        # The body is read here, whole, so that an endless one is cut off at the limit.
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body.extend(message.get("body", b""))
            if len(body) > self.limit:
                await refuse(send, self.limit)
                return
            if not message.get("more_body", False):
                break
        repeated = repeated_key(bytes(body))
        if repeated is not None:
            await send_error(
                send, 400, f"the body gives the key {quoted(repeated)} twice: send each key once"
            )
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class _Repeated(Exception):
    """A JSON object that gives a key twice (the key is the argument)."""


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of JSON ``pairs``; :class:`_Repeated` when a key comes twice."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _Repeated(key)
        seen[key] = value
    return seen


def repeated_key(body: bytes) -> str | None:
    """The first key a JSON body gives twice in one object, else ``None`` (also for a body
    that is empty or not JSON: the route's own reading answers those).

    >>> repeated_key(b'{"move": "pass", "turn": 0, "turn": 1}')
    'turn'
    >>> repeated_key(b'{"players": [{"name": "Ann"}, {"name": "Bo"}]}') is None
    True
    """
    if not body.strip():
        return None
    try:
        json.loads(body, object_pairs_hook=_once_each)
    except _Repeated as repeated:
        return str(repeated.args[0])
    except (ValueError, RecursionError):
        return None
    return None


async def refuse(send: Send, limit: int) -> None:
    """Answer 413 with the error body."""
    await send_error(send, 413, f"the body is over {limit // 1024} KiB: send less")


async def send_error(
    send: Send, status: int, message: str, headers: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    """Answer ``{"error": message}`` with ``status`` straight over ASGI, before any route
    runs (a body too large, a rate limit met, a connection over the bound)."""
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


#: The one answer to a body that is not a JSON object: text that does not parse (bad UTF-8,
#: a number over Python's digits, nesting past the parser's depth), another content type
#: read as text, or JSON that is a list, a string or a number.
NOT_JSON: Final = "the body is not valid JSON: send a JSON object"
#: Pydantic's error kinds for a whole body of the wrong type.
NOT_AN_OBJECT: Final = frozenset({"dict_type", "model_type", "model_attributes_type"})
#: What FastAPI's own 400 says when it cannot parse a body at all.
UNPARSABLE_BODY: Final = "There was an error parsing the body"


def validation_message(
    errors: Sequence[Any],
    tags: Collection[str] = (),
    patterns: Mapping[str, str] | None = None,
) -> str:
    """One sentence for the first problem Pydantic found in a request.

    ``tags`` are the names Pydantic gives the shapes of a body that takes several (they are
    no field of it, and are left out of the location); ``patterns`` say in words what each
    pattern a text must match means.

    >>> validation_message([{"type": "missing", "loc": ("body", "turn"), "msg": "Field required"}])
    "the body lacks the field 'turn': add it"
    >>> validation_message(
    ...     [{"type": "missing", "loc": ("body", "in notation", "turn"), "msg": "Field required"}],
    ...     tags={"in notation"},
    ... )
    "the body lacks the field 'turn': add it"
    """
    if not errors:
        return "the request is malformed"
    first = errors[0]
    kind = first.get("type", "")
    location = list(first.get("loc", ()))
    if len(location) > 1 and location[0] == "body" and location[1] in tags:
        del location[1]
    where = ".".join(str(part) for part in location if part != "body")
    message = first.get("msg", "malformed")
    if kind == "json_invalid" or (not where and kind in NOT_AN_OBJECT):
        return NOT_JSON
    if kind == "missing":
        if not where:
            return "the request needs a JSON body"
        return f"the body lacks the field '{where}': add it"
    if kind == "extra_forbidden":
        return f"the body has an unknown field '{where}': remove it"
    context = first.get("ctx", {})
    if kind == "string_pattern_mismatch":
        message = (patterns or {}).get(context.get("pattern", ""), message)
    elif kind == "too_short":
        message = f"it holds {context.get('actual_length')}, at least {context.get('min_length')}"
    elif kind == "too_long":
        message = f"it holds {context.get('actual_length')}, at most {context.get('max_length')}"
    elif kind == "literal_error":
        message = f"it takes {context.get('expected')}, not {quoted(first.get('input'))}"
    if not where:
        return f"the body is not what this address takes: {message}"
    return f"the field '{where}' is wrong: {message}"
