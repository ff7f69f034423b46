"""``binscrabble analyze RECORD``: every turn of a recorded game against the engine's choice."""

from __future__ import annotations

import argparse
import json

from binscrabble.cli.arguments import whole_number
from binscrabble.cli.common import check_player_name, load_record_file

EPILOG = """\
For each turn: the move played, the engine's move, and what the move played gave away in
points and in equity (score plus the value of the tiles kept). The default engine is the
hard level (equity), which is quick; --player max or simulation simulates (slower, stronger).
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="compare every turn of a recorded game with the computer's choice",
        description="Compare every turn of a game record with the move the engine prefers.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("record", metavar="RECORD", help="a game record (.bsr)")
    parser.add_argument(
        "--player", default="hard", metavar="LEVEL", help="the engine (default: hard)"
    )
    parser.add_argument(
        "--seed", type=whole_number, default=0, help="seed of the engine's sampling"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per turn")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from binscrabble.engine.analysis import analyze_game

    check_player_name(args.player)
    game = load_record_file(args.record)
    turns = analyze_game(game, args.player, seed=args.seed)
    if args.json:
        for turn in turns:
            print(json.dumps(turn.to_dict()))
        return 0
    if not turns:
        print("the record holds no turns")
        return 0
    played_width = max(len(turn.played.notation) for turn in turns)
    best_width = max(len(turn.best.notation) for turn in turns)
    name_width = max(len(turn.player) for turn in turns)
    print(
        f"{'turn':>4}  {'player':<{name_width}}  {'played':<{played_width}}  {'score':>5}  "
        f"{'engine':<{best_width}}  {'score':>5}  {'points lost':>11}  {'equity lost':>11}"
    )
    for turn in turns:
        print(
            f"{turn.turn:>4}  {turn.player:<{name_width}}  "
            f"{turn.played.notation:<{played_width}}  {turn.played.score:>5}  "
            f"{turn.best.notation:<{best_width}}  {turn.best.score:>5}  "
            f"{turn.points_lost:>11}  {turn.equity_lost:>11.1f}"
        )
    for seat, name in enumerate(game.players):
        own = [turn for turn in turns if turn.player == name]
        lost = sum(turn.equity_lost for turn in own)
        # A move as good as the engine's (equal equity) counts as agreeing with it.
        agreed = sum(1 for turn in own if turn.equity_lost < 0.05)
        print(
            f"{name}: {agreed} of {len(own)} turns as good as the engine's, {lost:.1f} equity "
            f"given away in all (final score {game.scores[seat]})"
        )
    return 0
