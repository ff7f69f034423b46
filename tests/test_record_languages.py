"""A record that cannot be read, and the house rules in force, in each language
(docs/languages.md): the reasons of ``RecordError`` name the record's line in the reader's
language, at the command line and in the web's viewer; ``Rules.describe`` names each rule
as the lobby and the printed card do; a rule that does not exist is refused in words."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from language_cases import error_in, in_each_language
from web_api_support import web_client

from binscrabble import i18n
from binscrabble.cli import main
from binscrabble.game import Game
from binscrabble.movegen import best_moves
from binscrabble.record import RecordError, read_record, write_record
from binscrabble.rules import Rules, RulesError


def wrong_score_record() -> str:
    """A record of one play whose written score is one too many (line 18: +19, not +18)."""
    game = Game(["Ann", "Bo"], Rules(), seed=1)
    game.push(best_moves(game, 1)[0].place)
    text = write_record(game)
    assert ">Ann: ===010?+0 8B 0+10=?10 +18 18\n" in text
    return text.replace("+18 18", "+19 18")


WRONG_SCORE = {
    "en": "line 18: 8B 0+10=?10 scores 18, not 19",
    "fr": "ligne 18\u00a0: 8B 0+10=?10 rapporte 18, pas 19",
    "he": "שורה \u206818\u2069: הניקוד של \u20688B 0+10=?10\u2069 הוא \u206818\u2069, לא"
    " \u206819\u2069",
    "bg": "ред 18: 8B 0+10=?10 носи 18 точки, а не 19",
}


@in_each_language(WRONG_SCORE)
def test_a_records_reason_names_its_line_in_the_language(language: str, expected: str) -> None:
    raised = error_in(language, RecordError, lambda: read_record(wrong_score_record()))
    assert str(raised) == expected
    assert raised.line == 18


SHORT_LINE = {
    "en": "line 4: a turn line is '>NAME: RACK MOVE +SCORE TOTAL', e.g."
    " '>Ada: 111+=0&~1 8D 1+1=10 +18 18'",
    "fr": "ligne 4\u00a0: une ligne de tour s’écrit '>NOM: CHEVALET COUP +POINTS TOTAL',"
    " par exemple '>Ada: 111+=0&~1 8D 1+1=10 +18 18'",
    "he": "שורה \u20684\u2069: שורת תור נכתבת \u2068'>NAME: RACK MOVE +SCORE TOTAL'\u2069,"
    " למשל \u2068'>Ada: 111+=0&~1 8D 1+1=10 +18 18'\u2069",
    "bg": "ред 4: редът за ход се пише '>ИМЕ: ПОСТАВКА ХОД +ТОЧКИ ОБЩО', например"
    " '>Ada: 111+=0&~1 8D 1+1=10 +18 18'",
}


@in_each_language(SHORT_LINE)
def test_a_malformed_line_is_explained_in_the_language(language: str, expected: str) -> None:
    record = "#binscrabble-record 1\n#player1 Ann\n#player2 Bo\n>Ann: 8D\n"
    assert str(error_in(language, RecordError, lambda: read_record(record))) == expected


NO_PLAYERS = {
    "en": "this record names none",
    "fr": "cette feuille de partie n’en nomme aucun",
    "he": "ברישום הזה אין אף שחקן",
    "bg": "този запис не посочва нито един",
}


@in_each_language(NO_PLAYERS)
def test_a_record_with_no_player_says_so_in_a_sentence(language: str, expected: str) -> None:
    record = "#binscrabble-record 1\n>Ann: 11 8D 1=1 +3 3\n"
    assert str(error_in(language, RecordError, lambda: read_record(record))).endswith(expected)


VIEWER = {
    "en": "this record cannot be read: line 18: 8B 0+10=?10 scores 18, not 19",
    "fr": "ligne 18\u00a0: 8B 0+10=?10 rapporte 18, pas 19",
    "he": WRONG_SCORE["he"],
    "bg": "ред 18: 8B 0+10=?10 носи 18 точки, а не 19",
}


@in_each_language(VIEWER)
def test_the_viewer_says_why_a_record_cannot_be_read_in_the_language(
    tmp_path: Path, language: str, expected: str
) -> None:
    with web_client(tmp_path / "g.db") as client:
        answer = client.post(
            f"/api/records/view?lang={language}", json={"record": wrong_score_record()}
        )
    assert answer.status_code == 400
    assert expected in answer.json()["error"]


def test_the_command_line_says_why_a_record_cannot_be_read(tmp_path: Path) -> None:
    record = tmp_path / "game.bsr"
    record.write_text(wrong_score_record(), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["replay", str(record), "--lang", "fr"]) == 2
    expected = f"binscrabble\u00a0: erreur\u00a0: {record}\u00a0: {WRONG_SCORE['fr']}\n"
    assert err.getvalue() == expected


DESCRIBED = {
    "en": [
        "Order of operations — standard order (precedence)",
        "XOR tiles added to the bag — 2 (xor_tiles)",
    ],
    "fr": [
        "Priorité des opérations — ordre habituel (precedence)",
        "Nombres négatifs — non (allow_negatives)",
        "Jetons XOR dans le sac — 2 (xor_tiles)",
    ],
    "he": [
        "\u2068מספרים שליליים\u2069 — \u2068כבוי\u2069 (\u2068allow_negatives\u2069)",
        "\u2068אריחי XOR בשק\u2069 — \u20682\u2069 (\u2068xor_tiles\u2069)",
    ],
    "bg": [
        "Ред на действията — обичайният ред (precedence)",
        "Отрицателни числа — изключено (allow_negatives)",
        "Плочки XOR в торбичката — 2 (xor_tiles)",
    ],
}


@in_each_language(DESCRIBED)
def test_the_house_rules_are_described_in_the_language(language: str, expected: list[str]) -> None:
    with i18n.use_language(language):
        lines = Rules(xor_tiles=2).describe().splitlines()
    assert len(lines) == 12
    for line in expected:
        assert line in lines
    if language != "en":
        assert not any(" — on " in line or " — off " in line for line in lines)


UNKNOWN_RULE = {
    "en": "unknown rule 'speed':",
    "fr": "règle inconnue 'speed'\u00a0:",
    "he": "חוק לא מוכר \u2068'speed'\u2069:",
    "bg": "непознато правило 'speed':",
}


@in_each_language(UNKNOWN_RULE)
def test_an_unknown_rule_is_refused_in_the_language(language: str, expected: str) -> None:
    raised = error_in(language, RulesError, lambda: Rules().override("speed", "on"))
    assert str(raised).startswith(expected)
