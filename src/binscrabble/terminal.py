"""The terminal game: hot-seat Binary Scrabble for 2 to 4 players, people or computers.

Everything the ``binscrabble play`` command does lives here, behind injectable input and
output streams, so tests drive a whole game by feeding lines. The command line module only
parses options and calls :func:`run_terminal_game`.

A seat is a person, who types moves and commands, or a computer: any object with
``choose(game, budget) -> Move`` (the engine's players, named ``cpu:LEVEL`` on the command
line). The game is saved as a record (docs/record-format.md) after every turn, atomically,
and ``--resume`` continues it. See docs/playing.md.

>>> print(render_board(Board(), color=False).splitlines()[8])
 8  TW   .   .  DL   .   .   .  DW   .   .   .  DL   .   .  TW
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Protocol, TextIO

from binscrabble.board import COLUMN_NAMES, PREMIUMS, SIZE, Board
from binscrabble.engine.descriptions import players_help
from binscrabble.expr.explanations import signed
from binscrabble.expr.symbols import SHOWN
from binscrabble.game import Game, Outcome, ScoreBreakdown, SetupError
from binscrabble.i18n import N_, _, direction, fill, ngettext, pgettext
from binscrabble.limits import escape_controls, name_problem, quoted
from binscrabble.move import (
    CODE_ORDER,
    Exchange,
    Move,
    NotationError,
    Pass,
    Place,
    display_equation,
    display_notation,
    parse_move,
)
from binscrabble.record import RecordError, read_record_file, write_record_file
from binscrabble.rules import PRECEDENCE_LABELS, RULE_LABELS, TILE_POINTS, Rules

#: Where the game is saved when no ``--save`` is given (in the current folder).
DEFAULT_SAVE: Final = "binscrabble-game.bsr"
#: The prefix that marks a computer seat in ``--players`` and in saved games.
COMPUTER_PREFIX: Final = "cpu:"
#: How many recent turns the screen lists.
RECENT_TURNS: Final = 4

# ANSI styles (SGR codes). Premium squares take Scrabble's usual colours; tiles look like
# tiles (black on yellow), the last move's tiles are green so a player sees what changed.
_RESET: Final = "\x1b[0m"
_PREMIUM_STYLE: Final[Mapping[str, str]] = {
    "TW": "\x1b[97;41m",
    "DW": "\x1b[30;105m",
    "TL": "\x1b[97;44m",
    "DL": "\x1b[30;106m",
}
_EMPTY_STYLE: Final = "\x1b[2m"
_TILE_STYLE: Final = "\x1b[1;30;43m"
_BLANK_TILE_STYLE: Final = "\x1b[1;34;43m"
_NEW_TILE_STYLE: Final = "\x1b[1;30;102m"
_BOLD: Final = "\x1b[1m"
_CLEAR_SCREEN: Final = "\x1b[2J\x1b[H"
# Between two people's turns the scrollback goes too (ESC [3J): many terminals keep a cleared
# screen in it, and the next player could scroll up to the previous player's rack.
_CLEAR_SCREEN_AND_SCROLLBACK: Final = "\x1b[2J\x1b[3J\x1b[H"
#: The premium squares' short labels, the web board's (``js/board.js``) in each language.
_PREMIUM_LABELS: Final[Mapping[str, str]] = {
    "TW": N_("TW"),
    "DW": N_("DW"),
    "TL": N_("TL"),
    "DL": N_("DL"),
}
#: Their names, as the web board gives them to assistive technology (INTERFACES.md §6).
_PREMIUM_WORDS: Final[Mapping[str, str]] = {
    "TW": N_("triple word"),
    "DW": N_("double word"),
    "TL": N_("triple letter"),
    "DL": N_("double letter"),
}
#: The cells a square takes on the board.
_CELL: Final = 3

#: The help text (``help`` in the game), translated where it is shown: the commands and
#: the tiles are typed as they are in every language.
HELP: Final = N_(
    """\
Type a move in notation, or a command:
  8D 1+1=10          a play across from D8 (row first); D8 1+1=10 plays down (column first)
  8D 1+?1=10         ?1 is a blank played as 1; (…) marks tiles already on the board
  exchange 0 1 ?     give tiles back to the bag (also -01?) while it holds a full rack
  pass               pass the turn
  preview MOVE       show what a move would score, run by run, without playing it (or ? MOVE)
  undo               take back the last turn (only with --allow-undo)
  board              show the board again
  unseen             the tiles you have not seen (bag and other racks)
  rules              the rules in force
  quit               save the game and leave (resume with --resume FILE)
Tiles: 0 1 = + - x(×) /(÷) &(AND) |(OR) ~(NOT) ^(XOR) and ? (blank). Words AND OR NOT XOR
and spaces are fine in moves: 8D 1 or 1 = 1."""
)


class ComputerPlayer(Protocol):
    """A computer seat: the engine's players have this shape."""

    def choose(self, game: Game, budget: float | None = None) -> Move: ...


class GameSetupError(Exception):
    """A problem that stops the game from starting (bad players, unreadable save file...)."""


# -- wrapping ---------------------------------------------------------------------------------

