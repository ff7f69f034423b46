"""Where the compiled move generator lives and whether it was built from the source as it is.

Standard library only, and no import of the package: the package uses it to load the source
in place of a stale compiled module (``binscrabble/__init__.py``), and the build script
(``scripts/build_compiled.py``) loads this file by its path, so that building never
imports the package. See docs/movegen.md, "The compiled generator".
"""

from __future__ import annotations

import hashlib
import importlib.machinery
from pathlib import Path

#: The package's directory, which holds movegen.py and the compiled module beside it.
PACKAGE = Path(__file__).resolve().parent


def compiled_paths(package: Path = PACKAGE) -> list[Path]:
    """The compiled module and its support library, for this interpreter."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return [package / f"movegen{suffix}", package / f"movegen__mypyc{suffix}"]


def digest_path(package: Path = PACKAGE) -> Path:
    """The file recording the digest of the source the compiled module was built from."""
    module = compiled_paths(package)[0]
    return module.with_name(module.name + ".sha256")


def source_digest(package: Path = PACKAGE) -> str:
    """The SHA-256 of movegen.py as it is now."""
    return hashlib.sha256((package / "movegen.py").read_bytes()).hexdigest()


def recorded_digest(package: Path = PACKAGE) -> str:
    """The digest the last complete build recorded ("" when there is none)."""
    try:
        return digest_path(package).read_text(encoding="ascii").strip()
    except OSError:
        return ""


def is_stale(package: Path = PACKAGE) -> bool:
    """Whether a compiled module is there but was not built from the source as it is."""
    return compiled_paths(package)[0].exists() and recorded_digest(package) != source_digest(
        package
    )


def is_current(package: Path = PACKAGE) -> bool:
    """Whether the compiled module and its library are there, built from this source."""
    return all(path.exists() for path in compiled_paths(package)) and recorded_digest(
        package
    ) == source_digest(package)
