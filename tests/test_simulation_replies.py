"""The shared rollout replies (DealReplies) give exactly the moves of rollout_reply."""

from __future__ import annotations

import functools
import random

import pytest

from binscrabble.board import Board, parse_square
from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.levels import player_from_name
from binscrabble.engine.players import Candidate, EquityPlayer, GreedyPlayer, ranked_candidates
from binscrabble.engine.rollout import (
    REPLY_WIDTH,
    DealReplies,
    blanks_to_the_bag,
    imagined_game,
    rollout_reply,
)
from binscrabble.engine.simulation import SimulationPlayer, candidate_placements
from binscrabble.game import Game
from binscrabble.move import Exchange, Pass, Place
from binscrabble.movegen import best_moves, generate_placements, sort_key
from binscrabble.rules import Rules

TABLE = LeaveTable.default()


def deals(game: Game, rng: random.Random, count: int) -> list[Game]:
    """`count` imagined deals of `game` from its seat to move, as the simulation makes them."""
    seat = game.to_move
    unseen = list(game.unseen(seat))
    dealt = sum(len(rack) for other, rack in enumerate(game.racks) if other != seat)
    worlds = []
    for _ in range(count):
        rng.shuffle(unseen)
        worlds.append(imagined_game(game, seat, blanks_to_the_bag(unseen, dealt), seed=7))
    return worlds


def compare(world: Game, candidates: list[Candidate], width: int | None = None) -> int:
    """Assert DealReplies agrees with rollout_reply after every candidate; the fallbacks."""
    assert candidates, "no candidate to compare"
    replies = DealReplies(world, TABLE, width=width)
    replies.prepare()
    for candidate in candidates:
        world.push(candidate.move, checked=False)
        try:
            if not world.is_over():
                shared = replies.reply(candidate.move)
                assert shared == rollout_reply(world, TABLE), candidate.move
        finally:
            world.pop()
    return replies.fallbacks


def game_positions(
    seed: int, every: int, rules: Rules | None = None, turns: int = 200
) -> list[Game]:
    """Positions (bag not empty) of an equity self-play game, one in `every` turns, from
    the first `turns` turns."""
    return [game.copy() for game in _game(seed, rules or Rules(), turns)[::every]]


@functools.cache
def _game(seed: int, rules: Rules, turns: int) -> tuple[Game, ...]:
    """The positions (bag not empty) of an equity self-play game, played once per run."""
    game = Game(("A", "B"), rules=rules, seed=seed)
    player = EquityPlayer(TABLE)
    positions = []
    while not game.is_over() and game.bag_size > 0 and len(positions) < turns:
        positions.append(game.copy())
        game.push(player.choose(game))
    return tuple(positions)


@pytest.mark.parametrize("seed", [11, 12])
def test_shared_replies_equal_rollout_replies_through_a_game(seed: int) -> None:
    rng = random.Random(seed)
    fallbacks = 0
    for game in game_positions(seed, every=3):
        for world in deals(game, rng, 1):
            candidates = ranked_candidates(world, TABLE, limit=6)
            fallbacks += compare(world, candidates)
    # The merge must usually be exact without the full generation (else it saves nothing).
    assert fallbacks < 10


def test_narrow_shared_width_still_gives_the_same_replies() -> None:
    # With the base cut to the reply width, many candidates spoil too many base plays: the
    # exactness test must then send them to the full generation, never guess.
    rng = random.Random(3)
    fallbacks = 0
    for game in game_positions(13, every=4)[1:]:
        world = deals(game, rng, 1)[0]
        fallbacks += compare(world, ranked_candidates(world, TABLE, limit=8), width=REPLY_WIDTH)
    assert fallbacks > 0


def test_the_floor_near_a_candidate_changes_no_fallback() -> None:
    # The search near a candidate asks only for plays at or above a floor (the last base
    # play left alone, or the last base play): the merge must fall back to the full
    # generation exactly when the merge with every play near the candidate would have.
    rng = random.Random(4)
    decisions = fallbacks = 0
    for width in (None, REPLY_WIDTH, 12):
        for game in game_positions(11, every=4)[1:]:
            world = deals(game, rng, 1)[0]
            replies = DealReplies(world, TABLE, width=width)
            replies.prepare()
            for candidate in ranked_candidates(world, TABLE, limit=6, include_exchanges=False):
                if not isinstance(candidate.move, Place):
                    continue
                squares = frozenset(tile.square for tile in candidate.move.tiles)
                world.push(candidate.move, checked=False)
                try:
                    kept = [play for play, clear in replies.base if not clear & squares]
                    near = best_moves(world, REPLY_WIDTH, touching=squares)
                    merged = sorted([*kept[:REPLY_WIDTH], *near], key=sort_key)[:REPLY_WIDTH]
                    last = sort_key(replies.base[-1][0])
                    expected = not (
                        replies.complete
                        or len(kept) >= REPLY_WIDTH
                        or (len(merged) == REPLY_WIDTH and sort_key(merged[-1]) < last)
                    )
                    before = replies.fallbacks
                    assert replies.reply(candidate.move) == rollout_reply(world, TABLE)
                    assert replies.fallbacks - before == expected, candidate.move
                    decisions += 1
                    fallbacks += expected
                finally:
                    world.pop()
    # Both kinds of decision were made: merges and fallbacks.
    assert decisions >= 50
    assert 0 < fallbacks < decisions


