"""The move generator: the baseline file, the legal_moves view, and its contracts.

tests/data/movegen_baseline.jsonl holds fixed (position, rack) cases with the number of
legal placements and the best ones (regenerate it with scripts/make_movegen_baseline.py
after a deliberate rules or scoring change); the generator must reproduce it exactly.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random
from collections.abc import Iterator
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from binscrabble import movelist
from binscrabble.board import Board, parse_square
from binscrabble.game import Game
from binscrabble.move import Exchange, Pass, Place, PlacedTile, move_notation, parse_move
from binscrabble.movegen import (
    LegalMoves,
    MoveList,
    best_moves,
    exchanges,
    generate_moves,
    generate_placements,
    sort_key,
)
from binscrabble.movegen import api as movegen_api
from binscrabble.movegen import blanks as movegen_blanks
from binscrabble.movegen import context as movegen_context
from binscrabble.movegen import fillings as movegen_fillings
from binscrabble.movegen import join as movegen_join
from binscrabble.movegen import options as movegen_options
from binscrabble.movegen import rows as movegen_rows
from binscrabble.movegen import scan as movegen_scan
from binscrabble.movegen import scoring as movegen_scoring
from binscrabble.movegen import usage as movegen_usage
from binscrabble.position import load_position
from binscrabble.rules import FACES, Rules

BASELINE = Path(__file__).parent / "data" / "movegen_baseline.jsonl"


def _baseline() -> list[dict[str, Any]]:
    return [json.loads(line) for line in BASELINE.read_text(encoding="utf-8").splitlines()]


def test_baseline_covers_what_it_should() -> None:
    cases = _baseline()
    names = " ".join(case["name"] for case in cases)
    for word in ("empty", "opening", "midgame", "crowded", "late", "left-to-right"):
        assert word in names
    blanks = {case["position"]["rack"].count("?") for case in cases}
    assert blanks == {0, 1, 2, 3}
    rules = [case["position"]["rules"] for case in cases]
    assert any(rule.get("rotated_equals") for rule in rules)
    assert any(rule.get("parallel_numbers") for rule in rules)
    assert all(case["count"] >= len(case["top"]) for case in cases)


@pytest.mark.parametrize("case", _baseline(), ids=lambda case: case["name"])
def test_generator_reproduces_the_baseline(case: dict[str, Any]) -> None:
    game = load_position(case["position"])
    moves = generate_moves(game)
    assert len(moves) == case["count"]
    top = [
        {"notation": move_notation(move.place, game.board), "score": move.score}
        for move in moves[: len(case["top"])]
    ]
    assert top == case["top"]


def _game(rack: str, rows: list[str] | None = None, rules: Rules | None = None) -> Game:
    board = Board.from_rows(rows) if rows else Board()
    return Game.from_setup(rules or Rules(), board, [rack, None], seed=3)


def _row(row: int, text: str, column: int) -> list[str]:
    rows = ["." * 15] * 15
    rows[row - 1] = "." * column + text + "." * (15 - column - len(text))
    return rows


def test_first_play_reference_score() -> None:
    game = _game("111+=0")
    moves = generate_moves(game)
    by_notation = {move_notation(move.place, game.board): move.score for move in moves}
    assert by_notation["8D 1+1=10"] == 18  # docs/rules.md §8 worked example
    assert all(move.score == game.score(move.place) for move in moves)
    assert all(parse_square("H8") in move.squares for move in moves)
    assert all(len(move.squares) >= 3 for move in moves)


def test_each_move_once_and_sorted() -> None:
    game = _game("10=1+?", _row(8, "1+1=10", 3))
    moves = generate_moves(game)
    places = [move.place for move in moves]
    assert len(set(places)) == len(places)
    assert moves == sorted(moves, key=sort_key)
    scores = [move.score for move in moves]
    assert scores == sorted(scores, reverse=True)


def test_single_tile_play_counted_once() -> None:
    # "1=" across on row 8 (H8-I8) and "1=" down from J6: a 1 on J8 completes "1=1" across
    # and "1=1" down at once. It is one play, listed once, and it scores both runs.
    rows = ["." * 15] * 15
    rows[5] = ".........1....."
    rows[6] = ".........=....."
    rows[7] = ".......1=......"
    game = _game("1", rows)
    moves = generate_moves(game)
    assert [move.place for move in moves] == [Place((PlacedTile(parse_square("J8"), "1"),))]
    assert moves[0].score == game.score(moves[0].place) == 4
    assert len(game.score_breakdown(moves[0].place).runs) == 2


def test_blank_designations_are_distinct_moves() -> None:
    natural = {move.place for move in generate_moves(_game("1=1"))}
    with_blank = {move.place for move in generate_moves(_game("1=?"))}
    blank_ones = [place for place in with_blank if any(tile.blank for tile in place.tiles)]
    assert blank_ones
    assert all(tile.face in "01=+-x/&|~" for place in blank_ones for tile in place.tiles)
    assert all(sum(tile.blank for tile in place.tiles) == 1 for place in with_blank)
    assert natural.isdisjoint(with_blank)


def test_rotated_equals_only_under_its_rule() -> None:
    plain = generate_moves(_game("1=1=", rules=Rules()))
    rotated_rules = Rules(rotated_equals=True)
    rotated = generate_moves(_game("1=1=", rules=rotated_rules))
    assert not any(tile.rotated for move in plain for tile in move.place.tiles)
    turned = [move for move in rotated if any(tile.rotated for tile in move.place.tiles)]
    assert turned
    game = _game("1=1=", rules=rotated_rules)
    for move in turned:
        assert game.score(move.place) == move.score


def test_parallel_numbers_lone_digit_beside_a_number() -> None:
    # J6 1, J7 =, I8 1: a 1 on J8 makes "1=1" down and the number "11" across. Under
    # parallel_numbers that is a play whose main run (across) is a number; it scores only
    # the equation. Without the rule the two-square run "11" makes it illegal.
    rows = ["." * 15] * 15
    rows[5] = ".........1....."
    rows[6] = ".........=....."
    rows[7] = "........1......"
    rules = Rules(parallel_numbers=True)
    game = _game("1", rows, rules)
    moves = generate_moves(game)
    assert [(move_notation(move.place, game.board), move.score) for move in moves] == [
        ("8I (1)1", 2)
    ]
    assert game.score(moves[0].place) == 2
    assert generate_moves(_game("1", rows, Rules())) == []


def test_no_moves_for_an_empty_rack_or_a_finished_game() -> None:
    assert generate_placements(Board(), "", Rules()) == []
    assert generate_placements(Board(), "1=", Rules()) == []
    game = _game("111+=0")
    game.push(Pass())
    game.push(Pass())
    game.push(Pass())
    game.push(Pass())
    game.push(Pass())
    game.push(Pass())
    assert game.is_over()
    assert generate_moves(game) == []
    assert best_moves(game, 3) == []
    assert not game.legal_moves
    assert list(game.legal_moves) == []


def test_bad_rack_code_is_refused() -> None:
    with pytest.raises(ValueError, match="not a rack tile code"):
        generate_placements(Board(), "12", Rules())


def test_best_moves_are_the_head_of_all_moves() -> None:
    game = _game("101=+x?", _row(8, "1+1=10", 3))
    everything = generate_moves(game)
    assert [move.place for move in best_moves(game, 7)] == [m.place for m in everything[:7]]
    assert best_moves(game, 0) == []


def test_legal_moves_view() -> None:
    game = Game.from_setup(Rules(), Board(), ["111+=0", None], seed=5)
    view = game.legal_moves
    assert isinstance(view, LegalMoves)
    moves = list(view)
    assert len(view) == len(moves)
    placements = [move for move in moves if isinstance(move, Place)]
    assert placements == [generated.place for generated in generate_moves(game)]
    assert moves[-1] == Pass()
    assert [move for move in moves if isinstance(move, Exchange)] == exchanges(game)
    assert parse_move("8D 1+1=10", game.board) in view
    assert Place((PlacedTile(0, "1"),)) not in view
    assert "8D 1+1=10" not in view
    assert bool(view)
    assert all(game.is_legal(move) for move in moves)


def test_exchanges_are_each_distinct_subset_once() -> None:
    game = Game.from_setup(Rules(), Board(), ["110", None], seed=5)
    found = exchanges(game)
    assert sorted(exchange.tiles for exchange in found) == sorted(["0", "1", "01", "11", "011"])


def test_no_exchange_with_a_small_bag() -> None:
    game = Game.from_setup(Rules(), Board(), ["110", "0"], bag=["1"] * 8, seed=5)
    assert exchanges(game) == []
    assert Pass() in list(game.legal_moves)


@pytest.mark.parametrize("count", [1, 4])
def test_best_moves_with_bounds_match_full_generation(count: int) -> None:
    # best_moves skips plays that cannot reach the count-th best score; the result must be
    # exactly the head of the full, sorted list (blank-heavy racks included).
    cases = _baseline()[:8]
    assert len(cases) == 8
    for case in cases:
        game = load_position(case["position"])
        expected = [move.place for move in generate_moves(game)[:count]]
        assert [move.place for move in best_moves(game, count)] == expected, case["name"]


def _blank_game() -> Game:
    return _game("10=1+?x?", _row(8, "1+1=10", 3))


def test_move_list_counts_before_making_moves() -> None:
    game = _blank_game()
    moves = generate_placements(game.board, game.rack(), game.rules)
    assert isinstance(moves, MoveList)
    assert not moves.is_materialized
    count = len(moves)
    assert count > 1000 and bool(moves)
    assert not moves.is_materialized  # len and bool make no move object
    made = list(moves)
    assert len(made) == count == len(moves)
    assert moves.is_materialized
    assert len({move.place for move in made}) == count


def test_move_list_reads_as_a_list() -> None:
    game = _blank_game()
    lazy = generate_placements(game.board, game.rack(), game.rules)
    first, tenth = lazy[0], lazy[9]
    assert not lazy.is_materialized
    assert lazy[0] is first and lazy[:10][9] is tenth
    eager = list(generate_placements(game.board, game.rack(), game.rules))
    assert [move.place for move in lazy] == [move.place for move in eager]
    assert list(lazy) == list(lazy)  # the same objects every time
    assert lazy[-1] is list(lazy)[-1]
    assert first in lazy and lazy.index(tenth) == 9 and lazy.count(first) == 1
    assert lazy == list(lazy) and [*lazy] == lazy
    fresh = generate_placements(game.board, game.rack(), game.rules)
    # A plain list + a lazy one (list's own + would see only the moves made so far).
    joined = [first] + fresh  # noqa: RUF005
    assert len(joined) == len(lazy) + 1
    assert copy.copy(lazy) == lazy
    restored = pickle.loads(pickle.dumps(lazy))
    assert [move.score for move in restored] == [move.score for move in lazy]


def test_move_list_changes_like_a_list() -> None:
    game = _blank_game()
    lazy = generate_placements(game.board, game.rack(), game.rules)
    count = len(lazy)
    lazy.sort(key=sort_key)
    assert lazy == sorted(lazy, key=sort_key)
    lazy.append(lazy[0])
    assert len(lazy) == count + 1
    del lazy[0]
    assert len(lazy) == count
    empty = generate_placements(Board(), "1=", Rules())
    assert empty == [] and not empty and len(empty) == 0


def test_best_first_order_lazily_and_at_once() -> None:
    game = _blank_game()
    expected = sorted(generate_placements(game.board, game.rack(), game.rules), key=sort_key)
    expected_places = [move.place for move in expected]
    head_first = generate_moves(game)
    assert [move.place for move in head_first[:25]] == expected_places[:25]
    assert not head_first.is_materialized
    assert [move.place for move in head_first] == expected_places  # the rest in one sort
    at_once = generate_moves(game)
    assert [move.place for move in at_once.materialize()] == expected_places
    scores = [move.score for move in at_once]
    assert all(move.score == game.score(move.place) for move in at_once[:200])
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("case", _baseline()[:12], ids=lambda case: case["name"])
def test_counted_moves_equal_the_listed_ones(case: dict[str, Any]) -> None:
    game = load_position(case["position"])
    moves = generate_placements(game.board, game.rack(), game.rules)
    counted = len(moves)
    assert counted == len(list(moves)) == case["count"]


CORPUS = Path(__file__).parent.parent / "bench" / "data" / "movegen_positions.jsonl"


@pytest.mark.parametrize(
    "name",
    [
        "game05-opening-turn02-0blank",
        "game08-crowded-turn09-0blank",
        "game10-midgame-turn04-0blank",
    ],
)
def test_the_tile_count_test_drops_only_joins_without_plays(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Joins of many free squares are skipped when the rack has too few digits for them
    # (movegen_join.may_fill); on these racks, short of digits, it skips some, and the plays
    # found are exactly those found with the test switched off.
    records = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    game = load_position(next(r["position"] for r in records if r["name"] == name))

    skipped = 0
    # The source modules, whose functions and constants can be replaced.
    may_fill = movegen_join.may_fill

    def counting(*arguments: Any) -> bool:
        nonlocal skipped
        found = may_fill(*arguments)
        skipped += not found
        return bool(found)

    monkeypatch.setattr(movegen_join, "may_fill", counting)
    with_test = {
        (m.place, m.score)
        for m in movegen_api.generate_placements(game.board, game.rack(), game.rules)
    }
    assert skipped > 0
    monkeypatch.setattr(movegen_join, "LONG_JOIN", 99)
    without = {
        (m.place, m.score)
        for m in movegen_api.generate_placements(game.board, game.rack(), game.rules)
    }
    assert with_test == {
        (m.place, m.score) for m in generate_placements(game.board, game.rack(), game.rules)
    }
    assert with_test == without
    assert with_test


def _random_racks_and_options(
    rules: Rules, seed: int, blanks: tuple[int, ...], rack_tries: int, known_share: float
) -> Iterator[tuple[Any, tuple[int, ...]]]:
    """Random racks with a number of blanks in `blanks` (their movegen contexts) and, 8 per
    rack, random options: mostly options the rack can show (`known_share`), some any."""
    rng = random.Random(seed)
    faces = (*FACES, *("?" * max(1, len(blanks) - 1)))
    for _ in range(rack_tries):
        rack = "".join(rng.choice(faces) for _ in range(rng.randint(1, 9)))
        if rack.count("?") not in blanks:
            continue
        context = movegen_usage.make_rack_context(rack, rules)
        showable = [
            option
            for option in range(movegen_options.OPTION_COUNT)
            if context.natural[option] or context.designable[option]
        ]
        for _ in range(8):
            yield (
                context,
                tuple(
                    rng.choice(showable)
                    if rng.random() < known_share
                    else rng.randrange(movegen_options.OPTION_COUNT)
                    for _ in range(rng.randint(1, 8))
                ),
            )


@pytest.mark.parametrize("rules", [Rules(), Rules(rotated_equals=True), Rules(xor_tiles=0)])
def test_blank_variants_are_counted_as_listed(rules: Rules) -> None:
    # Moves are counted by option usage (movegen_blanks.variant_count, with its own formula for
    # one or two blanks) before any is made: each count must be the number of blank
    # placements listed for any options of that usage (movegen_blanks.realizations_of).
    checked = nonzero = 0
    for context, options in _random_racks_and_options(rules, 4, (1, 2, 3), 600, 0.8):
        usage = sum(movegen_options.OPTION_USAGE[option] for option in options)
        listed = len(movegen_blanks.realizations_of(context.rack, options))
        assert movegen_blanks.variant_count(context.rack, usage) == listed, (context.rack, options)
        checked += 1
        nonzero += listed > 0
    assert checked > 1000
    assert nonzero > 300


@pytest.mark.parametrize("rules", [Rules(), Rules(rotated_equals=True), Rules(xor_tiles=0)])
def test_one_blank_placements_as_the_general_search_lists_them(rules: Rules) -> None:
    # A rack of one blank lists its blank placements without the general search
    # (movegen_blanks.one_blank_realizations): the same placements, in the same order.
    checked = nonzero = 0
    for context, options in _random_racks_and_options(rules, 5, (1,), 900, 0.85):
        listed = movegen_blanks.one_blank_realizations(context.rack, options)
        assert listed == movegen_blanks.searched_realizations(context.rack, options), options
        checked += 1
        nonzero += bool(listed)
    assert checked > 1000
    assert nonzero > 300


def test_collector_left_as_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search pauses the garbage collector and, when it made many objects and the caller
    froze none, moves them to the oldest generation (gc.freeze, gc.unfreeze): afterwards
    the collector runs again, the youngest generation is nearly empty, and a caller's
    frozen objects stay frozen. (CPython 3.12 starts with objects of its own frozen, 375 in
    3.12.1: there the search leaves every generation as it is.)"""
    import gc

    monkeypatch.setattr(movelist, "_PROMOTED_FROM", 100)
    rack, rules = "?1+0=1", Rules()
    frozen_at_start = gc.get_freeze_count()
    expected = len(generate_placements(Board(), rack, rules))
    assert gc.isenabled()
    kept = generate_placements(Board(), rack, rules)
    assert len(kept) == expected
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen_at_start
    if not frozen_at_start:
        assert len(gc.get_objects(0)) < 1000
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert len(generate_placements(Board(), rack, rules)) == expected
        assert gc.isenabled()
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def _usage_checks(context: Any, counted: list[int]) -> None:
    """The usage of `counted` (squares by rack field) read back by every reader of usages,
    each against what the counts themselves say (the encoding of movegen's usages: fields
    of 5 bits from bit _FIELDS_AT, a mix of the counts below them)."""
    usage = sum(
        count * movegen_options.OPTION_USAGE[field] for field, count in enumerate(counted) if count
    )
    # The fields are the counts, untouched by the mix below them.
    plain = sum(
        count << (movegen_options.FIELD_BITS * field) for field, count in enumerate(counted)
    )
    assert usage >> movegen_options.FIELDS_AT == plain
    assert usage & movegen_options.MIX_ROOM == sum(
        count * mix for count, mix in zip(counted, movegen_options.FIELD_MIX, strict=False)
    )
    rack = context.rack
    natural = [
        count if context.natural[field] else 0 for field, count in enumerate(rack.rack_counts)
    ]
    short = [max(0, used - natural[field]) for field, used in enumerate(counted)]
    context.deficits.clear()
    assert movegen_usage.deficit_of(context, usage) == sum(short), (rack, counted)
    fits = (context.rack_guarded - usage) & movegen_options.GUARDS == movegen_options.GUARDS
    assert fits == (sum(short) == 0)
    for option in range(movegen_options.OPTION_COUNT):
        field = movegen_options.OPTION_FIELD[option]
        assert (
            usage >> movegen_options.OPTION_SHIFT[option] & movegen_options.FIELD_MASK
            == counted[field]
        )
    assert movegen_blanks.field_uses(rack, usage) == [
        (field, used, used - natural[field] if context.natural[field] else used)
        for field, used in enumerate(counted)
        if used
    ]
    if rack.blanks == 1:
        rack.short_fields.clear()
        lacking = [field for field, lack in enumerate(short) if lack]
        designable = rack.designable
        if not lacking:
            expected = (
                -1,
                1 + sum(used for field, used in enumerate(counted) if designable[field]),
            )
        elif len(lacking) == 1 and short[lacking[0]] == 1 and designable[lacking[0]]:
            expected = (lacking[0], counted[lacking[0]])
        else:
            expected = (-1, 0)
        assert movegen_blanks.one_blank_fields(rack, usage) == expected, (rack, counted)


