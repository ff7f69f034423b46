"""The games being played now, for the lobby to offer them to watch (web/playing.py)."""

from __future__ import annotations

from fastapi import APIRouter

from binscrabble.web.depends import ServerDep
from binscrabble.web.models import GamesPlaying
from binscrabble.web.responses import errors

router = APIRouter()


@router.get("/api/games", response_model=GamesPlaying, responses=errors())
async def games_playing(server: ServerDep) -> GamesPlaying:
    """The games being played now, most recently moved first (at most 30, and 3 made by one
    client), each with its spectator's address: a game is listed from its first move until
    it is over or no person is left to play in it."""
    return GamesPlaying.model_validate({"games": await server.listing()})
