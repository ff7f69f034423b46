"""A board picture draws its text the same in CairoSVG, librsvg and Chromium.

Each text run under the board (caption, status line, names, scores) is drawn alone, at the
picture's size, by the three renderers; the ink of each run must sit in the same place in
all three, and in each of them a name must end before its score begins and a score before
the rack. The renderers: CairoSVG (the PNG pictures), librsvg (``rsvg-convert``, Debian's
librsvg2-bin, as in image viewers and many programs) and Chromium through Playwright (the
browsers, and Jupyter).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageOps

from binscrabble.i18n import use_language
from binscrabble.print.pictures import svg_to_png
from binscrabble.record import read_record_file
from binscrabble.svg import board, game_at_turn

RSVG = shutil.which("rsvg-convert")
CHROMIUM = Path("/usr/bin/chromium")
if RSVG is None or not CHROMIUM.exists():
    pytest.skip(
        "rsvg-convert (Debian's librsvg2-bin) or /usr/bin/chromium is missing: run make deps",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package is missing: pip install playwright"
)

SAMPLE_RECORD = Path(__file__).resolve().parent.parent / "docs" / "examples" / "sample-game.bsr"
NAMESPACE = "http://www.w3.org/2000/svg"
ElementTree.register_namespace("", NAMESPACE)
#: How far the same run may be drawn apart by two renderers, in pixels (fonts are hinted
#: and antialiased a little differently).
TOLERANCE = 4
Box = tuple[int, int, int, int]


def picture() -> str:
    """The sample game at its end, with racks, its first player given a very long name."""
    game = read_record_file(SAMPLE_RECORD)
    game.players = ("Bartholomew Maximilian of the Very Long Name", "Bob")
    return board(game, scores=True, racks=True)


def hebrew_picture(turn: int) -> str:
    """The sample game in Hebrew after ``turn`` turns, its first player named in Hebrew."""
    game = game_at_turn(read_record_file(SAMPLE_RECORD), turn)
    game.players = ("נועה", "Bob")
    with use_language("he"):
        return board(game, scores=True, racks=True)


def text_alone(svg: str, index: int) -> str:
    """The picture with only its ``index``-th panel text left, black on white."""
    root = ElementTree.fromstring(svg)
    runs = panel_texts(root)
    keep = runs[index]
    for child in list(root):
        if child is not keep:
            root.remove(child)
    keep.set("fill", "#000000")
    return ElementTree.tostring(root, encoding="unicode")


def panel_texts(root: ElementTree.Element) -> list[ElementTree.Element]:
    kinds = ("caption", "status", "player", "score")
    return [child for child in root if child.get("class") in kinds]


def ink(png: bytes) -> Box:
    """Where the ink of a black-on-white picture is, in pixels."""
    drawn = Image.open(io.BytesIO(png)).convert("RGBA")
    white = Image.new("RGBA", drawn.size, "#ffffff")
    image = ImageOps.invert(Image.alpha_composite(white, drawn).convert("L"))
    box = image.point(lambda level: 255 if level > 96 else 0).getbbox()
    assert box is not None, "the renderer drew nothing"
    return box


def rsvg(svg: str) -> bytes:
    assert RSVG is not None
    done = subprocess.run(
        [RSVG, "--format", "png"], input=svg.encode(), capture_output=True, check=True
    )
    return done.stdout


@pytest.fixture(scope="module")
def chromium_page() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        yield browser.new_page()
        browser.close()


def show(page: Any, svg: str) -> tuple[int, int]:
    """The picture alone in the page, at its size; its width and height."""
    root = ElementTree.fromstring(svg)
    width, height = int(root.attrib["width"]), int(root.attrib["height"])
    page.set_viewport_size({"width": width, "height": height})
    page.set_content(
        f"<!doctype html><html><body style='margin:0;background:#fff'>{svg}</body></html>"
    )
    return width, height


@pytest.fixture(scope="module")
def chromium(chromium_page: Any) -> Callable[[str], bytes]:
    def draw(svg: str) -> bytes:
        width, height = show(chromium_page, svg)
        clip = {"x": 0, "y": 0, "width": width, "height": height}
        shot: bytes = chromium_page.screenshot(clip=clip)
        return shot

    return draw


def test_text_runs_are_drawn_alike_and_apart_in_three_renderers(
    chromium: Callable[[str], bytes],
) -> None:
    svg = picture()
    root = ElementTree.fromstring(svg)
    runs = panel_texts(root)
    renderers: dict[str, Callable[[str], bytes]] = {
        "cairosvg": svg_to_png,
        "librsvg": rsvg,
        "chromium": chromium,
    }
    boxes = {
        name: [ink(draw(text_alone(svg, i))) for i in range(len(runs))]
        for name, draw in renderers.items()
    }
    # The same run in the same place in every renderer.
    for index, run in enumerate(runs):
        drawn = [boxes[name][index] for name in renderers]
        for side in range(4):
            values = [box[side] for box in drawn]
            assert max(values) - min(values) <= TOLERANCE, (run.get("class"), drawn)
    # In every renderer, a name ends before its score, and a score before the rack.
    rack_left = min(
        float(rect.attrib["x"])
        for group in root.iter(f"{{{NAMESPACE}}}g")
        if group.get("class") == "rack"
        for rect in group.iter(f"{{{NAMESPACE}}}rect")
    )
    for name in renderers:
        for seat in ("0", "1"):
            (player,) = [
                i
                for i, run in enumerate(runs)
                if run.get("class") == "player" and run.get("data-seat") == seat
            ]
            (score,) = [
                i
                for i, run in enumerate(runs)
                if run.get("class") == "score" and run.get("data-seat") == seat
            ]
            assert boxes[name][player][2] + 4 <= boxes[name][score][0], (name, seat)
            assert boxes[name][score][2] + 4 <= rack_left, (name, seat)
    # The long name was shortened, and the caption and status fit the picture's width.
    names = ["".join(run.itertext()) for run in runs if run.get("class") == "player"]
    assert names[0].startswith("Bartholomew") and names[0].endswith("…")
    # The status line keeps what it is for: each rack's adjustment, also with long names.
    (status,) = ["".join(run.itertext()) for run in runs if run.get("class") == "status"]
    assert status == "end of the game, racks: Bartholomew… −1, Bob −3"
    for name in renderers:
        for index, run in enumerate(runs):
            if run.get("class") in ("caption", "status"):
                assert boxes[name][index][0] > 0 and boxes[name][index][2] < int(
                    root.attrib["width"]
                )


#: Each character's left edge in a text as Chromium draws it.
CHARACTER_EDGES = """(text) => Array.from({length: text.getNumberOfChars()},
    (_, index) => text.getStartPositionOfChar(index).x)"""


@pytest.mark.parametrize("turn", [3, 25])
def test_a_hebrew_picture_is_drawn_as_stored_in_every_renderer(
    turn: int, chromium: Callable[[str], bytes], chromium_page: Any
) -> None:
    # CairoSVG draws the characters in the order they are stored; so must the browser, so
    # that a Hebrew line stored in visual order reads the same in both.
    svg = hebrew_picture(turn)
    root = ElementTree.fromstring(svg)
    runs = panel_texts(root)
    kinds = [run.get("class") for run in runs]
    assert kinds.count("caption") == kinds.count("status") == 1
    # Each run where it is anchored (a line's right end, a name's left), and as wide in
    # each renderer but for their glyphs' hinting (about 1 pixel in 40 apart).
    for index, run in enumerate(runs):
        drawn = [ink(draw(text_alone(svg, index))) for draw in (svg_to_png, rsvg, chromium)]
        anchored = 2 if run.get("text-anchor") == "end" else 0
        for side in (anchored, 1, 3):
            values = [box[side] for box in drawn]
            assert max(values) - min(values) <= TOLERANCE, (run.get("class"), drawn)
        widths = [box[2] - box[0] for box in drawn]
        assert max(widths) - min(widths) <= TOLERANCE + max(widths) // 40, (run.get("class"), drawn)
    show(chromium_page, svg)
    lines = chromium_page.locator("text.caption, text.status, text.player")
    assert lines.count() == 4
    for index in range(lines.count()):
        edges = lines.nth(index).evaluate(CHARACTER_EDGES)
        assert edges == sorted(edges) and len(set(edges)) == len(edges), edges
