"""The words left on the web pages after the second newcomer audits (issue 39), read from the
API and the served pages (tests/test_web_words_browser.py has the ones a browser shows);
each test is written from the finding's steps and failed before its fix.

- en/he N6: ``pass pass`` was answered "'pass' is not a move ... write ... pass"; a field
  of the body was named by its code ('clock.live.seconds') in a 400's sentence.
- fr/bg N4, N7: a typed move was quoted in a sentence with straight quotes ('8H 1+1=11');
  each language's own quotes now.
- en/he N22: "Sound when it becomes my turn" as an English writer puts it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from web_api_support import bearer, new_game, web_client

#: What `pass pass` is answered in each language: pass takes nothing after it.
PASS_ALONE = {
    "en": "pass is written alone, with nothing after it",
    "fr": "pass s’écrit seul, sans rien après",
    "he": "את pass כותבים לבד, בלי שום דבר אחריו",
    "bg": "pass се пише самостоятелно, без нищо след него",
}


def first_move_refusal(folder: Path, language: str, typed: str) -> str:
    """The first seat of a new game of two types ``typed``: the 400's sentence in
    ``language``."""
    with web_client(folder / "g.db") as client:
        created = new_game(client, [{"name": "Noa"}, {"name": "Yoav"}])
        answer = client.post(
            f"/api/games/{created['id']}/moves?lang={language}",
            json={"move": typed, "turn": 0},
            headers=bearer(created["seats"][0]["token"]),
        )
    assert answer.status_code == 400, answer.text
    return str(answer.json()["error"])


@pytest.mark.parametrize("language", list(PASS_ALONE))
@pytest.mark.parametrize("typed", ["pass pass", "pass x", "PASS 01"])
def test_a_pass_with_something_after_it_says_pass_stands_alone(
    tmp_path: Path, language: str, typed: str
) -> None:
    error = first_move_refusal(tmp_path, language, typed)
    assert PASS_ALONE[language] in error
    assert "not a move" not in error and "n’est pas un coup" not in error
    assert "אינו מהלך" not in error and "не е ход" not in error


#: The live clock's seconds named in words in each language's 400.
CLOCK_SECONDS = {
    "en": "the live clock's time in seconds is wrong",
    "fr": "le temps de la pendule en direct (en secondes) ne convient pas",
    "he": "הזמן של השעון החי בשניות",
    "bg": "времето на часовника на живо в секунди: грешна стойност",
}


@pytest.mark.parametrize("language", list(CLOCK_SECONDS))
def test_a_wrong_clock_field_is_named_in_words(tmp_path: Path, language: str) -> None:
    """en/he N6: "the field 'clock.live.seconds' is wrong: it takes 5 or more"."""
    with web_client(tmp_path / "g.db") as client:
        body = {
            "players": [{"name": "Noa"}, {"name": "Yoav"}],
            "clock": {"kind": "live", "seconds": 1},
        }
        answer = client.post(f"/api/games?lang={language}", json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert CLOCK_SECONDS[language] in error, error
    assert "clock.live.seconds" not in error


#: How a move typed in the Move box is quoted in a sentence, in each language.
MOVE_QUOTED = {
    "en": "the move “8H 1+1=11(” cannot be read",
    "fr": "le coup «\u00a08H 1+1=11(\u00a0» ne se lit pas",
    "he": 'אי אפשר לקרוא את המהלך "\u20688H 1+1=11(\u2069"',
    "bg": "ходът „8H 1+1=11(“ не може да се прочете",
}


@pytest.mark.parametrize("language", list(MOVE_QUOTED))
def test_a_typed_move_is_quoted_with_the_languages_quotes(tmp_path: Path, language: str) -> None:
    error = first_move_refusal(tmp_path, language, "8H 1+1=11(")
    assert error.startswith(MOVE_QUOTED[language]), error
    assert "'8H" not in error, error


def test_the_turn_sound_switch_says_what_it_does(tmp_path: Path) -> None:
    with web_client(tmp_path / "g.db") as client:
        page = client.get("/games/abc?lang=en").text
    assert "Play a sound when it is my turn" in page
    assert "Sound when it becomes my turn" not in page