#: What takes no cell on a terminal: colours (SGR), and direction marks and isolates.
_NO_CELL: Final = re.compile("\x1b\\[[0-9;]*m|[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: A colour (SGR sequence).
_STYLE: Final = re.compile("\x1b\\[[0-9;]*m")
#: Isolates that open (LRI, RLI, FSI) and the one that closes them (PDI).
_OPENS: Final = frozenset("\u2066\u2067\u2068")
_CLOSE: Final = "\u2069"
#: A help line: two spaces, the command as typed, two spaces or more, its explanation.
_COLUMNS: Final = re.compile(r"^  \S(?:\S| (?! ))* {2,}")


def visible_width(text: str) -> int:
    """How many cells ``text`` takes on a terminal: colours and direction isolates take
    none, wide (East Asian) characters two, combining marks none.

    >>> visible_width("\x1b[1m AND \x1b[0m"), visible_width("\u2068דנה\u2069")
    (5, 3)
    """
    cells = 0
    for char in _NO_CELL.sub("", text):
        if unicodedata.combining(char):
            continue
        cells += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return cells


def _open_isolates(text: str, opened: list[str]) -> None:
    """Follow the isolates ``text`` opens and closes, on the stack ``opened``."""
    for char in text:
        if char in _OPENS:
            opened.append(char)
        elif char == _CLOSE and opened:
            opened.pop()


def _wrap_line(line: str, width: int, columns: bool) -> list[str]:
    if visible_width(line) <= width:
        return [line]
    hanging = len(line) - len(line.lstrip(" "))
    match = _COLUMNS.match(line) if columns else None
    if match is not None and match.end() <= width // 2:
        hanging = match.end()
    lines: list[str] = []
    prefix, body = "", ""
    opened: list[str] = []
    for index, word in enumerate(_words(line)):
        candidate = f"{body} {word}" if index else word
        if body.strip() and visible_width(prefix + candidate) > width:
            # Each line's isolates are whole: closed at its end, opened again on the next.
            _open_isolates(body, opened)
            lines.append((prefix + body).rstrip(" ") + _CLOSE * len(opened))
            prefix, body = " " * hanging + "".join(opened), word
            continue
        body = candidate
    lines.append(prefix + body)
    return lines


def _words(line: str) -> list[str]:
    """``line`` split at its spaces, but not at a space inside a coloured stretch (a
    tile's `` AND `` on a coloured rack)."""
    words: list[str] = []
    styled = False
    for piece in line.split(" "):
        if styled:
            words[-1] += " " + piece
        else:
            words.append(piece)
        styles = _STYLE.findall(piece)
        if styles:
            styled = styles[-1] != _RESET
    return words


def wrap(text: str, width: int, *, columns: bool = False) -> str:
    """``text`` with each line longer than ``width`` cells broken at spaces, never inside a
    word (a word longer than a line keeps a line of its own). A continuation keeps the
    line's indent, or with ``columns`` (the help) starts under the explanation column; an
    isolate (U+2066..U+2068 ... U+2069) broken across lines is closed at the end of each
    line and opened again at the start of the next, so that a right-to-left terminal lays
    out every line by itself (docs/languages.md, "Right to left in a terminal").

    >>> print(wrap("one two three four", 9))
    one two
    three
    four
    """
    return "\n".join(
        piece for line in text.split("\n") for piece in _wrap_line(line, width, columns)
    )


# -- rendering --------------------------------------------------------------------------------


def _style(text: str, style: str, color: bool) -> str:
    return f"{style}{text}{_RESET}" if color else text


def premium_label(kind: str) -> str:
    """An empty premium square as the board shows it, in the current language: the web's
    label, padded to the square's three cells. A right-to-left label (``מ״מ``) is isolated
    (U+2068 ... U+2069, which take no cell), so that a terminal that lays out right to
    left keeps the row's squares from A to O, left to right.

    >>> premium_label("TW")
    'TW '
    """
    label = _(_PREMIUM_LABELS[kind])
    padding = " " * max(0, _CELL - len(label))
    if direction() == "rtl":
        return f"\u2068{label}\u2069{padding}"
    return label + padding


def render_legend(color: bool) -> str:
    """What the premium squares' labels stand for, in the current language.

    >>> render_legend(color=False)
    'TW triple word   DW double word   TL triple letter   DL double letter'
    """
    parts = []
    for kind, words in _PREMIUM_WORDS.items():
        label = _style(premium_label(kind).rstrip(), _PREMIUM_STYLE[kind], color)
        parts.append(f"{label} {_(words)}")
    return "   ".join(parts)


def face(code: str) -> str:
    """A tile's face as the web and the printed tiles show it, not the code typed for it:
    ``×`` ``÷`` ``−`` and the words ``AND`` ``OR`` ``NOT`` ``XOR`` (the same on the tiles in
    every language); ``?`` for a blank on a rack.

    >>> [face(code) for code in "1x/-&|~^?"]
    ['1', '×', '÷', '−', 'AND', 'OR', 'NOT', 'XOR', '?']
    """
    return SHOWN.get(code, code)


def people_move(notation: str) -> str:
    """A move in notation as people read it: the tiles' faces
    (:func:`~binscrabble.move.display_notation`: ``8H 0=0=0×10``, never ``8H (0=0)=0x10``);
    the notation's keywords ``pass`` and ``exchange`` stay as typed, in every language
    (docs/languages.md). Text that is no notation stays as it is.

    >>> people_move("8H (0=0)=0x10"), people_move("-&?")
    ('8H 0=0=0×10', 'exchange AND blank')
    """
    try:
        return display_notation(notation)
    except NotationError:
        return notation


def move_cell(notation: str) -> str:
    """A move of the list of last moves, as the web's table of moves says it: a play by its
    tiles' faces, a pass and an exchange in words of the current language (``passed``,
    ``exchanged 3 tiles``, ``exchanged 2 tiles: 0 NOT`` when the reader may know them).

    >>> move_cell("8D 1&1=1"), move_cell("8H (0=0)=0x10"), move_cell("pass")
    ('8D 1 AND 1=1', '8H 0=0=0×10', 'passed')
    >>> move_cell("exchange 3"), move_cell("-0~")
    ('exchanged 3 tiles', 'exchanged 2 tiles: 0 NOT')
    """
    if notation in ("pass", "-"):
        return _("passed")
    hidden = notation.removeprefix("exchange ")
    if hidden != notation and hidden.isdecimal():
        count = int(hidden)
        words = ngettext("exchanged {count} tile", "exchanged {count} tiles", count)
        return words.format(count=count)
    try:
        # An exchange needs no board; a play is read without one by display_notation.
        move: Move | None = parse_move(notation, Board())
    except NotationError:
        move = None
    if isinstance(move, Exchange):
        tiles = " ".join(_("blank") if code == "?" else face(code) for code in move.tiles)
        count = len(move.tiles)
        words = ngettext(
            "exchanged {count} tile: {tiles}", "exchanged {count} tiles: {tiles}", count
        )
        return words.format(count=count, tiles=tiles)
    return people_move(notation)


def breakdown_text(breakdown: ScoreBreakdown) -> str:
    """A play's score run by run (:class:`~binscrabble.game.ScoreBreakdown`), each run's
    equation written with the tiles' faces (``1=1÷1 AND NOT 0``, not ``1=1/1&~0``)."""
    return breakdown.text(display_equation)


def _square(tile_face: str, blank: bool) -> tuple[str, str]:
    """A tile's square on the board (three cells) and the cell before it: a blank's ``?``
    stands in the square before a short face (``?1 ``, ``?OR``) and in the gap before a
    face that fills the square (``?AND``)."""
    if len(tile_face) >= _CELL:
        return ("?" if blank else " "), tile_face[:_CELL]
    if blank:
        return " ", ("?" + tile_face).ljust(_CELL)
    if len(tile_face) == 1:
        return " ", f" {tile_face} "
    return " ", tile_face.ljust(_CELL)


def render_board(board: Board, color: bool, highlight: Iterable[int] = ()) -> str:
    """The board with coordinates, then the legend of its premium squares: tiles by their
    faces as on the web (``×`` ``÷`` ``−``, ``AND`` ``OR`` ``NOT`` ``XOR`` filling a square;
    ``#`` a rotated ``=``, a ``?`` just before a blank's face), empty premium squares by the
    web board's labels in the current language (``TW DW TL DL``, ``MT MD LT LD``...).

    With ``color`` the premium squares and the tiles are coloured (ANSI) and the squares in
    ``highlight`` (the last move) stand out.
    """
    new = set(highlight)
    lines = [("    " + " ".join(f" {letter} " for letter in COLUMN_NAMES)).rstrip()]
    for row in range(SIZE):
        cells = []
        for column in range(SIZE):
            sq = row * SIZE + column
            tile = board[sq]
            if tile is None:
                kind = PREMIUMS[sq]
                if kind is None:
                    cells.append(" " + _style(" . ", _EMPTY_STYLE, color))
                else:
                    cells.append(" " + _style(premium_label(kind), _PREMIUM_STYLE[kind], color))
                continue
            shown = tile.symbol if tile.rotated else face(tile.symbol)
            gap, text = _square(shown, tile.blank)
            if sq in new:
                style = _NEW_TILE_STYLE
            else:
                style = _BLANK_TILE_STYLE if tile.blank else _TILE_STYLE
            cells.append(gap + _style(text, style, color))
        lines.append((f"{row + 1:>2} " + "".join(cells)).rstrip())
    lines.append("")
    lines.append(render_legend(color))
    return "\n".join(lines)


def render_rack(rack: str, color: bool) -> str:
    """A rack as its tiles' faces, then each tile's points.

    >>> render_rack("10x&?", color=False)
    '1  0  ×  AND  ?   (points 1 1 2 1 0)'
    """
    if not rack:
        return _("(empty)")
    tiles = "  ".join(
        _style(f" {face(code)} ", _TILE_STYLE, True) if color else face(code) for code in rack
    )
    points = " ".join(str(TILE_POINTS[code]) for code in rack)
    return f"{tiles}   " + _("(points {points})").format(points=points)


def describe_tiles(codes: str) -> str:
    """Tiles counted by kind, in the fixed order, as ``face:count``.

    >>> describe_tiles("10?0&")
    '0:2  1:1  AND:1  ?:1'
    """
    counts = Counter(codes)
    return "  ".join(f"{face(code)}:{counts[code]}" for code in CODE_ORDER if counts[code]) or _(
        "none"
    )


def _last_squares(game: Game) -> tuple[int, ...]:
    if game.history and isinstance(game.history[-1].move, Place):
        return game.history[-1].move.squares
    return ()


def render_scores(game: Game) -> str:
    """One line: every player's total (the one to move marked) and the tiles in the bag."""
    parts = []
    for seat, name in enumerate(game.players):
        marker = "▸ " if seat == game.to_move and not game.is_over() else ""
        parts.append(f"{marker}{seat_name(name)} {signed(game.scores[seat])}")
    bag = ngettext("bag: {count} tile", "bag: {count} tiles", game.bag_size)
    return "   ".join(parts) + "   |   " + bag.format(count=game.bag_size)


def render_recent(
    game: Game, seat: int | None, count: int = RECENT_TURNS, *, show_exchanges: bool = False
) -> str:
    """The last turns as a seat may see them (others' exchanges show only how many tiles,
    unless ``show_exchanges``: a replay shows every rack anyway)."""
    history = game.view_for(seat)["moves"][-count:]
    if not history:
        return _("No moves yet.")
    start = len(game.history) - len(history) + 1
    notations = game.notations()[start - 1 :] if show_exchanges else None
    lines = [_("Last moves:")]
    for index, entry in enumerate(history):
        notation = move_cell(entry["notation"] if notations is None else notations[index])
        total = _("(total {total})").format(total=signed(entry["running"][entry["seat"]]))
        # The name and the move as a sentence of the language ("Élodie : 8F 10=10").
        said = _("{name}: {move}").format(
            name=seat_name(game.players[entry["seat"]]), move=notation
        )
        lines.append(f"  {start + index:>3}. {said}  +{entry['score']} {total}")
    return "\n".join(lines)


def outcome_sentence(outcome: Outcome) -> str:
    """How a game ended, in the reader's language: who ended it, if a player did
    (``Bo resigned.``), then who wins with the final totals (``Ann wins (Ann 0, Bo 0)``).
    In English, a game played out or ended by scoreless turns reads as ``str(outcome)``,
    which records keep."""
    names = [seat_name(name) for name in outcome.players]
    totals = ", ".join(
        f"{name} {signed(score)}" for name, score in zip(names, outcome.scores, strict=True)
    )
    if not outcome.winners:
        result = _("nobody wins ({totals})").format(totals=totals)
    elif outcome.draw:
        winners = [names[seat] for seat in outcome.winners]
        together = _("{first} and {second}").format(
            first=", ".join(winners[:-1]), second=winners[-1]
        )
        result = _("draw between {names} ({totals})").format(names=together, totals=totals)
    else:
        result = _("{name} wins ({totals})").format(name=names[outcome.winners[0]], totals=totals)
    if outcome.seat is None:
        return result
    why = {
        "resigned": _("{name} resigned."),
        "time": _("{name} ran out of time."),
        "aborted": _("{name} aborted the game."),
    }.get(outcome.reason, "")
    if outcome.cause == "time":
        why = _("{name}'s time ran out before their first move: the game is aborted.")
    elif outcome.cause == "absent":
        why = _("{name} never opened the game: it is aborted.")
    if why and (not outcome.winners or outcome.draw):
        # After a sentence, "nobody wins" and "draw between" start a new one.
        result = result[:1].upper() + result[1:]
    return f"{fill(why, name=names[outcome.seat])} {result}".lstrip()


# -- players ----------------------------------------------------------------------------------


#: The computer levels' names, as the web's scores say them (``Computer (hard)``).
_LEVEL_NAMES: Final[Mapping[str, str]] = {
    "beginner": N_("beginner"),
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "max": N_("max"),
}


def seat_name(name: str) -> str:
    """A seat's name as people read it, control characters escaped: a person's as typed, a
    computer's (``cpu:hard``, ``cpu:hard#2``) in words of the current language, as the web
    names it (``Computer (hard)``, ``Computer 2 (hard)``); a strategy keeps its name.

    >>> seat_name("Ann"), seat_name("cpu:beginner"), seat_name("cpu:greedy#2")
    ('Ann', 'Computer (beginner)', 'Computer 2 (greedy)')
    """
    if not is_computer_name(name):
        return escape_controls(name)
    level, _hash, number = name[len(COMPUTER_PREFIX) :].partition("#")
    words = _LEVEL_NAMES.get(level.lower())
    computer = _("Computer") if not number else f"{_('Computer')} {escape_controls(number)}"
    return _("{name} ({level})").format(
        name=computer, level=_(words) if words else escape_controls(level)
    )


def is_computer_name(name: str) -> bool:
    """Whether a seat's name stands for a computer player (``cpu:greedy``, ``cpu:hard#2``)."""
    return name.lower().startswith(COMPUTER_PREFIX)


def parse_players(text: str) -> list[str]:
    """Player names from ``--players``: 2 to 4, separated by commas, ``cpu:LEVEL`` for a
    computer. Computers of the same level get ``#2``, ``#3`` so that every name differs.

    >>> parse_players("Alice, cpu:greedy, cpu:greedy")
    ['Alice', 'cpu:greedy', 'cpu:greedy#2']
    """
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):
        raise GameSetupError(
            _("--players takes names separated by commas, not {players}").format(
                players=quoted(text)
            )
        )
    if not 2 <= len(names) <= 4:
        raise GameSetupError(_("a game has 2 to 4 players, not {count}").format(count=len(names)))
    result: list[str] = []
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise GameSetupError(
                _("{name} cannot be a player's name: {problem}").format(
                    name=quoted(name), problem=problem
                )
            )
        if is_computer_name(name):
            unique, number = name, 1
            while unique in result:
                number += 1
                unique = f"{name}#{number}"
            result.append(unique)
        elif name in result:
            raise GameSetupError(
                _("two players are named {name}: give them different names").format(
                    name=quoted(name)
                )
            )
        else:
            result.append(name)
    if all(is_computer_name(name) for name in result):
        raise GameSetupError(
            _("every seat is a computer: use `binscrabble selfplay` to watch computers play")
        )
    return result


