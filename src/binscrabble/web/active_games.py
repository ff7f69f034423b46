"""Games in play: each stored game rebuilt in memory, and the referee's decisions on it.

The database is the truth; an :class:`ActiveGame` is a cache of one game rebuilt by
replaying its stored moves on a :class:`~binscrabble.game.Game` with the stored seed. A
submission is judged by the core library (``illegal_reason``, ``score_breakdown``), stored,
and only then pushed on the cached game, so nobody sees a move that is not committed.

A timed game's :class:`~binscrabble.clock.Clock` is rebuilt the same way, from the stored
times of its creation, its moves and its departures; the time of a change is read once
(:func:`now_ms`) and stored with it, so a restart loses nothing.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import hashlib
import hmac
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from binscrabble.clock import LIVE, Clock, ClockRules
from binscrabble.game import ABORT_CAUSES, Game, IllegalMoveError
from binscrabble.i18n import _
from binscrabble.limits import typed
from binscrabble.move import Move, NotationError, Place, PlacedTile, move_notation, parse_move
from binscrabble.rules import Rules
from binscrabble.web.storage import (
    Departure,
    NewGame,
    SeatRecord,
    Standing,
    Storage,
    StoredGame,
)
from binscrabble.web.workers import GameJob, leave, new_game, replay_steps


class RefereeError(Exception):
    """A request the referee refuses: ``status`` is the HTTP status, the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def token_hash(token: str) -> str:
    """The stored form of a seat's token: its sha256, in hex.

    >>> len(token_hash("abc"))
    64
    """
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A secret token for a seat."""
    return secrets.token_urlsafe(32)


def new_game_id() -> str:
    """A new game's id: short, unguessable, safe in a URL."""
    return secrets.token_urlsafe(9)


def new_seed() -> str:
    """A new secret bag seed."""
    return str(secrets.randbits(63))


def rematch_seats(seats: list[SeatRecord]) -> list[SeatRecord]:
    """The seats of a game's rematch: the same players, computers and tokens, each one seat
    earlier and the first player last. Seat 0 always moves first, so who starts goes round
    from a game to its rematch (two players take turns starting).

    >>> ann, bo = SeatRecord(0, "Ann", None, "a"), SeatRecord(1, "Bo", "hard", None)
    >>> [(seat.seat, seat.name) for seat in rematch_seats([ann, bo])]
    [(0, 'Bo'), (1, 'Ann')]
    """
    turned = [*seats[1:], *seats[:1]]
    return [
        SeatRecord(number, seat.name, seat.computer, seat.token_hash)
        for number, seat in enumerate(turned)
    ]


def started_at(stored: StoredGame) -> int | None:
    """When a timed game's clocks started: when the last of its person seats joined
    (``None`` while one has not). A game of computers alone starts when it is made.

    >>> ann, bo = SeatRecord(0, "Ann", None, "a", 7), SeatRecord(1, "Bo", None, "b", None)
    >>> game = StoredGame("g", {}, "1", [ann, bo], [], None, created_at=3)
    >>> started_at(game), started_at(StoredGame("g", {}, "1", [ann], [], None, created_at=3))
    (None, 7)
    """
    joins = [seat.joined for seat in stored.seats if seat.computer is None]
    if None in joins:
        return None
    return max((join for join in joins if join is not None), default=stored.created_at or 0)


def absent_seat(stored: StoredGame) -> int | None:
    """The first person seat that has not joined the game, ``None`` when all have."""
    for seat in stored.seats:
        if seat.computer is None and seat.joined is None:
            return seat.seat
    return None


def job_of(stored: StoredGame) -> GameJob:
    """A stored game as a job for the worker processes (and for :func:`rebuild`)."""
    return GameJob(
        tuple(seat.name for seat in stored.seats),
        stored.rules,
        stored.seed,
        tuple(stored.moves),
        tuple((left.turn, left.seat, left.reason) for left in stored.departures),
    )


def now_ms() -> int:
    """The time now, in milliseconds since the Unix epoch: what clocks and moves store."""
    return time.time_ns() // 1_000_000


def clock_rules(stored: StoredGame) -> ClockRules | None:
    """The stored game's clock settings, ``None`` when untimed."""
    return ClockRules.from_mapping(stored.clock)


