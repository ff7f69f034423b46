"""The rules card: the rules in force on two A4 pages, in English, French, Hebrew or Bulgarian.

The words are messages of the gettext catalogues, like the web's and the command line's
(:mod:`binscrabble.print.card_words`); this module only lays them out, fills in what depends
on the rules (tile counts, the order of operations, the house rules, examples checked by the
equation checker, the worked example scored by the referee) and embeds DejaVu Sans. Text
between backticks in a message is an equation or a tile: it is always read left to right,
also on the Hebrew card, which is set right to left.

>>> sorted(card_words("fr")["tiles"]["names"]) == sorted(card_words("en")["tiles"]["names"])
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from binscrabble import i18n
from binscrabble.board import PREMIUMS, Board, square_name
from binscrabble.expr import binary, bonus, check, equation_value_or_none
from binscrabble.i18n import _
from binscrabble.limits import quoted
from binscrabble.move import Place, display_equation, display_notation, parse_move
from binscrabble.print import PrintError, missing_extra
from binscrabble.print.card_words import card_words
from binscrabble.print.fonts import FAMILY, add_fonts
from binscrabble.rules import FACE_LABELS, RULE_NAMES, TILE_POINTS, Rules, tile_counts

if TYPE_CHECKING:
    from fpdf import FPDF

LANGUAGES: Final = i18n.LANGUAGES
#: Set an equation inside right-to-left text as a left-to-right run: Unicode's
#: left-to-right isolate before it and pop directional isolate after it.
LEFT_TO_RIGHT_ISOLATE: Final = "\u2066"
POP_ISOLATE: Final = "\u2069"
#: Keeps the words of an equation together on one line.
NO_BREAK_SPACE: Final = "\u00a0"
#: True equations to show, in codes; those the rules in force reject are left out.
EXAMPLE_EQUATIONS: Final = (
    "1+1=10",
    "11+1=100",
    "11x11=1001",
    "110/10=11",
    "100|1=101",
    "101&11=1",
    "101^1=100",
    "~101=10",
    "10x10=100=11+1",
    "1+1=10x1",
    "1000x11=11000",
)
#: How many examples the card shows.
EXAMPLE_COUNT: Final = 9
#: Two equations that tell the orders of operations apart: exactly one holds in each, and
#: neither has an identity move, so that the pair holds under every house rule.
PRECEDENCE_PAIR: Final = ("1+10x11=111", "1+10x11=1001")
#: The example of each identity move (docs/rules.md §7), true exactly when it is allowed.
IDENTITY_EXAMPLES: Final = {
    "times_one": "1+1=10x1",
    "plus_minus_zero": "1+0=1",
    "and_one_or_zero": "1&1=1",
}
#: Chains of two identity moves of one kind, by the switch that allows that kind.
CHAIN_EXAMPLES: Final = {
    "plus_minus_zero": "1+1=10+0+0",
    "times_one": "1+1=10x1x1",
    "and_one_or_zero": "1+1=10|0|0",
}
#: The first play of the worked example, by the smallest rack that holds it.
WORKED_PLAYS: Final = ((6, "8D 1+1=10"), (3, "8F 1=1"))
#: Font sizes to try, largest first, until the card fits on two pages.
FONT_SIZES: Final = (10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0)
MARGIN: Final = 15.0
_BACKTICKED: Final = re.compile(r"`([^`]*)`")
_SYMBOLS: Final = {"x": "×", "/": "÷", "-": "−"}


@dataclass(frozen=True, slots=True)
class RulesCard:
    """A rules card and what it claims: each equation it shows (in codes) and whether the
    card shows it as true (``True``) or as refused (``False``)."""

    pdf: bytes
    claims: tuple[tuple[str, bool], ...]


class RulesCardError(PrintError, ValueError):
    """A rules card that cannot be made as asked (an unknown language)."""


def readable(codes: str) -> str:
    """An equation in codes as the tiles show it: ``100|1=101`` -> ``100 OR 1=101``."""
    return display_equation(codes)


def preset_name(rules: Rules) -> str | None:
    """The preset these rules are, or ``None`` for other house rules."""
    return rules.preset_name()


class _Card:
    """Writes paragraphs, lists and the tile table in one direction and one font size."""

    def __init__(self, pdf: FPDF, catalogue: dict[str, Any], size: float, rules: Rules) -> None:
        self.pdf = pdf
        self.rules = rules
        self.words = catalogue
        self.rtl = catalogue["direction"] == "rtl"
        self.size = size
        self.align = "R" if self.rtl else "L"
        self.claims: list[tuple[str, bool]] = []

    def equation(self, codes: str, true: bool) -> str:
        """An equation to show as true (or as refused), checked under the rules first."""
        if check(codes, self.rules).valid != true:
            said = "true" if true else "refused"
            raise AssertionError(f"the card would show {codes} as {said}, and it is not")
        self.claims.append((codes, true))
        return f"`{display_equation(codes)}`"

    def text(self, template: str, **values: object) -> str:
        """A catalogue text with its values filled in and its equations set left to right."""
        filled = template.format(**values) if values else template

        def equation(match: re.Match[str]) -> str:
            shown = re.sub(r"(?<=[01 ])[x/-](?=[01 ])", lambda m: _SYMBOLS[m[0]], match[1])
            if not self.rtl:
                return shown.replace(" ", NO_BREAK_SPACE)
            # Spaces between digits and signs let the bidirectional layout reorder the
            # pieces of a formula right to left; words (AND, NOT) keep it left to right.
            if not re.search("[A-Za-z]", shown):
                shown = shown.replace(" ", "")
            shown = shown.replace(" ", NO_BREAK_SPACE)
            return f"{LEFT_TO_RIGHT_ISOLATE}{shown}{POP_ISOLATE}"

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
        bottom = top
        for block, first in enumerate((0, half)):
            left = MARGIN + block * block_width
            if self.rtl:
                left = self.pdf.w - MARGIN - (block + 1) * block_width + 4
            self.pdf.set_xy(left, top)
            self._table_row(header, widths, bold=True)
            for index in range(first, min(first + half, len(rows))):
                self.pdf.set_x(left)
                self._table_row((*rows[index], points[index]), widths, bold=False)
            bottom = max(bottom, self.pdf.get_y())
        # The next heading starts below the longer block, with room to breathe.
        self.pdf.set_y(bottom + self.size * 0.35)

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


def _worked_example(card: _Card, rules: Rules) -> str:
    """The worked example: a first play scored by the referee under these rules."""
    from binscrabble.game import Game

    words = card.words["scoring"]
    notation = next(text for smallest, text in WORKED_PLAYS if rules.rack_size >= smallest)
    tiles = notation.split()[1]
    game = Game.from_setup(rules, Board(), [tiles, None], seed=0)
    move = parse_move(notation, game.board)
    assert isinstance(move, Place)
    card.equation(tiles, True)
    breakdown = game.score_breakdown(move)
    (run,) = breakdown.runs
    terms = [
        f"{tile.points} × {tile.letter_multiplier}"
        if tile.letter_multiplier > 1
        else str(tile.points)
        for tile in run.tiles
    ]
    formula = " + ".join([*terms, str(run.bonus)])
    if run.word_multiplier > 1:
        formula = f"({formula}) × {run.word_multiplier}"
    if breakdown.bingo:
        formula += f" + {breakdown.bingo}"
    premiums = [
        f"`{square_name(sq)}` ({words['premiums'][kind]})"
        for sq in move.squares
        if (kind := PREMIUMS[sq]) is not None
    ]
    return card.text(
        words["example_bingo" if breakdown.bingo else "example"],
        play=f"`{display_notation(notation)}`",
        start=square_name(move.squares[0]),
        premiums=words["and"].join(premiums),
        formula=f"`{formula} = {breakdown.total}`",
        bonus=run.bonus,
        bingo_bonus=breakdown.bingo,
    )


def _switched(section: dict[str, Any], rules: Rules, name: str) -> str:
    """The sentence of ``section`` for the setting of the house rule ``name`` in force."""
    return str(section[f"{name}_{'on' if getattr(rules, name) else 'off'}"])


def _first_page(card: _Card, rules: Rules) -> None:
    words = card.words
    card.heading(words["tiles"]["heading"])
    card.paragraph(words["tiles"]["intro"], total=sum(tile_counts(rules).values()))
    card.tile_table(rules)
    card.heading(words["board"]["heading"])
    card.paragraph(words["board"]["text"], rack_size=rules.rack_size)
    card.bullets(words["board"]["turns"], rack_size=rules.rack_size)
    section = words["placement"]
    card.heading(section["heading"])
    card.bullets(section["items"], shortest=card.equation("1=1", True))
    card.bullets([_switched(section, rules, "parallel_numbers")])
    card.bullets([_switched(section, rules, "rotated_equals")])
    _equations(card, rules)
    section = words["precedence"]
    card.heading(section["heading"])
    card.paragraph(section[rules.precedence])
    valid, invalid = PRECEDENCE_PAIR
    if not check(valid, rules).valid:
        valid, invalid = invalid, valid
    card.paragraph(
        section["example"],
        valid=card.equation(valid, True),
        invalid=card.equation(invalid, False),
    )


def _equations(card: _Card, rules: Rules) -> None:
    section = card.words["equations"]
    card.heading(section["heading"])
    card.paragraph(section["text"])
    card.bullets([section["grammar"]], example=card.equation("1+xx1==10", False))
    card.bullets(
        [_switched(section, rules, "leading_zeros")],
        example=card.equation("01+1=10", rules.leading_zeros),
    )
    card.bullets([section["division"]], example=card.equation("11/10=1", False))
    card.bullets(
        [_switched(section, rules, "allow_negatives")],
        example=card.equation("1-10+1=0", rules.allow_negatives),
    )
    card.bullets(
        [section["bitwise"]],
        first=card.equation("100|1=101", True),
        second=card.equation("101&11=1", True),
    )
    card.bullets(
        [section["not"]],
        first=card.equation("~101=10", True),
        second=card.equation("~011=100", True),
    )
    card.paragraph(section["examples"])
    for codes, value in _examples(rules):
        card.paragraph(
            "    " + section["example"],
            equation=card.equation(codes, True),
            value=value,
            binary=f"`{binary(value)}`",
            bonus=bonus(value),
        )
    card.paragraph(section["not_equations"], example=card.equation("1=10", False))


def _identity(card: _Card, rules: Rules) -> None:
    section = card.words["identity"]
    card.heading(section["heading"])
    card.paragraph(section["text"])
    allowed_kinds = []
    for name, codes in IDENTITY_EXAMPLES.items():
        allowed = bool(getattr(rules, f"identity_{name}"))
        if allowed:
            allowed_kinds.append(name)
        state = section["allowed" if allowed else "forbidden"]
        line = card.text(section[name], example=card.equation(codes, allowed))
        card.paragraph("• " + card.words["term_value"].format(term=line, value=state))
    chain = next((CHAIN_EXAMPLES[name] for name in CHAIN_EXAMPLES if name in allowed_kinds), None)
    if chain is None:
        card.paragraph(f"• {section['chains_none']}")
        return
    state = section["allowed" if rules.identity_chains else "forbidden"]
    line = card.text(section["chains"], example=card.equation(chain, rules.identity_chains))
    card.paragraph("• " + card.words["term_value"].format(term=line, value=state))


def _second_page(card: _Card, rules: Rules) -> None:
    words = card.words
    _identity(card, rules)
    section = words["scoring"]
    card.heading(section["heading"])
    card.paragraph(section["text"])
    card.paragraph(
        section["bonus"],
        first=card.equation("1+1=10", True),
        second=card.equation("11x11=1001", True),
    )
    card.paragraph(section["bingo"], rack_size=rules.rack_size, bingo_bonus=rules.bingo_bonus)
    card.paragraph(_worked_example(card, rules))
    card.heading(words["end"]["heading"])
    card.bullets(words["end"]["items"])
    section = words["house_rules"]
    card.heading(section["heading"])
    card.paragraph(section["text"])
    for name in RULE_NAMES:
        value = _rule_value(section, getattr(rules, name))
        term = section["names"][name]
        card.paragraph("• " + words["term_value"].format(term=term, value=value))


def _rule_value(section: dict[str, Any], value: object) -> str:
    if isinstance(value, bool):
        return str(section["on" if value else "off"])
    if isinstance(value, str):
        return str(section["values"][value])
    return str(value)


def _render(rules: Rules, catalogue: dict[str, Any], size: float) -> tuple[FPDF, _Card]:
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format="A4")
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.set_auto_page_break(True, MARGIN)
    pdf.set_title(catalogue["title"])
    pdf.set_lang(catalogue["code"])
    add_fonts(pdf)
    if catalogue["direction"] == "rtl":
        # Right-to-left text needs the shaping engine (and its bidirectional layout); the
        # left-to-right languages are set without it, three times faster.
        pdf.set_text_shaping(use_shaping_engine=True, direction="rtl")
    card = _Card(pdf, catalogue, size, rules)
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
    return pdf, card


def _footer(pdf: FPDF, text: str, size: float) -> None:
    """The page number at the foot of the page (only when the page has room left for it)."""
    if pdf.page != pdf.pages_count or pdf.get_y() > pdf.h - MARGIN:
        return
    pdf.set_auto_page_break(False)
    pdf.set_xy(MARGIN, pdf.h - MARGIN + 3)
    pdf.set_font(FAMILY, "", size * 0.8)
    pdf.cell(pdf.w - 2 * MARGIN, size * 0.4, text, align="C")
    pdf.set_auto_page_break(True, MARGIN)


def rules_card(rules: Rules, language: str = "en") -> RulesCard:
    """The rules card as a two-page A4 PDF, in the largest font size that still fits, with
    the equations it shows and what it says of each."""
    if language not in LANGUAGES:
        raise RulesCardError(
            _("no rules card in the language {language}: choose one of {languages}").format(
                language=quoted(language), languages=", ".join(LANGUAGES)
            )
        )
    catalogue = card_words(language)
    try:
        import fpdf  # noqa: F401
    except ImportError as error:
        raise missing_extra("fpdf2", _("a PDF")) from error
    # The largest size that fits, found by halving the list of sizes (fewer sizes fit as
    # they grow): three or four renderings instead of up to seven.
    low, high = 0, len(FONT_SIZES)
    best: tuple[FPDF, _Card] | None = None
    while low < high:
        middle = (low + high) // 2
        pdf, card = _render(rules, catalogue, FONT_SIZES[middle])
        if pdf.page <= 2:
            best, high = (pdf, card), middle
        else:
            low = middle + 1
    if best is not None:
        pdf, card = best
        return RulesCard(bytes(pdf.output()), tuple(card.claims))
    raise AssertionError("the rules card does not fit on two pages even in the smallest size")


def rules_card_pdf(rules: Rules, language: str = "en") -> bytes:
    """The rules card as a two-page A4 PDF (see :func:`rules_card`)."""
    return rules_card(rules, language).pdf
