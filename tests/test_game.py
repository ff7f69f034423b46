"""The referee: scoring, legality reasons, push/pop, end of game, setup, views."""

from __future__ import annotations

import json
import pickle
import re

import pytest

from binscrabble.board import ACROSS, DOWN, Board, make_tile, parse_square
from binscrabble.expr import EquationError
from binscrabble.game import (
    ILLEGAL_MOVE_KINDS,
    Game,
    IllegalMoveError,
    SetupError,
)
from binscrabble.move import Exchange, Pass, Place, PlacedTile, parse_move, place_from
from binscrabble.rules import TILE_POINTS, Rules, tile_counts

EMPTY_ROW = "." * 15


def board_with(*lines: tuple[int, str], blanks: tuple[str, ...] = ()) -> Board:
    rows = [EMPTY_ROW] * 15
    for number, text in lines:
        rows[number - 1] = text.ljust(15, ".")
    return Board.from_rows(rows, blanks=blanks)


def board_down(column: str, start_row: int, text: str) -> Board:
    board = Board()
    for offset, face in enumerate(text):
        if face != ".":
            board.place(parse_square(f"{column}{start_row + offset}"), make_tile(face))
    return board


def game_on(board: Board, rack: str, rules: Rules | None = None, **kwargs: object) -> Game:
    """A two-player game on `board`, seat 0 to move holding `rack`; the bag is large."""
    return Game.from_setup(rules or Rules(), board, [rack, "000"], seed=1, **kwargs)  # type: ignore[arg-type]


def sq(name: str) -> int:
    return parse_square(name)


OPENED = board_with((8, "...1+1=10"))


# -- scoring -------------------------------------------------------------------------------


def test_worked_example_of_the_rules() -> None:
    game = game_on(Board(), "1+1=10xx")
    move = parse_move("8D 1+1=10", game.board)
    breakdown = game.score_breakdown(move)
    assert breakdown.total == 18
    assert game.score(move) == 18
    (run,) = breakdown.runs
    assert run.text == "1+1=10"
    assert run.value == 2
    assert run.bonus == 2
    assert run.word_multiplier == 2
    assert run.main
    assert run.direction == ACROSS
    assert [tile.score for tile in run.tiles] == [2, 1, 1, 1, 1, 1]
    assert [tile.letter_multiplier for tile in run.tiles] == [2, 1, 1, 1, 1, 1]
    assert breakdown.bingo == 0
    assert "(1×2 + 1 + 1 + 1 + 1 + 1 + bonus 2) × 2 = 18" in str(breakdown)


def test_triple_word_double_word_and_double_letter_with_bonus_before_multipliers() -> None:
    game = game_on(Board(), "11110=+x")
    move = parse_move("8A 1+1=10x1", game.board)
    # A8 TW, D8 DL (=), G8 x (2 points), H8 DW: (1+1+1+1×2+1+1+2+1 + bonus 2) × 3 × 2
    breakdown = game.score_breakdown(move)
    assert breakdown.runs[0].word_multiplier == 6
    assert breakdown.total == (10 + 2) * 6 == 72


def test_triple_letter_and_old_tile_scores_nothing() -> None:
    game = game_on(OPENED, "11x=")
    move = parse_move("F6 1x(1)=1", game.board)
    breakdown = game.score_breakdown(move)
    (run,) = breakdown.runs
    assert run.direction == DOWN
    # F6 TL 1×3, F7 x 2, (F8 old: nothing), F9 = 1, F10 TL 1×3, bonus 1
    assert [tile.square for tile in run.tiles] == [sq("F6"), sq("F7"), sq("F9"), sq("F10")]
    assert breakdown.total == 3 + 2 + 1 + 3 + 1 == 10


def test_premium_under_an_old_tile_does_not_count() -> None:
    game = game_on(OPENED, "1=")
    # H6 1, H7 =, H8 is the old 1 on the double word square: it doubles nothing now
    move = parse_move("H6 1=(1)", game.board)
    assert game.score(move) == 1 + 1 + 1 == 3


def test_cross_runs_are_scored() -> None:
    # A column 1=1 above H8 and 1=1 below it, with H7 empty between... joined by x on H7.
    board = board_down("H", 4, "1=1.1=1")
    game = game_on(board, "1x1=1")
    move = parse_move("7G 1x1=1", game.board)
    breakdown = game.score_breakdown(move)
    assert [run.text for run in breakdown.runs] == ["1x1=1", "1=1x1=1"]
    main, cross = breakdown.runs
    assert main.main and not cross.main
    assert cross.direction == DOWN
    # main: G7 DL 1×2, H7 x 2, I7 DL 1×2, J7 = 1, K7 1, bonus 1
    assert main.score == 2 + 2 + 2 + 1 + 1 + 1 == 9
    # cross: only the new x scores (2) plus the bonus of 1=1x1=1 (value 1)
    assert cross.score == 2 + 1 == 3
    assert [tile.square for tile in cross.tiles] == [sq("H7")]
    assert breakdown.total == 12


