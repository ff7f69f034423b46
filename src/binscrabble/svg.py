"""Board pictures as SVG text, which Jupyter shows inline.

:func:`board` draws a game (or a bare :class:`~binscrabble.board.Board`): the premium squares
in colour with their labels, each tile with its points, blanks and turned ``=`` marked, the
last play highlighted, and on request the players' scores and racks under the board. The
picture is plain SVG text written here, so the core needs no third-party package; PNG and
animations are made from it by :mod:`binscrabble.print.pictures`.

Each tile is a group that says what it is, for programs that read the picture back:
``<g class="tile" data-square="H8" data-face="1" data-blank="false" data-rotated="false">``.

>>> from binscrabble.board import Board
>>> picture = board(Board.from_rows(["." * 15] * 7 + ["...1+1=10......"] + ["." * 15] * 7))
>>> picture.startswith("<svg")
True
>>> picture.count('class="tile')
6
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import Final, Protocol, Self, TypeVar

from binscrabble.bidi import first_strong, has_right_to_left, visual
from binscrabble.board import COLUMN_NAMES, PREMIUMS, SIZE, Board, Tile, square_name
from binscrabble.i18n import ENGLISH, N_, _, direction, language, ngettext
from binscrabble.move import Move, Place, display_notation
from binscrabble.rules import BLANK, FACE_LABELS, TILE_POINTS


class PlayedTurn(Protocol):
    """What a picture reads of one turn of a game's history."""

    @property
    def seat(self) -> int: ...
    @property
    def move(self) -> Move: ...
    @property
    def score(self) -> int: ...


class PlayedOutcome(Protocol):
    """What a picture reads of a finished game: :class:`binscrabble.game.Outcome` is one."""

    @property
    def adjustments(self) -> tuple[int, ...]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...


class PlayedGame(Protocol):
    """What a picture reads of a game: :class:`binscrabble.game.Game` is one.

    Pictures depend on this shape, not on the game module, so that the game can draw itself
    (``Game._repr_svg_``) without the two modules importing each other.
    """

    players: tuple[str, ...]
    scores: list[int]
    to_move: int

    @property
    def board(self) -> Board: ...
    @property
    def history(self) -> Sequence[PlayedTurn]: ...
    @property
    def racks(self) -> tuple[str, ...]: ...
    @property
    def bag_size(self) -> int: ...
    def is_over(self) -> bool: ...
    def outcome(self) -> PlayedOutcome | None: ...
    def notations(self) -> list[str]: ...
    def copy(self) -> Self: ...
    def pop(self) -> Move: ...


GameT = TypeVar("GameT", bound=PlayedGame)

#: Side of one square, in picture units.
SQUARE: Final = 40
#: Room for the coordinates around the board.
MARGIN: Final = 22
#: Height of one line of the score and rack panel under the board.
PANEL_LINE: Final = 46

#: Fill of each premium square and of a plain one.
PREMIUM_COLOURS: Final = {"TW": "#d64541", "DW": "#f2a7a0", "TL": "#2f7ec1", "DL": "#a8d4f2"}
PLAIN_COLOUR: Final = "#d9e4cf"
#: Label of an empty premium square in English (the centre shows a star: it is also where
#: play starts). The other languages write the web board's labels (``js/board.js``, the
#: terminal's): "MT", "מ״מ", "ТД"...
PREMIUM_LABELS: Final = {"TW": "3W", "DW": "2W", "TL": "3L", "DL": "2L"}
_BOARD_LABELS: Final = {"TW": N_("TW"), "DW": N_("DW"), "TL": N_("TL"), "DL": N_("DL")}
TILE_COLOUR: Final = "#f5e6bf"
LAST_MOVE_COLOUR: Final = "#ffd24d"
BLANK_FACE_COLOUR: Final = "#b03a2e"
FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"
#: The smallest a tile's points may be drawn, in pixels of the picture as shown; below it
#: they are drawn larger, up to LARGEST_POINTS_SIZE units, and left out beyond that.
SMALLEST_POINTS_PIXELS: Final = 7.5
POINTS_LEFT_OUT: Final = N_("the tiles' points are left out: too small to read at this width")
POINTS_NOT_SHOWN: Final = N_("(tile points not shown at this size)")
LARGEST_POINTS_SIZE: Final = 12.5
#: Font sizes of the panel under the board, in picture units.
PLAYER_FONT: Final = 18
CAPTION_FONT: Final = 16
#: The room a player's name may take in a caption or status line, in picture units.
NAME_IN_CAPTION: Final = 140
#: Advance widths of DejaVu Sans for the characters space to ``~``, in hundredths of the
#: font size (from the font's metrics); Hebrew letters as HEBREW_LETTER (the widest), other
#: letters (accented Latin, Cyrillic) as OTHER_LETTER (the widest but a few capitals: Ж, Щ,
#: Ю are 98 to 109), marks and invisible direction characters as nothing, other characters
#: as WIDE_CHARACTER. Text is shortened to fit by these, with EXTRA_WIDTH to spare for a
#: wider fallback font.
_ASCII_WIDTHS: Final = (
    32, 40, 46, 84, 64, 95, 78, 27, 39, 39, 50, 84, 32, 36, 32, 34, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 34, 34, 84, 84, 84, 53, 100, 68, 69, 70, 77, 63, 58, 77, 75, 29, 29, 66,
    56, 86, 75, 79, 60, 79, 69, 63, 61, 73, 68, 99, 69, 61, 69, 39, 34, 39, 84, 50, 50, 61,
    63, 55, 63, 62, 35, 63, 63, 28, 28, 58, 28, 97, 63, 61, 63, 63, 41, 52, 39, 63, 59, 82,
    59, 59, 52, 64, 34, 64, 84,
)  # fmt: skip
WIDE_CHARACTER: Final = 120
OTHER_LETTER: Final = 90
HEBREW_LETTER: Final = 71
EXTRA_WIDTH: Final = 1.1
ELLIPSIS: Final = "…"


