"""The game page on every screen, in a real browser: whole games against the computer on a
320×568 and a 360×740 phone (touch) and a 1366×768 desktop, checked after every move: the
page is never wider than the screen, the scores are in view without scrolling, the
squares fill a phone's width, the keyboard's help shows only with a keyboard, the rack,
buttons and Move box are in view on the desktop, and the result replaces the rack at the
end. Also the layout shift of a page loading on a slow network, and a reload that keeps
the tiles placed and the rack's order.

Screenshots are written under test-artifacts/screenshots/ (screen-*.png).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import (
    DIRECT,
    WORDS,
    Server,
    browser,  # noqa: F401  (a fixture)
    check_fits,
    expect,
    finished_game,
    new_page,
    pick_move,
    rack_tile,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
    square,
    wait_for_turn,
)

from binscrabble.board import square_name
from binscrabble.move import move_notation

# Width, height and whether the screen is a phone's (touch, no hover, no fine pointer).
SCREENS = [(360, 740, True), (320, 568, True), (1366, 768, False)]
MAX_TURNS = 200


def screen_page(chromium: Any, width: int, height: int, phone: bool) -> Any:
    if phone:
        return new_page(
            chromium, width, height, has_touch=True, is_mobile=True, device_scale_factor=2
        )
    return new_page(chromium, width, height)


# Where a part of the page is on the whole page (not the scrolled viewport): {x, y, width,
# height} from the page's top left corner, or null when the part is not shown.
PLACE = """(selector) => {
  const node = document.querySelector(selector);
  if (!node || !node.getClientRects().length) return null;
  const box = node.getBoundingClientRect();
  return {x: box.x + scrollX, y: box.y + scrollY, width: box.width, height: box.height};
}"""


def place(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] | None = page.evaluate(PLACE, selector)
    assert found, f"{selector} is not shown"
    return found


def check_screen(page: Any, width: int, height: int, phone: bool, moment: str) -> None:
    """What must hold on this screen at every moment of a game."""
    check_fits(page, moment)
    for part in (".scores", "#clocks"):
        box = place(page, part)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (moment, part, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (moment, part, box)
    scores = place(page, ".scores")
    assert scores["x"] >= 0 and scores["x"] + scores["width"] <= width, moment
    # In view with the page scrolled to its top: no scrolling needed to see them.
    assert scores["y"] >= 0 and scores["y"] + scores["height"] <= height, (moment, scores)
    if phone:
        assert scores["y"] < place(page, "#board")["y"], f"{moment}: the scores are below the board"
        a1, o15 = place(page, '[data-square="A1"]'), place(page, '[data-square="O15"]')
        # 15 squares fill the width beside the row numbers' column: 22.9 px each at 360 px.
        numbers = place(page, ".row-labels")
        assert numbers["x"] == 0 and a1["x"] == numbers["width"], (moment, numbers, a1)
        assert abs(o15["x"] + o15["width"] - width) < 0.5, (moment, a1, o15)
        assert abs(a1["width"] - (width - numbers["width"]) / 15) < 0.5, (moment, a1)
    over = page.locator("#result").is_visible()
    if not phone and not over:
        for part in ("#rack", "#play", "#pass", "#move"):
            box = place(page, part)
            assert box["y"] + box["height"] <= height, f"{moment}: {part} is below the fold"


def play_checked_game(page: Any, running: Server, created: dict[str, Any], screen: str) -> Any:
    """Play seat 0 to the end (a first play tapped or clicked tile by tile, two more typed in
    the Move box, then passes), checking the screen after every move."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    phone = page.evaluate("matchMedia('(pointer: coarse)').matches")
    game_id, token = created["id"], created["seats"][0]["token"]
    played = 0
    for _ in range(MAX_TURNS):
        view = wait_for_turn(page, running, game_id, token)
        check_screen(page, width, height, phone, f"{screen}, turn {view['turn']}")
        if view["over"]:
            return view
        found = pick_move(view, most_tiles=4) if played < 3 else None
        if found is None:
            page.get_by_role("button", name="Pass", exact=True).click()
        elif played == 0:
            place_by_pointer(page, found[1], tap=phone)
            check_screen(page, width, height, phone, f"{screen}, tiles placed")
            shoot(page, f"screen-{screen}-placed")
            page.get_by_role("button", name="Play", exact=True).click()
        else:
            box = page.get_by_role("textbox", name="Move")
            box.fill(move_notation(found[1].place, found[0].board))
            box.press("Enter")
        played += found is not None
        page.wait_for_function(
            "(turn) => document.querySelectorAll('#log tr').length > turn", arg=view["turn"]
        )
        page.evaluate("window.scrollTo(0, 0)")
    raise AssertionError(f"the game did not end within {MAX_TURNS} turns")


