"""The cyclomatic complexity of every function of the rules core (everything but the doors
to the outside: the web app, the printables, the command line and the terminal game) stays
at 20 or below, counted as McCabe does: one, plus one per branch point (``if``, ``elif``,
conditional expression, loop, ``except``, loop or ``try`` ``else``, ``case``,
comprehension and its conditions, ``assert``, and each extra operand of ``and`` / ``or``).
A function that grows past it is a sign to cut it into named steps, as ``legality`` does
with the rules of a play."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "binscrabble"
MOST = 20
OUTSIDE_THE_CORE = ("web", "print", "cli")


def _core_files() -> list[Path]:
    files = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if parts[0] in OUTSIDE_THE_CORE or parts[0] == "terminal.py" or "compiled" in parts:
            continue
        files.append(path)
    return files


def _branches(node: ast.AST) -> int:
    """Branch points of a function's own body (nested functions and classes count apart)."""
    count = 0
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(child, ast.If | ast.IfExp | ast.While | ast.Assert):
            count += 1
        elif isinstance(child, ast.For | ast.AsyncFor):
            count += 1 + bool(child.orelse)
        elif isinstance(child, ast.Try):
            count += len(child.handlers) + bool(child.orelse)
        elif isinstance(child, ast.BoolOp):
            count += len(child.values) - 1
        elif isinstance(child, ast.comprehension):
            count += 1 + len(child.ifs)
        elif isinstance(child, ast.match_case):
            count += 1
        count += _branches(child)
    return count


def complexities(files: list[Path] | None = None) -> dict[str, int]:
    found = {}
    for path in _core_files() if files is None else files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found[f"{module}:{node.lineno} {node.name}"] = 1 + _branches(node)
    return found


def test_the_count_sees_branches() -> None:
    tree = ast.parse(
        "def f(a, b):\n"
        "    if a and b or a:\n"
        "        return [x for x in a if x]\n"
        "    for x in b:\n"
        "        pass\n"
        "    else:\n"
        "        pass\n"
        "    try:\n"
        "        pass\n"
        "    except ValueError:\n"
        "        pass\n"
        "    return 1 if a else 2\n"
    )
    # 1 + if + (and, or) + comprehension and its if + for and its else + except + IfExp
    assert 1 + _branches(tree.body[0]) == 10


def test_no_core_function_is_above_the_limit() -> None:
    found = complexities()
    assert len(found) > 500
    assert {name: count for name, count in found.items() if count > MOST} == {}


def test_no_command_line_function_is_above_the_limit() -> None:
    # The commands report failures by raising CliError, caught once in cli.main, so none of
    # them branches on a helper's "game or exit status" answer.
    found = complexities(sorted((PACKAGE / "cli").glob("*.py")))
    assert len(found) > 40
    assert {name: count for name, count in found.items() if count > MOST} == {}
