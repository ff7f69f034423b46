"""PNG pictures and game animations (GIF, WebP) of the board pictures of :mod:`binscrabble.svg`.

CairoSVG turns the SVG text into PNG (no browser involved); Pillow strings the PNG frames
of a recorded game into an animation, one frame for the start and one for each turn.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Final

from binscrabble.print import missing_extra
from binscrabble.svg import board, game_at_turn

if TYPE_CHECKING:
    from binscrabble.game import Game

#: How long each turn's frame shows, and the last one (so a loop does not hide the result).
FRAME_MILLISECONDS: Final = 900
LAST_FRAME_MILLISECONDS: Final = 3000
#: Animation formats by file suffix.
ANIMATION_FORMATS: Final = {".gif": "GIF", ".webp": "WEBP"}


def svg_to_png(svg: str, width: int | None = None) -> bytes:
    """PNG bytes of an SVG picture, ``width`` pixels wide (default: the picture's own width)."""
    try:
        import cairosvg
    except ImportError as error:
        raise missing_extra("cairosvg", "a PNG picture") from error
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width)
    assert isinstance(png, bytes)
    return png


def animation_frames(game: Game, width: int | None = None, racks: bool = False) -> list[bytes]:
    """PNG frames of a game: the start, then the board after each turn, with the scores
    (and every rack, with ``racks``)."""
    return [
        svg_to_png(board(game_at_turn(game, turn), scores=True, racks=racks, size=width), width)
        for turn in range(len(game.history) + 1)
    ]


def animation(game: Game, suffix: str, width: int | None = None, racks: bool = False) -> bytes:
    """The whole game as an animation file's bytes; ``suffix`` is ``.gif`` or ``.webp``;
    ``racks`` draws every player's rack under the board."""
    try:
        from PIL import Image
    except ImportError as error:
        raise missing_extra("Pillow", "an animation") from error
    if suffix not in ANIMATION_FORMATS:
        raise ValueError(f"an animation is a .gif or a .webp file, not {suffix}")
    frames = [
        Image.open(io.BytesIO(png)).convert("RGB") for png in animation_frames(game, width, racks)
    ]
    durations = [FRAME_MILLISECONDS] * (len(frames) - 1) + [LAST_FRAME_MILLISECONDS]
    out = io.BytesIO()
    frames[0].save(
        out,
        format=ANIMATION_FORMATS[suffix],
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
    )
    return out.getvalue()
