"""Whole games through the web API: the no-leak rule on every message of a game, games
against the computer (worker processes), and what comes after a game: the record, the
analysis, the record viewer, the rematch; and hints in the learning preset."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from random_games import random_game
from web_api_support import (
    MAX_TURNS,
    bearer,
    best_play,
    game_with_a_play,
    new_game,
    seat_view,
    server_truth,
    web_client,
    whole_analysis,
)

from binscrabble.board import Board, square_name
from binscrabble.legality import sorted_codes
from binscrabble.move import Place, display_notation, parse_move
from binscrabble.record import read_record, write_record
from binscrabble.web.storage import Storage, database_url

#: The keys a view may have; ``seat`` and ``rack`` only with a seat's token.
VIEW_KEYS = {
    "id",
    "rules",
    "preset",
    "board",
    "blanks",
    "rotated",
    "players",
    "to_move",
    "turn",
    "bag",
    "moves",
    "over",
    "unseen",
    "last_move",
    "result",
    "rematch",
    "clock",
    "end",
    "departures",
}
CLOCK_KEYS = {"kind", "remaining_ms", "running", "waiting"}
END_KEYS = {"reason", "seat", "winners"}
PLAYER_KEYS = {"name", "score", "computer", "tiles", "left"}
MOVE_KEYS = {"seat", "notation", "display", "score", "squares", "running"}
DEPARTURE_KEYS = {"turn", "seat", "reason"}


@pytest.fixture
def client(any_database: Path | str) -> Any:
    with web_client(any_database) as test_client:
        yield test_client


def check_no_leak(message: dict[str, Any], seat: int | None, client: TestClient) -> None:
    """``message`` holds no rack but the seat's own, no bag order, no seed."""
    racks, seed, bag = server_truth(client, message["id"])
    expected = VIEW_KEYS | ({"seat", "rack"} if seat is not None else set())
    assert set(message) == expected
    if seat is not None:
        assert message["seat"] == seat and message["rack"] == racks[seat]
    assert all(set(player) == PLAYER_KEYS for player in message["players"])
    assert all(set(move) == MOVE_KEYS for move in message["moves"])
    assert all(set(left) == DEPARTURE_KEYS for left in message["departures"])
    for move in message["moves"]:
        # Another seat's exchange shows its size only, in its display too.
        hidden = re.fullmatch(r"exchange (\d)", move["notation"])
        if hidden:
            count = int(hidden.group(1))
            assert move["display"] == f"exchange of {count} tile{'' if count == 1 else 's'}"
    assert isinstance(message["bag"], int)
    clock, end = message["clock"], message["end"]
    assert clock is None or (
        set(clock) == CLOCK_KEYS and len(clock["remaining_ms"]) == len(message["players"])
    )
    assert (end is None) == (not message["over"])
    assert end is None or END_KEYS <= set(end) <= END_KEYS | {"cause"}
    text = json.dumps(message)
    assert seed not in text
    # A bag in the set's order or its reverse (six 1s, say) is no secret order: ``unseen``
    # lists the same tiles in that order. Only a bag in another order can leak it.
    if len(bag) >= 6 and sorted_codes(bag) not in ("".join(bag), "".join(reversed(bag))):
        assert "".join(bag) not in text and "".join(reversed(bag)) not in text
    for move in message["moves"]:
        if move["seat"] != seat and not move["squares"]:
            assert move["notation"] == "pass" or move["notation"].startswith("exchange ")


def check_list_no_leak(client: TestClient, game_id: str, tokens: list[str]) -> None:
    """The games being played now (``GET /api/games``) show of the game what a spectator
    sees, and no rack, bag order, seed or token."""
    listed = client.get("/api/games").json()["games"]
    racks, seed, bag = server_truth(client, game_id)
    for entry in listed:
        assert set(entry) == {"id", "url", "players", "to_move", "turn", "idle_seconds"}
        assert all(set(player) == {"name", "computer", "score"} for player in entry["players"])
    text = json.dumps(listed)
    assert seed not in text and all(token not in text for token in tokens)
    assert all(rack not in text for rack in racks if len(rack) >= 5)
    # A bag in the set's order or its reverse (six 1s, say) is no secret order: ``unseen``
    # lists the same tiles in that order. Only a bag in another order can leak it.
    if len(bag) >= 6 and sorted_codes(bag) not in ("".join(bag), "".join(reversed(bag))):
        assert "".join(bag) not in text and "".join(reversed(bag)) not in text


