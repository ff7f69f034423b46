"""Hostile input at the command line, each case of issue 37's "CLI leftovers" as a test:
every command is run in its own process with a timeout (and, where memory is the point, a
cap on its address space), and ends with a sentence and exit status 2, never a traceback,
a hang or a blow-up."""

from __future__ import annotations

import json
import os
import resource
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from binscrabble.board import Board
from binscrabble.game import Game
from binscrabble.limits import quoted
from binscrabble.move import Pass, parse_move
from binscrabble.record import write_record, write_record_file
from binscrabble.rules import Rules, RulesError

#: Seconds a command may take before the test calls it a hang (the fixed commands take
#: about one; a loaded machine may take several).
TIMEOUT = 60
#: The address space a command may use where memory is the point: enough to start Python
#: and the engine, far under what the unbounded cases took.
MEMORY_CAP = 768 * 1024 * 1024
#: The longest an argparse error may be: the usage lines and a sentence quoting at most
#: 60 characters of each thing it names.
SHORT_ERROR = 1200


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run(
    arguments: list[str],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    stdin: bytes = b"",
    cap: bool = False,
) -> subprocess.CompletedProcess[str]:
    """``binscrabble ARGUMENTS`` in a process of its own; a hang fails the test."""
    preexec: Callable[[], None] | None = _cap_memory if cap else None
    completed = subprocess.run(
        [sys.executable, "-m", "binscrabble", *arguments],
        input=stdin,
        capture_output=True,
        timeout=TIMEOUT,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        preexec_fn=preexec,
        check=False,
    )
    return subprocess.CompletedProcess(
        completed.args,
        completed.returncode,
        completed.stdout.decode("utf-8", errors="backslashreplace"),
        completed.stderr.decode("utf-8", errors="backslashreplace"),
    )


def refused(completed: subprocess.CompletedProcess[str], *sentence: str) -> None:
    """Exit status 2 with a sentence on standard error (each piece of `sentence` in it)."""
    assert "Traceback" not in completed.stderr, completed.stderr
    assert completed.returncode == 2, (completed.returncode, completed.stderr[-2000:])
    assert "error" in completed.stderr
    for piece in sentence:
        assert piece in completed.stderr, completed.stderr


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """The record of a short game: Ada plays, Bo passes."""
    game = Game.from_setup(Rules(), Board(), ["111+=0&~1", "000000000"], players=["Ada", "Bo"])
    game.push(parse_move("8D 1+1=10", game.board))
    game.push(Pass())
    path = tmp_path / "rec.bsr"
    write_record_file(game, path)
    return path


@pytest.fixture
def position(tmp_path: Path) -> Path:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"board": ["." * 15] * 15, "rack": "1+1=10"}), encoding="utf-8")
    return path


# -- rules files: nesting by dotted keys, numbers in every base ----------------------------

DEPTH = 20_000


@pytest.mark.parametrize(
    "text",
    [
        ".".join(["a"] * DEPTH) + " = 1\n",
        ".".join(['"a"'] * DEPTH) + " = 1\n",
        " . ".join(["'a'"] * DEPTH) + " = 1\n",
        "[" + ".".join(["a"] * DEPTH) + "]\n",
        "[[" + ".".join(["a"] * DEPTH) + "]]\n",
        "x = {" + ".".join(["a"] * DEPTH) + " = 1}\n",
        "x = " + "{a = " * 20 + "{" + ".".join(["a"] * 20) + " = 1" + "}" * 21 + "\n",
        # An escaped quote ends no multi-line string: what follows the second """ is a key.
        'x = """\\"""\ny = """\n' + ".".join(["a"] * DEPTH) + ' = 1\nz = """ """\n',
    ],
    ids=["bare", "quoted", "literal-spaced", "table", "array-table", "inline", "mixed", "escaped"],
)
def test_dotted_keys_nest_like_brackets(tmp_path: Path, text: str) -> None:
    rules = tmp_path / "deep.toml"
    rules.write_text(text, encoding="utf-8")
    completed = run(["check", "--rules", str(rules), "1=1"], cap=True)
    refused(completed, "nests more than 32 levels deep")


