"""Clocks of timed games (INTERFACES.md §7): the arithmetic, with the time passed in.

Times are whole milliseconds on any one scale (the web server passes milliseconds since
the Unix epoch); nothing here reads a clock. A :class:`Clock` is told when each turn ends
(:meth:`Clock.turn_ended`) and answers what is left (:meth:`Clock.remaining`), when the
seat whose time runs loses on time (:meth:`Clock.deadline`) and the overtime penalties
(:meth:`Clock.penalties`).

- **live**: each seat has ``seconds`` for all its moves, plus ``increment`` seconds after
  each of them (in overtime too). A seat whose time runs out plays on in overtime for at
  most ``overtime`` seconds and loses :data:`OVERTIME_PENALTY` points for each minute of
  overtime it started: the deepest overtime it reached counts. Past ``overtime`` seconds
  of overtime it has lost on time.
- **correspondence**: each move within ``days`` days of the last one (or of the start).

A clock may wait before it starts (``start=None``: the web app waits until every person
has opened the game): no time runs, and moves made meanwhile cost nothing, until
:meth:`Clock.begin`. Pauses (when the server was down) are stretches of time that count
against nobody: no time runs in them, and a deadline moves past them.

>>> rules = ClockRules.from_mapping({"kind": "live", "seconds": 60, "overtime": 120})
>>> clock = Clock(rules, seats=2, start=0)
>>> clock.remaining(10_000), clock.deadline()
([50000, 60000], 180000)
>>> clock.turn_ended(130_000, next_seat=1)
>>> clock.remaining(130_000), clock.penalties()
([-70000, 60000], [20, 0])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from binscrabble.i18n import _

LIVE: Final = "live"
CORRESPONDENCE: Final = "correspondence"
UNTIMED: Final = "untimed"
KINDS: Final = (UNTIMED, LIVE, CORRESPONDENCE)

#: Points a seat loses for each minute of overtime it started.
OVERTIME_PENALTY: Final = 10
SECOND_MS: Final = 1000
MINUTE_MS: Final = 60 * SECOND_MS
DAY_MS: Final = 24 * 60 * MINUTE_MS

#: The allowed values of each setting: (least, most, default or None when required).
LIMITS: Final[dict[str, dict[str, tuple[int, int, int | None]]]] = {
    UNTIMED: {},
    LIVE: {
        "seconds": (5, 86_400, None),
        "increment": (0, 600, 0),
        "overtime": (0, 600, 0),
    },
    CORRESPONDENCE: {"days": (1, 14, None)},
}


class ClockError(ValueError):
    """A clock asked for that cannot be: the message says what to send instead."""


@dataclass(frozen=True, slots=True)
class ClockRules:
    """What a timed game's clock allows; settings that do not apply to the kind are 0."""

    kind: str
    seconds: int = 0
    increment: int = 0
    overtime: int = 0
    days: int = 0

    @classmethod
    def from_mapping(cls, data: object) -> ClockRules | None:
        """The clock of a request's ``"clock"`` (``None``: untimed); :class:`ClockError`
        for anything else than INTERFACES.md §7 allows.

        >>> ClockRules.from_mapping({"kind": "correspondence", "days": 3})
        ClockRules(kind='correspondence', seconds=0, increment=0, overtime=0, days=3)
        >>> ClockRules.from_mapping({"kind": "live", "seconds": 3})
        Traceback (most recent call last):
        ...
        binscrabble.clock.ClockError: a live clock's 'seconds' is 5 to 86400, not 3
        """
        if data is None:
            return None
        if not isinstance(data, Mapping):
            raise ClockError(
                _("the clock must be an object such as {example}").format(
                    example='{"kind": "live", "seconds": 300}'
                )
            )
        kind = data.get("kind")
        if kind not in KINDS:
            raise ClockError(
                _("a clock's 'kind' is 'untimed', 'live' or 'correspondence', not {kind}").format(
                    kind=repr(kind)
                )
            )
        limits = LIMITS[str(kind)]
        unknown = sorted(str(key) for key in data if key != "kind" and key not in limits)
        if unknown:
            given = ", ".join(map(repr, unknown))
            if not limits:
                message = _("a {kind} clock takes no other setting; not {unknown}")
            else:
                message = _("a {kind} clock takes {allowed}; not {unknown}")
            allowed = ", ".join(f"'{name}'" for name in limits)
            raise ClockError(message.format(kind=kind, allowed=allowed, unknown=given))
        if kind == UNTIMED:
            return None
        values: dict[str, int] = {}
        for name, (least, most, default) in limits.items():
            value = data.get(name, default)
            if value is None:
                raise ClockError(
                    _("a {kind} clock needs {name} ({least} to {most})").format(
                        kind=kind, name=f"'{name}'", least=least, most=most
                    )
                )
            if type(value) is not int or not least <= value <= most:
                raise ClockError(
                    _("a {kind} clock's {name} is {least} to {most}, not {value}").format(
                        kind=kind, name=f"'{name}'", least=least, most=most, value=repr(value)
                    )
                )
            values[name] = value
        return cls(kind=str(kind), **values)

    def to_mapping(self) -> dict[str, Any]:
        """The settings that apply to the kind, as a request gives them."""
        return {"kind": self.kind} | {name: getattr(self, name) for name in LIMITS[self.kind]}

    @property
    def absence(self) -> int:
        """Milliseconds a waiting clock waits for every seat before the game is aborted:
        a day, or a seat's whole time (:attr:`allowance`) when longer.

        >>> ClockRules("correspondence", days=3).absence // DAY_MS
        3
        """
        return max(DAY_MS, self.allowance)

    @property
    def allowance(self) -> int:
        """Milliseconds a seat has at the start: all its time (live) or a turn's (days)."""
        if self.kind == LIVE:
            return self.seconds * SECOND_MS
        return self.days * DAY_MS


