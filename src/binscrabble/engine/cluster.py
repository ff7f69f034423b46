"""Self-play on a Ray cluster: the games of a match as Ray tasks (``selfplay --cluster``).

A game's result depends only on the two players, its index, the match seed and the rules
(:func:`binscrabble.engine.selfplay.play_game`), so a match played here gives the same
games, seed for seed, as one played by ``--jobs`` worker processes. Each task plays a
*batch* of consecutive games, so that Ray's cost per task (scheduling, sending the task and
its answer) is shared by several games; what is sent is the players' names, the first index
and the count, the match seed, the rules and this package's version, and what comes back is
one small result a game. A task whose worker dies is run again by Ray (``max_retries``) and
plays the same games again from the same seeds.

Ray is an optional extra (``pip install 'binscrabble[cluster]'``) imported only by
:func:`connected`: the rules core and the ``--jobs`` path never need it.

>>> check_address("ray://head.example:10001")
'ray://head.example:10001'
>>> batch_size(games=100, cpus=2)
13
>>> batch_size(games=10**6, cpus=64)
16
"""

from __future__ import annotations

import logging
import math
import warnings
from collections.abc import Generator, Iterator, Sequence
from contextlib import closing, contextmanager
from itertools import islice
from typing import Any

from binscrabble import __version__
from binscrabble.engine.selfplay import (
    GameFailure,
    GameResult,
    MatchResult,
    ProgressCallback,
    check_match,
    collect_match,
    play_game,
)
from binscrabble.i18n import N_, _, ngettext
from binscrabble.limits import quoted
from binscrabble.rules import Rules

#: The address that starts a Ray runtime on this machine for the match, and stops it after.
LOCAL = "local"
#: How often Ray runs a task again whose worker died (a crash, a node lost, a kill).
RETRIES = 3
#: The most games one task plays: enough that Ray's cost per task is small next to the
#: games' (a game takes 0.02 to 0.5 s, a task costs Ray a few milliseconds), few enough that
#: progress comes often and a retried task replays little.
MAX_BATCH = 16
#: Batches a CPU of the cluster gets over a match, at least: with fewer, the last tasks
#: leave most CPUs idle while a few finish.
BATCHES_PER_CPU = 4
#: Tasks in flight for each CPU of the cluster: every CPU has its next batch waiting, and a
#: huge match starts at once (the tasks are made as results come back).
AHEAD_PER_CPU = 2

MISSING_RAY = N_(
    "--cluster needs Ray, which is not installed for this Python: install it with"
    " pip install 'binscrabble[cluster]' (Ray has to publish a wheel for this Python"
    " version), or play on this machine with --jobs instead"
)


class ClusterError(RuntimeError):
    """The match cannot run on the cluster (Ray missing, unreachable, or a node that runs
    another version of binscrabble): the message says what to do."""


class VersionMismatch(ClusterError):
    """A node of the cluster that runs another version of binscrabble. Raised on the node,
    which speaks English, and raised again on this machine in its language."""

    def __init__(self, node: str, here: str) -> None:
        super().__init__(
            _(
                "a node of the cluster runs binscrabble {node} and this machine {here}: install"
                " the same version on every node"
            ).format(node=node, here=here)
        )
        self.node = node
        self.here = here

    def __reduce__(self) -> tuple[type[VersionMismatch], tuple[str, str]]:
        return (VersionMismatch, (self.node, self.here))


def check_address(address: str) -> str:
    """`address` if it is ``local`` or ``ray://HOST:PORT``; ClusterError otherwise."""
    if address == LOCAL:
        return address
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if address.startswith("ray://") and colon and host and port.isdigit() and int(port) < 65536:
        return address
    raise ClusterError(
        _(
            "--cluster takes ray://HOST:PORT (the Ray client port of the cluster's head, 10001"
            " unless it was changed) or {local} (a Ray runtime on this machine), not {address}"
        ).format(local=LOCAL, address=quoted(address))
    )


def batch_size(games: int, cpus: int) -> int:
    """Games a task plays in a match of `games` on a cluster of `cpus` CPUs."""
    return max(1, min(MAX_BATCH, math.ceil(games / (BATCHES_PER_CPU * max(1, cpus)))))


def import_ray() -> Any:
    """The ``ray`` module, or ClusterError saying how to install it."""
    try:
        import ray
    except ImportError as error:
        raise ClusterError(_(MISSING_RAY)) from error
    return ray


