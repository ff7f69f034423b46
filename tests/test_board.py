"""Squares, coordinates, premiums, tiles and runs (binscrabble.board)."""

from __future__ import annotations

import pickle

import pytest

from binscrabble.board import (
    ACROSS,
    CENTER,
    DOWN,
    LETTER_MULTIPLIERS,
    NEIGHBOURS,
    PREMIUMS,
    WORD_MULTIPLIERS,
    Board,
    Direction,
    Run,
    SquareError,
    Tile,
    make_tile,
    parse_square,
    premium,
    square,
    square_column,
    square_name,
    square_row,
)

EMPTY_ROW = "." * 15


def rows_with(row_number: int, text: str) -> list[str]:
    rows = [EMPTY_ROW] * 15
    rows[row_number - 1] = text.ljust(15, ".")
    return rows


def test_square_numbering_and_names() -> None:
    assert square_name(0) == "A1"
    assert square_name(14) == "O1"
    assert square_name(15) == "A2"
    assert square_name(CENTER) == "H8"
    assert square_name(224) == "O15"
    assert square(3, 7) == parse_square("D8") == 108
    assert square_row(108) == 7
    assert square_column(108) == 3


def test_every_square_name_round_trips() -> None:
    for sq in range(225):
        assert parse_square(square_name(sq)) == sq
        assert parse_square(square_name(sq).lower()) == sq


def test_square_name_rejects_off_board_numbers() -> None:
    with pytest.raises(ValueError, match="off the board"):
        square_name(225)
    with pytest.raises(ValueError, match="off the board"):
        square_name(-1)


@pytest.mark.parametrize(
    ("text", "kind", "words"),
    [
        ("", "empty", "empty"),
        ("   ", "empty", "empty"),
        ("P1", "column", "column P"),
        ("Z9", "column", "column Z"),
        ("A0", "row", "row 0"),
        ("A16", "row", "row 16"),
        ("A08", "row", "row 08"),
        ("8H", "syntax", "not a square name"),
        ("H", "syntax", "not a square name"),
        ("H8x", "syntax", "not a square name"),
        ("HH8", "syntax", "not a square name"),
        ("H-8", "syntax", "not a square name"),
        ("É8", "column", "column É"),
    ],
)
def test_parse_square_errors(text: str, kind: str, words: str) -> None:
    with pytest.raises(SquareError) as caught:
        parse_square(text)
    assert caught.value.kind == kind
    assert words in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_premium_layout_matches_the_rules() -> None:
    expected = {
        "TW": "A1 H1 O1 A8 O8 A15 H15 O15",
        "DW": "B2 C3 D4 E5 K5 L4 M3 N2 B14 C13 D12 E11 K11 L12 M13 N14 H8",
        "TL": "F2 J2 B6 F6 J6 N6 B10 F10 J10 N10 F14 J14",
        "DL": "D1 L1 G3 I3 A4 H4 O4 C7 G7 I7 M7 D8 L8 C9 G9 I9 M9 A12 H12 O12 G13 I13 D15 L15",
    }
    for kind, names in expected.items():
        squares = {parse_square(name) for name in names.split()}
        assert {sq for sq in range(225) if PREMIUMS[sq] == kind} == squares
    assert sum(1 for kind in PREMIUMS if kind is None) == 225 - 8 - 17 - 12 - 24


def test_premium_layout_is_symmetric() -> None:
    for sq in range(225):
        row, column = divmod(sq, 15)
        assert premium(sq) == premium(column * 15 + row)  # mirrored on the diagonal
        assert premium(sq) == premium(row * 15 + 14 - column)  # mirrored left-right


def test_multipliers_follow_premiums() -> None:
    assert LETTER_MULTIPLIERS[parse_square("D8")] == 2
    assert LETTER_MULTIPLIERS[parse_square("F6")] == 3
    assert WORD_MULTIPLIERS[parse_square("H8")] == 2
    assert WORD_MULTIPLIERS[parse_square("A1")] == 3
    assert LETTER_MULTIPLIERS[parse_square("A1")] == 1
    assert WORD_MULTIPLIERS[parse_square("D8")] == 1
    assert LETTER_MULTIPLIERS[parse_square("B1")] == WORD_MULTIPLIERS[parse_square("B1")] == 1


def test_neighbours() -> None:
    assert sorted(NEIGHBOURS[0]) == [1, 15]
    assert sorted(NEIGHBOURS[CENTER]) == [CENTER - 15, CENTER - 1, CENTER + 1, CENTER + 15]
    assert sorted(NEIGHBOURS[224]) == [209, 223]
    assert sorted(NEIGHBOURS[14]) == [13, 29]  # O1 does not wrap to A2


def test_tile_text_points_and_code() -> None:
    assert Tile("1").text == "1"
    assert Tile("1").points == 1
    assert Tile("/").points == 4
    assert Tile("x").points == 2
    assert Tile("/", blank=True).points == 0
    assert Tile("/", blank=True).code == "?"
    assert Tile("=", rotated=True).text == "11"
    assert Tile("=", rotated=True).symbol == "#"
    assert Tile("=", blank=True, rotated=True).points == 0
    assert Tile("=", blank=True, rotated=True).text == "11"


def test_tile_is_frozen_and_compares_by_properties() -> None:
    assert Tile("1") == make_tile("1")
    assert Tile("1") != Tile("1", blank=True)
    assert make_tile("=", True, True) is make_tile("=", True, True)
    with pytest.raises(AttributeError):
        Tile("1").face = "0"  # type: ignore[misc]
    assert repr(Tile("1", blank=True)) == "Tile(face='1', blank=True, rotated=False)"


