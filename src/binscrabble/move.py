"""Moves as values, and their notation (docs/notation.md).

A move is one of :class:`Place` (tiles put on the board), :class:`Exchange` (rack tiles
swapped with the bag) or :class:`Pass`. They are frozen dataclasses: equal when they do the
same thing, hashable, and their ``repr`` can be pasted back as code. A move knows nothing of
legality; :class:`binscrabble.game.Game` judges it.

Notation is written and read against the board the move is played on, because tiles already
on the board inside the play's line are written in parentheses:

>>> from binscrabble.board import Board
>>> board = Board()
>>> move = parse_move("8D 1+1=10", board)
>>> move.tiles[0]
PlacedTile(square=108, face='1')
>>> move.notation(board)
'8D 1+1=10'
>>> parse_move("exchange 1 1 AND ?", board)
Exchange(tiles='11&?')
>>> parse_move("pass", board)
Pass()
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Final

from binscrabble.board import (
    ACROSS,
    COLUMN_NAMES,
    DOWN,
    SIZE,
    Board,
    Direction,
    Tile,
    has_neighbour,
    line_bounds,
    run_bounds,
    square,
    square_column,
    square_name,
    square_row,
)
from binscrabble.i18n import _
from binscrabble.limits import shortened, typed
from binscrabble.rules import BLANK, EQUALS, FACES, SYMBOL_ALIASES, WORD_ALIASES

#: The order tile codes are listed in (an exchange's tiles are kept in this order).
CODE_ORDER: Final = "".join(FACES) + BLANK
_CODE_RANK: Final = {code: rank for rank, code in enumerate(CODE_ORDER)}
#: The notation symbol of a rotated ``=`` (it reads as ``11`` on the board).
ROTATED_SYMBOL: Final = "#"


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """One tile a play puts on the board.

    ``face`` is the face it shows (for a blank: the face it is designated); ``rotated`` is
    an ``=`` (or a blank designated ``=``) turned to read ``11`` (rule ``rotated_equals``).
    """

    square: int
    face: str
    blank: bool = False
    rotated: bool = False

    def __repr__(self) -> str:
        extra = (", blank=True" if self.blank else "") + (", rotated=True" if self.rotated else "")
        return f"PlacedTile(square={self.square!r}, face={self.face!r}{extra})"

    @property
    def code(self) -> str:
        """The rack code this tile comes from: ``?`` for a blank, else its face."""
        return BLANK if self.blank else self.face


_BY_SQUARE = attrgetter("square")


@dataclass(frozen=True, slots=True)
class Place:
    """Tiles put on the board in one turn, kept in square order.

    >>> Place((PlacedTile(113, "1"), PlacedTile(112, "="))).squares
    (112, 113)
    """

    tiles: tuple[PlacedTile, ...]

    def __post_init__(self) -> None:
        # One order for one placement, so equal placements compare and hash equal.
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles, key=_BY_SQUARE)))

    @property
    def squares(self) -> tuple[int, ...]:
        """The squares the play covers, in order."""
        return tuple(tile.square for tile in self.tiles)

    @property
    def codes(self) -> str:
        """The rack codes the play uses (``?`` for each blank)."""
        return "".join(tile.code for tile in self.tiles)

    def notation(self, board: Board) -> str:
        """This play in notation, on the board it is played on (see :func:`move_notation`)."""
        return move_notation(self, board)


@dataclass(frozen=True, slots=True)
class Exchange:
    """Rack tiles given back to the bag for as many new ones, as codes (``?`` = blank).

    The codes are kept in a fixed order, so exchanging ``"10"`` and ``"01"`` is one move.

    >>> Exchange("?10")
    Exchange(tiles='01?')
    """

    tiles: str

    def __post_init__(self) -> None:
        for code in self.tiles:
            if code not in _CODE_RANK:
                raise ValueError(f"{code!r} is not a tile code ({' '.join(CODE_ORDER)})")
        object.__setattr__(self, "tiles", "".join(sorted(self.tiles, key=_CODE_RANK.__getitem__)))

    def notation(self, board: Board | None = None) -> str:
        """``-`` followed by the codes, e.g. ``-01?``."""
        return "-" + self.tiles


@dataclass(frozen=True, slots=True)
class Pass:
    """Passing the turn."""

    def notation(self, board: Board | None = None) -> str:
        """Always ``pass``."""
        return "pass"


Move = Place | Exchange | Pass


class NotationError(ValueError):
    """A notation that cannot be read on this board.

    ``kind`` says how it failed (one of :data:`NOTATION_ERROR_KINDS`), ``position`` is the
    index in the text of the offending character, counted from 0 (or ``None``), and the
    message says what is wrong and where, counting the characters from 1 as a person does.
    """

    def __init__(self, kind: str, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.position = position

    def __reduce__(self) -> tuple[type[NotationError], tuple[object, ...]]:
        # The extra fields must survive pickling (process pools send errors back).
        return NotationError, (self.kind, str(self), self.position)


#: Every ``NotationError.kind``.
NOTATION_ERROR_KINDS: Final = (
    "empty",
    "coordinate",
    "symbol",
    "blank_mark",
    "parenthesis",
    "off_board",
    "not_on_board",
    "mismatch",
    "no_new_tile",
    "exchange",
    "pass",
)
#: ``pass`` followed by something (not a longer word such as "passe"): group 1 is that.
_AFTER_PASS: Final = re.compile(r"pass(?![^\W\d_])\s*(\S)")

_COORDINATE: Final = re.compile(r"(?:(\d+)([A-Za-z])|([A-Za-z])(\d+))(?=\s|$)")
_WORDS: Final = sorted(WORD_ALIASES, key=len, reverse=True)


@dataclass(frozen=True, slots=True)
class _Symbol:
    face: str
    blank: bool
    rotated: bool
    through: bool  # written in parentheses: a tile already on the board
    position: int


def _read_symbols(text: str, offset: int, allow_notation_marks: bool) -> list[_Symbol]:
    """Tile symbols of ``text``; aliases and words become codes, spaces are skipped.

    ``allow_notation_marks`` allows ``( ) #`` and the blank mark before a face (plays);
    without it (exchanges) ``?`` is the blank tile itself.
    """
    reader = _SymbolReader(offset, allow_notation_marks)
    index = 0
    while index < len(text):
        index = reader.step(text, index)
    reader.finish(offset + len(text))
    return reader.symbols


def _face_at(text: str, index: int, allow_notation_marks: bool) -> tuple[str | None, int]:
    """The face a symbol at ``text[index]`` stands for (a word, a face, an alias, or the
    rotated ``=``), and how many characters it takes; ``(None, 0)`` for anything else."""
    char = text[index]
    word = next((w for w in _WORDS if text[index : index + len(w)].upper() == w), None)
    if word is not None:
        return WORD_ALIASES[word], len(word)
    if char in FACES:
        return char, 1
    if char in SYMBOL_ALIASES:
        return SYMBOL_ALIASES[char], 1
    if allow_notation_marks and char == ROTATED_SYMBOL:
        return ROTATED_SYMBOL, 1
    return None, 0


class _SymbolReader:
    """The state of :func:`_read_symbols`: the symbols so far, where an open parenthesis
    started (as an index into them) and where a pending blank mark stands."""

    def __init__(self, offset: int, allow_notation_marks: bool) -> None:
        self.offset = offset
        self.marks = allow_notation_marks
        self.symbols: list[_Symbol] = []
        self.through_since: int | None = None
        self.blank_at: int | None = None

    def step(self, text: str, index: int) -> int:
        """Read the symbol at ``text[index]``; the index of the next one."""
        char = text[index]
        at = self.offset + index
        if char.isspace():
            return index + 1
        face, length = _face_at(text, index, self.marks)
        if face is not None:
            self._face(face, at)
            return index + length
        if char == BLANK:
            self._blank(at)
        elif self.marks and char == "(":
            self._open(at)
        elif self.marks and char == ")":
            self._close(at)
        else:
            raise NotationError(
                "symbol",
                _(
                    "unknown symbol {symbol} at position {position}: tiles are {faces} (or AND "
                    "OR NOT XOR), '?' marks a blank, '#' a rotated =, parentheses tiles already "
                    "on the board"
                ).format(symbol=repr(char), position=at + 1, faces=" ".join(FACES)),
                at,
            )
        return index + 1

    def _face(self, face: str, at: int) -> None:
        rotated = face == ROTATED_SYMBOL
        blank_at = self.blank_at
        self.symbols.append(
            _Symbol(
                EQUALS if rotated else face,
                blank_at is not None,
                rotated,
                self.through_since is not None,
                at if blank_at is None else blank_at,
            )
        )
        self.blank_at = None

    def _blank(self, at: int) -> None:
        if not self.marks:
            # An exchange: `?` is the blank tile itself.
            self.symbols.append(_Symbol(BLANK, True, False, False, at))
            return
        if self.through_since is not None:
            raise NotationError(
                "blank_mark",
                _(
                    "a blank mark '?' at position {position} is inside parentheses: tiles "
                    "already on the board are written by their faces only"
                ).format(position=at + 1),
                at,
            )
        if self.blank_at is not None:
            message = _("two blank marks '?' in a row at position {position}")
            raise NotationError("blank_mark", message.format(position=at + 1), at)
        self.blank_at = at

    def _open(self, at: int) -> None:
        if self.through_since is not None:
            message = _("nested '(' at position {position}")
            raise NotationError("parenthesis", message.format(position=at + 1), at)
        self._no_pending_blank()
        self.through_since = len(self.symbols)

    def _close(self, at: int) -> None:
        if self.through_since is None:
            message = _("')' at position {position} closes nothing")
            raise NotationError("parenthesis", message.format(position=at + 1), at)
        self._no_pending_blank()
        if self.through_since == len(self.symbols):
            message = _("empty parentheses at position {position}")
            raise NotationError("parenthesis", message.format(position=at + 1), at)
        self.through_since = None

    def _no_pending_blank(self) -> None:
        if self.blank_at is not None:
            raise NotationError(
                "blank_mark",
                _("a blank mark '?' at position {position} marks no tile").format(
                    position=self.blank_at + 1
                ),
                self.blank_at,
            )

    def finish(self, end: int) -> None:
        """Nothing may be left open at the end of the text (at position `end`)."""
        self._no_pending_blank()
        if self.through_since is not None:
            raise NotationError("parenthesis", _("a '(' is never closed"), end)


def _parse_coordinate(text: str) -> tuple[int, Direction, int]:
    """(start square, direction, length of the coordinate) of a play's notation."""
    match = _COORDINATE.match(text)
    if match is None:
        head = text.split()[0] if text.split() else text
        if not any(symbol.isdigit() for symbol in head):
            # A word, not a square: someone who typed "passe" or "ויתור" learns the words.
            raise NotationError(
                "coordinate",
                _(
                    "“{text}” is not a move: write a play (8D 1+1=10), pass, or exchange and the "
                    "tiles (exchange 01); pass and exchange are written in English in every "
                    "language"
                ).format(text=typed(head)),
                0,
            )
        raise NotationError(
            "coordinate",
            _(
                "“{text}” is not a coordinate: write the row then the column for a play across "
                "(8D) or the column then the row for a play down (D8), then a space and the tiles"
            ).format(text=typed(head)),
            0,
        )
    if match.group(1) is not None:
        row_text, letter, direction = match.group(1), match.group(2), ACROSS
    else:
        letter, row_text, direction = match.group(3), match.group(4), DOWN
    column = COLUMN_NAMES.find(letter.upper())
    if column < 0:
        raise NotationError(
            "coordinate",
            _("coordinate “{text}”: column {column} is off the board (columns are A to O)").format(
                text=typed(match.group(0)), column=letter.upper()
            ),
            0,
        )
    # Two digits at most: a longer row is off the board, and is never read as a number.
    row = int(row_text) if len(row_text) <= 2 else 0
    if not 1 <= row <= SIZE or row_text.startswith("0"):
        raise NotationError(
            "coordinate",
            _("coordinate “{text}”: row {row} is off the board (rows are 1 to 15)").format(
                text=typed(match.group(0)), row=shortened(row_text)
            ),
            0,
        )
    return square(column, row - 1), direction, match.end()


