"""A hint that proposes an exchange says why, with the button that does it (audit 2, fr/bg
N6): a rack without ``=`` makes no equation at all; another rack has no play that fits the
board. Never the notation's "exchange 0 0 OR", in every language."""

from __future__ import annotations

import pytest

from binscrabble import i18n
from binscrabble.board import Board
from binscrabble.game import Game
from binscrabble.move import parse_move
from binscrabble.rules import Rules
from binscrabble.web.workers import hint_of

#: Each language's words for the reason a rack without = has, and for the Exchange button.
NO_EQUALS = {
    "en": ("Without an = on your rack", "Exchange"),
    "fr": ("Sans jeton = sur votre chevalet", "Échanger"),
    "he": ("בלי = על המעמד", "החלפה"),
    "bg": ("Без знак „=“ на поставката", "„Смени“"),
}


def exchange_hint(rack: str, language: str) -> str:
    game = Game.from_setup(Rules.preset("learning"), Board(), [rack, "0"])
    move = parse_move(f"exchange {rack[:3]}", game.board)
    with i18n.use_language(language):
        explanation: str = hint_of(game, move, 0, complete=True)["explanation"]
    return explanation


@pytest.mark.parametrize("language", list(NO_EQUALS))
def test_an_exchange_hint_for_a_rack_without_equals_says_so(language: str) -> None:
    reason, button = NO_EQUALS[language]
    text = exchange_hint("0001|+011", language)
    assert text.startswith(reason), text
    assert button in text
    assert "exchange 0" not in text and "|" not in text


@pytest.mark.parametrize("language", list(NO_EQUALS))
def test_an_exchange_hint_for_a_rack_with_equals_names_the_button_only(language: str) -> None:
    reason, button = NO_EQUALS[language]
    text = exchange_hint("000=|&&&~", language)
    assert not text.startswith(reason), text
    assert button in text
    assert "exchange 0" not in text
