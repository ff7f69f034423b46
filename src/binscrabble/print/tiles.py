"""The printable tile set: every tile of the rules in force at real size, and racks to fold.

:func:`plan_tile_set` lays the set out for a paper size on the fewest pages and checks that
it fits; :func:`tile_set_pdf` prints it (cut along the grey lines).
:mod:`binscrabble.print.laser` gives the same set as cut paths for a laser cutter.

>>> from binscrabble.rules import Rules
>>> plan = plan_tile_set(Rules(), tile_mm=19, paper="letter")
>>> [(page.tile_count, len(page.racks)) for page in plan.layout]
[(100, 0), (0, 4)]
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from binscrabble.i18n import _, ngettext
from binscrabble.limits import quoted
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
POINTS_PER_MM: Final = 72 / 25.4


class TileSetError(PrintError, ValueError):
    """A tile set that cannot be printed as asked; the message says what would fit."""


@dataclass(frozen=True, slots=True)
class PageLayout:
    """One printed page: its orientation, the tiles on it (a slice of the set, in rows from
    the top), then the racks under them."""

    landscape: bool
    first_tile: int
    tile_count: int
    racks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TileSetPlan:
    """Where everything goes: the tiles in rows and the racks under them, page by page, on
    as few pages as the paper allows (see :func:`plan_tile_set`)."""

    codes: tuple[str, ...]
    tile_mm: float
    paper: str
    paper_mm: tuple[float, float]
    rack_size: int
    layout: tuple[PageLayout, ...]

    @property
    def pages(self) -> int:
        return len(self.layout)

    @property
    def rack_length(self) -> float:
        return self.rack_size * self.tile_mm + 2 * RACK_END_MM

    @property
    def rack_height(self) -> float:
        return sum(RACK_BANDS) * self.tile_mm

    def page_size(self, page: PageLayout) -> tuple[float, float]:
        """Width and height of a page, in millimetres."""
        width, height = self.paper_mm
        return (height, width) if page.landscape else (width, height)

    def columns(self, page: PageLayout) -> int:
        """How many tiles a row of this page holds."""
        return int((self.page_size(page)[0] - 2 * PAGE_MARGIN) // self.tile_mm)

    def summary(self) -> str:
        """One line listing the set: ``100 tiles: 28 × 0, 28 × 1, ...``."""
        counts = Counter(self.codes)
        listed = ", ".join(f"{count} × {FACE_LABELS[code]}" for code, count in counts.items())
        return f"{len(self.codes)} tiles: {listed}"


#: Room between the tiles and a rack, and between racks, on a page.
RACK_GAP_MM: Final = 4.0


def _page_options(
    paper_mm: tuple[float, float], tile_mm: float, rack_length: float, rack_height: float
) -> list[tuple[bool, int, int]]:
    """What one page can hold: (landscape, racks, tiles) for each orientation and number of
    racks that fit it, the tiles filling the rows left above the racks."""
    options = []
    for landscape in (False, True):
        width, height = (paper_mm[1], paper_mm[0]) if landscape else paper_mm
        usable_width = width - 2 * PAGE_MARGIN
        usable_height = height - 2 * PAGE_MARGIN - HEADING
        columns = int(usable_width // tile_mm)
        most_racks = 0
        if rack_length <= usable_width:
            most_racks = int((usable_height + RACK_GAP_MM) // (rack_height + RACK_GAP_MM))
        for racks in range(min(most_racks, RACK_COUNT) + 1):
            left = usable_height - racks * (rack_height + RACK_GAP_MM)
            options.append((landscape, racks, columns * max(0, int(left // tile_mm))))
    return options


def _fewest_pages(
    options: list[tuple[bool, int, int]], tiles: int
) -> tuple[tuple[bool, int, int], ...]:
    """The fewest pages (each one of ``options``) that hold every tile and RACK_COUNT racks;
    among as many pages, the fewest landscape ones, then the most tiles on the first pages.
    Exact: the search tries every choice of pages, a few thousand at most."""
    best: tuple[tuple[bool, int, int], ...] | None = None
    best_key: tuple[int, tuple[int, ...]] | None = None
    for count in range(1, tiles + RACK_COUNT + 1):
        for choice in itertools.combinations_with_replacement(options, count):
            if sum(racks for _, racks, _ in choice) < RACK_COUNT:
                continue
            if sum(held for _, _, held in choice) < tiles:
                continue
            ordered = tuple(sorted(choice, key=lambda option: (-option[2], option[1])))
            key = (sum(landscape for landscape, _, _ in ordered), tuple(-h for _, _, h in ordered))
            if best_key is None or key < best_key:
                best, best_key = ordered, key
        if best is not None:
            return best
    raise AssertionError("a page holds at least one tile or one rack")


def plan_tile_set(rules: Rules, tile_mm: float = 19.0, paper: str = "a4") -> TileSetPlan:
    """Lay out the set of ``rules`` with tiles ``tile_mm`` wide on ``paper`` (a4, letter),
    on the fewest pages: each page portrait or landscape, tiles in rows, racks under them.

    Raises :class:`TileSetError` when the paper is unknown, or the tiles are too small to
    use or too large for a rack to fit across a page.
    """
    if paper not in PAPER_SIZES:
        raise TileSetError(
            _("there is no paper {paper}: choose one of {papers}").format(
                paper=quoted(paper), papers=", ".join(PAPER_SIZES)
            )
        )
    if not math.isfinite(tile_mm):
        raise TileSetError(
            _("tiles of {size} mm cannot be made: give a finite size in mm").format(size=tile_mm)
        )
    width, height = PAPER_SIZES[paper]
    long_side = max(width, height) - 2 * PAGE_MARGIN
    largest = (long_side - 2 * RACK_END_MM) / rules.rack_size
    if tile_mm > largest:
        too_large = ngettext(
            "tiles of {size} mm are too large for {paper} paper: a rack of {count} tile must "
            "fit across a page, so the largest is {largest} mm",
            "tiles of {size} mm are too large for {paper} paper: a rack of {count} tiles must "
            "fit across a page, so the largest is {largest} mm",
            rules.rack_size,
        )
        raise TileSetError(
            too_large.format(
                size=f"{tile_mm:g}", paper=paper, count=rules.rack_size, largest=f"{largest:.1f}"
            )
        )
    if tile_mm < SMALLEST_TILE_MM:
        raise TileSetError(
            _("tiles of {size} mm are too small to pick up; the smallest is {smallest} mm").format(
                size=f"{tile_mm:g}", smallest=f"{SMALLEST_TILE_MM:g}"
            )
        )
    codes = tuple(tile_bag(rules))
    rack_length = rules.rack_size * tile_mm + 2 * RACK_END_MM
    options = _page_options((width, height), tile_mm, rack_length, sum(RACK_BANDS) * tile_mm)
    # A page that holds no more than another of its orientation is never worth choosing.
    useful = [
        option
        for option in options
        if not any(
            other != option
            and other[0] == option[0]
            and other[1] >= option[1]
            and other[2] >= option[2]
            for other in options
        )
    ]
    layout = []
    first, rack = 0, 0
    for landscape, racks, held in _fewest_pages(useful, len(codes)):
        count = min(held, len(codes) - first)
        racks = min(racks, RACK_COUNT - rack)
        layout.append(PageLayout(landscape, first, count, tuple(range(rack, rack + racks))))
        first, rack = first + count, rack + racks
    return TileSetPlan(
        codes=codes,
        tile_mm=tile_mm,
        paper=paper,
        paper_mm=(width, height),
        rack_size=rules.rack_size,
        layout=tuple(layout),
    )


def face_size(label: str, tile_mm: float) -> float:
    """The face's font size in points: big, and narrow enough for words like XOR."""
    share = 0.55 if len(label) == 1 else 0.3 if len(label) == 2 else 0.24
    return tile_mm * share * POINTS_PER_MM


