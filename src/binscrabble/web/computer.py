"""Fair shares of the computer: who thinks first, on which processes, and what is refused.

Three lanes of worker processes (:class:`~binscrabble.web.pool.Lane`), each with its own
processes, so no kind of work ever occupies a process another kind needs:

- **people**: the computer's moves in games with a person in them, then hints; at the
  server's priority. Moves go by the client address that caused them (the move or the
  creation that handed the turn to the computer), the address that used the lane least
  lately first, so one address's many games wait behind each other; each move has a time
  and a memory budget (over it, the computer passes); an address with as many moves
  waiting or thinking as the bound is refused new games with a computer in them (a move
  is never refused). Hints wait in a bounded queue.
- **computer-only**: the moves of games with no person in them, or no person left in them
  (every person's seat resigned), one process at a lower OS priority (niceness 10), ordered
  by the client address charged for each game like the people's; a bounded number of such
  games in play at once: a new game with no person in it is refused past the bound, a game
  whose last person left waits for a place (never on the people's lane).
- **analysis**: the analyses of finished games, one process at the lowest priority
  (niceness 15), one turn at a time within a time and a memory budget, once per game
  (every request for a game follows the same computation), a bounded number at once.

What cannot be queued is refused with :class:`Busy` (503 and ``Retry-After``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from binscrabble import i18n
from binscrabble.i18n import _
from binscrabble.web import workers as work
from binscrabble.web.active_games import ActiveGame, RefereeError, job_of, now_ms
from binscrabble.web.leases import ANALYSIS, Leases
from binscrabble.web.pool import JobFailed, Lane, Outcome
from binscrabble.web.workers import GameJob

LOG = logging.getLogger("binscrabble.web")
#: Classes of the people's lane: a person's game's computer move goes before any hint.
MOVE, HINT = 0, 1
#: Niceness of the lanes below the people's.
COMPUTER_ONLY_NICENESS = 10
ANALYSIS_NICENESS = 15
#: Times a computer's move is tried on a fresh process when its process ends.
ATTEMPTS = 3
#: Under a clock, the computer's move takes at most this share of the time it has left
#: (before overtime, while it has some)...
CLOCK_SHARE = 0.1
#: ... but at least this many seconds, while its time allows them...
CLOCK_FLOOR = 0.3
#: ... and it keeps back this many seconds of its time for its move to be stored; with
#: less than that left it passes at once.
CLOCK_MARGIN = 1.0
#: A level that thinks (``max``) thinks for this share of its move's time: the rest is
#: for reading the game and finding its candidates on a busy machine.
THINKING_SHARE = 0.25
MIB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Fairness:
    """The bounds of the computer's work (docs/web.md, docs/limits.md)."""

    #: Processes thinking for games with a person in them.
    workers: int = 1
    #: Games with no person in them playing at once; one more is refused.
    computer_games: int = 8
    #: Hints waiting for a process; one more is refused.
    hints_waiting: int = 4
    #: A hint's search for the best play (the analysis's search): seconds, and bytes of
    #: memory. Over them the hint is the best play found so far, and says so.
    hint_seconds: float = 3.0
    hint_memory: int = 512 * MIB
    #: A computer's move in a person's game: seconds, and bytes of memory.
    move_seconds: float = 3.0
    move_memory: int = 512 * MIB
    #: Computer's moves of one client address waiting or thinking on the people's lane;
    #: past it, a new game with a computer in it from that address is refused.
    address_moves: int = 4
    #: Games analysed at once; an analysis of one more game is refused.
    analyses: int = 2
    #: Each turn's search for the best play: seconds, and bytes of memory.
    turn_seconds: float = 3.0
    turn_memory: int = 512 * MIB
    #: Finished analyses kept in memory (the least recently asked for is forgotten first).
    kept_analyses: int = 64
    #: Seconds an analysis request waits for the analysis to finish before answering
    #: with the turns done so far.
    answer_wait: float = 1.0


