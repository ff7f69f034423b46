"""Position files (INTERFACES.md §2): one moment of a game, as JSON.

A position file holds the board, the blanks and rotated tiles on it, the rack of the player
to move and, optionally, the rules and a few extras (players, scores, who is to move, the
unseen tiles). :func:`load_position` turns a file, or the mapping read from one, into a
:class:`~binscrabble.game.Game` ready for that player to move; :func:`save_position` does
the reverse. Every mistake in a file raises :class:`PositionError`, which names the field.

>>> empty = ["." * 15] * 15
>>> game = load_position({"board": empty, "rack": "1 + 1 = 10 AND ?"})
>>> game.is_first_play(), game.rack(), game.players
(True, '1+1=10&?', ('Player 1', 'Player 2'))
>>> load_position({"board": empty[:14], "rack": "1"})
Traceback (most recent call last):
...
binscrabble.position.PositionError: board: the board has 14 rows; it needs 15 (row 1 first)
>>> save_position(game)["rules"]
{'preset': 'standard'}
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from binscrabble.board import (
    CENTER,
    NEIGHBOURS,
    SIZE,
    Board,
    SquareError,
    make_tile,
    parse_square,
    square_name,
)
from binscrabble.expr import EquationError, equation_value, normalize, number_value
from binscrabble.game import Game, SetupError
from binscrabble.i18n import N_, _
from binscrabble.limits import (
    InputLimitError,
    check_structure,
    control_character,
    name_problem,
    quoted,
    read_limited,
)
from binscrabble.record import write_text_atomically
from binscrabble.rules import (
    BLANK,
    EQUALS,
    FACES,
    SYMBOL_ALIASES,
    Rules,
    RulesError,
    faces_in_game,
    tile_counts,
)

#: The character of an empty square in a position file's `board`.
EMPTY: Final = "."
#: Every key a position file may hold; anything else is a mistake worth naming.
KNOWN_KEYS: Final = (
    "rules",
    "board",
    "blanks",
    "rotated",
    "rack",
    "players",
    "scores",
    "to_move",
    "unseen",
    "comment",
)
#: The longest text of tiles read (a rack, or the unseen tiles: at most 120 tiles, spaced,
#: some written as words).
MAX_TILES_TEXT: Final = 1000
_POSITION_SUFFIX: Final = re.compile(r" at position \d+")
#: What the JSON decoder's reports mean, by how each starts (its own text is English).
JSON_REASONS: Final = (
    ("Expecting value", N_("a value is expected")),
    ("Expecting property name", N_("a key in double quotes is expected")),
    ("Expecting ':'", N_("a ':' is expected after the key")),
    ("Expecting ','", N_("a ',' is expected between two items")),
    ("Unterminated string", N_("a string is never closed")),
    ("Invalid control character", N_("a string holds a control character")),
    ("Invalid \\uXXXX", N_("a \\u escape needs four hexadecimal digits")),
    ("Invalid \\escape", N_("a backslash starts no escape that JSON knows")),
    ("Extra data", N_("more follows the end of the JSON value")),
    ("Illegal trailing comma", N_("a comma comes before a closing bracket")),
)


class PositionError(ValueError):
    """A position file that cannot be read; ``.field`` names the key at fault.

    >>> error = PositionError("rack", "the rack holds 10 tiles; racks hold at most 9")
    >>> error.field, str(error)
    ('rack', 'rack: the rack holds 10 tiles; racks hold at most 9')
    """

    def __init__(self, field: str, reason: str) -> None:
        # An unknown key is its own field: shown cut short, it cannot flood the message.
        shown = field if len(field) <= 40 else field[:39] + "…"
        super().__init__(f"{shown}: {reason}")
        self.field = field
        self.reason = reason


# -- loading ---------------------------------------------------------------------------------


def read_position_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The JSON object in a position file; :class:`PositionError` (field ``file``) when the
    file cannot be read or is not a JSON object."""
    try:
        text = read_limited(path).decode("utf-8")
    except FileNotFoundError:
        raise PositionError("file", _("no such file: {path}").format(path=path)) from None
    except OSError as error:
        raise PositionError(
            "file",
            _("cannot read {path}: {problem}").format(path=path, problem=error.strerror or error),
        ) from None
    except UnicodeDecodeError:
        raise PositionError(
            "file", _("{path} is not a UTF-8 text file").format(path=path)
        ) from None
    except InputLimitError as error:
        raise PositionError(
            "file", _("{path} is not a position file: {error}").format(path=path, error=error)
        ) from None
    # Some editors (Windows Notepad) start a UTF-8 file with a byte order mark.
    text = text.removeprefix("\ufeff")
    try:
        check_structure(text, "json")
        data = json.loads(text)
    except InputLimitError as error:
        raise PositionError(
            "file", _("{path} is not a position file: {error}").format(path=path, error=error)
        ) from None
    except RecursionError:
        # Nesting hidden from check_structure by a malformed string.
        raise PositionError(
            "file", _("{path} nests too deeply to be a position file").format(path=path)
        ) from None
    except json.JSONDecodeError as error:
        raise PositionError(
            "file",
            _("{path} is not valid JSON: {msg} (line {lineno}, column {colno})").format(
                path=path, msg=json_reason(error.msg), lineno=error.lineno, colno=error.colno
            ),
        ) from None
    if not isinstance(data, dict):
        raise PositionError(
            "file",
            _("{path} must hold a JSON object {{...}}, not {kind}").format(
                path=path, kind=_kind(data)
            ),
        )
    return data


