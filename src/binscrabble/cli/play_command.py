"""``binscrabble play``: the terminal game (the work is done in :mod:`binscrabble.terminal`)."""

from __future__ import annotations

import argparse
import io
import sys

from binscrabble.cli.arguments import RawDescriptionHelpFormatter, whole_number
from binscrabble.cli.common import CliError, add_rules_options, rules_from_options, use_color
from binscrabble.engine.descriptions import players_help
from binscrabble.i18n import _
from binscrabble.terminal import (
    DEFAULT_SAVE,
    GameSetupError,
    PlayOptions,
    parse_players,
    run_terminal_game,
)


def epilog() -> str:
    """The text after the options in ``binscrabble play --help``."""
    return (
        _(
            "Players are names separated by commas; cpu:LEVEL makes a seat a computer (levels "
            "beginner,\neasy, medium, hard, max; strategies random, greedy, equity, simulation), "
            "e.g.\n  binscrabble play --players Alice,cpu:medium\nWithout --players the names are "
            "asked (Enter: Player 1 and Player 2).\nThe game is saved after every turn to {save} "
            "(or --save FILE); `quit` or the end\nof input leaves, and --resume FILE continues. In "
            "the game, type help for the commands.\nSee docs/playing.md.\n"
        ).format(save=DEFAULT_SAVE)
        + "\n"
        + players_help()
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play",
        help=_("play a game at the terminal (hot-seat, or against the computer)"),
        description=_("Play Binary Scrabble at the terminal: 2 to 4 players, people or computers."),
        epilog=epilog(),
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--players",
        metavar="A,B,...",
        help=_("2 to 4 players, e.g. Alice,Bob or Alice,cpu:medium"),
    )
    parser.add_argument(
        "--seed", type=whole_number, help=_("shuffle the bag with this seed (replayable)")
    )
    parser.add_argument(
        "--save",
        metavar="FILE",
        help=_("save the game to FILE (default: {save})").format(save=DEFAULT_SAVE),
    )
    parser.add_argument("--resume", metavar="FILE", help=_("continue the game saved in FILE"))
    parser.add_argument(
        "--allow-undo",
        action="store_true",
        help=_("house option: the command undo takes back the last turn"),
    )
    parser.add_argument(
        "--no-confirm",
        action="store_true",
        help=_("play a typed move at once, without showing its score and asking first"),
    )
    add_rules_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.resume is not None:
        fixed = [
            option
            for option, given in (
                ("--players", args.players is not None),
                ("--seed", args.seed is not None),
                ("--preset", args.preset is not None),
                ("--precedence", args.precedence is not None),
                ("--rule", bool(args.rule)),
                ("--rules", args.rules is not None),
            )
            if given
        ]
        if fixed:
            raise CliError(
                _(
                    "{options} cannot change a saved game: --resume keeps its players, rules "
                    "and seed"
                ).format(options=", ".join(fixed))
            )
    rules = rules_from_options(args)
    players = None
    if args.players is not None:
        try:
            players = parse_players(args.players)
        except GameSetupError as error:
            raise CliError(str(error)) from error
    options = PlayOptions(
        players=players,
        rules=rules,
        seed=args.seed,
        save=args.save,
        resume=args.resume,
        allow_undo=args.allow_undo,
        confirm=not args.no_confirm,
    )
    # A terminal that cannot show ▸ or × gets a placeholder rather than a traceback, and a
    # typed byte that is not UTF-8 becomes � (then an unknown symbol) rather than a crash.
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    return run_terminal_game(
        options,
        sys.stdin,
        sys.stdout,
        sys.stderr,
        color=use_color(sys.stdout),
        interactive=interactive,
    )
