"""The command line in four languages (docs/languages.md): ``--lang`` before or after the
command, the locale otherwise, an unknown language refused with a sentence (exit 2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from binscrabble import i18n
from binscrabble.cli import main


def run(*arguments: str, **environ: str) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if not key.startswith("LC_")}
    for name in ("LANG", "LANGUAGE"):
        clean.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "binscrabble", *arguments],
        capture_output=True,
        text=True,
        env={**clean, "PYTHONIOENCODING": "utf-8", **environ},
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("where", ["before", "after"])
def test_an_unknown_language_is_a_sentence_and_exit_2(where: str) -> None:
    arguments = ["--lang", "de", "check", "1+1=10"]
    if where == "after":
        arguments = ["check", "--lang", "de", "1+1=10"]
    completed = run(*arguments)
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr == (
        "binscrabble: error: there is no language 'de': choose one of en, fr, he, bg\n"
    )


def test_the_unknown_language_sentence_is_in_the_locales_language() -> None:
    completed = run("check", "--lang", "xx", "1=1", LANG="fr_FR.UTF-8")
    assert completed.returncode == 2
    assert "il n’y a pas de langue 'xx' : choisissez parmi en, fr, he, bg" in completed.stderr


def test_main_leaves_the_callers_language_as_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--lang", "bg", "1+1=10"]) == 0
    capsys.readouterr()
    assert i18n.language() == "en"


EXPLAINED = {
    "en": [
        "1 + 1 = 11 is false (standard precedence: NOT, then × ÷, then + −, then AND, XOR, OR)",
        "left side: 1 + 1",
        "the left side is 10 but the right side is 11",
        "1 + 1 = 10, not 11 — one symbol away, 1 + 1 = 10 would be true",
    ],
    "fr": [
        "1 + 1 = 11 est fausse (ordre habituel : NOT, puis × ÷, puis + −, puis AND, XOR, OR)",
        "membre de gauche: 1 + 1",
        "le membre de gauche vaut 10 mais celui de droite vaut 11",
        "1 + 1 = 10, et non 11 — à un symbole près, 1 + 1 = 10 serait vraie",
    ],
    "he": [
        "\u20681 + 1 = 11\u2069 אינה משוואה נכונה (\u2068הסדר הרגיל: NOT, אחר כך × ÷, אחר כך"
        " + −, אחר כך AND, XOR, OR\u2069)",
        "אגף שמאל: 1 + 1",
        "האגף השמאלי הוא \u206810\u2069 אבל האגף הימני הוא \u206811\u2069",
    ],
    "bg": [
        "1 + 1 = 11 не е вярно (обичайният ред: NOT, после × ÷, после + −, после AND, XOR, OR)",
        "лява страна: 1 + 1",
        "лявата страна е 10, а дясната е 11",
        "1 + 1 = 10, а не 11 — с един символ разлика 1 + 1 = 10 би било вярно",
    ],
}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_check_explain_in_each_language(language: str) -> None:
    completed = run("check", "--explain", "--lang", language, "1+1=11")
    assert completed.returncode == 1, completed.stderr
    lines = completed.stdout.splitlines()
    for line in EXPLAINED[language]:
        assert line in lines, (line, lines)


@pytest.mark.parametrize(
    ("language", "verdict"),
    [
        ("en", "1+1=11: invalid, the left side is 10 but the right side is 11"),
        ("fr", "1+1=11 : refusée, le membre de gauche vaut 10 mais celui de droite vaut 11"),
        ("bg", "1+1=11: невалидно, лявата страна е 10, а дясната е 11"),
    ],
)
def test_check_verdicts_follow_the_locale(language: str, verdict: str) -> None:
    locale = {"en": "C.UTF-8", "fr": "fr_FR.UTF-8", "bg": "bg_BG.UTF-8"}[language]
    completed = run("check", "1+1=10", "1+1=11", LANG=locale)
    assert completed.stdout.splitlines()[1] == verdict
    valid = completed.stdout.splitlines()[0]
    assert valid.startswith("1+1=10") and "10 (2)" in valid


def test_json_reasons_stay_english_for_programs() -> None:
    completed = run("check", "--json", "--lang", "fr", "1+1=11")
    assert '"reason": "the left side is 10 but the right side is 11"' in completed.stdout


def test_the_terminal_game_speaks_the_language_of_lang(tmp_path: Path) -> None:
    save = tmp_path / "g.bsr"
    typed = "\n\nundo\n8A 1\nquit\n"
    command = ["play", "--lang", "fr", "--players", "Ada,Bob", "--seed", "1", "--save", str(save)]
    completed = subprocess.run(
        [sys.executable, "-m", "binscrabble", *command],
        input=typed,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=60,
        check=False,
    )
    out = completed.stdout
    assert "Ada, c’est votre tour. Appuyez sur Entrée pour voir votre chevalet." in out
    assert "Tour 1. Chevalet de Ada : " in out
    assert "Reprendre un tour est désactivé : lancez la partie avec --allow-undo" in out
    assert "Refusé : " in out or "Impossible de lire" in out
