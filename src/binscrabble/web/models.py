"""The shapes of the web API's bodies (Pydantic): they check requests and describe both
directions in the OpenAPI schema, so that the schema admits exactly what the server takes.

Requests are strict: unknown fields are refused and no type is coerced (``"3"`` is not the
number 3, ``1`` is not ``true``). The rules of a new game are an object whose switches are
typed from :class:`binscrabble.rules.Rules` itself (its fields, their types and
:data:`~binscrabble.rules.INT_RULE_LIMITS`), so a new switch needs no change here.

>>> NewGameRequest.model_validate({"players": [{"name": "Ann"}, {"name": "Bo"}]}).rules is None
True
>>> NewGameRequest.model_validate(
...     {"players": [{"name": "Ann"}, {"name": "Bo"}], "rules": {"xor_tiles": "3"}}
... )  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for NewGameRequest
rules.xor_tiles
  Input should be a valid integer ...
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    Tag,
    ValidationInfo,
    create_model,
    field_validator,
)
from pydantic_core import PydanticCustomError

from binscrabble.clock import CORRESPONDENCE, KINDS, LIMITS, LIVE, UNTIMED
from binscrabble.engine.levels import LEVELS
from binscrabble.game import MAX_PLAYERS, MIN_PLAYERS
from binscrabble.i18n import N_
from binscrabble.limits import has_visible_character, invisible_character
from binscrabble.rules import FACES, INT_RULE_LIMITS, PRECEDENCES, PRESETS, Rules

#: The largest request body accepted, in bytes (INTERFACES.md §5).
MAX_BODY = 64 * 1024
#: The longest player name the web app takes, in characters.
MAX_NAME = 40

# Characters a name may not hold anywhere (control characters and the line and paragraph
# separators: a name is written on one line of the game's record; the invisible format
# characters: a soft hyphen, zero-width spaces and joiners, direction marks, embeddings,
# overrides and isolates, the byte order mark, which would let "A\u200b" pass for "A" or
# turn the text after a name around), and those it may not start or end with (those, and
# every space: the name is read with its ends trimmed).
_CONTROLS = "\\x00-\\x1f\\x7f-\\x9f\\xad\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff"
_SPACES = "\\x20\\xa0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000"
#: A player's name: some character that is not a space, and no control character.
NAME_PATTERN: Final = f"^[^{_CONTROLS}]*[^{_CONTROLS}{_SPACES}][^{_CONTROLS}]*$"
#: A square as the page names it: a column A-O (either case) and a row 1-15.
SQUARE_PATTERN: Final = "^[A-Oa-o](?:[1-9]|1[0-5])$"
#: What each pattern means, for the sentence a refused value gets.
PATTERN_MEANINGS: Final = {
    NAME_PATTERN: N_(
        "a name needs a character that is not a space, and no line break, tab, "
        "other control character or invisible formatting character"
    ),
    SQUARE_PATTERN: N_("a square is a column A to O and a row 1 to 15, such as H8"),
}


def visible_name(name: str) -> str:
    """A name that passed :data:`NAME_PATTERN` shows something and holds no invisible
    character (every format character, fillers, blanks: :func:`limits.is_invisible`); the
    pattern's sentence otherwise, as for a control character."""
    if invisible_character(name) is not None or not has_visible_character(name):
        raise PydanticCustomError(
            "string_pattern_mismatch", PATTERN_MEANINGS[NAME_PATTERN], {"pattern": NAME_PATTERN}
        )
    return name


if TYPE_CHECKING:
    Level = str
    Preset = str
    Face = str
else:
    Level = Literal[tuple(LEVELS)]
    Preset = Literal[PRESETS]
    Face = Literal[FACES]


def _whole(value: object) -> object:
    """JSON does not tell 3 from 3.0 (nor does JSON Schema's ``integer``): a number with no
    fraction is that whole number. Text and ``true`` stay what they are, and are refused."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def whole_number(low: int, high: int | None = None) -> Any:
    """The type of a whole number from ``low`` (to ``high``): ``3`` or ``3.0``, never
    ``"3"``, ``3.5`` or ``true``. (The range is given before the validator that reads
    ``3.0``, so that the schema carries it as ``minimum`` and ``maximum``.)"""
    return Annotated[StrictInt, Field(ge=low, le=high), BeforeValidator(_whole)]


#: Why a field given as ``null`` is refused: a body's fields are absent or have a value.
NULL_REFUSED: Final = N_("it is null: leave the field out for its default, or give it a value")


def refuse_null(value: object, info: ValidationInfo) -> object:
    """A field given is a value: ``null`` gets 400, one rule for every field of a request
    body (a ``null`` the route took as absent would let a client believe it said
    something). The clock says what to send instead (:data:`CLOCK_NULL`)."""
    if value is None:
        if info.field_name == "clock":
            raise PydanticCustomError("clock_null", CLOCK_NULL)
        raise PydanticCustomError("null", NULL_REFUSED)
    return value


class Strict(BaseModel):
    """A request body: unknown fields are an error, "3" is not the number 3, and a field
    given is not ``null``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    refuse_nulls = field_validator("*", mode="before")(refuse_null)


