"""The move generator as the package loads it (compiled by scripts/build_compiled.py, or its
source): its documented examples, the check that a compiled module matches its source, and
the same moves from the compiled module and from the source."""

from __future__ import annotations

import doctest
import hashlib
import importlib.machinery
import json
import subprocess
import sys
from pathlib import Path

import pytest
from script_modules import load_source

import binscrabble.movegen as movegen
from binscrabble.position import load_position

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "binscrabble"
CORPUS = ROOT / "bench" / "data" / "movegen_positions.jsonl"


def test_movegen_examples_hold_for_the_loaded_module() -> None:
    # The examples are read from the source's docstrings and run in the namespace of the
    # module the package loaded.
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for test in finder.find(load_source("movegen"), "movegen"):
        if not test.examples:
            continue
        test.globs = dict(vars(movegen))
        result = runner.run(test, out=lambda text: None)
        assert result.failed == 0, f"{test.name}: {result.failed} examples failed"
        examples += result.attempted
    assert examples >= 20


def _compiled_module() -> Path:
    return PACKAGE / f"movegen{importlib.machinery.EXTENSION_SUFFIXES[0]}"


def test_the_package_loads_the_compiled_generator_built_from_this_source() -> None:
    # `make test` builds it first; run `python scripts/build_compiled.py` when this fails.
    compiled = _compiled_module()
    assert Path(movegen.__file__) == compiled, (
        f"binscrabble.movegen is {movegen.__file__}, not the compiled {compiled.name}:"
        " run `python scripts/build_compiled.py`"
    )
    digest = hashlib.sha256((PACKAGE / "movegen.py").read_bytes()).hexdigest()
    record = compiled.with_name(compiled.name + ".sha256")
    assert record.read_text(encoding="ascii").strip() == digest


def test_a_changed_source_is_loaded_instead_of_a_stale_compiled_module(tmp_path: Path) -> None:
    # A copy of the package whose compiled module's record no longer matches its source.
    copy = tmp_path / "binscrabble"
    subprocess.run(["cp", "-r", str(PACKAGE), str(copy)], check=True)
    compiled = copy / _compiled_module().name
    record = compiled.with_name(compiled.name + ".sha256")
    program = (
        "import warnings, binscrabble.movegen as m; print(m.__file__)"
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
    assert current.stdout.splitlines()[0] == str(compiled)
    assert "out of date" not in current.stderr
    record.write_text("0" * 64 + "\n", encoding="ascii")
    stale = run()
    assert stale.stdout.splitlines()[0] == str(copy / "movegen.py")
    assert "compiled move generator is out of date" in stale.stderr
    assert stale.stdout.splitlines()[1] == current.stdout.splitlines()[1]
    record.unlink()
    assert run().stdout.splitlines()[0] == str(copy / "movegen.py")


@pytest.mark.parametrize("index", range(0, 72, 9))
def test_compiled_and_source_generators_find_the_same_moves(index: int) -> None:
    record = json.loads(CORPUS.read_text(encoding="utf-8").splitlines()[index])
    game = load_position(record["position"])
    source = load_source("movegen")
    rack = game.rack()
    if rack.count("?") == 2:
        rack = rack.replace("?", "1", 1)  # (the source is slow with two blanks)
    compiled = [
        (m.place, m.score, m.text, m.value)
        for m in movegen.generate_placements(game.board, rack, game.rules)
    ]
    plain = [
        (m.place, m.score, m.text, m.value)
        for m in source.generate_placements(game.board, rack, game.rules)
    ]
    assert compiled == plain
    assert [m.place for m in movegen.best_placements(game.board, rack, game.rules, 5)] == [
        m.place for m in source.best_placements(game.board, rack, game.rules, 5)
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


def test_the_compiled_module_record_decides_current_and_stale(tmp_path: Path) -> None:
    from binscrabble import _compiled

    (tmp_path / "movegen.py").write_text("X = 1\n", encoding="utf-8")
    module, library = _compiled.compiled_paths(tmp_path)
    assert module.name == _compiled_module().name and library.name.startswith("movegen__mypyc")
    # No compiled module: the source is simply what Python imports.
    assert not _compiled.is_current(tmp_path) and not _compiled.is_stale(tmp_path)
    assert _compiled.recorded_digest(tmp_path) == ""
    module.write_bytes(b"")
    library.write_bytes(b"")
    # A module without a record, or with another source's, is stale.
    assert _compiled.is_stale(tmp_path) and not _compiled.is_current(tmp_path)
    digest = hashlib.sha256(b"X = 1\n").hexdigest()
    _compiled.digest_path(tmp_path).write_text(digest + "\n", encoding="ascii")
    assert _compiled.is_current(tmp_path) and not _compiled.is_stale(tmp_path)
    (tmp_path / "movegen.py").write_text("X = 2\n", encoding="utf-8")
    assert _compiled.is_stale(tmp_path) and not _compiled.is_current(tmp_path)
    # The support library missing: not current (the build runs again), yet not stale.
    (tmp_path / "movegen.py").write_text("X = 1\n", encoding="utf-8")
    library.unlink()
    assert not _compiled.is_current(tmp_path) and not _compiled.is_stale(tmp_path)
