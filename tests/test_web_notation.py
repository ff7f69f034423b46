"""Moves written for people: every answer that shows a move to a person (the log of a view,
an accepted move, a preview and its runs, a hint) carries it written with the tiles' faces
(``display``) next to its notation, and the core's reasons name equations and tiles by
their faces, so the page never reads input codes (INTERFACES.md §6; issue 38)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_api_support import bearer, game_with_a_play, new_game, seat_view, web_client

from binscrabble.board import Board
from binscrabble.game import Game
from binscrabble.move import display_equation, display_notation, parse_move
from binscrabble.rules import Rules

#: Input codes that are not a face: none may be in what a person reads.
CODES = set("&|~^x/-?()#")
#: Every face as people read it, and a blank.
FACES = {"0", "1", "=", "+", "−", "×", "÷", "AND", "OR", "NOT", "XOR", "blank"}


@pytest.fixture
def client(any_database: Path | str) -> Any:
    with web_client(any_database) as test_client:
        yield test_client


def coded(text: str) -> set[str]:
    """The input codes in a play written for people (the words exchange and pass aside)."""
    _, _, tiles = text.partition(" ")
    return CODES & set(tiles.replace("exchange", ""))


def test_the_log_and_an_accepted_move_carry_the_faces(client: TestClient) -> None:
    created, play = game_with_a_play(client)
    game_id = created["id"]
    ann, bo = (seat["token"] for seat in created["seats"])
    accepted = client.post(
        f"/api/games/{game_id}/moves", json={"move": play, "turn": 0}, headers=bearer(ann)
    ).json()
    assert accepted["display"] == display_notation(accepted["notation"])
    assert not coded(accepted["display"]), accepted
    # Bo exchanges two tiles: his own log names them by face, Ann's says how many.
    rack = seat_view(client, game_id, bo)["rack"]
    exchange = f"exchange {rack[:2]}"
    answer = client.post(
        f"/api/games/{game_id}/moves", json={"move": exchange, "turn": 1}, headers=bearer(bo)
    ).json()
    # The stored notation lists the tiles in the set's order, whatever order they were typed.
    mine = display_notation(answer["notation"])
    assert answer["display"] == mine
    faces = mine.removeprefix("exchange ").split()
    typed = display_notation(exchange).removeprefix("exchange ").split()
    assert sorted(faces) == sorted(typed) and len(faces) == 2 and set(faces) <= FACES, faces
    for token, shown in ((bo, mine), (ann, "exchange of 2 tiles")):
        moves = seat_view(client, game_id, token)["moves"]
        assert moves[0]["display"] == display_notation(moves[0]["notation"])
        assert moves[1]["display"] == shown
    spectator = seat_view(client, game_id)["moves"]
    assert [move["display"] for move in spectator] == [
        display_notation(accepted["notation"]),
        "exchange of 2 tiles",
    ]


def test_a_preview_carries_the_faces_and_the_tiles_it_places(client: TestClient) -> None:
    created, play = game_with_a_play(client)
    game_id, ann = created["id"], created["seats"][0]["token"]
    preview = client.post(
        f"/api/games/{game_id}/preview", json={"move": play}, headers=bearer(ann)
    ).json()
    assert preview["legal"] is True
    assert preview["display"] == display_notation(preview["notation"])
    for run in preview["runs"]:
        assert run["display"] == display_equation(run["text"])
        assert not CODES & set(run["display"])
    placed = parse_move(play, Board()).tiles  # type: ignore[union-attr]
    assert [tile["square"] for tile in preview["tiles"]] == [
        f"{'ABCDEFGHIJKLMNO'[tile.square % 15]}{tile.square // 15 + 1}" for tile in placed
    ]
    assert [tile["face"] for tile in preview["tiles"]] == [tile.face for tile in placed]
    # A play the rack cannot make: the reason names the rack's tiles by face, and the
    # tiles it would place are still there for the page to draw.
    refused = client.post(
        f"/api/games/{game_id}/preview", json={"move": "8G 1&1=1|1"}, headers=bearer(ann)
    ).json()
    assert len(refused["tiles"]) == 7
    rack = seat_view(client, game_id, ann)["rack"]
    if refused["legal"]:  # the rack happens to hold AND and OR: nothing to refuse
        assert {"&", "|"} <= set(rack), (rack, refused)
    else:
        assert "does not hold" in refused["reason"], refused
        # The one code a reason may name is the one to type: a blank written as ?| or ?&.
        told = re.sub(r"write \?[&|] for a blank played as (AND|OR)", "", refused["reason"])
        assert not {"&", "|", "?"} & set(told), refused


def test_a_hint_carries_the_faces(client: TestClient) -> None:
    learning = new_game(client, [{"name": "Ann"}, {"name": "Bo"}], {"preset": "learning"})
    ann = learning["seats"][0]["token"]
    hint = client.post(f"/api/games/{learning['id']}/hint", headers=bearer(ann), json={}).json()
    assert hint["display"] == display_notation(hint["notation"])
    if hint["notation"].startswith(("-", "exchange ")):
        # An exchange (a rack without `=` makes no equation) is explained by its reason.
        assert "exchange" in hint["explanation"], hint
    else:
        assert hint["explanation"].startswith(hint["display"])
    for run in hint["runs"]:
        assert run["display"] == display_equation(run["text"])
        # Sentences around: parentheses and letters are the prose's, not codes.
        assert not set("&|~^/-#") & set(run["explanation"]), run


def test_the_reasons_of_an_illegal_play_name_equations_by_their_faces() -> None:
    game = Game.from_setup(Rules(), Board(), ["1&1=0x", "0"])

    def reason(notation: str) -> str:
        return str(game.illegal_reason(parse_move(notation, game.board)))

    assert reason("8G 1&1=0") == (
        "the run G8-K8 1 AND 1=0 is not an equation: the left side is 1 but the right side is 0"
    )
    assert reason("8G 1=1x") == (
        "the run G8-J8 1=1× is not an equation: the operator × at position 4 has nothing after it"
    )
    assert reason("8G 1|1=1").startswith(
        "the rack (0 1 1 = × AND) does not hold these tiles: OR: 1 tile needed, 0 on the rack"
    )
