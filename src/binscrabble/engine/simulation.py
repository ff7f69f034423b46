"""The simulating player: Monte-Carlo look-ahead over the best equity candidates.

While the bag holds tiles, :class:`SimulationPlayer` takes the top candidates of the equity
player and plays each of them out a turn or two in many imagined continuations:

1. An *iteration* deals the unseen tiles (the tiles neither on the board nor on our rack)
   at random: the opponent's rack first, then the order of the bag. It never looks at the
   opponent's real rack or at the real bag: it sees what its seat sees. A blank dealt to
   the opponent is swapped into the bag (:func:`blanks_to_the_bag`): its plays cost too
   much to find for the little they change between candidates.
2. Every candidate is played in that same deal (*common random numbers*: candidates are
   compared on identical luck, so the differences between them are not noise of the deal).
   The opponent replies with its best equity move; with ``plies=2`` we answer once more,
   also by equity (with 3 or 4, both sides go on for one more move each).
3. A candidate's value in the iteration is the points we scored minus the points the
   opponent scored, plus the value of the tiles each side keeps at the end of the rollout
   (the last move's equity). When the game ends inside the rollout, the final spread counts.

Iterations go on until the time budget is spent or ``max_iterations`` are done, whichever
comes first. The budget is thinking time: CPU seconds of the thinking thread, so that a
budget buys the same search on a busy machine, but never more than three times the budget in
wall-clock time. When the time cannot give every candidate a few iterations, only the best
are simulated (MIN_ITERATIONS, :meth:`SimulationPlayer._narrow`), and candidates clearly
behind the leader are dropped on the way, so the time goes to those still in contention.
The best mean wins; ties go to the better equity.

Once the bag is empty there is nothing left to sample: the opponent's rack is exactly the
unseen tiles. The player then searches the endgame instead: with few tiles left, exactly
(:func:`solve_endgame`: every move of both sides to the end, alpha-beta with a
transposition table); otherwise, or when
that does not finish in half the budget, each candidate is followed by the opponent's best
replies and both sides play on greedily to the end (:func:`endgame_value`).

>>> player = SimulationPlayer(budget=0.1, candidates=3, max_iterations=2, seed=1)
>>> game = Game(("A", "B"), seed=5)
>>> game.is_legal(player.choose(game))
True
>>> player.last_report.iterations <= 2
True
"""

from __future__ import annotations

import functools
import heapq
import json
import math
import random
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources

from binscrabble.board import SIZE, Tile
from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.players import (
    Candidate,
    EquityEvaluator,
    can_exchange,
    candidate_order,
    distinct_subsets,
    fallback_move,
    leave_after,
    ranked_candidates,
    used_codes,
)
from binscrabble.game import Game
from binscrabble.move import Exchange, Move, Pass, Place
from binscrabble.movegen import (
    GeneratedMove,
    best_moves,
    best_placements,
    generate_moves,
    sort_key,
)
from binscrabble.rules import BLANK

#: Default thinking time per move, in seconds.
DEFAULT_BUDGET = 1.5
#: Iterations before a candidate may be dropped for being behind.
PRUNE_AFTER = 6
#: How many standard errors behind the leader a candidate is dropped.
PRUNE_MARGIN = 3.0
#: Fewer iterations than this for every candidate resolve little: when the time left cannot
#: give them, the weakest candidates are dropped (down to two).
MIN_ITERATIONS = 4
#: Endgames with at most this many tiles on the two racks are searched exactly (with half
#: the budget; the play-outs get what is left when the search does not finish). 14 since
#: the fifteenth session: at 0.5 s the search finished on 81 of 207 positions with 11-14
#: tiles and gained 0.5 points of final spread a decision; with 15 or more it finished on
#: none of 44 in a quarter second.
EXACT_TILES = 14
#: How many equity candidates the endgame play-outs consider (when it is not solved exactly).
ENDGAME_CANDIDATES = 16
#: How many of the opponent's best replies each round of the endgame play-outs tries.
ENDGAME_REPLY_WIDTHS = (4, 8)
#: Candidates this many points of equity behind the best are not simulated at all: a
#: one-move look-ahead seldom makes up that much, and every candidate dropped gives the
#: others more iterations.
EQUITY_GAP = 10.0
#: Rollout replies are chosen among this many best-scoring placements (a fast top-N
#: generation, not all the moves), plus pass.
REPLY_WIDTH = 8
#: How many of the replying seat's best placements on the board before our move a deal
#: finds once and shares among its candidates (:class:`DealReplies`): more than
#: REPLY_WIDTH, since a candidate spoils the base plays near its own tiles.
SHARED_WIDTH = 48
#: With a blank on our rack, the candidates come from this many best-scoring plays with the
#: blank and as many without it (:func:`candidate_placements`).
BLANK_CANDIDATE_WIDTH = 64
#: How many iterations' worth of weight the equity estimate keeps in a candidate's value:
#: with few iterations the simulated means are mostly noise of the deals, so they only
#: nudge the equity order; with many they decide.
PRIOR_ITERATIONS = 4
#: A decision never takes more than this many times its budget in wall-clock time.
WALL_FACTOR = 3.0
#: The win-chance objective (``objective="win"``, :class:`WinChance`) models the spread still
#: to come after a rollout's horizon as normal, with a standard deviation of
#: REMAINING_SPREAD_BASE plus REMAINING_SPREAD_PER_TILE points per tile in the bag there,
#: and a mean of MOVER_EDGE points for the seat to move. Fitted on 79 equity self-play games
#: (seeds 90000-90078; 1,900 positions): the standard deviation of the final spread minus the
#: spread at a turn is 137 points with the bag at 80-89 tiles, 74 at 30-39, 59 at 10-19, 41 at
#: 1-4; the seat to move gains 17-40 points of it on average (it has the next move).
REMAINING_SPREAD_BASE = 38.0
#: See REMAINING_SPREAD_BASE.
REMAINING_SPREAD_PER_TILE = 1.15
#: See REMAINING_SPREAD_BASE.
MOVER_EDGE = 25.0
#: With the bag empty, the spread still to come depends on the tiles left on the racks
#: (`k` in all): its standard deviation was 2 points with at most 3 tiles, 7 with 7-9, 12
#: with 10-12, 24 with 13-15 and 44 with 16-18 in the same games (many such positions are
#: blocked boards, where both sides can only pass): about EMPTY_BAG_SPREAD times k squared,
#: at least MIN_REMAINING_SPREAD; the seat to move's edge is about two thirds of it
#: (EDGE_PER_DEVIATION), at most MOVER_EDGE.
EMPTY_BAG_SPREAD = 0.12
#: See EMPTY_BAG_SPREAD.
MIN_REMAINING_SPREAD = 2.0
#: See EMPTY_BAG_SPREAD.
EDGE_PER_DEVIATION = 2 / 3
#: A rollout played to the end (``late_bag``) stops after this many moves at most (a game
#: ends after six scoreless turns in a row anyway).
TO_END_PLIES = 60
#: The objectives a simulation can maximise: the mean spread, the chance of winning, or
#: ``late-win``: the mean spread, except in decisions whose rollouts play to the end of the
#: game (``late_bag``), which count wins, draws and losses.
OBJECTIVES = ("spread", "win", "late-win")
#: How many moves a rollout may play after the candidate: the opponent's reply (1), our
#: answer (2), and once more each (3, 4).
PLIES = (1, 2, 3, 4)


