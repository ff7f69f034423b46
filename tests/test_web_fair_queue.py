"""Fair queuing on the people's lane (issue 37, the starvation by one address): moves take
turns by the client address that caused them, each within a budget, and one address's new
games with a computer are bounded. Every worker here is a real process; the attack runs on
a real server, from 127.0.0.x source addresses."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_api_support import Served, bearer, new_game, serving, sql, stored_moves, web_client

from binscrabble.web.computer import Fairness
from binscrabble.web.pool import Lane

#: The audit's game of one attacking address: ``max`` first, then a seat it passes with.
ATTACK_GAME = [{"name": "Bot", "computer": "max"}, {"name": "Mallory"}]
#: The most permissive rules the audit found.
PERMISSIVE = {
    "preset": "expert",
    "identity_times_one": True,
    "identity_plus_minus_zero": True,
    "identity_and_one_or_zero": True,
    "identity_chains": True,
    "allow_negatives": True,
    "leading_zeros": True,
    "parallel_numbers": True,
    "rotated_equals": True,
    "xor_tiles": 20,
    "rack_size": 9,
}
#: The games the attack asks for in all (the audit's 30).
ATTACK_GAMES = 30
#: The person's replies counted while the attack runs.
REPLIES = 4


def test_a_lane_serves_its_keys_in_turn() -> None:
    """One process, six jobs of one key queued, then one job of another key: the other
    key, which used the process less, runs second, not seventh."""

    async def scenario() -> list[str]:
        lane = Lane("test", 1, 0, {})
        finished: list[str] = []

        async def job(key: str) -> None:
            await lane.run(0, time.sleep, (0.05,), key=key)
            finished.append(key)

        try:
            many = [asyncio.create_task(job("many")) for _ in range(6)]
            await asyncio.sleep(0)  # the six are queued (the first has the process)
            one = asyncio.create_task(job("one"))
            await asyncio.gather(*many, one)
        finally:
            lane.close()
        return finished

    finished = asyncio.run(scenario())
    assert finished.index("one") == 1, finished
    assert finished.count("many") == 6


def test_a_move_over_its_budget_is_a_pass(tmp_path: Path) -> None:
    """A ``max`` computer in a person's game out of time passes: the game goes on."""
    with web_client(tmp_path / "games.db", Fairness(move_seconds=0.01)) as client:
        created = new_game(client, [{"name": "Bot", "computer": "max"}, {"name": "Ann"}])
        for _ in range(600):
            view = client.get(f"/api/games/{created['id']}").json()
            if view["turn"] >= 1:
                break
            time.sleep(0.05)
        assert view["moves"][0]["notation"] == "pass"
        assert view["to_move"] == 1


def test_one_address_may_not_queue_many_games(tmp_path: Path) -> None:
    """Past the bound of its moves waiting or thinking, an address's new game with a
    computer is refused with 503 and Retry-After; games of people only are not."""
    fairness = Fairness(address_moves=2, move_seconds=30.0)
    with web_client(tmp_path / "games.db", fairness) as client:
        answers = [
            client.post("/api/games", json={"players": ATTACK_GAME, "rules": PERMISSIVE})
            for _ in range(6)
        ]
        statuses = [answer.status_code for answer in answers]
        assert statuses.count(201) >= 2 and 503 in statuses, statuses
        refused = answers[statuses.index(503)]
        assert int(refused.headers["retry-after"]) > 0
        assert "already thinking for 2 of your games" in refused.json()["error"]
        people = client.post("/api/games", json={"players": [{"name": "A"}, {"name": "B"}]})
        assert people.status_code == 201


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path / "games.db") as server:
        yield server


class Attack:
    """The audit's attack from several addresses: games of ``max`` and a seat that passes
    whenever it is to move."""

    def __init__(self, serve: Served, addresses: tuple[str, ...]) -> None:
        self.serve = serve
        self.addresses = addresses
        self.games: list[tuple[str, str, str]] = []  # address, game, token
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.keep_passing)

    def start(self) -> None:
        for address in self.addresses:
            with self.serve.client(address) as client:
                for _ in range(ATTACK_GAMES // len(self.addresses)):
                    body = {"players": ATTACK_GAME, "rules": PERMISSIVE}
                    answer = client.post("/api/games", json=body)
                    assert answer.status_code in (201, 503), answer.text
                    if answer.status_code == 201:
                        created = answer.json()
                        self.games.append((address, created["id"], created["seats"][1]["token"]))
        self.thread.start()

    def keep_passing(self) -> None:
        clients = {address: self.serve.client(address) for address in self.addresses}
        try:
            while not self.stopping.is_set():
                for address, game_id, token in self.games:
                    client = clients[address]
                    view = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
                    if not view["over"] and view["to_move"] == 1:
                        move = {"move": "pass", "turn": view["turn"]}
                        client.post(f"/api/games/{game_id}/moves", json=move, headers=bearer(token))
                self.stopping.wait(0.2)
        finally:
            for client in clients.values():
                client.close()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=120)


