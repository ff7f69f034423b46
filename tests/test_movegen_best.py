"""Best moves (`best_moves`, `best_placements`) across calls: the context of a rack (its
side fillings and join groups, which depend on the rack, the rules and the shapes only) is
kept from one call to the next, as the simulation asks for one rack on many boards. The
results must be those of a fresh search: the head of the full generation in sort order."""

from __future__ import annotations

import importlib
import itertools
import random
import threading

import pytest
from movegen_positions import advance

import binscrabble.movegen as movegen
from binscrabble.board import Board
from binscrabble.expr import bonus, equation_value_or_none
from binscrabble.game import Game
from binscrabble.movegen import best_placements, bounds, generate_placements, sort_key
from binscrabble.rules import Rules, faces_in_game

#: The scan module of the build the package runs (compiled, or the source): it keeps the
#: contexts best moves reuse.
scan = importlib.import_module(movegen.IMPLEMENTATION.removesuffix(".api") + ".scan")

#: Racks asked about on every board, in turn (so a kept context meets many boards, and
#: racks alternate as our answers and the opponent's replies do in a rollout).
RACKS = ("10+1=x0/1", "=1-0&1=0", "1?=+01")


def _boards(rules: Rules, seed: int) -> list[Board]:
    game = Game(("A", "B"), rules, seed=seed)
    rng = random.Random(seed)
    boards = []
    for _ in range(5):
        advance(game, rng, 3, part=5)
        boards.append(game.board.copy())
    return boards


def _head(board: Board, rack: str, rules: Rules, count: int) -> list[tuple[object, int]]:
    every = sorted(generate_placements(board, rack, rules), key=sort_key)
    return [(move.place, move.score) for move in every[:count]]


def _forget() -> None:
    if hasattr(scan.KEPT, "contexts"):
        scan.KEPT.contexts.clear()


def test_kept_contexts_give_the_results_of_a_fresh_search() -> None:
    checked = 0
    for seed, rules in enumerate((Rules(), Rules(parallel_numbers=True), Rules.preset("expert"))):
        _forget()
        for board in _boards(rules, seed):
            for count in (1, 8, 48):
                for rack in RACKS:
                    found = best_placements(board, rack, rules, count)
                    assert [(move.place, move.score) for move in found] == _head(
                        board, rack, rules, count
                    ), (rules.differences(), board.rows(), rack, count)
                    checked += 1
    assert checked == 3 * 5 * 3 * len(RACKS)


def test_a_rack_under_other_rules_gets_its_own_context() -> None:
    # The same rack, first under rules that allow more equations, then under the default:
    # what the first call enumerated must not leak into the second.
    board = _boards(Rules(), 7)[2]
    _forget()
    loose = Rules(allow_negatives=True, leading_zeros=True, identity_chains=True)
    rack = "0-1=01-1"
    best_placements(board, rack, loose, 48)
    assert [(move.place, move.score) for move in best_placements(board, rack, Rules(), 48)] == (
        _head(board, rack, Rules(), 48)
    )


def test_contexts_are_kept_per_thread_and_bounded() -> None:
    board = _boards(Rules(), 3)[3]
    _forget()
    for rack in (*RACKS, "11=1+0", "0=0x1-1"):
        best_placements(board, rack, Rules(), 8)
    assert len(scan.KEPT.contexts) == scan.KEPT_RACKS
    # The most recent racks are the ones kept; not a rack with a blank (its fillings are many,
    # and rollouts do not ask for one twice).
    assert [rack for rack, _ in scan.KEPT.contexts] == ["=1-0&1=0", "11=1+0", "0=0x1-1"]
    seen: list[int] = []

    def other_thread() -> None:
        seen.append(len(getattr(scan.KEPT, "contexts", {})))
        best_placements(board, RACKS[0], Rules(), 8)
        seen.append(len(scan.KEPT.contexts))

    worker = threading.Thread(target=other_thread)
    worker.start()
    worker.join()
    assert seen == [0, 1]
    assert len(scan.KEPT.contexts) == scan.KEPT_RACKS


def _digits(text: str) -> int:
    return text.count("0") + text.count("1")


def _assert_bounded(text: str, value: int) -> None:
    """The bonus of an equation is within each bound best moves give it: by its width, by
    its digits, and by the digits of each of its sides."""
    assert bonus(value) <= bounds.BONUS_BOUNDS[len(text)], text
    assert bonus(value) <= bounds.DIGIT_BONUS_BOUNDS[_digits(text)], text
    for side in text.split("="):
        assert bonus(value) <= bounds.SIDE_BONUS_BOUNDS[_digits(side)], text


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(precedence="left-to-right", allow_negatives=True, leading_zeros=True),
        Rules(xor_tiles=3, identity_chains=True),
    ],
    ids=["standard", "flat-negatives-zeros", "xor-chains"],
)
def test_bonus_bounds_hold_for_every_short_equation(rules: Rules) -> None:
    # Best moves bound a segment's bonus by its width and by its digits: a value written
    # with d digits is below 2 ** d, and the side with fewer digits bounds the equation (a
    # stretch between `=` tiles holds one side or more, so its digits bound it too).
    # Every equation of up to 5 codes, asked of the referee.
    faces = sorted(faces_in_game(rules))
    checked = 0
    for length in range(3, 6):
        for codes in itertools.product(faces, repeat=length):
            text = "".join(codes)
            if "=" not in text:
                continue
            value = equation_value_or_none(text, rules)
            if value is None:
                continue
            _assert_bounded(text, value)
            checked += 1
    assert checked > 30


def test_bonus_bounds_hold_for_generated_equations() -> None:
    # Long equations (up to 15 characters, rotated `=` read as 11) from the generator.
    checked = 0
    for seed, rules in enumerate((Rules(), Rules(rotated_equals=True))):
        for board in _boards(rules, 20 + seed)[2:4]:
            for move in generate_placements(board, "1+10=1x0=", rules):
                _assert_bounded(move.text, move.value)
                checked += 1
    assert checked > 1000