class Answer(BaseModel):
    """An answer body (built by the server, described in the schema)."""


def _switch_type(name: str, default: object) -> Any:
    """The type of one switch of :class:`Rules`, with its range or choices."""
    if name == "precedence":
        return Literal[PRECEDENCES]
    if isinstance(default, bool):
        return StrictBool
    low, high = INT_RULE_LIMITS[name]
    return whole_number(low, high)


def _no_defaults(schema: dict[str, Any]) -> None:
    """A switch left out takes the preset's value: the schema shows no default of its own."""
    for entry in schema.get("properties", {}).values():
        entry.pop("default", None)


def _switch_models() -> tuple[type[BaseModel], type[BaseModel]]:
    """The rules as a request gives them (a preset and any switches) and as an answer shows
    them (every switch), both from the fields of :class:`Rules`."""
    defaults = Rules()
    wanted: dict[str, Any] = {"preset": (Preset, None)}
    shown: dict[str, Any] = {}
    for field in dataclasses.fields(Rules):
        kind = _switch_type(field.name, getattr(defaults, field.name))
        wanted[field.name] = (kind, None)
        shown[field.name] = (kind, ...)
    request = create_model(
        "RulesRequest",
        __config__=ConfigDict(extra="forbid", strict=True, json_schema_extra=_no_defaults),
        __doc__="A preset (default `standard`) and any switches of docs/rules.md §10 that "
        "differ from it; a switch left out takes the preset's value.",
        __validators__={"refuse_nulls": field_validator("*", mode="before")(refuse_null)},
        **wanted,
    )
    answer = create_model(
        "RulesInForce", __doc__="Every switch of docs/rules.md §10 with its value.", **shown
    )
    return request, answer


if TYPE_CHECKING:
    RulesRequest = BaseModel
    RulesInForce = BaseModel
else:
    RulesRequest, RulesInForce = _switch_models()


# -- requests --------------------------------------------------------------------------------


class PlayerSpec(Strict):
    """A seat of a new game: a person's name, or a computer's name and level. Names are
    read with their ends trimmed, and the players of a game have different names."""

    name: Annotated[
        str,
        Field(min_length=1, max_length=MAX_NAME, pattern=NAME_PATTERN),
        AfterValidator(visible_name),
    ]
    #: Absent: a person (``null`` is refused, as everywhere: :func:`refuse_null`).
    computer: Level = None  # type: ignore[assignment]


class UntimedClock(Strict):
    """No clock."""

    kind: Literal["untimed"]


class LiveClock(Strict):
    """Each seat has ``seconds`` for all its moves, plus ``increment`` after each; then up
    to ``overtime`` seconds, 10 points off for each minute of it started."""

    kind: Literal["live"]
    seconds: whole_number(*LIMITS[LIVE]["seconds"][:2])  # type: ignore[valid-type]
    increment: whole_number(*LIMITS[LIVE]["increment"][:2]) = 0  # type: ignore[valid-type]
    overtime: whole_number(*LIMITS[LIVE]["overtime"][:2]) = 0  # type: ignore[valid-type]


class CorrespondenceClock(Strict):
    """Each move within ``days`` days of the last one."""

    kind: Literal["correspondence"]
    days: whole_number(*LIMITS[CORRESPONDENCE]["days"][:2])  # type: ignore[valid-type]


CLOCK_KINDS: Final = N_("a clock's 'kind' is 'untimed', 'live' or 'correspondence'")
CLOCK_NULL: Final = N_(
    "leave 'clock' out for an untimed game, or send an object such as "
    '{"kind": "live", "seconds": 300}'
)


def _clock_kind(body: Any) -> str | None:
    """Which clock a body asks for (``None``: none of them)."""
    kind = body.get("kind") if isinstance(body, dict) else getattr(body, "kind", None)
    return kind if kind in KINDS else None