@dataclass(frozen=True, slots=True)
class WinChance:
    """The chance of winning after a rollout, on a scale of points: the objective ``win``.

    A rollout ends `value` points better off than the decision started (our points minus the
    opponent's, plus the leaves), `spread` being our lead then. The rest of the game is
    modelled as normal noise (REMAINING_SPREAD_BASE): its standard deviation `deviation`
    shrinks as the bag empties, and the seat to move at the horizon has an edge of
    MOVER_EDGE: the opponent after our answer (two plies), we after its reply (one ply,
    `ours_to_move`). The chance is multiplied by `scale` (the decision's
    deviation times the square root of 2 pi), so that in an even game one point of spread
    is worth about one unit: far ahead or far behind, points count for less, and the
    objective prefers safe moves when ahead and risky ones when behind, as the chance of
    winning does. When the rollout ends the game, its final result counts (deviation 0).

    >>> chance = WinChance(spread=0.0, scale=1.0)
    >>> chance.utility(MOVER_EDGE, 50.0)
    0.5
    >>> round(chance.utility(MOVER_EDGE + 50.0, 50.0), 3)  # a standard deviation ahead
    0.841
    >>> chance.utility(-1.0, 0.0), chance.utility(0.0, 0.0), chance.utility(2.0, 0.0)
    (0.0, 0.5, 1.0)
    """

    spread: float
    scale: float
    #: Whether our seat is to move at the rollout's horizon (an odd number of plies: the
    #: edge of the seat to move is then ours).
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


@dataclass(slots=True)
class CandidateStatistics:
    """The simulated values of one candidate, one per iteration it took part in."""

    candidate: Candidate
    values: list[float] = field(default_factory=list)
    active: bool = True
    #: Set when the candidate got no simulated value: its equity plus the mean change the
    #: simulation made to the others' equity.
    imputed: float | None = None
    #: Set once the simulation is over: the equity on the scale of the simulated values,
    #: which :attr:`mean` counts as PRIOR_ITERATIONS values of its own (see `_settle`).
    prior: float | None = None
    #: With the objective ``win``: for each value, the standard deviation of the spread
    #: still to come at the rollout's horizon (0 when the game ended in it).
    deviations: list[float] = field(default_factory=list)
    #: With the objective ``win``: what turns a value into the chance of winning.
    chance: WinChance | None = None

    def add(self, value: float, deviation: float = 0.0) -> None:
        """Count one more simulated value (and, for the objective ``win``, the deviation
        still to come at its horizon)."""
        self.values.append(value)
        self.deviations.append(deviation)

    @property
    def count(self) -> int:
        """How many simulated values there are."""
        return len(self.values)

    @property
    def mean(self) -> float:
        """The mean simulated value (the imputed one, or the equity, when there is none).

        Once the simulation has settled, the mean is pulled towards the candidate's equity
        (:attr:`prior`), as much as PRIOR_ITERATIONS simulated values would. With the
        objective ``win`` (:attr:`chance`), the settled mean is the mean chance of winning
        (on its scale of points) instead, pulled the same way towards the chance the rollouts
        would give if their mean were the prior (each value shifted by the difference: the
        spread of the values, which the chance depends on, stays the candidate's own).
        """
        if self.values:
            if self.prior is not None and self.chance is not None:
                utility = self.chance.utility
                pairs = list(zip(self.values, self.deviations, strict=True))
                shift = self.prior - self.raw_mean
                total = sum(utility(value, deviation) for value, deviation in pairs)
                prior = sum(utility(value + shift, deviation) for value, deviation in pairs)
                prior /= len(pairs)
                return (total + PRIOR_ITERATIONS * prior) / (len(pairs) + PRIOR_ITERATIONS)
            total, count = sum(self.values), len(self.values)
            if self.prior is not None:
                total, count = total + PRIOR_ITERATIONS * self.prior, count + PRIOR_ITERATIONS
            return total / count
        return self.imputed if self.imputed is not None else self.candidate.equity

    @property
    def raw_mean(self) -> float:
        """The plain mean of the simulated values (NaN when there are none)."""
        return sum(self.values) / len(self.values) if self.values else math.nan

    @property
    def standard_error(self) -> float:
        """The standard error of the mean (infinite below two values)."""
        count = len(self.values)
        if count < 2:
            return math.inf
        mean = self.raw_mean
        variance = sum((value - mean) ** 2 for value in self.values) / (count - 1)
        return math.sqrt(variance / count)


@dataclass(slots=True)
class SimulationReport:
    """What the last :meth:`SimulationPlayer.choose` did, for analysis and tests."""

    iterations: int = 0
    rollouts: int = 0
    candidates: list[CandidateStatistics] = field(default_factory=list)
    endgame: bool = False
    #: Whether the endgame was searched exactly (to the end, every move, both sides).
    exact: bool = False
    seconds: float = 0.0
    #: Rollouts whose reply needed the full move generation (see :class:`DealReplies`).
    full_replies: int = 0

    @property
    def rollouts_per_second(self) -> float:
        """Rollouts done per second of the decision (0 when it took no time)."""
        return self.rollouts / self.seconds if self.seconds > 0 else 0.0


@dataclass(slots=True)
class _Costs:
    """Running estimates of what the parts of an iteration cost, in thinking seconds.

    An iteration over few candidates plays each reply with its own full generation; over
    more it first makes the deal's shared generation (:meth:`DealReplies.prepare`, about as
    dear as a full one) and then finds each reply near the candidate's tiles, which costs
    about half as much: whichever is expected to cost less.
    """

    #: A rollout whose reply is generated in full.
    full: float
    #: The deal's shared generation.
    shared: float
    #: A rollout whose reply comes from the shared generation and a search near the candidate.
    near: float
    counts: list[int] = field(default_factory=lambda: [0, 0, 0])

    def sharing(self, candidates: int) -> bool:
        """Whether an iteration over `candidates` candidates is cheaper sharing its replies'
        work (from about three candidates on)."""
        return self.shared + candidates * self.near < candidates * self.full

    def iteration(self, candidates: int) -> float:
        """The expected time of an iteration over `candidates` candidates."""
        return min(candidates * self.full, self.shared + candidates * self.near)

    def affordable(self, remaining: float, iterations: int) -> int:
        """How many candidates `iterations` iterations can cover in `remaining` seconds."""
        count = 0
        while count < 64 and iterations * self.iteration(count + 1) <= remaining:
            count += 1
        return count

    def add(self, kind: str, seconds: float) -> None:
        """Count a measured time: `kind` is "full", "shared" or "near"."""
        index = ("full", "shared", "near").index(kind)
        self.counts[index] += 1
        value = getattr(self, kind)
        setattr(self, kind, value + (seconds - value) / self.counts[index])


