"""The bounds of the equation language's work: input length and the sizes of its caches.

Every cache is cleared when full: simple, and the working set of a game or of a search is
far smaller than any of these.
"""

from __future__ import annotations

from typing import Final

#: The longest equation (in symbols, after normalizing) the checker accepts. A board run
#: has at most 30 symbols (15 squares, a rotated `=` reads as two); the limit keeps parse
#: trees shallow and values small however long a line someone pastes into `check`.
MAX_SYMBOLS: Final = 256

#: Entries of each cache of texts, equations, sides and operand values.
CACHE_LIMIT = 1 << 16

#: Texts longer than this are answered but not remembered: a flood of long lines must not
#: fill the memory.
LONGEST_CACHED: Final = 4 * MAX_SYMBOLS

#: Entries of each cache of side shapes and of position-finding patterns.
SHAPE_LIMIT: Final = 1 << 12

#: A side shape is compiled to straight-line code when seen this many times (before, it
#: runs as an interpreted register program).
COMPILE_AFTER: Final = 64
