"""Requests an attacker shapes (the attack audit's findings A1–A10): each costs the server
a bounded amount of work and gets a sentence, as docs/web.md and docs/limits.md say."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import starlette.datastructures
import starlette.requests
from web_api_support import Served, bearer, new_game, serving, web_client

from binscrabble import limits
from binscrabble.game import Game
from binscrabble.move import Pass
from binscrabble.record import RecordError, write_record
from binscrabble.web import languages


class Counted:
    """A parser that remembers how many fields (or pairs) it was given, then parses."""

    def __init__(self, parser: Any, separator: str) -> None:
        self.parser = parser
        self.separator = separator
        self.given: list[int] = []

    def __call__(self, text: str, *args: Any, **kwargs: Any) -> Any:
        self.given.append(text.count(self.separator) + 1 if text else 0)
        return self.parser(text, *args, **kwargs)


@pytest.fixture
def parsers(monkeypatch: pytest.MonkeyPatch) -> dict[str, Counted]:
    """Starlette's query and cookie parsers and the language's query reader, counted."""
    counted = {
        "query": Counted(starlette.datastructures.parse_qsl, "&"),
        "cookie": Counted(starlette.requests.cookie_parser, ";"),
        "language": Counted(languages.query_fields, "&"),
    }
    monkeypatch.setattr(starlette.datastructures, "parse_qsl", counted["query"])
    monkeypatch.setattr(starlette.requests, "cookie_parser", counted["cookie"])
    monkeypatch.setattr(languages, "query_fields", counted["language"])
    return counted


def test_a_query_of_30000_fields_is_read_once_in_a_bounded_slice_and_refused(
    tmp_path: Path, parsers: dict[str, Counted]
) -> None:
    flood = "&".join(["a"] * 30_000)
    with web_client(tmp_path / "g.db") as client:
        for path in ("/api/meta", "/static/css/app.css", "/api/games/nope"):
            for parser in parsers.values():
                parser.given.clear()
            answer = client.get(f"{path}?{flood}&lang=fr")
            assert answer.status_code == 400
            assert "100" in answer.json()["error"]
            assert answer.headers["x-content-type-options"] == "nosniff"
            # The language's reader ran once; nothing parsed the whole query.
            assert len(parsers["language"].given) == 1
            assert all(given <= languages.QUERY_FIELDS + 1 for given in parsers["query"].given)
        french = client.get(f"/api/meta?lang=fr&{flood}")
        assert french.headers["content-language"] == "fr"
        assert "paramètres" in french.json()["error"]


def test_a_query_within_the_bound_still_chooses_and_answers(
    tmp_path: Path, parsers: dict[str, Counted]
) -> None:
    with web_client(tmp_path / "g.db") as client:
        query = "&".join(["a"] * 98 + ["lang=fr"])
        answer = client.get(f"/api/games/nope?{query}")
        assert answer.status_code == 404
        assert answer.headers["content-language"] == "fr"
        assert len(parsers["language"].given) == 1
        assert client.get("/api/meta?" + "&".join(["a"] * 101)).status_code == 400


def test_a_cookie_of_12000_pairs_is_read_in_a_bounded_slice(
    tmp_path: Path, parsers: dict[str, Counted]
) -> None:
    with web_client(tmp_path / "g.db") as client:
        flood = "; ".join(["a=1"] * 12_000)
        answer = client.get("/api/games/nope", headers={"Cookie": f"lang=bg; {flood}"})
        assert answer.headers["content-language"] == "bg"
        late = client.get("/api/games/nope", headers={"Cookie": f"{flood}; lang=bg"})
        assert late.headers["content-language"] == "en"  # beyond the pairs looked at
        assert all(given <= languages.COOKIE_PAIRS + 1 for given in parsers["cookie"].given)


def test_the_cookie_reader_keeps_its_meaning() -> None:
    assert languages.remembered("x=1; lang=he") == "he"
    assert languages.remembered('lang=he"><b>; lang=bg') == "bg"
    assert languages.remembered('lang="fr"') == "fr"
    assert languages.remembered("lang=xx") is None
    assert languages.remembered("") is None
    assert languages.asked("lang=%62g") == "bg"
    assert languages.asked("a=1&lang=HE&lang=fr") == "he"
    assert languages.asked("lang=he" + "x" * 20_000) is None
    assert languages.asked("lang=he%00") is None


# -- A1: names that hide a character, or show nothing ----------------------------------------

INVISIBLE_ADDED = [
    "Bo\u061c",  # ARABIC LETTER MARK, a direction mark (Cf)
    "Bo\u180e",  # MONGOLIAN VOWEL SEPARATOR (Cf)
    "Bo\U000e0041",  # a tag character (Cf)
    "Bo\u034f",  # COMBINING GRAPHEME JOINER
    "Bo\u3164",  # HANGUL FILLER
    "Bo\ufe0f",  # a variation selector
    "B\u00ado",  # a soft hyphen (Cf)
]
SHOWING_NOTHING = ["\u3164", "\u2800", "\u115f", "\u0301", "\u034f", " \u0301 "]


@pytest.mark.parametrize("name", INVISIBLE_ADDED + SHOWING_NOTHING)
def test_a_name_with_an_invisible_character_or_nothing_visible_is_refused(
    tmp_path: Path, name: str
) -> None:
    with web_client(tmp_path / "g.db") as client:
        answer = client.post("/api/games", json={"players": [{"name": "Bo"}, {"name": name}]})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"].startswith("player 2's name is wrong: a name needs a character")


@pytest.mark.parametrize("name", ["Bo\u0301", "Zoë", "דנה", "Ann \U0001f600", "李", "Ｂｏｂ"])
def test_names_that_show_their_characters_are_taken(tmp_path: Path, name: str) -> None:
    with web_client(tmp_path / "g.db") as client:
        answer = client.post("/api/games", json={"players": [{"name": "Bo"}, {"name": name}]})
    assert answer.status_code == 201, answer.text


def test_the_core_names_the_invisible_character_of_a_name() -> None:
    assert limits.name_problem("Bo\u061c") == "it holds the invisible character U+061C"
    assert limits.name_problem("Bo\U000e0041") == "it holds the invisible character U+E0041"
    assert limits.name_problem("\u0301") == "it has no visible character"
    assert limits.name_problem("Bo\u0301") is None
    game = Game(("Ann", "Bo\u2800"), seed=7)
    with pytest.raises(RecordError, match="U\\+2800"):
        write_record(game)


# -- A2: the record viewer takes the names a game takes ---------------------------------------


def a_record(first: str, second: str) -> str:
    """A record of one pass between two players named ``first`` and ``second``."""
    game = Game(("Ann", "Bo"), seed=7)
    game.push(Pass())
    return write_record(game).replace("Ann", first).replace("Bo", second)


@pytest.mark.parametrize(
    ("first", "second", "said"),
    [
        ("Ann", "Ann\u202egnp.exe", "U+202E"),
        ("Ann", "\u200fBo", "U+200F"),
        ("A\u200bnn", "Bo", "U+200B"),
        ("Ann", "ann", "read alike"),
        ("Ann", "\uff21nn", "read alike"),
        ("Bo\u3164", "Bo", "U+3164"),
    ],
)
def test_the_viewer_refuses_names_a_game_refuses(
    tmp_path: Path, first: str, second: str, said: str
) -> None:
    with web_client(tmp_path / "g.db") as client:
        answer = client.post("/api/records/view", json={"record": a_record(first, second)})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"].startswith("this record cannot be read: ")
    assert said in answer.json()["error"]


ALIKE = {
    "en": "have names that read alike",
    "fr": "se lisent",
    "he": "נקראים",
    "bg": "четат",
}


@pytest.mark.parametrize("language", sorted(ALIKE))
def test_the_viewer_says_names_read_alike_in_four_languages(tmp_path: Path, language: str) -> None:
    with web_client(tmp_path / "g.db") as client:
        answer = client.post(
            f"/api/records/view?lang={language}", json={"record": a_record("Ann", "ann")}
        )
        fine = client.post("/api/records/view", json={"record": a_record("Ann", "Bob")})
    assert answer.status_code == 400
    assert ALIKE[language] in answer.json()["error"]
    assert fine.status_code == 200 and fine.json()["players"] == ["Ann", "Bob"]


# -- A4: the hint takes no body ---------------------------------------------------------------


def test_the_hint_refuses_a_body_as_resign_does(tmp_path: Path) -> None:
    with web_client(tmp_path / "g.db") as client:
        created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}], {"preset": "learning"})
        hint = f"/api/games/{created['id']}/hint"
        token = bearer(created["seats"][0]["token"])
        sent = {**token, "content-type": "application/json"}
        refused = [
            client.post(hint, headers=sent, content=body) for body in (b'{"x": 1}', b"null", b"[]")
        ]
        taken = client.post(hint, headers=token, json={})
    for answer in refused:
        assert answer.status_code == 400, answer.text
        assert "takes no body" in answer.json()["error"]
    assert taken.status_code == 200, taken.text


# -- A5: a count of characters agrees with its noun ------------------------------------------

ONE_CHARACTER = {
    "en": "it takes at least 1 character",
    "fr": "il faut au moins 1 caractère",
    "he": "תו אחד",
    "bg": "поне 1",
}


@pytest.mark.parametrize("language", sorted(ONE_CHARACTER))
def test_at_least_one_character_is_singular(tmp_path: Path, language: str) -> None:
    with web_client(tmp_path / "g.db") as client:
        record = client.post(f"/api/records/view?lang={language}", json={"record": ""})
        name = client.post(
            f"/api/games?lang={language}", json={"players": [{"name": ""}, {"name": "B"}]}
        )
    for answer in (record, name):
        assert answer.status_code == 400
        error = answer.json()["error"]
        assert ONE_CHARACTER[language] in error, error
        assert "caractères" not in error and "characters" not in error and "תווים" not in error


# -- A8: one serve a SQLite file ---------------------------------------------------------------


def second_serve(database: Path | str, *options: str) -> subprocess.CompletedProcess[str]:
    """``binscrabble serve`` on ``database``, expected to stop at once: what it said."""
    command = [sys.executable, "-m", "binscrabble", "serve", "--port", "0", "--workers", "1"]
    command += ["--db", str(database), *options]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_a_second_serve_on_one_sqlite_file_is_refused_until_the_first_ends(
    tmp_path: Path,
) -> None:
    database = tmp_path / "games.db"
    with serving(database) as first:
        refused = second_serve(database)
        as_url = second_serve(f"sqlite:///{database}", "--lang", "fr")
        assert first.client().get("/api/meta").status_code == 200
    assert refused.returncode == 2 and refused.stdout == ""
    assert "is already served by another binscrabble serve" in refused.stderr
    assert f"(process {first.process.pid})" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert as_url.returncode == 2 and "PostgreSQL" in as_url.stderr
    assert "déjà servi" in as_url.stderr
    with serving(database) as again, again.client() as client:  # stopped: the lock is gone
        assert client.get("/api/meta").status_code == 200


def test_a_killed_serve_leaves_no_lock(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    crashed = Served(database)
    crashed.process.kill()
    crashed.process.wait(timeout=30)
    crashed.stop()
    with serving(database) as again, again.client() as client:
        assert client.get("/api/meta").status_code == 200


# -- A3: a failed WebSocket handshake is answered as every error --------------------------------

KEY = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
V13 = "Sec-WebSocket-Version: 13\r\n\r\n"
UPGRADE = "Host: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"


def raw_answer(url: str, request: str) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as it is to the server at ``url``: the status, headers and body of
    its answer (read until the server closes, within 30 s)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(request.encode("latin-1"))
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _blank, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _colon, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def test_failed_websocket_handshakes_get_json_and_the_security_headers(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db") as served, served.client() as client:
        game = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])["id"]
        live = f"/api/games/{game}/live"
        requests = {
            "no key": f"GET {live} HTTP/1.1\r\n{UPGRADE}{V13}",
            "version 8": f"GET {live} HTTP/1.1\r\n{UPGRADE}{KEY}Sec-WebSocket-Version: 8\r\n\r\n",
            "no socket": f"GET /api/meta HTTP/1.1\r\n{UPGRADE}{KEY}{V13}",
            "long line": f"GET {live}?{'a' * 9000} HTTP/1.1\r\n{UPGRADE}{KEY}{V13}",
            "in French": f"GET {live}?lang=fr HTTP/1.1\r\n{UPGRADE}{V13}",
        }
        answers = {what: raw_answer(served.url, request) for what, request in requests.items()}
    for what, (status, headers, body) in answers.items():
        assert 400 <= status < 500, what
        assert headers["content-type"] == "application/json", what
        assert headers["x-content-type-options"] == "nosniff", what
        assert headers["x-frame-options"] == "DENY", what
        assert "frame-ancestors 'none'" in headers["content-security-policy"], what
        assert headers["referrer-policy"] == "no-referrer", what
        assert set(json.loads(body)) == {"error"}, what
    assert "/api/games/ID/live" in json.loads(answers["no socket"][2])["error"]
    assert answers["in French"][1]["content-language"] == "fr"
    assert "WebSocket" in json.loads(answers["in French"][2])["error"]
    assert json.loads(answers["in French"][2]) != json.loads(answers["no key"][2])


# -- A6: a socket given two tokens is refused, as two Authorization headers are -----------------


def test_a_socket_with_two_tokens_is_closed_4400(tmp_path: Path) -> None:
    with web_client(tmp_path / "g.db") as client:
        created = new_game(client, [{"name": "Ann"}, {"name": "Bo"}])
        game, token = created["id"], created["seats"][0]["token"]
        closes = []
        for query in (f"token=&token={token}", f"token={token}&token=zz"):
            with client.websocket_connect(f"/api/games/{game}/live?{query}") as socket:
                closing = socket.receive()
            closes.append((closing["type"], closing["code"], closing["reason"]))
        with client.websocket_connect(f"/api/games/{game}/live?token={token}") as socket:
            assert socket.receive_json()["seat"] == 0
    for kind, code, reason in closes:
        assert (kind, code) == ("websocket.close", 4400)
        assert "token twice" in reason


# -- A7: serve's --rate-limit refusals in the command's language --------------------------------

RATE_LIMIT_REFUSALS = {
    "fr": ("est illisible", "ne connaît pas", "n’est pas de la forme"),
    "he": ("אי אפשר לקרוא", "אינו מכיר", "אינו בצורה"),
    "bg": ("не може да се прочете", "не познава", "не е във вида"),
}


@pytest.mark.parametrize("language", sorted(RATE_LIMIT_REFUSALS))
def test_the_rate_limit_refusals_are_in_the_language_asked(tmp_path: Path, language: str) -> None:
    said = []
    for option in ("create=lots", "nope=1/minute", "create"):
        refused = second_serve(tmp_path / "g.db", "--lang", language, "--rate-limit", option)
        assert refused.returncode == 2 and "Traceback" not in refused.stderr
        said.append(refused.stderr)
    for words, stderr in zip(RATE_LIMIT_REFUSALS[language], said, strict=True):
        assert words in stderr, stderr
    assert "cannot be read" not in said[0] and "knows no" not in said[1]
