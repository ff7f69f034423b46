"""Self-play: matches between two computer players, the lab for every strength claim.

Games come in *pairs*. Both games of pair ``k`` start from the same seed, so the bag holds
the tiles in the same order and the racks are dealt alike, but the seats are swapped: game
``2k`` has the first player in seat 0, game ``2k + 1`` has the second player there. Whatever
luck the tiles bring is then given to each player once, which removes most of the noise
from the comparison. Each player's own random choices are seeded from the pair too, so a
match is reproducible from its seed (players with a time budget excepted: how far they get
in their budget depends on the machine).

Games run in parallel worker processes (``jobs``), each game independent of the others.

>>> pair_seed(7, 0) == pair_seed(7, 0)
True
>>> seats_for_game(("greedy", "equity"), 3)
('equity', 'greedy')
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.stats import paired_interval, wilson_interval
from binscrabble.game import Game
from binscrabble.i18n import _, ngettext
from binscrabble.rules import Rules

ProgressCallback = Callable[[int, int], None]
#: Leave tables for the two match players, in match order, as paths of table files (JSON,
#: as ``scripts/train_leaves.py`` writes them); ``None`` for the shipped table. Paths, not
#: tables, so that a game's task stays small when it is sent to a worker process.
LeaveTablePaths = tuple[str | None, str | None]
_Task = tuple[tuple[str, str], int, int, Rules | None, LeaveTablePaths | None]
#: Below this many complete pairs the table does not print the paired interval.
MIN_PAIRS_FOR_INTERVAL = 10


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of one self-play game. ``scores`` are in *match* order (first player first)."""

    index: int
    seed: int
    seats: tuple[str, str]
    scores: tuple[int, int]
    turns: int
    seconds: float

    @property
    def first_player_points(self) -> float:
        """1 when the first player of the match won, 0.5 for a draw, 0 for a loss."""
        if self.scores[0] > self.scores[1]:
            return 1.0
        if self.scores[0] < self.scores[1]:
            return 0.0
        return 0.5


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A whole match: every game, and the figures the ``selfplay`` command prints."""

    players: tuple[str, str]
    seed: int
    games: tuple[GameResult, ...]
    seconds: float

    @property
    def wins(self) -> tuple[int, int]:
        first = sum(1 for game in self.games if game.scores[0] > game.scores[1])
        second = sum(1 for game in self.games if game.scores[1] > game.scores[0])
        return (first, second)

    @property
    def draws(self) -> int:
        return sum(1 for game in self.games if game.scores[0] == game.scores[1])

    @property
    def mean_scores(self) -> tuple[float, float]:
        count = max(1, len(self.games))
        return (
            sum(game.scores[0] for game in self.games) / count,
            sum(game.scores[1] for game in self.games) / count,
        )

    @property
    def win_rate(self) -> float:
        """The first player's score rate: wins plus half the draws, over the games."""
        if not self.games:
            return 0.0
        return sum(game.first_player_points for game in self.games) / len(self.games)

    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the first player's win rate (draws count half)."""
        points = sum(game.first_player_points for game in self.games)
        return wilson_interval(points, len(self.games))

    def pair_scores(self) -> list[float]:
        """The first player's mean points over each complete pair of games."""
        by_index = {game.index: game for game in self.games}
        scores = []
        for index in sorted(by_index):
            if index % 2 == 0 and index + 1 in by_index:
                total = by_index[index].first_player_points
                total += by_index[index + 1].first_player_points
                scores.append(total / 2)
        return scores

    def paired_interval(self) -> tuple[float, float]:
        """Normal 95% interval on the means of complete pairs (see binscrabble.engine.stats)."""
        return paired_interval(self.pair_scores())

    def summary(self) -> dict[str, object]:
        """The object ``selfplay --json`` prints last (INTERFACES.md §4)."""
        return {
            "games": len(self.games),
            "players": list(self.players),
            "wins": list(self.wins),
            "draws": self.draws,
            "mean_scores": [round(score, 2) for score in self.mean_scores],
            "seconds": round(self.seconds, 2),
        }

    def table(self) -> str:
        """A human-readable result table."""
        first, second = self.players
        wins = self.wins
        means = self.mean_scores
        low, high = self.interval()
        player, won, mean, drawn = _("player"), _("wins"), _("mean score"), _("draws")
        width = max(len(first), len(second), len(player), len(drawn))
        wide, wider = max(5, len(won)), max(10, len(mean))
        lines = [
            f"{player:<{width}}  {won:>{wide}}  {mean:>{wider}}",
            f"{first:<{width}}  {wins[0]:>{wide}}  {means[0]:>{wider}.1f}",
            f"{second:<{width}}  {wins[1]:>{wide}}  {means[1]:>{wider}.1f}",
            f"{drawn:<{width}}  {self.draws:>{wide}}",
            "",
            ngettext(
                "{name} scores {rate} of {count} game ({confidence} Wilson interval {low} to "
                "{high}; draws count half)",
                "{name} scores {rate} of {count} games ({confidence} Wilson interval {low} to "
                "{high}; draws count half)",
                len(self.games),
            ).format(
                name=first,
                rate=f"{self.win_rate:.1%}",
                confidence="95%",
                count=len(self.games),
                low=f"{low:.1%}",
                high=f"{high:.1%}",
            ),
            self._paired_line(),
            _("seed {seed}, {seconds} s").format(seed=self.seed, seconds=f"{self.seconds:.1f}"),
        ]
        return "\n".join(lines)

    def _paired_line(self) -> str:
        pairs = len(self.pair_scores())
        if pairs < MIN_PAIRS_FOR_INTERVAL:
            # A normal interval on a handful of pairs would claim far too much.
            return _("paired interval: not shown for fewer than {least} pairs").format(
                least=MIN_PAIRS_FOR_INTERVAL
            )
        low, high = self.paired_interval()
        return _("paired {confidence} interval over {count} pairs: {low} to {high}").format(
            confidence="95%", count=pairs, low=f"{low:.1%}", high=f"{high:.1%}"
        )