ComputerFactory = Callable[[str], ComputerPlayer]


def engine_computer(name: str) -> ComputerPlayer:
    """The engine's player for a seat named ``cpu:LEVEL`` (``#N`` suffixes ignored)."""
    level = name.split("#", 1)[0]
    try:
        from binscrabble.engine.levels import PlayerNameError, player_from_name
    except ImportError:  # pragma: no cover - the engine ships with the package
        raise GameSetupError(
            _("{name}: computer players are not available in this installation").format(name=name)
        ) from None
    try:
        return player_from_name(level)
    except PlayerNameError as error:
        raise GameSetupError(str(error)) from None


def computers_for(
    players: Sequence[str], factory: ComputerFactory = engine_computer
) -> dict[int, ComputerPlayer]:
    """The computer player of every seat whose name is ``cpu:...``."""
    return {seat: factory(name) for seat, name in enumerate(players) if is_computer_name(name)}


# -- the game loop ----------------------------------------------------------------------------


#: What a player types to save and leave (also understood at the privacy screen).
_QUIT_COMMANDS: Final = ("quit", "exit", "q")
#: The answers to a [Y/n] question in English (Enter is yes), understood in every language.
_YES: Final = ("", "y", "yes")
_NO: Final = ("n", "no")


def _answer_words(words: str) -> tuple[str, ...]:
    return tuple(word.lower() for word in words.split())


