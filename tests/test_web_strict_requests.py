"""Attack audit F5 and F12: a rematch takes no body (as resign and abort), and a request
with two Authorization headers is refused (400), not read as its first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_api_support import bearer, new_game, web_client


def test_a_rematch_refuses_a_body_it_would_ignore(tmp_path: Path) -> None:
    with web_client(tmp_path / "games.db") as client:
        created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
        game_id, ann = created["id"], created["seats"][0]["token"]
        resigned = client.post(f"/api/games/{game_id}/resign", headers=bearer(ann))
        assert resigned.status_code == 200, resigned.text
        players = {"players": [{"name": "X"}, {"name": "Y"}]}
        refused = client.post(f"/api/games/{game_id}/rematch", json=players, headers=bearer(ann))
        assert refused.status_code == 400, refused.text
        assert "takes no body" in refused.json()["error"]
        assert client.get(f"/api/games/{game_id}").json()["rematch"] is None
        made = client.post(f"/api/games/{game_id}/rematch", json={}, headers=bearer(ann))
        assert made.status_code == 201, made.text


def test_two_authorization_headers_are_refused(tmp_path: Path) -> None:
    with web_client(tmp_path / "games.db") as client:
        created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
        game_id = created["id"]
        ann, bo = (seat["token"] for seat in created["seats"])
        headers = [("Authorization", f"Bearer {ann}"), ("Authorization", f"Bearer {bo}")]
        answer = client.get(f"/api/games/{game_id}", headers=headers)
        assert answer.status_code == 400, answer.text
        assert "two Authorization headers" in answer.json()["error"]
        moved = client.post(
            f"/api/games/{game_id}/moves", json={"move": "pass", "turn": 0}, headers=headers
        )
        assert moved.status_code == 400, moved.text
        # One is read as before.
        assert client.get(f"/api/games/{game_id}", headers=bearer(ann)).json()["seat"] == 0


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ({"rules": None}, "rules"),
        ({"rules": {"preset": None}}, "preset"),
        ({"players": [{"name": "A", "computer": None}, {"name": "B"}]}, "computer"),
        ({"clock": {"kind": "live", "seconds": 5, "increment": None}}, "time added after"),
    ],
)
def test_null_is_refused_wherever_a_field_is_an_object_or_a_string(
    tmp_path: Path, extra: dict[str, Any], where: str
) -> None:
    # Attack audit F8: "rules": null and "computer": null were taken as left out while
    # "clock": null was refused, and one refusal said "not None" to a JSON client.
    body = {"players": [{"name": "A"}, {"name": "B"}], **extra}
    with web_client(tmp_path / "games.db") as client:
        answer = client.post("/api/games", json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert where in error and "null" in error and "None" not in error, error
