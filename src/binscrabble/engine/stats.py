"""Confidence intervals for self-play results.

A match between two players is a series of games scored from the first player's point of
view: 1 for a win, 0.5 for a draw, 0 for a loss. Its win rate is the mean of those scores.

Two 95% intervals are offered:

- :func:`wilson_interval`, the Wilson score interval on the games, with draws counted as
  half a win. It behaves well near 0 and 1 and for small samples, and is what the
  ``selfplay`` table prints.
- :func:`paired_interval`, a normal interval on the means of *pairs* of games (the two games
  of a pair share their draws with the seats swapped). Pairing removes most of the luck of
  the tiles, so this interval is usually narrower; it is printed next to the first.

>>> low, high = wilson_interval(60, 100)
>>> round(low, 3), round(high, 3)
(0.502, 0.691)
>>> wilson_interval(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

#: The two-sided 95% quantile of the standard normal distribution.
Z_95: Final = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of `successes` out of `trials`.

    `successes` may be fractional (a draw counts 0.5). With no trials nothing is known and
    the interval is the whole of [0, 1].

    >>> [round(bound, 4) for bound in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    >>> round(wilson_interval(10, 10)[1], 9)
    1.0
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    proportion = successes / trials
    z_squared = z * z
    denominator = 1 + z_squared / trials
    centre = (proportion + z_squared / (2 * trials)) / denominator
    half_width = (
        z
        * math.sqrt(proportion * (1 - proportion) / trials + z_squared / (4 * trials * trials))
        / denominator
    )
    return (max(0.0, centre - half_width), min(1.0, centre + half_width))


def paired_interval(pair_scores: Sequence[float], z: float = Z_95) -> tuple[float, float]:
    """A normal 95% interval for the mean of per-pair scores (each in [0, 1]).

    Each value is the first player's mean score over the two games of a pair. With fewer
    than two pairs the spread is unknown and the interval is [0, 1].

    >>> [round(bound, 3) for bound in paired_interval([1.0, 0.5, 1.0, 0.5])]
    [0.467, 1.0]
    """
    count = len(pair_scores)
    if count < 2:
        return (0.0, 1.0)
    mean = sum(pair_scores) / count
    variance = sum((score - mean) ** 2 for score in pair_scores) / (count - 1)
    half_width = z * math.sqrt(variance / count)
    return (max(0.0, mean - half_width), min(1.0, mean + half_width))
