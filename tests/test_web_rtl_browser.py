"""Right to left in a real browser (Debian's Chromium, as in test_web_browser.py): under
`<html dir="rtl">` the pages lay out from the right (panels, tables, the rack's reading
order, buttons) while the board keeps column A at the left and row 1 at the top, the chart
keeps its first turn at the left, and numbers with a sign read left to right.

The pages are set right to left in the browser (`dir` on `<html>`, as the server writes it
for Hebrew), so these checks hold for the stylesheet whatever the language's strings.
Screenshots are written under test-artifacts/screenshots/ (rtl-*.png).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest
from test_web_browser import (
    SCREENSHOTS,
    Server,
    browser,  # noqa: F401  (a fixture)
    expect,
    finished_game,
    new_page,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
)

COLUMNS = "ABCDEFGHIJKLMNO"

# The boxes of the characters of an element's text, in the text's logical order: [character,
# left edge, width] for each character that is drawn.
CHARACTER_BOXES = """(node) => {
  const boxes = [];
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    for (let at = 0; at < text.data.length; at += 1) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + 1);
      const box = range.getBoundingClientRect();
      if (box.width > 0 && text.data[at].trim()) boxes.push([text.data[at], box.x, box.width]);
    }
  }
  return boxes;
}"""


# The boxes of the characters of the first occurrence of a text inside an element (in one of
# its text nodes), in logical order: [character, left edge, width], or null when absent.
TEXT_BOXES = """(node, wanted) => {
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const start = text.data.indexOf(wanted);
    if (start < 0) continue;
    const boxes = [];
    for (let at = start; at < start + wanted.length; at += 1) {
      if (!text.data[at].trim()) continue;
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + 1);
      const box = range.getBoundingClientRect();
      boxes.push([text.data[at], box.x, box.width, box.y]);
    }
    return boxes;
  }
  return null;
}"""


def right_to_left(page: Any) -> None:
    """The page as the server writes it for Hebrew: right to left."""
    page.evaluate("document.documentElement.dir = 'rtl'")
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"


def box(locator: Any) -> dict[str, float]:
    found: dict[str, float] | None = locator.bounding_box()
    assert found is not None, f"{locator} is not shown"
    return found


def reads_left_to_right(locator: Any) -> str:
    """The element's text, checked to be drawn left to right in its logical order."""
    boxes: list[list[Any]] = locator.evaluate(CHARACTER_BOXES)
    assert boxes, f"{locator} draws no text"
    lefts = [left for _, left, _ in boxes]
    assert lefts == sorted(lefts), f"{boxes} is not drawn left to right"
    return "".join(character for character, _, _ in boxes)


def text_drawn_left_to_right(locator: Any, text: str) -> None:
    """`text` is in the element's DOM text as written (logical order), and its characters
    are drawn from left to right, one after the other, in a page of either direction: an
    equation, a notation, a sum. Where it wraps, each line's part reads left to right and
    the parts follow each other down the lines. A Hebrew word inside it (the "bonus" of a
    sum) is drawn right to left, as Hebrew is, and left out of the check."""
    boxes: list[list[Any]] | None = locator.evaluate(TEXT_BOXES, text)
    assert boxes is not None, f"{text!r} is not in {locator.text_content()!r}"
    drawn = [box for box in boxes if unicodedata.bidirectional(box[0]) not in ("R", "FSI", "PDI")]
    tops = [round(top) for _, _, _, top in drawn]
    assert tops == sorted(tops), f"{text!r} goes back up a line: {drawn}"
    for line in sorted(set(tops)):
        lefts = [left for (_, left, _, _), top in zip(drawn, tops, strict=True) if top == line]
        assert lefts == sorted(lefts) and len(set(lefts)) == len(lefts), f"{text!r}: {drawn}"


