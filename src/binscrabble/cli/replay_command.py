"""``binscrabble replay``: show a recorded game at any turn."""

from __future__ import annotations

import argparse
import io
import sys

from binscrabble.cli.arguments import whole_number
from binscrabble.cli.common import CliError, load_record_file, use_color
from binscrabble.i18n import _, pgettext
from binscrabble.limits import escape_controls
from binscrabble.move import Place
from binscrabble.terminal import (
    face,
    outcome_sentence,
    render_board,
    render_recent,
    render_scores,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help=_("show a recorded game (.bsr) at its end or after any turn"),
        description=_(
            "Replay a game record, checking every move, and show the board and the scores "
            "after turn N (default: the end of the record). Format: docs/record-format.md."
        ),
    )
    parser.add_argument("file", metavar="FILE", help=_("a game record, e.g. binscrabble-game.bsr"))
    parser.add_argument(
        "--turn",
        type=whole_number,
        metavar="N",
        help=_("show the game after its first N turns (0: the empty board; default: the end)"),
    )
    parser.set_defaults(handler=run)


#: How a game ended, as ``Outcome.reason`` writes it, marked for the catalogue (the
#: English is the code itself: ``Game over (out)``).
REASONS = (
    pgettext("how a game ended", "out"),
    pgettext("how a game ended", "scoreless"),
    pgettext("how a game ended", "resigned"),
    pgettext("how a game ended", "time"),
    pgettext("how a game ended", "aborted"),
)


def run(args: argparse.Namespace) -> int:
    game = load_record_file(args.file)
    turns = len(game.history)
    turn = turns if args.turn is None else args.turn
    if not 0 <= turn <= turns:
        raise CliError(
            _("--turn {turn} is out of range: this game has turns 0 to {turns}").format(
                turn=args.turn, turns=turns
            )
        )
    while len(game.history) > turn:
        game.pop()
    # A terminal that cannot show ▸ or × gets a placeholder rather than a traceback.
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")
    color = use_color(sys.stdout)
    last = game.history[-1].move if game.history else None
    squares = last.squares if isinstance(last, Place) else ()
    out = sys.stdout
    # Names are checked when the record is read; escaped here all the same.
    names = [escape_controls(name) for name in game.players]
    if turn == turns:
        title = _("{players}: after turn {turn} of {turns} (the end of the record)")
    else:
        title = _("{players}: after turn {turn} of {turns}")
    players = _(" vs ").join(names)
    out.write(title.format(players=players, turn=turn, turns=turns) + "\n\n")
    out.write(render_board(game.board, color, squares) + "\n\n")
    out.write(render_scores(game) + "\n")
    # Every rack is shown below, so the tiles exchanged are no secret here.
    out.write(render_recent(game, None, show_exchanges=True) + "\n")
    # Tiles by their faces, as on the board, spaced apart: a rack "−1" must not read as a
    # negative number.
    racks = "   ".join(
        f"{name}: {' '.join(face(code) for code in rack) or _('(none)')}"
        for name, rack in zip(names, game.racks, strict=True)
    )
    out.write(_("Racks: {racks}").format(racks=racks) + "\n")
    outcome = game.outcome()
    if outcome is not None:
        adjustments = ", ".join(
            f"{name} {change:+d}" for name, change in zip(names, outcome.adjustments, strict=True)
        )
        line = _("Game over ({reason}); end adjustments: {adjustments}")
        reason = pgettext("how a game ended", outcome.reason)
        out.write(line.format(reason=reason, adjustments=adjustments) + "\n")
        out.write(outcome_sentence(outcome) + "\n")
    else:
        out.write(_("{name} to move.").format(name=names[game.to_move]) + "\n")
    return 0
