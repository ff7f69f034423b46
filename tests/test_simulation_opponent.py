"""The simulation's model of the opponent's kept tiles (opponent_model, deal_kept,
opponent_kept) and the script that fits it."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from script_modules import load_script

from binscrabble.board import Board
from binscrabble.engine import simulation
from binscrabble.engine.players import GreedyPlayer
from binscrabble.engine.simulation import (
    SimulationPlayer,
    deal_kept,
    opponent_kept,
    opponent_weights,
)
from binscrabble.game import Game
from binscrabble.move import Exchange, Pass, Place
from binscrabble.rules import Rules


def test_kept_tiles_are_counted_from_the_opponents_last_move() -> None:
    game = Game(("A", "B"), seed=7)
    assert opponent_kept(game, 0) == 0  # the opponent has not moved
    greedy = GreedyPlayer()
    game.push(greedy.choose(game))
    first = game.history[-1].move
    assert isinstance(first, Place)
    # Seat 1 to move: its opponent (seat 0) placed some tiles and kept the rest.
    assert opponent_kept(game, 1) == len(game.racks[0]) - len(first.tiles)
    assert opponent_kept(game, 0) == 0  # seat 1 has not moved yet
    game.push(Exchange(game.rack()[:3]))
    assert opponent_kept(game, 0) == len(game.racks[1]) - 3
    game.push(Pass())
    game.push(Pass())
    assert opponent_kept(game, 0) == len(game.racks[1])  # a pass keeps every tile
    three = Game(("A", "B", "C"), seed=7)
    three.push(greedy.choose(three))
    assert opponent_kept(three, 1) == 0  # more than two players: uniform deals


def test_deal_kept_keeps_every_tile_and_favours_weighted_faces() -> None:
    unseen = "0000011111====~~+-"
    rng = random.Random(3)
    first: Counter[str] = Counter()
    for _ in range(400):
        deal = deal_kept(unseen, 4, {"~": 20.0, "=": 0.05}, rng)
        assert sorted(deal) == sorted(unseen)
        first.update(deal[:4])
    # Uniformly, 4 of 18 tiles would hold 0.44 NOT and 0.89 = on average.
    assert first["~"] / 400 > 1.5
    assert first["="] / 400 < 0.2
    assert deal_kept(unseen, 0, {"~": 20.0}, random.Random(1)) != ""
    assert sorted(deal_kept("01", 5, {}, random.Random(1))) == ["0", "1"]


def test_the_shipped_weights_cover_every_face() -> None:
    weights = opponent_weights()
    assert set("01=+-x/&|~?") <= set(weights)
    assert all(weight > 0 for weight in weights.values())
    # The equity player keeps a NOT more often than an = (the reason for the model).
    assert weights["~"] > 1 > weights["="]


def test_the_simulation_deals_the_kept_tiles_with_the_weights(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game(("A", "B"), seed=11)
    greedy = GreedyPlayer()
    for _ in range(3):
        game.push(greedy.choose(game))
    seat = game.to_move
    kept = opponent_kept(game, seat)
    unseen = game.unseen(seat)
    assert 0 < kept <= unseen.count("0")
    deals: list[str] = []
    real = simulation.imagined_game

    def recording(game: Game, seat: int, deal: str, seed: int | None = None) -> Game:
        deals.append(deal)
        return real(game, seat, deal, seed)

    monkeypatch.setattr(simulation, "imagined_game", recording)
    monkeypatch.setattr(simulation, "opponent_weights", lambda: {"0": 1e9})
    SimulationPlayer(plies=1, max_iterations=3, budget=30, opponent_model=True, seed=2).choose(game)
    assert deals and all(deal[:kept] == "0" * kept for deal in deals)
    deals.clear()
    SimulationPlayer(plies=1, max_iterations=3, budget=30, seed=2).choose(game)
    assert deals and any(deal[:kept] != "0" * kept for deal in deals)


def test_the_fit_finds_the_faces_kept_more_often() -> None:
    script = load_script("fit_opponent_model")
    # Movers that always keep NOTs and never an =.
    observations = [("~~", "0011==~~+", "~~01")] * 40 + [("~0", "0011==~~+-", "~0==")] * 40
    weights = script.fit(observations)
    assert weights["~"] > weights["0"] > weights["="]
    assert weights["~"] > 1 > weights["="]


def test_the_fit_script_writes_its_table(tmp_path: Path) -> None:
    script = load_script("fit_opponent_model")
    output = tmp_path / "opponent.json"
    assert script.main(["--games", "1", "--seed", "5", "--output", str(output)]) == 0
    data = json.loads(output.read_text())
    assert data["games"] == 1 and data["moves"] > 0
    assert set(data["rack_value"]) == {"real", "uniform", "modelled"}
    with pytest.raises(SystemExit):
        script.main(["--games", "0", "--output", str(output)])


def test_setups_without_history_deal_uniformly() -> None:
    game = Game.from_setup(Rules(), Board(), ["1=1", "000"], bag=list("10=" * 5))
    assert opponent_kept(game, 0) == 0
