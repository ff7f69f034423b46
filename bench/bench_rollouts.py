"""Rollout benchmark: the move generator's calls of simulation rollouts, on a fixed workload.

The simulating players (`hard`, `max`, `simulation`) spend nearly all of a rollout in
`best_moves`. This replays the calls a simulation makes, recorded on the middle-game
positions (bag 10-79, every other turn) of three seeded equity self-play games:

- per position, a first deal (replies shared, :class:`DealReplies`): **base**, the
  opponent's 48 best placements on the board before our move; then **near**, after each of
  the distinct top-6 equity candidates that is a placement, the 8 best plays touching its
  squares, from the floor the simulation passes (``min_score``);
- a second deal (replies in full): after each of the first two such candidates, **full**,
  the opponent's 8 best placements, and **answer**, our 8 best after its reply (a blank
  standing for a ``1``).

The calls are recorded first (they depend only on the positions and fixed seeds), then
replayed in order, each kind's CPU time summed (``time.process_time``). The order matters:
the generator keeps a rack's context from one call to the next, as it does in a real
simulation. Prints figures; never passes or fails on time. CPU times on a busy machine move
from run to run.

``--repeat N`` replays the workload N times (from the second time, the contexts of the
workload's last racks are warm).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import NamedTuple

from binscrabble.board import Board
from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.players import EquityPlayer, ranked_candidates
from binscrabble.engine.rollout import (
    REPLY_WIDTH,
    SHARED_WIDTH,
    DealReplies,
    blanks_to_the_bag,
    imagined_game,
    rollout_reply,
)
from binscrabble.engine.simulation import candidate_placements
from binscrabble.game import Game
from binscrabble.move import Place
from binscrabble.movegen import best_placements
from binscrabble.rules import BLANK, Rules

#: Seeds of the equity self-play games whose positions the workload uses.
GAMES = (1, 2, 3)
#: The kinds of call, in the order they are printed.
KINDS = ("base", "near", "full", "answer")


class Call(NamedTuple):
    kind: str
    board: Board
    rack: str
    rules: Rules
    width: int
    touching: tuple[int, ...] | None
    min_score: int | None


def record(games: tuple[int, ...] = GAMES) -> tuple[list[Call], int]:
    """The workload's calls, and how many positions they come from."""
    table = LeaveTable.default()
    calls: list[Call] = []
    positions = 0
    for seed in games:
        game = Game(("A", "B"), seed=seed)
        equity = EquityPlayer()
        turn = 0
        while not game.is_over() and game.bag_size > 0:
            if 10 <= game.bag_size <= 79 and turn % 2 == 0:
                calls.extend(_position_calls(game, random.Random(1000 * seed + turn), table))
                positions += 1
            game.push(equity.choose(game))
            turn += 1
    return calls, positions


def _position_calls(game: Game, rng: random.Random, table: LeaveTable) -> list[Call]:
    calls: list[Call] = []
    seat = game.to_move
    moves, best_first = candidate_placements(game)
    top = ranked_candidates(game, table, moves, limit=6, best_first=best_first, distinct=True)
    placed = [candidate.move for candidate in top if isinstance(candidate.move, Place)]
    unseen = list(game.unseen(seat))
    dealt = sum(len(rack) for other, rack in enumerate(game.racks) if other != seat)
    # The first deal: replies shared.
    rng.shuffle(unseen)
    world = imagined_game(game, seat, blanks_to_the_bag(unseen, dealt), seed=rng.getrandbits(32))
    replier = (world.to_move + 1) % len(world.racks)
    calls.append(
        Call("base", world.board.copy(), world.rack(replier), world.rules, SHARED_WIDTH, None, None)
    )
    shared = DealReplies(world, table)
    shared.prepare()
    for move in placed:
        world.push(move, checked=False)
        squares = frozenset(tile.square for tile in move.tiles)
        if not world.is_over():
            # The floor DealReplies.reply passes.
            floor = shared.near_search(squares)[1]
            calls.append(
                Call(
                    "near",
                    world.board.copy(),
                    world.rack(),
                    world.rules,
                    REPLY_WIDTH,
                    tuple(sorted(squares)),
                    floor,
                )
            )
        world.pop()
    # The second deal: replies in full, each followed by our answer.
    rng.shuffle(unseen)
    world = imagined_game(game, seat, blanks_to_the_bag(unseen, dealt), seed=rng.getrandbits(32))
    for move in placed[:2]:
        world.push(move, checked=False)
        if not world.is_over():
            calls.append(
                Call("full", world.board.copy(), world.rack(), world.rules, REPLY_WIDTH, None, None)
            )
            world.push(rollout_reply(world, table).move, checked=False)
            if not world.is_over():
                answer_rack = world.rack().replace(BLANK, "1")
                calls.append(
                    Call(
                        "answer",
                        world.board.copy(),
                        answer_rack,
                        world.rules,
                        REPLY_WIDTH,
                        None,
                        None,
                    )
                )
            world.pop()
        world.pop()
    return calls


def replay(calls: list[Call]) -> dict[str, list[float]]:
    """CPU seconds of each call, by kind."""
    seconds: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for call in calls:
        started = time.process_time()
        best_placements(
            call.board,
            call.rack,
            call.rules,
            call.width,
            touching=call.touching,
            min_score=call.min_score,
        )
        seconds[call.kind].append(time.process_time() - started)
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="replay the workload N times")
    options = parser.parse_args()
    started = time.process_time()
    calls, positions = record()
    print(
        f"rollout calls of {positions} middle-game positions (equity games, seeds "
        f"{', '.join(map(str, GAMES))}; recorded in {time.process_time() - started:.1f} s CPU)"
    )
    for round_number in range(1, options.repeat + 1):
        seconds = replay(calls)
        total = sum(sum(values) for values in seconds.values())
        label = f" (replay {round_number})" if options.repeat > 1 else ""
        print(f"CPU time by kind of call{label}:")
        for kind in KINDS:
            values = seconds[kind]
            if values:
                print(
                    f"  {kind:<7} {len(values):>3} calls: {sum(values):6.3f} s, "
                    f"mean {statistics.mean(values) * 1000:6.1f} ms, "
                    f"median {statistics.median(values) * 1000:6.1f} ms, "
                    f"worst {max(values) * 1000:6.1f} ms"
                )
        print(f"  all     {len(calls):>3} calls: {total:6.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
