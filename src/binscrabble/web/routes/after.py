"""What comes after a game: the record, the analysis, records uploaded for viewing, and
rematches."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Annotated, Final

from fastapi import APIRouter, Depends, Request
from fastapi.responses import PlainTextResponse, Response

from binscrabble.game import SetupError
from binscrabble.i18n import N_, _
from binscrabble.limits import alike_names, quoted
from binscrabble.record import RecordError, read_record, write_record
from binscrabble.rules import RulesError
from binscrabble.table import write_table_record
from binscrabble.web.active_games import ActiveGame, RefereeError, rematch_seats
from binscrabble.web.computer import reason_words
from binscrabble.web.depends import (
    Authorization,
    GameDep,
    NoBody,
    SeatDep,
    ServerDep,
    bearer_token,
)
from binscrabble.web.models import AnalysisAnswer, GameCreated, RecordAnswer, RecordRequest
from binscrabble.web.ratelimit import client_key
from binscrabble.web.records import record_turns
from binscrabble.web.responses import errors
from binscrabble.web.routes.games import created_answer
from binscrabble.web.table_games import ActiveTable
from binscrabble.web.table_routes import table_analysis

router = APIRouter()


#: What :func:`finished` says of each thing that is ready only once the game is over.
NOT_YET: Final = {
    "record": N_("the record is ready once the game is over"),
    "analysis": N_("the analysis is ready once the game is over"),
    "rematch": N_("the rematch is ready once the game is over"),
}


def finished(over: bool, what: str) -> None:
    """409 unless the game is ``over``: the ``what`` is ready only then."""
    if not over:
        raise RefereeError(409, _(NOT_YET[what]))


async def rematched_game(_body: NoBody, held: GameDep, _seat: SeatDep) -> ActiveGame:
    """The game of a rematch: 400 for a body (it takes none, like resign), 401 without a
    seat's token, then 409 for a game at a table."""
    if not isinstance(held, ActiveGame):
        raise RefereeError(409, _("a game at a table has no rematch here: start a new one"))
    return held


@router.get(
    "/api/games/{game_id}/record", response_class=PlainTextResponse, responses=errors(404, 409)
)
async def record(game_id: str, held: GameDep) -> Response:
    """The game's record file once the game is over: every turn with the mover's rack,
    and the racks left at the end; never the seed (nor, then, the bag's order)."""
    if isinstance(held, ActiveTable):
        finished(held.table.is_over(), "record")
        text = write_table_record(held.table)
    else:
        finished(held.game.is_over(), "record")
        text = write_record(held.game, seed=False)
    return PlainTextResponse(
        text,
        headers={"Content-Disposition": f'attachment; filename="binscrabble-{game_id}.bsr"'},
    )


@router.get(
    "/api/games/{game_id}/analysis", response_model=AnalysisAnswer, responses=errors(404, 409, 503)
)
async def analysis(held: GameDep, server: ServerDep) -> AnalysisAnswer:
    """Each turn next to the computer's best play (once the game is over), in parts:
    ask again until ``complete``."""
    if isinstance(held, ActiveTable):
        finished(held.table.is_over(), "analysis")
        return AnalysisAnswer.model_validate(await table_analysis(held))
    finished(held.game.is_over(), "analysis")
    answer = await server.computer.analyses.answer(held)
    turns = [
        turn | {"reason": reason_words(turn["reason"])} if turn.get("reason") else turn
        for turn in answer["turns"]
    ]
    return AnalysisAnswer.model_validate(answer | {"turns": turns, "end": held.game.end_view()})


@router.post(
    "/api/records/view",
    response_model=RecordAnswer,
    # an end's ``cause`` is there only when the game was aborted for a seat, as in a view
    response_model_exclude_unset=True,
    responses=errors(400),
)
async def view_record(body: RecordRequest) -> RecordAnswer:
    """Every turn of an uploaded record, each with its board."""
    try:
        game = await asyncio.to_thread(read_record, body.record)
    except (RecordError, RulesError, SetupError) as problem:
        raise RefereeError(
            400, _("this record cannot be read: {problem}").format(problem=problem)
        ) from None
    # The reader refused invisible characters in names; names that read alike are refused
    # as a new game's are (a record may come from anyone, and the viewer shows the names).
    alike = alike_names(game.players)
    if alike is not None:
        reason = _("the players {first} and {second} have names that read alike").format(
            first=quoted(alike[0]), second=quoted(alike[1])
        )
        raise RefereeError(400, _("this record cannot be read: {problem}").format(problem=reason))
    return RecordAnswer.model_validate(record_turns(game))


@router.post(
    "/api/games/{game_id}/rematch",
    status_code=201,
    response_model=GameCreated,
    response_model_exclude_none=True,
    responses=errors(401, 404, 409),
)
async def rematch(
    active: Annotated[ActiveGame, Depends(rematched_game)],
    server: ServerDep,
    request: Request,
    authorization: Authorization = None,
) -> GameCreated:
    """A new game with the same players and rules, each with its token, one seat
    earlier: the player who moved second starts."""
    address = client_key(request.client)  # who made the rematch, charged for its computers
    finished(active.game.is_over(), "rematch")
    if active.stored.rematch is not None:
        again = await server.open_game(active.stored.rematch)
    else:
        seats = rematch_seats(active.stored.seats)
        clock = None if active.clock is None else active.clock.rules
        again = await server.table.create_with_seats(seats, active.game.rules, clock, address)
        kept = await asyncio.to_thread(server.storage.set_rematch, active.game_id, again.game_id)
        active.stored = dataclasses.replace(active.stored, rematch=kept)
        if kept != again.game_id:
            again = await server.open_game(kept)
        server.publish(active)
        server.set_alarm(again)
        server.wake_computer(again, address)
    token = bearer_token(authorization)
    mine = again.seat_of(token)  # the seat this token opens in the rematch
    return created_answer(again, {mine: token} if mine is not None else {})
