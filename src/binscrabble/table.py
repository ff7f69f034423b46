"""A game at a real table: the program referees and scores, the tiles stay on the table.

A :class:`TableGame` is played with a real set: the players draw from a real bag and keep
real racks, and enter on the program only what they lay on the board. The program judges
every play by the rules of docs/rules.md §3-§6 (:data:`~binscrabble.legality.PLAY_RULES`)
except that it cannot see the rack: in place of :func:`~binscrabble.legality.tiles_on_the_rack`
it checks what it can know, that the player holds that many tiles and that the set holds
those tiles besides the board. A seat may enter its rack (:meth:`TableGame.enter_rack`);
until its next move its plays and exchanges are then checked against that rack, exactly as
in a normal game, and its unseen tiles leave that rack out.

The program counts the tiles: how many each rack holds and how many are left in the bag
(each rack is refilled after a play as long as the bag lasts). So it knows when a player has
gone out with the bag empty, and when an exchange is no longer allowed. Scores, the
scoreless-turn count and the end are those of a normal :class:`~binscrabble.game.Game` with
the same plays; at the end each player enters the tiles left on their rack, and the usual
adjustments of docs/rules.md §9 follow.

>>> from binscrabble.move import parse_move
>>> table = TableGame(("Ada", "Bob"))
>>> table.push(parse_move("8D 1+1=10", table.board))
18
>>> table.scores, table.to_move, table.rack_sizes, table.bag_size
([18, 0], 1, (9, 9), 76)
>>> print(table.illegal_reason(parse_move("12A 1=1", table.board)))
the play on A12-C12 must touch a tile already on the board
>>> table.push(ExchangeCount(3))
0

A refused play does not use the turn, unless the table plays by the house rule that it does
(``refused_play_loses_turn=True``): then it is recorded as a scoreless turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from binscrabble.board import Board, make_tile, square_name
from binscrabble.game import (
    SCORELESS_TURNS_TO_END,
    Game,
    IllegalMoveError,
    Outcome,
    ScoreBreakdown,
    SetupError,
    board_view,
    last_move,
    logged_move,
    turn_problem,
)
from binscrabble.i18n import _, fill, ngettext
from binscrabble.legality import (
    PLAY_RULES,
    Play,
    Rule,
    play_problem,
    rack_problem,
    sorted_codes,
    tiles_on_the_rack,
)
from binscrabble.move import CODE_ORDER, Exchange, Move, Pass, Place, move_notation
from binscrabble.record import outcome_lines
from binscrabble.rules import BLANK, TILE_POINTS, Rules, faces_in_game, tile_counts

#: Every ``TableTurn.kind``.
TURN_KINDS: Final = ("place", "exchange", "pass", "refused")


@dataclass(frozen=True, slots=True)
class ExchangeCount:
    """An exchange entered by the number of tiles given back (the tiles stay unseen).

    >>> ExchangeCount(3).notation()
    'exchange 3'
    """

    count: int

    def notation(self, board: Board | None = None) -> str:
        """``exchange N``."""
        return f"exchange {self.count}"


#: What a seat may enter on its turn.
TableMove = Move | ExchangeCount


class TableTurn(NamedTuple):
    """One turn of a table game's history."""

    seat: int
    #: ``place``, ``exchange``, ``pass`` or ``refused`` (a refused play that used the turn).
    kind: str
    move: TableMove
    #: The move in notation, written on the board before it (an exchange by count:
    #: ``exchange N``).
    notation: str
    #: The mover's rack before the move when that seat entered it, else ``None``.
    rack: str | None
    score: int
    #: Every player's total after the move (before end-of-game adjustments).
    scores: tuple[int, ...]
    #: Why the play was refused, for a ``refused`` turn.
    reason: str | None = None


def _too_few(code: str, free: int, count: int) -> str:
    """Why a rack of ``count`` tiles ``code`` cannot be entered when ``free`` are left."""
    if code == BLANK:
        message = ngettext(
            "the set has only {free} blank off the board and the other racks entered, not {count}",
            "the set has only {free} blanks off the board and the other racks entered, not {count}",
            free,
        )
    else:
        message = ngettext(
            "the set has only {free} {code} tile off the board and the other racks entered, "
            "not {count}",
            "the set has only {free} {code} tiles off the board and the other racks entered, "
            "not {count}",
            free,
        )
    return message.format(free=free, code=repr(code), count=count)