def is_yes(answer: str) -> bool:
    """Whether ``answer`` says yes: Enter, the English ``y``/``yes`` or the reader's own
    words (French ``o``/``oui``, Hebrew ``כ``/``כן``, Bulgarian ``д``/``да``), any case.

    >>> is_yes(" Y "), is_yes("no")
    (True, False)
    """
    typed = answer.strip().lower()
    return typed in _YES or typed in _answer_words(pgettext("answers meaning yes", "y yes"))


def is_no(answer: str) -> bool:
    """Whether ``answer`` says no: ``n``/``no`` or the reader's own words (``non``, ``не``,
    ``לא``...)."""
    typed = answer.strip().lower()
    return typed in _NO or typed in _answer_words(pgettext("answers meaning no", "n no"))


#: The longest line read as typed input; a longer one is no person's typing (a file or a
#: device piped in) and ends the input, so that reading it never exhausts memory.
MAX_TYPED_LINE: Final = 4096


class _Output(Protocol):
    """Where the questions before the game go: a text stream, or one that wraps."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


def _typed_line(stdin: TextIO, stdout: _Output) -> str:
    """One line of input with its line break, or ``""`` at the end of input or after a line
    longer than :data:`MAX_TYPED_LINE` (said on `stdout`)."""
    line = stdin.readline(MAX_TYPED_LINE + 1)
    if len(line) > MAX_TYPED_LINE and not line.endswith("\n"):
        stdout.write(
            "\n"
            + _(
                "A line of more than {most} characters is not typed input: the input ends here."
            ).format(most=MAX_TYPED_LINE)
            + "\n"
        )
        return ""
    return line


class _Wrapped:
    """An output stream whose writes are wrapped to ``width`` (``None``: as they are), for
    the questions asked before the game starts."""

    def __init__(self, stream: TextIO, width: int | None) -> None:
        self.stream = stream
        self.width = width

    def write(self, text: str) -> int:
        return self.stream.write(text if self.width is None else wrap(text, self.width))

    def flush(self) -> None:
        self.stream.flush()


class _Quit(Exception):
    """The player asked to leave (``quit``, or end of input)."""


@dataclass
class TerminalGame:
    """One game at the terminal: reads lines from ``stdin``, writes to ``stdout``.

    ``computers`` maps seats to computer players; every other seat is a person. With more
    than one person, the rack of the player to move is shown only after they press Enter
    (hot-seat privacy). ``confirm`` asks before playing a typed play, showing its score.
    """

    game: Game
    save_path: Path
    stdin: TextIO
    stdout: TextIO
    computers: Mapping[int, ComputerPlayer]
    color: bool = False
    allow_undo: bool = False
    confirm: bool = True
    clear_screen: bool = False
    #: The terminal's width in cells: longer lines are wrapped at word boundaries (``None``,
    #: output that is no terminal: lines as they are).
    width: int | None = None
    #: What happened since the screen was last drawn (moves, undo, the house rules), as
    #: everyone may see it: a cleared screen would otherwise wipe it before it is read.
    notices: list[str] = field(default_factory=list)

    # -- input and output -------------------------------------------------------------------

    def name(self, seat: int) -> str:
        """A seat's name as printed: control characters escaped, whatever the game holds."""
        return seat_name(self.game.players[seat])

    def say(self, text: str = "", *, columns: bool = False) -> None:
        """Write ``text``, wrapped to the terminal's width (``columns``: the help's)."""
        if self.width is not None:
            text = wrap(text, self.width, columns=columns)
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def say_board(self) -> None:
        """The board as it is laid out, cell by cell (never wrapped), then its legend."""
        game = self.game
        rows, _gap, legend = render_board(game.board, self.color, _last_squares(game)).rpartition(
            "\n"
        )
        self.stdout.write(rows + "\n")
        self.say(legend)

    def ask(self, prompt: str) -> str:
        """One line of input without its line break; :class:`_Quit` at the end of input."""
        if self.width is not None:
            prompt = wrap(prompt, self.width)
        self.stdout.write(prompt)
        self.stdout.flush()
        line = _typed_line(self.stdin, self.stdout)
        if not line:
            self.say()
            raise _Quit
        return line.rstrip("\r\n")

    def house_rules(self) -> str:
        """``House rules: ...`` naming the rules that differ from the standard, or ``""``."""
        changed = self.game.rules.differences()
        if not changed:
            return ""
        rules = "; ".join(
            _("{rule} — {value}").format(rule=_(RULE_LABELS[name]), value=_rule_value(name, value))
            for name, value in changed.items()
        )
        return _("House rules: {rules}").format(rules=rules)

    def announce(self, text: str, public: str | None = None) -> None:
        """Say ``text`` now and show it again on the next screen (``public`` instead, when
        ``text`` holds what only the mover may see, such as the tiles exchanged)."""
        self.say(text)
        self.notices.append(text if public is None else public)

    def save_problem(self) -> str | None:
        """Save the game; ``None`` when it is saved, else why it could not be."""
        try:
            write_record_file(self.game, self.save_path)
        except OSError as error:
            # The error names the temporary file; the player knows only the save file.
            problem = error.strerror or str(error)
        except RecordError as error:
            problem = str(error)
        else:
            return None
        return _("cannot save the game to {path}: {problem}").format(
            path=self.save_path, problem=problem
        )
        return None

    def save(self) -> bool:
        problem = self.save_problem()
        if problem is not None:
            self.say(_("Warning: {problem}.").format(problem=problem))
            return False
        return True

    # -- the loop ------------------------------------------------------------------------

    @property
    def humans(self) -> list[int]:
        return [seat for seat in range(len(self.game.players)) if seat not in self.computers]

    def run(self) -> int:
        """Play until the game ends or a player quits; returns the exit status (0)."""
        game = self.game
        players = ", ".join(self.name(seat) for seat in range(len(game.players)))
        self.say(_("Binary Scrabble: {players}").format(players=players))
        house_rules = self.house_rules()
        if house_rules:
            self.say(house_rules)
        self.say(
            _("The game is saved in {path} after every turn. Type help for help.").format(
                path=self.save_path
            )
        )
        self.save()
        previous_human: int | None = None
        try:
            while not game.is_over():
                seat = game.to_move
                if seat in self.computers:
                    self.computer_turn(seat)
                    continue
                if len(self.humans) > 1 and previous_human != seat:
                    self.privacy_screen(seat)
                previous_human = seat
                if self.human_turn(seat) == "undo":
                    previous_human = None if game.to_move != seat else seat
        except _Quit:
            saved = self.save()
            if saved:
                self.say(
                    _("Game saved in {path}. Continue it with: {command}").format(
                        path=self.save_path,
                        command=f"binscrabble play --resume {self.save_path}",
                    )
                )
            return 0
        except KeyboardInterrupt:
            self.save()
            self.say(
                "\n" + _("Interrupted. The game is saved in {path}.").format(path=self.save_path)
            )
            return 130
        self.game_over()
        return 0

    def privacy_screen(self, seat: int) -> None:
        if self.clear_screen:
            self.stdout.write(_CLEAR_SCREEN_AND_SCROLLBACK)
        else:
            self.say("\n" + "-" * 64)
        answer = self.ask(
            _("{name}, it is your turn. Press Enter to see your rack. ").format(
                name=self.name(seat)
            )
        )
        if answer.strip().lower() in _QUIT_COMMANDS:
            raise _Quit

    def show(self, seat: int) -> None:
        game = self.game
        if self.clear_screen:
            self.stdout.write(_CLEAR_SCREEN)
        self.say()
        self.say_board()
        self.say()
        self.say(render_scores(game))
        # On every screen: each player needs them in mind for every move.
        house_rules = self.house_rules()
        if house_rules:
            self.say(house_rules)
        self.say(render_recent(game, seat))
        self.say()
        if self.clear_screen and self.notices:
            # Said before the screen was cleared: say it again where it can be read.
            for notice in self.notices:
                self.say(notice)
            self.say()
        self.notices.clear()
        name = self.name(seat)
        label = _style(name, _BOLD, self.color)
        rack = render_rack("".join(sorted(game.rack(seat), key=CODE_ORDER.index)), self.color)
        turn = len(game.history) + 1
        self.say(_("Turn {turn}. {name}'s rack: {rack}").format(turn=turn, name=label, rack=rack))
        if game.is_first_play():
            self.say(
                _("The first play covers H8, the centre, with at least 3 tiles (e.g. 8G 1=1).")
            )

    def computer_turn(self, seat: int) -> None:
        game = self.game
        name = self.name(seat)
        self.say(_("{name} is thinking…").format(name=name))
        try:
            move = self.computers[seat].choose(game.copy(), None)
        except Exception as error:  # an engine's bug must not end a person's game
            self.say(
                _("{name} could not choose a move ({problem}); it passes.").format(
                    name=name, problem=f"{type(error).__name__}: {error}"
                )
            )
            move = Pass()
        if not game.is_legal(move):
            # A seam for engines to come: never let a computer's mistake stop the game.
            self.say(
                _("{name} chose an illegal move ({problem}); it passes.").format(
                    name=name, problem=game.illegal_reason(move)
                )
            )
            move = Pass()
        notation = people_move(move.notation(game.board))
        game.push(move)
        turn = game.history[-1]
        if isinstance(move, Exchange):
            count = len(move.tiles)
            self.announce(
                ngettext(
                    "{name} exchanges {count} tile.", "{name} exchanges {count} tiles.", count
                ).format(name=name, count=count)
            )
        elif isinstance(move, Pass):
            self.announce(_("{name} passes.").format(name=name))
        else:
            self.announce(
                _("{name} plays {move} for {score} (total {total}).").format(
                    name=name, move=notation, score=turn.score, total=signed(turn.scores[seat])
                )
            )
        self.save()

    def human_turn(self, seat: int) -> str:
        """One person's turn: commands until a move is played. Returns what happened."""
        game = self.game
        self.show(seat)
        while True:
            line = self.ask(f"{self.name(seat)}> ").strip()
            if not line:
                continue
            word, _space, rest = line.partition(" ")
            command = word.lower()
            rest = rest.strip()
            if command in ("help", "h"):
                self.say(_(HELP), columns=True)
            elif command in _QUIT_COMMANDS:
                raise _Quit
            elif command == "board":
                self.show(seat)
            elif command == "rules":
                self.say(_("The rules in force (house rules of docs/rules.md §10):"))
                self.say(_indent(game.rules.describe()))
            elif command == "unseen":
                unseen = game.unseen(seat)
                self.say(
                    _("Unseen tiles ({count}): {tiles}").format(
                        count=len(unseen), tiles=describe_tiles(unseen)
                    )
                )
            elif command in ("preview", "?") or (line.startswith("?") and command != "?"):
                self.preview(rest if command in ("preview", "?") else line[1:].strip())
            elif command == "undo":
                if self.undo():
                    return "undo"
            elif self.try_move(line, seat):
                return "moved"

    def read_move(self, text: str) -> Move | None:
        """The move typed, or ``None`` after saying why it cannot be played."""
        if not text:
            self.say(_("Give a move, e.g. 8D 1+1=10."))
            return None
        try:
            move = parse_move(text, self.game.board)
        except NotationError as error:
            # A long paste is not echoed whole: the reason names the position at fault.
            shown = text if len(text) <= 40 else text[:39] + "…"
            self.say(
                _("Cannot read {move}: {problem}. Type help for the notation.").format(
                    move=repr(shown), problem=error
                )
            )
            return None
        problem = self.game.illegal_reason(move)
        if problem is not None:
            self.say(_("Not allowed: {problem}.").format(problem=problem))
            return None
        return move

    def preview(self, text: str) -> None:
        move = self.read_move(text)
        if move is None:
            return
        if isinstance(move, Place):
            self.say(
                _("{move} would score:").format(move=people_move(move.notation(self.game.board)))
            )
            self.say(_indent(breakdown_text(self.game.score_breakdown(move))))
        else:
            self.say(
                _("{move} is allowed and scores 0.").format(
                    move=people_move(move.notation(self.game.board))
                )
            )

    def try_move(self, text: str, seat: int) -> bool:
        game = self.game
        move = self.read_move(text)
        if move is None:
            return False
        notation = people_move(move.notation(game.board))
        if isinstance(move, Place) and self.confirm:
            breakdown = game.score_breakdown(move)
            self.say(_indent(breakdown_text(breakdown)))
            while True:
                question = _("Play {move} for {score}? [Y/n] ")
                answer = self.ask(question.format(move=notation, score=breakdown.total)).strip()
                if is_yes(answer):
                    break
                if is_no(answer):
                    self.say(_("Not played."))
                    return False
                if answer.lower() in _QUIT_COMMANDS:
                    raise _Quit
                # Most likely a move typed too early: neither play nor drop it silently.
                self.say(
                    _("{answer} is no answer: type y (or Enter) to play it, n not to.").format(
                        answer=repr(answer)
                    )
                )
        game.push(move)
        turn = game.history[-1]
        if isinstance(move, Exchange):
            count = len(move.tiles)
            name = self.name(seat)
            self.announce(
                ngettext(
                    "{name} exchanges {count} tile: {tiles}.",
                    "{name} exchanges {count} tiles: {tiles}.",
                    count,
                ).format(name=name, count=count, tiles=" ".join(map(face, move.tiles))),
                public=ngettext(
                    "{name} exchanged {count} tile.", "{name} exchanged {count} tiles.", count
                ).format(name=name, count=count),
            )
        elif isinstance(move, Pass):
            self.announce(_("{name} passes.").format(name=self.name(seat)))
        else:
            self.announce(
                _("{name} plays {move} for {score} (total {total}).").format(
                    name=self.name(seat),
                    move=notation,
                    score=turn.score,
                    total=signed(turn.scores[seat]),
                )
            )
        self.save()
        return True

    def undo(self) -> bool:
        game = self.game
        if not self.allow_undo:
            self.say(_("Undo is off: start the game with --allow-undo to allow it."))
            return False
        if not game.history:
            self.say(_("There is no turn to take back."))
            return False
        if all(turn.seat in self.computers for turn in game.history):
            # Taking back only computers' turns would just let them play again.
            self.say(_("There is no turn of yours to take back."))
            return False
        taken = [game.pop()]
        # Behind a computer's turn is the person's own: take both back, or the computer
        # would only play again.
        while game.to_move in self.computers and game.history:
            taken.append(game.pop())
        self.announce(
            ngettext(
                "Took back {count} turn; {name} to move.",
                "Took back {count} turns; {name} to move.",
                len(taken),
            ).format(count=len(taken), name=self.name(game.to_move))
        )
        self.save()
        return True

    def game_over(self) -> None:
        game = self.game
        outcome = game.outcome()
        assert outcome is not None
        self.say()
        self.say_board()
        self.say()
        if outcome.reason == "out":
            out = game.history[-1].seat
            self.say(
                _("Game over: {name} played out with the bag empty.").format(name=self.name(out))
            )
        else:
            self.say(_("Game over: six scoreless turns in a row."))
        self.say(_("End-of-game adjustments:"))
        for seat in range(len(game.players)):
            rack = game.racks[seat]
            points = sum(TILE_POINTS[code] for code in rack)
            # Tiles spaced apart and their worth given: a lone "-" tile must not read as a dash.
            left = (
                ngettext(
                    "tiles left {tiles} ({count} point)",
                    "tiles left {tiles} ({count} points)",
                    points,
                ).format(tiles=" ".join(map(face, rack)), count=points)
                if rack
                else _("no tiles left")
            )
            self.say(
                f"  {self.name(seat)}: {left}, {_change(outcome.adjustments[seat])} → "
                f"{signed(outcome.scores[seat])}"
            )
        shown = outcome_sentence(outcome)
        self.say(f"{shown[:1].upper()}{shown[1:]}.")
        self.save()
        self.say(_("The record of the game is in {path}.").format(path=self.save_path))