def load_position(source: str | os.PathLike[str] | Mapping[str, Any]) -> Game:
    """A game at the position of a file (a path) or of the mapping read from one.

    The player to move holds ``rack``; the other racks are dealt from the unseen tiles
    (``unseen`` when given, else the tile set minus the board and the rack). Raises
    :class:`PositionError` naming the field at fault.
    """
    data = source if isinstance(source, Mapping) else read_position_file(source)
    for key in data:
        if key not in KNOWN_KEYS:
            raise PositionError(
                str(key),
                _("unknown key {key}: a position has {keys}").format(
                    key=quoted(key), keys=", ".join(KNOWN_KEYS)
                ),
            )
    rules = _read_rules(data.get("rules"))
    board = _read_board(data.get("board"), rules)
    _read_blanks(data.get("blanks", []), board)
    _read_rotated(data.get("rotated", []), board, rules)
    _check_board(board, rules)
    if "rack" not in data:
        raise PositionError(
            "rack", _("missing: give the tiles of the player to move, e.g. '1101=+x0?'")
        )
    rack = _read_tiles(data["rack"], "rack", rules)
    if len(rack) > rules.rack_size:
        raise PositionError(
            "rack",
            _("the rack holds {count} tiles; racks hold at most {rack_size}").format(
                count=len(rack), rack_size=rules.rack_size
            ),
        )
    unseen = _read_tiles(data["unseen"], "unseen", rules) if "unseen" in data else None
    _check_tile_counts(board, rack, unseen, rules)
    players = _read_players(data.get("players"), data.get("scores"))
    scores = _read_scores(data.get("scores"), len(players))
    to_move = _read_to_move(data.get("to_move", 0), players)
    _read_comment(data.get("comment", ""))
    racks: list[str | None] = [None] * len(players)
    racks[to_move] = rack
    try:
        return Game.from_setup(
            rules, board, racks, players=players, scores=scores, to_move=to_move, unseen=unseen
        )
    except SetupError as error:
        raise PositionError("position", str(error)) from None


def json_reason(report: str) -> str:
    """What the JSON decoder's ``report`` means, in the current language (its own words when
    it is none of :data:`JSON_REASONS`).

    >>> json_reason("Expecting ',' delimiter")
    "a ',' is expected between two items"
    """
    for start, reason in JSON_REASONS:
        if report.startswith(start):
            return _(reason)
    return report