def standing(game: Game, clock: Clock | None = None) -> Standing:
    """How a game stands: the seat to move, why it ended and, under ``clock``, when the
    seat to move loses on time, as stored."""
    outcome = game.outcome()
    return Standing(
        None if outcome is not None else game.to_move,
        None if outcome is None else outcome.reason,
        None if clock is None or outcome is not None else clock.deadline(),
    )


def standing_after(game: Game, clock: Clock | None, seat: int, at: int, moved: bool) -> Standing:
    """How ``game`` (a copy, already changed by ``seat``'s move or departure) stands once
    ``clock`` hears of it (:func:`clock_after`, on a copy of the clock)."""
    after = copy.deepcopy(clock)
    clock_after(game, after, seat, at, moved)
    return standing(game, after)


def clock_after(
    game: Game, clock: Clock | None, seat: int, at: int, moved: bool, since: int | None = None
) -> None:
    """Tell a game's clock that ``seat`` moved (``moved``) or left at ``at``; the next
    seat's time runs from ``since`` (default ``at``: a time-out settled late starts the next
    clock when it is settled). Once the game is over every clock stops and a live clock's
    overtime is taken from the scores."""
    if clock is None:
        return
    over = game.is_over()
    if moved or over or clock.running == seat:
        clock.turn_ended(at, None if over else game.to_move, moved=moved, since=since)
    if over and clock.rules.kind == LIVE:
        game.settle_overtime(clock.penalties())


def rebuild(stored: StoredGame) -> tuple[Game, Clock | None]:
    """The game a stored game stands for, and its clock (``None`` when untimed): its moves
    replayed on its seeded bag, the seats that left leaving when they did."""
    job = job_of(stored)
    game = new_game(job)
    rules = clock_rules(stored)
    opened = stored.created_at or 0
    start = started_at(stored)
    clock = None
    if rules is not None:
        clock = Clock(rules, len(job.players), None, pauses=stored.pauses, opened=opened)
    for number, departure in replay_steps(game, job):
        since = None
        if departure is None:
            at = stored.move_times[number]
            seat = game.history[-1].seat
        else:
            at = stored.departures[departure].at
            seat = stored.departures[departure].seat
            since = stored.departures[departure].settled
        at = at if at is not None else opened
        if clock is not None and start is not None and at >= start:
            clock.begin(start)
        clock_after(game, clock, seat, at, departure is None, since)
    if clock is not None and start is not None:
        clock.begin(start)
    return game, clock


@dataclass
class HeldGame:
    """What every game in memory has, at a table or not: its stored facts, whose seats its
    players' tokens open."""

    stored: StoredGame

    @property
    def game_id(self) -> str:
        """The game's id."""
        return self.stored.game_id

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to, or ``None`` for no token or a wrong one."""
        if not token:
            return None
        digest = token_hash(token)
        for seat in self.stored.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None


@dataclass
class ActiveGame(HeldGame):
    """One game in memory: the stored facts, the rebuilt game and the lock on its turns."""

    game: Game
    #: The game's clock, ``None`` when untimed.
    clock: Clock | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def turn(self) -> int:
        """How many turns were played."""
        return len(self.game.history)

    def person_plays(self) -> bool:
        """Whether a person is still playing: the game goes on and a person's seat has not
        left it. A game with none is played by its computers alone."""
        if self.game.is_over():
            return False
        left = self.game.left
        return any(seat.computer is None and seat.seat not in left for seat in self.stored.seats)

    def computer_to_move(self) -> str | None:
        """The level of the computer to move, or ``None`` (a person to move, or game over)."""
        if self.game.is_over():
            return None
        return self.stored.seats[self.game.to_move].computer

    def clock_view(self, now: int | None = None) -> dict[str, Any] | None:
        """The ``clock`` of a view (INTERFACES.md §7) as of ``now`` (default: now)."""
        if self.clock is None:
            return None
        view = self.clock.view(now_ms() if now is None else now)
        waiting = self.clock.waiting and not self.game.is_over()
        view["waiting"] = [
            seat.seat
            for seat in self.stored.seats
            if waiting and seat.computer is None and seat.joined is None
        ]
        return view


def read_move(text: str, game: Game) -> Move:
    """A move written in notation, read on the game's board; a ``RefereeError`` 400 if not."""
    try:
        return parse_move(text, game.board)
    except NotationError as error:
        # The move as typed, in the language's own quotes (the catalogue's), its control
        # characters escaped so that none reaches a page or a terminal.
        message = _("the move “{move}” cannot be read: {problem}")
        raise RefereeError(400, message.format(move=typed(text), problem=error)) from None


