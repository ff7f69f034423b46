"""The fast move generator equals the brute-force oracle exactly on 300 random positions.

Boards come from seeded games under many house rules, taken at several moments (empty,
opening, midgame, crowded); each gets small racks (so the oracle stays fast) with 0 to 3
blanks. Same set of placements, same score for each. The oracle runs in a process pool
(one worker per core) because it asks the referee about every candidate, which is slow by
design.
"""

from __future__ import annotations

import os
import random
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from typing import Any

from bruteforce import legal_placements
from movegen_positions import Case, advance, case_of, draw_rack, game_of

from binscrabble.game import Game
from binscrabble.movegen import generate_placements
from binscrabble.rules import BLANK, Rules

#: The house rules of the games the boards come from, one per game.
RULE_SETS: tuple[Rules, ...] = (
    Rules(),
    Rules(precedence="left-to-right"),
    Rules(rotated_equals=True),
    Rules(parallel_numbers=True),
    Rules.preset("expert"),
    Rules.preset("learning"),
    Rules(rotated_equals=True, parallel_numbers=True, precedence="left-to-right"),
    Rules(leading_zeros=True, allow_negatives=True),
    Rules(xor_tiles=3, rotated_equals=True),
    Rules(rack_size=4, bingo_bonus=50, parallel_numbers=True),
    Rules(rotated_equals=True, identity_chains=True),
    Rules(parallel_numbers=True, leading_zeros=True),
)
#: The moments of each game a board is taken at (plies played).
SNAPSHOTS = (0, 2, 6, 14, 30)
#: Racks per board: (tiles, blanks). Blanks multiply the oracle's work by 11 each.
RACKS = ((3, 0), (4, 0), (3, 1), (3, 2), (3, 3))
# 12 games x 5 moments x 5 racks = 300 positions.


@cache
def _positions() -> list[Case]:
    """The 300 positions, built the same way on every run (once per test session: playing
    the games takes seconds, and the tests only read them)."""
    found = []
    for seed, rules in enumerate(RULE_SETS):
        rng = random.Random(seed)
        game = Game(("A", "B"), rules, seed=seed)
        played = 0
        for snapshot in SNAPSHOTS:
            advance(game, rng, snapshot - played, part=5)
            played = snapshot
            for size, blanks in RACKS:
                found.append(case_of(game, draw_rack(game, rng, size, blanks)))
    return found


def _compare(case: Case) -> str | None:
    """None when the generator and the oracle agree on this position, else what differs."""
    game = game_of(case)
    rules = game.rules
    rack = game.rack()
    oracle = legal_placements(game)
    generated = generate_placements(game.board, game.rack(), rules)
    fast: dict[Any, int] = {}
    for move in generated:
        if move.place in fast:
            return f"rack {rack}: {move.place} generated twice"
        fast[move.place] = move.score
    if fast == oracle:
        return None
    missing = [place for place in oracle if place not in fast][:3]
    extra = [place for place in fast if place not in oracle][:3]
    scores = [
        (place, fast[place], oracle[place])
        for place in fast
        if place in oracle and fast[place] != oracle[place]
    ][:3]
    return f"rack {rack} rules {rules.differences()}: missing {missing} extra {extra} {scores}"


def test_positions_cover_what_they_should() -> None:
    cases = _positions()
    assert len(cases) >= 300
    racks = [rack for *_, rack in cases]
    assert {rack.count(BLANK) for rack in racks} == {0, 1, 2, 3}
    assert any(all(row == "." * 15 for row in rows) for _, rows, *_ in cases)
    assert any(sum(row.count(".") for row in rows) < 225 - 60 for _, rows, *_ in cases)
    assert any(rotated for *_, rotated, _ in cases)


def test_positions_cover_the_racks_whose_new_equals_narrows_the_sides() -> None:
    # Sides beside a new `=` are enumerated for the rack without that `=` (docs/movegen.md,
    # step 4): without a natural `=` on the rack it takes a blank, and under rotated_equals a
    # natural `=` spent on it no longer shows in a side. The oracle must see both kinds of
    # rack, with plays found that put a new flat `=` down in each.
    games = [game_of(case) for case in _positions()]
    blank_for_equals = [game for game in games if BLANK in game.rack() and "=" not in game.rack()]
    rotated_with_natural = [
        game
        for game in games
        if game.rules.rotated_equals and "=" in game.rack() and BLANK in game.rack()
    ]
    for group in (blank_for_equals, rotated_with_natural):
        adding_equals = 0
        for game in group:
            for move in generate_placements(game.board, game.rack(), game.rules):
                if any(tile.face == "=" and not tile.rotated for tile in move.tiles):
                    adding_equals += 1
                    break
            if adding_equals == 5:
                break
        assert adding_equals == 5, (len(group), adding_equals)


def test_generator_equals_bruteforce_on_300_positions() -> None:
    cases = _positions()
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as executor:
        results = list(executor.map(_compare, cases, chunksize=4))
    failures = [result for result in results if result is not None]
    assert failures == []
    # The comparison is not vacuous: most positions have legal plays.
    games = [game_of(case) for case in cases]
    counts = [len(generate_placements(game.board, game.rack(), game.rules)) for game in games]
    assert sum(1 for count in counts if count) > len(cases) // 2
