"""``binscrabble print-set``: the tile set and racks to print (PDF) or to cut with a laser (SVG)."""

from __future__ import annotations

import argparse
from pathlib import Path

from binscrabble.cli.common import (
    add_rules_options,
    rules_or_exit,
    usage_error,
    write_output_or_exit,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "print-set",
        help="a printable tile set with racks (PDF), or cut paths for a laser cutter (SVG)",
        description=(
            "Every tile of the set the rules give (100 by default; XOR tiles with "
            "--rule xor_tiles=N) at real size with its points and cut lines, then four racks "
            "to fold. FILE.pdf to print on paper, FILE.svg for a laser cutter (red: cut, "
            "blue: score the folds, black: engrave). Needs the print extra for PDF "
            "(pip install 'binscrabble[print]')."
        ),
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="FILE.pdf or FILE.svg"
    )
    parser.add_argument(
        "--tile-mm", type=float, default=19.0, metavar="MM", help="side of a tile (default: 19)"
    )
    parser.add_argument("--paper", choices=("a4", "letter"), default="a4", help="default: a4")
    add_rules_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    output = Path(args.output)
    suffix = output.suffix.lower()
    if suffix not in (".pdf", ".svg"):
        return usage_error(f"cannot tell the format of {args.output}: name it .pdf or .svg")
    rules = rules_or_exit(args)
    if isinstance(rules, int):
        return rules
    from binscrabble.print.tiles import (
        RACK_COUNT,
        TileSetError,
        plan_tile_set,
        tile_set_pdf,
        tile_set_svg,
    )

    try:
        plan = plan_tile_set(rules, args.tile_mm, args.paper)
    except TileSetError as error:
        return usage_error(str(error))
    is_svg = suffix == ".svg"
    failed = write_output_or_exit(
        output, lambda: tile_set_svg(plan) if is_svg else tile_set_pdf(plan)
    )
    if failed is not None:
        return failed
    where = "one sheet" if is_svg else f"{plan.pages} page{'' if plan.pages == 1 else 's'}"
    print(f"wrote {output} ({len(plan.codes)} tiles and {RACK_COUNT} racks on {where})")
    return 0