def parse_move(text: str, board: Board) -> Move:
    """Read a move written in notation, on the board it is to be played on.

    Plays: ``8D 1+1=10`` (across from D8), ``D8 1+1=10`` (down); ``?1`` is a blank
    designated 1, ``#`` a rotated =, ``(...)`` tiles already on the board. Input aliases and
    the words AND OR NOT XOR (any case) are accepted and spaces are ignored. Exchanges:
    ``-1101`` or ``exchange 1101``; passing: ``pass`` or ``-``. Raises
    :class:`NotationError` with the reason and the position of the fault.

    >>> board = Board()
    >>> parse_move("8D 1 or 1 = 1", board).notation(board)
    '8D 1|1=1'
    >>> parse_move("8P 1=1", board)
    Traceback (most recent call last):
    ...
    binscrabble.move.NotationError: coordinate “8P”: column P is off the board (columns are A to O)
    """
    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    if not stripped:
        raise NotationError("empty", _("no move given: write a play (8D 1+1=10), -TILES or pass"))
    lowered = stripped.lower()
    if lowered in ("pass", "-"):
        return Pass()
    after_pass = _AFTER_PASS.match(lowered)
    if after_pass is not None:
        # "pass pass", "pass 01": the word is right, what follows it is not.
        raise NotationError(
            "pass",
            _("pass is written alone, with nothing after it"),
            lead + after_pass.start(1),
        )
    exchange_text: str | None = None
    if lowered.startswith("exchange"):
        exchange_text, start = stripped[len("exchange") :], lead + len("exchange")
    elif stripped.startswith("-"):
        exchange_text, start = stripped[1:], lead + 1
    if exchange_text is not None:
        symbols = _read_symbols(exchange_text, start, allow_notation_marks=False)
        if not symbols:
            raise NotationError(
                "exchange", _("an exchange names the tiles to give back, e.g. -1101"), start
            )
        return Exchange("".join(BLANK if symbol.blank else symbol.face for symbol in symbols))
    return _parse_place(stripped, lead, board)


