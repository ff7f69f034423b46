"""The computer players: legal moves everywhere, determinism, equity, simulation, levels."""

from __future__ import annotations

import json
from typing import Any

import pytest
from script_modules import load_script

from binscrabble.board import Board
from binscrabble.engine.endgame import endgame_value, solve_endgame
from binscrabble.engine.leaves import BLANK_FACES, LeaveTable, LeaveTableError, leave_features
from binscrabble.engine.levels import (
    LEVELS,
    STRATEGIES,
    PlayerNameError,
    parse_player_name,
    player_from_name,
)
from binscrabble.engine.players import (
    Candidate,
    EquityPlayer,
    GreedyPlayer,
    Player,
    RandomPlayer,
    SamplingPlayer,
    distinct_subsets,
    leave_after,
    ranked_candidates,
)
from binscrabble.engine.rollout import REPLY_WIDTH, imagined_game, rollout_reply
from binscrabble.engine.simulation import (
    EQUITY_GAP,
    PRIOR_ITERATIONS,
    CandidateStatistics,
    IterationCosts,
    SimulationPlayer,
    settle,
)
from binscrabble.game import Game
from binscrabble.move import Exchange, Pass, Place
from binscrabble.movegen import best_moves, generate_moves
from binscrabble.rules import Rules

SMALL = Rules(rack_size=5)


def midgame(seed: int = 3, turns: int = 6, rules: Rules = SMALL) -> Game:
    """A game a few greedy turns in."""
    game = Game(("A", "B"), rules=rules, seed=seed)
    greedy = GreedyPlayer()
    for _ in range(turns):
        if game.is_over():
            break
        game.push(greedy.choose(game))
    return game


def endgame() -> Game:
    """Bag empty: a first play that goes out is there for the taking."""
    return Game.from_setup(Rules(), Board(), ["1+1=10", "01"], bag=[])


def no_placement(bag_empty: bool) -> Game:
    """A rack of operators only: nothing can be placed on the empty board."""
    if bag_empty:
        return Game.from_setup(Rules(), Board(), ["++--x&|~/", "11"], bag=[])
    return Game.from_setup(Rules(), Board(), ["++--x&|~/", None], seed=2)


def fast_players(seed: int = 0) -> list[Player]:
    return [
        RandomPlayer(seed=seed),
        GreedyPlayer(),
        EquityPlayer(),
        SamplingPlayer(seen=1 / 3, max_tiles=4, seed=seed),
        SamplingPlayer(seen=0.5, seed=seed),
        SimulationPlayer(budget=0.0, candidates=3, max_iterations=2, seed=seed),
        player_from_name("beginner", seed=seed),
        player_from_name("easy", seed=seed),
        player_from_name("medium"),
    ]


POSITIONS = {
    "opening": lambda: Game(("A", "B"), rules=SMALL, seed=11),
    "midgame": midgame,
    "endgame": endgame,
    "no-placement": lambda: no_placement(bag_empty=False),
    "no-placement-empty-bag": lambda: no_placement(bag_empty=True),
    "left-to-right": lambda: midgame(5, 4, SMALL.override("precedence", "left-to-right")),
}


@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_every_player_returns_a_legal_move(position: str) -> None:
    for player in fast_players():
        game = POSITIONS[position]()
        move = player.choose(game, 0.05)
        assert game.is_legal(move), (player.name, position, move, game.illegal_reason(move))


def test_no_placement_means_exchange_or_pass() -> None:
    for player in fast_players():
        move = player.choose(no_placement(bag_empty=False))
        assert isinstance(move, Exchange), player.name
        move = player.choose(no_placement(bag_empty=True))
        assert isinstance(move, Pass), player.name


def test_greedy_plays_the_highest_score_and_is_deterministic() -> None:
    game = midgame()
    best = max(generated.score for generated in generate_moves(game))
    move = GreedyPlayer().choose(game)
    assert game.score(move) == best
    assert all(GreedyPlayer().choose(midgame()) == move for _ in range(2))