def _change(points: int) -> str:
    """A change of score as people read it: ``+5``, ``+0``, ``−3`` (the tiles' minus sign).

    >>> _change(5), _change(0), _change(-3)
    ('+5', '+0', '−3')
    """
    return signed(points) if points < 0 else f"+{points}"


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def _rule_value(name: str, value: object) -> str:
    """A rule's value in words of the current language, as ``rules`` says it."""
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if name == "precedence":
        return _(PRECEDENCE_LABELS[str(value)])
    return str(value)


# -- starting a game --------------------------------------------------------------------------


@dataclass
class PlayOptions:
    """What ``binscrabble play`` was asked for."""

    players: list[str] | None = None
    rules: Rules | None = None
    seed: int | None = None
    save: str | None = None
    resume: str | None = None
    allow_undo: bool = False
    confirm: bool = True


def run_terminal_game(
    options: PlayOptions,
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    color: bool = False,
    interactive: bool = False,
    factory: ComputerFactory = engine_computer,
) -> int:
    """Start or resume a game and play it. Returns the exit status: 0 when the game ended or
    was saved to be continued, 2 when it could not start (the reason on ``stderr``)."""
    # A terminal's lines are wrapped at word boundaries to its width; other output is not.
    width = shutil.get_terminal_size().columns if interactive else None
    try:
        game, save_path = _prepare(options, stdin, _Wrapped(stdout, width), factory)
        computers = computers_for(game.players, factory)
    except GameSetupError as error:
        stderr.write(_("binscrabble: error: {message}").format(message=error) + "\n")
        return 2
    except _Quit:
        return 0
    terminal = TerminalGame(
        game=game,
        save_path=save_path,
        stdin=stdin,
        stdout=stdout,
        computers=computers,
        color=color,
        allow_undo=options.allow_undo,
        confirm=options.confirm,
        clear_screen=interactive,
        width=width,
    )
    if game.is_over():
        terminal.say(_("This game is already over."))
        terminal.game_over()
        return 0
    # A game that cannot be saved would be lost on the first crash or quit: say so now,
    # not after an hour of play.
    problem = terminal.save_problem()
    if problem is not None:
        problem = _("{problem}; save it elsewhere with --save FILE").format(problem=problem)
        stderr.write(_("binscrabble: error: {message}").format(message=problem) + "\n")
        return 2
    return terminal.run()