def test_extending_an_equation_on_both_sides() -> None:
    board = board_with((8, "......1=1"))
    game = game_on(board, "11")
    move = place_from([(sq("F8"), "1"), (sq("J8"), "1")])
    assert move.notation(board) == "8F 1(1=1)1"
    breakdown = game.score_breakdown(move)
    assert breakdown.runs[0].text == "11=11"
    assert breakdown.total == 1 + 1 + 2 == 4


def test_bingo_bonus_for_a_full_rack() -> None:
    game = game_on(Board(), "101-1=100")
    move = parse_move("8D 101-1=100", game.board)
    breakdown = game.score_breakdown(move)
    # D8 DL 1×2, E8..K8 seven 1-point tiles, L8 DL 0×2, bonus 4, ×2 for H8, then +50
    assert breakdown.bingo == 50
    assert breakdown.total == (2 + 7 + 2 + 4) * 2 + 50 == 80
    assert "bingo +50" in str(breakdown)


def test_bingo_bonus_follows_the_rules() -> None:
    game = game_on(Board(), "101-1=100", Rules(bingo_bonus=20))
    assert game.score(parse_move("8D 101-1=100", game.board)) == 30 + 20


def test_blanks_score_nothing() -> None:
    game = game_on(Board(), "1+1=1??")
    assert game.score(parse_move("8D 1+1=?1?0", game.board)) == (2 + 1 + 1 + 1 + 0 + 0 + 2) * 2


def test_rotated_equals_reads_eleven() -> None:
    rules = Rules(rotated_equals=True)
    game = game_on(Board(), "1==1=", rules)
    move = parse_move("8D 1#=1#", game.board)
    breakdown = game.score_breakdown(move)
    assert breakdown.runs[0].text == "111=111"
    assert breakdown.runs[0].value == 7
    # D8 DL 1×2, four 1-point tiles, bonus 4, ×2
    assert breakdown.total == (2 + 4 + 4) * 2


def test_exchange_and_pass_score_zero() -> None:
    game = game_on(Board(), "111")
    assert game.score_breakdown(Pass()).total == 0
    assert game.score_breakdown(Exchange("1")).runs == ()


def test_scoring_an_illegal_move_raises_the_reason() -> None:
    game = game_on(Board(), "1+1=11")
    with pytest.raises(IllegalMoveError) as caught:
        game.score_breakdown(parse_move("8D 1+1=11", game.board))
    assert caught.value.kind == "not_equation"
    with pytest.raises(IllegalMoveError, match="first play must cover"):
        game.score(parse_move("8A 1=1", game.board))
    assert game.board.is_empty()  # judging put nothing on the board


def test_breakdown_to_dict_is_json() -> None:
    game = game_on(Board(), "1+1=10")
    data = game.score_breakdown(parse_move("8D 1+1=10", game.board)).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["total"] == 18
    assert data["runs"][0]["tiles"][0] == {
        "square": "D8",
        "face": "1",
        "blank": False,
        "points": 1,
        "letter_multiplier": 2,
        "score": 2,
    }


def test_parallel_numbers_cross_run_scores_nothing() -> None:
    rules = Rules(parallel_numbers=True)
    board = board_with((7, ".......1"), (8, "...1=1"))
    game = game_on(board, "x1", rules)
    move = place_from([(sq("G8"), "x"), (sq("H8"), "1")])
    breakdown = game.score_breakdown(move)
    # H7 1 over the new H8 1 is the number 11: allowed, and it scores nothing
    assert [run.text for run in breakdown.runs] == ["1=1x1"]
    assert breakdown.total == (2 + 1 + 1) * 2
    without = game_on(board, "x1")
    problem = without.illegal_reason(move)
    assert problem is not None and problem.kind == "short_run"


def test_parallel_numbers_other_runs_must_still_be_equations() -> None:
    game = game_on(OPENED, "1=1", Rules(parallel_numbers=True))
    # H8 1 over H9 1 is the number 11; I8 0 over I9 = is no number and too short
    problem = game.illegal_reason(parse_move("9H 1=1", game.board))
    assert problem is not None and problem.kind == "short_run"
    assert "I8-I9 0=" in str(problem)


def test_parallel_numbers_do_not_count_as_touching() -> None:
    rules = Rules(parallel_numbers=True)
    game = game_on(OPENED, "11=1", rules)
    # J9 K9 L9 is 1=1 below nothing; H9 alone would join only digits
    move = place_from([(sq("H9"), "1")])  # H8 1 over H9 1: the number 11, nothing else
    reason = game.illegal_reason(move)
    assert reason is not None and reason.kind == "not_touching"
    assert "digits only" in str(reason)
    without = game_on(OPENED, "11=1")
    reason = without.illegal_reason(move)
    assert reason is not None and reason.kind == "short_run"


