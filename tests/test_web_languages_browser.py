"""The scripts speak the page's language (docs/languages.md): the words the server puts in
the page reach what the scripts write (status, scores, rack and square names, the lobby's
menus), in French, Hebrew and Bulgarian as in English, with no request of their own."""

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

#: What each language's game page says (a seat's, first turn) and names (§6's names).
SAID = {
    "en": ("Your turn: place tiles, or type a move in the Move box.", "rack", "D8 double letter"),
    "fr": (
        "À vous\u00a0: posez des jetons, ou tapez un coup dans le champ Coup.",
        "chevalet",
        "D8 lettre compte double",
    ),
    "he": ("תורכם: הניחו אריחים, או הקלידו מהלך בתיבת המהלך.", "מעמד", "D8 אות כפולה"),
    "bg": (
        "Ваш ход: поставете плочки или въведете ход в полето „Ход“.",
        "поставка",
        "D8 двойна стойност на буквата",
    ),
}


@pytest.mark.parametrize("language", ["en", "fr", "he", "bg"])
def test_the_game_page_speaks_its_language(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    created = server.new_game([{"name": "Ann"}, {"name": "Bo"}])
    page = new_page(browser, 1280, 900)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{server.url}{created['seats'][0]['url']}&lang={language}")
    status, rack, premium = SAID[language]
    expect(page.get_by_role("status")).to_have_text(status)
    rack_names = page.locator("#rack button").evaluate_all(
        "buttons => buttons.map(button => button.getAttribute('aria-label'))"
    )
    assert rack_names and all(name.startswith(f"{rack} ") for name in rack_names)
    expect(page.locator('[data-square="D8"]')).to_have_accessible_name(premium)
    direction = "rtl" if language == "he" else "ltr"
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        language,
        direction,
    ]
    # The words came with the page: no request asked for them.
    assert not [url for url in requests if "messages" in url or "locale" in url]
    shoot(page, f"languages-game-{language}")
    page.context.close()


def test_the_lobby_menus_speak_french(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    page = new_page(browser, 1280, 900)
    page.goto(f"{server.url}/?lang=fr")
    level = page.locator("#level")
    expect(level.locator("option", has_text="moyen")).to_have_count(1)
    expect(page.locator("#preset option", has_text="règles d’apprentissage")).to_have_count(1)
    expect(page.locator("#level-description")).not_to_have_text("")
    assert "sees" not in (page.locator("#level-description").text_content() or "")
    shoot(page, "languages-lobby-fr")
    page.context.close()


#: The direction marks, embeddings, overrides and isolates a catalogue's sentence may hold.
DIRECTION_CHARACTERS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


@pytest.mark.parametrize("mode", ["hotseat", "online"])
def test_the_hebrew_lobby_starts_a_game_with_the_names_it_fills_in(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    mode: str,
) -> None:
    page = new_page(browser, 360, 740)
    page.goto(f"{server.url}/?lang=he")
    page.locator(f"input[name=mode][value={mode}]").check()
    names = page.locator("#names input").evaluate_all("inputs => inputs.map(input => input.value)")
    assert names == ["שחקן 1", "שחקן 2"], names
    page.get_by_role("button", name="התחלת המשחק").click()
    if mode == "hotseat":
        page.wait_for_url("**/games/**")
    else:
        expect(page.locator("#invites")).to_be_visible()
    shoot(page, f"languages-lobby-he-{mode}-started")
    page.context.close()


def test_the_lobby_shows_a_refusal_under_its_button_in_view(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    page = new_page(browser, 360, 740)
    page.goto(f"{server.url}/?lang=he")
    page.locator("input[name=mode][value=hotseat]").check()
    page.locator("#rules summary").click()
    page.locator("input[name=name1]").fill("נועה\u200b")  # a zero-width space: refused
    page.get_by_role("button", name="התחלת המשחק").click()
    error = page.get_by_role("alert")
    expect(error).to_contain_text("שם")
    expect(error).to_be_in_viewport()
    assert "players.1.name" not in (error.text_content() or "")
    shoot(page, "languages-lobby-he-refused")
    page.context.close()


@pytest.mark.parametrize("language", ["he"])
def test_accessible_names_hold_no_direction_characters(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    created = server.new_game([{"name": "רוני"}, {"name": "Bo"}])
    page = new_page(browser, 1280, 900)
    page.goto(f"{server.url}{created['seats'][0]['url']}&lang={language}")
    expect(page.locator("#rack button").first).to_be_visible()
    labels = page.locator("[aria-label], [title], [placeholder]").evaluate_all(
        "nodes => nodes.flatMap(node => ['aria-label', 'title', 'placeholder']"
        ".map(name => node.getAttribute(name)).filter(Boolean))"
    )
    marked = [label for label in labels if any(mark in label for mark in DIRECTION_CHARACTERS)]
    assert labels and not marked, marked
    page.context.close()


def test_a_hebrew_clock_reads_left_to_right(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    body = {
        "players": [{"name": "נועה"}, {"name": "יואב"}],
        "clock": {"kind": "live", "seconds": 300},
    }
    created = server.api("POST", "/api/games", body)
    page = new_page(browser, 360, 740)
    page.goto(f"{server.url}{created['seats'][0]['url']}&lang=he")
    times = page.locator(".clock .clock-time")
    expect(times.first).to_have_text(re.compile(r"\d:\d\d"))
    # An overtime clock, "−0:04", keeps its sign at the left inside the Hebrew page.
    directions = times.evaluate_all("nodes => nodes.map(node => getComputedStyle(node).direction)")
    assert directions == ["ltr", "ltr"], directions
    page.context.close()
