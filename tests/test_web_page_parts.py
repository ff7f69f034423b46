"""The language menu is written once (``static/parts/languages.html``) and the page renderer
inserts it in every page where the page says ``<!-- part: languages -->``: each page served
has it once, the same markup as before in English and its words in the reader's language,
and no page file repeats it (docs/web.md, "Right to left, and the language menu")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from web_api_support import web_client

from binscrabble import i18n
from binscrabble.web import page_text
from binscrabble.web.page_text import STATIC

#: Each page's address and file.
PAGES = {
    "/": "index.html",
    "/games/abc": "game.html",
    "/games/abc/analysis": "analysis.html",
    "/viewer": "viewer.html",
    "/table": "table.html",
}
MENU = '<details class="languages" id="languages">'
#: The menu's word in each language.
WORD = {"en": "Language", "fr": "Langue", "he": "שפה", "bg": "Език"}


def test_every_page_file_asks_for_the_menu_and_none_repeats_it() -> None:
    part = (STATIC / "parts" / "languages.html").read_text(encoding="utf-8")
    assert part.startswith(MENU)
    for name in PAGES.values():
        page = (STATIC / name).read_text(encoding="utf-8")
        assert page.count("<!-- part: languages -->") == 1, name
        assert MENU not in page and "?lang=he" not in page, name


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_each_page_is_served_with_the_menu_once(tmp_path: Path, language: str) -> None:
    part = (STATIC / "parts" / "languages.html").read_text(encoding="utf-8")
    with web_client(tmp_path / "g.db") as client:
        for path in PAGES:
            page = client.get(path, params={"lang": language}).text
            assert page.count(MENU) == 1, path
            assert "<!-- part:" not in page, path
            for code in i18n.LANGUAGES:
                assert page.count(f'href="?lang={code}" hreflang="{code}"') == 1, path
            assert f'<span class="languages-word">{WORD[language]}</span>' in page, path
            if language == "en":
                indented = "".join(f"    {line}\n" for line in part.rstrip("\n").split("\n"))
                assert indented in page, f"{path}: the menu's markup changed"


def test_a_changed_part_is_served_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages are kept rendered until a file they are made of changes: the part too."""
    static = tmp_path / "static"
    (static / "parts").mkdir(parents=True)
    (static / "p.html").write_text("<html><body>\n  <!-- part: word -->\n</body></html>\n")
    (static / "parts" / "word.html").write_text("<p>Shuffle</p>\n")
    monkeypatch.setattr(page_text, "STATIC", static)
    with i18n.use_language("fr"):
        first = page_text.render("p.html")
        (static / "parts" / "word.html").write_text("<p>Recall</p>\n")
        stamp = (static / "parts" / "word.html").stat().st_mtime_ns
        os.utime(static / "parts" / "word.html", ns=(stamp + 10**9, stamp + 10**9))
        second = page_text.render("p.html")
    assert "<p>Mélanger</p>" in first
    assert "<p>Reprendre</p>" in second
