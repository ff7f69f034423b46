"""``binscrabble print-set``: the tile set and racks to print (PDF) or to cut with a laser (SVG)."""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path

from binscrabble.cli.arguments import finite_number
from binscrabble.cli.common import (
    CliError,
    add_rules_options,
    rules_from_options,
    write_output,
)
from binscrabble.i18n import _, ngettext
from binscrabble.limits import escape_controls


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "print-set",
        help=_("a printable tile set with racks (PDF), or cut paths for a laser cutter (SVG)"),
        description=_(
            "Every tile of the set the rules give (100 by default; XOR tiles with "
            "--rule xor_tiles=N) at real size with its points and cut lines, then four racks "
            "to fold, on the fewest pages. FILE.pdf to print on paper, FILE.svg for a laser "
            "cutter (red: cut, blue: score the folds, black: engrave, as outlines); with "
            "--bed, one FILE-N.svg per sheet. Needs the print extra "
            "(pip install 'binscrabble[print]')."
        ),
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help=_("FILE.pdf or FILE.svg")
    )
    parser.add_argument(
        "--tile-mm",
        type=finite_number,
        default=19.0,
        metavar="MM",
        help=_("side of a tile (default: 19)"),
    )
    parser.add_argument("--paper", choices=("a4", "letter"), default="a4", help=_("default: a4"))
    parser.add_argument(
        "--bed",
        metavar="WxH",
        help=_("laser file only: the cutter's bed in mm (e.g. 600x400); as many sheets as needed"),
    )
    parser.add_argument(
        "--stroke-mm",
        type=finite_number,
        default=0.01,
        metavar="MM",
        help=_("laser file only: width of the cut and score lines (default: 0.01, a hairline)"),
    )
    add_rules_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    output = Path(args.output)
    suffix = output.suffix.lower()
    if suffix not in (".pdf", ".svg"):
        raise CliError(
            _("cannot tell the format of {path}: name it .pdf or .svg").format(path=args.output)
        )
    if suffix == ".pdf" and args.bed is not None:
        raise CliError(_("--bed is for a laser file: name the output FILE.svg"))
    rules = rules_from_options(args)
    from binscrabble.print import PrintError
    from binscrabble.print.laser import laser_sheets, parse_bed
    from binscrabble.print.tiles import RACK_COUNT, TileSetError, plan_tile_set, tile_set_pdf

    try:
        plan = plan_tile_set(rules, args.tile_mm, args.paper)
    except TileSetError as error:
        raise CliError(
            _("--tile-mm {size}: {problem}").format(size=f"{args.tile_mm:g}", problem=error)
        ) from error
    try:
        bed = None if args.bed is None else parse_bed(args.bed)
        sheets = laser_sheets(plan, bed, args.stroke_mm) if suffix == ".svg" else []
    except PrintError as error:
        raise CliError(str(error)) from error
    what = _("{tiles} tiles and {racks} racks").format(tiles=len(plan.codes), racks=RACK_COUNT)
    if suffix == ".pdf":
        write_output(output, lambda: tile_set_pdf(plan))
        wrote = ngettext(
            "wrote {path} ({what} on {count} page)",
            "wrote {path} ({what} on {count} pages)",
            plan.pages,
        )
        print(wrote.format(path=escape_controls(str(output)), what=what, count=plan.pages))
        return 0
    if len(sheets) == 1:
        files = [output]
    else:
        files = [
            output.with_name(f"{output.stem}-{n}{output.suffix}") for n in range(1, len(sheets) + 1)
        ]
    for file, sheet in zip(files, sheets, strict=True):
        write_output(file, partial(str, sheet))
    shown = ", ".join(escape_controls(str(file)) for file in files)
    wrote = ngettext(
        "wrote {path} ({what} on one sheet)", "wrote {path} ({what} on {count} sheets)", len(sheets)
    )
    print(wrote.format(path=shown, what=what, count=len(sheets)))
    return 0
