"""Games at a real table over the web API (INTERFACES.md §9)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from random_games import random_game
from web_api_support import bearer, seat_view, web_client

from binscrabble.board import square_name
from binscrabble.game import Game
from binscrabble.legality import sorted_codes
from binscrabble.move import (
    Exchange,
    Place,
    PlacedTile,
    display_notation,
    move_notation,
    parse_move,
)
from binscrabble.record import read_record_file
from binscrabble.rules import Rules
from binscrabble.table import TableGame
from binscrabble.web.models import MAX_NOTATION, GameView
from binscrabble.web.ratelimit import endpoint_of
from binscrabble.web.storage import Storage, database_url
from binscrabble.web.table_games import (
    TableGames,
    submit_rack,
    submit_table_move,
)
from binscrabble.web.views import build_view

SAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "sample-game.bsr"


@pytest.fixture
def database(any_database: Path | str) -> Path | str:
    return any_database


@pytest.fixture
def client(database: Path | str) -> Any:
    with web_client(database) as test_client:
        yield test_client


def table_game(
    client: TestClient, names: list[str], rules: dict[str, Any] | None = None, **extra: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {"players": [{"name": name} for name in names], "table": True}
    if rules is not None:
        body["rules"] = rules
    body.update(extra)
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created = dict(answer.json())
    assert [seat["token"] is not None for seat in created["seats"]] == [True] * len(names)
    return created


def move(client: TestClient, game_id: str, token: str, text: str, turn: int) -> Any:
    return client.post(
        f"/api/games/{game_id}/moves", json={"move": text, "turn": turn}, headers=bearer(token)
    )


def rack(client: TestClient, game_id: str, token: str, codes: str) -> Any:
    return client.post(f"/api/games/{game_id}/rack", json={"rack": codes}, headers=bearer(token))


def wrong_plays(game: Game, played: object) -> list[str]:
    """Plays near the one played, in notation: shifted a square, a tile's face changed."""
    if not isinstance(played, Place):
        return []
    tiles = list(played.tiles)
    candidates = []
    for step in (1, 15):
        if all(tile.square + step < 225 for tile in tiles):
            candidates.append(
                Place(tuple(PlacedTile(t.square + step, t.face, t.blank) for t in tiles))
            )
    for face in "01=+&":
        if face != tiles[0].face:
            candidates.append(Place((PlacedTile(tiles[0].square, face), *tiles[1:])))
    written = []
    for place in candidates:
        try:
            written.append(move_notation(place, game.board))
        except ValueError:
            continue
    return written


def reenter(client: TestClient, game: Game, enter_racks: bool) -> dict[str, Any]:
    """Enter a recorded game at a table over the API, checking every answer against it."""
    created = table_game(client, list(game.players), game.rules.to_mapping())
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    shadow = TableGame(game.players, game.rules)
    refusals = 0
    for number, (turn, notation) in enumerate(zip(game.history, game.notations(), strict=True)):
        token = tokens[turn.seat]
        if enter_racks:
            assert rack(client, game_id, token, turn.rack).status_code == 200
        racks = ["" for _ in game.players]
        racks[turn.seat] = turn.rack
        replay = Game.from_setup(
            game.rules, shadow.board, racks, players=game.players, to_move=turn.seat, bag=[]
        )
        for wrong in wrong_plays(replay, turn.move):
            try:
                wrong_move = parse_move(wrong, replay.board)
            except ValueError:
                continue
            problem = replay.illegal_reason(wrong_move)
            if problem is None or (problem.kind == "not_on_rack" and not enter_racks):
                continue
            answer = move(client, game_id, token, wrong, number)
            assert answer.status_code == 422, answer.text
            assert answer.json() == {"error": f"illegal move: {problem}"}
            refusals += 1
        text = notation
        if isinstance(turn.move, Exchange) and not enter_racks:
            text = f"exchange {len(turn.move.tiles)}"
        answer = move(client, game_id, token, text, number)
        assert answer.status_code == 200, answer.text
        assert answer.json()["score"] == turn.score
        assert answer.json()["turn"] == number + 1
        shadow.push(turn.move)
    view = seat_view(client, game_id)
    assert [player["score"] for player in view["players"]] == list(game.history[-1].scores)
    assert view["table"]["awaiting_racks"] and view["to_move"] is None and not view["over"]
    for seat in view["table"]["awaiting_racks"]:
        answer = rack(client, game_id, tokens[seat], game.racks[seat])
        assert answer.status_code == 200, answer.text
    created["refusals"] = refusals
    return created