@contextmanager
def connected(address: str, cpus: int | None = None) -> Iterator[Any]:
    """Ray, connected to the cluster at `address` (``local``: a runtime started here with
    `cpus` CPUs, default all of them) for the time of the ``with`` block."""
    check_address(address)
    ray = import_ray()
    with warnings.catch_warnings():
        # Ray warns, besides raising, when it cannot connect: the error says it once.
        warnings.simplefilter("ignore")
        try:
            if address == LOCAL:
                ray.init(
                    # A new runtime, even where another one runs (or was left behind).
                    address="local",
                    num_cpus=cpus,
                    # A runtime for this machine alone: its processes talk over the loopback.
                    _node_ip_address="127.0.0.1",
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                )
            else:
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        except ConnectionError as error:
            raise ClusterError(
                _(
                    "cannot reach the Ray cluster at {address} ({error}): start its head with"
                    " `ray start --head` (its client port is 10001), check that this machine"
                    " reaches that port, and give the cluster's token here with"
                    " RAY_AUTH_MODE=token (docs/cluster.md)"
                ).format(address=address, error=error)
            ) from error
    try:
        yield ray
    finally:
        ray.shutdown()


def play_batch(
    players: tuple[str, str],
    first: int,
    count: int,
    seed: int,
    rules: Rules | None,
    version: str,
) -> list[GameResult] | GameFailure:
    """Games `first` to `first + count - 1` of the match (one Ray task). A game whose player
    fails ends the batch with its :class:`GameFailure`, returned rather than raised so that
    it reaches the driver whole."""
    if version != __version__:
        # Another version may play other moves: the match would not be the one asked for.
        raise VersionMismatch(__version__, version)
    results = []
    for index in range(first, first + count):
        try:
            results.append(play_game(players, index, seed, rules))
        except GameFailure as failure:
            return failure
    return results


def run_match_on_cluster(
    players: Sequence[str],
    games: int,
    seed: int,
    address: str,
    rules: Rules | None = None,
    progress: ProgressCallback | None = None,
    batch: int | None = None,
) -> MatchResult:
    """:func:`binscrabble.engine.selfplay.run_match` with the games played as Ray tasks on
    the cluster at `address` (see :func:`connected`), `batch` games a task (default:
    :func:`batch_size`). `progress(0, games)` comes once connected, then `progress(done,
    games)` after each game. Raises ClusterError, GameFailure, or ValueError as run_match."""
    pair = check_match(players, games)
    with connected(address) as ray:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        size = batch if batch is not None else batch_size(games, cpus)
        if progress is not None:
            # The games start now: a progress display measures from here, not from the
            # seconds Ray took to start or connect.
            progress(0, games)
        played = _play_on_ray(ray, pair, games, seed, rules, size, AHEAD_PER_CPU * cpus)
        # Closed before Ray is shut down, however the match ends: its tasks are cancelled.
        with closing(played):
            return collect_match(pair, seed, games, played, progress)


def _play_on_ray(
    ray: Any,
    pair: tuple[str, str],
    games: int,
    seed: int,
    rules: Rules | None,
    size: int,
    ahead: int,
) -> Generator[GameResult, None, None]:
    task = ray.remote(max_retries=RETRIES)(play_batch)
    batches = ((first, min(size, games - first)) for first in range(0, games, size))
    # Each task's batch, by its reference: a failure names the games it lost.
    pending: dict[Any, tuple[int, int]] = {}

    def submit(first: int, count: int) -> None:
        pending[task.remote(pair, first, count, seed, rules, __version__)] = (first, count)

    for batch in islice(batches, ahead):
        submit(*batch)
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            first, count = pending.pop(done[0])
            outcome = _outcome(ray, done[0], first, count)
            if isinstance(outcome, GameFailure):
                raise outcome
            for batch in islice(batches, 1):
                submit(*batch)
            yield from outcome
    finally:
        # Results no longer wanted (a failure, Ctrl-C): the cluster stops working on them.
        for ref in pending:
            ray.cancel(ref)


def _outcome(ray: Any, ref: Any, first: int, count: int) -> list[GameResult] | GameFailure:
    """What the task `ref` returned; ClusterError when the cluster could not play it."""
    try:
        outcome: list[GameResult] | GameFailure = ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        if isinstance(error.cause, VersionMismatch):
            raise VersionMismatch(error.cause.node, error.cause.here) from None
        if isinstance(error.cause, ClusterError):
            raise ClusterError(str(error.cause)) from None
        raise
    except ray.exceptions.RayError as error:
        # Workers that died on every try, a node lost with the results, ...
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ClusterError(
            ngettext(
                "the cluster could not play games {first} to {last} (tried {count} time): {reason}",
                "the cluster could not play games {first} to {last} (tried {count} times): "
                "{reason}",
                RETRIES + 1,
            ).format(first=first + 1, last=first + count, count=RETRIES + 1, reason=reason)
        ) from None
    return outcome
