"""The words left on the web pages after the second newcomer audits (issue 39), in a real
browser (Debian's Chromium, as tests/test_web_browser.py); each test is written from the
finding's steps and failed before its fix.

- en/he N5: the lobby names each house rule, preset and level as a person would, never by
  its switch with spaces for underscores.
- en/he N19: a game page opened from an invite link has the lobby's "How to play".
- en/he N11: the names assistive technology reads (accessible names, aria-label) hold no
  isolate characters in Hebrew: the page isolates with <bdi> elements.
- "Your games" names a computer in the reader's language; French elides "de" before a
  vowel ("score d’Élodie").
- en/he N9: the computer's turn says "the computer" ("של המחשב"), not a name.
- fr/bg N11, en/he F13: the viewer's file button was the browser's own "Choose File / No
  file chosen" in every language; the page draws its own, in its language.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_analysis_browser import Finished
from test_web_browser import (
    Server,
    browser,  # noqa: F401  (a fixture)
    expect,
    new_page,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
)

from binscrabble import i18n

#: The lobby's House rules, as an English writer names them (en/he N5).
ENGLISH_SWITCHES = [
    "Order of operations",
    "Times 1 and divided by 1 allowed",
    "Plus 0 and minus 0 allowed",
    "AND 1, OR 0 and XOR 0 allowed",
    "Several of ×1, +0, AND 1 in one equation",
    "Results below zero allowed",
    "Numbers may start with 0",
    "Plain numbers beside a run",
    "An = turned to read 11",
    "XOR tiles added to the bag",
    "Tiles on a rack",
    "Bonus for playing a whole rack",
]
#: The first preset and level of each list, as each language's lobby shows them.
FIRST_CHOICES = {
    "en": ("Learning", "Beginner"),
    "fr": ("Règles d’apprentissage", "Débutant"),
    "he": ("חוקים למתחילים", "מתחיל"),
    "bg": ("Правила за начинаещи", "Начинаещ"),
}


@pytest.mark.parametrize("language", list(FIRST_CHOICES))
def test_the_lobby_names_house_rules_presets_and_levels_in_words(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    """en/he N5: "identity times one", "learning", "beginner" were the switches' and
    levels' codes; every name now starts as a name does (a capital where the script has
    one) and is no switch's code."""
    page = new_page(browser)
    page.goto(f"{server.url}/?lang={language}")
    page.locator("#rules > summary").click()
    labels = page.locator("#switches label")
    expect(labels).to_have_count(len(ENGLISH_SWITCHES))
    names = labels.all_inner_texts()
    if language == "en":
        assert names == ENGLISH_SWITCHES
    for name in names:
        assert name[0] == name[0].upper(), name
        assert "_" not in name and not name.islower(), name
    preset, level = FIRST_CHOICES[language]
    expect(page.locator("#preset option").first).to_have_text(preset)
    expect(page.locator("#level option").first).to_have_text(level)
    # en/he N22: the level's caption is a sentence (it started in lower case, no stop).
    expect(page.locator("#level-description")).to_have_text(re.compile(r"\.$"))
    if language == "en":
        expect(page.locator("#level-description")).to_have_text(re.compile(r"^Sees "))
        expect(page.locator("#preset option")).to_have_text(["Learning", "Standard", "Expert"])
        choices = page.locator("#rule-precedence option")
        expect(choices).to_have_text(["Standard order", "Left to right"])
    shoot(page, f"{language}-lobby-house-rules-named")
    page.context.close()


