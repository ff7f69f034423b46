"""Move values and their notation (binscrabble.move, docs/notation.md)."""

from __future__ import annotations

import pickle

import pytest

from binscrabble import i18n
from binscrabble.board import Board, parse_square
from binscrabble.move import (
    NOTATION_ERROR_KINDS,
    Exchange,
    NotationError,
    Pass,
    Place,
    PlacedTile,
    move_notation,
    parse_move,
    place_from,
    play_direction,
)

EMPTY_ROW = "." * 15


def board_with(*lines: tuple[int, str]) -> Board:
    rows = [EMPTY_ROW] * 15
    for number, text in lines:
        rows[number - 1] = text.ljust(15, ".")
    return Board.from_rows(rows)


# The board of most tests: 1+1=10 across from D8.
OPENED = board_with((8, "...1+1=10"))


def sq(name: str) -> int:
    return parse_square(name)


def test_place_keeps_tiles_in_square_order_and_compares_by_content() -> None:
    one = Place((PlacedTile(sq("I8"), "1"), PlacedTile(sq("H8"), "=")))
    other = Place((PlacedTile(sq("H8"), "="), PlacedTile(sq("I8"), "1")))
    assert one == other
    assert hash(one) == hash(other)
    assert one.squares == (sq("H8"), sq("I8"))
    assert Place((PlacedTile(5, "1", blank=True),)).codes == "?"


def test_reprs_paste_back_as_code() -> None:
    moves = [
        Place((PlacedTile(112, "1"), PlacedTile(113, "=", blank=True, rotated=True))),
        Exchange("10?"),
        Pass(),
    ]
    for move in moves:
        assert eval(repr(move)) == move
    assert repr(PlacedTile(3, "x")) == "PlacedTile(square=3, face='x')"


def test_exchange_keeps_codes_in_a_fixed_order() -> None:
    assert Exchange("?1x0") == Exchange("01x?")
    assert Exchange("?1x0").tiles == "01x?"
    with pytest.raises(ValueError, match="not a tile code"):
        Exchange("12")


def test_moves_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Exchange("1").tiles = "0"  # type: ignore[misc]


def test_first_play_across_and_down() -> None:
    board = Board()
    across = parse_move("8D 1+1=10", board)
    assert isinstance(across, Place)
    assert across.squares == tuple(range(sq("D8"), sq("I8") + 1))
    assert "".join(tile.face for tile in across.tiles) == "1+1=10"
    down = parse_move("D8 1+1=10", board)
    assert isinstance(down, Place)
    assert down.squares == tuple(range(sq("D8"), sq("D13") + 1, 15))
    assert parse_move("h8 1=1", board) == parse_move("H8 1=1", board)
    assert parse_move("8h 1=1", board) == parse_move("8H 1=1", board)


def test_aliases_words_and_spaces() -> None:
    board = Board()
    assert parse_move("8D 1 or 1 = 1", board) == parse_move("8D 1|1=1", board)
    assert parse_move("8D NOT 0=1", board) == parse_move("8D ~0=1", board)
    assert parse_move("8D not0=1", board) == parse_move("8D ~0=1", board)
    assert parse_move("8D 1 AnD 1=1", board) == parse_move("8D 1&1=1", board)
    assert parse_move("8D 1xor0=1", board) == parse_move("8D 1^0=1", board)
    assert parse_move("8D 1X1=1", board) == parse_move("8D 1x1=1", board)
    assert parse_move("8D 1*1=1", board) == parse_move("8D 1x1=1", board)
    assert parse_move("8D 1×1=1", board) == parse_move("8D 1x1=1", board)
    assert parse_move("8D 10÷10=1", board) == parse_move("8D 10/10=1", board)
    assert parse_move("8D 10:10=1", board) == parse_move("8D 10/10=1", board)
    assert parse_move("8D 1−1=0", board) == parse_move("8D 1-1=0", board)
    assert parse_move("8D ¬0=1", board) == parse_move("8D ~0=1", board)
    assert parse_move("8D !0=1", board) == parse_move("8D ~0=1", board)
    assert parse_move("8D 1∧1=1", board) == parse_move("8D 1&1=1", board)
    assert parse_move("8D 1∨1=1", board) == parse_move("8D 1|1=1", board)
    assert parse_move("8D 1⊕0=1", board) == parse_move("8D 1^0=1", board)
    assert parse_move("  8D 1=1  ", board) == parse_move("8D 1=1", board)


def test_blank_and_rotated_marks() -> None:
    board = Board()
    move = parse_move("8D 1+?1=10", board)
    assert isinstance(move, Place)
    assert move.tiles[2] == PlacedTile(sq("F8"), "1", blank=True)
    move = parse_move("8D 1?#=1#", board)
    assert isinstance(move, Place)
    assert move.tiles[1] == PlacedTile(sq("E8"), "=", blank=True, rotated=True)
    assert move.tiles[4] == PlacedTile(sq("H8"), "=", rotated=True)
    assert parse_move("8D 1?AND1=1", board) == parse_move("8D 1?&1=1", board)


