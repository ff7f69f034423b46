"""Random games of random legal plays, exchanges and passes, checked at every turn.

The plays come from a small bounded search written here (not the engine's move generator,
so these tests judge the game on their own): short equations laid across a tile already
on the board, or a new side ``=value`` added at either end of a run. bench/bench_game.py
uses the same search to make its positions.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from binscrabble.board import CENTER, SIZE, Board
from binscrabble.expr import EquationError, binary, equation_value, number_value
from binscrabble.game import SCORELESS_TURNS_TO_END, Game
from binscrabble.move import Exchange, Move, Pass, Place, PlacedTile
from binscrabble.rules import BLANK, TILE_POINTS, Rules, tile_counts

_ALPHABET = "01=+-x&|~"
_EQUATIONS: dict[Rules, list[str]] = {}


def small_equations(rules: Rules) -> list[str]:
    """Every valid equation of 3 to 5 symbols over a small alphabet with exactly one =."""
    found = _EQUATIONS.get(rules)
    if found is None:
        found = []
        for length in (3, 4, 5):
            for symbols in itertools.product(_ALPHABET, repeat=length):
                text = "".join(symbols)
                if text.count("=") != 1:
                    continue
                try:
                    equation_value(text, rules)
                except EquationError:
                    continue
                found.append(text)
        _EQUATIONS[rules] = found
    return found


def _units(text: str, rules: Rules, rng: random.Random) -> list[str]:
    """The squares of an equation: one symbol each, or ``#`` (a rotated =) for a ``11``
    when the rules allow it (most of the time)."""
    if rules.rotated_equals and "11" in text and rng.random() < 0.8:
        index = text.index("11")
        return [*text[:index], "#", *text[index + 2 :]]
    return list(text)


def _assign(units: list[str], rack: list[str], rng: random.Random) -> list[PlacedTile] | None:
    """Tiles (square -1, set later) for `units` from the rack: the face itself, or a blank
    (sometimes by choice); ``#`` takes an = or a blank, rotated."""
    left = Counter(rack)
    result = []
    for unit in units:
        face = "=" if unit == "#" else unit
        use_blank = left[BLANK] > 0 and (left[face] == 0 or rng.random() < 0.1)
        if use_blank:
            left[BLANK] -= 1
        elif left[face] > 0:
            left[face] -= 1
        else:
            return None
        result.append(PlacedTile(-1, face, use_blank, unit == "#"))
    return result


def _place(squares: list[int], tiles: list[PlacedTile]) -> Place:
    return Place(
        tuple(
            PlacedTile(sq, tile.face, tile.blank, tile.rotated)
            for sq, tile in zip(squares, tiles, strict=True)
        )
    )


def _line_squares(start: int, step: int, length: int) -> list[int] | None:
    """`length` squares from `start` along `step`, or None when they leave the board."""
    row, column = divmod(start, SIZE)
    if start < 0 or row >= SIZE:
        return None
    if step == 1:
        if column + length > SIZE:
            return None
    elif row + length > SIZE:
        return None
    return [start + step * index for index in range(length)]


