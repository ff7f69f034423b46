"""The page: the lobby at ``/``, a game at ``/games/ID``, and the files they load."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from binscrabble.i18n import _
from binscrabble.web.active_games import RefereeError
from binscrabble.web.page_text import render

STATIC = Path(__file__).parent.parent / "static"

router = APIRouter(include_in_schema=False)


def page(name: str) -> HTMLResponse:
    """The page ``name`` of ``static/`` in the request's language (docs/languages.md);
    404 when the installation lacks it."""
    path = STATIC / name
    if not path.is_file():
        message = _("the page {name} is missing from this installation").format(name=name)
        raise RefereeError(404, message)
    return HTMLResponse(render(name))


@router.get("/")
async def lobby() -> HTMLResponse:
    return page("index.html")


@router.get("/games/{game_id}")
async def game_page(game_id: str) -> HTMLResponse:
    return page("game.html")


@router.get("/games/{game_id}/analysis")
async def analysis_page(game_id: str) -> HTMLResponse:
    return page("analysis.html")


@router.get("/table")
async def table_setup_page() -> HTMLResponse:
    return page("table.html")


@router.get("/table/{game_id}")
async def table_page(game_id: str) -> HTMLResponse:
    return page("table.html")


@router.get("/viewer")
async def viewer_page() -> HTMLResponse:
    return page("viewer.html")


def mount_static(app: FastAPI) -> None:
    """Serve ``static/`` at ``/static`` (a mount is the app's, not a router's)."""
    STATIC.mkdir(exist_ok=True)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
