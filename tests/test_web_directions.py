"""The web pages' directions, read from their files: the stylesheet says start and end, never
left and right, so one set of rules lays a page out left to right in English and right to
left in Hebrew; the board, its coordinates and the Move box are marked left to right in
every page (docs/web.md, "Right to left, and the language menu")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parent.parent / "src" / "binscrabble" / "web" / "static"
PAGES = sorted(STATIC.glob("*.html"))

# A property that names a physical side, and the values that do.
PHYSICAL_PROPERTY = re.compile(
    r"(?<![\w-])(?:(?:margin|padding|border|scroll-margin|scroll-padding)-(?:left|right)"
    r"(?:-\w+)*|left|right)\s*:"
)
PHYSICAL_VALUE = re.compile(r"(?<![\w-])(?:text-align|float|clear)\s*:\s*(?:left|right)\b")
COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)


def declarations_naming_sides(css: str) -> list[str]:
    """The declarations of `css` (comments left out) that name the left or the right."""
    found = []
    for number, line in enumerate(COMMENT.sub(lambda m: "\n" * m[0].count("\n"), css).split("\n")):
        if PHYSICAL_PROPERTY.search(line) or PHYSICAL_VALUE.search(line):
            found.append(f"line {number + 1}: {line.strip()}")
    return found


def test_the_check_finds_the_sides_it_is_meant_to_find() -> None:
    css = """/* left: a comment */
.a { padding-left: 1rem; }
.b { margin-right: 0; border-left-width: 2px; }
.c { position: absolute; right: 1px; }
.d { text-align: left; }
.e { float: right; }
.f { padding-inline-start: 1rem; inset-inline-end: 0; text-align: start; float: inline-end; }
.g { border-left: 0; scroll-padding-right: 1px; }
"""
    assert [line.split(":")[0] for line in declarations_naming_sides(css)] == [
        "line 2",
        "line 3",
        "line 4",
        "line 5",
        "line 6",
        "line 8",
    ]


def test_the_stylesheets_use_logical_directions() -> None:
    for sheet in sorted((STATIC / "css").glob("*.css")):
        assert declarations_naming_sides(sheet.read_text()) == [], sheet.name


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_the_board_and_the_move_box_are_left_to_right_in_every_page(page: Path) -> None:
    html = page.read_text()
    for frame in re.findall(r"<div class=\"board-frame\"[^>]*>", html):
        assert 'dir="ltr"' in frame, f"{page.name}: {frame}"
    for box in re.findall(r"<input id=\"move\"[^>]*>", html):
        assert 'dir="ltr"' in box, f"{page.name}: {box}"