def _candidates(game: Game, rng: random.Random) -> Iterator[Place]:
    rack = list(game.rack())
    cells = game.board.cells
    rules = game.rules
    equations = small_equations(rules)
    if game.board.is_empty():
        for text in rng.sample(equations, len(equations)):
            units = _units(text, rules, rng)
            step = rng.choice((1, SIZE))
            offset = rng.randrange(len(units))
            squares = _line_squares(CENTER - offset * step, step, len(units))
            tiles = _assign(units, rack, rng)
            if squares is None or tiles is None:
                continue
            yield _place(squares, tiles)
        return
    # A new side at either end of a run: ...=value or value=...
    runs = game.board.runs()
    for run in rng.sample(runs, len(runs)):
        try:
            value = equation_value(run.text, rules)
        except EquationError:
            continue
        if value < 0:
            continue
        step = int(run.direction)
        for side in ("=" + binary(value), binary(value) + "="):
            units = list(side)
            before = side.endswith("=")
            start = run.squares[0] - len(units) * step if before else run.squares[-1] + step
            squares = _line_squares(start, step, len(units))
            if squares is None:
                continue
            if step == 1 and any(sq // SIZE != run.squares[0] // SIZE for sq in squares):
                continue
            tiles = _assign(units, rack, rng)
            if tiles is None or any(cells[sq] is not None for sq in squares):
                continue
            yield _place(squares, tiles)
    # A short equation across a tile already on the board.
    anchors = [sq for sq, tile in game.board if not tile.rotated]
    for anchor in rng.sample(anchors, min(len(anchors), 25)):
        symbol = cells[anchor].face  # type: ignore[union-attr]
        for text in rng.sample(equations, min(len(equations), 400)):
            if symbol not in text:
                continue
            units = _units(text, rules, rng)
            places = [index for index, unit in enumerate(units) if unit == symbol]
            if not places:
                continue
            index = rng.choice(places)
            step = rng.choice((1, SIZE))
            start = anchor - index * step
            if step == 1 and start // SIZE != anchor // SIZE:
                continue
            squares = _line_squares(start, step, len(units))
            if squares is None:
                continue
            if any(cells[sq] is not None for sq in squares if sq != anchor):
                continue
            tiles = _assign(units[:index] + units[index + 1 :], rack, rng)
            if tiles is None:
                continue
            yield _place([sq for sq in squares if sq != anchor], tiles)


def find_plays(game: Game, rng: random.Random, limit: int = 1, budget: int = 300) -> list[Place]:
    """Up to `limit` legal plays, trying at most `budget` candidates."""
    found: list[Place] = []
    for tried, move in enumerate(_candidates(game, rng)):
        if tried >= budget:
            break
        if game.is_legal(move) and move not in found:
            found.append(move)
            if len(found) >= limit:
                break
    return found


def candidate_plays(game: Game, rng: random.Random, count: int) -> list[Place]:
    """Up to `count` candidate plays, legal or not (for the benchmark)."""
    return list(itertools.islice(_candidates(game, rng), count))


def random_move(game: Game, rng: random.Random) -> Move:
    """A random legal move: mostly plays, sometimes exchanges, else a pass."""
    plays = find_plays(game, rng, limit=3 if game.rules.rotated_equals else 1)
    roll = rng.random()
    if plays and roll < 0.85:
        # Rotated = tiles are rare among the plays found: prefer them where they are allowed.
        return max(plays, key=lambda play: any(tile.rotated for tile in play.tiles))
    rack = game.rack()
    if game.bag_size >= game.rules.rack_size and rack and roll < 0.95:
        return Exchange("".join(rng.sample(rack, rng.randint(1, len(rack)))))
    return Pass()


def random_game(seed: int, rules: Rules, players: int = 2, max_turns: int = 150) -> Iterator[Game]:
    """A game of random moves; yields the game after every move."""
    rng = random.Random(seed)
    game = Game([f"P{seat}" for seat in range(players)], rules, seed=seed)
    for _ in range(max_turns):
        if game.is_over():
            return
        game.push(random_move(game, rng))
        yield game


# -- the checks ----------------------------------------------------------------------------


def tiles_in_play(game: Game) -> Counter[str]:
    codes: Counter[str] = Counter(game.bag)
    for rack in game.racks:
        codes.update(rack)
    codes.update(tile.code for _, tile in game.board)
    return codes


def assert_board_runs_valid(board: Board, rules: Rules) -> None:
    for run in board.runs():
        if rules.parallel_numbers and not run.text.strip("01"):
            number_value(run.text, rules)
        else:
            equation_value(run.text, rules)


def assert_final_scores_follow_the_rules(game: Game) -> None:
    outcome = game.outcome()
    assert outcome is not None
    played = [0] * len(game.players)
    for turn in game.history:
        played[turn.seat] += turn.score
    left = [sum(TILE_POINTS[code] for code in rack) for rack in game.racks]
    if outcome.reason == "out":
        went_out = game.history[-1].seat
        assert game.bag_size == 0 and left[went_out] == 0
        expected = [-points for points in left]
        expected[went_out] = sum(left)
    else:
        assert outcome.reason == "scoreless"
        assert [turn.score for turn in game.history[-SCORELESS_TURNS_TO_END:]] == [0] * 6
        expected = [-points for points in left]
    assert list(outcome.adjustments) == expected
    assert list(outcome.scores) == [a + b for a, b in zip(played, expected, strict=True)]
    best = max(outcome.scores)
    assert outcome.winners == tuple(s for s, score in enumerate(outcome.scores) if score == best)


VARIANTS = [
    Rules(),
    Rules.preset("learning"),
    Rules.preset("expert"),
    Rules(precedence="left-to-right"),
    Rules(parallel_numbers=True),
    Rules(leading_zeros=True, xor_tiles=3),
    Rules(rotated_equals=True),
]


def check_game(seed: int, rules: Rules, players: int) -> Game:
    """A random game from the full tile set, every invariant checked after every move."""

    def start() -> Game:
        return Game([f"P{seat}" for seat in range(players)], rules, seed=seed)

    return check_moves(start, random.Random(seed), +Counter(tile_counts(rules)))


SMALL_POOL = "1" * 14 + "0" * 8 + "=" * 6 + "+" * 2


def check_small_pool_game(seed: int) -> Game:
    """A game with few tiles (so the bag empties and players go out), checked throughout."""

    def start() -> Game:
        return Game.from_setup(Rules(), Board(), [None, None], unseen=SMALL_POOL, seed=seed)

    return check_moves(start, random.Random(seed), Counter(SMALL_POOL))


def check_moves(start: Callable[[], Game], rng: random.Random, full_set: Counter[str]) -> Game:
    game = start()
    rules = game.rules
    for _ in range(150):
        if game.is_over():
            break
        move = random_move(game, rng)
        before = game.state()
        expected = game.score(move)
        unchecked = game.copy()
        game.push(move)
        after = game.state()
        assert game.history[-1].score == expected
        # pop restores exactly, and pushing again replays the same draws
        assert game.pop() == move
        assert game.state() == before
        game.push(move)
        assert game.state() == after
        unchecked.push(move, checked=False)
        assert unchecked.state() == after
        assert tiles_in_play(game) == full_set
        assert_board_runs_valid(game.board, rules)
        trailing = 0
        for turn in reversed(game.history):
            if turn.score:
                break
            trailing += 1
        assert game.scoreless_turns == trailing or game.is_over()
        if game.bag_size:
            assert all(len(rack) == rules.rack_size for rack in game.racks)
    view = game.view_for(0)
    assert json.loads(json.dumps(view)) == view
    assert view["rack"] == game.rack(0)
    if game.is_over():
        assert_final_scores_follow_the_rules(game)
    # Taking everything back returns to the start.
    replay = game.copy()
    while replay.history:
        replay.pop()
    assert replay == start()
    return game


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    rules=st.sampled_from(VARIANTS),
    players=st.integers(min_value=2, max_value=4),
)
def test_random_games_keep_every_invariant(seed: int, rules: Rules, players: int) -> None:
    check_game(seed, rules, players)


