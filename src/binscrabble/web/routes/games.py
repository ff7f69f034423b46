"""Creating games, reading them, and what the lobby needs to know."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from binscrabble.clock import ClockError, ClockRules
from binscrabble.game import SetupError
from binscrabble.i18n import _
from binscrabble.limits import alike_names
from binscrabble.rules import Rules, RulesError
from binscrabble.web.active_games import ActiveGame, RefereeError, new_token
from binscrabble.web.depends import GameDep, SeatOrSpectator, ServerDep
from binscrabble.web.meta import game_meta
from binscrabble.web.models import (
    GameCreated,
    GameView,
    MetaAnswer,
    NewGameRequest,
    RulesRequest,
    SeatCreated,
)
from binscrabble.web.ratelimit import client_key
from binscrabble.web.responses import errors
from binscrabble.web.server import Server
from binscrabble.web.views import build_view

router = APIRouter()


@router.get(
    "/api/meta", response_model=MetaAnswer, response_model_exclude_unset=True, responses=errors()
)
async def meta() -> dict[str, Any]:
    """Levels, presets, house-rule switches, tiles and premium squares."""
    return game_meta()


@router.post(
    "/api/games",
    status_code=201,
    response_model=GameCreated,
    response_model_exclude_none=True,
    responses=errors(400, 503),
)
async def create_game(body: NewGameRequest, request: Request, server: ServerDep) -> GameCreated:
    """A new game: a token and an invite URL for each person's seat."""
    rules = parse_rules(body.rules)
    # The model refused blank names and control characters (a name is written on one
    # line of the game's record); the names of one game differ.
    names = [player.name.strip() for player in body.players]
    # Names that read alike (a full-width "Ａ" beside "A", "ann" beside "Ann") are one.
    if alike_names(names) is not None:
        raise RefereeError(400, _("each player needs a name of their own"))
    try:
        clock = ClockRules.from_mapping(None if body.clock is None else body.clock.model_dump())
    except ClockError as problem:
        raise RefereeError(400, _("bad clock: {problem}").format(problem=problem)) from None
    if body.table or body.refused_play_loses_turn:
        if clock is not None:
            raise RefereeError(400, _("a game at a table has no clock: leave 'clock' out"))
        return await create_table_game(server, body, names, rules)
    tokens = [new_token() for player in body.players if player.computer is None]
    computers: list[str | None] = [player.computer for player in body.players]
    address = client_key(request.client)
    try:
        with server.computer.reserving(address, computers), server.computer.admitting(computers):
            active = await server.table.create(names, computers, rules, tokens, clock, address)
            server.set_alarm(active)
            server.wake_computer(active, address)
    except SetupError as problem:
        message = _("the game cannot be set up: {problem}").format(problem=problem)
        raise RefereeError(400, message) from None
    return created_answer(active, dict(enumerate(tokens_by_seat(computers, tokens))))


@router.get(
    "/api/games/{game_id}",
    response_model=GameView,
    response_model_exclude_unset=True,
    responses=errors(401, 404),
)
async def read_game(held: GameDep, seat: SeatOrSpectator) -> dict[str, Any]:
    """The game as a spectator sees it, or as your seat sees it with your token."""
    return build_view(held, seat)


def parse_rules(given: RulesRequest | None) -> Rules:
    """Rules from a request: a preset plus switches, each of its own type; 400 naming what
    is wrong."""
    try:
        data = given.model_dump(exclude_unset=True) if given is not None else {}
        return Rules.from_mapping(data, strict=True)
    except RulesError as problem:
        raise RefereeError(400, _("bad rules: {problem}").format(problem=problem)) from None


def tokens_by_seat(computers: list[str | None], tokens: list[str]) -> list[str | None]:
    """The human seats' tokens spread over all seats (``None`` for a computer)."""
    remaining = iter(tokens)
    return [None if computer else next(remaining) for computer in computers]


async def create_table_game(
    server: Server, body: NewGameRequest, names: list[str], rules: Rules
) -> GameCreated:
    """A new game at a real table (INTERFACES.md §9): people only, a token for every seat."""
    if not body.table:
        raise RefereeError(400, _("'refused_play_loses_turn' is a house rule of table games only"))
    if any(player.computer is not None for player in body.players):
        raise RefereeError(400, _("a game at a table is for people only: no computer player"))
    tokens = [new_token() for _ in names]
    try:
        active = await server.tables.create(names, rules, tokens, body.refused_play_loses_turn)
    except SetupError as problem:
        message = _("the game cannot be set up: {problem}").format(problem=problem)
        raise RefereeError(400, message) from None
    seats = [
        SeatCreated(seat=seat, name=name, token=token, url=f"/table/{active.game_id}?token={token}")
        for seat, (name, token) in enumerate(zip(names, tokens, strict=True))
    ]
    return GameCreated(id=active.game_id, seats=seats)


def created_answer(active: ActiveGame, tokens: dict[int, str | None]) -> GameCreated:
    """The answer to a created game: each seat, with the tokens known for it."""
    seats = []
    for record in active.stored.seats:
        token = tokens.get(record.seat)
        seats.append(
            SeatCreated(
                seat=record.seat,
                name=record.name,
                computer=record.computer,
                token=token,
                url=f"/games/{active.game_id}?token={token}" if token else None,
            )
        )
    return GameCreated(id=active.game_id, seats=seats)