def _kind(value: object) -> str:
    """What a JSON value is, in words (``null`` and ``true/false`` as JSON writes them)."""
    if value is None:
        return "null"
    kinds = {
        bool: "true/false",
        int: _("a number"),
        float: _("a number"),
        str: _("a text"),
        list: _("a list"),
        dict: _("an object"),
    }
    return kinds.get(type(value), type(value).__name__)


def _read_rules(value: object) -> Rules:
    if value is None:
        return Rules()
    if not isinstance(value, Mapping):
        raise PositionError(
            "rules",
            _('must be an object such as {{"preset": "expert"}}, not {kind}').format(
                kind=_kind(value)
            ),
        )
    try:
        return Rules.from_mapping(value)
    except RulesError as error:
        raise PositionError("rules", str(error)) from None


def _board_code(char: str) -> str:
    return SYMBOL_ALIASES.get(char, char)


def _read_board(value: object, rules: Rules) -> Board:
    if value is None:
        raise PositionError("board", _("missing: give 15 strings of 15 characters, '.' for empty"))
    if not isinstance(value, list) or not all(isinstance(row, str) for row in value):
        raise PositionError(
            "board", _("must be a list of 15 texts, not {kind}").format(kind=_kind(value))
        )
    if len(value) != SIZE:
        raise PositionError(
            "board",
            _("the board has {count} rows; it needs {size} (row 1 first)").format(
                count=len(value), size=SIZE
            ),
        )
    faces = faces_in_game(rules)
    rows = []
    for row_index, row in enumerate(value):
        if len(row) != SIZE:
            raise PositionError(
                "board",
                _("row {row} has {count} characters; every row has {size}").format(
                    row=row_index + 1, count=len(row), size=SIZE
                ),
            )
        codes = [
            _board_square_code(char, square_name(row_index * SIZE + column), faces)
            for column, char in enumerate(row)
        ]
        rows.append("".join(codes))
    return Board.from_rows(rows)


def _board_square_code(char: str, where: str, faces: Sequence[str]) -> str:
    """The code of a square of a position's board, written `char`, on square `where`."""
    code = EMPTY if char == EMPTY else _board_code(char)
    if code == BLANK:
        raise PositionError(
            "board",
            _(
                "{where} holds '?': write the face a blank shows, and list the square in blanks"
            ).format(where=where),
        )
    if code != EMPTY and code not in FACES:
        raise PositionError(
            "board",
            _("{where} holds {char}, which is not a tile code ({codes}) or '.'").format(
                where=where, char=repr(char), codes=" ".join(FACES)
            ),
        )
    if code != EMPTY and code not in faces:
        raise PositionError(
            "board", _("{where} holds an XOR tile, but the rule xor_tiles is 0").format(where=where)
        )
    return code


def _read_squares(value: object, field: str, board: Board) -> list[int]:
    if not isinstance(value, list):
        raise PositionError(
            field,
            _('must be a list of square names such as "H8", not {kind}').format(kind=_kind(value)),
        )
    squares = []
    for item in value:
        if not isinstance(item, str):
            raise PositionError(
                field, _('{item} is not a square name such as "H8"').format(item=quoted(item))
            )
        try:
            sq = parse_square(item)
        except SquareError as error:
            raise PositionError(field, str(error)) from None
        if sq in squares:
            raise PositionError(field, _("{square} is listed twice").format(square=square_name(sq)))
        if board[sq] is None:
            raise PositionError(
                field, _("{square} is an empty square on the board").format(square=square_name(sq))
            )
        squares.append(sq)
    return squares


def _read_blanks(value: object, board: Board) -> None:
    for sq in _read_squares(value, "blanks", board):
        tile = board.remove(sq)
        board.place(sq, make_tile(tile.face, True, tile.rotated))


def _read_rotated(value: object, board: Board, rules: Rules) -> None:
    squares = _read_squares(value, "rotated", board)
    if squares and not rules.rotated_equals:
        raise PositionError(
            "rotated", _('rotated tiles need the rule rotated_equals ("rotated_equals": true)')
        )
    for sq in squares:
        tile = board.remove(sq)
        if tile.face != EQUALS:
            raise PositionError(
                "rotated",
                _("{square} holds {face}; only an = can be rotated").format(
                    square=square_name(sq), face=repr(tile.face)
                ),
            )
        board.place(sq, make_tile(tile.face, tile.blank, True))