def test_some_random_games_reach_their_end() -> None:
    finished = [check_game(seed, Rules(), 2) for seed in range(3)]
    assert all(game.is_over() for game in finished)
    assert sum(len(game.history) for game in finished) > 30
    assert any(game.board.tile_count > 20 for game in finished)


def test_small_pool_games_end_by_going_out_too() -> None:
    finished = [check_small_pool_game(seed) for seed in range(6)]
    assert all(game.is_over() for game in finished)
    reasons = {game.outcome().reason for game in finished}  # type: ignore[union-attr]
    assert reasons == {"out", "scoreless"}


def test_rotated_equals_games_place_rotated_tiles() -> None:
    finished = [check_game(seed, Rules(rotated_equals=True), 2) for seed in range(2)]
    assert any(game.board.rotated_squares() for game in finished)


def test_found_plays_are_legal_and_score_like_their_breakdown() -> None:
    rng = random.Random(5)
    checked = 0
    for game in random_game(5, Rules(), max_turns=25):
        for move in find_plays(game, rng, limit=3):
            assert game.is_legal(move)
            breakdown = game.score_breakdown(move)
            assert breakdown.total == sum(run.score for run in breakdown.runs) + breakdown.bingo
            copy = game.copy()
            copy.push(move)
            assert copy.history[-1].score == breakdown.total
            checked += 1
    # Not vacuous: the random search finds plays in many of the positions.
    assert checked >= 10


def test_notation_round_trips_through_random_games() -> None:
    from binscrabble.move import move_notation, parse_move

    game = check_game(17, Rules(), 2)
    assert sum(isinstance(turn.move, Place) for turn in game.history) >= 5
    board = Board()
    for turn, notation in zip(game.history, game.notations(), strict=True):
        assert move_notation(turn.move, board) == notation
        assert parse_move(notation, board) == turn.move
        if isinstance(turn.move, Place):
            for tile in turn.move.tiles:
                from binscrabble.board import make_tile

                board.place(tile.square, make_tile(tile.face, tile.blank, tile.rotated))
