"""``binscrabble print-set`` and ``print-rules``: the PDFs and the laser sheet, read back."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from pypdf import PdfReader

from binscrabble import i18n
from binscrabble.cli import main
from binscrabble.print.card_words import card_words
from binscrabble.print.fonts import FontMissing, font_file
from binscrabble.print.rules_card import LANGUAGES, readable, rules_card_pdf
from binscrabble.print.tiles import TileSetError, plan_tile_set
from binscrabble.rules import Rules

SVG = "{http://www.w3.org/2000/svg}"
TEMPLATE = i18n.LOCALE_DIR / "binscrabble.pot"


def run(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(arguments)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def pdf_text(path: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(path).pages]


def embedded_fonts(path: Path) -> set[str]:
    """The names of the fonts whose files are inside the PDF."""
    names = set()
    for page in PdfReader(path).pages:
        fonts: Any = page["/Resources"]["/Font"]
        for font in fonts.values():
            font = font.get_object()
            for descendant in font.get("/DescendantFonts", []):
                descriptor = descendant.get_object()["/FontDescriptor"].get_object()
                if "/FontFile2" in descriptor:
                    # fpdf2 names a font "ABCDEF+DejaVuSansBook" ("Book": the regular style).
                    name = str(descriptor["/FontName"]).split("+")[-1]
                    names.add(name.replace("Book", "").replace("SansBold", "Sans-Bold"))
    return names


# -- the tile set -------------------------------------------------------------------------


def test_the_default_set_is_100_tiles_on_a4(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "tiles.pdf"
    status, out, err = run(["print-set", "-o", str(output)], capsys)
    assert status == 0, err
    assert out == f"wrote {output} (100 tiles and 4 racks on 2 pages)\n"
    reader = PdfReader(output)
    assert len(reader.pages) == 2
    width, height = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    assert (round(width / 72 * 25.4), round(height / 72 * 25.4)) == (210, 297)
    first, racks = pdf_text(output)
    assert "Binary Scrabble, 19 mm, page 1 of 2: tiles 1 to 100 of 100." in first
    assert "100 tiles: 28 × 0, 28 × 1, 14 × =, 5 × +, 5 × −, 3 × ×, 2 × ÷, 4 × AND" in first
    # Each word tile once on the page, plus once in the line that lists the set.
    assert first.count("AND") == 4 + 1 and first.count("NOT") == 4 + 1
    assert "XOR" not in first
    assert [f"rack {n}" in racks for n in (1, 2, 3, 4)] == [True] * 4
    assert embedded_fonts(output) == {"DejaVuSans-Bold", "DejaVuSans"}


def test_xor_tiles_and_letter_paper(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "tiles.pdf"
    arguments = ["print-set", "-o", str(output), "--rule", "xor_tiles=6", "--paper", "letter"]
    status, _, err = run([*arguments, "--tile-mm", "25"], capsys)
    assert status == 0, err
    reader = PdfReader(output)
    width = float(reader.pages[0].mediabox.width) / 72 * 25.4
    assert round(width, 1) == 215.9
    text = "".join(pdf_text(output))
    assert "106 tiles:" in text and "6 × XOR" in text
    assert text.count("XOR") == 6 + 1
    # 7 columns × 9 rows of 25 mm tiles on letter paper: 106 tiles need two pages, then the
    # racks (237 mm long) go across two landscape pages, two on each.
    assert "tiles 1 to 63 of 106" in text and "tiles 64 to 106 of 106" in text
    assert len(reader.pages) == 4
    assert reader.pages[2].mediabox.width > reader.pages[2].mediabox.height


#: The fewest pages of the default set (100 tiles, 4 racks of 9) for each paper and tile
#: size, as docs/playing.md lists them: (portrait or landscape, tiles, racks) page by page.
PAGES = {
    ("a4", 12): ["P 100 4"],
    ("a4", 19): ["P 100 0", "P 0 4"],
    ("a4", 21): ["P 100 0", "L 0 2", "L 0 2"],
    ("a4", 23): ["P 88 0", "L 12 2", "L 0 2"],
    ("letter", 19): ["P 100 0", "P 0 4"],
    ("letter", 21): ["P 99 0", "L 1 2", "L 0 2"],
    ("letter", 25): ["P 63 0", "P 37 0", "L 0 2", "L 0 2"],
}


@pytest.mark.parametrize(("paper", "tile_mm"), sorted(PAGES))
def test_the_set_takes_the_fewest_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], paper: str, tile_mm: int
) -> None:
    plan = plan_tile_set(Rules(), tile_mm, paper)
    shown = [
        f"{'L' if page.landscape else 'P'} {page.tile_count} {len(page.racks)}"
        for page in plan.layout
    ]
    assert shown == PAGES[paper, tile_mm]
    output = tmp_path / "tiles.pdf"
    arguments = ["print-set", "-o", str(output), "--paper", paper, "--tile-mm", str(tile_mm)]
    status, out, err = run(arguments, capsys)
    assert status == 0, err
    assert out.endswith(f"on {len(shown)} page{'s' if len(shown) > 1 else ''})\n")
    reader = PdfReader(output)
    assert len(reader.pages) == len(shown)
    for page, expected in zip(reader.pages, shown, strict=True):
        assert (page.mediabox.width > page.mediabox.height) == expected.startswith("L")
    text = "".join(pdf_text(output))
    assert [f"rack {n}" in text for n in (1, 2, 3, 4)] == [True] * 4


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_size_wastes_a_page(paper: str) -> None:
    # Every size from the smallest to the largest, by half millimetres: each tile and rack
    # once, each page's content inside its margins, no page holding a lone tile.
    sizes = [10 + step / 2 for step in range(0, 40)]
    for tile_mm in sizes:
        try:
            plan = plan_tile_set(Rules(), tile_mm, paper)
        except TileSetError:
            assert tile_mm > 25
            continue
        placed = [
            tile
            for page in plan.layout
            for tile in range(page.first_tile, page.first_tile + page.tile_count)
        ]
        assert placed == list(range(len(plan.codes)))
        assert [rack for page in plan.layout for rack in page.racks] == [0, 1, 2, 3]
        for page in plan.layout:
            width, height = plan.page_size(page)
            columns = plan.columns(page)
            rows = -(-page.tile_count // columns)
            used = (
                rows * tile_mm
                + len(page.racks) * (plan.rack_height + 4)
                + (4 if rows and page.racks else 0)
            )
            assert 10 + 14 + used <= height - 10 + 4 + 1e-9, (tile_mm, page)
            assert page.tile_count or page.racks, (tile_mm, page)
            if page.racks:
                assert plan.rack_length <= width - 20
        # A page that holds a single tile and nothing else is the waste the layout avoids.
        assert not any(page.tile_count <= 1 and not page.racks for page in plan.layout), tile_mm


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--tile-mm", "40"], "tiles of 40 mm are too large for a4 paper"),
        (["--tile-mm", "30", "--paper", "letter"], "the largest is 27.5 mm"),
        (["--tile-mm", "5"], "tiles of 5 mm are too small"),
        (["--rule", "colour=red"], "colour"),
        (["-o", "tiles.png"], "name it .pdf or .svg"),
    ],
)
def test_print_set_bad_arguments_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    if "-o" not in arguments:
        arguments = [*arguments, "-o", str(tmp_path / "tiles.pdf")]
    status, out, err = run(["print-set", *arguments], capsys)
    assert status == 2
    assert out == ""
    assert err.startswith("binscrabble: error: ") and message in err
    assert not (tmp_path / "tiles.pdf").exists()


# -- the printables' reasons in each language ------------------------------------------

NB, NN = "\u00a0", "\u202f"
#: A printable's reason at the command line, in French, Hebrew and Bulgarian: the whole
#: sentence in the language, its values (sizes, the option's value) as the program writes
#: them.
REASONS = {
    ("--tile-mm", "40"): {
        "fr": f"--tile-mm 40{NB}: des jetons de 40{NB}mm sont trop grands pour du papier a4{NB}: "
        f"un chevalet de 9 jetons doit tenir sur la longueur d’une page, donc le plus grand est "
        f"de 29.4{NB}mm",
        "he": "\u2068--tile-mm 40\u2069: אריחים של \u206840\u2069 מ״מ גדולים מדי לנייר "
        "\u2068a4\u2069: מעמד של \u20689\u2069 אריחים צריך להיכנס לאורך הדף, ולכן הגודל הגדול "
        "ביותר הוא \u206829.4\u2069 מ״מ",
        "bg": "--tile-mm 40: плочки от 40 mm са твърде големи за хартия a4: поставка с 9 плочки "
        "трябва да се побира по дължината на страницата, затова най-голямата е 29.4 mm",
    },
    ("--tile-mm", "5"): {
        "fr": f"--tile-mm 5{NB}: des jetons de 5{NB}mm sont trop petits pour être saisis{NN}; "
        f"le plus petit est de 10{NB}mm",
        "he": "\u2068--tile-mm 5\u2069: אריחים של \u20685\u2069 מ״מ קטנים מכדי להרים אותם; "
        "הגודל הקטן ביותר הוא \u206810\u2069 מ״מ",
        "bg": "--tile-mm 5: плочки от 5 mm са твърде малки, за да се хващат с пръсти; "
        "най-малката е 10 mm",
    },
    ("--bed", "100x100"): {
        "fr": f"un plateau de 100 × 100{NB}mm ne peut pas contenir un chevalet de 183.0 × "
        f"57.9{NB}mm (avec des marges de 5{NB}mm){NB}: donnez un --bed plus grand ou un "
        "--tile-mm plus petit",
        "he": "משטח של \u2068100 × 100\u2069 מ״מ אינו יכול להכיל מעמד של \u2068183.0 × "
        "57.9\u2069 מ״מ (עם שוליים של \u20685\u2069 מ״מ): תנו \u2068--bed\u2069 גדול יותר או "
        "\u2068--tile-mm\u2069 קטן יותר",
        "bg": "плот от 100 × 100 mm не побира поставка от 183.0 × 57.9 mm (с полета от 5 mm): "
        "дайте по-голям --bed или по-малък --tile-mm",
    },
    ("--bed", "wide"): {
        "fr": f"--bed 'wide' n’est pas une taille{NB}: écrivez LARGEURxHAUTEUR en millimètres, "
        "par exemple 600x400",
        "he": "\u2068--bed 'wide'\u2069 אינו גודל: כתבו רוחב \u2068x\u2069 גובה במילימטרים, "
        "למשל \u2068600x400\u2069",
        "bg": "--bed 'wide' не е размер: напишете ШИРИНАxВИСОЧИНА в милиметри, например 600x400",
    },
    ("--bed", "0x5"): {
        "fr": f"--bed '0x5'{NB}: chaque côté est une longueur de 1 à 10000{NB}mm",
        "he": "\u2068--bed '0x5'\u2069: כל צלע היא אורך של 1 עד 10000 מ״מ",
        "bg": "--bed '0x5': всяка страна е дължина от 1 до 10000 mm",
    },
    ("--stroke-mm", "5"): {
        "fr": f"--stroke-mm 5{NB}: un trait de coupe a une épaisseur de 0.001 à 1{NB}mm",
        "he": "\u2068--stroke-mm 5\u2069: עובי קו חיתוך הוא מ־0.001 עד 1 מ״מ",
        "bg": "--stroke-mm 5: линията за рязане е с дебелина от 0.001 до 1 mm",
    },
}
#: The command line's own words around a reason.
FAILURE = {
    "fr": f"binscrabble{NB}: erreur{NB}: {{message}}\n",
    "he": "\u2068binscrabble\u2069: שגיאה: {message}\n",
    "bg": "binscrabble: грешка: {message}\n",
}


@pytest.mark.parametrize("language", ["fr", "he", "bg"])
@pytest.mark.parametrize("option", sorted(REASONS))
def test_a_printables_reason_is_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str, option: tuple[str, str]
) -> None:
    suffix = ".pdf" if option[0] == "--tile-mm" else ".svg"
    output = tmp_path / f"set{suffix}"
    status, out, err = run(["--lang", language, "print-set", "-o", str(output), *option], capsys)
    assert (status, out) == (2, "")
    assert err == FAILURE[language].format(message=REASONS[option][language])
    assert not output.exists()


@pytest.mark.parametrize(
    ("language", "reason"),
    [
        ("fr", f"un PDF demande le paquet fpdf2, qui n’est pas installé{NB}: installez l’extra "),
        ("he", "כדי ליצור קובץ PDF צריך את החבילה \u2068fpdf2\u2069, שאינה מותקנת: "),
        ("bg", "за PDF файл е нужен пакетът fpdf2, който не е инсталиран: инсталирайте "),
    ],
)
def test_a_missing_extra_is_said_in_the_language(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    language: str,
    reason: str,
) -> None:
    # fpdf2 as if it were not installed: importing it fails as it would without the extra.
    monkeypatch.setitem(sys.modules, "fpdf", None)
    output = tmp_path / "rules.pdf"
    status, out, err = run(["--lang", language, "print-rules", "-o", str(output)], capsys)
    assert (status, out) == (2, "")
    assert err.startswith(FAILURE[language].format(message=reason).removesuffix("\n")), err
    assert "'binscrabble[print]'" in err and not output.exists()


def test_a_missing_font_is_said_in_the_language() -> None:
    with i18n.use_language("bg"), pytest.raises(FontMissing) as raised:
        font_file("DejaVuSans-Nothing.ttf")
    assert str(raised.value).startswith(
        "шрифтът DejaVuSans-Nothing.ttf не е намерен в /usr/share/fonts/truetype/dejavu, "
    )
    assert str(raised.value).endswith(
        ": инсталирайте го с  apt-get install fonts-dejavu-core  (Debian, Ubuntu)"
    )


def test_a_tile_set_reason_is_in_the_language() -> None:
    with i18n.use_language("fr"), pytest.raises(TileSetError) as raised:
        plan_tile_set(Rules(), 19.0, "a3")
    assert str(raised.value) == f"il n’y a pas de papier 'a3'{NB}: choisissez parmi a4, letter"
    with i18n.use_language("he"), pytest.raises(TileSetError) as raised:
        plan_tile_set(Rules().override("rack_size", 3), 300.0)
    assert "מעמד של \u20683\u2069 אריחים צריך להיכנס לאורך הדף" in str(raised.value)


# -- the rules cards ----------------------------------------------------------------------

#: Words each card must hold, in logical order, as a reader of the language types them.
CARD_WORDS = {
    "en": ["The tiles", "Order of operations", "Worked example", "= 18", "Two to four players"],
    "fr": ["Les jetons", "Priorité des opérations", "= 18", "De deux à quatre joueurs"],
    "he": ["האריחים", "סדר פעולות החשבון", "משוואות נכונות", "=18", "שניים עד ארבעה שחקנים"],
    "bg": ["Плочките", "Ред на действията", "= 18", "от двама до четирима играчи"],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_card_is_two_pages_in_its_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str
) -> None:
    output = tmp_path / f"rules-{language}.pdf"
    status, out, err = run(["print-rules", "-o", str(output), "--lang", language], capsys)
    assert status == 0, err
    wrote = {
        "en": f"wrote {output} (2 pages)",
        "fr": f"{output} écrit (2 pages)",
        "he": f"נכתב \u2068{output}\u2069 (2 דפים)",
        "bg": f"записан е {output} (2 страници)",
    }
    assert out == wrote[language] + "\n"
    pages = pdf_text(output)
    assert len(pages) == 2
    text = "\n".join(pages).replace("\u2066", "").replace("\u2069", "").replace("\u00a0", " ")
    for words in CARD_WORDS[language]:
        assert words in text
    # The true equations, each as the tiles show it, with its value.
    assert "11×11=1001" in text and "100 OR 1=101" in text and "NOT 101=10" in text
    assert embedded_fonts(output) == {"DejaVuSans-Bold", "DejaVuSans"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_heading_under_the_tile_table_keeps_clear_of_it(language: str) -> None:
    # 11 kinds of tile make blocks of 6 and 5 rows: the heading goes under the longer one.
    catalogue = card_words(language)
    page = PdfReader(io.BytesIO(rules_card_pdf(Rules(), language))).pages[0]
    found: list[tuple[float, str]] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if text.strip():
            found.append((float(tm[5]), text.strip()))

    page.extract_text(visitor_text=visit)
    (header, *_) = [y for y, text in found if text == catalogue["tiles"]["count"]]
    (heading,) = [y for y, text in found if text == catalogue["board"]["heading"]]
    # PDF heights grow upwards: the table's rows are between its header and the heading.
    rows = sorted({round(y, 1) for y, _ in found if heading < y < header}, reverse=True)
    assert len(rows) == 6
    row_height = header - rows[0]
    # The heading is more than a row below the last row.
    assert heading < rows[-1] - 1.5 * row_height


def test_hebrew_card_is_right_to_left_with_equations_left_to_right(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "rules-he.pdf"
    assert run(["print-rules", "-o", str(output), "--lang", "he"], capsys)[0] == 0
    text = "\n".join(pdf_text(output)).replace("\u2066", "").replace("\u2069", "")
    # Letters in reading order, not reversed as drawn on the page.
    assert "המשחק" in text and "המשחק"[::-1] not in text
    # The worked example reads left to right (pypdf moves its opening bracket about, so the
    # check starts after it).
    assert "1×2+1+1+1+1+1+2)×2=18" in text
    page = PdfReader(output).pages[0]
    # The title, drawn first, is set against the right margin.
    positions: list[float] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if text.strip():
            positions.append(tm[4])

    page.extract_text(visitor_text=visit)
    assert positions[0] > float(page.mediabox.width) / 2


def test_rules_card_follows_the_rules_in_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expert = tmp_path / "expert.pdf"
    arguments = ["print-rules", "-o", str(expert), "--preset", "expert"]
    assert run([*arguments, "--precedence", "left-to-right"], capsys)[0] == 0
    text = "\n".join(pdf_text(expert)).replace("\u00a0", " ")
    assert "The rules of the game: house rules" in text  # expert with another precedence
    assert "× 1 and ÷ 1, as in 1+1=10×1: not allowed" in text
    assert "Left to right, like a pocket calculator" in text
    # The pair that tells the orders apart has no identity move: it holds under expert.
    assert "So 1+10×11=1001 is true and 1+10×11=111 is not." in text
    assert "1+1=10×1: value" not in text  # an identity move is no example under expert
    assert "101 AND 1=1" not in text and "101 AND 11=1" in text
    xor = tmp_path / "xor.pdf"
    assert run(["print-rules", "-o", str(xor), "--rule", "xor_tiles=3"], capsys)[0] == 0
    text = "\n".join(pdf_text(xor))
    assert "XOR" in text and "101 XOR 1=100" in text and "XOR tiles in the bag: 3" in text
    assert "103 tiles." in text


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--lang", "de"], "there is no language 'de': choose one of en, fr, he, bg"),
        (["--rule", "bingo_bonus=lots"], "bingo_bonus"),
        (["-o", "rules.txt"], "name the output FILE.pdf"),
    ],
)
def test_print_rules_bad_arguments_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    if "-o" not in arguments:
        arguments = [*arguments, "-o", str(tmp_path / "rules.pdf")]
    status, out, err = run(["print-rules", *arguments], capsys)
    assert status == 2
    assert out == ""
    assert err.startswith("binscrabble: error: ") and message in err
    assert not (tmp_path / "rules.pdf").exists()


def test_print_rules_unknown_preset_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["print-rules", "-o", str(tmp_path / "rules.pdf"), "--preset", "easy"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'easy'" in capsys.readouterr().err


def test_every_text_of_the_card_is_a_catalogue_message() -> None:
    """The card's English is the template's message ids (the context "rules card" where the
    card words a text otherwise than the web), so `make messages` and the catalogue tests
    (every language has every message, with its placeholders) hold the card's words too."""
    with TEMPLATE.open("rb") as file:
        template = {(message.context, message.id) for message in read_po(file) if message.id}
    english = card_words("en")
    settings = {english.pop("code"), english.pop("direction")}
    assert settings == {"en", "ltr"}
    loose = [
        text
        for text in texts(english)
        if (None, text) not in template and ("rules card", text) not in template
    ]
    assert loose == []
    for language in LANGUAGES:
        catalogue = card_words(language)
        assert (catalogue["code"], catalogue["direction"]) == (language, i18n.direction(language))
        # Every text closes the equations it opens.
        assert [text for text in texts(catalogue) if text.count("`") % 2] == []