def _parse_place(text: str, lead: int, board: Board) -> Place:
    sq, direction, length = _parse_coordinate(text)
    symbols = _read_symbols(text[length:], lead + length, allow_notation_marks=True)
    if not symbols:
        raise NotationError(
            "no_new_tile", _("the play names no tiles after its coordinate"), lead + length
        )
    step = int(direction)
    placed: list[PlacedTile] = []
    current = sq
    for number, symbol in enumerate(symbols):
        if number:
            if current == line_bounds(current, step)[1]:
                raise NotationError(
                    "off_board",
                    _(
                        "the play runs off the board after {square} (symbol at position {position})"
                    ).format(square=square_name(current), position=symbol.position + 1),
                    symbol.position,
                )
            current += step
        if _is_on_board(symbol, board, current):
            continue
        placed.append(PlacedTile(current, symbol.face, symbol.blank, symbol.rotated))
    if not placed:
        message = _("the play puts no new tile on the board")
        raise NotationError("no_new_tile", message, lead + length)
    return Place(tuple(placed))


def _is_on_board(symbol: _Symbol, board: Board, sq: int) -> bool:
    """Whether `symbol`, read for `sq`, is a tile already there (written in parentheses, or
    without them but the very same tile), rather than a new tile on an empty square; a
    :class:`NotationError` when it is neither."""
    tile = board.cells[sq]
    shown = ROTATED_SYMBOL if symbol.rotated else symbol.face
    same = tile is not None and tile.face == symbol.face and tile.rotated == symbol.rotated
    if symbol.through:
        if tile is None:
            raise NotationError(
                "not_on_board",
                _(
                    "{square} is empty, but ({face}) at position {position} stands for a tile "
                    "already on the board"
                ).format(square=square_name(sq), face=shown, position=symbol.position + 1),
                symbol.position,
            )
        if not same:
            raise NotationError(
                "mismatch",
                _("{square} holds {tile}, not {face} (position {position})").format(
                    square=square_name(sq),
                    tile=tile.symbol,
                    face=shown,
                    position=symbol.position + 1,
                ),
                symbol.position,
            )
        return True
    if tile is None:
        return False
    # A tile written without parentheses on a square that holds the very same tile is read
    # as played through: people type the whole line as they see it.
    if same and not symbol.blank:
        return True
    raise NotationError(
        "mismatch",
        _(
            "{square} already holds {tile}, not {face} (position {position}); write tiles "
            "already on the board in parentheses"
        ).format(
            square=square_name(sq),
            tile=tile.symbol,
            face=("?" if symbol.blank else "") + shown,
            position=symbol.position + 1,
        ),
        symbol.position,
    )


