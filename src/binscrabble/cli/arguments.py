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
from collections.abc import Sequence
from typing import Final, NoReturn

from binscrabble import i18n
from binscrabble.i18n import _
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


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors quote what was typed briefly and harmlessly.

    Subcommands' parsers are of the same class (argparse makes them with the class of the
    parser that holds them).
    """

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            named = ", ".join(quoted(extra, QUOTED) for extra in extras[:NAMED])
            more = f" and {len(extras) - NAMED:,} more" if len(extras) > NAMED else ""
            self.error(f"unrecognized arguments: {named}{more}")
        return parsed

    def error(self, message: str) -> NoReturn:
        super().error(clean_message(message))


def whole_number(text: str) -> int:
    """A whole number option's value: decimal digits, at most :data:`MAX_DIGITS` of them."""
    written = text.strip()
    if not _WHOLE.fullmatch(written):
        raise argparse.ArgumentTypeError(f"expected a whole number, not {quoted(text, QUOTED)}")
    digits = len(written.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of at most {MAX_DIGITS} digits, not one of {digits:,}"
        )
    return int(written)


def finite_number(text: str) -> float:
    """A decimal option's value: a finite number (not nan, not infinite)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {quoted(text, QUOTED)}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, not {quoted(text, QUOTED)}")
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
