"""Rollouts (binscrabble.engine.rollout): the value of a candidate played out in one deal,
worked out move by move, and our last move's exchanges."""

from __future__ import annotations

import random

import pytest
from random_games import greedy_midgame

from binscrabble.board import Board
from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.players import (
    Candidate,
    EquityEvaluator,
    candidate_order,
    distinct_subsets,
    ranked_candidates,
)
from binscrabble.engine.rollout import (
    Plies,
    answer_with_blanks_as_ones,
    best_exchange,
    blanks_to_the_bag,
    imagined_game,
    rollout_reply,
    rollout_value,
)
from binscrabble.engine.simulation import SimulationPlayer
from binscrabble.engine.winchance import WinChance, score_lead
from binscrabble.game import Game
from binscrabble.move import Exchange
from binscrabble.rules import BLANK, Rules

TABLE = LeaveTable.default()


def test_best_exchange_keeps_the_most_valuable_tiles() -> None:
    for seed in range(6):
        game = greedy_midgame(seed)
        exchange = best_exchange(game, TABLE)
        assert exchange is not None
        assert isinstance(exchange.move, Exchange)
        rack = game.rack()
        evaluator = EquityEvaluator(game, TABLE)
        # Every strict sub-rack may be kept; the best leave value wins.
        values = [evaluator.leave_value(kept) for kept in distinct_subsets(rack)]
        assert exchange.equity == max(values[:-1])
        assert exchange.score == 0
        assert sorted(exchange.leave + exchange.move.tiles) == sorted(rack)
        assert len(exchange.leave) < len(rack)


def test_no_exchange_with_a_short_bag() -> None:
    game = Game.from_setup(Rules(), Board(), ["===+-1", "000"], bag=list("10=" * 2 + "01"))
    assert game.bag_size == 8
    assert best_exchange(game, TABLE) is None
    game = Game.from_setup(Rules(), Board(), ["===+-1", "000"], bag=list("10=" * 3))
    exchange = best_exchange(game, TABLE)
    assert exchange is not None and exchange.leave == "1"


def stepwise(world: Game, seat: int, candidate: Candidate, plies: Plies) -> tuple[float, int]:
    """The rollout's value worked out move by move: our points minus the opponent's, plus
    the leave of each side's last move (the final spread's change when the game ends); and
    how many of our answers were exchanges that beat the placements."""
    exchanges = 0
    start = score_lead(world.scores, seat)
    pushed = 0
    try:
        world.push(candidate.move, checked=False)
        pushed += 1
        value = candidate.equity
        if not world.is_over():
            reply = rollout_reply(world, TABLE)
            world.push(reply.move, checked=False)
            pushed += 1
            value -= reply.equity
            if plies == 2 and not world.is_over():
                blank = BLANK in world.rack()
                if blank:
                    answer = answer_with_blanks_as_ones(world, TABLE)
                else:
                    answer = rollout_reply(world, TABLE)
                exchange = best_exchange(world, TABLE)
                if exchange is not None and candidate_order(exchange) < candidate_order(answer):
                    answer, blank, exchanges = exchange, True, exchanges + 1
                value += answer.equity - (candidate.equity - candidate.score)
                if not blank:
                    world.push(answer.move, checked=False)
                    pushed += 1
        if world.is_over():
            return float(score_lead(world.scores, seat) - start), exchanges
        return value, exchanges
    finally:
        for _ in range(pushed):
            world.pop()


@pytest.mark.parametrize("plies", [1, 2])
def test_rollouts_count_every_move_and_the_last_leaves(plies: Plies) -> None:
    exchanges = 0
    for seed in (11, 12):
        game = greedy_midgame(seed)
        seat = game.to_move
        candidates = ranked_candidates(game, TABLE, limit=3, distinct=True)
        assert candidates
        unseen = list(game.unseen(seat))
        dealt = len(game.racks[1 - seat])
        rng = random.Random(seed)
        for _ in range(6):
            rng.shuffle(unseen)
            world = imagined_game(game, seat, blanks_to_the_bag(unseen, dealt), seed=3)
            snapshot = (world.board.cells[:], list(world.racks), world.bag_size, world.scores[:])
            for candidate in candidates:
                expected, used = stepwise(world, seat, candidate, plies)
                value, deviation = rollout_value(world, seat, candidate, TABLE, plies)
                assert value == pytest.approx(expected)
                # The horizon is after the last move: the bag has given the moves' draws.
                assert 0 < deviation < WinChance.deviation(world.bag_size)
                exchanges += used
                # The rollout takes every move back.
                after = (world.board.cells[:], list(world.racks), world.bag_size, world.scores[:])
                assert after == snapshot
    # The positions were chosen so that some deal leaves us a rack worth exchanging.
    assert (exchanges > 0) == (plies == 2)


def test_the_answer_exchanges_a_hopeless_rack() -> None:
    # We keep six = after our play; whatever we draw, the best equity is to exchange them.
    board = Game(("A", "B"), seed=1).board
    game = Game.from_setup(
        Rules(), board, ["1=1======", "110100110"], bag=list("=" * 4 + "+-" * 4 + "1" * 12)
    )
    candidate = next(
        entry
        for entry in ranked_candidates(game, TABLE, include_exchanges=False)
        if entry.leave.count("=") >= 5
    )
    world = game.copy()
    value, _ = rollout_value(world, 0, candidate, TABLE)
    expected, used = stepwise(world, 0, candidate, 2)
    assert used == 1
    assert value == pytest.approx(expected)
    # Without the exchange, the answer would be the best placement of a poor rack.
    reply_only, _ = rollout_value(world, 0, candidate, TABLE, plies=1)
    assert value != reply_only


def test_plies_are_one_or_two() -> None:
    assert SimulationPlayer().plies == 2
    assert SimulationPlayer(plies=1).plies == 1
    for plies in (0, 3):
        with pytest.raises(ValueError, match=f"plies must be 1 or 2, not {plies}"):
            SimulationPlayer(plies=plies)  # type: ignore[arg-type]


def test_best_exchange_is_found_per_rack_and_per_table() -> None:
    bag = list("10=" * 5)
    first = Game.from_setup(Rules(), Board(), ["1+=0=&1", "000"], bag=bag)
    again = Game.from_setup(Rules(), Board(), ["=&01+1=", "000"], bag=bag)
    one, two = best_exchange(first, TABLE), best_exchange(again, TABLE)
    assert one is not None and two is not None
    assert one.leave == two.leave and one.equity == two.equity
    for exchange, game in ((one, first), (two, again)):
        assert isinstance(exchange.move, Exchange)
        assert sorted(exchange.move.tiles + exchange.leave) == sorted(game.rack())
    # Another table keeps other tiles: the remembered choice belongs to the table.
    likes_operators = LeaveTable({"has:&x1": 20.0, "has:+x1": 20.0})
    other = best_exchange(first, likes_operators)
    assert other is not None and other.leave == "&+"
    assert best_exchange(first, TABLE) == one
