"""The computer players' descriptions in the reader's language (docs/languages.md), wherever
a person reads them: the lobby's menu of levels (``GET /api/meta``), the help of every
command that takes a player, and the terminal game's question for the players when a level
is mistyped. Each description is the catalogue's, looked up here."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from web_api_support import web_client

from binscrabble import i18n
from binscrabble.cli import main
from binscrabble.engine.descriptions import LEVELS, STRATEGIES
from binscrabble.i18n import _

TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.ENGLISH]


def descriptions(language: str) -> dict[str, str]:
    """Every level's and strategy's description as the catalogue of ``language`` says it."""
    with i18n.use_language(language):
        return {name: _(text) for name, text in {**LEVELS, **STRATEGIES}.items()}


def test_every_description_is_translated() -> None:
    english = descriptions("en")
    for language in TRANSLATED:
        translated = descriptions(language)
        assert [name for name in english if translated[name] == english[name]] == []


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_lobbys_levels_are_described_in_the_language(tmp_path: Path, language: str) -> None:
    with web_client(tmp_path / "g.db") as client:
        meta = client.get(f"/api/meta?lang={language}").json()
    wanted = descriptions(language)
    assert {level["name"]: level["description"] for level in meta["levels"]} == {
        name: wanted[name] for name in LEVELS
    }


def help_of(language: str, command: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exited:
        main(["--lang", language, command, "--help"])
    assert exited.value.code == 0
    return out.getvalue()


@pytest.mark.parametrize("command", ["play", "best", "analyze", "selfplay"])
@pytest.mark.parametrize("language", TRANSLATED)
def test_the_help_of_a_command_that_takes_a_player_describes_each(
    language: str, command: str
) -> None:
    shown = help_of(language, command)
    for name, description in descriptions(language).items():
        assert f"  {name} " in shown
        assert " ".join(description.split()) in " ".join(shown.split()), (name, shown)
    for english in descriptions("en").values():
        assert " ".join(english.split()) not in " ".join(shown.split())
    with i18n.use_language(language):
        assert _("Computer levels, weakest first:") in shown
        assert _("Strategies:") in shown


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_terminal_game_describes_the_levels_after_a_mistyped_one(
    tmp_path: Path, language: str
) -> None:
    environ = {key: value for key, value in os.environ.items() if not key.startswith("LC_")}
    environ.pop("LANG", None)
    environ.pop("LANGUAGE", None)
    completed = subprocess.run(
        [sys.executable, "-m", "binscrabble", "--lang", language, "play"],
        input="Ann,cpu:wizard\n",
        capture_output=True,
        text=True,
        env={**environ, "PYTHONIOENCODING": "utf-8"},
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    for name, description in descriptions(language).items():
        assert f"  {name} " in completed.stdout
        assert description in completed.stdout, (name, completed.stdout)
    assert "sees few plays" not in completed.stdout