def _check_board(board: Board, rules: Rules) -> None:
    """Every run is an equation (or a number, under parallel_numbers), H8 is covered and
    the tiles hang together, as in any position a game can reach."""
    if board.is_empty():
        return
    if board[CENTER] is None:
        raise PositionError("board", _("H8 is empty, but every game's first play covers it"))
    seen = _reached_from_center(board)
    apart = [sq for sq, _ in board if sq not in seen]
    if apart:
        raise PositionError(
            "board",
            _("{square} is not connected to the tiles through H8").format(
                square=square_name(apart[0])
            ),
        )
    for run in board.runs():
        _check_run(run.squares, run.text, rules)
    if board.tile_count < 3:
        # Two tiles make a run, caught above; a lone tile on H8 makes none.
        raise PositionError(
            "board",
            _("the board holds {tile_count} tile, but the first play alone puts at least 3").format(
                tile_count=board.tile_count
            ),
        )


def _reached_from_center(board: Board) -> set[int]:
    """The squares of the tiles joined to H8 by tiles side by side (H8 included)."""
    seen = {CENTER}
    stack = [CENTER]
    while stack:
        for neighbour in NEIGHBOURS[stack.pop()]:
            if neighbour not in seen and board[neighbour] is not None:
                seen.add(neighbour)
                stack.append(neighbour)
    return seen


def _check_run(squares: Sequence[int], text: str, rules: Rules) -> None:
    """A run on a position's board is an equation (or a number, under parallel_numbers)."""
    try:
        if rules.parallel_numbers and not text.strip("01"):
            number_value(text, rules)
        else:
            equation_value(text, rules)
    except EquationError as error:
        where = f"{square_name(squares[0])}-{square_name(squares[-1])}"
        raise PositionError(
            "board",
            _("the run {where} {text} is not an equation: {error}").format(
                where=where, text=text, error=error
            ),
        ) from None


def _read_tiles(value: object, field: str, rules: Rules) -> str:
    """Tile codes from a text: codes, aliases, words (any case), spaces; ``?`` a blank."""
    if not isinstance(value, str):
        raise PositionError(
            field,
            _("must be a text of tile codes such as '1101=+x0?', not {kind}").format(
                kind=_kind(value)
            ),
        )
    if len(value) > MAX_TILES_TEXT:
        raise PositionError(
            field,
            _("is {count} characters long; tiles take at most {max_tiles_text}").format(
                count=len(value), max_tiles_text=MAX_TILES_TEXT
            ),
        )
    try:
        codes = BLANK.join(normalize(part) if part.strip() else "" for part in value.split(BLANK))
    except EquationError as error:
        reason = _POSITION_SUFFIX.sub("", str(error))
        raise PositionError(
            field,
            _("{tiles}: {reason} (tiles are {codes}, '?' for a blank)").format(
                tiles=quoted(value), reason=reason, codes=" ".join(FACES)
            ),
        ) from None
    faces = faces_in_game(rules)
    if any(code != BLANK and code not in faces for code in codes):
        raise PositionError(
            field,
            _("{tiles} holds an XOR tile, but the rule xor_tiles is 0").format(tiles=quoted(value)),
        )
    return codes


def _check_tile_counts(board: Board, rack: str, unseen: str | None, rules: Rules) -> None:
    """Board, rack and unseen tiles may not use more tiles of a kind than the set has."""
    counts = tile_counts(rules)
    used: Counter[str] = Counter()
    parts = [("board", "".join(tile.code for _square, tile in board)), ("rack", rack)]
    if unseen is not None:
        parts.append(("unseen", unseen))
    for field, codes in parts:
        used.update(codes)
        for code in codes:
            if used[code] > counts.get(code, 0):
                shown = _("blank") if code == BLANK else repr(code)
                if field == "rack":
                    reason = _(
                        "the board and the rack hold {count} {tile} tiles; the set has {most}"
                    )
                elif field == "unseen":
                    reason = _(
                        "the board, the rack and the unseen tiles hold {count} {tile} tiles; the "
                        "set has {most}"
                    )
                else:
                    reason = _("the board holds {count} {tile} tiles; the set has {most}")
                raise PositionError(
                    field,
                    reason.format(count=used[code], tile=shown, most=counts.get(code, 0)),
                )


