"""`binscrabble moves` (INTERFACES.md §3): output, order, JSON objects, exit statuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from binscrabble.cli import main

EMPTY_ROWS = ["." * 15] * 15


def _write(tmp_path: Path, **fields: object) -> str:
    data: dict[str, object] = {"board": EMPTY_ROWS, "rack": "111+=0"}
    data.update(fields)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_json_objects_exactly_as_specified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["moves", _write(tmp_path), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    moves = [json.loads(line) for line in lines]
    assert moves
    for move in moves:
        assert set(move) == {"notation", "score", "tiles", "runs"}
        for tile in move["tiles"]:
            assert set(tile) == {"square", "face", "blank", "rotated"}
        for run in move["runs"]:
            assert set(run) == {"text", "value", "bonus", "score"}
        assert sum(run["score"] for run in move["runs"]) == move["score"]
    worked = next(move for move in moves if move["notation"] == "8D 1+1=10")
    assert worked == {
        "notation": "8D 1+1=10",
        "score": 18,
        "tiles": [
            {"square": square, "face": face, "blank": False, "rotated": False}
            for square, face in zip(["D8", "E8", "F8", "G8", "H8", "I8"], "1+1=10", strict=True)
        ],
        "runs": [{"text": "1+1=10", "value": 2, "bonus": 2, "score": 18}],
    }
    scores = [move["score"] for move in moves]
    assert scores == sorted(scores, reverse=True)
    assert len({move["notation"] for move in moves}) == len(moves)


def test_text_output_top_and_stable_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path)
    assert main(["moves", path]) == 0
    everything = capsys.readouterr().out.splitlines()
    assert main(["moves", path, "--top", "3"]) == 0
    top = capsys.readouterr().out.splitlines()
    assert top == everything[:3]
    assert top[0].split() == ["18", "8C", "10=1+1"]
    assert main(["moves", path, "--top", "0"]) == 0
    assert capsys.readouterr().out == ""


def test_blank_face_is_its_designation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", _write(tmp_path, rack="1=?"), "--json"]) == 0
    moves = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    blanks = [tile for move in moves for tile in move["tiles"] if tile["blank"]]
    assert blanks
    assert all(tile["face"] != "?" for tile in blanks)


def test_no_legal_move_prints_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", _write(tmp_path, rack="1+")]) == 0
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{", "not valid JSON"),
        ('{"board": 3, "rack": "1"}', "board"),
        ('{"board": ' + json.dumps(EMPTY_ROWS) + "}", "rack"),
        ('{"board": ' + json.dumps(EMPTY_ROWS) + ', "rack": "12"}', "rack"),
    ],
)
def test_bad_file_exits_2_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, reason: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["moves", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert reason in captured.err
    assert "Traceback" not in captured.err


def test_missing_file_and_negative_top(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", str(tmp_path / "nothing.json")]) == 2
    assert "nothing.json" in capsys.readouterr().err
    assert main(["moves", _write(tmp_path), "--top", "-1"]) == 2
    assert "--top" in capsys.readouterr().err
