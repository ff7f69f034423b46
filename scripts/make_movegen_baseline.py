"""Regenerate tests/data/movegen_baseline.jsonl: fixed (position, rack) cases with the
number of legal placements and the best ones, the move generator's perft-like anchor.

    .venv/bin/python scripts/make_movegen_baseline.py

Each case comes from a seeded self-play game stopped after some turns, with a rack drawn
from the tiles not on the board. Run it after a deliberate change to the rules or to
scoring, look at the diff, and commit the new file with the reason; tests/test_movegen.py
compares the generator against it.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from movegen_positions import (  # noqa: E402
    case_of,
    draw_rack,
    game_of,
    play_game,
    pool,
    position_json,
)

from binscrabble.game import Game  # noqa: E402
from binscrabble.move import move_notation  # noqa: E402
from binscrabble.movegen import generate_moves  # noqa: E402
from binscrabble.rules import BLANK, Rules  # noqa: E402

OUTPUT = ROOT / "tests" / "data" / "movegen_baseline.jsonl"
#: How many of the best moves each case records.
TOP = 10

_PARALLEL_ROTATED = Rules(parallel_numbers=True, rotated_equals=True)
_PARALLEL_LEFT_TO_RIGHT = Rules(parallel_numbers=True, precedence="left-to-right")
_NEGATIVES_ZEROS = Rules(allow_negatives=True, leading_zeros=True)

#: (name, rules, game seed, turns played, rack size, blanks)
CASES: tuple[tuple[str, Rules, int, int, int, int], ...] = (
    ("empty-standard", Rules(), 1, 0, 9, 0),
    ("empty-left-to-right-1-blank", Rules(precedence="left-to-right"), 2, 0, 7, 1),
    ("empty-2-blanks", Rules(), 3, 0, 6, 2),
    ("empty-3-blanks", Rules(), 4, 0, 5, 3),
    ("empty-rotated", Rules(rotated_equals=True), 5, 0, 8, 0),
    ("opening-standard", Rules(), 6, 2, 9, 0),
    ("opening-rotated-1-blank", Rules(rotated_equals=True), 7, 2, 8, 1),
    ("opening-xor", Rules(xor_tiles=3), 8, 3, 9, 0),
    ("opening-expert", Rules.preset("expert"), 9, 3, 9, 0),
    ("midgame-standard", Rules(), 10, 8, 9, 0),
    ("midgame-left-to-right-1-blank", Rules(precedence="left-to-right"), 11, 8, 8, 1),
    ("midgame-parallel", Rules(parallel_numbers=True), 12, 8, 9, 0),
    ("midgame-parallel-rotated-1-blank", _PARALLEL_ROTATED, 13, 8, 7, 1),
    ("midgame-learning-2-blanks", Rules.preset("learning"), 14, 8, 6, 2),
    ("midgame-negatives-leading-zeros", _NEGATIVES_ZEROS, 15, 8, 8, 0),
    ("crowded-standard", Rules(), 16, 18, 9, 0),
    ("crowded-left-to-right-1-blank", Rules(precedence="left-to-right"), 17, 18, 8, 1),
    ("crowded-rotated", Rules(rotated_equals=True), 18, 18, 9, 0),
    ("crowded-parallel-2-blanks", Rules(parallel_numbers=True), 19, 18, 6, 2),
    ("crowded-3-blanks", Rules(), 20, 16, 5, 3),
    ("late-standard", Rules(), 21, 22, 9, 0),
    ("late-parallel-left-to-right", _PARALLEL_LEFT_TO_RIGHT, 22, 20, 9, 0),
)


def _game_with_tiles_left(rules: Rules, seed: int, turns: int, size: int, blanks: int) -> Game:
    """The first game from `seed` on whose board leaves a rack of `size` with `blanks`."""
    for attempt in range(seed, seed + 1000, 100):
        game = play_game(rules, attempt, turns, part=6, keep_blanks=blanks > 1)
        left = pool(game)
        if left[BLANK] >= blanks and left.total() - left[BLANK] >= size - blanks:
            return game
    raise SystemExit(f"no game from seed {seed} leaves {size} tiles with {blanks} blanks")


def build() -> list[dict[str, object]]:
    """The baseline records, one per case."""
    records = []
    for name, rules, seed, turns, size, blanks in CASES:
        game = _game_with_tiles_left(rules, seed, turns, size, blanks)
        rack = draw_rack(game, random.Random(seed), size, blanks)
        position = game_of(case_of(game, rack))
        started = time.perf_counter()
        moves = generate_moves(position)
        elapsed = time.perf_counter() - started
        print(f"{name:<40} {rack:<10} {len(moves):>7} moves {elapsed * 1000:8.1f} ms")
        records.append(
            {
                "name": name,
                "position": position_json(position),
                "count": len(moves),
                "top": [
                    {"notation": move_notation(move.place, position.board), "score": move.score}
                    for move in moves[:TOP]
                ],
            }
        )
    return records


def main() -> int:
    records = build()
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    print(f"wrote {len(records)} cases to {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
