"""The scripts speak the page's language (docs/languages.md): the words the server puts in
the page reach what the scripts write (status, scores, rack and square names, the lobby's
menus), in French, Hebrew and Bulgarian as in English, with no request of their own."""

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

#: What each language's game page says (a seat's, first turn) and names (§6's names).
SAID = {
    "en": ("Your turn: place tiles, or type a move in the Move box.", "rack", "D8 double letter"),
    "fr": (
        "À vous : posez des jetons, ou tapez un coup dans la case Coup.",
        "chevalet",
        "D8 lettre compte double",
    ),
    "he": ("תורכם: הניחו אריחים, או הקלידו מהלך בתיבה מהלך.", "מעמד", "D8 אות כפולה"),
    "bg": (
        "Ваш ход: поставете плочки или въведете ход в полето Ход.",
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
