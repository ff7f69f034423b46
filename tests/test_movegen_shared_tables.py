"""The pending-operations tables (`movegen._arithmetic_tables`) are shared by every call
under the same rules, per thread, and replaced when full: what a call finds must not depend
on what earlier calls worked out, on which thread asks, or on a table being replaced."""

from __future__ import annotations

import random
import threading

import pytest
from movegen_positions import advance

import binscrabble.movegen as movegen
from binscrabble.game import Game
from binscrabble.movegen import generate_placements, sort_key
from binscrabble.rules import Rules

RACKS = ("10+1=x0", "1?=+01", "~0-1=x|")


def _results(rules: Rules, seed: int) -> list[list[tuple[object, int]]]:
    game = Game(("A", "B"), rules, seed=seed)
    rng = random.Random(seed)
    found = []
    for _ in range(2):
        advance(game, rng, 3, part=5)
        for rack in RACKS:
            moves = sorted(generate_placements(game.board, rack, rules), key=sort_key)
            found.append([(move.place, move.score) for move in moves])
    return found


def _in_a_new_thread(rules: Rules, seed: int) -> list[list[tuple[object, int]]]:
    out: list[list[list[tuple[object, int]]]] = []
    worker = threading.Thread(target=lambda: out.append(_results(rules, seed)))
    worker.start()
    worker.join(timeout=120)
    assert out, "the worker thread did not finish"
    return out[0]


@pytest.mark.parametrize("precedence", ["standard", "left-to-right"])
def test_shared_tables_give_what_fresh_ones_give(
    precedence: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = Rules(precedence=precedence)
    # Warm this thread's tables with other rules and other boards first.
    _results(Rules(precedence="left-to-right" if precedence == "standard" else "standard"), 3)
    warm = _results(rules, 8)
    assert any(warm)
    # A new thread starts with empty tables.
    assert _in_a_new_thread(rules, 8) == warm
    # Tables that are full at once are replaced for every new context: same results.
    monkeypatch.setattr(movegen, "_ARITHMETIC_ENTRIES", 0)
    assert _results(rules, 8) == warm
