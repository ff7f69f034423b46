"""Rollouts: a candidate played out a move or two in one imagined deal of the unseen tiles.

An *imagined game* (:func:`imagined_game`) deals the tiles our seat cannot see at random:
the opponent's rack first, then the bag. A blank dealt to the opponent is swapped into the
bag (:func:`blanks_to_the_bag`): its plays cost too much to find for the little they change
between candidates. In that deal a candidate is played, the opponent replies with a quick
equity move (:func:`rollout_reply`), and with two plies we answer once more, counted for
its equity and not played when it is the best exchange or uses a kept blank
(:func:`answer_with_blanks_as_ones`). :func:`rollout_value` gives the candidate's value in
the deal; :func:`rollout_to_end` plays both sides on to the end of the game instead, for
the last decisions before the bag is empty.

:class:`DealReplies` finds the opponent's replies to every candidate of a deal with one
shared move generation and a small one per candidate: the same moves as
:func:`rollout_reply`, with less work.

>>> from binscrabble.engine.players import ranked_candidates
>>> game = Game(("A", "B"), seed=5)
>>> table = LeaveTable.default()
>>> world = imagined_game(game, 0, game.unseen(0), seed=1)
>>> candidate = ranked_candidates(world, table, limit=1)[0]
>>> value, deviation = rollout_value(world, 0, candidate, table)
>>> world.state() == imagined_game(game, 0, game.unseen(0), seed=1).state()  # taken back
True
>>> deviation > 0
True
"""

from __future__ import annotations

import heapq
import math
import weakref
from collections.abc import Sequence
from typing import Final, Literal

from binscrabble.board import SIZE, Tile, line_bounds, run_bounds
from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.players import (
    Candidate,
    EquityEvaluator,
    can_exchange,
    candidate_order,
    distinct_subsets,
    leave_after,
    used_codes,
)
from binscrabble.engine.winchance import WinChance, score_lead
from binscrabble.game import Game
from binscrabble.move import Exchange, Move, Pass, Place
from binscrabble.movegen import GeneratedMove, best_moves, best_placements, sort_key
from binscrabble.rules import BLANK

#: How many moves a rollout plays after the candidate: the opponent's reply (1), and our
#: answer (2).
Plies = Literal[1, 2]
#: Rollout replies are chosen among this many best-scoring placements (a fast top-N
#: generation, not all the moves), plus pass.
REPLY_WIDTH: Final = 8
#: How many of the replying seat's best placements on the board before our move a deal
#: finds once and shares among its candidates (:class:`DealReplies`): more than
#: REPLY_WIDTH, since a candidate spoils the base plays near its own tiles.
SHARED_WIDTH: Final = 48
#: A rollout played to the end stops after this many moves at most (a game ends after six
#: scoreless turns in a row anyway).
TO_END_PLIES: Final = 60
#: :func:`best_exchange` starts its cache afresh beyond this many racks (a few megabytes).
BEST_KEPT_CACHE: Final = 100_000


def rollout_value(
    world: Game,
    seat: int,
    candidate: Candidate,
    table: LeaveTable,
    plies: Plies = 2,
    replies: DealReplies | None = None,
) -> tuple[float, float]:
    """Play `candidate` and `plies` rollout moves after it in `world`, take them back; the
    value for `seat`, and the standard deviation of the spread still to come at the horizon
    (0 when the game ended; see :class:`~binscrabble.engine.winchance.WinChance`).

    The value is our points minus the opponent's plus the value of the tiles each side
    keeps at its last move (that move's equity); when the game ends inside the rollout,
    the change of the final spread. `replies`, prepared on `world`, finds the opponent's
    reply with less work.
    """
    start = score_lead(world.scores, seat)
    world.push(candidate.move, checked=False)
    pushed = 1
    value = candidate.equity
    try:
        if not world.is_over():
            if replies is not None:
                reply = replies.reply(candidate.move)
            else:
                reply = rollout_reply(world, table)
            value -= reply.equity
            # Played, so that a move that goes out ends the game.
            world.push(reply.move, checked=False)
            pushed += 1
            if plies == 2 and not world.is_over():
                answer, played = final_answer(world, table)
                # Our answer's leave replaces the candidate's.
                value += answer.equity - (candidate.equity - candidate.score)
                if played:
                    world.push(answer.move, checked=False)
                    pushed += 1
        if world.is_over():
            return float(score_lead(world.scores, seat) - start), 0.0
        rack_tiles = sum(len(rack) for rack in world.racks)
        return value, WinChance.deviation(world.bag_size, rack_tiles)
    finally:
        for _ in range(pushed):
            world.pop()


