"""The move generator's imports, read from the sources with :mod:`ast`: no cycle through the
generator or the move list (the game imports the generator, never the reverse); no import
inside a function; no private name of another module; and the one import under
TYPE_CHECKING, the package's own signatures (``binscrabble/movegen/__init__.py`` chooses
its build at run time), forms no cycle."""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src"
WATCHED = ("binscrabble.movegen", "binscrabble.movelist")


def _modules() -> dict[str, Path]:
    found = {}
    for path in (SOURCE / "binscrabble").rglob("*.py"):
        parts = list(path.relative_to(SOURCE).with_suffix("").parts)
        if "compiled" in parts[:-1] and parts[-1] != "__init__":
            continue  # copies made only while the build runs
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _target(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    package = package[: len(package) - node.level + 1]
    return ".".join([*package, node.module] if node.module else package)


def _imports(
    module: str, path: Path, tree: ast.Module, known: dict[str, Path]
) -> list[tuple[str, str, ast.AST]]:
    """(imported module, imported name or "", the import's node) for each import."""
    found: list[tuple[str, str, ast.AST]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, "", node) for alias in node.names if alias.name in known]
        elif isinstance(node, ast.ImportFrom):
            base = _target(module, path, node)
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                if whole in known:
                    found.append((whole, "", node))
                elif base in known:
                    found.append((base, alias.name, node))
    return found


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _watched(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in WATCHED)


def test_no_import_cycle_through_the_generator_or_the_move_list() -> None:
    known = _modules()
    graph = {
        module: {target for target, _, _ in _imports(module, path, _tree(path), known)}
        for module, path in known.items()
    }

    def reaches(start: str, goal: str) -> bool:
        seen, stack = set(), [start]
        while stack:
            current = stack.pop()
            for target in graph[current]:
                if target == goal:
                    return True
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        return False

    watched = [module for module in known if _watched(module)]
    assert len(watched) > 15
    cycles = [module for module in watched if reaches(module, module)]
    assert cycles == []


def test_no_hidden_or_private_imports_in_the_generator_and_the_move_list() -> None:
    known = _modules()
    problems = []
    for module, path in known.items():
        if not (module.startswith("binscrabble.movegen") or module == "binscrabble.movelist"):
            continue
        tree = _tree(path)
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for target, name, node in _imports(module, path, tree, known):
            if name.startswith("_"):
                problems.append(f"{module} imports the private {target}.{name}")
            up = parents.get(node)
            while up is not None:
                if isinstance(up, ast.FunctionDef | ast.AsyncFunctionDef):
                    problems.append(f"{module} imports {target} inside {up.name}")
                elif (
                    isinstance(up, ast.If)
                    and "TYPE_CHECKING" in ast.unparse(up.test)
                    and (module, target) != ("binscrabble.movegen", "binscrabble.movegen.api")
                ):
                    problems.append(f"{module} imports {target} under TYPE_CHECKING")
                up = parents.get(up)
    assert problems == []
