"""``binscrabble moves``: every legal placement on a position, best first (INTERFACES.md §3).

Moves are listed best score first; equal scores in the fixed order of
:func:`binscrabble.movegen.sort_key` (fewer tiles, across before down, top-left first).
With ``--json`` each move is one JSON object on its own line:
``{"notation", "score", "tiles": [{"square", "face", "blank", "rotated"}],
"runs": [{"text", "value", "bonus", "score"}]}``; ``runs`` are the scored runs, the main
run first. Exit status 0, also when there is no legal placement (nothing is printed);
2 for a file that cannot be read or is not a valid position, with the reason.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from binscrabble.board import square_name
from binscrabble.cli.arguments import whole_number
from binscrabble.cli.common import CliError, load_position_file
from binscrabble.game import Game
from binscrabble.i18n import _
from binscrabble.move import move_notation
from binscrabble.movegen import GeneratedMove, best_moves, generate_moves

#: Lines are written in batches of this many: one write call per batch.
_BATCH = 2048


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "moves",
        help=_("list every legal placement on a position, best score first"),
        description=_(
            "List every legal placement of the rack on a position file (INTERFACES.md §2), "
            "best score first; equal scores: fewer tiles, across before down, top-left "
            "first. Exchanges and passes are not listed. Exit status 0 (also when there is "
            "no legal placement), 2 for a bad file."
        ),
    )
    parser.add_argument("position", metavar="POSITION.json", help=_("the position file"))
    parser.add_argument(
        "--top", type=whole_number, metavar="N", help=_("list only the N best placements (N >= 0)")
    )
    parser.add_argument("--json", action="store_true", help=_("one JSON object per move per line"))
    parser.set_defaults(handler=run)


def move_to_json(game: Game, move: GeneratedMove) -> dict[str, Any]:
    """The JSON object of one move (INTERFACES.md §3), its runs from the game's breakdown."""
    place = move.place
    breakdown = game.score_breakdown(place)
    return {
        "notation": move_notation(place, game.board),
        "score": breakdown.total,
        "tiles": [
            {
                "square": square_name(tile.square),
                "face": tile.face,
                "blank": tile.blank,
                "rotated": tile.rotated,
            }
            for tile in place.tiles
        ],
        "runs": [
            {"text": run.text, "value": run.value, "bonus": run.bonus, "score": run.score}
            for run in breakdown.runs
        ],
    }


def run(args: argparse.Namespace) -> int:
    if args.top is not None and args.top < 0:
        raise CliError(_("--top must be 0 or more, not {top}").format(top=args.top))
    game = load_position_file(args.position)
    # With --top the search skips what cannot reach the N best: the whole list is never made.
    moves = generate_moves(game) if args.top is None else best_moves(game, args.top)
    width = len(str(moves[0].score)) if moves else 1
    lines: list[str] = []
    for move in moves:
        if args.json:
            lines.append(json.dumps(move_to_json(game, move), ensure_ascii=False))
        else:
            lines.append(f"{move.score:>{width}}  {move_notation(move.place, game.board)}")
        if len(lines) >= _BATCH:
            sys.stdout.write("\n".join(lines) + "\n")
            lines.clear()
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")
    return 0
