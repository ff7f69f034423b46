"""The last English found inside translated sentences, each now in the reader's language
(docs/languages.md): the table game's analysis note and its settlement's refusal in the
API's answers, the separator between a rack's shortfalls, the command line's
``selfplay --cluster`` sentences, a clock that cannot be and what the JSON decoder reports
of a position file. Each expected text is the catalogue's, looked up here."""

from __future__ import annotations

import contextlib
import io
import json
import pickle
from pathlib import Path

import pytest
from web_api_support import bearer, web_client

from binscrabble import i18n
from binscrabble.cli import main
from binscrabble.clock import ClockError, ClockRules
from binscrabble.engine.cluster import ClusterError, VersionMismatch, check_address, play_batch
from binscrabble.i18n import _, pgettext
from binscrabble.legality import rack_problem
from binscrabble.position import JSON_REASONS, json_reason

TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.ENGLISH]
#: The rest of a ``selfplay`` that asks for a cluster at an address that is none.
CLUSTER = ["--games", "1", "--cluster", "nowhere"]
NOTE = "no rack was entered in this game, so no turn can be analysed"


def said(language: str, message: str, **values: object) -> str:
    """``message`` as the catalogue of ``language`` says it, with ``values`` (filled as
    the program fills them: French elides "de" before "Ann")."""
    with i18n.use_language(language):
        return i18n.fill(_(message), **values)


def test_a_table_games_settlement_and_analysis_speak_the_requests_language(
    tmp_path: Path,
) -> None:
    with web_client(tmp_path / "g.db") as client:
        created = client.post(
            "/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}], "table": True}
        ).json()
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        for number in range(6):
            answer = client.post(
                f"/api/games/{game_id}/moves",
                json={"move": "pass", "turn": number},
                headers=bearer(tokens[number % 2]),
            )
            assert answer.status_code == 200
        path = f"/api/games/{game_id}/rack"
        entered = client.post(path, json={"rack": "111111111"}, headers=bearer(tokens[0]))
        assert entered.status_code == 200
        for language in i18n.LANGUAGES:
            again = client.post(
                f"{path}?lang={language}", json={"rack": "111111111"}, headers=bearer(tokens[0])
            )
            assert again.status_code == 400
            already = said(
                language, "the tiles left on {name}'s rack are already entered", name="Ann"
            )
            wanted = said(language, "that rack cannot be entered: {problem}", problem=already)
            assert again.json() == {"error": wanted}
        last = client.post(path, json={"rack": "?00000000"}, headers=bearer(tokens[1]))
        assert last.status_code == 200
        for language in i18n.LANGUAGES:
            analysis = client.get(f"/api/games/{game_id}/analysis?lang={language}").json()
            assert analysis["turns"] == []
            assert analysis["note"] == said(language, NOTE)
            assert (analysis["note"] == NOTE) == (language == "en")


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_a_racks_shortfalls_are_listed_with_the_languages_separator(language: str) -> None:
    with i18n.use_language(language):
        problem = rack_problem(["1", "1", "0"], ["+", "=", "1"], [7, 8, 9])
        separator = pgettext("between the items of a list", "; ")
    assert problem is not None
    assert (separator == "\u202f; ") == (language == "fr")
    text = str(problem)
    assert text.count(separator) == 1
    if language == "fr":
        assert "chevalet; " not in text and "chevalet\u202f; " in text


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_cluster_sentences_are_said_in_the_language(language: str) -> None:
    with i18n.use_language(language), pytest.raises(ClusterError) as wrong_address:
        check_address("nowhere")
    wanted = said(
        language,
        "--cluster takes ray://HOST:PORT (the Ray client port of the cluster's head, 10001"
        " unless it was changed) or {local} (a Ray runtime on this machine), not {address}",
        local="local",
        address="'nowhere'",
    )
    assert str(wrong_address.value) == wanted
    assert "takes ray://" not in wanted
    # A node speaks English; the mismatch is said again on this machine, in its language.
    with pytest.raises(VersionMismatch) as on_the_node:
        play_batch(("greedy", "random"), 0, 1, 9, None, "0.0.1")
    assert "install the same version on every node" in str(on_the_node.value)
    with i18n.use_language(language):
        carried = pickle.loads(pickle.dumps(on_the_node.value))
        again = VersionMismatch(carried.node, carried.here)
    assert (carried.node, carried.here) == (on_the_node.value.node, "0.0.1")
    assert str(again) == said(
        language,
        "a node of the cluster runs binscrabble {node} and this machine {here}: install the"
        " same version on every node",
        node=carried.node,
        here="0.0.1",
    )
    assert "install the same version" not in str(again)


