"""Game records: whole games as text, written and read back with every move verified.

The format (docs/record-format.md) is inspired by GCG, the file format of Scrabble game
records: a few ``#`` header lines (players, rules, seed), then one line per turn with the
player, the rack before the turn, the move in notation, its score and the running total,
then one line per player for the end-of-game adjustments.

:func:`read_record` replays a record on a fresh :class:`~binscrabble.game.Game` and checks
each line against the referee: the rack, the move's legality, its score, the total. The
first line that disagrees raises :class:`RecordError`, which names that line. The racks
written in the record are the truth about what was drawn, so a record replays even when
the bag's order is unknown (no seed).

>>> from binscrabble.board import Board
>>> from binscrabble.move import parse_move
>>> game = Game.from_setup(Rules(), Board(), ["111+=0&~1", "000000000"], players=["Ada", "Bo"])
>>> game.push(parse_move("8D 1+1=10", game.board))
>>> text = write_record(game)
>>> print("\\n".join(line for line in text.splitlines() if line.startswith(">")))
>Ada: 111+=0&~1 8D 1+1=10 +18 18
>>> again = read_record(text)
>>> again.board == game.board, again.scores, again.racks == game.racks
(True, [18, 0], True)
>>> read_record(text.replace("+18 18", "+20 20"))
Traceback (most recent call last):
...
binscrabble.record.RecordError: line 17: 8D 1+1=10 scores 18, not 20
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from binscrabble.board import Board
from binscrabble.game import (
    ABORT_CAUSES,
    LEAVING_REASONS,
    Game,
    IllegalMoveError,
    Outcome,
    SetupError,
)
from binscrabble.i18n import _, fill
from binscrabble.limits import (
    MAX_RECORD_LINE,
    InputLimitError,
    Number,
    check_digits,
    check_text_size,
    name_problem,
    quoted,
    read_limited,
)
from binscrabble.move import CODE_ORDER, Exchange, Move, NotationError, Place, parse_move
from binscrabble.rules import RULE_NAMES, Rules, RulesError

#: The first line of every record: the format's name and version.
MAGIC: Final = "#binscrabble-record 1"
#: The file name ending used for records (any name is read).
SUFFIX: Final = ".bsr"

_TURN_SCORE: Final = re.compile(r"\+\d+")
_SIGNED: Final = re.compile(r"[+-]\d+")
_TOTAL: Final = re.compile(r"-?\d+")
_PLAYER_PRAGMA: Final = re.compile(r"#player(\d+)(?:\s+(.*))?")
_END_LINE: Final = re.compile(r"\((?P<tiles>[^()]*)\)\s+(?P<adjustment>\S+)\s+(?P<total>\S+)")


class RecordError(ValueError):
    """A record that cannot be read or replayed; ``line`` is its 1-based line number.

    >>> error = RecordError(7, "8D 1+1=10 scores 18, not 20")
    >>> error.line, str(error)
    (7, 'line 7: 8D 1+1=10 scores 18, not 20')
    """

    def __init__(self, line: int | None, reason: str) -> None:
        super().__init__(
            reason if line is None else _("line {line}: {reason}").format(line=line, reason=reason)
        )
        self.line = line
        self.reason = reason


# -- writing ---------------------------------------------------------------------------------


def outcome_lines(outcome: Outcome, racks: Sequence[str | None]) -> list[str]:
    """The closing lines of a record: each player's rack left, its adjustment and final
    score, then the result. An overtime penalty (INTERFACES.md §7) is a comment: the end
    lines' totals are those of the play, which the record replays."""
    penalties = outcome.penalties or (0,) * len(outcome.players)
    lines = [
        f">{name}: ({racks[seat]}) {outcome.adjustments[seat]:+d} "
        f"{outcome.scores[seat] + penalties[seat]}"
        for seat, name in enumerate(outcome.players)
    ]
    lines.extend(
        f"# {name} loses {points} points of overtime"
        for name, points in zip(outcome.players, penalties, strict=True)
        if points
    )
    lines.append(f"# {outcome}")
    return lines


#: Why a seat left the game, as a ``#left NAME REASON`` line says it (INTERFACES.md §7).
LEFT_REASONS: Final = LEAVING_REASONS


def departure_lines(game: Game, departures: list[tuple[int, int, str]], played: int) -> list[str]:
    """The ``#left`` lines of the seats that left once ``played`` turns were played (taken
    off the front of ``departures``)."""
    lines = []
    while departures and departures[0][0] <= played:
        _turns, seat, reason = departures.pop(0)
        lines.append(f"#left {game.players[seat]} {reason}")
    return lines