class SimulationPlayer:
    """Monte-Carlo look-ahead over the top `candidates` equity moves (see the module doc).

    `budget` is the default thinking time per move in seconds (CPU time, at most three times that
    on the wall clock: see :meth:`_clock`); `max_iterations` bounds the work
    whatever the time (for reproducible games and tests); `plies` is 1 (the opponent
    replies), 2 (and we answer), 3 or 4 (the opponent and we move once more each; our
    answer in the middle of four is played, see :meth:`_answer`); `objective` is
    ``"spread"`` (the mean value of the rollouts), ``"win"`` (the mean chance of winning
    after them: :class:`WinChance`) or
    ``"late-win"`` (the spread, but the result of the game where the rollouts reach its end:
    ``late_bag``);
    with `rollout_exchanges`, the rollouts' moves (the opponent's reply and our answer) may
    be exchanges, as the equity player's may (:func:`best_exchange`), not only placements
    and pass; with `answer_exchanges`, only our answers may (the last ply counted for its
    equity and not played, so the opponent's replies stay as cheap as before); with
    `opponent_model`, the tiles the opponent kept at its last move are dealt with the
    weights of :func:`opponent_weights` (:func:`deal_kept`) instead of uniformly; with
    `late_bag` (0: off, the default of every level), a decision taken with 1 to `late_bag`
    tiles in the bag plays its rollouts to the end of the game (:meth:`_rollout_to_end`:
    both sides by :func:`rollout_reply`), valued by the final spread, or with the objective
    ``"win"`` by the final result, instead of stopping after `plies` moves on the leaves.
    """

    def __init__(
        self,
        budget: float = DEFAULT_BUDGET,
        candidates: int = 8,
        plies: int = 1,
        max_iterations: int | None = None,
        table: LeaveTable | None = None,
        seed: int | None = None,
        name: str = "simulation",
        objective: str = "spread",
        rollout_exchanges: bool = False,
        answer_exchanges: bool = False,
        opponent_model: bool = False,
        late_bag: int = 0,
    ) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
        if candidates < 1:
            raise ValueError(f"candidates must be at least 1, not {candidates}")
        if plies not in PLIES:
            raise ValueError(f"plies must be one of {', '.join(map(str, PLIES))}, not {plies}")
        if budget < 0:
            raise ValueError(f"the time budget cannot be negative ({budget})")
        self.name = name
        self.budget = budget
        self.candidate_count = candidates
        self.plies = plies
        self.objective = objective
        self.rollout_exchanges = rollout_exchanges
        self.answer_exchanges = answer_exchanges or rollout_exchanges
        self.opponent_model = opponent_model
        self.late_bag = late_bag
        #: Whether the rollouts of the current decision play to the end of the game.
        self._to_end = False
        self.max_iterations = max_iterations
        self.table = table if table is not None else LeaveTable.default()
        self.random = random.Random(seed)
        self.last_report = SimulationReport()
        self._cpu_start = self._wall_start = 0.0

    def choose(self, game: Game, budget: float | None = None) -> Move:
        started = time.perf_counter()
        self._cpu_start, self._wall_start = time.thread_time(), started
        # The deadline is on the thinking clock (see _clock), which starts at 0.
        deadline = self.budget if budget is None else max(0.0, budget)
        self.last_report = SimulationReport()
        if game.bag_size == 0:
            move = self._endgame(game, generate_moves(game), deadline)
        else:
            moves, best_first = candidate_placements(game)
            # A rollout costs about one move generation: the first estimate of its time. But
            # not more than a tenth of the budget: finding our own moves can cost far more
            # than a reply (a blank on our rack; the opponent never holds one in a rollout),
            # and an estimate that high would forbid every rollout.
            generation = min(self._clock(), deadline / 10)
            move = self._simulate(game, moves, best_first, deadline, generation)
        self.last_report.seconds = time.perf_counter() - started
        return move

    def _clock(self) -> float:
        """Seconds of thinking so far: the CPU time of this thread since the decision began,
        or the wall-clock time over WALL_FACTOR, whichever is more.

        CPU time makes a budget buy the same search whatever else the machine is doing (so
        matches on a busy machine measure the player, not the load); the wall-clock bound
        keeps a move from taking more than WALL_FACTOR times its budget when the machine is
        very busy.
        """
        return max(
            time.thread_time() - self._cpu_start,
            (time.perf_counter() - self._wall_start) / WALL_FACTOR,
        )

    # -- with tiles in the bag: sampling ------------------------------------------------------

    def _simulate(
        self,
        game: Game,
        moves: list[GeneratedMove],
        best_first: bool,
        deadline: float,
        generation_seconds: float,
    ) -> Move:
        # Twins (the same tiles on the same squares in another order) count once: comparing
        # them would spend the rollouts on nothing.
        top = ranked_candidates(
            game,
            self.table,
            moves,
            limit=self.candidate_count,
            best_first=best_first,
            distinct=True,
        )
        top = [candidate for candidate in top if candidate.equity >= top[0].equity - EQUITY_GAP]
        seat = game.to_move
        chance = None
        # A small bag (late_bag): the rollouts play to the end, for the final result.
        self._to_end = 0 < game.bag_size <= self.late_bag
        if self.objective == "win" or (self.objective == "late-win" and self._to_end):
            chance = WinChance.for_decision(_spread(game.scores, seat), game.bag_size, self.plies)
        statistics = [CandidateStatistics(candidate, chance=chance) for candidate in top]
        self.last_report.candidates = statistics
        if len(top) == 1:
            return top[0].move
        unseen = list(game.unseen(seat))
        dealt = sum(len(rack) for other, rack in enumerate(game.racks) if other != seat)
        kept = opponent_kept(game, seat) if self.opponent_model else 0
        weights = opponent_weights() if kept else {}
        # What an iteration costs (see _Costs); the first estimates come from the time the
        # candidates took to find, and then follow the measured means.
        costs = _Costs(
            full=generation_seconds, shared=generation_seconds, near=generation_seconds / 2
        )
        iterations = 0
        out_of_time = False
        self._narrow(statistics, 0, deadline - self._clock(), costs)
        while not out_of_time and (self.max_iterations is None or iterations < self.max_iterations):
            # An iteration is only worth starting if it can likely finish: the values of an
            # unfinished one are dropped.
            active = sum(entry.active for entry in statistics)
            if iterations and self._clock() + costs.iteration(active) >= deadline:
                break
            if kept:
                deal = blanks_to_the_bag(list(deal_kept(unseen, kept, weights, self.random)), dealt)
            else:
                self.random.shuffle(unseen)
                deal = blanks_to_the_bag(unseen, dealt)
            world = imagined_game(game, seat, deal, seed=self.random.getrandbits(32))
            replies: DealReplies | None = None
            if costs.sharing(active):
                replies = DealReplies(world, self.table)
                now = self._clock()
                if now + costs.shared >= deadline:
                    break
                replies.prepare()
                costs.add("shared", self._clock() - now)
            kind = "full" if replies is None else "near"
            for entry in statistics:
                if not entry.active:
                    continue
                # No rollout that would likely end after the deadline: the budget is kept.
                # If finding the candidates used it all, the equity order stands (_settle).
                now = self._clock()
                if now + (costs.full if replies is None else costs.near) >= deadline:
                    out_of_time = True
                    break
                entry.add(*self._rollout(world, seat, entry.candidate, replies))
                self.last_report.rollouts += 1
                costs.add(kind, self._clock() - now)
            else:
                iterations += 1
                self._prune(statistics, iterations)
                self._narrow(statistics, iterations, deadline - self._clock(), costs)
            if replies is not None:
                self.last_report.full_replies += replies.fallbacks
            if sum(entry.active for entry in statistics) == 1:
                break  # the others are all clearly behind
        self.last_report.iterations = iterations
        _settle(statistics, iterations)
        best = max(statistics, key=lambda entry: (entry.active, entry.mean, entry.candidate.equity))
        return best.candidate.move

    def _narrow(
        self,
        statistics: list[CandidateStatistics],
        iterations: int,
        remaining: float,
        costs: _Costs,
    ) -> None:
        """Drop the weakest candidates when the time left cannot give the others
        MIN_ITERATIONS iterations in all (down to two candidates).

        A few iterations over many candidates resolve nothing (the prior keeps the equity
        order); the same rollouts spent on the two or three best say something about them.
        The weakest is the lowest mean with its prior (the equity counted as PRIOR_ITERATIONS
        values, as in the final choice).
        """
        active = [entry for entry in statistics if entry.active]
        wanted = MIN_ITERATIONS - iterations
        if wanted <= 0 or costs.full <= 0:
            return
        affordable = costs.affordable(remaining, wanted)
        if len(active) <= max(2, affordable):
            return
        if iterations == 0:
            # Nothing simulated yet: the equity order (the candidates come in it).
            for entry in active[max(2, affordable) :]:
                entry.active = False
            return
        changes = [entry.raw_mean - entry.candidate.equity for entry in active]
        change = sum(changes) / len(changes)

        def estimate(entry: CandidateStatistics) -> float:
            total = sum(entry.values[:iterations]) + PRIOR_ITERATIONS * (
                entry.candidate.equity + change
            )
            return total / (iterations + PRIOR_ITERATIONS)

        ranked = sorted(active, key=lambda entry: (-estimate(entry), -entry.candidate.equity))
        for entry in ranked[max(2, affordable) :]:
            entry.active = False

    def _prune(self, statistics: list[CandidateStatistics], iterations: int) -> None:
        """Drop candidates far behind the leader (PRUNE_MARGIN standard errors)."""
        if iterations < PRUNE_AFTER:
            return
        active = [entry for entry in statistics if entry.active]
        leader = max(active, key=lambda entry: entry.mean)
        for entry in active:
            if entry is not leader:
                spread = math.hypot(leader.standard_error, entry.standard_error)
                if leader.mean - entry.mean > PRUNE_MARGIN * spread:
                    entry.active = False

    def _rollout(
        self, world: Game, seat: int, candidate: Candidate, replies: DealReplies | None = None
    ) -> tuple[float, float]:
        """Play `candidate` and the replies in `world`, take them back; the value for `seat`,
        and the standard deviation of the spread still to come at the horizon (0 when the
        game ended; see :class:`WinChance`).

        `replies`, prepared on `world`, finds the first reply with less work.
        """
        if self._to_end:
            return self._rollout_to_end(world, seat, candidate, replies), 0.0
        before = world.scores[:]
        world.push(candidate.move, checked=False)
        pushed = 1
        # The running value: our points minus theirs, plus the leave each side kept at its
        # last move in the rollout (each move's leave replaces its seat's one before).
        value = candidate.equity
        kept = [0.0, candidate.equity - candidate.score]  # theirs, ours
        try:
            for ply in range(self.plies):
                if world.is_over():
                    break
                ours = ply % 2
                if ours:
                    move, played = self._answer(world, final=ply == self.plies - 1)
                else:
                    move = self._reply(world, candidate, replies if ply == 0 else None)
                    played = True
                sign = 1 if ours else -1
                value += sign * (move.equity - kept[ours])
                kept[ours] = move.equity - move.score
                if played:
                    # Played, so that a move that goes out ends the game.
                    world.push(move.move, checked=False)
                    pushed += 1
            if world.is_over():
                return float(_spread(world.scores, seat) - _spread(before, seat)), 0.0
            rack_tiles = sum(len(rack) for rack in world.racks)
            return value, WinChance.deviation(world.bag_size, rack_tiles)
        finally:
            for _ in range(pushed):
                world.pop()

    def _reply(self, world: Game, candidate: Candidate, replies: DealReplies | None) -> Candidate:
        """The opponent's move in a rollout (always played): the first reply comes from
        `replies` when the deal prepared them. With `rollout_exchanges` an exchange that
        beats the placements is made, as the equity player's would be; the board is then
        left as it was for our answer."""
        if replies is not None:
            reply = replies.reply(candidate.move)
        else:
            reply = rollout_reply(world, self.table)
        if self.rollout_exchanges:
            exchange = best_exchange(world, self.table)
            if exchange is not None and candidate_order(exchange) < candidate_order(reply):
                reply = exchange
        return reply

    def _answer(self, world: Game, final: bool) -> tuple[Candidate, bool]:
        """Our move in a rollout, and whether it is to be played in `world`.

        The last ply (`final`) is counted for its equity: with a kept blank it is found with
        each blank standing for a 1 (:func:`answer_with_blanks_as_ones`) and not played, and
        with `answer_exchanges` an exchange competes (a rack left poor is worth what we
        would keep of it, not our best play of it), also not played. An answer before the
        last ply (``plies`` 4) is played: with a kept blank it is found without the blanks
        (``rollout_reply(keep_blanks=True)``: a blank's plays cost too much for a ply in the
        middle), and an exchange that wins is made.
        """
        rack = world.rack()
        if final and BLANK in rack:
            answer, played = answer_with_blanks_as_ones(world, self.table), False
        else:
            answer, played = rollout_reply(world, self.table, keep_blanks=not final), True
        if self.answer_exchanges:
            exchange = best_exchange(world, self.table)
            if exchange is not None and candidate_order(exchange) < candidate_order(answer):
                answer, played = exchange, not final
        return answer, played

    def _rollout_to_end(
        self, world: Game, seat: int, candidate: Candidate, replies: DealReplies | None
    ) -> float:
        """Play `candidate` and then both sides' rollout moves (:func:`rollout_reply`) until
        the game ends; take them back. The value: how much `seat`'s spread changed."""
        start = _spread(world.scores, seat)
        world.push(candidate.move, checked=False)
        pushed = 1
        try:
            while not world.is_over() and pushed < TO_END_PLIES:
                if pushed == 1 and replies is not None:
                    reply = replies.reply(candidate.move)
                else:
                    reply = rollout_reply(world, self.table)
                world.push(reply.move, checked=False)
                pushed += 1
            return float(_spread(world.scores, seat) - start)
        finally:
            for _ in range(pushed):
                world.pop()

    # -- with the bag empty: the endgame -------------------------------------------------------

    def _endgame(self, game: Game, moves: list[GeneratedMove], deadline: float) -> Move:
        self.last_report.endgame = True
        if not moves:
            return fallback_move(game)
        top = ranked_candidates(
            game,
            self.table,
            moves,
            limit=max(self.candidate_count, ENDGAME_CANDIDATES),
            best_first=True,
        )
        seat = game.to_move
        world = imagined_game(game, seat, game.unseen(seat))
        if len(game.racks) == 2 and sum(len(rack) for rack in game.racks) <= EXACT_TILES:
            # Few tiles left: search the whole endgame exactly, with half the time.
            now = self._clock()
            solved = solve_endgame(world, now + max(0.0, deadline - now) / 2, clock=self._clock)
            if solved is not None:
                self.last_report.exact = True
                return solved[0]
        statistics = [CandidateStatistics(candidate) for candidate in top]
        self.last_report.candidates = statistics
        # First a quick greedy play-out for every candidate, then, while time remains, a
        # deeper look at the opponent's replies, best candidates first.
        for entry in statistics:
            if self._clock() >= deadline:
                break
            entry.add(endgame_value(world, seat, entry.candidate.move, replies=1))
            self.last_report.rollouts += 1
        self.last_report.iterations = 1
        evaluated = [entry for entry in statistics if entry.count]
        if not evaluated:
            return top[0].move
        # Each round looks at more of the opponent's replies (its worst case for us counts).
        for width in ENDGAME_REPLY_WIDTHS:
            for entry in sorted(evaluated, key=lambda entry: -entry.mean):
                if self._clock() >= deadline:
                    break
                deeper = endgame_value(world, seat, entry.candidate.move, replies=width)
                entry.values[0] = min(entry.values[0], deeper)
                self.last_report.rollouts += 1
        best = min(evaluated, key=lambda entry: (-entry.mean, -entry.candidate.equity))
        return best.candidate.move


