"""The terminal game in each language: the answers a person types and the words it shows."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from binscrabble import i18n
from binscrabble.record import read_record_file
from binscrabble.terminal import PlayOptions, run_terminal_game

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