def _read_saved(path: Path) -> Game:
    try:
        return read_record_file(path)
    except FileNotFoundError:
        raise GameSetupError(_("no saved game at {path}").format(path=path)) from None
    except OSError as error:
        raise GameSetupError(
            _("cannot read {path}: {problem}").format(path=path, problem=error.strerror)
        ) from None
    except RecordError as error:
        raise GameSetupError(
            _("{path} is not a game this program can continue: {problem}").format(
                path=path, problem=error
            )
        ) from None


def _prepare(
    options: PlayOptions, stdin: TextIO, stdout: _Output, factory: ComputerFactory
) -> tuple[Game, Path]:
    if options.resume is not None:
        path = Path(options.resume)
        game = _read_saved(path)
        if not options.save:
            return game, path
        save_path = Path(options.save)
        if save_path.exists() and not _same_file(save_path, path):
            # Another file: the same care as for a new game, nothing in it is lost.
            _saved_game_in(save_path)
            _set_aside(save_path, stdout)
        return game, save_path
    save_path = Path(options.save or DEFAULT_SAVE)
    if options.players is not None:
        # Before anything is asked or moved: a mistyped level stops here.
        computers_for(options.players, factory)
    if save_path.exists():
        saved = _saved_game_in(save_path)
        if not saved.is_over() and options.save is None:
            # A game left in the default file is offered back rather than overwritten.
            scores = ", ".join(
                f"{seat_name(name)} {signed(score)}"
                for name, score in zip(saved.players, saved.scores, strict=True)
            )
            stdout.write(
                _("A game is saved in {path} (turn {turn}: {scores}).").format(
                    path=save_path, turn=len(saved.history) + 1, scores=scores
                )
                + "\n"
            )
            while True:
                stdout.write(_("Resume it? [Y/n] (n starts a new game and keeps that one aside) "))
                stdout.flush()
                line = _typed_line(stdin, stdout)
                answer = line.strip().lower()
                if not line or answer in _QUIT_COMMANDS:
                    # Nothing is changed: the saved game stays where it is.
                    raise _Quit
                if is_yes(answer):
                    return saved, save_path
                if is_no(answer):
                    break
                # A typo (or players' names typed too early) neither resumes nor sets the
                # game aside: asked again.
                stdout.write(
                    _("{answer} is no answer: y (or Enter) resumes it, n not.").format(
                        answer=repr(line.strip()[:40])
                    )
                    + "\n"
                )
    players = options.players
    if players is None:
        players = _ask_players(stdin, stdout, factory)
    try:
        game = Game(players, options.rules or Rules(), seed=options.seed)
    except SetupError as error:
        raise GameSetupError(str(error)) from None
    if save_path.exists():
        # The new game's first save would replace the record: keep it under another name,
        # only now that the new game exists (quitting before leaves it where it was found).
        _set_aside(save_path, stdout)
    return game, save_path


