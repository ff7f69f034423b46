"""The web app's routes (INTERFACES.md §5 and docs/web.md): the server is the referee.

Every intent is judged by the core library; every outgoing game state is built by
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

import asyncio
import contextlib
import dataclasses
import logging
import unicodedata
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from binscrabble import __version__
from binscrabble.board import SquareError, parse_square
from binscrabble.game import Game, SetupError
from binscrabble.move import Move, move_notation
from binscrabble.record import RecordError, read_record, write_record
from binscrabble.rules import Rules, RulesError
from binscrabble.table import write_table_record
from binscrabble.web import workers as work
from binscrabble.web.active_games import (
    DEFAULT_MAX_GAMES,
    Accepted,
    ActiveGame,
    GameTable,
    HeldGame,
    MoveOrReader,
    RefereeError,
    job_of,
    new_token,
    placement,
    read_move,
    rematch_seats,
    submit,
)
from binscrabble.web.computer import Busy, Computer, Fairness
from binscrabble.web.headers import ResponseHeaders
from binscrabble.web.limits import NOT_JSON, UNPARSABLE_BODY, BodyLimit, validation_message
from binscrabble.web.live import Hub, read_until_closed
from binscrabble.web.meta import game_meta
from binscrabble.web.models import (
    MAX_BODY,
    MOVE_TAGS,
    PATTERN_MEANINGS,
    AnalysisAnswer,
    GameCreated,
    GameView,
    HintAnswer,
    MetaAnswer,
    MoveAccepted,
    MoveRequest,
    NewGameRequest,
    NotationMove,
    NotationPreview,
    PreviewAnswer,
    PreviewRequest,
    RackRequest,
    RecordAnswer,
    RecordRequest,
    RulesRequest,
    SeatCreated,
    TileSpec,
)
from binscrabble.web.ratelimit import RateLimit, RateLimits, client_key, documented_429
from binscrabble.web.records import record_turns
from binscrabble.web.responses import describe
from binscrabble.web.storage import Storage, database_url
from binscrabble.web.table_games import (
    ActiveTable,
    TableGames,
    submit_rack,
    submit_table_move,
    table_view,
)
from binscrabble.web.table_routes import table_analysis, table_preview
from binscrabble.web.views import build_view, preset_name, score_runs

LOG = logging.getLogger("binscrabble.web")
STATIC = Path(__file__).with_name("static")


def error(status: int, message: str) -> JSONResponse:
    """An error answer: ``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, ``None`` without one.

    >>> bearer_token("Bearer abc"), bearer_token(None)
    ('abc', None)
    """
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise RefereeError(
            401, "the Authorization header must read 'Bearer TOKEN', with your seat's token"
        )
    return token.strip()


def seat_for(active: HeldGame, token: str | None, required: bool) -> int | None:
    """The seat a token opens; 401 for a wrong token, or for none when one is ``required``."""
    if token is None:
        if required:
            raise RefereeError(
                401, "this needs your seat's token: send 'Authorization: Bearer TOKEN'"
            )
        return None
    seat = active.seat_of(token)
    if seat is None:
        raise RefereeError(401, "this token opens no seat of this game: use your invite link")
    return seat


def parse_rules(given: RulesRequest | None) -> Rules:
    """Rules from a request: a preset plus switches, each of its own type; 400 naming what
    is wrong."""
    try:
        data = given.model_dump(exclude_unset=True) if given is not None else {}
        return Rules.from_mapping(data, strict=True)
    except RulesError as problem:
        raise RefereeError(400, f"bad rules: {problem}") from None


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
            raise RefereeError(400, f"bad square {tile.square!r}: {problem}") from None
        placed.append((sq, tile.face, tile.blank, tile.rotated))
    return placement(placed)


class BinscrabbleAPI(FastAPI):
    """The app, whose OpenAPI description documents exactly the statuses of
    :mod:`binscrabble.web.responses`."""

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            self.openapi_schema = describe(self, super().openapi())
        return self.openapi_schema


class Server:
    """The state one app holds: storage, the open games, live listeners and the workers."""

    def __init__(self, url: str, fairness: Fairness, max_games: int = DEFAULT_MAX_GAMES) -> None:
        self.storage = Storage(url)
        self.tables = TableGames(self.storage)
        self.table = GameTable(self.storage, max_games, self.in_use, self.publish)
        self.hub = Hub()
        self.computer = Computer(fairness)
        self.tasks: set[asyncio.Task[None]] = set()
        self.thinking: set[str] = set()

    def in_use(self, game_id: str) -> bool:
        """Whether a game must stay in memory: a WebSocket listens, or its computer thinks."""
        return game_id in self.thinking or bool(self.hub.listeners.get(game_id))

    async def open_game(self, game_id: str, *, fresh: bool = True) -> ActiveGame:
        """The open game; also sets its computer thinking when the computer is to move
        (``fresh``: see :meth:`GameTable.get`)."""
        active = await self.table.get(game_id, fresh=fresh)
        self.wake_computer(active)
        return active

    async def submit(
        self, active: ActiveGame, seat: int, move: MoveOrReader, turn: int | None
    ) -> Accepted:
        """:func:`submit` the move; when it is refused with 409 and this process's copy of
        the game was behind the database, once more on the database's game."""
        try:
            return await submit(active, self.storage, seat, move, turn)
        except RefereeError as problem:
            if problem.status != 409 or not await self.table.refresh(active):
                raise
        return await submit(active, self.storage, seat, move, turn)

    def publish(self, active: ActiveGame) -> None:
        """Send every listener of the game its new view."""
        self.hub.publish(active.game_id, lambda seat: build_view(active, seat))

    def publish_table(self, active: ActiveTable) -> None:
        """Send every listener of a table game its new view."""
        self.hub.publish(active.game_id, lambda seat: table_view(active, seat))

    def wake_computer(self, active: ActiveGame, address: str = "") -> None:
        """Start the computer's moves of a game unless they are already under way; they
        take turns with other addresses' moves as caused by ``address``."""
        if active.computer_to_move() is None or active.game_id in self.thinking:
            return
        self.thinking.add(active.game_id)
        self.computer.started(active)
        task = asyncio.get_running_loop().create_task(self.play_computers(active, address))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def play_computers(self, active: ActiveGame, address: str) -> None:
        """Play the computer's moves for as long as a computer is to move."""
        try:
            while (level := active.computer_to_move()) is not None:
                turn = active.turn
                notation = await self.computer.move(active, level, address)
                if active.turn != turn:
                    continue
                move = read_move(notation, active.game)
                await submit(active, self.storage, active.game.to_move, move, turn)
                self.publish(active)
        except Exception:
            # A computer that cannot move leaves the game waiting; the log says why.
            LOG.exception("the computer's move in game %s failed", active.game_id)
            raise
        finally:
            self.thinking.discard(active.game_id)
            self.computer.stopped(active)
            self.table.trim()

    def close(self) -> None:
        """Stop the workers and release the database."""
        for task in self.tasks:
            task.cancel()
        self.computer.close()
        self.storage.close()


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
        yield
        server.close()

    app = BinscrabbleAPI(
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
        app.add_middleware(RateLimit, rate_limits=rate_limits)  # before the body is read
    app.add_middleware(ResponseHeaders)  # the outermost: every answer gets its headers
    add_error_handlers(app)
    add_game_routes(app, server)
    add_play_routes(app, server)
    add_after_game_routes(app, server)
    add_live_route(app, server)
    add_page_routes(app)
    if rate_limits is not None:
        documented_429(app.routes, rate_limits)
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
        return error(400, validation_message(problem.errors(), MOVE_TAGS, PATTERN_MEANINGS))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, problem: StarletteHTTPException) -> JSONResponse:
        message = str(problem.detail)
        if problem.status_code == 404:
            message = "there is nothing at this address: check the link"
        elif problem.status_code == 405:
            message = "this address does not take that method: see /openapi.json"
        elif problem.status_code == 400 and message == UNPARSABLE_BODY:
            message = NOT_JSON
        answer = error(problem.status_code, message)
        answer.headers.update(problem.headers or {})  # a 405's Allow
        return answer


