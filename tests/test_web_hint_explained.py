"""The hint's explanation in parts (issue 39, audits F9 en/he and F3/F10 fr/bg): what the
play is, each equation with one step a line, the house rules named in words, and the score
as a sum that adds up to the points shown, the whole rack's bonus included; the sentences
right in each language (no "en gardant aucun jeton", no "всичките 1 цифри")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from binscrabble import i18n
from binscrabble.board import Board
from binscrabble.expr import explain
from binscrabble.game import Game
from binscrabble.move import parse_move
from binscrabble.rules import Rules
from binscrabble.web.workers import best_found, hint_of

LANGUAGES = ("en", "fr", "he", "bg")
#: A learning game whose first rack holds two blanks: its best play (122) uses the whole rack.
WHOLE_RACK_SEED = 51
#: Every character Hebrew sentences use to isolate a value (docs/languages.md).
ISOLATES = re.compile("[\u2066\u2067\u2068\u2069]")


def whole_rack_hint(language: str) -> dict[str, Any]:
    game = Game(("Ann", "Bo"), Rules.preset("learning"), seed=WHOLE_RACK_SEED)
    best = list(best_found(game, None))[-1]
    with i18n.use_language(language):
        return hint_of(game, best.place, best.score, complete=True)


def identity_hint(language: str) -> dict[str, Any]:
    """A hint for ``8D 1+1=10+0`` (the fragment +0) on an empty board, Learning rules."""
    game = Game.from_setup(Rules.preset("learning"), Board(), ["11+=100+0", "0"])
    move = parse_move("8D 1+1=10+0", game.board)
    score = game.score_breakdown(move).total
    with i18n.use_language(language):
        return hint_of(game, move, score, complete=True)


def texts(answer: dict[str, Any]) -> list[str]:
    """Every sentence of a hint a person reads."""
    found = [answer["about"], answer["total"], answer["explanation"]]
    for run in answer["runs"]:
        found += [run["sum"], *(step["text"] for step in run["steps"])]
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_score_adds_up_to_the_points_shown_whole_rack_included(language: str) -> None:
    answer = whole_rack_hint(language)
    assert answer["score"] == 122
    runs = sum(run["score"] for run in answer["runs"])
    assert runs == 72
    total = ISOLATES.sub("", answer["total"])
    assert "72 + 50 = 122" in total
    assert "50" in total.split("122", 1)[1], "the sentence says what the 50 is for"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_step_is_its_own_line(language: str) -> None:
    answer = identity_hint(language)
    (run,) = answer["runs"]
    steps = run["steps"]
    assert len(steps) >= 5
    assert all("\n" not in step["text"] and step["text"] == step["text"].strip() for step in steps)
    arithmetic = [step["text"] for step in steps if step["arithmetic"]]
    assert ISOLATES.sub("", arithmetic[0]) == "1 + 1 = 10 (1 + 1 = 2)"
    assert all("  " not in step["text"] for step in steps)
    assert answer["about"] and answer["total"]


@pytest.mark.parametrize(
    ("language", "rule"),
    [
        ("en", "Plus 0 and minus 0 allowed"),
        ("fr", "Neutre\u00a0: + 0 et − 0"),
        ("he", "ניטרלי: + 0 וכן − 0"),
        ("bg", "Неутрални: + 0 и − 0"),
    ],
)
def test_house_rules_are_named_in_words(language: str, rule: str) -> None:
    answer = identity_hint(language)
    shown = [ISOLATES.sub("", text) for text in texts(answer)]
    assert not [text for text in shown if re.search(r"[a-z]+_[a-z_]+", text)]
    assert any(rule in text for text in shown)


@pytest.mark.parametrize(
    ("language", "wrong", "right"),
    [
        ("en", "keeping no tiles", "plays every tile of the rack"),
        ("fr", "en gardant aucun jeton", "pose tous les jetons du chevalet"),
        ("he", "ומשאיר לא", "מניח את כל אריחי המעמד"),
        ("bg", "запазва никакви", "поставя всички плочки от поставката"),
    ],
)
def test_a_play_of_the_whole_rack_is_said_as_such(language: str, wrong: str, right: str) -> None:
    sentence = whole_rack_hint(language)["explanation"]
    assert wrong not in sentence
    assert right in sentence


@pytest.mark.parametrize(
    ("language", "one_digit"),
    [
        ("en", "flipping its one digit"),
        ("fr", "en inversant son unique chiffre"),
        ("he", "בהיפוך הספרה היחידה"),
        ("bg", "като се обръща единствената цифра"),
    ],
)
def test_not_of_one_digit_is_singular(language: str, one_digit: str) -> None:
    with i18n.use_language(language):
        lines = explain("NOT 0 = 1", Rules()).lines
        two = explain("NOT 10 = 1", Rules()).lines
    assert any(one_digit in line for line in lines)
    assert not any(one_digit in line for line in two)
    assert not any("1 цифри" in line or "1 digits" in line for line in lines)


def test_french_sides_take_the_space_before_the_colon() -> None:
    with i18n.use_language("fr"):
        lines = explain("1 + 1 = 10", Rules()).lines
    assert "membre de gauche\u00a0: 1 + 1" in lines
    assert any(line.startswith("membre de droite\u00a0: 10") for line in lines)


def test_the_command_line_adds_the_option_after_the_words() -> None:
    """``check --explain`` names a rule in words too, then the option as it is typed."""
    line = explain("1+1=10+0", Rules(), options=True)
    assert (
        "+0 changes nothing here: allowed by the house rule “Plus 0 and minus 0 allowed” "
        "(--rule identity_plus_minus_zero=off turns it off)"
    ) in str(line)


@pytest.mark.parametrize(
    ("language", "leaves"),
    [
        ("en", " and leaves 0 on your rack: the best-scoring play there is."),
        ("fr", " et laisse 0 sur votre chevalet. C’est le coup le plus payant qui soit."),
        ("he", ", והוא משאיר על המעמד שלכם את 0: המהלך המשתלם ביותר שיש."),
        ("bg", " и оставя на поставката ви 0. Това е ходът с най-много точки."),
    ],
)
def test_the_hint_says_plainly_what_the_play_leaves_on_the_rack(language: str, leaves: str) -> None:
    """Audit N22: "8D 0=0×1 scores 14, keeping + = + AND" did not say that the tiles kept
    are the ones left on the rack."""
    sentence = ISOLATES.sub("", identity_hint(language)["explanation"])
    assert sentence.endswith(leaves)
    assert "keeping" not in sentence and "as the analysis finds it" not in sentence


@pytest.mark.parametrize(
    ("language", "step"),
    [
        ("en", "+0 changes nothing here: allowed by the house rule “Plus 0 and minus 0 allowed”"),
        (
            "fr",
            "+0 ne change rien ici\u00a0: autorisé par le réglage "
            "«\u00a0Neutre\u00a0: + 0 et − 0\u00a0»",
        ),
        ("he", '+0 לא משנה כאן דבר: מותר לפי חוק הבית "ניטרלי: + 0 וכן − 0"'),
        ("bg", "+0 не променя нищо тук: разрешено е от правилото „Неутрални: + 0 и − 0“"),
    ],
)
def test_an_identity_fragment_is_said_in_words_a_newcomer_knows(language: str, step: str) -> None:
    """Audit N22: "identity fragment: +0 (the house rule ... is on)" spoke jargon."""
    (run,) = identity_hint(language)["runs"]
    steps = [ISOLATES.sub("", step["text"]) for step in run["steps"]]
    assert step in steps
    assert not any("identity fragment" in text for text in steps)


def test_and_one_is_not_said_to_change_nothing() -> None:
    """``AND 1`` keeps only the last digit of the other number: ``100 AND 1`` is 0."""
    lines = explain("100 AND 1 = 0", Rules.preset("learning")).lines
    assert (
        "AND 1 keeps only the last binary digit of the other number: allowed by the house "
        "rule “AND 1, OR 0 and XOR 0 allowed”"
    ) in lines
    assert not any("changes nothing" in line for line in lines)
