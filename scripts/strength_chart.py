"""Draw the engine's strength chart, docs/strength.svg, from the runs in docs/strength-runs.json.

    .venv/bin/python scripts/strength_chart.py            # write docs/strength.svg
    .venv/bin/python scripts/strength_chart.py --check    # exit 1 if the file is stale

Each row of the chart pools the runs of one comparison (paired self-play games, draws
counted as half a win): a dot at the first player's score rate, a bar over its 95% Wilson
interval, a dashed mark at the row's target, and at the right the figures in words. A row
is drawn green when its target is met (the score rate reaches the target and the whole
interval lies above 50%, so the first player is shown to be the stronger), orange when not.
The picture is plain SVG written by hand (no plotting library), so it is the same on every
machine; tests/test_strength_chart.py checks that the committed file matches the data.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from binscrabble.engine.stats import wilson_interval  # noqa: E402

RUNS = ROOT / "docs" / "strength-runs.json"
CHART = ROOT / "docs" / "strength.svg"

#: The score rates the horizontal axis covers.
AXIS_LOW, AXIS_HIGH = 0.30, 1.00
LABEL_WIDTH, PLOT_WIDTH, TEXT_WIDTH = 330, 420, 330
ROW_HEIGHT, TOP, BOTTOM = 34, 40, 46
MET, NOT_MET, GRID = "#2e7d32", "#e65100", "#9e9e9e"


@dataclass(frozen=True)
class Row:
    """One comparison: the runs pooled."""

    label: str
    target: float
    target_text: str
    games: int
    wins: int
    draws: int
    losses: int
    runs: int

    @property
    def rate(self) -> float:
        return (self.wins + self.draws / 2) / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins + self.draws / 2, self.games)

    @property
    def met(self) -> bool:
        return self.rate >= self.target and self.interval[0] > 0.5


def load_rows(path: Path = RUNS) -> list[Row]:
    """The rows of `path`, each run checked (wins, draws and losses add up to its games)."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    rows = []
    for entry in data["rows"]:
        runs = entry["runs"]
        if not runs:
            raise ValueError(f"row {entry['label']!r} has no runs")
        for run in runs:
            if run["wins"] + run["draws"] + run["losses"] != run["games"]:
                raise ValueError(
                    f"row {entry['label']!r}, seed {run['seed']}: wins, draws and losses "
                    f"do not add up to {run['games']} games"
                )
        rows.append(
            Row(
                label=entry["label"],
                target=float(entry["target"]),
                target_text=entry["target_text"],
                games=sum(run["games"] for run in runs),
                wins=sum(run["wins"] for run in runs),
                draws=sum(run["draws"] for run in runs),
                losses=sum(run["losses"] for run in runs),
                runs=len(runs),
            )
        )
    return rows


def _x(rate: float) -> float:
    clamped = min(AXIS_HIGH, max(AXIS_LOW, rate))
    return LABEL_WIDTH + (clamped - AXIS_LOW) / (AXIS_HIGH - AXIS_LOW) * PLOT_WIDTH


def _percent(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def render(rows: list[Row]) -> str:
    """The chart of `rows` as an SVG document."""
    width = LABEL_WIDTH + PLOT_WIDTH + TEXT_WIDTH
    height = TOP + ROW_HEIGHT * len(rows) + BOTTOM
    bottom = TOP + ROW_HEIGHT * len(rows)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
        "<title>binscrabble self-play: each comparison's score rate with its 95% interval</title>",
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{LABEL_WIDTH}" y="22" font-weight="bold">'
        "Score rate of the first player (dot) and its 95% Wilson interval (bar)</text>",
    ]
    tick = AXIS_LOW
    while tick <= AXIS_HIGH + 1e-9:
        x = _x(tick)
        dash = "" if abs(tick - 0.5) < 1e-9 else ' stroke-dasharray="2,3"'
        parts.append(
            f'<line x1="{x:.1f}" y1="{TOP - 6}" x2="{x:.1f}" y2="{bottom}" stroke="{GRID}"{dash}/>'
        )
        parts.append(
            f'<text x="{x:.1f}" y="{bottom + 18}" text-anchor="middle">{round(100 * tick)}%</text>'
        )
        tick = round(tick + 0.10, 2)
    parts.append(
        f'<text x="{LABEL_WIDTH + PLOT_WIDTH / 2}" y="{bottom + 38}" text-anchor="middle" '
        f'fill="#424242">dashed mark: the target; green: met, orange: not met</text>'
    )
    for index, row in enumerate(rows):
        middle = TOP + ROW_HEIGHT * index + ROW_HEIGHT / 2
        colour = MET if row.met else NOT_MET
        low, high = row.interval
        parts.append(
            f'<text x="{LABEL_WIDTH - 10}" y="{middle + 4:.1f}" text-anchor="end">'
            f"{escape(row.label)}</text>"
        )
        parts.append(
            f'<line x1="{_x(low):.1f}" y1="{middle:.1f}" x2="{_x(high):.1f}" y2="{middle:.1f}" '
            f'stroke="{colour}" stroke-width="6" stroke-linecap="round" opacity="0.45"/>'
        )
        target_x = _x(row.target)
        parts.append(
            f'<line x1="{target_x:.1f}" y1="{middle - 11:.1f}" x2="{target_x:.1f}" '
            f'y2="{middle + 11:.1f}" stroke="black" stroke-width="2" stroke-dasharray="3,2"/>'
        )
        parts.append(f'<circle cx="{_x(row.rate):.1f}" cy="{middle:.1f}" r="5" fill="{colour}"/>')
        games = f"{row.games:,} games" + (f", {row.runs} runs" if row.runs > 1 else "")
        words = f"{_percent(row.rate)} of {games} ({_percent(low)}–{_percent(high)})"
        parts.append(
            f'<text x="{LABEL_WIDTH + PLOT_WIDTH + 10}" y="{middle + 4:.1f}" fill="{colour}">'
            f"<title>target: {escape(row.target_text)}</title>{escape(words)}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the chart is stale")
    args = parser.parse_args(argv)
    try:
        chart = render(load_rows())
    except (OSError, ValueError, KeyError) as error:
        print(f"strength_chart: cannot read {RUNS}: {error}", file=sys.stderr)
        return 2
    if args.check:
        current = CHART.read_text(encoding="utf-8") if CHART.exists() else ""
        if current != chart:
            print(f"{CHART} is stale: run scripts/strength_chart.py", file=sys.stderr)
            return 1
        return 0
    CHART.write_text(chart, encoding="utf-8")
    print(f"wrote {CHART}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
