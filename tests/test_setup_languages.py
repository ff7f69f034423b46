"""A game that cannot be set up (``SetupError``) and an input over a bound (``limits.py``)
are said in the reader's language (docs/languages.md): in the web's answers (``?lang=`` and
``Accept-Language``), at the command line (``--lang``) and in the terminal game. Each
expected sentence is the catalogue's, looked up here, so a reviewer may reword it."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from web_api_support import bearer, web_client

from binscrabble import i18n
from binscrabble.board import Board
from binscrabble.cli import main
from binscrabble.game import Game, SetupError
from binscrabble.i18n import _, ngettext
from binscrabble.limits import InputLimitError, check_structure, name_problem, read_limited
from binscrabble.movegen import best_moves
from binscrabble.record import write_record
from binscrabble.rules import Rules
from binscrabble.table import TableGame

TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.ENGLISH]
TAGS = {"fr": "fr-CA,fr;q=0.9", "he": "he-IL", "bg": "bg;q=0.8, en;q=0.2"}


def said(language: str, message: str, **values: object) -> str:
    """``message`` as the catalogue of ``language`` says it, with ``values`` (filled as
    the program fills them: French elides "de" before "Ann")."""
    with i18n.use_language(language):
        return i18n.fill(_(message), **values)


def counted(language: str, singular: str, plural: str, number: int, **values: object) -> str:
    """The plural form of ``language`` for ``number``, with ``values``."""
    with i18n.use_language(language):
        return i18n.fill(ngettext(singular, plural, number), **values)


# -- the core: each sentence of Game.from_setup and TableGame.check_rack --------------------


SETUPS = [
    ({"racks": ["1", "0"], "players": ["A"]}, "a game has 2 to 4 players, not {count}"),
    ({"racks": ["1", "0"], "players": ["A", "A"]}, "players need different names: {names}"),
    ({"racks": ["1", "0"], "players": ["A", " "]}, "a player's name must be a non-empty text"),
    ({"racks": ["1", "0"], "players": ["A", "B", "C"]}, "{players} players but {count} rack"),
    ({"racks": ["1", "0"], "to_move": 2}, "seat to move {seat} does not exist"),
    ({"racks": ["1", "0"], "scores": [1]}, "{players} players but {count} score"),
    ({"racks": ["1", "0"], "scoreless_turns": -1}, "the count of scoreless turns cannot be"),
    ({"racks": ["1" * 10, "0"]}, "rack of seat {seat} holds {count} tile"),
    ({"racks": ["2", "0"]}, "the rack of {name} holds {code}, which is not a tile code"),
    ({"racks": ["/" * 3, "0"]}, "the rack of {name}: too many {code} tiles"),
    ({"racks": ["1", None], "bag": ["1"]}, "with an explicit bag every rack must be given"),
    ({"racks": ["1", "0"], "bag": ["^"]}, "the bag: too many {code} tiles"),
    ({"racks": ["1", "0"], "bag": ["2"]}, "the bag holds {code}, which is not a tile code"),
    ({"racks": ["1", "0"], "unseen": "????"}, "the unseen tiles: too many {code} tiles"),
    ({"racks": ["1", "0"], "unseen": "2"}, "the unseen tiles hold {code}, which is not"),
]


def setup_error(language: str, setup: dict[str, object]) -> str:
    arguments = dict(setup)
    racks = arguments.pop("racks")
    with i18n.use_language(language), pytest.raises(SetupError) as raised:
        Game.from_setup(Rules(), Board(), racks, **arguments)  # type: ignore[arg-type]
    return str(raised.value)


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize(("setup", "english"), SETUPS, ids=[english for _s, english in SETUPS])
def test_each_setup_error_is_a_sentence_of_the_catalogue(
    language: str, setup: dict[str, object], english: str
) -> None:
    in_english = setup_error("en", setup)
    assert english.split("{")[0] in in_english
    assert setup_error(language, setup) != in_english


def test_a_setup_error_reads_as_the_catalogue_writes_it() -> None:
    for language in i18n.LANGUAGES:
        sentence = setup_error(language, {"racks": ["/" * 3, "0"], "players": ["Ann", "Bo"]})
        wanted = said(
            language,
            "the rack of {name}: too many {code} tiles; the set holds {count}",
            name="Ann",
            code="'/'",
            count=2,
        )
        assert sentence == wanted


def test_the_bag_that_lacks_a_tile_to_draw_is_said_in_the_language() -> None:
    for language in TRANSLATED:
        game = Game.from_setup(Rules(), Board(), ["1", "0"], bag=["1", "0"])
        with i18n.use_language(language), pytest.raises(SetupError) as lacking_blank:
            game.arrange_draws("?")
        assert str(lacking_blank.value) == said(language, "the bag holds no blank to draw")
        with i18n.use_language(language), pytest.raises(SetupError) as lacking:
            game.arrange_draws("=")
        assert str(lacking.value) == said(language, "the bag holds no {code} to draw", code="'='")
        assert "bag holds" not in str(lacking.value)


def table_refusals(language: str) -> list[str]:
    """Every sentence of ``TableGame.check_rack``, in ``language``."""
    table = TableGame(["Ann", "Bo"], Rules())
    attempts = [(5, "1"), (0, "2"), (0, "101"), (0, "?????????")]
    found = []
    with i18n.use_language(language):
        for seat, codes in attempts:
            with pytest.raises(SetupError) as raised:
                table.check_rack(seat, codes)
            found.append(str(raised.value))
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_table_rack_is_refused_in_the_language(language: str) -> None:
    english, translated = table_refusals("en"), table_refusals(language)
    assert english[2] == "Ann's rack holds 9 tiles, not 3: enter every tile on it"
    assert [ours != theirs for ours, theirs in zip(translated, english, strict=True)] == [
        True
    ] * len(english)
    assert translated[3] == counted(
        language,
        "the set has only {free} blank off the board and the other racks entered, not {count}",
        "the set has only {free} blanks off the board and the other racks entered, not {count}",
        3,
        free=3,
        count=9,
    )


# -- the web: the answers of the API ---------------------------------------------------------


def rack_refusal(language: str) -> str:
    """What ``POST /api/games/ID/rack`` answers a rack of 3 tiles, in ``language``."""
    problem = counted(
        language,
        "{name}'s rack holds {held} tile, not {count}: enter every tile on it",
        "{name}'s rack holds {held} tiles, not {count}: enter every tile on it",
        9,
        name="Ann",
        held=9,
        count=3,
    )
    return said(language, "that rack cannot be entered: {problem}", problem=problem)


@pytest.mark.parametrize("by", ["query", "header"])
def test_the_api_refuses_a_table_rack_in_the_requests_language(tmp_path: Path, by: str) -> None:
    with web_client(tmp_path / "g.db") as client:
        created = client.post(
            "/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}], "table": True}
        ).json()
        path = f"/api/games/{created['id']}/rack"
        token = created["seats"][0]["token"]
        for language in i18n.LANGUAGES:
            headers = bearer(token)
            if by == "query":
                address = f"{path}?lang={language}"
            else:
                address = path
                headers["Accept-Language"] = TAGS.get(language, "en")
                client.cookies.clear()
            answer = client.post(address, json={"rack": "101"}, headers=headers)
            assert answer.status_code == 400
            assert answer.json() == {"error": rack_refusal(language)}
            if language != "en":
                assert "rack holds" not in answer.json()["error"]


def record_with_three_divisions() -> str:
    """A record whose first racks hold three ÷ tiles: Ann's two, then Bo's one (the set
    has two), so Bo's first rack cannot be dealt."""
    game = Game(["Ann", "Bo"], Rules(), seed=1)
    game.push(best_moves(game, 1)[0].place)
    text = write_record(game)
    assert ">Ann: ===010?+0 " in text
    return text.replace(">Ann: ===010?+0 ", ">Ann: ===010?// ")


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_viewer_says_why_a_record_cannot_be_dealt_in_the_language(
    tmp_path: Path, language: str
) -> None:
    reason = said(
        language,
        "the rack of {name}: too many {code} tiles; the set holds {count}",
        name="Bo",
        code="'/'",
        count=2,
    )
    with web_client(tmp_path / "g.db") as client:
        answer = client.post(
            f"/api/records/view?lang={language}", json={"record": record_with_three_divisions()}
        )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert reason in error, error
    assert "too many" not in error


