"""The pending-operations tables (`arithmetic.arithmetic_tables`) are shared by every call
under rules of the same arithmetic, per thread, and change generation when full: what a call
finds must not depend on what earlier calls worked out, on which thread asks, on rules that
share the arithmetic, or on entries taken over from an older generation."""

from __future__ import annotations

import random
import threading
from types import ModuleType
from typing import cast

import pytest
from movegen_positions import advance

import binscrabble.movegen as movegen
from binscrabble.game import Game
from binscrabble.movegen import api as source_api
from binscrabble.movegen import arithmetic, context, usage
from binscrabble.rules import Rules

RACKS = ("10+1=x0", "1?=+01", "~0-1=x|")


def _results(
    rules: Rules, seed: int, generator: ModuleType = movegen
) -> list[list[tuple[object, int]]]:
    """The moves of three racks on four positions of a game, found by `generator` (the
    package's module, or its source where a test replaces its constants)."""
    game = Game(("A", "B"), rules, seed=seed)
    rng = random.Random(seed)
    found = []
    for _ in range(2):
        advance(game, rng, 3, part=5)
        for rack in RACKS:
            moves = sorted(
                generator.generate_placements(game.board, rack, rules), key=generator.sort_key
            )
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
    # Tables that are full at once are replaced for every new context: same results (the
    # source module, whose constants can be replaced).
    monkeypatch.setattr(arithmetic, "ARITHMETIC_ENTRIES", 0)
    assert _results(rules, 8, source_api) == warm


def test_tables_shared_by_rules_of_one_arithmetic() -> None:
    def tables(rules: Rules) -> object:
        out: list[object] = []
        # A thread of its own: nothing evicted by what other tests left behind.
        worker = threading.Thread(
            target=lambda: out.append(
                [arithmetic.arithmetic_tables(rules), arithmetic.arithmetic_tables(Rules())]
            )
        )
        worker.start()
        worker.join(timeout=60)
        return out[0]

    # Fields the entries do not depend on: shared with the standard rules' tables.
    for other in (
        Rules(parallel_numbers=True),
        Rules(rotated_equals=True),
        Rules(xor_tiles=4),
        Rules(rack_size=7, bingo_bonus=30),
    ):
        own, standard = cast(list[object], tables(other))
        assert own is standard, other
    # Fields they depend on: tables of their own.
    for other in (
        Rules(precedence="left-to-right"),
        Rules(allow_negatives=True),
        Rules(leading_zeros=True),
        Rules(identity_times_one=False),
        Rules(identity_plus_minus_zero=False),
        Rules(identity_and_one_or_zero=False),
        Rules(identity_chains=True),
    ):
        own, standard = cast(list[object], tables(other))
        assert own is not standard, other


def test_rules_sharing_tables_find_what_fresh_tables_find() -> None:
    # Each arithmetic's results with fresh tables, then after rules that share the tables
    # (and differ elsewhere) filled them.
    plain = Rules(parallel_numbers=True)
    fresh = _in_a_new_thread(plain, 5)

    def shared() -> list[list[tuple[object, int]]]:
        _results(Rules(rotated_equals=True), 5)
        _results(Rules(), 6)
        return _results(plain, 5)

    out: list[list[list[tuple[object, int]]]] = []
    worker = threading.Thread(target=lambda: out.append(shared()))
    worker.start()
    worker.join(timeout=120)
    assert out and out[0] == fresh


def test_generations_stay_bounded_and_find_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules(precedence="left-to-right")
    fresh = _in_a_new_thread(rules, 4)
    # Tiny generations: nearly every call starts a new one and takes entries over from the
    # one before; and a budget that drops other arithmetics' tables and older generations
    # (the source module, whose constants and functions can be replaced).
    monkeypatch.setattr(arithmetic, "ARITHMETIC_ENTRIES", 300)
    monkeypatch.setattr(arithmetic, "ARITHMETIC_BUDGET", 700)
    seen: list[int] = []
    adopted: list[int] = []
    original = arithmetic.arithmetic_tables

    def watched(asked: Rules) -> context.Generation:
        found = original(asked)
        kept = arithmetic.ARITHMETIC.tables
        seen.append(sum(generation.entries() for generation in kept.values()))
        adopted.append(len(found.older_numbers))
        return cast(context.Generation, found)

    # (Patched where the contexts are made: the source modules call each other by name.)
    monkeypatch.setattr(usage, "arithmetic_tables", watched)

    def run() -> list[list[tuple[object, int]]]:
        _results(Rules(), 4, source_api)
        return _results(rules, 4, source_api)

    out: list[list[list[tuple[object, int]]]] = []
    worker = threading.Thread(target=lambda: out.append(run()))
    worker.start()
    worker.join(timeout=120)
    assert out and out[0] == fresh
    # Bounded when a context starts (a call adds what it works out before the next one).
    assert seen and max(seen) <= 700
    # The older generations were used.
    assert max(adopted) > 1