def write_record(game: Game, *, seed: bool = True) -> str:
    """The record of ``game`` as text (every turn so far, and the end when it is over).

    A game still going on gets a ``#rack`` line per player, so that reading the record
    back gives the same racks. With ``seed=False`` the game's seed is left out (a record
    to show others: the racks still replay the game, and the bag's order stays secret).
    Raises :class:`RecordError` for a game that did not start from an empty board with zero
    scores (a set-up position has no record), or for a player name that cannot be written
    on one line.
    """
    _check_recordable(game)
    lines = [MAGIC, "# Binary Scrabble game record (format: docs/record-format.md)"]
    for seat, name in enumerate(game.players):
        lines.append(f"#player{seat + 1} {name}")
    for name, value in game.rules.to_mapping().items():
        lines.append(f"#rule {name} {_rule_text(value)}")
    if seed and game.seed is not None:
        shuffled = game.seed
        lines.append(f"#seed {shuffled if isinstance(shuffled, int) else json.dumps(shuffled)}")
    departures = list(game.departures)
    for number, (turn, notation) in enumerate(zip(game.history, game.notations(), strict=True)):
        lines.extend(departure_lines(game, departures, number))
        name = game.players[turn.seat]
        lines.append(f">{name}: {turn.rack} {notation} +{turn.score} {turn.scores[turn.seat]}")
    lines.extend(departure_lines(game, departures, len(game.history)))
    outcome = game.outcome()
    if outcome is not None and outcome.reason in ("out", "scoreless"):
        lines.extend(outcome_lines(outcome, game.racks))
    elif outcome is not None:
        # A game that ended before it was played out has no end lines: the racks it ended
        # with, then how it ended.
        for seat, name in enumerate(game.players):
            if game.racks[seat]:
                lines.append(f"#rack {name} {game.racks[seat]}")
        lines.append(f"# {outcome}")
    else:
        for seat, name in enumerate(game.players):
            if game.racks[seat]:
                lines.append(f"#rack {name} {game.racks[seat]}")
    return "\n".join(lines) + "\n"


def write_record_file(game: Game, path: str | os.PathLike[str]) -> None:
    """Write the record of ``game`` to ``path`` atomically.

    The text goes to a temporary file in the same folder, which then replaces ``path``
    (``os.replace``): a crash never leaves a half-written record behind.
    """
    write_text_atomically(path, write_record(game))


def write_text_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and
    ``os.replace``, so that readers see the old file or the new one, never a part."""
    target = Path(path)
    _remove_leftover_temporaries(target)
    handle, temporary = _create_temporary(target)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _remove_leftover_temporaries(target: Path) -> None:
    """Delete the temporary files an interrupted save of ``target`` left next to it (a
    crash or SIGKILL between creating one and ``os.replace``)."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.[0-9a-f]{{8}}\.tmp")
    try:
        leftovers = [entry for entry in target.parent.iterdir() if pattern.fullmatch(entry.name)]
    except OSError:
        return  # an unreadable folder: the save itself says what is wrong
    for leftover in leftovers:
        # Gone already (another save removed it), or not ours to remove: either way, go on.
        with contextlib.suppress(OSError):
            leftover.unlink()


def _create_temporary(target: Path) -> tuple[int, Path]:
    """A new empty file next to ``target``, opened for writing, with the permissions the
    file should end with: ``target``'s own when it exists, else those of any new file (the
    umask applies). ``tempfile.mkstemp`` would leave every save readable by its owner only."""
    for _attempt in range(100):
        temporary = target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"
        try:
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        try:
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        except FileNotFoundError:
            pass
        except BaseException:
            os.close(handle)
            temporary.unlink(missing_ok=True)
            raise
        return handle, temporary
    raise FileExistsError(_("cannot create a temporary file next to {path}").format(path=target))


def _rule_text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _check_recordable(game: Game) -> None:
    placed = sum(len(turn.move.tiles) for turn in game.history if isinstance(turn.move, Place))
    scored = [0] * len(game.players)
    for turn in game.history:
        scored[turn.seat] += turn.score
    outcome = game.outcome()
    penalties = outcome.penalties if outcome is not None else (0,) * len(game.players)
    # Without a turn, the scores are those of the start (less any overtime penalty).
    start = tuple(score + points for score, points in zip(game.scores, penalties, strict=True))
    final = game.history[-1].scores if game.history else start
    if placed != len(game.board) or list(final) != scored:
        raise RecordError(
            None,
            _(
                "this game started from a set-up position (tiles on the board or scores at the "
                "start); a record starts from an empty board"
            ),
        )
    if game.history and game.history[0].seat != 0:
        raise RecordError(None, _("a record starts with the first player to move"))
    for name in game.players:
        _check_recordable_name(name)


