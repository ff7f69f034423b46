"""Schemathesis against the web app's own OpenAPI description, in process through ASGI: to
every request built from the schema, valid or not, the answer must be no server error, have
a documented status, content type and body, and refuse what the schema refuses; what the
schema admits may be refused (400) only for what no schema can say.

Requests go to unknown games and to real ones (a game going on, one that is over, one in
the learning preset, one at a table), some with a seat's token and the current turn, so that
they reach the referee. `make test` runs a short, fixed budget; `make fuzz` sets
BINSCRABBLE_FUZZ=long for many more random examples per endpoint.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.python.asgi import shutdown_lifespans

from binscrabble.web.app import create_app

LONG = os.environ.get("BINSCRABBLE_FUZZ") == "long"
#: Random requests per endpoint (each also gets schemathesis's coverage cases: boundary
#: values, missing and mistyped fields).
EXAMPLES = 500 if LONG else 20

#: Why a request the schema admits may still get 400: what no schema can say (notation and
#: records that cannot be read, two players of one name; at a table: a computer player, the
#: table's house rule without a table, a rack that cannot be the seat's, a move as tiles,
#: a clock).
SEMANTIC_400 = (
    "cannot be read",
    "a name of their own",
    "people only",
    "table games only",
    "cannot be entered",
    "takes moves in notation",
    "has no clock",
)
#: The only route that judges a move, where a well-formed request may be illegal (422).
JUDGED = "/api/games/{game_id}/moves"

#: Schemathesis's checks, all of them, on valid and invalid requests; positive data may get
#: 400 or 422 here, and the test itself says when (above).
CONFIG = schemathesis.Config.from_dict(
    {
        "generation": {"mode": "all"},
        "phases": {"examples": {"enabled": True}, "coverage": {"enabled": True}},
        "checks": {
            "positive_data_acceptance": {
                "expected-statuses": ["200", "201", "400", "401", "404", "409", "422"]
            },
        },
    }
)
#: The schema, as the app describes itself (the app under test is the fixture's).
schema = schemathesis.openapi.from_dict(create_app("sqlite://", workers=1).openapi(), config=CONFIG)


@dataclass
class Game:
    """A real game of the app under test: its id and its seats' tokens."""

    game_id: str
    tokens: list[str]


@dataclass
class Arena:
    """The app under test and its real games, once the fixture has made them."""

    app: Any = None
    games: list[Game] = field(default_factory=list)
    #: How many requests each endpoint got, by status.
    answers: dict[str, Counter[int]] = field(default_factory=dict)

    def call(self, method: str, path: str, game_id: str | None = None, **parts: Any) -> Any:
        """A request through the same ASGI transport as the generated ones; its answer."""
        path_parameters = {"game_id": game_id} if game_id is not None else {}
        case = schema[path][method].Case(path_parameters=path_parameters, **parts)
        answer = case.call(app=self.app)
        assert answer.status_code < 300, answer.text
        return answer.json()

    def start_game(self, rules: dict[str, Any] | None = None, table: bool = False) -> Game:
        body: dict[str, Any] = {"players": [{"name": "Ann"}, {"name": "Bo"}]}
        if rules is not None:
            body["rules"] = rules
        if table:
            body["table"] = True
        created = self.call("POST", "/api/games", body=body)
        return Game(created["id"], [seat["token"] for seat in created["seats"]])

    def finished_game(self) -> Game:
        """A game over after six passes."""
        game = self.start_game()
        for turn in range(6):
            token = game.tokens[turn % 2]
            self.call(
                "POST",
                "/api/games/{game_id}/moves",
                game.game_id,
                body={"move": "pass", "turn": turn},
                headers={"Authorization": f"Bearer {token}"},
            )
        return game

    def view(self, game: Game) -> dict[str, Any]:
        """A spectator's view of a game."""
        return dict(self.call("GET", "/api/games/{game_id}", game.game_id))


ARENA = Arena()


@pytest.fixture(scope="module")
def tally() -> Iterator[dict[str, Counter[int]]]:
    """The answers of every endpoint, by status, printed at the end."""
    ARENA.answers.clear()
    yield ARENA.answers
    total = sum(sum(statuses.values()) for statuses in ARENA.answers.values())
    print(f"\nschemathesis: {total} requests")
    for label, statuses in ARENA.answers.items():
        print(f"  {label}: {dict(sorted(statuses.items()))}")


@pytest.fixture
def arena(tmp_path: Path, tally: dict[str, Counter[int]]) -> Iterator[Arena]:
    """An app and its real games for each endpoint's test: schemathesis ends the app's
    lifespan (which stops its worker processes for good) when a test ends."""
    ARENA.app = create_app(str(tmp_path / "games.db"), workers=1)
    ARENA.games = [
        ARENA.start_game(),
        ARENA.finished_game(),
        ARENA.start_game({"preset": "learning"}),
        ARENA.start_game(table=True),
    ]
    yield ARENA
    shutdown_lifespans()
    ARENA.games.clear()


def aimed(case: Any, game: Game, seat: str | None, current: bool, passing: bool) -> Any:
    """``case`` sent to a real game, perhaps with the token of the seat to move (or of the
    other), for the current turn, and with a move that can be played (a pass)."""
    case.path_parameters["game_id"] = game.game_id
    view = ARENA.view(game)
    if seat is not None:
        to_move = view["to_move"] or 0
        token = game.tokens[to_move if seat == "to move" else 1 - to_move]
        headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
        case.headers = {**headers, "Authorization": f"Bearer {token}"}
    body = case.body
    if isinstance(body, dict):
        if current and isinstance(body.get("turn"), int | float):
            body["turn"] = view["turn"]
        if passing and isinstance(body.get("move"), str):
            body["move"] = "pass"
    return case


@schema.hook
def flatmap_case(_context: Any, case: Any) -> Any:
    """Half of the random requests for a game go to a real one."""
    if "game_id" not in (case.path_parameters or {}) or not ARENA.games:
        return st.just(case)
    real = st.builds(
        aimed,
        st.just(case),
        st.sampled_from(ARENA.games),
        # Hypothesis starts from the first choice: a pass by the seat to move, for the turn.
        st.sampled_from(["to move", "other", None]),
        st.sampled_from([True, False]),
        st.sampled_from([True, False]),
    )
    return st.one_of(real, st.just(case))


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=not LONG,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_answer_is_documented_and_matches_its_schema(case: Any, arena: Arena) -> None:
    response = case.call(app=arena.app)
    arena.answers.setdefault(case.operation.label, Counter())[response.status_code] += 1
    case.validate_response(response, transport_kwargs={"app": arena.app})
    positive = case.meta is not None and case.meta.generation.mode.is_positive
    if positive and response.status_code == 400:
        # The schema admitted it: only what a schema cannot say may refuse it.
        error = response.json()["error"]
        assert any(reason in error for reason in SEMANTIC_400), error
    if response.status_code == 422:
        assert case.path == JUDGED, response.text