class TableGame:
    """A game of 2 to 4 players at a real table (see the module's documentation)."""

    def __init__(
        self,
        players: Sequence[str] = ("Alice", "Bob"),
        rules: Rules | None = None,
        *,
        refused_play_loses_turn: bool = False,
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        # A normal game checks the names the same way.
        self.players = Game(players, self.rules, seed=0).players
        self.refused_play_loses_turn = refused_play_loses_turn
        self.board = Board()
        self._set = tile_counts(self.rules)
        self._faces = frozenset(faces_in_game(self.rules))
        bag = sum(self._set.values())
        sizes = []
        for _player in self.players:
            dealt = min(self.rules.rack_size, bag)
            sizes.append(dealt)
            bag -= dealt
        self._rack_sizes = sizes
        self._bag_size = bag
        #: Every player's total, by seat.
        self.scores = [0] * len(self.players)
        #: The seat to move.
        self.to_move = 0
        #: Successive scoreless turns so far (six end the game).
        self.scoreless_turns = 0
        #: Every turn played, in order.
        self.history: list[TableTurn] = []
        self._entered: list[str | None] = [None] * len(self.players)
        #: The seat that went out, when the game ended that way.
        self._went_out: int | None = None
        self._end_reason: str | None = None
        #: The tiles left on each rack, as entered at the end (``None``: not yet).
        self._left: list[str | None] = [None] * len(self.players)
        self._adjustments: tuple[int, ...] | None = None

    # -- what there is to see --------------------------------------------------------------

    @property
    def rack_sizes(self) -> tuple[int, ...]:
        """How many tiles each rack holds."""
        return tuple(self._rack_sizes)

    @property
    def bag_size(self) -> int:
        """How many tiles are left in the bag."""
        return self._bag_size

    def entered_rack(self, seat: int) -> str | None:
        """The rack `seat` entered for its coming move, or ``None``."""
        return self._entered[seat]

    def unseen(self, seat: int | None = None) -> str:
        """The tiles of the set not on the board (nor on `seat`'s rack, when it entered it),
        as sorted codes; ``seat=None``: a spectator's."""
        left = self._off_board()
        own = self._entered[seat] if seat is not None else None
        if own:
            left.subtract(own)
        return sorted_codes([code for code in CODE_ORDER for _ in range(left[code])])

    def _off_board(self) -> Counter[str]:
        left = Counter(self._set)
        left.subtract(tile.code for _, tile in self.board)
        return left

    def is_over(self) -> bool:
        """Whether the game is over, the racks left entered."""
        return self._adjustments is not None

    @property
    def end_reason(self) -> str | None:
        """``out`` or ``scoreless`` once the play has ended (racks left still to enter,
        perhaps), else ``None``."""
        return self._end_reason

    def awaiting_racks(self) -> tuple[int, ...]:
        """The seats still to enter the tiles left on their rack (the play having ended)."""
        if self._end_reason is None:
            return ()
        return tuple(seat for seat, left in enumerate(self._left) if left is None)

    def outcome(self) -> Outcome | None:
        """The result, once the racks left are entered; ``None`` before."""
        return Outcome.settled(self._end_reason, self._adjustments, self.scores, self.players)

    @property
    def racks_left(self) -> tuple[str | None, ...]:
        """The tiles left on each rack, as entered at the end (``None``: not entered)."""
        return tuple(self._left)

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """The game as ``seat`` may see it (``None``: a spectator), in the shape of
        :meth:`Game.view_for`: no ``rack`` unless that seat entered its own, another seat's
        exchange of named tiles shown by its count, a refused play as ``refused NOTATION``;
        and ``table``: the house rule on refused plays, the seats still to enter the tiles
        left on their rack, and those entered.

        >>> view = TableGame(("Ann", "Bo")).view_for(0)
        >>> view["bag"], view["players"][1], "rack" in view, view["table"]["awaiting_racks"]
        (82, {'name': 'Bo', 'score': 0, 'tiles': 9}, False, [])
        """
        moves = []
        for turn in self.history:
            squares = []
            if isinstance(turn.move, Place) and turn.kind == "place":
                squares = [square_name(tile.square) for tile in turn.move.tiles]
            shown = turn.notation
            if turn.kind == "exchange" and turn.seat != seat and turn.notation[0] == "-":
                shown = f"exchange {len(turn.notation) - 1}"
            if turn.kind == "refused":
                shown = f"refused {turn.notation}"
            moves.append(logged_move(turn.seat, shown, turn.score, squares, turn.scores))
        outcome = self.outcome()
        view: dict[str, Any] = {
            **board_view(self.rules, self.board),
            "players": [
                {"name": name, "score": score, "tiles": tiles}
                for name, score, tiles in zip(
                    self.players, self.scores, self._rack_sizes, strict=True
                )
            ],
            "to_move": None if self._end_reason is not None else self.to_move,
            "turn": len(self.history),
            "bag": self._bag_size,
            "moves": moves,
            "over": outcome is not None,
            "unseen": self.unseen(seat),
            "last_move": last_move(moves),
            "result": outcome.view() if outcome is not None else None,
            "end": outcome.end_view() if outcome is not None else None,
            "table": {
                "refused_play_loses_turn": self.refused_play_loses_turn,
                "awaiting_racks": list(self.awaiting_racks()),
                "racks_left": list(self._left),
            },
        }
        if seat is not None:
            view["seat"] = seat
            if self._entered[seat] is not None:
                view["rack"] = self._entered[seat]
        return view

    # -- entering racks --------------------------------------------------------------------

    def enter_rack(self, seat: int, codes: str) -> None:
        """Enter the tiles on `seat`'s rack: while the game goes on, its rack for its coming
        move (kept until it moves); once the play has ended, the tiles left on it.

        Raises :class:`~binscrabble.game.SetupError` (see :meth:`check_rack`) and changes
        nothing when the tiles cannot be that rack.
        """
        self.check_rack(seat, codes)
        self._enter(seat, codes)

    def check_rack(self, seat: int, codes: str) -> None:
        """Raise :class:`~binscrabble.game.SetupError` when `codes` cannot be entered as
        `seat`'s rack now: the game is over, the tiles left are in already, not as many tiles
        as the rack holds, or more of a kind than the set holds besides the board (and the
        other racks entered)."""
        if not 0 <= seat < len(self.players):
            raise SetupError(
                _("seat {seat} does not exist (seats 0 to {last})").format(
                    seat=seat, last=len(self.players) - 1
                )
            )
        name = self.players[seat]
        if self.is_over():
            raise SetupError(_("the game is over"))
        if self._end_reason is not None and self._left[seat] is not None:
            raise SetupError(
                fill(_("the tiles left on {name}'s rack are already entered"), name=name)
            )
        for code in codes:
            if code not in CODE_ORDER:
                raise SetupError(
                    _("{code} is not a tile code ({codes})").format(
                        code=repr(code), codes=" ".join(CODE_ORDER)
                    )
                )
        held = self._rack_sizes[seat]
        if len(codes) != held:
            raise SetupError(
                fill(
                    ngettext(
                        "{name}'s rack holds {held} tile, not {count}: enter every tile on it",
                        "{name}'s rack holds {held} tiles, not {count}: enter every tile on it",
                        held,
                    ),
                    name=name,
                    held=held,
                    count=len(codes),
                )
            )
        others = self._left if self._end_reason is not None else self._entered
        free = self._off_board()
        for other, rack in enumerate(others):
            if other != seat and rack:
                free.subtract(rack)
        for code, count in Counter(codes).items():
            if count > free[code]:
                raise SetupError(_too_few(code, max(free[code], 0), count))

    def _enter(self, seat: int, codes: str) -> None:
        if self._end_reason is None:
            self._entered[seat] = sorted_codes(codes)
        else:
            self._left[seat] = sorted_codes(codes)
            if all(left is not None for left in self._left):
                self._settle()

    # -- legality and scoring --------------------------------------------------------------

    def is_legal(self, move: TableMove, seat: int | None = None) -> bool:
        """Whether ``move`` may be entered now (by ``seat``, when given)."""
        return self.illegal_reason(move, seat) is None

    def illegal_reason(self, move: TableMove, seat: int | None = None) -> IllegalMoveError | None:
        """Why ``move`` may not be entered now, or ``None``. The reasons are a normal game's
        (:meth:`binscrabble.game.Game.illegal_reason`), but for the rack when not entered."""
        problem = turn_problem(self._end_reason, self.players, self.to_move, seat)
        if problem is not None:
            return problem
        if type(move) is Place:
            rack = self._entered[self.to_move]
            play = Play(
                move.tiles,
                self.board,
                self.rules,
                rack=None if rack is None else list(rack),
                faces=self._faces,
            )
            return play_problem(play, PLAY_RULES if rack is not None else self._table_rules())
        if type(move) is Exchange or type(move) is ExchangeCount:
            return self._exchange_problem(move)
        if type(move) is Pass:
            return None
        return IllegalMoveError(
            "not_a_move",
            _(
                "{move} is not a move: a move is a Place, an Exchange, an ExchangeCount or a Pass"
            ).format(move=repr(move)),
        )

    def _table_rules(self) -> tuple[Rule, ...]:
        """The rules of a play whose rack is not known: the rack's rule replaced by what
        the table lets the program check."""
        return tuple(
            self._tiles_from_the_table if rule is tiles_on_the_rack else rule for rule in PLAY_RULES
        )

    def _tiles_from_the_table(self, play: Play) -> IllegalMoveError | None:
        """No more tiles than the mover holds, and none the set lacks besides the board."""
        held = self._rack_sizes[self.to_move]
        if len(play.tiles) > held:
            return IllegalMoveError(
                "not_on_rack",
                fill(
                    ngettext(
                        "{name}'s rack holds {count} tile; this play lays {laid}",
                        "{name}'s rack holds {count} tiles; this play lays {laid}",
                        held,
                    ),
                    name=self.players[self.to_move],
                    count=held,
                    laid=len(play.tiles),
                ),
                play.squares,
            )
        free = self._off_board()
        for code, count in Counter(tile.code for tile in play.tiles).items():
            if count > free[code]:
                name = _("blank") if code == BLANK else repr(code)
                return IllegalMoveError(
                    "not_on_rack",
                    _(
                        "this play lays {count} {face} tile(s); the set has only {free} besides "
                        "the board"
                    ).format(count=count, face=name, free=max(free[code], 0)),
                    play.squares,
                )
        return None

    def _exchange_problem(self, move: Exchange | ExchangeCount) -> IllegalMoveError | None:
        count = move.count if isinstance(move, ExchangeCount) else len(move.tiles)
        if count < 1:
            message = _("an exchange gives back at least one tile")
            return IllegalMoveError("empty_exchange", message)
        needed = self.rules.rack_size
        if self._bag_size < needed:
            return IllegalMoveError(
                "bag_too_small",
                _(
                    "exchanges need at least {needed} tiles in the bag; it holds {held}: play "
                    "or pass instead"
                ).format(needed=needed, held=self._bag_size),
            )
        rack = self._entered[self.to_move]
        if rack is not None and type(move) is Exchange:
            return rack_problem(list(rack), list(move.tiles), ())
        if type(move) is Exchange:
            # Tiles named without a known rack: none the set lacks besides the board.
            free = self._off_board()
            for code, given in Counter(move.tiles).items():
                if given > free[code]:
                    name = _("blank") if code == BLANK else repr(code)
                    return IllegalMoveError(
                        "not_on_rack",
                        _(
                            "this exchange gives back {count} {face} tile(s); the set has only "
                            "{free} besides the board"
                        ).format(count=given, face=name, free=max(free[code], 0)),
                    )
        held = self._rack_sizes[self.to_move]
        if count > held:
            return IllegalMoveError(
                "not_on_rack",
                fill(
                    ngettext(
                        "{name}'s rack holds {count} tile; an exchange cannot give back {given}",
                        "{name}'s rack holds {count} tiles; an exchange cannot give back {given}",
                        held,
                    ),
                    name=self.players[self.to_move],
                    count=held,
                    given=count,
                ),
            )
        return None

    def score_breakdown(self, move: TableMove) -> ScoreBreakdown:
        """The score of ``move`` run by run, as a normal game counts it; raises
        :class:`~binscrabble.game.IllegalMoveError` when it is illegal."""
        problem = self.illegal_reason(move)
        if problem is not None:
            raise problem
        if type(move) is not Place:
            return ScoreBreakdown((), 0, 0)
        # A normal game in this position, the mover holding exactly these tiles.
        racks = ["" for _ in self.players]
        racks[self.to_move] = move.codes
        game = Game.from_setup(
            self.rules, self.board, racks, players=self.players, to_move=self.to_move, bag=[]
        )
        return game.score_breakdown(move)

    def score(self, move: TableMove) -> int:
        """The points ``move`` would score now; raises when it is illegal."""
        return self.score_breakdown(move).total

    # -- playing ---------------------------------------------------------------------------

    def push(self, move: TableMove, seat: int | None = None) -> int:
        """Enter ``move`` for the seat to move (``seat``, when given, must be it): its score.

        An illegal move raises :class:`~binscrabble.game.IllegalMoveError`. It changes
        nothing, unless the game was made with ``refused_play_loses_turn`` and the move was a
        play refused by the rules (not a move out of turn, nor after the end): then the turn
        passes, scoreless, recorded as ``refused``, and the error is still raised.
        """
        problem = self.illegal_reason(move, seat)
        if problem is not None:
            if (
                self.refused_play_loses_turn
                and type(move) is Place
                and problem.kind not in ("game_over", "not_your_turn")
            ):
                self._record(move, "refused", 0, reason=str(problem))
            raise problem
        if type(move) is Place:
            score = self.score_breakdown(move).total
            self._record(move, "place", score)
        elif type(move) is Pass:
            self._record(move, "pass", 0)
        else:
            self._record(move, "exchange", 0)
        return score if type(move) is Place else 0

    def _record(self, move: TableMove, kind: str, score: int, reason: str | None = None) -> None:
        mover = self.to_move
        if type(move) is Place:
            notation = _play_notation(move, self.board)
        elif type(move) is ExchangeCount:
            notation = move.notation()
        else:
            notation = move.notation(self.board)
        if kind == "place" and type(move) is Place:
            for tile in move.tiles:
                self.board.place(tile.square, make_tile(tile.face, tile.blank, tile.rotated))
            laid = len(move.tiles)
            drawn = min(laid, self._bag_size)
            self._rack_sizes[mover] += drawn - laid
            self._bag_size -= drawn
        self.scores[mover] += score
        self.scoreless_turns = self.scoreless_turns + 1 if score == 0 else 0
        rack = self._entered[mover]
        self._entered[mover] = None
        self.history.append(
            TableTurn(mover, kind, move, notation, rack, score, tuple(self.scores), reason)
        )
        self.to_move = (mover + 1) % len(self.players)
        if self._rack_sizes[mover] == 0 and self._bag_size == 0:
            self._end_reason = "out"
            self._went_out = mover
            self._left[mover] = ""
            self._entered = [None] * len(self.players)
        elif self.scoreless_turns >= SCORELESS_TURNS_TO_END:
            self._end_reason = "scoreless"
            self._entered = [None] * len(self.players)

    def _settle(self) -> None:
        """The end-of-game adjustments of docs/rules.md §9, once every rack left is in."""
        left = [sum(TILE_POINTS[code] for code in rack or "") for rack in self._left]
        adjustments = [-points for points in left]
        if self._went_out is not None:
            adjustments[self._went_out] = sum(left)
        for seat, change in enumerate(adjustments):
            self.scores[seat] += change
        self._adjustments = tuple(adjustments)


def _play_notation(move: Place, board: Board) -> str:
    """A play in notation; a refused play whose tiles are not in one line is written tile by
    tile (``H8 1, J10 =``)."""
    try:
        return move_notation(move, board)
    except ValueError:
        return ", ".join(f"{square_name(tile.square)} {tile.code}" for tile in move.tiles)


#: The first line of a table game's record.
TABLE_RECORD_MAGIC: Final = "#binscrabble-table-record 1"


def write_table_record(table: TableGame) -> str:
    """The record of a table game: the layout of a game record (docs/record-format.md)
    with ``*`` for a rack the program never saw, refused turns as ``refused NOTATION``, and
    the end lines once the racks left are in.

    >>> from binscrabble.move import parse_move
    >>> table = TableGame(("Ada", "Bob"))
    >>> _ = table.push(parse_move("8D 1+1=10", table.board))
    >>> print(write_table_record(table).splitlines()[-1])
    >Ada: * 8D 1+1=10 +18 18
    """
    lines = [TABLE_RECORD_MAGIC, "# Binary Scrabble game at a table (racks not seen: *)"]
    for seat, name in enumerate(table.players):
        lines.append(f"#player{seat + 1} {name}")
    for name, value in table.rules.to_mapping().items():
        shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
        lines.append(f"#rule {name} {shown}")
    lines.append(
        f"#table refused_play_loses_turn {'on' if table.refused_play_loses_turn else 'off'}"
    )
    for turn in table.history:
        name = table.players[turn.seat]
        move = f"refused {turn.notation}" if turn.kind == "refused" else turn.notation
        lines.append(f">{name}: {turn.rack or '*'} {move} +{turn.score} {turn.scores[turn.seat]}")
    outcome = table.outcome()
    if outcome is not None:
        lines.extend(outcome_lines(outcome, table.racks_left))
    return "\n".join(lines) + "\n"
