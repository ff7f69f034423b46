"""Helpers shared by subcommands: rules options, colors, errors."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

from binscrabble.rules import PRECEDENCES, PRESETS, Rules, RulesError, parse_assignment


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
    print(f"binscrabble: error: {message}", file=sys.stderr)
    return 2


def rules_or_exit(args: argparse.Namespace) -> Rules | int:
    """Rules from the options, or exit status 2 after printing why."""
    try:
        return rules_from_args(args)
    except RulesError as error:
        return usage_error(str(error))


def use_color(stream: TextIO) -> bool:
    """Color only for a terminal, and never when NO_COLOR is set."""
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
