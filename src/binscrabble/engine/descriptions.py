"""What each computer player does, in words a person reads: the lobby's menu of levels, the
help of the commands that take a player (``play``, ``best``, ``analyze``, ``selfplay``) and
the terminal game's question for the players. A module of its own, with no import of the
engine, so that building the command line's help does not load the players.

>>> print(players_help(), end="")  # doctest: +ELLIPSIS
Computer levels, weakest first:
  beginner    sees few plays and never long ones; takes the best it sees
...
Strategies:
  random      a random legal play
...
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from binscrabble.i18n import N_, _

#: The levels, weakest first, with a one-line description for menus and help.
LEVELS: Final[Mapping[str, str]] = {
    "beginner": N_("sees few plays and never long ones; takes the best it sees"),
    "easy": N_("sees half of the plays of up to 7 tiles, takes the best-scoring it sees"),
    "medium": N_("sees half of all the plays, takes the best-scoring it sees"),
    "hard": N_("best score plus the value of the tiles kept (equity); sees everything"),
    "max": N_("looks two moves ahead by simulation and plays to win, about 0.5 s a move"),
}
#: The strategies the levels are built from, each with a one-line description.
STRATEGIES: Final[Mapping[str, str]] = {
    "random": N_("a random legal play"),
    "greedy": N_("the highest-scoring play"),
    "equity": N_("score plus the value of the tiles kept; exchanges when that is worth more"),
    "simulation": N_("simulates two plies ahead over the best equity plays, to win; 1.5 s a move"),
}


def players_help() -> str:
    """The levels, then the strategies, one a line with its description, in the current
    language (the names stay as they are typed)."""
    width = max(len(name) for name in (*LEVELS, *STRATEGIES))
    lines = [_("Computer levels, weakest first:")]
    lines.extend(f"  {name:<{width}}  {_(text)}" for name, text in LEVELS.items())
    lines.append(_("Strategies:"))
    lines.extend(f"  {name:<{width}}  {_(text)}" for name, text in STRATEGIES.items())
    return "\n".join(lines) + "\n"