def _saved_game_in(path: Path) -> Game:
    """The game saved in an existing file this game is about to write to; refuses others."""
    try:
        return read_record_file(path)
    except OSError as error:
        raise GameSetupError(
            _(
                "{path} exists and cannot be read ({problem}); use --save FILE to save elsewhere"
            ).format(path=path, problem=error.strerror or error)
        ) from None
    except RecordError as error:
        raise GameSetupError(
            _(
                "{path} exists and is not a saved game ({problem}); use --save FILE to save "
                "elsewhere, or move that file away"
            ).format(path=path, problem=error)
        ) from None


def _set_aside(path: Path, stdout: _Output) -> None:
    """Keep the game saved in `path` under another name, and say where."""
    kept = _keep_aside(path)
    stdout.write(_("The game that was in {path} is kept in {kept}.").format(path=path, kept=kept))
    stdout.write("\n")


def _same_file(first: Path, second: Path) -> bool:
    try:
        return first.samefile(second)
    except OSError:
        return False


def _keep_aside(path: Path) -> Path:
    """Rename a saved game to the first free ``NAME-N.bsr`` next to it; return the new path."""
    number = 1
    while True:
        kept = path.with_name(f"{path.stem}-{number}{path.suffix}")
        if not kept.exists():
            break
        number += 1
    try:
        path.rename(kept)
    except OSError as error:
        raise GameSetupError(
            _(
                "cannot keep the game saved in {path} as {kept} ({problem}); use --save FILE "
                "to save the new game elsewhere"
            ).format(path=path, kept=kept, problem=error.strerror)
        ) from None
    return kept