def check_board_left_to_right(page: Any) -> None:
    """Columns A to O from left to right, rows 1 to 15 from top to bottom, the coordinates
    with them: the same order as in English."""
    row = [box(page.locator(f'[data-square="{column}1"]'))["x"] for column in COLUMNS]
    assert row == sorted(row) and len(set(row)) == 15, f"row 1 is not A to O: {row}"
    column = [box(page.locator(f'[data-square="A{number}"]'))["y"] for number in range(1, 16)]
    assert column == sorted(column) and len(set(column)) == 15, column
    labels = page.locator(".column-labels span")
    lefts = [box(labels.nth(index))["x"] for index in range(15)]
    assert lefts == sorted(lefts), f"the column letters are not A to O: {lefts}"
    assert labels.nth(0).text_content() == "A"
    numbers = page.locator(".row-labels span")
    if numbers.first.is_visible():
        assert box(numbers.first)["x"] < box(page.locator('[data-square="A1"]'))["x"]


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (360, 740)])
def test_the_game_page_lays_out_right_to_left_around_a_left_to_right_board(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    width: int,
    height: int,
) -> None:
    created = server.new_game([{"name": "Ann"}, {"name": "Bot", "computer": "beginner"}])
    page = new_page(browser, width, height)
    page.goto(server.url + created["seats"][0]["url"])
    expect(page.locator("#rack .tile")).to_have_count(9)
    right_to_left(page)
    check_board_left_to_right(page)
    # The rack reads from the right: its first tile is the rightmost.
    tiles = page.locator("#rack .tile")
    lefts = [box(tiles.nth(index))["x"] for index in range(9)]
    assert lefts == sorted(lefts, reverse=True), f"the rack is not read from the right: {lefts}"
    # A tile is a tile: its points in its bottom right corner, as on the board.
    tile, points = box(tiles.first), box(tiles.first.locator(".points"))
    assert points["x"] + points["width"] > tile["x"] + tile["width"] / 2, (tile, points)
    # Buttons and tables from the right: Play (the first button) rightmost, a player's name
    # at the right of their score.
    assert box(page.locator("#play"))["x"] > box(page.locator("#recall"))["x"]
    name, score = page.locator("#scores th").first, page.get_by_label("score Ann", exact=True)
    assert box(name)["x"] > box(score)["x"]
    if width >= 1000:  # the board at the right of the scores, the status and the rack
        assert box(page.locator("#board"))["x"] > box(page.locator(".scores"))["x"]
    else:  # the board from the row numbers' column, at the left, to the screen's edge
        numbers = page.locator(".row-labels")
        assert box(numbers)["x"] == 0
        assert box(page.locator('[data-square="A1"]'))["x"] == box(numbers)["width"]
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"the page is {wide} px wide on a {width} px screen"
    shoot(page, f"rtl-game-{width}x{height}")
    page.context.close()