@pytest.mark.parametrize("language", TRANSLATED)
def test_selfplay_refuses_a_cluster_address_in_the_language(language: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["--lang", language, "selfplay", "--players", "greedy,random", *CLUSTER])
    assert (status, out.getvalue()) == (2, "")
    with i18n.use_language(language):
        wanted = _(
            "--cluster takes ray://HOST:PORT (the Ray client port of the cluster's head, 10001"
            " unless it was changed) or {local} (a Ray runtime on this machine), not {address}"
        ).format(local="local", address="'nowhere'")
    assert wanted in err.getvalue()


CLOCKS: list[object] = [
    3,
    {"kind": "sundial"},
    {"kind": "untimed", "seconds": 30},
    {"kind": "live", "hours": 1},
    {"kind": "live", "seconds": None},
    {"kind": "live", "seconds": 3},
]


def clock_refusals(language: str) -> list[str]:
    """What ``ClockRules.from_mapping`` says of each clock of :data:`CLOCKS`."""
    found = []
    with i18n.use_language(language):
        for clock in CLOCKS:
            with pytest.raises(ClockError) as raised:
                ClockRules.from_mapping(clock)
            found.append(str(raised.value))
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_clock_that_cannot_be_is_refused_in_the_language(language: str) -> None:
    english, translated = clock_refusals("en"), clock_refusals(language)
    assert english[-1] == "a live clock's 'seconds' is 5 to 86400, not 3"
    assert [ours != theirs for ours, theirs in zip(translated, english, strict=True)] == [
        True
    ] * len(CLOCKS)
    assert translated[-1] == said(
        language,
        "a {kind} clock's {name} is {least} to {most}, not {value}",
        kind="live",
        name="'seconds'",
        least=5,
        most=86400,
        value="3",
    )


def test_a_departure_refused_is_a_sentence_of_the_api_in_the_language(tmp_path: Path) -> None:
    with web_client(tmp_path / "g.db") as client:
        created = client.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}]})
        game_id = created.json()["id"]
        token = created.json()["seats"][0]["token"]
        path = f"/api/games/{game_id}/resign"
        assert client.post(path, headers=bearer(token)).status_code == 200
        for language in i18n.LANGUAGES:
            again = client.post(f"{path}?lang={language}", headers=bearer(token))
            assert again.status_code == 409
            # Lower case and no full stop, as every sentence of the API (the page adds them).
            assert again.json() == {"error": said(language, "the game is over")}


#: A malformed JSON text for each report of the decoder.
MALFORMED_JSON = [
    "",
    '{"a" 1}',
    '{"a": 1 "b"}',
    "{a}",
    '"abc',
    '"a\x01"',
    '"\\q"',
    '"\\u12"',
    "{} x",
]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_json_decoder_report_is_said_in_the_language(language: str) -> None:
    reasons = set()
    for text in MALFORMED_JSON:
        with pytest.raises(json.JSONDecodeError) as raised:
            json.loads(text)
        with i18n.use_language(language):
            reason = json_reason(raised.value.msg)
        assert reason != raised.value.msg
        reasons.add(reason)
    assert reasons == {said(language, message) for _start, message in JSON_REASONS[:-1]}


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_position_file_that_is_no_json_is_refused_in_the_language(
    tmp_path: Path, language: str
) -> None:
    position = tmp_path / "p.json"
    position.write_text('{"rack": ', encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["--lang", language, "moves", str(position)])
    assert (status, out.getvalue()) == (2, "")
    assert said(language, "a value is expected") in err.getvalue()
    assert "Expecting" not in err.getvalue()
