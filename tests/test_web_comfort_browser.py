"""Comforts of the web page in a real browser (Debian's Chromium, as test_web_browser.py):
the tab's title and the chime when it becomes your turn, and the lobby's list of games
being played now.

Screenshots are written under test-artifacts/screenshots/ (comfort-*.png).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_browser import (
    Server,
    browser,  # noqa: F401  (a fixture)
    check_fits,
    expect,
    game_id_of,
    new_page,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
    token_of,
)
from web_api_support import best_play

YOUR_TURN = re.compile(r"^● Your turn — Binary Scrabble — Ann vs Bo$")
NOT_YOUR_TURN = re.compile(r"^Binary Scrabble — Ann vs Bo$")


def take_turn(running: Server, game_id: str, token: str, turn: int, move: str = "") -> None:
    """The seat of ``token`` plays ``move``, or its best placement (a pass when it has none):
    passes alone would end the game after six turns."""
    view = running.api("GET", f"/api/games/{game_id}", token=token)
    assert view["turn"] == turn and view["to_move"] == view["seat"]
    move = move or best_play(view) or "pass"
    running.api("POST", f"/api/games/{game_id}/moves", {"move": move, "turn": turn}, token)


def chimes(page: Any) -> int:
    """How many chimes the page has played (the switch counts them)."""
    return int(page.locator("#turn-sound").get_attribute("data-chimes") or 0)


def test_the_title_and_a_chime_say_when_it_becomes_your_turn(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    # A game whose first rack has a play: of eight turns with no play at all, six passes
    # would end it before the turns this test takes.
    for _ in range(50):
        created = server.new_game([{"name": "Ann"}, {"name": "Bo"}])
        game_id = created["id"]
        ann, bo = (seat["token"] for seat in created["seats"])
        if best_play(server.api("GET", f"/api/games/{game_id}", token=ann)) is not None:
            break
    else:
        raise AssertionError("fifty racks in a row without a play: the deal is broken")
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["url"])
    # Ann starts: the title says so at once; the sound is off until she switches it on.
    expect(page).to_have_title(YOUR_TURN)
    switch = page.get_by_label("Play a sound when it is my turn")
    expect(switch).not_to_be_checked()
    take_turn(server, game_id, ann, 0)
    expect(page).to_have_title(NOT_YOUR_TURN)
    take_turn(server, game_id, bo, 1)
    expect(page).to_have_title(YOUR_TURN)
    assert chimes(page) == 0
    # Switched on, it chimes once to be heard, then each time the turn comes back to Ann.
    switch.check()
    expect(page.locator("#turn-sound")).to_have_attribute("data-chimes", "1")
    assert page.evaluate("localStorage.getItem('binscrabble.turnSound')") == "on"
    shoot(page, "comfort-your-turn")
    for turn in (2, 4):
        take_turn(server, game_id, ann, turn)
        expect(page).to_have_title(NOT_YOUR_TURN)
        take_turn(server, game_id, bo, turn + 1)
        expect(page).to_have_title(YOUR_TURN)
    expect(page.locator("#turn-sound")).to_have_attribute("data-chimes", "3")
    # The switch is remembered; a reload on her turn does not chime (it did not just come).
    page.reload()
    expect(page).to_have_title(YOUR_TURN)
    expect(switch).to_be_checked()
    assert chimes(page) == 0
    switch.uncheck()
    assert page.evaluate("localStorage.getItem('binscrabble.turnSound')") == "off"
    take_turn(server, game_id, ann, 6)
    expect(page).to_have_title(NOT_YOUR_TURN)
    take_turn(server, game_id, bo, 7)
    expect(page).to_have_title(YOUR_TURN)
    assert chimes(page) == 0
    page.context.close()


def test_the_lobby_lists_the_games_being_played_and_follows_them(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    created = server.new_game([{"name": "Lou"}, {"name": "Max"}])
    take_turn(server, created["id"], created["seats"][0]["token"], 0)
    page = new_page(browser, 360, 740, has_touch=True, is_mobile=True)
    page.goto(server.url + "/")
    entries = page.locator("#playing li")
    watch = page.get_by_role("link", name="Watch Lou vs Max", exact=True)
    expect(watch).to_have_attribute("href", f"/games/{created['id']}")
    expect(entries.first).to_contain_text("Lou vs Max turn 2: Lou ")
    expect(entries.first).to_contain_text("Max to move, last move just now")
    # A game whose computer moves while the lobby is open comes on top at the next refresh.
    computer = server.new_game([{"name": "Hal", "computer": "beginner"}, {"name": "Nia"}])
    expect(entries.first.get_by_role("link")).to_have_accessible_name(
        "Watch Hal (beginner) vs Nia", timeout=60_000
    )
    expect(entries.first.get_by_role("link")).to_have_attribute("href", f"/games/{computer['id']}")
    expect(watch).to_be_visible()
    check_fits(page, "the lobby")
    page.locator("#playing").scroll_into_view_if_needed()
    shoot(page, "comfort-lobby-playing")
    # With games listed, axe-core finds no serious violation in the lobby, in either theme.
    axe = pytest.importorskip(
        "axe_playwright_python.sync_playwright",
        reason="the axe-playwright-python package is missing: pip install -e '.[dev]'",
    ).Axe()
    for theme in ("light", "dark"):
        desktop = new_page(browser, 1366, 768, color_scheme=theme)
        desktop.goto(server.url + "/")
        expect(desktop.get_by_role("link", name="Watch Lou vs Max", exact=True)).to_be_visible()
        violations = axe.run(desktop).response["violations"]
        serious = [v["id"] for v in violations if v["impact"] in ("serious", "critical")]
        assert serious == [], f"{theme}: {serious}"
        shoot(desktop, f"comfort-lobby-playing-{theme}")
        desktop.context.close()
    # The link opens the game as a spectator sees it.
    watch.tap()
    expect(page).to_have_url(server.url + f"/games/{created['id']}")
    expect(page.locator("#turn-info")).to_have_text("Max's turn")
    expect(page.get_by_role("button", name=re.compile(r"^rack "))).to_have_count(0)
    page.context.close()


def test_a_hot_seat_rematch_starts_with_the_other_player_on_the_same_device(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """The rematch seats each player one seat earlier: the device that holds both tokens
    hands over to the player who moved second, with that player's own token."""
    page = new_page(browser)
    page.goto(server.url + "/")
    page.get_by_label("Hot-seat").check()
    page.get_by_label("Player 1 name").fill("Kit")
    page.get_by_label("Player 2 name").fill("Lia")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[^/?]+$"))
    game_id = game_id_of(page)
    known = page.evaluate("JSON.parse(localStorage.getItem('binscrabble.games'))")
    tokens = next(game["tokens"] for game in known if game["id"] == game_id)
    kit, lia = tokens["0"], tokens["1"]
    for turn in range(6):  # six passes end the game
        take_turn(server, game_id, (kit, lia)[turn % 2], turn, move="pass")
    page.get_by_role("button", name="Rematch", exact=True).click()
    page.wait_for_url(re.compile(r"/games/(?!" + game_id + r")[^/?]+$"))
    expect(page.get_by_text("Pass the device to Lia.")).to_be_visible()
    page.get_by_role("button", name="I am Lia: show my tiles").click()
    expect(page).to_have_title("● Your turn — Binary Scrabble — Lia vs Kit")
    assert token_of(page) == lia
    again = server.api("GET", f"/api/games/{game_id_of(page)}", token=lia)
    assert again["seat"] == 0 and again["to_move"] == 0 and again["turn"] == 0
    shoot(page, "comfort-hot-seat-rematch")
    page.context.close()


def test_the_lobby_starts_a_timed_game(browser: Any, server: Server) -> None:  # noqa: F811
    page = new_page(browser, width=360, height=740, has_touch=True, is_mobile=True)
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Clock").select_option(label="10 min + 5 s a move")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[^/?]+$"))
    expect(page.get_by_role("timer", name="clock Ann")).to_be_visible()
    view = server.api("GET", f"/api/games/{game_id_of(page)}")
    assert view["clock"]["kind"] == "live"
    assert 590_000 < view["clock"]["remaining_ms"][0] <= 600_000
    shoot(page, "comfort-lobby-timed-game")
    page.context.close()