@pytest.mark.parametrize("rules", [Rules(), Rules(rotated_equals=True), Rules(xor_tiles=0)])
def test_usage_fields_read_back_as_counted(rules: Rules) -> None:
    # Every rack of up to 3 tiles (faces and blanks) with every usage of up to 2 squares,
    # then random racks of up to 9 tiles (0-3 blanks) with random usages up to twice a
    # rack (a join's sum of two sides): deficits, the natural-tiles test, the fields, the
    # field walk of the variant counts and the one-blank fields agree with the counts.
    codes = (*FACES, "?")
    fields = len(FACES)
    racks = [""]
    for _ in range(3):
        racks += [rack + code for rack in racks if len(rack) < 3 for code in codes]
    racks = sorted({"".join(sorted(rack)) for rack in racks})
    usages = [[0] * fields]
    for _ in range(2):
        usages += [
            [count + (field == added) for field, count in enumerate(usage)]
            for usage in usages
            for added in range(fields)
        ]
    checked = 0
    for rack in racks:
        context = movegen_usage.make_rack_context(rack, rules)
        for counted in usages:
            _usage_checks(context, counted)
            checked += 1
    rng = random.Random(19)
    for _ in range(300):
        rack = "".join(rng.choice(FACES) for _ in range(rng.randint(1, 9)))
        rack = rack[: 9 - (blanks := rng.randint(0, 3))] + "?" * blanks
        context = movegen_usage.make_rack_context(rack, rules)
        for _ in range(30):
            counted = [0] * fields
            for _ in range(rng.randint(1, 19)):
                counted[rng.randrange(fields)] += 1
            _usage_checks(context, counted)
            checked += 1
    assert checked > 20_000