def final_answer(world: Game, table: LeaveTable) -> tuple[Candidate, bool]:
    """Our last move in a rollout, counted for its equity, and whether it can be played.

    With a blank on the rack it is found with each blank standing for a 1
    (:func:`answer_with_blanks_as_ones`) and not played; the best exchange competes (a rack
    left poor is worth what we would keep of it, not our best play of it) and is not played
    either, so the bag stays as the deal made it.
    """
    if BLANK in world.rack():
        answer, played = answer_with_blanks_as_ones(world, table), False
    else:
        answer, played = rollout_reply(world, table), True
    exchange = best_exchange(world, table)
    if exchange is not None and candidate_order(exchange) < candidate_order(answer):
        return exchange, False
    return answer, played


def rollout_to_end(
    world: Game,
    seat: int,
    candidate: Candidate,
    table: LeaveTable,
    replies: DealReplies | None = None,
) -> float:
    """Play `candidate` and then both sides' rollout moves (:func:`rollout_reply`) until
    the game ends; take them back. The value: how much `seat`'s spread changed."""
    start = score_lead(world.scores, seat)
    world.push(candidate.move, checked=False)
    pushed = 1
    try:
        while not world.is_over() and pushed < TO_END_PLIES:
            if pushed == 1 and replies is not None:
                reply = replies.reply(candidate.move)
            else:
                reply = rollout_reply(world, table)
            world.push(reply.move, checked=False)
            pushed += 1
        return float(score_lead(world.scores, seat) - start)
    finally:
        for _ in range(pushed):
            world.pop()


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


def rollout_reply(world: Game, table: LeaveTable) -> Candidate:
    """The move a rollout plays for the seat to move of `world`: a quick equity move.

    The best equity among the REPLY_WIDTH best-scoring placements and pass (a top-N
    generation is much cheaper than all the moves, and the best equity is nearly always
    among the best scores). With no placement: the whole rack is exchanged when the bag
    allows, else a pass. (:class:`DealReplies` finds the same move with less work when many
    candidates are played in one deal.)
    """
    return _reply_among(world, table, best_moves(world, REPLY_WIDTH))


def best_exchange(world: Game, table: LeaveTable) -> Candidate | None:
    """The best exchange for the seat to move of `world` by equity (the value of the tiles
    kept; ties keep fewer tiles), or ``None`` when the bag is too small for one.

    It competes with the placements of our last move in a rollout (:func:`final_answer`),
    as it does for the equity player.

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


def answer_with_blanks_as_ones(world: Game, table: LeaveTable) -> Candidate:
    """Our answer in a two-ply rollout when our rack holds a blank: the best equity among
    the REPLY_WIDTH best-scoring plays of the rack with each blank standing for a ``1``
    (the table's most valuable face), and pass.

    Finding the plays of a rack with a blank costs 3 to 10 times as much, and finding them
    without the blank answers from one tile fewer than a rack whose blank was played or
    exchanged, so the rollouts would lean towards giving the blank up
    (``tests/test_winchance.py::test_two_plies_keep_the_blank``). A blank that stands for a
    1 is a lower bound on what it can do. A play is taken to use the rack's own 1s first (so the
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
        self.base = [(play, clearance(cells, play)) for play in plays]
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


def clearance(cells: Sequence[Tile | None], play: GeneratedMove) -> frozenset[int]:
    """The squares a move must keep off for `play` to stay legal, with the same score, after
    it: the play's own squares and the empty squares just beyond each end of its runs (its
    main run, and the crossing run of each new tile, even one square long)."""
    new = frozenset(play.squares)
    step = int(play.direction)
    other = SIZE if step == 1 else 1
    runs = [(*run_bounds(cells, min(new), max(new), step, new), step)]
    runs.extend((*run_bounds(cells, sq, sq, other, new), other) for sq in play.squares)
    clear = set(play.squares)
    for first, last, run_step in runs:
        low, high = line_bounds(first, run_step)
        if first > low:
            clear.add(first - run_step)
        if last < high:
            clear.add(last + run_step)
    return frozenset(clear)


__all__ = [
    "REPLY_WIDTH",
    "SHARED_WIDTH",
    "DealReplies",
    "Plies",
    "answer_with_blanks_as_ones",
    "best_exchange",
    "blanks_to_the_bag",
    "clearance",
    "final_answer",
    "imagined_game",
    "rollout_reply",
    "rollout_to_end",
    "rollout_value",
]
