"""Squares, coordinates, premium squares, tiles and the board (docs/rules.md §2, §5).

A square is an ``int``: ``row * 15 + column``, both counted from 0, so ``0`` is A1 (top
left), ``14`` is O1 and ``112`` is H8, the centre. Ints keep the inner loops of the game and
the move generator fast; :func:`square_name` and :func:`parse_square` convert at the edges.

>>> square_name(112)
'H8'
>>> parse_square("d8")
108
>>> premium(parse_square("H8"))
'DW'
>>> board = Board()
>>> board.place(parse_square("H8"), Tile("1"))
>>> board.place(parse_square("I8"), Tile("="))
>>> board.place(parse_square("J8"), Tile("=", rotated=True))
>>> board.run_text(board.run(parse_square("H8"), ACROSS))
'1=11'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final, Literal, NamedTuple

from binscrabble.limits import quoted, shortened
from binscrabble.rules import BLANK, EQUALS, FACES, TILE_POINTS

#: Squares per side.
SIZE: Final = 15
#: Number of squares.
SQUARE_COUNT: Final = SIZE * SIZE
#: Every square, in reading order (A1, B1, ... O15).
SQUARES: Final = range(SQUARE_COUNT)
#: Column letters, A (column 0) to O (column 14).
COLUMN_NAMES: Final = "ABCDEFGHIJKLMNO"
#: The centre square H8, which the first play must cover.
CENTER: Final = 7 * SIZE + 7

Premium = Literal["DL", "TL", "DW", "TW"]


class Direction(IntEnum):
    """A line direction; the value is the step between neighbouring squares."""

    ACROSS = 1
    DOWN = SIZE

    @property
    def other(self) -> Direction:
        """The crossing direction.

        >>> Direction.ACROSS.other
        <Direction.DOWN: 15>
        """
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


ACROSS: Final = Direction.ACROSS
DOWN: Final = Direction.DOWN


class SquareError(ValueError):
    """A text that does not name a square of the board.

    ``kind`` is one of ``empty``, ``column``, ``row``, ``syntax``; the message says what is
    wrong and what a square name looks like.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind

    def __reduce__(self) -> tuple[type[SquareError], tuple[str, str]]:
        # The kind must survive pickling (process pools send errors back).
        return SquareError, (self.kind, str(self))


def square(column: int, row: int) -> int:
    """The square at a 0-based column and row.

    >>> square(7, 7)
    112
    """
    return row * SIZE + column


def square_row(sq: int) -> int:
    """The 0-based row of a square (0 is row 1 of the rules)."""
    return sq // SIZE


def square_column(sq: int) -> int:
    """The 0-based column of a square (0 is column A)."""
    return sq % SIZE


def square_name(sq: int) -> str:
    """The name of a square: column letter then row number.

    >>> square_name(0), square_name(224)
    ('A1', 'O15')
    """
    if not 0 <= sq < SQUARE_COUNT:
        raise ValueError(f"square {sq} is off the board (squares are 0 to {SQUARE_COUNT - 1})")
    return f"{COLUMN_NAMES[sq % SIZE]}{sq // SIZE + 1}"


def parse_square(name: str) -> int:
    """The square named by a column letter (any case) and a row number: ``"h8"`` → 112.

    >>> parse_square("O15")
    224
    >>> parse_square("P1")
    Traceback (most recent call last):
    ...
    binscrabble.board.SquareError: 'P1': column P is off the board (columns are A to O)
    """
    text = name.strip()
    if not text:
        raise SquareError("empty", "a square name is empty: expected a column A-O and a row 1-15")
    letter, digits = text[0], text[1:]
    if not letter.isalpha() or not digits.isdigit() or not digits.isascii():
        raise SquareError(
            "syntax",
            f"{quoted(name)} is not a square name: expected a column letter A-O then a row "
            "number 1-15, such as H8",
        )
    column = COLUMN_NAMES.find(letter.upper())
    if column < 0 or not letter.isascii():
        raise SquareError(
            "column",
            f"{quoted(name)}: column {letter.upper()} is off the board (columns are A to O)",
        )
    # Two digits at most: a longer row is off the board, and is never read as a number.
    row = int(digits) if len(digits) <= 2 else 0
    if not 1 <= row <= SIZE or digits.startswith("0"):
        raise SquareError(
            "row", f"{quoted(name)}: row {shortened(digits)} is off the board (rows are 1 to 15)"
        )
    return (row - 1) * SIZE + column