Authorization = Annotated[str | None, Header()]


def add_game_routes(app: FastAPI, server: Server) -> None:
    """Creating games, reading them, and what the lobby needs to know."""

    @app.get("/api/meta", response_model=MetaAnswer)
    async def meta() -> JSONResponse:
        """Levels, presets, house-rule switches, tiles and premium squares."""
        return JSONResponse(game_meta())

    @app.post(
        "/api/games",
        status_code=201,
        response_model=GameCreated,
        response_model_exclude_none=True,
    )
    async def create_game(body: NewGameRequest, request: Request) -> GameCreated:
        """A new game: a token and an invite URL for each person's seat."""
        rules = parse_rules(body.rules)
        # The model refused blank names and control characters (a name is written on one
        # line of the game's record); the names of one game differ.
        names = [player.name.strip() for player in body.players]
        # Names that read alike (a full-width "Ａ" beside "A", "ann" beside "Ann") are one.
        alike = {unicodedata.normalize("NFKC", name).casefold() for name in names}
        if len(alike) != len(names):
            raise RefereeError(400, "each player needs a name of their own")
        if body.table or body.refused_play_loses_turn:
            return await create_table_game(server, body, names, rules)
        tokens = [new_token() for player in body.players if player.computer is None]
        computers = [player.computer for player in body.players]
        address = client_key(request.client)
        server.computer.check_address(address, computers)
        try:
            with server.computer.admitting(computers):
                active = await server.table.create(names, computers, rules, tokens)
                server.wake_computer(active, address)
        except SetupError as problem:
            raise RefereeError(400, f"the game cannot be set up: {problem}") from None
        return created_answer(active, dict(enumerate(tokens_by_seat(computers, tokens))))

    @app.get("/api/games/{game_id}", response_model=GameView)
    async def read_game(game_id: str, authorization: Authorization = None) -> JSONResponse:
        """The game as a spectator sees it, or as your seat sees it with your token."""
        if (table := await server.tables.find(game_id)) is not None:
            token_seat = seat_for(table, bearer_token(authorization), required=False)
            return JSONResponse(table_view(table, token_seat))
        active = await server.open_game(game_id)
        seat = seat_for(active, bearer_token(authorization), required=False)
        return JSONResponse(build_view(active, seat))


