"""Run every benchmark of the project (`make bench`): each bench/bench_*.py, in name order.

Benchmarks print figures; they never pass or fail on time.
"""

from __future__ import annotations

import runpy
import sys
import time
from pathlib import Path


def main() -> int:
    here = Path(__file__).resolve().parent
    only = set(sys.argv[1:])  # names of benchmarks to run, e.g. `check movegen`; none: all
    scripts = sorted(here.glob("bench_*.py"))
    failures: list[str] = []
    for script in scripts:
        name = script.stem.removeprefix("bench_")
        if only and name not in only:
            continue
        print(f"== {name} ==", flush=True)
        started = time.perf_counter()
        # Each script parses its own options: it sees no arguments of run.py's.
        sys.argv = [str(script)]
        try:
            runpy.run_path(str(script), run_name="__main__")
        except SystemExit as stop:
            # A script ending with sys.exit(main()) must not end the whole run.
            if stop.code not in (None, 0):
                failures.append(name)
        print(f"({name}: {time.perf_counter() - started:.1f} s)\n", flush=True)
    if failures:
        print(f"benchmarks that failed: {', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
