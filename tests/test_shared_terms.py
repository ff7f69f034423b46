"""The web's words and the printed rules card's agree (docs/languages.md, "Shared terms"):
the presets, the house rules, their choices, the premium squares and the blank tile are
called in each language exactly as the card calls them.

Both are messages of the same gettext catalogues. Where the card and the web say a term in
the same English (the premium squares, "Order of operations", "Tiles on a rack"), the card
uses the web's message itself, so the two cannot differ in any language:
`test_one_message_where_the_english_is_one` holds them to that. Where the English differs
(the lobby's "Times 1 and divided by 1 allowed" against the card's "Identity: × 1 and ÷ 1";
the Hebrew card marks "XOR" left to right, so the lobby says "XOR tiles added to the bag")
there are two messages, and
`test_the_web_says_the_cards_terms` holds their translations to the same words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from babel.messages.pofile import read_po

from binscrabble import i18n
from binscrabble.i18n import _
from binscrabble.print.card_words import card_words

#: The web's message for each term, and where the card keeps it.
SHARED = {
    "learning": ("house_rules", "learning"),
    "standard": ("house_rules", "standard"),
    "expert": ("house_rules", "expert"),
    "standard order": ("house_rules", "values", "standard"),
    "left to right": ("house_rules", "values", "left-to-right"),
    "Order of operations": ("house_rules", "names", "precedence"),
    "Times 1 and divided by 1 allowed": ("house_rules", "names", "identity_times_one"),
    "Plus 0 and minus 0 allowed": ("house_rules", "names", "identity_plus_minus_zero"),
    "AND 1, OR 0 and XOR 0 allowed": ("house_rules", "names", "identity_and_one_or_zero"),
    "Several of ×1, +0, AND 1 in one equation": ("house_rules", "names", "identity_chains"),
    "Results below zero allowed": ("house_rules", "names", "allow_negatives"),
    "Numbers may start with 0": ("house_rules", "names", "leading_zeros"),
    "Plain numbers beside a run": ("house_rules", "names", "parallel_numbers"),
    "An = turned to read 11": ("house_rules", "names", "rotated_equals"),
    "XOR tiles added to the bag": ("house_rules", "names", "xor_tiles"),
    "Tiles on a rack": ("house_rules", "names", "rack_size"),
    "Bonus for playing a whole rack": ("house_rules", "names", "bingo_bonus"),
    "blank": ("tiles", "names", "?"),
    "double letter": ("scoring", "premiums", "DL"),
    "triple letter": ("scoring", "premiums", "TL"),
    "double word": ("scoring", "premiums", "DW"),
    "triple word": ("scoring", "premiums", "TW"),
}
#: Terms the card says in the web's English but with its own message (context "rules
#: card"), and why: the Hebrew card glosses the blank, "ריק (ג׳וקר)", where the web's
#: buttons and panels say "ריק".
GLOSSED = {"blank"}


def card_text(language: str, path: tuple[str, ...]) -> str:
    table: Any = card_words(language)
    for key in path:
        table = table[key]
    return str(table)


def card_term(language: str, path: tuple[str, ...]) -> str:
    """A term of the card: its left-to-right marks (backticks) and a gloss in parentheses
    after it dropped (the card's "ריק (ג׳וקר)" is the web's "ריק")."""
    return re.sub(r" \([^)]*\)$", "", card_text(language, path).replace("`", ""))


@pytest.mark.parametrize("language", [code for code in i18n.LANGUAGES if code != "en"])
def test_the_web_says_the_cards_terms(language: str) -> None:
    with i18n.use_language(language):
        web = {message: _(message) for message in SHARED}
    card = {message: card_term(language, path) for message, path in SHARED.items()}
    assert web == card


def test_one_message_where_the_english_is_one() -> None:
    with (i18n.LOCALE_DIR / "binscrabble.pot").open("rb") as file:
        template = {(message.context, message.id) for message in read_po(file) if message.id}
    same_english = {message for message, path in SHARED.items() if card_text("en", path) == message}
    assert same_english == {
        "blank",
        "double letter",
        "triple letter",
        "double word",
        "triple word",
        "Order of operations",
        "left to right",
        "Tiles on a rack",
        "Bonus for playing a whole rack",
    }
    for message in same_english:
        assert (None, message) in template  # the web's message ...
        # ... is the card's, unless the card glosses the term.
        assert (("rules card", message) in template) == (message in GLOSSED), message


def test_the_terms_are_the_web_messages() -> None:
    catalogue = (i18n.LOCALE_DIR / "binscrabble.pot").read_text(encoding="utf-8")
    missing = [message for message in SHARED if f'msgid "{message}"' not in catalogue]
    assert missing == []
