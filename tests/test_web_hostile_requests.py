"""Requests an attacker shapes (the attack audit's findings A1–A10): each costs the server
a bounded amount of work and gets a sentence, as docs/web.md and docs/limits.md say."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import starlette.datastructures
import starlette.requests
from web_api_support import web_client

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
