"""The argument parser of every command, and the types of its numeric options.

argparse's own errors quote what was typed (an unknown option, a value that is not a
number) as it was typed; here they are written as every other error of the program
(docs/limits.md): control characters escaped, each thing quoted cut to 60 characters.
Numbers are read within the bounds of :mod:`binscrabble.limits`: a whole number has at
most 100 digits, and a decimal one is finite.

>>> whole_number(" 42 ")
42
>>> clean_message("unrecognized arguments: --\\x1b[2Jx")
'unrecognized arguments: --\\\\x1b[2Jx'
"""

from __future__ import annotations

import argparse
import math
import re
import textwrap
from collections.abc import Sequence
from typing import Any, Final, NoReturn

from binscrabble import i18n
from binscrabble.i18n import N_, _, ngettext
from binscrabble.limits import MAX_DIGITS, escape_controls, quoted

#: The most characters of one thing an error message quotes.
QUOTED: Final = 60
#: The most arguments "unrecognized arguments" names.
NAMED: Final = 3
#: The longest error message, whatever it quotes.
LONGEST: Final = 400

_WHOLE: Final = re.compile(r"[+-]?[0-9]+")
# What argparse quotes with %r, and what it writes bare (words with no space in them).
_REPR: Final = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_LONG_WORD: Final = re.compile(rf"\S{{{QUOTED + 1},}}")


def _cut(text: str) -> str:
    return text if len(text) <= QUOTED else text[: QUOTED - 1] + "…"


def clean_message(message: str) -> str:
    """An argparse error with its control characters escaped, each long thing it quotes
    cut to :data:`QUOTED` characters, and the whole cut to :data:`LONGEST`."""
    shown = escape_controls(message)
    shown = _REPR.sub(lambda match: _cut(match.group()), shown)
    shown = _LONG_WORD.sub(lambda match: _cut(match.group()), shown)
    return shown if len(shown) <= LONGEST else shown[: LONGEST - 1] + "…"


#: The sentences and headings of argparse that a person running the command can read, as
#: argparse writes them (its ``%`` placeholders kept), so that ``make messages`` puts them in
#: the catalogue. argparse's other messages are mistakes in a program's parser, never shown
#: to the person running it. ``tests/test_cli_languages.py`` finds any message argparse
#: writes that is missing here.
ARGPARSE_MESSAGES: Final = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_('argument "-" with mode %r'),
    N_("can't open '%(filename)s': %(error)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"),
)


def speak_argparse() -> None:
    """Make argparse write its headings and errors in the current language.

    argparse looks each of its messages up with the names ``_`` and ``ngettext`` of its
    module, which are gettext's global functions (the process's locale, not the language
    chosen for this run); they are pointed at :mod:`binscrabble.i18n`'s, which read our
    catalogues in the current language. In English, as for any other program in the same
    process, they give every message exactly as argparse wrote it.
    """
    argparse._ = i18n._  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]


def one_line(text: str) -> str:
    """``text`` with its line breaks and runs of ordinary spaces made one space; a
    non-breaking space (U+00A0, U+202F), which ``str.split`` would take for any other, is
    kept."""
    return re.sub(r"[ \t\n\r]+", " ", text).strip(" \t\n\r")


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, its lines broken at spaces only: never inside a file name
    (``binscrabble-game.bsr``) or an option (``--allow-undo``), which a translation may
    bring to the end of a line, nor at a translation's non-breaking space (U+00A0 before a
    French colon), which stays as it is."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(one_line(text), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(
            textwrap.wrap(
                one_line(text),
                width,
                initial_indent=indent,
                subsequent_indent=indent,
                break_on_hyphens=False,
            )
        )


class RawDescriptionHelpFormatter(argparse.RawDescriptionHelpFormatter, HelpFormatter):
    """:class:`HelpFormatter` with the description and epilog kept as written (examples)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors quote what was typed briefly and harmlessly.

    Subcommands' parsers are of the same class (argparse makes them with the class of the
    parser that holds them), and their help is laid out by :class:`HelpFormatter`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            named = ", ".join(quoted(extra, QUOTED) for extra in extras[:NAMED])
            if len(extras) > NAMED:
                more = len(extras) - NAMED
                named = ngettext(
                    "{arguments} and {count} more", "{arguments} and {count} more", more
                ).format(arguments=named, count=f"{more:,}")
            self.error(_("unrecognized arguments: {arguments}").format(arguments=named))
        return parsed

    def error(self, message: str) -> NoReturn:
        super().error(clean_message(message))


def whole_number(text: str) -> int:
    """A whole number option's value: decimal digits, at most :data:`MAX_DIGITS` of them."""
    written = text.strip()
    if not _WHOLE.fullmatch(written):
        raise argparse.ArgumentTypeError(
            _("expected a whole number, not {text}").format(text=quoted(text, QUOTED))
        )
    digits = len(written.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise argparse.ArgumentTypeError(
            _("expected a whole number of at most {most} digits, not one of {digits}").format(
                most=MAX_DIGITS, digits=f"{digits:,}"
            )
        )
    return int(written)


def finite_number(text: str) -> float:
    """A decimal option's value: a finite number (not nan, not infinite)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected a number, not {text}").format(text=quoted(text, QUOTED))
        ) from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(
            _("expected a finite number, not {text}").format(text=quoted(text, QUOTED))
        )
    return value


def language_option(parser: argparse.ArgumentParser, default: object) -> None:
    """Add ``--lang`` to ``parser``: the language of the sentences a player reads (checked
    by :func:`binscrabble.cli.main`, which says what is wrong as every command error)."""
    parser.add_argument(
        "--lang",
        default=default,
        metavar="|".join(i18n.LANGUAGES),
        help=_("the language of the messages (default: the locale's, else English)"),
    )
