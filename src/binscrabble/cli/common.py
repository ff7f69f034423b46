"""Helpers shared by subcommands: rules options, colors, errors."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from binscrabble.i18n import _
from binscrabble.limits import escape_controls, open_for_writing
from binscrabble.rules import PRECEDENCES, PRESETS, Rules, RulesError, parse_assignment

if TYPE_CHECKING:
    from binscrabble.game import Game


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """The options every command that needs rules takes: preset, precedence, --rule, --rules."""
    group = parser.add_argument_group(_("rules"))
    group.add_argument(
        "--preset", choices=PRESETS, help=_("start from a preset (default: standard)")
    )
    group.add_argument("--precedence", choices=PRECEDENCES, help=_("order of operations"))
    group.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=_("set one house rule, e.g. identity_chains=on (repeatable)"),
    )
    group.add_argument("--rules", metavar="FILE.toml", help=_("read house rules from a TOML file"))


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the options ask for, in order: file, preset, --rule ..., --precedence.

    Raises RulesError with a message naming the rule and the allowed values.
    """
    rules = Rules.from_toml(args.rules) if args.rules else Rules()
    if args.preset:
        rules = Rules.preset(args.preset).with_overrides(rules.differences() if args.rules else {})
    for assignment in args.rule:
        name, value = parse_assignment(assignment)
        rules = rules.override(name, value)
    if args.precedence:
        rules = rules.override("precedence", args.precedence)
    return rules


class CliError(Exception):
    """A failure the command line reports as one sentence and an exit status, no traceback.

    Raised where the failure is found; :func:`binscrabble.cli.main` catches it once, prints
    ``binscrabble: error: <message>`` on standard error and returns :attr:`status`.
    """

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def report_error(error: CliError) -> int:
    """Print `error` on standard error; returns its exit status."""
    # Messages quote what was given (a file's text, a name): never raw control characters.
    line = _("binscrabble: error: {message}").format(message=escape_controls(error.message))
    print(line, file=sys.stderr)
    return error.status


def check_player_name(name: str) -> None:
    """Raise :class:`CliError` saying why when `name` names no computer player."""
    from binscrabble.engine.levels import PlayerNameError, parse_player_name

    try:
        parse_player_name(name)
    except PlayerNameError as error:
        raise CliError(str(error)) from error


def rules_from_options(args: argparse.Namespace) -> Rules:
    """Rules from the options; :class:`CliError` saying why they are not valid."""
    try:
        return rules_from_args(args)
    except RulesError as error:
        raise CliError(str(error)) from error


def use_color(stream: TextIO) -> bool:
    """Color only for a terminal, and never when NO_COLOR is set."""
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _file_problem(path: str, error: OSError, what: str) -> str:
    """A person's sentence for a file that cannot be read (``what``: the sentence for a
    folder, with ``{path}``)."""
    if isinstance(error, FileNotFoundError):
        return _("no such file: {path}").format(path=path)
    if isinstance(error, IsADirectoryError):
        return what.format(path=path)
    return _("cannot read {path}: {problem}").format(path=path, problem=error.strerror or error)


def write_output(path: Path, make: Callable[[], bytes | str]) -> None:
    """Write what ``make`` returns to ``path``; :class:`CliError` saying why it could not be
    made (a picture or printable's :class:`~binscrabble.print.PrintError`) or written."""
    from binscrabble.print import PrintError

    try:
        content = make()
    except PrintError as error:
        raise CliError(str(error)) from error
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        # Opened without waiting: a FIFO no program reads is refused at once.
        with open_for_writing(path) as handle:
            handle.write(data)
    except OSError as error:
        if error.errno == errno.ENXIO:
            raise CliError(
                _("cannot write {path}: it is a FIFO that no program reads").format(path=path)
            ) from error
        raise CliError(
            _("cannot write {path}: {problem}").format(path=path, problem=error.strerror or error)
        ) from error


def load_position_file(path: str) -> Game:
    """The game of a position file; :class:`CliError` saying why it cannot be read."""
    from binscrabble.position import PositionError, load_position

    try:
        return load_position(path)
    except PositionError as error:
        raise CliError(_("{path}: {problem}").format(path=path, problem=error)) from error
    except OSError as error:
        folder = _("{path} is a folder, not a position file")
        raise CliError(_file_problem(path, error, folder)) from error


def load_record_file(path: str) -> Game:
    """The game of a record file; :class:`CliError` saying why it cannot be read."""
    from binscrabble.record import RecordError, read_record_file

    try:
        return read_record_file(path)
    except RecordError as error:
        raise CliError(_("{path}: {problem}").format(path=path, problem=error)) from error
    except OSError as error:
        folder = _("{path} is a folder, not a game record")
        raise CliError(_file_problem(path, error, folder)) from error