# -- legality: one test per reason ---------------------------------------------------------


def reason_of(game: Game, move: Place | Exchange | Pass, seat: int | None = None) -> str:
    problem = game.illegal_reason(move, seat)
    assert problem is not None
    assert not game.is_legal(move, seat)
    before = game.state()
    with pytest.raises(IllegalMoveError) as caught:
        game.push(move, seat)
    assert game.state() == before  # an illegal move changes nothing
    assert caught.value.kind == problem.kind
    assert problem.kind in ILLEGAL_MOVE_KINDS
    return problem.kind


def test_game_over() -> None:
    game = game_on(Board(), "1=1")
    for _ in range(6):
        game.push(Pass())
    assert reason_of(game, Pass()) == "game_over"
    assert reason_of(game, parse_move("8G 1=1", game.board)) == "game_over"


def best_move(game: Game) -> Place:
    """The best play of the seat to move (these seeds deal one)."""
    move = next(iter(game.legal_moves))
    assert isinstance(move, Place)
    return move


def test_abort_too_late() -> None:
    game = Game(("Ann", "Bob"), seed=4)
    game.push(Pass())
    game.abort(1)  # Bob has not moved yet
    assert game.end_view() == {"reason": "aborted", "seat": 1, "winners": []}
    later = Game(("Ann", "Bob"), seed=4)
    later.push(Pass())
    later.push(Pass())
    with pytest.raises(IllegalMoveError) as refused:
        later.abort(0)
    assert refused.value.kind == "abort_too_late" and not later.is_over()
    with pytest.raises(IllegalMoveError) as over:
        game.abort(0)
    assert over.value.kind == "game_over"


def test_resigning_with_two_seats_ends_the_game_and_the_other_wins() -> None:
    game = Game(("Ann", "Bob"), seed=4)
    game.push(best_move(game))  # Ann leads
    game.resign(1)
    assert game.scores[0] > 0 and game.is_over()
    assert game.end_view() == {"reason": "resigned", "seat": 1, "winners": [0]}
    ahead = Game(("Ann", "Bob"), seed=4)
    ahead.push(best_move(ahead))
    ahead.resign(0, reason="time")  # the leader runs out of time: the other wins all the same
    assert ahead.end_view() == {"reason": "time", "seat": 0, "winners": [1]}
    outcome = ahead.outcome()
    assert outcome is not None and outcome.adjustments == (0, 0)
    assert str(outcome).startswith("Ann ran out of time: Bob wins")
    with pytest.raises(IllegalMoveError):
        ahead.resign(1)


def test_a_seat_of_three_that_resigns_places_last_and_its_turns_are_skipped() -> None:
    game = Game(("Ann", "Bob", "Cy"), seed=4)
    game.push(best_move(game))
    game.resign(0)  # the leader leaves
    assert not game.is_over() and game.to_move == 1 and game.left == (0,)
    for _ in range(6):
        mover = game.to_move
        game.push(Pass())
        assert mover != 0
    # Six scoreless turns by Bob and Cy end the game; Ann, who led, places last.
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "scoreless"
    assert outcome.scores[0] > max(outcome.scores[1:]) and 0 not in outcome.winners
    assert outcome.adjustments[0] == 0 and outcome.left == (0,)
    end = game.end_view()
    assert end is not None and end["reason"] == "scoreless turns" and end["seat"] is None
    assert end["winners"] and set(end["winners"]) <= {1, 2}


def test_a_game_of_four_ends_when_one_seat_is_left() -> None:
    game = Game(("Ann", "Bob", "Cy", "Di"), seed=4)
    game.resign(2)
    game.resign(0)  # Ann, to move, leaves: Bob moves
    assert game.to_move == 1 and not game.is_over()
    copy = game.copy()
    assert copy == game
    game.push(Pass())
    assert game.to_move == 3
    game.resign(1)
    assert game.end_view() == {"reason": "resigned", "seat": 1, "winners": [3]}
    assert copy.left == (2, 0) and not copy.is_over()


def test_overtime_penalties_come_off_the_final_scores() -> None:
    game = Game(("Ann", "Bob"), seed=4)
    game.push(best_move(game))
    lead = game.scores[0]
    with pytest.raises(ValueError, match="once"):
        game.settle_overtime([0, 0])  # not over yet
    for _ in range(6):
        game.push(Pass())
    final = game.scores[:]
    game.settle_overtime([lead + 10, 0])
    outcome = game.outcome()
    assert outcome is not None and outcome.penalties == (lead + 10, 0)
    assert outcome.scores == (final[0] - lead - 10, final[1]) and outcome.winners == (1,)


