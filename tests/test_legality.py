"""The rules of a play as named functions (binscrabble.legality): each rule finds its own
fault, they are applied in the order of PLAY_RULES, the referee gives what they give, and a
play may be judged without a rack (every rule but the rack's still applies)."""

from __future__ import annotations

import inspect

import pytest

from binscrabble import legality
from binscrabble.board import Board
from binscrabble.game import Game, IllegalMoveError
from binscrabble.legality import PLAY_RULES, Play, play_problem
from binscrabble.move import Place, PlacedTile, parse_move
from binscrabble.rules import Rules

OPENED = Board.from_rows(["." * 15] * 7 + ["...1+1=10......"] + ["." * 15] * 7)


def tiles_of(notation: str, board: Board) -> tuple[PlacedTile, ...]:
    move = parse_move(notation, board)
    assert isinstance(move, Place)
    return move.tiles


def judged(notation: str, board: Board, rack: str | None, rules: Rules | None = None) -> str:
    play = Play(tiles_of(notation, board), board, rules or Rules(), rack=rack)
    problem = play_problem(play)
    return "legal" if problem is None else problem.kind


@pytest.mark.parametrize(
    ("notation", "board", "rule", "kind"),
    [
        ("8A 1+1=10", Board(), "first_play_on_the_star", "first_play_center"),
        ("8G 1=", Board(), "first_play_on_the_star", "first_play_short"),
        ("2A 1=1", OPENED, "touching", "not_touching"),
        ("8G 1=1=1", Board(), "one_new_equals", "two_equals"),
        ("D9 =1", OPENED, "every_run_true", "legal"),
        ("D9 =0", OPENED, "every_run_true", "not_equation"),
    ],
)
def test_each_rule_finds_its_own_fault(notation: str, board: Board, rule: str, kind: str) -> None:
    play = Play(tiles_of(notation, board), board, Rules(), rack=None)
    problem = getattr(legality, rule)(play)
    assert (problem.kind if problem is not None else "legal") == kind


def test_the_referee_gives_the_first_rule_broken() -> None:
    game = Game.from_setup(Rules(), OPENED.copy(), ["1==1=0", "000"], seed=1)
    for notation in ("2A 1=1", "2A 1=1=1", "D9 =0", "H9 1=1"):
        move = parse_move(notation, game.board)
        play = Play(tiles_of(notation, game.board), game.board, Rules(), rack=game.rack())
        expected = play_problem(play)
        problem = game.illegal_reason(move)
        assert isinstance(problem, IllegalMoveError) and isinstance(expected, IllegalMoveError)
        assert (problem.kind, str(problem), problem.squares) == (
            expected.kind,
            str(expected),
            expected.squares,
        )


def test_the_order_of_the_rules() -> None:
    # Two new `=` that touch nothing: the `=` rule comes first (it needs only the tiles).
    assert judged("2A 1=1=1", OPENED, None) == "two_equals"
    # Off the rack and off the star: the rack is judged before the geometry.
    assert judged("8A 1+1=10", Board(), "000") == "not_on_rack"
    assert [rule.__name__ for rule in PLAY_RULES][:3] == [
        "tiles_to_play",
        "on_the_board",
        "one_tile_a_square",
    ]


def test_without_a_rack_every_other_rule_applies() -> None:
    # The tiles are not on this rack: without a rack, the play is judged on the rest.
    assert judged("8D 1+1=10", Board(), "000") == "not_on_rack"
    assert judged("8D 1+1=10", Board(), None) == "legal"
    assert judged("8A 1+1=10", Board(), None) == "first_play_center"
    without_rack_rule = [rule for rule in PLAY_RULES if rule is not legality.tiles_on_the_rack]
    play = Play(tiles_of("8D 1+1=10", Board()), Board(), Rules(), rack="000")
    assert play_problem(play, without_rack_rule) is None


def test_judging_leaves_the_board_as_it_was() -> None:
    board = OPENED.copy()
    before = board.rows()
    for notation in ("D9 =1", "D9 =0", "2A 1=1"):
        judged(notation, board, None)
    assert board.rows() == before
    assert board.tile_count == OPENED.tile_count


def test_every_rule_says_what_it_asks() -> None:
    for rule in PLAY_RULES:
        assert inspect.getdoc(rule), rule.__name__
