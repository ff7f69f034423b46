"""Moves, previews, racks entered at a table, and hints: each needs the seat's token.

The routes with a body take their game from :func:`~binscrabble.web.depends.game_after`
(the body is checked first), and their seat in that game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from binscrabble.board import SquareError, parse_square
from binscrabble.game import Game, move_for_people
from binscrabble.i18n import _
from binscrabble.move import Move, display_notation, move_notation
from binscrabble.web.active_games import (
    ActiveGame,
    RefereeError,
    job_of,
    placement,
    read_move,
)
from binscrabble.web.depends import (
    GameDep,
    Held,
    NoBody,
    SeatDep,
    ServerDep,
    game_after,
    seat_in,
)
from binscrabble.web.models import (
    GameView,
    HintAnswer,
    MarkedTile,
    MoveAccepted,
    MoveRequest,
    NotationMove,
    NotationPreview,
    PreviewAnswer,
    PreviewRequest,
    RackRequest,
    TileSpec,
)
from binscrabble.web.ratelimit import client_key
from binscrabble.web.responses import errors
from binscrabble.web.server import Server
from binscrabble.web.shown import placed_tiles
from binscrabble.web.table_games import ActiveTable, submit_rack, submit_table_move
from binscrabble.web.table_routes import table_preview
from binscrabble.web.views import build_view, score_runs

router = APIRouter()

#: The game of a move, of a preview, of a rack entered: each read once its body is checked.
#: A move's game is not refreshed from the database first: a refusal is the moment to ask
#: (:meth:`~binscrabble.web.server.Server.submit`).
moved_game = game_after(MoveRequest, fresh=False)
previewed_game = game_after(PreviewRequest)
racked_game = game_after(RackRequest)
MovedGame = Annotated[Held, Depends(moved_game)]
MoverSeat = Annotated[int, Depends(seat_in(moved_game))]
PreviewedGame = Annotated[Held, Depends(previewed_game)]
PreviewerSeat = Annotated[int, Depends(seat_in(previewed_game))]
RackerSeat = Annotated[int, Depends(seat_in(racked_game))]


async def table_only(held: Annotated[Held, Depends(racked_game)], _seat: RackerSeat) -> ActiveTable:
    """The game of a rack entered: 401 without a seat's token, then 409 unless it is at a
    table."""
    if not isinstance(held, ActiveTable):
        raise RefereeError(409, _("racks are entered only in a game at a table"))
    return held


async def hinted_game(_body: NoBody, held: GameDep, _seat: SeatDep) -> ActiveGame:
    """The game of a hint, which takes no body (400 for one that is not ``{}``): 401
    without a seat's token, then 409 for a game at a table."""
    if not isinstance(held, ActiveGame):
        raise RefereeError(409, _("no hints are given in a game at a table"))
    return held


@router.post(
    "/api/games/{game_id}/moves",
    response_model=MoveAccepted,
    responses=errors(400, 401, 404, 409, 422),
)
async def play(
    held: MovedGame,
    seat: MoverSeat,
    body: MoveRequest,
    request: Request,
    server: ServerDep,
) -> MoveAccepted:
    """Play a move for your seat; ``turn`` must be the current turn.

    A submission for another seat's turn, a past turn or a game over gets 409 whatever
    its move; only then is the move read (400 when it cannot be) and judged (422).
    """
    if isinstance(held, ActiveTable):
        return await play_at_table(server, held, body, seat)
    address = client_key(request.client)
    accepted = await server.submit(held, seat, move_reader(body), body.turn)
    server.changed(held)
    server.wake_computer(held, address)
    return accepted_answer(accepted.turn, accepted.notation, accepted.score)


def accepted_answer(turn: int, notation: str, score: int) -> MoveAccepted:
    """The answer to an accepted move: its notation, and as people read it."""
    display = move_for_people(notation)
    return MoveAccepted(turn=turn, notation=notation, display=display, score=score)


