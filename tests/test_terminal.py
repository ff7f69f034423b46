"""The terminal game, driven through its input: scripted games, bad entries, saving, resuming."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from random_games import random_move

from binscrabble.board import Board, parse_square
from binscrabble.cli import main
from binscrabble.game import Game
from binscrabble.move import Exchange, Move, Pass, Place, display_notation, parse_move
from binscrabble.movegen import best_moves
from binscrabble.record import read_record_file, write_record_file
from binscrabble.rules import Rules
from binscrabble.terminal import (
    HELP,
    GameSetupError,
    PlayOptions,
    TerminalGame,
    computers_for,
    describe_tiles,
    face,
    move_cell,
    parse_players,
    render_board,
    render_rack,
    render_recent,
    run_terminal_game,
)


def best_play(game: Game) -> str:
    """The notation of the best-scoring play for the seat to move."""
    move = best_moves(game, 1)[0].place
    return move.notation(game.board)


def session(options: PlayOptions, lines: list[str], factory: object = None) -> tuple[int, str, str]:
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    stdout, stderr = io.StringIO(), io.StringIO()
    if factory is None:
        status = run_terminal_game(options, stdin, stdout, stderr)
    else:
        status = run_terminal_game(options, stdin, stdout, stderr, factory=factory)  # type: ignore[arg-type]
    return status, stdout.getvalue(), stderr.getvalue()


# -- rendering -------------------------------------------------------------------------------


def test_plain_board_has_coordinates_premiums_and_tiles() -> None:
    board = Board.from_rows(["." * 15] * 7 + ["...1+1=10......"] + ["." * 15] * 7, blanks=["E8"])
    lines = render_board(board, color=False).splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMNO")
    assert lines[1].split()[:2] == ["1", "TW"]
    assert lines[8].split() == (
        ["8", "TW", ".", ".", "1", "?+", "1", "=", "1", "0", ".", ".", "DL", ".", ".", "TW"]
    )
    assert "\x1b[" not in "\n".join(lines)
    assert len(lines) == 18
    assert lines[17] == "TW triple word   DW double word   TL triple letter   DL double letter"


def test_color_board_uses_ansi_and_highlights_the_last_move() -> None:
    board = Board.from_rows(["." * 15] * 7 + ["...1+1=10......"] + ["." * 15] * 7)
    text = render_board(board, color=True, highlight=[parse_square("D8")])
    assert "\x1b[97;41mTW " in text  # triple word in red
    assert "\x1b[1;30;102m 1 " in text  # the last move's tile in green
    assert "\x1b[1;30;43m + " in text  # an older tile


def test_rack_and_tile_counts() -> None:
    assert render_rack("1x?", color=False) == "1  ×  ?   (points 1 2 0)"
    assert "\x1b[" in render_rack("1", color=True)
    assert render_rack("", color=False) == "(empty)"
    assert describe_tiles("") == "none"
    assert describe_tiles("?0=0") == "0:2  =:1  ?:1"


# -- players ---------------------------------------------------------------------------------


def test_parse_players() -> None:
    assert parse_players("Alice,Bob") == ["Alice", "Bob"]
    assert parse_players(" Alice , cpu:greedy ") == ["Alice", "cpu:greedy"]
    assert parse_players("A,cpu:easy,cpu:easy,cpu:easy") == [
        "A",
        "cpu:easy",
        "cpu:easy#2",
        "cpu:easy#3",
    ]
    for bad, reason in {
        "Solo": "2 to 4 players, not 1",
        "A,B,C,D,E": "not 5",
        "A,,B": "separated by commas",
        "A,A": "two players are named 'A'",
        "cpu:easy,cpu:hard": "every seat is a computer",
    }.items():
        with pytest.raises(GameSetupError, match=reason):
            parse_players(bad)


def test_computer_seats_use_the_engine() -> None:
    computers = computers_for(["Ann", "cpu:greedy", "cpu:greedy#2"])
    assert sorted(computers) == [1, 2]
    assert hasattr(computers[1], "choose")
    with pytest.raises(GameSetupError, match="unknown player"):
        computers_for(["Ann", "cpu:grandmaster"])


# -- a scripted hot-seat game ----------------------------------------------------------------


def test_scripted_game_with_bad_entries_preview_exchange_pass_undo_quit_resume(
    tmp_path: Path,
) -> None:
    save = tmp_path / "game.bsr"
    shadow = Game(["Ada", "Bob"], Rules(), seed=5)
    first = best_play(shadow)
    first_move = parse_move(first, shadow.board)
    first_score = shadow.score(first_move)
    shadow.push(first_move)
    bob_exchange = shadow.rack(1)[:3]
    shadow.push(parse_move(f"exchange {bob_exchange}", shadow.board))
    script = [
        "",  # Ada: privacy screen
        "hello",
        "8P 1=1",
        "help",
        "rules",
        "unseen",
        "preview",
        f"preview {first}",
        f"? {first}",
        first,
        "n",  # not played after all
        first,
        "",  # confirmed
        "",  # Bob: privacy screen
        f"exchange {bob_exchange}",
        "",  # Ada
        "pass",
        "",  # Bob
        "undo",  # takes back Ada's pass
        "",  # Ada again, after the undo
        "quit",
    ]
    options = PlayOptions(
        players=["Ada", "Bob"], seed=5, save=str(save), allow_undo=True, confirm=True
    )
    status, out, err = session(options, script)
    assert status == 0, err
    assert err == ""
    assert "Ada, it is your turn. Press Enter" in out
    assert "Cannot read 'hello'" in out
    assert "column P is off the board" in out
    assert HELP.splitlines()[0] in out
    assert "identity_chains" in out  # the rules
    assert "The rules in force (house rules of docs/rules.md §10):\n  Order of operations " in out
    assert "Unseen tiles (" in out
    assert "Give a move" in out
    assert out.count("would score:") == 2
    assert f"total {first_score}" in out
    assert out.count(f"Play {display_notation(first)} for {first_score}? [Y/n]") == 2
    assert "Not played." in out
    assert f"Ada plays {display_notation(first)} for {first_score} (total {first_score})." in out
    exchanged = " ".join(map(face, Exchange(bob_exchange).tiles))
    assert f"Bob exchanges 3 tiles: {exchanged}." in out
    assert "Ada passes." in out
    assert "Took back 1 turn; Ada to move." in out
    assert f"Continue it with: binscrabble play --resume {save}" in out
    # Bob's rack is never shown before Bob pressed Enter.
    bob_screen = out.index("Bob, it is your turn")
    assert "Bob's rack" not in out[:bob_screen]

    saved = read_record_file(save)
    assert saved == shadow  # same board, racks, bag, history: the undo left no trace
    assert [turn.move for turn in saved.history] == [first_move, Exchange(bob_exchange)]

    # Resume: Ada plays, Bob sees the privacy screen, then the input ends.
    second = best_play(shadow)
    shadow.push(parse_move(second, shadow.board))
    status, out, err = session(PlayOptions(resume=str(save), confirm=False), ["", second, ""])
    assert status == 0, err
    assert f"Ada plays {display_notation(second)}" in out
    assert "Game saved in" in out
    assert read_record_file(save) == shadow


def test_undo_is_off_unless_allowed_and_needs_a_turn(tmp_path: Path) -> None:
    options = PlayOptions(players=["Ada", "Bob"], seed=1, save=str(tmp_path / "g.bsr"))
    _, out, _ = session(options, ["", "undo"])
    assert "Undo is off: start the game with --allow-undo" in out
    options.allow_undo = True
    _, out, _ = session(options, ["", "undo"])
    assert "There is no turn to take back." in out


def test_end_of_input_at_the_first_prompt_saves(tmp_path: Path) -> None:
    save = tmp_path / "g.bsr"
    status, out, _ = session(PlayOptions(players=["Ada", "Bob"], save=str(save)), [])
    assert status == 0
    assert "Game saved in" in out
    assert read_record_file(save).players == ("Ada", "Bob")


def test_a_whole_game_to_the_end(tmp_path: Path) -> None:
    save = tmp_path / "whole.bsr"
    shadow = Game(["Ada", "Bob", "Cy"], Rules(), seed=9)
    rng = random.Random(9)
    script: list[str] = []
    while not shadow.is_over():
        move = random_move(shadow, rng)
        script += ["", move.notation(shadow.board)]
        shadow.push(move)
    options = PlayOptions(players=["Ada", "Bob", "Cy"], seed=9, save=str(save), confirm=False)
    status, out, err = session(options, script)
    assert status == 0, err
    outcome = shadow.outcome()
    assert outcome is not None
    assert "Game over:" in out
    assert "End-of-game adjustments:" in out
    for seat, name in enumerate(shadow.players):
        change = f"{outcome.adjustments[seat]:+d} → {outcome.scores[seat]}"
        assert change.replace("-", "−") in out, name  # the tiles' minus sign, U+2212
    assert str(outcome) in out
    assert read_record_file(save) == shadow
    # Resuming a finished game shows the result and stops.
    status, out, _ = session(PlayOptions(resume=str(save)), [])
    assert status == 0
    assert "This game is already over." in out and str(outcome) in out


class PassingComputer:
    def __init__(self) -> None:
        self.calls = 0

    def choose(self, game: Game, budget: float | None = None) -> Move:
        self.calls += 1
        if self.calls == 2:
            # A broken engine: the terminal game must survive it.
            return Place(())
        return Pass()


def test_computer_seat_plays_and_undo_takes_back_to_the_person(tmp_path: Path) -> None:
    computer = PassingComputer()

    def factory(name: str) -> PassingComputer:
        assert name == "cpu:test"
        return computer

    shadow = Game(["Ada", "cpu:test"], Rules(), seed=5)
    first = best_play(shadow)
    options = PlayOptions(
        players=["Ada", "cpu:test"], seed=5, save=str(tmp_path / "c.bsr"), allow_undo=True
    )
    script = [first, "y", "undo", "pass", "pass", "pass"]
    status, out, err = session(options, script, factory)
    assert status == 0, err
    assert "Press Enter" not in out  # one person: no privacy screens
    assert "Computer (test) passes." in out and "plays pass" not in out
    assert "Took back 2 turns; Ada to move." in out
    assert "chose an illegal move" in out
    assert "Game over: six scoreless turns in a row." in out


class BrokenComputer:
    def choose(self, game: Game, budget: float | None = None) -> Move:
        raise RuntimeError("out of ideas")


def test_a_computer_that_fails_passes_and_the_game_goes_on(tmp_path: Path) -> None:
    save = tmp_path / "b.bsr"
    options = PlayOptions(players=["Ada", "cpu:test"], seed=5, save=str(save))
    status, out, err = session(options, ["pass", "quit"], lambda name: BrokenComputer())
    assert status == 0, err
    assert "Computer (test) could not choose a move (RuntimeError: out of ideas); it passes." in out
    assert [turn.move for turn in read_record_file(save).history] == [Pass(), Pass()]


def test_real_engine_opponent(tmp_path: Path) -> None:
    options = PlayOptions(players=["Ada", "cpu:greedy"], seed=4, save=str(tmp_path / "e.bsr"))
    status, out, _ = session(options, ["pass"])
    assert status == 0
    assert "Computer (greedy) is thinking" in out
    assert "Computer (greedy) plays " in out
    saved = read_record_file(tmp_path / "e.bsr")
    assert len(saved.history) == 2


def test_asking_for_players(tmp_path: Path) -> None:
    options = PlayOptions(save=str(tmp_path / "a.bsr"))
    status, out, _ = session(options, ["Solo", ""])
    assert status == 0
    assert "2 to 4 players, not 1" in out
    assert read_record_file(tmp_path / "a.bsr").players == ("Player 1", "Player 2")


def test_asking_for_players_asks_again_for_an_unknown_computer(tmp_path: Path) -> None:
    options = PlayOptions(save=str(tmp_path / "w.bsr"))
    status, out, err = session(options, ["Ann, cpu:wizard", "Ann, cpu:greedy", "quit"])
    assert status == 0, err
    assert "unknown player 'cpu:wizard'" in out
    assert read_record_file(tmp_path / "w.bsr").players == ("Ann", "cpu:greedy")


def unfinished_game_in_default_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game of one pass saved in binscrabble-game.bsr, the working directory `tmp_path`."""
    monkeypatch.chdir(tmp_path)
    game = Game(["Ann", "Ben"], seed=3)
    game.push(Pass())
    write_record_file(game, tmp_path / "binscrabble-game.bsr")