def test_seeded_players_repeat_their_choices() -> None:
    for name in ("random", "beginner", "easy"):
        first = [player_from_name(name, seed=9).choose(midgame(seed)) for seed in range(3)]
        again = [player_from_name(name, seed=9).choose(midgame(seed)) for seed in range(3)]
        assert first == again, name


def test_sampling_players_see_only_short_plays_when_asked() -> None:
    game = Game(("A", "B"), seed=11)
    player = SamplingPlayer(seen=1.0, max_tiles=4, seed=1)
    best = max(generated.score for generated in generate_moves(game) if len(generated.squares) <= 4)
    for _ in range(3):
        move = player.choose(game)
        assert isinstance(move, Place) and len(move.tiles) <= 4
        # Seeing every short play, it takes the best-scoring one.
        assert game.score(move) == best
    with pytest.raises(ValueError, match="seen"):
        SamplingPlayer(seen=0.0)


def test_beginner_scores_less_than_greedy_on_average() -> None:
    # Full racks: the long plays the beginner never sees are where the points are.
    games = [midgame(seed, 1, Rules()) for seed in range(4)]
    greedy = sum(game.score(GreedyPlayer().choose(game)) for game in games)
    beginner = player_from_name("beginner", seed=1)
    assert sum(game.score(beginner.choose(game)) for game in games) < greedy


def test_equity_is_score_plus_leave_value() -> None:
    table = LeaveTable({"has:?x1": 25.0})
    game = Game.from_setup(Rules(rack_size=7), Board(), ["1+1=10?", None], seed=1)
    # Every candidate: the best ones all play the blank, so both kinds of leave are seen.
    candidates = ranked_candidates(game, table)
    assert any("?" in candidate.leave for candidate in candidates)
    assert any("?" not in candidate.leave for candidate in candidates)
    for candidate in candidates:
        expected = candidate.score + (25.0 if "?" in candidate.leave else 0.0)
        assert candidate.equity == pytest.approx(expected)


def test_equity_exchanges_what_it_is_best_rid_of() -> None:
    # Nothing can be placed; a table that loves `=` and dislikes operators keeps the `=`.
    table = LeaveTable({"has:=x1": 30.0, **{f"has:{code}x1": -5.0 for code in "+-x&|~"}})
    game = Game.from_setup(Rules(), Board(), ["++--x&|~=", None], seed=2)
    move = EquityPlayer(table).choose(game)
    assert move == Exchange("++--x&|~")


def test_equity_prefers_a_good_leave_over_a_few_points() -> None:
    rules = Rules(rack_size=7, bingo_bonus=0)
    game = Game.from_setup(rules, Board(), ["1+1=1?", None], seed=1)
    assert any(tile.blank for tile in GreedyPlayer().choose(game).tiles)  # type: ignore[union-attr]
    keeps_blank = EquityPlayer(LeaveTable({"has:?x1": 60.0})).choose(game)
    assert isinstance(keeps_blank, Place) and all(not tile.blank for tile in keeps_blank.tiles)


def test_limited_ranking_agrees_with_the_full_one() -> None:
    game = midgame(7, 3)
    table = LeaveTable.default()
    full = ranked_candidates(game, table)
    assert ranked_candidates(game, table, limit=5) == full[:5]


def test_distinct_subsets_and_leaves() -> None:
    assert len(distinct_subsets("1111")) == 5
    assert len(distinct_subsets("01=+")) == 16
    assert leave_after("1=1", "1") == "=1"
    with pytest.raises(ValueError):
        leave_after("1=1", "0")


# -- simulation ------------------------------------------------------------------------------


def test_simulation_iterations_are_bounded() -> None:
    player = SimulationPlayer(budget=60.0, candidates=4, max_iterations=3, seed=1)
    game = midgame()
    move = player.choose(game)
    report = player.last_report
    assert game.is_legal(move)
    assert report.iterations == 3
    assert report.rollouts <= 3 * 4
    assert all(entry.count <= 3 for entry in report.candidates)


