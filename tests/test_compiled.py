"""The move generator as the package loads it (its compiled build, made by
scripts/build_compiled.py, or its source): the examples of its modules, the choice between
build and source, the same moves from both, and the build script without a compiler.

The tests that need the compiled build are skipped, with the reason, when it is absent.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.machinery
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import binscrabble.movegen as movegen
from binscrabble.movegen import api as source_api
from binscrabble.movegen import build_state
from binscrabble.position import load_position

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "binscrabble"
CORPUS = ROOT / "bench" / "data" / "movegen_positions.jsonl"
COMPILED = movegen.IMPLEMENTATION.startswith(build_state.COMPILED_PACKAGE)

needs_build = pytest.mark.skipif(
    not COMPILED,
    reason="no current compiled build of the move generator (python scripts/build_compiled.py;"
    " it needs a C compiler and the Python headers): the source runs",
)


def loaded_module(name: str) -> ModuleType:
    """The generator's module `name` as the package runs it: compiled, or the source."""
    package = build_state.COMPILED_PACKAGE if COMPILED else "binscrabble.movegen"
    return importlib.import_module(f"{package}.{name}")


def test_module_examples_hold_for_the_loaded_build() -> None:
    # The examples are read from the sources' docstrings and run in the namespace of each
    # module as the package loaded it.
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for name in build_state.MODULES:
        source = importlib.import_module(f"binscrabble.movegen.{name}")
        for test in finder.find(source, name):
            if not test.examples:
                continue
            test.globs = dict(vars(loaded_module(name)))
            result = runner.run(test, out=lambda text: None)
            assert result.failed == 0, f"{test.name}: {result.failed} examples failed"
            examples += result.attempted
    assert examples >= 15


def test_the_build_state_lists_every_module_of_the_generator() -> None:
    sources = {path.stem for path in (PACKAGE / "movegen").glob("*.py")}
    assert sources - {"__init__", "build_state"} == set(build_state.MODULES)


@needs_build
def test_the_package_loads_the_compiled_build_made_from_this_source() -> None:
    assert f"{build_state.COMPILED_PACKAGE}.api" == movegen.IMPLEMENTATION
    assert build_state.recorded_digest() == build_state.source_digest()
    # Every module of the group is an extension module, none a copy of the source.
    for name in build_state.MODULES:
        module = loaded_module(name)
        assert module.__file__ is not None and module.__file__.endswith(
            importlib.machinery.EXTENSION_SUFFIXES[0]
        ), name


@needs_build
def test_a_changed_source_is_loaded_instead_of_a_stale_build(tmp_path: Path) -> None:
    # A copy of the package whose build's record no longer matches its source.
    copy = tmp_path / "binscrabble"
    shutil.copytree(PACKAGE, copy)
    record = build_state.digest_path(copy / "movegen")
    program = (
        "import binscrabble.movegen as m; print(m.IMPLEMENTATION)"
        "\nfrom binscrabble.board import Board; from binscrabble.rules import Rules"
        "\nprint(len(m.generate_placements(Board(), '1=1', Rules())))"
    )

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", program],
            cwd=tmp_path,
            env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=True,
        )

    current = run()
    assert current.stdout.splitlines()[0] == "binscrabble.movegen.compiled.api"
    assert "out of date" not in current.stderr
    record.write_text("0" * 64 + "\n", encoding="ascii")
    stale = run()
    assert stale.stdout.splitlines()[0] == "binscrabble.movegen.api"
    assert "compiled move generator is out of date" in stale.stderr
    assert stale.stdout.splitlines()[1] == current.stdout.splitlines()[1]
    for path in build_state.compiled_paths(copy / "movegen"):
        path.unlink()
    record.unlink()
    # No build at all: the source, without a warning.
    plain = run()
    assert plain.stdout.splitlines()[0] == "binscrabble.movegen.api"
    assert "out of date" not in plain.stderr


