"""Run every benchmark of the project (`make bench`): each bench/bench_*.py, in name order.

Benchmarks print figures; they never pass or fail on time. What each prints is also kept,
with the date, the machine and the load average around it, in bench/results.json and the
page docs/benchmarks.md (see bench/results.py): a run of some benchmarks replaces only
their entries.
"""

from __future__ import annotations

import contextlib
import io
import runpy
import sys
import time
import traceback
from pathlib import Path
from typing import Any, TextIO

from results import entry, load_average, write


class Tee(io.TextIOBase):
    """Standard output that is also kept: the benchmark's figures for the results file."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.kept = io.StringIO()

    def write(self, text: str) -> int:
        self.kept.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()


def run_one(script: Path) -> tuple[bool, str]:
    """Run one benchmark script; whether it finished, and what it printed."""
    tee = Tee(sys.stdout)
    # Each script parses its own options: it sees no arguments of run.py's.
    sys.argv = [str(script)]
    finished = True
    with contextlib.redirect_stdout(tee):
        try:
            runpy.run_path(str(script), run_name="__main__")
        except SystemExit as stop:
            # A script ending with sys.exit(main()) must not end the whole run.
            finished = stop.code in (None, 0)
        except Exception:  # a broken benchmark is reported, and the others still run
            traceback.print_exc()
            finished = False
    return finished, tee.kept.getvalue()


def main() -> int:
    here = Path(__file__).resolve().parent
    only = set(sys.argv[1:])  # names of benchmarks to run, e.g. `check movegen`; none: all
    names = [script.stem.removeprefix("bench_") for script in sorted(here.glob("bench_*.py"))]
    unknown = sorted(only.difference(names))
    if unknown:
        print(f"no such benchmark: {', '.join(unknown)} (there are {', '.join(names)})")
        return 2
    failures: list[str] = []
    measured: dict[str, dict[str, Any]] = {}
    for name in names:
        if only and name not in only:
            continue
        print(f"== {name} ==", flush=True)
        load_before = load_average()
        started = time.perf_counter()
        finished, output = run_one(here / f"bench_{name}.py")
        seconds = time.perf_counter() - started
        print(f"({name}: {seconds:.1f} s)\n", flush=True)
        if finished:
            measured[name] = entry(output, seconds, load_before)
        else:
            # A failed run's figures are incomplete: the stored ones of that benchmark stay.
            failures.append(name)
    if measured:
        write(measured, names)
    if failures:
        print(f"benchmarks that failed: {', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