def test_rollout_replies_are_the_best_equity_among_the_top_scores() -> None:
    table = LeaveTable.default()
    for seed in (3, 5):
        world = midgame(seed, 4, Rules())
        reply = rollout_reply(world, table)
        options = ranked_candidates(
            world, table, best_moves(world, REPLY_WIDTH), include_exchanges=False
        )
        assert reply.move == options[0].move
        assert reply.equity == pytest.approx(options[0].equity)


def test_simulated_means_lean_towards_equity_while_iterations_are_few() -> None:
    candidates = ranked_candidates(midgame(), LeaveTable.default(), limit=2)
    statistics = [CandidateStatistics(candidate) for candidate in candidates]
    statistics[0].add(candidates[0].equity - 30.0)
    statistics[1].add(candidates[1].equity - 10.0)
    settle(statistics, iterations=1)
    # The mean change is -20: the prior of each is its equity - 20.
    first = ((candidates[0].equity - 30.0) + PRIOR_ITERATIONS * (candidates[0].equity - 20.0)) / (
        1 + PRIOR_ITERATIONS
    )
    assert statistics[0].mean == pytest.approx(first)
    assert statistics[0].raw_mean == pytest.approx(candidates[0].equity - 30.0)


def test_candidates_far_behind_on_equity_are_not_simulated() -> None:
    player = SimulationPlayer(budget=60.0, candidates=8, max_iterations=1, seed=1)
    game = midgame(5, 4)
    player.choose(game)
    equities = [entry.candidate.equity for entry in player.last_report.candidates]
    assert equities and max(equities) - min(equities) <= EQUITY_GAP
    assert player.last_report.rollouts_per_second > 0


def test_simulation_with_no_time_plays_the_equity_move() -> None:
    game = midgame()
    player = SimulationPlayer(budget=0.0, candidates=4, seed=1)
    assert player.choose(game) == EquityPlayer().choose(game)
    assert player.last_report.rollouts == 0 and player.last_report.iterations == 0


def test_candidates_left_unsimulated_get_the_mean_change_of_the_others() -> None:
    candidates = ranked_candidates(midgame(), LeaveTable.default(), limit=3)
    statistics = [CandidateStatistics(candidate) for candidate in candidates]
    statistics[0].add(candidates[0].equity - 12.0)
    statistics[1].add(candidates[1].equity - 8.0)
    settle(statistics, iterations=0)
    assert statistics[2].mean == pytest.approx(candidates[2].equity - 10.0)
    # With complete iterations, the values of an unfinished one are dropped instead.
    statistics[0].add(1.0)
    settle(statistics, iterations=1)
    assert statistics[0].count == 1


class _StepClockPlayer(SimulationPlayer):
    """A simulating player whose thinking clock moves one millisecond each time it is read:
    a budget buys the same work on any machine."""

    reads = 0

    def _clock(self) -> float:
        self.reads += 1
        return self.reads / 1000


def test_unfinished_iterations_are_dropped() -> None:
    # Plenty of iterations allowed but a small budget, on a clock that counts the player's
    # own steps: the time runs out inside an iteration, and every candidate still active
    # holds exactly one value per complete iteration.
    player = _StepClockPlayer(budget=0.05, candidates=5, seed=2)
    player.choose(midgame(8))
    report = player.last_report
    active = [entry for entry in report.candidates if entry.active]
    assert report.iterations >= 1 and active
    # More rollouts were made than complete iterations hold: an unfinished one was dropped.
    assert report.rollouts > report.iterations * len(active)
    for entry in active:
        assert entry.count == report.iterations