def test_the_sample_game_entered_at_a_table_scores_and_ends_as_recorded(
    client: TestClient,
) -> None:
    game = read_record_file(SAMPLE)
    created = reenter(client, game, enter_racks=False)
    assert created["refusals"] > 10
    view = seat_view(client, created["id"])
    outcome = game.outcome()
    assert outcome is not None
    assert view["over"] and view["result"] == {
        "reason": outcome.reason,
        "adjustments": list(outcome.adjustments),
        "final": list(outcome.scores),
        "winners": list(outcome.winners),
        "penalties": [0] * len(outcome.scores),
    }
    GameView.model_validate(view)
    record = client.get(f"/api/games/{created['id']}/record")
    assert record.status_code == 200
    assert "# Ada wins (Ada 404, Bob 273)" in record.text
    assert ">Ada: * 8A 10=10+~11 +122 122" in record.text
    analysis = client.get(f"/api/games/{created['id']}/analysis").json()
    assert analysis["turns"] == [] and "no rack was entered" in analysis["note"]


def test_a_self_play_game_with_racks_entered_is_analysed(client: TestClient) -> None:
    game = random_game(3, players=3)
    created = reenter(client, game, enter_racks=True)
    assert created["refusals"] > 0
    view = seat_view(client, created["id"])
    assert view["result"]["final"] == list(game.scores)
    record = client.get(f"/api/games/{created['id']}/record").text
    first = game.history[0]
    assert f">Ada: {''.join(sorted(first.rack))}" not in record or first.rack
    analysis = client.get(f"/api/games/{created['id']}/analysis").json()
    assert analysis["total"] == len(game.history) and analysis["note"] is None
    for entry, turn in zip(analysis["turns"], game.history, strict=True):
        assert entry["played"]["score"] == turn.score
        assert entry["best"]["score"] >= turn.score or not isinstance(turn.move, Place)
        played = entry["played"]
        if isinstance(turn.move, Place):
            squares = [square_name(tile.square) for tile in turn.move.tiles]
            assert [tile["square"] for tile in played["tiles"]] == squares
            assert played["display"] == display_notation(played["notation"])
        else:
            assert played["tiles"] == []
    running = [0, 0, 0]
    for entry in analysis["turns"]:
        running[entry["seat"]] += entry["played"]["score"]
        assert entry["scores"] == running


def test_views_show_a_rack_only_to_the_seat_that_entered_it(client: TestClient) -> None:
    created = table_game(client, ["Ann", "Bo"])
    game_id = created["id"]
    ann, bo = (seat["token"] for seat in created["seats"])
    full = seat_view(client, game_id)["unseen"]
    assert "rack" not in seat_view(client, game_id, ann)
    assert rack(client, game_id, ann, "1=0+00&~0").status_code == 200
    mine = seat_view(client, game_id, ann)
    assert mine["rack"] == sorted_codes("1=0+00&~0")
    assert len(mine["unseen"]) == len(full) - 9
    for other in (seat_view(client, game_id, bo), seat_view(client, game_id)):
        assert "rack" not in other and other["unseen"] == full
    answer = move(client, game_id, ann, "8D 1+1=10", 0)
    assert answer.status_code == 422
    assert "does not hold these tiles" in answer.json()["error"]
    assert move(client, game_id, ann, "8G 0=0", 0).json()["score"] > 0
    assert "rack" not in seat_view(client, game_id, ann)


