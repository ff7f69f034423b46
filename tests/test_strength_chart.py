"""The strength chart (scripts/strength_chart.py): pooled figures, the picture, staleness."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from script_modules import load_script

SVG = "{http://www.w3.org/2000/svg}"


chart = load_script("strength_chart")


def _runs_file(tmp_path: Path, rows: list[dict[str, object]]) -> Path:
    path = tmp_path / "runs.json"
    path.write_text(json.dumps({"rows": rows}), encoding="utf-8")
    return path


def _run(seed: int, wins: int, draws: int, losses: int) -> dict[str, object]:
    games = wins + draws + losses
    return {"seed": seed, "games": games, "wins": wins, "draws": draws, "losses": losses}


def _row(label: str, target: float, *runs: dict[str, object]) -> dict[str, object]:
    return {"label": label, "target": target, "target_text": "t", "runs": list(runs)}


def test_rows_pool_their_runs_and_count_draws_as_half(tmp_path: Path) -> None:
    path = _runs_file(
        tmp_path,
        [_row("a vs b", 0.55, _run(1, 60, 2, 38), _run(2, 50, 0, 50))],
    )
    (row,) = chart.load_rows(path)
    assert (row.games, row.wins, row.draws, row.losses, row.runs) == (200, 110, 2, 88, 2)
    assert row.rate == pytest.approx(111 / 200)
    low, high = row.interval
    assert low < row.rate < high


def test_a_row_is_met_only_above_its_target_and_shown_above_half(tmp_path: Path) -> None:
    path = _runs_file(
        tmp_path,
        [
            _row("clear", 0.55, _run(1, 700, 0, 300)),
            _row("lucky", 0.55, _run(1, 12, 0, 8)),
            _row("short", 0.55, _run(1, 520, 0, 480)),
        ],
    )
    clear, lucky, short = chart.load_rows(path)
    assert clear.met
    assert not lucky.met  # 60% of 20 games: the interval reaches below 50%
    assert not short.met  # 52%: under the target, and not shown above 50%


def test_runs_that_do_not_add_up_are_refused(tmp_path: Path) -> None:
    bad = {"seed": 7, "games": 10, "wins": 5, "draws": 0, "losses": 4}
    path = _runs_file(tmp_path, [_row("x", 0.5, bad)])
    with pytest.raises(ValueError, match="seed 7"):
        chart.load_rows(path)


def test_the_picture_has_one_dot_per_row_in_the_row_colour(tmp_path: Path) -> None:
    path = _runs_file(
        tmp_path,
        [_row("a <vs> b", 0.6, _run(1, 700, 0, 300)), _row("c vs d", 0.55, _run(1, 100, 0, 100))],
    )
    root = ElementTree.fromstring(chart.render(chart.load_rows(path)))
    dots = root.findall(f"{SVG}circle")
    assert [dot.get("fill") for dot in dots] == [chart.MET, chart.NOT_MET]
    # The dot of 70% sits right of the dot of 50%, both inside the plot.
    first, second = (float(dot.get("cx", "0")) for dot in dots)
    assert chart.LABEL_WIDTH < second < first < chart.LABEL_WIDTH + chart.PLOT_WIDTH
    texts = ["".join(text.itertext()) for text in root.iter(f"{SVG}text")]
    assert "a <vs> b" in texts  # escaped in the file, read back as written
    assert any("70.0% of 1,000 games (67.1%–72.8%)" in text for text in texts)


def test_the_committed_chart_matches_the_committed_runs() -> None:
    assert chart.main(["--check"]) == 0, "docs/strength.svg is stale: run the script"
