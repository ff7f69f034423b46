"""Every status each route can answer, in one place, and the OpenAPI description built from it.

The table :data:`ROUTE_ERRORS` names the error statuses of each route (by the name of its
function in ``app.py``); :data:`STATUS_MEANINGS` says what each status means. A route that
learns to answer a new status gets it added to its entry here (and the status's meaning, if
new); the OpenAPI description then documents it, with the error body, and nothing else:
FastAPI's own "422 Validation Error" is not documented (a malformed body gets 400 here).
Every error is JSON (``{"error": sentence}``), whatever a route's answer is. A status that
only some apps answer (one that depends on their options) may instead be declared on the
route itself (its ``responses``), and is documented as declared.

>>> error_statuses("play")
(400, 401, 404, 409, 413, 422)
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

#: The error statuses each route can answer, by the name of its function. Every route has
#: 413: any request with a body over 64 KiB gets it before it reaches the route.
ROUTE_ERRORS: Final[dict[str, tuple[int, ...]]] = {
    "meta": (413,),
    "create_game": (400, 413, 503),
    "read_game": (401, 404, 413),
    "play": (400, 401, 404, 409, 413, 422),
    "preview": (400, 401, 404, 413),
    "enter_rack": (400, 401, 404, 409, 413),
    "hint": (401, 404, 409, 413, 503),
    "record": (404, 409, 413),
    "analysis": (404, 409, 413, 503),
    "view_record": (400, 413),
    "rematch": (401, 404, 409, 413),
}

_ERROR_REF: Final = "#/components/schemas/ErrorBody"


def error_statuses(route: str) -> tuple[int, ...]:
    """The error statuses of a route; a route missing from the table is a mistake."""
    try:
        return ROUTE_ERRORS[route]
    except KeyError:
        raise LookupError(
            f"the route {route!r} is not in ROUTE_ERRORS (binscrabble/web/responses.py): "
            "add the error statuses it can answer"
        ) from None


def describe(
    routes: Iterable[APIRoute],
    schema: dict[str, Any],
    options: Callable[[APIRoute], Mapping[int, dict[str, Any]]] = lambda _route: {},
) -> dict[str, Any]:
    """The OpenAPI description ``schema`` (as FastAPI built it from ``routes``) with, for
    each route, its answer and exactly the error statuses of :data:`ROUTE_ERRORS`, each with
    the JSON error body, and those that depend on the app's ``options`` (its rate limits)."""
    for route in routes:
        if not route.include_in_schema:
            continue
        statuses = error_statuses(route.name)
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
            # A status a route declares itself is kept as declared; one that depends on the
            # app's options, as they describe it.
            for declared in route.responses:
                kept.setdefault(str(declared), answers[str(declared)])
            for status, answer in options(route).items():
                kept.setdefault(str(status), answer)
            operation["responses"] = dict(sorted(kept.items()))
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components["ErrorBody"] = ErrorBody.model_json_schema()
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)
    return schema