#: A new game's clock (INTERFACES.md §7), told apart by its ``kind``.
ClockRequest = Annotated[
    Annotated[UntimedClock, Tag(UNTIMED)]
    | Annotated[LiveClock, Tag(LIVE)]
    | Annotated[CorrespondenceClock, Tag(CORRESPONDENCE)],
    Discriminator(_clock_kind, custom_error_type="clock_kind", custom_error_message=CLOCK_KINDS),
]


class NewGameRequest(Strict):
    """``POST /api/games``: 2-4 players, and rules as a preset plus switches."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "players": [{"name": "Ann"}, {"name": "Bot", "computer": "medium"}],
                    "rules": {"preset": "standard", "xor_tiles": 2},
                }
            ]
        }
    )

    players: list[PlayerSpec] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)
    #: Absent: the standard rules (``null`` is refused, as everywhere).
    rules: RulesRequest = None  # type: ignore[assignment]
    #: A game at a real table (INTERFACES.md §9): the racks and the bag are not in the
    #: program; people only.
    table: StrictBool = False
    #: For a table game: whether a refused play uses the turn.
    refused_play_loses_turn: StrictBool = False
    #: The clock (INTERFACES.md §7); absent: untimed (``null`` is refused: §7 takes the
    #: field absent or an object).
    clock: ClockRequest = None  # type: ignore[assignment]


class TileSpec(Strict):
    """A tile the page placed: its square (``H8``), its face, whether it is a blank or a
    rotated ``=``."""

    square: str = Field(pattern=SQUARE_PATTERN)
    face: Face
    blank: StrictBool = False
    rotated: StrictBool = False


#: The turn a submission is meant for.
Turn = Annotated[StrictInt, Field(ge=0), BeforeValidator(_whole)]
#: A play puts at most a line of the board's tiles (a rack holds at most 9).
MAX_PLACED_TILES: Final = 15
PlacedTiles = Annotated[list[TileSpec], Field(min_length=1, max_length=MAX_PLACED_TILES)]
#: The longest notation read: a whole line of 15 squares written with words (``XOR``,
#: ``blank``) and brackets stays under 120 characters. The bound keeps the cost of reading a
#: move, which the server does on its event loop, to that of a real one.
MAX_NOTATION: Final = 200
Notation = Annotated[StrictStr, Field(max_length=MAX_NOTATION)]


class NotationMove(Strict):
    """A move in notation (``8G 1=1``, ``pass``, ``exchange 01?``) for a turn."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"move": "pass", "turn": 0}]})

    move: Notation
    turn: Turn


class TilesMove(Strict):
    """A play as the tiles the page placed, for a turn."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"tiles": [{"square": "H8", "face": "1"}], "turn": 0}]}
    )

    tiles: PlacedTiles
    turn: Turn


class NotationPreview(Strict):
    """A move in notation to preview."""

    move: Notation


class TilesPreview(Strict):
    """The tiles placed, to preview."""

    tiles: PlacedTiles


#: The tags of the two shapes a move takes; Pydantic puts them in an error's location,
#: right after ``body``.
IN_NOTATION: Final = "move in notation"
AS_TILES: Final = "move as tiles"
MOVE_TAGS: Final = frozenset({IN_NOTATION, AS_TILES})
MOVE_OR_TILES: Final = N_("send the move either as 'move' (notation) or as 'tiles': one of the two")
#: The sentence of each error kind these models raise themselves (marked; said in the
#: request's language by web/limits.py).
CUSTOM_KINDS: Final = {
    "clock_null": CLOCK_NULL,
    "null": NULL_REFUSED,
    "clock_kind": CLOCK_KINDS,
    "move_or_tiles": MOVE_OR_TILES,
}


def _move_kind(body: Any) -> str | None:
    """Which shape a body is: in notation with ``move``, as tiles with ``tiles``."""
    if not isinstance(body, dict):
        return IN_NOTATION
    if ("move" in body) == ("tiles" in body):
        return None
    return IN_NOTATION if "move" in body else AS_TILES


_EITHER = Discriminator(
    _move_kind, custom_error_type="move_or_tiles", custom_error_message=MOVE_OR_TILES
)
#: ``POST /api/games/ID/moves``: the move in notation or as the tiles placed, and its turn.
MoveRequest = Annotated[
    Annotated[NotationMove, Tag(IN_NOTATION)] | Annotated[TilesMove, Tag(AS_TILES)], _EITHER
]
#: ``POST /api/games/ID/preview``: the move in notation or as the tiles placed.
PreviewRequest = Annotated[
    Annotated[NotationPreview, Tag(IN_NOTATION)] | Annotated[TilesPreview, Tag(AS_TILES)],
    _EITHER,
]


class RecordRequest(Strict):
    """``POST /api/records/view``: the text of a game record."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "record": "#binscrabble-record 1\n#player1 Ann\n#player2 Bo\n"
                    ">Ann: 10=00/101 pass +0 0\n"
                }
            ]
        }
    )

    record: str = Field(min_length=1)