def test_not_your_turn() -> None:
    game = game_on(Board(), "1=1")
    assert game.is_legal(Pass(), seat=0)
    assert reason_of(game, Pass(), seat=1) == "not_your_turn"
    problem = game.illegal_reason(Pass(), seat=1)
    assert "Player 1's turn, not Player 2's" in str(problem)
    assert "seat 7" in str(game.illegal_reason(Pass(), seat=7))


def test_empty_play() -> None:
    assert reason_of(game_on(Board(), "1=1"), Place(())) == "empty_play"


def test_off_board() -> None:
    game = game_on(Board(), "1=1")
    assert reason_of(game, Place((PlacedTile(225, "1"),))) == "off_board"
    assert reason_of(game, Place((PlacedTile(-1, "1"),))) == "off_board"


def test_duplicate_square() -> None:
    game = game_on(Board(), "1=1")
    move = Place((PlacedTile(112, "1"), PlacedTile(112, "=")))
    assert reason_of(game, move) == "duplicate_square"
    assert game.illegal_reason(move).squares == (112,)  # type: ignore[union-attr]


def test_unknown_face() -> None:
    game = game_on(Board(), "1=10?")
    assert reason_of(game, place_from([(111, "1"), (112, "="), (113, "y")])) == "unknown_face"
    # a blank may be any face in the game, but there are no XOR tiles by default
    move = parse_move("8G 1?^0=1", game.board)
    assert reason_of(game, move) == "unknown_face"
    with_xor = game_on(Board(), "1=10?", Rules(xor_tiles=2))
    assert with_xor.is_legal(parse_move("8G 1?^0=1", with_xor.board))


def test_rotated_not_allowed() -> None:
    game = game_on(Board(), "1==1=")
    assert reason_of(game, parse_move("8D 1#=1#", game.board)) == "rotated_not_allowed"


def test_rotated_face() -> None:
    game = game_on(Board(), "1==1=", Rules(rotated_equals=True))
    move = Place((PlacedTile(112, "1", rotated=True), PlacedTile(113, "="), PlacedTile(114, "1")))
    assert reason_of(game, move) == "rotated_face"


def test_square_taken() -> None:
    game = game_on(OPENED, "1=1")
    problem = game.illegal_reason(place_from([(sq("H8"), "1")]))
    assert reason_of(game, place_from([(sq("H8"), "1")])) == "square_taken"
    assert "H8 already holds a tile" in str(problem)


def test_not_on_rack() -> None:
    game = game_on(Board(), "1=0")
    assert reason_of(game, parse_move("8G 1=1", game.board)) == "not_on_rack"
    message = str(game.illegal_reason(parse_move("8G 1=1", game.board)))
    # The rack is listed in the order the player sees it (codes order), not drawing order.
    assert message == (
        "the rack (0 1 =) does not hold these tiles: 1: 2 tiles needed, 1 on the rack"
    )
    # blanks are counted: one blank cannot stand for two tiles
    game = game_on(Board(), "1=?")
    assert game.is_legal(parse_move("8G 1=?1", game.board))
    assert reason_of(game, parse_move("8G ?1=?1", game.board)) == "not_on_rack"
    assert "blank: 2 tiles needed, 1 on the rack" in str(
        game.illegal_reason(parse_move("8G ?1=?1", game.board))
    )


def test_not_on_rack_says_how_to_use_a_spare_blank() -> None:
    game = game_on(Board(), "=1?0")
    message = str(game.illegal_reason(parse_move("8G 1=1", game.board)))
    assert message == (
        "the rack (0 1 = blank) does not hold these tiles: 1: 2 tiles needed, 1 on the rack; "
        "a blank on the rack can stand in: write ?1 for a blank played as 1"
    )
    # No hint when the blanks are already used, or too few, or for an exchange.
    assert "stand in" not in str(game.illegal_reason(parse_move("8G ?1=11", game.board)))
    assert "stand in" not in str(game.illegal_reason(parse_move("8F 1+1=1", game.board)))
    assert "stand in" not in str(game.illegal_reason(Exchange("11")))


def test_not_in_line() -> None:
    game = game_on(Board(), "1=1")
    move = place_from([(sq("H8"), "1"), (sq("I8"), "="), (sq("I9"), "1")])
    assert reason_of(game, move) == "not_in_line"
    assert str(game.illegal_reason(move)) == (
        "the tiles of a play must be in one row or one column, not on H8, I8, I9"
    )


