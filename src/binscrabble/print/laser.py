"""The tile set as cut paths for a laser cutter: SVG in millimetres, one file per sheet.

Three layers, as laser programs expect them: ``cut`` (red) holds one closed path per tile
or rack outline, ``score`` (blue) the fold lines of the racks, ``engrave`` (black) the
faces and points as filled outlines (no font needed on the cutting computer). Cut lines are
hairlines (``stroke_mm``, 0.01 mm by default: most laser programs read a line that thin as
a vector cut, not as something to engrave). Parts stand LASER_GAP_MM apart, so no edge is
cut twice. A sheet is as large as the cutter's bed, when given; the set then takes as many
sheets as it needs.

>>> from binscrabble.rules import Rules
>>> from binscrabble.print.tiles import plan_tile_set
>>> sheets = laser_sheets(plan_tile_set(Rules()), bed=(300, 200))
>>> len(sheets), "<text" in "".join(sheets)
(2, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Final

from binscrabble import i18n
from binscrabble.i18n import _, ngettext
from binscrabble.limits import quoted
from binscrabble.print import PrintError
from binscrabble.print.outlines import Outlines
from binscrabble.print.tiles import (
    POINTS_PER_MM,
    RACK_COUNT,
    TileSetPlan,
    face_size,
    rack_folds,
)
from binscrabble.rules import BLANK, FACE_LABELS, TILE_POINTS

#: Space between parts, so that no edge is cut twice.
LASER_GAP_MM: Final = 2.0
#: Room left along the edges of a bed (or of the one sheet without a bed).
SHEET_MARGIN_MM: Final = 5.0
#: The cut line's width by default: a hairline.
HAIRLINE_MM: Final = 0.01


class LaserError(PrintError, ValueError):
    """A laser sheet that cannot be made as asked; the message says what would fit."""


@dataclass(frozen=True, slots=True)
class _Part:
    """A tile (``code``) or a rack (``rack``, its number) at its place on a sheet."""

    x: float
    y: float
    code: str | None
    rack: int | None
    #: A rack laid along the sheet's height (its folds run down).
    upright: bool = False


def parse_bed(text: str) -> tuple[float, float]:
    """A bed size written ``WxH`` in millimetres: ``600x400`` -> ``(600.0, 400.0)``.

    >>> parse_bed("600x400"), parse_bed("297 X 210")
    ((600.0, 400.0), (297.0, 210.0))
    """
    width, sep, height = text.lower().replace("×", "x").partition("x")
    try:
        if not sep:
            raise ValueError
        size = (float(width), float(height))
    except ValueError:
        raise LaserError(
            _(
                "--bed {value} is not a size: write WIDTHxHEIGHT in millimetres, e.g. 600x400"
            ).format(value=quoted(text))
        ) from None
    if not all(math.isfinite(side) and 0 < side <= 10000 for side in size):
        raise LaserError(
            _("--bed {value}: each side is a length from 1 to 10000 mm").format(value=quoted(text))
        )
    return size


def _layout(plan: TileSetPlan, bed: tuple[float, float] | None) -> list[list[_Part]]:
    """The parts on each sheet: tiles in rows, then the racks under them."""
    margin = SHEET_MARGIN_MM
    width = (bed[0] if bed else max(plan.paper_mm[0], plan.rack_length + 2 * margin)) - 2 * margin
    height = bed[1] - 2 * margin if bed else math.inf
    side, step = plan.tile_mm, plan.tile_mm + LASER_GAP_MM
    fits_across = plan.rack_length <= width and plan.rack_height <= height
    fits_upright = plan.rack_length <= height and plan.rack_height <= width
    if bed is not None and (side > min(width, height) or not (fits_across or fits_upright)):
        raise LaserError(
            _(
                "a bed of {width} × {height} mm cannot hold a rack of {length} × {depth} mm "
                "(with {margin} mm margins): give a larger --bed or a smaller --tile-mm"
            ).format(
                width=f"{bed[0]:g}",
                height=f"{bed[1]:g}",
                length=f"{plan.rack_length:.1f}",
                depth=f"{plan.rack_height:.1f}",
                margin=f"{margin:g}",
            )
        )
    columns = max(1, int((width + LASER_GAP_MM) // step))
    sheets: list[list[_Part]] = [[]]
    y = 0.0
    for index, code in enumerate(plan.codes):
        column = index % columns
        if column == 0 and index:
            y += step
        if y + side > height:
            sheets.append([])
            y = 0.0
        sheets[-1].append(_Part(margin + column * step, margin + y, code, None))
    y += step
    _place_racks(plan, sheets, y, width, height, upright_allowed=bed is not None)
    return sheets


def _place_racks(
    plan: TileSetPlan,
    sheets: list[list[_Part]],
    top: float,
    width: float,
    height: float,
    upright_allowed: bool,
) -> None:
    """Racks in rows of as many as fit side by side: under the tiles while they fit, then
    on sheets of their own, laid across or upright, whichever way holds more."""
    margin = SHEET_MARGIN_MM
    band, long = plan.rack_height + LASER_GAP_MM, plan.rack_length + LASER_GAP_MM
    across_columns = int((width + LASER_GAP_MM) // long)
    upright_rows = int((height + LASER_GAP_MM) // long) if upright_allowed else 0
    across = across_columns * int(min(height + LASER_GAP_MM, 1e6) // band)
    upright = upright_rows * int((width + LASER_GAP_MM) // band)
    spots: list[_Part] = []
    # Rows under the tiles first (the only place when there is no bed: the sheet grows).
    y = top
    while across_columns and y + plan.rack_height <= height and len(spots) < RACK_COUNT:
        spots.extend(
            _Part(margin + column * long, margin + y, None, None)
            for column in range(across_columns)
        )
        y += band
    placed = 0
    for part in spots[:RACK_COUNT]:
        sheets[-1].append(_Part(part.x, part.y, None, placed))
        placed += 1
    while placed < RACK_COUNT:
        sheets.append([])
        per_sheet = max(across, upright)
        for slot in range(min(per_sheet, RACK_COUNT - placed)):
            if upright > across:
                row, column = divmod(slot, int((width + LASER_GAP_MM) // band))
                part = _Part(margin + column * band, margin + row * long, None, placed, True)
            else:
                row, column = divmod(slot, across_columns)
                part = _Part(margin + column * long, margin + row * band, None, placed)
            sheets[-1].append(part)
            placed += 1


def laser_sheets(
    plan: TileSetPlan,
    bed: tuple[float, float] | None = None,
    stroke_mm: float = HAIRLINE_MM,
    language: str | None = None,
) -> list[str]:
    """The set as SVG sheets for a laser cutter: one sheet as wide as the paper without a
    ``bed``, else as many ``bed``-sized sheets (width, height in mm) as it needs. Each
    sheet's title (what it holds, for the person who opens it) is in ``language`` (default:
    the current one); what is cut, scored and engraved is the same in every language."""
    with i18n.use_language(language or i18n.language()):
        return _laser_sheets(plan, bed, stroke_mm)


def _laser_sheets(
    plan: TileSetPlan, bed: tuple[float, float] | None, stroke_mm: float
) -> list[str]:
    if not 0 < stroke_mm <= 1:
        raise LaserError(
            _("--stroke-mm {value}: a cut line is from 0.001 to 1 mm wide").format(
                value=f"{stroke_mm:g}"
            )
        )
    sheets = _layout(plan, bed)
    faces = Outlines("DejaVuSans-Bold.ttf")
    points = Outlines("DejaVuSans.ttf")
    drawn = []
    for number, parts in enumerate(sheets, start=1):
        if bed is not None:
            width, height = bed
        else:
            width = max(plan.paper_mm[0], plan.rack_length + 2 * SHEET_MARGIN_MM)
            height = max(part.y + _height(plan, part) for part in parts) + SHEET_MARGIN_MM
        drawn.append(
            _sheet(plan, parts, (width, height), (number, len(sheets)), stroke_mm, faces, points)
        )
    return drawn


def _size(plan: TileSetPlan, part: _Part) -> tuple[float, float]:
    """Width and height of a part on its sheet."""
    if part.code is not None:
        return plan.tile_mm, plan.tile_mm
    if part.upright:
        return plan.rack_height, plan.rack_length
    return plan.rack_length, plan.rack_height


def _height(plan: TileSetPlan, part: _Part) -> float:
    return _size(plan, part)[1]


def _sheet(
    plan: TileSetPlan,
    parts: list[_Part],
    size: tuple[float, float],
    number: tuple[int, int],
    stroke_mm: float,
    faces: Outlines,
    points: Outlines,
) -> str:
    cut, score, engrave = [], [], []
    for part in parts:
        width, height = _size(plan, part)
        cut.append(_rectangle(part.x, part.y, width, height))
        if part.rack is not None and part.upright:
            for fold in rack_folds(plan, part.x):
                score.append(f'<path d="M{fold:.2f} {part.y:.2f}V{part.y + height:.2f}"/>')
        elif part.rack is not None:
            for fold in rack_folds(plan, part.y):
                score.append(f'<path d="M{part.x:.2f} {fold:.2f}H{part.x + width:.2f}"/>')
        elif part.code is not None and part.code != BLANK:
            engrave.append(_face(part.code, part.x, part.y, plan.tile_mm, faces, points))
    tiles = sum(part.code is not None for part in parts)
    racks = len(parts) - tiles
    title = _(
        "Binary Scrabble tile set, sheet {sheet} of {sheets}: {tiles}, {racks}. {summary}"
    ).format(
        sheet=number[0],
        sheets=number[1],
        tiles=ngettext("{count} tile", "{count} tiles", tiles).format(count=tiles),
        racks=ngettext("{count} rack", "{count} racks", racks).format(count=racks),
        summary=plan.summary(),
    )
    return "\n".join(
        [
            '<svg xmlns="http://www.w3.org/2000/svg" '
            'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" version="1.1" '
            f'xml:lang="{i18n.language()}" '
            f'width="{size[0]:.2f}mm" height="{size[1]:.2f}mm" '
            f'viewBox="0 0 {size[0]:.2f} {size[1]:.2f}">',
            f"<title>{escape(title)}</title>",
            '<g id="engrave" inkscape:groupmode="layer" inkscape:label="engrave" '
            'fill="#000000" stroke="none">',
            *engrave,
            "</g>",
            '<g id="score" inkscape:groupmode="layer" inkscape:label="score" fill="none" '
            f'stroke="#0000ff" stroke-width="{stroke_mm:g}">',
            *score,
            "</g>",
            '<g id="cut" inkscape:groupmode="layer" inkscape:label="cut" fill="none" '
            f'stroke="#ff0000" stroke-width="{stroke_mm:g}">',
            *cut,
            "</g>",
            "</svg>",
            "",
        ]
    )


def _rectangle(x: float, y: float, width: float, height: float) -> str:
    """A closed outline, in absolute coordinates."""
    return f'<path d="M{x:.2f} {y:.2f}H{x + width:.2f}V{y + height:.2f}H{x:.2f}Z"/>'


def _face(code: str, x: float, y: float, side: float, faces: Outlines, points: Outlines) -> str:
    label = FACE_LABELS[code]
    size = face_size(label, side) / POINTS_PER_MM
    face = faces.path(label, x + (side - faces.width(label, size)) / 2, y + side * 0.62, size)
    number = str(TILE_POINTS[code])
    small = side * 0.2
    points_path = points.path(
        number, x + side * 0.92 - points.width(number, small), y + side * 0.9, small
    )
    return (
        f'<g class="face" data-face="{escape(code)}">'
        f'<path d="{face}"/><path d="{points_path}"/></g>'
    )
