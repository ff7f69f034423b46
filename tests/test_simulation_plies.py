"""Rollouts of three and four plies: both sides move once more after our answer."""

from __future__ import annotations

import pytest
from random_games import greedy_midgame

from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.players import Candidate, ranked_candidates
from binscrabble.engine.simulation import (
    PLIES,
    SimulationPlayer,
    WinChance,
    _spread,
    answer_with_blanks_as_ones,
    imagined_game,
    rollout_reply,
)
from binscrabble.game import Game
from binscrabble.rules import BLANK

TABLE = LeaveTable.default()


def stepwise(world: Game, seat: int, candidate: Candidate, plies: int) -> tuple[float, float]:
    """The rollout's value worked out move by move: each seat's points, minus the other's,
    plus the leave of each seat's last move; and the deviation of the spread still to come
    at its horizon (0 when the game ended)."""
    before = world.scores[:]
    pushed = 0
    try:
        world.push(candidate.move, checked=False)
        pushed += 1
        ours, theirs = candidate.score, 0
        our_leave, their_leave = candidate.equity - candidate.score, 0.0
        for ply in range(plies):
            if world.is_over():
                break
            last = ply == plies - 1
            if ply % 2 == 0:
                reply = rollout_reply(world, TABLE)
                theirs += reply.score
                their_leave = reply.equity - reply.score
                world.push(reply.move, checked=False)
                pushed += 1
            else:
                if last and BLANK in world.rack():
                    answer = answer_with_blanks_as_ones(world, TABLE)
                    play = False
                else:
                    answer = rollout_reply(world, TABLE, keep_blanks=not last)
                    play = True
                ours += answer.score
                our_leave = answer.equity - answer.score
                if play:
                    world.push(answer.move, checked=False)
                    pushed += 1
        if world.is_over():
            return float(_spread(world.scores, seat) - _spread(before, seat)), 0.0
        rack_tiles = sum(len(rack) for rack in world.racks)
        return ours - theirs + our_leave - their_leave, WinChance.deviation(
            world.bag_size, rack_tiles
        )
    finally:
        for _ in range(pushed):
            world.pop()


@pytest.mark.parametrize("plies", [3, 4])
def test_deeper_rollouts_count_every_move_and_the_last_leaves(plies: int) -> None:
    checked = 0
    for seed in (3, 4):
        game = greedy_midgame(seed, least_bag=20)
        seat = game.to_move
        candidates = ranked_candidates(game, TABLE, limit=3, include_exchanges=False)
        world = imagined_game(game, seat, game.unseen(seat))
        snapshot = (world.board.cells[:], list(world.racks), world.bag_size, world.scores[:])
        player = SimulationPlayer(plies=plies, table=TABLE)
        for candidate in candidates:
            value, deviation = player._rollout(world, seat, candidate)
            expected, horizon = stepwise(world, seat, candidate, plies)
            assert value == pytest.approx(expected)
            # The horizon is after the last move: the bag has given the middle moves' draws.
            assert deviation == pytest.approx(horizon)
            assert deviation < WinChance.deviation(world.bag_size)
            # The rollout takes every move back.
            assert (world.board.cells[:], list(world.racks), world.bag_size, world.scores[:]) == (
                snapshot
            )
            checked += 1
    assert checked == 6


def test_two_plies_are_unchanged_by_the_deeper_rollouts() -> None:
    # The first two plies of a three-ply rollout are the two-ply rollout's moves: the
    # three-ply value is the two-ply value minus what the opponent's second move adds.
    game = greedy_midgame(5, least_bag=20)
    seat = game.to_move
    candidate = ranked_candidates(game, TABLE, limit=1, include_exchanges=False)[0]
    world = imagined_game(game, seat, game.unseen(seat))
    two, _ = SimulationPlayer(plies=2, table=TABLE)._rollout(world, seat, candidate)
    expected, _ = stepwise(world, seat, candidate, 2)
    assert two == pytest.approx(expected)
    three, _ = SimulationPlayer(plies=3, table=TABLE)._rollout(world, seat, candidate)
    assert three != two


def test_a_deep_simulation_decides_and_its_plies_are_checked() -> None:
    game = greedy_midgame(6, least_bag=20)
    player = SimulationPlayer(plies=4, candidates=3, max_iterations=2, budget=60.0, seed=2)
    assert game.is_legal(player.choose(game))
    assert player.last_report.iterations == 2
    assert PLIES == (1, 2, 3, 4)
    with pytest.raises(ValueError, match="plies must be one of 1, 2, 3, 4, not 5"):
        SimulationPlayer(plies=5)
    with pytest.raises(ValueError, match="not 0"):
        SimulationPlayer(plies=0)