def candidate_placements(game: Game) -> tuple[list[GeneratedMove], bool]:
    """The placements the simulation draws its candidates from, and whether they come best
    score first (:func:`~binscrabble.movegen.sort_key` order).

    Every placement, unless the rack holds a blank: then the BLANK_CANDIDATE_WIDTH
    best-scoring plays with it and as many of the rack without it (the plays that keep the
    blank). All of a blank's plays cost 3 to 10 times as much to find (0.6 s of CPU on
    average on the positions of five equity games, up to 1.2 s: the whole budget of a
    0.5 s simulation) while the two short lists cost 0.18 s and held the equity player's
    move in all 21 positions (and its whole top six in 13).

    >>> from binscrabble.board import Board
    >>> from binscrabble.rules import Rules
    >>> game = Game.from_setup(Rules(), Board(), ["1=1?0", "000"], bag=list("10=" * 4))
    >>> moves, best_first = candidate_placements(game)
    >>> best_first, any(generated.blanks for generated in moves), len(moves) <= 128
    (False, True, True)
    """
    rack = game.rack()
    if BLANK not in rack:
        return generate_moves(game), True
    with_blank = best_moves(game, BLANK_CANDIDATE_WIDTH)
    without = best_placements(
        game.board, rack.replace(BLANK, ""), game.rules, BLANK_CANDIDATE_WIDTH
    )
    return [*with_blank, *without], False


