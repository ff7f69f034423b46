"""The printable tile set: every tile of the rules in force at real size, and racks to fold.

:func:`plan_tile_set` lays the set out for a paper size and checks that it fits;
:func:`tile_set_pdf` prints it (cut along the grey lines) and :func:`tile_set_svg` gives the
same set as cut paths for a laser cutter: one closed path per tile or rack outline in the
red ``cut`` layer, the fold lines of the racks in the blue ``score`` layer, the faces and
points in the black ``engrave`` layer.

>>> from binscrabble.rules import Rules
>>> plan = plan_tile_set(Rules(), tile_mm=19, paper="a4")
>>> len(plan.codes), plan.columns, plan.rows, plan.tile_pages, plan.rack_pages
(100, 10, 13, 1, 1)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Final

from binscrabble.print import PrintError, missing_extra
from binscrabble.print.fonts import FAMILY, add_fonts
from binscrabble.rules import BLANK, FACE_LABELS, TILE_POINTS, Rules, tile_bag

if TYPE_CHECKING:
    from fpdf import FPDF

#: Paper sizes in millimetres, portrait.
PAPER_SIZES: Final = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PAGE_MARGIN: Final = 10.0
#: Room at the top of a page for its heading.
HEADING: Final = 14.0
#: Tiles smaller than this cannot be picked up or read.
SMALLEST_TILE_MM: Final = 10.0
#: Room at each end of a rack, beyond its tiles.
RACK_END_MM: Final = 6.0
#: The bands of a rack strip, in tile sides: a glue flap, then three faces folded into a
#: triangular prism that the tiles lean against.
RACK_BANDS: Final = (0.35, 0.9, 0.9, 0.9)
#: Racks in a printed set: one for each player of the largest game.
RACK_COUNT: Final = 4
#: Space between parts on a laser sheet, so that no edge is cut twice.
LASER_GAP_MM: Final = 2.0
POINTS_PER_MM: Final = 72 / 25.4


class TileSetError(PrintError, ValueError):
    """A tile set that cannot be printed as asked; the message says what would fit."""


@dataclass(frozen=True, slots=True)
class TileSetPlan:
    """Where everything goes: the tiles in a grid, page by page, then the racks."""

    codes: tuple[str, ...]
    tile_mm: float
    paper: str
    paper_mm: tuple[float, float]
    columns: int
    rows: int
    rack_size: int
    rack_landscape: bool
    racks_per_page: int

    @property
    def tiles_per_page(self) -> int:
        return self.columns * self.rows

    @property
    def tile_pages(self) -> int:
        return math.ceil(len(self.codes) / self.tiles_per_page)

    @property
    def rack_pages(self) -> int:
        return math.ceil(RACK_COUNT / self.racks_per_page)

    @property
    def pages(self) -> int:
        return self.tile_pages + self.rack_pages

    @property
    def rack_length(self) -> float:
        return self.rack_size * self.tile_mm + 2 * RACK_END_MM

    @property
    def rack_height(self) -> float:
        return sum(RACK_BANDS) * self.tile_mm

    def summary(self) -> str:
        """One line listing the set: ``100 tiles: 28 × 0, 28 × 1, ...``."""
        counts = Counter(self.codes)
        listed = ", ".join(f"{count} × {FACE_LABELS[code]}" for code, count in counts.items())
        return f"{len(self.codes)} tiles: {listed}"


def plan_tile_set(rules: Rules, tile_mm: float = 19.0, paper: str = "a4") -> TileSetPlan:
    """Lay out the set of ``rules`` with tiles ``tile_mm`` wide on ``paper`` (a4, letter).

    Raises :class:`TileSetError` when the paper is unknown, or the tiles are too small to
    use or too large for a rack to fit across a page.
    """
    if paper not in PAPER_SIZES:
        raise TileSetError(f"unknown paper {paper!r}: choose {' or '.join(PAPER_SIZES)}")
    width, height = PAPER_SIZES[paper]
    long_side = max(width, height) - 2 * PAGE_MARGIN
    largest = (long_side - 2 * RACK_END_MM) / rules.rack_size
    if tile_mm > largest:
        raise TileSetError(
            f"tiles of {tile_mm:g} mm are too large for {paper} paper: a rack of "
            f"{rules.rack_size} tiles must fit across a page, so the largest is {largest:.1f} mm"
        )
    if tile_mm < SMALLEST_TILE_MM:
        raise TileSetError(
            f"tiles of {tile_mm:g} mm are too small to pick up; the smallest is "
            f"{SMALLEST_TILE_MM:g} mm"
        )
    columns = int((width - 2 * PAGE_MARGIN) // tile_mm)
    rows = int((height - 2 * PAGE_MARGIN - HEADING) // tile_mm)
    rack_length = rules.rack_size * tile_mm + 2 * RACK_END_MM
    landscape = rack_length > width - 2 * PAGE_MARGIN
    across = (min(width, height) if landscape else height) - 2 * PAGE_MARGIN - HEADING
    per_page = max(1, int(across // (sum(RACK_BANDS) * tile_mm + 4)))
    return TileSetPlan(
        codes=tuple(tile_bag(rules)),
        tile_mm=tile_mm,
        paper=paper,
        paper_mm=(width, height),
        columns=columns,
        rows=rows,
        rack_size=rules.rack_size,
        rack_landscape=landscape,
        racks_per_page=min(per_page, RACK_COUNT),
    )


def _face_size(label: str, tile_mm: float) -> float:
    """The face's font size in points: big, and narrow enough for words like XOR."""
    share = 0.55 if len(label) == 1 else 0.3 if len(label) == 2 else 0.24
    return tile_mm * share * POINTS_PER_MM