def _premium_layout() -> tuple[Premium | None, ...]:
    layout: list[Premium | None] = [None] * SQUARE_COUNT
    names: dict[Premium, str] = {
        "TW": "A1 H1 O1 A8 O8 A15 H15 O15",
        "DW": "B2 C3 D4 E5 K5 L4 M3 N2 B14 C13 D12 E11 K11 L12 M13 N14 H8",
        "TL": "F2 J2 B6 F6 J6 N6 B10 F10 J10 N10 F14 J14",
        "DL": "D1 L1 G3 I3 A4 H4 O4 C7 G7 I7 M7 D8 L8 C9 G9 I9 M9 A12 H12 O12 G13 I13 D15 L15",
    }
    for kind, squares in names.items():
        for name in squares.split():
            layout[parse_square(name)] = kind
    return tuple(layout)


#: The premium of every square (docs/rules.md §2), ``None`` for a plain square.
PREMIUMS: Final[tuple[Premium | None, ...]] = _premium_layout()
#: The letter multiplier of every square (2 on DL, 3 on TL, else 1).
LETTER_MULTIPLIERS: Final[tuple[int, ...]] = tuple(
    {"DL": 2, "TL": 3}.get(kind or "", 1) for kind in PREMIUMS
)
#: The word multiplier of every square (2 on DW, 3 on TW, else 1).
WORD_MULTIPLIERS: Final[tuple[int, ...]] = tuple(
    {"DW": 2, "TW": 3}.get(kind or "", 1) for kind in PREMIUMS
)
#: Words for each premium, as a person reads them.
PREMIUM_NAMES: Final = {
    "DL": "double letter",
    "TL": "triple letter",
    "DW": "double word",
    "TW": "triple word",
}


def premium(sq: int) -> Premium | None:
    """The premium of a square: ``"DL"``, ``"TL"``, ``"DW"``, ``"TW"`` or ``None``.

    >>> premium(0), premium(parse_square("D8")), premium(parse_square("B1"))
    ('TW', 'DL', None)
    """
    return PREMIUMS[sq]


def _neighbours(sq: int) -> tuple[int, ...]:
    row, column = divmod(sq, SIZE)
    result = []
    if row > 0:
        result.append(sq - SIZE)
    if column > 0:
        result.append(sq - 1)
    if column < SIZE - 1:
        result.append(sq + 1)
    if row < SIZE - 1:
        result.append(sq + SIZE)
    return tuple(result)


#: The squares beside each square (up, left, right, down; fewer on the edges).
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(_neighbours(sq) for sq in SQUARES)


def line_bounds(sq: int, step: int) -> tuple[int, int]:
    """The first and last square of the row (`step` 1) or column (`step` SIZE) through `sq`.

    >>> [square_name(end) for end in line_bounds(parse_square("H8"), ACROSS)]
    ['A8', 'O8']
    >>> [square_name(end) for end in line_bounds(parse_square("H8"), DOWN)]
    ['H1', 'H15']
    """
    if step == 1:
        low = sq - sq % SIZE
        return low, low + SIZE - 1
    low = sq % SIZE
    return low, low + SIZE * (SIZE - 1)


def run_bounds(
    cells: Sequence[Tile | None],
    first: int,
    last: int,
    step: int,
    pending: frozenset[int] = frozenset(),
) -> tuple[int, int]:
    """The first and last square of the run along `step` that holds `first` to `last`.

    The line from `first` to `last` is stretched over the occupied squares beyond its ends,
    and over the squares in `pending` (tiles about to be placed), so it answers "what run
    would tiles here make?" as well as "what run is this tile in?".

    >>> board = Board.from_rows(["." * 15] * 7 + ["...1+1=10......"] + ["." * 15] * 7)
    >>> g8 = parse_square("G8")
    >>> [square_name(end) for end in run_bounds(board.cells, g8, g8, ACROSS)]
    ['D8', 'I8']
    >>> j8 = parse_square("J8")
    >>> [square_name(end) for end in run_bounds(board.cells, j8, j8, ACROSS, frozenset({j8 + 1}))]
    ['D8', 'K8']
    """
    low, high = line_bounds(first, step)
    while first > low and (cells[first - step] is not None or first - step in pending):
        first -= step
    while last < high and (cells[last + step] is not None or last + step in pending):
        last += step
    return first, last