#: A stretch of time that counts against nobody: (from, to), milliseconds.
Pause = tuple[int, int]


def elapsed(since: int, at: int, pauses: tuple[Pause, ...] = ()) -> int:
    """The time that counts between ``since`` and ``at``: all of it but the pauses.

    >>> elapsed(0, 100), elapsed(0, 100, ((10, 30), (90, 200)))
    (100, 70)
    """
    spent = max(0, at - since)
    for start, end in pauses:
        spent -= max(0, min(end, at) - max(start, since))
    return spent


def later(since: int, duration: int, pauses: tuple[Pause, ...] = ()) -> int:
    """When ``duration`` milliseconds that count have passed from ``since``, the pauses
    (in order) not counting.

    >>> later(0, 100), later(0, 100, ((10, 30), (200, 300)))
    (100, 120)
    """
    moment, need = since, duration
    for start, end in pauses:
        if end <= moment:
            continue
        if start > moment:
            if start - moment >= need:
                break
            need -= start - moment
        moment = end
    return moment + need


class Clock:
    """The time left to each seat of a timed game, told when each turn ends.

    >>> clock = Clock(ClockRules("live", seconds=60), seats=2, start=None, opened=0)
    >>> clock.turn_ended(5_000, next_seat=1); clock.view(9_000), clock.deadline()
    ({'kind': 'live', 'remaining_ms': [60000, 60000], 'running': None}, 86400000)
    >>> clock.begin(10_000); clock.remaining(12_000), clock.deadline()
    ([60000, 58000], 70000)

    ``start`` is when the first turn's time began to run (``None``: the clock waits, see
    :meth:`begin`); ``running`` the seat to move then; ``pauses`` the stretches of time
    that count against nobody, in order.
    """

    def __init__(
        self,
        rules: ClockRules,
        seats: int,
        start: int | None,
        running: int = 0,
        pauses: tuple[Pause, ...] = (),
        opened: int | None = None,
    ) -> None:
        self.rules = rules
        self.pauses = pauses
        #: When the game was opened for its seats (its creation): a waiting clock's game is
        #: aborted :attr:`ClockRules.absence` after it (``None``: never).
        self.opened = start if opened is None else opened
        #: Each seat's time left when its clock last stopped (the running seat's: when it
        #: started).
        self._left = [rules.allowance] * seats
        #: The least time left each seat has had (negative: its deepest overtime).
        self._lowest = self._left[:]
        #: The seat whose time runs, ``None`` once the game is over.
        self.running: int | None = running
        #: When the running seat's time began to run.
        self.since = 0 if start is None else start
        #: Whether the clock waits to start (:meth:`begin`).
        self.waiting = start is None

    def begin(self, at: int) -> None:
        """Start a waiting clock at ``at``: the seat to move's time runs from then."""
        if self.waiting:
            self.waiting = False
            self.since = at

    def turn_ended(
        self, at: int, next_seat: int | None, *, moved: bool = True, since: int | None = None
    ) -> None:
        """The running seat's turn ended at ``at``: by a move (``moved``: a live clock
        adds the increment), or because the seat left the game; ``next_seat``'s time runs
        from ``since`` (default ``at``; ``None``: the game is over and every clock stops).
        A waiting clock only notes the seat to move: nobody's time runs."""
        seat = self.running
        if self.waiting:
            self.running = next_seat
            return
        if seat is not None:
            left = self._left[seat] - elapsed(self.since, at, self.pauses)
            self._lowest[seat] = min(self._lowest[seat], left)
            if self.rules.kind == CORRESPONDENCE:
                left = self.rules.allowance
            elif moved:
                left += self.rules.increment * SECOND_MS
            self._left[seat] = left
        self.running = next_seat
        self.since = at if since is None else max(at, since)

    def remaining(self, now: int) -> list[int]:
        """Each seat's time left at ``now`` in milliseconds (negative in overtime)."""
        left = self._left[:]
        if self.running is not None and not self.waiting:
            left[self.running] -= elapsed(self.since, now, self.pauses)
        return left

    def deadline(self) -> int | None:
        """When the running seat loses on time unless it moves first; ``None`` when no
        time runs (the game is over). A waiting clock's deadline is when the game is
        aborted for a seat that never came (:attr:`ClockRules.absence` after
        :attr:`opened`)."""
        if self.running is None:
            return None
        if self.waiting:
            if self.opened is None:
                return None
            return later(self.opened, self.rules.absence, self.pauses)
        allowed = self._left[self.running] + self.rules.overtime * SECOND_MS
        return later(self.since, max(0, allowed), self.pauses)

    def expired(self, now: int) -> bool:
        """Whether the running seat has lost on time at ``now``."""
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def penalties(self, now: int | None = None) -> list[int]:
        """Each seat's overtime penalty in points: :data:`OVERTIME_PENALTY` for each minute
        of overtime it started, counted at its deepest overtime (up to ``now`` for the
        running seat, when given)."""
        lowest = self._lowest[:]
        if now is not None and self.running is not None:
            lowest[self.running] = min(lowest[self.running], self.remaining(now)[self.running])
        return [OVERTIME_PENALTY * -(least // MINUTE_MS) if least < 0 else 0 for least in lowest]

    def view(self, now: int) -> dict[str, Any]:
        """The ``clock`` of a view (INTERFACES.md §7) as of ``now``."""
        return {
            "kind": self.rules.kind,
            "remaining_ms": self.remaining(now),
            "running": None if self.waiting else self.running,
        }