def test_bad_entries_are_refused_and_change_nothing(client: TestClient) -> None:
    players = [{"name": "Ann"}, {"name": "Bot", "computer": "easy"}]
    answer = client.post("/api/games", json={"players": players, "table": True})
    assert answer.status_code == 400 and "people only" in answer.json()["error"]
    answer = client.post("/api/games", json={"players": [{"name": "Ann"}], "table": True})
    assert answer.status_code == 400
    answer = client.post(
        "/api/games",
        json={"players": [{"name": "A"}, {"name": "B"}], "refused_play_loses_turn": True},
    )
    assert answer.status_code == 400 and "table games only" in answer.json()["error"]
    created = table_game(client, ["Ann", "Bo"])
    game_id = created["id"]
    ann, bo = (seat["token"] for seat in created["seats"])
    assert move(client, game_id, bo, "8D 1+1=10", 0).status_code == 409
    assert move(client, game_id, ann, "8D 1+1=10", 3).status_code == 409
    assert move(client, game_id, "nope", "8D 1+1=10", 0).status_code == 401
    assert move(client, game_id, ann, "8D 1+@", 0).status_code == 400
    assert move(client, game_id, ann, "exchange 12", 0).status_code == 422
    assert rack(client, game_id, ann, "101").status_code == 400
    assert rack(client, game_id, ann, "?????????").status_code == 400
    assert rack(client, game_id, bo, "000000000").status_code == 409
    assert client.get(f"/api/games/{game_id}/record").status_code == 409
    assert client.get(f"/api/games/{game_id}/analysis").status_code == 409
    assert client.post(f"/api/games/{game_id}/hint", headers=bearer(ann)).status_code == 409
    view = seat_view(client, game_id)
    assert view["turn"] == 0 and view["moves"] == [] and view["to_move"] == 0


def test_a_refused_play_uses_the_turn_when_the_table_says_so(database: Path | str) -> None:
    with web_client(database) as client:
        created = table_game(client, ["Ann", "Bo"], refused_play_loses_turn=True)
        game_id = created["id"]
        ann = created["seats"][0]["token"]
        answer = move(client, game_id, ann, "8A 1+1=10", 0)
        assert answer.status_code == 422 and "turn is lost" in answer.json()["error"]
        view = seat_view(client, game_id)
        assert view["to_move"] == 1 and view["turn"] == 1
        assert view["moves"][0]["notation"] == "refused 8A 1+1=10"
    with web_client(database) as client:
        view = seat_view(client, game_id)
        assert view["to_move"] == 1 and view["moves"][0]["score"] == 0
        assert view["table"]["refused_play_loses_turn"] is True


def test_a_refused_play_of_the_longest_text_is_stored_and_reads_back(
    database: Path | str,
) -> None:
    """The longest move text a request may carry, refused, is stored as entered with its
    ``refused`` mark (208 characters: more than a move's text may have) and reads back."""
    text = "8A" + " " * (MAX_NOTATION - len("8A1+1=11")) + "1+1=11"
    assert len(text) == MAX_NOTATION
    with web_client(database) as client:
        created = table_game(client, ["Ann", "Bo"], refused_play_loses_turn=True)
        ann = created["seats"][0]["token"]
        answer = move(client, created["id"], ann, text, 0)
        assert answer.status_code == 422 and "turn is lost" in answer.json()["error"]
    with web_client(database) as client:
        view = seat_view(client, created["id"])
        assert view["turn"] == 1 and view["moves"][0]["notation"] == "refused 8A 1+1=11"


def test_the_settlement_takes_each_rack_once(client: TestClient) -> None:
    created = table_game(client, ["Ann", "Bo"])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    for number in range(6):
        assert move(client, game_id, tokens[number % 2], "pass", number).status_code == 200
    view = seat_view(client, game_id)
    assert view["table"]["awaiting_racks"] == [0, 1] and view["to_move"] is None
    assert move(client, game_id, tokens[0], "pass", 6).status_code == 409
    assert rack(client, game_id, tokens[0], "111111111").status_code == 200
    answer = rack(client, game_id, tokens[0], "111111111")
    assert answer.status_code == 400 and "already entered" in answer.json()["error"]
    assert rack(client, game_id, tokens[1], "?00000000").status_code == 200
    view = seat_view(client, game_id)
    assert view["over"] and view["result"]["final"] == [-9, -8]
    assert view["table"]["racks_left"] == ["111111111", "00000000?"]
    assert rack(client, game_id, tokens[1], "?00000000").status_code == 409


