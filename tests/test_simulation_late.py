"""The late game of the simulation: rollouts played to the end with a small bag (`late_bag`),
and the exact endgame search for up to EXACT_TILES tiles on the racks."""

from __future__ import annotations

from pinned_tables import ROUND_TWO as TABLE  # a new shipped table does not move these tests

from binscrabble.engine.levels import player_from_name
from binscrabble.engine.players import EquityPlayer, ranked_candidates
from binscrabble.engine.simulation import (
    EXACT_TILES,
    SimulationPlayer,
    imagined_game,
    rollout_reply,
    solve_endgame,
)
from binscrabble.game import Game


def late_game(seed: int = 19001, bag: int = 9) -> Game:
    """An equity self-play game played until at most `bag` tiles are left in the bag."""
    game = Game(("A", "B"), seed=seed)
    equity = EquityPlayer(TABLE)
    while game.bag_size > bag:
        game.push(equity.choose(game))
    assert 0 < game.bag_size <= bag and not game.is_over()
    return game


def late_bag_player(seed: int, objective: str) -> SimulationPlayer:
    """A small two-ply simulation (3 candidates, 2 iterations) with late_bag=9."""
    return SimulationPlayer(
        table=TABLE,
        budget=60.0,
        candidates=3,
        plies=2,
        max_iterations=2,
        seed=seed,
        objective=objective,
        late_bag=9,
    )


def spread(game: Game, seat: int) -> int:
    return game.scores[seat] - game.scores[1 - seat]


def test_late_rollouts_play_to_the_end_for_the_final_spread() -> None:
    game = late_game()
    seat = game.to_move
    player = SimulationPlayer(
        table=TABLE, budget=60.0, candidates=3, plies=2, max_iterations=2, seed=7
    )
    player.late_bag = 9
    player._to_end = True
    candidate = ranked_candidates(game, TABLE, limit=1)[0]
    world = imagined_game(game, seat, game.unseen(seat), seed=5)
    value, deviation = player._rollout(world, seat, candidate)
    assert deviation == 0.0
    assert world.state() == imagined_game(game, seat, game.unseen(seat), seed=5).state()
    # The same play-out by hand: the candidate, then both sides' rollout moves to the end.
    world.push(candidate.move)
    while not world.is_over():
        world.push(rollout_reply(world, TABLE).move)
    assert value == spread(world, seat) - spread(game, seat)


def test_late_bag_decides_by_the_final_spread_of_whole_play_outs() -> None:
    game = late_game()
    player = late_bag_player(seed=7, objective="win")
    move = player.choose(game)
    assert game.is_legal(move)
    report = player.last_report
    simulated = [entry for entry in report.candidates if entry.values]
    assert simulated and report.iterations <= 2
    for entry in simulated:
        # Whole play-outs: whole points, and no spread left to come, so each counts as a
        # win, a draw or a loss (WinChance with deviation 0).
        assert entry.deviations == [0.0] * entry.count
        assert all(value == int(value) for value in entry.values)
        assert entry.chance is not None
    # Without late_bag the same decision stops at two plies: spread is left to come.
    plain = SimulationPlayer(
        table=TABLE, budget=60.0, candidates=3, plies=2, max_iterations=2, seed=7, objective="win"
    )
    plain.choose(game)
    simulated = [entry for entry in plain.last_report.candidates if entry.values]
    assert simulated and all(deviation > 0 for entry in simulated for deviation in entry.deviations)


def test_max_plays_its_late_rollouts_to_the_end() -> None:
    # max (and the simulation strategy) judge a decision with 1-9 tiles in the bag by whole
    # play-outs: every simulated candidate's values are final results, none leaves spread to
    # come; with more tiles in the bag the rollouts stop after two plies as before.
    for game, whole in ((late_game(), True), (equity_position(19001, 12), False)):
        assert (0 < game.bag_size <= 9) == whole
        player = player_from_name("max", seed=3, table=TABLE)
        assert isinstance(player, SimulationPlayer)
        player.max_iterations = 1
        move = player.choose(game)
        assert game.is_legal(move)
        simulated = [entry for entry in player.last_report.candidates if entry.values]
        assert simulated
        deviations = [deviation for entry in simulated for deviation in entry.deviations]
        assert all(deviation == 0.0 for deviation in deviations) == whole


def equity_position(seed: int, turns: int) -> Game:
    """The position after `turns` moves of an equity self-play game."""
    game = Game(("A", "B"), seed=seed)
    equity = EquityPlayer(TABLE)
    for _ in range(turns):
        game.push(equity.choose(game))
    return game


def test_endgames_of_up_to_fourteen_tiles_are_solved_exactly() -> None:
    # Equity self-play, seed 19001, after 18 moves: the bag is empty and the racks hold 14
    # tiles. The exact search finds the best final spread, -123; the greedy play-outs' choice
    # (the player before EXACT_TILES was 14) gives -131 against the best replies.
    game = equity_position(19001, 18)
    assert game.bag_size == 0 and sum(len(rack) for rack in game.racks) == 14
    assert EXACT_TILES >= 14
    player = SimulationPlayer(table=TABLE, budget=5.0, seed=1)
    move = player.choose(game)
    assert player.last_report.exact
    solved = solve_endgame(game.copy(), deadline=float("inf"))
    assert solved is not None and solved[1] == -123.0
    world = game.copy()
    world.push(move)
    answer = solve_endgame(world, deadline=float("inf"))
    assert answer is not None and -answer[1] == -123.0


def test_the_late_win_objective_counts_points_until_the_rollouts_reach_the_end() -> None:
    # objective "late-win": with more than late_bag tiles in the bag the decision is the
    # spread objective's (no chance of winning; the same move and means with the same seed);
    # with 1 to late_bag tiles the rollouts play to the end and count wins, as "win" does.
    middle = equity_position(19001, 12)
    assert middle.bag_size > 9

    def decide(game: Game, objective: str) -> tuple[object, list[float], list[bool]]:
        player = late_bag_player(seed=11, objective=objective)
        move = player.choose(game)
        entries = player.last_report.candidates
        return move, [entry.mean for entry in entries], [entry.chance is None for entry in entries]

    late_win = decide(middle, "late-win")
    assert late_win == decide(middle, "spread")
    assert all(late_win[2])
    late = late_game()
    late_move, late_means, no_chance = decide(late, "late-win")
    assert late.is_legal(late_move)
    assert not any(no_chance)
    assert (late_move, late_means) == decide(late, "win")[:2]