def test_default_save_file_offers_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unfinished_game_in_default_save(tmp_path, monkeypatch)
    status, out, _ = session(PlayOptions(), ["", ""])
    assert status == 0
    assert "A game is saved in binscrabble-game.bsr (turn 2: Ann 0, Ben 0)" in out
    assert "Ben, it is your turn" in out
    # Answering n starts a new game in its place.
    status, out, _ = session(PlayOptions(players=["Cy", "Di"]), ["n", ""])
    assert status == 0
    assert read_record_file(tmp_path / "binscrabble-game.bsr").players == ("Cy", "Di")
    (tmp_path / "binscrabble-game.bsr").write_text("not a record\n", encoding="utf-8")
    status, _, err = session(PlayOptions(players=["Cy", "Di"]), [])
    assert status == 2
    assert "is not a saved game (" in err and "use --save FILE" in err


def test_resume_errors(tmp_path: Path) -> None:
    status, _, err = session(PlayOptions(resume=str(tmp_path / "none.bsr")), [])
    assert status == 2 and "no saved game at" in err
    bad = tmp_path / "bad.bsr"
    bad.write_text("#binscrabble-record 1\n#player1 A\n", encoding="utf-8")
    status, _, err = session(PlayOptions(resume=str(bad)), [])
    assert status == 2 and "line 2" in err and "#player1 to #player2" in err


