"""Guards on what a request may send: the body size limit and readable validation errors."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from binscrabble.i18n import N_, _, ngettext
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
            twice = _("the body gives the key {key} twice: send each key once")
            await send_error(send, 400, twice.format(key=quoted(repeated)))
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
    message = _("the body is over {size} KiB: send less").format(size=limit // 1024)
    await send_error(send, 413, message)


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
#: read as text, or JSON that is a list, a string or a number (translated where it is said).
NOT_JSON: Final = N_("the body is not valid JSON: send a JSON object")
#: Pydantic's error kinds for a whole body of the wrong type.
NOT_AN_OBJECT: Final = frozenset({"dict_type", "model_type", "model_attributes_type"})
#: What FastAPI's own 400 says when it cannot parse a body at all.
UNPARSABLE_BODY: Final = "There was an error parsing the body"

#: What a value of each of Pydantic's error kinds should have been, in the catalogue's
#: words (Pydantic's own English "Input should be ..." is never shown): the context's
#: values fill the placeholders.
KIND_SENTENCES: Final = {
    "int_type": N_("it takes a whole number"),
    "int_parsing": N_("it takes a whole number"),
    "int_from_float": N_("it takes a whole number"),
    "float_type": N_("it takes a number"),
    "float_parsing": N_("it takes a number"),
    "bool_type": N_("it takes true or false"),
    "bool_parsing": N_("it takes true or false"),
    "string_type": N_("it takes text"),
    "list_type": N_("it takes a list"),
    "dict_type": N_("it takes a JSON object"),
    "model_type": N_("it takes a JSON object"),
    "model_attributes_type": N_("it takes a JSON object"),
    "greater_than_equal": N_("it takes {ge} or more"),
    "greater_than": N_("it takes more than {gt}"),
    "less_than_equal": N_("it takes {le} or less"),
    "less_than": N_("it takes less than {lt}"),
    "too_short": N_("it holds {actual_length}, at least {min_length}"),
    "too_long": N_("it holds {actual_length}, at most {max_length}"),
    "union_tag_invalid": N_("its 'kind' takes {expected_tags}, not {tag}"),
    "union_tag_not_found": N_("it needs the field 'kind'"),
}
#: A value of a kind not in :data:`KIND_SENTENCES`.
OTHER_KIND: Final = N_("it is not a value this field takes")


def _json_text(value: object) -> str:
    """``value`` as a JSON client wrote it (``null``, ``true``, ``"god"``), quoted."""
    if isinstance(value, str):
        return quoted(value)
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return quoted(str(value))


#: The clock's fields (INTERFACES.md §7) in words, as a 400 names them.
CLOCK_FIELDS: Final = {
    "clock.live.seconds": N_("the live clock's time in seconds"),
    "clock.live.increment": N_("the live clock's time added after each move"),
    "clock.live.overtime": N_("the live clock's overtime"),
    "clock.correspondence.days": N_("the correspondence clock's number of days"),
}


def field_words(where: str) -> str:
    """The field at dotted path ``where`` in people's words, in the current language: a
    player's name and computer level by the player's number, the clock's fields by what
    they hold, else the field's path.

    >>> field_words("players.1.name")
    "player 2's name"
    >>> field_words("clock.live.seconds")
    "the live clock's time in seconds"
    >>> field_words("rules.xor_tiles")
    "the field 'rules.xor_tiles'"
    """
    parts = where.split(".")
    if len(parts) == 3 and parts[0] == "players" and parts[1].isdigit():
        number = int(parts[1]) + 1
        if parts[2] == "name":
            return _("player {number}'s name").format(number=number)
        if parts[2] == "computer":
            return _("player {number}'s computer level").format(number=number)
    if where == "players":
        return _("the list of players")
    if where in CLOCK_FIELDS:
        return _(CLOCK_FIELDS[where])
    return _("the field {field}").format(field=quoted(where))


def _length_sentence(kind: str, context: Mapping[str, Any]) -> str:
    """How many characters a text takes, the noun agreeing with the number."""
    if kind == "string_too_short":
        count = int(context.get("min_length", 0))
        sentence = ngettext(
            "it takes at least {count} character", "it takes at least {count} characters", count
        )
    else:
        count = int(context.get("max_length", 0))
        sentence = ngettext(
            "it takes at most {count} character", "it takes at most {count} characters", count
        )
    return sentence.format(count=count)


def _detail(
    first: Mapping[str, Any], patterns: Mapping[str, str] | None, custom: Mapping[str, str] | None
) -> str:
    """What the value of Pydantic's error ``first`` should have been, in the current
    language."""
    kind = first.get("type", "")
    context = dict(first.get("ctx") or {})
    if kind == "string_pattern_mismatch":
        meaning = (patterns or {}).get(context.get("pattern", ""))
        return _(meaning) if meaning else _(OTHER_KIND)
    if kind == "literal_error":
        choices = str(context.get("expected", "")).replace(" or ", ", ")
        return _("it takes one of {choices}, not {value}").format(
            choices=choices, value=_json_text(first.get("input"))
        )
    if kind in (custom or {}):
        return _((custom or {})[kind])
    if kind in ("string_too_short", "string_too_long"):
        return _length_sentence(kind, context)
    if kind in KIND_SENTENCES:
        values = {name: str(value) for name, value in context.items()}
        values.setdefault("actual_length", "?")
        try:
            return _(KIND_SENTENCES[kind]).format(**values)
        except (KeyError, IndexError):
            return _(OTHER_KIND)
    return _(OTHER_KIND)


def validation_message(
    errors: Sequence[Any],
    tags: Collection[str] = (),
    patterns: Mapping[str, str] | None = None,
    custom: Mapping[str, str] | None = None,
) -> str:
    """One sentence, in the current language, for the first problem Pydantic found in a
    request.

    ``tags`` are the names Pydantic gives the shapes of a body that takes several (they are
    no field of it, and are left out of the location); ``patterns`` say in words (marked for
    the catalogue) what each pattern a text must match means; ``custom`` the sentence
    (marked) of each error kind the models raise themselves.

    >>> validation_message([{"type": "missing", "loc": ("body", "turn"), "msg": "Field required"}])
    "the body lacks the field 'turn': add it"
    >>> validation_message(
    ...     [{"type": "missing", "loc": ("body", "in notation", "turn"), "msg": "Field required"}],
    ...     tags={"in notation"},
    ... )
    "the body lacks the field 'turn': add it"
    """
    if not errors:
        return _("the request is malformed")
    first = errors[0]
    kind = first.get("type", "")
    location = list(first.get("loc", ()))
    if len(location) > 1 and location[0] == "body" and location[1] in tags:
        del location[1]
    where = ".".join(str(part) for part in location if part != "body")
    if kind == "json_invalid" or (not where and kind in NOT_AN_OBJECT):
        return _(NOT_JSON)
    if kind == "missing":
        if not where:
            return _("the request needs a JSON body")
        return _("the body lacks the field {field}: add it").format(field=quoted(where))
    if kind == "extra_forbidden":
        return _("the body has an unknown field {field}: remove it").format(field=quoted(where))
    detail = _detail(first, patterns, custom)
    if not where:
        return _("the body is not what this address takes: {detail}").format(detail=detail)
    return _("{field} is wrong: {detail}").format(field=field_words(where), detail=detail)
