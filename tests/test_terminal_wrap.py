"""Long lines of the terminal game wrap at word boundaries to the terminal's width, never in
the middle of a word; in Hebrew an isolated value broken across lines is closed and opened
again on each line (docs/languages.md, "Right to left in a terminal")."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from binscrabble import i18n
from binscrabble.game import Game
from binscrabble.rules import Rules
from binscrabble.terminal import HELP, TerminalGame, visible_width, wrap

FSI, PDI = "\u2068", "\u2069"


def words_of(text: str) -> list[str]:
    return text.replace(FSI, "").replace(PDI, "").split()


def test_a_long_sentence_breaks_between_words_only() -> None:
    sentence = "word " * 30 + "end."
    lines = wrap(sentence, 40).split("\n")
    assert len(lines) > 1
    assert all(visible_width(line) <= 40 for line in lines)
    assert words_of("\n".join(lines)) == words_of(sentence)


def test_colours_and_isolates_take_no_width() -> None:
    assert visible_width("\x1b[1;30;43m AND \x1b[0m") == 5
    assert visible_width(f"{FSI}דנה{PDI}") == 3
    coloured = "  ".join(f"\x1b[1;30;43m {face} \x1b[0m" for face in ["0", "1", "AND"] * 4)
    assert wrap(coloured, 80) == coloured  # 12 tiles of 3 to 5 cells fit in 80 columns
    lines = wrap(coloured, 30).split("\n")
    assert len(lines) > 1
    for line in lines:  # broken between tiles, never inside one
        assert line.strip().startswith("\x1b[1;30;43m") and line.endswith("\x1b[0m"), line


def test_an_isolate_broken_across_lines_is_closed_and_opened_again() -> None:
    text = f"המעמד של {FSI}דנה{PDI}: {FSI}" + " ".join(["AND"] * 20) + f"{PDI} סוף"
    lines = wrap(text, 30).split("\n")
    assert len(lines) > 2
    for line in lines:
        assert line.count(FSI) == line.count(PDI), line  # each line's isolates are whole
    assert words_of("\n".join(lines)) == words_of(text)


def test_help_lines_hang_under_their_explanation() -> None:
    line = "  exchange 0 1 ?     " + "give tiles back to the bag " * 4
    first, second, *_ = wrap(line, 60, columns=True).split("\n")
    assert first.startswith("  exchange 0 1 ?     give")
    assert second.startswith(" " * 21) and not second[21].isspace()


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_game_wraps_its_help_and_sentences_to_the_width(tmp_path: Path, language: str) -> None:
    stdout = io.StringIO()
    with i18n.use_language(language):
        game = TerminalGame(
            game=Game(["Élodie", "cpu:beginner"], Rules.preset("learning"), seed=7),
            save_path=tmp_path / "w.bsr",
            stdin=io.StringIO("help\n8F 1=0=0=0=0=0=0=0=0=0=0=0=0=0\nquit\n"),
            stdout=stdout,
            computers={1: object()},  # type: ignore[dict-item]
            width=50,
        )
        game.run()
        help_text = i18n._(HELP)
    out = stdout.getvalue()
    board_rows = re.compile(r"^( {4}|\d| \d)")
    # What is typed is not in the output: the prompt and the next line share a line here.
    for line in out.replace("Élodie> ", "").split("\n"):
        if not board_rows.match(line):
            # Only a word longer than a line (a file's path) may stand longer, alone.
            assert visible_width(line) <= 50 or " " not in line.strip(), line
    # Every word of the help is there, whole.
    shown = words_of(out)
    for word in words_of(help_text):
        assert word in shown, word