def has_neighbour(cells: Sequence[Tile | None], sq: int, step: int) -> bool:
    """Whether a tile is next to `sq` along `step` (left or right for 1, above or below for
    SIZE).

    >>> board = Board.from_rows(["." * 15] * 7 + ["...1+1=10......"] + ["." * 15] * 7)
    >>> has_neighbour(board.cells, parse_square("J8"), ACROSS)
    True
    >>> has_neighbour(board.cells, parse_square("J8"), DOWN)
    False
    """
    # Written out rather than through line_bounds: legality and scoring ask this for
    # every new tile.
    if step == 1:
        column = sq % SIZE
        return (column > 0 and cells[sq - 1] is not None) or (
            column < SIZE - 1 and cells[sq + 1] is not None
        )
    return (sq >= SIZE and cells[sq - SIZE] is not None) or (
        sq < SQUARE_COUNT - SIZE and cells[sq + SIZE] is not None
    )


def play_runs(
    cells: Sequence[Tile | None], squares: Sequence[int], step: int
) -> list[tuple[int, int, int, int]]:
    """The runs of two or more squares a play makes, its tiles already on `cells`, as
    ``(first square, last square, step, crossing)``: the main run along `step` first
    (crossing -1), then the crossing run of each new tile that has one (crossing: that
    tile's square). `squares` are the play's squares in order.

    >>> board = Board.from_rows(["." * 15] * 7 + ["...1+1=10......"] + ["." * 15] * 7)
    >>> runs = play_runs(board.cells, [parse_square("D8"), parse_square("I8")], ACROSS)
    >>> [(square_name(first), square_name(last)) for first, last, _, _ in runs]
    [('D8', 'I8')]
    """
    result: list[tuple[int, int, int, int]] = []
    start, end = run_bounds(cells, squares[0], squares[0], step)
    if end > start:
        result.append((start, end, step, -1))
    other = SIZE if step == 1 else 1
    for sq in squares:
        # Most tiles have nothing beside them across the play: look before walking.
        if has_neighbour(cells, sq, other):
            start, end = run_bounds(cells, sq, sq, other)
            result.append((start, end, other, sq))
    return result


def single_tile_step(cells: Sequence[Tile | None], sq: int) -> int:
    """The main direction of a one-tile play on `sq`: across (1) if it has a tile left or
    right of it, else down (SIZE)."""
    return 1 if has_neighbour(cells, sq, 1) else SIZE


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile on the board: its face, whether it is a blank, whether it is turned.

    A *rotated* tile (only an ``=`` or a blank designated ``=``, only under the house rule
    ``rotated_equals``) reads as the two digits ``11`` in both directions, so its
    :attr:`text` is ``"11"``. A blank scores 0 whatever its face.

    >>> Tile("x").points, Tile("x", blank=True).points
    (2, 0)
    >>> Tile("=", rotated=True).text
    '11'
    """

    face: str
    blank: bool = False
    rotated: bool = False
    #: What the tile contributes to the text of a run.
    text: str = field(init=False, repr=False, compare=False)
    #: What the tile scores before multipliers.
    points: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.face not in FACES:
            raise ValueError(f"{self.face!r} is not a tile face (faces: {' '.join(FACES)})")
        if self.rotated and self.face != EQUALS:
            raise ValueError(f"only an = tile can be rotated, not {self.face!r}")
        object.__setattr__(self, "text", "11" if self.rotated else self.face)
        object.__setattr__(self, "points", 0 if self.blank else TILE_POINTS[self.face])

    @property
    def code(self) -> str:
        """The tile's code on a rack: ``?`` for a blank, else its face."""
        return BLANK if self.blank else self.face

    @property
    def symbol(self) -> str:
        """One character for the tile on a board picture: ``#`` for a rotated ``=``."""
        return "#" if self.rotated else self.face


#: Every tile there can be, by ``(face, blank, rotated)``: tiles are immutable, so one of
#: each is shared (hot loops look tiles up here instead of building them).
TILES: Final[dict[tuple[str, bool, bool], Tile]] = {
    (face, blank, rotated): Tile(face, blank, rotated)
    for face in FACES
    for blank in (False, True)
    for rotated in (False, True)
    if face == EQUALS or not rotated
}


