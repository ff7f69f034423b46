"""``binscrabble render``: SVG, PNG and animations of records and positions, and clear errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from PIL import Image

from binscrabble.cli import main
from binscrabble.record import read_record_file

SAMPLE_RECORD = Path(__file__).resolve().parent.parent / "docs" / "examples" / "sample-game.bsr"
SAMPLE_TURNS = 25


def render(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["render", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_svg_of_a_record_at_a_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "turn3.svg"
    status, out, err = render([str(SAMPLE_RECORD), "--turn", "3", "-o", str(output)], capsys)
    assert status == 0, err
    assert out == f"wrote {output}\n"
    root = ElementTree.parse(output).getroot()
    squares = [
        g.attrib["data-square"] for g in root.iter() if g.get("class", "").startswith("tile")
    ]
    game = read_record_file(SAMPLE_RECORD)
    while len(game.history) > 3:
        game.pop()
    assert len(squares) == game.board.tile_count


def test_png_has_the_asked_width(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "board.png"
    status, _, err = render([str(SAMPLE_RECORD), "-o", str(output), "--size", "320"], capsys)
    assert status == 0, err
    with Image.open(output) as picture:
        assert picture.format == "PNG"
        assert picture.width == 320
        # The board is square; the scores take a strip under it.
        assert 320 < picture.height < 420


def test_png_of_a_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "position.json"
    rows = ["." * 15] * 7 + ["...1+1=10......"] + ["." * 15] * 7
    position.write_text(json.dumps({"board": rows, "rack": "1=1"}), encoding="utf-8")
    output = tmp_path / "position.png"
    status, _, err = render([str(position), "-o", str(output)], capsys)
    assert status == 0, err
    with Image.open(output) as picture:
        assert picture.width == 644


@pytest.mark.parametrize("suffix", [".gif", ".webp"])
def test_animation_has_a_frame_for_the_start_and_each_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    output = tmp_path / f"game{suffix}"
    status, out, err = render(
        [str(SAMPLE_RECORD), "--animate", "-o", str(output), "--size", "200"], capsys
    )
    assert status == 0, err
    assert out == f"wrote {output} ({SAMPLE_TURNS + 1} frames)\n"
    with Image.open(output) as animation:
        assert animation.n_frames == SAMPLE_TURNS + 1
        assert animation.width == 200
        first = animation.convert("RGB").tobytes()
        animation.seek(SAMPLE_TURNS)
        assert animation.convert("RGB").tobytes() != first


def test_animation_with_racks_draws_the_racks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    panels = {}
    for racks in ([], ["--racks"]):
        output = tmp_path / f"game{len(racks)}.gif"
        arguments = [str(SAMPLE_RECORD), "--animate", "-o", str(output), "--size", "300"]
        status, _, err = render([*arguments, *racks], capsys)
        assert status == 0, err
        with Image.open(output) as animation:
            frame = animation.convert("RGB")
            # The right half of the players' lines, where the racks go.
            width, height = frame.size
            panel = frame.crop((width // 2, height - 40, width, height))
            panels[bool(racks)] = panel.tobytes()
    # The same frames but for the racks, drawn only when asked for.
    assert panels[False] != panels[True]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--turn", "26"],
            "--turn 26: turn 26 is not in the game: it has turns 0 (the start) to 25",
        ),
        (["--turn", "-1"], "turn -1 is not in the game"),
        (["-o", "x.jpg"], "cannot tell the format of x.jpg"),
        (["-o", "x.gif"], "x.gif is an animation: add --animate"),
        (["--animate", "-o", "x.png"], "--animate writes a .gif or a .webp file, not x.png"),
        (["--animate", "--turn", "2", "-o", "x.gif"], "--animate shows every turn"),
        (["--size", "0"], "--size 0 is out of range"),
    ],
)
def test_bad_arguments_exit_2_with_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    if "-o" not in arguments:
        arguments = [*arguments, "-o", str(tmp_path / "x.svg")]
    status, out, err = render([str(SAMPLE_RECORD), *arguments], capsys)
    assert status == 2
    assert out == ""
    assert message in err
    assert not list(tmp_path.iterdir())


def test_an_unreadable_record_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.bsr"
    broken.write_text("#binscrabble-record 1\n#player1 Ada\n#player2 Bob\n>Ada: 111 8H 1=1 +3 3\n")
    status, _, err = render([str(broken), "-o", str(tmp_path / "x.svg")], capsys)
    assert status == 2
    assert err.startswith(f"binscrabble: error: {broken}:")
    status, _, err = render([str(tmp_path / "missing.bsr"), "-o", str(tmp_path / "x.svg")], capsys)
    assert status == 2
    assert "no such file" in err
    assert not (tmp_path / "x.svg").exists()


@pytest.mark.parametrize("name", ["board.svg", "board.png", "game.gif"])
def test_an_unwritable_output_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    output = tmp_path / "no such folder" / name
    animate = ["--animate"] if name.endswith(".gif") else []
    status, out, err = render(
        [str(SAMPLE_RECORD), *animate, "-o", str(output), "--size", "64"], capsys
    )
    assert status == 2
    assert out == ""
    assert err == f"binscrabble: error: cannot write {output}: No such file or directory\n"