def test_shared_replies_on_the_first_move() -> None:
    # Every first play covers the centre, so no base play survives a candidate; the base is
    # still exact because nothing can be played away from the candidate on an empty board.
    for seed in (1, 2):
        game = Game(("A", "B"), seed=seed)
        world = deals(game, random.Random(seed), 1)[0]
        assert compare(world, ranked_candidates(world, TABLE, limit=6)) == 0


def test_exchanges_and_passes_reuse_the_base() -> None:
    game = game_positions(11, every=5)[2]
    world = deals(game, random.Random(1), 1)[0]
    rack = world.rack()
    candidates = [
        Candidate(Pass(), 0, rack, 0.0),
        Candidate(Exchange(rack[:3]), 0, rack[3:], 0.0),
    ]
    assert compare(world, candidates) == 0


def test_shared_replies_under_other_rules() -> None:
    rng = random.Random(5)
    for rules in (Rules(parallel_numbers=True), Rules.preset("learning")):
        for game in game_positions(15, every=6, rules=rules, turns=13)[1:3]:
            world = deals(game, rng, 1)[0]
            compare(world, ranked_candidates(world, TABLE, limit=5))


def test_base_plays_left_alone_stay_legal_with_the_same_score() -> None:
    # What the clearance promises, checked by the referee: a base play whose clearance
    # misses the candidate's squares is legal after the candidate and scores the same.
    rng = random.Random(9)
    checked = 0
    for game in game_positions(11, every=4)[1:4]:
        world = deals(game, rng, 1)[0]
        replies = DealReplies(world, TABLE)
        replies.prepare()
        for candidate in ranked_candidates(world, TABLE, limit=4, include_exchanges=False):
            if isinstance(candidate.move, Pass):
                continue
            squares = {tile.square for tile in candidate.move.tiles}
            world.push(candidate.move, checked=False)
            try:
                for play, clearance in replies.base:
                    if not clearance & squares:
                        assert world.is_legal(play.place)
                        assert world.score(play.place) == play.score
                        checked += 1
            finally:
                world.pop()
    assert checked > 50


def test_a_play_beside_a_crossing_run_is_not_left_alone() -> None:
    # 1=1 across at G8-I8; a base play down the J column hooks I8 (its tile on J8 extends
    # the across run to J8). A tile on K8 would lengthen that run, so K8 is in its clearance.
    board = Board.from_rows(["." * 15] * 7 + ["......1=1......"] + ["." * 15] * 7)
    world = Game.from_setup(Rules(), board, ["1=1+0-1x0", "1=1+0-1x0"], bag=list("10=" * 10))
    replies = DealReplies(world, TABLE, width=500)
    replies.prepare()
    j8, k8 = parse_square("J8"), parse_square("K8")
    hooks = [(play, clearance) for play, clearance in replies.base if j8 in play.squares]
    assert hooks
    assert all(k8 in clearance for _, clearance in hooks)


def test_prepare_is_required() -> None:
    world = Game(("A", "B"), seed=1)
    with pytest.raises(RuntimeError):
        DealReplies(world, TABLE).reply(Pass())


def test_simulation_reports_its_full_replies() -> None:
    game = game_positions(12, every=5)[2]
    player = SimulationPlayer(table=TABLE, budget=60.0, candidates=4, max_iterations=2, seed=1)
    move = player.choose(game)
    assert game.is_legal(move)
    report = player.last_report
    assert report.iterations == 2
    assert 0 <= report.full_replies <= report.rollouts
    # The greedy move is legal in the same position (the position is a real middle game).
    assert game.is_legal(GreedyPlayer().choose(game))


def test_candidates_of_a_blank_rack_hold_the_equity_move() -> None:
    # With a blank, the simulation takes its candidates from two short lists (the best plays
    # with the blank and without it) instead of every play: the equity player's move must
    # still be among them (it is on every such position of these games).
    positions = [
        game for seed in (11, 12) for game in game_positions(seed, every=1) if "?" in game.rack()
    ][:3]
    assert len(positions) == 3
    for game in positions:
        moves, best_first = candidate_placements(game)
        assert not best_first
        quick = ranked_candidates(game, TABLE, moves, limit=3, distinct=True)
        assert quick[0].equity == ranked_candidates(game, TABLE, limit=1)[0].equity
    # Without a blank, every play.
    plain = next(game for game in game_positions(11, every=1) if "?" not in game.rack())
    moves, best_first = candidate_placements(plain)
    assert best_first
    assert len(moves) == len(generate_placements(plain.board, plain.rack(), plain.rules))


def test_the_simulation_strategy_looks_two_plies_ahead() -> None:
    simulation = player_from_name("simulation@0.5", table=TABLE)
    maximum = player_from_name("max", table=TABLE)
    assert isinstance(simulation, SimulationPlayer) and simulation.plies == 2
    assert isinstance(maximum, SimulationPlayer) and maximum.plies == 2
    game = game_positions(12, every=5)[2]
    player = SimulationPlayer(table=TABLE, budget=60.0, candidates=3, max_iterations=2, seed=1)
    assert game.is_legal(player.choose(game))
    assert player.last_report.iterations == 2
