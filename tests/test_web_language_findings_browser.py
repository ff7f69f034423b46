"""The newcomers' last language findings on the pages, in a real browser (Debian's Chromium,
as in test_web_browser.py; audits fr/bg F4, F6, F15 and en/he F3): the analysis table's
headers are whole on a phone in every language, an error the server sends reads as a
sentence (a capital, a full stop), and the Move box's example is in the page's language.
In Hebrew the invite links read from their start, left to right (audit en/he F13).
Screenshots: test-artifacts/screenshots/findings-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import (
    Server,
    browser,  # noqa: F401  (a fixture)
    expect,
    finished_game,
    new_page,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
)

#: The width of each header cell's text and of its cell, and the table's and its box's.
WIDTHS = """() => {
  const cut = [...document.querySelectorAll("#turns-head th, .turns thead th")]
    .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
    .map((cell) => `${cell.textContent} ${cell.scrollWidth}>${cell.clientWidth}`);
  const table = document.querySelector(".turns");
  const box = table.parentElement;
  return { cut, table: table.scrollWidth, box: box.clientWidth };
}"""


@pytest.mark.parametrize("language", ["en", "fr", "he", "bg"])
def test_the_analysis_headers_are_whole_on_a_phone(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    over = finished_game(server)
    page = new_page(browser, 360, 740, has_touch=True, is_mobile=True, device_scale_factor=2)
    page.goto(f"{server.url}/games/{over}/analysis?lang={language}")
    expect(page.locator("#turns tr")).to_have_count(6)
    found = page.evaluate(WIDTHS)
    assert found["cut"] == [], f"{language}: headers cut {found['cut']}"
    assert found["table"] <= found["box"], f"{language}: the table is wider than its box"
    shoot(page, f"findings-analysis-{language}-360x740")
    page.context.close()


@pytest.mark.parametrize(
    ("language", "start"),
    [("en", "The move “"), ("fr", "Le coup «"), ("bg", "Ходът „")],
)
def test_an_error_from_the_server_reads_as_a_sentence(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
    start: str,
) -> None:
    created = server.new_game([{"name": "Ann"}, {"name": "Bo"}])
    seat = created["seats"][0]
    page = new_page(browser, 1366, 768)
    page.goto(f"{server.url}{seat['url']}&lang={language}")
    expect(page.locator("#rack .tile")).to_have_count(9)
    box = page.locator("#move")
    assert box.get_attribute("placeholder") == "8D 1+1=10"
    box.fill("8H 1+1=11(")
    box.press("Enter")
    status = page.locator("#status")
    expect(status).to_contain_text(start)
    text = (status.text_content() or "").strip()
    assert text[0].isupper() and text.endswith("."), text
    shoot(page, f"findings-error-{language}-1366x768")
    page.context.close()


def test_hebrew_invite_links_read_from_their_start(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    page = new_page(browser, 360, 740, has_touch=True, is_mobile=True, device_scale_factor=2)
    page.goto(f"{server.url}/?lang=he")
    page.locator('input[name="mode"][value="online"]').check()
    page.locator("#new-game button[type=submit]").click()
    fields = page.locator("#invite-list input")
    expect(fields).to_have_count(2)
    for index in range(2):
        field = fields.nth(index)
        assert field.evaluate("(node) => getComputedStyle(node).direction") == "ltr"
        # The address's start is what shows: the box is scrolled to its left end.
        assert field.evaluate("(node) => node.scrollLeft") == 0
        assert (field.input_value() or "").startswith("http://127.0.0.1:")
    shoot(page, "findings-invites-he-360x740")
    page.context.close()
