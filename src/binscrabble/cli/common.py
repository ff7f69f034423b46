"""Helpers shared by subcommands: rules options, colors, errors."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from binscrabble.limits import escape_controls, open_for_writing
from binscrabble.rules import PRECEDENCES, PRESETS, Rules, RulesError, parse_assignment

if TYPE_CHECKING:
    from binscrabble.game import Game


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """The options every command that needs rules takes: preset, precedence, --rule, --rules."""
    group = parser.add_argument_group("rules")
    group.add_argument("--preset", choices=PRESETS, help="start from a preset (default: standard)")
    group.add_argument("--precedence", choices=PRECEDENCES, help="order of operations")
    group.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set one house rule, e.g. identity_chains=on (repeatable)",
    )
    group.add_argument("--rules", metavar="FILE.toml", help="read house rules from a TOML file")


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


def usage_error(message: str) -> int:
    """Print a usage error on standard error; returns exit status 2."""
    # Messages quote what was given (a file's text, a name): never raw control characters.
    print(f"binscrabble: error: {escape_controls(message)}", file=sys.stderr)
    return 2


def player_name_error(name: str) -> int | None:
    """Exit status 2 after printing why, when `name` names no computer player; else None."""
    from binscrabble.engine.levels import PlayerNameError, parse_player_name

    try:
        parse_player_name(name)
    except PlayerNameError as error:
        return usage_error(str(error))
    return None


def rules_or_exit(args: argparse.Namespace) -> Rules | int:
    """Rules from the options, or exit status 2 after printing why."""
    try:
        return rules_from_args(args)
    except RulesError as error:
        return usage_error(str(error))


def use_color(stream: TextIO) -> bool:
    """Color only for a terminal, and never when NO_COLOR is set."""
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _file_problem(path: str, error: OSError, what: str) -> str:
    """A person's sentence for a file that cannot be read."""
    if isinstance(error, FileNotFoundError):
        return f"no such file: {path}"
    if isinstance(error, IsADirectoryError):
        return f"{path} is a folder, not {what}"
    return f"cannot read {path}: {error.strerror or error}"


def write_output_or_exit(path: Path, make: Callable[[], bytes | str]) -> int | None:
    """Write what ``make`` returns to ``path``; exit status 2 after printing why it could not
    be made (a picture or printable's :class:`~binscrabble.print.PrintError`) or written."""
    from binscrabble.print import PrintError

    try:
        content = make()
    except PrintError as error:
        return usage_error(str(error))
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        # Opened without waiting: a FIFO no program reads is refused at once.
        with open_for_writing(path) as handle:
            handle.write(data)
    except OSError as error:
        if error.errno == errno.ENXIO:
            return usage_error(f"cannot write {path}: it is a FIFO that no program reads")
        return usage_error(f"cannot write {path}: {error.strerror or error}")
    return None


def load_position_or_exit(path: str) -> Game | int:
    """The game of a position file, or exit status 2 after printing why it cannot be read."""
    from binscrabble.position import PositionError, load_position

    try:
        return load_position(path)
    except PositionError as error:
        return usage_error(f"{path}: {error}")
    except OSError as error:
        return usage_error(_file_problem(path, error, "a position file"))


def load_record_or_exit(path: str) -> Game | int:
    """The game of a record file, or exit status 2 after printing why it cannot be read."""
    from binscrabble.record import RecordError, read_record_file

    try:
        return read_record_file(path)
    except RecordError as error:
        return usage_error(f"{path}: {error}")
    except OSError as error:
        return usage_error(_file_problem(path, error, "a game record"))
