"""Position files: loading, saving, round trips, and a PositionError for every bad field."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from random_games import random_game

from binscrabble.board import parse_square
from binscrabble.move import parse_move
from binscrabble.position import (
    PositionError,
    load_position,
    read_position_file,
    save_position,
    save_position_file,
)
from binscrabble.rules import Rules

EMPTY = ["." * 15] * 15


def board_with(*rows: tuple[int, str]) -> list[str]:
    """An empty board with some rows (1-based numbers) replaced."""
    board = list(EMPTY)
    for number, text in rows:
        board[number - 1] = text.ljust(15, ".")
    return board


CENTRE_ROW = (8, "...1+1=10")


def position(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"board": board_with(CENTRE_ROW), "rack": "1101=+x0?"}
    data.update(fields)
    return data


def error_of(data: Any) -> PositionError:
    with pytest.raises(PositionError) as caught:
        load_position(data)
    return caught.value


def test_the_interface_example_loads() -> None:
    data = {
        "rules": {"preset": "standard", "precedence": "left-to-right"},
        "board": board_with((8, ".......1=1")),
        "blanks": ["H8"],
        "rotated": [],
        "rack": "1101=+x0?",
    }
    game = load_position(data)
    assert game.rules.precedence == "left-to-right"
    tile = game.board[parse_square("H8")]
    assert tile is not None and tile.face == "1" and tile.blank
    assert game.rack() == "1101=+x0?"
    assert game.to_move == 0
    assert not game.is_first_play()
    # The blank on the board is not among the unseen tiles: the set has 3, 1 is on the
    # board and 1 on the rack.
    assert game.unseen().count("?") == 1


def test_empty_board_means_first_play() -> None:
    game = load_position({"board": EMPTY, "rack": "1+1=10"})
    assert game.is_first_play()
    move = parse_move("8D 1+1=10", game.board)
    assert game.score(move) == 18


def test_defaults_and_extras() -> None:
    game = load_position(
        position(
            players=["Ann", "Ben", "Cat"],
            scores=[10, 20, 30],
            to_move="Ben",
            comment="from a club game",
        )
    )
    assert game.players == ("Ann", "Ben", "Cat")
    assert game.scores == [10, 20, 30]
    assert game.to_move == 1
    assert game.rack(1) == "1101=+x0?"
    assert len(game.rack(0)) == 9 and len(game.rack(2)) == 9


def test_scores_alone_set_the_number_of_players() -> None:
    game = load_position(position(scores=[1, 2, 3, 4], to_move=3))
    assert game.players == ("Player 1", "Player 2", "Player 3", "Player 4")
    assert game.rack(3) == "1101=+x0?"


def test_unseen_tiles_are_the_pool() -> None:
    game = load_position(position(rack="1=1", unseen="0000111"))
    assert game.rack() == "1=1"
    assert sorted(game.unseen()) == sorted("0000111")


def test_rack_input_accepts_words_aliases_and_spaces() -> None:
    game = load_position(position(rack="1 and 0 × ? not"))
    assert game.rack() == "1&0x?~"


def test_rotated_with_the_rule() -> None:
    rules = {"rotated_equals": True}
    board = board_with((8, ".....1+10=="))
    game = load_position({"rules": rules, "board": board, "rotated": ["K8"], "rack": "1"})
    tile = game.board[parse_square("K8")]
    assert tile is not None and tile.rotated
    assert game.board.run_text(range(parse_square("F8"), parse_square("K8") + 1)) == "1+10=11"
    assert save_position(game)["rotated"] == ["K8"]


def test_xor_tiles_on_board_with_the_rule() -> None:
    game = load_position(
        {"rules": {"xor_tiles": 2}, "board": board_with((8, "......1^1=0")), "rack": "^"}
    )
    assert game.rack() == "^"


@pytest.mark.parametrize(
    ("data", "field", "reason"),
    [
        ([], "file", None),
        ({"board": EMPTY[:14], "rack": ""}, "board", "14 rows"),
        ({"board": [*EMPTY[:14], "." * 14], "rack": ""}, "board", "row 15 has 14 characters"),
        ({"board": "." * 225, "rack": ""}, "board", "must be a list of 15 texts"),
        ({"rack": "1"}, "board", "missing"),
        ({"board": board_with((1, "a")), "rack": ""}, "board", "A1 holds 'a'"),
        ({"board": board_with((8, ".......?=1")), "rack": ""}, "board", "H8 holds '?'"),
        ({"board": board_with((8, ".......1^1=0")), "rack": ""}, "board", "xor_tiles is 0"),
        ({"board": board_with((1, "1+1=10")), "rack": ""}, "board", "H8 is empty"),
        (
            {"board": board_with(CENTRE_ROW, (1, "1=1")), "rack": ""},
            "board",
            "A1 is not connected",
        ),
        ({"board": board_with((8, "...1+1=11")), "rack": ""}, "board", "is not an equation"),
        ({"board": board_with((8, ".......11")), "rack": ""}, "board", "H8-I8 11"),
        ({"board": board_with((8, ".......1")), "rack": ""}, "board", "holds 1 tile, but"),
        (position(blanks=["A1"]), "blanks", "A1 is an empty square"),
        (position(blanks=["Z9"]), "blanks", "column Z"),
        (position(blanks=["D8", "D8"]), "blanks", "listed twice"),
        (position(blanks="D8"), "blanks", "must be a list"),
        (position(rotated=["G8"]), "rotated", "rotated_equals"),
        (
            position(rules={"rotated_equals": True}, rotated=["D8"]),
            "rotated",
            "only an = can be rotated",
        ),
        (position(rack="1111111111"), "rack", "10 tiles"),
        (position(rack="11a"), "rack", "'a'"),
        (position(rack=11), "rack", "must be a text"),
        (position(rack="^"), "rack", "xor_tiles is 0"),
        ({"board": EMPTY}, "rack", "missing"),
        (position(rack="????"), "rack", "4 blank tiles"),
        (position(rack="//", board=board_with((8, ".....1/1=1"))), "rack", "3 '/' tiles"),
        (position(unseen="???"), "unseen", "the set has 3"),
        (position(rules={"speed": 3}), "rules", "unknown rule 'speed'"),
        (position(rules={"preset": "hard"}), "rules", "unknown preset 'hard'"),
        (position(rules={"xor_tiles": -1}), "rules", "xor_tiles"),
        (position(rules="expert"), "rules", "must be an object"),
        (position(players=["Solo"]), "players", "2 to 4 players"),
        (position(players=["Ann", "Ann"]), "players", "same name"),
        (position(players=["Ann", " "]), "players", "empty"),
        (position(players="Ann,Ben"), "players", "list of names"),
        (position(scores=[1, 2, 3], players=["A", "B"]), "scores", "3 scores for 2 players"),
        (position(scores=[1, "2"]), "scores", "whole numbers"),
        (position(to_move=2), "to_move", "seat 2 does not exist"),
        (position(to_move="Zed"), "to_move", "'Zed' is not one of the players"),
        (position(to_move=True), "to_move", "seat number"),
        (position(comment=5), "comment", "must be a text"),
        (position(rotate=["H8"]), "rotate", "unknown key 'rotate'"),
    ],
)
def test_every_bad_field_is_named(data: Any, field: str, reason: str | None) -> None:
    if isinstance(data, list):
        # Not a mapping: load_position takes it as a path, read_position_file refuses it.
        with pytest.raises(TypeError):
            load_position(data)
        return
    error = error_of(data)
    assert error.field == field, str(error)
    assert reason is None or reason in str(error), str(error)
    assert str(error).startswith(f"{field}: ")


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(PositionError, match="file: no such file"):
        load_position(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"board": [', encoding="utf-8")
    with pytest.raises(PositionError, match=r"file: .*not valid JSON.*line 1"):
        load_position(bad)
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(PositionError, match="must hold a JSON object"):
        read_position_file(listed)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(PositionError, match="not a UTF-8 text file"):
        load_position(binary)


def test_file_saved_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    # Windows Notepad starts UTF-8 files with a byte order mark, which json.loads refuses.
    path = tmp_path / "notepad.json"
    path.write_bytes(("\ufeff" + json.dumps(position())).encode("utf-8"))
    assert load_position(path).rack() == "1101=+x0?"


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_save_and_load_round_trip(seed: int, tmp_path: Path) -> None:
    rules = Rules.preset("learning").override("rotated_equals", True)
    game = random_game(seed, players=2 + seed % 3, max_turns=6 + seed, rules=rules)
    data = save_position(game)
    assert json.loads(json.dumps(data)) == data
    again = load_position(data)
    assert again.board == game.board
    assert again.rules == game.rules
    assert again.rack() == game.rack()
    assert again.to_move == game.to_move
    assert again.scores == game.scores
    assert again.players == game.players
    assert Counter(again.unseen()) == Counter(game.unseen())
    assert save_position(again) == data
    path = tmp_path / "position.json"
    save_position_file(game, path)
    assert load_position(path).board == game.board
    assert load_position(str(path)).rack() == game.rack()


def test_saved_rules_are_only_the_differences() -> None:
    rules = Rules.preset("expert").override("xor_tiles", 2)
    game = load_position(
        {"rules": {"preset": "expert", "xor_tiles": 2}, "board": EMPTY, "rack": "1"}
    )
    assert game.rules == rules
    assert save_position(game)["rules"] == {
        "preset": "standard",
        "identity_times_one": False,
        "identity_plus_minus_zero": False,
        "identity_and_one_or_zero": False,
        "xor_tiles": 2,
    }
