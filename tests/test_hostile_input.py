"""Hostile input, each case of issue 32 as a test: every one ends with the contract's exit
code and a sentence, never a traceback, and reads no more than the bounds allow."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from binscrabble.board import Board
from binscrabble.cli import main
from binscrabble.game import Game
from binscrabble.limits import MAX_DIGITS, MAX_FILE_BYTES, escape_controls
from binscrabble.move import Pass, parse_move
from binscrabble.position import PositionError, load_position, read_position_file
from binscrabble.record import (
    RecordError,
    read_record,
    read_record_file,
    write_record,
    write_record_file,
    write_text_atomically,
)
from binscrabble.rules import Rules, RulesError
from binscrabble.terminal import GameSetupError, PlayOptions, parse_players, run_terminal_game

HUGE = "9" * 5000
#: Over the digit bound, under the bound on a record line's length.
LONG = "9" * 500
EMPTY_BOARD = ["." * 15] * 15


def cli(
    arguments: list[str], capsys: pytest.CaptureFixture[str], stdin: bytes | None = None
) -> tuple[int, str, str]:
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        status = main(arguments)
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    finally:
        sys.stdin = sys.__stdin__
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def two_turns() -> str:
    """The record of a short game: Ada plays, Bob passes."""
    game = Game.from_setup(Rules(), Board(), ["111+=0&~1", "000000000"], players=["Ada", "Bo"])
    game.push(parse_move("8D 1+1=10", game.board))
    game.push(Pass())
    return write_record(game)


def record_error(text: str) -> RecordError:
    with pytest.raises(RecordError) as caught:
        read_record(text)
    return caught.value


# -- numbers too long to read ----------------------------------------------------------------


@pytest.mark.parametrize("where", ["score", "total", "seed", "adjustment"])
def test_a_record_number_over_the_digit_bound_is_a_record_error(two_turns: str, where: str) -> None:
    error = record_error(with_number(two_turns, where, LONG))
    assert error.line is not None
    assert f"the {where} has 500 digits; numbers have at most {MAX_DIGITS}" in str(error)
    # Past Python's 4,300-digit limit the line itself is too long to be read.
    error = record_error(with_number(two_turns, where, HUGE))
    assert "a record's lines have at most 1000" in str(error)


def with_number(record: str, where: str, number: str) -> str:
    """`record` with `number` as a turn's score or total, the seed, or an adjustment."""
    lines = record.splitlines()
    if where == "seed":
        lines.insert(4, f"#seed {number}")
    elif where == "adjustment":
        lines.append(f">Ada: (1) +{number} 10")
    else:
        turn = next(index for index, line in enumerate(lines) if line.startswith(">Ada"))
        words = lines[turn].split()
        if where == "score":
            words[-2] = "+" + number
        else:
            words[-1] = number
        lines[turn] = " ".join(words)
    return "\n".join(lines) + "\n"


def test_a_position_number_over_the_digit_bound_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.json"
    path.write_text(
        f'{{"board": {json.dumps(EMPTY_BOARD)}, "rack": "1=1", "scores": [{HUGE}, 0]}}',
        encoding="utf-8",
    )
    status, out, err = cli(["moves", str(path)], capsys)
    assert status == 2 and out == ""
    assert "a number of 5000 digits; numbers have at most 100" in err
    assert "Traceback" not in err


def test_a_bad_default_save_file_stops_play_with_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, two_turns: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "binscrabble-game.bsr").write_text(
        two_turns.replace("#player1 Ada", f"#player1 Ada\n#seed {LONG}"), encoding="utf-8"
    )
    stdout, stderr = io.StringIO(), io.StringIO()
    status = run_terminal_game(PlayOptions(), io.StringIO(""), stdout, stderr)
    assert status == 2
    assert "binscrabble-game.bsr exists and is not a saved game (line 4: the seed has 500 " in (
        stderr.getvalue()
    )


