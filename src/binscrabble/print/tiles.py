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

from binscrabble import i18n
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
#: Unicode's first-strong isolate and the pop directional isolate that ends it.
FIRST_STRONG_ISOLATE: Final = "\u2068"
POP_ISOLATE: Final = "\u2069"


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
        """One line listing the set in the current language: ``100 tiles: 28 × 0, 28 × 1,
        ...``; each count and face in its own direction (:func:`isolated`)."""
        counts = Counter(self.codes)
        listed = ", ".join(
            isolated(f"{count} × {_('blank') if code == BLANK else FACE_LABELS[code]}")
            for code, count in counts.items()
        )
        total = len(self.codes)
        return ngettext("{count} tile: {faces}", "{count} tiles: {faces}", total).format(
            count=total, faces=listed
        )


def isolated(text: str) -> str:
    """``text`` (a count and a face: ``28 × 0``) as a run of its own in a right-to-left
    language: inside Unicode's first-strong isolate, which fpdf2's bidirectional layout and
    an SVG viewer honour. Numbers and faces are then read left to right (``28 × 0``, not
    ``0 × 28``), a Hebrew word right to left (``3 × ריק``). As it is in a left-to-right
    language."""
    if i18n.direction() != "rtl":
        return text
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_ISOLATE}"


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


def tile_set_pdf(plan: TileSetPlan, language: str | None = None) -> bytes:
    """The tile set and racks as a PDF, with DejaVu Sans embedded; its words (the pages'
    headings, the racks' labels, the document's title) in ``language`` (default: the
    current one), Hebrew set right to left."""
    try:
        from fpdf import FPDF
    except ImportError as error:
        raise missing_extra("fpdf2", _("a PDF")) from error
    with i18n.use_language(language or i18n.language()):
        rtl = i18n.direction() == "rtl"
        pdf = FPDF(unit="mm", format=plan.paper_mm)
        pdf.set_auto_page_break(False)
        pdf.set_title(_("Binary Scrabble: a printable tile set"))
        pdf.set_lang(i18n.language())
        add_fonts(pdf)
        if rtl:
            # The headings' and labels' bidirectional layout (cells only: the faces, drawn
            # with text(), are set without the shaping engine).
            pdf.set_text_shaping(use_shaping_engine=True, direction="rtl")
        for number, page in enumerate(plan.layout, start=1):
            pdf.add_page(orientation="L" if page.landscape else "P")
            notes = [plan.summary() + "." if number == 1 else "", rack_help() if page.racks else ""]
            _heading(
                pdf,
                _(
                    "Binary Scrabble, {size} mm, page {page} of {pages}: {contents}. Cut along "
                    "the grey lines."
                ).format(
                    size=f"{plan.tile_mm:g}",
                    page=number,
                    pages=plan.pages,
                    contents=page_contents(plan, page),
                ),
                [note for note in notes if note],
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


def page_contents(plan: TileSetPlan, page: PageLayout) -> str:
    """What a page holds, in the current language: ``tiles 1 to 88 of 100 and racks 1, 2``."""
    parts = []
    if page.tile_count:
        last, total = page.first_tile + page.tile_count, len(plan.codes)
        if page.tile_count == 1:
            parts.append(_("tile {number} of {total}").format(number=last, total=total))
        else:
            parts.append(
                _("tiles {first} to {last} of {total}").format(
                    first=page.first_tile + 1, last=last, total=total
                )
            )
    if page.racks:
        numbers = ", ".join(str(index + 1) for index in page.racks)
        racks = ngettext("rack {numbers}", "racks {numbers}", len(page.racks))
        parts.append(racks.format(numbers=numbers))
    if len(parts) == 2:
        return _("{tiles} and {racks}").format(tiles=parts[0], racks=parts[1])
    return parts[0]


def rack_help() -> str:
    """How to make a rack, in the current language (on every page that has racks)."""
    return _(
        "Racks: cut along the solid lines, fold along the dashed ones into a triangle and glue "
        "the narrow flap under it; the tiles lean on its slope."
    )


#: The heading's first line (bold, 10 points at most) and the room under it for the notes.
HEADING_LINE_MM: Final = 5.0
#: Sizes of the notes, largest first: the largest at which they fit the heading is used.
NOTE_SIZES: Final = (7.5, 7.0, 6.5, 6.0, 5.5, 5.0)


def _heading(pdf: FPDF, line: str, notes: list[str], width: float) -> None:
    """The heading of a page: ``line`` in bold, made smaller if it is wider than ``width``,
    then the ``notes``, each a paragraph, wrapped in the room left and made smaller until
    they fit it. Right-aligned in a right-to-left language."""
    align = "R" if i18n.direction() == "rtl" else "L"
    pdf.set_text_color(0, 0, 0)
    size = 10.0
    pdf.set_font(FAMILY, "B", size)
    while pdf.get_string_width(line) > width and size > 5:
        size -= 0.5
        pdf.set_font(FAMILY, "B", size)
    pdf.set_xy(PAGE_MARGIN, PAGE_MARGIN)
    pdf.cell(width, HEADING_LINE_MM - 1, line, align=align)
    room = HEADING - HEADING_LINE_MM - 1
    for size in NOTE_SIZES:
        pdf.set_font(FAMILY, "", size)
        height = size / POINTS_PER_MM * 1.15
        lines = 0
        for note in notes:
            wrapped = pdf.multi_cell(width, height, note, dry_run=True, output="LINES")
            assert isinstance(wrapped, list)
            lines += len(wrapped)
        if lines * height <= room:
            break
    pdf.set_xy(PAGE_MARGIN, PAGE_MARGIN + HEADING_LINE_MM)
    for note in notes:
        pdf.set_x(PAGE_MARGIN)
        pdf.multi_cell(width, height, note, align=align, new_x="LMARGIN", new_y="NEXT")


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
    # The label at the rack's start: its left end, or its right end in a right-to-left
    # language.
    pdf.set_xy(x + 2, y + plan.rack_height - 4.5)
    align = "R" if i18n.direction() == "rtl" else "L"
    pdf.cell(plan.rack_length - 4, 3.5, _("rack {number}").format(number=index + 1), align=align)
