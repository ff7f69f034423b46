"""``binscrabble replay``: the board and scores at any turn of a record, and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from random_games import random_game

from binscrabble.board import square_name
from binscrabble.cli import main
from binscrabble.game import Game
from binscrabble.move import Exchange
from binscrabble.record import write_record, write_record_file
from binscrabble.terminal import face, move_cell


@pytest.fixture(scope="module")
def finished_game() -> Game:
    return random_game(17, 2, seeded_bag=True)


@pytest.fixture
def record(tmp_path: Path, finished_game: Game) -> Path:
    path = tmp_path / "game.bsr"
    write_record_file(finished_game, path)
    return path


def replay(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["replay", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_replay_shows_the_end(
    record: Path, finished_game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = replay([str(record)], capsys)
    assert status == 0, err
    outcome = finished_game.outcome()
    assert outcome is not None
    turns = len(finished_game.history)
    assert f"Ada vs Bob: after turn {turns} of {turns} (the end of the record)" in out
    assert f"Ada {outcome.scores[0]}   Bob {outcome.scores[1]}" in out
    assert f"Game over ({outcome.reason})" in out
    assert str(outcome) in out
    assert "\x1b[" not in out  # standard output is not a terminal here


def test_replay_at_a_turn(
    record: Path, finished_game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = replay([str(record), "--turn", "3"], capsys)
    assert status == 0
    turns = len(finished_game.history)
    assert f"after turn 3 of {turns}" in out
    third = finished_game.history[2]
    assert f"{finished_game.players[third.seat]} {third.scores[third.seat]}" in out
    assert f"{finished_game.players[finished_game.history[3].seat]} to move." in out
    status, out, _ = replay([str(record), "--turn", "0"], capsys)
    assert status == 0
    assert "No moves yet." in out
    assert " 1  TW" in out and "Ada 0   Bob 0" in out


def test_replay_board_matches_the_game(
    record: Path, finished_game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = replay([str(record)], capsys)
    rows = [line for line in out.splitlines() if line[:2].strip().isdigit()][:15]
    assert len(rows) == 15
    placed = list(finished_game.board)
    assert placed  # the game left tiles on the board to compare
    for sq, tile in placed:
        row, column = divmod(sq, 15)
        cell = rows[row][4 + column * 4 : 4 + column * 4 + 3]
        # The tile's face as the board shows it (× ÷ − AND OR NOT XOR), never its code.
        shown = tile.symbol if tile.rotated else face(tile.symbol)
        assert cell.strip().endswith(shown[:3]), square_name(sq)


def test_replay_errors(
    tmp_path: Path, record: Path, finished_game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = replay([str(tmp_path / "missing.bsr")], capsys)
    assert status == 2 and "no such file" in err
    status, _, err = replay([str(tmp_path)], capsys)
    assert status == 2 and "is a folder" in err
    turns = len(finished_game.history)
    for turn in ("-1", str(turns + 1)):
        status, _, err = replay([str(record), "--turn", turn], capsys)
        assert status == 2 and f"this game has turns 0 to {turns}" in err
    bad = tmp_path / "bad.bsr"
    lines = write_record(finished_game).splitlines()
    number = next(index for index, line in enumerate(lines) if line.startswith(">")) + 1
    lines[number - 1] = lines[number - 1].rsplit(" ", 1)[0] + " 999"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = replay([str(bad)], capsys)
    assert status == 2 and out == ""
    assert f"line {number}:" in err and "not 999" in err
    binary = tmp_path / "binary.bsr"
    binary.write_bytes(b"\xff\xfe")
    status, _, err = replay([str(binary)], capsys)
    assert status == 2
    assert err == f"binscrabble: error: {binary}: not a UTF-8 text file (invalid start byte)\n"


def test_replay_in_colour_on_a_terminal(
    record: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("binscrabble.cli.replay_command.use_color", lambda stream: True)
    status, out, _ = replay([str(record)], capsys)
    assert status == 0
    assert "\x1b[97;41m" in out and "\x1b[0m" in out


def test_replay_shows_the_tiles_exchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A replay shows every rack, so hiding what a player gave back would only hide facts.
    game = Game(["Ada", "Bob"], seed=2)
    given = game.rack(0)[:3]
    game.push(Exchange(given))
    path = tmp_path / "exchange.bsr"
    write_record_file(game, path)
    status, out, err = replay([str(path)], capsys)
    assert status == 0, err
    assert f"1. Ada: {move_cell('-' + Exchange(given).tiles)}  +0 (total 0)" in out
    assert "exchange 3" not in out


def test_replay_lists_each_rack_with_its_tiles_spaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seed 2 deals Ada NOT and Bob ×, OR and −: the racks show them as the board does.
    game = Game(["Ada", "Bob"], seed=2)
    path = tmp_path / "racks.bsr"
    write_record_file(game, path)
    status, out, _ = replay([str(path)], capsys)
    assert status == 0
    ada, bob = (" ".join(face(code) for code in rack) for rack in game.racks)
    assert f"Racks: Ada: {ada}   Bob: {bob}\n" in out
    assert "NOT" in ada and "×" in bob and "OR" in bob
    assert not {"~", "x", "|"} & set(out.split("Racks:")[1].split())
