"""Analysis: `best` on positions and `analyze` on records, through the API and the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from binscrabble.board import Board
from binscrabble.cli import main
from binscrabble.engine import analysis as analysis_module
from binscrabble.engine.analysis import analyze_game, analyze_position, evaluate_move
from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.levels import player_from_name
from binscrabble.engine.players import GreedyPlayer, Player, ranked_candidates
from binscrabble.engine.simulation import SimulationPlayer
from binscrabble.game import Game
from binscrabble.move import Pass, Place
from binscrabble.record import write_record_file
from binscrabble.rules import Rules

SMALL = Rules(rack_size=6)
EMPTY_ROWS = ["." * 15] * 15


def short_game(turns: int = 6) -> Game:
    """Greedy against the beginner for a few turns."""
    game = Game(("Ada", "Bob"), rules=SMALL, seed=3)
    players = [GreedyPlayer(), player_from_name("beginner", seed=1)]
    for _ in range(turns):
        if game.is_over():
            break
        game.push(players[game.to_move].choose(game))
    return game


def test_best_greedy_move_has_the_top_score_and_runners_up_follow() -> None:
    game = Game.from_setup(Rules(), Board(), ["1+1=10", None], seed=1)
    analysis = analyze_position(game, "greedy", runners_up=3)
    assert analysis.chosen.score == 18
    assert analysis.chosen.notation
    assert len(analysis.runners_up) == 3
    assert all(item.move != analysis.chosen.move for item in analysis.runners_up)
    assert game.is_legal(analysis.chosen.move)


def test_best_by_equity_ranks_runners_up_by_equity() -> None:
    analysis = analyze_position(short_game(3), "equity", runners_up=4)
    equities = [analysis.chosen.equity] + [item.equity for item in analysis.runners_up]
    assert equities == sorted(equities, reverse=True)


def test_best_by_simulation_reports_simulated_values(monkeypatch: pytest.MonkeyPatch) -> None:
    def bounded_player(name: str, **options: Any) -> Player:
        # Two iterations however long they take, not 0.2 s: whether a value was simulated
        # must not depend on the machine's speed.
        engine = player_from_name(name, **options)
        assert isinstance(engine, SimulationPlayer)
        engine.max_iterations, engine.budget = 2, 60.0
        return engine

    monkeypatch.setattr(analysis_module, "player_from_name", bounded_player)
    # After 4 turns several different moves are close in equity (after 2, one move stands
    # out alone and is played without simulating).
    analysis = analyze_position(short_game(4), "simulation@0.2", runners_up=2)
    assert analysis.player == "simulation"
    assert analysis.chosen.simulated is not None
    data = analysis.to_dict()
    assert set(data) == {"player", "move", "runners_up", "seconds"}


def test_analysis_leaves_the_game_untouched() -> None:
    game = short_game(4)
    before = game.state()
    analyze_position(game, "medium")
    turns = analyze_game(game, "greedy")
    assert game.state() == before
    assert len(turns) == len(game.history)


def test_analyze_finds_no_loss_for_the_engines_own_moves() -> None:
    game = Game(("Ada", "Bob"), rules=SMALL, seed=8)
    greedy = GreedyPlayer()
    for _ in range(5):
        game.push(greedy.choose(game))
    turns = analyze_game(game, "greedy")
    assert [turn.points_lost for turn in turns] == [0] * 5
    assert [turn.played.move for turn in turns] == [turn.move for turn in game.history]


def test_analyze_measures_what_a_weak_move_gives_away() -> None:
    game = Game.from_setup(Rules(), Board(), ["1+1=10", None], seed=1)
    game.push(Pass())
    (turn,) = analyze_game(game, "greedy")
    assert isinstance(turn.played.move, Pass)
    assert isinstance(turn.best.move, Place)
    assert turn.points_lost == 18
    assert turn.equity_lost > 0
    assert json.loads(json.dumps(turn.to_dict()))["points_lost"] == 18


# -- the commands -----------------------------------------------------------------------------


def write_position(tmp_path: Path, data: object) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_best_command_prints_the_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_position(tmp_path, {"board": EMPTY_ROWS, "rack": "1+1=10"})
    assert main(["best", path, "--player", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "greedy plays" in out and "score 18" in out and "runners-up" in out
    assert main(["best", path, "--player", "greedy", "--json", "--top", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["move"]["score"] == 18 and len(data["runners_up"]) == 2


@pytest.mark.parametrize(
    ("content", "argv", "fragment"),
    [
        (None, [], "no such file"),
        ("{", [], "not valid JSON"),
        ({"board": EMPTY_ROWS}, [], "rack"),
        ({"board": EMPTY_ROWS, "rack": "1+1=10"}, ["--player", "wizard"], "unknown player"),
        ({"board": EMPTY_ROWS, "rack": "1+1=10"}, ["--top", "-1"], "--top"),
    ],
)
def test_best_command_errors(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: object,
    argv: list[str],
    fragment: str,
) -> None:
    if content is None:
        path = str(tmp_path / "missing.json")
    elif isinstance(content, str):
        path = str(tmp_path / "broken.json")
        Path(path).write_text(content, encoding="utf-8")
    else:
        path = write_position(tmp_path, content)
    assert main(["best", path, *argv]) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_analyze_command_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.bsr"
    write_record_file(short_game(4), path)
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    assert "points lost" in out and "Ada:" in out and "Bob:" in out
    assert main(["analyze", str(path), "--json", "--player", "greedy"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 4
    first = json.loads(lines[0])
    assert first["turn"] == 1 and first["player"] == "Ada"
    assert {"played", "best", "points_lost", "equity_lost", "rack"} <= set(first)


@pytest.mark.parametrize(
    ("content", "argv", "fragment"),
    [
        (None, [], "no such file"),
        ("hello\n", [], "not a binscrabble record"),
        ("GOOD", ["--player", "wizard"], "unknown player"),
    ],
)
def test_analyze_command_errors(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: str | None,
    argv: list[str],
    fragment: str,
) -> None:
    path = tmp_path / "game.bsr"
    if content == "GOOD":
        write_record_file(short_game(2), path)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["analyze", str(path), *argv]) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_runners_up_show_each_placement_once_whatever_the_blanks() -> None:
    # With a blank and natural tiles, many plays can be made with or without the blank:
    # the runners-up list each placement (squares and faces) once.
    game = Game.from_setup(Rules(), Board(), ["?1+1=10", None], seed=1)
    analysis = analyze_position(game, "greedy", runners_up=8)
    assert len(analysis.runners_up) == 8
    placements = [
        tuple((tile.square, tile.face, tile.rotated) for tile in item.move.tiles)
        for item in (analysis.chosen, *analysis.runners_up)
        if isinstance(item.move, Place)
    ]
    assert len(placements) == len(set(placements)) == 9
    # The generator itself does list blank versions of some of them.
    blanked = {
        tuple((tile.square, tile.face, tile.rotated) for tile in move.tiles)
        for move in game.legal_moves
        if isinstance(move, Place) and any(tile.blank for tile in move.tiles)
    }
    assert blanked & set(placements)


def test_runners_up_are_the_top_of_the_whole_equity_ranking_without_ranking_it_all() -> None:
    game = Game.from_setup(Rules(), Board(), ["??1+1=10", None], seed=1)
    table = LeaveTable.default()
    analysis = analyze_position(game, "equity", runners_up=6, table=table)
    every = ranked_candidates(game, table)
    # The whole ranking, one entry per placement (blanks aside), the chosen move first.
    expected: list[float] = []
    seen: set[object] = set()
    for candidate in every:
        key = (
            tuple((tile.square, tile.face, tile.rotated) for tile in candidate.move.tiles)
            if isinstance(candidate.move, Place)
            else candidate.move
        )
        if key not in seen:
            seen.add(key)
            expected.append(candidate.equity)
    shown = [analysis.chosen.equity] + [item.equity for item in analysis.runners_up]
    assert shown == pytest.approx(expected[:7])
    assert len(every) > 20 * len(analysis.candidates)


def test_a_move_played_outside_the_best_is_valued_with_its_leave() -> None:
    game = short_game(3)
    table = LeaveTable.default()
    worst = ranked_candidates(game, table)[-1]
    played = evaluate_move(worst.move, game, table)
    assert played.score == worst.score
    assert sorted(played.leave) == sorted(worst.leave)
    assert played.equity == pytest.approx(worst.equity)
