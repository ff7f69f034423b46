"""The chance of winning after a rollout: what the simulation maximises.

A rollout stops a move or two after the candidate, long before the game ends. The spread
still to come is modelled as normal noise around an edge for the seat to move, so a rollout
worth some points becomes a chance of winning: far ahead or far behind, points count for
less, and the simulation prefers safe moves when ahead and risky ones when behind.

The model was fitted on 79 equity self-play games (seeds 90000-90078; 1,900 positions): the
standard deviation of the final spread minus the spread at a turn is 137 points with the bag
at 80-89 tiles, 74 at 30-39, 59 at 10-19, 41 at 1-4; the seat to move gains 17-40 points of
it on average, since it has the next move. With the bag empty it depends on the tiles left
on the racks: 2 points with at most 3 tiles, 7 with 7-9, 12 with 10-12, 24 with 13-15 and
44 with 16-18 (many such positions are blocked boards where both sides can only pass).

>>> chance = WinChance(spread=0.0, scale=1.0)
>>> chance.utility(MOVER_EDGE, 50.0)
0.5
>>> round(chance.utility(MOVER_EDGE + 50.0, 50.0), 3)  # a standard deviation ahead
0.841
>>> chance.utility(-1.0, 0.0), chance.utility(0.0, 0.0), chance.utility(2.0, 0.0)
(0.0, 0.5, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

#: The standard deviation of the spread still to come, with tiles in the bag, is
#: REMAINING_SPREAD_BASE plus REMAINING_SPREAD_PER_TILE points per tile in the bag.
REMAINING_SPREAD_BASE: Final = 38.0
#: See REMAINING_SPREAD_BASE.
REMAINING_SPREAD_PER_TILE: Final = 1.15
#: The mean of the spread still to come for the seat to move, in points.
MOVER_EDGE: Final = 25.0
#: With the bag empty and `k` tiles on the racks, the standard deviation of the spread still
#: to come is about EMPTY_BAG_SPREAD times k squared, at least MIN_REMAINING_SPREAD.
EMPTY_BAG_SPREAD: Final = 0.12
#: See EMPTY_BAG_SPREAD.
MIN_REMAINING_SPREAD: Final = 2.0
#: With the bag empty the edge of the seat to move is about this part of the deviation (at
#: most MOVER_EDGE).
EDGE_PER_DEVIATION: Final = 2 / 3


def score_lead(scores: Sequence[int], seat: int) -> int:
    """`seat`'s score minus the best other score.

    >>> score_lead([30, 42, 12], 0), score_lead([30, 42, 12], 1)
    (-12, 12)
    """
    return scores[seat] - max(score for other, score in enumerate(scores) if other != seat)


@dataclass(frozen=True, slots=True)
class WinChance:
    """The chance of winning after a rollout, on a scale of points.

    A rollout ends `value` points better off than the decision started (our points minus the
    opponent's, plus the leaves), `spread` being our lead when the decision started. The
    rest of the game is normal noise whose standard deviation (:meth:`deviation`) shrinks
    as the bag empties, and the seat to move at the horizon has an edge of MOVER_EDGE: the
    opponent after our answer (two plies), we after its reply (one ply, `ours_to_move`).
    The chance is multiplied by `scale` (the decision's deviation times the square root of
    2 pi), so that in an even game one point of spread is worth about one unit. When the
    rollout ends the game, its final result counts (deviation 0).
    """

    spread: float
    scale: float
    #: Whether our seat is to move at the rollout's horizon (an odd number of plies).
    ours_to_move: bool = False

    @staticmethod
    def deviation(bag: int, rack_tiles: int = 18) -> float:
        """The standard deviation of the spread still to come, with `bag` tiles in the bag
        and `rack_tiles` on the racks (which count only once the bag is empty).

        >>> WinChance.deviation(40), WinChance.deviation(0, 9), WinChance.deviation(0, 2)
        (84.0, 9.72, 2.0)
        """
        if bag > 0:
            return REMAINING_SPREAD_BASE + REMAINING_SPREAD_PER_TILE * bag
        return max(MIN_REMAINING_SPREAD, EMPTY_BAG_SPREAD * rack_tiles * rack_tiles)

    @classmethod
    def for_decision(cls, spread: float, bag: int, plies: int = 2) -> WinChance:
        """The objective of a decision taken with a lead of `spread` and `bag` tiles left,
        whose rollouts play `plies` moves after the candidate."""
        return cls(
            spread=spread,
            scale=cls.deviation(bag) * math.sqrt(2 * math.pi),
            ours_to_move=plies % 2 == 1,
        )

    def utility(self, value: float, deviation: float) -> float:
        """The chance of winning after a rollout worth `value` points, whose horizon leaves
        `deviation` of spread still to come (0: the game is over), times :attr:`scale`."""
        if deviation <= 0:
            final = self.spread + value
            return self.scale * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
        edge = min(MOVER_EDGE, EDGE_PER_DEVIATION * deviation)
        margin = self.spread + value + (edge if self.ours_to_move else -edge)
        return self.scale * 0.5 * (1.0 + math.erf(margin / (deviation * math.sqrt(2.0))))


__all__ = ["MOVER_EDGE", "WinChance", "score_lead"]
