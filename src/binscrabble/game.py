"""The game: racks, bag, turns, legality with reasons, scoring, undo, end and outcome.

A :class:`Game` is the referee of docs/rules.md §3-§9. It judges a move without playing it
(:meth:`Game.is_legal`, :meth:`Game.illegal_reason`), plays it (:meth:`Game.push`, which
changes nothing when the move is illegal) and takes it back exactly (:meth:`Game.pop`).

>>> from binscrabble.move import parse_move
>>> game = Game.from_setup(Rules(), Board(), ["111+=0&~1", "000000000"], bag=["1", "0"])
>>> move = parse_move("8D 1+1=10", game.board)
>>> game.score(move)
18
>>> game.push(move)
>>> game.scores, game.to_move, game.rack(0), game.bag_size
([18, 0], 1, '&~110', 0)
>>> game.pop() == move
True
>>> print(game.illegal_reason(parse_move("8A 1+1=10", game.board)))
the first play must cover the centre square H8; this one is on A8-F8

Seats are numbered from 0 in the order the players were given. A move carries no seat:
``push``, ``is_legal`` and ``illegal_reason`` take an optional ``seat=`` that, when given,
must be the seat to move (a server passes the seat of the connection that sent the move).

Decisions where docs/rules.md leaves room:

- Exchanges need at least ``rules.rack_size`` tiles in the bag (docs/rules.md's "9" is the rack
  size of the standard game). The tiles given back are shuffled into the bag after the
  new ones are drawn; ``pop`` restores the bag's order and the random state.
- The bingo bonus is earned by playing ``rules.rack_size`` tiles in one play.
- A one-tile play's main run is across when the tile has a neighbour left or right, else
  down (this only orders the runs of a breakdown and picks the notation's direction).
- Under ``parallel_numbers`` a digits-only run is exempt as a *cross* run; for a one-tile
  play either of its runs may be the number, and the other must be an equation.
- Tiles are drawn from the end of the bag list (:attr:`Game.bag` shows that order).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from binscrabble import svg
from binscrabble.board import (
    ACROSS,
    LETTER_MULTIPLIERS,
    SIZE,
    TILES,
    WORD_MULTIPLIERS,
    Board,
    Direction,
    make_tile,
    play_runs,
    single_tile_step,
    square_name,
)
from binscrabble.expr import EquationError, bonus, equation_value
from binscrabble.i18n import N_, _, fill, ngettext
from binscrabble.legality import (
    ILLEGAL_MOVE_KINDS as ILLEGAL_MOVE_KINDS,
)
from binscrabble.legality import (
    IllegalMoveError as IllegalMoveError,
)
from binscrabble.legality import (
    Play,
    play_problem,
    rack_problem,
    sorted_codes,
)
from binscrabble.move import (
    CODE_ORDER,
    Exchange,
    Move,
    Pass,
    Place,
    PlacedTile,
    display_notation,
    move_notation,
)
from binscrabble.movegen import LegalMoves
from binscrabble.rules import (
    BLANK,
    TILE_POINTS,
    Rules,
    faces_in_game,
    tile_bag,
    tile_counts,
)

#: Successive scoreless turns that end the game (docs/rules.md §9).
SCORELESS_TURNS_TO_END: Final = 6
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4


class SetupError(ValueError):
    """A game set up with something impossible: too many players, tiles the set lacks..."""


@dataclass(frozen=True, slots=True)
class TileScore:
    """What one new tile adds to a run: points × letter multiplier."""

    square: int
    face: str
    blank: bool
    points: int
    letter_multiplier: int
    score: int


@dataclass(frozen=True, slots=True)
class RunScore:
    """The score of one run of a play (docs/rules.md §8)."""

    squares: tuple[int, ...]
    direction: Direction
    text: str
    value: int
    bonus: int
    #: The play's new tiles in this run (tiles already on the board score nothing).
    tiles: tuple[TileScore, ...]
    word_multiplier: int
    score: int
    #: Whether this is the play's main run (the line of its tiles) rather than a cross run.
    main: bool

    def explain(self) -> str:
        """The sum written out, e.g. ``(1×2 + 1 + 1 + 1 + 1 + 1 + bonus 2) × 2 = 18``."""
        terms = [
            f"{tile.points}×{tile.letter_multiplier}"
            if tile.letter_multiplier > 1
            else str(tile.points)
            for tile in self.tiles
        ]
        inner = " + ".join([*terms, _("bonus {bonus}").format(bonus=self.bonus)])
        if self.word_multiplier > 1:
            return f"({inner}) × {self.word_multiplier} = {self.score}"
        return f"{inner} = {self.score}"


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """A play's score run by run, plus the bingo bonus.

    >>> from binscrabble.move import parse_move
    >>> game = Game.from_setup(Rules(), Board(), ["111+=0", "0"])
    >>> print(game.score_breakdown(parse_move("8D 1+1=10", game.board)))
    D8-I8 1+1=10 (value 2): (1×2 + 1 + 1 + 1 + 1 + 1 + bonus 2) × 2 = 18
    total 18
    """

    runs: tuple[RunScore, ...]
    bingo: int
    total: int

    def __str__(self) -> str:
        return self.text()

    def text(self, show_run: Callable[[str], str] = str) -> str:
        """The score run by run, each run's equation written by ``show_run`` (as typed, by
        default)."""
        lines = [
            _("{squares} {run} (value {value}): {sum}").format(
                squares=f"{square_name(run.squares[0])}-{square_name(run.squares[-1])}",
                run=show_run(run.text),
                value=run.value,
                sum=run.explain(),
            )
            for run in self.runs
        ]
        if self.bingo:
            lines.append(_("bingo +{bingo}").format(bingo=self.bingo))
        lines.append(_("total {total}").format(total=self.total))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form: runs with text, value, bonus, score and tiles; bingo; total."""
        return {
            "runs": [
                {
                    "squares": [square_name(sq) for sq in run.squares],
                    "direction": "across" if run.direction == ACROSS else "down",
                    "text": run.text,
                    "value": run.value,
                    "bonus": run.bonus,
                    "word_multiplier": run.word_multiplier,
                    "score": run.score,
                    "main": run.main,
                    "tiles": [
                        {
                            "square": square_name(tile.square),
                            "face": tile.face,
                            "blank": tile.blank,
                            "points": tile.points,
                            "letter_multiplier": tile.letter_multiplier,
                            "score": tile.score,
                        }
                        for tile in run.tiles
                    ],
                }
                for run in self.runs
            ],
            "bingo": self.bingo,
            "total": self.total,
        }