def test_gap() -> None:
    game = game_on(Board(), "1=1")
    move = place_from([(sq("G8"), "1"), (sq("H8"), "="), (sq("J8"), "1")])
    assert reason_of(game, move) == "gap"
    assert game.illegal_reason(move).squares == (sq("I8"),)  # type: ignore[union-attr]


def test_first_play_center() -> None:
    game = game_on(Board(), "1=1")
    assert reason_of(game, parse_move("8A 1=1", game.board)) == "first_play_center"
    problem = game.illegal_reason(parse_move("A6 1=1", game.board))
    assert str(problem) == "the first play must cover the centre square H8; this one is on A6-A8"
    assert problem is not None and problem.squares == (sq("A6"), sq("A7"), sq("A8"))


def test_first_play_short() -> None:
    game = game_on(Board(), "11")
    assert reason_of(game, parse_move("8G 11", game.board)) == "first_play_short"


def test_not_touching() -> None:
    game = game_on(OPENED, "1=1")
    assert reason_of(game, parse_move("2A 1=1", game.board)) == "not_touching"
    assert str(game.illegal_reason(parse_move("2A 1=1", game.board))) == (
        "the play on A2-C2 must touch a tile already on the board"
    )


def test_two_equals() -> None:
    game = game_on(Board(), "1=1=1")
    assert reason_of(game, parse_move("8G 1=1=1", game.board)) == "two_equals"
    # a blank designated = counts too
    game = game_on(Board(), "1=1?1")
    assert reason_of(game, parse_move("8G 1=1?=1", game.board)) == "two_equals"
    # a rotated = does not count
    game = game_on(Board(), "1==1=", Rules(rotated_equals=True))
    assert game.is_legal(parse_move("8D 1#=1#", game.board))


def test_short_run() -> None:
    game = game_on(OPENED, "1=1")
    move = parse_move("9G 1=1", game.board)  # G8 = over G9 1 makes the two-tile run =1
    assert reason_of(game, move) == "short_run"
    assert "G8-G9 =1 has only two tiles" in str(game.illegal_reason(move))


def test_not_number() -> None:
    board = board_with((7, ".......0"), (8, "...1=1"))
    game = game_on(board, "x1", Rules(parallel_numbers=True))
    move = place_from([(sq("G8"), "x"), (sq("H8"), "1")])  # H7 0 over H8 1: 01
    assert reason_of(game, move) == "not_number"
    problem = game.illegal_reason(move)
    assert problem is not None and isinstance(problem.cause, EquationError)
    assert "H7-H8 01 is not a number" in str(problem)


def test_not_equation() -> None:
    game = game_on(Board(), "1+1=11")
    move = parse_move("8D 1+1=11", game.board)
    assert reason_of(game, move) == "not_equation"
    problem = game.illegal_reason(move)
    assert problem is not None
    assert isinstance(problem.cause, EquationError)
    assert problem.cause.kind == "sides_differ"
    assert str(problem.cause) in str(problem)
    assert "D8-I8 1+1=11" in str(problem)
    assert problem.squares == tuple(range(sq("D8"), sq("I8") + 1))


def test_not_equation_in_a_cross_run() -> None:
    game = game_on(board_down("H", 4, "1=1.1=1"), "1+1=1")
    move = parse_move("7G 1+1=10", game.board)
    problem = game.illegal_reason(move)
    assert problem is not None and problem.kind == "not_on_rack"
    game = game_on(board_down("H", 4, "1=1.1=1"), "1+1=10")
    move = parse_move("7G 1+1=10", game.board)
    assert reason_of(game, move) == "not_equation"
    assert "H4-H10 1=1+1=1" in str(game.illegal_reason(move))


def test_empty_exchange() -> None:
    assert reason_of(game_on(Board(), "1=1"), Exchange("")) == "empty_exchange"


def test_bag_too_small() -> None:
    game = Game.from_setup(Rules(), Board(), ["1=1", "0"], bag=list("11111111"))
    assert reason_of(game, Exchange("1")) == "bag_too_small"
    assert str(game.illegal_reason(Exchange("1"))) == (
        "exchanges need at least 9 tiles in the bag; it holds 8: play or pass instead"
    )
    game = Game.from_setup(Rules(), Board(), ["1=1", "0"], bag=list("111111111"))
    assert game.is_legal(Exchange("1"))
    game = Game.from_setup(Rules(rack_size=7), Board(), ["1=1", "0"], bag=list("1111111"))
    assert game.is_legal(Exchange("1"))


def test_exchange_not_on_rack() -> None:
    assert reason_of(game_on(Board(), "1=1"), Exchange("11?")) == "not_on_rack"


def test_not_a_move() -> None:
    game = game_on(Board(), "1=1")
    assert reason_of(game, "8G 1=1") == "not_a_move"  # type: ignore[arg-type]


