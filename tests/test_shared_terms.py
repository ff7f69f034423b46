"""The web's words and the printed rules card's agree (docs/languages.md, "Shared terms"):
the presets, the house rules, their choices and the blank tile are called in each language
exactly as the card's catalogue (print/catalogues/LANG.toml) calls them. The card keeps
its terms in TOML and the web in gettext; this test holds the two to the same words."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from binscrabble import i18n
from binscrabble.i18n import _

CARDS = Path(i18n.__file__).parent / "print" / "catalogues"
#: The web's message for each term, and where the card keeps it.
SHARED = {
    "learning": ("house_rules", "learning"),
    "standard": ("house_rules", "standard"),
    "expert": ("house_rules", "expert"),
    "standard order": ("house_rules", "values", "standard"),
    "left-to-right": ("house_rules", "values", "left-to-right"),
    "precedence": ("house_rules", "names", "precedence"),
    "identity times one": ("house_rules", "names", "identity_times_one"),
    "identity plus minus zero": ("house_rules", "names", "identity_plus_minus_zero"),
    "identity and one or zero": ("house_rules", "names", "identity_and_one_or_zero"),
    "identity chains": ("house_rules", "names", "identity_chains"),
    "allow negatives": ("house_rules", "names", "allow_negatives"),
    "leading zeros": ("house_rules", "names", "leading_zeros"),
    "parallel numbers": ("house_rules", "names", "parallel_numbers"),
    "rotated equals": ("house_rules", "names", "rotated_equals"),
    "xor tiles": ("house_rules", "names", "xor_tiles"),
    "rack size": ("house_rules", "names", "rack_size"),
    "bingo bonus": ("house_rules", "names", "bingo_bonus"),
    "blank": ("tiles", "names", "?"),
    "double letter": ("scoring", "premiums", "DL"),
    "triple letter": ("scoring", "premiums", "TL"),
    "double word": ("scoring", "premiums", "DW"),
    "triple word": ("scoring", "premiums", "TW"),
}


def card_term(language: str, path: tuple[str, ...]) -> str:
    """A term of the card: its left-to-right marks (backticks) and a gloss in parentheses
    after it dropped (the card's "ריק (ג׳וקר)" is the web's "ריק")."""
    table: Any = tomllib.loads((CARDS / f"{language}.toml").read_text(encoding="utf-8"))
    for key in path:
        table = table[key]
    return re.sub(r" \([^)]*\)$", "", str(table).replace("`", ""))


@pytest.mark.parametrize("language", [code for code in i18n.LANGUAGES if code != "en"])
def test_the_web_says_the_cards_terms(language: str) -> None:
    with i18n.use_language(language):
        web = {message: _(message) for message in SHARED}
    card = {message: card_term(language, path) for message, path in SHARED.items()}
    assert web == card


def test_the_terms_are_the_web_messages() -> None:
    catalogue = (CARDS.parent.parent / "locale" / "binscrabble.pot").read_text(encoding="utf-8")
    missing = [message for message in SHARED if f'msgid "{message}"' not in catalogue]
    assert missing == []