def make_tile(face: str, blank: bool = False, rotated: bool = False) -> Tile:
    """The shared :class:`Tile` for these properties; ``ValueError`` for an impossible one.

    >>> make_tile("1") is make_tile("1")
    True
    """
    tile = TILES.get((face, blank, rotated))
    if tile is None:
        return Tile(face, blank, rotated)  # raises the reason
    return tile


class Run(NamedTuple):
    """A maximal line of two or more occupied squares."""

    direction: Direction
    squares: tuple[int, ...]
    text: str

    def __str__(self) -> str:
        return f"{square_name(self.squares[0])}-{square_name(self.squares[-1])} {self.text}"


class Board:
    """The 15×15 board: ``board[square]`` is a :class:`Tile` or ``None``.

    The board is a plain container: it does not check the rules (that is the game's job),
    so positions can be set up freely.

    >>> board = Board.from_rows(["." * 15] * 7 + ["...1+1=10......"] + ["." * 15] * 7)
    >>> [str(run) for run in board.runs()]
    ['D8-I8 1+1=10']
    >>> board.tile_count
    6
    """

    __slots__ = ("cells", "tile_count")

    def __init__(self) -> None:
        #: The tile of every square, ``None`` where empty. Read freely; change it only
        #: through :meth:`place` and :meth:`remove`, which keep :attr:`tile_count` true.
        self.cells: list[Tile | None] = [None] * SQUARE_COUNT
        #: How many tiles are on the board.
        self.tile_count = 0

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def from_rows(
        cls,
        rows: Sequence[str],
        blanks: Iterable[int | str] = (),
        rotated: Iterable[int | str] = (),
    ) -> Board:
        """A board from 15 strings of 15 characters (row 1 first), as in position files.

        ``.`` is an empty square, any other character a tile code; ``blanks`` and
        ``rotated`` name squares (ints or names) whose tile is a blank or a turned ``=``.
        Raises ``ValueError`` naming the row, column or square that is wrong.
        """
        if len(rows) != SIZE:
            raise ValueError(f"a board has {SIZE} rows, not {len(rows)}")
        board = cls()
        for row, line in enumerate(rows):
            if len(line) != SIZE:
                raise ValueError(f"row {row + 1} has {len(line)} characters; every row has {SIZE}")
            for column, code in enumerate(line):
                if code == ".":
                    continue
                if code not in FACES:
                    raise ValueError(
                        f"{COLUMN_NAMES[column]}{row + 1} holds {code!r}, which is not a tile "
                        f"code ({' '.join(FACES)}) or '.'"
                    )
                board.place(row * SIZE + column, make_tile(code))
        board._mark(blanks, rotated)
        return board

    def _mark(self, blanks: Iterable[int | str], rotated: Iterable[int | str]) -> None:
        """Make the tiles on `blanks` blanks and those on `rotated` turned (:meth:`from_rows`)."""
        cells = self.cells
        for name in blanks:
            sq = _as_square(name)
            tile = cells[sq]
            if tile is None:
                raise ValueError(f"blank square {square_name(sq)} holds no tile")
            cells[sq] = make_tile(tile.face, True, tile.rotated)
        for name in rotated:
            sq = _as_square(name)
            tile = cells[sq]
            if tile is None or tile.face != EQUALS:
                raise ValueError(f"rotated square {square_name(sq)} must hold an = tile")
            cells[sq] = make_tile(tile.face, tile.blank, True)

    def copy(self) -> Board:
        """An independent copy (tiles are immutable and shared)."""
        other = Board.__new__(Board)
        other.cells = self.cells[:]
        other.tile_count = self.tile_count
        return other

    # -- access ---------------------------------------------------------------------------

    def __getitem__(self, sq: int) -> Tile | None:
        return self.cells[sq]

    def __iter__(self) -> Iterator[tuple[int, Tile]]:
        """The occupied squares with their tiles, in reading order."""
        return ((sq, tile) for sq, tile in enumerate(self.cells) if tile is not None)

    def __len__(self) -> int:
        return self.tile_count

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.cells == other.cells

    __hash__ = None  # type: ignore[assignment]  # a mutable container

    def is_empty(self) -> bool:
        """Whether no tile is on the board (the next play is the first play)."""
        return self.tile_count == 0

    def place(self, sq: int, tile: Tile) -> None:
        """Put a tile on an empty square (``ValueError`` if the square is taken)."""
        if self.cells[sq] is not None:
            raise ValueError(f"{square_name(sq)} already holds a tile")
        self.cells[sq] = tile
        self.tile_count += 1

    def remove(self, sq: int) -> Tile:
        """Take the tile off a square and return it (``ValueError`` if it is empty)."""
        tile = self.cells[sq]
        if tile is None:
            raise ValueError(f"{square_name(sq)} holds no tile")
        self.cells[sq] = None
        self.tile_count -= 1
        return tile

    # -- runs -----------------------------------------------------------------------------

    def run(self, sq: int, direction: Direction) -> tuple[int, ...]:
        """The squares of the unbroken line through ``sq`` in ``direction``.

        ``sq`` itself counts as occupied even when it is empty, so this also answers "what
        line would a tile here join?". The result has one square when nothing is beside it.
        """
        step = int(direction)
        start, end = run_bounds(self.cells, sq, sq, step)
        return tuple(range(start, end + 1, step))

    def run_text(self, squares: Iterable[int]) -> str:
        """The text of occupied squares, tile texts joined (a rotated tile gives ``11``)."""
        cells = self.cells
        parts = []
        for sq in squares:
            tile = cells[sq]
            if tile is None:
                raise ValueError(f"{square_name(sq)} holds no tile")
            parts.append(tile.text)
        return "".join(parts)

    def runs(self) -> list[Run]:
        """Every run on the board: across runs in reading order, then down runs."""
        result = []
        for direction in (ACROSS, DOWN):
            for line in range(SIZE):
                if direction == ACROSS:
                    line_squares = range(line * SIZE, line * SIZE + SIZE)
                else:
                    line_squares = range(line, SQUARE_COUNT, SIZE)
                current: list[int] = []
                for sq in [*line_squares, -1]:
                    if sq >= 0 and self.cells[sq] is not None:
                        current.append(sq)
                        continue
                    if len(current) >= 2:
                        result.append(Run(direction, tuple(current), self.run_text(current)))
                    current = []
        return result

    # -- pictures -------------------------------------------------------------------------

    def rows(self) -> list[str]:
        """The board as 15 strings of 15 codes, ``.`` for empty (the position file form)."""
        text = "".join(["." if tile is None else tile.face for tile in self.cells])
        return [text[start : start + SIZE] for start in range(0, SQUARE_COUNT, SIZE)]

    def blank_squares(self) -> list[int]:
        """The squares holding a blank."""
        return [sq for sq, tile in self if tile.blank]

    def rotated_squares(self) -> list[int]:
        """The squares holding a rotated ``=``."""
        return [sq for sq, tile in self if tile.rotated]

    def ascii(self, premiums: bool = True) -> str:
        """A text picture with coordinates. Tiles show their code (``#`` for a rotated ``=``);
        a ``?`` just before a tile marks a blank; empty premium squares show ``d t D T``
        (DL, TL, DW, TW) when ``premiums`` is true, plain empty squares ``.``.

        >>> print(Board().ascii().splitlines()[8])
         8 T . . d . . . D . . . d . . T
        """
        marks = {"DL": "d", "TL": "t", "DW": "D", "TW": "T"}
        lines = ["   " + " ".join(COLUMN_NAMES)]
        for row in range(SIZE):
            line = f"{row + 1:>2}"
            for column in range(SIZE):
                sq = row * SIZE + column
                tile = self.cells[sq]
                if tile is None:
                    kind = PREMIUMS[sq]
                    line += " " + (marks[kind] if premiums and kind else ".")
                else:
                    line += ("?" if tile.blank else " ") + tile.symbol
            lines.append(line)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.ascii()

    def __repr__(self) -> str:
        return f"Board.from_rows({self.rows()!r}, blanks={self.blank_squares()!r}, " + (
            f"rotated={self.rotated_squares()!r})"
        )


def _as_square(value: int | str) -> int:
    if isinstance(value, str):
        return parse_square(value)
    if not 0 <= value < SQUARE_COUNT:
        raise ValueError(f"square {value} is off the board")
    return value
