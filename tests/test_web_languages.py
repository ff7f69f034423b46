"""Each request's language (INTERFACES.md §7, docs/languages.md): ``?lang=`` (remembered in
a cookie), else the cookie, else ``Accept-Language``, else English, for the API's error
sentences, the pages (``<html lang dir>``, their text, the scripts' messages) and the live
views."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from web_api_support import web_client

from binscrabble import i18n
from binscrabble.i18n import _
from binscrabble.web.live import Hub
from binscrabble.web.page_text import STATIC, html_messages, translate_html, with_parts

NO_GAME = {
    "en": "there is no game 'nope': check the link",
    "fr": "il n’y a pas de partie 'nope'\u00a0: vérifiez le lien",
    "he": "אין משחק \u2068'nope'\u2069: בדקו את הקישור",
    "bg": "няма игра 'nope': проверете връзката",
}
NO_TOKEN = {
    "en": "this token opens no seat of this game: use your invite link",
    "fr": "ce jeton d’accès n’ouvre aucune place de cette partie\u00a0: "
    + "utilisez votre lien d’invitation",
    "he": "אסימון הגישה הזה אינו פותח אף מושב במשחק הזה: השתמשו בקישור ההזמנה שלכם",
    "bg": "този ключ не отваря нито едно място в играта: използвайте връзката си за покана",
}
TAGS = {"fr": "fr-FR,fr;q=0.9", "he": "he-IL", "bg": "bg;q=0.8, en;q=0.2", "en": "en-GB"}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_api_errors_follow_lang_in_the_query(tmp_path: Path, language: str) -> None:
    with web_client(tmp_path / "g.db") as client:
        answer = client.get(f"/api/games/nope?lang={language}")
        assert answer.status_code == 404
        assert answer.json() == {"error": NO_GAME[language]}
        assert answer.headers["content-language"] == language
        created = client.post(
            f"/api/games?lang={language}", json={"players": [{"name": "Ann"}, {"name": "Bo"}]}
        )
        game = created.json()["id"]
        refused = client.post(
            f"/api/games/{game}/moves?lang={language}",
            json={"move": "pass", "turn": 0},
            headers={"Authorization": "Bearer wrong"},
        )
        assert refused.status_code == 401
        assert refused.json() == {"error": NO_TOKEN[language]}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_api_errors_follow_accept_language(tmp_path: Path, language: str) -> None:
    with web_client(tmp_path / "g.db") as client:
        answer = client.get("/api/games/nope", headers={"Accept-Language": TAGS[language]})
        assert answer.json() == {"error": NO_GAME[language]}
        assert "set-cookie" not in answer.headers  # only ?lang= is remembered
        assert "Accept-Language" in answer.headers["vary"]


def test_lang_in_the_query_is_remembered_in_a_cookie(tmp_path: Path) -> None:
    with web_client(tmp_path / "g.db") as client:
        first = client.get("/api/games/nope?lang=bg", headers={"Accept-Language": "fr"})
        cookie = first.headers["set-cookie"]
        assert cookie.startswith("lang=bg;")
        assert "Path=/" in cookie and "SameSite=Lax" in cookie
        later = client.get("/api/games/nope", headers={"Accept-Language": "fr"})
        assert later.json() == {"error": NO_GAME["bg"]}  # the cookie wins over the header
        other = client.get("/api/games/nope?lang=he")
        assert other.json() == {"error": NO_GAME["he"]}
        assert client.get("/api/games/nope").json() == {"error": NO_GAME["he"]}


def test_an_unknown_lang_is_passed_over(tmp_path: Path) -> None:
    with web_client(tmp_path / "g.db") as client:
        answer = client.get("/api/games/nope?lang=xx", headers={"Accept-Language": "fr"})
        assert answer.json() == {"error": NO_GAME["fr"]}
        assert "set-cookie" not in answer.headers
        client.cookies.set("lang", "klingon")
        assert client.get("/api/games/nope").json() == {"error": NO_GAME["en"]}


PAGES = ["/", "/games/abc", "/games/abc/analysis", "/table", "/viewer"]


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_pages_carry_the_languages_lang_dir_and_messages(
    tmp_path: Path, path: str, language: str
) -> None:
    with web_client(tmp_path / "g.db") as client:
        page = client.get(path, headers={"Accept-Language": TAGS[language]})
    assert page.status_code == 200
    direction = "rtl" if language == "he" else "ltr"
    assert f'<html lang="{language}" dir="{direction}">' in page.text
    block = re.search(r'<script type="application/json" id="messages">(.*?)</script>', page.text)
    assert block is not None
    data = json.loads(block.group(1))
    assert (data["lang"], data["dir"]) == (language, direction)
    title = re.search(r"<title>(.*?)</title>", page.text)
    assert title is not None
    with i18n.use_language(language):
        assert title.group(1).startswith(_("Binary Scrabble"))
    assert ("Binary Scrabble" in title.group(1)) == (language == "en")


def test_the_game_page_reads_in_french(tmp_path: Path) -> None:
    with web_client(tmp_path / "g.db") as client:
        page = client.get("/games/abc?lang=fr").text
    assert "<title>Scrabble binaire — partie</title>" in page
    assert ">Mélanger</button>" in page and 'aria-label="votre chevalet"' in page
    assert "<kbd>Entrée</kbd> joue" in page  # a sentence with its keys, one message
    assert ">Shuffle<" not in page


@pytest.mark.parametrize("name", sorted(path.name for path in STATIC.glob("*.html")))
def test_english_pages_are_served_as_written(name: str) -> None:
    page = (STATIC / name).read_text(encoding="utf-8")
    assert translate_html(page, lambda text: text) == page
    assert len(html_messages(page)) > 5


def test_each_live_listener_gets_views_in_its_own_language() -> None:
    hub = Hub()
    listeners = {}
    for language in ("en", "fr", "he"):
        with i18n.use_language(language):
            listeners[language] = hub.join("g", 0)
    built: list[str] = []

    def view_for(seat: int | None) -> dict[str, str]:
        built.append(i18n.language())
        return {"said": _("the game is over: no more moves can be played")}

    hub.publish("g", view_for)
    said = {language: listener.pending for language, listener in listeners.items()}
    assert said == {
        "en": {"said": "the game is over: no more moves can be played"},
        "fr": {"said": "la partie est finie\u00a0: on ne peut plus jouer de coup"},
        "he": {"said": "המשחק הסתיים: אי אפשר לשחק עוד מהלכים"},
    }
    assert sorted(built) == ["en", "fr", "he"]  # one view a seat and language


#: Bodies the API refuses before any route runs (web/limits.py): Pydantic's errors, the
#: JSON reader's, the size limit's.
BAD_BODIES = {
    "isolated name": {"players": [{"name": "\u2068P\u2069"}, {"name": "Bo"}]},
    "one player": {"players": [{"name": "Ann"}]},
    "a fraction": {
        "players": [{"name": "A"}, {"name": "B"}],
        "clock": {"kind": "live", "seconds": 5.5},
    },
    "too short": {
        "players": [{"name": "A"}, {"name": "B"}],
        "clock": {"kind": "live", "seconds": 1},
    },
    "too long": {"players": [{"name": "A" * 41}, {"name": "B"}]},
    "level": {"players": [{"name": "A"}, {"name": "B", "computer": "god"}]},
    "unknown": {"players": [{"name": "A"}, {"name": "B"}], "x": 1},
    "missing": {},
    "null clock": {"players": [{"name": "A"}, {"name": "B"}], "clock": None},
}
#: What each language says of the first body (a name holding U+2068/U+2069, as the Hebrew
#: lobby once sent): the field in words, the sentence translated.
NAME_REFUSED = {
    "en": "player 1's name is wrong: a name needs a character that is not a space",
    "fr": "le nom du joueur 1 ne convient pas\u00a0: un nom a besoin d’un caractère",
    "he": "השם של שחקן \u20681\u2069\u2069 — ערך שגוי",
    "bg": "името на играч 1: грешна стойност – името трябва да съдържа знак",
}
#: English a translated sentence never holds: Pydantic's wording and the API's own.
ENGLISH = ("Input should", "String should", "List should", "the field", "the body", "players.")


@pytest.mark.parametrize("language", ["fr", "he", "bg"])
def test_body_errors_follow_the_language(tmp_path: Path, language: str) -> None:
    with web_client(tmp_path / "g.db") as client:
        said = {}
        for name, body in BAD_BODIES.items():
            answer = client.post(f"/api/games?lang={language}", json=body)
            assert answer.status_code == 400, (name, answer.text)
            said[name] = answer.json()["error"]
        not_json = client.post(
            f"/api/games?lang={language}",
            content=b"{",
            headers={"Content-Type": "application/json"},
        )
        said["not json"] = not_json.json()["error"]
        twice = client.post(
            f"/api/games?lang={language}",
            content=b'{"players": [], "players": []}',
            headers={"Content-Type": "application/json"},
        )
        said["twice"] = twice.json()["error"]
        huge = client.post(f"/api/games?lang={language}", json={"x": "1" * 70_000})
        assert huge.status_code == 413
        said["huge"] = huge.json()["error"]
    assert NAME_REFUSED[language] in said["isolated name"], said["isolated name"]
    english = {name: text for name, text in said.items() if any(word in text for word in ENGLISH)}
    assert not english, english
    assert "'god'" in said["level"]


def test_body_errors_name_fields_in_words_in_english(tmp_path: Path) -> None:
    with web_client(tmp_path / "g.db") as client:
        answer = client.post("/api/games", json=BAD_BODIES["isolated name"])
        level = client.post("/api/games", json=BAD_BODIES["level"])
        fraction = client.post("/api/games", json=BAD_BODIES["a fraction"])
        null = client.post(
            "/api/games",
            json={"players": [{"name": "A"}, {"name": "B"}], "rules": {"preset": None}},
        )
    assert answer.json()["error"].startswith(NAME_REFUSED["en"])
    assert level.json()["error"].startswith("player 2's computer level is wrong: it takes one of")
    assert fraction.json()["error"] == (
        "the live clock's time in seconds is wrong: it takes a whole number"
    )
    assert "it is null" in null.json()["error"], null.json()
    assert "None" not in null.json()["error"]


def test_the_hebrew_lobby_isolates_the_blank_example_left_to_right() -> None:
    with i18n.use_language("he"):
        page = translate_html(with_parts((STATIC / "index.html").read_text("utf-8"), STATIC), _)
    # U+2066 LEFT-TO-RIGHT ISOLATE: the example reads 1+[1]=10 inside the Hebrew sentence.
    assert "\u20661+[1]=10\u2069" in page


#: Hebrew verbs and possessives in the masculine singular (or plural) that a sentence about
#: a named player used to carry: the player's gender and number are unknown.
GENDERED = ("ניצח", "פרש", "ביטל", "שיחק", "החליף", "ויתר", "הניח", "עזב", "חושב", "בחר")
GENDERED += ("הצליח", "פתח", "מחליף", "מוותר", "תורו", "יפתחו", "שלו")
#: One of those as a whole word (Hebrew letters on neither side: "ניצחון" is a noun).
GENDERED_WORD = re.compile(rf"(?<![\u05d0-\u05ea])(?:{'|'.join(GENDERED)})(?![\u05d0-\u05ea])")


def test_hebrew_sentences_about_a_player_assume_no_gender() -> None:
    """audit-en-he F6: "<name> won" and the like are said without a gendered verb."""
    template = (i18n.LOCALE_DIR / "binscrabble.pot").read_text(encoding="utf-8")
    named = sorted(set(re.findall(r'^msgid "(.*\{names?\}.*)"$', template, re.M)))
    assert len(named) > 20
    with i18n.use_language("he"):
        said = {message: _(message) for message in named}
        said["exchanged"] = i18n.ngettext("{name} exchanged {count} tile.", "", 3)
    gendered = {key: text for key, text in said.items() if GENDERED_WORD.search(text)}
    assert not gendered, gendered
    with i18n.use_language("he"):
        assert _("Remove") == "הסרה מהרשימה"
        assert _("Resign") == "כניעה"
        assert "בשני שחקנים" not in _(
            "Resign this game? With two players the other one wins; with more, you place last."
        )
