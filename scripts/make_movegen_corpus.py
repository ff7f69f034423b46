"""Regenerate bench/data/movegen_positions.jsonl, the move-generation benchmark corpus.

    .venv/bin/python scripts/make_movegen_corpus.py

72 positions from 12 seeded self-play games (mostly the standard rules, a few house-rule
variants), each taken at six moments: the empty board, the opening, two midgame moments, a
crowded board and a late board. Racks are full (9 tiles) with 0, 1 or 2 blanks in turn;
the late-board racks are small (3 to 5 tiles, as when the bag is empty), which also lets
the brute force finish on them. Plays are the best move most of the time, else a random
legal one, chosen from the whole rack.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from movegen_positions import advance, case_of, draw_rack, game_of, position_json  # noqa: E402

from binscrabble.game import Game  # noqa: E402
from binscrabble.rules import Rules  # noqa: E402

OUTPUT = ROOT / "bench" / "data" / "movegen_positions.jsonl"
RULES = (
    Rules(),
    Rules(),
    Rules(),
    Rules(),
    Rules(),
    Rules(),
    Rules(precedence="left-to-right"),
    Rules(rotated_equals=True),
    Rules(parallel_numbers=True),
    Rules.preset("expert"),
    Rules.preset("learning"),
    Rules(),
)
#: (name, turns played before it)
MOMENTS = (
    ("empty", 0),
    ("opening", 2),
    ("midgame", 4),
    ("midgame", 6),
    ("crowded", 9),
    ("late", 12),
)


def main() -> int:
    records = []
    for seed, rules in enumerate(RULES):
        rng = random.Random(1000 + seed)
        game = Game(("A", "B"), rules, seed=1000 + seed)
        played = 0
        for number, (moment, turns) in enumerate(MOMENTS):
            advance(game, rng, turns - played, best_share=0.7, keep_blanks=True)
            played = turns
            blanks = (seed + number) % 3
            size = rng.randint(3, 5) if moment == "late" else 9
            rack = draw_rack(game, rng, size, blanks)
            position = game_of(case_of(game, rack))
            name = f"game{seed:02d}-{moment}-turn{turns:02d}-{blanks}blank"
            records.append({"name": name, "position": position_json(position)})
            print(name, rack, position.board.tile_count, flush=True)
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    print(f"wrote {len(records)} positions to {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