def placement(tiles: list[tuple[int, str, bool, bool]]) -> Place:
    """A play from ``(square, face, blank, rotated)`` tuples (the page's placed tiles)."""
    return Place(tuple(PlacedTile(sq, face, blank, rotated) for sq, face, blank, rotated in tiles))


@dataclass(frozen=True, slots=True)
class Accepted:
    """A move the referee accepted and stored."""

    turn: int
    notation: str
    score: int


#: A move, or how to read it on the game it is submitted to (notation is read on the board
#: of the turn it is played on, so only once that turn is known to be the current one).
MoveOrReader = Move | Callable[[Game], Move]


def check_turn(active: ActiveGame, seat: int, turn: int | None) -> None:
    """A ``RefereeError`` 409 unless ``seat`` is to move on the current turn ``turn``."""
    game = active.game
    if game.is_over():
        raise RefereeError(409, _("the game is over: no more moves can be played"))
    if seat != game.to_move:
        message = _("it is {name}'s turn: wait for your turn")
        raise RefereeError(409, message.format(name=game.players[game.to_move]))
    if turn is not None and turn != active.turn:
        raise RefereeError(
            409,
            _(
                "turn {turn} is not the current turn ({current}): the game moved on, "
                "reload it and play again"
            ).format(turn=turn, current=active.turn),
        )


def listed_after(active: ActiveGame, after: Game) -> str:
    """What the lobby's list shows of a game once ``after`` (its game after a move) is
    stored: its players with their computer levels and scores, and its move count (JSON,
    stored on a shared database: web/playing.py)."""
    players = [
        [seat.name, seat.computer, score]
        for seat, score in zip(active.stored.seats, after.scores, strict=True)
    ]
    return json.dumps({"players": players, "turn": len(after.history)})


async def submit(
    active: ActiveGame, storage: Storage, seat: int, move: MoveOrReader, turn: int | None
) -> Accepted:
    """Judge, store and play ``move`` for ``seat``; ``turn`` must be the current turn.

    Under the game's lock, in this order: the turn and the seat are checked, then the move
    is read (when ``move`` is a reader), then judged. Raises :class:`RefereeError`: 409 for
    a game over, another seat's turn or a stale turn (including a turn another process
    stored first), whatever the move; 400 for a move that cannot be read; 422 for an
    illegal move.
    """
    async with active.lock:
        at = now_ms()
        if await expire_locked(active, storage, at):
            raise RefereeError(409, _("the time ran out before this move: the game moved on"))
        check_turn(active, seat, turn)
        game = active.game
        if callable(move):
            move = move(game)
        problem = game.illegal_reason(move, seat)
        if problem is not None:
            raise RefereeError(422, _("illegal move: {problem}").format(problem=problem))
        notation = move_notation(move, game.board)
        number = active.turn
        after = game.copy()
        after.push(move, seat, checked=False)
        stand = standing_after(after, active.clock, seat, at, moved=True)
        left = len(active.stored.departures)
        was = standing(game, active.clock)
        changed = (was.ended, was.deadline) != (stand.ended, stand.deadline)
        stored = await asyncio.to_thread(
            storage.append_move,
            active.game_id,
            number,
            seat,
            notation,
            at,
            stand,
            left,
            changed,
            listed=listed_after(active, after) if storage.shared else None,
        )
        if not stored:
            await reload(active, storage)
            if len(active.stored.departures) != left:
                raise RefereeError(409, _("the game moved on meanwhile: reload it and try again"))
            raise RefereeError(
                409,
                _("turn {turn} was already played: reload the game and play again").format(
                    turn=number
                ),
            )
        game.push(move, seat, checked=False)  # judged above, under the same lock
        active.stored.moves.append(notation)
        active.stored.move_times.append(at)
        clock_after(game, active.clock, seat, at, moved=True)
        return Accepted(number + 1, notation, game.history[-1].score)


