"""The servers the tests start as processes (serve_known_bags.py): a game a test creates
draws the bag its id names, the same in every server; a request that names no test gets a
secret random bag."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi", reason="the web extra is missing")

from serve_known_bags import HEADER
from web_api_support import serving

PLAYERS = [{"name": "Ann"}, {"name": "Bo"}]


def racks(client: httpx.Client, headers: dict[str, str]) -> tuple[str, str]:
    """Both seats' racks of a new game, each read with its seat's token."""
    created: Any = client.post("/api/games", json={"players": PLAYERS}, headers=headers).json()
    seen = []
    for seat in created["seats"]:
        token = {"Authorization": f"Bearer {seat['token']}"}
        view = client.get(f"/api/games/{created['id']}", headers=token).json()
        seen.append(" ".join(view["rack"]))
    return seen[0], seen[1]


def test_a_test_meets_the_same_racks_in_every_server(tmp_path: Path) -> None:
    named = {HEADER: "tests/test_known_bags.py::a_test"}
    other = {HEADER: "tests/test_known_bags.py::another_test"}
    dealt = []
    for run in range(2):
        with serving(tmp_path / f"games-{run}.db") as served, served.client() as client:
            client.headers.pop(HEADER, None)  # this test's own name: each request says its own
            first, second = racks(client, named), racks(client, named)
            dealt.append((first, second, racks(client, other), racks(client, {})))
    assert dealt[0][:3] == dealt[1][:3]
    # One bag after another: a test's second game is not its first game again.
    assert dealt[0][0] != dealt[0][1]
    assert dealt[0][0] != dealt[0][2]
    # Without the header, the server's secret seeds: another bag in each server.
    assert dealt[0][3] != dealt[1][3]
