"""``binscrabble selfplay``: matches between computer players (INTERFACES.md §4)."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from binscrabble.cli.arguments import RawDescriptionHelpFormatter, whole_number
from binscrabble.cli.common import (
    CliError,
    add_rules_options,
    check_player_name,
    rules_from_options,
)
from binscrabble.engine.descriptions import players_help
from binscrabble.i18n import N_, _
from binscrabble.limits import quoted

if TYPE_CHECKING:
    from binscrabble.engine.selfplay import MatchResult
    from binscrabble.rules import Rules

#: The most worker processes a match may ask for.
MAX_JOBS = 256

EPILOG = N_(
    """\
Players are levels (beginner, easy, medium, hard, max) or strategies (random, greedy,
equity, simulation). A strategy may carry a time budget per move, as in simulation@0.5.
Games come in pairs that share the order of the bag, with the seats swapped. The win rate
has Wilson's interval (95%), with draws counting half a win. A game's result depends only
on the seed and its number: --jobs and --cluster give the same games.
"""
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "selfplay",
        help=_("play games between two computer players and report who wins"),
        description=_("Play games between two computer players, in pairs with swapped seats."),
        epilog=_(EPILOG) + "\n" + players_help(),
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--players", required=True, metavar="A,B", help=_("the two players, e.g. equity,greedy")
    )
    parser.add_argument(
        "--games", required=True, type=whole_number, metavar="N", help=_("games to play")
    )
    parser.add_argument(
        "--seed", type=whole_number, help=_("seed of the match (default: a random one)")
    )
    parser.add_argument(
        "--jobs",
        type=whole_number,
        metavar="J",
        help=_("worker processes (default: the number of CPUs)"),
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help=_(
            "play the games as Ray tasks on the cluster at ray://HOST:PORT, or on a Ray"
            " runtime started here with 'local' (needs binscrabble[cluster]; docs/cluster.md)"
        ),
    )
    parser.add_argument("--json", action="store_true", help=_("end with one JSON summary line"))
    add_rules_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from binscrabble.engine.selfplay import GameFailure

    rules = rules_from_options(args)
    names = [name.strip() for name in args.players.split(",")]
    if len(names) != 2 or not all(names):
        raise CliError(
            _("--players takes two players separated by a comma, not {players}").format(
                players=quoted(args.players)
            )
        )
    for name in names:
        check_player_name(name)
    if args.games < 1:
        raise CliError(_("--games must be at least 1, not {games}").format(games=args.games))
    if args.jobs is not None and not 1 <= args.jobs <= MAX_JOBS:
        # Each job is a process: a mistyped 100000 would exhaust the machine.
        raise CliError(
            _("--jobs takes 1 to {most} worker processes, not {jobs}").format(
                most=MAX_JOBS, jobs=args.jobs
            )
        )
    if args.cluster is not None and args.jobs is not None:
        raise CliError(
            _(
                "--jobs and --cluster do not go together: on a cluster, Ray gives the games to"
                " every CPU it has"
            )
        )
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    # On a terminal a bar redrawn in place; otherwise (a log file, a pipe) a line at every
    # tenth of the games, so that a long match written to a file still shows how far it is.
    bar: ProgressBar | ProgressLines = (
        ProgressBar(sys.stderr) if sys.stderr.isatty() else ProgressLines(sys.stderr)
    )
    try:
        result = _play(args, names, seed, rules, bar.update)
    except GameFailure as failure:
        # A bug in the engine: said without a traceback, with the position kept for
        # `binscrabble best` (or a test) to replay.
        saved = Path(f"selfplay-failure-{failure.seed}-game{failure.index + 1}.json")
        try:
            saved.write_text(json.dumps(failure.position, indent=1) + "\n", encoding="utf-8")
            stopped = _("binscrabble: selfplay stopped: {failure}; the position is saved in {path}")
            problem = ""
        except OSError as error:
            stopped = _(
                "binscrabble: selfplay stopped: {failure}; the position could not be saved in "
                "{path} ({problem})"
            )
            problem = error.strerror or str(error)
        print(stopped.format(failure=failure, path=saved, problem=problem), file=sys.stderr)
        return 1
    except (ValueError, RuntimeError) as error:
        # A player that breaks the rules is a bug in the engine: say so, without a traceback.
        print(_("binscrabble: selfplay stopped: {failure}").format(failure=error), file=sys.stderr)
        return 1
    finally:
        bar.finish()
    print(result.table())
    if args.json:
        print(json.dumps(result.summary()))
    return 0


def _play(
    args: argparse.Namespace,
    names: list[str],
    seed: int,
    rules: Rules,
    progress: Callable[[int, int], None],
) -> MatchResult:
    """The match, in worker processes here (--jobs) or as Ray tasks (--cluster)."""
    if args.cluster is None:
        from binscrabble.engine.selfplay import run_match

        jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
        return run_match(names, args.games, seed=seed, jobs=jobs, rules=rules, progress=progress)
    # Only this path imports the cluster module, and only that module imports Ray.
    from binscrabble.engine.cluster import ClusterError, check_address, run_match_on_cluster

    try:
        address = check_address(args.cluster)
        return run_match_on_cluster(
            names, args.games, seed=seed, address=address, rules=rules, progress=progress
        )
    except ClusterError as error:
        raise CliError(str(error)) from None


class ProgressBar:
    """A one-line progress bar redrawn in place on a terminal (standard error)."""

    WIDTH = 30

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.started = time.perf_counter()

    def update(self, done: int, total: int) -> None:
        if done == 0:
            # The games start now (a cluster is connected): time them from here.
            self.started = time.perf_counter()
            return
        filled = self.WIDTH * done // max(1, total)
        elapsed = time.perf_counter() - self.started
        remaining = elapsed / done * (total - done) if done else 0.0
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        progress = _("{done}/{total} games, {elapsed} s, ~{remaining} s left").format(
            done=done, total=total, elapsed=f"{elapsed:.0f}", remaining=f"{remaining:.0f}"
        )
        self.stream.write(f"\r[{bar}] {progress}")
        self.stream.flush()

    def finish(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


class ProgressLines:
    """Progress for a stream that is not a terminal: one line each time another tenth of
    the games is done (and at the last game), e.g.
    ``selfplay: 80/800 games (10%), 412 s, ~3708 s left``."""

    STEPS = 10

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.started = time.perf_counter()

    def update(self, done: int, total: int) -> None:
        if done == 0:
            # The games start now (a cluster is connected): time them from here.
            self.started = time.perf_counter()
            return
        # Called once a game: a line when this game starts another tenth, and at the last.
        if done < total and self.STEPS * done // total == self.STEPS * (done - 1) // total:
            return
        elapsed = time.perf_counter() - self.started
        remaining = elapsed / done * (total - done) if done else 0.0
        line = _("selfplay: {done}/{total} games ({percent}%), {elapsed} s, ~{remaining} s left")
        self.stream.write(
            line.format(
                done=done,
                total=total,
                percent=100 * done // max(1, total),
                elapsed=f"{elapsed:.0f}",
                remaining=f"{remaining:.0f}",
            )
            + "\n"
        )
        self.stream.flush()

    def finish(self) -> None:
        self.stream.flush()
