"""``binscrabble print-set FILE.svg``: laser files a cutter opens as they are.

No text (the faces and points are outlines), every cut path closed, no cut edge drawn twice,
hairline strokes, and with ``--bed`` as many sheets as the set needs, each within the bed.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from binscrabble.cli import main

SVG = "{http://www.w3.org/2000/svg}"
#: A segment of a cut outline: (x1, y1, x2, y2), the first point the smaller.
Segment = tuple[float, float, float, float]


def run(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(arguments)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def layers(path: Path) -> dict[str, ElementTree.Element]:
    root = ElementTree.parse(path).getroot()
    return {group.get("id", ""): group for group in root.findall(f"{SVG}g")}


def segments(data: str) -> tuple[list[Segment], bool]:
    """The straight segments of an outline written with M, H, V, L and Z, and whether it
    closes where it starts."""
    found: list[Segment] = []
    start = current = (0.0, 0.0)
    closed = False
    for command, numbers in re.findall(r"([MHVLZ])([^MHVLZ]*)", data):
        values = [float(value) for value in numbers.replace(",", " ").split()]
        if command == "M":
            start = current = (values[0], values[1])
            closed = False
            continue
        if command == "H":
            end = (values[0], current[1])
        elif command == "V":
            end = (current[0], values[0])
        elif command == "L":
            end = (values[0], values[1])
        else:
            end, closed = start, True
        first, second = sorted((current, end))
        found.append((*first, *second))
        current = end
    return found, closed and current == start


def overlap(one: Segment, other: Segment) -> bool:
    """Whether two axis-parallel segments share a stretch of line (a cut made twice)."""
    if one[1] == one[3] == other[1] == other[3]:  # both across, on one line
        return min(one[2], other[2]) - max(one[0], other[0]) > 1e-6
    if one[0] == one[2] == other[0] == other[2]:  # both down, on one line
        return min(one[3], other[3]) - max(one[1], other[1]) > 1e-6
    return False


def check_sheet(path: Path, bed: tuple[float, float] | None = None) -> tuple[int, int]:
    """The checks every laser sheet passes; its tiles and racks, counted."""
    text = path.read_text(encoding="utf-8")
    root = ElementTree.fromstring(text)
    assert list(root.iter(f"{SVG}text")) == [] and "<text" not in text
    found = layers(path)
    assert set(found) == {"cut", "score", "engrave"}
    cut_lines: list[Segment] = []
    tiles = racks = 0
    for outline in found["cut"].findall(f"{SVG}path"):
        lines, closed = segments(outline.attrib["d"])
        assert closed, outline.attrib["d"]
        assert len(lines) == 4
        cut_lines.extend(lines)
        xs = [value for line in lines for value in (line[0], line[2])]
        ys = [value for line in lines for value in (line[1], line[3])]
        width, height = max(xs) - min(xs), max(ys) - min(ys)
        if bed is not None:
            assert min(xs) >= 0 and max(xs) <= bed[0] and min(ys) >= 0 and max(ys) <= bed[1]
        if abs(width - height) < 1e-6:
            tiles += 1
        else:
            racks += 1
    for one, other in itertools.combinations(cut_lines, 2):
        assert not overlap(one, other), (one, other)
    # The faces and points are filled outlines, two a tile that is not blank.
    for face in found["engrave"].findall(f"{SVG}g"):
        paths = face.findall(f"{SVG}path")
        assert len(paths) == 2 and all(p.attrib["d"].startswith("M") for p in paths)
    return tiles, racks


def test_one_sheet_without_a_bed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "tiles.svg"
    status, out, err = run(["print-set", "-o", str(output), "--rule", "xor_tiles=2"], capsys)
    assert status == 0, err
    assert out == f"wrote {output} (102 tiles and 4 racks on one sheet)\n"
    assert check_sheet(output) == (102, 4)
    found = layers(output)
    faces = [group.get("data-face") for group in found["engrave"].findall(f"{SVG}g")]
    assert len(faces) == 102 - 3  # blanks carry nothing to engrave
    assert faces.count("^") == 2 and faces.count("0") == 28
    assert len(found["score"].findall(f"{SVG}path")) == 4 * 3
    # Hairlines by default.
    assert found["cut"].get("stroke-width") == found["score"].get("stroke-width") == "0.01"


@pytest.mark.parametrize(
    ("bed", "sheets"), [("600x400", 1), ("300x200", 2), ("200x150", 4), ("400x300", 1)]
)
def test_a_bed_takes_as_many_sheets_as_the_set_needs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bed: str, sheets: int
) -> None:
    output = tmp_path / "set.svg"
    status, out, err = run(["print-set", "-o", str(output), "--bed", bed], capsys)
    assert status == 0, err
    files = [output] if sheets == 1 else [tmp_path / f"set-{n}.svg" for n in range(1, sheets + 1)]
    where = "one sheet" if sheets == 1 else f"{sheets} sheets"
    assert out == f"wrote {', '.join(map(str, files))} (100 tiles and 4 racks on {where})\n"
    assert sorted(tmp_path.iterdir()) == sorted(files)
    width, height = (float(side) for side in bed.split("x"))
    totals = [0, 0]
    for file in files:
        root = ElementTree.parse(file).getroot()
        assert (root.get("width"), root.get("height")) == (f"{width:.2f}mm", f"{height:.2f}mm")
        tiles, racks = check_sheet(file, (width, height))
        totals[0] += tiles
        totals[1] += racks
    assert totals == [100, 4]


def test_the_stroke_width_is_chosen(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "set.svg"
    assert run(["print-set", "-o", str(output), "--stroke-mm", "0.05"], capsys)[0] == 0
    assert layers(output)["cut"].get("stroke-width") == "0.05"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bed", "100x100"], "a bed of 100 × 100 mm cannot hold a rack of 183.0 × 57.9 mm"),
        (["--bed", "200x50"], "a bed of 200 × 50 mm cannot hold a rack of 183.0 × 57.9 mm"),
        (["--bed", "wide"], "--bed 'wide' is not a size: write WIDTHxHEIGHT in millimetres"),
        (["--bed", "0x300"], "each side is a length from 1 to 10000 mm"),
        (["--stroke-mm", "0"], "--stroke-mm 0: a cut line is from 0.001 to 1 mm wide"),
        (["--bed", "600x400", "-o", "set.pdf"], "--bed is for a laser file"),
    ],
)
def test_bad_laser_arguments_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    if "-o" not in arguments:
        arguments = [*arguments, "-o", str(tmp_path / "set.svg")]
    status, out, err = run(["print-set", *arguments], capsys)
    assert status == 2
    assert out == ""
    assert err.startswith("binscrabble: error: ") and message in err
    assert list(tmp_path.iterdir()) == []
