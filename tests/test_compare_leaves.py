"""scripts/compare_leaves.py: equity against equity, each with its own leave table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from script_modules import load_script

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "src" / "binscrabble" / "engine" / "data" / "leaves.json"
ROUND_ONE = ROOT / "scripts" / "leaves_round1.json"


compare = load_script("compare_leaves")


def test_a_pair_of_games_swaps_the_tables_between_the_seats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert compare.main([str(SHIPPED), str(ROUND_ONE), "--games", "2", "--seed", "5"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["games"] == 2
    assert summary["players"] == [str(SHIPPED), str(ROUND_ONE)]
    assert sum(summary["wins"]) + summary["draws"] == 2
    # Both games of the pair come from one seed, each table in each seat once.
    first = compare.play((str(SHIPPED), str(ROUND_ONE), 0, 5))
    second = compare.play((str(SHIPPED), str(ROUND_ONE), 1, 5))
    assert first.seed == second.seed
    assert first.seats == (str(SHIPPED), str(ROUND_ONE))
    assert second.seats == (str(ROUND_ONE), str(SHIPPED))


def test_the_same_table_in_both_seats_plays_the_same_game_twice() -> None:
    # With one table the two seats play alike, so the swapped game is the same game.
    first = compare.play((str(SHIPPED), str(SHIPPED), 0, 8))
    second = compare.play((str(SHIPPED), str(SHIPPED), 1, 8))
    assert first.scores == tuple(reversed(second.scores))
    assert first.turns == second.turns


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([str(SHIPPED), str(ROUND_ONE), "--games", "3"], "even number"),
        ([str(SHIPPED), "no-such-table.json", "--games", "2"], "cannot read the leave table"),
    ],
)
def test_bad_arguments_are_refused(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        compare.main(arguments)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