def play_direction(place: Place, board: Board) -> Direction:
    """The direction of a play's main run.

    Several tiles: the line they share. One tile: across if it joins a tile left or right
    of it, else down. Raises ``ValueError`` when the tiles are not in one line.
    """
    squares = place.squares
    if not squares:
        raise ValueError("a play with no tiles has no direction")
    if len(squares) > 1:
        if all(square_row(sq) == square_row(squares[0]) for sq in squares):
            return ACROSS
        if all(square_column(sq) == square_column(squares[0]) for sq in squares):
            return DOWN
        raise ValueError("the tiles of the play are not in one row or column")
    sq = squares[0]
    if not has_neighbour(board.cells, sq, ACROSS) and has_neighbour(board.cells, sq, DOWN):
        return DOWN
    return ACROSS


def move_notation(move: Move, board: Board) -> str:
    """Write a move in notation, on the board *before* it is played.

    The coordinate is the first square of the play's main run, tiles already on the board
    inside the run are written in parentheses. Raises ``ValueError`` for a play whose tiles
    are not in one unbroken line (such a play has no notation).
    """
    if not isinstance(move, Place):
        return move.notation(board)
    direction = play_direction(move, board)
    new = {tile.square: tile for tile in move.tiles}
    cells = board.cells
    for sq in new:
        if cells[sq] is not None:
            raise ValueError(f"{square_name(sq)} already holds a tile")
    first, last = move.tiles[0].square, move.tiles[-1].square
    step = int(direction)
    start, end = run_bounds(cells, first, first, step, frozenset(new))
    squares = range(start, end + 1, step)
    if last not in squares:
        raise ValueError("the tiles of the play leave a gap: they are not one unbroken line")
    parts = _written_tiles(squares, new, cells)
    start = squares[0]
    row, column = square_row(start), square_column(start)
    coordinate = (
        f"{row + 1}{COLUMN_NAMES[column]}"
        if direction == ACROSS
        else f"{COLUMN_NAMES[column]}{row + 1}"
    )
    return f"{coordinate} {parts}"