def reply(client: httpx.Client, game_id: str, token: str) -> int:
    """The person passes (or exchanges) and waits for the computer's reply (at most 120 s):
    the turn of the person's move (the reply is the next)."""
    view = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    move = f"exchange {view['rack'][0]}" if view["bag"] >= 9 else "pass"
    answer = client.post(
        f"/api/games/{game_id}/moves",
        json={"move": move, "turn": view["turn"]},
        headers=bearer(token),
    )
    assert answer.status_code == 200, answer.text
    for _ in range(2400):
        now: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if now["turn"] >= view["turn"] + 2:
            return int(view["turn"])
        assert not now["over"], "the person's game ended before the computer replied"
        time.sleep(0.05)
    raise AssertionError("the computer never replied")


def attack_moves_during(
    database: Path, game_id: str, turns: list[int], attack_ids: list[str]
) -> list[int]:
    """For each turn of the person's game in ``turns``: how many moves the attack's
    computers stored after the person's move of that turn and before the computer's reply
    (the next turn), by the times the server stored with the moves (the order the server
    served them in, however late the test's polling saw the reply)."""
    times = dict(sql(database, "SELECT turn, at FROM moves WHERE game_id = :id", id=game_id))
    attack = set(attack_ids)
    stored = [
        at
        for game, at in sql(database, "SELECT game_id, at FROM moves WHERE seat = 0")
        if game in attack
    ]
    return [sum(1 for at in stored if times[turn] < at < times[turn + 1]) for turn in turns]


@pytest.mark.parametrize("addresses", [("127.0.0.10",), ("127.0.0.10", "127.0.0.11", "127.0.0.12")])
def test_a_persons_replies_come_while_addresses_flood_max_games(
    serve: Served, addresses: tuple[str, ...]
) -> None:
    """The audit's starvation: while one or three addresses run 30 games of ``max`` under
    the most permissive rules and pass at once, a person's game against ``beginner`` gets
    its first reply before the attack's computers make one move per address and one more
    (the addresses new to the lane have used nothing yet), and each later reply before they
    make 2 (the one thinking when the person moved, and one that may start while the
    person's move is stored, before the reply is queued). First come, first served let 30
    go first. The moves are counted by the times the server stored them with, not by when
    the test's requests see them: on a busy machine a reply may be seen late, after the
    attack's next move."""
    attack = Attack(serve, addresses)
    with serve.client() as client:
        created = client.post(
            "/api/games",
            json={"players": [{"name": "Ann"}, {"name": "Cpu", "computer": "beginner"}]},
        ).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        attack.start()
        try:
            turns: list[int] = []
            for _ in range(REPLIES):
                time.sleep(1.0)  # the attack's passes queue its moves again
                turns.append(reply(client, game_id, token))
        finally:
            attack.stop()
    attack_ids = [game for _, game, _ in attack.games]
    assert stored_moves(serve.database, attack_ids, seat=0) > 0, "the attack never moved"
    between = attack_moves_during(Path(serve.database), game_id, turns, attack_ids)
    print(f"\nattack games: {len(attack.games)}; their moves during each reply: {between}")
    assert len(attack.games) >= len(addresses)
    assert between[0] <= len(addresses) + 1, between
    assert all(count <= 2 for count in between[1:]), between


def test_parallel_creations_of_one_address_stay_within_its_bound(tmp_path: Path) -> None:
    """Attack audit F10: 12 games with a ``max`` computer asked for at once by one address
    (the rate limits off) were all accepted: the bound was checked before any of them had
    queued its move. The check and the count are one step: at most the bound (4)."""
    with serving(tmp_path / "games.db", "--rate-limit", "all=off") as served:
        body = {"players": ATTACK_GAME, "rules": PERMISSIVE}
        start = threading.Barrier(12)

        def create(_: int) -> int:
            with served.client("127.0.0.20") as client:
                start.wait(timeout=60)
                return client.post("/api/games", json=body).status_code

        with ThreadPoolExecutor(12) as pool:
            statuses = list(pool.map(create, range(12)))
    assert set(statuses) == {201, 503}, statuses
    assert statuses.count(201) <= Fairness().address_moves, statuses