def test_simulation_is_deterministic_with_a_seed_and_an_iteration_bound() -> None:
    def run() -> tuple[object, list[float]]:
        player = SimulationPlayer(budget=60.0, candidates=4, max_iterations=4, seed=3)
        move = player.choose(midgame(4))
        return move, [entry.mean for entry in player.last_report.candidates]

    assert run() == run()


def test_simulation_does_not_peek_at_hidden_tiles() -> None:
    # Two games alike for the seat to move but with the opponent's rack and the bag
    # dealt differently: the simulation must decide the same, down to its statistics.
    base = midgame(6, 4)
    hidden = list(base.unseen())
    opponent = 1 - base.to_move
    size = len(base.racks[opponent])

    def game_with(deal: list[str]) -> Game:
        racks: list[str] = ["", ""]
        racks[base.to_move] = base.rack()
        racks[opponent] = "".join(deal[:size])
        return Game.from_setup(
            base.rules,
            base.board,
            racks,
            scores=base.scores,
            to_move=base.to_move,
            bag=deal[size:],
        )

    first, second = game_with(hidden), game_with(hidden[::-1])
    assert first.racks[opponent] != second.racks[opponent]
    results = []
    for game in (first, second):
        player = SimulationPlayer(budget=60.0, candidates=4, max_iterations=3, seed=5)
        move = player.choose(game)
        results.append((move, [entry.mean for entry in player.last_report.candidates]))
    assert results[0] == results[1]


def test_imagined_game_keeps_what_the_seat_sees() -> None:
    game = midgame()
    seat = game.to_move
    deal = game.unseen()[::-1]
    world = imagined_game(game, seat, deal, seed=1)
    assert world.rack(seat) == game.rack(seat)
    assert world.board == game.board
    assert world.scores == game.scores
    assert [len(rack) for rack in world.racks] == [len(rack) for rack in game.racks]
    assert world.bag_size == game.bag_size
    assert sorted(world.unseen(seat)) == sorted(game.unseen(seat))


def test_endgame_goes_out_when_it_can() -> None:
    game = endgame()
    # A bound on the positions the exact search visits, not on time: the same search on
    # any machine.
    player = SimulationPlayer(budget=1.0, seed=1, endgame_positions=10_000)
    move = player.choose(game)
    assert player.last_report.endgame
    assert isinstance(move, Place) and len(move.tiles) == 6
    world = game.copy()
    assert endgame_value(world, 0, move) > 0
    assert world == game


def test_endgame_values_are_exact_for_a_finished_game() -> None:
    game = endgame()
    move = GreedyPlayer().choose(game)
    value = endgame_value(game.copy(), 0, move)
    game.push(move)
    assert game.is_over()
    assert value == game.scores[0] - game.scores[1]


# -- names and levels ------------------------------------------------------------------------


def test_every_name_makes_a_player() -> None:
    for name in [*LEVELS, *STRATEGIES]:
        player = player_from_name(name, seed=1)
        assert isinstance(player, Player)
        assert player.name == name


def test_levels_think_within_their_budgets() -> None:
    hard, maximum = player_from_name("hard"), player_from_name("max")
    assert isinstance(hard, EquityPlayer)
    assert isinstance(maximum, SimulationPlayer) and maximum.budget <= 5.0
    budgeted = player_from_name("simulation@0.5")
    assert isinstance(budgeted, SimulationPlayer) and budgeted.budget == 0.5


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("grandmaster", "unknown player"),
        ("greedy@1", "takes no time budget"),
        ("max@-1", "above 0"),
        ("max@soon", "above 0"),
        ("hard@1", "takes no time budget"),
        ("", "unknown player"),
    ],
)
def test_bad_player_names_are_refused(text: str, fragment: str) -> None:
    with pytest.raises(PlayerNameError, match=fragment):
        parse_player_name(text)


def test_player_names_accept_the_terminal_prefix_and_any_case() -> None:
    assert parse_player_name("CPU:Max@2") == ("max", 2.0)
    assert parse_player_name("Cpu:HARD") == ("hard", None)