def next_move(view: dict[str, Any]) -> dict[str, Any]:
    """A careful player's move: the best play, an exchange early on, else a pass."""
    play = best_play(view)
    if play is not None:
        return {"move": play, "turn": view["turn"]}
    if view["bag"] >= 9 and view["turn"] < 20:
        return {"move": "exchange " + view["rack"][:3], "turn": view["turn"]}
    return {"move": "pass", "turn": view["turn"]}


def test_no_message_of_a_whole_game_leaks_another_rack(client: TestClient) -> None:
    created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    addresses = [f"/api/games/{game_id}/live?token={token}" for token in tokens]
    addresses.append(f"/api/games/{game_id}/live")
    sockets = [client.websocket_connect(address) for address in addresses]
    viewers: list[int | None] = [0, 1, 2, None]
    counted = 0
    for socket in sockets:
        socket.__enter__()
    try:
        for turn in range(MAX_TURNS):
            for socket, seat in zip(sockets, viewers, strict=True):
                while True:
                    message = socket.receive_json()
                    check_no_leak(message, seat, client)
                    counted += 1
                    if message["turn"] == turn:
                        break
            spectator = seat_view(client, game_id)
            check_no_leak(spectator, None, client)
            check_list_no_leak(client, game_id, tokens)
            if spectator["over"]:
                break
            mover = spectator["to_move"]
            view = seat_view(client, game_id, tokens[mover])
            check_no_leak(view, mover, client)
            if turn == 1:
                body = {"move": "exchange " + view["rack"][:2], "turn": turn}
            else:
                body = next_move(view)
            answer = client.post(
                f"/api/games/{game_id}/moves", json=body, headers=bearer(tokens[mover])
            )
            assert answer.status_code == 200, answer.text
            assert set(answer.json()) == {"turn", "notation", "display", "score"}
    finally:
        for socket in sockets:
            socket.__exit__(None, None, None)
    final = seat_view(client, game_id)
    assert final["over"] is True and final["to_move"] is None
    assert final["moves"][1]["notation"] == "exchange 2"
    assert seat_view(client, game_id, tokens[1])["moves"][1]["notation"].startswith("-")
    result = final["result"]
    assert result["final"] == [player["score"] for player in final["players"]]
    assert result["final"] == [
        running + adjustment
        for running, adjustment in zip(
            final["moves"][-1]["running"], result["adjustments"], strict=True
        )
    ]
    assert result["winners"] == [
        seat for seat, score in enumerate(result["final"]) if score == max(result["final"])
    ]
    assert counted >= 4 * final["turn"]


def wait_for(client: TestClient, game_id: str, done: Any) -> dict[str, Any]:
    """Poll the spectator's view until ``done(view)``, for at most 600 polls."""
    for _ in range(600):
        view = seat_view(client, game_id)
        if done(view):
            return view
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} did not get there: {view}")


def test_computers_play_a_whole_game_in_the_worker_pool(
    client: TestClient, any_database: Path | str
) -> None:
    created = new_game(
        client, [{"name": "Bit", "computer": "beginner"}, {"name": "Byte", "computer": "easy"}]
    )
    assert all("token" not in seat for seat in created["seats"])
    final = wait_for(client, created["id"], lambda view: view["over"])
    assert final["turn"] == len(final["moves"]) > 0
    assert any(move["squares"] for move in final["moves"])
    storage = Storage(database_url(str(any_database)))
    assert storage.move_count(created["id"]) == final["turn"]
    storage.close()


def test_the_computer_answers_a_persons_move(client: TestClient) -> None:
    created = new_game(client, [{"name": "Ann"}, {"name": "Bot", "computer": "medium"}])
    ann = created["seats"][0]["token"]
    answer = client.post(
        f"/api/games/{created['id']}/moves", json={"move": "pass", "turn": 0}, headers=bearer(ann)
    )
    assert answer.status_code == 200
    view = wait_for(client, created["id"], lambda view: view["turn"] == 2)
    assert view["to_move"] == 0 and view["moves"][1]["seat"] == 1
    refused = client.post(
        f"/api/games/{created['id']}/moves", json={"move": "pass", "turn": 1}, headers=bearer(ann)
    )
    assert refused.status_code == 409


