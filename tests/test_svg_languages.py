"""The board pictures' words in the reader's language, and Hebrew stored in the order drawn.

CairoSVG draws a picture's characters in the order they are stored; a Hebrew line is
stored in visual order (docs/languages.md, "The board pictures"), so the tests read what
the picture holds: the Hebrew words reversed, the moves, numbers and names left to right.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from language_cases import in_each_language

from binscrabble.bidi import visual
from binscrabble.board import Board
from binscrabble.cli import main
from binscrabble.game import Game
from binscrabble.i18n import use_language
from binscrabble.move import Pass
from binscrabble.record import read_record_file
from binscrabble.rules import Rules
from binscrabble.svg import board, game_at_turn

SAMPLE_RECORD = Path(__file__).resolve().parent.parent / "docs" / "examples" / "sample-game.bsr"
SVG = "{http://www.w3.org/2000/svg}"
ISOLATES = set("\u2066\u2067\u2068\u2069")
NBSP = "\u00a0"


def drawn(game: Game, language: str, **options: object) -> ElementTree.Element:
    with use_language(language):
        return ElementTree.fromstring(board(game, scores=True, **options))  # type: ignore[arg-type]


def text(root: ElementTree.Element, kind: str) -> ElementTree.Element:
    (found,) = [t for t in root.iter(f"{SVG}text") if t.get("class") == kind]
    return found


def words(root: ElementTree.Element, kind: str) -> str:
    return "".join(text(root, kind).itertext())


def premium(root: ElementTree.Element, square: str) -> str:
    for group in root.iter(f"{SVG}g"):
        if group.get("data-square") == square and group.get("class") == "premium":
            return "".join(group.itertext())
    raise AssertionError(f"no premium square {square}")


@pytest.fixture(scope="module")
def sample() -> Game:
    return read_record_file(SAMPLE_RECORD)


@in_each_language(
    {
        "en": ("Binary Scrabble board", "turn 3: ", "bag: 55 tiles", "2L", "3W"),
        "fr": (
            "Plateau de Scrabble binaire",
            f"tour 3{NBSP}: ",
            f"sac{NBSP}: 55 jetons",
            "LD",
            "MT",
        ),
        "he": ("לוח סקראבל בינארי", None, "םיחירא 55 :קשב", "כ״א", "מ״מ"),
        "bg": ("Дъска на двоичен скрабъл", "ход 3: ", "торбичка: 55 плочки", "ДБ", "ТД"),
    }
)
def test_title_caption_bag_and_premiums_are_in_the_language(
    sample: Game, language: str, expected: tuple[str, str | None, str, str, str]
) -> None:
    title, caption_start, bag, double_letter, triple_word = expected
    root = drawn(game_at_turn(sample, 3), language)
    assert "".join(root.find(f"{SVG}title").itertext()) == title  # type: ignore[union-attr]
    if caption_start is not None:
        assert words(root, "caption") == f"{caption_start}Ada 12D 10−0÷1[=]10 +121"
    assert words(root, "status") == bag
    assert premium(root, "D1") == double_letter and premium(root, "A1") == triple_word


@in_each_language(
    {
        "en": ("start of the game", "bag: 1 tile"),
        "fr": ("début de la partie", f"sac{NBSP}: 1 jeton"),
        "he": ("קחשמה תליחת", "דחא חירא :קשב"),
        "bg": ("начало на играта", "торбичка: 1 плочка"),
    }
)
def test_the_start_and_a_bag_of_one_tile(language: str, expected: tuple[str, str]) -> None:
    game = Game.from_setup(Rules(), Board(), ["1+1=10", "110"], bag=["0"], players=["Ada", "Bob"])
    root = drawn(game, language)
    assert (words(root, "caption"), words(root, "status")) == expected


@in_each_language(
    {
        "en": (" (game over: Ada wins)", "end of the game, racks: Ada −1, Bob −3"),
        "fr": (
            f" (partie terminée{NBSP}: Ada gagne)",
            f"fin de la partie, chevalets{NBSP}: Ada −1, Bob −3",
        ),
        "he": (None, "Bob −3 ,Ada −1 :תודמעמ ,קחשמה ףוס"),
        "bg": (" (край на играта: Ada печели)", "край на играта, поставки: Ada −1, Bob −3"),
    }
)
def test_the_end_of_the_game_is_in_the_language(
    sample: Game, language: str, expected: tuple[str | None, str]
) -> None:
    ending, status = expected
    root = drawn(sample, language)
    if ending is not None:
        assert words(root, "caption").endswith(f"pass +0{ending}")
    else:
        assert words(root, "caption") == "(Ada־ל ןוחצינ :םייתסה קחשמה) +0 pass Ada :25 רות"
    assert words(root, "status") == status


@in_each_language(
    {
        "en": ("(tile points not shown at this size)", "the tiles' points are left out"),
        "fr": ("(points des jetons non affichés à cette taille)", "les points des jetons"),
        "he": ("(הזה לדוגב גצומ וניא םיחיראה דוקינ)", "ניקוד האריחים הושמט"),
        "bg": ("(без точките на плочките при този размер)", "точките на плочките"),
    }
)
def test_the_note_on_left_out_points_is_in_the_language(
    sample: Game, language: str, expected: tuple[str, str]
) -> None:
    note, description = expected
    root = drawn(sample, language, size=300)
    assert words(root, "note") == note
    assert "".join(root.find(f"{SVG}desc").itertext()).startswith(description)  # type: ignore[union-attr]


def test_a_hebrew_caption_is_stored_in_visual_order_right_aligned(sample: Game) -> None:
    root = drawn(game_at_turn(sample, 3), "he")
    caption = text(root, "caption")
    # Read from the right: "תור 3:", the name, the move, its score; each of the last three
    # left to right as written.
    assert "".join(caption.itertext()) == "+121 12D 10−0÷1[=]10 Ada :3 רות"
    board_right = float(root.attrib["viewBox"].split()[2]) - 22
    for kind in ("caption", "status"):
        line = text(root, kind)
        assert line.get("text-anchor") == "end" and float(line.attrib["x"]) == board_right
        assert line.get("direction") == "ltr" and line.get("unicode-bidi") == "bidi-override"


def test_a_hebrew_picture_holds_no_isolate(sample: Game) -> None:
    for turn in (0, 3, 25):
        with use_language("he"):
            picture = board(game_at_turn(sample, turn), scores=True, racks=True, size=300)
        assert ISOLATES.isdisjoint(picture), turn
        # The isolates of the Hebrew messages guided the layout, and went.
        caption = words(ElementTree.fromstring(picture), "caption")
        assert caption.endswith(" רות" if turn else "קחשמה תליחת"), caption


def test_hebrew_names_are_drawn_in_their_order_in_every_language() -> None:
    game = Game(("נועה", "Bob"), seed=1)
    game.push(Pass())
    for language in ("en", "he"):
        root = drawn(game, language, racks=True)
        player = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "player")
        assert "".join(player.itertext()) == "העונ"
        assert player.get("unicode-bidi") == "bidi-override"
    caption = words(drawn(game, "en"), "caption")
    assert caption.startswith("turn 1: העונ ")
    assert words(drawn(game, "he"), "caption").endswith(" העונ :1 רות")


def test_a_hebrew_draw_lists_the_names_right_to_left() -> None:
    assert visual("תיקו: \u2068נועה, דן\u2069") == "ןד ,העונ :וקית"
    assert visual("\u2068נועה \u2066−3\u2069\u2069, \u2068Bob \u2066+3\u2069\u2069") == (
        "Bob +3 ,−3 העונ"
    )


@pytest.mark.parametrize(
    ("logical", "direction", "shown"),
    [
        ("Ada 8D 1+1=10 +12", "ltr", "Ada 8D 1+1=10 +12"),
        ("Ada 8D 1+1=10 +12", "rtl", "Ada 8D 1+1=10 +12"),
        ("תור 3", "rtl", "3 רות"),
        ("בשק: 37 אריחים", "rtl", "םיחירא 37 :קשב"),
        ("תור \u2068Ada\u2069 \u2068H8 1=1\u2069 \u2066+2\u2069", "rtl", "+2 H8 1=1 Ada רות"),
        ("ניצחון ל־\u2068Ada\u2069", "rtl", "Ada־ל ןוחצינ"),
        ("(המשחק הסתיים)", "rtl", "(םייתסה קחשמה)"),
        ("Ada (נועה)", "ltr", "Ada (העונ)"),
        # As browsers draw them: a number after Hebrew takes its side, an equation alone
        # in a right-to-left line reads from its end, unless it is isolated.
        ("Ada (נועה) 12", "ltr", "Ada (12 (העונ"),
        ("נועה \u2068Ada", "rtl", "Ada העונ"),  # an isolate left open runs to the end
        ("1+1=10", "rtl", "10=1+1"),
        ("\u20661+1=10\u2069", "rtl", "1+1=10"),
        ("", "rtl", ""),
    ],
)
def test_one_line_in_visual_order(logical: str, direction: str, shown: str) -> None:
    assert visual(logical, direction) == shown


def test_render_writes_the_picture_in_the_language_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "board.svg"
    assert (
        main(["--lang", "bg", "render", str(SAMPLE_RECORD), "--turn", "3", "-o", str(output)]) == 0
    )
    capsys.readouterr()
    root = ElementTree.parse(output).getroot()
    assert words(root, "caption").startswith("ход 3: Ada")
    assert words(root, "status") == "торбичка: 55 плочки"


def test_a_hebrew_line_is_measured_as_hebrew_and_kept_whole() -> None:
    # Measured as wide characters, the last words of the line (the winner) were cut off.
    game = read_record_file(SAMPLE_RECORD)
    game.players = ("נועה", "Bob")
    root = drawn(game, "he")
    assert words(root, "caption") == "(העונ־ל ןוחצינ :םייתסה קחשמה) +0 pass העונ :25 רות"


def test_a_long_hebrew_name_reads_from_the_right_with_its_ellipsis_at_the_left() -> None:
    game = Game(("נועה בת שלמה המלך הגדולה מכולן", "Bob"), seed=1)
    for language in ("en", "he"):
        root = drawn(game, language, racks=True)
        player = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "player")
        shown = "".join(player.itertext())
        assert shown.startswith("▶ …") and shown.endswith("העונ"), shown