def test_the_viewer_says_a_records_seed_is_too_long_in_the_language(tmp_path: Path) -> None:
    record = record_with_three_divisions().replace("#seed 1\n", "#seed " + "7" * 120 + "\n")
    with web_client(tmp_path / "g.db") as client:
        for language in TRANSLATED:
            answer = client.post(
                "/api/records/view",
                json={"record": record},
                headers={"Accept-Language": TAGS[language]},
            )
            assert answer.status_code == 400
            wanted = said(
                language,
                "the seed has {digits} digits; numbers have at most {most}",
                digits=120,
                most=100,
            )
            assert wanted in answer.json()["error"]
            assert "digits" not in answer.json()["error"]


# -- the command line and the terminal game ---------------------------------------------------


def cli(language: str, *arguments: str) -> tuple[int, str, str]:
    """``binscrabble --lang LANGUAGE ARGUMENTS``, run here: exit status, output, errors."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(["--lang", language, *arguments])
        except SystemExit as exit_:
            status = int(exit_.code or 0)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("language", TRANSLATED)
def test_replay_says_why_a_record_cannot_be_dealt_in_the_language(
    tmp_path: Path, language: str
) -> None:
    path = tmp_path / "three.bsr"
    path.write_text(record_with_three_divisions(), encoding="utf-8")
    status, out, err = cli(language, "replay", str(path))
    assert (status, out) == (2, "")
    reason = said(
        language,
        "the rack of {name}: too many {code} tiles; the set holds {count}",
        name="Bo",
        code="'/'",
        count=2,
    )
    assert reason in err, err
    assert "too many" not in err


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_rules_file_nested_too_deep_is_refused_in_the_language(
    tmp_path: Path, language: str
) -> None:
    rules = tmp_path / "deep.toml"
    rules.write_text(".".join(["a"] * 40) + " = 1\n", encoding="utf-8")
    status, out, err = cli(language, "check", "--rules", str(rules), "1=1")
    assert (status, out) == (2, "")
    reason = said(language, "it nests more than {most} levels deep; 2 or 3 are enough", most=32)
    assert reason in err, err
    assert "levels deep" not in err


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_terminal_game_refuses_a_name_in_the_language(language: str) -> None:
    status, out, err = cli(language, "play", "--players", "Ann,B\x1bo")
    assert (status, out) == (2, "")
    problem = said(language, "it holds the control character {char}", char=repr("\x1b"))
    wanted = said(
        language, "{name} cannot be a player's name: {problem}", name="'B\\x1bo'", problem=problem
    )
    assert err.endswith(wanted + "\n"), err
    assert "control character" not in err


# -- limits.py: each reason in each language --------------------------------------------------


def limit_reasons(language: str, tmp_path: Path) -> list[str]:
    """Each reason ``limits.py`` gives, in ``language``."""
    reasons: list[str] = []
    big = tmp_path / "big"
    big.write_bytes(b"0" * ((1 << 20) + 1))
    with i18n.use_language(language):
        for text, syntax in (("[" * 40 + "]" * 40, "json"), ("a = 0x" + "f" * 200, "toml")):
            with pytest.raises(InputLimitError) as raised:
                check_structure(text, syntax)  # type: ignore[arg-type]
            reasons.append(str(raised.value))
        with pytest.raises(InputLimitError) as too_large:
            read_limited(big)
        reasons.append(str(too_large.value))
        for name in (" ", "A" * 70, "Ada\x07"):
            problem = name_problem(name)
            assert problem is not None
            reasons.append(problem)
    return reasons


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_limit_reason_is_said_in_the_language(tmp_path: Path, language: str) -> None:
    english, translated = limit_reasons("en", tmp_path), limit_reasons(language, tmp_path)
    assert english[0] == "it nests more than 32 levels deep; 2 or 3 are enough"
    assert [ours != theirs for ours, theirs in zip(translated, english, strict=True)] == [
        True
    ] * len(english)
    assert translated[4] == said(
        language, "it has {count} characters; a name has at most {most}", count=70, most=64
    )