@router.post(
    "/api/games/{game_id}/preview", response_model=PreviewAnswer, responses=errors(400, 401, 404)
)
async def preview(
    held: PreviewedGame,
    seat: PreviewerSeat,
    body: PreviewRequest,
) -> PreviewAnswer:
    """Whether a move is legal for your seat now, its score run by run, or why not
    (notation that cannot be read is not legal, with the reason)."""
    if isinstance(held, ActiveTable):
        if not isinstance(body, NotationPreview):
            raise RefereeError(400, _("a game at a table takes moves in notation, as 'move'"))
        return PreviewAnswer.model_validate(table_preview(held, body.move, seat))
    try:
        move = move_reader(body)(held.game)
    except RefereeError as problem:
        if not isinstance(body, NotationPreview):
            raise
        return PreviewAnswer(legal=False, score=None, runs=[], reason=problem.message)
    return preview_answer(held, move, seat)


@router.post(
    "/api/games/{game_id}/rack",
    response_model=GameView,
    response_model_exclude_unset=True,
    responses=errors(400, 401, 404, 409),
)
async def enter_rack(
    table: Annotated[ActiveTable, Depends(table_only)],
    seat: RackerSeat,
    body: RackRequest,
    server: ServerDep,
) -> dict[str, Any]:
    """A game at a table: enter the tiles on your rack before your move (then your
    plays are checked against it, and it leaves your unseen tiles), or once the play has
    ended the tiles left on it. Answers your view."""
    await submit_rack(table, server.storage, seat, body.rack)
    server.publish(table)
    return build_view(table, seat)


@router.post(
    "/api/games/{game_id}/hint",
    response_model=HintAnswer,
    responses=errors(400, 401, 404, 409, 503),
)
async def hint(
    active: Annotated[ActiveGame, Depends(hinted_game)], seat: SeatDep, server: ServerDep
) -> HintAnswer:
    """The computer's best move for your seat, explained (learning preset only)."""
    if active.game.rules.preset_name() != "learning":
        raise RefereeError(409, _("hints are only given in games with the learning preset"))
    if active.game.is_over() or seat != active.game.to_move:
        raise RefereeError(409, _("a hint is given only on your turn of a game going on"))
    answer = await server.computer.hint(job_of(active.stored))
    return HintAnswer.model_validate(answer)


async def play_at_table(
    server: Server, table: ActiveTable, body: MoveRequest, seat: int
) -> MoveAccepted:
    """A move entered at a table, judged and stored; a refused play that uses the turn is
    told to every listener too."""
    if not isinstance(body, NotationMove):
        raise RefereeError(400, _("a game at a table takes moves in notation, as 'move'"))
    turns = len(table.table.history)
    try:
        accepted = await submit_table_move(table, server.storage, seat, body.move, body.turn)
    finally:
        if len(table.table.history) != turns:
            server.publish(table)
    return accepted_answer(accepted.turn, accepted.notation, accepted.score)


def move_reader(body: MoveRequest | PreviewRequest) -> Callable[[Game], Move]:
    """How to read the move of a request on the game it is for: its notation, read on the
    board it is played on, or the tiles the page placed."""
    if isinstance(body, NotationMove | NotationPreview):
        notation = body.move
        return lambda game: read_move(notation, game)
    tiles = body.tiles
    return lambda _game: tiles_move(tiles)


def tiles_move(tiles: list[TileSpec]) -> Move:
    """A play from the page's placed tiles (their squares and faces are checked by the
    request's model; 400 all the same for a square that does not exist)."""
    placed: list[tuple[int, str, bool, bool]] = []
    for tile in tiles:
        try:
            sq = parse_square(tile.square)
        except SquareError as problem:
            message = _("bad square {square}: {problem}").format(
                square=repr(tile.square), problem=problem
            )
            raise RefereeError(400, message) from None
        placed.append((sq, tile.face, tile.blank, tile.rotated))
    return placement(placed)


def preview_answer(active: ActiveGame, move: Move, seat: int | None) -> PreviewAnswer:
    """The preview of a move for a seat, judged by the core library."""
    game = active.game
    tiles = [MarkedTile.model_validate(tile) for tile in placed_tiles(move)]
    problem = game.illegal_reason(move, seat)
    if problem is not None:
        return PreviewAnswer(legal=False, score=None, runs=[], reason=str(problem), tiles=tiles)
    breakdown = game.score_breakdown(move)
    notation = move_notation(move, game.board)
    return PreviewAnswer.model_validate(
        {
            "legal": True,
            "score": breakdown.total,
            "runs": score_runs(breakdown),
            "reason": None,
            "notation": notation,
            "display": display_notation(notation),
            "bingo": breakdown.bingo,
            "tiles": tiles,
        }
    )