def test_played_through_tiles_in_parentheses() -> None:
    move = parse_move("F6 1x(1)=1", OPENED)
    assert move == place_from([(sq("F6"), "1"), (sq("F7"), "x"), (sq("F9"), "="), (sq("F10"), "1")])
    assert parse_move("8C 1(1+1=10)", OPENED) == place_from([(sq("C8"), "1")])


def test_played_through_tiles_may_be_written_plainly_when_they_match() -> None:
    assert parse_move("F6 1x1=1", OPENED) == parse_move("F6 1x(1)=1", OPENED)


def test_writing_notation() -> None:
    board = Board()
    assert parse_move("8D 1+?1=10", board).notation(board) == "8D 1+?1=10"
    assert parse_move("D8 1+1=10", board).notation(board) == "D8 1+1=10"
    assert move_notation(parse_move("F6 1x(1)=1", OPENED), OPENED) == "F6 1x(1)=1"
    # the coordinate is the start of the whole run, old tiles at both ends in parentheses
    both_ends = place_from([(sq("C8"), "1"), (sq("J8"), "0")])
    assert both_ends.notation(OPENED) == "8C 1(1+1=10)0"
    # one tile: across when it has a neighbour left or right
    assert place_from([(sq("J8"), "0")]).notation(OPENED) == "8D (1+1=10)0"
    # ... else down along the tiles above or below it
    assert place_from([(sq("F9"), "0")]).notation(OPENED) == "F8 (1)0"
    assert Exchange("1?").notation(OPENED) == "-1?"
    assert Pass().notation() == "pass"


def test_writing_rotated_old_tiles() -> None:
    board = Board.from_rows(
        [EMPTY_ROW] * 7 + ["...1=1=........"] + [EMPTY_ROW] * 7, rotated=["G8"], blanks=["F8"]
    )
    move = place_from([(sq("H8"), "1")])
    assert move.notation(board) == "8D (1=1#)1"
    assert parse_move("8D (1=1#)1", board) == move


def test_writing_notation_needs_one_unbroken_line() -> None:
    with pytest.raises(ValueError, match="one row or column"):
        place_from([(sq("A1"), "1"), (sq("B2"), "1")]).notation(Board())
    with pytest.raises(ValueError, match="gap"):
        place_from([(sq("A1"), "1"), (sq("C1"), "1")]).notation(Board())
    with pytest.raises(ValueError, match="D8 already holds a tile"):
        place_from([(sq("D8"), "1")]).notation(OPENED)
    with pytest.raises(ValueError, match="no tiles"):
        play_direction(Place(()), Board())


def test_exchange_and_pass_notation() -> None:
    board = Board()
    assert parse_move("pass", board) == Pass()
    assert parse_move("PASS", board) == Pass()
    assert parse_move(" - ", board) == Pass()
    assert parse_move("-1101", board) == Exchange("1101")
    assert parse_move("--", board) == Exchange("-")
    assert parse_move("exchange 1 1 0 ?", board) == Exchange("011?")
    assert parse_move("Exchange AND or", board) == Exchange("&|")
    assert parse_move("-?x", board) == Exchange("x?")


ROUND_TRIP_CASES = [
    (Board(), "8D 1+1=10"),
    (Board(), "D8 1+1=10"),
    (Board(), "8D ?1+?1=?1?0"),
    (Board(), "8D 1#=1#"),
    (Board(), "H4 10x10=100"),
    (Board(), "8G 1&1=1"),
    (OPENED, "F6 1x(1)=1"),
    (OPENED, "8C 1(1+1=10)"),
    (OPENED, "8A 1+1(1+1=10)"),
    (OPENED, "I7 1(0)=10"),
    (OPENED, "G5 1+1(=)10"),
    (OPENED, "-01?"),
    (OPENED, "pass"),
]


@pytest.mark.parametrize(("board", "text"), ROUND_TRIP_CASES)
def test_notation_round_trip(board: Board, text: str) -> None:
    move = parse_move(text, board)
    assert move_notation(move, board) == text
    assert parse_move(move_notation(move, board), board) == move