def test_tile_rejects_bad_faces() -> None:
    with pytest.raises(ValueError, match="not a tile face"):
        Tile("2")
    with pytest.raises(ValueError, match="only an = tile"):
        Tile("1", rotated=True)


def test_direction_values_are_steps() -> None:
    assert int(ACROSS) == 1
    assert int(DOWN) == 15
    assert ACROSS.other is DOWN
    assert DOWN.other is Direction.ACROSS


def test_board_place_remove_and_count() -> None:
    board = Board()
    assert board.is_empty()
    board.place(CENTER, make_tile("1"))
    assert board[CENTER] == Tile("1")
    assert len(board) == board.tile_count == 1
    with pytest.raises(ValueError, match="H8 already holds a tile"):
        board.place(CENTER, make_tile("0"))
    assert board.remove(CENTER) == Tile("1")
    assert board.is_empty()
    with pytest.raises(ValueError, match="H8 holds no tile"):
        board.remove(CENTER)


def test_board_copy_is_independent() -> None:
    board = Board.from_rows(rows_with(8, "...1+1=10"))
    other = board.copy()
    assert other == board
    other.remove(parse_square("D8"))
    assert other != board
    assert board.tile_count == 6
    assert other.tile_count == 5


def test_run_through_a_square() -> None:
    board = Board.from_rows(rows_with(8, "...1+1=10"))
    d8, i8 = parse_square("D8"), parse_square("I8")
    assert board.run(parse_square("F8"), ACROSS) == tuple(range(d8, i8 + 1))
    assert board.run(parse_square("F8"), DOWN) == (parse_square("F8"),)
    # an empty square counts as occupied: the line a tile there would join
    assert board.run(parse_square("J8"), ACROSS) == tuple(range(d8, i8 + 2))
    assert board.run_text(board.run(d8, ACROSS)) == "1+1=10"
    with pytest.raises(ValueError, match="J8 holds no tile"):
        board.run_text([parse_square("J8")])


def test_runs_do_not_wrap_around_rows() -> None:
    rows = [EMPTY_ROW] * 15
    rows[0] = "............1=1"
    rows[1] = "1=1............"
    board = Board.from_rows(rows)
    assert [str(run) for run in board.runs()] == ["M1-O1 1=1", "A2-C2 1=1"]
    assert board.run(parse_square("O1"), ACROSS) == tuple(range(12, 15))


def test_runs_in_both_directions_and_rotated_text() -> None:
    rows = [EMPTY_ROW] * 15
    rows[6] = ".......1......."
    rows[7] = ".......=1=1...."
    rows[8] = ".......1......."
    board = Board.from_rows(rows, rotated=["J8"])
    assert board.runs() == [
        Run(ACROSS, tuple(range(112, 116)), "=1111"),
        Run(DOWN, (97, 112, 127), "1=1"),
    ]


def test_from_rows_blanks_and_rotated() -> None:
    board = Board.from_rows(rows_with(8, ".......1=1"), blanks=["H8"], rotated=[parse_square("I8")])
    assert board[CENTER] == Tile("1", blank=True)
    assert board[parse_square("I8")] == Tile("=", rotated=True)
    assert board.blank_squares() == [CENTER]
    assert board.rotated_squares() == [parse_square("I8")]
    assert board.rows()[7] == ".......1=1....."
    assert eval(repr(board)) == board  # the repr pastes back as code


@pytest.mark.parametrize(
    ("rows", "blanks", "rotated", "message"),
    [
        ([EMPTY_ROW] * 14, (), (), "15 rows, not 14"),
        ([EMPTY_ROW] * 14 + ["..."], (), (), "row 15 has 3 characters"),
        (rows_with(2, "..2"), (), (), "C2 holds '2'"),
        (rows_with(8, "1=1"), ["B1"], (), "blank square B1 holds no tile"),
        (rows_with(8, "1=1"), (), ["A8"], "rotated square A8 must hold an = tile"),
        (rows_with(8, "1=1"), ["Q1"], (), "column Q"),
    ],
)
def test_from_rows_errors(
    rows: list[str], blanks: list[str], rotated: list[str], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Board.from_rows(rows, blanks=blanks, rotated=rotated)


def test_ascii_picture() -> None:
    board = Board.from_rows(rows_with(8, "...1+1=10"), blanks=["E8"])
    lines = board.ascii().splitlines()
    assert lines[0] == "   A B C D E F G H I J K L M N O"
    assert lines[8] == " 8 T . . 1?+ 1 = 1 0 . . d . . T"
    assert lines[1] == " 1 T . . d . . . T . . . d . . T"
    assert board.ascii(premiums=False).splitlines()[1] == " 1" + " ." * 15
    assert str(board) == board.ascii()


def test_ascii_shows_rotated_and_blank_rotated_tiles() -> None:
    board = Board.from_rows(rows_with(8, ".......1=1"), blanks=["I8"], rotated=["I8"])
    assert board.ascii().splitlines()[8] == " 8 T . . d . . . 1?# 1 . d . . T"


def test_iteration_yields_occupied_squares_in_order() -> None:
    board = Board.from_rows(rows_with(8, "...1+1=10"))
    assert [square_name(sq) for sq, _ in board] == ["D8", "E8", "F8", "G8", "H8", "I8"]
    assert "".join(tile.face for _, tile in board) == "1+1=10"


def test_square_errors_survive_pickling() -> None:
    with pytest.raises(SquareError) as caught:
        parse_square("Q3")
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.kind, str(copy)) == ("column", str(caught.value))