def blanks_to_the_bag(tiles: list[str], dealt: int) -> str:
    """The deal `tiles` with any blank among its first `dealt` swapped for a later non-blank.

    Rollouts give the opponents no blank: finding the plays of a rack that holds a blank
    costs 3 to 10 times as much as for one without, and all candidates meet the same deal,
    so what a blank would add to the replies is mostly common to them all and cancels out
    in the comparison. The blank stays in the bag, where the rollout can still draw it.

    >>> blanks_to_the_bag(list("1?0=1+"), 3)
    '1=0?1+'
    """
    deal = tiles[:]
    later = dealt
    for position in range(min(dealt, len(deal))):
        if deal[position] == BLANK:
            while later < len(deal) and deal[later] == BLANK:
                later += 1
            if later == len(deal):
                break  # nothing but blanks left to swap with
            deal[position], deal[later] = deal[later], deal[position]
            later += 1
    return "".join(deal)


def opponent_kept(game: Game, seat: int) -> int:
    """How many of the opponent's tiles it kept at its last move, as `seat` can tell: its rack
    size now less the tiles that move placed or exchanged (a pass kept them all). Only the
    counts are public, and only they are used. 0 before the opponent has moved, and in games
    of more than two players (whose racks are dealt uniformly).
    """
    if len(game.racks) != 2:
        return 0
    other = 1 - seat
    for turn in reversed(game.history):
        if turn.seat == other:
            move = turn.move
            used = len(move.tiles) if isinstance(move, (Place, Exchange)) else 0
            return max(0, len(game.racks[other]) - used)
    return 0


def deal_kept(
    unseen: Sequence[str], kept: int, weights: Mapping[str, float], rng: random.Random
) -> str:
    """The unseen tiles in dealing order: first `kept` of them drawn one by one with the
    faces' `weights` (without replacement; a face without a weight counts 1), then the rest
    in random order.

    >>> deal_kept("01=", 1, {"=": 1e9}, random.Random(1))[0]
    '='
    >>> sorted(deal_kept("01=", 2, {}, random.Random(1)))
    ['0', '1', '=']
    """
    pool = list(unseen)
    chosen: list[str] = []
    for _ in range(min(kept, len(pool))):
        point = rng.random() * sum(weights.get(face, 1.0) for face in pool)
        index = len(pool) - 1
        for position, face in enumerate(pool):
            point -= weights.get(face, 1.0)
            if point < 0:
                index = position
                break
        chosen.append(pool.pop(index))
    rng.shuffle(pool)
    return "".join(chosen) + "".join(pool)


#: The package data of :func:`opponent_weights` (written by ``scripts/fit_opponent_model.py``).
OPPONENT_FILE = "opponent.json"


@functools.cache
def opponent_weights() -> dict[str, float]:
    """The weight of each face among the tiles an opponent keeps, relative to the tiles
    unseen (fitted on equity self-play by ``scripts/fit_opponent_model.py``; shipped as
    package data)."""
    source = resources.files("binscrabble.engine") / "data" / OPPONENT_FILE
    data = json.loads(source.read_text(encoding="utf-8"))
    return {str(face): float(weight) for face, weight in data["weights"].items()}


