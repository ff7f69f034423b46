"""Compile the move generator (src/binscrabble/movegen.py) with mypyc, in place.

The compiled module (``movegen.<interpreter's extension suffix>``, beside the source, and
its support library ``movegen__mypyc...``) is what ``import binscrabble.movegen`` then
loads; a file ``<compiled module>.sha256`` records the digest of the source it was built
from. When the source changes, the package loads the source instead, with a warning, until
this script runs again (binscrabble/__init__.py). Nothing is built when the recorded
digest is the source's. `make play`, `make test` and `make bench` run it.

Needs mypy (which ships mypyc), setuptools, a C compiler and the interpreter's headers
(Python.h); without them it stops with status 1 and says what is missing.

    python scripts/build_compiled.py            # build if the source changed
    python scripts/build_compiled.py --force    # build anyway
    python scripts/build_compiled.py --remove   # remove the compiled module (source only)
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "binscrabble"


def _paths_module() -> ModuleType:
    """binscrabble/_compiled.py, loaded by its path: importing the package would load the
    move generator (its source, while the compiled module is stale) on every build."""
    spec = importlib.util.spec_from_file_location(
        "binscrabble_compiled_paths", PACKAGE / "_compiled.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_paths = _paths_module()
compiled_paths = _paths.compiled_paths
digest_path = _paths.digest_path
source_digest = _paths.source_digest
is_current = _paths.is_current


def remove() -> None:
    for path in [*compiled_paths(), digest_path()]:
        path.unlink(missing_ok=True)


def missing_tools() -> list[str]:
    missing = []
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        missing.append("a C compiler (cc or gcc; Debian: apt-get install gcc)")
    include = Path(sysconfig.get_paths()["include"])
    if not (include / "Python.h").exists():
        missing.append(f"the interpreter's headers ({include}/Python.h; Debian: python3-dev)")
    for module in ("mypyc", "setuptools"):
        try:
            __import__(module)
        except ImportError:
            missing.append(f"the Python package {module} (pip install -e '.[dev]')")
    return missing


def build() -> None:
    missing = missing_tools()
    if missing:
        raise SystemExit("cannot compile the move generator; missing: " + "; ".join(missing))
    from mypyc.build import mypycify
    from setuptools import setup

    started = time.perf_counter()
    print("compiling src/binscrabble/movegen.py with mypyc (about a minute)...", flush=True)
    digest = source_digest()
    with tempfile.TemporaryDirectory(prefix="binscrabble-build-") as scratch:
        previous = Path.cwd()
        os.chdir(ROOT)
        try:
            modules = mypycify(
                ["src/binscrabble/movegen.py"],
                opt_level="3",
                target_dir=os.path.join(scratch, "c"),
            )
            setup(
                name="binscrabble-compiled",
                package_dir={"": "src"},
                ext_modules=modules,
                script_args=[
                    "--quiet",
                    "build_ext",
                    "--inplace",
                    "--build-temp",
                    os.path.join(scratch, "temp"),
                    "--build-lib",
                    os.path.join(scratch, "lib"),
                ],
            )
        finally:
            os.chdir(previous)
    absent = [path.name for path in compiled_paths() if not path.exists()]
    if absent:
        raise SystemExit(f"mypyc ran but did not leave {', '.join(absent)} in {PACKAGE}")
    # Written last: only a complete build is ever taken as current.
    digest_path().write_text(digest + "\n", encoding="ascii")
    print(f"compiled in {time.perf_counter() - started:.0f} s", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--force", action="store_true", help="build even if current")
    group.add_argument("--remove", action="store_true", help="remove the compiled module")
    args = parser.parse_args()
    if args.remove:
        remove()
        print("removed the compiled move generator: the source is used")
        return 0
    if not args.force and is_current():
        print("the compiled move generator is current")
        return 0
    # A stale digest must not survive a failed build.
    digest_path().unlink(missing_ok=True)
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
