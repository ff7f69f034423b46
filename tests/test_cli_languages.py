"""The command line in four languages (docs/languages.md): ``--lang`` before or after the
command, the locale otherwise, an unknown language refused with a sentence (exit 2)."""

from __future__ import annotations

import os
import subprocess
import sys

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