def rollout_reply(world: Game, table: LeaveTable, *, keep_blanks: bool = False) -> Candidate:
    """The move a rollout plays for the seat to move of `world`: a quick equity move.

    The best equity among the REPLY_WIDTH best-scoring placements and pass (a top-N
    generation is much cheaper than all the moves, and the best equity is nearly always
    among the best scores). With no placement: the whole rack is exchanged when the bag
    allows, else a pass. (:class:`DealReplies` finds the same move with less work when many
    candidates are played in one deal.)

    With `keep_blanks`, only plays without the rack's blanks are looked at (their leave
    keeps the blanks): a cheap answer for a rack with a blank, but one tile short of a rack
    whose blank was played, so the two-ply simulation answers a kept blank with
    :func:`answer_with_blanks_as_ones` instead.
    """
    rack = world.rack()
    if keep_blanks and BLANK in rack:
        found = best_placements(world.board, rack.replace(BLANK, ""), world.rules, REPLY_WIDTH)
        return _reply_among(world, table, found)
    return _reply_among(world, table, best_moves(world, REPLY_WIDTH))


def best_exchange(world: Game, table: LeaveTable) -> Candidate | None:
    """The best exchange for the seat to move of `world` by equity (the value of the tiles
    kept; ties keep fewer tiles), or ``None`` when the bag is too small for one.

    With ``rollout_exchanges`` (the ``simulation`` strategy) it competes with the rollouts'
    placements, for the opponent's reply and our answer, as it does for the equity player:
    in the rollouts of 23 middle-game decisions (two equity games), it was the better
    equity in 97 of 484 replies and answers, by 13 points on average.

    >>> from binscrabble.board import Board
    >>> from binscrabble.rules import Rules
    >>> table = LeaveTable.default()
    >>> world = Game.from_setup(Rules(), Board(), ["===+-1", "000"], bag=list("10=" * 5))
    >>> best_exchange(world, table).leave
    '1'
    >>> best_exchange(Game.from_setup(Rules(), Board(), ["===+-1", "000"], bag=["1"]), table)
    """
    if not can_exchange(world):
        return None
    rack = world.rack()
    # With a rack's worth of tiles in the bag a leave counts fully (EquityEvaluator's weight
    # is 1), so the best tiles to keep depend only on the rack and the table: they are
    # found once per rack (a rollout's replying rack is the same for every candidate of a
    # deal), which makes the call about three times cheaper.
    cache = _BEST_KEPT.get(table)
    if cache is None or len(cache) > BEST_KEPT_CACHE:
        cache = _BEST_KEPT[table] = {}
    key = "".join(sorted(rack))
    found = cache.get(key)
    if found is None:
        best_kept, best_value = "", -math.inf
        for kept in distinct_subsets(key):
            if len(kept) < len(key):
                value = table.value(kept)
                if value > best_value:
                    best_kept, best_value = kept, value
        found = cache[key] = (best_kept, best_value)
    kept, equity = found
    return Candidate(Exchange(leave_after(rack, kept)), 0, kept, equity)


#: For each leave table, the best strict sub-rack to keep of each rack (:func:`best_exchange`),
#: and its value.
_BEST_KEPT: weakref.WeakKeyDictionary[LeaveTable, dict[str, tuple[str, float]]] = (
    weakref.WeakKeyDictionary()
)
#: :func:`best_exchange` starts its cache afresh beyond this many racks (a few megabytes).
BEST_KEPT_CACHE = 100_000


def answer_with_blanks_as_ones(world: Game, table: LeaveTable) -> Candidate:
    """Our answer in a two-ply rollout when our rack holds a blank: the best equity among
    the REPLY_WIDTH best-scoring plays of the rack with each blank standing for a ``1``
    (the table's most valuable face), and pass.

    Finding the plays of a rack with a blank costs 3 to 10 times as much, and finding them
    without the blank (:func:`rollout_reply` with `keep_blanks`) answers from one tile
    fewer than a rack whose blank was played or exchanged: the rollouts then lean towards
    giving the blank up (one position of an equity game, seed 3 at bag 67, exchanged
    ``00===?``, the blank included, after 2 or 8 iterations). A blank that stands for a 1 is
    a lower bound on what it can do. A play is taken to use the rack's own 1s first (so the
    blanks it does not need stay in its leave); a blank it uses scores as a 1 would (one
    point more than a blank: a small error, on the answer only). The move is for its
    equity, not to be played (its tiles are 1s, not blanks).

    >>> from binscrabble.board import Board
    >>> from binscrabble.rules import Rules
    >>> table = LeaveTable.default()
    >>> world = Game.from_setup(Rules(), Board(), ["1=1?", "000"], bag=list("10=" * 5))
    >>> answer_with_blanks_as_ones(world, table).leave  # 1=1 from the real 1s: blank kept
    '?'
    >>> world = Game.from_setup(Rules(), Board(), ["1=?", "000"], bag=list("10=" * 5))
    >>> answer_with_blanks_as_ones(world, table).leave  # 1=1 needs the blank as a 1
    ''
    """
    rack = world.rack()
    blanks = rack.count(BLANK)
    ones = rack.count("1")
    natural = rack.replace(BLANK, "1")
    evaluator = EquityEvaluator(world, table)
    best = Candidate(Pass(), 0, rack, evaluator.leave_value(rack))
    for generated in best_placements(world.board, natural, world.rules, REPLY_WIDTH):
        used = used_codes(generated)
        leave = leave_after(natural, used)
        kept_blanks = blanks - max(0, used.count("1") - ones)
        if kept_blanks:
            leave = leave.replace("1", BLANK, kept_blanks)
        equity = generated.score + evaluator.leave_value(leave)
        if (equity, generated.score) > (best.equity, best.score):
            best = Candidate(generated.place, generated.score, leave, equity)
    return best


def _reply_among(world: Game, table: LeaveTable, placements: list[GeneratedMove]) -> Candidate:
    """The best equity among `placements` (the seat to move's best scores) and pass."""
    evaluator = EquityEvaluator(world, table)
    rack = evaluator.rack
    if not placements and can_exchange(world):
        return Candidate(Exchange(rack), 0, "", 0.0)
    options = [Candidate(Pass(), 0, rack, evaluator.leave_value(rack))]
    for generated in placements:
        leave = leave_after(rack, used_codes(generated))
        equity = generated.score + evaluator.leave_value(leave)
        options.append(Candidate(generated.place, generated.score, leave, equity))
    # Ties go as in ranked_candidates: better score, then the fixed order of moves.
    return min(options, key=candidate_order)