@pytest.mark.parametrize("chains", [False, True])
def test_join_counts_as_the_product_of_fillings(chains: bool) -> None:
    # A join group counts its equations without listing them (movegen_join.join_count): one
    # filling of each side, with identity fragments in one side at most unless
    # identity_chains. Against the product itself, for two to four sides.
    rng = random.Random(7)
    for _ in range(400):
        parts = []
        for _ in range(rng.randint(2, 4)):
            plain, fragments = rng.randint(0, 3), rng.randint(0, 3)
            parts.append([plain, *("p" * plain), *("f" * fragments)])
        listed = sum(
            1
            for combination in product(*[fillings[1:] for fillings in parts])
            if chains or combination.count("f") <= 1
        )
        assert movegen_join.join_count(tuple(parts), chains) == listed, parts


@pytest.mark.parametrize("blanks", [1, 2, 3])
def test_deficit_levels_hold_the_usages_each_level_allows(blanks: int) -> None:
    # movegen_join.deficit_levels lists a side bucket's usages by the blanks the rack would have
    # left for the other side (a list per level below the rack's blanks, with its own loop
    # for two blanks): level k holds, in the bucket's order, those needing at most k.
    rng = random.Random(blanks)
    for _ in range(60):
        rack = "".join(rng.choice(FACES) for _ in range(9 - blanks)) + "?" * blanks
        context = movegen_usage.make_rack_context(rack, Rules())
        bucket: dict[int, list[Any]] = {}
        for _ in range(rng.randint(1, 30)):
            usage = sum(
                movegen_options.OPTION_USAGE[rng.randrange(movegen_options.OPTION_COUNT)]
                for _ in range(rng.randint(1, 8))
            )
            bucket[usage] = [1, "0"]
        levels = movegen_join.deficit_levels(context, bucket)
        assert levels == [
            [usage for usage in bucket if movegen_usage.deficit_of(context, usage) <= level]
            for level in range(blanks)
        ]
        assert context.deficit_levels[id(bucket)] is levels