def place_by_pointer(page: Any, move: Any, tap: bool) -> None:
    """A rack tile, then its square, for each tile of the play (a tap on a touch screen)."""
    for tile in move.place.tiles:
        name = square_name(tile.square)
        chosen = rack_tile(page, "blank" if tile.blank else WORDS.get(tile.face, tile.face))
        target = square(page, name)
        (chosen.tap if tap else chosen.click)()
        (target.tap if tap else target.click)()
        if tile.blank:
            face = page.get_by_role("button", name=f"face {WORDS.get(tile.face, tile.face)}")
            (face.tap if tap else face.click)()
        expect(target).to_have_accessible_name(re.compile(rf"^{name} .*placed$"))


@pytest.mark.parametrize(("width", "height", "phone"), SCREENS)
def test_a_whole_game_fits_the_screen(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    width: int,
    height: int,
    phone: bool,
) -> None:
    screen = f"{width}x{height}"
    # A live clock of an hour each: the clocks must fit beside the rest.
    players = [{"name": "Pia"}, {"name": "Computer", "computer": "beginner"}]
    clock = {"kind": "live", "seconds": 3600}
    created = server.api("POST", "/api/games", {"players": players, "clock": clock})
    page = screen_page(browser, width, height, phone)
    page.goto(server.url + created["seats"][0]["url"])
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    # The keyboard's help is for a keyboard: not on a touch screen.
    if phone:
        expect(page.locator("#keys-help")).to_be_hidden()
    else:
        expect(page.locator("#keys-help")).to_be_visible()
    expect(
        page.get_by_role("row", name=re.compile(r"^Computer \(beginner\) 9 tiles"))
    ).to_be_visible()
    shoot(page, f"screen-{screen}-start")
    view = play_checked_game(page, server, created, screen)
    # After the game the result takes the place of the rack and its buttons.
    expect(page.get_by_role("region", name="Game over")).to_be_visible()
    expect(page.locator("#seat-area")).to_be_hidden()
    result = place(page, "#result")
    assert result["x"] + result["width"] <= width
    if phone:
        assert result["y"] < place(page, ".log-section")["y"]
    else:
        assert result["y"] < height, f"the result is below the fold at {screen}"
    assert view["over"]
    shoot(page, f"screen-{screen}-end")
    page.context.close()


@pytest.mark.parametrize(("width", "height", "phone"), SCREENS)
def test_the_page_does_not_shift_as_it_loads(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    width: int,
    height: int,
    phone: bool,
) -> None:
    created = server.new_game([{"name": "Sam"}, {"name": "Computer", "computer": "beginner"}])
    token = created["seats"][0]["token"]
    server.api("POST", f"/api/games/{created['id']}/moves", {"move": "pass", "turn": 0}, token)
    wait_for_computer(server, created["id"], token)
    page = screen_page(browser, width, height, phone)

    # A slow network: every answer of the API comes 0.4 s late, so the page paints its frame
    # before its first view arrives, as a phone's browser does.
    def slow(route: Any) -> None:
        time.sleep(0.4)
        route.continue_()

    page.route("**/api/**", slow)
    page.goto(server.url + created["seats"][0]["url"])
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    expect(page.locator("#log tr")).to_have_count(2)
    expect(page.get_by_role("status")).to_contain_text("Your turn")
    check_fits(page, f"the game page at {width}x{height}, loaded", settled=True)
    page.context.close()