def finished_game(client: TestClient, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """A game of two people ended by one play and six scoreless turns."""
    created, play = game_with_a_play(client)
    tokens = [seat["token"] for seat in created["seats"]]
    moves = [play, "pass", "pass", "pass", "pass", "pass", "pass"]
    for turn, move in enumerate(moves):
        answer = client.post(
            f"/api/games/{created['id']}/moves",
            json={"move": move, "turn": turn},
            headers=bearer(tokens[turn % 2]),
        )
        assert answer.status_code == 200, answer.text
    return created


def test_record_analysis_and_viewer_after_the_game(client: TestClient) -> None:
    created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
    early = client.get(f"/api/games/{created['id']}/record")
    assert early.status_code == 409 and "over" in early.json()["error"]
    assert client.get(f"/api/games/{created['id']}/analysis").status_code == 409
    created = finished_game(client)
    game_id = created["id"]
    view = seat_view(client, game_id)
    assert view["over"] is True and view["result"]["reason"] == "scoreless"
    record = client.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200
    assert record.headers["content-type"].startswith("text/plain")
    assert "attachment" in record.headers["content-disposition"]
    replayed = read_record(record.text)
    assert replayed.scores == view["result"]["final"]
    analysis = whole_analysis(client, game_id)
    assert analysis["complete"] is True and analysis["total"] == 7
    assert [turn["turn"] for turn in analysis["turns"]] == list(range(1, 8))
    assert all(turn["analysed"] and turn["reason"] is None for turn in analysis["turns"])
    first = analysis["turns"][0]
    assert first["board"] == ["." * 15] * 15 and first["seat"] == 0
    assert first["played"]["notation"] == view["moves"][0]["notation"]
    assert first["lost"] == max(first["best"]["score"] - first["played"]["score"], 0)
    assert analysis["turns"][1]["board"] == view["board"]
    shown = client.post("/api/records/view", json={"record": record.text}).json()
    assert shown["players"] == ["Ann", "Bo"]
    assert [turn["notation"] for turn in shown["turns"]] == [m["notation"] for m in view["moves"]]
    assert shown["turns"][-1]["board"] == view["board"]
    assert shown["turns"][0]["scores"] == view["moves"][0]["running"]
    bad = client.post("/api/records/view", json={"record": record.text.replace("+", "#", 1)})
    assert bad.status_code == 400 and "cannot be read" in bad.json()["error"]
    too_big = client.post("/api/records/view", json={"record": "#" * 70_000})
    assert too_big.status_code == 413


def tiles_of(notation: str) -> list[dict[str, Any]]:
    """The tiles a play in notation puts on an empty board, as the analysis lists them."""
    move = parse_move(notation, Board())
    assert isinstance(move, Place)
    return [
        {
            "square": square_name(tile.square),
            "face": tile.face,
            "blank": tile.blank,
            "rotated": tile.rotated,
        }
        for tile in move.tiles
    ]


def test_the_analysis_and_the_viewer_write_moves_with_faces_and_list_their_tiles(
    client: TestClient,
) -> None:
    created = finished_game(client)
    view = seat_view(client, created["id"])
    analysis = whole_analysis(client, created["id"])
    first, second = analysis["turns"][:2]
    played = view["moves"][0]["notation"]
    assert first["played"] == {
        "notation": played,
        "display": display_notation(played),
        "score": view["moves"][0]["score"],
        "tiles": tiles_of(played),
    }
    best = first["best"]
    assert best["display"] == display_notation(best["notation"])
    assert best["tiles"] == tiles_of(best["notation"])
    assert second["played"] == {"notation": "pass", "display": "pass", "score": 0, "tiles": []}
    # Every seat's total after each turn: the chart of the game is drawn from them.
    assert [turn["scores"] for turn in analysis["turns"]] == [
        move["running"] for move in view["moves"]
    ]
    record = client.get(f"/api/games/{created['id']}/record").text
    shown = client.post("/api/records/view", json={"record": record}).json()
    assert shown["turns"][0]["display"] == display_notation(played)
    assert shown["turns"][0]["tiles"] == tiles_of(played)
    assert shown["turns"][1]["display"] == "pass" and shown["turns"][1]["tiles"] == []


def test_the_viewer_reads_a_record_whose_draws_it_must_arrange(client: TestClient) -> None:
    # A record without its seed: reading it arranges the bag for every draw the record
    # shows; the viewer's boards come from that game, never from drawing again.
    for seed in (1, 2, 3):
        game = random_game(seed, players=3)
        shown = client.post("/api/records/view", json={"record": write_record(game, seed=False)})
        assert shown.status_code == 200, shown.text
        turns = shown.json()["turns"]
        assert len(turns) == len(game.history)
        assert turns[-1]["board"] == game.board.rows()
        assert [turn["score"] for turn in turns] == [turn.score for turn in game.history]
        assert [turn["seat"] for turn in turns] == [turn.seat for turn in game.history]


def test_a_rematch_keeps_players_rules_and_tokens(client: TestClient) -> None:
    created = finished_game(client)
    game_id = created["id"]
    ann, bo = (seat["token"] for seat in created["seats"])
    assert client.post(f"/api/games/{game_id}/rematch").status_code == 401
    answer = client.post(f"/api/games/{game_id}/rematch", headers=bearer(bo))
    assert answer.status_code == 201
    again = answer.json()
    # Bo moved second, so Bo sits first now: seat 0 starts.
    assert [seat["name"] for seat in again["seats"]] == ["Bo", "Ann"]
    assert again["seats"][0]["token"] == bo and "token" not in again["seats"][1]
    assert again["seats"][0]["url"] == f"/games/{again['id']}?token={bo}"
    assert seat_view(client, game_id)["rematch"] == again["id"]
    assert seat_view(client, again["id"], ann)["seat"] == 1
    bo_view = seat_view(client, again["id"], bo)
    assert bo_view["seat"] == 0 and bo_view["to_move"] == 0 and bo_view["turn"] == 0
    assert bo_view["rules"] == seat_view(client, game_id)["rules"]
    second = client.post(f"/api/games/{game_id}/rematch", headers=bearer(ann))
    assert second.json()["id"] == again["id"]
    playing = client.post(f"/api/games/{again['id']}/rematch", headers=bearer(ann))
    assert playing.status_code == 409


def pass_to_the_end(client: TestClient, game_id: str, tokens: dict[str, str]) -> str:
    """Every player passes until the game ends; the name of the player who moved first."""
    for _ in range(MAX_TURNS):
        view = seat_view(client, game_id)
        if view["over"]:
            return str(view["players"][view["moves"][0]["seat"]]["name"])
        mover = view["players"][view["to_move"]]["name"]
        answer = client.post(
            f"/api/games/{game_id}/moves",
            json={"move": "pass", "turn": view["turn"]},
            headers=bearer(tokens[mover]),
        )
        assert answer.status_code == 200, answer.text
    raise AssertionError("passes never ended the game")


@pytest.mark.parametrize(
    ("names", "starters"),
    [
        (["Ann", "Bo"], ["Ann", "Bo", "Ann", "Bo", "Ann"]),
        (["Ann", "Bo", "Cy"], ["Ann", "Bo", "Cy", "Ann", "Bo"]),
    ],
)
def test_who_starts_goes_round_from_rematch_to_rematch(
    client: TestClient, names: list[str], starters: list[str]
) -> None:
    """Each rematch is started by the player who moved second in the game before it;
    whoever asks for it, the answer carries that player's token at their new seat."""
    created = new_game(client, [{"name": name} for name in names])
    tokens = {seat["name"]: seat["token"] for seat in created["seats"]}
    game_id = created["id"]
    started: list[str] = []
    for number in range(len(starters)):
        started.append(pass_to_the_end(client, game_id, tokens))
        if number == len(starters) - 1:
            break
        asker = names[number % len(names)]
        answer = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[asker]))
        assert answer.status_code == 201, answer.text
        mine = [seat for seat in answer.json()["seats"] if "token" in seat]
        assert [(seat["name"], seat["token"]) for seat in mine] == [(asker, tokens[asker])]
        game_id = answer.json()["id"]
        assert seat_view(client, game_id, tokens[asker])["seat"] == mine[0]["seat"]
    assert started == starters


def test_hints_only_in_the_learning_preset_on_your_turn(client: TestClient) -> None:
    standard = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
    refused = client.post(
        f"/api/games/{standard['id']}/hint", headers=bearer(standard["seats"][0]["token"])
    )
    assert refused.status_code == 409 and "learning" in refused.json()["error"]
    learning = new_game(client, [{"name": "Ann"}, {"name": "Bo"}], {"preset": "learning"})
    ann, bo = (seat["token"] for seat in learning["seats"])
    assert client.post(f"/api/games/{learning['id']}/hint", headers=bearer(bo)).status_code == 409
    hint = client.post(f"/api/games/{learning['id']}/hint", headers=bearer(ann), json={}).json()
    assert set(hint) == {"notation", "display", "score", "about", "runs", "total", "explanation"}
    preview = client.post(
        f"/api/games/{learning['id']}/preview", json={"move": hint["notation"]}, headers=bearer(ann)
    ).json()
    assert preview["legal"] is True and preview["score"] == hint["score"]
    for run in hint["runs"]:
        assert run["text"] in run["explanation"] or "true" in run["explanation"]
