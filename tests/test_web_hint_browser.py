"""The hint's explanation on the game page, in a real browser (Debian's Chromium, as in
test_web_browser.py), in English and Hebrew: one part a line (what the play is, each
equation with its steps one a line, the score as a sum), the operations and the sum drawn
left to right in the Hebrew page too. Screenshots: test-artifacts/screenshots/hint-*.png."""

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

#: The sum of a hint's score sentence: "48", "18 + 6 = 24", "72 + 50 = 122".
SUM = re.compile(r"\d+(?: \+ \d+)* = \d+|\d+")


def tops(locator: Any) -> list[float]:
    """The top edge of each element the locator finds."""
    script = "(nodes) => nodes.map((node) => node.getBoundingClientRect().top)"
    found: list[float] = locator.evaluate_all(script)
    return found


@pytest.mark.parametrize("language", ["en", "he"])
def test_the_hint_is_shown_one_part_a_line(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    # A rack with no play gets an exchange for its hint, and a play of single digits
    # ("1=1") has no arithmetic to draw: the first game of a few whose hint has both.
    for _ in range(12):
        created = server.new_game([{"name": "Ann"}, {"name": "Bo"}], {"preset": "learning"})
        seat = created["seats"][0]
        hint = f"/api/games/{created['id']}/hint?lang={language}"
        answer = server.api("POST", hint, {}, seat["token"])
        steps_shown = [step for run in answer["runs"] for step in run["steps"]]
        if any(step["arithmetic"] for step in steps_shown):
            break
    assert answer["runs"], "twelve racks in a row had no play with arithmetic"
    page = new_page(browser, 1366, 768)
    page.goto(f"{server.url}{seat['url']}{'&' if '?' in seat['url'] else '?'}lang={language}")
    expect(page.locator("#rack .tile")).to_have_count(9)
    page.locator("#hint").click()
    panel = page.locator("#hint-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".hint-about")).to_have_text(answer["about"])
    expect(panel.locator(".hint-total")).to_have_text(answer["total"])
    expect(panel.locator(".hint-keeps")).to_have_text(answer["explanation"])
    steps = panel.locator(".hint-steps").first.locator("li")
    expect(steps).to_have_count(len(answer["runs"][0]["steps"]))
    lines = tops(steps)
    assert lines == sorted(lines) and len(set(lines)) == len(lines), f"steps share a line: {lines}"
    assert "_" not in (panel.text_content() or ""), "a house rule is named by its switch"
    arithmetic = panel.locator(".hint-math").first
    text_drawn_left_to_right(arithmetic, (arithmetic.text_content() or "").split(" (")[0])
    # Each side's expression after its name ("left side: 1 × 10 − NOT 0") reads left to right.
    for index in range(steps.count()):
        text = re.sub("[\u2066-\u2069]", "", steps.nth(index).text_content() or "")
        expression = text.rsplit(": ", 1)[-1]
        if ": " in text and not re.search("[\u0590-\u05ff]|[a-z]{3}", expression):
            text_drawn_left_to_right(steps.nth(index), expression)
    total = panel.locator(".hint-total")
    found = SUM.search(re.sub("[\u2066-\u2069]", "", total.text_content() or ""))
    assert found is not None
    text_drawn_left_to_right(total, found.group(0))
    shoot(page, f"hint-{language}-1366x768")
    page.context.close()