def tokens_by_seat(computers: list[str | None], tokens: list[str]) -> list[str | None]:
    """The human seats' tokens spread over all seats (``None`` for a computer)."""
    remaining = iter(tokens)
    return [None if computer else next(remaining) for computer in computers]


async def create_table_game(
    server: Server, body: NewGameRequest, names: list[str], rules: Rules
) -> GameCreated:
    """A new game at a real table (INTERFACES.md §9): people only, a token for every seat."""
    if not body.table:
        raise RefereeError(400, "'refused_play_loses_turn' is a house rule of table games only")
    if any(player.computer is not None for player in body.players):
        raise RefereeError(400, "a game at a table is for people only: no computer player")
    tokens = [new_token() for _ in names]
    try:
        active = await server.tables.create(names, rules, tokens, body.refused_play_loses_turn)
    except SetupError as problem:
        raise RefereeError(400, f"the game cannot be set up: {problem}") from None
    seats = [
        SeatCreated(seat=seat, name=name, token=token, url=f"/table/{active.game_id}?token={token}")
        for seat, (name, token) in enumerate(zip(names, tokens, strict=True))
    ]
    return GameCreated(id=active.game_id, seats=seats)


async def play_at_table(
    server: Server, table: ActiveTable, body: MoveRequest, token: str | None
) -> MoveAccepted:
    """A move entered at a table, judged and stored; a refused play that uses the turn is
    told to every listener too."""
    seat = seat_for(table, token, required=True)
    assert seat is not None
    if not isinstance(body, NotationMove):
        raise RefereeError(400, "a game at a table takes moves in notation, as 'move'")
    turns = len(table.table.history)
    try:
        accepted = await submit_table_move(table, server.storage, seat, body.move, body.turn)
    finally:
        if len(table.table.history) != turns:
            server.publish_table(table)
    return MoveAccepted(turn=accepted.turn, notation=accepted.notation, score=accepted.score)


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


