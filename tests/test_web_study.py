"""The newcomer's findings on hints and the record viewer, through the API: the hint and the
analysis agree (both name the highest-scoring play of a position, found by the same search;
a hint cut short says it is the best found, not the best there is: on turn 1 the hint had
offered an exchange, "no play is worth more", while the analysis of the same position found
a 28-point play); the viewer is told how a recorded game ended."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from web_api_support import bearer, web_client, whole_analysis

from binscrabble.game import Game
from binscrabble.move import Pass
from binscrabble.record import write_record
from binscrabble.rules import Rules
from binscrabble.web.active_games import token_hash
from binscrabble.web.computer import Fairness
from binscrabble.web.storage import NewGame, SeatRecord, Storage, database_url
from binscrabble.web.workers import best_found, hint_of

#: A learning game whose first rack (``+x=-10=-1``) the ``hard`` computer would exchange
#: (its leave is worth more than any play's score and leave), while its best play scores 14.
DISAGREEING_SEED = "3"
#: A learning game whose first rack holds two blanks (``11?1?0+=1``).
TWO_BLANKS_SEED = "51"
ANN, BO = "a" * 43, "b" * 43
#: Searches long enough to finish on a busy machine: the test is about what they find.
PATIENT = Fairness(hint_seconds=60.0, turn_seconds=60.0)


def store_game(database: Path, game_id: str, rules: dict[str, object], seed: str) -> None:
    """A game of Ann and Bo with ``rules`` and ``seed``, nobody has moved yet."""
    storage = Storage(database_url(str(database)))
    try:
        seats = [
            SeatRecord(0, "Ann", None, token_hash(ANN)),
            SeatRecord(1, "Bo", None, token_hash(BO)),
        ]
        storage.create_game(NewGame(game_id, dict(rules), seed, seats))
    finally:
        storage.close()


def analysed_best(client: TestClient, game_id: str) -> dict[str, Any]:
    """The analysis's best play of turn 1: Ann passes, Bo resigns, the game is analysed."""
    moves, body = f"/api/games/{game_id}/moves", {"move": "pass", "turn": 0}
    assert client.post(moves, json=body, headers=bearer(ANN)).status_code == 200
    assert client.post(f"/api/games/{game_id}/resign", headers=bearer(BO)).status_code == 200
    turns = whole_analysis(client, game_id)["turns"]
    assert turns[0]["analysed"] is True, turns[0]
    best: dict[str, Any] = turns[0]["best"]
    return best


def test_the_hint_is_the_analysis_best_play(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    store_game(database, "disagreed", {"preset": "learning"}, DISAGREEING_SEED)
    with web_client(database, PATIENT) as client:
        answer = client.post("/api/games/disagreed/hint", headers=bearer(ANN), json={})
        assert answer.status_code == 200, answer.text
        hint = answer.json()
        best = analysed_best(client, "disagreed")
    assert (hint["notation"], hint["score"]) == (best["notation"], best["score"])
    assert hint["score"] == 14
    assert "best-scoring play there is" in hint["explanation"]
    assert "no play" not in hint["explanation"]


def test_a_hint_cut_short_says_a_better_play_may_exist() -> None:
    """What a hint's search sends before its last step (the answer when it runs out of time
    or memory): the best play without the blanks, not said to be the best there is. (Under
    the learning rules every search known takes under 0.1 s, so no hint request runs out.)"""
    game = Game(("Ann", "Bo"), Rules.preset("learning"), seed=int(TWO_BLANKS_SEED))
    steps = list(best_found(game, None))
    assert [found.score for found in steps] == [20, 122]
    partial = hint_of(game, steps[0].place, steps[0].score, complete=False)
    whole = hint_of(game, steps[1].place, steps[1].score, complete=True)
    assert "?" not in partial["notation"] and "?" in whole["notation"]
    assert "a better one may exist" in partial["explanation"]
    assert "there is" in whole["explanation"] and "may exist" not in whole["explanation"]


def test_the_viewer_is_told_how_a_recorded_game_ended(tmp_path: Path) -> None:
    """Newcomer's finding 13: the viewer never said who won. The record's answer carries
    the result and the end as a view has them; a record that stops before the end, none."""
    database = tmp_path / "games.db"
    store_game(database, "resigned", {}, "7")
    with web_client(database) as client:
        moves = "/api/games/resigned/moves"
        assert client.post(moves, json={"move": "pass", "turn": 0}, headers=bearer(ANN)).is_success
        assert client.post("/api/games/resigned/resign", headers=bearer(ANN)).is_success
        view = client.get("/api/games/resigned").json()
        record = client.get("/api/games/resigned/record").text
        shown = client.post("/api/records/view", json={"record": record}).json()
        going_on = Game(("Ann", "Bo"), seed=7)
        going_on.push(Pass())
        unfinished = client.post("/api/records/view", json={"record": write_record(going_on)})
    assert view["end"] == {"reason": "resigned", "seat": 0, "winners": [1]}
    assert shown["end"] == view["end"]
    assert shown["result"] == view["result"]
    assert shown["result"]["winners"] == [1] and shown["result"]["reason"] == "resigned"
    assert unfinished.status_code == 200, unfinished.text
    assert unfinished.json()["result"] is None and unfinished.json()["end"] is None
