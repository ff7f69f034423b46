"""Self-play: paired games with shared draws, reproducible matches, intervals, the command."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest

from binscrabble.cli import main
from binscrabble.cli.selfplay_command import ProgressLines
from binscrabble.engine.selfplay import (
    GameResult,
    MatchResult,
    pair_seed,
    play_game,
    run_match,
    seats_for_game,
)
from binscrabble.engine.stats import paired_interval, wilson_interval
from binscrabble.game import Game
from binscrabble.rules import Rules

SMALL = Rules(rack_size=4)
ROOT = Path(__file__).resolve().parent.parent


def test_games_of_a_pair_share_the_seed_and_swap_seats() -> None:
    players = ("greedy", "random")
    first = play_game(players, 4, seed=11, rules=SMALL)
    second = play_game(players, 5, seed=11, rules=SMALL)
    assert first.seed == second.seed == pair_seed(11, 2)
    assert first.seats == ("greedy", "random")
    assert second.seats == ("random", "greedy")
    assert play_game(players, 6, seed=11, rules=SMALL).seed != first.seed


def test_swapped_seats_get_the_same_tiles() -> None:
    # The same seed deals the same racks to the seats and orders the bag alike: whoever sits
    # in seat 0 of either game of a pair draws exactly the same tiles.
    seed = pair_seed(3, 0)
    first = Game(seats_for_game(("greedy", "equity"), 0), rules=SMALL, seed=seed)
    second = Game(seats_for_game(("greedy", "equity"), 1), rules=SMALL, seed=seed)
    assert first.racks == second.racks
    assert first.bag == second.bag
    assert first.players == tuple(reversed(second.players))


def test_scores_are_reported_in_match_order() -> None:
    result = play_game(("greedy", "random"), 1, seed=2, rules=SMALL)
    # Game 1 seats random first; the first score is still greedy's.
    game = Game(result.seats, rules=SMALL, seed=result.seed)
    assert result.seats[1] == "greedy"
    assert result.turns > 0 and game.players == result.seats


def test_each_match_player_may_bring_its_own_leave_table() -> None:
    # The equity player reads the table it is given; None (or no tables) is the shipped one.
    shipped = str(ROOT / "src" / "binscrabble" / "engine" / "data" / "leaves.json")
    round_one = str(ROOT / "scripts" / "leaves_round1.json")
    players = ("equity", "greedy")
    default = play_game(players, 0, seed=3, rules=SMALL)
    same = play_game(players, 0, seed=3, rules=SMALL, tables=(shipped, None))
    assert (same.scores, same.turns) == (default.scores, default.turns)
    other = play_game(players, 0, seed=3, rules=SMALL, tables=(round_one, None))
    assert other.seed == default.seed
    assert (other.scores, other.turns) != (default.scores, default.turns)
    # The tables follow the match players, not the seats: in game 1 greedy sits first.
    swapped = play_game(("greedy", "equity"), 1, seed=3, rules=SMALL, tables=(None, round_one))
    assert swapped.scores == tuple(reversed(other.scores))


def test_a_missing_leave_table_is_an_error_not_ignored(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        run_match(["equity", "greedy"], 2, tables=(str(tmp_path / "missing.json"), None))


def test_match_is_reproducible_and_independent_of_jobs() -> None:
    one = run_match(["greedy", "random"], 4, seed=5, jobs=1, rules=SMALL)
    two = run_match(["greedy", "random"], 4, seed=5, jobs=2, rules=SMALL)
    assert [game.scores for game in one.games] == [game.scores for game in two.games]
    assert [game.index for game in two.games] == [0, 1, 2, 3]
    assert one.summary() | {"seconds": 0} == two.summary() | {"seconds": 0}


def test_summary_has_exactly_the_interface_shape() -> None:
    result = run_match(["greedy", "random"], 2, seed=1, jobs=1, rules=SMALL)
    summary = result.summary()
    assert list(summary) == ["games", "players", "wins", "draws", "mean_scores", "seconds"]
    assert summary["games"] == 2
    assert summary["players"] == ["greedy", "random"]
    wins = summary["wins"]
    assert isinstance(wins, list) and sum(wins) + summary["draws"] == 2  # type: ignore[operator]
    assert all(isinstance(score, float) for score in summary["mean_scores"])  # type: ignore[attr-defined]


def test_progress_is_reported_after_each_game() -> None:
    calls: list[tuple[int, int]] = []
    run_match(
        ["random", "random"], 2, seed=1, jobs=1, rules=SMALL, progress=lambda *a: calls.append(a)
    )
    assert calls == [(1, 2), (2, 2)]


def test_match_needs_two_players_and_a_game() -> None:
    with pytest.raises(ValueError, match="two players"):
        run_match(["greedy"], 2)
    with pytest.raises(ValueError, match="at least one game"):
        run_match(["greedy", "random"], 0)


def _result(scores: list[tuple[int, int]]) -> MatchResult:
    games = tuple(
        GameResult(index, 0, ("a", "b"), score, 10, 0.1) for index, score in enumerate(scores)
    )
    return MatchResult(("a", "b"), 0, games, 1.0)


def test_wins_draws_and_win_rate_count_draws_half() -> None:
    result = _result([(10, 5), (5, 5), (3, 9), (7, 1)])
    assert result.wins == (2, 1)
    assert result.draws == 1
    assert result.win_rate == pytest.approx(2.5 / 4)
    assert result.mean_scores == (6.25, 5.0)
    assert result.pair_scores() == [0.75, 0.5]
    assert result.interval() == wilson_interval(2.5, 4)


def test_table_names_the_interval() -> None:
    text = _result([(10, 5), (5, 9)] * 10).table()
    assert "Wilson" in text and "paired 95% interval over 10 pairs" in text
    assert "not shown" in _result([(10, 5), (5, 9)]).table()


# -- intervals --------------------------------------------------------------------------------


def test_wilson_interval_matches_the_formula() -> None:
    low, high = wilson_interval(60, 100)
    assert low == pytest.approx(0.50199, abs=1e-4)
    assert high == pytest.approx(0.69063, abs=1e-4)
    # Symmetric: k successes and n - k failures mirror each other.
    low_mirror, high_mirror = wilson_interval(40, 100)
    assert low == pytest.approx(1 - high_mirror) and high == pytest.approx(1 - low_mirror)
    # It contains the estimate and stays inside [0, 1], even at the edges.
    assert wilson_interval(0, 10)[0] == 0.0 and 0 < wilson_interval(0, 10)[1] < 0.35
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_narrows_with_more_games() -> None:
    small = wilson_interval(6, 10)
    large = wilson_interval(600, 1000)
    assert large[1] - large[0] < small[1] - small[0]
    assert math.isclose(sum(wilson_interval(500, 1000)), 1.0)


def test_wilson_interval_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    with pytest.raises(ValueError):
        wilson_interval(-1, 10)


def test_paired_interval_is_a_normal_interval_on_pair_means() -> None:
    scores = [1.0, 0.5, 0.5, 1.0, 0.0, 0.5, 1.0, 0.5]
    mean = sum(scores) / len(scores)
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (len(scores) - 1))
    low, high = paired_interval(scores)
    assert low == pytest.approx(mean - 1.959964 * sd / math.sqrt(len(scores)))
    assert high == pytest.approx(min(1.0, mean + 1.959964 * sd / math.sqrt(len(scores))))
    assert paired_interval([1.0]) == (0.0, 1.0)


# -- the command ------------------------------------------------------------------------------


def test_selfplay_command_ends_with_the_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "--players", "greedy,random", "--games", "2", "--seed", "4", "--jobs", "1"]
    status = main([*argv, "--rule", "rack_size=4", "--json"])
    out = capsys.readouterr().out.strip().splitlines()
    assert status == 0
    summary = json.loads(out[-1])
    assert summary["games"] == 2 and summary["players"] == ["greedy", "random"]
    assert set(summary) == {"games", "players", "wins", "draws", "mean_scores", "seconds"}
    assert any("Wilson" in line for line in out)


def test_selfplay_progress_goes_to_a_log_as_lines(capsys: pytest.CaptureFixture[str]) -> None:
    # Standard error is not a terminal here (as when a long match is written to a file):
    # a line at every tenth of the games, and one at the end, none of them redrawn.
    argv = ["selfplay", "--players", "greedy,random", "--games", "4", "--seed", "4", "--jobs", "1"]
    assert main([*argv, "--rule", "rack_size=4"]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err
    lines = err.splitlines()
    assert [line.split(" games")[0] for line in lines] == [
        "selfplay: 1/4",
        "selfplay: 2/4",
        "selfplay: 3/4",
        "selfplay: 4/4",
    ]
    assert lines[-1].startswith("selfplay: 4/4 games (100%), ") and lines[-1].endswith("~0 s left")


def test_progress_lines_come_once_a_tenth() -> None:
    stream = io.StringIO()
    lines = ProgressLines(stream)
    for done in range(1, 801):
        lines.update(done, 800)
    reported = [line.split()[1] for line in stream.getvalue().splitlines()]
    assert reported == [f"{80 * step}/800" for step in range(1, 11)]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--players", "greedy", "--games", "2"], "two players"),
        (["--players", "greedy,wizard", "--games", "2"], "unknown player"),
        (["--players", "greedy,random", "--games", "0"], "at least 1"),
        (["--players", "greedy,random", "--games", "2", "--jobs", "0"], "--jobs"),
        (["--players", "greedy,random", "--games", "2", "--jobs", "100000"], "1 to 256 worker"),
        (["--players", "greedy,random", "--games", "2", "--rule", "rack_size=99"], "rack_size"),
    ],
)
def test_selfplay_command_usage_errors(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["selfplay", *argv]) == 2
    assert fragment in capsys.readouterr().err


def test_selfplay_command_reports_a_broken_game_without_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import binscrabble.engine.selfplay as selfplay

    def broken(*args: object, **kwargs: object) -> MatchResult:
        raise ValueError("seat 0 played an illegal move")

    monkeypatch.setattr(selfplay, "run_match", broken)
    assert main(["selfplay", "--players", "greedy,random", "--games", "2"]) == 1
    err = capsys.readouterr().err
    assert "illegal move" in err and "Traceback" not in err


def test_a_player_that_crashes_stops_the_match_with_its_position_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import pickle

    from binscrabble.engine import players
    from binscrabble.engine.selfplay import GameFailure
    from binscrabble.position import load_position

    calls: list[str] = []

    def crashing(self: object, game: Game, budget: float | None = None) -> object:
        calls.append(game.rack())
        if len(calls) == 3:
            raise IndexError("string index out of range")
        return original(self, game, budget)  # type: ignore[arg-type]

    original = players.GreedyPlayer.choose
    monkeypatch.setattr(players.GreedyPlayer, "choose", crashing)
    monkeypatch.chdir(tmp_path)
    argv = ["selfplay", "--players", "greedy,equity", "--games", "2", "--seed", "4", "--jobs", "1"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "selfplay stopped: game 1 (seed " in err
    assert "greedy failed: IndexError: string index out of range" in err
    saved = list(tmp_path.glob("selfplay-failure-*-game1.json"))
    assert len(saved) == 1 and str(saved[0].name) in err
    # The saved position is the one the failing move was asked in: greedy to move, with
    # the rack it was asked about, and the board after the moves before.
    position = load_position(saved[0])
    assert position.rack() == calls[2]
    assert position.players[position.to_move] == "greedy"
    assert not position.board.is_empty()
    # A failure raised in a worker process reaches the parent whole.
    failure = GameFailure(3, 77, 1, "a", {"board": []}, "ValueError: bad")
    copy = pickle.loads(pickle.dumps(failure))
    assert isinstance(copy, GameFailure) and str(copy) == str(failure)
    assert (copy.index, copy.seed, copy.turn, copy.player) == (3, 77, 1, "a")
    assert copy.position == failure.position and copy.cause == "ValueError: bad"


class _Enough(Exception):
    """Raised by a progress callback to stop a match early."""


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_huge_match_starts_at_once_and_stops_cleanly(jobs: int) -> None:
    # The tasks are made as games are played: asking for 10**12 games costs nothing up
    # front, and stopping after a few leaves no worker or feeder behind.
    played: list[int] = []

    def progress(done: int, total: int) -> None:
        played.append(done)
        assert total == 10**12
        if done == 3:
            raise _Enough

    with pytest.raises(_Enough):
        run_match(["random", "random"], 10**12, seed=2, jobs=jobs, rules=SMALL, progress=progress)
    assert played == [1, 2, 3]