def test_errors_survive_pickling() -> None:
    game = game_on(Board(), "1+1=11")
    problem = game.illegal_reason(parse_move("8D 1+1=11", game.board))
    assert problem is not None
    copy = pickle.loads(pickle.dumps(problem))
    assert (copy.kind, str(copy), copy.squares) == (problem.kind, str(problem), problem.squares)
    assert copy.cause is not None and copy.cause.kind == "sides_differ"


def test_every_reason_kind_has_its_test() -> None:
    names = {name.removeprefix("test_") for name in globals() if name.startswith("test_")}
    assert set(ILLEGAL_MOVE_KINDS) <= names


# -- push, pop, turns ----------------------------------------------------------------------


def test_push_draws_and_pop_restores() -> None:
    game = Game(("Ada", "Bob"), seed=5)
    original = game.copy()
    game.push(Exchange(game.rack()[:3]))
    assert game.to_move == 1
    assert game != original
    game.pop()
    assert game == original
    assert game.bag == original.bag


def test_pop_without_moves() -> None:
    with pytest.raises(IndexError, match="no move"):
        Game(seed=1).pop()


def test_same_seed_same_game() -> None:
    one, two = Game(seed=42), Game(seed=42)
    assert one.racks == two.racks and one.bag == two.bag
    one.push(Exchange(one.rack()[:2]))
    two.push(Exchange(two.rack()[:2]))
    assert one.state() == two.state()
    assert Game(seed=43).bag != one.bag


def test_exchange_after_pop_draws_the_same_again() -> None:
    game = Game(seed=9)
    move = Exchange(game.rack()[:4])
    game.push(move)
    after = game.state()
    game.pop()
    game.push(move)
    assert game.state() == after


def test_unseeded_games_differ() -> None:
    assert len({Game().bag for _ in range(3)}) == 3


def test_history_and_notations() -> None:
    game = Game.from_setup(Rules(), Board(), ["1+1=10", "1=1"], bag=list("0" * 20))
    game.push(parse_move("8D 1+1=10", game.board))
    game.push(parse_move("H6 1=(1)", game.board))
    game.push(Pass())
    assert [turn.score for turn in game.history] == [18, 3, 0]
    assert [turn.seat for turn in game.history] == [0, 1, 0]
    assert game.history[0].rack == "1+1=10"
    assert game.history[1].scores == (18, 3)
    assert game.notations() == ["8D 1+1=10", "H6 1=(1)", "pass"]


def test_unchecked_push_gives_the_same_result() -> None:
    checked = Game.from_setup(Rules(), Board(), ["1+1=10", "1=1"], bag=list("0" * 20))
    unchecked = checked.copy()
    move = parse_move("8D 1+1=10", checked.board)
    checked.push(move)
    unchecked.push(move, checked=False)
    assert checked == unchecked


def test_games_pickle_seeded_or_not() -> None:
    for game in (Game(seed=2), Game()):
        game.push(Exchange(game.rack()[:2]))
        copy = pickle.loads(pickle.dumps(game))
        assert copy == game
        copy.pop()
        copy.push(Pass())
        assert copy.history[-1].move == Pass()


def test_copy_is_independent_and_keeps_undo() -> None:
    game = Game.from_setup(Rules(), Board(), ["1+1=10", "1=1"], bag=list("0" * 20))
    game.push(parse_move("8D 1+1=10", game.board))
    copy = game.copy()
    copy.pop()
    assert game.board.tile_count == 6
    assert copy.board.is_empty()
    assert copy.rack(0) == "1+1=10"
    assert game.rack(0) == "000000"


# -- end of the game -----------------------------------------------------------------------


def test_six_scoreless_turns_end_the_game() -> None:
    game = Game.from_setup(Rules(), Board(), ["1/x", "11"], bag=list("0" * 20))
    for turn in range(6):
        assert not game.is_over()
        assert game.outcome() is None
        game.push(Pass() if turn % 2 else Exchange(game.rack()[:1]))
    assert game.is_over()
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.reason == "scoreless"
    left = tuple(-sum(TILE_POINTS[code] for code in rack) for rack in game.racks)
    assert outcome.adjustments == left
    assert outcome.scores == tuple(game.scores) == left


def test_scoreless_end_subtracts_each_rack() -> None:
    game = Game.from_setup(Rules(), Board(), ["1/x", "11"], bag=[])
    for _ in range(6):
        game.push(Pass())
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.adjustments == (-7, -2)
    assert outcome.scores == (-7, -2)
    assert outcome.winners == (1,)
    assert outcome.winner == 1
    assert not outcome.draw
    assert str(outcome) == "Player 2 wins (Player 1 -7, Player 2 -2)"