@pytest.mark.parametrize(
    "name",
    [
        "game07-late-turn12-0blank",  # rotated_equals
        "game08-midgame-turn06-2blank",  # the new `=` between the sides, fragments
        "game10-late-turn12-0blank",  # identity_chains
    ],
)
def test_two_sided_groups_read_as_the_general_product(name: str) -> None:
    # A join group of two sides lists its equations through movegen_fillings.two_sided_fillings
    # (options read from the text's bytes at once): the same fillings, in the same order,
    # as the general product over the sides (movegen_fillings.general_fillings).
    records = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    game = load_position(next(r["position"] for r in records if r["name"] == name))
    rules = game.rules
    _, rows, _ = movegen_scan.search(game.board, game.rack(), rules, None)
    checked = equations = 0
    for segment in rows.segments:
        for group in segment[1]:
            if len(group) != movegen_context.TWO_SIDED:
                continue
            fast = movegen_fillings.two_sided_fillings(
                group, rules.identity_chains, rules.rotated_equals
            )
            if fast is None:
                continue
            general = movegen_fillings.general_fillings(
                group, rules.identity_chains, rules.rotated_equals
            )
            assert fast == list(general), group[:5]
            checked += 1
            equations += len(fast)
    assert checked > 10
    assert equations >= checked