# -- the command line ------------------------------------------------------------------------


def run_cli(
    arguments: list[str],
    lines: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    status = main(arguments)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_cli_play_with_no_arguments_asks_names_and_saves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, _ = run_cli(["play"], ["", "", "quit"], monkeypatch, capsys)
    assert status == 0
    assert "Player 1, it is your turn" in out
    assert "\x1b[" not in out  # not a terminal: no colour
    assert read_record_file(tmp_path / "binscrabble-game.bsr").players == ("Player 1", "Player 2")


def test_cli_play_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "o.bsr"
    arguments = ["play", "--players", "Ann,Ben", "--seed", "8", "--save", str(save)]
    arguments += ["--preset", "expert", "--rule", "xor_tiles=2", "--no-confirm", "--allow-undo"]
    status, out, _ = run_cli(arguments, ["", "rules", "quit"], monkeypatch, capsys)
    assert status == 0
    assert (
        "House rules: Times 1 and divided by 1 allowed — off; Plus 0 and minus 0 allowed — off"
        in out
    )
    game = read_record_file(save)
    assert game.rules == Rules.preset("expert").override("xor_tiles", 2)
    assert game.seed == 8
    status, _, err = run_cli(
        ["play", "--resume", str(save), "--seed", "3"], [], monkeypatch, capsys
    )
    assert status == 2 and "--seed cannot change a saved game" in err
    status, _, err = run_cli(["play", "--players", "Solo"], [], monkeypatch, capsys)
    assert status == 2 and "2 to 4 players" in err
    status, _, err = run_cli(["play", "--rule", "bogus=1"], [], monkeypatch, capsys)
    assert status == 2 and "unknown rule 'bogus'" in err
    status, _, err = run_cli(
        ["play", "--players", "Ann,cpu:wizard", "--save", str(save)], [], monkeypatch, capsys
    )
    assert status == 2 and "unknown player 'cpu:wizard'" in err


# -- a terminal that clears the screen -------------------------------------------------------

CLEAR = "\x1b[2J"


def test_cleared_screen_repeats_what_happened_since_the_last_screen(tmp_path: Path) -> None:
    # On a terminal every screen starts by clearing it: the house rules, the computer's move
    # and an undo must be shown again after the clear, or nobody could read them.
    def factory(name: str) -> PassingComputer:
        return PassingComputer()

    options = PlayOptions(
        players=["Ada", "cpu:test"],
        rules=Rules().override("xor_tiles", 2),
        seed=5,
        save=str(tmp_path / "n.bsr"),
        allow_undo=True,
    )
    stdin = io.StringIO("".join(f"{line}\n" for line in ["pass", "undo", "quit"]))
    stdout, stderr = io.StringIO(), io.StringIO()
    status = run_terminal_game(options, stdin, stdout, stderr, interactive=True, factory=factory)  # type: ignore[arg-type]
    assert status == 0, stderr.getvalue()
    screens = stdout.getvalue().split(CLEAR)
    assert all("House rules: XOR tiles added to the bag — 2" in screen for screen in screens[1:])
    assert "Ada passes." in screens[2]
    assert "Computer (test) passes." in screens[2]
    assert "Took back 2 turns; Ada to move." in screens[3]
    assert "Computer (test) passes" not in screens[3]  # shown once, not on every later screen


def test_cleared_screen_hides_the_tiles_another_player_exchanged(tmp_path: Path) -> None:
    shadow = Game(["Ada", "Bob"], Rules(), seed=5)
    exchange = Exchange(shadow.rack(0)[:3])
    options = PlayOptions(players=["Ada", "Bob"], seed=5, save=str(tmp_path / "x.bsr"))
    script = ["", f"exchange {exchange.tiles}", "", "quit"]
    stdin = io.StringIO("".join(f"{line}\n" for line in script))
    stdout, stderr = io.StringIO(), io.StringIO()
    status = run_terminal_game(options, stdin, stdout, stderr, interactive=True)
    assert status == 0, stderr.getvalue()
    bob_screen = stdout.getvalue().split("Bob, it is your turn")[1]
    assert "Ada exchanged 3 tiles." in bob_screen
    assert "House rules" not in bob_screen  # the standard rules: nothing to point out
    assert " ".join(exchange.tiles) not in bob_screen.split("Bob's rack")[0]


def test_privacy_screen_also_clears_the_scrollback(tmp_path: Path) -> None:
    # Terminals keep a cleared screen in their scrollback: the next player could scroll up
    # to the previous player's rack unless the scrollback is erased too (ESC [3J).
    options = PlayOptions(players=["Ada", "Bob"], seed=5, save=str(tmp_path / "p.bsr"))
    stdin = io.StringIO("".join(f"{line}\n" for line in ["", "pass", "", "quit"]))
    stdout, stderr = io.StringIO(), io.StringIO()
    assert run_terminal_game(options, stdin, stdout, stderr, interactive=True) == 0
    before_bob = stdout.getvalue().split("Bob, it is your turn")[0]
    assert before_bob.rfind("\x1b[3J") > before_bob.rfind("Ada's rack")


def test_a_game_that_cannot_be_saved_does_not_start(tmp_path: Path) -> None:
    save = tmp_path / "no such folder" / "g.bsr"
    status, out, err = session(PlayOptions(players=["Ada", "Bob"], save=str(save)), [""])
    assert status == 2
    assert err == (
        f"binscrabble: error: cannot save the game to {save}: No such file or directory; "
        "save it elsewhere with --save FILE\n"
    )
    assert "it is your turn" not in out


def test_confirmation_asks_again_when_the_answer_is_neither_yes_nor_no(tmp_path: Path) -> None:
    shadow = Game(["Ada", "Bob"], Rules(), seed=5)
    first = best_play(shadow)
    save = tmp_path / "c.bsr"
    options = PlayOptions(players=["Ada", "Bob"], seed=5, save=str(save))
    status, out, _ = session(options, ["", first, "8A 1=1", "no", first, "yes", "quit"])
    assert status == 0
    assert "'8A 1=1' is no answer: type y (or Enter) to play it, n not to." in out
    assert out.count("Not played.") == 1
    assert [turn.move for turn in read_record_file(save).history] == [
        parse_move(first, shadow.board)
    ]
    # quit at the confirmation leaves, without playing.
    save.unlink()
    status, out, _ = session(options, ["", first, "quit"])
    assert status == 0
    assert "Game saved in" in out and "is no answer" not in out
    assert read_record_file(save).history == []


def test_quit_at_the_privacy_screen_leaves_without_showing_the_rack(tmp_path: Path) -> None:
    save = tmp_path / "q.bsr"
    options = PlayOptions(players=["Ada", "Bob"], seed=5, save=str(save))
    status, out, _ = session(options, ["", "pass", "quit"])
    assert status == 0
    assert "Game saved in" in out
    assert "Bob's rack" not in out
    assert len(read_record_file(save).history) == 1


def test_a_long_unreadable_entry_is_not_echoed_whole(tmp_path: Path) -> None:
    options = PlayOptions(players=["Ada", "Bob"], seed=5, save=str(tmp_path / "l.bsr"))
    status, out, _ = session(options, ["", "8D 1+1=10" + "2" * 200, "quit"])
    assert status == 0
    assert "Cannot read '8D 1+1=10222222222222222222222222222222…': unknown symbol '2'" in out
    assert "2" * 60 not in out


def test_a_new_game_never_overwrites_a_saved_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    finished = random_game_over()
    write_record_file(finished, tmp_path / "binscrabble-game.bsr")
    # A finished game in the default file is kept aside, without a question.
    status, out, _ = session(PlayOptions(players=["Cy", "Di"]), ["quit"])
    assert status == 0
    assert "The game that was in binscrabble-game.bsr is kept in binscrabble-game-1.bsr." in out
    assert read_record_file(tmp_path / "binscrabble-game-1.bsr") == finished
    assert read_record_file(tmp_path / "binscrabble-game.bsr").players == ("Cy", "Di")
    # Answering n to the offer to resume keeps the unfinished game aside too.
    status, out, _ = session(PlayOptions(players=["Ed", "Flo"]), ["n", "quit"])
    assert status == 0
    assert read_record_file(tmp_path / "binscrabble-game-2.bsr").players == ("Cy", "Di")
    # So does --save naming a file that holds a game.
    write_record_file(Game(["Ann", "Ben"], seed=1), tmp_path / "mine.bsr")
    status, out, _ = session(PlayOptions(players=["Gus", "Hal"], save="mine.bsr"), ["quit"])
    assert status == 0
    assert "The game that was in mine.bsr is kept in mine-1.bsr." in out
    assert read_record_file(tmp_path / "mine-1.bsr").players == ("Ann", "Ben")
    # --save naming a file that is not a game refuses to start, and leaves it alone.
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\n", encoding="utf-8")
    status, _, err = session(PlayOptions(players=["Gus", "Hal"], save=str(notes)), [])
    assert status == 2 and "is not a saved game (" in err and "use --save FILE" in err
    assert notes.read_text(encoding="utf-8") == "shopping list\n"


def test_the_offer_to_resume_asks_again_after_a_typo_and_quit_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unfinished_game_in_default_save(tmp_path, monkeypatch)
    # A typo is neither a yes nor a no: the question comes again, and y resumes.
    status, out, _ = session(PlayOptions(), ["yse", "y", "quit"])
    assert status == 0
    assert "'yse' is no answer: y (or Enter) resumes it, n not." in out
    assert out.count("Resume it? [Y/n]") == 2
    assert not (tmp_path / "binscrabble-game-1.bsr").exists()
    assert len(read_record_file(tmp_path / "binscrabble-game.bsr").history) == 1
    # quit (or the end of input) at the question leaves everything as it was.
    for lines in (["maybe", "quit"], ["maybe"]):
        status, out, _ = session(PlayOptions(), lines)
        assert status == 0
        assert "is kept in" not in out
        assert sorted(path.name for path in tmp_path.iterdir()) == ["binscrabble-game.bsr"]
        assert read_record_file(tmp_path / "binscrabble-game.bsr").players == ("Ann", "Ben")
    # no starts a new game and keeps the old one aside.
    status, out, _ = session(PlayOptions(players=["Cy", "Di"]), ["no", "quit"])
    assert status == 0
    assert "The game that was in binscrabble-game.bsr is kept in binscrabble-game-1.bsr." in out
    assert read_record_file(tmp_path / "binscrabble-game-1.bsr").players == ("Ann", "Ben")


def random_game_over() -> Game:
    game = Game(["Ann", "Ben"], seed=4)
    while not game.is_over():
        game.push(Pass())
    return game


def test_game_over_lists_the_tiles_left_spaced_with_their_worth(tmp_path: Path) -> None:
    game = Game.from_setup(Rules(), Board(), ["-x", "1=1"], players=["Ann", "Ben"], bag=[])
    for _ in range(5):
        game.push(Pass())
    save = tmp_path / "end.bsr"
    terminal_output = io.StringIO()
    terminal = TerminalGame(game, save, io.StringIO("\npass\n"), terminal_output, computers={})
    assert terminal.run() == 0
    out = terminal_output.getvalue()
    assert "  Ann: tiles left − × (3 points), −3 → −3" in out
    assert "  Ben: tiles left 1 = 1 (3 points), −3 → −3" in out


def test_undo_with_only_a_computer_turn_behind_takes_nothing_back(tmp_path: Path) -> None:
    save = tmp_path / "u.bsr"
    options = PlayOptions(players=["cpu:test", "Ada"], seed=5, save=str(save), allow_undo=True)
    status, out, _ = session(options, ["undo", "quit"], lambda name: PassingComputer())
    assert status == 0
    assert "There is no turn of yours to take back." in out
    assert "Took back" not in out
    assert out.count("Computer (test) passes.") == 1
    assert len(read_record_file(save).history) == 1


def test_help_states_the_exchange_condition_for_any_rack_size() -> None:
    # The bag must hold a full rack (rule rack_size), not always 9 tiles.
    assert "while it holds a full rack" in HELP
    assert "9 tiles" not in HELP


def test_cli_play_survives_input_that_is_not_utf8(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A Latin-1 terminal sends é as one byte; a strict UTF-8 stdin used to raise.
    data = io.BytesIO(b"\n\xe9t\xe9\nquit\n")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(data, encoding="utf-8", errors="strict"))
    status = main(["play", "--players", "Ann,Ben", "--save", str(tmp_path / "u.bsr")])
    out = capsys.readouterr().out
    assert status == 0
    assert "Cannot read '\ufffdt\ufffd'" in out
    assert "Game saved in" in out


def test_resuming_into_another_save_file_keeps_what_was_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_record_file(Game(["Ann", "Ben"], seed=1), tmp_path / "a.bsr")
    other = Game(["Cy", "Di"], seed=2)
    write_record_file(other, tmp_path / "b.bsr")
    status, out, _ = session(PlayOptions(resume="a.bsr", save="b.bsr"), ["quit"])
    assert status == 0
    assert "The game that was in b.bsr is kept in b-1.bsr." in out
    assert read_record_file(tmp_path / "b-1.bsr") == other
    assert read_record_file(tmp_path / "b.bsr").players == ("Ann", "Ben")
    # Resuming into the file the game came from changes nothing aside.
    status, out, _ = session(PlayOptions(resume="b.bsr", save="./b.bsr"), ["quit"])
    assert status == 0 and "kept in" not in out
    assert not (tmp_path / "b-2.bsr").exists()
    # A file that is not a game is refused and left alone.
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\n", encoding="utf-8")
    status, _, err = session(PlayOptions(resume="a.bsr", save=str(notes)), [])
    assert status == 2 and "is not a saved game (" in err and "use --save FILE" in err
    assert notes.read_text(encoding="utf-8") == "shopping list\n"


def test_the_log_of_recent_moves_shows_each_seat_the_one_view() -> None:
    game = Game(["Ada", "Bob"], Rules(), seed=5)
    exchange = Exchange(game.rack(0)[:3])
    game.push(exchange)
    play = best_moves(game, 1)[0].place
    game.push(play)
    total = game.scores[1]
    played = game.view_for(None)["moves"][1]["notation"]
    for seat in (1, None):
        log = render_recent(game, seat)
        assert "    1. Ada: exchanged 3 tiles  +0 (total 0)" in log
        assert f"    2. Bob: {display_notation(played)}  +{total} (total {total})" in log
    faces = " ".join(
        move_cell(code).split()[-1] for code in ["-" + tile for tile in exchange.tiles]
    )
    assert f"    1. Ada: exchanged 3 tiles: {faces}  +0" in render_recent(game, 0)