def test_a_follower_hears_every_entry_live(client: TestClient) -> None:
    created = table_game(client, ["Ann", "Bo"])
    game_id = created["id"]
    ann = created["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{game_id}/live") as socket:
        assert socket.receive_json()["turn"] == 0
        assert move(client, game_id, ann, "8D 1+1=10", 0).status_code == 200
        heard = socket.receive_json()
        assert heard["turn"] == 1 and heard["players"][0]["score"] == 18 and "rack" not in heard


def test_the_preview_judges_and_scores_run_by_run(client: TestClient) -> None:
    created = table_game(client, ["Ann", "Bo"])
    game_id = created["id"]
    ann = created["seats"][0]["token"]
    url = f"/api/games/{game_id}/preview"
    answer = client.post(url, json={"move": "8D 1+1=10"}, headers=bearer(ann)).json()
    assert answer["legal"] and answer["score"] == 18 and answer["runs"][0]["text"] == "1+1=10"
    answer = client.post(url, json={"move": "8A 1+1=10"}, headers=bearer(ann)).json()
    assert not answer["legal"] and "H8" in answer["reason"]
    assert "/api/games/{game_id}/rack" in client.get("/openapi.json").json()["paths"]


def test_table_games_held_are_bounded_and_come_back_the_same(database: Path | str) -> None:
    storage = Storage(database_url(str(database)))
    tables = TableGames(storage, max_held=2)

    async def play() -> list[dict[str, Any]]:
        made = [
            await tables.create(["Ann", "Bo"], Rules(), ["t1", "t2"], refused_loses_turn=False)
            for _ in range(3)
        ]
        first = made[0]
        await submit_table_move(first, storage, 0, "8D 1+1=10", 0)
        await submit_rack(first, storage, 1, "000111===")
        await submit_table_move(first, storage, 1, "exchange 3", 1)
        assert len(tables.held) <= 2 and first.game_id not in tables.held
        again = await tables.find(first.game_id)
        assert again is not None and again is not first
        assert len(tables.held) == 2
        return [build_view(first, 1), build_view(again, 1)]

    before, after = asyncio.run(play())
    assert before == after
    assert before["players"][0]["score"] == 18 and before["moves"][1]["notation"] == "exchange 3"
    storage.close()


def test_a_second_server_on_the_same_database_sees_the_entries(database: Path | str) -> None:
    with web_client(database) as first, web_client(database) as second:
        created = table_game(first, ["Ann", "Bo"])
        game_id = created["id"]
        ann, bo = (seat["token"] for seat in created["seats"])
        assert seat_view(second, game_id)["turn"] == 0
        assert move(first, game_id, ann, "8D 1+1=10", 0).status_code == 200
        assert seat_view(second, game_id)["players"][0]["score"] == 18
        assert move(second, game_id, bo, "pass", 1).status_code == 200
        assert move(first, game_id, ann, "pass", 1).status_code == 409
        assert seat_view(first, game_id)["turn"] == 2


def test_racks_entered_are_counted_as_moves_and_stored_once(database: Path | str) -> None:
    assert endpoint_of("POST", "/api/games/abc/rack") == "move"
    with web_client(database) as client:
        created = table_game(client, ["Ann", "Bo"])
        game_id = created["id"]
        ann = created["seats"][0]["token"]
        answer = rack(client, game_id, ann, "abcdefghi")
        assert answer.status_code == 400 and "not a tile code" in answer.json()["error"]
        for codes in ("000111===", "0=10=10=1", "000111==+"):
            assert rack(client, game_id, ann, codes).status_code == 200
    storage = Storage(database_url(str(database)))
    assert storage.move_count(game_id) == 2
    storage.close()