def _written_tiles(squares: range, new: dict[int, PlacedTile], cells: Sequence[Tile | None]) -> str:
    """The tiles of a play's main run on `squares` as notation writes them: the `new` ones
    by their symbols, those already on the board (`cells`) in parentheses."""
    parts: list[str] = []
    open_group = False
    for sq in squares:
        tile = new.get(sq)
        if tile is not None:
            if open_group:
                parts.append(")")
                open_group = False
            parts.append(
                (BLANK if tile.blank else "") + (ROTATED_SYMBOL if tile.rotated else tile.face)
            )
        else:
            old = cells[sq]
            assert old is not None
            if not open_group:
                parts.append("(")
                open_group = True
            parts.append(old.symbol)
    if open_group:
        parts.append(")")
    return "".join(parts)


def place_from(tiles: Iterable[tuple[int, str]]) -> Place:
    """A play from ``(square, face)`` pairs, none of them blank or rotated (a shorthand).

    >>> place_from([(112, "1"), (113, "="), (114, "1")]).squares
    (112, 113, 114)
    """
    return Place(tuple(PlacedTile(sq, face) for sq, face in tiles))


#: How each face is written in notation for people: the tile's own face (docs/notation.md).
_PEOPLE_FACES: Final = {"-": "−", "x": "×", "/": "÷", "&": "AND", "|": "OR", "^": "XOR", "~": "NOT"}
#: The words :func:`display_notation` writes for an exchange, a pass and a blank on a rack.
DISPLAY_WORDS: Final = {"exchange": "exchange", "pass": "pass", "blank": "blank"}


