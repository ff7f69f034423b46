"""Self-play: games per second with `--jobs 2` and on a local Ray runtime (`--cluster local`),
the same games, on this machine.

For each match: the games played by two worker processes (``run_match(jobs=2)``), then by a
Ray runtime started on this machine (``run_match_on_cluster(address="local")``), checked to
be the same games. Ray's start (and stop) is timed apart from the games: a cluster is
started once for many matches, while its cost per task is paid by every batch. The CPU
seconds of a game (the pool's workers' CPU time over the games), which the machine's other
work barely changes, is what a cluster's throughput follows from (docs/cluster.md, "How it
scales"). Prints figures; never passes
or fails on time. Without Ray installed, only the `--jobs 2` figures are printed.

``--games N`` plays N games in each match instead of the defaults.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import time

from binscrabble.engine.cluster import batch_size, connected, run_match_on_cluster
from binscrabble.engine.selfplay import MatchResult, run_match
from binscrabble.rules import Rules

#: (players, rules, games, what the match stands for).
MATCHES = (
    (("hard", "medium"), Rules(), 20, "a strength study's games (full rack, hard against medium)"),
    (("greedy", "random"), Rules(rack_size=4), 200, "short games (rack of 4, greedy and random)"),
)
SEED = 41
#: Empty tasks timed one at a time (and five times as many at once).
EMPTY_TASKS = 200


def cpu_seconds() -> float:
    """CPU time of this process and of its children that ended (the pool's workers)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def played(result: MatchResult) -> list[tuple[object, ...]]:
    return [(game.index, game.seed, game.seats, game.scores, game.turns) for game in result.games]


def measure(players: tuple[str, str], rules: Rules, games: int, title: str, ray: bool) -> None:
    print(f"{title}: {games} games, {' vs '.join(players)}, seed {SEED}")
    cpu = cpu_seconds()
    started = time.perf_counter()
    jobs = run_match(players, games, seed=SEED, jobs=2, rules=rules)
    jobs_wall = time.perf_counter() - started
    jobs_cpu = (cpu_seconds() - cpu) / games
    per_game = statistics.mean(game.seconds for game in jobs.games)
    print(
        f"  --jobs 2:        {games / jobs_wall:6.2f} games/s ({jobs_wall:.1f} s);"
        f" a game takes {per_game:.3f} s in a worker, {jobs_cpu:.3f} s of CPU"
    )
    if not ray:
        print("  --cluster local: not measured (Ray is not installed: the cluster extra)")
        return
    started = time.perf_counter()
    cluster = run_match_on_cluster(players, games, seed=SEED, address="local", rules=rules)
    total = time.perf_counter() - started
    # From Ray connected to the last result (MatchResult.seconds).
    games_wall = cluster.seconds
    start_and_stop = total - games_wall
    cpus = os.cpu_count() or 1
    size = batch_size(games, cpus)
    batches = -(-games // size)
    ray_per_game = statistics.mean(game.seconds for game in cluster.games)
    print(
        f"  --cluster local: {games / games_wall:6.2f} games/s ({games_wall:.1f} s) once"
        f" started, {games / total:.2f} games/s counting Ray's start and stop"
        f" ({start_and_stop:.1f} s); a game takes {ray_per_game:.3f} s in a worker;"
        f" {batches} tasks of {size} game{'s' if size > 1 else ''} at most"
    )
    extra = (games_wall - jobs_wall) / batches
    print(
        f"  Ray against --jobs 2: {games_wall / jobs_wall:.2f} times the time once started,"
        f" {extra * 1000:+.0f} ms a task"
    )
    same = played(cluster) == played(jobs)
    print(f"  same games: {'yes' if same else 'NO'}")


def echo(value: int) -> int:
    """An empty task: what Ray costs a task, without a game."""
    return value


def task_cost() -> None:
    with connected("local") as ray:
        task = ray.remote(echo)
        ray.get([task.remote(value) for value in range(20)])  # the workers started
        started = time.perf_counter()
        for value in range(EMPTY_TASKS):
            ray.get(task.remote(value))
        one = (time.perf_counter() - started) / EMPTY_TASKS
        started = time.perf_counter()
        ray.get([task.remote(value) for value in range(5 * EMPTY_TASKS)])
        many = (time.perf_counter() - started) / (5 * EMPTY_TASKS)
    print(
        f"Ray's cost a task (an empty task, local runtime): {one * 1000:.2f} ms one at a time,"
        f" {many * 1000:.2f} ms a task with {5 * EMPTY_TASKS} at once"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="games a match (default: each match's own)")
    args = parser.parse_args()
    ray = importlib.util.find_spec("ray") is not None
    print(f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}")
    for players, rules, games, title in MATCHES:
        measure(players, rules, args.games or games, title, ray)
    if ray:
        task_cost()


if __name__ == "__main__":
    main()
