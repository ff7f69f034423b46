"""The ``binscrabble`` command: a thin layer that parses arguments and calls the library.

Each subcommand lives in its own module of this package with a ``register(subparsers)``
function that adds its parser and sets ``handler`` to a function taking the parsed
arguments and returning the exit status. A handler that cannot go on raises
:class:`~binscrabble.cli.common.CliError`; :func:`main` prints its sentence and returns its
status.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import io
import sys
from collections.abc import Callable, Sequence
from typing import cast

from binscrabble import __version__, i18n
from binscrabble.cli.arguments import Parser, language_option, speak_argparse
from binscrabble.cli.common import CliError, report_error
from binscrabble.i18n import _

#: Subcommand modules, in the order `binscrabble --help` lists them.
SUBCOMMANDS = (
    "play",
    "check",
    "replay",
    "moves",
    "best",
    "analyze",
    "selfplay",
    "serve",
    "render",
    "print-set",
    "print-rules",
)

Handler = Callable[[argparse.Namespace], int]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with `only` one subcommand (its imports alone: faster)."""
    speak_argparse()
    parser = Parser(
        prog="binscrabble",
        description=_("Binary Scrabble: play, check equations, analyse games."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"binscrabble {__version__}",
        help=_("show the program's version number and exit"),
    )
    language_option(parser, default=None)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        if only is not None and name != only:
            continue
        module_name = f"binscrabble.cli.{name.replace('-', '_')}_command"
        if importlib.util.find_spec(module_name) is None:
            continue
        module = importlib.import_module(module_name)
        module.register(subparsers)
    # Every command takes --lang after its name too (given there, it wins).
    for command_parser in subparsers.choices.values():
        language_option(command_parser, default=argparse.SUPPRESS)
    return parser


def command_first(arguments: list[str]) -> list[str]:
    """The arguments with a global ``--lang`` written before the command moved after it,
    so the command is first (a command's own options are read after its name).

    >>> command_first(["--lang", "fr", "check", "1=1"]), command_first(["--lang=he", "play"])
    (['check', '--lang', 'fr', '1=1'], ['play', '--lang=he'])
    """
    moved: list[str] = []
    rest = list(arguments)
    while rest and rest[0].startswith("--lang"):
        if rest[0] == "--lang" and len(rest) > 1:
            moved += rest[:2]
            rest = rest[2:]
        elif rest[0].startswith("--lang="):
            moved.append(rest.pop(0))
        else:
            break
    if moved and rest and rest[0] in SUBCOMMANDS:
        return [rest[0], *moved, *rest[1:]]
    return arguments


def asked_language(arguments: Sequence[str]) -> str:
    """The language the arguments ask for with ``--lang`` (the last one given), else the
    locale's; an unknown one is left for the parser to refuse."""
    chosen = None
    for index, argument in enumerate(arguments):
        if argument == "--":
            break
        if argument == "--lang" and index + 1 < len(arguments):
            chosen = arguments[index + 1]
        elif argument.startswith("--lang="):
            chosen = argument.partition("=")[2]
    if chosen is not None and chosen.strip().lower() in i18n.LANGUAGES:
        return chosen.strip().lower()
    return i18n.from_environment()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 a negative answer, 2 usage).
    Its messages are in the language of ``--lang`` or the locale, for this run only."""
    arguments = command_first(list(sys.argv[1:] if argv is None else argv))
    # The language is chosen before the arguments are read, so their errors are in it too.
    with i18n.use_language(asked_language(arguments)):
        return run_command(arguments)


def run_command(arguments: list[str]) -> int:
    """Read the arguments and run the command they name (see :func:`main`)."""
    if isinstance(sys.stdout, io.TextIOWrapper):
        # An output that cannot show a character (PYTHONIOENCODING=ascii, the C locale)
        # gets it escaped, as standard error does, rather than a traceback.
        sys.stdout.reconfigure(errors="backslashreplace")
    # A subcommand named first needs only its own module (`binscrabble check` in a loop
    # should not pay for importing the engine and the web server).
    command = arguments[0] if arguments and arguments[0] in SUBCOMMANDS else None
    if command == "check":
        from binscrabble.cli.check_command import expressions_last

        arguments = [command, *expressions_last(arguments[1:])]
    parser = build_parser(command)
    args = parser.parse_args(arguments)
    handler = cast("Handler | None", getattr(args, "handler", None))
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        if getattr(args, "lang", None) is not None:  # checked here: an error as any other
            try:
                i18n.set_language(args.lang)
            except i18n.UnknownLanguage as unknown:
                raise CliError(str(unknown)) from None
        return handler(args)
    except CliError as error:
        # Every command's failure found below ends here: one sentence, no traceback.
        return report_error(error)
    except KeyboardInterrupt:
        print("\n" + _("interrupted"), file=sys.stderr)
        return 130
    except MemoryError:
        # Under a memory cap (ulimit, a container) a huge answer ends with a sentence.
        return report_error(
            CliError(
                _(
                    "out of memory: the answer is too large for the memory this process may "
                    "use (with `moves`, ask for --top N)"
                )
            )
        )
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); exit quietly like other Unix tools.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
