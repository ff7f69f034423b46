"""Comforts of the web page in a real browser (Debian's Chromium, as test_web_browser.py):
the tab's title and the chime when it becomes your turn, and the lobby's list of games
being played now.

Screenshots are written under test-artifacts/screenshots/ (comfort-*.png).
"""

from __future__ import annotations

import re
from typing import Any

from test_web_browser import (
    Server,
    browser,  # noqa: F401  (a fixture)
    expect,
    new_page,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
)
from web_api_support import best_play

YOUR_TURN = re.compile(r"^● Your turn — Binary Scrabble — Ann vs Bo$")
NOT_YOUR_TURN = re.compile(r"^Binary Scrabble — Ann vs Bo$")


def take_turn(running: Server, game_id: str, token: str, turn: int) -> None:
    """The seat of ``token`` plays its best placement (a pass when it has none): passes
    alone would end the game after six turns."""
    view = running.api("GET", f"/api/games/{game_id}", token=token)
    assert view["turn"] == turn and view["to_move"] == view["seat"]
    move = best_play(view) or "pass"
    running.api("POST", f"/api/games/{game_id}/moves", {"move": move, "turn": turn}, token)


def chimes(page: Any) -> int:
    """How many chimes the page has played (the switch counts them)."""
    return int(page.locator("#turn-sound").get_attribute("data-chimes") or 0)


def test_the_title_and_a_chime_say_when_it_becomes_your_turn(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    created = server.new_game([{"name": "Ann"}, {"name": "Bo"}])
    game_id = created["id"]
    ann, bo = (seat["token"] for seat in created["seats"])
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["url"])
    # Ann starts: the title says so at once; the sound is off until she switches it on.
    expect(page).to_have_title(YOUR_TURN)
    switch = page.get_by_label("Sound when it becomes my turn")
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