def pair_seed(seed: int, pair: int) -> int:
    """The seed both games of a pair start from (derived, reproducible, well spread)."""
    # Seeding Random with a string hashes it with SHA-512: stable across runs and versions.
    return random.Random(f"binscrabble-selfplay:{seed}:{pair}").getrandbits(62)


def seats_for_game(players: tuple[str, str], index: int) -> tuple[str, str]:
    """Who sits where in game `index`: the first player has seat 0 in even games."""
    return players if index % 2 == 0 else (players[1], players[0])


def play_game(
    players: tuple[str, str],
    index: int,
    seed: int,
    rules: Rules | None = None,
    tables: LeaveTablePaths | None = None,
) -> GameResult:
    """Play game `index` of a match between `players` (names) from the match `seed`.

    `tables` gives each match player its own leave table (see :data:`LeaveTablePaths`);
    players that use none ignore it. This is how a newly trained table is judged against
    the shipped one (``scripts/compare_leaves.py``).
    """
    # Imported here so that the worker processes pay for it once, and to keep levels
    # (which import the simulation) out of this module's import time.
    from binscrabble.engine.levels import player_from_name
    from binscrabble.position import save_position

    rules = rules if rules is not None else Rules()
    game_seed = pair_seed(seed, index // 2)
    seats = seats_for_game(players, index)
    # A player's own randomness depends on the pair and on which match player it is, not on
    # its seat, so both games of a pair see the same choices from it where positions agree.
    order = (0, 1) if index % 2 == 0 else (1, 0)
    paths = tables if tables is not None else (None, None)
    engines = [
        player_from_name(
            name, seed=game_seed + order[seat] + 1, table=read_leave_table(paths[order[seat]])
        )
        for seat, name in enumerate(seats)
    ]
    started = time.perf_counter()
    # A game needs distinct names; a player may meet itself (a useful sanity check).
    labels = (
        list(seats)
        if seats[0] != seats[1]
        else [f"{seats[0]} #{order[0] + 1}", f"{seats[1]} #{order[1] + 1}"]
    )
    game = Game(labels, rules=rules, seed=game_seed)
    turns = 0
    while not game.is_over():
        seat = game.to_move
        try:
            # Players read only what their seat may see (their rack, the board, the counts).
            move = engines[seat].choose(game, None)
            game.push(move)
        except Exception as error:
            # A bug of the engine (a player's move the referee refuses, or a crash): the
            # game stops with the position, so that it can be replayed and looked into.
            raise GameFailure(
                index,
                game_seed,
                len(game.history) + 1,
                seats[seat],
                save_position(game),
                f"{type(error).__name__}: {error}",
            ) from error
        turns += 1
    seat_scores = game.scores
    if index % 2 == 0:
        scores = (seat_scores[0], seat_scores[1])
    else:
        scores = (seat_scores[1], seat_scores[0])
    return GameResult(
        index=index,
        seed=game_seed,
        seats=seats,
        scores=scores,
        turns=turns,
        seconds=time.perf_counter() - started,
    )


class GameFailure(RuntimeError):
    """A self-play game that stopped because a player failed: which game (`index`, `seed`),
    at which `turn`, whose move (`player`), what went wrong (`cause`), and the position
    (what :func:`binscrabble.position.save_position` gives, for ``binscrabble best``).
    Its arguments are its fields, so it pickles whole from a worker process."""

    def __init__(
        self, index: int, seed: int, turn: int, player: str, position: dict[str, Any], cause: str
    ) -> None:
        super().__init__(index, seed, turn, player, position, cause)
        self.index = index
        self.seed = seed
        self.turn = turn
        self.player = player
        self.position = position
        self.cause = cause

    def __str__(self) -> str:
        return (
            f"game {self.index + 1} (seed {self.seed}), turn {self.turn}:"
            f" {self.player} failed: {self.cause}"
        )


@functools.cache
def read_leave_table(path: str | None) -> LeaveTable | None:
    """The table in the file `path` (``None``: the shipped one), read once per process.

    Raises OSError or :class:`~binscrabble.engine.leaves.LeaveTableError` for a bad file.
    """
    return None if path is None else LeaveTable.from_file(path)


def _play_game_task(task: _Task) -> GameResult:
    return play_game(*task)


def run_match(
    players: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int | None = None,
    rules: Rules | None = None,
    progress: ProgressCallback | None = None,
    tables: LeaveTablePaths | None = None,
) -> MatchResult:
    """Play `games` games between two players, in pairs with swapped seats.

    `jobs` worker processes share the games (default: the number of CPUs; 1 plays in this
    process). `progress(done, total)` is called after each game. `tables` gives each player
    its own leave table (see :func:`play_game`).
    """
    pair = check_match(players, games)
    for path in tables or ():
        # Read here, before any game: a missing or bad file fails at once (OSError,
        # LeaveTableError), and forked workers find it read already.
        read_leave_table(path)
    jobs = max(1, min(jobs if jobs is not None else (os.cpu_count() or 1), games))
    # Made one at a time as the games are played: a huge `games` starts at once, and only
    # the results (a few hundred bytes a game played) take memory.
    tasks = ((pair, index, seed, rules, tables) for index in range(games))
    return collect_match(pair, seed, games, _run_tasks(tasks, jobs), progress)


def check_match(players: Sequence[str], games: int) -> tuple[str, str]:
    """The two players of a match as a pair; ValueError unless there are two and `games` is
    at least 1."""
    if len(players) != 2:
        raise ValueError(f"a match needs exactly two players, not {len(players)}")
    if games < 1:
        raise ValueError(f"a match needs at least one game, not {games}")
    return (players[0], players[1])


def collect_match(
    pair: tuple[str, str],
    seed: int,
    games: int,
    played: Iterable[GameResult],
    progress: ProgressCallback | None = None,
) -> MatchResult:
    """The match whose games `played` yields, in any order; `progress(done, games)` after
    each. Whatever plays the games (this process, worker processes, a cluster), a game's
    result depends only on the players, its index, the match seed and the rules."""
    started = time.perf_counter()
    results: list[GameResult] = []
    for result in played:
        results.append(result)
        if progress is not None:
            progress(len(results), games)
    results.sort(key=lambda result: result.index)
    return MatchResult(
        players=pair, seed=seed, games=tuple(results), seconds=time.perf_counter() - started
    )


def _run_tasks(tasks: Iterable[_Task], jobs: int) -> Iterator[GameResult]:
    if jobs == 1:
        for task in tasks:
            yield _play_game_task(task)
        return
    # The pool's feeder thread reads `tasks` as fast as it can: a semaphore keeps it a few
    # tasks ahead of the results, and `stopped` lets it end when the results are no longer
    # wanted (the pool waits for that thread when it closes).
    ahead = threading.Semaphore(2 * jobs)
    stopped = threading.Event()

    def throttled() -> Iterator[_Task]:
        for task in tasks:
            while not ahead.acquire(timeout=0.05):
                if stopped.is_set():
                    return
            if stopped.is_set():
                return
            yield task

    with multiprocessing.get_context("fork").Pool(jobs, initializer=_ignore_interrupts) as pool:
        try:
            for result in pool.imap_unordered(_play_game_task, throttled(), chunksize=1):
                ahead.release()
                yield result
        finally:
            stopped.set()


def _ignore_interrupts() -> None:
    # Ctrl-C is for the parent, which stops the pool; workers would only print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
