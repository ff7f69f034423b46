"""``binscrabble render``: a picture of a recorded game or a position (SVG, PNG, GIF, WebP)."""

from __future__ import annotations

import argparse
from pathlib import Path

from binscrabble.cli.arguments import whole_number
from binscrabble.cli.common import (
    CliError,
    load_position_file,
    load_record_file,
    write_output,
)
from binscrabble.i18n import _, ngettext
from binscrabble.limits import escape_controls

PICTURE_SUFFIXES = (".svg", ".png")
ANIMATION_SUFFIXES = (".gif", ".webp")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "render",
        help=_("draw a recorded game or a position as a picture or an animation"),
        description=_(
            "Draw the board of a game record (.bsr) or a position file (.json) as an SVG or "
            "PNG picture, at the end of the game or after turn N; with --animate, the whole "
            "recorded game as a GIF or WebP animation, one frame a turn. PNG, GIF and WebP "
            "need the print extra (pip install 'binscrabble[print]')."
        ),
    )
    parser.add_argument(
        "file", metavar="RECORD_OR_POSITION", help=_("a .bsr record or .json position")
    )
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help=_("FILE.svg, FILE.png, FILE.gif, FILE.webp"),
    )
    parser.add_argument(
        "--turn",
        type=whole_number,
        metavar="N",
        help=_("the game after its first N turns (default: the end)"),
    )
    parser.add_argument(
        "--size", type=whole_number, metavar="PX", help=_("width of the picture in pixels")
    )
    parser.add_argument(
        "--animate", action="store_true", help=_("the whole game, one frame a turn (.gif or .webp)")
    )
    parser.add_argument(
        "--no-coordinates", action="store_true", help=_("leave out the letters and numbers")
    )
    parser.add_argument("--racks", action="store_true", help=_("show every player's rack"))
    parser.set_defaults(handler=run)


def _output_problem(args: argparse.Namespace) -> str | None:
    suffix = Path(args.output).suffix.lower()
    if args.animate:
        if suffix not in ANIMATION_SUFFIXES:
            return _("--animate writes a .gif or a .webp file, not {path}").format(path=args.output)
        if args.turn is not None:
            return _("--animate shows every turn: leave out --turn")
    elif suffix in ANIMATION_SUFFIXES:
        return _("{path} is an animation: add --animate").format(path=args.output)
    elif suffix not in PICTURE_SUFFIXES:
        return _("cannot tell the format of {path}: name it .svg, .png, .gif or .webp").format(
            path=args.output
        )
    if args.size is not None and not 16 <= args.size <= 8000:
        return _("--size {size} is out of range: give a width of 16 to 8000 pixels").format(
            size=args.size
        )
    return None


def run(args: argparse.Namespace) -> int:
    problem = _output_problem(args)
    if problem is not None:
        raise CliError(problem)
    is_position = Path(args.file).suffix.lower() == ".json"
    game = load_position_file(args.file) if is_position else load_record_file(args.file)
    from binscrabble.svg import board, game_at_turn

    if args.turn is not None:
        try:
            game = game_at_turn(game, args.turn)
        except ValueError as error:
            raise CliError(
                _("--turn {turn}: {problem}").format(turn=args.turn, problem=error)
            ) from error
    output = Path(args.output)
    suffix = output.suffix.lower()
    if args.animate:
        from binscrabble.print.pictures import (
            MAX_ANIMATION_PIXELS,
            AnimationTooLarge,
            animation,
            check_animation_size,
        )

        try:
            check_animation_size(game, args.size, args.racks)
        except AnimationTooLarge as error:
            raise CliError(
                _(
                    "{frames} frames {width} pixels wide make {pixels} million pixels, over the "
                    "{most} million an animation may have: give --size {widest} or less"
                ).format(
                    frames=error.frames,
                    width=error.width,
                    pixels=f"{error.pixels / 1e6:,.1f}",
                    most=MAX_ANIMATION_PIXELS // 1_000_000,
                    widest=error.widest,
                )
            ) from error
        write_output(output, lambda: animation(game, suffix, args.size, racks=args.racks))
        frames = len(game.history) + 1
        wrote = ngettext("wrote {path} ({count} frame)", "wrote {path} ({count} frames)", frames)
    else:
        picture = board(
            game, coordinates=not args.no_coordinates, size=args.size, scores=True, racks=args.racks
        )
        write_output(output, lambda: _picture_file(picture, suffix, args.size))
        frames = 0
        wrote = _("wrote {path}")
    print(wrote.format(path=escape_controls(str(output)), count=frames))
    return 0


def _picture_file(picture: str, suffix: str, width: int | None) -> bytes | str:
    """The SVG text itself, or the PNG drawn from it."""
    if suffix == ".svg":
        return picture
    from binscrabble.print.pictures import svg_to_png

    return svg_to_png(picture, width)
