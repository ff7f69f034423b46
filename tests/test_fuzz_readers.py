"""Fuzzing every reader: notation, expressions, records, positions, rules (TOML and
mappings) and the command line, fed random and mutated input.

The invariant: a reader raises only its documented error (or answers), never anything
else, and the command line ends with its contract's exit status. `make test` runs a short,
fixed budget; `make fuzz` sets BINSCRABBLE_FUZZ=long for many more random examples and a
generous deadline per input (a blow-up shows as a finding).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from binscrabble.board import Board
from binscrabble.cli import main
from binscrabble.expr import EquationError, check, equation_value, normalize
from binscrabble.game import Game
from binscrabble.move import NotationError, Pass, parse_move
from binscrabble.position import KNOWN_KEYS, PositionError, load_position, read_position_file
from binscrabble.record import RecordError, read_record, write_record
from binscrabble.rules import RULE_NAMES, Rules, RulesError

LONG = os.environ.get("BINSCRABBLE_FUZZ") == "long"
FUZZ = settings(
    max_examples=5_000 if LONG else 40,
    # The short run is the same every time; the long one explores anew.
    derandomize=not LONG,
    database=None,
    deadline=timedelta(seconds=10) if LONG else None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

EMPTY = ["." * 15] * 15
EXPRESSION_CHARACTERS = [*"01=+-x/&|~^() ?*×÷:∧∨¬!⊕−XANDORNT\t", "AND", "OR", "NOT", "XOR"]
expression_texts = st.lists(
    st.sampled_from(EXPRESSION_CHARACTERS) | st.characters(), max_size=40
).map("".join)
rule_sets = st.builds(
    lambda preset, changes: Rules.preset(preset).with_overrides(changes),
    st.sampled_from(["learning", "standard", "expert"]),
    st.fixed_dictionaries(
        {},
        optional={
            "precedence": st.sampled_from(["standard", "left-to-right"]),
            "identity_chains": st.booleans(),
            "allow_negatives": st.booleans(),
            "leading_zeros": st.booleans(),
            "parallel_numbers": st.booleans(),
            "rotated_equals": st.booleans(),
            "xor_tiles": st.integers(0, 20),
        },
    ),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=20,
)


def _sample_game() -> Game:
    game = Game.from_setup(Rules(), Board(), ["111+=0&~1", "000000000"], players=["Ada", "Bo"])
    game.push(parse_move("8D 1+1=10", game.board))
    game.push(Pass())
    game.push(Pass())
    return game


SAMPLE = _sample_game()
RECORD = write_record(SAMPLE)
POSITION: dict[str, Any] = {
    "rules": {"preset": "standard"},
    "board": SAMPLE.board.rows(),
    "blanks": [],
    "rotated": [],
    "rack": "1101=+x0?",
    "players": ["Ada", "Bo"],
    "scores": [18, 0],
    "to_move": 0,
}


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """`text` after a few random edits: characters and lines deleted, inserted, repeated."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            lines.append("")
        where = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["cut", "insert", "repeat", "drop", "swap", "number"]))
        line = lines[where]
        if kind == "cut" and line:
            start = draw(st.integers(0, len(line) - 1))
            lines[where] = line[:start] + line[start + draw(st.integers(1, 5)) :]
        elif kind == "insert":
            start = draw(st.integers(0, len(line)))
            piece = draw(st.text(max_size=6) | st.sampled_from(["#", ">", ":", " ", "+", "?"]))
            lines[where] = line[:start] + piece + line[start:]
        elif kind == "repeat":
            lines.insert(where, line)
        elif kind == "drop":
            del lines[where]
        elif kind == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[where], lines[other] = lines[other], line
        else:
            lines[where] = line + " " + str(draw(st.integers(-(10**150), 10**150)))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


def only(errors: tuple[type[BaseException], ...], call: Callable[[], object]) -> None:
    """Call `call`; it may raise only one of `errors`, and that with a message."""
    try:
        call()
    except errors as error:
        assert str(error).strip(), f"{type(error).__name__} without a message"


# -- expressions and notation ------------------------------------------------------------------


@FUZZ
@given(expression_texts, rule_sets)
def test_check_answers_any_text(text: str, rules: Rules) -> None:
    result = check(text, rules)
    assert result.input == text
    assert (result.reason is None) == (result.value is not None)


@FUZZ
@given(expression_texts, rule_sets)
def test_normalize_and_evaluate_raise_only_equation_errors(text: str, rules: Rules) -> None:
    only((EquationError,), lambda: equation_value(normalize(text), rules))


notations = (
    st.tuples(
        st.sampled_from(["8D", "D8", "H8", "8H", "A1", "O15", "16A", "P1", "exchange", "pass", ""]),
        expression_texts,
    ).map(" ".join)
    | expression_texts
)


@FUZZ
@given(notations, st.sampled_from([Board(), SAMPLE.board]))
def test_parse_move_raises_only_notation_errors(text: str, board: Board) -> None:
    only((NotationError,), lambda: parse_move(text, board))