def tile_set_pdf(plan: TileSetPlan) -> bytes:
    """The tile set and racks as a PDF, with DejaVu Sans embedded."""
    try:
        from fpdf import FPDF
    except ImportError as error:
        raise missing_extra("fpdf2", _("a PDF")) from error
    pdf = FPDF(unit="mm", format=plan.paper_mm)
    pdf.set_auto_page_break(False)
    pdf.set_title("Binary Scrabble: a printable tile set")
    add_fonts(pdf)
    for number, page in enumerate(plan.layout, start=1):
        pdf.add_page(orientation="L" if page.landscape else "P")
        parts = []
        if page.tile_count:
            last = page.first_tile + page.tile_count
            first = (
                f"tile {last}" if page.tile_count == 1 else f"tiles {page.first_tile + 1} to {last}"
            )
            parts.append(f"{first} of {len(plan.codes)}")
        if page.racks:
            names = ", ".join(str(index + 1) for index in page.racks)
            parts.append(f"rack{'s' if len(page.racks) > 1 else ''} {names}")
        _heading(
            pdf,
            f"Binary Scrabble, {plan.tile_mm:g} mm, page {number} of {plan.pages}: "
            f"{' and '.join(parts)}. Cut along the grey lines.",
            " ".join(
                text
                for text in (
                    plan.summary() + "." if number == 1 else "",
                    RACK_HELP if page.racks else "",
                )
                if text
            ),
            plan.page_size(page)[0] - 2 * PAGE_MARGIN,
        )
        columns = plan.columns(page)
        codes = plan.codes[page.first_tile : page.first_tile + page.tile_count]
        for index, code in enumerate(codes):
            row, column = divmod(index, columns)
            x = PAGE_MARGIN + column * plan.tile_mm
            y = PAGE_MARGIN + HEADING + row * plan.tile_mm
            _pdf_tile(pdf, code, x, y, plan.tile_mm)
        rows = math.ceil(page.tile_count / columns) if columns else 0
        top = PAGE_MARGIN + HEADING + rows * plan.tile_mm + (RACK_GAP_MM if rows else 0)
        for slot, rack in enumerate(page.racks):
            _pdf_rack(pdf, plan, rack, top + slot * (plan.rack_height + RACK_GAP_MM))
    return bytes(pdf.output())


