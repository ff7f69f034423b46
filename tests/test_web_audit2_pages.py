"""The pages' words of the second newcomer audits (en/he N12): every text a person reads is
in the page's language, the clock menu's group headings (``<optgroup label>``) included."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from web_api_support import web_client

from binscrabble import i18n
from binscrabble.i18n import _

GROUPS = {
    "fr": ("En direct\u00a0: des minutes pour tous vos coups", "Par correspondance"),
    "he": ("שעון חי: דקות לכל המהלכים שלכם", "משחק בהתכתבות"),
    "bg": ("На живо: минути за всичките ви ходове", "По кореспонденция"),
}


@pytest.mark.parametrize("language", list(GROUPS))
def test_the_clock_menus_group_headings_are_in_the_pages_language(
    tmp_path: Path, language: str
) -> None:
    with web_client(tmp_path / "g.db") as client:
        page = client.get(f"/?lang={language}").text
    labels = re.findall(r'<optgroup label="([^"]*)"', page)
    assert labels == list(GROUPS[language])


@pytest.mark.parametrize(
    ("made_in", "read_in", "shown"),
    [("fr", "bg", "Компютър"), ("bg", "fr", "Ordinateur"), ("he", "en", "Computer")],
)
def test_the_computers_default_name_is_read_in_the_readers_language(
    tmp_path: Path, made_in: str, read_in: str, shown: str
) -> None:
    """fr/bg N14: a computer seat named "Computer" by the lobby of one language is named in
    the language of each reader; a name of the player's own stays as written."""
    default = {"fr": "Ordinateur", "bg": "Компютър", "he": "מחשב"}[made_in]
    with web_client(tmp_path / "g.db") as client:
        players = [{"name": "Élodie"}, {"name": default, "computer": "beginner"}]
        created = client.post(f"/api/games?lang={made_in}", json={"players": players}).json()
        view = client.get(f"/api/games/{created['id']}?lang={read_in}").json()
        assert [player["name"] for player in view["players"]] == ["Élodie", shown]
        players = [{"name": "Élodie"}, {"name": "Robert", "computer": "beginner"}]
        created = client.post(f"/api/games?lang={made_in}", json={"players": players}).json()
        view = client.get(f"/api/games/{created['id']}?lang={read_in}").json()
        assert [player["name"] for player in view["players"]] == ["Élodie", "Robert"]


def test_the_native_writers_words_of_the_audit() -> None:
    """fr/bg N4, N7, N16: the sentences as a native writer would put them."""
    with i18n.use_language("fr"):
        problem = _(
            "“{text}” is not a move: write a play (8D 1+1=10), pass, or exchange and the "
            "tiles (exchange 01); pass and exchange are written in English in every "
            "language"
        ).format(text="passe")
        assert problem.startswith("«\u00a0passe\u00a0» n’est pas un coup. Écrivez un coup")
        assert problem.endswith("s’écrivent en anglais, quelle que soit la langue")
        assert "illisible" not in _("the move “{move}” cannot be read: {problem}")
    with i18n.use_language("bg"):
        assert _("Unseen by you") == "Неизвестни за вас плочки"
        assert "Ничии" not in _(
            "You play with a real set; this page judges each play under your house rules and "
            "keeps the score. Nobody's tiles are shown to the others."
        )


@pytest.mark.parametrize("language", ["en", "fr", "he", "bg"])
def test_the_rules_examples_write_times_as_the_tile_does(tmp_path: Path, language: str) -> None:
    """fr/bg N16, en/he N5: "1+1=10x1" wrote × as the letter x."""
    with web_client(tmp_path / "g.db") as client:
        meta = client.get(f"/api/meta?lang={language}").text
        page = client.get(f"/?lang={language}").text
    for text in (meta, page):
        assert "10x1" not in text and "0x1)" not in text
    assert "10×1" in meta


@pytest.mark.parametrize("language", ["en", "fr", "he", "bg"])
def test_the_hint_note_names_the_lobbys_house_rules(tmp_path: Path, language: str) -> None:
    """en/he N20: the note said "the lobby's Rules" where the lobby says "House rules"."""
    with web_client(tmp_path / "g.db") as client:
        page = client.get(f"/games/abc?lang={language}").text
        lobby = client.get(f"/?lang={language}").text
    found = re.search(r'id="hint-note"[^>]*>([^<]*)<', page)
    section = re.search(r"<summary>([^<]*)</summary>", lobby)
    assert found is not None and section is not None
    assert section.group(1) in found.group(1).replace("&quot;", '"'), found.group(1)