def _check_player_name(name: str) -> None:
    problem = name_problem(name)
    if problem is not None:
        raise PositionError(
            "players",
            _("the name {name} cannot be a player's: {problem}").format(
                name=quoted(name), problem=problem
            ),
        )


def _read_players(value: object, scores: object) -> list[str]:
    if value is None:
        count = len(scores) if isinstance(scores, list) and 2 <= len(scores) <= 4 else 2
        return [f"Player {seat + 1}" for seat in range(count)]
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise PositionError(
            "players", _("must be a list of names, not {kind}").format(kind=_kind(value))
        )
    if not 2 <= len(value) <= 4:
        raise PositionError(
            "players", _("a game has 2 to 4 players, not {count}").format(count=len(value))
        )
    for name in value:
        _check_player_name(name)
    if len(set(value)) != len(value):
        raise PositionError("players", _("two players have the same name"))
    return list(value)


def _read_scores(value: object, players: int) -> list[int]:
    if value is None:
        return [0] * players
    if not isinstance(value, list):
        raise PositionError(
            "scores", _("must be a list of whole numbers, not {kind}").format(kind=_kind(value))
        )
    for score in value:
        if isinstance(score, bool) or not isinstance(score, int):
            shown = json.dumps(score) if isinstance(score, int | float | str) else _kind(score)
            raise PositionError(
                "scores",
                _("must be a list of whole numbers, but it holds {shown}").format(shown=shown),
            )
    if len(value) != players:
        raise PositionError(
            "scores",
            _("{count} scores for {players} players").format(count=len(value), players=players),
        )
    return list(value)


def _read_comment(value: object) -> None:
    if not isinstance(value, str):
        raise PositionError("comment", _("must be a text, not {kind}").format(kind=_kind(value)))
    char = control_character(value.replace("\n", "").replace("\t", ""))
    if char is not None:
        raise PositionError(
            "comment", _("holds the control character {char}").format(char=repr(char))
        )


def _read_to_move(value: object, players: Sequence[str]) -> int:
    if isinstance(value, str):
        if value in players:
            return list(players).index(value)
        raise PositionError(
            "to_move",
            _("{name} is not one of the players ({players})").format(
                name=quoted(value), players=", ".join(players)
            ),
        )
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(
            "to_move",
            _("must be a seat number from 0 or a player's name, not {kind}").format(
                kind=_kind(value)
            ),
        )
    if not 0 <= value < len(players):
        raise PositionError(
            "to_move",
            _("seat {seat} does not exist (seats 0 to {last})").format(
                seat=value, last=len(players) - 1
            ),
        )
    return value


# -- saving ----------------------------------------------------------------------------------


def save_position(game: Game) -> dict[str, Any]:
    """The position of ``game`` for the player to move, as a JSON-able mapping.

    It holds what that player may see: the board, their rack, the scores and the unseen
    tiles (the bag and the other racks, sorted, without saying which is where).
    """
    board = game.board
    return {
        "rules": {"preset": "standard", **game.rules.differences()},
        "board": board.rows(),
        "blanks": [square_name(sq) for sq in board.blank_squares()],
        "rotated": [square_name(sq) for sq in board.rotated_squares()],
        "rack": game.rack(),
        "players": list(game.players),
        "scores": list(game.scores),
        "to_move": game.to_move,
        "unseen": game.unseen(),
    }


def save_position_file(game: Game, path: str | os.PathLike[str]) -> None:
    """Write :func:`save_position` of ``game`` to ``path`` as indented JSON, atomically."""
    write_text_atomically(path, json.dumps(save_position(game), indent=2) + "\n")
