"""Games in play: each stored game rebuilt in memory, and the referee's decisions on it.

The database is the truth; an :class:`ActiveGame` is a cache of one game rebuilt by
replaying its stored moves on a :class:`~binscrabble.game.Game` with the stored seed. A
submission is judged by the core library (``illegal_reason``, ``score_breakdown``), stored,
and only then pushed on the cached game, so nobody sees a move that is not committed.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from binscrabble.game import Game
from binscrabble.move import Move, NotationError, Place, PlacedTile, move_notation, parse_move
from binscrabble.rules import Rules
from binscrabble.web.storage import NewGame, SeatRecord, Storage, StoredGame
from binscrabble.web.workers import GameJob, replay


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


def job_of(stored: StoredGame) -> GameJob:
    """A stored game as a job for the worker processes (and for :func:`rebuild`)."""
    return GameJob(
        tuple(seat.name for seat in stored.seats),
        stored.rules,
        stored.seed,
        tuple(stored.moves),
    )


def rebuild(stored: StoredGame) -> Game:
    """The game a stored game stands for: its moves replayed on its seeded bag."""
    return replay(job_of(stored))


@dataclass
class ActiveGame:
    """One game in memory: the stored facts, the rebuilt game and the lock on its turns."""

    stored: StoredGame
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Cached results for a finished game (its analysis), computed once.
    analysis: list[dict[str, object]] | None = None

    @property
    def game_id(self) -> str:
        """The game's id."""
        return self.stored.game_id

    @property
    def turn(self) -> int:
        """How many turns were played."""
        return len(self.game.history)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to, or ``None`` for no token or a wrong one."""
        if not token:
            return None
        digest = token_hash(token)
        for seat in self.stored.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def computer_to_move(self) -> str | None:
        """The level of the computer to move, or ``None`` (a person to move, or game over)."""
        if self.game.is_over():
            return None
        return self.stored.seats[self.game.to_move].computer


def read_move(text: str, game: Game) -> Move:
    """A move written in notation, read on the game's board; a ``RefereeError`` 400 if not."""
    try:
        return parse_move(text, game.board)
    except NotationError as error:
        raise RefereeError(400, f"the move {text!r} cannot be read: {error}") from None


def placement(tiles: list[tuple[int, str, bool, bool]]) -> Place:
    """A play from ``(square, face, blank, rotated)`` tuples (the page's placed tiles)."""
    return Place(tuple(PlacedTile(sq, face, blank, rotated) for sq, face, blank, rotated in tiles))


@dataclass(frozen=True, slots=True)
class Accepted:
    """A move the referee accepted and stored."""

    turn: int
    notation: str
    score: int


async def submit(
    active: ActiveGame, storage: Storage, seat: int, move: Move, turn: int | None
) -> Accepted:
    """Judge, store and play ``move`` for ``seat``; ``turn`` must be the current turn.

    Raises :class:`RefereeError`: 409 for a game over, another seat's turn or a stale
    turn (including a turn another process stored first), 422 for an illegal move.
    """
    async with active.lock:
        game = active.game
        if game.is_over():
            raise RefereeError(409, "the game is over: no more moves can be played")
        if seat != game.to_move:
            raise RefereeError(
                409, f"it is {game.players[game.to_move]}'s turn: wait for your turn"
            )
        if turn is not None and turn != active.turn:
            raise RefereeError(
                409,
                f"turn {turn} is not the current turn ({active.turn}): the game moved on, "
                "reload it and play again",
            )
        problem = game.illegal_reason(move, seat)
        if problem is not None:
            raise RefereeError(422, f"illegal move: {problem}")
        score = game.score(move)
        notation = move_notation(move, game.board)
        number = active.turn
        stored = await asyncio.to_thread(
            storage.append_move, active.game_id, number, seat, notation
        )
        if not stored:
            await reload(active, storage)
            raise RefereeError(
                409, f"turn {number} was already played: reload the game and play again"
            )
        game.push(move, seat)
        active.stored.moves.append(notation)
        return Accepted(number + 1, notation, score)


async def reload(active: ActiveGame, storage: Storage) -> None:
    """Rebuild the cached game from the database (another process stored a move)."""
    stored = await asyncio.to_thread(storage.load_game, active.game_id)
    if stored is not None:
        active.stored = stored
        active.game = rebuild(stored)


class GameTable:
    """Every game this process has open, loaded from storage on first use."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.active_games: dict[str, ActiveGame] = {}
        self._loading = asyncio.Lock()

    async def get(self, game_id: str) -> ActiveGame:
        """The active game of that id; a ``RefereeError`` 404 when there is no such game."""
        active = self.active_games.get(game_id)
        if active is not None:
            return active
        async with self._loading:
            active = self.active_games.get(game_id)
            if active is not None:
                return active
            stored = None
            if len(game_id) <= 32:
                stored = await asyncio.to_thread(self.storage.load_game, game_id)
            if stored is None:
                raise RefereeError(404, f"there is no game {game_id!r}: check the link")
            active = ActiveGame(stored, rebuild(stored))
            self.active_games[game_id] = active
            return active

    async def create(
        self, names: list[str], computers: list[str | None], rules: Rules, tokens: list[str]
    ) -> ActiveGame:
        """Store and open a new game; ``tokens`` are the human seats' tokens, seat order."""
        hashes = iter([token_hash(token) for token in tokens])
        seat_records = [
            SeatRecord(seat, name, computer, None if computer else next(hashes))
            for seat, (name, computer) in enumerate(zip(names, computers, strict=True))
        ]
        return await self.create_with_seats(seat_records, rules)

    async def create_with_seats(self, seat_records: list[SeatRecord], rules: Rules) -> ActiveGame:
        """Store and open a new game with seats given as stored records."""
        new = NewGame(new_game_id(), dict(rules.to_mapping()), new_seed(), seat_records)
        stored = StoredGame(new.game_id, new.rules, new.seed, new.seats, [], None)
        game = rebuild(stored)
        await asyncio.to_thread(self.storage.create_game, new)
        active = ActiveGame(stored, game)
        self.active_games[new.game_id] = active
        return active