# -- leave table -----------------------------------------------------------------------------


def test_shipped_leave_table_loads_from_package_data() -> None:
    table = LeaveTable.default()
    assert table.weights
    assert table.value("") == 0.0
    assert table.value("1=1") == table.value("11=")
    assert "source" in table.metadata


def test_leave_table_round_trips_through_json() -> None:
    table = LeaveTable({"has:1x1": 1.5, "size:2": -0.25}, {"note": "test"})
    again = LeaveTable.from_json(table.to_json())
    assert again.weights == table.weights
    assert again.metadata == {"note": "test"}
    assert again.value("10") == table.value("10")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{", "not valid JSON"),
        ("[]", "JSON object"),
        (json.dumps({"format": 2, "weights": {}}), "format"),
        (json.dumps({"format": 1, "weights": {"size:1": "big"}}), "weights"),
        (json.dumps({"format": 1, "weights": {}, "metadata": []}), "metadata"),
    ],
)
def test_bad_leave_files_are_refused(text: str, fragment: str) -> None:
    with pytest.raises(LeaveTableError, match=fragment):
        LeaveTable.from_json(text)


def test_leave_features_count_copies_and_shape() -> None:
    features = leave_features("111=+")
    assert {"has:1x1", "has:1x2", "has:1x3", "has:=x1", "has:+x1", "complete"} <= set(features)
    assert "size:5" in features and "digits:3" in features
    assert "zeros-without-ones" in leave_features("00=")
    assert "more-operators-than-digits" in leave_features("+-1")


def training_script() -> Any:
    return load_script("train_leaves")


def test_training_refuses_an_unreadable_start_table(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    for start in (tmp_path / "missing.json", bad):
        with pytest.raises(SystemExit) as stopped:
            training_script().main(["--start", str(start), "--output", str(tmp_path / "out.json")])
        assert stopped.value.code == 2
        assert f"cannot read the leave table {start}" in capsys.readouterr().err
    assert not (tmp_path / "out.json").exists()


def test_training_script_fits_known_leave_values() -> None:
    module = training_script()
    # Keeping a blank is worth 10 points more than keeping a `+`, whatever else is kept.
    samples = [("?" + rest, 20.0) for rest in ("", "1", "10", "=")] * 200
    samples += [("+" + rest, 10.0) for rest in ("", "1", "10", "=")] * 200
    table = LeaveTable(module.fit(samples))
    assert table.value("?1") - table.value("+1") == pytest.approx(10.0, abs=0.5)
    assert module.solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0]) == pytest.approx([0.8, 1.4])


def test_training_sets_the_board_covariate_aside() -> None:
    # Blanks are kept on tight boards (the opponent scores little in between): the target
    # is 10 points for the blank plus half the opponent's points. Without the covariate the
    # tight boards are blamed on the blank; with it, the blank gets its 10 points.
    module = training_script()
    samples = []
    for rest in ("", "1", "10", "=", "0="):
        for opponent in (10.0, 20.0, 30.0):
            samples += [("?" + rest, 10.0 + opponent / 2, opponent)] * 50
        for opponent in (40.0, 50.0, 60.0):
            samples += [("+" + rest, opponent / 2, opponent)] * 50
    with_covariate = LeaveTable(module.fit(samples, ridge=1.0))
    assert with_covariate.value("?1") - with_covariate.value("+1") == pytest.approx(10, abs=0.5)
    without = module.fit([sample[:2] for sample in samples], ridge=1.0)
    assert without["has:?x1"] - without["has:+x1"] < 0


