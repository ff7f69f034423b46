"""The examples of the README and of every page of docs/ run as doctests: each ``>>>`` line
is run and what follows it must be what it prints (python-chess runs its README the same
way). A page without examples passes with none; the pages that show the library's use must
keep theirs."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
#: The pages that show how to call the library, and must keep an example that runs.
WITH_EXAMPLES = {"README.md", "api.md", "engine.md", "equations.md", "movegen.md"}


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_page_examples_run(page: Path) -> None:
    result = doctest.testfile(
        str(page),
        module_relative=False,
        optionflags=doctest.ELLIPSIS,
        verbose=False,
        report=True,
        encoding="utf-8",
    )
    assert result.failed == 0, f"{result.failed} of the examples of {page.name} failed"
    if page.name in WITH_EXAMPLES:
        assert result.attempted > 0, f"{page.name} shows no example that runs"


def test_every_page_is_read() -> None:
    assert {page.name for page in PAGES} >= WITH_EXAMPLES | {"rules.md", "notation.md"}
