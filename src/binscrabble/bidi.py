"""One line of mixed right-to-left and left-to-right text in the order it is drawn.

A board picture is drawn by CairoSVG (PNG pictures, animations), which places characters
in the order they are stored, with no bidirectional layout, and draws the Unicode isolates
as boxes. So a line of Hebrew goes into the picture in *visual* order: :func:`visual` lays
it out as the Unicode bidirectional algorithm (UAX #9) would, for one line with no explicit
embeddings, and returns its characters from left to right, without the isolates and marks
that guided it. The SVG marks that text ``direction="ltr" unicode-bidi="bidi-override"`` so
that a browser also draws it as stored.

What is kept of the algorithm, enough for the pictures' lines: the types of
``unicodedata.bidirectional``; isolates (U+2066 LRI, U+2067 RLI, U+2068 FSI ... U+2069
PDI), each laid out on its own and then standing as one neutral in the line around it;
the weak rules (a sign or separator between digits, a ``+`` or ``%`` next to them, digits
after Latin text taking its direction); neutrals between two strong types of one direction
taking it, the others the line's; levels, and the reversal of every run at an odd level,
with a bracket in a reversed run mirrored. Left out: explicit embeddings and overrides
(U+202A-202E, which no message uses), Arabic numbers' special cases and line breaking.

>>> visual("תור 3")
'3 רות'
>>> visual("תור ⁨8D 1+1=10⁩ ⁦+12⁩")
'+12 8D 1+1=10 רות'
>>> visual("Ada (נועה)", "ltr")
'Ada (העונ)'
"""

from __future__ import annotations

import unicodedata
from typing import Final

#: The isolate initiators and their direction (FSI: the first strong letter's).
_ISOLATES: Final = {"\u2066": "ltr", "\u2067": "rtl", "\u2068": None}
_POP_ISOLATE: Final = "\u2069"
#: Direction characters that guide the layout and are not drawn.
_INVISIBLE: Final = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e") | {
    *_ISOLATES,
    _POP_ISOLATE,
}
#: A bracket drawn in right-to-left text shows its mirror image.
_MIRRORED: Final = dict(zip("()[]{}<>«»‹›", ")(][}{><»«›‹", strict=True))


def has_right_to_left(text: str) -> bool:
    """Whether ``text`` holds a right-to-left letter (Hebrew, Arabic...).

    >>> has_right_to_left("Ada 8D"), has_right_to_left("תור 3")
    (False, True)
    """
    return any(unicodedata.bidirectional(char) in ("R", "AL") for char in text)


def first_strong(text: str) -> str | None:
    """``"ltr"`` or ``"rtl"`` after the first strong letter of ``text`` (isolates skipped), or
    None when it has none.

    >>> first_strong("12 נועה"), first_strong("⁨Ada⁩ נועה"), first_strong("12")
    ('rtl', 'rtl', None)
    """
    depth = 0
    for char in text:
        if char in _ISOLATES:
            depth += 1
        elif char == _POP_ISOLATE:
            depth = max(0, depth - 1)
        elif depth == 0:
            kind = unicodedata.bidirectional(char)
            if kind == "L":
                return "ltr"
            if kind in ("R", "AL"):
                return "rtl"
    return None


def visual(text: str, direction: str = "rtl") -> str:
    """The characters of one line from left to right as they are drawn in a paragraph of
    ``direction`` (``"rtl"`` or ``"ltr"``), without isolates or direction marks."""
    pieces, kinds = _pieces(text)
    base = 1 if direction == "rtl" else 0
    _resolve_weak(kinds, base)
    _resolve_neutral(kinds, base)
    levels = [_level(kind, base) for kind in kinds]
    shown = [
        _mirror(piece) if level % 2 else piece for piece, level in zip(pieces, levels, strict=True)
    ]
    order = list(range(len(shown)))
    for level in range(max(levels, default=0), 0, -1):
        start = 0
        while start < len(order):
            if levels[order[start]] < level:
                start += 1
                continue
            end = start
            while end < len(order) and levels[order[end]] >= level:
                end += 1
            order[start:end] = reversed(order[start:end])
            start = end
    return "".join(shown[index] for index in order)


def _pieces(text: str) -> tuple[list[str], list[str]]:
    """The line's units: each character, or an isolate already laid out (an unclosed
    isolate runs to the end), with their bidirectional types (an isolate is a neutral)."""
    pieces: list[str] = []
    kinds: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char in _ISOLATES:
            depth, end = 1, index + 1
            while end < len(text) and depth:
                depth += text[end] in _ISOLATES
                depth -= text[end] == _POP_ISOLATE
                end += 1
            inner = text[index + 1 : end - 1 if depth == 0 else end]
            inner_direction = _ISOLATES[char] or first_strong(inner) or "ltr"
            pieces.append(visual(inner, inner_direction))
            kinds.append("ON")
            index = end
            continue
        kind = unicodedata.bidirectional(char)
        if kind == "NSM":
            kind = kinds[-1] if kinds else "ON"
        pieces.append("" if char in _INVISIBLE else char)
        kinds.append({"AL": "R", "AN": "EN"}.get(kind, kind))
        index += 1
    return pieces, kinds


def _resolve_weak(kinds: list[str], base: int) -> None:
    """Signs and separators with digits (W4-W6), and digits after Latin text (W7)."""
    for index in range(1, len(kinds) - 1):
        if kinds[index] in ("ES", "CS") and kinds[index - 1] == kinds[index + 1] == "EN":
            kinds[index] = "EN"
    for index, kind in enumerate(kinds):
        if kind != "EN":
            continue
        for step in (-1, 1):
            near = index + step
            while 0 <= near < len(kinds) and kinds[near] == "ET":
                kinds[near] = "EN"
                near += step
    strong = "L" if base == 0 else "R"
    for index, kind in enumerate(kinds):
        if kind in ("ES", "ET", "CS"):
            kinds[index] = "ON"
        elif kind in ("L", "R"):
            strong = kind
        elif kind == "EN" and strong == "L":
            kinds[index] = "L"


def _resolve_neutral(kinds: list[str], base: int) -> None:
    """Neutrals between two strong types of one direction take it (digits count as
    right-to-left), the others the line's direction (N1, N2)."""
    edge = "L" if base == 0 else "R"
    index = 0
    while index < len(kinds):
        if kinds[index] in ("L", "R", "EN"):
            index += 1
            continue
        end = index
        while end < len(kinds) and kinds[end] not in ("L", "R", "EN"):
            end += 1
        before = kinds[index - 1] if index else edge
        after = kinds[end] if end < len(kinds) else edge
        before, after = ("R" if side == "EN" else side for side in (before, after))
        kinds[index:end] = [before if before == after else edge] * (end - index)
        index = end


def _level(kind: str, base: int) -> int:
    if base % 2 == 0:
        return base + {"R": 1, "EN": 2}.get(kind, 0)
    return base + (kind != "R")


def _mirror(piece: str) -> str:
    return _MIRRORED.get(piece, piece)
