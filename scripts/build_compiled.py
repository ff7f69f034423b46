"""Compile the move generator (src/binscrabble/movegen/) with mypyc, in place.

Its modules are compiled together, as one mypyc group, into the package
``binscrabble.movegen.compiled`` (a module per source module, and the shared library
``generator__mypyc`` that holds their code); a file ``compiled/generator.sha256`` records
the digest of the source they were made from. ``binscrabble.movegen`` imports the compiled
build when that digest is the source's, else the source (binscrabble/movegen/__init__.py).
Nothing is built when the build is current. `make play`, `make test` and `make bench` run it.

Needs mypy (which ships mypyc), setuptools, a C compiler and the interpreter's headers
(Python.h). Without the compiler or the headers it prints one line saying the source runs
(slower) and exits with status 0: nothing needs the compiled build.

    python scripts/build_compiled.py            # build if the source changed
    python scripts/build_compiled.py --force    # build anyway
    python scripts/build_compiled.py --remove   # remove the compiled build (source only)
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
SOURCE = ROOT / "src"


def load_build_state() -> ModuleType:
    """binscrabble/movegen/build_state.py, loaded by its path: importing the package would
    load the generator itself on every build."""
    path = SOURCE / "binscrabble" / "movegen" / "build_state.py"
    spec = importlib.util.spec_from_file_location("binscrabble_movegen_build_state", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


STATE = load_build_state()


def remove() -> None:
    for path in [*STATE.compiled_paths(), STATE.digest_path()]:
        path.unlink(missing_ok=True)


def missing_toolchain() -> list[str]:
    """What the build needs of the machine and is not there: a C compiler, Python.h."""
    missing = []
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        missing.append("no C compiler")
    include = Path(sysconfig.get_paths()["include"])
    if not (include / "Python.h").exists():
        missing.append(f"no Python headers ({include}/Python.h)")
    return missing


def missing_packages() -> list[str]:
    """What the build needs of the virtual environment and is not there."""
    missing = []
    for module in ("mypyc", "setuptools"):
        if importlib.util.find_spec(module) is None:
            missing.append(module)
    return missing


def copy_sources(target: Path) -> list[str]:
    """Copy the generator's modules into the compiled package; their paths, for mypyc."""
    copied = []
    for name in STATE.MODULES:
        shutil.copyfile(STATE.PACKAGE / f"{name}.py", target / f"{name}.py")
        copied.append(str((target / f"{name}.py").relative_to(ROOT)))
    return copied


def compile_group(sources: list[str], scratch: str) -> None:
    """Compile `sources` as one mypyc group and build its extensions in place."""
    from mypyc.build import mypycify
    from setuptools import setup

    extensions = mypycify(
        sources,
        opt_level="3",
        target_dir=os.path.join(scratch, "c"),
        group_name=f"{STATE.COMPILED_PACKAGE}.{STATE.GROUP}",
    )
    setup(
        name="binscrabble-compiled",
        package_dir={"": "src"},
        ext_modules=extensions,
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


def build() -> None:
    started = time.perf_counter()
    print("compiling src/binscrabble/movegen/ with mypyc (a minute or two)...", flush=True)
    digest = STATE.source_digest()
    target = STATE.compiled_dir()
    previous = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="binscrabble-build-") as scratch:
        os.chdir(ROOT)
        try:
            # The copies carry the compiled modules' names (binscrabble.movegen.compiled.*);
            # they are only the build's input, and go once it is done.
            sources = copy_sources(target)
            compile_group(sources, scratch)
        finally:
            for name in STATE.MODULES:
                (target / f"{name}.py").unlink(missing_ok=True)
            os.chdir(previous)
    absent = [path.name for path in STATE.compiled_paths() if not path.exists()]
    if absent:
        raise SystemExit(f"mypyc ran but did not leave {', '.join(absent)} in {target}")
    # Written last: only a complete build is ever taken as current.
    STATE.digest_path().write_text(digest + "\n", encoding="ascii")
    print(f"compiled in {time.perf_counter() - started:.0f} s", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--force", action="store_true", help="build even if current")
    group.add_argument("--remove", action="store_true", help="remove the compiled build")
    args = parser.parse_args()
    if args.remove:
        remove()
        print("removed the compiled move generator: the source is used")
        return 0
    if not args.force and STATE.is_current():
        print("the compiled move generator is current")
        return 0
    missing = missing_toolchain()
    if missing:
        remove()  # a build left from another source would only be warned about
        print(
            f"{' and '.join(missing)}: the move generator runs from its source (slower)",
            flush=True,
        )
        return 0
    absent = missing_packages()
    if absent:
        raise SystemExit(
            f"cannot compile the move generator: the Python packages {', '.join(absent)}"
            " are missing (pip install -e '.[dev]')"
        )
    # A stale digest must not survive a failed build.
    STATE.digest_path().unlink(missing_ok=True)
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