def test_a_shallow_dotted_key_is_still_read(tmp_path: Path) -> None:
    rules = tmp_path / "dotted.toml"
    rules.write_text("rules.bingo_bonus = 40\nrules . xor_tiles = 2\n", encoding="utf-8")
    assert Rules.from_toml(rules) == Rules(bingo_bonus=40, xor_tiles=2)


@pytest.mark.parametrize(
    "number",
    [
        "0x" + "f" * 5000,
        "0o" + "7" * 5000,
        "0b" + "1" * 5000,
        "1_" * 2500 + "1",
        "0x" + "f_" * 200 + "f",
    ],
    ids=["hex", "octal", "binary", "underscores", "hex-underscores"],
)
def test_a_rules_number_in_any_base_is_bounded(tmp_path: Path, number: str) -> None:
    rules = tmp_path / "number.toml"
    rules.write_text(f"bingo_bonus = {number}\n", encoding="utf-8")
    completed = run(["check", "--rules", str(rules), "1=1"])
    refused(completed, "digits; numbers have at most 100")


def test_a_huge_whole_number_is_quoted_without_failing() -> None:
    huge = int("9" * 4000) ** 2
    assert len(quoted(huge)) <= 60
    with pytest.raises(RulesError, match="bingo_bonus takes a whole number"):
        Rules.from_mapping({"bingo_bonus": huge})


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["moves", "{position}"], "--top"),
        (["replay", "{record}"], "--turn"),
        (["best", "{position}"], "--seed"),
        (["selfplay", "--players", "greedy,random"], "--games"),
        (["play", "--players", "a,b"], "--seed"),
        (["serve"], "--port"),
    ],
)
def test_integer_options_refuse_a_huge_number_briefly(
    command: list[str], option: str, position: Path, record: Path
) -> None:
    arguments = [part.format(position=position, record=record) for part in command]
    for value in ("9" * 5000, "0x" + "f" * 5000):
        completed = run([*arguments, option, value])
        refused(completed, option)
        assert len(completed.stderr) < SHORT_ERROR, completed.stderr


# -- float options -------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-5", "1e308", "1e999", "0"])
def test_tile_size_takes_a_finite_sensible_number(tmp_path: Path, value: str) -> None:
    completed = run(["print-set", "-o", str(tmp_path / "x.svg"), f"--tile-mm={value}"])
    refused(completed, "--tile-mm")
    assert not (tmp_path / "x.svg").exists()


def test_the_tile_plan_refuses_what_is_not_a_number() -> None:
    from binscrabble.print.tiles import TileSetError, plan_tile_set

    for value in (float("nan"), float("inf"), float("-inf")):
        with pytest.raises(TileSetError, match="finite"):
            plan_tile_set(Rules(), value, "a4")


# -- serve --db ----------------------------------------------------------------------------


def _not_a_database(tmp_path: Path) -> str:
    path = tmp_path / "notes.db"
    path.write_text("not a database\n" * 100, encoding="utf-8")
    return str(path)


def _fifo(tmp_path: Path) -> str:
    path = tmp_path / "games.db"
    os.mkfifo(path)
    return str(path)


@pytest.mark.parametrize(
    ("make", "sentence"),
    [
        (lambda tmp: str(tmp / "missing" / "games.db"), "no folder"),
        (lambda tmp: str(tmp), "is a folder"),
        (_not_a_database, "not an SQLite database"),
        (_fifo, "not a regular file"),
        (lambda tmp: f"sqlite:///{tmp}/missing/games.db", "no folder"),
        (lambda tmp: "postgresql+psycopg2://user@localhost/games", "driver"),
        (lambda tmp: "postgresql+psycopg://user@127.0.0.1:1/games", "cannot be opened"),
        (lambda tmp: "nosuch://x", "nosuch"),
        (lambda tmp: "://", "URL"),
    ],
    ids=[
        "missing-folder",
        "folder",
        "not-a-database",
        "fifo",
        "url-missing",
        "postgresql-no-driver",
        "postgresql-no-server",
        "nosuch",
        "bad-url",
    ],
)
def test_serve_refuses_a_database_it_cannot_use_before_listening(
    tmp_path: Path, make: Callable[[Path], str], sentence: str
) -> None:
    completed = run(["serve", "--port", "0", "--db", make(tmp_path)])
    refused(completed, "--db", sentence)
    assert "serving on" not in completed.stdout