class Busy(RefereeError):
    """A request the computer cannot take now: 503, and the seconds to wait before trying
    again (``Retry-After``)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(503, message)
        self.retry_after = retry_after


def no_person_seat(active: ActiveGame) -> bool:
    """Whether every seat of the game is a computer's (it was made with no person in it)."""
    return all(seat.computer is not None for seat in active.stored.seats)


@dataclass(eq=False)
class Place:
    """A game left to its computers waiting for a place among the computer-only games: the
    address charged for it and the grant."""

    game_id: str
    address: str
    granted: asyncio.Future[None]


def clock_allowance(active: ActiveGame, now: int) -> tuple[float, float] | None:
    """Under the game's clock, the seconds the computer to move may take at ``now``: its
    move's budget (:data:`CLOCK_SHARE` of its time left, at least :data:`CLOCK_FLOOR`) and
    the most it may take before its move is stored (its time left but
    :data:`CLOCK_MARGIN`); ``None`` when no clock runs.

    >>> from binscrabble.clock import Clock, ClockRules
    >>> from binscrabble.web.storage import StoredGame
    >>> stored = StoredGame("g", {}, "1", [], [], None)
    >>> rules = ClockRules.from_mapping({"kind": "live", "seconds": 5})
    >>> active = ActiveGame(stored, None, Clock(rules, 2, start=0))  # type: ignore[arg-type]
    >>> clock_allowance(active, 0), clock_allowance(active, 3_000), clock_allowance(active, 4_500)
    ((0.5, 4.0), (0.3, 1.0), (-0.5, -0.5))
    """
    clock = active.clock
    if clock is None or clock.running is None:
        return None
    deadline = clock.deadline()
    assert deadline is not None
    until_lost = (deadline - now) / 1000
    left = clock.remaining(now)[clock.running] / 1000
    share = CLOCK_SHARE * (left if left > 0 else until_lost)
    most = until_lost - CLOCK_MARGIN
    return min(max(CLOCK_FLOOR, share), most), most


