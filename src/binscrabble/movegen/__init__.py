"""Every legal placement for a rack, fast (docs/movegen.md).

There is no word list in Binary Scrabble: the grammar of docs/rules.md §6 and arithmetic decide
what may be played. The generator walks every line of the board and every maximal stretch
of squares (a *segment*) a play could fill there (:mod:`.scan`), splits the segment at its
``=`` signs (the ones on the board and the one new ``=`` the play may add) into *sides*,
enumerates the fillings of each side that follow the grammar together with their values,
worked out as each side is written (:mod:`.sides`, :mod:`.grammar`, :mod:`.arithmetic`),
and joins sides of equal value (:mod:`.join`). A join keeps its equations as groups, so
moves are counted without making them; they are returned as a :class:`MoveList`, which
makes the moves only when read (:mod:`.rows`, :mod:`.scoring`, :mod:`.blanks`).

This module only chooses the build: the compiled one (scripts/build_compiled.py) when it
was made from the source as it is now, else the source, and gives its public functions.

>>> from binscrabble.board import Board
>>> from binscrabble.rules import Rules
>>> moves = generate_placements(Board(), "11+=01", Rules())
>>> best = min(moves, key=sort_key)
>>> best.score, best.text, best.place.notation(Board())
(18, '10=1+1', '8C 10=1+1')
>>> len({move.place for move in moves}) == len(moves)
True
"""

from __future__ import annotations

import importlib
import warnings
from types import ModuleType
from typing import TYPE_CHECKING

from binscrabble.movegen import build_state
from binscrabble.movelist import MoveList

__all__ = [
    "IMPLEMENTATION",
    "GeneratedMove",
    "LegalMoves",
    "MoveList",
    "Referee",
    "Turn",
    "best_moves",
    "best_placements",
    "exchanges",
    "generate_moves",
    "generate_placements",
    "sort_key",
]


def _implementation() -> ModuleType:
    """The generator's public functions: from the compiled build when it was made from the
    source as it is now, else from the source (slower, and with a warning when a build is
    there but out of date, so that an edit is never silently ignored)."""
    if build_state.is_current():
        return importlib.import_module(f"{build_state.COMPILED_PACKAGE}.api")
    if build_state.is_stale():
        warnings.warn(
            "the compiled move generator is out of date with its source: using the source"
            " (slower); rebuild it with `python scripts/build_compiled.py`",
            RuntimeWarning,
            stacklevel=2,
        )
    return importlib.import_module("binscrabble.movegen.api")


if TYPE_CHECKING:
    # The signatures mypy checks callers against: the source's, which the build compiles.
    from binscrabble.movegen.api import (
        GeneratedMove,
        LegalMoves,
        Referee,
        Turn,
        best_moves,
        best_placements,
        exchanges,
        generate_moves,
        generate_placements,
        sort_key,
    )

    #: The module the public functions come from: ``binscrabble.movegen.compiled.api`` (the
    #: compiled build) or ``binscrabble.movegen.api`` (the source).
    IMPLEMENTATION: str
else:
    _api = _implementation()
    GeneratedMove = _api.GeneratedMove
    LegalMoves = _api.LegalMoves
    Referee = _api.Referee
    Turn = _api.Turn
    best_moves = _api.best_moves
    best_placements = _api.best_placements
    exchanges = _api.exchanges
    generate_moves = _api.generate_moves
    generate_placements = _api.generate_placements
    sort_key = _api.sort_key
    IMPLEMENTATION = _api.__name__