#: Direction marks, embeddings, overrides and isolates: in a translation, never in a value.
_DIRECTION_MARKS: Final = dict.fromkeys(
    [0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
)


def plain(text: str) -> str:
    """``text`` without its direction marks and isolates (a value made from a message).

    >>> plain("\u2068Player\u2069 1")
    'Player 1'
    """
    return text.translate(_DIRECTION_MARKS)


def _ask_players(stdin: TextIO, stdout: _Output, factory: ComputerFactory) -> list[str]:
    # The default names in the reader's language, without the direction isolates of a
    # translation: a name holds no invisible formatting character.
    default = ",".join(plain(_("Player {number}").format(number=number)) for number in (1, 2))
    while True:
        stdout.write(
            _(
                "Players, 2 to 4 names separated by commas (cpu:LEVEL for a computer, e.g. "
                "cpu:medium) [{default}]: "
            ).format(default=default)
        )
        stdout.flush()
        line = _typed_line(stdin, stdout)
        if not line:
            raise _Quit
        text = line.strip() or default
        try:
            players = parse_players(text)
        except GameSetupError as error:
            stdout.write(f"{error}\n")
            continue
        try:
            # A mistyped level is asked again here rather than ending the program, with
            # the levels and what each does.
            computers_for(players, factory)
        except GameSetupError as error:
            stdout.write(f"{error}\n{players_help()}")
        else:
            return players


__all__ = [
    "COMPUTER_PREFIX",
    "DEFAULT_SAVE",
    "HELP",
    "ComputerPlayer",
    "GameSetupError",
    "PlayOptions",
    "TerminalGame",
    "breakdown_text",
    "computers_for",
    "describe_tiles",
    "engine_computer",
    "face",
    "is_computer_name",
    "move_cell",
    "parse_players",
    "people_move",
    "premium_label",
    "render_board",
    "render_legend",
    "render_rack",
    "render_recent",
    "render_scores",
    "run_terminal_game",
    "seat_name",
    "visible_width",
    "wrap",
]
