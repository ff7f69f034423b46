"""The chance of winning that the simulation maximises (WinChance), and how its candidates'
means use it."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.levels import player_from_name
from binscrabble.engine.players import (
    Candidate,
    EquityEvaluator,
    EquityPlayer,
    GreedyPlayer,
)
from binscrabble.engine.rollout import answer_with_blanks_as_ones
from binscrabble.engine.simulation import (
    DEFAULT_BUDGET,
    DEFAULT_CANDIDATES,
    LATE_BAG,
    PRIOR_ITERATIONS,
    CandidateStatistics,
    SimulationPlayer,
    settle,
)
from binscrabble.engine.winchance import MOVER_EDGE, WinChance
from binscrabble.game import Game
from binscrabble.move import Exchange, Pass, Place
from binscrabble.movegen import best_placements
from binscrabble.rules import BLANK


def midgame(seed: int = 3, turns: int = 6) -> Game:
    """A game a few greedy turns in (the bag still holds tiles)."""
    game = Game(("A", "B"), seed=seed)
    greedy = GreedyPlayer()
    for _ in range(turns):
        game.push(greedy.choose(game))
    assert game.bag_size > 0
    return game


def statistics_with(
    values: list[float], deviation: float, chance: WinChance, equity: float = 0.0
) -> CandidateStatistics:
    entry = CandidateStatistics(Candidate(Pass(), 0, "", equity), chance=chance)
    for value in values:
        entry.add(value, deviation)
    return entry


# -- the model ---------------------------------------------------------------------------------


def test_chance_grows_with_the_value_and_is_half_at_the_movers_edge() -> None:
    chance = WinChance.for_decision(spread=0.0, bag=40)
    deviation = WinChance.deviation(20)
    values = [chance.utility(value, deviation) for value in range(-200, 201, 10)]
    assert values == sorted(values)
    assert values[0] < values[-1]
    assert chance.utility(MOVER_EDGE, deviation) == pytest.approx(chance.scale / 2)
    # Near an even game one point of spread is worth about one unit of the scale.
    slope = chance.utility(MOVER_EDGE + 0.5, WinChance.deviation(40)) - chance.utility(
        MOVER_EDGE - 0.5, WinChance.deviation(40)
    )
    assert slope == pytest.approx(1.0, rel=1e-3)


def test_the_edge_goes_to_the_seat_to_move_at_the_horizon() -> None:
    deviation = WinChance.deviation(30)
    # Two plies: the opponent moves next, so an even spread there is less than even for us.
    two = WinChance.for_decision(spread=0.0, bag=40, plies=2)
    one = WinChance.for_decision(spread=0.0, bag=40, plies=1)
    assert not two.ours_to_move and one.ours_to_move
    assert two.utility(0.0, deviation) < two.scale / 2 < one.utility(0.0, deviation)
    assert two.utility(MOVER_EDGE, deviation) == pytest.approx(two.scale / 2)
    assert one.utility(-MOVER_EDGE, deviation) == pytest.approx(one.scale / 2)


def test_a_finished_game_counts_its_result() -> None:
    chance = WinChance(spread=-10.0, scale=2.0)
    assert chance.utility(9.0, 0.0) == 0.0  # lost by 1
    assert chance.utility(10.0, 0.0) == 1.0  # a draw is half a win
    assert chance.utility(11.0, 0.0) == 2.0  # won by 1


def test_the_spread_still_to_come_shrinks_as_the_game_ends() -> None:
    deviations = [WinChance.deviation(bag) for bag in (80, 40, 10, 1)]
    assert deviations == sorted(deviations, reverse=True)
    assert WinChance.deviation(0, 18) > WinChance.deviation(0, 9) > WinChance.deviation(0, 2)
    assert WinChance.deviation(0, 1) > 0


def test_far_ahead_the_steady_candidate_wins_and_far_behind_the_risky_one() -> None:
    deviation = WinChance.deviation(10)
    for spread, steady_wins in ((90.0, True), (-60.0, False)):
        chance = WinChance.for_decision(spread=spread, bag=10)
        # The same mean (and equity), but one candidate's rollouts swing far more.
        steady = statistics_with([0.0, 0.0, 0.0, 0.0], deviation, chance)
        risky = statistics_with([-80.0, 80.0, -80.0, 80.0], deviation, chance)
        settle([steady, risky], iterations=4)
        assert (steady.mean > risky.mean) is steady_wins, spread


def test_points_decide_in_an_even_game() -> None:
    chance = WinChance.for_decision(spread=0.0, bag=30)
    deviation = WinChance.deviation(25)
    better = statistics_with([MOVER_EDGE + 10.0] * 3, deviation, chance)
    worse = statistics_with([MOVER_EDGE - 10.0] * 3, deviation, chance)
    settle([better, worse], iterations=3)
    assert better.mean > worse.mean


def test_the_prior_pulls_the_chance_towards_the_equity() -> None:
    chance = WinChance.for_decision(spread=0.0, bag=30)
    deviation = WinChance.deviation(25)
    # Candidate equity 10; its two rollouts say 40 on average. The other candidates' mean
    # change is 0, so the prior is the equity itself: the chance of the values shifted by -30.
    entry = statistics_with([20.0, 60.0], deviation, chance, equity=10.0)
    other = statistics_with([0.0, 0.0], deviation, chance, equity=0.0)
    settle([entry, other], iterations=2)
    change = ((40.0 - 10.0) + 0.0) / 2
    assert entry.prior == pytest.approx(10.0 + change)
    shift = entry.prior - 40.0
    simulated = chance.utility(20.0, deviation) + chance.utility(60.0, deviation)
    prior = (chance.utility(20.0 + shift, deviation) + chance.utility(60.0 + shift, deviation)) / 2
    expected = (simulated + PRIOR_ITERATIONS * prior) / (2 + PRIOR_ITERATIONS)
    assert entry.mean == pytest.approx(expected)
    # Before settling, and without a chance (the endgame's play-outs), the mean is in points.
    plain = CandidateStatistics(Candidate(Pass(), 0, "", 10.0))
    plain.add(20.0)
    plain.add(60.0)
    assert plain.mean == pytest.approx(40.0)


def test_values_dropped_with_an_unfinished_iteration_drop_their_deviations() -> None:
    chance = WinChance.for_decision(spread=0.0, bag=30)
    entry = statistics_with([1.0, 2.0, 3.0], 50.0, chance)
    other = statistics_with([1.0, 2.0], 50.0, chance)
    settle([entry, other], iterations=2)
    assert entry.values == [1.0, 2.0] and entry.deviations == [50.0, 50.0]
    assert math.isfinite(entry.mean)


# -- the player ----------------------------------------------------------------------------------


def test_max_is_the_simulation_player_as_it_comes() -> None:
    # SimulationPlayer()'s defaults are the max level: 6 candidates, two plies, 0.5 s.
    plain = SimulationPlayer()
    assert (plain.candidate_count, plain.plies, plain.budget) == (6, 2, 0.5)
    assert (DEFAULT_CANDIDATES, DEFAULT_BUDGET, LATE_BAG) == (6, 0.5, 9)
    for name, budget in (("max", 0.5), ("max@1", 1.0), ("simulation", 1.5)):
        level = player_from_name(name)
        assert isinstance(level, SimulationPlayer)
        assert (level.candidate_count, level.plies, level.budget) == (6, 2, budget)


def test_the_simulation_records_the_chance_and_the_horizon() -> None:
    game = midgame()
    player = SimulationPlayer(budget=60.0, candidates=3, max_iterations=2, seed=4)
    move = player.choose(game)
    report = player.last_report
    assert game.is_legal(move)
    assert report.iterations == 2
    assert report.candidates
    assert report.rollouts == 2 * len(report.candidates)
    seat = game.to_move
    lead = game.scores[seat] - game.scores[1 - seat]
    for entry in report.candidates:
        assert entry.chance is not None and entry.chance.spread == lead
        assert len(entry.deviations) == entry.count == 2
        assert all(deviation > 0 for deviation in entry.deviations)
        # The settled mean is a chance on its scale: between 0 and the scale.
        assert 0.0 <= entry.mean <= entry.chance.scale
    best = max(report.candidates, key=lambda entry: (entry.mean, entry.candidate.equity))
    assert move == best.candidate.move


def test_the_simulation_is_deterministic_with_a_seed_and_an_iteration_bound() -> None:
    def run() -> tuple[object, list[float]]:
        player = SimulationPlayer(budget=60.0, candidates=3, max_iterations=2, seed=9)
        move = player.choose(midgame(5, 4))
        return move, [entry.mean for entry in player.last_report.candidates]

    assert run() == run()


# -- our answer with a kept blank (two plies) -------------------------------------------------


#: The first round's leave table, from which the shipped one was trained (docs/engine.md):
#: the positions below come from games of the equity player with it.
ROUND_ONE_TABLE = Path(__file__).resolve().parents[1] / "scripts" / "leaves_round1.json"


def equity_game_position(seed: int, turns: int) -> Game:
    """The position after `turns` moves of equity self-play with the first round's table."""
    game = Game(("A", "B"), seed=seed)
    equity = EquityPlayer(LeaveTable.from_json(ROUND_ONE_TABLE.read_text(encoding="utf-8")))
    for _ in range(turns):
        game.push(equity.choose(game))
    return game


