"""The newcomer's findings on the analysis, the viewer and hints, in a real browser (Debian's
Chromium, as in test_web_browser.py): where hints come from is said on the page and in the
lobby; the analysis's chart works from the keyboard; the viewer says who won; the marks
leave every tile's face readable; the analysis lays out before its script runs.

Screenshots are written under test-artifacts/screenshots/ (study-*.png).
"""

from __future__ import annotations

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

HINTS_NOTE = "Hints come with the Learning rules"


def test_a_game_without_hints_says_they_come_with_the_learning_rules(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """Newcomer's finding 5: the Hint button existed only under the Learning preset and
    nothing said so. Now it is there, disabled, with a line saying why; the lobby's
    description of each preset says whether it gives hints."""
    for rules, width, height in (({}, 360, 740), ({"preset": "expert"}, 1366, 768)):
        created = server.new_game([{"name": "Ann"}, {"name": "Bo"}], rules)
        page = new_page(browser, width, height, has_touch=width < 400)
        page.goto(server.url + created["seats"][0]["url"])
        expect(page.locator("#turn-info")).to_have_text("Your turn")
        button = page.get_by_role("button", name="Hint", exact=True)
        expect(button).to_be_visible()
        expect(button).to_be_disabled()
        note = page.locator("#hint-note")
        expect(note).to_be_visible()
        expect(note).to_contain_text(HINTS_NOTE)
        expect(button).to_have_accessible_description(note.inner_text())
        shoot(page, f"study-hint-note-{width}")
        page.context.close()
    learning = server.new_game([{"name": "Ann"}, {"name": "Bo"}], {"preset": "learning"})
    page = new_page(browser, 1366, 768)
    page.goto(server.url + learning["seats"][0]["url"])
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    expect(page.get_by_role("button", name="Hint", exact=True)).to_be_enabled()
    expect(page.locator("#hint-note")).to_be_hidden()
    page.goto(server.url + "/")
    page.get_by_text("House rules").click()
    description = page.locator("#preset-description")
    for preset, says in (("standard", "No hints"), ("expert", "No hints"), ("learning", "hints")):
        page.get_by_label("Preset").select_option(preset)
        expect(description).to_contain_text(says)
    page.context.close()
