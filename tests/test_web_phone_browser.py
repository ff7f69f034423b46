"""The game page on a phone and for assistive technology, in a real browser (Debian's
Chromium, as test_web_browser.py): the lobby's invite links shown where the person looks,
tiles named by their faces (INTERFACES.md §6), the blank in the unseen tiles and the
legend of blanks in brackets, the Move box and Play button in view on a phone, and the row
numbers of a phone's board in a column of their own, beside the tiles of column A.

Screenshots are written under test-artifacts/screenshots/ (phone-*.png).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_browser import (
    WORDS,
    Server,
    browser,  # noqa: F401  (a fixture)
    expect,
    new_page,
    rack_tile,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
    square,
)

# Every face a tile shows, as its accessible name gives it.
FACES = {"0", "1", "=", "+", "−", "×", "÷", "AND", "OR", "NOT", "XOR", "blank"}
LEGEND = "Blanks are written in brackets with the face they were given: [1] is a blank played as 1."


def phone(chromium: Any, width: int = 360, height: int = 740, **options: Any) -> Any:
    return new_page(
        chromium, width, height, has_touch=True, is_mobile=True, device_scale_factor=2, **options
    )


def in_view(page: Any, locator: Any) -> bool:
    """Whether the whole of `locator` is inside the screen as the page is scrolled now."""
    box = locator.bounding_box()
    size = page.viewport_size
    return bool(box) and (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


def test_the_invite_links_take_the_forms_place_on_a_phone(browser: Any, server: Server) -> None:  # noqa: F811
    page = phone(browser, permissions=["clipboard-read", "clipboard-write"])
    page.goto(server.url + "/")
    page.get_by_label("Online with friends").check()
    page.get_by_label("Player 1 name").fill("Ann")
    page.get_by_label("Player 2 name").fill("Bob")
    # House rules open, as a newcomer leaves them: the form is taller than the screen.
    page.get_by_text("House rules").tap()
    start = page.get_by_role("button", name="Start the game")
    start.tap()
    title = page.get_by_role("heading", name="The game is ready: invite links")
    expect(title).to_be_focused()
    assert in_view(page, title), "the invite links are not where the person looks"
    expect(start).to_be_hidden()
    for name in ("Ann", "Bob"):
        link = page.get_by_label(f"invite link for {name}")
        expect(link).to_have_value(re.compile(r"^http://127\.0\.0\.1:\d+/games/.+\?token="))
        copy = page.get_by_role("button", name=f"Copy the link for {name}")
        expect(copy).to_be_visible()
        copy.tap()
        expect(page.get_by_role("status")).to_have_text(f"The link for {name} is copied.")
        assert page.evaluate("navigator.clipboard.readText()") == link.input_value()
    shoot(page, "phone-invite-links")
    # Another game brings the form back.
    page.get_by_role("button", name="Start another game").tap()
    expect(start).to_be_visible()
    expect(title).to_be_hidden()
    expect(page.get_by_label("Online with friends")).to_be_focused()
    page.context.close()


def game_with(server: Server, wanted: str) -> tuple[dict[str, Any], dict[str, Any]]:  # noqa: F811
    """A new game of two people whose first rack holds one of the codes `wanted` and whose
    unseen tiles hold a blank; the game and the first seat's view."""
    for _ in range(40):
        created = server.new_game([{"name": "Ann"}, {"name": "Bob"}])
        token = created["seats"][0]["token"]
        view = server.api("GET", f"/api/games/{created['id']}", token=token)
        if set(view["rack"]) & set(wanted) and "?" in view["unseen"]:
            return created, view
    raise AssertionError(f"no first rack with one of {wanted} in 40 new games")


