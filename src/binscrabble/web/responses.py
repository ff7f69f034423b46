"""The error statuses of the routes and the OpenAPI description built from them.

Each route declares the error statuses it can answer where it is declared, as its
``responses`` (``responses=errors(400, 401, 404, 413)``); :data:`STATUS_MEANINGS` says what
each status means. A route that learns to answer a new status gets it added there (and the
status's meaning here, if new); the OpenAPI description then documents it, with the error
body, and nothing else: FastAPI's own "422 Validation Error" is not documented (a malformed
body gets 400 here). Every error is JSON (``{"error": sentence}``), whatever a route's
answer is. A status that only some apps answer (one that depends on their options, such as
the 429 of the rate limits) is documented as those options describe it.

>>> sorted(errors(404, 503)), errors(404)[404]["description"]
([404, 413, 503], 'There is no such game.')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

from fastapi.routing import APIRoute

from binscrabble.web.models import ErrorBody

#: What each error status means, as the OpenAPI description says it.
STATUS_MEANINGS: Final[dict[int, str]] = {
    400: "A malformed body or notation; the sentence says what to change.",
    401: "No token, or a token that opens no seat of this game.",
    404: "There is no such game.",
    409: "Not now: another seat's turn, a stale turn, a game over, or a game not over yet.",
    413: "A body over 64 KiB.",
    422: "An illegal move, with the referee's reason.",
    503: "The computer is too busy to take this now; Retry-After says when to ask again.",
}
#: The headers an error status comes with, as the OpenAPI description says them.
STATUS_HEADERS: Final[dict[int, dict[str, Any]]] = {
    503: {
        "Retry-After": {
            "description": "seconds to wait before asking again",
            "schema": {"type": "integer"},
        }
    },
}

#: Every route answers 413: any request with a body over 64 KiB gets it before it reaches
#: the route.
EVERY_ROUTE: Final = (413,)

_ERROR_REF: Final = "#/components/schemas/ErrorBody"


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that answers ``statuses`` (and 413, as every route
    does): each with the error body and the meaning of :data:`STATUS_MEANINGS`."""
    declared: dict[int | str, dict[str, Any]] = {}
    for status in sorted({*statuses, *EVERY_ROUTE}):
        declared[status] = {"model": ErrorBody, "description": STATUS_MEANINGS[status]}
        if status in STATUS_HEADERS:
            declared[status]["headers"] = STATUS_HEADERS[status]
    return declared


def error_statuses(route: APIRoute) -> tuple[int, ...]:
    """The error statuses a route declares; a route that declares none is a mistake."""
    statuses = tuple(sorted(int(status) for status in route.responses))
    if not statuses:
        raise LookupError(
            f"the route {route.name!r} declares no error status: give it "
            "responses=errors(...) (binscrabble/web/responses.py) with those it can answer"
        )
    return statuses


def describe(
    routes: Iterable[APIRoute],
    schema: dict[str, Any],
    options: Callable[[APIRoute], Mapping[int, dict[str, Any]]] = lambda _route: {},
) -> dict[str, Any]:
    """The OpenAPI description ``schema`` (as FastAPI built it from ``routes``) with, for
    each route, its answer and exactly the error statuses it declares, each with the JSON
    error body, and those that depend on the app's ``options`` (its rate limits)."""
    for route in routes:
        if not route.include_in_schema:
            continue
        statuses = error_statuses(route)
        success = str(route.status_code or 200)
        for method in route.methods or ():
            operation = schema["paths"][route.path_format].get(method.lower())
            if operation is None:
                continue
            answers = operation["responses"]
            kept = {success: answers[success]} if success in answers else {}
            for status in statuses:
                kept[str(status)] = {
                    "description": STATUS_MEANINGS[status],
                    "content": {"application/json": {"schema": {"$ref": _ERROR_REF}}},
                }
                if status in STATUS_HEADERS:
                    kept[str(status)]["headers"] = STATUS_HEADERS[status]
            # A status that depends on the app's options, as they describe it.
            for status, answer in options(route).items():
                kept.setdefault(str(status), answer)
            operation["responses"] = dict(sorted(kept.items()))
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components["ErrorBody"] = ErrorBody.model_json_schema()
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)
    return schema