def test_a_zero_point_play_is_scoreless() -> None:
    game = Game.from_setup(Rules(), Board(), ["0=0???", "1"], bag=list("1" * 20))
    move = parse_move("8G ?0?=?0", game.board)
    assert game.score(move) == 0
    game.push(move)
    assert game.scoreless_turns == 1
    for _ in range(4):
        game.push(Pass())
    assert not game.is_over()
    game.push(Pass())
    assert game.is_over()


def test_scoring_play_resets_the_scoreless_count() -> None:
    game = Game.from_setup(Rules(), Board(), ["1+1=10", "1"], bag=list("1" * 20))
    game.push(Pass())
    game.push(Pass())
    assert game.scoreless_turns == 2
    game.push(parse_move("8D 1+1=10", game.board))
    assert game.scoreless_turns == 0


def test_going_out_with_the_bag_empty() -> None:
    game = Game.from_setup(Rules(), Board(), ["1+1=10", "x/1"], scores=[10, 20], bag=[])
    game.push(parse_move("8D 1+1=10", game.board))
    assert game.is_over()
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.reason == "out"
    # x 2 + / 4 + 1 = 7 moves from the other rack to the player who went out
    assert outcome.adjustments == (7, -7)
    assert outcome.scores == (10 + 18 + 7, 20 - 7)
    assert outcome.winners == (0,)
    assert game.history[-1].scores == (28, 20)  # before the adjustments
    assert reason_of(game, Pass()) == "game_over"
    game.pop()
    assert not game.is_over()
    assert game.scores == [10, 20]
    assert game.rack(0) == "1+1=10"


def test_draw() -> None:
    game = Game.from_setup(Rules(), Board(), ["1", "0"], bag=[])
    for _ in range(6):
        game.push(Pass())
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.draw and outcome.winner is None
    assert outcome.winners == (0, 1)
    assert str(outcome).startswith("draw between Player 1 and Player 2")


def test_no_going_out_while_the_bag_has_tiles() -> None:
    game = Game.from_setup(Rules(), Board(), ["1+1=10", "1"], bag=["1"])
    game.push(parse_move("8D 1+1=10", game.board))
    assert not game.is_over()
    assert game.rack(0) == "1"


# -- setting up ----------------------------------------------------------------------------


def test_new_game_deals_full_racks_from_the_full_set() -> None:
    game = Game(("A", "B", "C", "D"), seed=3)
    assert [len(rack) for rack in game.racks] == [9, 9, 9, 9]
    assert game.bag_size == 100 - 36
    assert sorted("".join(game.racks) + "".join(game.bag)) == sorted(
        code for code, count in tile_counts(Rules()).items() for _ in range(count)
    )


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (("Solo",), "2 to 4 players, not 1"),
        (("A", "B", "C", "D", "E"), "2 to 4 players, not 5"),
        (("A", "A"), "different names"),
        (("A", " "), "non-empty"),
    ],
)
def test_players_are_checked(players: tuple[str, ...], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        Game(players)


def test_from_setup_pool_is_the_set_minus_board_and_racks() -> None:
    board = board_with((8, "...1+1=10"), blanks=("E8",))
    game = Game.from_setup(Rules(), board, ["111", "000"], seed=1)
    counts = tile_counts(Rules())
    bag = list(game.bag)
    assert bag.count("1") == counts["1"] - 3 - 3
    assert bag.count("0") == counts["0"] - 1 - 3
    assert bag.count("?") == counts["?"] - 1
    assert bag.count("+") == counts["+"]  # the + on E8 is a blank
    assert len(bag) == 100 - 6 - 6


def test_from_setup_unknown_racks_are_dealt() -> None:
    game = Game.from_setup(Rules(), Board(), ["1=1", None], seed=4)
    assert game.rack(0) == "1=1"
    assert len(game.rack(1)) == 9
    assert game.bag_size == 100 - 3 - 9


def test_from_setup_unseen() -> None:
    game = Game.from_setup(Rules(), Board(), ["1=1", None], unseen="0" * 12, seed=4)
    assert game.rack(1) == "0" * 9
    assert game.bag == ("0",) * 3
    assert game.unseen(0) == "0" * 12
    assert game.unseen(1) == "0" * 3 + "11="


def test_from_setup_names_scores_and_turn() -> None:
    game = Game.from_setup(
        Rules(),
        Board(),
        ["1", "0", "="],
        players=["Ann", "Ben", "Cy"],
        scores=[1, 2, 3],
        to_move=2,
        scoreless_turns=4,
    )
    assert game.players == ("Ann", "Ben", "Cy")
    assert game.scores == [1, 2, 3]
    assert game.to_move == 2
    game.push(Pass())
    game.push(Pass())
    assert game.is_over()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"racks": ["1", "0"], "players": ["A"]}, "2 to 4 players"),
        ({"racks": ["1", "0"], "players": ["A", "B", "C"]}, "3 players but 2 racks"),
        ({"racks": ["1", "0"], "to_move": 2}, "seat to move 2"),
        ({"racks": ["1", "0"], "scores": [1]}, "2 players but 1 score"),
        ({"racks": ["1", "0"], "scoreless_turns": -1}, "negative"),
        ({"racks": ["1" * 10, "0"]}, "holds 10 tiles"),
        ({"racks": ["2", "0"]}, "not a tile code"),
        ({"racks": ["/" * 3, "0"]}, "too many '/' tiles; the set holds 2"),
        ({"racks": ["1", None], "bag": ["1"]}, "every rack must be given"),
        ({"racks": ["1", "0"], "bag": ["^"]}, "too many '^' tiles; the set holds 0"),
        ({"racks": ["1", "0"], "unseen": "???" + "?"}, "too many '?' tiles"),
    ],
)
def test_from_setup_errors(kwargs: dict[str, object], message: str) -> None:
    racks = kwargs.pop("racks")
    with pytest.raises(SetupError, match=re.escape(message)):
        Game.from_setup(Rules(), Board(), racks, **kwargs)  # type: ignore[arg-type]


