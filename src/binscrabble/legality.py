"""The legality of a move, as the named rules of docs/rules.md §3-§6.

Each rule is a function that reads a :class:`Play` (the tiles, the board, the house rules,
the rack) and returns the :class:`IllegalMoveError` that says how the play breaks it, or
``None``. :data:`PLAY_RULES` lists them in the order they are applied: first what the tiles
are and where they go, then what the rack holds, then the geometry of docs/rules.md §4,
then the runs the play makes (§5, §6). The first rule broken is the reason given.

>>> from binscrabble.board import Board
>>> from binscrabble.move import parse_move
>>> from binscrabble.rules import Rules
>>> board = Board()
>>> play = Play(parse_move("8A 1+1=10", board).tiles, board, Rules(), rack=list("11+=01"))
>>> print(play_problem(play))
the first play must cover the centre square H8; this one is on A8-F8
>>> first_play_on_the_star(play).kind
'first_play_center'
>>> play_problem(Play(parse_move("8D 1+1=10", board).tiles, board, Rules(), rack=None)) is None
True

``rack=None`` judges a play without a rack (the tiles come from somewhere the program does
not see): every rule applies but :func:`tiles_on_the_rack`, which then finds nothing to
check. :data:`PLAY_RULES` can also be given without it to :func:`play_problem`.

The rule book lists "touching" before "one new ``=``"; the referee checks the ``=`` first
because it needs only the tiles, while touching needs the runs the tiles make on the board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Final, NamedTuple

from binscrabble.board import (
    CENTER,
    SIZE,
    SQUARE_COUNT,
    TILES,
    Board,
    play_runs,
    single_tile_step,
    square_column,
    square_name,
    square_row,
)
from binscrabble.expr import EquationError, equation_value, number_value
from binscrabble.expr.sentences import say
from binscrabble.i18n import N_, _, ngettext, pgettext
from binscrabble.move import CODE_ORDER, PlacedTile, display_equation
from binscrabble.rules import BLANK, EQUALS, Rules, faces_in_game, rule_words

#: Every ``IllegalMoveError.kind``, in the order the checks are made.
ILLEGAL_MOVE_KINDS: Final = (
    "game_over",
    "not_your_turn",
    "empty_play",
    "off_board",
    "duplicate_square",
    "unknown_face",
    "rotated_not_allowed",
    "rotated_face",
    "square_taken",
    "not_on_rack",
    "not_in_line",
    "gap",
    "first_play_center",
    "first_play_short",
    "not_touching",
    "two_equals",
    "short_run",
    "not_number",
    "not_equation",
    "empty_exchange",
    "bag_too_small",
    "not_a_move",
    "abort_too_late",
)


class IllegalMoveError(ValueError):
    """A move the rules do not allow here.

    ``kind`` is one of :data:`ILLEGAL_MOVE_KINDS`; ``squares`` names the squares at fault
    (for a run: the run's squares); ``cause`` is the :class:`~binscrabble.expr.EquationError`
    when a run is not an equation (its reason is also in the message).
    """

    def __init__(
        self,
        kind: str,
        message: str,
        squares: Sequence[int] = (),
        cause: EquationError | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.squares = tuple(squares)
        self.cause = cause

    def __reduce__(self) -> tuple[type[IllegalMoveError], tuple[object, ...]]:
        # The extra fields must survive pickling (process pools send errors back).
        return IllegalMoveError, (self.kind, str(self), self.squares, self.cause)

    def __repr__(self) -> str:
        return f"IllegalMoveError({self.kind!r}, {str(self)!r})"


class PlayRun(NamedTuple):
    """A run a play makes (docs/rules.md §5), read with the play's tiles on the board."""

    #: The run's squares, in reading order.
    squares: range
    #: What the run reads.
    text: str
    #: Whether it is the play's main run (else a cross run).
    main: bool
    #: Whether it is judged as a number (a digits-only cross run under ``parallel_numbers``).
    number: bool

    @property
    def name(self) -> str:
        """The run's first and last squares, ``D8-I8``."""
        return f"{square_name(self.squares[0])}-{square_name(self.squares[-1])}"


class Play:
    """A play to judge: its tiles (sorted by square, as :class:`~binscrabble.move.Place`
    keeps them), the board before it, the house rules and the rack it comes from (``None``:
    not known, not checked). What the rules need of it is computed once, on first use."""

    __slots__ = ("_runs", "board", "faces", "first", "rack", "rules", "squares", "tiles")

    def __init__(
        self,
        tiles: tuple[PlacedTile, ...],
        board: Board,
        rules: Rules,
        *,
        rack: Sequence[str] | None,
        faces: frozenset[str] | None = None,
    ) -> None:
        self.tiles = tiles
        self.board = board
        self.rules = rules
        self.rack = rack
        self.faces = faces if faces is not None else frozenset(faces_in_game(rules))
        #: The squares of the tiles, in order (on the board once :func:`on_the_board` holds).
        self.squares = [tile.square for tile in tiles]
        #: Whether this is the first play of the game (the board is empty).
        self.first = board.tile_count == 0
        self._runs: list[PlayRun] | None = None

    @property
    def step(self) -> int:
        """1 for a play in one row, ``SIZE`` for one in one column (once :func:`in_one_line`
        holds; a single tile counts as a row here)."""
        tiles = self.tiles
        return 1 if square_row(tiles[0].square) == square_row(tiles[-1].square) else SIZE

    @property
    def runs(self) -> list[PlayRun]:
        """Every run of two tiles or more the play makes: the main run first, then the cross
        runs in the order of the tiles. The tiles are laid on the board to read them and
        taken off again."""
        if self._runs is None:
            self._runs = _read_runs(self)
        return self._runs


_new_run: Final = tuple.__new__


def _read_runs(play: Play) -> list[PlayRun]:
    cells = play.board.cells
    squares = play.squares
    for tile in play.tiles:
        cells[tile.square] = TILES[tile.face, tile.blank, tile.rotated]
    try:
        single = len(squares) == 1
        step = single_tile_step(cells, squares[0]) if single else play.step
        parallel = play.rules.parallel_numbers
        runs = []
        for start, end, run_step, crossing in play_runs(cells, squares, step):
            main = crossing < 0
            span = range(start, end + 1, run_step)
            text = "".join([cells[sq].text for sq in span])  # type: ignore[union-attr]
            # A digits-only run beside the play is a number under parallel_numbers: it
            # scores nothing and does not count as touching. The main run of several tiles
            # never is.
            number = parallel and (not main or single) and not text.strip("01")
            # (tuple.__new__ directly: a NamedTuple's own __new__ is a Python function.)
            runs.append(_new_run(PlayRun, (span, text, main, number)))
        return runs
    finally:
        for sq in squares:
            cells[sq] = None


#: A rule: the error that says how a play breaks it, or ``None``.
Rule = Callable[[Play], IllegalMoveError | None]


# -- the tiles ------------------------------------------------------------------------------


def tiles_to_play(play: Play) -> IllegalMoveError | None:
    """A play puts at least one tile on the board."""
    if not play.tiles:
        return IllegalMoveError("empty_play", _("a play puts at least one tile on the board"))
    return None


def on_the_board(play: Play) -> IllegalMoveError | None:
    """Every tile goes on a square of the board."""
    for tile in play.tiles:
        sq = tile.square
        if type(sq) is not int or not 0 <= sq < SQUARE_COUNT:
            return IllegalMoveError(
                "off_board",
                _("square {square} is off the board (squares are 0 to 224)").format(
                    square=repr(sq)
                ),
            )
    return None


def one_tile_a_square(play: Play) -> IllegalMoveError | None:
    """No two tiles of a play go on the same square."""
    squares = play.squares
    if len(set(squares)) == len(squares):
        return None
    twice = sorted({sq for sq in squares if squares.count(sq) > 1})
    return IllegalMoveError(
        "duplicate_square",
        _("the play puts two tiles on {squares}").format(
            squares=", ".join(square_name(sq) for sq in twice)
        ),
        twice,
    )


def faces_of_the_game(play: Play) -> IllegalMoveError | None:
    """Every tile shows a face of this game (docs/rules.md §1), and only an ``=`` is laid
    turned, under ``rotated_equals`` (§10); each tile is judged in turn."""
    for tile in play.tiles:
        problem = _face_problem(play, tile)
        if problem is not None:
            return problem
    return None


def face_shown(code: str) -> str:
    """A tile's face as a person reads it on the tile (``×``, ``AND``; ``blank``).

    >>> face_shown("x"), face_shown("&"), face_shown("?"), face_shown("1")
    ('×', 'AND', 'blank', '1')
    """
    return _("blank") if code == BLANK else display_equation(code)


def _face_problem(play: Play, tile: PlacedTile) -> IllegalMoveError | None:
    if tile.face in play.faces and not tile.rotated:
        return None  # (nearly every tile)
    where = square_name(tile.square)
    if tile.face not in play.faces:
        return IllegalMoveError(
            "unknown_face",
            _("{face} on {square} is not a face in this game (faces: {faces})").format(
                face=repr(tile.face),
                square=where,
                faces=" ".join(face_shown(f) for f in sorted(play.faces, key=CODE_ORDER.index)),
            ),
            (tile.square,),
        )
    if not play.rules.rotated_equals:
        return IllegalMoveError(
            "rotated_not_allowed",
            _("the tile on {square} is rotated, but {rule} is off").format(
                square=where, rule=rule_words("rotated_equals")
            ),
            (tile.square,),
        )
    if tile.face != EQUALS:
        return IllegalMoveError(
            "rotated_face",
            _(
                "only an = tile (or a blank designated =) can be rotated, not {face} on {square}"
            ).format(face=face_shown(tile.face), square=where),
            (tile.square,),
        )
    return None


def empty_squares(play: Play) -> IllegalMoveError | None:
    """Every tile goes on an empty square (docs/rules.md §4)."""
    cells = play.board.cells
    taken = [sq for sq in play.squares if cells[sq] is not None]
    if not taken:
        return None
    return IllegalMoveError(
        "square_taken",
        ngettext(
            "{squares} already holds a tile", "{squares} already hold tiles", len(taken)
        ).format(squares=", ".join(square_name(sq) for sq in taken)),
        taken,
    )


def tiles_on_the_rack(play: Play) -> IllegalMoveError | None:
    """The tiles come from the player's rack (docs/rules.md §3); not checked without one."""
    if play.rack is None:
        return None
    return rack_problem(play.rack, [tile.code for tile in play.tiles], play.squares)


def rack_problem(
    rack: Sequence[str], codes: list[str], squares: Sequence[int]
) -> IllegalMoveError | None:
    """Whether `rack` holds the tiles `codes` (a play's, on `squares`, or an exchange's)."""
    left = list(rack)
    missing = []
    for code in codes:
        try:
            left.remove(code)
        except ValueError:
            missing.append(code)
    if not missing:
        return None
    shortfalls = []
    for code in dict.fromkeys(missing):
        name = face_shown(code)
        shortfalls.append(
            ngettext(
                "{face}: {count} tile needed, {held} on the rack",
                "{face}: {count} tiles needed, {held} on the rack",
                codes.count(code),
            ).format(count=codes.count(code), face=name, held=rack.count(code))
        )
    # In the order the rack is shown to the player, not the order it was drawn in.
    rack_text = " ".join(face_shown(code) for code in sorted_codes(rack)) or _("(empty)")
    message = _("the rack ({rack}) does not hold these tiles: {missing}").format(
        rack=rack_text, missing=pgettext("between the items of a list", "; ").join(shortfalls)
    )
    spare_blanks = rack.count(BLANK) - codes.count(BLANK)
    faces = [code for code in missing if code != BLANK]
    if squares and faces and spare_blanks >= len(faces):
        # The fix is one keystroke away: say it.
        message += _(
            "; a blank on the rack can stand in: write ?{code} for a blank played as {face}"
        ).format(code=faces[0], face=face_shown(faces[0]))
    return IllegalMoveError("not_on_rack", message, squares)


# -- where the tiles go (docs/rules.md §4) ------------------------------------------------


def in_one_line(play: Play) -> IllegalMoveError | None:
    """All the tiles of a play are in one row or in one column."""
    squares = play.squares
    if square_row(squares[0]) == square_row(squares[-1]):
        return None
    if len({square_column(sq) for sq in squares}) == 1:
        return None
    return IllegalMoveError(
        "not_in_line",
        _("the tiles of a play must be in one row or one column, not on {squares}").format(
            squares=squares_text(squares)
        ),
        squares,
    )


def unbroken_line(play: Play) -> IllegalMoveError | None:
    """The new tiles, with the tiles already between them, make one unbroken line."""
    squares = play.squares
    first, last, step = squares[0], squares[-1], play.step
    if (last - first) // step + 1 == len(squares):
        return None
    cells = play.board.cells
    present = set(squares)
    gaps = [sq for sq in range(first, last + 1, step) if cells[sq] is None and sq not in present]
    if not gaps:
        return None
    return IllegalMoveError(
        "gap",
        _("the play leaves a gap at {squares}").format(
            squares=", ".join(square_name(sq) for sq in gaps)
        ),
        gaps,
    )


def first_play_on_the_star(play: Play) -> IllegalMoveError | None:
    """The first play of the game covers H8 and uses at least 3 tiles."""
    if not play.first:
        return None
    squares = play.squares
    if CENTER not in squares:
        return IllegalMoveError(
            "first_play_center",
            _("the first play must cover the centre square H8; this one is on {squares}").format(
                squares=squares_text(squares)
            ),
            squares,
        )
    if len(squares) < 3:
        return IllegalMoveError(
            "first_play_short",
            _("the first play needs at least 3 tiles (the shortest equation is 1=1)"),
            squares,
        )
    return None


def one_new_equals(play: Play) -> IllegalMoveError | None:
    """A play puts at most one new ``=`` on the board, a blank given the face ``=``
    included (a rotated ``=`` is not an ``=``)."""
    count = 0
    for tile in play.tiles:
        count += tile.face == EQUALS and not tile.rotated
    if count <= 1:
        return None
    equals = [tile.square for tile in play.tiles if tile.face == EQUALS and not tile.rotated]
    return IllegalMoveError(
        "two_equals",
        _(
            "a play may add only one new = (a blank designated = counts); this one adds "
            "{count}, on {squares}"
        ).format(count=len(equals), squares=", ".join(square_name(sq) for sq in equals)),
        equals,
    )


def touching(play: Play) -> IllegalMoveError | None:
    """Every play but the first touches a tile already on the board, through its main run
    (longer than its new tiles) or a cross run; under ``parallel_numbers`` a run that is a
    number does not count."""
    if play.first:
        return None
    runs = play.runs
    count = len(play.tiles)
    for run in runs:
        if not run.number and (not run.main or count == 1 or len(run.squares) > count):
            return None
    squares = play.squares
    if any(run.number for run in runs):
        message = _(
            "the play on {squares} must touch a tile already on the board through its own "
            "line or a run beside it that is an equation (runs of digits only do not count "
            "under {rule})"
        )
    else:
        message = _("the play on {squares} must touch a tile already on the board")
    message = message.format(squares=squares_text(squares), rule=rule_words("parallel_numbers"))
    return IllegalMoveError("not_touching", message, squares)


# -- the runs (docs/rules.md §5, §6) -------------------------------------------------------


def makes_a_run(play: Play) -> IllegalMoveError | None:
    """A play makes at least one run (only a lone first tile could make none)."""
    if play.runs:
        return None
    return IllegalMoveError("short_run", _("a single tile makes no equation"), play.squares)


def every_run_true(play: Play) -> IllegalMoveError | None:
    """Every run the play makes or extends is a true equation (docs/rules.md §5, §6); under
    ``parallel_numbers`` a digits-only cross run is a valid number instead (§10)."""
    for run in play.runs:
        problem = _run_problem(run, play.rules)
        if problem is not None:
            return problem
    return None


#: How a run is judged, what its fault is called and what it is not: as a number beside
#: the play (parallel_numbers), else as an equation.
_AS_NUMBER: Final = (
    number_value,
    "not_number",
    N_("the run {name} {run} is not a number: {problem}"),
)
_AS_EQUATION: Final = (
    equation_value,
    "not_equation",
    N_("the run {name} {run} is not an equation: {problem}"),
)


def _run_problem(run: PlayRun, rules: Rules) -> IllegalMoveError | None:
    if not run.number and len(run.squares) == 2:
        return IllegalMoveError(
            "short_run",
            _("the run {name} {run} has only two tiles, and no two tiles make an equation").format(
                name=run.name, run=display_equation(run.text)
            ),
            run.squares,
        )
    judge, kind, sentence = _AS_NUMBER if run.number else _AS_EQUATION
    try:
        judge(run.text, rules)
    except EquationError as error:
        return IllegalMoveError(
            kind,
            _(sentence).format(
                name=run.name, run=display_equation(run.text), problem=say(str(error))
            ),
            run.squares,
            error,
        )
    return None


#: The rules of a play, in the order they are applied.
PLAY_RULES: Final[tuple[Rule, ...]] = (
    tiles_to_play,
    on_the_board,
    one_tile_a_square,
    faces_of_the_game,
    empty_squares,
    tiles_on_the_rack,
    in_one_line,
    unbroken_line,
    first_play_on_the_star,
    one_new_equals,
    touching,
    makes_a_run,
    every_run_true,
)


def play_problem(play: Play, rules: Sequence[Rule] = PLAY_RULES) -> IllegalMoveError | None:
    """The first of `rules` the play breaks, or ``None`` when it keeps them all."""
    for rule in rules:
        problem = rule(play)
        if problem is not None:
            return problem
    return None


# -- for messages ---------------------------------------------------------------------------


def sorted_codes(codes: Sequence[str]) -> str:
    """Tile codes in the order a rack is shown (:data:`~binscrabble.move.CODE_ORDER`)."""
    return "".join(sorted(codes, key=CODE_ORDER.index))


def squares_text(squares: Sequence[int]) -> str:
    """Squares for a message: ``H8``, ``H8-J8`` for a line, else a list."""
    if len(squares) == 1:
        return square_name(squares[0])
    step = squares[1] - squares[0]
    in_one_row = square_row(squares[0]) == square_row(squares[-1])
    if (step == SIZE or (step == 1 and in_one_row)) and all(
        later - earlier == step for earlier, later in pairwise(squares)
    ):
        return f"{square_name(squares[0])}-{square_name(squares[-1])}"
    return ", ".join(square_name(sq) for sq in squares)