def tile_set_pdf(plan: TileSetPlan) -> bytes:
    """The tile set and racks as a PDF, with DejaVu Sans embedded."""
    try:
        from fpdf import FPDF
    except ImportError as error:
        raise missing_extra("fpdf2", "a PDF") from error
    pdf = FPDF(unit="mm", format=plan.paper_mm)
    pdf.set_auto_page_break(False)
    pdf.set_title("Binary Scrabble: a printable tile set")
    add_fonts(pdf)
    for page in range(plan.tile_pages):
        pdf.add_page()
        first = page * plan.tiles_per_page
        codes = plan.codes[first : first + plan.tiles_per_page]
        _heading(
            pdf,
            f"Binary Scrabble tiles, page {page + 1} of {plan.pages}: tiles {first + 1} to "
            f"{first + len(codes)} of {len(plan.codes)}, {plan.tile_mm:g} mm. "
            "Cut along the grey lines.",
            plan.summary() if page == 0 else "",
        )
        for index, code in enumerate(codes):
            row, column = divmod(index, plan.columns)
            x = PAGE_MARGIN + column * plan.tile_mm
            y = PAGE_MARGIN + HEADING + row * plan.tile_mm
            _pdf_tile(pdf, code, x, y, plan.tile_mm)
    _pdf_racks(pdf, plan)
    return bytes(pdf.output())


def _heading(pdf: FPDF, line: str, second: str) -> None:
    pdf.set_text_color(0, 0, 0)
    pdf.set_font(FAMILY, "B", 10)
    pdf.text(PAGE_MARGIN, PAGE_MARGIN + 3, line)
    if second:
        pdf.set_font(FAMILY, "", 7.5)
        pdf.text(PAGE_MARGIN, PAGE_MARGIN + 8, second)


def _pdf_tile(pdf: FPDF, code: str, x: float, y: float, side: float) -> None:
    pdf.set_draw_color(150, 150, 150)
    pdf.set_line_width(0.2)
    pdf.rect(x, y, side, side)
    if code == BLANK:
        return  # a blank carries no face and no points, as in Scrabble
    label = FACE_LABELS[code]
    pdf.set_text_color(0, 0, 0)
    pdf.set_font(FAMILY, "B", _face_size(label, side))
    width = pdf.get_string_width(label)
    pdf.text(x + (side - width) / 2, y + side * 0.62, label)
    points = str(TILE_POINTS[code])
    pdf.set_font(FAMILY, "", side * 0.2 * POINTS_PER_MM)
    pdf.text(x + side * 0.92 - pdf.get_string_width(points), y + side * 0.9, points)


def _rack_origin(plan: TileSetPlan, index: int) -> tuple[float, float]:
    """The top left corner of the rack ``index`` on its page."""
    slot = index % plan.racks_per_page
    return PAGE_MARGIN, PAGE_MARGIN + HEADING + slot * (plan.rack_height + 4)


def _rack_folds(plan: TileSetPlan, y: float) -> list[float]:
    """The heights of the fold lines of a rack whose top is at ``y``."""
    folds = []
    for band in RACK_BANDS[:-1]:
        y += band * plan.tile_mm
        folds.append(y)
    return folds


