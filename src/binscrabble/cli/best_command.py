"""``binscrabble best POSITION.json``: the engine's move in a position, with the runners-up."""

from __future__ import annotations

import argparse
import json

from binscrabble.cli.arguments import whole_number
from binscrabble.cli.common import CliError, check_player_name, load_position_file

EPILOG = """\
The player is a level (beginner, easy, medium, hard, max) or a strategy (random, greedy,
equity, simulation), optionally with a time per move: simulation@3. Equity is the score
plus the value of the tiles kept; a simulating player also shows each move's simulated
value (points ahead after the replies, leaves included).
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "best",
        help="the computer's move in a position, with its score, equity and runners-up",
        description="Show the move a computer player chooses in a position file.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("position", metavar="POSITION.json", help="a position file")
    parser.add_argument(
        "--player", default="max", metavar="LEVEL", help="who chooses (default: max)"
    )
    parser.add_argument(
        "--top", type=whole_number, default=5, metavar="N", help="runners-up to show (default: 5)"
    )
    parser.add_argument(
        "--seed", type=whole_number, default=0, help="seed of the player's sampling"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from binscrabble.engine.analysis import analyze_position

    check_player_name(args.player)
    if args.top < 0:
        raise CliError(f"--top must be 0 or more, not {args.top}")
    game = load_position_file(args.position)
    if game.is_over():
        raise CliError(f"{args.position}: the game is over, there is no move to choose")
    analysis = analyze_position(game, args.player, runners_up=args.top, seed=args.seed)
    if args.json:
        print(json.dumps(analysis.to_dict()))
        return 0
    chosen = analysis.chosen
    print(f"{analysis.player} plays {chosen.notation}   ({analysis.seconds:.1f} s)")
    print(
        f"  score {chosen.score}, keeps {chosen.leave or '-'}, equity {chosen.equity:.1f}", end=""
    )
    print(f", simulated {chosen.simulated:+.1f}" if chosen.simulated is not None else "")
    if analysis.runners_up:
        print("runners-up:")
        width = max(len(evaluation.notation) for evaluation in analysis.runners_up)
        for rank, evaluation in enumerate(analysis.runners_up, 2):
            line = (
                f"  {rank:>2}. {evaluation.notation:<{width}}  score {evaluation.score:>3}  "
                f"keeps {evaluation.leave or '-':<9}  equity {evaluation.equity:>6.1f}"
            )
            if evaluation.simulated is not None:
                line += f"  simulated {evaluation.simulated:+6.1f}"
            print(line)
    return 0