def test_play_refuses_a_seed_its_record_could_not_hold(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = cli(["play", "--players", "A,B", "--seed", "1" * 101], capsys)
    assert status == 2 and "--seed: expected a whole number of at most 100 digits" in err


# -- nesting ---------------------------------------------------------------------------------


def test_a_deeply_nested_position_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"board": ' + "[" * 5000 + "]" * 5000 + "}", encoding="utf-8")
    status, _, err = cli(["moves", str(path)], capsys)
    assert status == 2
    assert "nests more than 32 levels deep" in err


def test_brackets_inside_strings_are_not_nesting(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(
        json.dumps({"board": EMPTY_BOARD, "rack": "1=1", "comment": "[" * 100}), encoding="utf-8"
    )
    assert read_position_file(path)["comment"] == "[" * 100


def test_a_deeply_nested_rules_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    status, _, err = cli(["check", "--rules", str(path), "1=1"], capsys)
    assert status == 2
    assert f"rules file {path} cannot be read: it nests more than 32 levels deep" in err
    inline = tmp_path / "inline.toml"
    inline.write_text("a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n", encoding="utf-8")
    with pytest.raises(RulesError, match="nests more than 32 levels deep"):
        Rules.from_toml(inline)


def test_a_rules_file_number_over_the_digit_bound_is_a_rules_error(tmp_path: Path) -> None:
    path = tmp_path / "long.toml"
    path.write_text(f"rack_size = {HUGE}\n", encoding="utf-8")
    with pytest.raises(RulesError, match="a number of 5000 digits"):
        Rules.from_toml(path)


# -- encodings -------------------------------------------------------------------------------


def test_a_rules_file_that_is_not_utf8_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes("preset = 'expert' # é\n".encode("latin-1"))
    status, _, err = cli(["check", "--rules", str(path), "1=1"], capsys)
    assert status == 2
    assert "is not a UTF-8 text file" in err


class _Terminal(io.TextIOWrapper):
    """Standard input that says it is a terminal (the interactive path of `check`)."""

    def isatty(self) -> bool:
        return True


def test_interactive_check_survives_a_byte_that_is_not_utf8(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = _Terminal(io.BytesIO(b"1=1\n\xff=1\n"), encoding="utf-8", errors="strict")
    monkeypatch.setattr("sys.stdin", typed)
    status = main(["check"])
    out = capsys.readouterr().out
    assert status == 1
    assert out.splitlines() == [
        "1=1: valid, value 1 (1), bonus 1",
        "\ufffd=1: invalid, unknown symbol '\ufffd' at position 1",
    ]


# -- special files and size ------------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_endless_files_are_read_only_to_the_bound(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(["replay", "/dev/zero"], capsys)
    assert status == 2
    assert "/dev/zero: not a game record: it is larger than 1024 KiB, the most read" in err
    status, _, err = cli(["check", "--rules", "/dev/zero", "1=1"], capsys)
    assert status == 2
    assert "rules file /dev/zero cannot be read: it is larger than 1024 KiB" in err
    status, _, err = cli(["moves", "/dev/zero"], capsys)
    assert status == 2
    assert "/dev/zero is not a position file: it is larger than 1024 KiB" in err


def test_a_record_over_the_size_bound_is_refused(tmp_path: Path, two_turns: str) -> None:
    path = tmp_path / "big.bsr"
    padding = "# " + "x" * 100 + "\n"
    path.write_text(two_turns + padding * (MAX_FILE_BYTES // len(padding) + 1), encoding="utf-8")
    with pytest.raises(RecordError, match="larger than 1024 KiB"):
        read_record_file(path)
    with pytest.raises(RecordError, match="larger than 1024 KiB"):
        read_record(path.read_text(encoding="utf-8"))


def test_an_endless_line_on_standard_input_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = cli(["check"], capsys, stdin=b"1=1\n" + b"\0" * (200 * 1024))
    assert status == 2
    assert out == "1=1: valid, value 1 (1), bonus 1\n"
    assert "line 2 of the input is longer than 64 KiB" in err


# -- messages --------------------------------------------------------------------------------


def test_an_expression_starting_with_minus_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cli(["check", "-1+1=0", "--json", "--rule", "allow_negatives=on"], capsys)
    assert err == ""
    assert json.loads(out)["input"] == "-1+1=0"
    assert status in (0, 1)
    status, out, _ = cli(["check", "--", "--json"], capsys)
    assert status == 1 and out.startswith("--json: invalid, ")


def test_a_fractional_score_is_named() -> None:
    with pytest.raises(PositionError) as caught:
        load_position({"board": EMPTY_BOARD, "rack": "1", "scores": [1.5, 2]})
    assert str(caught.value) == "scores: must be a list of whole numbers, but it holds 1.5"


def test_too_many_blanks_reads_as_a_sentence() -> None:
    board = ["." * 15] * 7 + ["......1=1......"] + ["." * 15] * 7
    with pytest.raises(PositionError) as caught:
        load_position({"board": board, "rack": "????", "blanks": []})
    assert "the board and the rack hold 4 blank tiles; the set has 3" in str(caught.value)
    board = ["." * 15] * 7 + ["......10=10...."] + ["." * 15] * 7
    with pytest.raises(PositionError) as caught:
        load_position({"board": board, "rack": "1", "blanks": ["G8", "H8", "J8", "K8"]})
    assert "the board holds 4 blank tiles; the set has 3" in str(caught.value)


def test_a_comment_without_its_space_after_the_turns_says_so(two_turns: str) -> None:
    error = record_error(two_turns + "#this game was fun\n")
    assert "a comment starts with '# ' (a space after the #)" in str(error)
    assert "belongs in the header" not in str(error)


def test_the_same_player_twice_is_out_of_turn(two_turns: str) -> None:
    lines = two_turns.splitlines()
    bo = next(index for index, line in enumerate(lines) if line.startswith(">Bo:"))
    ada = next(line for line in lines if line.startswith(">Ada:"))
    lines[bo] = ada
    error = record_error("\n".join(lines) + "\n")
    assert error.line == bo + 1
    assert "it is Bo's turn here, not Ada's" in str(error)


# -- terminal injection ----------------------------------------------------------------------


def test_names_with_control_characters_are_refused_on_input(two_turns: str) -> None:
    with pytest.raises(GameSetupError, match="control character"):
        parse_players("Ada\x1b[2J,Bob")
    error = record_error(two_turns.replace("#player1 Ada", "#player1 Ada\x1b[2J"))
    assert "control character" in str(error) and "\x1b" not in str(error)
    with pytest.raises(PositionError, match="control character"):
        load_position({"board": EMPTY_BOARD, "rack": "1", "players": ["A\x07", "B"]})
    with pytest.raises(PositionError, match="control character"):
        load_position({"board": EMPTY_BOARD, "rack": "1", "comment": "\x1b]0;title\x07"})


def test_names_are_escaped_on_the_terminal_whatever_the_game_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A game made by the library with such a name cannot be written as a record.
    game = Game(["Ada\x1b[2J", "Bob"], seed=1)
    with pytest.raises(RecordError, match="control character"):
        write_record(game)
    stdout = io.StringIO()
    from binscrabble.terminal import TerminalGame, render_scores

    assert "\x1b" not in render_scores(game)
    terminal = TerminalGame(game, tmp_path / "x.bsr", io.StringIO(), stdout, {})
    assert terminal.name(0) == "Ada\\x1b[2J"


def test_check_escapes_the_control_characters_it_echoes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = cli(["check", "1=1\x1b[2J"], capsys)
    assert status == 1
    assert "\x1b" not in out and out.startswith("1=1\\x1b[2J: invalid, ")
    status, out, _ = cli(["check", "--json", "1=1\x1b"], capsys)
    assert json.loads(out)["input"] == "1=1\x1b"
    assert "\x1b" not in out
    assert escape_controls("a\u2028b\x9b") == "a\\u2028b\\x9b"


# -- leftovers -------------------------------------------------------------------------------


def test_the_next_save_removes_what_an_interrupted_save_left(tmp_path: Path) -> None:
    target = tmp_path / "game.bsr"
    leftover = tmp_path / ".game.bsr.0123abcd.tmp"
    leftover.write_text("half a record", encoding="utf-8")
    other = tmp_path / ".other.bsr.0123abcd.tmp"
    other.write_text("another file's", encoding="utf-8")
    write_text_atomically(target, "saved\n")
    assert target.read_text(encoding="utf-8") == "saved\n"
    assert not leftover.exists()
    assert other.exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        ".other.bsr.0123abcd.tmp",
        "game.bsr",
    ]


def test_a_declined_resume_then_quit_leaves_the_old_game_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = Game(["Ann", "Ben"], seed=3)
    game.push(Pass())
    write_record_file(game, tmp_path / "binscrabble-game.bsr")
    stdout = io.StringIO()
    # n, then the end of input at the question of the players' names.
    status = run_terminal_game(PlayOptions(), io.StringIO("n\n"), stdout, io.StringIO())
    assert status == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["binscrabble-game.bsr"]
    stdout = io.StringIO()
    status = run_terminal_game(PlayOptions(), io.StringIO("y\nquit\n"), stdout, io.StringIO())
    assert status == 0
    assert "A game is saved in binscrabble-game.bsr (turn 2: Ann 0, Ben 0)" in stdout.getvalue()


def test_running_out_of_memory_ends_with_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"board": EMPTY_BOARD, "rack": "1=1"}), encoding="utf-8")

    def exhausted(game: Game) -> list[object]:
        raise MemoryError

    monkeypatch.setattr("binscrabble.cli.moves_command.generate_moves", exhausted)
    status, out, err = cli(["moves", str(path)], capsys)
    assert status == 2 and out == ""
    assert "out of memory" in err and "--top N" in err


@pytest.mark.parametrize(
    ("command", "rack_size", "rack"),
    [("moves", 15, "???111000=+-x"), ("best", 15, "???111000=+-x"), ("moves", 12, "???111000=+-")],
)
def test_a_rack_size_the_generator_cannot_list_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, rack_size: int, rack: str
) -> None:
    rules = {"preset": "learning", "leading_zeros": True, "allow_negatives": True}
    path = tmp_path / "p.json"
    position = {"rules": {**rules, "rack_size": rack_size}, "board": EMPTY_BOARD, "rack": rack}
    path.write_text(json.dumps(position), encoding="utf-8")
    status, out, err = cli([command, str(path)], capsys)
    assert status == 2 and out == ""
    assert f"rule rack_size takes a whole number from 3 to 9, not {rack_size}" in err
    with pytest.raises(RulesError, match="from 3 to 9"):
        Rules(rack_size=10)


