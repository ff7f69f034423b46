"""Helpers for the tables the generator keeps across calls.

The generator keeps many tables from call to call (cross-checks, side fillings, scoring
tables); the helpers here keep such a table in the oldest generation of the cyclic garbage
collector, so that a young collection never walks it.
"""

from __future__ import annotations

from typing import Any, Final


class _Tracker:
    """An object the cyclic garbage collector tracks (see :func:`kept_tracked`)."""

    __slots__ = ()


_TRACKER: Final = _Tracker()


def kept_tracked(table: dict[Any, Any]) -> dict[Any, Any]:
    """`table` with an entry no lookup asks for (keyed by :data:`_TRACKER`), so that the
    collector never untracks it.

    A dict whose keys and values are all untracked (tuples of numbers and strings, numbers)
    is untracked by every full collection, and tracked again, as a young object, by the
    next entry of a new tuple: the young collection that follows a call then walks the
    whole table (the pending operations tables grow to tens of thousands of entries, far
    more work than a small rack's call itself). Kept
    tracked, such a table stays in the oldest generation, which only full collections
    walk."""
    table[_TRACKER] = None
    return table


def clear_tracked(table: dict[Any, Any]) -> None:
    """Empty a table of :func:`kept_tracked`, keeping it tracked."""
    table.clear()
    table[_TRACKER] = None


#: Marks a shape part not split yet (None is a result: the part cannot be sides).
UNSPLIT: Final[Any] = object()