def _people_face(face: str, blank: bool, rotated: bool) -> str:
    shown = "11" if rotated else _PEOPLE_FACES.get(face, face)
    return f"[{shown}]" if blank else shown


def display_notation(notation: str, words: dict[str, str] | None = None) -> str:
    """A move in notation as people read it: the tiles' faces, not the input codes.

    Operators show as on the tiles (``×`` ``÷`` ``−`` ``AND`` ``OR`` ``XOR`` ``NOT``), a
    blank as its face in brackets, a rotated ``=`` as the ``11`` it reads, and tiles
    already on the board without parentheses (the line reads as it stands on the board).
    An exchange lists its tiles' faces; ``words`` replaces the words ``exchange``, ``pass``
    and ``blank`` (keys of :data:`DISPLAY_WORDS`) for another language. Any notation
    :func:`parse_move` reads is accepted (aliases, words, spaces); text that is no notation
    raises :class:`NotationError`. No board is needed: the text alone says it all.

    >>> display_notation("8A 10=10+~11")
    '8A 10=10+NOT 11'
    >>> display_notation("H5 (1)0x?1=1(0)")
    'H5 10×[1]=10'
    >>> display_notation("8D 101&?|1=101")
    '8D 101 AND [OR] 1=101'
    >>> display_notation("8D 1#=1?#")
    '8D 111=1[11]'
    >>> display_notation("-01?"), display_notation("pass")
    ('exchange 0 1 blank', 'pass')
    >>> display_notation("-x/", {"exchange": "échange"})
    'échange × ÷'
    """
    named = {**DISPLAY_WORDS, **(words or {})}
    stripped = notation.strip()
    lead = len(notation) - len(notation.lstrip())
    if not stripped:
        raise NotationError("empty", _("no move given: write a play (8D 1+1=10), -TILES or pass"))
    lowered = stripped.lower()
    if lowered in ("pass", "-"):
        return named["pass"]
    if lowered.startswith("exchange") or stripped.startswith("-"):
        skip = len("exchange") if lowered.startswith("exchange") else 1
        symbols = _read_symbols(stripped[skip:], lead + skip, allow_notation_marks=False)
        if not symbols:
            raise NotationError(
                "exchange", _("an exchange names the tiles to give back, e.g. -1101"), lead + skip
            )
        shown = (named["blank"] if s.blank else _people_face(s.face, False, False) for s in symbols)
        return " ".join([named["exchange"], *shown])
    start, direction, length = _parse_coordinate(stripped)
    symbols = _read_symbols(stripped[length:], lead + length, allow_notation_marks=True)
    if not symbols:
        raise NotationError(
            "no_new_tile", _("the play names no tiles after its coordinate"), lead + length
        )
    row, column = square_row(start), square_column(start)
    coordinate = (
        f"{row + 1}{COLUMN_NAMES[column]}"
        if direction == ACROSS
        else f"{COLUMN_NAMES[column]}{row + 1}"
    )
    return f"{coordinate} {_people_text(symbols)}"


def display_equation(codes: str) -> str:
    """Tiles in a line (an equation, a run) as people read them; see :func:`display_notation`.

    >>> display_equation("100|1=101"), display_equation("1=~0"), display_equation("110/10=11")
    ('100 OR 1=101', '1=NOT 0', '110÷10=11')
    """
    return _people_text(_read_symbols(codes, 0, allow_notation_marks=True))


def _people_text(symbols: Iterable[_Symbol]) -> str:
    """Words spaced from their numbers, ``NOT`` against its number, ``=`` unspaced."""
    text = ""
    for symbol in symbols:
        face = _people_face(symbol.face, symbol.blank, symbol.rotated)
        words = not symbol.rotated and symbol.face in "&|^~"
        text += f" {face} " if words else face
    text = re.sub(" +", " ", text)
    text = re.sub(r" ?= ?", "=", text)
    return re.sub(r"([−+×÷]) (\[?NOT)", r"\1\2", text).strip()