class SvgImage(str):
    """SVG text that Jupyter (and anything that knows ``_repr_svg_``) shows as a picture."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


@dataclass(frozen=True, slots=True)
class _Panel:
    """What goes under the board: one line per player."""

    names: tuple[str, ...]
    scores: tuple[int, ...] | None
    racks: tuple[str, ...] | None
    to_move: int | None
    caption: str | None
    #: A line under the caption: the bag's count, or the racks' adjustments at the end.
    status: str | None = None
    #: A line under that, saying what the picture leaves out.
    note: str | None = None


def board(
    game_or_board: PlayedGame | Board,
    *,
    last_move: bool = True,
    coordinates: bool = True,
    size: int | None = None,
    scores: bool = False,
    racks: bool = False,
    caption: str | None = None,
) -> SvgImage:
    """The picture of a game's board (or of a bare board).

    ``last_move`` highlights the tiles of the game's last play; ``coordinates`` writes the
    column letters and row numbers around the board; ``size`` is the picture's width in
    pixels (the height follows); ``scores`` and ``racks`` add a line per player under the
    board with the score and the rack (every rack: the picture shows the whole game);
    ``caption`` is a line of text under the board (``scores`` alone writes the last turn).
    """
    if isinstance(game_or_board, Board):
        cells = game_or_board
        highlighted: frozenset[int] = frozenset()
        panel = None
        if caption is not None:
            panel = _Panel((), None, None, None, caption)
    else:
        game = game_or_board
        cells = game.board
        highlighted = _last_play_squares(game) if last_move else frozenset()
        panel = _panel(game, scores, racks, caption)
    return SvgImage(_draw(cells, highlighted, coordinates, size, panel))


def _last_play_squares(game: PlayedGame) -> frozenset[int]:
    # The last play, also when passes or exchanges came after it.
    for turn in reversed(game.history):
        if isinstance(turn.move, Place):
            return frozenset(turn.move.squares)
    return frozenset()


def _panel(game: PlayedGame, scores: bool, racks: bool, caption: str | None) -> _Panel | None:
    if not scores and not racks and caption is None:
        return None
    if caption is None and scores:
        caption = turn_caption(game)
    return _Panel(
        names=game.players,
        scores=tuple(game.scores) if scores else None,
        racks=game.racks if racks else None,
        to_move=None if game.is_over() else game.to_move,
        caption=caption,
        status=game_status(game) if scores or racks else None,
    )


def turn_caption(game: PlayedGame) -> str:
    """A line telling the last turn, the move as the tiles show it:
    ``"turn 3: Ada 8D 1+NOT 1=1 +18"``, or the start, in the current language (in logical
    order: the picture lays a right-to-left line out itself)."""
    if not game.history:
        return _("start of the game")
    turn = game.history[-1]
    values = {
        "turn": len(game.history),
        "name": short_name(game.players[turn.seat]),
        "move": display_notation(game.notations()[-1]),
        "score": turn.score,
    }
    outcome = game.outcome()
    if outcome is None:
        return _("turn {turn}: {name} {move} +{score}").format(**values)
    winners = [short_name(game.players[seat]) for seat in outcome.winners]
    if len(winners) == 1:
        return _("turn {turn}: {name} {move} +{score} (game over: {winner} wins)").format(
            winner=winners[0], **values
        )
    return _("turn {turn}: {name} {move} +{score} (game over: a draw: {names})").format(
        names=", ".join(winners), **values
    )


def short_name(name: str) -> str:
    """A player's name as captions write it: shortened with an ellipsis when long, so that
    the line keeps room for the move and the scores.

    >>> short_name("Ada"), short_name("Bartholomew Maximilian of the Very Long Name")
    ('Ada', 'Bartholomew…')
    """
    return fit(name, NAME_IN_CAPTION, CAPTION_FONT)


def game_status(game: PlayedGame) -> str:
    """The bag's count while the game goes on; at the end, what each rack added or took
    away (docs/rules.md §9): ``"end of the game, racks: Ada +7, Bob −7"``."""
    outcome = game.outcome()
    if outcome is None:
        count = game.bag_size
        return ngettext("bag: {count} tile", "bag: {count} tiles", count).format(count=count)
    entry = "{name} {change}"
    if direction() == "rtl":
        # Each entry a run of its own, the first at the right, its sign left of its number.
        entry = "\u2068{name} \u2066{change}\u2069\u2069"
    changes = ", ".join(
        entry.format(name=short_name(name), change=signed(change))
        for name, change in zip(game.players, outcome.adjustments, strict=True)
    )
    return _("end of the game, racks: {changes}").format(changes=changes)


def signed(number: int) -> str:
    """A number with its sign as printed: ``+7``, ``−7``, ``0``."""
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"


def text_width(text: str, font_size: float) -> float:
    """How wide ``text`` is drawn in DejaVu Sans, with room to spare (picture units).

    >>> round(text_width("Ada", 18), 1)
    38.0
    """
    hundredths = sum(_character_width(char) for char in text)
    return hundredths / 100 * font_size * EXTRA_WIDTH


def _character_width(char: str) -> int:
    if " " <= char <= "~":
        return _ASCII_WIDTHS[ord(char) - 32]
    category = unicodedata.category(char)
    if category in ("Mn", "Me", "Cf"):
        return 0
    if not category.startswith("L"):
        return WIDE_CHARACTER
    return HEBREW_LETTER if "\u0590" <= char <= "\u05ff" else OTHER_LETTER


def fit(text: str, width: float, font_size: float) -> str:
    """``text``, shortened with an ellipsis to fit ``width`` picture units if it is wider.

    >>> fit("Ada", 100, 18), fit("Bartholomew the Third", 100, 18)
    ('Ada', 'Barthol…')
    """
    if text_width(text, font_size) <= width:
        return text
    for end in range(len(text) - 1, 0, -1):
        shortened = text[:end].rstrip() + ELLIPSIS
        if text_width(shortened, font_size) <= width:
            return shortened
    return ELLIPSIS


def _draw(
    cells: Board,
    highlighted: frozenset[int],
    coordinates: bool,
    size: int | None,
    panel: _Panel | None,
) -> str:
    margin = MARGIN if coordinates else 4
    board_side = SQUARE * SIZE
    width = board_side + 2 * margin
    height = board_side + 2 * margin + _panel_height(panel)
    shown_width = width if size is None else size
    shown_height = round(height * shown_width / width)
    points_size = _points_size(shown_width / width)
    title = _("Binary Scrabble board")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{shown_width}" '
        f'height="{shown_height}" viewBox="0 0 {width} {height}" '
        f'font-family="{FONT}" text-anchor="middle">',
        f"<title>{escape(title)}</title>",
        *([] if points_size is not None else [f"<desc>{escape(_(POINTS_LEFT_OUT))}</desc>"]),
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    if coordinates:
        parts.extend(_coordinates(margin))
    for sq in range(SIZE * SIZE):
        row, column = divmod(sq, SIZE)
        x, y = margin + column * SQUARE, margin + row * SQUARE
        tile = cells[sq]
        if tile is None:
            parts.append(_empty_square(sq, x, y))
        else:
            parts.append(_tile(tile, x, y, square_name(sq), sq in highlighted, points_size))
    if panel is not None:
        if points_size is None and panel.status is not None:
            panel = replace(panel, note=_(POINTS_NOT_SHOWN))
        parts.extend(_panel_lines(panel, margin, margin * 2 + board_side, board_side, points_size))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _points_size(scale: float) -> float | None:
    """The font size of the tiles' points at this scale, or None: too small to read."""
    size = max(9.0, SMALLEST_POINTS_PIXELS / scale)
    return round(size, 1) if size <= LARGEST_POINTS_SIZE else None


