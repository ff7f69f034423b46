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
    for script in scripts:
        name = script.stem.removeprefix("bench_")
        if only and name not in only:
            continue
        print(f"== {name} ==", flush=True)
        started = time.perf_counter()
        # Each script parses its own options: it sees no arguments of run.py's.
        sys.argv = [str(script)]
        runpy.run_path(str(script), run_name="__main__")
        print(f"({name}: {time.perf_counter() - started:.1f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