def test_serve_refuses_a_host_with_control_characters() -> None:
    completed = run(["serve", "--port", "0", "--db", "sqlite://", "--host", "a\x1b[2J" + "b" * 300])
    refused(completed, "--host")
    assert "\x1b" not in completed.stderr
    assert len(completed.stderr) < SHORT_ERROR


# -- a standard output that cannot show every character ------------------------------------

ASCII_ENVIRONMENTS = [
    {"PYTHONIOENCODING": "ascii"},
    {"PYTHONIOENCODING": "latin-1"},
    {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "PYTHONIOENCODING": ""},
]


@pytest.mark.parametrize("env", ASCII_ENVIRONMENTS, ids=["ascii", "latin-1", "C-locale"])
def test_check_survives_an_ascii_standard_output(env: dict[str, str]) -> None:
    completed = run(["check"], env=env, stdin="¬101=10\n".encode())
    assert "Traceback" not in completed.stderr, completed.stderr
    assert completed.returncode == 0
    assert "101=10: valid" in completed.stdout
    for arguments in (
        ["check", "¬101=10"],
        ["check", "--explain", "¬101=10 × 1"],
        ["check", "--help"],
    ):
        completed = run(arguments, env=env)
        assert "Traceback" not in completed.stderr, completed.stderr
        assert completed.returncode in (0, 1), completed.stderr


@pytest.mark.parametrize("env", ASCII_ENVIRONMENTS, ids=["ascii", "latin-1", "C-locale"])
def test_every_command_printing_user_text_survives_an_ascii_output(
    env: dict[str, str], tmp_path: Path, position: Path
) -> None:
    game = Game.from_setup(Rules(), Board(), ["111+=0&~1", "000000000"], players=["Zoë", "Ωmega"])
    game.push(parse_move("8D 1+1=10", game.board))
    record = tmp_path / "named.bsr"
    record.write_text(write_record(game), encoding="utf-8")
    for arguments in (
        ["replay", str(record)],
        ["render", str(record), "-o", str(tmp_path / "é.svg")],
        ["print-set", "-o", str(tmp_path / "é.svg")],
        ["moves", str(position), "--top", "2"],
        ["--help"],
        ["play", "--help"],
    ):
        completed = run(arguments, env=env)
        assert "Traceback" not in completed.stderr, (arguments, completed.stderr)
        assert completed.returncode == 0, (arguments, completed.stderr)


# -- argparse's own errors -----------------------------------------------------------------


@pytest.mark.parametrize(
    "arguments",
    [
        ["moves", "{position}", "--\x1b[2Jx"],
        ["moves", "{position}", "extra\x1b]0;title\x07" + "x" * 5000],
        ["\x1b[2J" + "x" * 5000],
        ["print-set", "-o", "x.svg", "--paper", "\x1b[2J" + "x" * 5000],
        ["render", "{position}", "-o", "x.svg", "--size", "\x1b[2J" + "9" * 5000],
        ["best", "{position}", "--player", "simulation@" + "1" * 5000],
        ["best", "{position}", "--player", "\x1b[2J" + "x" * 5000],
        ["selfplay", "--players", "greedy,simulation@" + "1" * 5000, "--games", "2"],
        ["selfplay", "--players", "\x1b[2J" + "x," * 2500, "--games", "2"],
        ["print-rules", "-o", "x.pdf", "--lang", "\x1b[2J" + "x" * 5000],
        ["print-set", "-o", "x.svg", "--ru=" + "a\x1b " * 2500],
        ["print-set", "-o", "x.svg", "--bed", "\x1b[2J" + "x" * 5000],
    ],
)
def test_argument_errors_are_escaped_and_short(
    arguments: list[str], position: Path, tmp_path: Path
) -> None:
    given = [part.replace("{position}", str(position)) for part in arguments]
    completed = run(given, cwd=tmp_path)
    refused(completed)
    assert "\x1b" not in completed.stderr and "\x07" not in completed.stderr
    assert len(completed.stderr) < SHORT_ERROR, completed.stderr


