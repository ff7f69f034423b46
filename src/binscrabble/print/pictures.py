"""PNG pictures and game animations (GIF, WebP) of the board pictures of :mod:`binscrabble.svg`.

CairoSVG turns the SVG text into PNG (no browser involved); Pillow strings the PNG frames
of a recorded game into an animation, one frame for the start and one for each turn.
"""

from __future__ import annotations

import io
import math
import re
from typing import TYPE_CHECKING, Final

from binscrabble.i18n import _
from binscrabble.print import PrintError, missing_extra
from binscrabble.svg import board, game_at_turn

if TYPE_CHECKING:
    from binscrabble.game import Game

#: How long each turn's frame shows, and the last one (so a loop does not hide the result).
FRAME_MILLISECONDS: Final = 900
LAST_FRAME_MILLISECONDS: Final = 3000
#: Animation formats by file suffix.
ANIMATION_FORMATS: Final = {".gif": "GIF", ".webp": "WEBP"}
#: The most pixels of all an animation's frames together: every frame is held until the
#: file is written, at about 7 bytes a pixel (docs/limits.md).
MAX_ANIMATION_PIXELS: Final = 40_000_000

_SVG_SIZE: Final = re.compile(r'<svg [^>]*?width="(\d+)" height="(\d+)"')


class AnimationTooLarge(PrintError):
    """An animation whose frames together would be over :data:`MAX_ANIMATION_PIXELS`."""

    def __init__(self, frames: int, width: int, pixels: int, widest: int) -> None:
        self.frames, self.width, self.pixels, self.widest = frames, width, pixels, widest
        super().__init__(
            _(
                "an animation of {frames} frames {width} pixels wide is {pixels} million "
                "pixels, over the {most} million an animation may have: make it {widest} "
                "pixels wide or less"
            ).format(
                frames=frames,
                width=width,
                pixels=f"{pixels / 1e6:,.1f}",
                most=MAX_ANIMATION_PIXELS // 1_000_000,
                widest=widest,
            )
        )


def frame_size(game: Game, width: int | None = None, racks: bool = False) -> tuple[int, int]:
    """The width and height in pixels of the largest frame of the animation of ``game`` (the
    last: its panel may say how the game ended)."""
    match = _SVG_SIZE.search(board(game, scores=True, racks=racks, size=width))
    assert match is not None
    return int(match.group(1)), int(match.group(2))


def check_animation_size(game: Game, width: int | None = None, racks: bool = False) -> None:
    """:class:`AnimationTooLarge` when the animation of ``game`` at ``width`` would be
    larger than :data:`MAX_ANIMATION_PIXELS`, before any frame is drawn."""
    frames = len(game.history) + 1
    shown_width, shown_height = frame_size(game, width, racks)
    pixels = frames * shown_width * shown_height
    if pixels > MAX_ANIMATION_PIXELS:
        ratio = shown_height / shown_width
        widest = max(1, math.floor(math.sqrt(MAX_ANIMATION_PIXELS / (frames * ratio))) - 1)
        raise AnimationTooLarge(frames, shown_width, pixels, widest)


def svg_to_png(svg: str, width: int | None = None) -> bytes:
    """PNG bytes of an SVG picture, ``width`` pixels wide (default: the picture's own width)."""
    try:
        import cairosvg
    except ImportError as error:
        raise missing_extra("cairosvg", _("a PNG picture")) from error
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
        raise missing_extra("Pillow", _("an animation")) from error
    if suffix not in ANIMATION_FORMATS:
        raise ValueError(
            _("an animation is a .gif or a .webp file, not {suffix}").format(suffix=suffix)
        )
    check_animation_size(game, width, racks)
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
