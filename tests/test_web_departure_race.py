"""Attack audit F6: a resignation that loses a race with the opponent's move stored by
another process (another storage on the same database, holding its own copy of the game)
is judged again on the game reloaded, as a move is, instead of being refused with 409
while the game goes on. Once on SQLite and once on PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from binscrabble.move import parse_move
from binscrabble.rules import Rules
from binscrabble.web.active_games import GameTable, RefereeError, depart, submit
from binscrabble.web.storage import Storage, database_url


def test_a_resignation_racing_a_move_of_another_process_is_judged_again(
    any_database: Path | str,
) -> None:
    async def scenario() -> tuple[dict[str, object] | None, int]:
        first = Storage(database_url(str(any_database)))
        second = Storage(database_url(str(any_database)))
        try:
            here, there = GameTable(first), GameTable(second)
            made = await here.create(["Ann", "Bo"], [None, None], Rules(), ["a", "b"])
            mine = await here.get(made.game_id)
            theirs = await there.get(made.game_id)
            # Ann passes on the other process: this one's copy has not heard of it.
            await submit(theirs, second, 0, parse_move("pass", theirs.game.board), 0)
            assert mine.turn == 0
            # Bo resigns here, on the copy that missed Ann's move.
            await depart(mine, first, 1, "resigned")
            outcome = (await there.get(made.game_id)).game.outcome()
            return (None if outcome is None else outcome.end_view()), len(mine.stored.moves)
        finally:
            first.close()
            second.close()

    try:
        end, moves = asyncio.run(scenario())
    except RefereeError as refused:
        pytest.fail(f"the resignation was refused: {refused.status} {refused}")
    assert end is not None and (end["reason"], end["seat"], end["winners"]) == ("resigned", 1, [0])
    assert moves == 1
