"""``binscrabble print-rules``: the rules in force on two A4 pages, in one of four languages."""

from __future__ import annotations

import argparse
from pathlib import Path

from binscrabble import i18n
from binscrabble.cli.common import (
    CliError,
    add_rules_options,
    rules_from_options,
    write_output,
)
from binscrabble.i18n import _
from binscrabble.limits import escape_controls


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "print-rules",
        help=_("the rules in force as a two-page PDF (English, French, Hebrew, Bulgarian)"),
        description=_(
            "The rules in force on two A4 pages: the tiles, true equations, the order of "
            "operations, scoring with a worked example, the end of the game and the house "
            "rules chosen. Needs the print extra (pip install 'binscrabble[print]')."
        ),
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE.pdf", help=_("the PDF to write")
    )
    # --lang (every command's, binscrabble.cli.arguments.language_option) chooses the
    # card's language too: English, French, Hebrew or Bulgarian.
    add_rules_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    output = Path(args.output)
    if output.suffix.lower() != ".pdf":
        raise CliError(
            _("the rules card is a PDF: name the output FILE.pdf, not {path}").format(
                path=args.output
            )
        )
    rules = rules_from_options(args)
    from binscrabble.print.rules_card import rules_card_pdf

    write_output(output, lambda: rules_card_pdf(rules, i18n.language()))
    print(_("wrote {path} (2 pages)").format(path=escape_controls(str(output))))
    return 0