async def join(active: ActiveGame, storage: Storage, seat: int) -> bool:
    """Note ``seat``'s first request with its token (its joining), stored; once every
    person seat has joined, a timed game's clocks start. Whether this was its first."""
    if active.stored.seats[seat].joined is not None or active.stored.seats[seat].computer:
        return False  # the common case, answered without the lock
    async with active.lock:
        record = active.stored.seats[seat]
        if record.joined is not None:
            return False
        at = now_ms()
        seats = [*active.stored.seats]
        seats[seat] = dataclasses.replace(record, joined=at)
        joined = dataclasses.replace(active.stored, seats=seats)
        clock = copy.deepcopy(active.clock)
        starts = clock is not None and started_at(joined) is not None
        if clock is not None and starts:
            clock.begin(at)
        stand = standing(active.game, clock) if starts else None
        if not await asyncio.to_thread(storage.join, active.game_id, seat, at, stand):
            await reload(active, storage)  # another process stored it first
            return False
        active.stored = joined
        if active.clock is not None and starts:
            active.clock.begin(at)
        return True


async def depart(active: ActiveGame, storage: Storage, seat: int, reason: str) -> None:
    """``seat`` resigns or aborts (``reason``: ``resigned`` or ``aborted``), judged by the
    core, stored, then applied; a ``RefereeError`` 409 when the game does not allow it.
    A departure that loses a race with a change stored by another process is judged
    again on the game reloaded, as a move is."""
    async with active.lock:
        for _attempt in range(DEPART_ATTEMPTS):
            at = now_ms()
            await expire_locked(active, storage, at)
            if await depart_locked(active, storage, Departure(seat, active.turn, reason, at)):
                return
    raise RefereeError(409, _("the game moved on meanwhile: reload it and try again"))


#: How many times a departure is judged again after another process changed the game.
DEPART_ATTEMPTS = 5


async def depart_locked(active: ActiveGame, storage: Storage, departure: Departure) -> bool:
    """Store and apply a departure, under the game's lock (see :func:`depart`); ``False``
    when another process changed the game first (it is then reloaded)."""
    after = active.game.copy()
    try:
        leave(after, departure.seat, departure.reason)
    except IllegalMoveError as problem:
        # The game is over, the seat left, too late to abort: a sentence of the API, in
        # lower case without a full stop as every other (the page makes it one).
        raise RefereeError(409, str(problem)) from None
    at, since = departure.at or 0, departure.settled
    after_clock = copy.deepcopy(active.clock)
    clock_after(after, after_clock, departure.seat, at, False, since)
    stand = standing(after, after_clock)
    stored = await asyncio.to_thread(storage.add_departure, active.game_id, departure, stand)
    if not stored:
        await reload(active, storage)
        return False
    leave(active.game, departure.seat, departure.reason)
    active.stored.departures.append(departure)
    clock_after(active.game, active.clock, departure.seat, at, False, since)
    return True


async def expire(active: ActiveGame, storage: Storage) -> bool:
    """Settle the running seat's time running out, if it has by now: it leaves the game
    at the moment its time ran out (reason ``time``, or ``aborted`` before its first move:
    :func:`time_out_reason`). Whether it did."""
    async with active.lock:
        return await expire_locked(active, storage, now_ms())


def time_out_reason(game: Game, seat: int) -> str:
    """How ``seat`` leaves ``game`` when its time runs out: ``time`` (it lost on time) once
    it has made a move (a pass counts), else the game is aborted for it (nobody wins;
    stored as ``time-first-move``): a game not yet begun by every seat may be aborted
    anyway.

    >>> game = Game(("Ann", "Bo"), seed=1)
    >>> time_out_reason(game, 0)
    'time-first-move'
    >>> game.push(parse_move("pass", game.board)); time_out_reason(game, 0)
    'time'
    """
    if any(turn.seat == seat for turn in game.history):
        return "time"
    return ABORT_CAUSES["time"]


async def expire_locked(active: ActiveGame, storage: Storage, now: int) -> bool:
    """:func:`expire` under the game's lock, as of ``now``."""
    clock = active.clock
    if clock is None or active.game.is_over() or not clock.expired(now):
        return False
    deadline = clock.deadline()
    seat = clock.running
    if clock.waiting:
        seat = absent_seat(active.stored)  # a seat never came: the game is aborted
        reason = ABORT_CAUSES["absent"]
    else:
        reason = time_out_reason(active.game, seat) if seat is not None else ""
    assert deadline is not None and seat is not None
    left = Departure(seat, active.turn, reason, deadline, settled=now)
    try:
        return await depart_locked(active, storage, left)
    except RefereeError:
        return False


def joined_count(stored: StoredGame) -> int:
    """How many seats of the game have joined it."""
    return sum(1 for seat in stored.seats if seat.joined is not None)


