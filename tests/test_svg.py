"""Board pictures: the SVG holds the right tiles on the right squares, and says what it shows."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from binscrabble.board import Board, make_tile, parse_square, square_name
from binscrabble.game import Game
from binscrabble.move import Pass, parse_move
from binscrabble.position import load_position
from binscrabble.record import read_record_file
from binscrabble.rules import Rules
from binscrabble.svg import board, game_at_turn

REPOSITORY = Path(__file__).resolve().parent.parent
SAMPLE_RECORD = REPOSITORY / "docs" / "examples" / "sample-game.bsr"
SAMPLE_PICTURE = REPOSITORY / "docs" / "images" / "sample-game.svg"
SVG = "{http://www.w3.org/2000/svg}"


def tiles_of(picture: str) -> dict[str, dict[str, str]]:
    """Every tile group of a picture, by square name, with its data attributes."""
    root = ElementTree.fromstring(picture)
    found = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class", "").split()[:1] == ["tile"]:
            found[group.attrib["data-square"]] = dict(group.attrib)
    return found


def faces_of(picture: str) -> dict[str, str]:
    return {name: tile["data-face"] for name, tile in tiles_of(picture).items()}


def test_an_empty_board_shows_the_premiums_and_no_tile() -> None:
    picture = board(Board())
    root = ElementTree.fromstring(picture)
    premiums = {
        group.attrib["data-square"]: group.attrib["data-premium"]
        for group in root.iter(f"{SVG}g")
        if group.get("class") == "premium"
    }
    assert tiles_of(picture) == {}
    assert len(premiums) == 8 + 17 + 12 + 24
    assert premiums["A1"] == "TW" and premiums["H8"] == "DW" and premiums["F2"] == "TL"
    assert premiums["D8"] == "DL"


def test_a_first_play_shows_its_tiles_on_their_squares_highlighted() -> None:
    game = Game.from_setup(Rules(), Board(), ["1+1=10", None], seed=3)
    game.push(parse_move("8D 1+1=10", game.board))
    picture = board(game)
    tiles = tiles_of(picture)
    assert faces_of(picture) == {"D8": "1", "E8": "+", "F8": "1", "G8": "=", "H8": "1", "I8": "0"}
    assert all(tile["class"] == "tile last" for tile in tiles.values())
    assert "tile last" not in board(game, last_move=False)


def test_only_the_last_play_is_highlighted_also_after_a_pass() -> None:
    game = Game.from_setup(Rules(), Board(), ["1+1=10", "110"], seed=3)
    game.push(parse_move("8D 1+1=10", game.board))
    game.push(parse_move("G7 1(=)1", game.board))
    game.push(Pass())
    tiles = tiles_of(board(game))
    assert [name for name, tile in tiles.items() if tile["class"] == "tile last"] == ["G7", "G9"]
    assert tiles["G8"]["class"] == "tile"


def test_blanks_and_turned_equals_are_marked() -> None:
    rows = ["." * 15] * 7 + ["......1=1......"] + ["." * 15] * 7
    # Column G reads 1, then the turned = as 11, then =111: the equation 111=111.
    rows[8] = rows[9] = "......=........"
    rows[10] = rows[11] = rows[12] = "......1........"
    position = load_position(
        {
            "rules": {"rotated_equals": True},
            "board": rows,
            "blanks": ["I8"],
            "rotated": ["G9"],
            "rack": "10",
        }
    )
    picture = board(position)
    tiles = tiles_of(picture)
    assert tiles["I8"]["data-blank"] == "true" and tiles["G8"]["data-blank"] == "false"
    assert tiles["G9"]["data-rotated"] == "true" and tiles["H8"]["data-rotated"] == "false"
    assert "rotate(90" in picture
    assert picture.count("stroke-dasharray") == 1  # the blank's ring


def test_a_recorded_game_shows_its_board_at_every_turn() -> None:
    game = read_record_file(SAMPLE_RECORD)
    for turn in (0, 1, 7, len(game.history)):
        earlier = game_at_turn(game, turn)
        expected = {square_name(sq): tile.face for sq, tile in earlier.board}
        assert len(expected) == earlier.board.tile_count
        assert faces_of(board(earlier)) == expected


def test_scores_racks_and_caption_are_written_under_the_board() -> None:
    game = read_record_file(SAMPLE_RECORD)
    start = game_at_turn(game, 0)
    picture = board(start, scores=True, racks=True)
    root = ElementTree.fromstring(picture)
    racks = {
        g.attrib["data-seat"]: g.attrib["data-rack"]
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "rack"
    }
    assert racks == {"0": start.rack(0), "1": start.rack(1)}
    caption = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "caption")
    assert caption.text == "start of the game"
    assert texts_of(root, "player") == ["▶ Ada", "Bob"]
    assert texts_of(root, "score") == ["0", "0"]
    assert texts_of(root, "status") == [f"bag: {start.bag_size} tiles"]
    last = board(game, scores=True)
    assert "(game over: Ada wins)" in last


def texts_of(root: ElementTree.Element, kind: str) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == kind]


def test_the_end_shows_what_each_rack_added_or_took_away() -> None:
    game = read_record_file(SAMPLE_RECORD)
    outcome = game.outcome()
    assert outcome is not None and outcome.adjustments == (-1, -3)
    root = ElementTree.fromstring(board(game, scores=True))
    assert texts_of(root, "status") == ["end of the game, racks: Ada −1, Bob −3"]


def test_captions_show_the_tiles_faces_not_the_input_codes() -> None:
    game = Game.from_setup(Rules(), Board(), ["1+~1=?", "101&11"], seed=1)
    game.push(parse_move("8D 1+~1=?1", game.board))
    root = ElementTree.fromstring(board(game, scores=True))
    (caption,) = texts_of(root, "caption")
    assert caption.startswith("turn 1: Player 1 8D 1+NOT 1=[1] +")
    assert "~" not in caption and "?" not in caption


@pytest.mark.parametrize("size", [400, 500, 644, 1200])
def test_points_stay_readable_at_every_size_they_are_drawn(size: int) -> None:
    game = read_record_file(SAMPLE_RECORD)
    root = ElementTree.fromstring(board(game, scores=True, racks=True, size=size))
    scale = size / float(root.attrib["viewBox"].split()[2])
    points = [t for t in root.iter(f"{SVG}text") if t.get("class") == "points"]
    assert len(points) == game.board.tile_count + sum(map(len, game.racks))
    assert min(float(t.attrib["font-size"]) for t in points) * scale >= 7.5


def test_points_too_small_to_read_are_left_out_saying_so() -> None:
    game = read_record_file(SAMPLE_RECORD)
    root = ElementTree.fromstring(board(game, scores=True, size=300))
    assert [t for t in root.iter(f"{SVG}text") if t.get("class") == "points"] == []
    assert "points are left out" in "".join(root.find(f"{SVG}desc").itertext())  # type: ignore[union-attr]
    assert texts_of(root, "note") == ["(tile points not shown at this size)"]


def test_a_long_name_is_shortened_and_keeps_clear_of_the_score_and_rack() -> None:
    long = "Bartholomew Maximilian of the Very Long Name"
    game = Game((long, "Bob"), seed=1)
    root = ElementTree.fromstring(board(game, scores=True, racks=True))
    (first, _) = texts_of(root, "player")
    assert first.endswith("…") and long.startswith(first[2:-1])
    assert len(first) < len(long)


def test_size_and_coordinates() -> None:
    picture = board(Board(), size=300, coordinates=False)
    root = ElementTree.fromstring(picture)
    assert root.attrib["width"] == "300" and root.attrib["height"] == "300"
    assert not [t for t in root.iter(f"{SVG}text") if t.text == "A"]
    with_coordinates = ElementTree.fromstring(board(Board()))
    assert len([t for t in with_coordinates.iter(f"{SVG}text") if t.text == "A"]) == 2


def test_player_names_are_escaped() -> None:
    game = Game(("<Ann & co>", "Bob"), seed=1)
    picture = board(game, scores=True)
    ElementTree.fromstring(picture)
    assert "&lt;Ann &amp; co&gt;" in picture


def test_jupyter_shows_a_game_as_its_picture() -> None:
    game = read_record_file(SAMPLE_RECORD)
    assert game._repr_svg_() == board(game, scores=True)
    assert board(game)._repr_svg_() == board(game)


def test_game_at_turn_rejects_a_turn_outside_the_game() -> None:
    game = read_record_file(SAMPLE_RECORD)
    with pytest.raises(ValueError, match=r"turns 0 \(the start\) to 25"):
        game_at_turn(game, 26)
    with pytest.raises(ValueError, match="turn -1 is not in the game"):
        game_at_turn(game, -1)
    assert len(game.history) == 25  # the game itself is left as it was


def test_a_board_alone_can_be_drawn_with_a_caption() -> None:
    plain = Board()
    plain.place(parse_square("H8"), make_tile("1"))
    picture = board(plain, caption="one tile")
    assert faces_of(picture) == {"H8": "1"}
    assert ">one tile<" in picture


def test_the_readme_picture_is_what_render_draws_from_the_sample_record() -> None:
    # docs/images/sample-game.svg is made by:
    #   binscrabble render docs/examples/sample-game.bsr -o docs/images/sample-game.svg
    game = read_record_file(SAMPLE_RECORD)
    assert SAMPLE_PICTURE.read_text(encoding="utf-8") == board(game, scores=True)
