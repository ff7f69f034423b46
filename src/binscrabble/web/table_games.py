"""Games at a real table in the web app (INTERFACES.md §9): the server referees and scores,
the bag and the racks stay on the table.

A table game is stored like any other game (rules, seats, a list of entries), with
``table`` in place of the bag's seed (``table refused`` when a refused play uses the turn:
there is no bag to shuffle). Its entries are what the table entered, in order, each
replayed on a :class:`~binscrabble.table.TableGame`:

- a move in notation (``8D 1+1=10``, ``pass``, ``-01`` an exchange of named tiles,
  ``exchange 3`` an exchange by count);
- ``refused 8A 1+1=10``: a refused play that used the turn (house rule);
- ``rack S CODES``: seat S entered its rack (for its coming move, or the tiles left at the
  end).

>>> stored = StoredGame("g", {}, "table", [], ["8D 1+1=10", "rack 1 000111===", "pass"], None)
>>> is_table(stored), replay_table(stored, ("Ann", "Bo")).scores
(True, [18, 0])
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from binscrabble.game import IllegalMoveError, SetupError
from binscrabble.i18n import _
from binscrabble.legality import sorted_codes
from binscrabble.limits import typed
from binscrabble.move import Exchange, NotationError, Place, parse_move
from binscrabble.rules import Rules
from binscrabble.table import ExchangeCount, TableGame, TableMove
from binscrabble.web.active_games import HeldGame, RefereeError, new_game_id, token_hash
from binscrabble.web.storage import NewGame, SeatRecord, Storage, StoredGame

#: What a table game stores in place of a seed.
TABLE_SEED: Final = "table"
#: ... when a refused play uses the turn.
TABLE_SEED_REFUSED: Final = "table refused"


def is_table(stored: StoredGame) -> bool:
    """Whether a stored game is a game at a table."""
    return stored.seed in (TABLE_SEED, TABLE_SEED_REFUSED)


def read_table_move(text: str, table: TableGame) -> TableMove:
    """A move as the table enters it: notation, or ``exchange N`` (a count); 400 if not."""
    words = text.split()
    if len(words) == 2 and words[0].lower() == "exchange" and words[1].isdigit():
        return ExchangeCount(int(words[1]))
    try:
        return parse_move(text, table.board)
    except NotationError as error:
        # The move as typed, in the language's own quotes (the catalogue's), its control
        # characters escaped so that none reaches a page or a terminal.
        message = _("the move “{move}” cannot be read: {problem}")
        raise RefereeError(400, message.format(move=typed(text), problem=error)) from None


def replay_table(stored: StoredGame, players: Sequence[str]) -> TableGame:
    """The table game a stored game stands for: its entries replayed."""
    table = TableGame(
        players,
        Rules.from_mapping(stored.rules),
        refused_play_loses_turn=stored.seed == TABLE_SEED_REFUSED,
    )
    for entry in stored.moves:
        apply_entry(table, entry)
    return table


def apply_entry(table: TableGame, entry: str) -> None:
    """Replay one stored entry (every stored entry was accepted when it was stored)."""
    word, _, rest = entry.partition(" ")
    if word == "rack":
        seat, _, codes = rest.partition(" ")
        table.enter_rack(int(seat), codes)
    elif word == "refused":
        # Stored because it was refused, and used the turn: it is refused again.
        with contextlib.suppress(IllegalMoveError):
            table.push(parse_move(rest, table.board))
    else:
        table.push(read_table_move(entry, table))


@dataclass
class ActiveTable(HeldGame):
    """One table game in memory: its stored facts, the rebuilt game and its lock."""

    table: TableGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


#: How many table games, and how many ids of other games, a server keeps in memory.
MAX_HELD: Final = 1000


class TableGames:
    """The table games of one server, loaded from storage on first use (the database is
    the truth: a table behind it is rebuilt). At most ``max_held`` are kept, the least
    recently used let go first (but none whose lock is held); as many ids of games that are
    not at a table are remembered, so that those cost no second look."""

    def __init__(self, storage: Storage, max_held: int = MAX_HELD) -> None:
        self.storage = storage
        self.max_held = max_held
        self.held: OrderedDict[str, ActiveTable] = OrderedDict()
        #: Ids known to be other games (not at a table), least recently seen first.
        self.others: OrderedDict[str, None] = OrderedDict()
        #: The games being loaded, each with how many loads of it are under way and whether
        #: news of a change of it came meanwhile (:meth:`heard`).
        self.loading: dict[str, tuple[int, bool]] = {}

    def heard(self, game_id: str) -> None:
        """Another process announced a change of a game not held here: when it is being
        loaded, note it (the load may have read the database before the change, and the
        news would be lost)."""
        if game_id in self.loading:
            self.loading[game_id] = (self.loading[game_id][0], True)

    def _keep(self, active: ActiveTable) -> None:
        self.held[active.game_id] = active
        self.held.move_to_end(active.game_id)
        for game_id in list(self.held)[: max(len(self.held) - self.max_held, 0)]:
            if not self.held[game_id].lock.locked():
                del self.held[game_id]

    async def find(self, game_id: str) -> ActiveTable | None:
        """The table game of that id, ``None`` when it is another game or none."""
        if game_id in self.others or len(game_id) > 32:
            return None
        if game_id not in self.held:
            stored, missed = await self._read(game_id)
            if stored is None:
                return None
            # Another load may have held it while this one read: that copy is the one in use.
            if game_id not in self.held:
                return await self._hold(stored, missed)
        active = self.held[game_id]
        self.held.move_to_end(game_id)
        await self._refresh(active)
        return active

    async def _hold(self, stored: StoredGame, missed: bool) -> ActiveTable | None:
        """Hold a game just read, when it is a table game (``None`` when it is another
        game); brought up to the database when news of it came while it was read."""
        if not is_table(stored):
            self.others[stored.game_id] = None
            while len(self.others) > self.max_held:
                self.others.popitem(last=False)
            return None
        names = [seat.name for seat in stored.seats]
        active = ActiveTable(stored, replay_table(stored, names))
        self._keep(active)
        if missed:
            await self._refresh(active)
        return active

    async def _read(self, game_id: str) -> tuple[StoredGame | None, bool]:
        """The stored game, and whether news of a change of it came while it was read
        (:meth:`heard`): then what was read may be behind the database."""
        loads, missed = self.loading.get(game_id, (0, False))
        self.loading[game_id] = (loads + 1, missed)
        try:
            stored = await asyncio.to_thread(self.storage.load_game, game_id)
        finally:
            loads, missed = self.loading.pop(game_id)
            if loads > 1:
                self.loading[game_id] = (loads - 1, missed)
        return stored, missed

    async def _refresh(self, active: ActiveTable) -> None:
        """Rebuild a held table game in place, under its lock, when another process
        stored entries it does not hold."""
        progress = await asyncio.to_thread(self.storage.progress, active.game_id)
        if progress is not None and progress[0] != len(active.stored.moves):
            async with active.lock:
                stored = await asyncio.to_thread(self.storage.load_game, active.game_id)
                if stored is not None:
                    names = [seat.name for seat in stored.seats]
                    active.stored, active.table = stored, replay_table(stored, names)

    async def create(
        self, names: list[str], rules: Rules, tokens: list[str], refused_loses_turn: bool
    ) -> ActiveTable:
        """Store and open a new table game, a token for every seat."""
        table = TableGame(names, rules, refused_play_loses_turn=refused_loses_turn)
        seats = [
            SeatRecord(seat, name, None, token_hash(token))
            for seat, (name, token) in enumerate(zip(names, tokens, strict=True))
        ]
        seed = TABLE_SEED_REFUSED if refused_loses_turn else TABLE_SEED
        new = NewGame(new_game_id(), dict(rules.to_mapping()), seed, seats)
        await asyncio.to_thread(self.storage.create_game, new)
        active = ActiveTable(StoredGame(new.game_id, new.rules, seed, seats, [], None), table)
        self._keep(active)
        return active


@dataclass(frozen=True, slots=True)
class TableAccepted:
    """A move the table entered and the server stored."""

    turn: int
    notation: str
    score: int


async def store_entry(active: ActiveTable, storage: Storage, seat: int, entry: str) -> None:
    """Store an entry after the last one; 409 when another process stored one first."""
    number = len(active.stored.moves)
    if not await asyncio.to_thread(storage.append_move, active.game_id, number, seat, entry):
        raise RefereeError(409, _("the game moved on meanwhile: reload it and enter that again"))
    active.stored.moves.append(entry)


async def submit_table_move(
    active: ActiveTable, storage: Storage, seat: int, text: str, turn: int
) -> TableAccepted:
    """Judge, store and enter a move for ``seat``; ``turn`` must be the current turn.

    409 for a game over, another seat's turn or a stale turn; 422 for an illegal move
    (stored as a turn when a refused play uses the turn); 400 for a move not understood.
    """
    async with active.lock:
        table = active.table
        if table.end_reason is not None:
            raise RefereeError(409, _("the play is over: enter the tiles left on your rack"))
        if seat != table.to_move:
            raise RefereeError(
                409,
                _("it is {name}'s turn: wait for your turn").format(
                    name=table.players[table.to_move]
                ),
            )
        if turn != len(table.history):
            raise RefereeError(
                409,
                _(
                    "turn {turn} is not the current turn ({current}): the game moved on, "
                    "reload it and enter the move again"
                ).format(turn=turn, current=len(table.history)),
            )
        move = read_table_move(text, table)
        problem = table.illegal_reason(move, seat)
        if problem is not None:
            if table.refused_play_loses_turn and type(move) is Place:
                await store_entry(active, storage, seat, f"refused {text.strip()}")
                apply_entry(table, active.stored.moves[-1])
                raise RefereeError(
                    422, _("illegal move, and the turn is lost: {problem}").format(problem=problem)
                )
            raise RefereeError(422, _("illegal move: {problem}").format(problem=problem))
        entry = move.notation(table.board) if not isinstance(move, Exchange) else move.notation()
        await store_entry(active, storage, seat, entry)
        score = table.push(move, seat)
        return TableAccepted(len(table.history), table.history[-1].notation, score)


async def submit_rack(active: ActiveTable, storage: Storage, seat: int, codes: str) -> None:
    """Store and enter the tiles on ``seat``'s rack; 409 when the game is over, 400 for
    tiles that cannot be that rack."""
    async with active.lock:
        table = active.table
        if table.is_over():
            raise RefereeError(409, _("the game is over: no more racks can be entered"))
        if table.end_reason is None and seat != table.to_move:
            raise RefereeError(409, _("enter your rack on your turn, just before your move"))
        try:
            table.check_rack(seat, codes)
        except SetupError as problem:
            raise RefereeError(
                400, _("that rack cannot be entered: {problem}").format(problem=problem)
            ) from None
        if table.end_reason is None and table.entered_rack(seat) == sorted_codes(codes):
            return  # the same rack again: nothing to store
        await store_entry(active, storage, seat, f"rack {seat} {codes}")
        table.enter_rack(seat, codes)