def test_tiles_are_named_by_their_faces_and_blanks_shown_as_on_the_rack(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    created, view = game_with(server, "-x/")
    page = new_page(browser, 1366, 768)
    page.goto(server.url + created["seats"][0]["url"])
    rack = page.get_by_role("button", name=re.compile(r"^rack "))
    expect(rack).to_have_count(9)
    names = rack.evaluate_all("tiles => tiles.map(tile => tile.ariaLabel)")
    assert names == [f"rack {'blank' if c == '?' else WORDS.get(c, c)}" for c in view["rack"]]
    assert all(name.split(" ", 1)[1] in FACES for name in names), names
    # An operator tile placed on the board: its square is named by its face too.
    code = next(c for c in view["rack"] if c in "-x/")
    rack_tile(page, WORDS[code]).click()
    square(page, "H8").click()
    expect(square(page, "H8")).to_have_accessible_name(f"H8 {WORDS[code]} placed")
    # The unseen tiles: each named by its count and face; the blank an empty tile of the
    # blank's colour, as the rack draws one, never a "?".
    items = page.locator("#unseen li")
    labels = items.evaluate_all("items => items.map(item => item.ariaLabel)")
    assert labels and all(re.fullmatch(r"\d+ (\S+)", x)[1] in FACES for x in labels), labels
    blank = page.locator("#unseen li").filter(has=page.locator(".mini-tile.blank"))
    expect(blank).to_have_count(1)
    expect(blank).to_have_attribute("aria-label", re.compile(r"^\d+ blank$"))
    expect(blank.locator(".mini-tile")).to_have_text("")
    expect(page.locator("#unseen")).not_to_contain_text("?")
    colours = page.evaluate(
        """() => [".mini-tile.blank", ".mini-tile:not(.blank)"].map(
             (s) => getComputedStyle(document.querySelector(`#unseen ${s}`)).backgroundColor)"""
    )
    assert colours[0] != colours[1], colours
    # The blank in brackets is explained where moves are written: above the moves (said
    # with the moves' box by a screen reader) and as the Move column's title; and in the
    # lobby's help.
    expect(page.get_by_role("region", name="Moves")).to_have_accessible_description(LEGEND)
    expect(page.locator("#blank-legend")).to_be_visible()
    expect(page.get_by_role("columnheader", name="Move")).to_have_attribute("title", LEGEND)
    shoot(page, "phone-faces-desktop")
    page.goto(server.url + "/")
    expect(page.get_by_role("region", name="How to play")).to_contain_text(
        "a blank is written in brackets with the face it was given: 1+[1]=10"
    )
    page.context.close()


def test_on_a_phone_the_play_button_and_move_box_are_in_view(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    players = [{"name": "Pia"}, {"name": "Computer", "computer": "beginner"}]
    clock = {"kind": "live", "seconds": 3600}
    created = server.api("POST", "/api/games", {"players": players, "clock": clock})
    page = phone(browser)
    page.goto(server.url + created["seats"][0]["url"])
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    for part in ("#rack", "#play", "#pass", "#move"):
        assert in_view(page, page.locator(part)), f"{part} is not in view on a 360x740 phone"
    # The buttons (Hint among them) take one row, down to a 320 px phone.
    for width, height in ((360, 740), (320, 568)):
        page.set_viewport_size({"width": width, "height": height})
        rows = page.locator(".controls button").evaluate_all(
            "(buttons) => buttons.filter((b) => b.getClientRects().length)"
            ".map((b) => b.getBoundingClientRect().top)"
        )
        assert len(rows) >= 5 and len(set(rows)) == 1, f"the buttons take rows {rows} at {width} px"
    page.context.close()


# For each row: its number's box and text (null when it is not drawn), what is drawn at the
# number's middle, and the box of its A square.
ROW_NUMBERS = """() => [...document.querySelectorAll(".row-labels span")].map((number, index) => {
  const boxOf = (node) => {
    const box = node.getBoundingClientRect();
    return {left: box.left, top: box.top, right: box.right, bottom: box.bottom};
  };
  const square = document.querySelector(`#board [data-square="A${index + 1}"]`);
  const shown = number.getClientRects().length > 0;
  const box = boxOf(number);
  const top = shown
    ? document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2) : null;
  return {text: number.textContent, number: shown ? box : null, square: boxOf(square),
          drawn: top === number, tile: square.classList.contains("has-tile")};
})"""


WIDTHS_AND_LANGUAGES = [(320, "en"), (360, "he"), (412, "fr"), (599, "bg")]


@pytest.mark.parametrize(("width", "language"), WIDTHS_AND_LANGUAGES)
def test_row_numbers_stay_beside_the_board_under_tiles_in_column_a(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    width: int,
    language: str,
) -> None:
    """On a phone each row's number is drawn in a column at the board's left, in every
    language (the board left to right in Hebrew too), level with its row: tiles laid on
    A8 and A9 cover no number."""
    created = server.new_game([{"name": "Ann"}, {"name": "Bob"}])
    page = phone(browser, width, 740)
    page.goto(f"{server.url}{created['seats'][0]['url']}&lang={language}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#rack .tile")).to_have_count(9)
    for name in ("A8", "A9"):
        page.locator("#rack .tile:not([hidden])").first.tap()
        square(page, name).tap()
        if page.locator("#blank-dialog").is_visible():
            page.locator("#blank-faces button").first.tap()
        expect(square(page, name)).to_have_class(re.compile(r"\bhas-tile\b"))
    page.evaluate("window.scrollTo(0, 0)")
    found = page.evaluate(ROW_NUMBERS)
    assert [row["text"] for row in found] == [str(row) for row in range(1, 16)]
    assert [row["tile"] for row in found].count(True) == 2
    for row in found:
        where = f"row {row['text']} at {width} px in {language}"
        number, box = row["number"], row["square"]
        assert number, f"{where}: no row number"
        assert row["drawn"], f"{where}: the row number is covered"
        assert number["left"] >= 0 and number["right"] <= box["left"] + 0.5, where
        assert number["top"] >= box["top"] - 0.5 and number["bottom"] <= box["bottom"] + 0.5, where
    shoot(page, f"phone-row-numbers-{language}-{width}")
    page.context.close()