class RackRequest(Strict):
    """``POST /api/games/ID/rack`` (a game at a table): the tiles on your rack, as codes; once
    the play has ended, the tiles left on it (``""`` for none)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"rack": "0011=+&~?"}]})

    rack: StrictStr = Field(max_length=20)


# -- answers ---------------------------------------------------------------------------------


class ErrorBody(Answer):
    """Every error: one sentence a person can act on."""

    error: str


class LevelInfo(Answer):
    """A computer level and what it does."""

    name: str
    description: str


class SwitchInfo(Answer):
    """A house-rule switch: its default, its type, its range or choices, and a sentence."""

    name: str
    default: bool | int | str
    type: Literal["bool", "int", "choice"]
    choices: list[str] | None = None
    min: int | None = None
    max: int | None = None
    explanation: str


class TileInfo(Answer):
    """A tile code of the set: its points, how it is shown, how many the bag has."""

    points: int
    label: str
    count: int


class MetaAnswer(Answer):
    """``GET /api/meta``: levels, presets, switches, tiles and premium squares."""

    levels: list[LevelInfo]
    presets: dict[str, RulesInForce]
    switches: list[SwitchInfo]
    tiles: dict[str, TileInfo]
    premiums: dict[str, str]


class SeatCreated(Answer):
    """A seat of a created game: a person's seat has its secret token and invite URL."""

    seat: int
    name: str
    token: str | None = None
    url: str | None = None
    computer: Level | None = None


class GameCreated(Answer):
    """The answer to ``POST /api/games`` and to a rematch."""

    id: str
    seats: list[SeatCreated]


class MoveAccepted(Answer):
    """An accepted move: the next turn's number, the move in notation and as people read it
    (``display``), and its score."""

    turn: int
    notation: str
    display: str
    score: int


class RunPreview(Answer):
    """One run of a previewed play: the equation (in codes, and as people read it in
    ``display``), its value and bonus, and its score."""

    text: str
    display: str
    value: int
    binary: str
    bonus: int
    score: int
    squares: list[str]
    sum: str


class MarkedTile(Answer):
    """A tile a play puts down: its square, its face (a code), whether it is a blank and
    whether it is a turned ``=`` reading ``11``."""

    square: str
    face: str
    blank: bool
    rotated: bool


class PreviewAnswer(Answer):
    """What a move would do: legal or not (and why), its score run by run."""

    legal: bool
    score: int | None
    runs: list[RunPreview]
    reason: str | None
    notation: str | None = None
    #: The move as people read it (the tiles' faces), when it is legal.
    display: str | None = None
    bingo: int = 0
    #: The tiles the move would place, read from its notation or the tiles sent: the page
    #: draws a move typed in the Move box on the board as it is typed.
    tiles: list[MarkedTile] = []


class HintStep(Answer):
    """One line of a run's explanation; an operation of a side is ``arithmetic``, read
    left to right in every language."""

    text: str
    arithmetic: bool


class HintRun(Answer):
    """A run of the hinted play, with the equation explained step by step."""

    text: str
    display: str
    value: int
    binary: str
    bonus: int
    score: int
    sum: str
    #: The steps, one a line (``steps``, joined by line breaks).
    explanation: str
    steps: list[HintStep]


class HintAnswer(Answer):
    """The highest-scoring play (the analysis's search), explained: what the play is
    (``about``), its runs, the score as a sum, the whole rack's bonus included
    (``total``), and what it keeps (``explanation``)."""

    notation: str
    display: str
    score: int
    about: str
    runs: list[HintRun]
    total: str
    explanation: str


class PlayerView(Answer):
    """A player as everyone sees them."""

    name: str
    score: int
    computer: Level | None
    tiles: int
    #: Why the seat left the game (``resigned`` or ``time``: INTERFACES.md §7), else
    #: ``None``; a seat of a game at a table never leaves.
    left: Literal["resigned", "time"] | None = None


class MoveView(Answer):
    """A move of the log (another seat's exchange shows only its size), in notation and as
    people read it (``display``: the tiles' faces, ``8D 1 AND 1=1``)."""

    seat: int
    notation: str
    display: str
    score: int
    squares: list[str]
    running: list[int]


class LastMove(Answer):
    """The seat that moved last and the squares its play covered."""

    seat: int
    squares: list[str]