def behind(active: ActiveGame, progress: tuple[int, str | None, int, int]) -> bool:
    """Whether the database holds more of the game than ``active``: ``progress`` is its
    stored move count, rematch, departures and seats joined
    (:meth:`~binscrabble.web.storage.Storage.progress`)."""
    moves, rematch, departures, joined = progress
    return (
        moves > len(active.stored.moves)
        or departures > len(active.stored.departures)
        or joined > joined_count(active.stored)
        or (rematch is not None and rematch != active.stored.rematch)
    )


async def reload(active: ActiveGame, storage: Storage) -> None:
    """Rebuild the cached game from the database (another process stored a move)."""
    stored = await asyncio.to_thread(storage.load_game, active.game_id)
    if stored is not None:
        active.stored = stored
        active.game, active.clock = rebuild(stored)


def play_stored(active: ActiveGame, found: list[tuple[str, int | None]]) -> None:
    """Play moves another process stored (notation and time of each) on the held game and
    its clock, as :func:`rebuild` replays them; under the game's lock."""
    game = active.game
    start = active.stored.created_at or 0
    for notation, at in found:
        seat = game.to_move
        game.push(parse_move(notation, game.board))
        active.stored.moves.append(notation)
        active.stored.move_times.append(at)
        clock_after(game, active.clock, seat, at if at is not None else start, moved=True)


#: How many games a process keeps in memory when nothing else is said (``serve --max-games``).
DEFAULT_MAX_GAMES = 1000


def never_in_use(_game_id: str) -> bool:
    """The default of :class:`GameTable`'s ``in_use``: no game is held by anything else."""
    return False


def nothing_to_tell(_active: ActiveGame) -> None:
    """The default of :class:`GameTable`'s ``reloaded``: nobody to tell of a reload."""


