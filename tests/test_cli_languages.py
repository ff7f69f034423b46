"""The command line in four languages (docs/languages.md): ``--lang`` before or after the
command, the locale otherwise, an unknown language refused with a sentence (exit 2)."""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from language_cases import in_each_language
from test_no_loose_strings import template_ids

from binscrabble import i18n
from binscrabble.cli import SUBCOMMANDS, build_parser, main
from binscrabble.cli.arguments import ARGPARSE_MESSAGES
from binscrabble.expr import explain
from binscrabble.game import Outcome
from binscrabble.rules import Rules
from binscrabble.terminal import outcome_sentence


def run(
    *arguments: str, cwd: Path | None = None, input: str | None = None, **environ: str
) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if not key.startswith("LC_")}
    for name in ("LANG", "LANGUAGE"):
        clean.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "binscrabble", *arguments],
        capture_output=True,
        text=True,
        env={**clean, "PYTHONIOENCODING": "utf-8", **environ},
        cwd=cwd,
        input=input,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("where", ["before", "after"])
def test_an_unknown_language_is_a_sentence_and_exit_2(where: str) -> None:
    arguments = ["--lang", "de", "check", "1+1=10"]
    if where == "after":
        arguments = ["check", "--lang", "de", "1+1=10"]
    completed = run(*arguments)
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr == (
        "binscrabble: error: there is no language 'de': choose one of en, fr, he, bg\n"
    )


def test_the_unknown_language_sentence_is_in_the_locales_language() -> None:
    completed = run("check", "--lang", "xx", "1=1", LANG="fr_FR.UTF-8")
    assert completed.returncode == 2
    assert "il n’y a pas de langue 'xx'\u00a0: choisissez parmi en, fr, he, bg" in completed.stderr


def test_main_leaves_the_callers_language_as_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--lang", "bg", "1+1=10"]) == 0
    capsys.readouterr()
    assert i18n.language() == "en"


EXPLAINED_IN_ENGLISH = [
    "1 + 1 = 11 is false (standard precedence: NOT, then × ÷, then + −, then AND, XOR, OR)",
    "left side: 1 + 1",
    "the left side is 10 but the right side is 11",
    "1 + 1 = 10, not 11 — changing one symbol gives the true equation 1 + 1 = 10",
]


def explained(language: str) -> list[str]:
    """The lines of the core's explanation of 1+1=11 in a language, as the catalogue says it."""
    with i18n.use_language(language):
        return str(explain("1+1=11", Rules())).split("\n")


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_check_explain_in_each_language(language: str) -> None:
    completed = run("check", "--explain", "--lang", language, "1+1=11")
    assert completed.returncode == 1, completed.stderr
    lines = completed.stdout.splitlines()
    assert [line for line in lines if line] == explained(language)
    for line in EXPLAINED_IN_ENGLISH:
        assert (line in lines) == (language == "en"), (line, lines)


@pytest.mark.parametrize(
    ("language", "verdict"),
    [
        ("en", "1+1=11: invalid, the left side is 10 but the right side is 11"),
        (
            "fr",
            "1+1=11\u00a0: non valable, le membre de gauche vaut 10 mais celui de droite vaut 11",
        ),
        ("bg", "1+1=11: невалидно, лявата страна е 10, а дясната е 11"),
    ],
)
def test_check_verdicts_follow_the_locale(language: str, verdict: str) -> None:
    locale = {"en": "C.UTF-8", "fr": "fr_FR.UTF-8", "bg": "bg_BG.UTF-8"}[language]
    completed = run("check", "1+1=10", "1+1=11", LANG=locale)
    assert completed.stdout.splitlines()[1] == verdict
    valid = completed.stdout.splitlines()[0]
    assert valid.startswith("1+1=10") and "10 (2)" in valid


def test_json_reasons_stay_english_for_programs() -> None:
    completed = run("check", "--json", "--lang", "fr", "1+1=11")
    assert '"reason": "the left side is 10 but the right side is 11"' in completed.stdout


