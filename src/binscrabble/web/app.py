"""The web app (INTERFACES.md §5 and docs/web.md): the server is the referee.

:func:`create_app` builds it from the routers of :mod:`binscrabble.web.routes`, one a
concern; every intent is judged by the core library; every outgoing game state is built by
:func:`binscrabble.web.views.build_view`; every move is stored before anyone hears of it.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app("sqlite://", workers=1))
>>> created = client.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}]})
>>> created.status_code, len(created.json()["seats"])
(201, 2)
>>> client.get("/api/games/nope").json()
{'error': "there is no game 'nope': check the link"}
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from binscrabble import __version__
from binscrabble.i18n import _
from binscrabble.web import workers as work
from binscrabble.web.active_games import DEFAULT_MAX_GAMES, RefereeError
from binscrabble.web.computer import Busy, Fairness
from binscrabble.web.headers import ResponseHeaders
from binscrabble.web.languages import Languages
from binscrabble.web.limits import NOT_JSON, UNPARSABLE_BODY, BodyLimit, validation_message
from binscrabble.web.models import CUSTOM_KINDS, MAX_BODY, MOVE_TAGS, PATTERN_MEANINGS
from binscrabble.web.ratelimit import RateLimit, RateLimits, documented_429
from binscrabble.web.responses import describe
from binscrabble.web.routes import after, ending, games, live, moves, pages, playing
from binscrabble.web.server import Server
from binscrabble.web.storage import database_url

__all__ = ["BinscrabbleAPI", "Server", "create_app"]

#: The routers of the app, one a concern (:mod:`binscrabble.web.routes`).
ROUTERS: Final = (
    games.router,
    playing.router,
    moves.router,
    ending.router,
    after.router,
    live.router,
    pages.router,
)


def error(status: int, message: str) -> JSONResponse:
    """An error answer: ``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status)


class BinscrabbleAPI(FastAPI):
    """The app, made of :data:`ROUTERS`, whose OpenAPI description documents exactly the
    statuses of :mod:`binscrabble.web.responses` (and 429 where ``rate_limits`` limit)."""

    def __init__(self, rate_limits: RateLimits | None = None, **settings: Any) -> None:
        super().__init__(**settings)
        self.rate_limits = rate_limits
        for router in ROUTERS:
            self.include_router(router)

    def api_routes(self) -> list[APIRoute]:
        """Every route of the API, as its router declares it (the routers are shared by
        every app; FastAPI may wrap them in :attr:`routes`)."""
        declared = [*self.router.routes, *(route for router in ROUTERS for route in router.routes)]
        return [route for route in declared if isinstance(route, APIRoute)]

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            self.openapi_schema = describe(self.api_routes(), super().openapi(), self.limited)
        return self.openapi_schema

    def limited(self, route: APIRoute) -> dict[int, dict[str, Any]]:
        """The answers a route has in this app only: 429 where the rate limits limit it."""
        if self.rate_limits is None:
            return {}
        return documented_429(route, self.rate_limits)


def create_app(
    database: str,
    workers: int | None = None,
    *,
    fairness: Fairness | None = None,
    max_games: int = DEFAULT_MAX_GAMES,
    rate_limits: RateLimits | None = None,
) -> FastAPI:
    """The app on the database ``database`` (a path or an SQLAlchemy URL), with ``workers``
    processes for the computer's moves in people's games (default: one per core but one);
    ``fairness`` bounds the computer's other work (:class:`Fairness`'s defaults); at most
    ``max_games`` games that nothing is using are held in memory, and requests are counted
    against ``rate_limits`` per client address (``None``: no limits; ``serve`` sets them)."""
    fairness = dataclasses.replace(
        fairness or Fairness(), workers=workers or work.default_workers()
    )
    server = Server(database_url(database), fairness, max_games)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await server.start()
        yield
        server.close()

    app = BinscrabbleAPI(
        rate_limits,
        title="binscrabble",
        version=__version__,
        description="Binary Scrabble: play in the browser, the server is the referee.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.server = server
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    if rate_limits is not None and rate_limits.any():
        # Before the body is read; counted in the database when processes share it.
        app.add_middleware(RateLimit, rate_limits=rate_limits, storage=server.storage)
    app.add_middleware(Languages)  # every answer above in the request's language
    app.add_middleware(ResponseHeaders)  # the outermost: every answer gets its headers
    add_error_handlers(app)
    pages.mount_static(app)
    return app


def add_error_handlers(app: FastAPI) -> None:
    """Every error as ``{"error": sentence}`` with the status of INTERFACES.md §5."""

    @app.exception_handler(RefereeError)
    async def referee_error(_request: Request, problem: RefereeError) -> JSONResponse:
        return error(problem.status, problem.message)

    @app.exception_handler(Busy)
    async def busy(_request: Request, problem: Busy) -> JSONResponse:
        answer = error(problem.status, problem.message)
        answer.headers["Retry-After"] = str(problem.retry_after)
        return answer

    @app.exception_handler(RequestValidationError)
    async def bad_body(_request: Request, problem: RequestValidationError) -> JSONResponse:
        return error(
            400, validation_message(problem.errors(), MOVE_TAGS, PATTERN_MEANINGS, CUSTOM_KINDS)
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, problem: StarletteHTTPException) -> JSONResponse:
        message = str(problem.detail)
        if problem.status_code == 404:
            message = _("there is nothing at this address: check the link")
        elif problem.status_code == 405:
            message = _("this address does not take that method: see /openapi.json")
        elif problem.status_code == 400 and message == UNPARSABLE_BODY:
            message = _(NOT_JSON)
        answer = error(problem.status_code, message)
        answer.headers.update(problem.headers or {})  # a 405's Allow
        if problem.status_code == 405 and isinstance(app, BinscrabbleAPI):
            methods = allowed_methods(app.api_routes(), request)
            if methods:
                answer.headers["Allow"] = ", ".join(methods)
        return answer


def allowed_methods(routes: list[APIRoute], request: Request) -> list[str]:
    """Every method some route takes at the request's address: Starlette's 405 names only
    the first route's, and ``/api/games`` has two routes (POST creates, GET lists)."""
    methods: list[str] = []
    for route in routes:
        if route.matches(request.scope)[0] != Match.NONE:
            methods += sorted(set(route.methods or ()) - set(methods))
    return methods
