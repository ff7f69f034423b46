"""Moves for people (``binscrabble.move.display_notation``): faces, never input codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from binscrabble.expr import normalize
from binscrabble.move import NotationError, display_equation, display_notation
from binscrabble.record import read_record_file

SAMPLE_RECORD = Path(__file__).resolve().parent.parent / "docs" / "examples" / "sample-game.bsr"
#: Characters of notation that no tile shows.
CODES = set("~&|^x/-?()#")


def test_every_move_of_a_game_is_written_with_faces() -> None:
    game = read_record_file(SAMPLE_RECORD)
    for notation in game.notations():
        shown = display_notation(notation)
        if notation in ("pass",) or notation.startswith("-"):
            assert shown.startswith(("pass", "exchange "))
            continue
        coordinate, tiles = shown.split(" ", 1)
        assert coordinate == notation.split(" ", 1)[0]
        assert not CODES & set(tiles), shown
        # The faces read back as the same line of tiles (blanks and parentheses aside).
        written = notation.split(" ", 1)[1]
        plain = written.replace("(", "").replace(")", "").replace("?", "")
        assert normalize(tiles.replace("[", "").replace("]", "")) == plain


@pytest.mark.parametrize(
    ("notation", "shown"),
    [
        ("8a 10 = 10 + not 11", "8A 10=10+NOT 11"),
        ("H5 (1)0*?1=1(0)", "H5 10×[1]=10"),
        ("8D ?~1=0", "8D [NOT] 1=0"),
        ("8D 11-1=10", "8D 11−1=10"),
        ("exchange 1 1 AND ?", "exchange 1 1 AND blank"),
        ("-", "pass"),
    ],
)
def test_aliases_words_and_marks_become_faces(notation: str, shown: str) -> None:
    assert display_notation(notation) == shown


def test_other_languages_give_their_words() -> None:
    words = {"exchange": "échange", "pass": "passe", "blank": "joker"}
    assert display_notation("-1?", words) == "échange 1 joker"
    assert display_notation("pass", words) == "passe"


@pytest.mark.parametrize("text", ["", "8P 1=1", "8D 1$1", "8D ?", "exchange"])
def test_text_that_is_no_notation_raises_the_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        display_notation(text)


def test_display_equation_shows_an_equation_as_printed() -> None:
    assert display_equation("10x10=100=11+1") == "10×10=100=11+1"
    assert display_equation("1+~0=10") == "1+NOT 0=10"
    assert display_equation("101^1=100") == "101 XOR 1=100"
