"""Where the compiled build of the generator lives and whether it was made from the source
as it is now.

Standard library only, and nothing of the package imported: the package asks it which build
to load (``binscrabble/movegen/__init__.py``), and the build script
(``scripts/build_compiled.py``) loads this file by its path, so that building never imports
the generator. See docs/movegen.md, "Compiled or source".
"""

from __future__ import annotations

import hashlib
import importlib.machinery
from pathlib import Path
from typing import Final

#: The generator's source directory: its modules, and ``compiled/`` beside them.
PACKAGE: Final = Path(__file__).resolve().parent

#: The generator's modules, compiled together (one mypyc group), in the order their
#: digest is taken. The facade (``__init__.py``) and this file are not among them.
MODULES: Final = (
    "caches",
    "options",
    "grammar",
    "context",
    "arithmetic",
    "crosscheck",
    "usage",
    "sides",
    "blanks",
    "join",
    "fillings",
    "generated",
    "scoring",
    "bounds",
    "rows",
    "scan",
    "api",
)

#: The compiled modules' package, and the name of their shared library in it.
COMPILED_PACKAGE: Final = "binscrabble.movegen.compiled"
GROUP: Final = "generator"


def compiled_dir(package: Path = PACKAGE) -> Path:
    """The directory the compiled modules are built into."""
    return package / "compiled"


def compiled_paths(package: Path = PACKAGE) -> list[Path]:
    """Every file of the compiled build for this interpreter: a module per source module,
    and the shared library that holds their code."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    where = compiled_dir(package)
    return [where / f"{name}{suffix}" for name in MODULES] + [where / f"{GROUP}__mypyc{suffix}"]


def digest_path(package: Path = PACKAGE) -> Path:
    """The file recording the digest of the source the compiled build was made from."""
    return compiled_dir(package) / f"{GROUP}.sha256"


def source_digest(package: Path = PACKAGE) -> str:
    """The SHA-256 of the generator's modules as they are now (names and contents)."""
    digest = hashlib.sha256()
    for name in MODULES:
        digest.update(name.encode("ascii") + b"\0")
        digest.update((package / f"{name}.py").read_bytes())
    return digest.hexdigest()


def recorded_digest(package: Path = PACKAGE) -> str:
    """The digest the last complete build recorded ("" when there is none)."""
    try:
        return digest_path(package).read_text(encoding="ascii").strip()
    except OSError:
        return ""


def is_current(package: Path = PACKAGE) -> bool:
    """Whether the whole compiled build is there, made from the source as it is."""
    return all(path.exists() for path in compiled_paths(package)) and recorded_digest(
        package
    ) == source_digest(package)


def is_stale(package: Path = PACKAGE) -> bool:
    """Whether some compiled build is there but is not current (the source changed since,
    or the build is incomplete): the source is then used, with a warning."""
    return any(path.exists() for path in compiled_paths(package)) and not is_current(package)
