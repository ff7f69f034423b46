"""Overtime on the game page, in a real browser (Debian's Chromium, as in
test_web_browser.py), in each language: when the running seat's live clock goes below zero
the page says that the seat is in overtime and what it costs (10 points for each minute
started, INTERFACES.md §7), to that seat and to the others; in Hebrew the overtime's time
("−0:03") reads left to right inside the sentence. Screenshots:
test-artifacts/screenshots/overtime-LANG.png."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_browser import (
    Server,
    browser,  # noqa: F401  (a fixture)
    expect,
    new_page,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
)
from test_web_rtl_browser import text_drawn_left_to_right

#: What each language calls overtime in the sentence, and says of its cost.
WORDS = {
    "en": ("overtime", "each minute or part of a minute costs 10 points (10 so far)."),
    "fr": ("dépassement de temps", "chaque minute entamée coûte 10 points (10 jusqu’ici)."),
    "he": ("חריגת זמן", "כל דקה או חלק ממנה עולה \u206810\u2069 נקודות (עד כה \u206810\u2069)."),
    "bg": (
        "просрочено време",
        "всяка минута просрочено време или част от нея струва 10 точки (досега 10).",
    ),
}


@pytest.fixture(scope="module")
def games_in_overtime(server: Server) -> dict[str, tuple[str, str, str]]:  # noqa: F811
    """For each language, a game of Ann and Bo with 5 seconds and 2 minutes of overtime in
    which each seat has moved once (both have joined, the clocks run): its id and the two
    tokens. The four clocks start together, so Ann's 5 s run out once for all four tests;
    each test takes a few seconds, so her overtime is still in its first minute."""
    games = {}
    for language in WORDS:
        body = {
            "players": [{"name": "Ann"}, {"name": "Bo"}],
            "clock": {"kind": "live", "seconds": 5, "overtime": 120},
        }
        created = server.api("POST", "/api/games", body)
        game_id = created["id"]
        ann, bo = (seat["token"] for seat in created["seats"])
        for turn, token in enumerate((ann, bo)):
            move = {"move": "pass", "turn": turn}
            server.api("POST", f"/api/games/{game_id}/moves", move, token)
        games[language] = (game_id, ann, bo)
    return games


@pytest.mark.parametrize("language", list(WORDS))
def test_a_seat_in_overtime_is_told_so_and_what_it_costs(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    games_in_overtime: dict[str, tuple[str, str, str]],
    language: str,
) -> None:
    # Ann's 5 s run out (in the game that started with the module's first test).
    game_id, ann, bo = games_in_overtime[language]
    pages = []
    for token in (ann, bo):
        page = new_page(browser, 1366, 768)
        page.goto(f"{server.url}/games/{game_id}?token={token}&lang={language}")
        pages.append(page)
    word, cost = WORDS[language]
    for page in pages:
        line = page.locator("#clock-overtime")
        expect(line).to_be_visible()
        expect(line).to_contain_text(word)
        expect(line).to_contain_text(cost)
        expect(line).to_contain_text(re.compile(r"−0:\d\d"))
    assert "Ann" not in (pages[0].locator("#clock-overtime").text_content() or "")
    assert "Ann" in (pages[1].locator("#clock-overtime").text_content() or "")
    if language == "he":
        for page in pages:
            text_drawn_left_to_right(page.locator("#clock-overtime"), "−0:")
    shoot(pages[0], f"overtime-{language}")
    # Once the game is over (Ann resigns), no clock runs and the line goes.
    server.api("POST", f"/api/games/{game_id}/resign", {}, ann)
    for page in pages:
        expect(page.locator("#clock-overtime")).to_be_hidden()
        page.context.close()
