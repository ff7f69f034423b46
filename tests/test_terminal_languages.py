"""The terminal game in each language: the answers a person types and the words it shows."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from binscrabble import i18n
from binscrabble.game import Game, Outcome
from binscrabble.move import Move, Pass
from binscrabble.record import read_record_file
from binscrabble.rules import Rules
from binscrabble.terminal import PlayOptions, outcome_sentence, run_terminal_game

FIRST_PLAY = "8G 1=1"


def played(tmp_path: Path, language: str, lines: list[str]) -> tuple[str, int]:
    """What a two-person game shows for the typed ``lines``, and how many turns it saved."""
    save = tmp_path / "game.bsr"
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    stdout, stderr = io.StringIO(), io.StringIO()
    options = PlayOptions(players=["Ada", "Bob"], seed=5, save=str(save), confirm=True)
    with i18n.use_language(language):
        status = run_terminal_game(options, stdin, stdout, stderr)
    assert status == 0, stderr.getvalue()
    return stdout.getvalue(), len(read_record_file(save).history)


YES = [
    ("en", "y", "[Y/n]"),
    ("en", "yes", "[Y/n]"),
    ("fr", "o", "[O/n]"),
    ("fr", "Oui", "[O/n]"),
    ("fr", "y", "[O/n]"),
    ("bg", "д", "[Д/н]"),
    ("bg", "Да", "[Д/н]"),
    ("he", "כ", "[כ/ל]"),
    ("he", "כן", "[כ/ל]"),
]


@pytest.mark.parametrize(("language", "answer", "letters"), YES)
def test_the_confirmation_takes_the_languages_yes(
    tmp_path: Path, language: str, answer: str, letters: str
) -> None:
    # Enter at Ada's privacy screen, a play, the answer, then Bob quits at his.
    out, turns = played(tmp_path, language, ["", FIRST_PLAY, answer, "quit"])
    assert letters in out
    assert turns == 1, out


NO = [("en", "n"), ("fr", "non"), ("bg", "не"), ("bg", "н"), ("he", "לא"), ("he", "ל")]


@pytest.mark.parametrize(("language", "answer"), NO)
def test_the_confirmation_takes_the_languages_no(
    tmp_path: Path, language: str, answer: str
) -> None:
    out, turns = played(tmp_path, language, ["", FIRST_PLAY, answer, "quit"])
    assert turns == 0
    with i18n.use_language(language):
        assert i18n._("Not played.") in out


@pytest.mark.parametrize(
    ("language", "letters"),
    [
        ("fr", "tapez o (ou Entrée)"),
        ("bg", "въведете д (или Enter)"),
        ("he", "הקלידו כ (או Enter)"),
    ],
)
def test_a_refused_answer_names_the_languages_letters(
    tmp_path: Path, language: str, letters: str
) -> None:
    out, turns = played(tmp_path, language, ["", FIRST_PLAY, "maybe", "", "quit"])
    assert letters in out
    assert turns == 1


class PassingComputer:
    def choose(self, game: Game, budget: float | None = None) -> Move:
        return Pass()


def computer_game(language: str, tmp_path: Path, players: list[str]) -> str:
    """A learning game against a passing computer, quit at once: what the screen showed."""
    options = PlayOptions(
        players=players, rules=Rules.preset("learning"), seed=7, save=str(tmp_path / "c.bsr")
    )
    stdin, stdout, stderr = io.StringIO("quit\n"), io.StringIO(), io.StringIO()
    with i18n.use_language(language):
        status = run_terminal_game(
            options, stdin, stdout, stderr, factory=lambda name: PassingComputer()
        )
    assert status == 0, stderr.getvalue()
    return stdout.getvalue()


NAMED = {
    "en": (
        "Computer (beginner) passes.",
        "House rules: Several of ×1, +0, AND 1 in one equation — on",
    ),
    "fr": ("Ordinateur (débutant) passe.", "Plusieurs opérations neutres par égalité — oui"),
    "bg": ("Компютър (начинаещ) пропусна.", "Няколко неутрални действия в едно равенство —"),
    "he": ("מחשב\u2069 (\u2068מתחיל\u2069)", "כמה פעולות"),
}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_computers_and_house_rules_are_named_in_words(tmp_path: Path, language: str) -> None:
    out = computer_game(language, tmp_path, ["cpu:beginner", "Ada"])
    computer, rules = NAMED[language]
    assert computer in out, out
    assert rules in out, out
    assert "cpu:" not in out
    assert "identity_chains" not in out and "=on" not in out


def test_computers_of_one_level_are_numbered_in_words(tmp_path: Path) -> None:
    out = computer_game("en", tmp_path, ["cpu:easy", "cpu:easy#2", "Ada"])
    assert "Computer (easy) passes." in out and "Computer 2 (easy) passes." in out
    assert "cpu:" not in out


SCREEN_WORDS = {
    # The rack's owner addressed (no "de Élodie"), a colon after a name in the list of moves.
    "fr": ["Tour 2. Élodie, votre chevalet\u00a0:", "1. Ordinateur (débutant)\u00a0: a passé"],
    # The past tense of the web (изигра, пропусна, смени), not the present.
    "bg": ["Компютър (начинаещ) пропусна.", "1. Компютър (начинаещ): пропусна"],
}


@pytest.mark.parametrize("language", sorted(SCREEN_WORDS))
def test_the_screen_reads_as_a_native_writer_puts_it(tmp_path: Path, language: str) -> None:
    out = computer_game(language, tmp_path, ["cpu:beginner", "Élodie"])
    for words in SCREEN_WORDS[language]:
        assert words in out, (words, out)
    assert "Chevalet de" not in out and "пропуска" not in out


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("Élodie", "Le temps d’Élodie s’est écoulé"),
        ("Hugo", "Le temps de Hugo s’est écoulé"),
        ("Ann", "Le temps d’Ann s’est écoulé"),
        ("Bo", "Le temps de Bo s’est écoulé"),
    ],
)
def test_french_elides_de_before_a_name_as_the_page_does(name: str, says: str) -> None:
    """Issue 39: the terminal said "Le temps de Élodie", where the page says "d’Élodie"."""
    outcome = Outcome("aborted", (0, 0), (0, 0), (), (name, "Zoé"), seat=0, cause="time")
    with i18n.use_language("fr"):
        assert outcome_sentence(outcome).startswith(says)


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "Zoé aborted the game. Nobody wins (Ann 0, Zoé 0)"),
        ("fr", "Zoé a annulé la partie. Personne ne gagne (Ann 0, Zoé 0)"),
        ("bg", "Zoé прекрати играта. Никой не печели (Ann 0, Zoé 0)"),
    ],
)
def test_after_who_ended_the_game_nobody_wins_starts_a_sentence(language: str, says: str) -> None:
    """The terminal said "Zoé a annulé la partie. personne ne gagne (…)"."""
    outcome = Outcome("aborted", (0, 0), (0, 0), (), ("Ann", "Zoé"), seat=1)
    with i18n.use_language(language):
        assert outcome_sentence(outcome) == says
