"""The terminal game shows tiles as the web does (× ÷ − AND OR NOT XOR), never by the codes
typed for them (x / - & | ~ ^), on the board, on the rack, in moves and in tile counts."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from binscrabble import i18n
from binscrabble.board import Board
from binscrabble.game import Game
from binscrabble.move import Move, Place, display_notation
from binscrabble.movegen import best_moves
from binscrabble.rules import Rules
from binscrabble.terminal import (
    PlayOptions,
    describe_tiles,
    render_board,
    render_rack,
    render_recent,
    run_terminal_game,
)

CODES = "x/-&|~^"


def test_the_board_shows_the_tiles_faces_in_its_squares() -> None:
    row = "1&1=1|0x1-0/1.."
    board = Board.from_rows(["." * 15] * 7 + [row] + ["." * 15] * 7, blanks=["B8", "L8"])
    line = render_board(board, color=False).splitlines()[8]
    cells = [line[4 + 4 * column : 7 + 4 * column] for column in range(15)]
    assert cells[:13] == [
        *[" 1 ", "AND", " 1 ", " = ", " 1 ", "OR ", " 0 "],
        *[" × ", " 1 ", " − ", " 0 ", "?÷ ", " 1 "],
    ]
    # A blank's mark stands just before a face that fills its square.
    assert line[3 + 4 * 1] == "?"
    assert not set(line) & set(CODES)


def test_a_word_face_keeps_every_square_in_its_column() -> None:
    row = "~1=0&1^1|0....."
    board = Board.from_rows(["." * 15] * 7 + [row] + ["." * 15] * 7)
    lines = render_board(board, color=False).splitlines()
    assert len(lines[8]) == len(lines[1])  # the row is as wide as any other
    assert lines[8].split()[1:10] == ["NOT", "1", "=", "0", "AND", "1", "XOR", "1", "OR"]


def test_the_rack_shows_faces_with_each_tiles_points() -> None:
    shown = render_rack("01x/-&|~^?", color=False)
    tiles, _, points = shown.partition("   (")
    assert tiles.split() == ["0", "1", "×", "÷", "−", "AND", "OR", "NOT", "XOR", "?"]
    assert len(points.split()) == 1 + 10  # "points" and one figure a tile
    assert not set(shown) & set(CODES)
    assert "\x1b[" in render_rack("&", color=True) and "AND" in render_rack("&", color=True)


def test_tile_counts_use_faces() -> None:
    assert describe_tiles("&&x?") == "×:1  AND:2  ?:1"


class OperatorComputer:
    """Plays the best play that holds an operator typed with a code, else the best."""

    def choose(self, game: Game, budget: float | None = None) -> Move:
        found = best_moves(game, 60)
        for candidate in found:
            if set(candidate.place.notation(game.board)) & set(CODES):
                return candidate.place
        return found[0].place


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_moves_are_shown_with_faces_in_every_language(tmp_path: Path, language: str) -> None:
    save = tmp_path / "g.bsr"
    options = PlayOptions(players=["cpu:test", "Ada"], seed=7, save=str(save), confirm=True)
    shadow = Game(["cpu:test", "Ada"], Rules(), seed=7)
    computer = OperatorComputer()
    move = computer.choose(shadow)
    assert isinstance(move, Place)
    notation = move.notation(shadow.board)
    assert set(notation) & set(CODES), notation
    stdin, stdout, stderr = io.StringIO("quit\n"), io.StringIO(), io.StringIO()
    with i18n.use_language(language):
        status = run_terminal_game(options, stdin, stdout, stderr, factory=lambda name: computer)
    out = stdout.getvalue()
    assert status == 0, stderr.getvalue()
    shown = display_notation(notation)
    assert out.count(shown) >= 2, out  # the announcement and the list of last moves
    assert notation not in out


def test_the_last_moves_show_plays_over_tiles_as_they_stand() -> None:
    game = Game(["Ada", "Bob"], Rules(), seed=7)
    for _turn in range(4):
        game.push(best_moves(game, 1)[0].place)
    notations = game.notations()
    assert any("(" in notation for notation in notations), notations
    log = render_recent(game, 0)
    for notation in notations:
        assert display_notation(notation) in log, (notation, log)
    assert "(" not in log.replace("(total", "")


def test_a_plays_score_run_by_run_shows_faces(tmp_path: Path) -> None:
    shadow = Game(["Ada", "Bob"], Rules(), seed=5)
    plays = [found.place for found in best_moves(shadow, 40)]
    play = next(p for p in plays if set(p.notation(shadow.board)) & set(CODES))
    run = shadow.score_breakdown(play).runs[0].text
    assert set(run) & set(CODES), run
    stdin = io.StringIO(f"\npreview {play.notation(shadow.board)}\nquit\n")  # Enter: privacy
    stdout, stderr = io.StringIO(), io.StringIO()
    options = PlayOptions(players=["Ada", "Bob"], seed=5, save=str(tmp_path / "p.bsr"))
    assert run_terminal_game(options, stdin, stdout, stderr) == 0, stderr.getvalue()
    out = stdout.getvalue()
    assert run not in out
    assert display_notation(f"8A {run}").removeprefix("8A ") in out
