"""The table game (binscrabble.table): recorded games re-entered give the same game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from random_games import random_game

from binscrabble.board import SIZE, SQUARE_COUNT
from binscrabble.game import Game, IllegalMoveError, SetupError
from binscrabble.legality import sorted_codes
from binscrabble.move import Exchange, Move, Pass, Place, PlacedTile, parse_move
from binscrabble.record import read_record_file
from binscrabble.rules import Rules, tile_counts
from binscrabble.table import ExchangeCount, TableGame

SAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "sample-game.bsr"


def reenter(game: Game, enter_racks: bool, count_exchanges: bool) -> TableGame:
    """`game` entered turn by turn as a table game, checked against it as it goes."""
    table = TableGame(game.players, game.rules)
    for turn, notation in zip(game.history, game.notations(), strict=True):
        assert table.to_move == turn.seat
        assert table.rack_sizes[turn.seat] == len(turn.rack)
        if enter_racks:
            table.enter_rack(turn.seat, turn.rack)
            assert len(table.unseen(turn.seat)) == len(table.unseen()) - len(turn.rack)
        move: Move | ExchangeCount = turn.move
        if count_exchanges and type(move) is Exchange:
            move = ExchangeCount(len(move.tiles))
        assert table.push(move) == turn.score
        assert table.scores == list(turn.scores)
        assert table.history[-1].score == turn.score
        assert table.history[-1].rack == (sorted_codes(turn.rack) if enter_racks else None)
        if type(move) is not ExchangeCount:
            assert table.history[-1].notation == notation
    assert table.board == game.board
    return table


def settle(table: TableGame, game: Game) -> None:
    """Enter the racks left of a finished `game` and compare the outcome."""
    for seat in table.awaiting_racks():
        table.enter_rack(seat, game.racks[seat])
    assert table.is_over()
    assert table.outcome() == game.outcome()
    assert table.scores == game.scores


def test_the_sample_game_reentered_gives_its_scores_and_result() -> None:
    game = read_record_file(SAMPLE)
    table = reenter(game, enter_racks=False, count_exchanges=True)
    assert table.end_reason == "scoreless"
    assert table.awaiting_racks() == (0, 1)
    assert not table.is_over() and table.outcome() is None
    settle(table, game)
    assert str(table.outcome()) == "Ada wins (Ada 404, Bob 273)"


@pytest.mark.parametrize("seed", range(8))
def test_self_play_games_reentered_give_every_score_and_the_result(seed: int) -> None:
    game = random_game(seed, players=2 + seed % 3)
    assert game.is_over()
    table = reenter(game, enter_racks=seed % 2 == 0, count_exchanges=seed % 4 == 1)
    assert table.end_reason == game.outcome().reason  # type: ignore[union-attr]
    settle(table, game)


def test_some_self_play_games_end_by_going_out() -> None:
    reasons = set()
    for seed in range(8):
        game = random_game(seed, players=2 + seed % 3)
        table = reenter(game, enter_racks=False, count_exchanges=True)
        reasons.add(table.end_reason)
        if table.end_reason == "out":
            out = game.history[-1].seat
            assert out not in table.awaiting_racks()
            assert table.racks_left[out] == ""
    assert reasons == {"out", "scoreless"}


def shifted(place: Place, step: int) -> Place | None:
    squares = [tile.square + step for tile in place.tiles]
    if any(not 0 <= sq < SQUARE_COUNT for sq in squares):
        return None
    return Place(
        tuple(
            PlacedTile(sq, tile.face, tile.blank, tile.rotated)
            for sq, tile in zip(squares, place.tiles, strict=True)
        )
    )


def wrong_plays(game: Game, move: Move, rng: random.Random) -> list[Place]:
    """Plays near a legal one: shifted, with a tile's face changed, a tile left out."""
    if type(move) is not Place:
        if game.board.tile_count:
            return []
        first = parse_move("8A 1+1=10", game.board)
        return [first] if type(first) is Place else []
    candidates = [shifted(move, step) for step in (1, -1, SIZE, -SIZE, 2)]
    tiles = list(move.tiles)
    index = rng.randrange(len(tiles))
    tile = tiles[index]
    for face in "01=+&~":
        if face != tile.face:
            changed = [*tiles]
            changed[index] = PlacedTile(tile.square, face, tile.blank)
            candidates.append(Place(tuple(changed)))
    if len(tiles) > 2:
        candidates.append(Place(tuple(tiles[:1] + tiles[2:])))
    return [place for place in candidates if place is not None]


