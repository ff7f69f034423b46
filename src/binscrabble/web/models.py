"""The shapes of the web API's bodies (Pydantic): they check requests and describe both
directions in the OpenAPI schema. Unknown fields are refused and no type is coerced."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

#: The largest request body accepted, in bytes (INTERFACES.md §5).
MAX_BODY = 64 * 1024


class Strict(BaseModel):
    """A request body: unknown fields are an error, and "3" is not the number 3."""

    model_config = ConfigDict(extra="forbid", strict=True)


class PlayerSpec(Strict):
    """A seat of a new game: a person's name, or a computer's name and level."""

    name: str = Field(min_length=1, max_length=40)
    computer: str | None = None


class NewGameRequest(Strict):
    """``POST /api/games``: 2-4 players, and rules as a preset plus switches."""

    players: list[PlayerSpec]
    rules: dict[str, Any] | None = None


class TileSpec(Strict):
    """A tile the page placed: its square (``H8``), its face, whether it is a blank or a
    rotated ``=``."""

    square: str
    face: str
    blank: bool = False
    rotated: bool = False


class MoveRequest(Strict):
    """``POST /api/games/ID/moves``: the move in notation (or the tiles placed) and the turn
    it is meant for."""

    move: str | None = None
    tiles: list[TileSpec] | None = None
    turn: int


class PreviewRequest(Strict):
    """``POST /api/games/ID/preview``: the move in notation, or the tiles placed."""

    move: str | None = None
    tiles: list[TileSpec] | None = None


class RecordRequest(Strict):
    """``POST /api/records/view``: the text of a game record."""

    record: str


class ErrorBody(BaseModel):
    """Every error: one sentence a person can act on."""

    error: str


class SeatCreated(BaseModel):
    """A seat of a created game: a person's seat has its secret token and invite URL."""

    seat: int
    name: str
    token: str | None = None
    url: str | None = None
    computer: str | None = None


class GameCreated(BaseModel):
    """The answer to ``POST /api/games`` and to a rematch."""

    id: str
    seats: list[SeatCreated]


class MoveAccepted(BaseModel):
    """An accepted move: the next turn's number, the move in notation and its score."""

    turn: int
    notation: str
    score: int


class RunPreview(BaseModel):
    """One run of a previewed play: the equation, its value and bonus, and its score."""

    text: str
    value: int
    binary: str
    bonus: int
    score: int
    squares: list[str]
    sum: str


class PreviewAnswer(BaseModel):
    """What a move would do: legal or not (and why), its score run by run."""

    legal: bool
    score: int | None
    runs: list[RunPreview]
    reason: str | None
    notation: str | None = None
    bingo: int = 0


class HintRun(BaseModel):
    """A run of the hinted play, with the equation explained step by step."""

    text: str
    value: int
    binary: str
    bonus: int
    score: int
    sum: str
    explanation: str


class HintAnswer(BaseModel):
    """The computer's best move (``hard``), explained."""

    notation: str
    score: int
    runs: list[HintRun]
    explanation: str


class PlayerView(BaseModel):
    """A player as everyone sees them."""

    name: str
    score: int
    computer: str | None
    tiles: int


class MoveView(BaseModel):
    """A move of the log (another seat's exchange shows only its size)."""

    seat: int
    notation: str
    score: int
    squares: list[str]
    running: list[int]


class GameView(BaseModel):
    """A game as one seat (with ``seat`` and ``rack``) or a spectator sees it."""

    id: str
    rules: dict[str, Any]
    preset: str | None
    board: list[str]
    blanks: list[str]
    rotated: list[str]
    players: list[PlayerView]
    to_move: int | None
    turn: int
    bag: int
    moves: list[MoveView]
    over: bool
    unseen: str
    last_move: dict[str, Any] | None
    result: dict[str, Any] | None
    rematch: str | None
    seat: int | None = None
    rack: str | None = None


class ScoredMove(BaseModel):
    """A move in notation and its score."""

    notation: str
    score: int


class AnalysisTurn(BaseModel):
    """One turn of a finished game next to the best play found, and the board before it.

    ``analysed`` is false when the search for the best play ran out of its budget; then
    ``reason`` says why, and ``best`` is the best found before it stopped.
    """

    turn: int
    seat: int
    played: ScoredMove
    best: ScoredMove
    lost: int
    board: list[str]
    blanks: list[str]
    rotated: list[str]
    analysed: bool
    reason: str | None


class AnalysisAnswer(BaseModel):
    """``GET /api/games/ID/analysis``: the turns analysed so far, of ``total``; ask again
    until ``complete``."""

    turns: list[AnalysisTurn]
    total: int
    complete: bool


class RecordTurn(BaseModel):
    """One turn of an uploaded record, with the board after it."""

    turn: int
    notation: str
    seat: int
    score: int
    board: list[str]
    blanks: list[str]
    rotated: list[str]
    scores: list[int]


class RecordAnswer(BaseModel):
    """``POST /api/records/view``: the players, rules and every turn of a record."""

    players: list[str]
    rules: dict[str, Any]
    turns: list[RecordTurn]