class Turn(NamedTuple):
    """One turn of the game's history."""

    seat: int
    move: Move
    #: The mover's rack before the move, as codes.
    rack: str
    score: int
    #: Every player's total after the move (before end-of-game adjustments).
    scores: tuple[int, ...]


def turn_problem(
    end_reason: str | None, players: tuple[str, ...], to_move: int, seat: int | None
) -> IllegalMoveError | None:
    """Why ``seat`` may not move now (the game is over, or it is not its turn), or
    ``None``; any seat may when ``seat`` is ``None``."""
    if end_reason is not None:
        return IllegalMoveError("game_over", _("the game is over"))
    if seat is not None and seat != to_move:
        other = players[seat] if 0 <= seat < len(players) else _("seat {seat}").format(seat=seat)
        return IllegalMoveError(
            "not_your_turn",
            _("it is {name}'s turn, not {other}'s").format(name=players[to_move], other=other),
        )
    return None


#: Why a game ended, as :attr:`Outcome.reason` holds it, and the words of INTERFACES.md §7.
END_REASONS: Final = {
    "out": "played out",
    "scoreless": "scoreless turns",
    "resigned": "resigned",
    "time": "time",
    "aborted": "aborted",
}
#: Why an aborted game was aborted when its seat did not choose to (INTERFACES.md §7's
#: ``end.cause``): ``time``, its time ran out before its first move; ``absent``, it never
#: opened the game. As a record's ``#left`` line and a stored departure say it.
ABORT_CAUSES: Final = {"time": "time-first-move", "absent": "absent"}
#: Every reason a seat leaves a game by: resigned, ran out of time, aborted (by choice, or
#: for one of :data:`ABORT_CAUSES`).
LEAVING_REASONS: Final = ("resigned", "time", "aborted", *ABORT_CAUSES.values())


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``reason`` is ``"out"`` (a player played out with the bag empty), ``"scoreless"`` (six
    successive scoreless turns), ``"resigned"`` or ``"time"`` (the last seat but one left
    the game, by resigning or running out of time: ``seat``) or ``"aborted"`` (by ``seat``,
    before every seat had moved: nobody wins). ``adjustments`` are the end-of-game rack
    adjustments of docs/rules.md §9 and ``penalties`` the overtime penalties of a live
    clock, both already included in ``scores``. ``left`` are the seats that left the game
    before its end (they place last), in the order they left.
    """

    reason: str
    scores: tuple[int, ...]
    adjustments: tuple[int, ...]
    winners: tuple[int, ...]
    players: tuple[str, ...]
    seat: int | None = None
    penalties: tuple[int, ...] = ()
    left: tuple[int, ...] = ()
    #: Why an aborted game was aborted when its seat did not choose to (:data:`ABORT_CAUSES`).
    cause: str | None = None

    @classmethod
    def settled(
        cls,
        reason: str | None,
        adjustments: tuple[int, ...] | None,
        scores: Sequence[int],
        players: tuple[str, ...],
        **ending: Any,
    ) -> Outcome | None:
        """The outcome once the play has ended and its adjustments are known, else ``None``.

        ``ending`` may give ``seat``, ``penalties`` and ``left``. The winners are the seats
        with the best score among those that did not leave; nobody when aborted.
        """
        if reason is None or adjustments is None:
            return None
        left: tuple[int, ...] = ending.get("left", ())
        staying = [seat for seat in range(len(scores)) if seat not in left]
        best = max(scores[seat] for seat in staying)
        winners = () if reason == "aborted" else tuple(s for s in staying if scores[s] == best)
        return cls(
            reason=reason,
            scores=tuple(scores),
            adjustments=adjustments,
            winners=winners,
            players=players,
            seat=ending.get("seat"),
            penalties=ending.get("penalties") or (0,) * len(scores),
            left=left,
            cause=ending.get("cause"),
        )

    @property
    def draw(self) -> bool:
        """Whether several players share the highest total."""
        return len(self.winners) > 1

    @property
    def winner(self) -> int | None:
        """The winning seat, or ``None`` for a draw (or an aborted game)."""
        return self.winners[0] if len(self.winners) == 1 else None

    def view(self) -> dict[str, Any]:
        """The ``result`` of a view: the reason, the rack adjustments, the final totals
        (overtime penalties included), the winning seats and each seat's overtime penalty."""
        return {
            "reason": self.reason,
            "adjustments": list(self.adjustments),
            "final": list(self.scores),
            "winners": list(self.winners),
            "penalties": list(self.penalties),
        }

    def end_view(self) -> dict[str, Any]:
        """The ``end`` of a view (INTERFACES.md §7): the reason in its words, the seat that
        resigned, ran out of time or aborted, and the winners; ``cause`` too when the
        server aborted the game for a seat (:data:`ABORT_CAUSES`)."""
        end: dict[str, Any] = {
            "reason": END_REASONS[self.reason],
            "seat": self.seat,
            "winners": list(self.winners),
        }
        if self.cause is not None:
            end["cause"] = self.cause
        return end

    def __str__(self) -> str:
        totals = ", ".join(
            f"{name} {score}" for name, score in zip(self.players, self.scores, strict=True)
        )
        why = ""
        if self.seat is not None:
            name = self.players[self.seat]
            why = {
                "resigned": f"{name} resigned: ",
                "time": f"{name} ran out of time: ",
                "aborted": f"{name} aborted the game: ",
            }.get(self.reason, "")
            if self.cause == "time":
                why = f"{name}'s time ran out before their first move, the game is aborted: "
            elif self.cause == "absent":
                why = f"{name} never opened the game, it is aborted: "
        if not self.winners:
            return f"{why}nobody wins ({totals})"
        if self.draw:
            names = " and ".join(self.players[seat] for seat in self.winners)
            return f"{why}draw between {names} ({totals})"
        return f"{why}{self.players[self.winners[0]]} wins ({totals})"


