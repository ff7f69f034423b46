"""The shape of the whole package, read from the sources with :mod:`ast`: no function longer
than 120 lines, no import cycle between its modules (whether the import runs at start-up,
inside a function or only for the type checker), and no private name imported from another
module. docs/api.md, "How it is built, and why", says why."""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src"
LONGEST_FUNCTION = 120


def _modules() -> dict[str, Path]:
    found = {}
    for path in (SOURCE / "binscrabble").rglob("*.py"):
        parts = list(path.relative_to(SOURCE).with_suffix("").parts)
        if "compiled" in parts[:-1] and parts[-1] != "__init__":
            continue  # copies the move generator's build makes while it runs
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _trees() -> dict[str, tuple[Path, ast.Module]]:
    return {
        module: (path, ast.parse(path.read_text(encoding="utf-8")))
        for module, path in _modules().items()
    }


def _base(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    package = package[: len(package) - node.level + 1]
    return ".".join([*package, node.module] if node.module else package)


def _imports(module: str, path: Path, tree: ast.Module, known: set[str]) -> list[tuple[str, str]]:
    """(imported module, imported name or "") for every import of the package's modules."""
    found: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names if alias.name in known]
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, path, node)
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    found.append((f"{base}.{alias.name}", ""))
                elif base in known:
                    found.append((base, alias.name))
    return found


def _is_own_package(module: str, target: str) -> bool:
    """A package importing its own submodules (its ``__init__`` gathers them) is no cycle."""
    return target.startswith(module + ".")


def test_no_function_is_longer_than_120_lines() -> None:
    lengths = [
        (node.end_lineno - node.lineno + 1, f"{module}.{node.name}")
        for module, (_, tree) in _trees().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno
    ]
    assert len(lengths) > 500
    assert [name for length, name in lengths if length > LONGEST_FUNCTION] == []


def test_no_import_cycle_between_modules() -> None:
    trees = _trees()
    known = set(trees)
    graph = {
        module: {
            target
            for target, _ in _imports(module, path, tree, known)
            if target != module and not _is_own_package(module, target)
        }
        for module, (path, tree) in trees.items()
    }

    def cycle_from(start: str) -> list[str] | None:
        stack = [(start, [start])]
        seen = set()
        while stack:
            current, trail = stack.pop()
            for target in graph[current]:
                if target == start:
                    return [*trail, start]
                if target not in seen:
                    seen.add(target)
                    stack.append((target, [*trail, target]))
        return None

    assert sum(len(targets) for targets in graph.values()) > 100
    cycles = [cycle for module in sorted(graph) if (cycle := cycle_from(module))]
    assert cycles == []


def test_no_private_name_is_imported_from_another_module() -> None:
    trees = _trees()
    known = set(trees)
    private = [
        f"{module} imports {target}.{name}"
        for module, (path, tree) in trees.items()
        for target, name in _imports(module, path, tree, known)
        if name.startswith("_") and not name.startswith("__") and name != "_"
    ]
    # `_` is gettext's name for "translate this" (binscrabble.i18n, docs/languages.md): a
    # public function every module that shows sentences imports.
    assert private == []