def _check_recordable_name(name: str) -> None:
    problem = name_problem(name)
    if name != name.strip() or problem is not None:
        raise RecordError(
            None,
            _("player name {name} cannot be written in a record: {problem}").format(
                name=quoted(name), problem=problem or _("it has spaces at its ends")
            ),
        )


# -- reading ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _TurnLine:
    line: int
    seat: int
    rack: str
    move: str
    score: int
    total: int


@dataclass(frozen=True, slots=True)
class _EndLine:
    line: int
    seat: int
    rack: str
    adjustment: int
    total: int


@dataclass(frozen=True, slots=True)
class _RackLine:
    line: int
    seat: int
    rack: str


@dataclass(frozen=True, slots=True)
class _LeftLine:
    line: int
    seat: int
    reason: str


_Entry = _TurnLine | _EndLine | _RackLine


@dataclass(slots=True)
class _Parsed:
    players: list[str]
    rules: Rules
    seed: int | str | None
    turns: list[_TurnLine]
    ends: list[_EndLine]
    racks: list[_RackLine]
    left: list[_LeftLine]


def read_record_file(path: str | os.PathLike[str]) -> Game:
    """Read and replay the record in the file ``path`` (see :func:`read_record`).

    ``OSError`` when the file cannot be read; :class:`RecordError` for a bad record, or a
    file over :data:`~binscrabble.limits.MAX_FILE_BYTES` (nothing past that is read).
    """
    try:
        data = read_limited(path)
    except InputLimitError as error:
        # The callers name the file already (``replay``, ``play --resume``).
        raise RecordError(None, _("not a game record: {error}").format(error=error)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(
            None, _("not a UTF-8 text file ({reason})").format(reason=error.reason)
        ) from None
    return read_record(text)


def read_record(text: str) -> Game:
    """Replay a record and return the game at its end, every line verified.

    Raises :class:`RecordError` naming the first line that is malformed or disagrees with
    the game: a move that cannot be read or is illegal, a wrong score or total, a rack
    that cannot be (tiles the set lacks, tiles that vanished), a player out of turn, a
    wrong end-of-game adjustment.
    """
    try:
        check_text_size(text)
    except InputLimitError as error:
        raise RecordError(None, _("not a game record: {error}").format(error=error)) from None
    parsed = _parse(text)
    _check_turn_order(parsed)
    game = _start(parsed)
    entries: list[_Entry] = [*parsed.turns, *parsed.ends, *parsed.racks]
    following = _following_racks(entries)
    left = list(parsed.left)
    for turn in parsed.turns:
        while left and left[0].line < turn.line:
            _replay_left(game, left.pop(0))
        _replay_turn(game, turn, following[turn.line])
    for entry in left:
        _replay_left(game, entry)
    _check_end(game, parsed)
    for rack_line in parsed.racks:
        _check_rack(game, rack_line.seat, rack_line.rack, rack_line.line)
    return game


def _check_turn_order(parsed: _Parsed) -> None:
    """Seats take turns in order from the first, skipping those that left (``#left``): a
    turn out of order is named as such, before its rack is compared with a turn that is not
    its own."""
    players = parsed.players
    gone: set[int] = set()
    expected = 0
    entries: list[_TurnLine | _LeftLine] = [*parsed.turns, *parsed.left]
    for entry in sorted(entries, key=_line_of):
        if isinstance(entry, _LeftLine):
            gone.add(entry.seat)
            if entry.seat == expected:
                expected = _seat_after(expected, len(players), gone)
            continue
        if entry.seat != expected:
            raise RecordError(
                entry.line,
                fill(
                    _("it is {expected}'s turn here, not {name}'s"),
                    expected=players[expected],
                    name=players[entry.seat],
                ),
            )
        expected = _seat_after(expected, len(players), gone)


def _seat_after(seat: int, count: int, gone: set[int]) -> int:
    """The seat that moves after ``seat`` of ``count``, skipping those ``gone``."""
    following = (seat + 1) % count
    for _turn in range(count):
        if following not in gone:
            return following
        following = (following + 1) % count
    return following


def _replay_left(game: Game, entry: _LeftLine) -> None:
    """A seat leaves the game as a ``#left`` line says (resigned, ran out of time, aborted)."""
    try:
        causes = {reason: cause for cause, reason in ABORT_CAUSES.items()}
        if entry.reason == "aborted" or entry.reason in causes:
            game.abort(entry.seat, cause=causes.get(entry.reason))
        else:
            game.resign(entry.seat, reason=entry.reason)
    except IllegalMoveError as error:
        raise RecordError(
            entry.line,
            _("{name} cannot leave the game here: {error}").format(
                name=game.players[entry.seat], error=error
            ),
        ) from None


def _following_racks(entries: Sequence[_Entry]) -> dict[int, _Entry | None]:
    """For each entry (by line), the next entry in line order that shows the same seat's
    rack. `entries` are in line order (turns, then end lines, then #rack lines)."""
    following: dict[int, _Entry | None] = {}
    latest: dict[int, _Entry] = {}
    for entry in reversed(entries):
        following[entry.line] = latest.get(entry.seat)
        latest[entry.seat] = entry
    return following


#: The keywords of the header lines (``#playerN`` is matched on its own).
_HEADER_KEYWORDS: Final = ("#preset", "#rule", "#seed")


@dataclass(slots=True)
class _Header:
    """The header lines read so far; :meth:`finish` turns them into players and rules."""

    players: dict[int, str] = field(default_factory=dict)
    preset: str | None = None
    overrides: list[tuple[int, str, str]] = field(default_factory=list)
    seed: int | str | None = None
    seed_seen: bool = False

    def read(self, line: str, number: int) -> None:
        """Take one header line (already known to be one)."""
        keyword, _space, argument = line.partition(" ")
        argument = argument.strip()
        player_match = _PLAYER_PRAGMA.fullmatch(line)
        if player_match is not None:
            self._read_player(player_match, number)
        elif keyword == "#preset":
            if self.overrides:
                raise RecordError(number, _("#preset must come before the #rule lines"))
            if self.preset is not None:
                raise RecordError(number, _("the record names two presets"))
            try:
                Rules.preset(argument)
            except RulesError as error:
                raise RecordError(number, str(error)) from None
            self.preset = argument
        elif keyword == "#rule":
            name, _space, value = argument.partition(" ")
            if not value.strip():
                raise RecordError(number, _("a rule line is '#rule NAME VALUE'"))
            if name not in RULE_NAMES:
                raise RecordError(
                    number,
                    _("unknown rule {name}: the rules are {rules}").format(
                        name=quoted(name), rules=", ".join(RULE_NAMES)
                    ),
                )
            self.overrides.append((number, name, value.strip()))
        else:
            if self.seed_seen:
                raise RecordError(number, _("the record gives two seeds"))
            self.seed_seen = True
            self.seed = _parse_seed(argument, number)

    def _read_player(self, match: re.Match[str], number: int) -> None:
        seat_text = match.group(1)
        if len(seat_text) > 1:
            raise RecordError(
                number,
                _("#player{seat_text}: seats are numbered 1 to 4").format(seat_text=seat_text),
            )
        seat = int(seat_text)
        name = (match.group(2) or "").strip()
        if not 1 <= seat <= 4:
            raise RecordError(
                number, _("#player{seat}: seats are numbered 1 to 4").format(seat=seat)
            )
        if not name:
            raise RecordError(number, _("#player{seat} needs a name").format(seat=seat))
        problem = name_problem(name)
        if problem is not None:
            raise RecordError(
                number,
                _("#player{seat}: {name}: {problem}").format(
                    seat=seat, name=quoted(name), problem=problem
                ),
            )
        if seat in self.players:
            raise RecordError(number, _("#player{seat} is named twice").format(seat=seat))
        if name in self.players.values():
            raise RecordError(number, _("two players are named {name}").format(name=quoted(name)))
        self.players[seat] = name

    def finish(self, line: int) -> tuple[list[str], Rules]:
        """The players' names in seat order and the rules; `line` is blamed for gaps."""
        seats = sorted(self.players)
        if seats != list(range(1, len(seats) + 1)) or not 2 <= len(seats) <= 4:
            if seats:
                reason = _(
                    "the players must be #player1 to #player2, #player3 or #player4 (2 to 4 "
                    "players, numbered from 1 without gaps); this record has {seats}"
                )
            else:
                reason = _(
                    "the players must be #player1 to #player2, #player3 or #player4 (2 to 4 "
                    "players, numbered from 1 without gaps); this record names none"
                )
            shown = ", ".join(f"#player{seat}" for seat in seats)
            raise RecordError(line, reason.format(seats=shown))
        names = [self.players[seat] for seat in seats]
        base_line = line
        try:
            rules = Rules.preset(self.preset) if self.preset is not None else Rules()
            for override_line, name, value in self.overrides:
                base_line = override_line
                rules = rules.override(name, value)
        except RulesError as error:
            raise RecordError(base_line, str(error)) from None
        return names, rules


@dataclass(slots=True)
class _Body:
    """The turn, end and #rack lines read so far, each kind in its place."""

    turns: list[_TurnLine] = field(default_factory=list)
    ends: list[_EndLine] = field(default_factory=list)
    racks: list[_RackLine] = field(default_factory=list)
    left: list[_LeftLine] = field(default_factory=list)

    def read_left_line(self, argument: str, number: int, names: Sequence[str]) -> None:
        """Take a ``#left NAME REASON`` line (its argument): a seat that left the game."""
        if self.ends or self.racks:
            raise RecordError(number, _("a #left line comes before the end lines and #rack lines"))
        name, _space, reason = argument.rpartition(" ")
        name = name.strip()
        if reason not in LEFT_REASONS or not name:
            raise RecordError(
                number,
                _("a #left line is '#left NAME REASON', REASON {reasons}").format(
                    reasons=", ".join(LEFT_REASONS)
                ),
            )
        if name not in names:
            raise RecordError(
                number,
                _("unknown player {name}: the players are {players}").format(
                    name=quoted(name), players=", ".join(names)
                ),
            )
        self.left.append(_LeftLine(number, names.index(name), reason))

    def read_move_line(self, line: str, number: int, names: Sequence[str]) -> None:
        """Take a ``>`` line: a turn, or an end-of-game line."""
        entry = _parse_turn_or_end(line, number, names)
        if self.racks:
            if isinstance(entry, _TurnLine):
                after = _("a turn after the final racks (line {line})")
            else:
                after = _("an end line after the final racks (line {line})")
            raise RecordError(
                number,
                after.format(line=self.racks[0].line),
            )
        if isinstance(entry, _TurnLine):
            if self.ends:
                raise RecordError(
                    number,
                    _("a turn after the end of the game (line {line})").format(
                        line=self.ends[0].line
                    ),
                )
            self.turns.append(entry)
        else:
            self.ends.append(entry)

    def read_rack_line(self, argument: str, number: int, names: Sequence[str]) -> None:
        """Take a ``#rack NAME TILES`` line (its argument)."""
        if self.ends:
            raise RecordError(
                number,
                _("a #rack line after the end of the game (the end lines give the final racks)"),
            )
        self.racks.append(_parse_rack_line(argument, number, names))


def _magic_line(lines: Sequence[str]) -> int:
    """The index of the magic line, which comes first (blank lines before it forgiven)."""
    number = 0
    while number < len(lines) and not lines[number].strip():
        number += 1
    if number >= len(lines) or lines[number].strip() != MAGIC:
        raise RecordError(
            number + 1 if number < len(lines) else None,
            _("not a binscrabble record: the first line must be {magic}").format(magic=repr(MAGIC)),
        )
    return number


def _is_header_line(line: str) -> bool:
    return line.partition(" ")[0] in _HEADER_KEYWORDS or bool(_PLAYER_PRAGMA.fullmatch(line))


def _read_header_line(
    header: _Header, line: str, keyword: str, number: int, in_header: bool
) -> None:
    """A line that is neither a turn nor a rack line: a header line, read into `header`
    while `in_header` (before the first turn)."""
    if not line.startswith("#"):
        raise RecordError(
            number,
            _(
                "cannot read {line}: a line is a turn '>NAME: RACK MOVE +SCORE TOTAL', an end "
                "line '>NAME: (RACK) +/-POINTS TOTAL', a '#' header or comment, or empty"
            ).format(line=quoted(line)),
        )
    if not _is_header_line(line):
        raise RecordError(
            number,
            _(
                "unknown header {keyword}: headers are #playerN, #preset, #rule, #seed, #rack, "
                "#left; a comment starts with '# ' (a space after the #)"
            ).format(keyword=quoted(keyword)),
        )
    if not in_header:
        raise RecordError(
            number,
            _("{keyword} belongs in the header, before the first turn").format(keyword=keyword),
        )
    header.read(line, number)


def _parse(text: str) -> _Parsed:
    # Some editors (Windows Notepad) start a UTF-8 file with a byte order mark.
    lines = text.removeprefix("\ufeff").splitlines()
    header = _Header()
    body = _Body()
    started: tuple[list[str], Rules] | None = None
    for index in range(_magic_line(lines) + 1, len(lines)):
        number = index + 1
        line = lines[index].strip()
        if not line or line == "#" or line.startswith("# "):
            continue
        if len(line) > MAX_RECORD_LINE:
            raise RecordError(
                number,
                _(
                    "the line has {count} characters; a record's lines have at most {most} "
                    "(comments, which start with '# ', excepted)"
                ).format(count=len(line), most=MAX_RECORD_LINE),
            )
        keyword, _space, argument = line.partition(" ")
        if line.startswith(">") or keyword in ("#rack", "#left"):
            if started is None:
                started = header.finish(number)
            if keyword == "#rack":
                body.read_rack_line(argument.strip(), number, started[0])
            elif keyword == "#left":
                body.read_left_line(argument.strip(), number, started[0])
            else:
                body.read_move_line(line, number, started[0])
        else:
            _read_header_line(header, line, keyword, number, in_header=started is None)
    names, rules = started if started is not None else header.finish(len(lines))
    return _Parsed(names, rules, header.seed, body.turns, body.ends, body.racks, body.left)


def _number(text: str, line: int, what: Number) -> int:
    """A whole number of a record line, once its digits are known to be few enough."""
    try:
        check_digits(text, what)
    except InputLimitError as error:
        raise RecordError(line, str(error)) from None
    return int(text)


def _parse_seed(text: str, line: int) -> int | str:
    if text.startswith('"'):
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = None
        if isinstance(value, str):
            return value
        raise RecordError(line, _("seed {text} is not a quoted text").format(text=text))
    if _TOTAL.fullmatch(text):
        return _number(text, line, "seed")
    raise RecordError(
        line, _("seed {text} is not a whole number (or a quoted text)").format(text=quoted(text))
    )


def _match_player(text: str, names: Sequence[str], line: int) -> tuple[int, str]:
    """The seat whose name starts ``text`` (followed by ``:``) and what follows the colon."""
    for name in sorted(names, key=len, reverse=True):
        if text.startswith(name + ":"):
            return names.index(name), text[len(name) + 1 :].strip()
    shown = text.split(":", 1)[0]
    raise RecordError(
        line,
        _("unknown player {name}: the players are {players}").format(
            name=quoted(shown), players=", ".join(names)
        ),
    )


def _check_codes(rack: str, line: int) -> str:
    for code in rack:
        if code not in CODE_ORDER:
            raise RecordError(
                line,
                _("the rack {rack} holds {code}, which is not a tile code ({codes})").format(
                    rack=quoted(rack), code=repr(code), codes=" ".join(CODE_ORDER)
                ),
            )
    return rack


def _parse_turn_or_end(text: str, line: int, names: Sequence[str]) -> _TurnLine | _EndLine:
    seat, rest = _match_player(text[1:], names, line)
    if rest.startswith("("):
        match = _END_LINE.fullmatch(rest)
        if match is None:
            raise RecordError(
                line, _("an end line is '>NAME: (RACK) +/-POINTS TOTAL', e.g. '>Bob: (1=) -2 31'")
            )
        adjustment, total = match.group("adjustment"), match.group("total")
        if not _SIGNED.fullmatch(adjustment):
            raise RecordError(
                line,
                _("adjustment {adjustment} must be signed, e.g. +3 or -2").format(
                    adjustment=quoted(adjustment)
                ),
            )
        if not _TOTAL.fullmatch(total):
            raise RecordError(
                line, _("total {total} is not a whole number").format(total=quoted(total))
            )
        rack = _check_codes(match.group("tiles").replace(" ", ""), line)
        return _EndLine(
            line, seat, rack, _number(adjustment, line, "adjustment"), _number(total, line, "total")
        )
    tokens = rest.split()
    if len(tokens) < 4:
        raise RecordError(
            line,
            _(
                "a turn line is '>NAME: RACK MOVE +SCORE TOTAL', e.g. '>Ada: 111+=0&~1 8D 1+1=10 "
                "+18 18'"
            ),
        )
    rack, score, total = tokens[0], tokens[-2], tokens[-1]
    _check_codes(rack, line)
    if not _TURN_SCORE.fullmatch(score):
        raise RecordError(
            line, _("score {score} must be written +N, e.g. +18").format(score=quoted(score))
        )
    if not _TOTAL.fullmatch(total):
        raise RecordError(
            line, _("total {total} is not a whole number").format(total=quoted(total))
        )
    return _TurnLine(
        line,
        seat,
        rack,
        " ".join(tokens[1:-2]),
        _number(score, line, "score"),
        _number(total, line, "total"),
    )


def _parse_rack_line(argument: str, line: int, names: Sequence[str]) -> _RackLine:
    name, _space, rack = argument.rpartition(" ")
    name = name.strip()
    if not name or not rack:
        raise RecordError(line, _("a rack line is '#rack NAME TILES'"))
    if name not in names:
        raise RecordError(
            line,
            _("unknown player {name}: the players are {players}").format(
                name=quoted(name), players=", ".join(names)
            ),
        )
    return _RackLine(line, names.index(name), _check_codes(rack, line))


def _line_of(entry: _Entry | _LeftLine) -> int:
    return entry.line


def _first_racks(parsed: _Parsed) -> list[_Entry | None]:
    """Each seat's first known rack: its rack at the start (a seat draws only on its turn)."""
    first: list[_Entry | None] = [None] * len(parsed.players)
    entries: list[_Entry] = [*parsed.turns, *parsed.ends, *parsed.racks]
    for entry in sorted(entries, key=_line_of):
        if first[entry.seat] is None:
            first[entry.seat] = entry
    return first


def _check_first_rack(entry: _Entry, name: str, rack_size: int) -> None:
    if len(entry.rack) != rack_size:
        raise RecordError(
            entry.line,
            fill(
                _(
                    "{name}'s first rack {rack} has {count} tiles; every rack starts with "
                    "{rack_size}"
                ),
                name=name,
                rack=entry.rack,
                count=len(entry.rack),
                rack_size=rack_size,
            ),
        )


def _deals(game: Game, first: Sequence[_Entry | None]) -> bool:
    """Whether `game`'s racks are the recorded first racks (those recorded)."""
    return all(
        entry is None or Counter(entry.rack) == Counter(game.racks[entry.seat]) for entry in first
    )


def _start(parsed: _Parsed) -> Game:
    """The game before the first turn: seeded when the seed deals the recorded racks."""
    rules = parsed.rules
    first = _first_racks(parsed)
    for entry in first:
        if entry is not None:
            _check_first_rack(entry, parsed.players[entry.seat], rules.rack_size)
    if parsed.seed is not None:
        game = Game(parsed.players, rules, parsed.seed)
        if _deals(game, first):
            return game
    known: list[str | None] = [None] * len(first)
    # Add the racks one by one, in line order, so an impossible one is named by its line.
    for entry in sorted((e for e in first if e is not None), key=_line_of):
        known[entry.seat] = entry.rack
        try:
            game = Game.from_setup(rules, Board(), known, players=parsed.players, seed=parsed.seed)
        except SetupError as error:
            raise RecordError(
                entry.line,
                fill(
                    _("{name}'s first rack {rack} cannot be dealt: {error}"),
                    name=parsed.players[entry.seat],
                    rack=entry.rack,
                    error=error,
                ),
            ) from None
    if all(rack is None for rack in known):
        game = Game.from_setup(rules, Board(), known, players=parsed.players, seed=parsed.seed)
    return game


def _used_codes(move: Move) -> str:
    if isinstance(move, Place):
        return move.codes
    if isinstance(move, Exchange):
        return move.tiles
    return ""


def _replay_turn(game: Game, turn: _TurnLine, next_rack: _Entry | None) -> None:
    name = game.players[turn.seat]
    if game.is_over():
        raise RecordError(
            turn.line, _("the game is already over ({outcome})").format(outcome=game.outcome())
        )
    if turn.seat != game.to_move:
        raise RecordError(
            turn.line,
            fill(
                _("it is {expected}'s turn here, not {name}'s"),
                expected=game.players[game.to_move],
                name=name,
            ),
        )
    _check_rack(game, turn.seat, turn.rack, turn.line)
    try:
        move = parse_move(turn.move, game.board)
    except NotationError as error:
        raise RecordError(
            turn.line,
            _("cannot read the move {move}: {error}").format(move=quoted(turn.move), error=error),
        ) from None
    problem = game.illegal_reason(move)
    if problem is not None:
        raise RecordError(
            turn.line, _("illegal move {move}: {problem}").format(move=turn.move, problem=problem)
        )
    score = game.score(move)
    if score != turn.score:
        raise RecordError(
            turn.line,
            _("{move} scores {score}, not {written}").format(
                move=turn.move, score=score, written=turn.score
            ),
        )
    if next_rack is not None:
        _arrange_draws(game, move, turn, next_rack)
    game.push(move)
    total = game.history[-1].scores[turn.seat]
    if total != turn.total:
        raise RecordError(
            turn.line,
            fill(
                _("{name}'s total after this turn is {total}, not {written}"),
                name=name,
                total=total,
                written=turn.total,
            ),
        )


def _draw_count(game: Game, move: Move) -> int:
    """How many tiles the mover draws after `move` (before it is played)."""
    if isinstance(move, Place):
        return min(len(move.tiles), game.bag_size)
    if isinstance(move, Exchange):
        return len(move.tiles)
    return 0


def _beyond(wanted: str, kept: list[str]) -> str:
    """The codes of `wanted` left once the `kept` ones are taken out, in order."""
    left = Counter(kept)
    drawn = []
    for code in wanted:
        if left[code]:
            left[code] -= 1
        else:
            drawn.append(code)
    return "".join(drawn)


def _arrange_draws(game: Game, move: Move, turn: _TurnLine, next_rack: _Entry) -> None:
    """Arrange the bag so that the mover draws what its next rack in the record shows."""
    name = game.players[turn.seat]
    kept = list(game.rack(turn.seat))
    for code in _used_codes(move):
        kept.remove(code)
    count = _draw_count(game, move)
    wanted = next_rack.rack
    if len(wanted) != len(kept) + count:
        raise RecordError(
            next_rack.line,
            fill(
                _(
                    "{name}'s rack {rack} has {count} tiles, but after line {line} {name} holds "
                    "{held}"
                ),
                name=name,
                rack=wanted or "()",
                count=len(wanted),
                line=turn.line,
                held=len(kept) + count,
            ),
        )
    kept_text = "".join(kept)
    if wanted.startswith(kept_text):
        drawn = wanted[len(kept_text) :]
    else:
        missing = Counter(kept) - Counter(wanted)
        if missing:
            raise RecordError(
                next_rack.line,
                fill(
                    _("{name}'s rack {rack} lacks {tiles}, which {name} kept at line {line}"),
                    name=name,
                    rack=wanted or "()",
                    tiles="".join(sorted(missing.elements())),
                    line=turn.line,
                ),
            )
        drawn = _beyond(wanted, kept)
    try:
        game.arrange_draws(drawn)
    except SetupError as error:
        raise RecordError(
            next_rack.line,
            fill(
                _(
                    "{name}'s rack {wanted} cannot be: after line {line} {name} draws {drawn}, "
                    "but {error}"
                ),
                name=name,
                wanted=wanted,
                line=turn.line,
                drawn=drawn,
                error=error,
            ),
        ) from None


def _check_rack(game: Game, seat: int, rack: str, line: int, *, final: bool = False) -> None:
    actual = game.racks[seat]
    if Counter(actual) != Counter(rack):
        if final:
            reason = _("{name}'s final rack is {rack} here, not {written}")
        else:
            reason = _("{name}'s rack is {rack} here, not {written}")
        raise RecordError(
            line,
            fill(reason, name=game.players[seat], rack=actual or "()", written=rack or "()"),
        )


def _check_end(game: Game, parsed: _Parsed) -> None:
    if not parsed.ends:
        return
    outcome = game.outcome()
    if outcome is None:
        raise RecordError(
            parsed.ends[0].line,
            _("the game is not over here: end lines '(RACK)' come after the last turn"),
        )
    seen: set[int] = set()
    for end in parsed.ends:
        name = game.players[end.seat]
        if end.seat in seen:
            raise RecordError(end.line, _("a second end line for {name}").format(name=name))
        seen.add(end.seat)
        _check_rack(game, end.seat, end.rack, end.line, final=True)
        if end.adjustment != outcome.adjustments[end.seat]:
            raise RecordError(
                end.line,
                fill(
                    _("{name}'s end-of-game adjustment is {adjustment}, not {written}"),
                    name=name,
                    adjustment=f"{outcome.adjustments[end.seat]:+d}",
                    written=f"{end.adjustment:+d}",
                ),
            )
        if end.total != outcome.scores[end.seat]:
            raise RecordError(
                end.line,
                fill(
                    _("{name}'s final total is {total}, not {written}"),
                    name=name,
                    total=outcome.scores[end.seat],
                    written=end.total,
                ),
            )
    missing = [game.players[seat] for seat in range(len(game.players)) if seat not in seen]
    if missing:
        raise RecordError(
            parsed.ends[-1].line,
            _("the end lines leave out {names}").format(names=", ".join(missing)),
        )