def _pdf_racks(pdf: FPDF, plan: TileSetPlan) -> None:
    for index in range(RACK_COUNT):
        if index % plan.racks_per_page == 0:
            pdf.add_page(orientation="L" if plan.rack_landscape else "P")
            page = plan.tile_pages + index // plan.racks_per_page + 1
            _heading(
                pdf,
                f"Binary Scrabble racks, page {page} of {plan.pages}",
                "Cut along the solid lines, fold along the dashed ones into a triangle, and "
                "glue the narrow flap under it: the tiles lean on its slope.",
            )
        x, y = _rack_origin(plan, index)
        pdf.set_draw_color(150, 150, 150)
        pdf.set_line_width(0.2)
        pdf.rect(x, y, plan.rack_length, plan.rack_height)
        with pdf.local_context(dash_pattern={"dash": 2, "gap": 1.5}):
            for fold in _rack_folds(plan, y):
                pdf.line(x, fold, x + plan.rack_length, fold)
        pdf.set_font(FAMILY, "", 8)
        pdf.text(x + 2, y + plan.rack_height - 2, f"rack {index + 1}")


def tile_set_svg(plan: TileSetPlan) -> str:
    """The set as cut paths for a laser cutter, in millimetres, on one sheet as wide as the
    paper: tiles first, racks below them."""
    width = plan.paper_mm[0]
    step = plan.tile_mm + LASER_GAP_MM
    columns = max(1, int((width - 2 * PAGE_MARGIN + LASER_GAP_MM) // step))
    tile_rows = math.ceil(len(plan.codes) / columns)
    racks_top = PAGE_MARGIN + tile_rows * step + 4
    sheet_width = max(width, plan.rack_length + 2 * PAGE_MARGIN)
    height = racks_top + RACK_COUNT * (plan.rack_height + LASER_GAP_MM) + PAGE_MARGIN
    cut, score, engrave = [], [], []
    for index, code in enumerate(plan.codes):
        row, column = divmod(index, columns)
        x, y = PAGE_MARGIN + column * step, PAGE_MARGIN + row * step
        side = plan.tile_mm
        cut.append(f'<path d="M{x:.2f} {y:.2f}h{side:g}v{side:g}h{-side:g}Z"/>')
        if code != BLANK:
            engrave.append(_svg_face(code, x, y, side))
    for index in range(RACK_COUNT):
        x, y = PAGE_MARGIN, racks_top + index * (plan.rack_height + LASER_GAP_MM)
        length, rack_height = plan.rack_length, plan.rack_height
        cut.append(f'<path d="M{x:.2f} {y:.2f}h{length:.2f}v{rack_height:.2f}h{-length:.2f}Z"/>')
        for fold in _rack_folds(plan, y):
            score.append(f'<path d="M{x:.2f} {fold:.2f}h{length:.2f}"/>')
    return "\n".join(
        [
            '<svg xmlns="http://www.w3.org/2000/svg" '
            'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" version="1.1" '
            f'width="{sheet_width:g}mm" height="{height:.2f}mm" '
            f'viewBox="0 0 {sheet_width:g} {height:.2f}">',
            f"<title>Binary Scrabble tile set: {escape(plan.summary())}</title>",
            '<g id="engrave" inkscape:groupmode="layer" inkscape:label="engrave" fill="#000000" '
            'font-family="DejaVu Sans" font-weight="bold" text-anchor="middle">',
            *engrave,
            "</g>",
            '<g id="score" inkscape:groupmode="layer" inkscape:label="score" fill="none" '
            'stroke="#0000ff" stroke-width="0.1">',
            *score,
            "</g>",
            '<g id="cut" inkscape:groupmode="layer" inkscape:label="cut" fill="none" '
            'stroke="#ff0000" stroke-width="0.1">',
            *cut,
            "</g>",
            "</svg>",
            "",
        ]
    )


def _svg_face(code: str, x: float, y: float, side: float) -> str:
    label = FACE_LABELS[code]
    size = _face_size(label, side) / POINTS_PER_MM
    return (
        f'<g class="face" data-face="{escape(code)}">'
        f'<text x="{x + side / 2:.2f}" y="{y + side * 0.62:.2f}" font-size="{size:.2f}">'
        f"{escape(label)}</text>"
        f'<text x="{x + side * 0.88:.2f}" y="{y + side * 0.9:.2f}" font-size="{side * 0.2:.2f}" '
        f'font-weight="normal">{TILE_POINTS[code]}</text></g>'
    )
