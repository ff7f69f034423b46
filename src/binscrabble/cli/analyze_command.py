"""``binscrabble analyze RECORD``: every turn of a recorded game against the engine's choice."""

from __future__ import annotations

import argparse
import json

from binscrabble.cli.arguments import RawDescriptionHelpFormatter, whole_number
from binscrabble.cli.common import check_player_name, load_record_file
from binscrabble.engine.descriptions import players_help
from binscrabble.i18n import N_, _, ngettext

EPILOG = N_(
    """\
For each turn: the move played, the engine's move, and what the move played gave away in
points and in equity (score plus the value of the tiles kept). The default engine is the
hard level (equity), which is quick; --player max or simulation simulates (slower, stronger).
"""
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help=_("compare every turn of a recorded game with the computer's choice"),
        description=_("Compare every turn of a game record with the move the engine prefers."),
        epilog=_(EPILOG) + "\n" + players_help(),
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument("record", metavar="RECORD", help=_("a game record (.bsr)"))
    parser.add_argument(
        "--player", default="hard", metavar="LEVEL", help=_("the engine (default: hard)")
    )
    parser.add_argument(
        "--seed", type=whole_number, default=0, help=_("seed of the engine's sampling")
    )
    parser.add_argument("--json", action="store_true", help=_("one JSON object per turn"))
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
        print(_("the record holds no turns"))
        return 0
    # The columns' headings in the reader's language; each column as wide as the longer
    # of its heading and its values.
    headings = [
        _("turn"),
        _("player"),
        _("played"),
        _("score"),
        _("engine"),
        _("score"),
        _("points lost"),
        _("equity lost"),
    ]
    rows = [
        [
            str(turn.turn),
            turn.player,
            turn.played.notation,
            str(turn.played.score),
            turn.best.notation,
            str(turn.best.score),
            str(turn.points_lost),
            f"{turn.equity_lost:.1f}",
        ]
        for turn in turns
    ]
    widths = [max(len(row[column]) for row in [headings, *rows]) for column in range(8)]
    left = {1, 2, 4}  # the name and the moves read from the left, numbers from the right
    for row in [headings, *rows]:
        cells = [
            cell.ljust(width) if column in left else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())
    for seat, name in enumerate(game.players):
        own = [turn for turn in turns if turn.player == name]
        lost = sum(turn.equity_lost for turn in own)
        # A move as good as the engine's (equal equity) counts as agreeing with it.
        agreed = sum(1 for turn in own if turn.equity_lost < 0.05)
        sentence = ngettext(
            "{name}: {agreed} of {count} turn as good as the engine's, {lost} equity given "
            "away in all (final score {score})",
            "{name}: {agreed} of {count} turns as good as the engine's, {lost} equity given "
            "away in all (final score {score})",
            len(own),
        )
        print(
            sentence.format(
                name=name,
                agreed=agreed,
                count=len(own),
                lost=f"{lost:.1f}",
                score=game.scores[seat],
            )
        )
    return 0