def test_from_setup_board_over_uses_tiles() -> None:
    board = board_with((1, "///"))
    with pytest.raises(SetupError, match="the board: too many '/'"):
        Game.from_setup(Rules(), board, ["1", "0"])


# -- views ---------------------------------------------------------------------------------


def test_view_for_a_seat_hides_other_racks_and_the_bag_order() -> None:
    game = Game(("Ada", "Bob"), seed=11)
    hidden = game.rack(0)[:2]
    game.push(Exchange(hidden))
    view = game.view_for(1)
    text = json.dumps(view)
    assert json.loads(text) == view
    assert view["seat"] == 1 and view["rack"] == game.rack(1)
    assert [player["tiles"] for player in view["players"]] == [9, 9]
    assert view["bag"] == game.bag_size  # how many, never in which order
    assert "".join(game.bag) not in text and "racks" not in view
    assert view["moves"][0]["notation"] == "exchange 2"
    assert view["moves"][0]["squares"] == []
    assert game.view_for(0)["moves"][0]["notation"] == Exchange(hidden).notation()
    assert sorted(view["unseen"]) == sorted("".join(game.bag) + game.rack(0))
    spectator = game.view_for(None)
    assert "rack" not in spectator and "seat" not in spectator
    assert sorted(spectator["unseen"]) == sorted("".join(game.bag) + game.rack(0) + game.rack(1))
    assert view["result"] is None and not view["over"] and view["to_move"] == 1


def test_view_after_the_end_shows_the_result() -> None:
    game = Game.from_setup(Rules(), Board(), ["1", "0"], bag=[], players=["A", "B"])
    for _ in range(6):
        game.push(Pass())
    view = game.view_for(0)
    assert view["over"] and view["to_move"] is None
    outcome = game.outcome()
    assert outcome is not None and outcome.draw
    assert view["result"] == {
        "reason": "scoreless",
        "adjustments": list(outcome.adjustments),
        "final": list(outcome.scores),
        "winners": [0, 1],
        "penalties": [0, 0],
    }
    assert view["end"] == {"reason": "scoreless turns", "seat": None, "winners": [0, 1]}
    assert view["moves"][0] == {
        "seat": 0,
        "notation": "pass",
        "display": "pass",
        "score": 0,
        "squares": [],
        "running": [0, 0],
    }
    assert view["last_move"] == {"seat": 1, "squares": []}


def test_view_board_and_places() -> None:
    game = Game.from_setup(Rules(), Board(), ["1+?=10", "0"], bag=list("1" * 20))
    game.push(parse_move("8D 1+?1=10", game.board))
    view = game.view_for(1)
    assert view["board"][7] == "...1+1=10......"
    assert view["blanks"] == ["F8"]
    assert view["moves"][0]["notation"] == "8D 1+?1=10"
    assert view["moves"][0]["squares"] == ["D8", "E8", "F8", "G8", "H8", "I8"]
    assert view["last_move"] == {"seat": 0, "squares": view["moves"][0]["squares"]}
    assert [player["score"] for player in view["players"]] == [game.scores[0], 0]
    assert view["moves"][0]["running"] == [game.scores[0], 0]
    assert view["preset"] == "standard" and view["rules"] == Rules().to_mapping()


def test_view_with_the_stored_notations_is_the_view_worked_out() -> None:
    game = Game(("Ada", "Bob"), seed=5)
    game.push(Exchange(game.rack(0)[:3]))
    game.push(Pass())
    assert game.view_for(0, game.notations()) == game.view_for(0)
    assert game.view_for(None, game.notations()) == game.view_for(None)
