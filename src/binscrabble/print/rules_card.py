"""The rules card: the rules in force on two A4 pages, in English, French, Hebrew or Bulgarian.

The words live in one catalogue per language (``catalogues/en.toml`` ...); this module only
lays them out, fills in what depends on the rules (tile counts, the order of operations,
the house rules, examples checked by the equation checker, the worked example scored by the
referee) and embeds DejaVu Sans. Text between backticks in a catalogue is an equation or a
tile: it is always read left to right, also on the Hebrew card, which is set right to left.

>>> sorted(load_catalogue("fr")["tiles"]["names"]) == sorted(load_catalogue("en")["tiles"]["names"])
True
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from binscrabble.board import Board
from binscrabble.expr import binary, bonus, equation_value_or_none
from binscrabble.print import PrintError, missing_extra
from binscrabble.print.fonts import FAMILY, add_fonts
from binscrabble.rules import FACE_LABELS, PRESETS, RULE_NAMES, TILE_POINTS, Rules, tile_counts

if TYPE_CHECKING:
    from fpdf import FPDF

LANGUAGES: Final = ("en", "fr", "he", "bg")
#: Marks an equation inside right-to-left text as a left-to-right run (Unicode's LRM).
LEFT_TO_RIGHT_MARK: Final = "\u200e"
#: True equations to show, in codes; those the rules in force reject are left out.
EXAMPLE_EQUATIONS: Final = (
    "1+1=10",
    "11+1=100",
    "11x11=1001",
    "110/10=11",
    "100|1=101",
    "101&1=1",
    "101^1=100",
    "~101=10",
    "10x10=100=11+1",
    "1+1=10x1",
    "1000x11=11000",
)
#: How many examples the card shows.
EXAMPLE_COUNT: Final = 9
#: Two equations that tell the orders of operations apart: exactly one holds in each.
PRECEDENCE_PAIR: Final = ("1+1x10=11", "1+1x10=100")
#: Font sizes to try, largest first, until the card fits on two pages.
FONT_SIZES: Final = (10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0)
MARGIN: Final = 15.0
_BACKTICKED: Final = re.compile(r"`([^`]*)`")
_SYMBOLS: Final = {"x": "×", "/": "÷", "-": "−"}


class RulesCardError(PrintError, ValueError):
    """A rules card that cannot be made as asked (an unknown language)."""


def load_catalogue(language: str) -> dict[str, Any]:
    """The words of the rules card in one language (``en``, ``fr``, ``he``, ``bg``)."""
    if language not in LANGUAGES:
        raise RulesCardError(
            f"no rules card in the language {language!r}: choose one of {', '.join(LANGUAGES)}"
        )
    text = resources.files("binscrabble.print").joinpath("catalogues", f"{language}.toml")
    return tomllib.loads(text.read_text(encoding="utf-8"))


def readable(codes: str) -> str:
    """An equation in codes as the tiles show it: ``100|1=101`` -> ``100 OR 1=101``."""
    words = {"&": " AND ", "|": " OR ", "^": " XOR ", "~": "NOT "}
    text = "".join(words.get(code, _SYMBOLS.get(code, code)) for code in codes)
    return re.sub(" +", " ", text.replace("= ", "=").replace(" =", "=")).strip()


def preset_name(rules: Rules) -> str | None:
    """The preset these rules are, or ``None`` for other house rules."""
    return next((name for name in PRESETS if Rules.preset(name) == rules), None)


class _Card:
    """Writes paragraphs, lists and the tile table in one direction and one font size."""

    def __init__(self, pdf: FPDF, catalogue: dict[str, Any], size: float) -> None:
        self.pdf = pdf
        self.words = catalogue
        self.rtl = catalogue["direction"] == "rtl"
        self.size = size
        self.align = "R" if self.rtl else "L"

    def text(self, template: str, **values: object) -> str:
        """A catalogue text with its values filled in and its equations set left to right."""
        filled = template.format(**values) if values else template

        def equation(match: re.Match[str]) -> str:
            shown = re.sub(r"(?<=[01 ])[x/-](?=[01 ])", lambda m: _SYMBOLS[m[0]], match[1])
            if not self.rtl:
                return shown
            # Spaces between digits and signs let the bidirectional layout reorder the
            # pieces of a formula right to left; words (AND, NOT) keep it left to right.
            if not re.search("[A-Za-z]", shown):
                shown = shown.replace(" ", "")
            return f"{LEFT_TO_RIGHT_MARK}{shown}{LEFT_TO_RIGHT_MARK}"

        return _BACKTICKED.sub(equation, filled)

    def heading(self, text: str) -> None:
        self.pdf.ln(self.size * 0.25)
        self.pdf.set_font(FAMILY, "B", self.size * 1.25)
        self.pdf.multi_cell(
            0, self.size * 0.62, self.text(text), align=self.align, new_x="LMARGIN", new_y="NEXT"
        )
        self.pdf.ln(self.size * 0.08)

    def paragraph(self, text: str, **values: object) -> None:
        self.pdf.set_font(FAMILY, "", self.size)
        self.pdf.multi_cell(
            0,
            self.size * 0.46,
            self.text(text, **values),
            align=self.align,
            new_x="LMARGIN",
            new_y="NEXT",
        )
        self.pdf.ln(self.size * 0.1)

    def bullets(self, items: Sequence[str], **values: object) -> None:
        for item in items:
            self.paragraph("• " + item, **values)

    def tile_table(self, rules: Rules) -> None:
        """Tile, name, count and points, in two blocks side by side."""
        words = self.words["tiles"]
        counts = {code: count for code, count in tile_counts(rules).items() if count}
        rows = [
            (FACE_LABELS[code] if code != "?" else "?", words["names"][code], str(count))
            for code, count in counts.items()
        ]
        points = [str(TILE_POINTS[code]) for code in counts]
        header = (words["face"], words["name"], words["count"], words["points"])
        half = (len(rows) + 1) // 2
        widths = (14.0, 40.0, 16.0, 16.0)
        top = self.pdf.get_y()
        block_width = sum(widths) + 4
        for block, first in enumerate((0, half)):
            left = MARGIN + block * block_width
            if self.rtl:
                left = self.pdf.w - MARGIN - (block + 1) * block_width + 4
            self.pdf.set_xy(left, top)
            self._table_row(header, widths, bold=True)
            for index in range(first, min(first + half, len(rows))):
                self.pdf.set_x(left)
                self._table_row((*rows[index], points[index]), widths, bold=False)
        self.pdf.ln(self.size * 0.3)

    def _table_row(self, cells: Sequence[str], widths: Sequence[float], bold: bool) -> None:
        height = self.size * 0.55
        pairs = list(zip(cells, widths, strict=True))
        if self.rtl:
            pairs.reverse()
        for text, width in pairs:
            self.pdf.set_font(FAMILY, "B" if bold else "", self.size * 0.95)
            self.pdf.cell(width, height, self.text(text), border="B", align="C")
        self.pdf.ln(height)


def _examples(rules: Rules) -> list[tuple[str, int]]:
    shown = []
    for codes in EXAMPLE_EQUATIONS:
        value = equation_value_or_none(codes, rules)
        if value is not None and (codes.count("^") == 0 or rules.xor_tiles):
            shown.append((codes, value))
    return shown[:EXAMPLE_COUNT]


def _worked_example_score(rules: Rules) -> int:
    """What the first play ``8D 1+1=10`` scores under these rules, bingo aside."""
    from binscrabble.game import Game
    from binscrabble.move import parse_move

    game = Game.from_setup(rules, Board(), ["1+1=10", None], seed=0)
    breakdown = game.score_breakdown(parse_move("8D 1+1=10", game.board))
    return breakdown.total - breakdown.bingo


def _first_page(card: _Card, rules: Rules) -> None:
    words = card.words
    card.heading(words["tiles"]["heading"])
    card.paragraph(words["tiles"]["intro"], total=sum(tile_counts(rules).values()))
    card.tile_table(rules)
    card.heading(words["board"]["heading"])
    card.paragraph(words["board"]["text"], rack_size=rules.rack_size)
    card.bullets(words["board"]["turns"], rack_size=rules.rack_size)
    card.heading(words["placement"]["heading"])
    card.bullets(words["placement"]["items"])
    section = words["equations"]
    card.heading(section["heading"])
    card.paragraph(section["text"])
    card.bullets(section["rules"])
    card.paragraph(section["examples"])
    for codes, value in _examples(rules):
        card.paragraph(
            "    " + section["example"],
            equation=readable(codes),
            value=value,
            binary=binary(value),
            bonus=bonus(value),
        )
    card.paragraph(section["not_equations"])
    section = words["precedence"]
    card.heading(section["heading"])
    card.paragraph(section[rules.precedence])
    valid, invalid = PRECEDENCE_PAIR
    if equation_value_or_none(valid, rules) is None:
        valid, invalid = invalid, valid
    card.paragraph(section["example"], valid=readable(valid), invalid=readable(invalid))


def _second_page(card: _Card, rules: Rules) -> None:
    words = card.words
    section = words["identity"]
    card.heading(section["heading"])
    card.paragraph(section["text"])
    for name in ("times_one", "plus_minus_zero", "and_one_or_zero", "chains"):
        allowed = getattr(rules, f"identity_{name}")
        state = section["allowed" if allowed else "forbidden"]
        card.paragraph(f"• {section[name]}{words['separator']}{state}")
    section = words["scoring"]
    card.heading(section["heading"])
    card.paragraph(section["text"])
    card.paragraph(section["bonus"])
    card.paragraph(section["bingo"], rack_size=rules.rack_size, bingo_bonus=rules.bingo_bonus)
    card.paragraph(section["example"], score=_worked_example_score(rules))
    card.heading(words["end"]["heading"])
    card.bullets(words["end"]["items"])
    section = words["house_rules"]
    card.heading(section["heading"])
    card.paragraph(section["text"])
    for name in RULE_NAMES:
        value = _rule_value(section, getattr(rules, name))
        card.paragraph(f"• {section['names'][name]}{words['separator']}{value}")


def _rule_value(section: dict[str, Any], value: object) -> str:
    if isinstance(value, bool):
        return str(section["on" if value else "off"])
    if isinstance(value, str):
        return str(section["values"][value])
    return str(value)


def _render(rules: Rules, catalogue: dict[str, Any], size: float) -> FPDF:
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format="A4")
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.set_auto_page_break(True, MARGIN)
    pdf.set_title(catalogue["title"])
    pdf.set_lang(catalogue.get("code", "en"))
    add_fonts(pdf)
    pdf.set_text_shaping(
        use_shaping_engine=True, direction="rtl" if catalogue["direction"] == "rtl" else "ltr"
    )
    card = _Card(pdf, catalogue, size)
    section = catalogue["house_rules"]
    preset = preset_name(rules)
    for number, fill in ((1, _first_page), (2, _second_page)):
        pdf.add_page()
        if number == 1:
            pdf.set_font(FAMILY, "B", size * 2)
            pdf.multi_cell(
                0,
                size * 0.9,
                card.text(catalogue["title"]),
                align=card.align,
                new_x="LMARGIN",
                new_y="NEXT",
            )
            pdf.set_font(FAMILY, "", size * 1.2)
            subtitle = catalogue["subtitle"].format(preset=section[preset or "custom"])
            pdf.multi_cell(
                0, size * 0.6, card.text(subtitle), align=card.align, new_x="LMARGIN", new_y="NEXT"
            )
        fill(card, rules)
        _footer(pdf, card.text(catalogue["page"], page=number, pages=2), size)
    return pdf


def _footer(pdf: FPDF, text: str, size: float) -> None:
    """The page number at the foot of the page (only when the page has room left for it)."""
    if pdf.page != pdf.pages_count or pdf.get_y() > pdf.h - MARGIN:
        return
    pdf.set_auto_page_break(False)
    pdf.set_xy(MARGIN, pdf.h - MARGIN + 3)
    pdf.set_font(FAMILY, "", size * 0.8)
    pdf.cell(pdf.w - 2 * MARGIN, size * 0.4, text, align="C")
    pdf.set_auto_page_break(True, MARGIN)


def rules_card_pdf(rules: Rules, language: str = "en") -> bytes:
    """The rules card as a two-page A4 PDF, in the smallest font size that still fits."""
    catalogue = load_catalogue(language)
    try:
        import fpdf  # noqa: F401
    except ImportError as error:
        raise missing_extra("fpdf2", "a PDF") from error
    for size in FONT_SIZES:
        pdf = _render(rules, catalogue, size)
        if pdf.page == 2:
            return bytes(pdf.output())
    raise AssertionError("the rules card does not fit on two pages even in the smallest size")
