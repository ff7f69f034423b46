"""The French catalogue is written as French is printed (docs/languages.md, "French"): a
non-breaking space before a colon, a narrow one before ; ! ?, the typographic apostrophe,
one word for each thing, and the printed card's French (messages of the same catalogue)
typeset the same way. What a player types or a program reads (code between straight quotes,
JSON) is left as it is written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from babel.messages.pofile import read_po

from binscrabble import i18n
from binscrabble.cli import main
from binscrabble.expr import explain
from binscrabble.i18n import _
from binscrabble.print.card_words import card_words
from binscrabble.rules import Rules
from binscrabble.web.ratelimit import ENDPOINTS
from binscrabble.web.workers import hint_step

LOCALE = Path(i18n.__file__).parent / "locale"
NBSP, NARROW = "\u00a0", "\u202f"
#: Text that keeps its own punctuation: code between straight quotes ('Authorization:
#: Bearer TOKEN', "rotated_equals": true), a JSON object, a placeholder, markup, and the
#: terminal help's notation, where '?' is the blank ("exchange 0 1 ?", "et ? (joker)") and
#: a command ("? COUP").
VERBATIM = re.compile(
    r"<kbd>.*?</kbd>|'[^']*'|\"[^\"]*\":?|\{\"[^}]*\}|\{\w*\}|<[^>]*>"
    r"|exchange 0 1 \?|\? \(joker\)|\? COUP"
)
#: Words the catalogue does not use, and the word it uses instead.
NOT_OUR_WORDS = {
    r"\bindices?\b": "conseil (the hint)",
    r"\btuiles?\b": "jeton (a tile)",
    r"\bpièces?\b": "jeton (a tile)",
    r"\bbonus\b": "prime (the equation's bonus)",
    r"\b[ée]quations?\b": "égalité (an equation)",
    r"\bsupports?\b": "chevalet (the rack)",
    r"\bjeton de (votre|sa|la) place\b": "jeton d’accès (a seat's token): a jeton alone is a tile",
    r"\bblancs?\b": "joker (the blank)",
    r"\b(tu|te|toi|ton|ta|tes)\b": "vous: the player is addressed as vous throughout",
    r"\bÉgalité\b|\bégalités?( entre| compte)\b|^égalités$": "partie nulle (a draw): égalité is"
    " the equation",
}


def french_strings() -> list[str]:
    with (LOCALE / "fr" / "LC_MESSAGES" / "binscrabble.po").open("rb") as file:
        catalogue = read_po(file, locale="fr")
    strings: list[str] = []
    for message in catalogue:
        if message.id:
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            strings.extend(str(form) for form in forms)
    return strings


def card_strings() -> list[str]:
    """Every text of the French card, as the card reads it from the catalogue."""
    found: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            found.append(value)

    walk(card_words("fr"))
    return found


def typography_faults(text: str) -> list[str]:
    """What in ``text`` is not French typography, each as the place it was seen."""
    prose = VERBATIM.sub("X", text)
    faults = []
    for match in re.finditer(r"[:;!?](?=\s|$)|(?<= )[!?](?=\))", prose):
        at = match.start()
        before = prose[at - 1] if at else ""
        if before == (NBSP if match.group() == ":" else NARROW):
            continue
        if before == " " and at >= 2 and not re.match(r"[\w)\]”»’%…>]", prose[at - 2 : at - 1]):
            continue  # a symbol among symbols, not punctuation: "÷ : ∧ ∨ ¬ ! ⊕"
        faults.append(prose[max(0, at - 8) : at + 1])
    faults.extend(re.findall(r"\w+'\w+", prose))  # l'autre: the apostrophe is ’
    return faults


def test_every_french_message_has_french_punctuation() -> None:
    faults = {text: typography_faults(text) for text in french_strings()}
    assert {text: found for text, found in faults.items() if found} == {}


def test_the_french_card_has_the_same_punctuation() -> None:
    faults = {text: typography_faults(text) for text in card_strings()}
    assert {text: found for text, found in faults.items() if found} == {}


def test_the_punctuation_rule_sees_an_ordinary_space() -> None:
    assert typography_faults("Sac : 3 jetons ; à vous ?") == ["Sac :", " jetons ;", " à vous ?"]
    assert typography_faults(" ; un joker") == [" ;"]
    assert typography_faults("l'autre gagne") == ["l'autre"]
    assert typography_faults("les symboles − * × ÷ : ∧ ∨ ¬ ! ⊕") == []
    assert typography_faults(f"envoyez 'Authorization: Bearer TOKEN'{NBSP}: le jeton") == []


def test_one_word_for_each_thing() -> None:
    used = {
        pattern: [text for text in french_strings() if re.search(pattern, VERBATIM.sub("X", text))]
        for pattern in NOT_OUR_WORDS
    }
    assert {NOT_OUR_WORDS[pattern]: texts for pattern, texts in used.items() if texts} == {}


def test_too_many_requests_elides_nothing() -> None:
    """ "trop de {what}": each name of a limited request begins with a consonant, so that no
    "trop de aperçus" (for "trop d'aperçus") is ever written."""
    with i18n.use_language("fr"):
        names = {endpoint.called: _(endpoint.called) for endpoint in ENDPOINTS.values()}
    assert {english: french for english, french in names.items() if french[0] in "aeiouéèêh"} == {}


def test_the_hint_keeps_the_non_breaking_spaces() -> None:
    """The hint lays out the explanation's lines again, its runs of spaces made one: the
    non-breaking space before a colon stays, or a phone may start a line with ':'."""
    with i18n.use_language("fr"):
        lines = explain("1 + 1 = 10", Rules()).lines
    steps = [hint_step(line)["text"] for line in lines]
    assert f"membre de gauche{NBSP}: 1 + 1" in steps
    assert "1 + 1 = 10 (1 + 1 = 2)" in steps  # the aligning spaces are still made one


def test_the_command_lines_help_keeps_the_non_breaking_spaces() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(["check", "--help", "--lang", "fr"])
    help_text = out.getvalue()
    assert f"(par défaut{NBSP}: standard)" in help_text
    assert f"options{NBSP}:" in help_text
    assert not re.search(r"\w [:;?!](\s|$)", help_text)
