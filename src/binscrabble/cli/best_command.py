"""``binscrabble best POSITION.json``: the engine's move in a position, with the runners-up."""

from __future__ import annotations

import argparse
import json

from binscrabble.cli.arguments import RawDescriptionHelpFormatter, whole_number
from binscrabble.cli.common import CliError, check_player_name, load_position_file
from binscrabble.engine.descriptions import players_help
from binscrabble.i18n import N_, _

EPILOG = N_(
    """\
The player is a level (beginner, easy, medium, hard, max) or a strategy (random, greedy,
equity, simulation), optionally with a time per move: simulation@3. Equity is the score
plus the value of the tiles kept; a simulating player also shows each move's simulated
value (points ahead after the replies, leaves included).
"""
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "best",
        help=_("the computer's move in a position, with its score, equity and runners-up"),
        description=_("Show the move a computer player chooses in a position file."),
        epilog=_(EPILOG) + "\n" + players_help(),
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument("position", metavar="POSITION.json", help=_("a position file"))
    parser.add_argument(
        "--player", default="max", metavar="LEVEL", help=_("who chooses (default: max)")
    )
    parser.add_argument(
        "--top",
        type=whole_number,
        default=5,
        metavar="N",
        help=_("runners-up to show (default: 5)"),
    )
    parser.add_argument(
        "--seed", type=whole_number, default=0, help=_("seed of the player's sampling")
    )
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from binscrabble.engine.analysis import analyze_position

    check_player_name(args.player)
    if args.top < 0:
        raise CliError(_("--top must be 0 or more, not {top}").format(top=args.top))
    game = load_position_file(args.position)
    if game.is_over():
        raise CliError(
            _("{path}: the game is over, there is no move to choose").format(path=args.position)
        )
    analysis = analyze_position(game, args.player, runners_up=args.top, seed=args.seed)
    if args.json:
        print(json.dumps(analysis.to_dict()))
        return 0
    chosen = analysis.chosen
    print(
        _("{player} plays {move}   ({seconds} s)").format(
            player=analysis.player, move=chosen.notation, seconds=f"{analysis.seconds:.1f}"
        )
    )
    line = _("  score {score}, keeps {leave}, equity {equity}").format(
        score=chosen.score, leave=chosen.leave or "-", equity=f"{chosen.equity:.1f}"
    )
    if chosen.simulated is not None:
        line += _(", simulated {value}").format(value=f"{chosen.simulated:+.1f}")
    print(line)
    if analysis.runners_up:
        print(_("runners-up:"))
        width = max(len(evaluation.notation) for evaluation in analysis.runners_up)
        for rank, evaluation in enumerate(analysis.runners_up, 2):
            line = _("  {rank}. {move}  score {score}  keeps {leave}  equity {equity}").format(
                rank=f"{rank:>2}",
                move=f"{evaluation.notation:<{width}}",
                score=f"{evaluation.score:>3}",
                leave=f"{evaluation.leave or '-':<9}",
                equity=f"{evaluation.equity:>6.1f}",
            )
            if evaluation.simulated is not None:
                line += _("  simulated {value}").format(value=f"{evaluation.simulated:+6.1f}")
            print(line)
    return 0