RACK_HELP: Final = (
    "Racks: cut along the solid lines, fold along the dashed ones into a triangle and glue "
    "the narrow flap under it; the tiles lean on its slope."
)


def _heading(pdf: FPDF, line: str, second: str, width: float) -> None:
    """Two lines at the top of a page, each made smaller if it is wider than ``width``."""
    pdf.set_text_color(0, 0, 0)
    for text, style, size, y in ((line, "B", 10.0, 3.0), (second, "", 7.5, 8.0)):
        if not text:
            continue
        pdf.set_font(FAMILY, style, size)
        while pdf.get_string_width(text) > width and size > 5:
            size -= 0.5
            pdf.set_font(FAMILY, style, size)
        pdf.text(PAGE_MARGIN, PAGE_MARGIN + y, text)


def _pdf_tile(pdf: FPDF, code: str, x: float, y: float, side: float) -> None:
    pdf.set_draw_color(150, 150, 150)
    pdf.set_line_width(0.2)
    pdf.rect(x, y, side, side)
    if code == BLANK:
        return  # a blank carries no face and no points, as in Scrabble
    label = FACE_LABELS[code]
    pdf.set_text_color(0, 0, 0)
    pdf.set_font(FAMILY, "B", face_size(label, side))
    width = pdf.get_string_width(label)
    pdf.text(x + (side - width) / 2, y + side * 0.62, label)
    points = str(TILE_POINTS[code])
    pdf.set_font(FAMILY, "", side * 0.2 * POINTS_PER_MM)
    pdf.text(x + side * 0.92 - pdf.get_string_width(points), y + side * 0.9, points)


def rack_folds(plan: TileSetPlan, y: float) -> list[float]:
    """The heights of the fold lines of a rack whose top is at ``y``."""
    folds = []
    for band in RACK_BANDS[:-1]:
        y += band * plan.tile_mm
        folds.append(y)
    return folds


def _pdf_rack(pdf: FPDF, plan: TileSetPlan, index: int, y: float) -> None:
    x = PAGE_MARGIN
    pdf.set_draw_color(150, 150, 150)
    pdf.set_line_width(0.2)
    pdf.rect(x, y, plan.rack_length, plan.rack_height)
    with pdf.local_context(dash_pattern={"dash": 2, "gap": 1.5}):
        for fold in rack_folds(plan, y):
            pdf.line(x, fold, x + plan.rack_length, fold)
    pdf.set_font(FAMILY, "", 8)
    pdf.text(x + 2, y + plan.rack_height - 2, f"rack {index + 1}")
