"""The list of moves the generator returns, and the pause of the garbage collector its
calls share.

Kept apart from :mod:`binscrabble.movegen` because that package is compiled (see
docs/movegen.md, "Compiled or source"): a subclass of :class:`list` cannot be a compiled
class, and what lives here is not where the time goes. It knows nothing of the moves it
holds (it is generic in them), so it imports nothing of the generator.
"""

from __future__ import annotations

import gc
import operator
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from typing import Any, Final, SupportsIndex, TypeVar, overload

#: The type of the moves a list holds (the generator's ``GeneratedMove``).
Item = TypeVar("Item")

__all__ = ["MoveList", "collector_paused"]


#: How many objects a call must leave in the youngest generation before they are moved to
#: the oldest one unwalked (see :func:`collector_paused`; small racks leave a few thousand).
_PROMOTED_FROM: Final = 20_000


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (reference counting still frees everything).

    Generating and sorting moves allocates hundreds of thousands of small tuples and
    objects that never form reference cycles; the collector would walk them, and every
    cache, again and again, which costs a third to a half of the time.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            if gc.get_count()[0] > _PROMOTED_FROM and not gc.get_freeze_count():
                # The objects made here that outlive the call (the moves' join groups, the
                # tables kept across calls: 35,000-110,000 on the heavy racks) are all in
                # the youngest generation, far past its threshold, so the first allocation
                # after gc.enable() would walk every one of them (7-19 ms of a 100-200 ms
                # call). A freeze and an unfreeze move every tracked object to the oldest
                # generation without walking any: they are looked at only by the next full
                # collection, if they still live then. Skipped when the caller has frozen
                # objects of its own (unfreezing would release them; counting them walks
                # them, so only for calls that made many objects), and so always under
                # CPython 3.12, which starts with objects of its own frozen (375 in 3.12.1).
                gc.freeze()
                gc.unfreeze()
            gc.enable()


class MoveList(list[Item]):
    """A list of generated moves whose objects are made when first read.

    It is a :class:`list`, and reads as one: ``len``, iteration, indexing and slicing,
    comparison, ``in``, sorting and every other list method behave as on the list of all
    its moves, in its order. The generator finds and counts every move first; only the
    move objects are deferred: ``len`` and ``bool`` make none, iterating or
    indexing makes the moves up to the point read (each once: reading again gives the same
    objects), and anything else (comparison, ``in``, ``sort``, any change) makes them all
    first. Functions that reach into a list's storage without calling its methods (such as
    :mod:`heapq`'s in-place functions) should be given ``list(moves)`` or
    :meth:`materialize` first. A copy or a pickle is a plain, complete list of moves.

    >>> from binscrabble.board import Board
    >>> from binscrabble.movegen import generate_placements
    >>> from binscrabble.rules import Rules
    >>> moves = generate_placements(Board(), "11+=01", Rules())
    >>> len(moves), moves.is_materialized
    (70, False)
    >>> moves[0] is moves[0], moves.is_materialized
    (True, False)
    >>> len(list(moves)) == len(moves), moves.is_materialized
    (True, True)
    """

    __slots__ = ("_length", "_pending")

    def __init__(self, moves: Iterable[Item] = ()) -> None:
        super().__init__(moves)
        self._pending: Iterator[Item] | None = None
        self._length = 0

    @classmethod
    def lazy(cls, length: int, source: Iterator[Item]) -> MoveList[Item]:
        """A list of `length` moves that `source` yields in order, made as they are read."""
        moves: MoveList[Item] = cls()
        if length:
            moves._pending = source
            moves._length = length
        return moves

    @property
    def is_materialized(self) -> bool:
        """Whether every move object has been made."""
        return self._pending is None

    def materialize(self) -> MoveList[Item]:
        """Make every move object now; returns the list itself."""
        self._fill(self._length)
        return self

    def _fill(self, wanted: int) -> None:
        """Make moves until at least `wanted` (or all) are made."""
        pending = self._pending
        if pending is None:
            return
        wanted = min(wanted, self._length)
        have = list.__len__(self)
        if wanted <= have:
            return
        with collector_paused():
            drain: Callable[[], list[Item]] | None = getattr(pending, "drain", None)
            if drain is not None and wanted - have > (self._length - have) // 16:
                # Most of the rest is wanted: one sort beats the heap (a best-first source,
                # see binscrabble.movegen).
                list.extend(self, drain())
            else:
                list.extend(self, islice(pending, wanted - have))
        made = list.__len__(self)
        if made >= self._length:
            self._pending = None
        elif made < wanted:
            self._pending = None
            raise RuntimeError(f"the move generator listed {made} moves, not {self._length}")

    def __len__(self) -> int:
        return self._length if self._pending is not None else list.__len__(self)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __iter__(self) -> Iterator[Item]:
        if self._pending is None:
            return list.__iter__(self)
        return self._iterate()

    def _iterate(self) -> Iterator[Item]:
        index = 0
        while True:
            made = list.__len__(self)
            if index < made:
                yield from list.__getitem__(self, slice(index, made))
                index = made
                continue
            if self._pending is None:
                return
            self._fill(max(index + 1, 2 * index, 1024))

    @overload
    def __getitem__(self, index: SupportsIndex) -> Item: ...

    @overload
    def __getitem__(self, index: slice) -> list[Item]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> Item | list[Item]:
        if self._pending is not None:
            if isinstance(index, slice):
                stop = index.stop
                step = index.step
                if (
                    (step is None or step > 0)
                    and stop is not None
                    and stop >= 0
                    and (index.start is None or index.start >= 0)
                ):
                    self._fill(stop)
                else:
                    self._fill(self._length)
            else:
                position = operator.index(index)
                self._fill(position + 1 if position >= 0 else self._length)
        return list.__getitem__(self, index)

    def __radd__(self, other: list[Item]) -> list[Item]:
        return other + list(self)

    def __repr__(self) -> str:
        self._fill(self._length)
        return list.__repr__(self)

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        return (MoveList, (list(self),))


def _materializing(name: str) -> Any:
    method = getattr(list, name)

    def every_move_first(self: MoveList[Any], *arguments: Any, **keywords: Any) -> Any:
        self._fill(self._length)
        return method(self, *arguments, **keywords)

    every_move_first.__name__ = name
    every_move_first.__doc__ = method.__doc__
    return every_move_first


# The list methods that see every move: they run once all moves are made.
for _name in (
    "__contains__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__add__",
    "__mul__",
    "__rmul__",
    "__iadd__",
    "__imul__",
    "__reversed__",
    "__setitem__",
    "__delitem__",
    "append",
    "extend",
    "insert",
    "pop",
    "remove",
    "clear",
    "copy",
    "count",
    "index",
    "reverse",
    "sort",
):
    setattr(MoveList, _name, _materializing(_name))
