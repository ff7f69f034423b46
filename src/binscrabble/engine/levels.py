"""Named computer players: the strategies and the five levels, from one name.

A player name is a strategy (``random``, ``greedy``, ``equity``, ``simulation``) or a level
(``beginner``, ``easy``, ``medium``, ``hard``, ``max``), optionally prefixed ``cpu:`` (as the
terminal game writes opponents) and, for the players that think, followed by ``@SECONDS``,
their time per move: ``simulation@0.5``.

The levels, weakest first, each shown by self-play to beat the one below it (docs/engine.md,
Strength):

- ``beginner`` sees only plays of at most 5 tiles, and only 40% of those, and takes the
  best-scoring one it sees;
- ``easy`` sees half of the plays of at most 7 tiles and takes the best-scoring one it sees;
- ``medium`` sees half of all the plays and takes the best-scoring one it sees;
- ``hard`` is the equity player (score plus the value of the tiles kept; sees everything);
- ``max`` simulates (up to) the 6 best equity moves two plies ahead (the opponent's reply and
  its own answer, which may be an exchange) for the chance of winning, for about 0.5 s per
  move (with 1 to 9 tiles in the bag it plays each look-ahead on to the end of the game):
  ``SimulationPlayer()`` as it comes.

The ``simulation`` strategy is the same player with 1.5 s per move by default.

>>> player_from_name("greedy").name
'greedy'
>>> player_from_name("cpu:medium").name
'medium'
>>> parse_player_name("simulation@0.5")
('simulation', 0.5)
>>> parse_player_name("grandmaster")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
binscrabble.engine.levels.PlayerNameError: unknown player 'grandmaster': choose a level ...
"""

from __future__ import annotations

import math
from typing import Final

from binscrabble.engine.descriptions import LEVELS as LEVELS
from binscrabble.engine.descriptions import STRATEGIES as STRATEGIES
from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.players import (
    EquityPlayer,
    GreedyPlayer,
    Player,
    RandomPlayer,
    SamplingPlayer,
)
from binscrabble.engine.simulation import DEFAULT_BUDGET, SimulationPlayer
from binscrabble.i18n import _
from binscrabble.limits import quoted

#: Names whose players think for a while, and so take a time budget (``@SECONDS``).
THINKING: Final = frozenset({"simulation", "max"})
#: The time per move of ``max`` when its name gives none, in seconds: the budget at which
#: self-play showed it beats ``hard``.
MAX_LEVEL_BUDGET: Final = DEFAULT_BUDGET
#: The time per move of the ``simulation`` strategy when its name gives none, in seconds.
SIMULATION_BUDGET: Final = 1.5
#: The longest time per move a name may ask for, in seconds.
MAX_BUDGET: Final = 600.0


class PlayerNameError(ValueError):
    """A player name that names no player, or a budget that does not fit it."""


def parse_player_name(text: str) -> tuple[str, float | None]:
    """Split a player name into the player and its time budget (``None``: its default).

    Raises :class:`PlayerNameError` with the allowed names.
    """
    name = text.strip().lower().removeprefix("cpu:")
    name, at, seconds_text = name.partition("@")
    if name not in LEVELS and name not in STRATEGIES:
        raise PlayerNameError(
            _(
                "unknown player {name}: choose a level ({levels}) or a strategy ({strategies})"
            ).format(
                name=quoted(text.strip()),
                levels=", ".join(LEVELS),
                strategies=", ".join(STRATEGIES),
            )
        )
    if not at:
        return name, None
    if name not in THINKING:
        raise PlayerNameError(
            _(
                "{name} does not think, so it takes no time budget ({given}); only {thinking} do"
            ).format(name=name, given=quoted(text.strip()), thinking=", ".join(sorted(THINKING)))
        )
    try:
        seconds = float(seconds_text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= MAX_BUDGET:
        raise PlayerNameError(
            _(
                "the time budget in {given} must be a number of seconds above 0 and at most {most}"
            ).format(given=quoted(text.strip()), most=f"{MAX_BUDGET:g}")
        )
    return name, seconds


def player_from_name(text: str, seed: int | None = None, table: LeaveTable | None = None) -> Player:
    """The player a name stands for (see the module doc); `seed` seeds its random choices."""
    name, seconds = parse_player_name(text)
    if name == "random":
        return RandomPlayer(seed=seed)
    if name == "greedy":
        return GreedyPlayer()
    if name in ("equity", "hard"):
        return EquityPlayer(table=table, name=name)
    if name == "beginner":
        return SamplingPlayer(seen=0.4, max_tiles=5, seed=seed, name=name)
    if name == "easy":
        return SamplingPlayer(seen=0.5, max_tiles=7, seed=seed, name=name)
    if name == "medium":
        return SamplingPlayer(seen=0.5, seed=seed, name=name)
    default = SIMULATION_BUDGET if name == "simulation" else MAX_LEVEL_BUDGET
    return SimulationPlayer(budget=seconds or default, table=table, seed=seed, name=name)