def add_play_routes(app: FastAPI, server: Server) -> None:
    """Moves, previews and hints: each needs the seat's token."""

    @app.post("/api/games/{game_id}/moves", response_model=MoveAccepted)
    async def play(
        game_id: str, body: MoveRequest, request: Request, authorization: Authorization = None
    ) -> MoveAccepted:
        """Play a move for your seat; ``turn`` must be the current turn.

        A submission for another seat's turn, a past turn or a game over gets 409 whatever
        its move; only then is the move read (400 when it cannot be) and judged (422).
        """
        if (table := await server.tables.find(game_id)) is not None:
            return await play_at_table(server, table, body, bearer_token(authorization))
        active = await server.open_game(game_id, fresh=False)
        seat = seat_for(active, bearer_token(authorization), required=True)
        assert seat is not None
        address = client_key(request.client)
        accepted = await server.submit(active, seat, move_reader(body), body.turn)
        server.publish(active)
        server.wake_computer(active, address)
        return MoveAccepted(turn=accepted.turn, notation=accepted.notation, score=accepted.score)

    @app.post("/api/games/{game_id}/preview", response_model=PreviewAnswer)
    async def preview(
        game_id: str, body: PreviewRequest, authorization: Authorization = None
    ) -> PreviewAnswer:
        """Whether a move is legal for your seat now, its score run by run, or why not
        (notation that cannot be read is not legal, with the reason)."""
        if (table := await server.tables.find(game_id)) is not None:
            token_seat = seat_for(table, bearer_token(authorization), required=True)
            if not isinstance(body, NotationPreview):
                raise RefereeError(400, "a game at a table takes moves in notation, as 'move'")
            return PreviewAnswer.model_validate(table_preview(table, body.move, token_seat))
        active = await server.open_game(game_id)
        seat = seat_for(active, bearer_token(authorization), required=True)
        try:
            move = move_reader(body)(active.game)
        except RefereeError as problem:
            if not isinstance(body, NotationPreview):
                raise
            return PreviewAnswer(legal=False, score=None, runs=[], reason=problem.message)
        return preview_answer(active, move, seat)

    @app.post("/api/games/{game_id}/rack", response_model=GameView)
    async def enter_rack(
        game_id: str, body: RackRequest, authorization: Authorization = None
    ) -> JSONResponse:
        """A game at a table: enter the tiles on your rack before your move (then your
        plays are checked against it, and it leaves your unseen tiles), or once the play has
        ended the tiles left on it. Answers your view."""
        table = await server.tables.find(game_id)
        if table is None:
            await server.open_game(game_id)  # 404 for no game at all
            raise RefereeError(409, "racks are entered only in a game at a table")
        seat = seat_for(table, bearer_token(authorization), required=True)
        assert seat is not None
        await submit_rack(table, server.storage, seat, body.rack)
        server.publish_table(table)
        return JSONResponse(table_view(table, seat))

    @app.post("/api/games/{game_id}/hint", response_model=HintAnswer)
    async def hint(game_id: str, authorization: Authorization = None) -> HintAnswer:
        """The computer's best move for your seat, explained (learning preset only)."""
        if await server.tables.find(game_id) is not None:
            raise RefereeError(409, "no hints are given in a game at a table")
        active = await server.open_game(game_id)
        seat = seat_for(active, bearer_token(authorization), required=True)
        if preset_name(active.game.rules) != "learning":
            raise RefereeError(409, "hints are only given in games with the learning preset")
        if active.game.is_over() or seat != active.game.to_move:
            raise RefereeError(409, "a hint is given only on your turn of a game going on")
        answer = await server.computer.hint(job_of(active.stored))
        return HintAnswer.model_validate(answer)


def preview_answer(active: ActiveGame, move: Move, seat: int | None) -> PreviewAnswer:
    """The preview of a move for a seat, judged by the core library."""
    game = active.game
    problem = game.illegal_reason(move, seat)
    if problem is not None:
        return PreviewAnswer(legal=False, score=None, runs=[], reason=str(problem))
    breakdown = game.score_breakdown(move)
    runs = score_runs(breakdown)
    return PreviewAnswer.model_validate(
        {
            "legal": True,
            "score": breakdown.total,
            "runs": runs,
            "reason": None,
            "notation": move_notation(move, game.board),
            "bingo": breakdown.bingo,
        }
    )


