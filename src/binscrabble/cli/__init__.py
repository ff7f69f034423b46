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

from binscrabble import __version__
from binscrabble.cli.arguments import Parser
from binscrabble.cli.common import CliError, report_error

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
    parser = Parser(
        prog="binscrabble",
        description="Binary Scrabble: play, check equations, analyse games.",
    )
    parser.add_argument("--version", action="version", version=f"binscrabble {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        if only is not None and name != only:
            continue
        module_name = f"binscrabble.cli.{name.replace('-', '_')}_command"
        if importlib.util.find_spec(module_name) is None:
            continue
        module = importlib.import_module(module_name)
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 a negative answer, 2 usage)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
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
        return handler(args)
    except CliError as error:
        # Every command's failure found below ends here: one sentence, no traceback.
        return report_error(error)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except MemoryError:
        # Under a memory cap (ulimit, a container) a huge answer ends with a sentence.
        print(
            "binscrabble: error: out of memory: the answer is too large for the memory this "
            "process may use (with `moves`, ask for --top N)",
            file=sys.stderr,
        )
        return 2
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); exit quietly like other Unix tools.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