@pytest.mark.parametrize("seed", range(4))
def test_every_illegal_play_gets_the_refusal_of_a_normal_game(seed: int) -> None:
    rng = random.Random(seed)
    recorded = random_game(100 + seed, players=2 + seed % 3)
    game = Game(recorded.players, recorded.rules, seed=100 + seed)
    table = TableGame(recorded.players, recorded.rules)
    refused = unknown_rack = 0
    for turn in recorded.history:
        for place in wrong_plays(game, turn.move, rng):
            expected = game.illegal_reason(place)
            blind = table.illegal_reason(place)
            if expected is None:
                assert blind is None
                continue
            refused += 1
            if expected.kind != "not_on_rack":
                assert blind is not None
                assert (blind.kind, str(blind)) == (expected.kind, str(expected))
            else:
                unknown_rack += 1
            table.enter_rack(turn.seat, turn.rack)
            seen = table.illegal_reason(place)
            assert seen is not None
            assert (seen.kind, str(seen), seen.squares) == (
                expected.kind,
                str(expected),
                expected.squares,
            )
        game.push(turn.move)
        table.push(turn.move)
    assert refused > 50 and unknown_rack > 0


def test_a_refused_play_keeps_the_turn_by_default() -> None:
    table = TableGame(("Ada", "Bob"))
    with pytest.raises(IllegalMoveError, match="centre square H8"):
        table.push(parse_move("8A 1+1=10", table.board))
    assert table.to_move == 0 and table.history == [] and table.scoreless_turns == 0


def test_a_refused_play_uses_the_turn_when_the_table_says_so() -> None:
    table = TableGame(("Ada", "Bob"), refused_play_loses_turn=True)
    with pytest.raises(IllegalMoveError, match="centre square H8"):
        table.push(parse_move("8A 1+1=10", table.board))
    turn = table.history[-1]
    assert (turn.kind, turn.score, turn.notation) == ("refused", 0, "8A 1+1=10")
    assert turn.reason is not None and "H8" in turn.reason
    assert table.to_move == 1 and table.scoreless_turns == 1
    assert table.board.tile_count == 0 and table.rack_sizes == (9, 9)
    # Out of turn is no play of the table's: nothing changes.
    with pytest.raises(IllegalMoveError, match="Bob's turn"):
        table.push(Pass(), seat=0)
    assert len(table.history) == 1


def test_six_refused_plays_end_the_game_as_six_scoreless_turns() -> None:
    table = TableGame(("Ada", "Bob"), refused_play_loses_turn=True)
    for _ in range(6):
        with pytest.raises(IllegalMoveError):
            table.push(parse_move("8A 1+1=10", table.board))
    assert table.end_reason == "scoreless" and table.awaiting_racks() == (0, 1)
    table.enter_rack(0, "111111111")
    table.enter_rack(1, "000000000")
    outcome = table.outcome()
    assert outcome is not None and outcome.adjustments == (-9, -9)
    assert outcome.winners == (0, 1)


def test_the_bag_and_racks_are_counted() -> None:
    table = TableGame(("Ada", "Bob", "Cy"))
    total = sum(tile_counts(Rules()).values())
    assert table.bag_size == total - 27
    assert table.push(parse_move("8D 1+1=10", table.board)) == 18
    assert table.rack_sizes == (9, 9, 9) and table.bag_size == total - 33
    assert len(table.unseen()) == total - 6