# Undo records are plain tuples (cheaper than objects on the push/pop hot path):
# (seat, old rack, drawn tiles, squares placed, score, old scoreless count, old scores when
# the move ended the game, old bag when the move was an exchange, rng state for an exchange)
_UndoRecord = tuple[
    int,
    list[str],
    list[str],
    tuple[int, ...],
    int,
    int,
    list[int] | None,
    list[str] | None,
    object,
]


class Game:
    """A game of Binary Scrabble between 2 to 4 named players.

    With a ``seed`` the bag is shuffled by ``random.Random(seed)``: the same seed and the same
    moves give the same game. Without one it is shuffled by the operating system's secure
    source (``random.SystemRandom``), which nobody can predict.

    >>> game = Game(("Ada", "Bob"), seed=1)
    >>> len(game.rack(0)), game.bag_size
    (9, 82)
    >>> game.push(Pass()); game.to_move
    1
    """

    #: The seed ``Game(...)`` shuffled the bag with (``None``: unseeded, or set up with
    #: :meth:`from_setup`); records store it so that a replay draws the same tiles.
    seed: int | str | None = None

    def __init__(
        self,
        players: Sequence[str] = ("Alice", "Bob"),
        rules: Rules | None = None,
        seed: int | str | None = None,
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        self.players = _check_players(players)
        self._rng: random.Random = (
            random.Random(seed) if seed is not None else random.SystemRandom()
        )
        bag = tile_bag(self.rules)
        self._rng.shuffle(bag)
        self._setup(Board(), [[] for _ in self.players], bag, [0] * len(self.players), 0, 0)
        for rack in self._racks:
            self._draw(rack, self.rules.rack_size)
        self.seed = seed

    def _setup(
        self,
        board: Board,
        racks: list[list[str]],
        bag: list[str],
        scores: list[int],
        to_move: int,
        scoreless_turns: int,
    ) -> None:
        self.board = board
        self._initial_board = board.copy()
        self._racks = racks
        self._bag = bag
        #: Every player's total, by seat.
        self.scores = scores
        #: The seat to move.
        self.to_move = to_move
        #: Successive scoreless turns so far (six end the game).
        self.scoreless_turns = scoreless_turns
        #: Every turn played, in order.
        self.history: list[Turn] = []
        self._undo: list[_UndoRecord] = []
        self._end_reason: str | None = None
        self._adjustments: tuple[int, ...] | None = None
        #: Seats that left the game (resigned or ran out of time), in order; their turns
        #: are skipped.
        self._left: list[int] = []
        #: Every seat's leaving: (turns played then, seat, reason).
        self._departures: list[tuple[int, int, str]] = []
        #: The seat that resigned, ran out of time or aborted to end the game.
        self._end_seat: int | None = None
        #: Why the server aborted the game for ``_end_seat`` (:data:`ABORT_CAUSES`), if so.
        self._end_cause: str | None = None
        self._penalties: tuple[int, ...] | None = None
        self._faces = frozenset(faces_in_game(self.rules))

    @classmethod
    def from_setup(
        cls,
        rules: Rules,
        board: Board,
        racks: Sequence[str | None],
        *,
        players: Sequence[str] | None = None,
        scores: Sequence[int] | None = None,
        to_move: int = 0,
        bag: Sequence[str] | None = None,
        unseen: str | None = None,
        scoreless_turns: int = 0,
        seed: int | str | None = None,
    ) -> Game:
        """A game set up in a given position (position files, tests, the engine).

        ``racks`` holds each seat's rack as codes, or ``None`` for a rack that is not known:
        it is dealt at random. ``players`` defaults to ``Player 1``, ``Player 2``...

        The tiles not on the board nor on a known rack are the *pool*: by default the tile
        set of the rules minus the board (a blank counts as ``?``) minus the known racks;
        ``unseen`` gives the pool explicitly instead (it must come out of that remainder).
        Unknown racks are dealt from the shuffled pool and the rest is the bag. A ``bag``
        given explicitly is used as it is, in order (tiles are drawn from its end); then every
        rack must be known. Board, racks and bag together may not use more tiles of a kind
        than the set holds (:class:`SetupError`).

        >>> game = Game.from_setup(Rules(), Board(), ["1=1", None], seed=7)
        >>> len(game.rack(1)), game.bag_size
        (9, 88)
        """
        if players is None:
            players = [f"Player {seat + 1}" for seat in range(len(racks))]
        names = _check_players(players)
        scores = _check_seats(names, racks, scores, to_move, scoreless_turns)
        tiles = _TileSet(rules)
        tiles.take("".join(tile.code for _, tile in board), "board")
        known = [
            None if rack is None else tiles.take_rack(rack, seat, names[seat])
            for seat, rack in enumerate(racks)
        ]
        rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
        if bag is not None:
            if any(rack is None for rack in known):
                raise SetupError(_("with an explicit bag every rack must be given"))
            tiles.take("".join(bag), "bag")
            bag_list = list(bag)
        else:
            bag_list = tiles.pool(unseen)
            rng.shuffle(bag_list)
        game = cls.__new__(cls)
        game.rules = rules
        game.players = names
        game._rng = rng
        game._bag = bag_list
        dealt = [game._dealt(rack) for rack in known]
        game._setup(board.copy(), dealt, bag_list, list(scores), to_move, scoreless_turns)
        return game

    def _dealt(self, known: list[str] | None) -> list[str]:
        """A known rack as it is, or a rack drawn from the bag."""
        if known is not None:
            return known
        rack: list[str] = []
        self._draw(rack, self.rules.rack_size)
        return rack

    # -- what there is to see ----------------------------------------------------------------

    @property
    def racks(self) -> tuple[str, ...]:
        """Every seat's rack, as codes (``?`` for a blank)."""
        return tuple("".join(rack) for rack in self._racks)

    def rack(self, seat: int | None = None) -> str:
        """A seat's rack as codes; by default the rack of the seat to move."""
        return "".join(self._racks[self.to_move if seat is None else seat])

    @property
    def bag(self) -> tuple[str, ...]:
        """The bag's tiles, in drawing order reversed (the next tile drawn is the last)."""
        return tuple(self._bag)

    @property
    def bag_size(self) -> int:
        """How many tiles are left in the bag."""
        return len(self._bag)

    def unseen(self, seat: int | None = None) -> str:
        """The tiles a seat cannot see: the bag and the other racks, as sorted codes."""
        viewer = self.to_move if seat is None else seat
        codes = list(self._bag)
        for other, rack in enumerate(self._racks):
            if other != viewer:
                codes.extend(rack)
        return sorted_codes(codes)

    def is_first_play(self) -> bool:
        """Whether the board is empty, so the next play must cover H8."""
        return self.board.tile_count == 0

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves now, as a lazy view: iterate, ``len``, ``move in``, ``bool``.

        See :class:`binscrabble.movegen.LegalMoves` (placements best first, then exchanges,
        then pass).
        """
        return LegalMoves(self)

    def is_over(self) -> bool:
        """Whether the game has ended (docs/rules.md §9)."""
        return self._end_reason is not None

    def outcome(self) -> Outcome | None:
        """The result of a finished game, ``None`` while it goes on."""
        return Outcome.settled(
            self._end_reason,
            self._adjustments,
            self.scores,
            self.players,
            seat=self._end_seat,
            penalties=self._penalties,
            left=tuple(self._left),
            cause=self._end_cause,
        )

    def end_view(self) -> dict[str, Any] | None:
        """The ``end`` of a view (INTERFACES.md §7), ``None`` while the game goes on."""
        outcome = self.outcome()
        return None if outcome is None else outcome.end_view()

    @property
    def left(self) -> tuple[int, ...]:
        """The seats that left the game (resigned or ran out of time), in order."""
        return tuple(self._left)

    @property
    def departures(self) -> tuple[tuple[int, int, str], ...]:
        """Each seat that resigned, ran out of time or aborted: (how many turns were played
        then, the seat, ``resigned``, ``time`` or ``aborted``), in order."""
        return tuple(self._departures)

    # -- games that end before they are played out (INTERFACES.md §7) -----------------------

    def resign(self, seat: int, *, reason: str = "resigned") -> None:
        """``seat`` resigns (``reason="time"``: it ran out of time, which is settled alike).

        With two seats left the game ends and the other one wins. With more, the seat
        leaves: it places last, its turns are skipped and the others play on. Raises
        :class:`IllegalMoveError` when the game is over or the seat already left. Not
        undone by :meth:`pop`.

        >>> game = Game(("Ann", "Bob", "Cy"), seed=1)
        >>> game.resign(0); game.to_move, game.is_over()
        (1, False)
        >>> game.resign(2, reason="time"); print(game.outcome())
        Cy ran out of time: Bob wins (Ann 0, Bob 0, Cy 0)
        """
        if reason not in ("resigned", "time"):
            raise ValueError(f"a seat leaves by 'resigned' or 'time', not {reason!r}")
        problem = self._leave_problem(seat)
        if problem is not None:
            raise problem
        self._left.append(seat)
        self._departures.append((len(self.history), seat, reason))
        if len(self._left) == len(self.players) - 1:
            self._end(reason, seat)
        elif seat == self.to_move:
            self.to_move = self._after(seat)

    def abort(self, seat: int, *, cause: str | None = None) -> None:
        """``seat`` aborts the game: it ends with nobody winning. Allowed only until every
        seat still in the game has moved once; :class:`IllegalMoveError` after that or
        when the game is over. ``cause`` says why when the seat did not choose to
        (:data:`ABORT_CAUSES`: its time ran out before its first move, or it never opened
        the game).

        >>> game = Game(("Ann", "Bob"), seed=1)
        >>> game.abort(0, cause="time"); print(game.outcome())
        Ann's time ran out before their first move, the game is aborted: nobody wins (Ann 0, Bob 0)
        >>> game.departures
        ((0, 0, 'time-first-move'),)
        """
        if cause is not None and cause not in ABORT_CAUSES:
            raise ValueError(f"a game is aborted for {', '.join(ABORT_CAUSES)}, not {cause!r}")
        problem = self._leave_problem(seat)
        if problem is not None:
            raise problem
        moved = {turn.seat for turn in self.history}
        if all(other in moved for other in range(len(self.players)) if other not in self._left):
            raise IllegalMoveError(
                "abort_too_late",
                _("a game can be aborted only until every player has moved once: resign instead"),
            )
        reason = "aborted" if cause is None else ABORT_CAUSES[cause]
        self._departures.append((len(self.history), seat, reason))
        self._end("aborted", seat)
        self._end_cause = cause

    def settle_overtime(self, penalties: Sequence[int]) -> None:
        """Take each seat's overtime penalty (points, see :mod:`binscrabble.clock`) from its
        final score; once the game is over, once. An aborted game has no result, so it
        takes no penalty either: its scores count for nothing, and a -10 on one seat would
        read as a result.

        >>> game = Game(["Ann", "Bo"], seed=1)
        >>> game.abort(1, cause="time"); game.settle_overtime([0, 10]); game.scores
        [0, 0]
        """
        if self._end_reason is None or self._penalties is not None:
            raise ValueError("overtime is settled once, when the game is over")
        if len(penalties) != len(self.players):
            raise ValueError(f"{len(self.players)} players but {len(penalties)} penalties")
        if self._end_reason == "aborted":
            penalties = [0] * len(self.players)
        for seat, points in enumerate(penalties):
            self.scores[seat] -= points
        self._penalties = tuple(penalties)

    def _leave_problem(self, seat: int) -> IllegalMoveError | None:
        if self._end_reason is not None:
            return IllegalMoveError("game_over", _("the game is over"))
        if not 0 <= seat < len(self.players):
            return IllegalMoveError("not_your_turn", _("there is no seat {seat}").format(seat=seat))
        if seat in self._left:
            message = _("{name} has left the game").format(name=self.players[seat])
            return IllegalMoveError("game_over", message)
        return None

    def _end(self, reason: str, seat: int) -> None:
        """End the game before it is played out: no rack adjustments."""
        self._end_reason = reason
        self._end_seat = seat
        self._adjustments = (0,) * len(self.players)

    def _after(self, seat: int) -> int:
        """The seat that moves after ``seat``: the next one that did not leave."""
        count = len(self._racks)
        following = (seat + 1) % count
        while following in self._left:
            following = (following + 1) % count
        return following

    # -- legality ----------------------------------------------------------------------------

    def is_legal(self, move: Move, seat: int | None = None) -> bool:
        """Whether ``move`` may be played now (by ``seat``, when given)."""
        return self.illegal_reason(move, seat) is None

    def illegal_reason(self, move: Move, seat: int | None = None) -> IllegalMoveError | None:
        """Why ``move`` may not be played now, or ``None`` when it may. Never raises."""
        problem = turn_problem(self._end_reason, self.players, self.to_move, seat)
        if problem is not None:
            return problem
        if type(move) is Place:
            return self._place_problem(move.tiles)
        if type(move) is Exchange:
            return self._exchange_problem(move.tiles)
        if type(move) is Pass:
            return None
        return IllegalMoveError(
            "not_a_move",
            _("{move} is not a move: a move is a Place, an Exchange or a Pass").format(
                move=repr(move)
            ),
        )

    def _exchange_problem(self, codes: str) -> IllegalMoveError | None:
        if not codes:
            message = _("an exchange gives back at least one tile")
            return IllegalMoveError("empty_exchange", message)
        needed = self.rules.rack_size
        if len(self._bag) < needed:
            return IllegalMoveError(
                "bag_too_small",
                _(
                    "exchanges need at least {needed} tiles in the bag; it holds {held}: play "
                    "or pass instead"
                ).format(needed=needed, held=len(self._bag)),
            )
        return rack_problem(self._racks[self.to_move], list(codes), ())

    def _place_problem(self, tiles: tuple[PlacedTile, ...]) -> IllegalMoveError | None:
        play = Play(
            tiles, self.board, self.rules, rack=self._racks[self.to_move], faces=self._faces
        )
        return play_problem(play)

    # -- scoring -------------------------------------------------------------------------------

    def score(self, move: Move) -> int:
        """The points ``move`` would score now; raises :class:`IllegalMoveError` if illegal."""
        return self.score_breakdown(move).total

    def score_breakdown(self, move: Move) -> ScoreBreakdown:
        """The score of ``move`` run by run (docs/rules.md §8); raises :class:`IllegalMoveError`.

        Exchanges and passes score 0 and have no runs.
        """
        problem = self.illegal_reason(move)
        if problem is not None:
            raise problem
        if type(move) is not Place:
            return ScoreBreakdown((), 0, 0)
        tiles = move.tiles
        new = {tile.square: tile for tile in tiles}
        play = Play(tiles, self.board, self.rules, rack=None, faces=self._faces)
        # A number beside the play (parallel_numbers) scores nothing.
        runs = [
            self._run_score(run.squares, run.text, run.main, new)
            for run in play.runs
            if not run.number
        ]
        bingo = self.rules.bingo_bonus if len(tiles) == self.rules.rack_size else 0
        return ScoreBreakdown(tuple(runs), bingo, sum(run.score for run in runs) + bingo)

    def _run_score(self, run: range, text: str, main: bool, new: dict[int, PlacedTile]) -> RunScore:
        """The score of one run of a play that reads `text`; `new` holds its tiles by square."""
        value = equation_value(text, self.rules)
        tile_scores = []
        word_multiplier = 1
        for sq in run:
            placed = new.get(sq)
            if placed is None:
                continue
            points = 0 if placed.blank else TILE_POINTS[placed.face]
            letter = LETTER_MULTIPLIERS[sq]
            word_multiplier *= WORD_MULTIPLIERS[sq]
            tile_scores.append(
                TileScore(sq, placed.face, placed.blank, points, letter, points * letter)
            )
        run_bonus = bonus(value)
        total = (sum(item.score for item in tile_scores) + run_bonus) * word_multiplier
        return RunScore(
            tuple(run),
            Direction(run.step),
            text,
            value,
            run_bonus,
            tuple(tile_scores),
            word_multiplier,
            total,
            main,
        )

    def _score_on_board(self, squares: Sequence[int]) -> int:
        """The score of the new tiles on ``squares``, already on the board (the fast path).

        Every new tile lies in the main run, so the main run's letter sum and word multiplier
        are those of all new tiles; a cross run holds exactly one new tile.
        """
        cells = self.board.cells
        rules = self.rules
        parallel = rules.parallel_numbers
        single = len(squares) == 1
        step = single_tile_step(cells, squares[0]) if single else _line_step(squares)
        total = 0
        for start, end, run_step, crossing in play_runs(cells, squares, step):
            text = "".join([cells[sq].text for sq in range(start, end + 1, run_step)])  # type: ignore[union-attr]
            if parallel and (crossing >= 0 or single) and not text.strip("01"):
                continue
            if crossing < 0:
                letters = 0
                word = 1
                for sq in squares:
                    letters += cells[sq].points * LETTER_MULTIPLIERS[sq]  # type: ignore[union-attr]
                    word *= WORD_MULTIPLIERS[sq]
            else:
                letters = cells[crossing].points * LETTER_MULTIPLIERS[crossing]  # type: ignore[union-attr]
                word = WORD_MULTIPLIERS[crossing]
            total += (letters + bonus(equation_value(text, rules))) * word
        if len(squares) == rules.rack_size:
            total += rules.bingo_bonus
        return total

    # -- playing and taking back ---------------------------------------------------------------

    def push(self, move: Move, seat: int | None = None, *, checked: bool = True) -> None:
        """Play ``move`` for the seat to move (``seat``, when given, must be that seat).

        Raises :class:`IllegalMoveError` and changes nothing when the move is illegal.
        ``checked=False`` skips every check (``seat`` included), for moves known to be legal
        (from the move generator); it is about twice as fast. An illegal move pushed that way
        leaves the game in an undefined state.
        """
        if checked:
            problem = self.illegal_reason(move, seat)
            if problem is not None:
                raise problem
        mover = self.to_move
        rack = self._racks[mover]
        old_rack = rack[:]
        old_bag: list[str] | None = None
        rng_state: object = None
        drawn: list[str]
        squares: tuple[int, ...] = ()
        score = 0
        if type(move) is Place:
            squares, score, drawn = self._lay(move, rack, old_rack)
        elif type(move) is Exchange:
            old_bag = self._bag[:]
            if type(self._rng) is random.Random:
                rng_state = self._rng.getstate()
            drawn = self._swap(move.tiles, rack)
        else:
            drawn = []
        scores = self.scores
        scores[mover] += score
        old_scoreless = self.scoreless_turns
        self.scoreless_turns = old_scoreless + 1 if score == 0 else 0
        old_scores = self._end_if_over(mover)
        self.history.append(
            Turn(mover, move, "".join(old_rack), score, tuple(old_scores or scores))
        )
        self._undo.append(
            (mover, old_rack, drawn, squares, score, old_scoreless, old_scores, old_bag, rng_state)
        )
        self.to_move = self._after(mover) if self._left else (mover + 1) % len(self._racks)

    def _lay(
        self, move: Place, rack: list[str], old_rack: list[str]
    ) -> tuple[tuple[int, ...], int, list[str]]:
        """Put a play's tiles on the board from `rack` and draw: (its squares, its score,
        the tiles drawn). An equation that fails (only an unchecked illegal play) puts
        board and rack back as they were and raises."""
        cells = self.board.cells
        placed = []
        for tile in move.tiles:
            sq = tile.square
            cells[sq] = TILES[tile.face, tile.blank, tile.rotated]
            placed.append(sq)
            rack.remove(BLANK if tile.blank else tile.face)
        try:
            score = self._score_on_board(placed)
        except EquationError:
            for sq in placed:
                cells[sq] = None
            rack[:] = old_rack
            raise
        self.board.tile_count += len(placed)
        bag = self._bag
        take = min(len(placed), len(bag))
        drawn = bag[len(bag) - take :]
        del bag[len(bag) - take :]
        rack.extend(drawn)
        return tuple(placed), score, drawn

    def _swap(self, codes: str, rack: list[str]) -> list[str]:
        """Exchange `codes` of `rack`: draw as many, then shuffle them into the bag; the
        tiles drawn."""
        for code in codes:
            rack.remove(code)
        drawn = self._draw(rack, len(codes))
        self._bag.extend(codes)
        self._rng.shuffle(self._bag)
        return drawn

    def _end_if_over(self, mover: int) -> list[int] | None:
        """End the game when `mover` went out or the scoreless turns ran out: the scores
        before the racks were settled; None when the game goes on."""
        if not self._racks[mover] and not self._bag:
            old_scores = self.scores[:]
            self._finish("out", mover)
            return old_scores
        if self.scoreless_turns >= SCORELESS_TURNS_TO_END:
            old_scores = self.scores[:]
            self._finish("scoreless", None)
            return old_scores
        return None

    def pop(self) -> Move:
        """Take back the last move exactly, and return it (``IndexError`` when none)."""
        if not self._undo:
            raise IndexError("no move to take back")
        mover, old_rack, drawn, squares, score, old_scoreless, old_scores, old_bag, rng_state = (
            self._undo.pop()
        )
        turn = self.history.pop()
        if old_scores is not None:
            self.scores[:] = old_scores
            self._end_reason = None
            self._adjustments = None
            self._penalties = None
        self.scores[mover] -= score
        self.scoreless_turns = old_scoreless
        if old_bag is not None:
            self._bag[:] = old_bag
            if rng_state is not None:
                self._rng.setstate(rng_state)  # type: ignore[arg-type]
        else:
            self._bag.extend(drawn)
        self._racks[mover][:] = old_rack
        if squares:
            cells = self.board.cells
            for sq in squares:
                cells[sq] = None
            self.board.tile_count -= len(squares)
        self.to_move = mover
        return turn.move

    def arrange_draws(self, codes: str) -> None:
        """Make ``codes`` the next tiles drawn from the bag, in this order.

        A game record whose bag order is unknown says which tiles each player drew (the
        racks it lists); its reader arranges the bag so that the replay draws exactly those.
        Nothing changes when the bag already ends with ``codes``. Not undone by :meth:`pop`.
        Raises :class:`SetupError` when the bag lacks one of the tiles.

        >>> game = Game.from_setup(Rules(), Board(), ["111+=0", "0"], bag=["0", "1", "="])
        >>> game.arrange_draws("=0")
        >>> game.bag
        ('1', '=', '0')
        """
        bag = self._bag
        if not codes or "".join(bag[len(bag) - len(codes) :]) == codes:
            return
        rest = bag[:]
        for code in codes:
            try:
                rest.remove(code)
            except ValueError:
                if code == BLANK:
                    raise SetupError(_("the bag holds no blank to draw")) from None
                raise SetupError(
                    _("the bag holds no {code} to draw").format(code=repr(code))
                ) from None
        bag[:] = [*rest, *codes]

    def _draw(self, rack: list[str], count: int) -> list[str]:
        bag = self._bag
        take = min(count, len(bag))
        if not take:
            return []
        drawn = bag[len(bag) - take :]
        del bag[len(bag) - take :]
        rack.extend(drawn)
        return drawn

    def _finish(self, reason: str, went_out: int | None) -> None:
        # The racks of seats that left are out of play: no adjustment, for them or others.
        left = [
            0 if seat in self._left else sum(TILE_POINTS[code] for code in rack)
            for seat, rack in enumerate(self._racks)
        ]
        adjustments = [-points for points in left]
        if went_out is not None:
            adjustments[went_out] = sum(left)
        for seat, change in enumerate(adjustments):
            self.scores[seat] += change
        self._end_reason = reason
        self._adjustments = tuple(adjustments)

    # -- copies, snapshots, views --------------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy, history and undo included (its random source is a copy too)."""
        other = Game.__new__(Game)
        other.rules = self.rules
        other.seed = self.seed
        other.players = self.players
        if type(self._rng) is random.Random:
            other._rng = random.Random()
            other._rng.setstate(self._rng.getstate())
        else:
            other._rng = random.SystemRandom()
        other.board = self.board.copy()
        other._initial_board = self._initial_board
        other._racks = [rack[:] for rack in self._racks]
        other._bag = self._bag[:]
        other.scores = self.scores[:]
        other.to_move = self.to_move
        other.scoreless_turns = self.scoreless_turns
        other.history = self.history[:]
        # Undo records are never changed after they are made, so they can be shared.
        other._undo = self._undo[:]
        other._end_reason = self._end_reason
        other._adjustments = self._adjustments
        other._left = self._left[:]
        other._departures = self._departures[:]
        other._end_seat = self._end_seat
        other._end_cause = self._end_cause
        other._penalties = self._penalties
        other._faces = self._faces
        return other

    def __getstate__(self) -> dict[str, Any]:
        # The operating system's random source has no state to pickle: a fresh one will do.
        state = dict(self.__dict__)
        if type(self._rng) is not random.Random:
            state["_rng"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self._rng is None:
            self._rng = random.SystemRandom()

    def state(self) -> tuple[object, ...]:
        """A hashable snapshot of everything that defines the game now (not its random
        source): two games with equal states play on identically."""
        return (
            self.rules,
            self.players,
            tuple(self.board.cells),
            tuple(tuple(rack) for rack in self._racks),
            tuple(self._bag),
            tuple(self.scores),
            self.to_move,
            self.scoreless_turns,
            self._end_reason,
            self._adjustments,
            tuple(self._left),
            self._end_seat,
            self._end_cause,
            self._penalties,
            tuple(self.history),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.state() == other.state()

    __hash__ = None  # type: ignore[assignment]  # a mutable game

    def __repr__(self) -> str:
        return (
            f"<Game {' vs '.join(self.players)}: turn {len(self.history) + 1}, "
            f"scores {self.scores}, {'over' if self.is_over() else f'seat {self.to_move} to move'}>"
        )

    def _repr_svg_(self) -> str:
        """The board, scores and last play as a picture, for Jupyter (see binscrabble.svg)."""
        return svg.board(self, scores=True)

    def notations(self) -> list[str]:
        """The notation of every turn in the history, in order."""
        board = self._initial_board.copy()
        result = []
        for turn in self.history:
            result.append(move_notation(turn.move, board))
            if type(turn.move) is Place:
                for tile in turn.move.tiles:
                    board.place(tile.square, make_tile(tile.face, tile.blank, tile.rotated))
        return result

    def view_for(self, seat: int | None, notations: Sequence[str] | None = None) -> dict[str, Any]:
        """The game as ``seat`` may see it (``None``: a spectator), as JSON-able data: the
        one view every program shows a seat (the web app adds the game's id, its seats'
        computer levels and its rematch: INTERFACES.md §5).

        A seat sees the board, the scores, the move log, how many tiles are in the bag and
        its own rack (``seat`` and ``rack``, left out for a spectator); never another seat's
        rack, the bag's order or the seed. Another seat's exchange shows only how many
        tiles went back (``exchange 2``). ``unseen`` is what the viewer cannot see: for a
        seat the bag and the other racks, for a spectator every tile not on the board.
        ``notations`` are those of the history when the caller has them (as stored),
        else they are written out again (:meth:`notations`).

        >>> view = Game(seed=3).view_for(0)
        >>> len(view["rack"]), view["bag"], view["players"][1]
        (9, 82, {'name': 'Bob', 'score': 0, 'tiles': 9, 'left': None})
        """
        written = self.notations() if notations is None else notations
        moves = []
        for turn, notation in zip(self.history, written, strict=True):
            squares: list[str] = []
            shown = notation
            if type(turn.move) is Place:
                squares = [square_name(tile.square) for tile in turn.move.tiles]
            elif type(turn.move) is Exchange and turn.seat != seat:
                shown = f"exchange {len(turn.move.tiles)}"
            moves.append(logged_move(turn.seat, shown, turn.score, squares, turn.scores))
        if seat is None:
            unseen = sorted_codes([*self._bag, *(code for rack in self._racks for code in rack)])
        else:
            unseen = self.unseen(seat)
        outcome = self.outcome()
        # A seat that resigned or ran out of time (INTERFACES.md §7) is shown as such.
        gone = {
            seat: reason
            for _turns, seat, reason in self._departures
            if reason in ("resigned", "time")
        }
        view: dict[str, Any] = {
            **board_view(self.rules, self.board),
            "players": [
                {"name": name, "score": score, "tiles": len(rack), "left": gone.get(seat)}
                for seat, (name, score, rack) in enumerate(
                    zip(self.players, self.scores, self._racks, strict=True)
                )
            ],
            "to_move": None if outcome is not None else self.to_move,
            "turn": len(self.history),
            "bag": len(self._bag),
            "moves": moves,
            "over": outcome is not None,
            "unseen": unseen,
            "last_move": last_move(moves),
            "result": outcome.view() if outcome is not None else None,
            # How the game ended (INTERFACES.md §7): set exactly when ``over``.
            "end": outcome.end_view() if outcome is not None else None,
            # Each seat that left (resigned, ran out of time, aborted), after how many moves.
            "departures": [
                {"turn": turns, "seat": left, "reason": departure_reason(reason)}
                for turns, left, reason in self._departures
            ],
        }
        if seat is not None:
            view["seat"] = seat
            view["rack"] = "".join(self._racks[seat])
        return view


# -- views (the parts a table game's view shares with :meth:`Game.view_for`) -----------------


def departure_reason(reason: str) -> str:
    """How a departure is shown: ``resigned``, ``time``, or ``aborted`` for every abort
    (its cause, a first move's time or a seat never come, is the view's ``end``).

    >>> departure_reason("time"), departure_reason("time-first-move")
    ('time', 'aborted')
    """
    return reason if reason in ("resigned", "time") else "aborted"


def board_view(rules: Rules, board: Board) -> dict[str, Any]:
    """The rules and the board of a view: what every seat and spectator sees alike."""
    return {
        "rules": rules.to_mapping(),
        "preset": rules.preset_name(),
        "board": board.rows(),
        "blanks": [square_name(sq) for sq in board.blank_squares()],
        "rotated": [square_name(sq) for sq in board.rotated_squares()],
    }


def logged_move(
    seat: int, shown: str, score: int, squares: list[str], running: Sequence[int]
) -> dict[str, Any]:
    """One entry of a view's move log: the move as the viewer may see it (``shown``) and as
    people read it (``display``), the squares it covered, its score and every player's
    total after it."""
    return {
        "seat": seat,
        "notation": shown,
        "display": move_for_people(shown),
        "score": score,
        "squares": squares,
        "running": list(running),
    }


def move_for_people(shown: str) -> str:
    """A move of a log as people read it: the tiles' faces (:func:`display_notation`);
    another seat's exchange, logged as its size, in words; a play a table refused (logged
    ``refused NOTATION``) with its faces. Text that is no notation stays as it is.

    >>> move_for_people("8D 1&1=1"), move_for_people("-x?"), move_for_people("exchange 1")
    ('8D 1 AND 1=1', 'exchange × blank', 'exchange of 1 tile')
    >>> move_for_people("refused 8A 1|1=0")
    'refused 8A 1 OR 1=0'
    """
    hidden = shown.removeprefix("exchange ")
    if hidden != shown and hidden.isdecimal():
        count = int(hidden)
        words = ngettext("exchange of {count} tile", "exchange of {count} tiles", count)
        return words.format(count=count)
    refused = shown.removeprefix("refused ")
    if refused != shown:
        return _("refused {move}").format(move=move_for_people(refused))
    try:
        return display_notation(shown)
    except ValueError:  # NotationError: not a move in notation
        return shown


def last_move(moves: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The ``last_move`` of a view: the seat that moved last and the squares it covered."""
    return {"seat": moves[-1]["seat"], "squares": moves[-1]["squares"]} if moves else None


# -- helpers ------------------------------------------------------------------------------


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise SetupError(_("a game has 2 to 4 players, not {count}").format(count=len(names)))
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise SetupError(
                _("a player's name must be a non-empty text, not {name}").format(name=repr(name))
            )
    if len(set(names)) != len(names):
        raise SetupError(_("players need different names: {names}").format(names=", ".join(names)))
    return names


def _check_seats(
    names: tuple[str, ...],
    racks: Sequence[str | None],
    scores: Sequence[int] | None,
    to_move: int,
    scoreless_turns: int,
) -> Sequence[int]:
    """The seats of :meth:`Game.from_setup` checked: one rack and one score a player (the
    scores, by default all 0, are returned), a seat to move that exists."""
    if len(racks) != len(names):
        raise SetupError(
            ngettext(
                "{players} players but {count} rack",
                "{players} players but {count} racks",
                len(racks),
            ).format(players=len(names), count=len(racks))
        )
    if not 0 <= to_move < len(names):
        raise SetupError(
            _("seat to move {seat} does not exist (seats 0 to {last})").format(
                seat=to_move, last=len(names) - 1
            )
        )
    if scores is None:
        scores = [0] * len(names)
    if len(scores) != len(names):
        raise SetupError(
            ngettext(
                "{players} players but {count} score",
                "{players} players but {count} scores",
                len(scores),
            ).format(players=len(names), count=len(scores))
        )
    if scoreless_turns < 0:
        raise SetupError(_("the count of scoreless turns cannot be negative"))
    return scores


#: Where the tiles of a set up game are (:class:`_TileSet`).
Where = Literal["board", "rack", "bag", "unseen"]
#: What :class:`SetupError` says of a code that is no tile, by where it is.
_NOT_A_CODE: Final[Mapping[Where, str]] = {
    "board": N_("the board holds {code}, which is not a tile code"),
    "rack": N_("the rack of {name} holds {code}, which is not a tile code"),
    "bag": N_("the bag holds {code}, which is not a tile code"),
    "unseen": N_("the unseen tiles hold {code}, which is not a tile code"),
}
#: What :class:`SetupError` says of more tiles of a kind than the set holds, by where.
_TOO_MANY: Final[Mapping[Where, str]] = {
    "board": N_("the board: too many {code} tiles; the set holds {count}"),
    "rack": N_("the rack of {name}: too many {code} tiles; the set holds {count}"),
    "bag": N_("the bag: too many {code} tiles; the set holds {count}"),
    "unseen": N_("the unseen tiles: too many {code} tiles; the set holds {count}"),
}


class _TileSet:
    """The tiles of a set up game's rules not yet accounted for (:meth:`Game.from_setup`):
    the board, the known racks and the bag or the unseen tiles each take theirs, and none
    may take more of a kind than the set holds."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.remainder = dict(tile_counts(rules))

    def take(self, codes: str, where: Where, name: str = "") -> None:
        """Take ``codes`` from what is left; ``where`` they are (and the rack's player's
        ``name``) is said in the sentence of a :class:`SetupError`."""
        remainder = self.remainder
        for code in codes:
            if code not in CODE_ORDER:
                raise SetupError(fill(_(_NOT_A_CODE[where]), code=repr(code), name=name))
            if remainder.get(code, 0) <= 0:
                raise SetupError(
                    fill(
                        _(_TOO_MANY[where]),
                        code=repr(code),
                        name=name,
                        count=tile_counts(self.rules).get(code, 0),
                    )
                )
            remainder[code] -= 1

    def take_rack(self, rack: str, seat: int, name: str) -> list[str]:
        size = self.rules.rack_size
        if len(rack) > size:
            raise SetupError(
                ngettext(
                    "rack of seat {seat} holds {count} tile; racks hold {size}",
                    "rack of seat {seat} holds {count} tiles; racks hold {size}",
                    len(rack),
                ).format(seat=seat, count=len(rack), size=size)
            )
        self.take(rack, "rack", name)
        return list(rack)

    def pool(self, unseen: str | None) -> list[str]:
        """The tiles to deal and draw from: `unseen` (taken from what is left), or all
        that is left."""
        if unseen is not None:
            self.take(unseen, "unseen")
            return list(unseen)
        return [code for code in CODE_ORDER for _ in range(self.remainder.get(code, 0))]


def _line_step(squares: Sequence[int]) -> int:
    """The step of the line of a play of several tiles in one line, sorted by square."""
    return 1 if squares[1] - squares[0] < SIZE else SIZE
