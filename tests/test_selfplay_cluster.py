"""Self-play on Ray (``selfplay --cluster``): the same games as ``--jobs``, seed for seed, a
worker killed in the middle changes nothing, and without Ray the option says how to get it.

Starting a Ray runtime takes seconds: the suite starts two (one through the command, one in
this process for the killed worker).
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from binscrabble import __version__
from binscrabble.cli import main
from binscrabble.cli.selfplay_command import ProgressLines
from binscrabble.engine.cluster import (
    ClusterError,
    check_address,
    play_batch,
    run_match_on_cluster,
)
from binscrabble.engine.players import GreedyPlayer
from binscrabble.engine.selfplay import GameFailure, GameResult, play_game, run_match
from binscrabble.game import Game
from binscrabble.rules import Rules

#: Ray starts a local runtime for each of these: they run in `make test-full` (pyproject.toml).
pytestmark = pytest.mark.full

NO_RAY = "Ray has no wheel for this Python, so `make` did not install the cluster extra"
MATCH = ["selfplay", "--players", "greedy,equity", "--games", "8", "--seed", "7"]
SMALL = ["--rule", "rack_size=4"]
#: An address of this machine where no Ray cluster answers.
DEAD = "127.0.0.1:9"


def run_cli(
    arguments: list[str], prelude: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The command in a new Python process, after `prelude` (Python source), with `env` added
    to the environment."""
    code = f"{prelude}\nimport sys\nfrom binscrabble.cli import main\nsys.exit(main({arguments!r}))"
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        env=os.environ | (env or {}),
    )


def played(game: GameResult) -> tuple[object, ...]:
    """What a game's seed and index decide (all but the seconds it took)."""
    return (game.index, game.seed, game.seats, game.scores, game.turns)


def without_seconds(output: str) -> list[str]:
    """The command's output less what depends on the machine's speed (the time lines)."""
    lines = output.splitlines()
    summary = json.loads(lines[-1])
    summary.pop("seconds")
    return [line for line in lines[:-1] if not line.startswith("seed ")] + [json.dumps(summary)]


def test_selfplay_on_a_local_ray_runtime_gives_the_games_of_jobs_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("ray", reason=NO_RAY)
    assert main([*MATCH, *SMALL, "--jobs", "2", "--json"]) == 0
    expected = without_seconds(capsys.readouterr().out)
    # `local` starts a runtime of its own even where the environment names another cluster
    # (here one nobody answers at), as it would for a bare ray.init().
    done = run_cli([*MATCH, *SMALL, "--cluster", "local", "--json"], env={"RAY_ADDRESS": DEAD})
    assert done.returncode == 0, done.stderr
    assert without_seconds(done.stdout) == expected
    # Progress as with --jobs: standard error is not a terminal, so a line a tenth.
    progress = [line for line in done.stderr.splitlines() if line.startswith("selfplay: ")]
    assert progress[-1].startswith("selfplay: 8/8 games (100%)")
    assert "Traceback" not in done.stderr


def ray_workers_playing(parent: int) -> list[int]:
    """Processes below `parent` that are Ray workers running a batch of games now."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    found, below = [], list(children.get(parent, []))
    while below:
        pid = below.pop()
        below.extend(children.get(pid, []))
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if title.startswith(b"ray::play_batch"):
            found.append(pid)
    return found


def test_a_worker_killed_in_a_batch_is_replaced_and_the_games_stay_the_same() -> None:
    pytest.importorskip("ray", reason=NO_RAY)
    players = ["greedy", "equity"]
    expected = run_match(players, 8, seed=3, jobs=2)
    killed: list[int] = []

    def kill_a_busy_worker(done: int, total: int) -> None:
        # After the first game comes back, another worker is in the middle of its batch
        # (two full-size games, about a second): kill it, once.
        deadline = time.monotonic() + 10
        while done > 0 and not killed and time.monotonic() < deadline:
            busy = ray_workers_playing(os.getpid())
            if busy:
                os.kill(busy[0], signal.SIGKILL)
                killed.append(busy[0])
            else:
                time.sleep(0.01)

    result = run_match_on_cluster(
        players, 8, seed=3, address="local", progress=kill_a_busy_worker, batch=2
    )
    assert killed, "no Ray worker was found playing a batch"
    assert [game.index for game in result.games] == list(range(8))
    assert [played(game) for game in result.games] == [played(game) for game in expected.games]


def test_without_ray_the_option_says_how_to_get_it() -> None:
    # A blocker that makes `import ray` fail as it does where Ray is not installed.
    blocker = "import sys\nsys.modules['ray'] = None"
    done = run_cli([*MATCH, *SMALL, "--cluster", "local"], prelude=blocker)
    assert done.returncode == 2
    assert "pip install 'binscrabble[cluster]'" in done.stderr
    assert "--jobs" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    # The same blocker leaves --jobs playing.
    assert run_cli([*MATCH, *SMALL, "--jobs", "1"], prelude=blocker).returncode == 0


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (["--cluster", "127.0.0.1:10001"], "--cluster takes ray://HOST:PORT"),
        (["--cluster", "ray://head"], "--cluster takes ray://HOST:PORT"),
        (["--cluster", "ray://head:99999"], "--cluster takes ray://HOST:PORT"),
        (["--cluster", "local", "--jobs", "2"], "--jobs and --cluster do not go together"),
    ],
)
def test_cluster_usage_errors(
    extra: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*MATCH, *extra]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert "Traceback" not in err


def test_addresses_a_cluster_takes() -> None:
    assert check_address("local") == "local"
    assert check_address("ray://10.0.0.5:10001") == "ray://10.0.0.5:10001"
    with pytest.raises(ClusterError, match="not 'ray://:10001'"):
        check_address("ray://:10001")


def test_a_batch_plays_the_games_play_game_plays() -> None:
    rules = Rules(rack_size=4)
    batch = play_batch(("greedy", "random"), 3, 2, 9, rules, __version__)
    assert isinstance(batch, list)
    assert [played(game) for game in batch] == [
        played(play_game(("greedy", "random"), index, 9, rules)) for index in (3, 4)
    ]


def test_a_batch_refuses_a_driver_of_another_version() -> None:
    with pytest.raises(ClusterError, match="install the same version on every node"):
        play_batch(("greedy", "random"), 0, 1, 9, None, "0.0.1")


def test_a_batch_returns_the_failure_of_a_player(monkeypatch: pytest.MonkeyPatch) -> None:
    def crashing(self: object, game: Game, budget: float | None = None) -> object:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(GreedyPlayer, "choose", crashing)
    outcome = play_batch(("greedy", "random"), 0, 2, 9, Rules(rack_size=4), __version__)
    assert isinstance(outcome, GameFailure)
    assert (outcome.index, outcome.player) == (0, "greedy")
    assert "ZeroDivisionError: boom" in str(outcome)


def test_a_progress_display_times_from_the_start_of_the_games() -> None:
    stream = io.StringIO()
    lines = ProgressLines(stream)
    lines.started -= 100  # as if a Ray runtime had taken 100 s to start
    lines.update(0, 1)
    lines.update(1, 1)
    assert stream.getvalue().startswith("selfplay: 1/1 games (100%), 0 s,")
