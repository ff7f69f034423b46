"""bench/results.py: the results file of `make bench`, merged benchmark by benchmark."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _results_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_results", ROOT / "bench" / "results.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_partial_run_replaces_only_its_benchmarks(tmp_path: Path) -> None:
    results = _results_module()
    path = tmp_path / "results.json"
    first = {
        "check": results.entry("check: 1 a second\n", 2.0, 0.5),
        "record": results.entry("record: 3 ms\n", 1.0, 0.5),
    }
    results.merge(first, path)
    merged = results.merge({"record": results.entry("record: 2 ms\n", 1.0, None)}, path)
    assert json.loads(path.read_text(encoding="utf-8")) == merged
    assert merged["check"]["output"] == "check: 1 a second\n"
    assert merged["record"]["output"] == "record: 2 ms\n"
    machine = merged["record"]["machine"]
    assert machine["cores"] >= 1 and machine["python"] and machine["cpu"]


def test_the_page_shows_each_run_and_what_is_not_measured(tmp_path: Path) -> None:
    results = _results_module()
    stored = results.merge(
        {"record": results.entry("read: 3.36 ms a game\n", 0.5, None)}, tmp_path / "results.json"
    )
    page = results.page(stored, ["check", "record"])
    assert "## record" in page and "## check" not in page
    assert "read: 3.36 ms a game" in page
    assert "load average not reported before" in page
    assert "Not measured yet (a full `make bench` fills them in): `check`." in page