class DealReplies:
    """The opponent's rollout replies (:func:`rollout_reply`) to every candidate of one deal,
    found with one shared generation and a small one per candidate.

    In one iteration the seat that replies holds the same rack whatever our candidate (it
    was dealt before we draw), so its best placements on the board *before* our move are
    found once (the SHARED_WIDTH best, :meth:`prepare`). A candidate's tiles change only the
    plays near them: a base play that shares no square with the candidate and none of whose
    runs (its main run, the crossing run of each new tile, even one square long) ends right
    beside one of the candidate's squares is still legal after the candidate, with the same
    score, and every play after the candidate that is not such a play has a run through one
    of the candidate's tiles. So the REPLY_WIDTH best replies are the best of the base plays
    the candidate leaves alone and the best plays *touching* the candidate's squares
    (a generation that searches only near them). When fewer than REPLY_WIDTH base plays are
    left alone, the merge is still exact if its last play ranks before the last base play
    found (every base play not found ranks after that); otherwise the full generation is
    made (:attr:`fallbacks` counts them). The result is exactly :func:`rollout_reply`'s.

    >>> from binscrabble.engine.players import ranked_candidates
    >>> game = Game(("A", "B"), seed=3)
    >>> game.push(ranked_candidates(game, LeaveTable.default(), limit=1)[0].move)
    >>> replies = DealReplies(game, LeaveTable.default())
    >>> replies.prepare()
    >>> candidate = ranked_candidates(game, LeaveTable.default(), limit=1)[0]
    >>> game.push(candidate.move)
    >>> replies.reply(candidate.move) == rollout_reply(game, LeaveTable.default())
    True
    """

    def __init__(self, world: Game, table: LeaveTable, width: int | None = None) -> None:
        #: The imagined game, with our seat to move; candidates are pushed and popped on it.
        self.world = world
        self.table = table
        self.width = SHARED_WIDTH if width is None else max(width, REPLY_WIDTH)
        #: The base plays in :func:`~binscrabble.movegen.sort_key` order, each with the
        #: squares a candidate must keep clear of to leave it alone.
        self.base: list[tuple[GeneratedMove, frozenset[int]]] = []
        #: Whether :attr:`base` holds every placement (fewer than :attr:`width` exist).
        self.complete = False
        self.prepared = False
        #: How many replies needed the full generation.
        self.fallbacks = 0

    def prepare(self) -> None:
        """Find the base plays: the replying seat's best placements on the board as it is.

        Call it before any candidate is pushed on :attr:`world`.
        """
        world = self.world
        replier = (world.to_move + 1) % len(world.racks)
        plays = best_placements(world.board, world.rack(replier), world.rules, self.width)
        cells = world.board.cells
        self.base = [(play, _clearance(cells, play)) for play in plays]
        self.complete = len(plays) < self.width or world.board.tile_count == 0
        self.prepared = True

    def near_search(self, squares: frozenset[int]) -> tuple[list[GeneratedMove], int | None]:
        """For a candidate on `squares`: the base plays it leaves alone, in order, and the
        least score a play near it must reach to matter (None: any).

        Only the plays near the candidate that could enter the merge of :meth:`reply` are
        looked for: with REPLY_WIDTH base plays left alone, those scoring at least the last
        of them; else those scoring at least the last base play (a merge that needs any
        lower one is not exact and falls back, with or without it). Same merge, same
        fallbacks: the search near the candidate just starts with that floor.
        """
        kept = [play for play, clearance in self.base if not clearance & squares]
        if self.complete:
            return kept, None
        if len(kept) >= REPLY_WIDTH:
            return kept, kept[REPLY_WIDTH - 1].score
        return kept, self.base[-1][0].score

    def reply(self, move: Move) -> Candidate:
        """The rollout reply in :attr:`world`, where `move` (a candidate) was just pushed."""
        if not self.prepared:
            raise RuntimeError("DealReplies.prepare() must run before the candidates are pushed")
        world = self.world
        if not isinstance(move, Place):
            # The board is as it was: the base plays are the replies.
            placements = [play for play, _ in self.base[:REPLY_WIDTH]]
            if self.complete or len(placements) == REPLY_WIDTH:
                return _reply_among(world, self.table, placements)
            self.fallbacks += 1
            return rollout_reply(world, self.table)
        squares = frozenset(tile.square for tile in move.tiles)
        kept, floor = self.near_search(squares)
        near = best_moves(world, REPLY_WIDTH, touching=squares, min_score=floor)
        merged = heapq.nsmallest(REPLY_WIDTH, [*kept[:REPLY_WIDTH], *near], key=sort_key)
        # The merge is exact when every play it could miss (a base play beyond the ones
        # found) ranks after its last.
        exact = (
            self.complete
            or len(kept) >= REPLY_WIDTH
            or (len(merged) == REPLY_WIDTH and sort_key(merged[-1]) < sort_key(self.base[-1][0]))
        )
        if not exact:
            self.fallbacks += 1
            return rollout_reply(world, self.table)
        return _reply_among(world, self.table, merged)


def _line_bounds(sq: int, step: int) -> tuple[int, int]:
    """The first and last square of the line through `sq` along `step` (1 across, SIZE down)."""
    if step == 1:
        low = sq - sq % SIZE
        return low, low + SIZE - 1
    low = sq % SIZE
    return low, low + SIZE * (SIZE - 1)


def _extent(
    cells: Sequence[Tile | None], first: int, last: int, step: int, new: frozenset[int]
) -> tuple[int, int]:
    """The run from `first` to `last` along `step`, stretched over the occupied squares (and
    the squares in `new`) beyond them: its first and last squares."""
    low, high = _line_bounds(first, step)
    while first - step >= low and (cells[first - step] is not None or first - step in new):
        first -= step
    while last + step <= high and (cells[last + step] is not None or last + step in new):
        last += step
    return first, last


def _runs(cells: Sequence[Tile | None], play: GeneratedMove) -> list[tuple[int, int, int]]:
    """Every run of `play` on the board `cells` (without it) as (first, last, step): the
    main run, then the crossing run of each new tile (one square long when nothing is
    beside it)."""
    new = frozenset(play.squares)
    step = int(play.direction)
    other = SIZE if step == 1 else 1
    runs = [(*_extent(cells, min(new), max(new), step, new), step)]
    runs.extend((*_extent(cells, sq, sq, other, new), other) for sq in play.squares)
    return runs


def _clearance(cells: Sequence[Tile | None], play: GeneratedMove) -> frozenset[int]:
    """The squares a move must keep off for `play` to stay legal, with the same score, after
    it: the play's own squares and the empty squares just beyond each end of its runs."""
    clear = set(play.squares)
    for first, last, step in _runs(cells, play):
        low, high = _line_bounds(first, step)
        if first - step >= low:
            clear.add(first - step)
        if last + step <= high:
            clear.add(last + step)
    return frozenset(clear)


def _settle(statistics: list[CandidateStatistics], iterations: int) -> None:
    """Make the candidates comparable after the time ran out in the middle of an iteration.

    With complete iterations, the values of the unfinished one are dropped: only values from
    the same deals are compared. Each candidate then gets its *prior*: its equity plus the
    mean change the simulation made to the equity of all candidates (so that it is on the
    scale of the simulated values), which its :attr:`~CandidateStatistics.mean` counts as
    PRIOR_ITERATIONS values. With no complete iteration, candidates left without a value
    get that equity plus mean change as their value.
    """
    if iterations > 0:
        for entry in statistics:
            if entry.active:
                del entry.values[iterations:]
                del entry.deviations[iterations:]
        changes = [entry.raw_mean - entry.candidate.equity for entry in statistics if entry.values]
        change = sum(changes) / len(changes)
        for entry in statistics:
            entry.prior = entry.candidate.equity + change
        return
    changes = [entry.mean - entry.candidate.equity for entry in statistics if entry.values]
    if changes:
        change = sum(changes) / len(changes)
        for entry in statistics:
            if not entry.values:
                entry.imputed = entry.candidate.equity + change