class GameTable:
    """The games this process holds in memory, loaded from storage on first use.

    It holds at most ``max_games`` games: past that, the least recently used game that
    nothing is using (no submission holding its lock, and ``in_use(game_id)`` false: no
    WebSocket listening, no computer thinking) is let go, and loaded again from the database
    on its next use. Games in use are never let go, so the table is over the bound only
    while more than ``max_games`` games are in use at once.

    The database is the truth: on every :meth:`get` of a held game (but a submission's,
    which asks only when it is refused), one indexed query asks how many moves it has
    stored (and its rematch), and the game is reloaded when another process on the same
    database moved it on; ``reloaded(active)`` is then called. News of another process's
    change that comes while the game is being loaded (:meth:`heard`) is caught up with as
    soon as it is held: the load may have read the database before that change.
    """

    def __init__(
        self,
        storage: Storage,
        max_games: int = DEFAULT_MAX_GAMES,
        in_use: Callable[[str], bool] = never_in_use,
        reloaded: Callable[[ActiveGame], None] = nothing_to_tell,
    ) -> None:
        if max_games < 1:
            raise ValueError(f"a game table holds at least one game, not {max_games}")
        self.storage = storage
        self.max_games = max_games
        self.in_use = in_use
        self.reloaded = reloaded
        #: The games held, least recently used first.
        self.active_games: OrderedDict[str, ActiveGame] = OrderedDict()
        self._loading = asyncio.Lock()
        #: The game being loaded (one at a time), and whether news of a change of it came
        #: meanwhile.
        self.loading: dict[str, bool] = {}

    def heard(self, game_id: str) -> None:
        """Another process announced a change of a game this table does not hold: when
        it is being loaded, note it (the load may have read the database before the change,
        and the news would be lost)."""
        if game_id in self.loading:
            self.loading[game_id] = True

    async def get(self, game_id: str, *, fresh: bool = True) -> ActiveGame:
        """The active game of that id, as stored; a ``RefereeError`` 404 when there is none.

        ``fresh=False`` skips asking the database whether another process moved a held game
        on: for a submission, whose refusal (409) is the moment to ask (:meth:`refresh`).
        """
        active = self.active_games.get(game_id)
        if active is None:
            active, behind_maybe = await self._load(game_id)
            if behind_maybe:
                await self.catch_up(active)  # under the game's lock: after any other's
            return active
        self.active_games.move_to_end(game_id)
        if fresh:
            await self.refresh(active)
        return active

    async def refresh(self, active: ActiveGame) -> bool:
        """Reload ``active`` if the database holds more of it (another process stored a move
        or a rematch) and tell ``reloaded``; whether it was behind."""
        progress = await asyncio.to_thread(self.storage.progress, active.game_id)
        if progress is None or not behind(active, progress):
            return False
        async with active.lock:
            # A submission of this process may have caught up while the lock was held.
            moved_on = behind(active, progress)
            if moved_on:
                await reload(active, self.storage)
        if moved_on:
            self.reloaded(active)
        return moved_on

    async def catch_up(self, active: ActiveGame) -> bool:
        """Bring a held game up to the database when another process announced a change of
        it (``web/news.py``): the moves stored after the ones held are played on it (the
        whole game is read again when a seat left or a rematch was made meanwhile), then
        ``reloaded`` is told; whether it was behind."""
        async with active.lock:
            known = len(active.stored.moves)
            found, left, rematch, joined = await asyncio.to_thread(
                self.storage.moves_after, active.game_id, known
            )
            if (
                left != len(active.stored.departures)
                or rematch != active.stored.rematch
                or joined != joined_count(active.stored)
            ):
                await reload(active, self.storage)
            elif found:
                try:
                    play_stored(active, found)
                except (NotationError, IllegalMoveError):
                    await reload(active, self.storage)
            else:
                return False
        self.reloaded(active)
        return True

    async def _load(self, game_id: str) -> tuple[ActiveGame, bool]:
        """The game loaded and held, and whether it may be behind the database: news of a
        change of it came while it was read (:meth:`heard`), or another load held it
        meanwhile (that load may still be catching up)."""
        async with self._loading:
            active = self.active_games.get(game_id)
            if active is not None:
                return active, True
            stored, missed = None, False
            if len(game_id) <= 32:
                self.loading[game_id] = False
                try:
                    stored = await asyncio.to_thread(self.storage.load_game, game_id)
                finally:
                    missed = self.loading.pop(game_id)
            if stored is None:
                raise RefereeError(
                    404, _("there is no game {game}: check the link").format(game=repr(game_id))
                )
            game, clock = rebuild(stored)
            active = ActiveGame(stored, game, clock)
            self._keep(active)
            return active, missed

    def _keep(self, active: ActiveGame) -> None:
        self.active_games[active.game_id] = active
        self.trim(keep=active.game_id)

    def trim(self, keep: str | None = None) -> None:
        """Let go of the least recently used games nothing is using, down to the bound;
        never the game ``keep`` (one just loaded for a request)."""
        excess = len(self.active_games) - self.max_games
        if excess <= 0:
            return
        let_go: list[str] = []
        busy: list[str] = []
        for game_id, active in self.active_games.items():
            if len(let_go) == excess:
                break
            if game_id == keep or active.lock.locked() or self.in_use(game_id):
                busy.append(game_id)
            else:
                let_go.append(game_id)
        for game_id in let_go:
            del self.active_games[game_id]
        # Games in use count as used now: the next trim looks past them at once.
        for game_id in busy:
            self.active_games.move_to_end(game_id)

    async def create(
        self,
        names: list[str],
        computers: list[str | None],
        rules: Rules,
        tokens: list[str],
        clock: ClockRules | None = None,
        client: str | None = None,
    ) -> ActiveGame:
        """Store and open a new game; ``tokens`` are the human seats' tokens, seat order;
        ``clock`` its clock (``None``: untimed); ``client`` the address that made it."""
        hashes = iter([token_hash(token) for token in tokens])
        seat_records = [
            SeatRecord(seat, name, computer, None if computer else next(hashes))
            for seat, (name, computer) in enumerate(zip(names, computers, strict=True))
        ]
        return await self.create_with_seats(seat_records, rules, clock, client)

    async def create_with_seats(
        self,
        seat_records: list[SeatRecord],
        rules: Rules,
        clock: ClockRules | None = None,
        client: str | None = None,
    ) -> ActiveGame:
        """Store and open a new game with seats given as stored records, made by the
        address ``client``; its clock starts now."""
        settings = None if clock is None else clock.to_mapping()
        new = NewGame(
            new_game_id(),
            dict(rules.to_mapping()),
            new_seed(),
            seat_records,
            settings,
            now_ms(),
            client,
        )
        stored = StoredGame(
            new.game_id,
            new.rules,
            new.seed,
            new.seats,
            [],
            None,
            settings,
            new.created_at,
            client=client,
        )
        game, running = rebuild(stored)
        await asyncio.to_thread(self.storage.create_game, new)
        active = ActiveGame(stored, game, running)
        self._keep(active)
        return active