# -- FIFOs ---------------------------------------------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.bsr"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    "arguments",
    [
        ["replay", "{fifo}"],
        ["moves", "{fifo}"],
        ["best", "{fifo}"],
        ["analyze", "{fifo}"],
        ["render", "{fifo}", "-o", "x.svg"],
        ["check", "--rules", "{fifo}", "1=1"],
        ["play", "--resume", "{fifo}"],
        ["play", "--players", "a,b", "--save", "{fifo}"],
        ["print-set", "-o", "{fifo}.svg"],
        ["print-rules", "-o", "{fifo}.pdf"],
        ["render", "{record}", "-o", "{fifo}.svg"],
    ],
)
def test_a_fifo_with_no_one_at_the_other_end_ends_at_once(
    arguments: list[str], fifo: Path, record: Path, tmp_path: Path
) -> None:
    for suffix in (".svg", ".pdf"):
        os.mkfifo(f"{fifo}{suffix}")
    given = [part.format(fifo=fifo, record=record) for part in arguments]
    completed = run(given, cwd=tmp_path, stdin=b"quit\n")
    refused(completed, str(fifo))
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_fifo_with_a_writer_is_read(record: Path, tmp_path: Path) -> None:
    completed = subprocess.run(
        ["bash", "-c", '"$0" -m binscrabble replay <(cat "$1")', sys.executable, str(record)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "Ada vs Bo: after turn 2 of 2" in completed.stdout


# -- pictures ------------------------------------------------------------------------------


def test_an_animation_too_large_to_make_is_refused_at_once(record: Path, tmp_path: Path) -> None:
    output = tmp_path / "x.gif"
    completed = run(
        ["render", str(record), "--animate", "--size", "8000", "-o", str(output)], cap=True
    )
    refused(completed, "million pixels", "--size")
    assert not output.exists()


# -- numbers and names read elsewhere --------------------------------------------------------


def test_a_square_or_coordinate_with_a_huge_row_is_off_the_board() -> None:
    from binscrabble.board import SquareError, parse_square
    from binscrabble.move import NotationError

    with pytest.raises(SquareError, match="off the board") as square:
        parse_square("A" + "9" * 5000)
    assert len(str(square.value)) < 200
    for text in ("9" * 5000 + "A 1=1", "A" + "9" * 5000 + " 1=1", "x" * 5000 + " 1=1"):
        with pytest.raises(NotationError) as notation:
            parse_move(text, Board())
        assert len(str(notation.value)) < 300


def test_a_long_player_name_is_quoted_briefly(tmp_path: Path) -> None:
    completed = run(
        ["play", "--players", "\x1b[2J" + "x" * 5000 + ",b", "--save", str(tmp_path / "g.bsr")],
        stdin=b"quit\n",
    )
    refused(completed, "cannot be a player's name")
    assert "\x1b" not in completed.stderr
    assert len(completed.stderr) < SHORT_ERROR


def test_the_written_file_is_named_with_its_control_characters_escaped(
    record: Path, tmp_path: Path
) -> None:
    for arguments in (
        ["render", str(record), "-o", "board\x1b[2J.svg"],
        ["print-set", "-o", "tiles\x1b[2J.svg"],
    ):
        completed = run(arguments, cwd=tmp_path)
        assert completed.returncode == 0, completed.stderr
        assert "\x1b" not in completed.stdout and "\\x1b[2J" in completed.stdout


# -- the scan for nesting itself -------------------------------------------------------------

HALF_MIB = 1 << 19


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("rules.toml", "x = " + '\\"' * (HALF_MIB // 2) + "\\"),
        ("rules.toml", 'x = """' + '\\"""\n' * (HALF_MIB // 5)),
        ("rules.toml", "x = " + "'\\" * (HALF_MIB // 2)),
        ("rules.toml", "k" * HALF_MIB + ".a = 1"),
        ("pos.json", "[" + '\\"' * (HALF_MIB // 2) + "\\"),
    ],
    ids=["basic-escapes", "multiline-escapes", "literal", "long-key", "json-escapes"],
)
def test_quotes_and_words_are_scanned_once(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    command = (
        ["moves", str(path)] if name.endswith(".json") else ["check", "--rules", str(path), "1=1"]
    )
    refused(run(command, cap=True))
