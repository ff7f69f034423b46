"""What a person reads about an equation or a move, in four languages (issue 39): a position
is counted from 1, as a person counts the symbols typed (the caret and the programs' fields
count from 0); a house rule is named in words, with the ``--rule`` option after them only at
the command line; the terminal's board names its premium squares as the web's does; the
lobby's two "How to play" are two messages."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from web_api_support import bearer, new_game, web_client

from binscrabble import i18n
from binscrabble.board import Board
from binscrabble.cli import main
from binscrabble.expr import check
from binscrabble.game import Game
from binscrabble.legality import Play, touching
from binscrabble.move import NotationError, Place, parse_move
from binscrabble.rules import Rules
from binscrabble.terminal import PlayOptions, render_board, run_terminal_game
from binscrabble.web import page_text

LANGUAGES = ("en", "fr", "he", "bg")
FSI, PDI = "\u2068", "\u2069"

#: "the operator + at position 2 has nothing after it", for "1+=10": the + is the second
#: symbol.
TRAILING_PLUS = {
    "en": "the operator + at position 2 has nothing after it",
    "fr": "l’opérateur + à la position 2 n’est suivi de rien",
    "he": f"אחרי סימן הפעולה {FSI}+{PDI} במיקום {FSI}2{PDI} אין כלום",
    "bg": "след знака + на позиция 2 няма нищо",
}
#: The rule "Times 1 and divided by 1 allowed" in words, as the lobby names it, in each language.
TIMES_ONE = {
    "en": "the house rule “Times 1 and divided by 1 allowed”",
    "fr": "le réglage «\u00a0Neutre\u00a0: × 1 et ÷ 1\u00a0»",
    "he": f'חוק הבית "{FSI}ניטרלי: × 1 וכן ÷ 1{PDI}"',
    "bg": "правилото „Неутрални: × 1 и ÷ 1“",
}


def run(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(arguments)
    captured = capsys.readouterr()
    assert captured.err == ""
    return status, captured.out


# -- positions, counted from 1 --------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_check_explain_counts_the_symbols_from_one(
    language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run(["--lang", language, "check", "--explain", "1+=10"], capsys)
    assert status == 1
    # The caret stands under the second symbol, and the sentence says the second.
    assert out.splitlines()[:3] == ["1+=10", " ^", TRAILING_PLUS[language]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_check_says_the_same_position_as_the_explanation(
    language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _status, out = run(["--lang", language, "check", "1 and and 1 = 1"], capsys)
    assert "7" in out and "6" not in out, out


def test_json_reason_counts_from_one_the_field_from_zero(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _status, out = run(["check", "--json", "1+=10"], capsys)
    assert json.loads(out)["reason"] == TRAILING_PLUS["en"]
    result = check("1+=10", Rules())
    assert result.position == 1  # for programs (the page's highlight): an index
    assert result.reason == TRAILING_PLUS["en"]


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "unknown symbol '2' at position 6"),
        ("fr", "à la position 6"),
        ("he", f"{FSI}6{PDI}"),
        ("bg", "на позиция 6"),
    ],
)
def test_a_move_that_cannot_be_read_counts_from_one(language: str, says: str) -> None:
    with i18n.use_language(language), pytest.raises(NotationError) as refused:
        parse_move("8D 1+2=10", Board())
    assert refused.value.position == 5
    assert says in str(refused.value)


def test_the_web_preview_and_refusal_count_from_one(tmp_path: Path) -> None:
    with web_client(tmp_path / "g.db") as client:
        created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
        token = created["seats"][0]["token"]
        for language, says in (("en", "at position 6"), ("fr", "à la position 6")):
            preview = client.post(
                f"/api/games/{created['id']}/preview",
                params={"lang": language},
                json={"move": "8D 1+2=10"},
                headers=bearer(token),
            ).json()
            assert preview["legal"] is False and says in preview["reason"], preview
            played = client.post(
                f"/api/games/{created['id']}/moves",
                params={"lang": language},
                json={"move": "8D 1+2=10", "turn": 0},
                headers=bearer(token),
            ).json()
            assert says in played["error"], played


def test_the_terminal_game_counts_from_one(tmp_path: Path) -> None:
    options = PlayOptions(players=["Ada", "Bob"], seed=1, save=str(tmp_path / "g.bsr"))
    stdin = io.StringIO("\n8D 1+2=10\nquit\n")
    stdout, stderr = io.StringIO(), io.StringIO()
    with i18n.use_language("bg"):
        run_terminal_game(options, stdin, stdout, stderr)
    assert "на позиция 6" in stdout.getvalue()


# -- house rules, in words ------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_check_explain_names_the_rule_in_words_then_the_option(
    language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _status, out = run(["--lang", language, "check", "--explain", "1x1=1"], capsys)
    (line,) = [line for line in out.splitlines() if "×1" in line and "--rule" in line]
    assert TIMES_ONE[language] in line
    assert "--rule identity_times_one=off" in line
    # The switch's code is there only as the option is typed.
    assert line.count("identity_times_one") == 1, line


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_reason_names_the_rule_in_words(
    language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _status, out = run(
        ["--lang", language, "check", "--preset", "expert", "1+1=10x1", "1+0=1x1"], capsys
    )
    assert TIMES_ONE[language] in out
    assert "identity_" not in out, out


def test_a_chain_names_the_rule_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    _status, out = run(["--lang", "fr", "check", "--explain", "1+0=1x1"], capsys)
    chains = "le réglage «\u00a0Plusieurs opérations neutres par égalité\u00a0»"
    assert f"plus d’une opération neutre (+0, ×1) alors que {chains} est désactivé" in out
    assert "qui est désactivé (--rule identity_chains=on l’active)" in out


#: "An = turned to read 11" and "Plain numbers beside a run" in words, in each language.
ROTATED_AND_PARALLEL = {
    "en": (
        "the house rule “An = turned to read 11”",
        "the house rule “Plain numbers beside a run”",
    ),
    "fr": (
        "le réglage «\u00a0Un = tourné qui se lit 11\u00a0»",
        "le réglage «\u00a0Un nombre seul le long d’un coup\u00a0»",
    ),
    "he": (
        f'חוק הבית "{FSI}אריח = מסובב שנקרא 11{PDI}"',
        f'חוק הבית "{FSI}מספר בודד לצד המהלך{PDI}"',
    ),
    "bg": (
        "правилото „Завъртян знак =, който се чете 11“",
        "правилото „Самостоятелно число успоредно на хода“",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_illegal_move_names_the_rule_in_words(language: str) -> None:
    game = Game(["Ann", "Bo"], Rules(), seed=1)
    board = Board.from_rows(["." * 15] * 7 + ["...1+1=10......"] + ["." * 15] * 7)
    beside = parse_move("9H 11", board)
    assert isinstance(beside, Place)
    with i18n.use_language(language):
        rotated = str(game.illegal_reason(parse_move("8G 11#11", game.board)))
        alone = str(touching(Play(beside.tiles, board, Rules(parallel_numbers=True), rack=None)))
    rotated_words, parallel_words = ROTATED_AND_PARALLEL[language]
    assert rotated_words in rotated and "rotated_equals" not in rotated
    assert parallel_words in alone and "parallel_numbers" not in alone


# -- the terminal's board -------------------------------------------------------------------

#: The web board's labels (js/board.js: TW, DW, TL, DL) and names, in each language.
WEB_LABELS = {
    "en": ("TW", "DL", "triple word"),
    "fr": ("MT", "LD", "mot compte triple"),
    "he": ("מ״מ", "א״כ", "מילה משולשת"),
    "bg": ("ТД", "ДБ", "тройна стойност на думата"),
}


#: The other two labels of each language.
OTHER_LABELS = {
    "en": ("DW", "TL"),
    "fr": ("MD", "LT"),
    "he": ("מ״כ", "א״מ"),
    "bg": ("ДД", "ТБ"),
}


def visible(line: str) -> str:
    """A line as a terminal's cells hold it: the isolates take none."""
    return line.replace(FSI, "").replace(PDI, "")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_terminal_board_names_premiums_as_the_web_does(language: str) -> None:
    with i18n.use_language(language):
        lines = render_board(Board(), color=False).splitlines()
    with i18n.use_language("en"):
        english = render_board(Board(), color=False).splitlines()
    triple_word, double_letter, words = WEB_LABELS[language]
    assert visible(lines[1]).split()[:5] == ["1", triple_word, ".", ".", double_letter]
    # Every square takes its three cells and a space in every language: the columns stay
    # under A to O.
    assert lines[0] == english[0]
    for line in lines[1:16]:
        row = visible(line).ljust(63)
        assert len(row) == 63, line
        squares = [row[4 + 4 * column : 7 + 4 * column].strip() for column in range(15)]
        assert all(row[7 + 4 * column] == " " for column in range(14)), line
        assert set(squares) <= {".", *WEB_LABELS[language][:2], *OTHER_LABELS[language]}
    assert f"{triple_word} {words}" in visible(lines[-1])
    if language == "he":
        # Each Hebrew label is isolated: a row holds no letter that sets its direction, so a
        # terminal that lays lines out right to left keeps column A at the left.
        assert f"{FSI}{triple_word}{PDI}" in lines[1]
        assert not re.search(r"[\u05d0-\u05ea]", re.sub(f"{FSI}[^{PDI}]*{PDI}", "", lines[8]))


# -- the lobby's two "How to play" ------------------------------------------------------------

#: The lobby's choice of opponents, then the heading of the rules in short.
HOW_TO_PLAY = {
    "en": ("How to play", "How to play"),
    "fr": ("Mode de jeu", "Comment jouer"),
    "he": ("עם מי משחקים", "איך משחקים"),
    "bg": ("Начин на игра", "Как се играе"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobbys_two_how_to_play_are_two_messages(language: str) -> None:
    with i18n.use_language(language):
        page = page_text.render("index.html")
    legend = re.search(r'<legend data-i18n-context="[^"]+">([^<]*)</legend>', page)
    heading = re.search(r'<h2 id="how-title"[^>]*>([^<]*)</h2>', page)
    assert legend is not None and heading is not None
    assert (legend.group(1), heading.group(1)) == HOW_TO_PLAY[language]


def test_the_template_has_how_to_play_in_two_contexts() -> None:
    template = Path(i18n.__file__).parent / "locale" / "binscrabble.pot"
    with template.open("rb") as file:
        contexts = sorted(
            str(message.context) for message in read_po(file) if message.id == "How to play"
        )
    assert contexts == ["choice of opponents", "rules in short"]