class Computer:
    """The computer's work for one server: its lanes, the games with no person in them,
    and the analyses."""

    def __init__(self, fairness: Fairness, leases: Leases | None = None) -> None:
        self.fairness = fairness
        self.people = Lane("people", fairness.workers, 0, {HINT: fairness.hints_waiting})
        self.computer_only = Lane("computer-only", 1, COMPUTER_ONLY_NICENESS, {})
        self.analysis = Lane("analysis", 1, ANALYSIS_NICENESS, {})
        self.analyses = Analyses(self.analysis, fairness, leases)
        #: The games with no person (left) in them whose computers are playing, each with
        #: the client address charged for it: at most ``fairness.computer_games``.
        self.computer_games: dict[str, str] = {}
        #: Games whose last person left, waiting for a place among them, in order.
        self._waiting: list[Place] = []
        self._admitted = 0
        #: The games with a person in them whose computers are playing (their moves
        #: waiting or thinking), each with the client address charged for it.
        self.people_games: dict[str, str] = {}
        #: Per address, its games with a computer and a person being created.
        self._reserved: Counter[str] = Counter()

    @contextlib.contextmanager
    def admitting(self, computers: list[str | None]) -> Iterator[None]:
        """Around creating a game: refuse one with no person in it when as many as the
        bound are playing; its place is held until the block ends."""
        if not all(computers):
            yield
            return
        if len(self.computer_games) + self._admitted >= self.fairness.computer_games:
            raise Busy(
                _(
                    "{count} games with no person in them are already being played here: "
                    "add a person's seat, or try again later"
                ).format(count=self.fairness.computer_games),
                30,
            )
        self._admitted += 1
        try:
            yield
        finally:
            self._admitted -= 1
            self._hand_on()

    def started(self, active: ActiveGame, address: str) -> None:
        """A game's computers start playing, charged to ``address``. A game made with no
        person in it was admitted (:meth:`admitting`): it takes its place at once."""
        if no_person_seat(active):
            self.computer_games[active.game_id] = address
        elif active.person_plays():
            self.people_games[active.game_id] = address

    def stopped(self, active: ActiveGame) -> None:
        """A game's computers stopped playing (the game is over, or waits for a person):
        its place goes to a game waiting for one."""
        self.computer_games.pop(active.game_id, None)
        self.people_games.pop(active.game_id, None)
        self._hand_on()

    def waiting_games(self) -> set[str]:
        """The games left to their computers that wait for a place."""
        return {place.game_id for place in self._waiting}

    def _room(self) -> bool:
        return len(self.computer_games) + self._admitted < self.fairness.computer_games

    async def place(self, active: ActiveGame, address: str) -> None:
        """Before a move of a game its computers play alone: its place among the
        computer-only games, waiting for one while they are at their bound."""
        self.people_games.pop(active.game_id, None)  # its moves leave the people's lane
        if active.game_id in self.computer_games:
            return
        if self._room() and not self._waiting:
            self.computer_games[active.game_id] = address
            return
        place = Place(active.game_id, address, asyncio.get_running_loop().create_future())
        self._waiting.append(place)
        try:
            await place.granted
        finally:
            if place in self._waiting:  # cancelled while waiting
                self._waiting.remove(place)

    def _hand_on(self) -> None:
        """Give the free places to the waiting games: first the address with the fewest
        games playing, then in order of arrival."""
        while self._waiting and self._room():
            playing = Counter(self.computer_games.values())
            place = min(self._waiting, key=lambda waiting: playing[waiting.address])
            self._waiting.remove(place)
            if not place.granted.done():
                self.computer_games[place.game_id] = place.address
                place.granted.set_result(None)

    @contextlib.contextmanager
    def reserving(self, address: str, computers: list[str | None]) -> Iterator[None]:
        """Around creating a game from ``address`` with a computer and a person in it:
        refuse it when the address has as many games whose computer is to move (waiting
        or thinking on the people's lane, or being created), and of its games left to
        their computers waiting for a place, as the bound; else hold its place until the
        block ends, by when the game's computer, if it moves first, is counted
        (:meth:`started`). The check and the count are one step, so requests made at once
        cannot all pass the check before any is counted."""
        if not any(computers) or all(computers):
            yield
            return
        playing = sum(1 for charged in self.people_games.values() if charged == address)
        waiting = sum(1 for place in self._waiting if place.address == address)
        held = max(playing, self.people.held(address)) + self._reserved[address]
        if held + waiting >= self.fairness.address_moves:
            raise Busy(
                _(
                    "the computer is already thinking for {count} of your games: wait for "
                    "its replies, then try again in a few seconds"
                ).format(count=self.fairness.address_moves),
                5,
            )
        self._reserved[address] += 1
        try:
            yield
        finally:
            self._reserved[address] -= 1
            if not self._reserved[address]:
                del self._reserved[address]

    async def move(self, active: ActiveGame, level: str, address: str) -> str:
        """The notation of the computer's move in the game, thought on its game's lane and
        ordered by ``address`` (the client charged for it) among the others: while a
        person plays, on the people's lane within its budget; else on the computer-only
        lane, once the game has its place there.

        Under a clock the computer keeps within its time (:func:`clock_allowance`): its
        budget is a share of its time left, its waiting for a place or a process counts,
        and when its time is nearly out it plays the best move found so far, or passes."""
        job = job_of(active.stored)
        person = active.person_plays()
        if not person:
            await self.place(active, address)
            if active.computer_to_move() != level:
                # Its clock ran out while it waited: the caller sees the game moved on.
                return "pass"
        allowance = clock_allowance(active, now_ms())
        budget = self.fairness.move_seconds if person else None
        think = None
        if allowance is not None:
            budget = allowance[0] if budget is None else min(budget, allowance[0])
            think = budget * THINKING_SHARE
            if budget <= 0:
                LOG.info("the computer passes in game %s: its time is out", active.game_id)
                return "pass"
        if person:
            arguments: tuple[Any, ...] = (job, level, self.fairness.move_memory, think)
            lane, priority = self.people, MOVE
        else:
            arguments, lane, priority = (job, level, None, think), self.computer_only, 0
        for _attempt in range(ATTEMPTS):
            thinking = lane.run(priority, work.computer_move, arguments, budget, address)
            try:
                outcome = await asyncio.wait_for(
                    thinking, None if allowance is None else allowance[1]
                )
            except TimeoutError:
                outcome = Outcome("time")
            if outcome.ending == "done":
                return str(outcome.result)
            if outcome.ending in ("time", "memory"):
                # Over its budget the computer plays the best it found, or passes: always
                # legal, and the game goes on.
                LOG.info(
                    "the computer passes in game %s: out of %s", active.game_id, outcome.ending
                )
                return str(outcome.partial or "pass")
        raise RuntimeError(f"the worker thinking for game {active.game_id} ended")

    async def hint(self, job: GameJob) -> dict[str, Any]:
        """The hint for the seat to move (:func:`~binscrabble.web.workers.hint`), within
        its budget; refused when too many hints wait."""
        if self.people.full(HINT):
            raise Busy(_("the computer is busy with other hints: ask again in a few seconds"), 5)
        arguments = (job, self.fairness.hint_memory, i18n.language())
        outcome = await self.people.run(HINT, work.hint, arguments, self.fairness.hint_seconds)
        if outcome.ending == "done":
            result: dict[str, Any] = outcome.result
            return result
        if outcome.ending in ("time", "memory") and outcome.partial is not None:
            # The best play found before the search stopped; its explanation says so, and
            # here why.
            partial: dict[str, Any] = outcome.partial
            if outcome.ending == "time":
                why = _("The search for a hint stopped at its limit of {seconds} s.").format(
                    seconds=f"{self.fairness.hint_seconds:g}"
                )
            else:
                why = _(
                    "The search for a hint stopped at its limit of {mib} MiB of memory."
                ).format(mib=self.fairness.hint_memory // MIB)
            why = " " + why
            return partial | {"explanation": partial["explanation"] + why}
        raise Busy(_("the computer could not finish the hint: ask again"), 5)

    def close(self) -> None:
        """Stop every worker process."""
        self.analyses.close()
        for lane in (self.people, self.computer_only, self.analysis):
            lane.close()


@dataclass
class AnalysisRun:
    """One game's analysis: the turns done so far, in order, and whether it is finished."""

    total: int
    turns: list[dict[str, Any]] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class Analyses:
    """Every game's analysis, computed once, turn by turn, on the analysis lane.

    With ``leases`` on a database several processes share, once among them: the process
    that claims a game's analysis (web/leases.py) computes it and stores each turn as it is
    done; the others answer with the turns stored. When that process dies, the next
    request after its lease expired claims the analysis and goes on from the turns stored.
    """

    def __init__(self, lane: Lane, fairness: Fairness, leases: Leases | None = None) -> None:
        self.lane = lane
        self.fairness = fairness
        self.leases = leases if leases is not None and leases.shared else None
        self.runs: OrderedDict[str, AnalysisRun] = OrderedDict()

    def running(self) -> int:
        """How many analyses are being computed."""
        return sum(1 for run in self.runs.values() if not run.done.is_set())

    def run_for(self, active: ActiveGame, done: list[dict[str, Any]] | None = None) -> AnalysisRun:
        """The game's analysis, started (after the turns ``done`` already) unless it is done
        or under way."""
        run = self.runs.get(active.game_id)
        if run is not None:
            self.runs.move_to_end(active.game_id)
            return run
        self.check_room()
        job = job_of(active.stored)
        run = AnalysisRun(len(job.moves), list(done or []))
        run.task = asyncio.get_running_loop().create_task(self._compute(active.game_id, job, run))
        self.runs[active.game_id] = run
        finished = [key for key, old in self.runs.items() if old.done.is_set()]
        for key in finished[: max(0, len(finished) - self.fairness.kept_analyses)]:
            del self.runs[key]
        return run

    def check_room(self) -> None:
        """Refuse (:class:`Busy`) a new analysis while as many as the bound are computed."""
        if self.running() >= self.fairness.analyses:
            raise Busy(_("the computer is analysing other games: ask again in a few seconds"), 10)

    async def answer(self, active: ActiveGame) -> dict[str, Any]:
        """The analysis as far as it is done (waiting a little for it to finish)."""
        if self.leases is not None and active.game_id not in self.runs:
            stored = await self.stored_answer(active)
            if stored is not None:
                return stored
        run = self.run_for(active)
        if not run.done.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(run.done.wait(), self.fairness.answer_wait)
        return {"turns": list(run.turns), "total": run.total, "complete": run.done.is_set()}

    async def stored_answer(self, active: ActiveGame) -> dict[str, Any] | None:
        """On a shared database: the analysis as stored when it is complete or another
        process computes it; ``None`` when this process just claimed it (and started it,
        after the turns stored)."""
        assert self.leases is not None
        total = len(active.stored.moves)
        stored = await self.leases.analysed_turns(active.game_id)
        if len(stored) < total:
            self.check_room()
            if await self.leases.claim(ANALYSIS, active.game_id):
                self.run_for(active, stored)
                return None
        return {"turns": stored[:total], "total": total, "complete": len(stored) >= total}

    async def _compute(self, game_id: str, job: GameJob, run: AnalysisRun) -> None:
        try:
            for number in range(len(run.turns) + 1, run.total + 1):
                turn = await self._turn(job, number)
                if self.leases is not None:
                    await self.leases.store_turn(game_id, number, turn)
                run.turns.append(turn)
        finally:
            run.done.set()
            if self.leases is not None:
                await self.leases.release(ANALYSIS, game_id)

    async def _turn(self, job: GameJob, number: int) -> dict[str, Any]:
        budget = (job, number, self.fairness.turn_memory)
        try:
            outcome = await self.lane.run(0, work.analyse_turn, budget, self.fairness.turn_seconds)
        except JobFailed as problem:
            LOG.error("the analysis of turn %d failed: %s", number, problem)
            outcome = Outcome("died")
        if outcome.ending == "done":
            result: dict[str, Any] = outcome.result
            return result
        turn: dict[str, Any] | None = outcome.partial
        if turn is None:
            turn = await asyncio.to_thread(work.turn_facts, job, number)
        return turn | {"analysed": False, "reason": self.reason(outcome)}

    def reason(self, outcome: Outcome) -> str:
        """Why a turn was not analysed, as a code that :func:`reason_words` says in the
        language of each answer (the turn is stored once and read in any language)."""
        if outcome.ending == "time":
            return f"time {self.fairness.turn_seconds:g}"
        if outcome.ending == "memory":
            return f"memory {self.fairness.turn_memory // MIB}"
        return "stopped"

    def close(self) -> None:
        """Stop the analyses under way."""
        for run in self.runs.values():
            if run.task is not None:
                run.task.cancel()


def reason_words(code: str) -> str:
    """The sentence for a turn not analysed, from its code (:meth:`Analyses.reason`), in the
    request's language; a sentence stored before codes is given as it is.

    >>> reason_words("memory 512")[:60]
    'not analysed: the search for the best play needed over 512 M'
    """
    kind, _space, figure = code.partition(" ")
    if kind == "time":
        why = _("the search for the best play took over {seconds} s").format(seconds=figure)
    elif kind == "memory":
        why = _("the search for the best play needed over {mib} MiB of memory").format(mib=figure)
    elif kind == "stopped":
        why = _("the search for the best play stopped")
    else:
        return code
    return _("not analysed: {why}; the best shown is the best found before it stopped").format(
        why=why
    )
