"""``binscrabble print-set`` in English, French, Hebrew and Bulgarian: the words printed on
the tile sheets and written in the laser files follow ``--lang``, as the rules card does.

The words expected are read from the catalogue (each one also checked to differ from the
English, so that a missing translation fails), never written here; the PDFs are read back
with pypdf, Hebrew in logical order and set against the right margin.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from pathlib import Path

import pytest
from pypdf import PdfReader

from binscrabble import i18n
from binscrabble.cli import main
from binscrabble.i18n import _, ngettext

SVG = "{http://www.w3.org/2000/svg}"
SAMPLE_RECORD = Path(__file__).resolve().parent.parent / "docs" / "examples" / "sample-game.bsr"
LANGUAGES = ("en", "fr", "he", "bg")
#: The characters that set a run's direction (isolates), which a reader does not see.
DIRECTION_MARKS = re.compile("[\u2066-\u2069\u200e\u200f]")


def words(text: str) -> str:
    """Text as a reader sees it: the direction marks out, every run of spaces one space
    (a line break of a wrapped paragraph, a no-break space)."""
    return " ".join(DIRECTION_MARKS.sub("", text).split())


def said(language: str, say: Callable[[], str]) -> str:
    """What ``say`` gives in ``language``, checked to be a translation when not English."""
    with i18n.use_language(language):
        text = say()
    if language != "en":
        assert text != say(), f"not translated into {language}: {say()!r}"
    return words(text)


def print_set(tmp_path: Path, language: str, *arguments: str) -> Path:
    output = tmp_path / f"tiles-{language}.pdf"
    status = main(["print-set", "-o", str(output), "--lang", language, *arguments])
    assert status == 0
    return output


def page_words(path: Path) -> list[str]:
    return [words(page.extract_text()) for page in PdfReader(path).pages]


#: The kinds of tile of the default set and how many of each, as the set's list gives them.
SET_LIST = ("28 × 0", "28 × 1", "14 × =", "5 × +", "5 × −", "3 × ×", "2 × ÷", "4 × AND")
#: A run of Hebrew words (letters, geresh and gershayim, spaces and commas between them).
HEBREW_RUN = re.compile(r"[\u05d0-\u05ea][\u05d0-\u05ea\u05f3\u05f4 ,]*[\u05d0-\u05ea\u05f3\u05f4]")


def summary(language: str) -> str:
    """The start of the first page's list of the default set, in ``language``."""
    return said(
        language,
        lambda: ngettext("{count} tile: {faces}", "{count} tiles: {faces}", 100).format(
            count=100, faces=", ".join(SET_LIST)
        ),
    )


def assert_reads(expected: str, text: str, language: str) -> None:
    """``expected`` is on the page. A Hebrew page is read back by pypdf in the order its
    runs are drawn (right to left between the numbers), each run in logical order: each
    Hebrew run of ``expected`` is there as a reader types it, never reversed, and so is
    each number or face between them."""
    if language != "he":
        assert expected in text
        return
    runs = HEBREW_RUN.findall(expected)
    assert runs
    for run in runs:
        assert run in text, (run, text)
        if len(run) > 2:
            assert run[::-1] not in text
    for other in HEBREW_RUN.split(expected):
        for piece in re.findall(r"\d+(?: × [^\s,]+)?|[A-Z]{2,}", other):
            assert piece in text, (piece, text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tile_sheets_words_are_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str
) -> None:
    output = print_set(tmp_path, language)
    capsys.readouterr()
    tiles, racks = page_words(output)
    heading = said(
        language,
        lambda: _(
            "Binary Scrabble, {size} mm, page {page} of {pages}: {contents}. Cut along the "
            "grey lines."
        ).format(
            size="19",
            page=1,
            pages=2,
            contents=_("tiles {first} to {last} of {total}").format(first=1, last=100, total=100),
        ),
    )
    assert_reads(heading, tiles, language)
    # The list of the set keeps each count and face left to right ("28 × 0", in Hebrew too).
    assert_reads(summary(language), tiles, language)
    numbers = said(language, lambda: ngettext("rack {numbers}", "racks {numbers}", 4))
    assert_reads(numbers.format(numbers="1, 2, 3, 4"), racks, language)
    help_text = said(
        language,
        lambda: _(
            "Racks: cut along the solid lines, fold along the dashed ones into a triangle and "
            "glue the narrow flap under it; the tiles lean on its slope."
        ),
    )
    assert help_text in racks and help_text not in tiles
    for number in (1, 2, 3, 4):
        label = said(language, lambda number=number: _("rack {number}").format(number=number))
        assert_reads(label, racks, language)
    title = said(language, lambda: _("Binary Scrabble: a printable tile set"))
    reader = PdfReader(output)
    assert reader.metadata is not None and words(str(reader.metadata.title)) == title
    if language != "en":
        english = " ".join([tiles, racks])
        for word in ("Binary Scrabble", "Cut along", "rack 1", "tiles 1 to", "Racks:", "blank"):
            assert word not in english