class GameResult(Answer):
    """How a finished game ended: ``out``, ``scoreless``, ``resigned``, ``time`` or
    ``aborted``, the rack adjustments, the final totals (overtime penalties included) and
    the winning seats."""

    reason: Literal["out", "scoreless", "resigned", "time", "aborted"]
    adjustments: list[int]
    final: list[int]
    winners: list[int]
    #: Each seat's overtime penalty in points (a live clock), included in ``final``.
    penalties: list[int]


class ClockView(Answer):
    """A timed game's clock as of the moment the view was built: each seat's time left in
    milliseconds (negative in overtime) and the seat whose time runs."""

    kind: Literal["live", "correspondence"]
    remaining_ms: list[int]
    running: int | None
    #: The person seats that have not opened the game yet: no clock runs until every one
    #: has (``running`` is ``None`` meanwhile); empty once the clocks run.
    waiting: list[int] = []


class GameEnd(Answer):
    """How a game ended (INTERFACES.md §7): the seat that resigned, ran out of time or
    aborted (else ``None``), and the seats with the best final score (none when aborted)."""

    reason: Literal["played out", "scoreless turns", "resigned", "time", "aborted"]
    seat: int | None
    winners: list[int]
    #: Why the server aborted the game for ``seat`` (present only then): ``time``, its time
    #: ran out before its first move; ``absent``, it never opened the game.
    cause: Literal["time", "absent"] | None = None


class DepartureView(Answer):
    """A seat that left the game (INTERFACES.md §7) and when: after ``turn`` moves."""

    turn: int
    seat: int
    reason: Literal["resigned", "time", "aborted"]


class TableView(Answer):
    """What a game at a real table adds to its view: its house rule on refused plays, the
    seats still to enter the tiles left on their rack, and those entered."""

    refused_play_loses_turn: bool
    awaiting_racks: list[int]
    racks_left: list[str | None]


class GameView(Answer):
    """A game as one seat (with ``seat`` and ``rack``) or a spectator sees it."""

    id: str
    rules: RulesInForce
    preset: Preset | None
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
    last_move: LastMove | None
    result: GameResult | None
    rematch: str | None
    seat: int | None = None
    rack: str | None = None
    #: A game at a real table (``None`` for a game with a bag).
    table: TableView | None = None
    #: The clock, ``None`` when untimed (INTERFACES.md §7).
    clock: ClockView | None = None
    #: How the game ended, ``None`` while it goes on; ``over`` is true exactly when set.
    end: GameEnd | None = None
    #: Each seat that left the game, in order, with the number of moves played then (the
    #: moves log says each at its place).
    departures: list[DepartureView] = []


class ScoredMove(Answer):
    """A move in notation, the same written with the tiles' faces (``display``), its score
    and the tiles it puts down (none for an exchange or a pass)."""

    notation: str
    display: str
    score: int
    tiles: list[MarkedTile]


class AnalysisTurn(Answer):
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
    #: Every seat's total after the move played (before end-of-game adjustments).
    scores: list[int]
    analysed: bool
    reason: str | None


class AnalysisAnswer(Answer):
    """``GET /api/games/ID/analysis``: the turns analysed so far, of ``total``; ask again
    until ``complete``."""

    turns: list[AnalysisTurn]
    total: int
    complete: bool
    #: Why there is nothing to analyse, when there is not (a game at a table whose racks
    #: were never entered).
    note: str | None = None
    #: How the game ended (INTERFACES.md §7).
    end: GameEnd | None = None


class RecordTurn(Answer):
    """One turn of an uploaded record, with the board after it: the move in notation,
    written with the tiles' faces (``display``), and the tiles it put down."""

    turn: int
    notation: str
    display: str
    tiles: list[MarkedTile]
    seat: int
    score: int
    board: list[str]
    blanks: list[str]
    rotated: list[str]
    scores: list[int]


class RecordAnswer(Answer):
    """``POST /api/records/view``: the players, rules and every turn of a record, and how
    its game ended (as a view says it; ``None`` when the record stops before the end)."""

    players: list[str]
    rules: RulesInForce
    turns: list[RecordTurn]
    result: GameResult | None = None
    end: GameEnd | None = None


class PlayingPlayer(Answer):
    """A player of a game being played now, as everyone sees them."""

    name: str
    computer: Level | None
    score: int


class PlayingGame(Answer):
    """A game being played now: its spectator's address, players, scores and turn."""

    id: str
    url: str
    players: list[PlayingPlayer]
    to_move: int
    turn: int
    #: Seconds since its last move.
    idle_seconds: int


class GamesPlaying(Answer):
    """``GET /api/games``: the games being played now, most recently moved first."""

    games: list[PlayingGame]