@pytest.mark.parametrize("language", ["en", "he"])
def test_a_game_page_opened_from_an_invite_has_the_lobbys_how_to_play(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    """en/he N19: the friend who opens an invite link lands on the game page, and the rules
    in short were only in the lobby. The game page folds the lobby's own card (the same
    part of the page, the same words) under "How to play", opened in place."""
    page = new_page(browser, 360, 740, has_touch=True, is_mobile=True)
    page.goto(f"{server.url}/?lang={language}")
    lobby = page.locator("section.how li").all_inner_texts()
    assert len(lobby) >= 5
    players = [{"name": "Noa"}, {"name": "Yoav"}]
    created = server.api("POST", "/api/games", {"players": players})
    page.goto(f"{server.url}{created['seats'][1]['url']}&lang={language}")
    expect(page.locator("#rack .tile")).to_have_count(9)
    heading = {"en": "How to play", "he": "איך משחקים"}[language]
    folded = page.locator("details.how-to-play")
    expect(folded.locator("summary")).to_have_text(heading)
    expect(folded.locator("li").first).to_be_hidden()
    folded.locator("summary").click()
    expect(folded.locator("li").first).to_be_visible()
    assert folded.locator("li").all_inner_texts() == lobby
    assert page.url.startswith(f"{server.url}/games/")
    shoot(page, f"{language}-phone-game-how-to-play")
    page.context.close()


ISOLATES = re.compile("[\u2066-\u2069]")
#: Every name and label assistive technology reads on a page: the accessible names of its
#: tree (quoted in Playwright's ARIA snapshot), its aria-label, title and placeholder
#: attributes, and the bag's line.
READ_NAMES = """nodes => nodes.flatMap(node => ['aria-label', 'title', 'placeholder']
  .map(name => node.getAttribute(name)).filter(Boolean))"""


def names_with_isolates(page: Any) -> list[str]:
    snapshot = page.locator("body").aria_snapshot()
    names = re.findall(r'- [a-z]+ "((?:[^"\\]|\\.)*)"', snapshot)
    names += page.locator("[aria-label], [title], [placeholder]").evaluate_all(READ_NAMES)
    assert names, snapshot
    return [name for name in names if ISOLATES.search(name)]


@pytest.fixture(scope="module")
def finished(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Finished:  # noqa: F811
    return Finished(server, tmp_path_factory.mktemp("records"))


def test_hebrew_names_for_assistive_technology_hold_no_isolates(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    finished: Finished,
) -> None:
    """en/he N11: the computer's row read "\u2068מחשב\u2069 (\u2068מתחיל\u2069) 9 אריחים", the
    bag "בשק: \u206882 אריחים\u2069", each turn of the analysis and the viewer
    "\u2068תור \u20683\u2069: ..."."""
    players = [{"name": "דנה"}, {"name": "מחשב", "computer": "beginner"}]
    created = server.api("POST", "/api/games", {"players": players})
    page = new_page(browser, 1366, 768)
    page.goto(f"{server.url}{created['seats'][0]['url']}&lang=he")
    expect(page.locator("#rack .tile")).to_have_count(9)
    expect(page.locator("#bag")).to_contain_text("בשק")
    assert names_with_isolates(page) == []
    bag = page.locator("#bag").text_content() or ""
    assert not ISOLATES.search(bag), bag
    page.goto(f"{server.url}/games/{finished.id}/analysis?lang=he")
    expect(page.locator("#turns tr")).to_have_count(len(finished.turns))
    expect(page.locator(".chart-turn").first).to_be_attached()
    assert names_with_isolates(page) == []
    page.goto(f"{server.url}/viewer?lang=he")
    page.locator("#record-file, input[type=file]").first.set_input_files(str(finished.record))
    expect(page.locator("#turns tr")).to_have_count(len(finished.turns) + 1)
    assert names_with_isolates(page) == []
    page.context.close()


def test_your_games_names_the_computer_in_the_readers_language(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """The lobby's list kept the computer's name as the lobby of the game's language stored
    it ("Élodie срещу Ordinateur" in Bulgarian), where the game page says "Компютър"."""
    page = new_page(browser)
    page.goto(f"{server.url}/?lang=fr")
    page.locator("input[name=human]").fill("Élodie")
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_url("**/games/**")
    expect(page.locator("#rack .tile")).to_have_count(9)
    page.goto(f"{server.url}/?lang=bg")
    expect(page.locator("#games li a").first).to_have_text("Élodie срещу Компютър")
    page.goto(f"{server.url}/?lang=fr")
    expect(page.locator("#games li a").first).to_have_text("Élodie contre Ordinateur")
    # en/he N22: the button takes the game off the list: "Remove" ("Forget" before).
    expect(page.locator("#games li button").first).to_have_text("Retirer")
    page.context.close()


def test_french_elides_de_before_a_name_that_starts_with_a_vowel(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """fr/bg N16: "score de Élodie" on every game page; "score de Hugo" stays."""
    created = server.new_game([{"name": "Élodie"}, {"name": "Hugo"}])
    page = new_page(browser)
    page.goto(f"{server.url}{created['seats'][0]['url']}&lang=fr")
    expect(page.locator("#rack .tile")).to_have_count(9)
    scores = page.locator("#scores td.score")
    expect(scores.first).to_have_attribute("aria-label", "score d’Élodie")
    expect(scores.nth(1)).to_have_attribute("aria-label", "score de Hugo")
    page.context.close()


# What the page's `t` makes of a sentence not in the catalogue (so it is used as written),
# with each value: French elides de, que, le and la before a vowel, as binscrabble.i18n.fill.
ELISIONS = [
    ("tour de {name}", "Élodie", "tour d’Élodie"),
    ("tour de {name}", "Hugo", "tour de Hugo"),
    ("plus que {name}", "Ann", "plus qu’Ann"),
    ("Que {name} joue", "Ève", "Qu’Ève joue"),
    ("voir le {name}", "octet", "voir l’octet"),
    ("voir la {name}", "équation", "voir l’équation"),
    ("voir la {name}", "\u2068Ève\u2069", "voir l’\u2068Ève\u2069"),
    # A word that ends in "le" or "de" is no article: nothing is elided.
    ("un modèle {name}", "en bois", "un modèle en bois"),
    ("une aide {name}", "auditive", "une aide auditive"),
    ("{name} joue", "Ann", "Ann joue"),
]


def test_the_pages_french_elides_as_python_does(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """The page's sentences elide "de", "que", "le" and "la" before a vowel in French, the
    same words as Python's (it elided "de" alone); in English nothing is elided."""
    page = new_page(browser)
    for language in ("fr", "en"):
        page.goto(f"{server.url}/?lang={language}")
        made = page.evaluate(
            """async (cases) => {
                const { t } = await import("/static/js/i18n.js");
                return cases.map(([text, name]) => t(text, { name }));
            }""",
            [[text, name] for text, name, _ in ELISIONS],
        )
        with i18n.use_language(language):
            python = [i18n.fill(text, name=name) for text, name, _ in ELISIONS]
        if language == "fr":
            assert made == [said for _, _, said in ELISIONS]
        else:
            assert made == [text.format(name=name) for text, name, _ in ELISIONS]
        assert made == python
    page.context.close()


#: The viewer's file button and its line before a file is chosen, in each language.
FILE_BUTTON = {
    "en": ("Choose a record file", "No file chosen"),
    "fr": ("Choisir une feuille de partie", "Aucun fichier choisi"),
    "he": ("בחירת קובץ רישום משחק", "לא נבחר קובץ"),
    "bg": ("Избери файл със запис", "Няма избран файл"),
}


@pytest.mark.parametrize("language", list(FILE_BUTTON))
def test_the_viewers_file_button_speaks_the_pages_language(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    finished: Finished,
    language: str,
) -> None:
    page = new_page(browser, 360, 740, has_touch=True, is_mobile=True)
    # Playwright intercepts file choosers once a page has a listener for them: listening
    # from the start, a chooser opened by the first key press is never missed.
    choosers: list[Any] = []
    page.on("filechooser", lambda chooser: choosers.append(chooser))
    page.goto(f"{server.url}/viewer?lang={language}")
    words, none = FILE_BUTTON[language]
    button = page.get_by_role("button", name=words)
    expect(button).to_be_visible()
    expect(page.locator("#file-name")).to_have_text(none)
    # The browser's own control ("Choose File") is not shown.
    expect(page.locator("input[type=file]")).to_be_hidden()
    # The keyboard reaches the button, and Enter opens the file chooser (once the page's
    # script has drawn the empty board, its listeners are there).
    expect(page.locator("#board .square").first).to_be_attached()
    button.focus()
    with page.expect_file_chooser() as chosen:
        page.keyboard.press("Enter")
    chosen.value.set_files(str(finished.record))
    expect(page.locator("#turns tr")).to_have_count(len(finished.turns) + 1)
    expect(page.locator("#file-name")).to_have_text(finished.record.name)
    shoot(page, f"{language}-phone-viewer-file-button")
    page.context.close()


#: The turn of the seat the lobby named "Computer", and of a computer named "Bot".
THINKING = {
    "en": ("The computer is thinking…", "Bot is thinking…"),
    "he": ("ממתינים למהלך של המחשב…", "ממתינים למהלך של \u2068Bot\u2069…"),
    "bg": ("Компютърът мисли…", "Bot мисли…"),
}


@pytest.mark.parametrize("language", list(THINKING))
def test_the_computers_turn_says_the_computer(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    """en/he N9: "ממתינים למהלך של מחשב…" read "waiting for the move of a computer"."""
    page = new_page(browser)
    page.goto(f"{server.url}/viewer?lang={language}")
    default, named = THINKING[language]
    call = (
        "import('/static/js/panels.js').then((m) => [m.thinking({name: NAME, computer: 'easy'}),"
        " m.thinking({name: 'Bot', computer: 'easy'})])"
    )
    name = {"en": "Computer", "he": "מחשב", "bg": "Компютър"}[language]
    said = page.evaluate(call.replace("NAME", repr(name)))
    assert said == [default, named]
    page.context.close()
