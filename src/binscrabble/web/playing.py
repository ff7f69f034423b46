"""The games being played now, for the lobby's list (``GET /api/games``).

The server keeps the list itself, as games move: every view it sends out after a move
(:meth:`binscrabble.web.server.Server.publish`) passes here, so a game enters the list with
its first move, goes to its top with each move, and leaves it when it is over (at once:
the list looks at the game itself each time it is asked, however the game ended), when no
person is left to play in it (its computers would take it to the top with every move of
theirs), when no seat is connected to it (no seat's WebSocket open) and nobody has moved
in it for :data:`ABANDONED_SECONDS`, or when nobody has moved in it for
:data:`IDLE_SECONDS` (it comes back with its next move). The list holds at most
:data:`LISTED` games, the least recently moved let go first, and at most
:data:`PER_CLIENT` games made by one client address, its most recently moved, so that one
client cannot fill it.

That is the list of one process on SQLite, where one process serves every game. On a
shared database (PostgreSQL, several processes) every move stores what the list shows of
its game (``games.listed``, and when, ``games.moved_at``, on the database's clock) in the
move's own statement, and each process answers the list from the database by the same
rules (:meth:`~binscrabble.web.storage.Storage.playing_now`, one query; "a seat connected"
is one connected to the process asked), so every process lists the games played through
any of them. A process reads it at most once every :data:`SHARED_SECONDS`, and again at
once after a change it stored, so the list it answers is at most that late for the moves
other processes stored.

Each entry is what a spectator of the game sees anyway (names, computer levels, scores,
whose turn) and its spectator's address: never a token, a rack, the bag or its seed.

>>> from binscrabble.web.active_games import ActiveGame
>>> from binscrabble.web.storage import SeatRecord, StoredGame
>>> from binscrabble.web.workers import GameJob, replay
>>> seats = [SeatRecord(0, "Ann", None, "h"), SeatRecord(1, "Hal", "hard", None)]
>>> game = replay(GameJob(("Ann", "Hal"), {}, "5", ("pass",)))
>>> now = [100.0]
>>> playing = Playing(clock=lambda: now[0])
>>> playing.saw(ActiveGame(StoredGame("g1", {}, "5", seats, ["pass"], None), game))
>>> [entry["id"] for entry in playing.listing()], playing.listing()[0]["to_move"]
(['g1'], 1)
>>> now[0] += ABANDONED_SECONDS
>>> playing.listing()[0]["idle_seconds"] == ABANDONED_SECONDS
True
>>> now[0] += 1
>>> playing.listing(), len(playing.games)
([], 0)
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from binscrabble.web.active_games import ActiveGame

#: How many games the list holds (the lobby shows them all).
LISTED = 30
#: How many games made by one client address the list holds.
PER_CLIENT = 3
#: A game nobody has moved in for this long (seconds) is not being played now.
IDLE_SECONDS = 3600
#: A game nobody has moved in for this long (seconds) with no seat connected to it is
#: abandoned: not being played now (any clock: a correspondence game waiting days for
#: its next move is not being played now either).
ABANDONED_SECONDS = 600
#: On a shared database, how long (seconds) a process answers the list it last read.
SHARED_SECONDS = 1.0


def nobody_connected(_game_id: str) -> bool:
    """The default of :class:`Playing`'s ``connected``: no seat is connected to any game."""
    return False


@dataclass(frozen=True, slots=True)
class Listed:
    """One game of the list as it stood after its last move."""

    game_id: str
    players: tuple[tuple[str, str | None, int], ...]  # name, computer level, score
    to_move: int
    turn: int
    moved_at: float
    #: The address of the client that made the game (``None``: unknown).
    client: str | None = None
    #: The game itself, asked whether it is still going on each time the list is.
    active: ActiveGame | None = field(default=None, compare=False, repr=False)

    def going_on(self) -> bool:
        """Whether the game goes on with a person playing in it."""
        return self.active is None or self.active.person_plays()

    def answer(self, now: float) -> dict[str, Any]:
        """The entry as ``GET /api/games`` answers it."""
        return entry(self.game_id, self.players, self.to_move, self.turn, now - self.moved_at)


def entry(
    game_id: str,
    players: Iterable[Sequence[Any]],
    to_move: int,
    turn: int,
    idle: float,
) -> dict[str, Any]:
    """A game's entry as ``GET /api/games`` answers it: ``players`` each ``(name, computer
    level, score)``, ``idle`` the seconds since its last move."""
    return {
        "id": game_id,
        "url": f"/games/{game_id}",
        "players": [
            {"name": name, "computer": computer, "score": score}
            for name, computer, score in players
        ],
        "to_move": to_move,
        "turn": turn,
        "idle_seconds": max(0, int(idle)),
    }


def stored_entry(game_id: str, listed: dict[str, Any], to_move: int, idle: float) -> dict[str, Any]:
    """The entry of a game read from a shared database (``games.listed``, written with
    each of its moves: :meth:`~binscrabble.web.storage.Storage.playing_now`)."""
    return entry(game_id, listed["players"], to_move, listed["turn"], idle)


class Playing:
    """The games being played now, most recently moved first (at most ``size``, and at
    most ``per_client`` made by one client address)."""

    def __init__(
        self,
        size: int = LISTED,
        clock: Callable[[], float] = time.monotonic,
        per_client: int = PER_CLIENT,
        connected: Callable[[str], bool] = nobody_connected,
    ) -> None:
        self.size = size
        #: Whether a seat is connected to a game (its WebSocket open).
        self.connected = connected
        self.per_client = per_client
        self.clock = clock
        #: The games listed, least recently moved first.
        self.games: OrderedDict[str, Listed] = OrderedDict()

    def saw(self, active: ActiveGame) -> None:
        """Take note of a game as it is now: listed on top once it has a move and while a
        person plays in it, let go once it is over or left to its computers; an older game
        of the same client is let go past :data:`PER_CLIENT`."""
        game = active.game
        if active.turn == 0 or not active.person_plays():
            self.games.pop(active.game_id, None)
            return
        self.games[active.game_id] = Listed(
            active.game_id,
            tuple(
                (seat.name, seat.computer, score)
                for seat, score in zip(active.stored.seats, game.scores, strict=True)
            ),
            game.to_move,
            active.turn,
            self.clock(),
            active.stored.client,
            active,
        )
        self.games.move_to_end(active.game_id)
        if active.stored.client is not None:
            same = [
                key for key, listed in self.games.items() if listed.client == active.stored.client
            ]
            for key in same[: -self.per_client]:
                del self.games[key]
        while len(self.games) > self.size:
            self.games.popitem(last=False)

    def listing(self) -> list[dict[str, Any]]:
        """Every game listed, most recently moved first, as ``GET /api/games`` answers it;
        the games over, idle for over :data:`IDLE_SECONDS`, or abandoned (idle for over
        :data:`ABANDONED_SECONDS` with no seat connected) are let go first."""
        now = self.clock()
        while self.games and now - next(iter(self.games.values())).moved_at > IDLE_SECONDS:
            self.games.popitem(last=False)
        gone = [
            key
            for key, listed in self.games.items()
            if not listed.going_on()
            or (now - listed.moved_at > ABANDONED_SECONDS and not self.connected(key))
        ]
        for key in gone:
            del self.games[key]
        return [listed.answer(now) for listed in reversed(self.games.values())]