def imagined_game(game: Game, seat: int, deal: str, seed: int | None = None) -> Game:
    """A copy of `game` in which the tiles `seat` cannot see are dealt as `deal` says.

    The other seats get as many tiles as they hold now, in seat order, from the start of
    `deal`; the rest is the bag (any order: it is already random). Board, scores, seat to
    move and the count of scoreless turns are those of `game`; `seed` drives the bag's
    shuffles after exchanges.
    """
    racks: list[str] = []
    position = 0
    for other, rack in enumerate(game.racks):
        if other == seat:
            racks.append(rack)
        else:
            racks.append(deal[position : position + len(rack)])
            position += len(rack)
    return Game.from_setup(
        game.rules,
        game.board,
        racks,
        players=game.players,
        scores=game.scores,
        to_move=game.to_move,
        bag=deal[position:],
        scoreless_turns=game.scoreless_turns,
        seed=seed if seed is not None else 0,
    )


def endgame_value(world: Game, seat: int, move: Move, replies: int = 4) -> float:
    """The final spread for `seat` after `move`, once the bag is empty.

    The opponent answers with whichever of its `replies` best-scoring moves (or pass) leaves
    it best off when both sides then play greedily to the end. `world` is left unchanged.
    """
    start = _spread(world.scores, seat)
    world.push(move, checked=False)
    try:
        if world.is_over():
            return float(_spread(world.scores, seat) - start)
        options: list[Move] = [generated.place for generated in best_moves(world, replies)]
        if replies > 1 or not options:
            options.append(Pass())
        worst = math.inf
        for reply in options:
            world.push(reply, checked=False)
            try:
                worst = min(worst, _greedy_to_end(world, seat))
            finally:
                world.pop()
        return worst - start
    finally:
        world.pop()


class _OutOfTime(Exception):
    """The exact endgame search ran out of its time."""


def solve_endgame(
    world: Game, deadline: float, clock: Callable[[], float] = time.perf_counter
) -> tuple[Move, float] | None:
    """The best move for the seat to move of a two-player endgame, searched exactly.

    Every placement and pass of both sides, to the end of the game (going out, or six
    scoreless turns), with alpha-beta pruning and a transposition table; the value is the
    final spread for the seat to move. ``None`` when the search cannot finish before
    `deadline`, a time on `clock` (the wall clock unless told). `world` is left unchanged.

    >>> from binscrabble.board import Board
    >>> from binscrabble.rules import Rules
    >>> world = Game.from_setup(Rules(), Board(), ["1=1", "0"], bag=[])
    >>> move, value = solve_endgame(world, time.perf_counter() + 10)
    >>> move.notation(world.board), value
    ('8F 1=1', 10.0)
    """
    search = _EndgameSearch(world, deadline, clock)
    try:
        value, move = search.negamax(frozenset(), -math.inf, math.inf)
    except _OutOfTime:
        return None
    return (move if move is not None else Pass()), value


#: Kinds of values in the endgame's transposition table (alpha-beta bounds).
_EXACT, _LOWER, _UPPER = 0, 1, 2


class _EndgameSearch:
    """Negamax with alpha-beta over every move of a known endgame.

    Positions reached by different orders of the same plays (and, above all, by passes,
    which change nothing but whose turn it is and the count of scoreless turns) are looked
    up in a table. What is stored is the value *still to come* (the final spread minus the
    spread now), so that positions reached with different scores share it: what remains of
    the game depends only on the board, the racks, the seat to move and the scoreless count.
    The placements of a board and rack are generated once and reused.
    """

    def __init__(self, world: Game, deadline: float, clock: Callable[[], float]) -> None:
        self.world = world
        self.deadline = deadline
        self.clock = clock
        self.table: dict[tuple[object, ...], tuple[float, int, Move | None]] = {}
        self.moves: dict[tuple[object, ...], list[Move]] = {}

    def negamax(
        self, placed: frozenset[object], alpha: float, beta: float
    ) -> tuple[float, Move | None]:
        world = self.world
        now = float(_spread(world.scores, world.to_move))
        if world.is_over():
            return now, None
        racks = tuple("".join(sorted(rack)) for rack in world.racks)
        key = (placed, racks, world.to_move, world.scoreless_turns)
        first: Move | None = None
        entry = self.table.get(key)
        if entry is not None:
            stored, kind, first = entry
            value = stored + now
            if kind == _EXACT:
                return value, first
            if kind == _LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value, first
        if self.clock() >= self.deadline:
            raise _OutOfTime
        original_alpha = alpha
        moves = self._moves(placed, racks[world.to_move])
        if first is not None and first in moves:
            # The best move found before (at a shallower bound) first: it cuts soonest.
            moves = [first, *(move for move in moves if move != first)]
        best, best_move = -math.inf, None
        for move in moves:
            after = placed | frozenset(move.tiles) if isinstance(move, Place) else placed
            world.push(move, checked=False)
            try:
                value = -self.negamax(after, -beta, -alpha)[0]
            finally:
                world.pop()
            if value > best:
                best, best_move = value, move
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        kind = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        self.table[key] = (best - now, kind, best_move)
        return best, best_move

    def _moves(self, placed: frozenset[object], rack: str) -> list[Move]:
        """Every placement (best scores first: good moves early make alpha-beta cut more)
        and pass."""
        key = (placed, rack)
        moves = self.moves.get(key)
        if moves is None:
            moves = [generated.place for generated in generate_moves(self.world)]
            moves.append(Pass())
            self.moves[key] = moves
        return moves


def _greedy_to_end(world: Game, seat: int) -> float:
    """Both sides play their best-scoring move (or pass) until the game ends; the spread."""
    pushed = 0
    try:
        while not world.is_over():
            best = best_moves(world, 1)
            world.push(best[0].place if best else Pass(), checked=False)
            pushed += 1
        return float(_spread(world.scores, seat))
    finally:
        for _ in range(pushed):
            world.pop()


def _spread(scores: list[int], seat: int) -> int:
    """`seat`'s score minus the best other score."""
    return scores[seat] - max(score for other, score in enumerate(scores) if other != seat)


__all__ = [
    "DEFAULT_BUDGET",
    "CandidateStatistics",
    "DealReplies",
    "SimulationPlayer",
    "SimulationReport",
    "answer_with_blanks_as_ones",
    "best_exchange",
    "blanks_to_the_bag",
    "candidate_placements",
    "endgame_value",
    "imagined_game",
    "rollout_reply",
    "solve_endgame",
]
