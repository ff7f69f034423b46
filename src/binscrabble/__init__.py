"""Binary Scrabble: tiles are binary digits, ``=`` and operators; every run is a true equation.

The rules core (rules, equations, board, game) uses only the standard library.
"""

import importlib.util
import sys
import warnings

from binscrabble import _compiled
from binscrabble.rules import Rules, RulesError

__all__ = ["Rules", "RulesError"]
__version__ = "0.1.0"


def _use_source_if_stale() -> None:
    """Load the move generator from its source when its compiled module is out of date.

    The move generator may be compiled (scripts/build_compiled.py; docs/movegen.md, "The
    compiled generator"): Python then imports the compiled module before the source. The
    build records the digest of the source it was built from; when the source has changed
    since, the source is loaded now in its place, so an edit is never silently ignored.
    """
    if not _compiled.is_stale():
        return
    warnings.warn(
        "the compiled move generator is out of date with movegen.py: using the source"
        " (slower); rebuild it with `python scripts/build_compiled.py`",
        RuntimeWarning,
        stacklevel=2,
    )
    source = _compiled.PACKAGE / "movegen.py"
    spec = importlib.util.spec_from_file_location(f"{__name__}.movegen", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)


_use_source_if_stale()
