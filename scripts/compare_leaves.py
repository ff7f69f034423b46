"""Play the equity player with one leave table against the equity player with another.

    .venv/bin/python scripts/compare_leaves.py NEW.json OLD.json --games 1000 --seed 4911

The games are `binscrabble selfplay`'s: paired games that share the bag's order, with the
seats swapped, the pair seeds of `binscrabble.engine.selfplay.pair_seed`. The result table
and the JSON summary line are the same as selfplay's, the first player being the equity
player with the first table. This is how a newly trained table is judged against the
shipped one before it replaces it (docs/engine.md, Equity and the leave table).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from binscrabble.engine.leaves import LeaveTableError
from binscrabble.engine.selfplay import (
    GameResult,
    play_game,
    read_leave_table,
    run_match,
    seats_for_game,
)

# One game: the two tables' files, the game's index in the match and the match seed.
Task = tuple[str, str, int, int]
EQUITY_PAIR = ("equity", "equity")


def play(task: Task) -> GameResult:
    """Game `index` of the match: the first table's player sits first in even games."""
    first, second, index, seed = task
    result = play_game(EQUITY_PAIR, index, seed, tables=(first, second))
    # Both players are "equity": name the seats by their tables instead.
    return dataclasses.replace(result, seats=seats_for_game((first, second), index))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path, help="the leave table of the first player")
    parser.add_argument("second", type=Path, help="the leave table of the second player")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error("--games must be an even number of at least 2 (games come in pairs)")
    for path in (args.first, args.second):
        try:
            # Kept for the match too (read_leave_table reads a file once per process).
            read_leave_table(str(path))
        except (OSError, LeaveTableError) as error:
            parser.error(f"cannot read the leave table {path}: {error}")

    def progress(done: int, total: int) -> None:
        print(f"\r{done}/{total} games", end="", file=sys.stderr, flush=True)

    match = run_match(
        EQUITY_PAIR,
        args.games,
        seed=args.seed,
        jobs=max(1, args.jobs),
        progress=progress,
        tables=(str(args.first), str(args.second)),
    )
    print(file=sys.stderr)
    match = dataclasses.replace(match, players=(str(args.first), str(args.second)))
    print(match.table())
    print(json.dumps(match.summary()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