def test_two_plies_keep_the_blank() -> None:
    # Seed 3 after 5 equity turns: rack =~0=00?0= with 67 tiles in the bag. Answered
    # without the blank, the two-ply rollouts would exchange 00===? (the blank with them);
    # with the blank standing for a 1 they keep it.
    game = equity_game_position(3, 5)
    assert BLANK in game.rack() and game.bag_size == 67
    player = SimulationPlayer(budget=60.0, max_iterations=2, seed=7)
    move = player.choose(game)
    assert isinstance(move, Exchange), move
    assert BLANK not in move.tiles, move


def test_the_answer_keeps_the_blanks_it_does_not_need() -> None:
    table = LeaveTable.default()
    game = equity_game_position(3, 5)
    rack = game.rack()
    answer = answer_with_blanks_as_ones(game, table)
    evaluator = EquityEvaluator(game, table)
    assert answer.equity == pytest.approx(answer.score + evaluator.leave_value(answer.leave))
    if isinstance(answer.move, Place):
        used_ones = sum(1 for tile in answer.move.tiles if tile.face == "1")
        needed = max(0, used_ones - rack.count("1"))
        assert answer.leave.count(BLANK) == rack.count(BLANK) - needed
    # Here it plays the blank as a 1, for more points than the best play of the rack
    # without its blank makes.
    without = best_placements(game.board, rack.replace(BLANK, ""), game.rules, 1)
    assert answer.score > without[0].score
