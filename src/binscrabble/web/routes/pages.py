"""The page: the lobby at ``/``, a game at ``/games/ID``, and the files they load."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from binscrabble.web.active_games import RefereeError

STATIC = Path(__file__).parent.parent / "static"

router = APIRouter(include_in_schema=False)


def page(name: str) -> FileResponse:
    """The page ``name`` of ``static/``; 404 when the installation lacks it."""
    path = STATIC / name
    if not path.is_file():
        raise RefereeError(404, f"the page {name} is missing from this installation")
    return FileResponse(path)


@router.get("/")
async def lobby() -> FileResponse:
    return page("index.html")


@router.get("/games/{game_id}")
async def game_page(game_id: str) -> FileResponse:
    return page("game.html")


@router.get("/games/{game_id}/analysis")
async def analysis_page(game_id: str) -> FileResponse:
    return page("analysis.html")


@router.get("/table")
async def table_setup_page() -> FileResponse:
    return page("table.html")


@router.get("/table/{game_id}")
async def table_page(game_id: str) -> FileResponse:
    return page("table.html")


@router.get("/viewer")
async def viewer_page() -> FileResponse:
    return page("viewer.html")


def mount_static(app: FastAPI) -> None:
    """Serve ``static/`` at ``/static`` (a mount is the app's, not a router's)."""
    STATIC.mkdir(exist_ok=True)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
