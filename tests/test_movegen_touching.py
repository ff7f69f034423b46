"""Restricted generation: only the plays with a run through given squares (`touching`).

The restricted search must give exactly the plays of the full search whose main run, or
crossing run through one of their new tiles (runs of two squares or more), contains one of
the squares asked for. That predicate is worked out here independently of the generator:
the play's tiles are put on a copy of the board and `Board.run` gives the runs through
each new tile. Positions come from seeded games under the house-rule sets of the
brute-force test, taken at several moments, with racks of 0 to 2 blanks; the squares asked
for are the last play's, a few random occupied and empty ones, squares with no play near,
and none at all.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

import pytest
from movegen_positions import advance, case_of, draw_rack, game_of
from test_movegen_bruteforce import RULE_SETS

from binscrabble.board import ACROSS, DOWN, SIZE, Board, make_tile, parse_square
from binscrabble.game import Game
from binscrabble.move import Place, PlacedTile
from binscrabble.movegen import GeneratedMove, best_moves, generate_placements, sort_key
from binscrabble.rules import Rules

#: Plies played before each snapshot of a game.
SNAPSHOTS = (0, 3, 9, 20)
#: Racks per snapshot: (tiles, blanks).
RACKS = ((6, 0), (5, 1), (4, 2))


def _runs_touch(board: Board, place: Place, touching: AbstractSet[int]) -> bool:
    """Does a run of `place` (two squares or more) contain a square of `touching`?"""
    after = board.copy()
    for tile in place.tiles:
        after.place(tile.square, make_tile(tile.face, tile.blank, tile.rotated))
    for tile in place.tiles:
        for direction in (ACROSS, DOWN):
            run = after.run(tile.square, direction)
            if len(run) >= 2 and not touching.isdisjoint(run):
                return True
    return False


def _touching_sets(game: Game, rng: random.Random) -> list[frozenset[int]]:
    """Squares to ask about: the last play's, random occupied and empty ones, none, and a
    corner far from every tile when there is one."""
    board = game.board
    occupied = [sq for sq, _ in board]
    empty = [sq for sq in range(SIZE * SIZE) if board[sq] is None]
    found: list[frozenset[int]] = [frozenset()]
    places = [turn.move for turn in game.history if isinstance(turn.move, Place)]
    if places:
        found.append(frozenset(tile.square for tile in places[-1].tiles))
    if occupied:
        found.append(frozenset(rng.sample(occupied, min(3, len(occupied)))))
        found.append(frozenset(rng.sample(occupied, 1) + rng.sample(empty, 2)))
    else:
        found.append(frozenset({parse_square("H8")}))
    corners = [parse_square(name) for name in ("A1", "O1", "A15", "O15")]
    lonely = [sq for sq in corners if all(abs(sq // SIZE - o // SIZE) > 3 for o in occupied)]
    if lonely:
        found.append(frozenset(lonely[:1]))
    return found


def _positions() -> list[tuple[Game, list[frozenset[int]]]]:
    found = []
    for seed, rules in enumerate(RULE_SETS):
        rng = random.Random(1000 + seed)
        game = Game(("A", "B"), rules, seed=seed)
        played = 0
        for snapshot in SNAPSHOTS:
            advance(game, rng, snapshot - played, part=5)
            played = snapshot
            touching = _touching_sets(game, rng)
            for size, blanks in RACKS:
                rack = draw_rack(game, rng, min(size, rules.rack_size), blanks)
                position = game_of(case_of(game, rack))
                # The position's game has no history: keep the touching sets of the game.
                found.append((position, touching))
    return found


POSITIONS = _positions()


def _key(moves: Iterable[GeneratedMove]) -> dict[Place, int]:
    found: dict[Place, int] = {}
    for move in moves:
        assert move.place not in found, f"{move.place} generated twice"
        found[move.place] = move.score
    return found


def test_positions_cover_what_they_should() -> None:
    assert len(POSITIONS) >= 100
    assert any(game.rules.parallel_numbers for game, _ in POSITIONS)
    assert any(game.board.is_empty() for game, _ in POSITIONS)
    assert any(
        any(len(touching) == 1 and game.board[next(iter(touching))] is None for touching in sets)
        and not game.board.is_empty()
        for game, sets in POSITIONS
    )


def test_restricted_equals_full_filtered() -> None:
    compared = restricted_nonempty = proper_subsets = 0
    for game, touching_sets in POSITIONS:
        board, rack, rules = game.board, game.rack(), game.rules
        full = _key(generate_placements(board, rack, rules))
        for touching in touching_sets:
            expected = {
                place: score for place, score in full.items() if _runs_touch(board, place, touching)
            }
            restricted = _key(generate_placements(board, rack, rules, touching=touching))
            assert restricted == expected, (rules.differences(), board.rows(), rack, touching)
            compared += 1
            restricted_nonempty += bool(restricted)
            proper_subsets += 0 < len(restricted) < len(full)
    # Not vacuous: many restricted searches find plays, and most leave some out.
    assert compared >= 400
    assert restricted_nonempty >= compared // 4
    assert proper_subsets >= compared // 5


def test_restricted_with_limit_and_best_moves() -> None:
    compared = with_plays = 0
    for index, (game, touching_sets) in enumerate(POSITIONS):
        board, rack, rules = game.board, game.rack(), game.rules
        full = list(generate_placements(board, rack, rules))
        limit = 1 + index % 8
        for touching in touching_sets:
            expected = sorted(
                (move for move in full if _runs_touch(board, move.place, touching)), key=sort_key
            )
            best = best_moves(game, limit, touching=touching)
            assert [(move.place, move.score) for move in best] == [
                (move.place, move.score) for move in expected[:limit]
            ]
            limited = _key(generate_placements(board, rack, rules, limit=limit, touching=touching))
            allowed = {move.place: move.score for move in expected}
            assert all(allowed.get(place) == score for place, score in limited.items())
            compared += 1
            if expected:
                floor = expected[:limit][-1].score
                needed = {move.place for move in expected if move.score >= floor}
                assert needed <= limited.keys()
                with_plays += 1
    # Not vacuous: many restricted searches, many of them with plays to cut.
    assert compared >= 400
    assert with_plays >= compared // 4


def test_parallel_numbers_lone_digit_beside_a_number() -> None:
    # Under parallel_numbers a 1 on I9 makes "11" across with H9 (a number: no score) and
    # "1=1" down with I7-I8; its main run is the number (found by the lone-digit pass).
    # Asking about H9 (only in the number) or I7 (only in the equation) finds it; asking
    # about a square of neither run does not.
    rows = ["." * 15] * 15
    rows[6] = "........1......"
    rows[7] = "........=......"
    rows[8] = ".......1......."
    board = Board.from_rows(rows)
    rules = Rules(parallel_numbers=True)
    lone = Place((PlacedTile(parse_square("I9"), "1"),))
    assert lone in _key(generate_placements(board, "1", rules))
    for name in ("H9", "I7", "I8"):
        assert lone in _key(generate_placements(board, "1", rules, touching=[parse_square(name)]))
    for name in ("H8", "J9", "A1"):
        assert lone not in _key(
            generate_placements(board, "1", rules, touching=[parse_square(name)])
        )
    game = Game.from_setup(rules, board, ["1", None])
    assert [move.place for move in best_moves(game, 2, touching=[parse_square("H9")])] == [lone]


def test_touching_rejects_what_is_not_a_square() -> None:
    with pytest.raises(ValueError, match="not a square index"):
        generate_placements(Board(), "1=1", Rules(), touching=[SIZE * SIZE])
    with pytest.raises(TypeError, match="not a square index"):
        generate_placements(Board(), "1=1", Rules(), touching=["H8"])  # type: ignore[list-item]


def test_empty_touching_finds_nothing() -> None:
    game = POSITIONS[5][0]
    assert generate_placements(game.board, game.rack(), game.rules, touching=()) == []
    assert best_moves(game, 3, touching=set()) == []


def test_min_score_cuts_the_best_moves() -> None:
    # best_moves(..., min_score=m): the head of the unrestricted result cut at score m, with
    # and without `touching` (the simulation asks near a candidate only for the plays that
    # could enter its merge). The floors: the best score and one above it, a score inside
    # the list (ties at the cut), and one below every play.
    compared = cut = 0
    for index, (game, touching_sets) in enumerate(POSITIONS[::2]):
        board, rack, rules = game.board, game.rack(), game.rules
        full = sorted(generate_placements(board, rack, rules), key=sort_key)
        limit = 1 + index % 8
        for touching in [None, *touching_sets[1:3]]:
            expected = (
                full
                if touching is None
                else [move for move in full if _runs_touch(board, move.place, touching)]
            )
            scores = sorted({move.score for move in expected}, reverse=True)
            floors = {0, -5}
            if scores:
                floors |= {scores[0], scores[0] + 1, scores[len(scores) // 2]}
            for floor in sorted(floors):
                best = best_moves(game, limit, touching=touching, min_score=floor)
                wanted = [move for move in expected[:limit] if move.score >= floor]
                assert [(move.place, move.score) for move in best] == [
                    (move.place, move.score) for move in wanted
                ], (rules.differences(), board.rows(), rack, touching, limit, floor)
                compared += 1
                cut += len(wanted) < len(expected[:limit])
    assert compared >= 500
    assert cut >= compared // 5


def test_min_score_keeps_a_lone_digit_beside_a_number() -> None:
    # The lone-digit pass of parallel_numbers (I9 "1": "11" across is a number, "1=1" down
    # scores 3) is cut by min_score like every other play.
    rows = ["." * 15] * 15
    rows[6] = "........1......"
    rows[7] = "........=......"
    rows[8] = ".......1......."
    game = Game.from_setup(Rules(parallel_numbers=True), Board.from_rows(rows), ["1", None])
    lone = Place((PlacedTile(parse_square("I9"), "1"),))
    found = best_moves(game, 2, touching=[parse_square("H9")], min_score=3)
    assert [(move.place, move.score) for move in found] == [(lone, 3)]
    assert best_moves(game, 2, touching=[parse_square("H9")], min_score=4) == []
    assert best_moves(game, 2, min_score=4) == []