def test_training_over_two_turns_adds_up_the_one_turn_targets() -> None:
    # The same game either way (the explorers do not depend on the target): while the bag
    # refills every rack, turn k's leave is finalized two turns of its seat later with one
    # turn, four with two, and its two-turn target is its one-turn target with the middle
    # leave's worth replaced by what that leave then made.
    module = training_script()
    weights = dict(LeaveTable.default().weights)
    table = LeaveTable(weights)
    _, one = module.play_training_game((7, weights, 1))
    _, two = module.play_training_game((7, weights, 2))
    assert len(one) >= 14
    for k in range(12):
        kept, target, others = two[k]
        assert kept == one[k][0]
        middle = one[k + 2]
        assert target == pytest.approx(one[k][1] - table.value(middle[0]) + middle[1])
        assert others == one[k][2] + middle[2]


def test_training_refuses_fewer_than_one_turn(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        training_script().main(["--turns", "0", "--output", str(tmp_path / "out.json")])
    assert stopped.value.code == 2
    assert "--turns must be at least 1, not 0" in capsys.readouterr().err
    assert not (tmp_path / "out.json").exists()


def test_training_samples_file_resumes_and_skips_a_cut_line(tmp_path: Any) -> None:
    module = training_script()
    path = tmp_path / "samples.jsonl"
    path.write_text(
        json.dumps({"seed": 4, "samples": [["1=", 12.0, 30.0]]}) + '\n{"seed": 5, "sam',
        encoding="utf-8",
    )
    seeds, samples = module.read_samples(path)
    assert seeds == {4}
    assert samples == [("1=", 12.0, 30.0)]


def test_a_kept_blank_is_worth_at_least_any_tile() -> None:
    table = LeaveTable.default()
    assert table.value("?") > 0
    for rest in ("", "1", "=0", "11+", "==", "0000", "x/"):
        blank = table.value(rest + "?")
        assert all(blank >= table.value(rest + face) for face in BLANK_FACES)
    # Even a table that dislikes blanks values one as the best tile it could stand for.
    grumpy = LeaveTable({"has:?x1": -20.0, "has:=x1": 3.0, "has:1x1": 1.0})
    assert grumpy.value("?") == 3.0
    assert grumpy.value("??") == grumpy.value("1=") == 4.0


def test_equity_keeps_the_blank_in_the_benchmark_opening() -> None:
    # bench/bench_engine.py's first position: rack ===010?+0, where the shipped table once
    # made the equity player exchange the blank away.
    game = Game(("A", "B"), seed=1)
    assert "?" in game.rack()
    candidates = ranked_candidates(game, LeaveTable.default(), limit=3)
    assert len(candidates) == 3
    for candidate in candidates:
        assert "?" in candidate.leave


def test_short_endgames_are_solved_exactly() -> None:
    # Going out at once with 1=1 beats anything slower: the opponent holds only `0`.
    game = Game.from_setup(Rules(), Board(), ["1=1", "0"], bag=[])
    player = SimulationPlayer(seed=1, endgame_positions=1_000)
    move = player.choose(game)
    assert player.last_report.exact
    solved = solve_endgame(game.copy())
    assert solved is not None and solved[0] == move
    game.push(move)
    assert game.is_over() and solved[1] == game.scores[0] - game.scores[1]


def test_exact_search_gives_up_when_out_of_time() -> None:
    assert solve_endgame(endgame(), deadline=0.0) is None


def _plain_negamax(world: Game, alpha: float, beta: float) -> float:
    """The reference: alpha-beta over every placement and pass, no table, no move order."""
    if world.is_over():
        return float(world.scores[world.to_move] - world.scores[1 - world.to_move])
    best = -float("inf")
    for move in [generated.place for generated in generate_moves(world)] + [Pass()]:
        world.push(move, checked=False)
        try:
            value = -_plain_negamax(world, -beta, -alpha)
        finally:
            world.pop()
        best = max(best, value)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best


def _small_endgames() -> list[Game]:
    """Tiny known endgames on a board holding 1+1=10 (row 8, from D)."""
    rows = ["." * 15] * 15
    rows[7] = "...1+1=10......"
    board = Board.from_rows(rows)
    racks = (["1=1", "0+1"], ["1=0", "1=1"], ["11=", "10="], ["1=1-", "0=1"], ["=1", "x1="])
    return [Game.from_setup(Rules(), board, pair, bag=[]) for pair in racks]


def test_endgame_search_with_its_table_agrees_with_plain_alpha_beta() -> None:
    positions = _small_endgames()
    values = []
    for world in positions:
        solved = solve_endgame(world, deadline=float("inf"))
        assert solved is not None
        move, value = solved
        assert value == _plain_negamax(world, -float("inf"), float("inf"))
        values.append(value)
        # The move it returns reaches that value.
        world.push(move, checked=False)
        try:
            assert -_plain_negamax(world, -float("inf"), float("inf")) == value
        finally:
            world.pop()
    # The values found on these positions (the first: nothing better than passing).
    assert values == [-1.0, 21.0, -12.0, 13.0, 13.0]


def test_endgame_search_sees_past_the_biggest_score() -> None:
    # B holds 1=1 and goes out at once if it can; A's biggest play (1+1=10, 18 points, all
    # its tiles) goes out first and wins; a smaller first play would let B out.
    world = Game.from_setup(Rules(), Board(), ["1+1=10", "1=1"], bag=[])
    solved = solve_endgame(world, deadline=float("inf"))
    assert solved is not None
    move, value = solved
    assert isinstance(move, Place) and len(move.tiles) == 6
    assert value == _plain_negamax(world, -float("inf"), float("inf"))


def test_ranked_candidates_read_best_first_match_the_sorted_ranking() -> None:
    # A rack with a blank: the generator's list is lazy and long; reading it best first
    # and stopping early must rank exactly as sorting every move does.
    game = Game.from_setup(Rules(), Board(), ["1?0=+1x0=", None], seed=3)
    table = LeaveTable.default()
    moves = generate_moves(game)
    lazy = ranked_candidates(game, table, moves, limit=5, best_first=True)
    sorted_all = ranked_candidates(game, table, list(moves), limit=5)
    assert lazy == sorted_all
    assert ranked_candidates(game, table, limit=5) == sorted_all


#: A rollout costs 0.05 s with its own generation, a deal's shared generation as much, a
#: rollout from it half that.
COSTS = IterationCosts(full=0.05, shared=0.05, near=0.025)


def test_narrowing_keeps_the_best_candidates_when_time_is_short() -> None:
    player = SimulationPlayer(budget=1.0, seed=1)
    statistics = [
        CandidateStatistics(Candidate(Pass(), 0, "", equity), [value])
        for equity, value in ((30.0, 0.0), (29.0, 20.0), (28.0, 5.0), (10.0, 40.0))
    ]
    # Time for 2 iterations of 3 rollouts: not 4 iterations of all 4 candidates.
    player._narrow(
        statistics, 1, remaining=0.3, costs=IterationCosts(full=0.05, shared=0.05, near=0.025)
    )
    assert [entry.active for entry in statistics] == [True, True, False, False]
    # With time to spare, nobody is dropped.
    fresh = [CandidateStatistics(entry.candidate, entry.values[:]) for entry in statistics]
    player._narrow(
        fresh, 1, remaining=100.0, costs=IterationCosts(full=0.05, shared=0.05, near=0.025)
    )
    assert all(entry.active for entry in fresh)


def test_narrowing_before_any_rollout_keeps_the_equity_order() -> None:
    player = SimulationPlayer(budget=1.0, seed=1)
    statistics = [
        CandidateStatistics(Candidate(Pass(), 0, "", equity)) for equity in (30.0, 29.0, 28.0)
    ]
    # 0.4 s at 0.05 s a rollout buys 8 rollouts: 4 iterations of the 2 best.
    player._narrow(
        statistics, 0, remaining=0.4, costs=IterationCosts(full=0.05, shared=0.05, near=0.025)
    )
    assert [entry.active for entry in statistics] == [True, True, False]
