"""The language machinery and the catalogues (docs/languages.md): the current language,
its plural forms, the locale and ``Accept-Language``, and catalogues that are complete,
compiled from their sources and faithful to every placeholder and tag."""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from binscrabble import i18n
from binscrabble.i18n import _, ngettext

LOCALE = Path(i18n.__file__).parent / "locale"
TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.ENGLISH]
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
TAG = re.compile(r"</?[a-z]+[^>]*>")
#: How many first plural forms of each language stand for one number only, so may write it
#: in words ("אריח אחד", "שני אריחים"); French's first form is also 0's, so keeps {count}.
ONE_NUMBER_FORMS = {"fr": 0, "he": 2, "bg": 1}


def template() -> Catalog:
    with (LOCALE / "binscrabble.pot").open("rb") as file:
        return read_po(file)


def catalogue(language: str) -> Catalog:
    with (LOCALE / language / "LC_MESSAGES" / "binscrabble.po").open("rb") as file:
        return read_po(file, locale=language)


def forms(message: object) -> list[str]:
    return list(message) if isinstance(message, tuple) else [str(message)]


def test_english_is_the_message_itself_and_each_language_translates() -> None:
    sentence = "the game is over: no more moves can be played"
    assert _(sentence) == sentence
    shown = {}
    for language in TRANSLATED:
        with i18n.use_language(language):
            shown[language] = _(sentence)
    assert shown == {
        "fr": "la partie est finie\u00a0: on ne peut plus jouer de coup",
        "he": "המשחק הסתיים: אי אפשר לשחק עוד מהלכים",
        "bg": "играта свърши: не могат да се играят повече ходове",
    }
    assert _(sentence) == sentence  # the block ended: English again


def test_each_thread_and_task_has_its_own_language() -> None:
    seen: list[str] = []

    def other() -> None:
        seen.append(i18n.language())

    with i18n.use_language("bg"):
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        assert i18n.language() == "bg"
    assert seen == ["en"]


@pytest.mark.parametrize(
    ("language", "one", "two", "five"),
    [
        ("en", "exchange of 1 tile", "exchange of 2 tiles", "exchange of 5 tiles"),
        ("fr", "échange de 1 jeton", "échange de 2 jetons", "échange de 5 jetons"),
        ("he", "החלפה של אריח אחד", "החלפה של שני אריחים", "החלפה של 5 אריחים"),
        ("bg", "смяна на 1 плочка", "смяна на 2 плочки", "смяна на 5 плочки"),
    ],
)
def test_plural_forms_follow_each_language(language: str, one: str, two: str, five: str) -> None:
    with i18n.use_language(language):
        shown = [
            ngettext("exchange of {count} tile", "exchange of {count} tiles", count).format(
                count=count
            )
            for count in (1, 2, 5)
        ]
    assert shown == [one, two, five]


def test_french_zero_is_singular_and_bulgarian_zero_plural() -> None:
    with i18n.use_language("fr"):
        french = ngettext("exchange of {count} tile", "exchange of {count} tiles", 0)
    with i18n.use_language("bg"):
        bulgarian = ngettext("exchange of {count} tile", "exchange of {count} tiles", 0)
    assert (french, bulgarian) == ("échange de {count} jeton", "смяна на {count} плочки")


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        ("fr-CA", "fr"),
        ("fr-CA,fr;q=0.9,en;q=0.8", "fr"),
        ("en;q=0.5, bg;q=0.9", "bg"),
        ("de, he;q=0.1", "he"),
        ("he;q=0, fr;q=0.2", "fr"),
        ("*", None),
        ("de-DE, es", None),
        ("iw-IL", "he"),
        ("BG", "bg"),
        ("fr;q=abc, bg;q=0.3", "bg"),
        ("", None),
    ],
)
def test_accept_language_honours_q_values(header: str, chosen: str | None) -> None:
    assert i18n.from_accept_language(header) == chosen


@pytest.mark.parametrize(
    ("environ", "chosen"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANGUAGE": "he_IL:en", "LANG": "fr_FR.UTF-8"}, "he"),
        ({"LC_ALL": "bg_BG.UTF-8", "LANG": "fr_FR.UTF-8"}, "bg"),
        ({"LC_MESSAGES": "he_IL", "LANG": "bg_BG"}, "he"),
        ({"LC_ALL": "C.UTF-8", "LANG": "fr_FR"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_locale_chooses_the_command_lines_language(
    environ: dict[str, str], chosen: str
) -> None:
    assert i18n.from_environment(environ) == chosen


def test_an_unknown_language_is_a_sentence() -> None:
    with pytest.raises(i18n.UnknownLanguage, match="there is no language 'de': choose one of"):
        i18n.set_language("de")
    assert i18n.direction("he") == "rtl" and i18n.direction("fr") == "ltr"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalogue_has_every_message_of_the_template(language: str) -> None:
    wanted = {(message.id, message.context) for message in template() if message.id}
    translated = catalogue(language)
    missing = sorted(str(key) for key in wanted if translated.get(*key) is None)
    assert missing == []
    empty = [
        str(message.id) for message in translated if message.id and not all(forms(message.string))
    ]
    assert empty == []
    fuzzy = [str(message.id) for message in translated if message.id and message.fuzzy]
    assert fuzzy == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_every_placeholder_and_tag(language: str) -> None:
    wrong = []
    for message in catalogue(language):
        if not message.id:
            continue
        sources = forms(message.id)
        wanted = {*PLACEHOLDER.findall(sources[-1])} | {*PLACEHOLDER.findall(sources[0])}
        tags = sorted(TAG.findall(sources[0]))
        for index, shown in enumerate(forms(message.string)):
            found = set(PLACEHOLDER.findall(shown))
            extra_or_missing = found ^ wanted
            if len(sources) > 1 and index < ONE_NUMBER_FORMS[language]:
                extra_or_missing -= {"{count}"}
            if extra_or_missing or sorted(TAG.findall(shown)) != tags:
                wrong.append((sources[0], shown))
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_plural_forms_are_the_languages(language: str) -> None:
    expected = {"fr": 2, "he": 3, "bg": 2}[language]
    translated = catalogue(language)
    assert translated.num_plurals == expected
    for message in translated:
        if isinstance(message.id, tuple):
            assert len(message.string) == expected, message.id


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_mo_is_the_compilation_of_its_po(language: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, catalogue(language))
    stored = (LOCALE / language / "LC_MESSAGES" / "binscrabble.mo").read_bytes()
    assert stored == compiled.getvalue(), "run `make messages` and commit the .mo"


@pytest.mark.parametrize(
    ("name", "elided"),
    [("Élodie", True), ("Hugo", False), ("Ann", True), ("Bo", False), ("\u2068Ève\u2069", True)],
)
def test_fill_elides_french_words_before_a_vowel_as_the_page_does(name: str, elided: bool) -> None:
    sentence = "Chevalet de {name}, que {name} garde ; le {name}, la {name}, De {name}"
    with i18n.use_language("fr"):
        filled = i18n.fill(sentence, name=name)
    if elided:
        assert filled == f"Chevalet d’{name}, qu’{name} garde ; l’{name}, l’{name}, D’{name}"
    else:
        assert filled == sentence.format(name=name)
    with i18n.use_language("en"):
        assert i18n.fill(sentence, name=name) == sentence.format(name=name)