# -- records -----------------------------------------------------------------------------------


@FUZZ
@given(mutated(RECORD) | st.text(max_size=300))
def test_read_record_raises_only_record_errors(text: str) -> None:
    only((RecordError,), lambda: read_record(text))


# -- positions ---------------------------------------------------------------------------------


position_mappings = st.fixed_dictionaries(
    {}, optional={key: json_values for key in KNOWN_KEYS}
) | st.builds(
    lambda changes: {**POSITION, **changes},
    st.dictionaries(st.sampled_from([*KNOWN_KEYS, "extra"]), json_values, max_size=3),
)


@FUZZ
@given(position_mappings)
def test_load_position_raises_only_position_errors(data: dict[str, Any]) -> None:
    only((PositionError,), lambda: load_position(data))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@FUZZ
@given(
    mutated(json.dumps(POSITION, indent=1)).map(str.encode)
    | st.binary(max_size=300)
    | st.integers(1, 3000).map(lambda depth: b"[" * depth + b"]" * depth)
)
def test_position_files_raise_only_position_errors(folder: Path, data: bytes) -> None:
    path = folder / "position.json"
    path.write_bytes(data)
    only((PositionError,), lambda: load_position(read_position_file(path)))


# -- rules -------------------------------------------------------------------------------------


toml_texts = st.lists(
    st.tuples(
        st.sampled_from([*RULE_NAMES, "preset", "rules", "[rules]", "x"]),
        st.sampled_from(["=", " = ", "", "=="]),
        st.sampled_from(['"on"', "true", "4", '"expert"', "[1, [2]]", "{a = 1}", "'x"])
        | st.text(max_size=10),
    ).map("".join),
    max_size=6,
).map("\n".join)


@FUZZ
@given(toml_texts.map(str.encode) | st.binary(max_size=200))
def test_rules_files_raise_only_rules_errors(folder: Path, data: bytes) -> None:
    path = folder / "rules.toml"
    path.write_bytes(data)
    only((RulesError,), lambda: Rules.from_toml(path))


@FUZZ
@given(st.dictionaries(st.sampled_from([*RULE_NAMES, "preset", "nope"]), json_values))
def test_rules_mappings_raise_only_rules_errors(data: dict[str, Any]) -> None:
    only((RulesError,), lambda: Rules.from_mapping(data))


# -- the command line --------------------------------------------------------------------------


def run_cli(arguments: list[str], stdin: bytes = b"") -> int:
    """Run the command line in this process; its exit status. A usage error (2) must say
    why on standard error; nothing may end in a traceback (an exception out of main)."""
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    errors = io.StringIO()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(errors):
            try:
                status = main(arguments)
            except SystemExit as exit_:
                status = exit_.code if isinstance(exit_.code, int) else 2
    finally:
        sys.stdin = saved
    if status == 2:
        assert errors.getvalue().strip(), f"exit 2 without a reason: {arguments}"
    return status


option_words = st.sampled_from(
    [
        "--json",
        "--explain",
        "--preset",
        "expert",
        "--precedence",
        "left-to-right",
        "--rule",
        "xor_tiles=4",
        "rack_size=99",
        "--rules",
        "/dev/null",
        "--",
        "-h",
        "--top",
        "-3",
        "--turn",
        "5",
        "--player",
        "greedy",
        "--seed",
    ]
)
argument_lists = st.lists(option_words | expression_texts, max_size=6)


@FUZZ
@given(argument_lists, st.binary(max_size=100))
def test_check_exits_with_its_contract_status(arguments: list[str], stdin: bytes) -> None:
    assert run_cli(["check", *arguments], stdin) in (0, 1, 2)


@FUZZ
@given(
    st.sampled_from(["moves", "best", "replay", "analyze", "render"]),
    mutated(json.dumps(POSITION)) | mutated(RECORD) | st.text(max_size=100),
    argument_lists,
)
def test_file_commands_exit_0_or_2(
    folder: Path, command: str, content: str, arguments: list[str]
) -> None:
    path = folder / "input"
    path.write_text(content, encoding="utf-8", errors="surrogatepass")
    extra = ["--player", "greedy"] if command in ("best", "analyze") else []
    if command == "render":
        extra = ["-o", str(folder / "picture.svg")]
    assert run_cli([command, str(path), *arguments, *extra]) in (0, 2)


@FUZZ
@given(argument_lists, st.binary(max_size=60))
def test_play_exits_0_or_2(folder: Path, arguments: list[str], stdin: bytes) -> None:
    # A game that starts saves in the current folder: the fuzz folder.
    here = Path.cwd()
    os.chdir(folder)
    try:
        for saved in folder.glob("binscrabble-game*.bsr"):
            saved.unlink()
        assert run_cli(["play", "--players", "A,B", *arguments], stdin + b"\nquit\n") in (0, 2)
    finally:
        os.chdir(here)
