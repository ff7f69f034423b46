"""Text as outlines: the glyphs of DejaVu Sans turned into SVG path data with fontTools.

A laser cutter's computer then needs no font: the faces and points of the tiles are shapes
like any other. Only the characters the tiles show are ever drawn (digits, ``= + − × ÷`` and
the words AND OR NOT XOR), all of them in DejaVu Sans.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from binscrabble.i18n import _
from binscrabble.print import missing_extra
from binscrabble.print.fonts import font_file

if TYPE_CHECKING:
    from fontTools.ttLib import TTFont


@cache
def _font(name: str) -> TTFont:
    try:
        from fontTools.ttLib import TTFont
    except ImportError as error:
        raise missing_extra("fonttools", _("a laser file")) from error
    return TTFont(str(font_file(name)))


class Outlines:
    """One font file's glyphs as path data, in millimetres."""

    def __init__(self, name: str) -> None:
        font = _font(name)
        self._glyphs: Any = font.getGlyphSet()
        self._cmap: dict[int, str] = font.getBestCmap()
        self._advances: dict[str, tuple[int, int]] = font["hmtx"].metrics
        self._units: int = font["head"].unitsPerEm

    def width(self, text: str, size: float) -> float:
        """How wide ``text`` is at ``size`` millimetres to the em."""
        return sum(self._advances[self._cmap[ord(char)]][0] for char in text) * size / self._units

    def path(self, text: str, left: float, baseline: float, size: float) -> str:
        """Path data of ``text`` starting at ``left`` on ``baseline``, ``size`` mm to the em.

        >>> data = Outlines("DejaVuSans.ttf").path("1", 0, 10, 10)
        >>> data.startswith("M") and data.endswith("Z")
        True
        """
        from fontTools.pens.svgPathPen import SVGPathPen
        from fontTools.pens.transformPen import TransformPen

        pen = SVGPathPen(self._glyphs, ntos=_number)
        scale = size / self._units
        cursor = left
        for char in text:
            name = self._cmap[ord(char)]
            # Font units grow upwards; the picture's millimetres grow downwards.
            self._glyphs[name].draw(TransformPen(pen, (scale, 0, 0, -scale, cursor, baseline)))
            cursor += self._advances[name][0] * scale
        commands: str = pen.getCommands()
        return commands


def _number(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text
