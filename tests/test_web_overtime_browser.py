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
    "en": ("overtime", "10 points so far"),
    "fr": ("dépassement de temps", "10 points jusqu’ici"),
    "he": ("חריגת זמן", "10 נקודות"),
    "bg": ("просрочено време", "10 точки"),
}


@pytest.mark.parametrize("language", list(WORDS))
def test_a_seat_in_overtime_is_told_so_and_what_it_costs(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    body = {
        "players": [{"name": "Ann"}, {"name": "Bo"}],
        "clock": {"kind": "live", "seconds": 5, "overtime": 120},
    }
    created = server.api("POST", "/api/games", body)
    game_id = created["id"]
    ann, bo = (seat["token"] for seat in created["seats"])
    # Each seat moves once (both have joined, the clocks run); then Ann's 5 s run out.
    for turn, token in enumerate((ann, bo)):
        server.api("POST", f"/api/games/{game_id}/moves", {"move": "pass", "turn": turn}, token)
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
        expect(line).to_contain_text(re.compile(r"−0:0\d"))
    assert "Ann" not in (pages[0].locator("#clock-overtime").text_content() or "")
    assert "Ann" in (pages[1].locator("#clock-overtime").text_content() or "")
    if language == "he":
        for page in pages:
            text_drawn_left_to_right(page.locator("#clock-overtime"), "−0:0")
    shoot(pages[0], f"overtime-{language}")
    # Once the game is over (Ann resigns), no clock runs and the line goes.
    server.api("POST", f"/api/games/{game_id}/resign", {}, ann)
    for page in pages:
        expect(page.locator("#clock-overtime")).to_be_hidden()
        page.context.close()