def add_after_game_routes(app: FastAPI, server: Server) -> None:
    """The record, the analysis, records uploaded for viewing, and rematches."""

    def finished(active: ActiveGame, what: str) -> None:
        if not active.game.is_over():
            raise RefereeError(409, f"the {what} is ready once the game is over")

    @app.get("/api/games/{game_id}/record", response_class=PlainTextResponse)
    async def record(game_id: str) -> Response:
        """The game's record file once the game is over: every turn with the mover's rack,
        and the racks left at the end; never the seed (nor, then, the bag's order)."""
        if (table := await server.tables.find(game_id)) is not None:
            if not table.table.is_over():
                raise RefereeError(409, "the record is ready once the game is over")
            text = write_table_record(table.table)
        else:
            active = await server.open_game(game_id)
            finished(active, "record")
            text = write_record(active.game, seed=False)
        return PlainTextResponse(
            text,
            headers={"Content-Disposition": f'attachment; filename="binscrabble-{game_id}.bsr"'},
        )

    @app.get("/api/games/{game_id}/analysis", response_model=AnalysisAnswer)
    async def analysis(game_id: str) -> AnalysisAnswer:
        """Each turn next to the computer's best play (once the game is over), in parts:
        ask again until ``complete``."""
        if (table := await server.tables.find(game_id)) is not None:
            if not table.table.is_over():
                raise RefereeError(409, "the analysis is ready once the game is over")
            return AnalysisAnswer.model_validate(await table_analysis(table))
        active = await server.open_game(game_id)
        finished(active, "analysis")
        return AnalysisAnswer.model_validate(await server.computer.analyses.answer(active))

    @app.post("/api/records/view", response_model=RecordAnswer)
    async def view_record(body: RecordRequest) -> RecordAnswer:
        """Every turn of an uploaded record, each with its board."""
        try:
            game = await asyncio.to_thread(read_record, body.record)
        except (RecordError, RulesError, SetupError) as problem:
            raise RefereeError(400, f"this record cannot be read: {problem}") from None
        return RecordAnswer.model_validate(record_turns(game))

    @app.post(
        "/api/games/{game_id}/rematch",
        status_code=201,
        response_model=GameCreated,
        response_model_exclude_none=True,
    )
    async def rematch(game_id: str, authorization: Authorization = None) -> GameCreated:
        """A new game with the same players and rules, each with its token, one seat
        earlier: the player who moved second starts."""
        if await server.tables.find(game_id) is not None:
            raise RefereeError(409, "a game at a table has no rematch here: start a new one")
        active = await server.open_game(game_id)
        token = bearer_token(authorization)
        seat_for(active, token, required=True)  # 401 unless the token opens a seat
        finished(active, "rematch")
        if active.stored.rematch is not None:
            again = await server.open_game(active.stored.rematch)
        else:
            seats = rematch_seats(active.stored.seats)
            again = await server.table.create_with_seats(seats, active.game.rules)
            kept = await asyncio.to_thread(
                server.storage.set_rematch, active.game_id, again.game_id
            )
            active.stored = dataclasses.replace(active.stored, rematch=kept)
            if kept != again.game_id:
                again = await server.open_game(kept)
            server.publish(active)
            server.wake_computer(again)
        mine = again.seat_of(token)  # the seat this token opens in the rematch
        return created_answer(again, {mine: token} if mine is not None else {})


def add_live_route(app: FastAPI, server: Server) -> None:
    """The WebSocket of a game: its view on connect and after every accepted move."""

    @app.websocket("/api/games/{game_id}/live")
    async def live(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        await websocket.accept()
        try:
            view: dict[str, Any]
            if (table := await server.tables.find(game_id)) is not None:
                seat = seat_for(table, token, required=False)
                view = table_view(table, seat)
            else:
                active = await server.open_game(game_id)
                seat = seat_for(active, token, required=False)
                view = build_view(active, seat)
        except RefereeError as problem:
            # 4000 + the HTTP status, so a page can tell a wrong link from a wrong token.
            await websocket.close(code=4000 + problem.status, reason=problem.message[:120])
            return
        listener = server.hub.join(game_id, seat)
        listener.offer(view)

        async def send_views() -> None:
            while True:
                await websocket.send_json(await listener.next_message())

        sender = asyncio.get_running_loop().create_task(send_views())
        try:
            await read_until_closed(websocket)
        finally:
            sender.cancel()
            server.hub.leave(game_id, listener)
            server.table.trim()


def add_page_routes(app: FastAPI) -> None:
    """The page: the lobby at ``/``, a game at ``/games/ID``, and the files they load."""

    def page(name: str) -> FileResponse:
        path = STATIC / name
        if not path.is_file():
            raise RefereeError(404, f"the page {name} is missing from this installation")
        return FileResponse(path)

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return page("game.html")

    @app.get("/games/{game_id}/analysis", include_in_schema=False)
    async def analysis_page(game_id: str) -> FileResponse:
        return page("analysis.html")

    @app.get("/table", include_in_schema=False)
    async def table_setup_page() -> FileResponse:
        return page("table.html")

    @app.get("/table/{game_id}", include_in_schema=False)
    async def table_page(game_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/viewer", include_in_schema=False)
    async def viewer_page() -> FileResponse:
        return page("viewer.html")

    STATIC.mkdir(exist_ok=True)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
