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
import functools
import json
import multiprocessing
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from binscrabble.engine.leaves import LeaveTable, LeaveTableError
from binscrabble.engine.players import EquityPlayer
from binscrabble.engine.selfplay import GameResult, MatchResult, pair_seed, seats_for_game
from binscrabble.game import Game

# One game: the two tables' files, the game's index in the match and the match seed.
Task = tuple[str, str, int, int]


def play(task: Task) -> GameResult:
    """Game `index` of the match: the first table's player sits first in even games."""
    first, second, index, seed = task
    game_seed = pair_seed(seed, index // 2)
    seats = seats_for_game((first, second), index)
    players = [EquityPlayer(read_table(Path(name))) for name in seats]
    game = Game(("A", "B"), seed=game_seed)
    started = time.perf_counter()
    turns = 0
    while not game.is_over():
        game.push(players[game.to_move].choose(game))
        turns += 1
    scores = game.scores if index % 2 == 0 else list(reversed(game.scores))
    return GameResult(
        index=index,
        seed=game_seed,
        seats=seats,
        scores=(scores[0], scores[1]),
        turns=turns,
        seconds=time.perf_counter() - started,
    )


@functools.cache
def read_table(path: Path) -> LeaveTable:
    """The table in `path`, read once per process (every game of a worker uses it)."""
    return LeaveTable.from_json(path.read_text(encoding="utf-8"), source=str(path))


def results(tasks: list[Task], jobs: int) -> Iterator[GameResult]:
    if jobs == 1:
        yield from map(play, tasks)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap_unordered(play, tasks, chunksize=1)


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
            read_table(path)
        except (OSError, LeaveTableError) as error:
            parser.error(f"cannot read the leave table {path}: {error}")
    tasks = [(str(args.first), str(args.second), index, args.seed) for index in range(args.games)]
    started = time.perf_counter()
    played: list[GameResult] = []
    for result in results(tasks, max(1, args.jobs)):
        played.append(result)
        print(f"\r{len(played)}/{args.games} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    played.sort(key=lambda result: result.index)
    match = MatchResult(
        players=(str(args.first), str(args.second)),
        seed=args.seed,
        games=tuple(played),
        seconds=time.perf_counter() - started,
    )
    print(match.table())
    print(json.dumps(match.summary()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