def test_the_card_is_translated_in_each_language() -> None:
    english = texts(card_words("en"))
    for language in ("fr", "he", "bg"):
        translated = texts(card_words(language))
        # The same texts in the same places, each one in the language (the code and the
        # premium names, "Points" in French, may read alike; a whole card may not).
        assert len(translated) == len(english)
        same = [text for text, source in zip(translated, english, strict=True) if text == source]
        assert len(same) <= 3, (language, same)


def texts(value: object) -> list[str]:
    """Every string in a catalogue."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in texts(item)]
    if isinstance(value, list):
        return [text for item in value for text in texts(item)]
    return []


def test_readable_shows_tiles_as_printed() -> None:
    assert readable("100|1=101") == "100 OR 1=101"
    assert readable("~101=10") == "NOT 101=10"
    assert readable("1=~0") == "1=NOT 0"
    assert readable("11x11=1001") == "11×11=1001"
    assert readable("110/10=11") == "110÷10=11"
    assert re.fullmatch(r"1−1=0", readable("1-1=0"))


@pytest.mark.parametrize(
    ("command", "name"),
    [
        (["print-set"], "out.pdf"),
        (["print-set", "--tile-mm", "12"], "out.svg"),
        (["print-rules", "--lang", "he"], "out.pdf"),
    ],
)
def test_an_unwritable_output_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], name: str
) -> None:
    output = tmp_path / "no such folder" / name
    status, out, err = run([*command, "-o", str(output)], capsys)
    assert status == 2
    assert out == ""
    if "he" in command:  # the sentence in the language asked for; the system's reason as it is
        expected = (
            f"\u2068binscrabble\u2069: שגיאה: אי אפשר לכתוב את \u2068{output}\u2069: No such file"
            " or directory\n"
        )
    else:
        expected = f"binscrabble: error: cannot write {output}: No such file or directory\n"
    assert err == expected