def test_the_terminal_game_speaks_the_language_of_lang(tmp_path: Path) -> None:
    save = tmp_path / "g.bsr"
    typed = "\n\nundo\n8A 1\nquit\n"
    command = ["play", "--lang", "fr", "--players", "Ada,Bob", "--seed", "1", "--save", str(save)]
    completed = subprocess.run(
        [sys.executable, "-m", "binscrabble", *command],
        input=typed,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=60,
        check=False,
    )
    out = completed.stdout
    assert "Ada, c’est votre tour. Appuyez sur Entrée pour voir votre chevalet." in out
    assert "Tour 1. Ada, votre chevalet\u00a0: " in out
    assert "Reprendre un tour est désactivé\u00a0: lancez la partie avec --allow-undo" in out
    assert "Refusé\u00a0: " in out or "Impossible de lire" in out


# The command line's own words: argparse's headings and errors, every command's --help,
# and the sentences of its failures (exit 2), in each language.

TRANSLATED = [language for language in i18n.LANGUAGES if language != "en"]


def in_language(language: str, message: str) -> str:
    with i18n.use_language(language):
        return i18n._(message)


def flat(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (argparse wraps)."""
    return " ".join(text.split())


def parsed_in(language: str, *arguments: str) -> tuple[int, str, str]:
    """``binscrabble ARGUMENTS --lang LANGUAGE`` run here: exit status, output, errors."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([*arguments, "--lang", language])
        except SystemExit as exit_:
            status = int(exit_.code or 0)
    return status, out.getvalue(), err.getvalue()


def command_texts(command: str, language: str) -> list[str]:
    """The description, epilog and help texts of ``command``'s parser in ``language``, in
    the same order whatever the language."""
    with i18n.use_language(language):
        subparsers = build_parser(command)._subparsers
    assert subparsers is not None
    parser = subparsers._group_actions[0].choices[command]  # type: ignore[attr-defined]
    return [parser.description, parser.epilog, *(action.help for action in parser._actions)]


#: Help texts that a language writes exactly as English does (file names only).
SAME_IN = {"FILE.svg, FILE.png, FILE.gif, FILE.webp": {"fr", "he", "bg"}}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_commands_help_is_in_the_language(language: str, command: str) -> None:
    status, out, _err = parsed_in(language, command, "--help")
    assert status == 0
    assert out.startswith(in_language(language, "usage: ") + f"binscrabble {command} ")
    shown = flat(out)
    english = command_texts(command, "en")
    for text, translated in zip(english, command_texts(command, language), strict=True):
        if not text:
            continue
        assert translated
        assert flat(translated) in shown, translated
        if language != "en" and language not in SAME_IN.get(text, ()):
            assert translated != text
    if language != "en":
        assert "show this help message and exit" not in out
        assert "usage:" not in out


#: argparse's messages that only a mistake in a program's parser can show (a conflicting
#: option, a bad ``dest``...): never seen by a person running binscrabble.
ARGPARSE_PROGRAMMERS = {
    ".__call__() not defined",
    "conflicting subparser: %s",
    "conflicting subparser alias: %s",
    "cannot merge actions - two groups are named %r",
    "'required' is an invalid argument for positionals",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "dest= is required for options like %r",
    "invalid conflict_resolution value: %r",
    "conflicting option string: %s",
    "mutually exclusive arguments must be optional",
    "cannot have multiple subparser arguments",
    "%r is not callable",
    # Only an option taking a fixed number (2, 3...) of values says it; none does here.
    "expected %s argument",
}


def test_every_message_argparse_shows_is_in_the_catalogue() -> None:
    tree = ast.parse(Path(argparse.__file__).read_text(encoding="utf-8"))
    written = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("_", "ngettext"):
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                written.add(first.value)
    assert len(written) > 20  # argparse was read
    shown = written - ARGPARSE_PROGRAMMERS
    assert shown - set(ARGPARSE_MESSAGES) == set()
    assert set(ARGPARSE_MESSAGES) <= template_ids()


ARGPARSE_ERRORS = {
    "en": [
        "binscrabble moves: error: argument --top: expected a whole number, not 'x'",
        "binscrabble check: error: argument --preset: invalid choice: 'x' (choose from"
        " 'learning', 'standard', 'expert')",
        "binscrabble replay: error: the following arguments are required: FILE",
        "binscrabble: error: unrecognized arguments: '--nope'",
    ],
    "fr": [
        "binscrabble moves\u00a0: erreur\u00a0: argument --top\u00a0: un nombre entier est"
        " attendu, pas 'x'",
        "binscrabble check\u00a0: erreur\u00a0: argument --preset\u00a0: choix invalide\u00a0:"
        " 'x' (choisissez parmi 'learning', 'standard', 'expert')",
        "binscrabble replay\u00a0: erreur\u00a0: les arguments suivants sont requis\u00a0: FILE",
        "binscrabble\u00a0: erreur\u00a0: arguments non reconnus\u00a0: '--nope'",
    ],
    "he": [
        "\u2068binscrabble moves\u2069: שגיאה: ארגומנט \u2068--top\u2069: נדרש מספר שלם, לא"
        " \u2068'x'\u2069",
        "\u2068binscrabble check\u2069: שגיאה: ארגומנט \u2068--preset\u2069: בחירה לא תקינה:"
        " \u2068'x'\u2069 (בחרו מתוך \u2068'learning', 'standard', 'expert'\u2069)",
        "\u2068binscrabble replay\u2069: שגיאה: הארגומנטים הבאים נדרשים: \u2068FILE\u2069",
        "\u2068binscrabble\u2069: שגיאה: ארגומנטים לא מוכרים: \u2068'--nope'\u2069",
    ],
    "bg": [
        "binscrabble moves: грешка: аргумент --top: очаква се цяло число, а не 'x'",
        "binscrabble check: грешка: аргумент --preset: невалиден избор: 'x' (изберете от"
        " 'learning', 'standard', 'expert')",
        "binscrabble replay: грешка: нужни са следните аргументи: FILE",
        "binscrabble: грешка: неразпознати аргументи: '--nope'",
    ],
}


@in_each_language(ARGPARSE_ERRORS)
def test_argparse_errors_are_in_the_language(language: str, expected: list[str]) -> None:
    typed = [
        ["moves", "--top", "x", "p.json"],
        ["check", "--preset", "x", "1=1"],
        ["replay"],
        ["--nope"],
    ]
    for arguments, wanted in zip(typed, expected, strict=True):
        status, out, err = parsed_in(language, *arguments)
        assert status == 2 and out == ""
        lines = err.splitlines()
        assert lines[0].startswith(in_language(language, "usage: ") + "binscrabble")
        assert lines[-1] == wanted


COMMAND_ERRORS = {
    "en": [
        "binscrabble: error: --top must be 0 or more, not -1",
        "binscrabble: error: no such file: missing.bsr",
        "binscrabble: error: cannot tell the format of x.jpg: name it .svg, .png, .gif or .webp",
    ],
    "fr": [
        "binscrabble\u00a0: erreur\u00a0: --top doit valoir 0 ou plus, pas -1",
        "binscrabble\u00a0: erreur\u00a0: fichier introuvable\u00a0: missing.bsr",
        "binscrabble\u00a0: erreur\u00a0: impossible de deviner le format de x.jpg\u00a0:"
        " nommez-le .svg, .png, .gif ou .webp",
    ],
    "he": [
        # The program's name and the option isolated: the line's first strong letter is
        # Hebrew, so a terminal that lays text out by direction reads it right to left.
        "\u2068binscrabble\u2069: שגיאה: \u2068--top\u2069 חייב להיות 0 או יותר, לא \u2068-1\u2069",
        "\u2068binscrabble\u2069: שגיאה: אין קובץ כזה: \u2068missing.bsr\u2069",
        "\u2068binscrabble\u2069: שגיאה: אי אפשר לדעת מה התבנית של \u2068x.jpg\u2069: תנו"
        " לו את הסיומת .svg, .png, .gif או .webp",
    ],
    "bg": [
        "binscrabble: грешка: --top трябва да е 0 или повече, а не -1",
        "binscrabble: грешка: няма такъв файл: missing.bsr",
        "binscrabble: грешка: форматът на x.jpg не може да се разбере: наречете го .svg, .png,"
        " .gif или .webp",
    ],
}


@in_each_language(COMMAND_ERRORS)
def test_command_failures_are_sentences_in_the_language(language: str, expected: list[str]) -> None:
    typed = [
        ["moves", "--top", "-1", "p.json"],
        ["replay", "missing.bsr"],
        ["render", "game.bsr", "-o", "x.jpg"],
    ]
    for arguments, wanted in zip(typed, expected, strict=True):
        status, out, err = parsed_in(language, *arguments)
        assert (status, out, err) == (2, "", wanted + "\n")


# The terminal game: its questions, help, screens and endings in each language (the words
# typed, `help`, `quit`, `y`/`n`, stay English).


def play(tmp_path: Path, language: str, typed: str, *options: str) -> str:
    save = tmp_path / "game.bsr"
    completed = run("play", "--lang", language, "--save", str(save), *options, input=typed)
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


TERMINAL = {
    "en": [
        "Players, 2 to 4 names separated by commas (cpu:LEVEL for a computer, e.g. cpu:medium)"
        " [Player 1,Player 2]: ",
        "Binary Scrabble: Player 1, Player 2",
        "Type a move in notation, or a command:",
        "No moves yet.",
        "bag: 82 tiles",
        "(points ",
        "Game saved in ",
    ],
    "fr": [
        "Joueurs, 2 à 4 noms séparés par des virgules (cpu:LEVEL pour l’ordinateur, par exemple"
        " cpu:medium) [Joueur 1,Joueur 2]\u00a0: ",
        "Scrabble binaire\u00a0: Joueur 1, Joueur 2",
        "Tapez un coup en notation, ou une commande\u00a0:",
        "Aucun coup pour l’instant.",
        "sac\u00a0: 82 jetons",
        "(points ",
        "Partie enregistrée dans ",
    ],
    "he": [
        # The default names carry no isolate: a name holds no invisible character.
        "[\u2068שחקן 1,שחקן 2\u2069]: ",
        "סקראבל בינארי: \u2068שחקן 1, שחקן 2\u2069",
        "הקלידו מהלך בכתיב המהלכים, או פקודה:",
        "עדיין אין מהלכים.",
        "בשק: 82 אריחים",
        "(ניקוד ",
        "המשחק נשמר בקובץ ",
    ],
    "bg": [
        "Играчи, от 2 до 4 имена, разделени със запетаи (cpu:LEVEL за компютър, например"
        " cpu:medium) [Играч 1,Играч 2]: ",
        "Двоичен скрабъл: Играч 1, Играч 2",
        "Напишете ход в нотация или команда:",
        "Още няма ходове.",
        "торбичка: 82 плочки",
        "(точки ",
        "Играта е записана в ",
    ],
}


@in_each_language(TERMINAL)
def test_the_terminal_games_questions_and_screens_are_in_the_language(
    tmp_path: Path, language: str, expected: list[str]
) -> None:
    # Enter: the default names; Enter at the first player's privacy screen; help; quit.
    out = play(tmp_path, language, "\n\nhelp\nquit\n")
    for line in expected:
        assert line in out, (line, out)
    if language != "en":
        assert "Type a move in notation" not in out and "No moves yet" not in out


RESUMING = {
    "en": [
        "Resume it? [Y/n] (n starts a new game and keeps that one aside) ",
        "'maybe' is no answer: y (or Enter) resumes it, n not.",
        "is kept in ",
    ],
    "fr": [
        "La reprendre\u202f? [O/n] (n commence une nouvelle partie et met celle-ci de côté) ",
        "'maybe' n’est pas une réponse\u00a0: o (ou Entrée) la reprend, n non.",
        "est gardée dans ",
    ],
    "he": [
        "להמשיך אותו? [כ/ל] (ל מתחיל משחק חדש ושומר את הקודם בצד) ",
        "\u2068'maybe'\u2069 אינה תשובה: הקלידו כ (או Enter) כדי להמשיך אותו, או ל כדי"
        " להתחיל משחק חדש.",
        "נשמר בקובץ ",
    ],
    "bg": [
        "Да я продължите ли? [Д/н] (н започва нова игра, а тази се запазва настрана) ",
        "'maybe' не е отговор: д (или Enter) я продължава, н — не.",
        "е запазена в ",
    ],
}


@in_each_language(RESUMING)
def test_resuming_a_saved_game_is_asked_in_the_language(
    tmp_path: Path, language: str, expected: list[str]
) -> None:
    save = tmp_path / "binscrabble-game.bsr"
    first = run("play", "--players", "Ada,Bob", cwd=tmp_path, input="\nquit\n")
    assert first.returncode == 0 and save.exists()
    again = run(
        "play", "--lang", language, "--players", "Ada,Bob", cwd=tmp_path, input="maybe\nn\n"
    )
    for line in expected:
        assert line in again.stdout, (line, again.stdout)


SETUP_ERRORS = {
    "en": "binscrabble: error: a game has 2 to 4 players, not 5",
    "fr": "binscrabble\u00a0: erreur\u00a0: une partie a de 2 à 4 joueurs, pas 5",
    "he": "\u2068binscrabble\u2069: שגיאה: במשחק יש 2 עד 4 שחקנים, לא 5",
    "bg": "binscrabble: грешка: в играта участват от 2 до 4 играчи, а не 5",
}


@in_each_language(SETUP_ERRORS)
def test_a_game_that_cannot_start_says_why_in_the_language(language: str, expected: str) -> None:
    completed = run("play", "--lang", language, "--players", "A,B,C,D,E")
    assert (completed.returncode, completed.stderr) == (2, expected + "\n")


def ended(reason: str, scores: tuple[int, ...], seat: int | None = None) -> Outcome:
    left = () if seat is None else (seat,)  # a seat that resigned leaves the game
    outcome = Outcome.settled(
        reason, (0,) * len(scores), scores, ("Ann", "Bo"), seat=seat, left=left
    )
    assert outcome is not None
    return outcome


ENDINGS = {
    "en": [
        "Ann wins (Ann 12, Bo 3)",
        "draw between Ann and Bo (Ann 5, Bo 5)",
        "Bo resigned. Ann wins (Ann 0, Bo 0)",
    ],
    "fr": [
        "Ann gagne (Ann 12, Bo 3)",
        "partie nulle entre Ann et Bo (Ann 5, Bo 5)",
        "Bo a abandonné. Ann gagne (Ann 0, Bo 0)",
    ],
    "he": [
        "ניצחון ל־\u2068Ann\u2069 (\u2068Ann 12, Bo 3\u2069)",
        "תיקו בין \u2068\u2068Ann\u2069 ו־\u2068Bo\u2069\u2069 (\u2068Ann 5, Bo 5\u2069)",
        "\u2068Bo\u2069: כניעה. ניצחון ל־\u2068Ann\u2069 (\u2068Ann 0, Bo 0\u2069)",
    ],
    "bg": [
        "Ann печели (Ann 12, Bo 3)",
        "равен резултат между Ann и Bo (Ann 5, Bo 5)",
        "Bo се предаде. Ann печели (Ann 0, Bo 0)",
    ],
}


@in_each_language(ENDINGS)
def test_how_a_game_ended_is_said_in_the_language(language: str, expected: list[str]) -> None:
    outcomes = [ended("out", (12, 3)), ended("scoreless", (5, 5)), ended("resigned", (0, 0), 1)]
    with i18n.use_language(language):
        said = [outcome_sentence(outcome) for outcome in outcomes]
    assert said == expected
    # In English a game that was played out reads as its record keeps it.
    assert ENDINGS["en"][0] == str(outcomes[0])


# Every other command's words: a position file that cannot be read, a player that does not
# exist, `replay`'s summary and `selfplay`'s table, in each language.

POSITION_ERRORS = {
    "en": "p.json: rack: the rack holds 12 tiles; racks hold at most 9",
    "fr": "p.json\u00a0: rack: le chevalet contient 12 jetons\u202f; un chevalet en contient"
    " au plus 9",
    "he": "p.json\u2069: rack: על המעמד יש 12 אריחים; על מעמד יש לכל היותר \u20689\u2069",
    "bg": "p.json: rack: поставката съдържа 12 плочки; поставките побират най-много 9",
}


@in_each_language(POSITION_ERRORS)
def test_a_position_that_cannot_be_read_is_said_in_the_language(
    tmp_path: Path, language: str, expected: str
) -> None:
    position = tmp_path / "p.json"
    position.write_text(
        '{"board": [' + ", ".join(['"' + "." * 15 + '"'] * 15) + '], "rack": "111111111111"}'
    )
    status, out, err = parsed_in(language, "moves", str(position))
    assert (status, out) == (2, "")
    assert err.endswith(expected + "\n"), err


UNKNOWN_PLAYER = {
    "en": "unknown player 'wizard': choose a level (",
    "fr": "joueur inconnu 'wizard'\u00a0: choisissez un niveau (",
    "he": "שחקן לא מוכר \u2068'wizard'\u2069: בחרו רמה (",
    "bg": "непознат играч 'wizard': изберете ниво (",
}


@in_each_language(UNKNOWN_PLAYER)
def test_an_unknown_computer_player_is_refused_in_the_language(
    language: str, expected: str
) -> None:
    status, _out, err = parsed_in(
        language, "selfplay", "--players", "wizard,greedy", "--games", "2"
    )
    assert status == 2
    assert expected in err


SELFPLAY_TABLE = {
    "en": ["player", "wins", "mean score", "draws", "paired 95% interval over 10 pairs"],
    "fr": ["joueur", "victoires", "score moyen", "nulles", "intervalle apparié à 95% sur 10"],
    "he": ["שחקן", "ניצחונות", "ניקוד ממוצע", "תיקו", "רווח סמך מזווג של \u206895%\u2069"],
    "bg": ["играч", "победи", "среден резултат", "наравно", "сдвоен интервал 95% върху 10 двойки"],
}


@in_each_language(SELFPLAY_TABLE)
def test_the_selfplay_table_is_in_the_language(language: str, expected: list[str]) -> None:
    from binscrabble.engine.selfplay import GameResult, MatchResult

    scores = [(10, 5), (5, 9)] * 10
    games = tuple(
        GameResult(index, 0, ("a", "b"), score, 10, 0.1) for index, score in enumerate(scores)
    )
    with i18n.use_language(language):
        table = MatchResult(("a", "b"), 0, games, 1.0).table()
    for words in expected:
        assert words in table, (words, table)
    heading, first = table.splitlines()[:2]
    # The columns are as wide as their headings in every language.
    assert len(heading) == len(first)


REPLAY = {
    "en": ["Ann vs Bo: after turn 1 of 1 (the end of the record)", "Racks: Ann: ", "Bo to move."],
    "fr": [
        "Ann contre Bo\u00a0: après le tour 1 sur 1 (la fin de la feuille de partie)",
        "Chevalets\u00a0: Ann: ",
        "À Bo de jouer.",
    ],
    "he": ["\u2068Ann נגד Bo\u2069: אחרי תור \u20681\u2069 מתוך \u20681\u2069", "מעמדים: "],
    "bg": ["Ann срещу Bo: след ход 1 от 1 (краят на записа)", "Поставки: Ann: ", "На ход е Bo."],
}


@in_each_language(REPLAY)
def test_replay_says_where_the_game_is_in_the_language(
    tmp_path: Path, language: str, expected: list[str]
) -> None:
    from binscrabble.game import Game
    from binscrabble.movegen import best_moves
    from binscrabble.record import write_record
    from binscrabble.rules import Rules

    game = Game(["Ann", "Bo"], Rules(), seed=1)
    game.push(best_moves(game, 1)[0].place)
    record = tmp_path / "game.bsr"
    record.write_text(write_record(game), encoding="utf-8")
    status, out, _err = parsed_in(language, "replay", str(record))
    assert status == 0
    for words in expected:
        assert words in out, (words, out)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_a_malformed_rule_names_the_metavar_of_the_usage(language: str) -> None:
    # The usage line keeps the metavar NAME=VALUE (docs/languages.md): so does the error.
    completed = run("play", "--lang", language, "--rule", "nonexistent")
    assert completed.returncode == 2
    assert "NAME=VALUE" in completed.stderr, completed.stderr
    assert "[--rule NAME=VALUE]" in run("play", "--lang", language, "--help").stdout
