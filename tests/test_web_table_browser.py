"""The referee at a real table in a real browser, on a phone-sized screen with touch:
set up a game, enter plays by tapping squares and faces and by typing, see refusals and
scores, follow the game from a second phone, and settle the end.

Screenshots are written under test-artifacts/screenshots/ (table-*.png).
"""

from __future__ import annotations

import re
from typing import Any

from test_web_browser import (
    Server,
    browser,  # noqa: F401  (a fixture)
    csp_problems,
    expect,
    new_page,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
)


def phone(chromium: Any, console: list[str]) -> Any:
    page = new_page(chromium, 360, 740, has_touch=True, is_mobile=True, device_scale_factor=2)
    page.on("console", lambda message: console.append(message.text))
    return page


def tap_square(page: Any, name: str) -> None:
    page.get_by_role("button", name=re.compile(rf"^{name}( |$)")).tap()


def tap_face(page: Any, face: str) -> None:
    page.get_by_role("button", name=f"face {face}", exact=True).tap()


def score_of(page: Any, name: str) -> Any:
    return page.get_by_label(f"score {name}", exact=True)


def test_a_game_at_the_table_entered_on_a_phone_to_its_end(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    console: list[str] = []
    page = phone(browser, console)
    page.goto(server.url + "/table")
    page.get_by_label("Player 1").fill("Ada")
    page.get_by_label("Player 2").fill("Bob")
    page.get_by_text("House rules", exact=True).tap()
    page.get_by_label("A refused play costs the turn").check()
    shoot(page, "table-setup")
    page.get_by_role("button", name="Start the game").tap()
    expect(page).to_have_url(re.compile(r"/table/[^/?]+$"))
    expect(page.locator("#turn-info")).to_have_text("Ada to play")
    game_id = page.url.rsplit("/", 1)[1]

    follower_console: list[str] = []
    follower = phone(browser, follower_console)
    follower.goto(f"{server.url}/table/{game_id}")
    expect(score_of(follower, "Ada")).to_have_text("0")

    # Ada lays 1=1 across from H8, entered by touch: the page says at once it is legal.
    tap_square(page, "H8")
    for face in ("1", "=", "1"):
        tap_face(page, face)
    expect(page.get_by_label("Move", exact=True)).to_have_value("8H 1=1")
    status = page.get_by_role("status").first
    expect(status).to_contain_text("Legal: 8H 1=1 scores")
    expect(status.locator(".runs li")).to_have_count(1)
    shoot(page, "table-preview")
    preview = status.inner_text()
    points = int(re.search(r"scores (\d+)", preview).group(1))  # type: ignore[union-attr]
    page.get_by_role("button", name="Play", exact=True).tap()
    expect(score_of(page, "Ada")).to_have_text(str(points))
    expect(score_of(follower, "Ada")).to_have_text(str(points))
    expect(page.locator("#turn-info")).to_have_text("Bob to play")

    # Bob types a play that touches nothing: refused with the reason, and it costs the turn.
    move_box = page.get_by_label("Move", exact=True)
    move_box.fill("12A 1=1")
    expect(status).to_contain_text("Not legal: the play on A12-C12 must touch")
    shoot(page, "table-refused-preview")
    page.get_by_role("button", name="Play", exact=True).tap()
    expect(status).to_contain_text("the turn is lost")
    expect(page.locator("#turn-info")).to_have_text("Ada to play")
    expect(page.locator("#log")).to_contain_text("refused 12A 1=1")

    # Ada enters her rack, then exchanges two tiles; then passes all round.
    page.get_by_text("Enter my rack (optional)", exact=True).tap()
    page.get_by_label("My rack", exact=True).fill("110000=+&")
    page.get_by_role("button", name="Enter", exact=True).tap()
    expect(page.locator("#unseen h3")).to_contain_text("your rack left out")
    page.get_by_label("Tiles", exact=True).fill("2")
    page.get_by_role("button", name="Exchange", exact=True).tap()
    expect(page.locator("#log")).to_contain_text("exchange 2")
    for player in ("Bob", "Ada", "Bob", "Ada"):
        expect(page.locator("#turn-info")).to_have_text(f"{player} to play")
        page.get_by_role("button", name="Pass", exact=True).tap()
    expect(page.locator("#turn-info")).to_have_text("Enter the tiles left")
    shoot(page, "table-sheet")

    page.get_by_label("Tiles left on Ada's rack").fill("11000=+&~")
    page.get_by_role("button", name="Enter").first.tap()
    expect(page.get_by_label("Tiles left on Ada's rack")).to_have_count(0)
    page.get_by_label("Tiles left on Bob's rack").fill("000000000")
    page.get_by_role("button", name="Enter").first.tap()
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result-body")).to_contain_text("Ada wins")
    expect(follower.locator("#result-body")).to_contain_text("Ada wins")
    view = server.api("GET", f"/api/games/{game_id}")
    assert view["over"] and view["result"]["winners"] == [0]
    page.get_by_role("link", name="Analysis of the racks entered").tap()
    expect(page.locator("#analysis-body")).to_contain_text("Turn 3, Ada")
    shoot(page, "table-end")
    shoot(follower, "table-follower")
    assert csp_problems(page, console) == []
    assert csp_problems(follower, follower_console) == []


def test_one_phone_a_player_each_through_its_seat_link(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    created = server.api(
        "POST", "/api/games", {"players": [{"name": "Ann"}, {"name": "Bo"}], "table": True}
    )
    console: list[str] = []
    ann, bo = phone(browser, console), phone(browser, console)
    ann.goto(server.url + created["seats"][0]["url"])
    bo.goto(server.url + created["seats"][1]["url"])
    for page in (ann, bo):
        # The token is kept by the page and taken out of the address.
        expect(page).to_have_url(re.compile(rf"/table/{created['id']}$"))
        expect(page.locator("#turn-info")).to_have_text("Ann to play")
    # Not Bo's turn: his phone has nothing to enter, and says whose phone does.
    expect(bo.locator("#entry")).to_be_hidden()
    expect(bo.locator("#waiting")).to_have_text("Ann to play: the move is entered on their phone.")
    ann.get_by_label("Move", exact=True).fill("8G 1=1")
    expect(ann.get_by_role("status").first).to_contain_text("Legal: 8G 1=1 scores")
    ann.get_by_role("button", name="Play", exact=True).tap()
    expect(bo.locator("#turn-info")).to_have_text("Bo to play")
    bo.get_by_role("button", name="Pass", exact=True).tap()
    expect(ann.locator("#turn-info")).to_have_text("Ann to play")
    expect(ann.locator("#log")).to_contain_text("pass")
    shoot(bo, "table-seat-link")
    assert csp_problems(ann, console) == []