def test_a_play_of_more_tiles_than_the_rack_holds_is_refused() -> None:
    table = TableGame(("Ada", "Bob"), Rules(rack_size=5))
    problem = table.illegal_reason(parse_move("8D 1+1=10", table.board))
    assert problem is not None and problem.kind == "not_on_rack"
    assert str(problem) == "Ada's rack holds 5 tiles; this play lays 6"


def test_a_play_of_tiles_the_set_lacks_is_refused() -> None:
    table = TableGame(("Ada", "Bob"))
    blanks = tile_counts(Rules())["?"]
    play = parse_move("8D " + "?1" * (blanks + 1) + "=" + "1" * 2, table.board)
    problem = table.illegal_reason(play)
    assert problem is not None and problem.kind == "not_on_rack"
    assert f"the set has only {blanks} besides the board" in str(problem)


def test_exchanges_by_count_and_by_tiles() -> None:
    table = TableGame(("Ada", "Bob"))
    with pytest.raises(IllegalMoveError, match="cannot give back 10"):
        table.push(ExchangeCount(10))
    with pytest.raises(IllegalMoveError, match="at least one tile"):
        table.push(ExchangeCount(0))
    table.enter_rack(0, "111000===")
    with pytest.raises(IllegalMoveError, match="does not hold these tiles"):
        table.push(Exchange("+"))
    assert table.push(Exchange("1=")) == 0
    assert table.history[-1].notation == "-1=" and table.history[-1].rack == "000111==="
    assert table.entered_rack(0) is None
    assert table.push(ExchangeCount(4)) == 0
    assert table.history[-1].notation == "exchange 4"
    assert table.rack_sizes == (9, 9)


def test_an_exchange_naming_tiles_the_set_lacks_is_refused() -> None:
    # The referee audit: with no rack entered, "exchange ?????????" (the set has 3 blanks)
    # and "exchange xxxx" (3 ×) were taken.
    table = TableGame(("Ada", "Bob"))
    counts = tile_counts(Rules())
    for code in ("?", "x"):
        problem = table.illegal_reason(Exchange(code * (counts[code] + 1)))
        assert problem is not None and problem.kind == "not_on_rack"
        assert f"the set has only {counts[code]} besides the board" in str(problem)
    assert table.illegal_reason(Exchange("x" * counts["x"])) is None


def test_entering_a_rack_is_checked() -> None:
    table = TableGame(("Ada", "Bob"))
    with pytest.raises(SetupError, match="holds 9 tiles, not 3"):
        table.enter_rack(0, "101")
    with pytest.raises(SetupError, match="not a tile code"):
        table.enter_rack(0, "10a111111")
    blanks = tile_counts(Rules())["?"]
    with pytest.raises(SetupError, match=f"only {blanks} '\\?'|only {blanks} blank"):
        table.enter_rack(0, "?" * (blanks + 1) + "1" * (8 - blanks))
    table.enter_rack(0, "?" * blanks + "1" * (9 - blanks))
    with pytest.raises(SetupError, match="only 0 blank"):
        table.enter_rack(1, "?00000000")
    assert "?" not in table.unseen(0) and "?" in table.unseen(1) and "?" in table.unseen()


def test_the_racks_left_are_entered_once_and_settle_the_game() -> None:
    game = next(
        game
        for seed in range(20)
        if (game := random_game(seed, players=3)).outcome().reason == "out"  # type: ignore[union-attr]
    )
    table = reenter(game, enter_racks=False, count_exchanges=True)
    out = game.history[-1].seat
    with pytest.raises(IllegalMoveError, match="the game is over"):
        table.push(Pass())
    with pytest.raises(SetupError, match="already entered"):
        table.enter_rack(out, "")
    waiting = table.awaiting_racks()
    assert len(waiting) == 2 and out not in waiting
    first = waiting[0]
    table.enter_rack(first, game.racks[first])
    assert table.outcome() is None
    with pytest.raises(SetupError, match="already entered"):
        table.enter_rack(first, game.racks[first])
    settle(table, game)
    with pytest.raises(SetupError, match="the game is over"):
        table.enter_rack(first, game.racks[first])
