"""Leave values: how much the tiles a player keeps are worth for the turns to come.

A *leave* is what stays on the rack after a play or an exchange, as a string of tile codes
in any order. Its value, in points, is added to a move's score to give the move's *equity*.

The value is a linear model over a few features of the leave (see :func:`leave_features`):
how many of each tile it holds (first copy, second copy, ...), how many digits and
operators it has, its size, and whether it can still make an equation on its own. The
weights are learned from self-play by ``scripts/train_leaves.py``, which regenerates the
file ``binscrabble/engine/data/leaves.json`` shipped with the package. Only differences
between leaves matter when moves are compared, so values are shifted to make the empty
leave worth exactly 0. A leave with a blank is worth at least as much as the same leave with
the blank replaced by any one face (a blank can stand for any tile), whatever the weights.

>>> table = LeaveTable.default()
>>> table.value("")
0.0
>>> leave_features("11=")[:3]
['has:1x1', 'has:1x2', 'has:=x1']
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Final

from binscrabble.rules import BINARY_OPERATORS, BLANK, DIGITS, EQUALS, NOT

#: How many copies of one tile get a feature of their own; more copies share the last one.
MAX_COPIES: Final = 4
#: The file, inside this package's ``data`` folder, that holds the shipped weights.
DATA_FILE: Final = "leaves.json"
#: The format number written in (and required of) leave files.
FORMAT: Final = 1
#: The faces a kept blank is compared with: it is worth at least the best of them.
BLANK_FACES: Final = "01=+-x/&|~"


class LeaveTableError(ValueError):
    """A leave file that cannot be read or does not have the expected shape."""


def leave_features(leave: str) -> list[str]:
    """The names of the features a leave has, in a fixed order (the model's inputs).

    >>> leave_features("")
    ['size:0', 'digits:0', 'operators:0', 'no-equals']
    >>> 'complete' in leave_features("1=1+")
    True
    """
    counts = Counter(leave)
    features: list[str] = []
    for code in sorted(counts, key=_code_order):
        for copy in range(1, min(counts[code], MAX_COPIES) + 1):
            features.append(f"has:{code}x{copy}")
    digits = sum(counts[code] for code in DIGITS)
    operators = sum(counts[code] for code in BINARY_OPERATORS) + counts[NOT]
    equals = counts[EQUALS]
    blanks = counts[BLANK]
    features.append(f"size:{len(leave)}")
    features.append(f"digits:{min(digits, 6)}")
    features.append(f"operators:{min(operators, 4)}")
    if equals == 0 and blanks == 0:
        features.append("no-equals")
    if digits > 0 and counts["1"] == 0 and blanks == 0:
        # Zeros alone make only the number 0: a rack of zeros is hard to play.
        features.append("zeros-without-ones")
    if operators > digits + blanks:
        features.append("more-operators-than-digits")
    if (equals or blanks) and digits + blanks >= 2 and operators + blanks >= 1:
        # The makings of a whole equation (two numbers, a sign, an `=`) are kept.
        features.append("complete")
    return features


def _code_order(code: str) -> int:
    order = "01=+-x/&|~^?"
    return order.index(code) if code in order else len(order)


class LeaveTable:
    """The learned weights of the leave model; :meth:`value` gives a leave's worth in points.

    >>> table = LeaveTable({"has:?x1": 12.0, "size:1": -1.0})
    >>> table.value("?")
    11.0
    >>> table.value("?") == table.value("?")
    True

    A blank is worth at least any tile it could stand for:

    >>> LeaveTable({"has:=x1": 4.0, "has:?x1": -3.0}).value("?")
    4.0
    """

    def __init__(self, weights: Mapping[str, float], metadata: Mapping[str, object] | None = None):
        self.weights: dict[str, float] = {name: float(value) for name, value in weights.items()}
        self.metadata: dict[str, object] = dict(metadata or {})
        self._empty = self._raw("")
        self._cached_value = functools.lru_cache(maxsize=200_000)(self._value_of_sorted)

    def _raw(self, leave: str) -> float:
        weights = self.weights
        return sum(weights.get(name, 0.0) for name in leave_features(leave))

    def _value_of_sorted(self, leave: str) -> float:
        value = self._raw(leave) - self._empty
        if BLANK in leave:
            # A blank can be played as any face, so keeping it is worth at least as much as
            # keeping any one tile in its place. The linear model cannot know that, and
            # self-play data are thin on blanks (three in a hundred tiles).
            rest = leave.replace(BLANK, "", 1)
            for face in BLANK_FACES:
                value = max(value, self._cached_value("".join(sorted(rest + face))))
        return value

    def value(self, leave: str) -> float:
        """The worth of keeping these tiles, in points (the empty leave is worth 0)."""
        return float(self._cached_value("".join(sorted(leave))))

    # -- files ----------------------------------------------------------------------------

    @classmethod
    def from_json(cls, text: str, source: str = "leave file") -> LeaveTable:
        """Read a table written by :meth:`to_json`; raises LeaveTableError saying what is wrong."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise LeaveTableError(f"{source} is not valid JSON: {error}") from None
        if not isinstance(data, dict):
            raise LeaveTableError(f"{source} must hold a JSON object")
        if data.get("format") != FORMAT:
            raise LeaveTableError(f"{source} has format {data.get('format')!r}, expected {FORMAT}")
        weights = data.get("weights")
        if not isinstance(weights, dict) or not all(
            isinstance(name, str) and isinstance(value, int | float) and not isinstance(value, bool)
            for name, value in weights.items()
        ):
            raise LeaveTableError(f"{source}: 'weights' must map feature names to numbers")
        metadata = data.get("metadata", {})
        if not isinstance(metadata, dict):
            raise LeaveTableError(f"{source}: 'metadata' must be an object")
        return cls(weights, metadata)

    @classmethod
    def from_file(cls, path: str | Path) -> LeaveTable:
        """Read the table file at `path` (:meth:`from_json`, naming the file in its errors);
        an unreadable file raises OSError."""
        return cls.from_json(Path(path).read_text(encoding="utf-8"), source=str(path))

    def to_json(self) -> str:
        """The table as JSON text, weights sorted by name, one per line."""
        data = {
            "format": FORMAT,
            "metadata": self.metadata,
            "weights": {name: round(value, 4) for name, value in sorted(self.weights.items())},
        }
        return json.dumps(data, indent=1, sort_keys=False) + "\n"

    @classmethod
    def default(cls) -> LeaveTable:
        """The table shipped with the package (learned by ``scripts/train_leaves.py``)."""
        return _default_table()


@functools.cache
def _default_table() -> LeaveTable:
    source = resources.files("binscrabble.engine") / "data" / DATA_FILE
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as error:
        raise LeaveTableError(f"cannot read the shipped leave table: {error}") from None
    return LeaveTable.from_json(text, source=f"package data {DATA_FILE}")
