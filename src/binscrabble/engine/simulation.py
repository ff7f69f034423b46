"""The simulating player: Monte-Carlo look-ahead over the best equity candidates.

While the bag holds tiles, :class:`SimulationPlayer` takes the top candidates of the equity
player and plays each of them out in many imagined continuations
(:mod:`binscrabble.engine.rollout`):

1. An *iteration* deals the unseen tiles (the tiles neither on the board nor on our rack)
   at random: the opponent's rack first, then the order of the bag. It never looks at the
   opponent's real rack or at the real bag: it sees what its seat sees.
2. Every candidate is played in that same deal (*common random numbers*: candidates are
   compared on identical luck, so the differences between them are not noise of the deal).
   The opponent replies with its best equity move and we answer once more, by equity too.
   With 1 to LATE_BAG tiles in the bag both sides play on to the end of the game instead.
3. A candidate's value in the iteration is the points we scored minus the points the
   opponent scored, plus the value of the tiles each side keeps (the last move's equity),
   or the final spread when the game ends. What is compared is the mean chance of winning
   those values give (:mod:`binscrabble.engine.winchance`), since games are won, not points.

Iterations go on until the time budget is spent or ``max_iterations`` are done, whichever
comes first. The budget is thinking time: CPU seconds of the thinking thread, so that a
budget buys the same search on a busy machine, but never more than WALL_FACTOR times the
budget in wall-clock time. When the time cannot give every candidate a few iterations,
only the best are simulated (MIN_ITERATIONS), and candidates clearly behind the leader are
dropped on the way, so the time goes to those still in contention. The best mean wins;
ties go to the better equity.

Once the bag is empty the player searches the endgame (:mod:`binscrabble.engine.endgame`):
exactly with few tiles left, otherwise by greedy play-outs after the opponent's best replies.

>>> player = SimulationPlayer(budget=0.1, candidates=3, max_iterations=2, seed=1)
>>> game = Game(("A", "B"), seed=5)
>>> game.is_legal(player.choose(game))
True
>>> player.last_report.iterations <= 2
True
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Final

from binscrabble.engine.endgame import (
    ENDGAME_CANDIDATES,
    ENDGAME_REPLY_WIDTHS,
    EXACT_TILES,
    endgame_value,
    solve_endgame,
)
from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.players import Candidate, fallback_move, ranked_candidates
from binscrabble.engine.rollout import (
    DealReplies,
    Plies,
    blanks_to_the_bag,
    imagined_game,
    rollout_to_end,
    rollout_value,
)
from binscrabble.engine.winchance import WinChance, score_lead
from binscrabble.game import Game
from binscrabble.move import Move
from binscrabble.movegen import GeneratedMove, best_moves, best_placements, generate_moves
from binscrabble.rules import BLANK

#: Thinking time per move, in seconds: the budget at which self-play measured the ``max``
#: level.
DEFAULT_BUDGET: Final = 0.5
#: How many of the best equity moves are simulated.
DEFAULT_CANDIDATES: Final = 6
#: With at most this many tiles in the bag (and at least one) the rollouts play to the end
#: of the game, so the last decisions before the endgame are judged by whole games: +0.76
#: points of final spread a decision, measured on 189 such decisions.
LATE_BAG: Final = 9
#: Iterations before a candidate may be dropped for being behind.
PRUNE_AFTER: Final = 6
#: How many standard errors behind the leader a candidate is dropped.
PRUNE_MARGIN: Final = 3.0
#: Fewer iterations than this for every candidate resolve little: when the time left cannot
#: give them, the weakest candidates are dropped (down to two).
MIN_ITERATIONS: Final = 4
#: Candidates this many points of equity behind the best are not simulated at all: a
#: one-move look-ahead seldom makes up that much, and every candidate dropped gives the
#: others more iterations.
EQUITY_GAP: Final = 10.0
#: With a blank on our rack, the candidates come from this many best-scoring plays with the
#: blank and as many without it (:func:`candidate_placements`).
BLANK_CANDIDATE_WIDTH: Final = 64
#: How many iterations' worth of weight the equity estimate keeps in a candidate's value:
#: with few iterations the simulated means are mostly noise of the deals, so they only
#: nudge the equity order; with many they decide.
PRIOR_ITERATIONS: Final = 4
#: A decision never takes more than this many times its budget in wall-clock time.
WALL_FACTOR: Final = 3.0


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
    #: which :attr:`mean` counts as PRIOR_ITERATIONS values of its own (see :func:`settle`).
    prior: float | None = None
    #: For each value, the standard deviation of the spread still to come at the rollout's
    #: horizon (0 when the game ended in it).
    deviations: list[float] = field(default_factory=list)
    #: What turns a value into the chance of winning (``None``: the values are points, as
    #: in the endgame's play-outs).
    chance: WinChance | None = None

    def add(self, value: float, deviation: float = 0.0) -> None:
        """Count one more simulated value, and the deviation still to come at its horizon."""
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
        (:attr:`prior`), as much as PRIOR_ITERATIONS simulated values would. With a
        :attr:`chance` (every simulated decision has one), the settled mean is the mean
        chance of winning (on its scale of points) instead, pulled the same way towards the
        chance the rollouts would give if their mean were the prior (each value shifted by
        the difference: the spread of the values, which the chance depends on, stays the
        candidate's own).
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
    #: Rollouts whose reply needed the full move generation (see
    #: :class:`~binscrabble.engine.rollout.DealReplies`).
    full_replies: int = 0

    @property
    def rollouts_per_second(self) -> float:
        """Rollouts done per second of the decision (0 when it took no time)."""
        return self.rollouts / self.seconds if self.seconds > 0 else 0.0


@dataclass(slots=True)
class IterationCosts:
    """Running estimates of what the parts of an iteration cost, in thinking seconds.

    An iteration over few candidates plays each reply with its own full generation; over
    more it first makes the deal's shared generation
    (:meth:`~binscrabble.engine.rollout.DealReplies.prepare`, about as dear as a full one)
    and then finds each reply near the candidate's tiles, which costs about half as much:
    whichever is expected to cost less.
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

    The defaults are the ``max`` level. `budget` is the thinking time per move in seconds
    (CPU time, at most WALL_FACTOR times that on the wall clock: see :meth:`_clock`);
    `plies` is 2 (the opponent replies and we answer) or 1 (the opponent replies);
    `max_iterations` bounds the sampling and `endgame_positions` the exact endgame search
    whatever the time, for reproducible decisions and tests.
    """

    def __init__(
        self,
        budget: float = DEFAULT_BUDGET,
        candidates: int = DEFAULT_CANDIDATES,
        plies: Plies = 2,
        max_iterations: int | None = None,
        table: LeaveTable | None = None,
        seed: int | None = None,
        name: str = "simulation",
        endgame_positions: int | None = None,
    ) -> None:
        if candidates < 1:
            raise ValueError(f"candidates must be at least 1, not {candidates}")
        if plies not in (1, 2):
            raise ValueError(f"plies must be 1 or 2, not {plies}")
        if budget < 0:
            raise ValueError(f"the time budget cannot be negative ({budget})")
        self.name = name
        self.budget = budget
        self.candidate_count = candidates
        self.plies: Plies = plies
        self.max_iterations = max_iterations
        self.endgame_positions = endgame_positions
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
        statistics = self._candidates(game, moves, best_first)
        self.last_report.candidates = statistics
        if len(statistics) == 1:
            return statistics[0].candidate.move
        seat = game.to_move
        to_end = 0 < game.bag_size <= LATE_BAG
        unseen = list(game.unseen(seat))
        dealt = sum(len(rack) for other, rack in enumerate(game.racks) if other != seat)
        # What an iteration costs; the first estimates come from the time the candidates
        # took to find, and then follow the measured means.
        costs = IterationCosts(
            full=generation_seconds, shared=generation_seconds, near=generation_seconds / 2
        )
        iterations = 0
        self._narrow(statistics, 0, deadline - self._clock(), costs)
        while self.max_iterations is None or iterations < self.max_iterations:
            active = [entry for entry in statistics if entry.active]
            if len(active) == 1:
                break  # the others are all clearly behind
            # An iteration is only worth starting if it can likely finish: the values of an
            # unfinished one are dropped.
            if iterations and self._clock() + costs.iteration(len(active)) >= deadline:
                break
            self.random.shuffle(unseen)
            deal = blanks_to_the_bag(unseen, dealt)
            world = imagined_game(game, seat, deal, seed=self.random.getrandbits(32))
            if not self._iterate(world, seat, active, deadline, costs, to_end):
                break
            iterations += 1
            self._prune(statistics, iterations)
            self._narrow(statistics, iterations, deadline - self._clock(), costs)
        self.last_report.iterations = iterations
        settle(statistics, iterations)
        best = max(statistics, key=lambda entry: (entry.active, entry.mean, entry.candidate.equity))
        return best.candidate.move

    def _candidates(
        self, game: Game, moves: list[GeneratedMove], best_first: bool
    ) -> list[CandidateStatistics]:
        """The candidates to simulate: the best equity moves, those within EQUITY_GAP of the
        best, each with the win-chance objective of the decision."""
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
        lead = score_lead(game.scores, game.to_move)
        chance = WinChance.for_decision(lead, game.bag_size, self.plies)
        return [CandidateStatistics(candidate, chance=chance) for candidate in top]

    def _iterate(
        self,
        world: Game,
        seat: int,
        active: list[CandidateStatistics],
        deadline: float,
        costs: IterationCosts,
        to_end: bool,
    ) -> bool:
        """One rollout of every active candidate in the deal `world`; False when the time ran
        out before they were all done (no rollout is started that would likely end after the
        deadline: the budget is kept, and if finding the candidates used it all, the equity
        order stands)."""
        replies: DealReplies | None = None
        if costs.sharing(len(active)):
            replies = DealReplies(world, self.table)
            now = self._clock()
            if now + costs.shared >= deadline:
                return False
            replies.prepare()
            costs.add("shared", self._clock() - now)
        kind = "full" if replies is None else "near"
        try:
            for entry in active:
                now = self._clock()
                if now + (costs.full if replies is None else costs.near) >= deadline:
                    return False
                if to_end:
                    value = rollout_to_end(world, seat, entry.candidate, self.table, replies)
                    entry.add(value, 0.0)
                else:
                    entry.add(
                        *rollout_value(
                            world, seat, entry.candidate, self.table, self.plies, replies
                        )
                    )
                self.last_report.rollouts += 1
                costs.add(kind, self._clock() - now)
        finally:
            if replies is not None:
                self.last_report.full_replies += replies.fallbacks
        return True

    def _narrow(
        self,
        statistics: list[CandidateStatistics],
        iterations: int,
        remaining: float,
        costs: IterationCosts,
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

    # -- with the bag empty: the endgame -------------------------------------------------------

    def _endgame(self, game: Game, moves: list[GeneratedMove], deadline: float) -> Move:
        self.last_report.endgame = True
        if not moves:
            return fallback_move(game)
        seat = game.to_move
        world = imagined_game(game, seat, game.unseen(seat))
        if len(game.racks) == 2 and sum(len(rack) for rack in game.racks) <= EXACT_TILES:
            # Few tiles left: search the whole endgame exactly, with half the time (or, when
            # told, a number of positions instead).
            now = self._clock()
            exact_deadline = now + max(0.0, deadline - now) / 2
            if self.endgame_positions is not None:
                exact_deadline = math.inf
            solved = solve_endgame(
                world, exact_deadline, self._clock, max_positions=self.endgame_positions
            )
            if solved is not None:
                self.last_report.exact = True
                return solved[0]
        top = ranked_candidates(
            game,
            self.table,
            moves,
            limit=max(self.candidate_count, ENDGAME_CANDIDATES),
            best_first=True,
        )
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


def settle(statistics: list[CandidateStatistics], iterations: int) -> None:
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


__all__ = [
    "DEFAULT_BUDGET",
    "LATE_BAG",
    "CandidateStatistics",
    "SimulationPlayer",
    "SimulationReport",
    "candidate_placements",
    "settle",
]
