"""Exchanges in the rollouts (rollout_exchanges, best_exchange): the opponent's reply and our
two-ply answer may be exchanges, as the equity player's moves may."""

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
from binscrabble.engine.simulation import (
    SimulationPlayer,
    _spread,
    answer_with_blanks_as_ones,
    best_exchange,
    blanks_to_the_bag,
    imagined_game,
    rollout_reply,
)
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


def expected_rollout(
    world: Game, seat: int, candidate: Candidate, *, in_reply: bool = True
) -> tuple[float, int]:
    """The two-ply rollout value with exchanges, computed step by step; and how many of its
    two moves were exchanges that beat the placements. Without `in_reply`, only our answer
    may be an exchange (``answer_exchanges``)."""
    exchanges = 0
    before = world.scores[:]
    pushed = 0
    try:
        world.push(candidate.move, checked=False)
        pushed += 1
        value = candidate.equity
        if not world.is_over():
            reply = rollout_reply(world, TABLE)
            exchange = best_exchange(world, TABLE) if in_reply else None
            if exchange is not None and candidate_order(exchange) < candidate_order(reply):
                reply, exchanges = exchange, exchanges + 1
            world.push(reply.move, checked=False)
            pushed += 1
            value -= reply.equity
            if not world.is_over():
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
            return float(_spread(world.scores, seat) - _spread(before, seat)), exchanges
        return value, exchanges
    finally:
        for _ in range(pushed):
            world.pop()


@pytest.mark.parametrize("seed", [11, 12])
def test_rollouts_let_exchanges_compete(seed: int) -> None:
    game = greedy_midgame(seed)
    seat = game.to_move
    candidates = ranked_candidates(game, TABLE, limit=3, distinct=True)
    with_exchanges = SimulationPlayer(plies=2, rollout_exchanges=True)
    without = SimulationPlayer(plies=2)
    # answer_exchanges: our answer may be an exchange, the opponent's reply may not.
    answering = SimulationPlayer(plies=2, answer_exchanges=True)
    assert answering.answer_exchanges and not answering.rollout_exchanges
    assert with_exchanges.answer_exchanges
    unseen = list(game.unseen(seat))
    dealt = len(game.racks[1 - seat])
    rng = random.Random(seed)
    exchanges = 0
    for _ in range(6):
        rng.shuffle(unseen)
        world = imagined_game(game, seat, blanks_to_the_bag(unseen, dealt), seed=3)
        snapshot = (world.board.cells[:], [rack for rack in world.racks], world.bag_size)
        for candidate in candidates:
            expected, used = expected_rollout(world, seat, candidate)
            value, _ = with_exchanges._rollout(world, seat, candidate)
            assert value == pytest.approx(expected)
            answered, _ = answering._rollout(world, seat, candidate)
            alone, _ = expected_rollout(world, seat, candidate, in_reply=False)
            assert answered == pytest.approx(alone)
            plain, _ = without._rollout(world, seat, candidate)
            if used:
                exchanges += 1
                # An exchange is only taken when it is worth more to its side.
                assert value != plain
            else:
                assert value == plain
            # The rollout takes every move back.
            assert (world.board.cells[:], list(world.racks), world.bag_size) == snapshot
    # The positions were chosen so that some deal leaves a side a rack worth exchanging.
    assert exchanges > 0


@pytest.mark.parametrize("in_reply", [True, False])
def test_the_answer_exchanges_a_hopeless_rack(in_reply: bool) -> None:
    # We keep six = after our play; whatever we draw, the best equity is to exchange them:
    # with rollout_exchanges (in_reply) and with answer_exchanges alike.
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
    if in_reply:
        player = SimulationPlayer(plies=2, rollout_exchanges=True)
    else:
        player = SimulationPlayer(plies=2, answer_exchanges=True)
    value, _ = player._rollout(world, 0, candidate)
    plain, _ = SimulationPlayer(plies=2)._rollout(world, 0, candidate)
    expected, used = expected_rollout(world, 0, candidate, in_reply=in_reply)
    assert used >= 1 if in_reply else used == 1
    assert value == pytest.approx(expected)
    assert value > plain


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