def test_errors_quote_long_input_shortened(two_turns: str) -> None:
    long_move = two_turns.replace("8D 1+1=10", "8D " + "1+" * 400_000 + "1")
    error = record_error(long_move)
    assert "a record's lines have at most 1000" in str(error) and len(str(error)) < 200
    error = record_error(two_turns.replace("#player1 Ada", "#player1 " + "A" * 900))
    assert "a name has at most 64" in str(error) and len(str(error)) < 200
    with pytest.raises(PositionError) as caught:
        load_position({"board": EMPTY_BOARD, "rack": "1", "k" * 100_000: 1})
    assert len(str(caught.value)) < 300
    with pytest.raises(RulesError) as rules_error:
        Rules.from_mapping({"preset": "p" * 100_000})
    assert len(str(rules_error.value)) < 200


def test_an_endless_typed_line_ends_the_input_of_play(tmp_path: Path) -> None:
    stdout = io.StringIO()
    options = PlayOptions(players=["Ann", "Ben"], save=str(tmp_path / "g.bsr"))
    status = run_terminal_game(options, io.StringIO("\0" * 100_000), stdout, io.StringIO())
    assert status == 0
    assert "A line of more than 4096 characters is not typed input" in stdout.getvalue()
    assert read_record_file(tmp_path / "g.bsr").players == ("Ann", "Ben")