def test_a_page_with_tiles_and_racks_names_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # At 23 mm on A4 the second page holds tiles 89 to 100 and racks 1 and 2.
    for language in LANGUAGES:
        output = print_set(tmp_path, language, "--tile-mm", "23")
        second = page_words(output)[1]
        both = said(
            language,
            lambda: _("{tiles} and {racks}").format(
                tiles=_("tiles {first} to {last} of {total}").format(first=89, last=100, total=100),
                racks=ngettext("rack {numbers}", "racks {numbers}", 2).format(numbers="1, 2"),
            ),
        )
        assert_reads(both, second, language)
    capsys.readouterr()


def test_the_hebrew_sheets_are_drawn_right_to_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """pypdf's layout mode gives each line as drawn, from left to right: a Hebrew line
    starts at its right end, its words' letters reversed, its numbers and faces not."""
    output = print_set(tmp_path, "he")
    capsys.readouterr()
    tiles, racks = (
        [line for line in page.extract_text(extraction_mode="layout").splitlines() if line.strip()]
        for page in PdfReader(output).pages
    )
    heading, listed = (DIRECTION_MARKS.sub("", line) for line in tiles[:2])
    with i18n.use_language("he"):
        game = _("Binary Scrabble")
        rack = _("rack {number}").removesuffix(" {number}")
    # The title starts the heading at the right; its full stop ends it at the left.
    assert heading.endswith(game[::-1]) and heading.lstrip().startswith(".")
    # Each kind of tile reads left to right, the first kind rightmost.
    places = [listed.index(kind) for kind in SET_LIST]
    assert places == sorted(places, reverse=True)
    assert listed.endswith("100")  # "100 tiles:" starts the line at the right
    # The racks' labels ("מעמד 1", drawn "1 דמעמ"), at the right of the page (its second half).
    labels = [line for line in racks if re.fullmatch(rf"\s*\d {rack[::-1]}", line)]
    assert len(labels) == 4
    width = max(len(line) for line in racks)
    assert all(len(line) - len(line.lstrip()) > width / 2 for line in labels)


# -- the laser files ------------------------------------------------------------------------


def laser_file(tmp_path: Path, language: str) -> ElementTree.Element:
    output = tmp_path / f"set-{language}.svg"
    assert main(["print-set", "-o", str(output), "--lang", language]) == 0
    return ElementTree.parse(output).getroot()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_laser_files_title_is_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str
) -> None:
    root = laser_file(tmp_path, language)
    capsys.readouterr()
    assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == language
    title = root.find(f"{SVG}title")
    assert title is not None and title.text is not None
    listed = summary(language)
    expected = said(
        language,
        lambda: _(
            "Binary Scrabble tile set, sheet {sheet} of {sheets}: {tiles}, {racks}. {summary}"
        ).format(
            sheet=1,
            sheets=1,
            tiles=ngettext("{count} tile", "{count} tiles", 100).format(count=100),
            racks=ngettext("{count} rack", "{count} racks", 4).format(count=4),
            summary=listed,
        ),
    )
    # The list of the set goes on past the first five kinds of tile.
    assert words(title.text).startswith(expected)


def test_a_laser_files_layers_are_the_same_in_every_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the cutter cuts, scores and engraves does not depend on the language."""
    english = laser_file(tmp_path, "en")
    for language in ("fr", "he", "bg"):
        other = laser_file(tmp_path, language)
        for layer in ("cut", "score", "engrave"):
            ours = english.find(f"{SVG}g[@id='{layer}']")
            theirs = other.find(f"{SVG}g[@id='{layer}']")
            assert ours is not None and theirs is not None
            assert ElementTree.tostring(ours) == ElementTree.tostring(theirs)
    capsys.readouterr()


# -- render's refusal of a turn that is not in the game ------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_turn_not_in_the_game_is_said_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str
) -> None:
    output = tmp_path / "turn.svg"
    arguments = ["render", str(SAMPLE_RECORD), "--turn", "26", "-o", str(output)]
    status = main([*arguments, "--lang", language])
    err = capsys.readouterr().err
    reason = said(
        language,
        lambda: _("--turn {turn}: {problem}").format(
            turn=26,
            problem=_(
                "turn {turn} is not in the game: it has turns 0 (the start) to {last}"
            ).format(turn=26, last=25),
        ),
    )
    assert status == 2 and not output.exists()
    assert words(err).endswith(reason)