def test_the_end_screen_and_the_analysis_keep_numbers_and_the_chart_left_to_right(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    over = finished_game(server)  # six passes: both players end below zero
    final = server.api("GET", f"/api/games/{over}")["result"]["final"]
    assert min(final) < 0
    page = new_page(browser, 1366, 768)
    page.goto(f"{server.url}/games/{over}")
    expect(page.get_by_role("region", name="Game over")).to_be_visible()
    right_to_left(page)
    check_board_left_to_right(page)
    for name, points in zip(("Uma", "Vic"), final, strict=True):
        # A negative score with the minus sign (U+2212), as the clocks and end tables write it.
        shown = str(points).replace("-", "−")
        score = page.get_by_label(f"score {name}", exact=True)
        expect(score).to_have_text(shown)
        assert reads_left_to_right(score) == shown
    assert page.locator("#result").is_visible()
    # The running totals read in the order of the names above them: the first seat's at the
    # right in a right-to-left page, as its name is.
    header = page.locator("#log-head th").last.locator("bdi")
    assert box(header.nth(0))["x"] > box(header.nth(1))["x"]
    totals = page.locator("#log tr").last.locator("td").last.locator("bdi")
    assert box(totals.nth(0))["x"] > box(totals.nth(1))["x"]
    shoot(page, "rtl-end-1366x768")
    page.goto(f"{server.url}/games/{over}/analysis")
    expect(page.locator("#turns tr")).to_have_count(6)
    right_to_left(page)
    check_board_left_to_right(page)
    # The chart's turns from left to right, in every language; the stepper from the right.
    turns = page.locator(".chart-turn")
    expect(turns).to_have_count(6)
    lefts = [box(turns.nth(index))["x"] for index in range(6)]
    assert lefts == sorted(lefts), f"the chart's turns are not left to right: {lefts}"
    assert box(page.locator("#first"))["x"] > box(page.locator("#last"))["x"]
    assert (
        box(page.locator("#turns tr").first.locator("td").first)["x"]
        > box(page.locator("#turns tr").first.locator("td").last)["x"]
    )
    shoot(page, "rtl-analysis-1366x768")
    page.context.close()


LANGUAGES = {"en": "English", "fr": "Français", "he": "עברית", "bg": "Български"}


def language_menu(page: Any) -> Any:
    return page.locator("#languages")


def check_language_menu_by_keyboard(page: Any) -> None:
    """The menu is reached with Tab, opened with Enter, names each language in its own
    words (with its `lang`), and closes with Escape."""
    summary = language_menu(page).locator("summary")
    for _ in range(10):
        page.keyboard.press("Tab")
        if summary.evaluate("(node) => document.activeElement === node"):
            break
    else:
        raise AssertionError("Tab does not reach the language menu")
    expect(summary).to_have_accessible_name("Language")
    page.keyboard.press("Enter")
    links = language_menu(page).get_by_role("link")
    expect(links).to_have_count(4)
    for code, name in LANGUAGES.items():
        link = language_menu(page).get_by_role("link", name=name, exact=True)
        expect(link).to_be_visible()
        expect(link).to_have_attribute("lang", code)
        href = link.get_attribute("href") or ""
        assert f"lang={code}" in href and "token=" not in href, href
        box_of = box(link)
        assert box_of["x"] >= 0 and box_of["x"] + box_of["width"] <= page.viewport_size["width"]
    page.keyboard.press("Escape")
    expect(links.first).to_be_hidden()
    assert summary.evaluate("(node) => document.activeElement === node")


@pytest.mark.parametrize("direction", ["ltr", "rtl"])
def test_every_page_has_a_language_menu_usable_by_keyboard(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    direction: str,
) -> None:
    over = finished_game(server)
    pages = {"lobby": "/", "end": f"/games/{over}", "analysis": f"/games/{over}/analysis"}
    pages |= {"viewer": "/viewer", "table": "/table"}
    for width in (360, 1366):
        page = new_page(browser, width, 740)
        for name, path in pages.items():
            page.goto(server.url + path)
            expect(language_menu(page)).to_be_visible()
            if direction == "rtl":
                right_to_left(page)
            check_language_menu_by_keyboard(page)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"the {name} page is {wide} px wide on a {width} px screen"
        page.context.close()


def test_the_language_menu_reloads_the_game_and_keeps_the_seat_and_placed_tiles(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    created = server.new_game([{"name": "Ann"}, {"name": "Bot", "computer": "beginner"}])
    page = new_page(browser, 1366, 768)
    page.goto(server.url + created["seats"][0]["url"])
    # Read by their faces and classes, the same in every language.
    rack = page.locator("#rack .tile:not([hidden])")
    expect(rack).to_have_count(9)
    page.wait_for_url(lambda url: "token=" not in url)
    rack.first.click()
    h8 = page.locator('[data-square="H8"]')
    h8.click()
    if page.get_by_role("dialog").is_visible():
        page.locator("#blank-faces button").first.click()
    expect(h8).to_have_class(re.compile(r"\bpending\b"))
    face = h8.locator(".glyph").text_content()
    expect(rack).to_have_count(8)
    faces = rack.all_text_contents()
    language_menu(page).locator("summary").click()
    language_menu(page).get_by_role("link", name="Français").click()
    page.wait_for_url(re.compile(r"/games/[^/?]+\?lang=fr$"))
    expect(h8).to_have_class(re.compile(r"\bpending\b"))
    assert h8.locator(".glyph").text_content() == face
    expect(rack).to_have_count(8)
    assert rack.all_text_contents() == faces
    page.context.close()


# The Move box's placeholder as the box lays it out: a user agent draws a placeholder in its
# own closed shadow tree, out of a script's reach, so a copy of its text is set just below
# the box, in the box's font, direction and bidi, and measured there.
PLACEHOLDER_COPY = """(box) => {
  const copy = document.createElement("div");
  const style = getComputedStyle(box);
  for (const name of ["direction", "unicode-bidi", "font", "letter-spacing"]) {
    copy.style.setProperty(name, style.getPropertyValue(name));
  }
  copy.style.whiteSpace = "pre";
  copy.id = "placeholder-copy";
  copy.textContent = box.placeholder;
  box.after(copy);
  return box.placeholder;
}"""


@pytest.mark.parametrize("path", ["game", "table"])
def test_the_hebrew_move_boxes_example_reads_in_its_order(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    path: str,
) -> None:
    """The example in the Hebrew Move box (a left-to-right box) reads as written: on the
    game and table pages a play alone (`8D 1+1=10`, which fits the box on a phone), drawn
    left to right; the game page's help line under the buttons says the rest, its notation
    reading left to right inside the Hebrew sentence."""
    page = new_page(browser, 360, 740, has_touch=True, is_mobile=True, device_scale_factor=2)
    if path == "game":
        created = server.new_game([{"name": "Ann"}, {"name": "Bot", "computer": "beginner"}])
        page.goto(f"{server.url}{created['seats'][0]['url']}&lang=he")
        expect(page.locator("#rack .tile")).to_have_count(9)
    else:
        body = {"players": [{"name": "Ann"}, {"name": "Bo"}], "table": True}
        created = server.api("POST", "/api/games", body)
        page.goto(f"{server.url}{created['seats'][0]['url']}&lang=he")
    move = page.locator("#move")
    move.scroll_into_view_if_needed()
    expect(move).to_be_visible()
    shoot(page, f"rtl-move-box-{path}-he-360x740")
    page.screenshot(path=str(SCREENSHOTS / f"rtl-move-box-{path}-he-box.png"), clip=box(move))
    text = move.evaluate(PLACEHOLDER_COPY)
    assert not any(unicodedata.category(character) == "Cf" for character in text), text
    boxes: list[list[Any]] = page.locator("#placeholder-copy").evaluate(CHARACTER_BOXES)
    assert "".join(character for character, _, _ in boxes) == text.replace(" ", "")
    assert text == "8D 1+1=10", text
    codes = page.locator("#move-help code").all() if path == "game" else []
    for node in [move, *codes]:
        drawn = page.locator("#placeholder-copy") if node == move else node
        lefts = [left for _, left, _ in drawn.evaluate(CHARACTER_BOXES)]
        assert lefts == sorted(lefts), f"{drawn.text_content()!r} is not left to right"
    if path == "game":
        assert page.locator("#move-help code").all_text_contents()[-1] == "exchange 01"
    page.context.close()