def _coordinates(margin: int) -> list[str]:
    parts = []
    far = margin + SQUARE * SIZE
    for index in range(SIZE):
        centre = margin + index * SQUARE + SQUARE // 2
        letter = COLUMN_NAMES[index]
        for y in (margin - 6, far + 16):
            parts.append(f'<text x="{centre}" y="{y}" font-size="14" fill="#555">{letter}</text>')
        for x in (margin // 2, far + margin // 2):
            parts.append(
                f'<text x="{x}" y="{centre + 5}" font-size="13" fill="#555">{index + 1}</text>'
            )
    return parts


def _empty_square(sq: int, x: int, y: int) -> str:
    kind = PREMIUMS[sq]
    colour = PREMIUM_COLOURS[kind] if kind else PLAIN_COLOUR
    rect = (
        f'<rect class="square" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" '
        f'fill="{colour}" stroke="#ffffff" stroke-width="1.5"/>'
    )
    if kind is None:
        return rect
    ink = "#ffffff" if kind in ("TW", "TL") else "#333333"
    label = "★" if sq == SIZE * SIZE // 2 else premium_label(kind)
    text_size = 22 if label == "★" else 13
    return (
        f'<g class="premium" data-square="{square_name(sq)}" data-premium="{kind}">{rect}'
        f'<text x="{x + SQUARE / 2}" y="{y + SQUARE / 2 + text_size * 0.36:.1f}" '
        f'font-size="{text_size}" font-weight="bold" fill="{ink}"{_as_stored(label)}>'
        f"{escape(visual(label, direction()))}</text></g>"
    )


def premium_label(kind: str) -> str:
    """The label of an empty premium square in the current language, in logical order:
    ``3W`` in English, the web board's elsewhere (``MT``, ``מ״מ``, ``ТД``).

    >>> premium_label("DL")
    '2L'
    """
    if language() == ENGLISH:
        return PREMIUM_LABELS[kind]
    return _(_BOARD_LABELS[kind])


def _as_stored(text: str) -> str:
    """The attributes that make a browser draw a text as it is stored (in visual order, as
    CairoSVG draws it) when it holds right-to-left letters; nothing for other text."""
    if has_right_to_left(text):
        return ' direction="ltr" unicode-bidi="bidi-override"'
    return ""


def _tile(
    tile: Tile, x: int, y: int, name: str, highlighted: bool, points_size: float | None
) -> str:
    fill = LAST_MOVE_COLOUR if highlighted else TILE_COLOUR
    kind = "tile last" if highlighted else "tile"
    head = (
        f'<g class="{kind}" data-square="{name}" data-face="{escape(tile.face)}" '
        f'data-blank="{str(tile.blank).lower()}" data-rotated="{str(tile.rotated).lower()}">'
        f'<rect x="{x + 1.5}" y="{y + 1.5}" width="{SQUARE - 3}" height="{SQUARE - 3}" rx="4" '
        f'fill="{fill}" stroke="#8a6d3b" stroke-width="1.2"/>'
    )
    return head + _tile_face(tile.face, x, y, tile.blank, tile.rotated, points_size) + "</g>"


def _tile_face(
    face: str,
    x: float,
    y: float,
    blank: bool,
    rotated: bool,
    points_size: float | None,
    side: int = SQUARE,
) -> str:
    """The face and points of a tile whose top left corner is (x, y)."""
    label = FACE_LABELS[face]
    scale = side / SQUARE
    text_size = (22 if len(label) == 1 else 12 if len(label) == 2 else 10.5) * scale
    centre_x, centre_y = x + side / 2, y + side / 2 + text_size * 0.36 - 2 * scale
    colour = BLANK_FACE_COLOUR if blank else "#1d1d1d"
    style = ' font-style="italic"' if blank else ""
    # A turned = lies across the square: it reads as the digits 11 in both directions.
    turn = (
        f' transform="rotate(90 {centre_x:.1f} {y + side / 2 - 2 * scale:.1f})"' if rotated else ""
    )
    parts = [
        f'<text x="{centre_x:.1f}" y="{centre_y:.1f}" font-size="{text_size:.1f}" '
        f'font-weight="bold" fill="{colour}"{style}{turn}>{escape(label)}</text>'
    ]
    if blank:
        parts.append(
            f'<circle cx="{centre_x:.1f}" cy="{y + side / 2 - 2 * scale:.1f}" r="{13 * scale:.1f}" '
            f'fill="none" stroke="{BLANK_FACE_COLOUR}" stroke-width="{1 * scale:.1f}" '
            'stroke-dasharray="3 2"/>'
        )
    if points_size is None:
        return "".join(parts)
    points = 0 if blank else TILE_POINTS[face]
    parts.append(
        f'<text class="points" x="{x + side - 2 * scale - points_size / 3:.1f}" '
        f'y="{y + side - 3.5 * scale:.1f}" font-size="{points_size:.1f}" '
        f'fill="#444">{points}</text>'
    )
    return "".join(parts)


def _panel_height(panel: _Panel | None) -> int:
    if panel is None:
        return 0
    lines = len(panel.names) if panel.scores is not None or panel.racks is not None else 0
    texts = (panel.caption, panel.status, panel.note)
    return PANEL_LINE * lines + 30 * sum(text is not None for text in texts) + 6


#: The right edge of the score column: left of a rack of 9 tiles, with a gap.
_SCORE_GAP: Final = 14


def _panel_lines(
    panel: _Panel, left: int, top: int, width: int, points_size: float | None
) -> list[str]:
    parts = []
    y = top
    # A right-to-left language's lines end at the board's right edge.
    rtl = direction() == "rtl"
    x, anchor = (left + width, ' text-anchor="end"') if rtl else (left + width / 2, "")
    for kind, text in (("caption", panel.caption), ("status", panel.status), ("note", panel.note)):
        if text is not None:
            parts.append(
                f'<text class="{kind}" x="{x}" y="{y + 18}"{anchor} '
                f'font-size="{CAPTION_FONT}" fill="#222"{_as_stored(text)}>'
                f"{escape(visual(fit(text, width, CAPTION_FONT), direction()))}</text>"
            )
            y += 30
    if panel.scores is None and panel.racks is None:
        return parts
    rack_left = left + width - 9 * 40
    score_right = rack_left - _SCORE_GAP
    for seat, name in enumerate(panel.names):
        marker = "▶ " if seat == panel.to_move else ""
        room = float(score_right - left)
        if panel.scores is not None:
            score = str(panel.scores[seat])
            parts.append(
                f'<text class="score" data-seat="{seat}" x="{score_right}" y="{y + 28}" '
                f'font-size="{PLAYER_FONT}" font-weight="bold" text-anchor="end" '
                f'fill="#222">{score}</text>'
            )
            room -= text_width(score, PLAYER_FONT) + _SCORE_GAP
        shown = fit(marker + name, room, PLAYER_FONT)
        parts.append(
            f'<text class="player" data-seat="{seat}" x="{left}" y="{y + 28}" '
            f'font-size="{PLAYER_FONT}" text-anchor="start" fill="#222"{_as_stored(shown)}>'
            f"{escape(_row_name(shown, marker, name))}</text>"
        )
        if panel.racks is not None:
            parts.extend(_rack(panel.racks[seat], rack_left, y + 4, seat, points_size))
        y += PANEL_LINE
    return parts


def _row_name(shown: str, marker: str, name: str) -> str:
    """A player's row as drawn, left to right in every language as the board is: the
    marker, then the name (shortened as ``shown``) laid out in its own direction, so that a
    Hebrew name reads from the right and its ellipsis is at its left end."""
    if not shown.startswith(marker):
        return visual(shown, "ltr")
    return marker + visual(shown[len(marker) :], first_strong(name) or "ltr")


def _rack(codes: Sequence[str], x: int, y: int, seat: int, points_size: float | None) -> list[str]:
    side = 38
    parts = [f'<g class="rack" data-seat="{seat}" data-rack="{escape("".join(codes))}">']
    for index, code in enumerate(codes):
        left = x + index * (side + 2)
        parts.append(
            f'<rect x="{left}" y="{y}" width="{side}" height="{side}" rx="4" '
            f'fill="{TILE_COLOUR}" stroke="#8a6d3b" stroke-width="1.2"/>'
        )
        if code != BLANK:
            parts.append(_tile_face(code, left, y, False, False, points_size, side))
    parts.append("</g>")
    return parts


def game_at_turn(game: GameT, turn: int) -> GameT:
    """A copy of ``game`` as it stood after its first ``turn`` turns (0: the start).

    Raises ``ValueError`` naming the turns there are when ``turn`` is out of range, in the
    current language.
    """
    played = len(game.history)
    if not 0 <= turn <= played:
        raise ValueError(
            _("turn {turn} is not in the game: it has turns 0 (the start) to {last}").format(
                turn=turn, last=played
            )
        )
    earlier = game.copy()
    for _undone in range(played - turn):
        earlier.pop()
    return earlier
