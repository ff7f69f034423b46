"""scripts/decision_oracle.py: a level's choices valued against a long look-ahead."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from script_modules import load_script

from binscrabble.engine import simulation

oracle_script = load_script("decision_oracle")


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def candidate(move: str, equity: float, values: list[float]) -> dict[str, object]:
    return {"move": move, "equity": equity, "mean": sum(values) / len(values), "values": values}


def position(turn: int, candidates: list[dict[str, object]]) -> dict[str, object]:
    """An oracle record of seed 1 at `turn`."""
    return {"seed": 1, "turn": turn, "bag": 80 - turn, "spread": 0, "candidates": candidates}


def test_the_report_values_each_choice_by_the_oracle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two positions; the first candidate is the equity move. Values alternate between the
    # odd- and even-numbered iterations so that the curve's choice and value differ.
    oracle = write(
        tmp_path / "oracle.json",
        [
            position(
                0, [candidate("A", 20.0, [10.0, 10.0] * 5), candidate("B", 18.0, [14.0, 12.0] * 5)]
            ),
            position(
                4, [candidate("C", 30.0, [5.0, 5.0] * 5), candidate("D", 29.0, [3.0, 9.0] * 5)]
            ),
        ],
    )
    equity = write(tmp_path / "equity.json", [{"seed": 1, "turn": 0, "move": "A"}])
    other = write(
        tmp_path / "other.json",
        [
            {"seed": 1, "turn": 0, "move": "B"},
            {"seed": 1, "turn": 4, "move": "D"},
            {"seed": 2, "turn": 0, "move": "E"},  # not an oracle position: ignored
        ],
    )
    missing = write(tmp_path / "missing.json", [{"seed": 1, "turn": 4, "move": "Z"}])
    oracle_script.report(oracle, [equity, other, missing])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "2 positions"
    # The equity move gains nothing; B gains 13 - 10 = 3, D 6 - 5 = 1: a mean of 2.
    assert lines[1].startswith(f"{equity}: +0.00 ± inf points a decision")
    assert lines[2].startswith(f"{other}: +2.00 ± 1.00 points a decision")
    assert "(2 decisions; 0 moves outside" in lines[2]
    assert lines[3] == f"{missing}: no decision valued (1 moves outside the oracle's candidates)"
    # Paired on the one position both chose in: B against A, +3; none with `missing`.
    assert lines[4] == f"{other} minus {equity}: +3.00 ± inf"
    assert lines[5].startswith("choosing with M")
    # The curve at M = 5: chosen on the odd-numbered values (B: 12 > 10; D: 9 > 5), valued
    # on the even-numbered ones (B: 14 - 10 = 4; D: 3 - 5 = -2): a mean of 1.
    assert "  M =  5: +1.00 ± 3.00 (2 decisions)" in lines


@pytest.mark.parametrize("to_end", [False, True])
def test_a_small_oracle_simulates_every_candidate_on_every_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, to_end: bool
) -> None:
    # Only the first position of one game, kept small: 3 candidates, 2 iterations.
    first = next(oracle_script.positions(7, 8))
    monkeypatch.setattr(
        oracle_script,
        "positions",
        lambda start, stop: iter([first]) if (start, stop) == (7, 8) else iter([]),
    )
    saved = (simulation.PRUNE_MARGIN, simulation.EQUITY_GAP, simulation.MIN_ITERATIONS)
    path = tmp_path / "oracle.json"
    oracle_script.make_oracle(7, 8, candidates=3, iterations=2, path=path, to_end=to_end)
    assert saved == (simulation.PRUNE_MARGIN, simulation.EQUITY_GAP, simulation.MIN_ITERATIONS)
    (record,) = json.loads(path.read_text(encoding="utf-8"))
    seed, turn, game = first
    assert (record["seed"], record["turn"], record["bag"]) == (seed, turn, game.bag_size)
    assert len(record["candidates"]) == 3
    equities = [entry["equity"] for entry in record["candidates"]]
    assert equities == sorted(equities, reverse=True)
    for entry in record["candidates"]:
        assert len(entry["values"]) == 2
        assert math.isclose(entry["mean"], sum(entry["values"]) / 2)
    # Played to the end, a rollout is worth the change of the final spread: whole points.
    # After two plies it ends on the leaves' values, which are not.
    values = [value for entry in record["candidates"] for value in entry["values"]]
    whole = [value == int(value) for value in values]
    assert all(whole) if to_end else not all(whole)
    # The equity level's choice there, valued by this oracle.
    choices = tmp_path / "equity.json"
    oracle_script.choose("equity", path, choices, {})
    (choice,) = json.loads(choices.read_text(encoding="utf-8"))
    assert (choice["seed"], choice["turn"]) == (seed, turn)
    assert choice["move"] == record["candidates"][0]["move"]