@needs_build
@pytest.mark.parametrize("index", range(0, 72, 9))
def test_compiled_and_source_generators_find_the_same_moves(index: int) -> None:
    record = json.loads(CORPUS.read_text(encoding="utf-8").splitlines()[index])
    game = load_position(record["position"])
    rack = game.rack()
    if rack.count("?") == 2:
        rack = rack.replace("?", "1", 1)  # (the source is slow with two blanks)
    compiled = [
        (m.place, m.score, m.text, m.value)
        for m in movegen.generate_placements(game.board, rack, game.rules)
    ]
    plain = [
        (m.place, m.score, m.text, m.value)
        for m in source_api.generate_placements(game.board, rack, game.rules)
    ]
    assert compiled == plain
    assert [m.place for m in movegen.best_placements(game.board, rack, game.rules, 5)] == [
        m.place for m in source_api.best_placements(game.board, rack, game.rules, 5)
    ]


def test_legal_moves_read_every_placement_of_a_lazy_list() -> None:
    # With a blank the generator's list makes its moves as it is read; code that reads a
    # list's storage directly would see only those made so far.
    from binscrabble.board import Board
    from binscrabble.game import Game
    from binscrabble.move import Place
    from binscrabble.rules import Rules

    game = Game.from_setup(Rules(), Board(), ["?1+1=10", None], seed=1)
    generated = movegen.generate_moves(game)
    assert not getattr(generated, "is_materialized", True)
    places = [move for move in game.legal_moves if isinstance(move, Place)]
    assert len(places) == len(generated) > 1000
    assert sum(any(tile.blank for tile in place.tiles) for place in places) > 1000


def test_the_build_record_decides_current_and_stale(tmp_path: Path) -> None:
    for name in build_state.MODULES:
        (tmp_path / f"{name}.py").write_text(f"NAME = {name!r}\n", encoding="utf-8")
    paths = build_state.compiled_paths(tmp_path)
    assert len(paths) == len(build_state.MODULES) + 1
    assert paths[-1].name.startswith(f"{build_state.GROUP}__mypyc")
    build_state.compiled_dir(tmp_path).mkdir()
    # No build: the source is what the package imports, without a warning.
    assert not build_state.is_current(tmp_path) and not build_state.is_stale(tmp_path)
    assert build_state.recorded_digest(tmp_path) == ""
    for path in paths:
        path.write_bytes(b"")
    # A build without a record, or with another source's, is stale.
    assert build_state.is_stale(tmp_path) and not build_state.is_current(tmp_path)
    digest = build_state.source_digest(tmp_path)
    build_state.digest_path(tmp_path).write_text(digest + "\n", encoding="ascii")
    assert build_state.is_current(tmp_path) and not build_state.is_stale(tmp_path)
    (tmp_path / "api.py").write_text("NAME = 'changed'\n", encoding="utf-8")
    assert build_state.is_stale(tmp_path) and not build_state.is_current(tmp_path)
    assert build_state.source_digest(tmp_path) != digest
    # A build missing a file is not current: stale, so the source is used.
    (tmp_path / "api.py").write_text("NAME = 'api'\n", encoding="utf-8")
    paths[0].unlink()
    assert build_state.is_stale(tmp_path) and not build_state.is_current(tmp_path)


def test_the_build_script_without_a_compiler_says_the_source_runs(tmp_path: Path) -> None:
    # A copy of the script and the generator's sources, so the real build is left alone.
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "build_compiled.py", tmp_path / "scripts")
    shutil.copytree(
        PACKAGE / "movegen",
        tmp_path / "src" / "binscrabble" / "movegen",
        ignore=shutil.ignore_patterns("*.so", "*.sha256", "__pycache__"),
    )
    done = subprocess.run(
        [sys.executable, str(tmp_path / "scripts" / "build_compiled.py")],
        cwd=tmp_path,
        env={"PATH": str(tmp_path), "CC": "no-such-compiler"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "no C compiler: the move generator runs from its source (slower)"
    ]