@pytest.mark.parametrize(
    ("board", "text", "kind", "position", "words"),
    [
        (Board(), "", "empty", None, "no move given"),
        (Board(), "   ", "empty", None, "no move given"),
        (Board(), "1+1=10", "coordinate", 0, "“1+1=10” is not a coordinate"),
        (Board(), "8D1+1=10", "coordinate", 0, "is not a coordinate"),
        (Board(), "8P 1=1", "coordinate", 0, "column P is off the board"),
        (Board(), "P8 1=1", "coordinate", 0, "column P is off the board"),
        (Board(), "16A 1=1", "coordinate", 0, "row 16 is off the board"),
        (Board(), "A0 1=1", "coordinate", 0, "row 0 is off the board"),
        (Board(), "08A 1=1", "coordinate", 0, "row 08 is off the board"),
        (Board(), "8D 1+2=10", "symbol", 5, "unknown symbol '2' at position 6"),
        (Board(), "8D 1=1 y", "symbol", 7, "unknown symbol 'y'"),
        (Board(), "8D 1=1?", "blank_mark", 6, "marks no tile"),
        (Board(), "8D 1=??1", "blank_mark", 6, "two blank marks"),
        (Board(), "8D ?(1)=1", "blank_mark", 3, "marks no tile"),
        (OPENED, "8C 1(?1+1=10)", "blank_mark", 5, "inside parentheses"),
        (OPENED, "8C 1((1)+1=10)", "parenthesis", 5, "nested"),
        (OPENED, "8C 1(1+1=10", "parenthesis", 11, "never closed"),
        (OPENED, "8C 1)", "parenthesis", 4, "closes nothing"),
        (OPENED, "8C 1()", "parenthesis", 5, "empty parentheses"),
        (Board(), "8M 1+1=10", "off_board", 6, "runs off the board after O8"),
        (Board(), "M12 1+1=10", "off_board", 8, "runs off the board after M15"),
        (OPENED, "9C 1(1)", "not_on_board", 5, "D9 is empty"),
        (OPENED, "8C 1(0)", "mismatch", 5, "D8 holds 1, not 0"),
        (OPENED, "8C 1(#)", "mismatch", 5, "D8 holds 1, not #"),
        (OPENED, "8C 10", "mismatch", 4, "D8 already holds 1, not 0"),
        (OPENED, "8C 1?1", "mismatch", 4, "D8 already holds 1, not ?1"),
        (OPENED, "8D (1+1=10)", "no_new_tile", 2, "no new tile"),
        (OPENED, "8D 1+1=10", "no_new_tile", 2, "no new tile"),
        (Board(), "8D ", "no_new_tile", 2, "names no tiles"),
        (Board(), "exchange", "exchange", 8, "names the tiles"),
        (Board(), "pass pass", "pass", 5, "pass is written alone"),
        (Board(), " PASS 01", "pass", 6, "nothing after it"),
        (Board(), "pass.", "pass", 4, "nothing after it"),
        (Board(), "exchange 12", "symbol", 10, "unknown symbol '2'"),
        (Board(), "-1#", "symbol", 2, "unknown symbol '#'"),
    ],
)
def test_notation_errors(
    board: Board, text: str, kind: str, position: int | None, words: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse_move(text, board)
    assert caught.value.kind == kind
    assert caught.value.kind in NOTATION_ERROR_KINDS
    assert caught.value.position == position
    assert words in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_every_notation_error_kind_is_tested() -> None:
    tested = {
        "empty",
        "coordinate",
        "symbol",
        "blank_mark",
        "parenthesis",
        "off_board",
        "not_on_board",
        "mismatch",
        "no_new_tile",
        "exchange",
        "pass",
    }
    assert tested == set(NOTATION_ERROR_KINDS)


def test_notation_errors_survive_pickling() -> None:
    with pytest.raises(NotationError) as caught:
        parse_move("8D 1+2=10", Board())
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.kind, copy.position, str(copy)) == ("symbol", 5, str(caught.value))


NBSP = "\u00a0"


# What each language says of text that is no move, no coordinate, or a coordinate whose
# column or row is off the board: the typed text in that language's own quotes.
QUOTED = {
    "en": (
        "“passe” is not a move: write",
        "“8D1+1=10” is not a coordinate: write",
        "coordinate “8P”: column P is off",
        "coordinate “16A”: row 16 is off",
    ),
    "fr": (
        f"«{NBSP}passe{NBSP}» n’est pas un coup.",
        f"«{NBSP}8D1+1=10{NBSP}» n’est pas une coordonnée{NBSP}:",
        f"coordonnée «{NBSP}8P{NBSP}»{NBSP}: la colonne P",
        f"coordonnée «{NBSP}16A{NBSP}»{NBSP}: la ligne 16",
    ),
    "he": (
        '"\u2068passe\u2069" אינו מהלך:',
        '"\u20688D1+1=10\u2069" אינו קואורדינטה:',
        'קואורדינטה "\u20688P\u2069": העמודה',
        'קואורדינטה "\u206816A\u2069": השורה',
    ),
    "bg": (
        "„passe“ не е ход.",
        "„8D1+1=10“ не е координата:",
        "координата „8P“: колона P",
        "координата „16A“: ред 16",
    ),
}


@pytest.mark.parametrize("language", list(QUOTED))
def test_what_was_typed_is_quoted_in_the_languages_own_quotes(language: str) -> None:
    """Issue 39: "'passe' is not a move" and "coordinate '8P': column P is off the board"
    quoted what was typed in Python's straight quotes; each language quotes it as "the move
    “…” cannot be read" does."""
    with i18n.use_language(language):
        typed_texts = ("passe", "8D1+1=10", "8P 1=1", "16A 1=1")
        for typed, says in zip(typed_texts, QUOTED[language], strict=True):
            with pytest.raises(NotationError) as refused:
                parse_move(typed, Board())
            assert str(refused.value).startswith(says), str(refused.value)


def test_what_is_not_a_move_is_quoted_with_its_control_characters_escaped() -> None:
    with pytest.raises(NotationError) as refused:
        parse_move("pa\x1bsse 01", Board())
    assert str(refused.value).startswith("“pa\\x1bsse” is not a move")