def wait_for_computer(running: Server, game_id: str, token: str) -> None:
    for _ in range(600):  # 30 seconds at most
        view = running.api("GET", f"/api/games/{game_id}", token=token)
        if view["to_move"] == view["seat"]:
            return
        time.sleep(0.05)
    raise AssertionError("the computer did not move")


def rack_names(page: Any) -> list[str]:
    names: list[str] = page.get_by_role("button", name=re.compile(r"^rack ")).evaluate_all(
        "tiles => tiles.map(tile => tile.ariaLabel)"
    )
    return names


def test_a_reload_keeps_the_tiles_placed_and_the_racks_order(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    created = server.new_game([{"name": "Rae"}, {"name": "Sol"}])
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["url"])
    rack = page.get_by_role("button", name=re.compile(r"^rack "))
    expect(rack).to_have_count(9)
    # The last tile of another face than the first is dragged in front of the first.
    names = rack_names(page)
    last = max(index for index, name in enumerate(names) if name != names[0])
    rack.nth(last).drag_to(rack.nth(0))
    arranged = [names[last], *names[:last], *names[last + 1 :]]
    expect(rack.first).to_have_accessible_name(names[last])
    assert rack_names(page) == arranged
    # Two tiles go to H8 and I8 (a blank gets the face 1).
    for name in ("H8", "I8"):
        rack.first.click()
        square(page, name).click()
        if page.get_by_role("dialog").is_visible():
            page.get_by_role("button", name="face 1", exact=True).click()
        expect(square(page, name)).to_have_accessible_name(re.compile(rf"^{name} .*placed$"))
    placed = [square(page, name).get_attribute("aria-label") for name in ("H8", "I8")]
    expect(rack).to_have_count(7)
    left = rack_names(page)
    assert left == arranged[2:]
    page.reload()
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    for name, label in zip(("H8", "I8"), placed, strict=True):
        expect(square(page, name)).to_have_accessible_name(label or "")
    expect(rack).to_have_count(7)
    assert rack_names(page) == left
    # The placed tiles are judged again, and Recall brings them back in the order kept.
    expect(page.locator("#status .verdict")).to_be_visible()
    page.get_by_role("button", name="Recall", exact=True).click()
    expect(rack).to_have_count(9)
    assert rack_names(page) == arranged
    page.context.close()


@pytest.mark.parametrize(("width", "height"), [(320, 568), (360, 740)])
def test_no_page_is_wider_than_a_phone(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    tmp_path: Path,
    width: int,
    height: int,
) -> None:
    over = finished_game(server)
    with DIRECT.open(f"{server.url}/api/games/{over}/record", timeout=30) as answer:
        record = tmp_path / "game.bsr"
        record.write_bytes(answer.read())
    page = screen_page(browser, width, height, phone=True)
    pages = {
        "lobby": ("/", page.get_by_role("button", name="Start the game")),
        "end": (f"/games/{over}", page.get_by_role("region", name="Game over")),
        "analysis": (f"/games/{over}/analysis", page.locator("#turns tr").nth(5)),
        "viewer": ("/viewer", page.get_by_role("button", name="Choose a record file")),
    }
    for name, (path, shown) in pages.items():
        page.goto(server.url + path)
        expect(shown).to_be_visible(timeout=60_000)
        if name == "viewer":
            page.get_by_label("Game record file").set_input_files(str(record))
            expect(page.locator("#turns tr")).to_have_count(7)
        check_fits(page, f"the {name} page")
        shoot(page, f"screen-{width}x{height}-{name}")
    page.context.close()