@pytest.mark.parametrize(
    ("name", "chains"),
    [
        ("game08-midgame-turn06-2blank", None),  # parallel_numbers, two blanks
        ("game08-midgame-turn06-2blank", True),
        ("game10-midgame-turn04-0blank", None),  # identity_chains, no blank
        ("game05-crowded-turn09-0blank", None),
        ("game07-crowded-turn09-2blank", None),  # rotated_equals
    ],
)
def test_touching_only_through_crossings_counted_without_rows(
    name: str, chains: bool | None
) -> None:
    # Under parallel_numbers a segment that touches the board only through crossing runs
    # keeps the equations with an equation crossing; its rows are made only when read, and
    # movegen_rows.touching_move_count counts them per join group without rows: the same
    # count as the rows read (blank variants included), and the lazy list's length is the
    # number of moves it makes.
    records = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    game = load_position(next(r["position"] for r in records if r["name"] == name))
    rules = dataclasses.replace(game.rules, parallel_numbers=True)
    if chains is not None:
        rules = dataclasses.replace(rules, identity_chains=chains)
    rack, rows, _ = movegen_scan.search(game.board, game.rack(), rules, None)
    segments = groups = 0
    for segment in rows.segments:
        if not segment[0][7]:
            continue
        made = movegen_rows.read_segment(
            segment, rows.with_blanks, rows.chains, rows.rotated, False
        )
        eager = [
            row
            for group in segment[1]
            for filling in movegen_fillings.group_fillings(group, rows.chains, rows.rotated)
            if (row := movegen_scoring.segment_scoring(segment[0], rows.with_blanks).row(filling))
        ]
        assert made == eager
        expected = sum(movegen_blanks.variant_count(rack, row[7]) for row in made)
        assert movegen_rows.segment_move_count(segment, rack, rows.chains) == expected
        segments += 1
        groups += len(segment[1])
    assert segments >= 5
    assert groups >= segments
    if not rack.blanks:
        found = generate_placements(game.board, game.rack(), rules)
        assert len(found) == len(list(iter(found)))
