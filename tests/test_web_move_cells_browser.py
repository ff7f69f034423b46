"""The cells of the tables of moves say a pass and an exchange in words a player reads, in
each of the four languages, in a real browser (Debian's Chromium, as
tests/test_web_browser.py): the moves log of the game page and the analysis's table of
turns write "passed" and "exchanged 2 tiles" (translated, in the plural form the count
takes), never the notation's words "pass" and "exchange of 2 tiles"; the seat's own
exchange names its tiles by their faces.

Screenshots: test-artifacts/screenshots/cells-LANG-PAGE.png.
"""

from __future__ import annotations

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

from binscrabble.i18n import _, ngettext, use_language

FACES = {"-": "−", "x": "×", "/": "÷", "&": "AND", "|": "OR", "^": "XOR", "~": "NOT"}


def words(language: str, exchanged: str) -> tuple[str, str, str]:
    """How the cells say a pass, another seat's exchange of two tiles, and the seat's own
    exchange of two tiles whose notation is `exchanged` (`-01`), in `language`."""
    with use_language(language):
        faces = " ".join(_("blank") if c == "?" else FACES.get(c, c) for c in exchanged[1:])
        passed = _("passed")
        theirs = ngettext("exchanged {count} tile", "exchanged {count} tiles", 2).format(count=2)
        mine = ngettext("exchanged {count} tile: {tiles}", "exchanged {count} tiles: {tiles}", 2)
        return passed, theirs, mine.format(count=2, tiles=faces)


@pytest.mark.parametrize("language", ["en", "fr", "he", "bg"])
def test_passes_and_exchanges_are_said_in_words_in_the_cells(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    created = server.new_game([{"name": "Ann"}, {"name": "Bo"}])
    game_id = created["id"]
    ann, bo = (seat["token"] for seat in created["seats"])
    server.api("POST", f"/api/games/{game_id}/moves", {"move": "pass", "turn": 0}, ann)
    rack = server.api("GET", f"/api/games/{game_id}", token=bo)["rack"]
    server.api("POST", f"/api/games/{game_id}/moves", {"move": f"-{rack[:2]}", "turn": 1}, bo)
    exchanged = server.api("GET", f"/api/games/{game_id}", token=bo)["moves"][1]["notation"]
    passed, theirs, mine = words(language, exchanged)
    assert language == "en" or passed != "passed", f"{language}: 'passed' is not translated"
    # Ann's page: her pass and Bo's exchange, by its size.
    page = new_page(browser, 1366, 768)
    page.goto(f"{server.url}/games/{game_id}?token={ann}&lang={language}")
    cells = page.locator("#log tr td:nth-child(3)")
    expect(cells).to_have_text([passed, theirs])
    shoot(page, f"cells-{language}-log")
    # Bo's page: his own exchange names its tiles.
    other = new_page(browser, 1366, 768)
    other.goto(f"{server.url}/games/{game_id}?token={bo}&lang={language}")
    own = other.locator("#log tr td:nth-child(3)").nth(1)
    expect(own).to_have_text(mine)
    other.context.close()
    # The analysis of the game (Ann resigns): the same words with the score, and a finished
    # game's exchanges name their tiles to everyone (as its record does).
    server.api("POST", f"/api/games/{game_id}/resign", {}, ann)
    page.goto(f"{server.url}/games/{game_id}/analysis")
    played = page.locator("#turns tr td:nth-child(3)")
    expect(played).to_have_text([f"{passed} (0)", f"{mine} (0)"], timeout=90_000)
    for cell in played.all_inner_texts():
        assert "pass" not in cell.split() and "exchange " not in cell, cell
    shoot(page, f"cells-{language}-analysis")
    page.context.close()
