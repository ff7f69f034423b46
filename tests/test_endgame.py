"""The late game of the simulation: rollouts played to the end with 1 to LATE_BAG tiles in
the bag, and the exact endgame search for up to EXACT_TILES tiles on the racks."""

from __future__ import annotations

from binscrabble.engine.endgame import EXACT_TILES, solve_endgame
from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.levels import player_from_name
from binscrabble.engine.players import EquityPlayer, ranked_candidates
from binscrabble.engine.rollout import imagined_game, rollout_reply, rollout_to_end
from binscrabble.engine.simulation import LATE_BAG, SimulationPlayer
from binscrabble.game import Game

TABLE = LeaveTable.default()
#: Positions the exact search of equity_position(19001, 18) needs (it needs about 800).
ENOUGH_POSITIONS = 5_000


def equity_position(seed: int, turns: int) -> Game:
    """The position after `turns` moves of an equity self-play game."""
    game = Game(("A", "B"), seed=seed)
    equity = EquityPlayer(TABLE)
    for _ in range(turns):
        game.push(equity.choose(game))
    return game


def late_game(seed: int = 19001) -> Game:
    """An equity self-play game played until at most LATE_BAG tiles are left in the bag."""
    game = Game(("A", "B"), seed=seed)
    equity = EquityPlayer(TABLE)
    while game.bag_size > LATE_BAG:
        game.push(equity.choose(game))
    assert 0 < game.bag_size <= LATE_BAG and not game.is_over()
    return game


def spread(game: Game, seat: int) -> int:
    return game.scores[seat] - game.scores[1 - seat]


def test_late_rollouts_play_to_the_end_for_the_final_spread() -> None:
    game = late_game()
    seat = game.to_move
    candidate = ranked_candidates(game, TABLE, limit=1)[0]
    world = imagined_game(game, seat, game.unseen(seat), seed=5)
    value = rollout_to_end(world, seat, candidate, TABLE)
    assert world.state() == imagined_game(game, seat, game.unseen(seat), seed=5).state()
    # The same play-out by hand: the candidate, then both sides' rollout moves to the end.
    world.push(candidate.move)
    while not world.is_over():
        world.push(rollout_reply(world, TABLE).move)
    assert value == spread(world, seat) - spread(game, seat)


def test_a_small_bag_decides_by_the_final_result_of_whole_play_outs() -> None:
    game = late_game()
    player = SimulationPlayer(table=TABLE, budget=60.0, candidates=3, max_iterations=2, seed=7)
    move = player.choose(game)
    assert game.is_legal(move)
    report = player.last_report
    simulated = [entry for entry in report.candidates if entry.values]
    assert simulated and report.iterations <= 2
    for entry in simulated:
        # Whole play-outs: whole points, and no spread left to come, so each counts as a
        # win, a draw or a loss.
        assert entry.deviations == [0.0] * entry.count
        assert all(value == int(value) for value in entry.values)
        assert entry.chance is not None


def test_max_plays_its_late_rollouts_to_the_end() -> None:
    # With 1-9 tiles in the bag every simulated candidate's values are final results, none
    # leaves spread to come; with more tiles in the bag the rollouts stop after two plies.
    for game, whole in ((late_game(), True), (equity_position(19001, 12), False)):
        assert (0 < game.bag_size <= LATE_BAG) == whole
        player = player_from_name("max", seed=3, table=TABLE)
        assert isinstance(player, SimulationPlayer)
        # One iteration, however long it takes: the iteration bound ends the search, not
        # max's half second, so the verdict does not depend on the machine's speed.
        player.max_iterations = 1
        player.budget = 60.0
        move = player.choose(game)
        assert game.is_legal(move)
        simulated = [entry for entry in player.last_report.candidates if entry.values]
        assert simulated
        deviations = [deviation for entry in simulated for deviation in entry.deviations]
        assert all(deviation == 0.0 for deviation in deviations) == whole


def test_endgames_of_up_to_fourteen_tiles_are_solved_exactly() -> None:
    # Equity self-play, seed 19001, after 18 moves: the bag is empty and the racks hold 14
    # tiles. The exact search finds the best final spread, -123.
    game = equity_position(19001, 18)
    assert game.bag_size == 0 and sum(len(rack) for rack in game.racks) == 14
    assert EXACT_TILES >= 14
    # A bound on the positions searched, not on time: the verdict does not depend on the
    # machine's speed.
    player = SimulationPlayer(table=TABLE, seed=1, endgame_positions=ENOUGH_POSITIONS)
    move = player.choose(game)
    assert player.last_report.exact
    solved = solve_endgame(game.copy())
    assert solved is not None and solved[1] == -123.0
    world = game.copy()
    world.push(move)
    answer = solve_endgame(world)
    assert answer is not None and -answer[1] == -123.0


def test_the_exact_search_gives_up_beyond_its_positions() -> None:
    game = equity_position(19001, 18)
    assert solve_endgame(game.copy(), max_positions=100) is None
    # The player then falls back on the play-outs, and still plays a legal move.
    player = SimulationPlayer(table=TABLE, seed=1, endgame_positions=100)
    move = player.choose(game)
    assert not player.last_report.exact and player.last_report.endgame
    assert game.is_legal(move)
