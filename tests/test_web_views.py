"""One view: the web's view of a game is the core's (``Game.view_for``,
``TableGame.view_for``) with the web's own fields around it, and every view the server
sends, by HTTP or on the WebSocket, is an instance of the one model of the OpenAPI
description (``GameView``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_api_support import bearer, best_play, new_game, seat_view, web_client

from binscrabble.web.active_games import rebuild
from binscrabble.web.models import GameView

#: How many turns the WebSocket test plays at most.
TURNS = 12


@pytest.fixture
def client(any_database: Path | str) -> Any:
    with web_client(any_database) as test_client:
        yield test_client


def as_model(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` read as a :class:`GameView` and written out again: the same data exactly
    when the view is an instance of the model (a field the model lacks would be dropped, a
    value of another type refused)."""
    return GameView.model_validate(view).model_dump(exclude_unset=True)


def web_fields_around(core: dict[str, Any], game_id: str, levels: list[str | None]) -> Any:
    """The core's view with the web's fields: the id, each seat's level, the rematch and
    the clock (an untimed game's: none)."""
    players = [
        {**player, "computer": level} for player, level in zip(core["players"], levels, strict=True)
    ]
    return {"id": game_id, **core, "players": players, "rematch": None, "clock": None}


def next_body(view: dict[str, Any]) -> dict[str, Any]:
    """The best play of the seat of ``view``, an exchange on its second turn, else a pass."""
    if view["turn"] in (2, 3) and view["bag"] >= 9:
        return {"move": "exchange " + view["rack"][:2], "turn": view["turn"]}
    play = best_play(view)
    return {"move": play or "pass", "turn": view["turn"]}


def test_the_web_view_is_the_cores_view_with_the_webs_fields(client: TestClient) -> None:
    created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    for turn in range(6):
        view = seat_view(client, game_id, tokens[turn % 2])
        answer = client.post(
            f"/api/games/{game_id}/moves", json=next_body(view), headers=bearer(tokens[turn % 2])
        )
        assert answer.status_code == 200, answer.text
    stored = client.app.state.server.storage.load_game(game_id)  # type: ignore[attr-defined]
    game, _clock = rebuild(stored)  # the game replayed from what is stored, on its own
    for seat, token in [(None, None), (0, tokens[0]), (1, tokens[1])]:
        core = game.view_for(seat)
        assert seat_view(client, game_id, token) == web_fields_around(core, game_id, [None, None])
    exchanged = seat_view(client, game_id, tokens[0])["moves"][3]
    assert exchanged["notation"] == "exchange 2" and exchanged["squares"] == []


def test_a_computer_seat_shows_its_level_around_the_cores_view(client: TestClient) -> None:
    created = new_game(client, [{"name": "Ann"}, {"name": "Bot", "computer": "easy"}])
    game_id = created["id"]
    view = seat_view(client, game_id, created["seats"][0]["token"])
    stored = client.app.state.server.storage.load_game(game_id)  # type: ignore[attr-defined]
    game, _clock = rebuild(stored)
    assert view == web_fields_around(game.view_for(0), game_id, [None, "easy"])


def test_every_websocket_message_is_a_game_view(client: TestClient) -> None:
    created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    viewers: list[tuple[str | None, dict[str, str]]] = [
        (tokens[0], bearer(tokens[0])),
        (None, {}),
    ]
    sockets = [
        client.websocket_connect(
            f"/api/games/{game_id}/live" + (f"?token={token}" if token else "")
        )
        for token, _ in viewers
    ]
    checked = 0
    for socket in sockets:
        socket.__enter__()
    try:
        for turn in range(TURNS + 1):
            for socket, (_, headers) in zip(sockets, viewers, strict=True):
                while True:
                    message = socket.receive_json()
                    assert as_model(message) == message
                    checked += 1
                    if message["turn"] == turn:
                        break
                # The WebSocket sends what GET answers, through the same model.
                assert message == client.get(f"/api/games/{game_id}", headers=headers).json()
            if message["over"] or turn == TURNS:
                break
            mover = message["to_move"]
            view = seat_view(client, game_id, tokens[mover])
            answer = client.post(
                f"/api/games/{game_id}/moves", json=next_body(view), headers=bearer(tokens[mover])
            )
            assert answer.status_code == 200, answer.text
    finally:
        for socket in sockets:
            socket.__exit__(None, None, None)
    assert checked >= 2 * (TURNS + 1) or message["over"]


def test_the_views_of_a_game_at_a_table_are_game_views(client: TestClient) -> None:
    body = {"players": [{"name": "Ann"}, {"name": "Bo"}], "table": True}
    created = client.post("/api/games", json=body).json()
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    with client.websocket_connect(f"/api/games/{game_id}/live?token={tokens[0]}") as socket:
        first = socket.receive_json()
        assert as_model(first) == first and "rack" not in first and first["table"]
        entered = client.post(
            f"/api/games/{game_id}/rack", json={"rack": "1=1+0011="}, headers=bearer(tokens[0])
        )
        assert entered.status_code == 200, entered.text
        assert as_model(entered.json()) == entered.json()
        message = socket.receive_json()
        assert as_model(message) == message == entered.json()
        assert message["rack"] == entered.json()["rack"]
    spectator = seat_view(client, game_id)
    assert as_model(spectator) == spectator and "seat" not in spectator
