"""Records of games that end before they are played out (INTERFACES.md §7): the ``#left``
lines of seats that resigned, ran out of time or aborted, read back."""

from __future__ import annotations

import pytest

from binscrabble.game import Game
from binscrabble.move import Pass, Place
from binscrabble.record import RecordError, read_record, write_record


def best(game: Game) -> Place:
    move = next(iter(game.legal_moves))
    assert isinstance(move, Place)
    return move


def test_a_game_of_three_with_a_seat_that_left_reads_back() -> None:
    game = Game(("Ann", "Bob", "Cy"), seed=4)
    game.push(best(game))
    game.resign(0)
    for _ in range(6):
        game.push(Pass())
    text = write_record(game)
    assert "#left Ann resigned" in text.splitlines()
    again = read_record(text)
    assert again.outcome() == game.outcome() and again.left == (0,)
    assert again.end_view() == game.end_view()


@pytest.mark.parametrize("reason", ["resigned", "time", "aborted"])
def test_a_game_of_two_that_ended_early_reads_back_over(reason: str) -> None:
    game = Game(("Ann", "Bob"), seed=4)
    game.push(Pass())
    if reason == "aborted":
        game.abort(1)
    else:
        game.resign(1, reason=reason)
    text = write_record(game)
    lines = text.splitlines()
    assert f"#left Bob {reason}" in lines and lines[-1].startswith("# Bob ")
    again = read_record(text)
    assert again.is_over() and again.end_view() == game.end_view()


def test_overtime_is_a_comment_and_the_record_reads_back() -> None:
    game = Game(("Ann", "Bob"), seed=4)
    game.push(best(game))
    for _ in range(6):
        game.push(Pass())
    game.settle_overtime([0, 20])
    text = write_record(game)
    assert "# Bob loses 20 points of overtime" in text.splitlines()
    again = read_record(text)
    assert again.is_over() and again.scores[1] == game.scores[1] + 20
    early = Game(("Ann", "Bob"), seed=4)
    early.resign(0, reason="time")
    early.settle_overtime([10, 0])
    assert read_record(write_record(early)).end_view() == early.end_view()


def test_left_lines_that_cannot_be() -> None:
    game = Game(("Ann", "Bob", "Cy"), seed=4)
    game.resign(1)
    game.push(Pass())
    game.push(Pass())  # Cy, Bob's turn skipped
    text = write_record(game)
    with pytest.raises(RecordError, match="REASON resigned, time, aborted"):
        read_record(text.replace("#left Bob resigned", "#left Bob tired"))
    with pytest.raises(RecordError, match="unknown player 'Bo'"):
        read_record(text.replace("#left Bob resigned", "#left Bo resigned"))
    # Without its #left line Bob is to move after Ann: Cy's turn is out of order.
    with pytest.raises(RecordError, match="it is Bob's turn here, not Cy's"):
        read_record(text.replace("#left Bob resigned\n", ""))
    # A seat that left cannot leave again.
    twice = text.replace("#left Bob resigned\n", "#left Bob resigned\n#left Bob time\n")
    with pytest.raises(RecordError, match="Bob cannot leave the game here"):
        read_record(twice)
