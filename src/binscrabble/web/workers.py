"""The computer's thinking, as jobs for the worker processes (:mod:`binscrabble.web.pool`).

A job carries a game as its stored facts (players, rules, seed, moves in notation); the
worker replays it and answers with plain data. :func:`replay` is also how the server
rebuilds games.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from binscrabble import i18n
from binscrabble.board import square_name
from binscrabble.engine.leaves import LeaveTable
from binscrabble.engine.levels import player_from_name
from binscrabble.engine.players import leave_after, ranked_candidates
from binscrabble.engine.simulation import SimulationPlayer
from binscrabble.expr import explain
from binscrabble.game import ABORT_CAUSES, Game, ScoreBreakdown
from binscrabble.i18n import _, ngettext
from binscrabble.move import Move, Place, display_equation, move_notation, parse_move
from binscrabble.movegen import GeneratedMove, best_moves, best_placements
from binscrabble.rules import BLANK, Rules
from binscrabble.web.meta import SWITCH_NAMES
from binscrabble.web.pool import memory_budget, progress
from binscrabble.web.shown import people_notation, shown_move


@dataclass(frozen=True, slots=True)
class GameJob:
    """A game as the worker needs it: what is stored, nothing more."""

    players: tuple[str, ...]
    rules: dict[str, Any]
    seed: str
    moves: tuple[str, ...]
    #: The seats that left, in order: (moves played when it left, seat, ``resigned``,
    #: ``time`` or ``aborted``).
    departures: tuple[tuple[int, int, str], ...] = ()


def leave(game: Game, seat: int, reason: str) -> None:
    """``seat`` leaves ``game``: it resigned, ran out of time or aborted (``reason``)."""
    causes = {stored: cause for cause, stored in ABORT_CAUSES.items()}
    if reason == "aborted" or reason in causes:
        game.abort(seat, cause=causes.get(reason))
    else:
        game.resign(seat, reason=reason)


def new_game(job: GameJob) -> Game:
    """The job's game before its first move: its players and rules, its seeded bag."""
    return Game(job.players, Rules.from_mapping(job.rules), seed=int(job.seed))


def replay_steps(game: Game, job: GameJob) -> Iterator[tuple[int, int | None]]:
    """Replay the job's moves and departures on ``game`` (from :func:`new_game`), step by
    step: after each move ``(index of the move, None)``, after each departure ``(moves
    played, index of the departure)``."""
    departures = job.departures
    done = 0
    for number in range(len(job.moves) + 1):
        while done < len(departures) and departures[done][0] <= number:
            _turn, seat, reason = departures[done]
            leave(game, seat, reason)
            yield number, done
            done += 1
        if number < len(job.moves):
            game.push(parse_move(job.moves[number], game.board))
            yield number, None


def replay(job: GameJob) -> Game:
    """The game the job stands for: its moves replayed on its seeded bag, with the seats
    that left leaving when they did.

    >>> game = replay(GameJob(("A", "B"), {}, "5", ("pass",)))
    >>> game.to_move, len(game.rack(0))
    (1, 9)
    >>> replay(GameJob(("A", "B"), {}, "5", ("pass",), ((1, 1, "resigned"),))).end_view()
    {'reason': 'resigned', 'seat': 1, 'winners': [0]}
    """
    game = new_game(job)
    for _step in replay_steps(game, job):
        pass
    return game


def computer_move(
    job: GameJob, level: str, memory: int | None = None, think: float | None = None
) -> str:
    """The notation of the move a computer of ``level`` plays for the seat to move.

    With a ``memory`` budget (bytes), a search that needs more ends the process. With a
    ``think`` budget (seconds, under a clock), a level that thinks (``max``) first sends
    the ``hard`` level's move as progress (what its caller plays should the search be cut
    short), then thinks for at most ``think`` seconds instead of its own time.
    """
    game = replay(job)
    player = player_from_name(level, seed=int(job.seed) % 1_000_003 + len(job.moves))
    with memory_budget(memory):
        if think is not None and isinstance(player, SimulationPlayer):
            quick = player_from_name("hard").choose(game.copy())
            progress(move_notation(quick, game.board))
            move = player.choose(game.copy(), budget=min(think, player.budget))
        else:
            move = player.choose(game.copy())
    return move_notation(move, game.board)


def best_found(game: Game, memory: int | None) -> Iterator[GeneratedMove]:
    """The highest-scoring plays for the seat to move, better and better: with blanks on
    the rack, first the best play without them (quick), last the best play of all (it
    may take ``memory`` more bytes; over it, ``MemoryError``). The analysis of a turn and
    the hint both search with it, so both name the same best play of a position.

    >>> game = Game(("A", "B"), Rules.preset("learning"), seed=3)
    >>> [found.score for found in best_found(game, None)]
    [14]
    """
    rack = game.rack()
    if BLANK in rack:
        plain = best_placements(game.board, rack.replace(BLANK, ""), game.rules, 1)
        if plain:
            yield plain[0]
    with memory_budget(memory):
        found = best_moves(game, 1)
    if found:
        yield found[0]


def hint(job: GameJob, memory: int | None = None, language: str = i18n.ENGLISH) -> dict[str, Any]:
    """The hint for the seat to move: the highest-scoring play, found by the analysis's own
    search (:func:`best_found`), each run explained; with no play on the board, the
    exchange (or pass) the ``hard`` computer prefers. Its sentences are in ``language``
    (the request's: this runs in a worker process).

    The best play found so far is sent as progress, its explanation saying that a better
    one may exist: the answer when the search runs out of time or memory.
    """
    with i18n.use_language(language):
        return hint_search(job, memory)


def hint_search(job: GameJob, memory: int | None) -> dict[str, Any]:
    """The hint of :func:`hint`, in the current language."""
    game = replay(job)
    best: GeneratedMove | None = None
    for found in best_found(game, memory):
        if best is None or found.score > best.score:
            best = found
            progress(hint_of(game, best.place, best.score, complete=False))
    if best is None:
        chosen = ranked_candidates(game, LeaveTable.default(), [], limit=1)[0]
        return hint_of(game, chosen.move, 0, complete=True)
    return hint_of(game, best.place, best.score, complete=True)


def hint_of(game: Game, move: Move, score: int, complete: bool) -> dict[str, Any]:
    """The hint's answer for ``move`` (scoring ``score``) in ``game``; ``complete`` says
    whether the search finished (its explanation then says it is the best there is).

    A play is explained in parts the page shows one a line: what the play is
    (``about``), each run with the steps that make it true (``runs[i].steps``: the
    verdict, each side and its operations, the identity fragments with their house
    rules named in words, the value and bonus), the score as a sum that adds up to the
    points shown, the whole rack's bonus included (``total``), and what it keeps
    (``explanation``).
    """
    notation = move_notation(move, game.board)
    display = people_notation(notation)
    if not isinstance(move, Place):
        explanation = no_play_reason(game.rack())
        return {
            "notation": notation,
            "display": display,
            "score": score,
            "about": "",
            "runs": [],
            "total": "",
            "explanation": explanation,
        }
    breakdown = game.score_breakdown(move)
    names = {
        switch: _("the house rule “{rule}”").format(rule=_(name))
        for switch, name in SWITCH_NAMES.items()
    }
    runs: list[dict[str, Any]] = []
    for run in breakdown.runs:
        lines = explain(run.text, game.rules, names).lines
        runs.append(
            {
                "text": run.text,
                "display": display_equation(run.text),
                "value": run.value,
                "binary": format(run.value, "b"),
                "bonus": run.bonus,
                "score": run.score,
                "sum": run.explain(),
                "explanation": "\n".join(lines),
                "steps": [hint_step(line) for line in lines],
            }
        )
    return {
        "notation": notation,
        "display": display,
        "score": score,
        "about": hint_about(display, move),
        "runs": runs,
        "total": hint_total(breakdown),
        "explanation": hint_keeps(game, move, display, score, complete),
    }


def no_play_reason(rack: str) -> str:
    """Why the hint is an exchange (or a pass), said with the button that does it: a rack
    without ``=`` (nor a blank to play as one) makes no equation at all; otherwise no play
    of this rack fits this board."""
    if "=" not in rack and "?" not in rack:
        return _(
            "Without an = on your rack no equation can be made: all that is left is to "
            "exchange tiles (the Exchange button) or to pass."
        )
    return _(
        "No play of this rack fits this board: all that is left is to exchange tiles (the "
        "Exchange button) or to pass."
    )


def hint_step(line: str) -> dict[str, Any]:
    """One line of a run's explanation as the hint shows it: an operation of a side (the
    explanation indents those: binary, then the decimals) is arithmetic, read left to
    right in every language; its aligning spaces are not kept. Only ordinary spaces are
    made one: a translation's non-breaking space (U+00A0 before a French colon) stays."""
    arithmetic = line.startswith(" ")
    return {"text": " ".join(word for word in line.split(" ") if word), "arithmetic": arithmetic}


def hint_about(display: str, move: Place) -> str:
    """What the hinted play is: how many tiles it lays, on which squares."""
    squares = move.squares
    where = square_name(squares[0])
    if len(squares) > 1:
        where = f"{where}–{square_name(squares[-1])}"
    return ngettext(
        "{move}: {count} tile from your rack, laid on {squares}.",
        "{move}: {count} tiles from your rack, laid on {squares}.",
        len(squares),
    ).format(move=display, count=len(squares), squares=where)


def hint_total(breakdown: ScoreBreakdown) -> str:
    """The play's score as a sum: each run's points, plus the bonus for the whole rack."""
    terms = [str(run.score) for run in breakdown.runs]
    if breakdown.bingo:
        terms.append(str(breakdown.bingo))
    total = " + ".join(terms)
    if len(terms) > 1:
        total = f"{total} = {breakdown.total}"
    several = len(breakdown.runs) > 1
    if breakdown.bingo and several:
        sentence = _(
            "Score: {sum} (the equations' points, plus {bingo} for playing the whole rack)."
        )
    elif breakdown.bingo:
        sentence = _(
            "Score: {sum} (the equation's points, plus {bingo} for playing the whole rack)."
        )
    elif several:
        sentence = _("Score: {sum} (the equations' points added up).")
    else:
        sentence = _("Score: {sum} (the equation's points).")
    return sentence.format(sum=total, bingo=breakdown.bingo)


def hint_keeps(game: Game, move: Place, display: str, score: int, complete: bool) -> str:
    """The hint's last sentence: what the play keeps on the rack, and whether it is the
    best play there is or the best the search found before it stopped."""
    leave = leave_after(game.rack(), move.codes)
    kept = " ".join(display_equation(code) for code in leave if code != BLANK)
    kept = (kept + (" " + _("blank")) * leave.count(BLANK)).strip()
    if not kept and complete:
        return _(
            "{move} scores {score} and plays every tile of the rack: the best-scoring play "
            "there is."
        ).format(move=display, score=score)
    if not kept:
        return _(
            "{move} scores {score} and plays every tile of the rack: the best-scoring play "
            "found before the search stopped; a better one may exist."
        ).format(move=display, score=score)
    if complete:
        sentence = _(
            "{move} scores {score} and leaves {kept} on your rack: the best-scoring play there is."
        )
    else:
        sentence = _(
            "{move} scores {score} and leaves {kept} on your rack: the best-scoring play "
            "found before the search stopped; a better one may exist."
        )
    return sentence.format(move=display, score=score, kept=kept)


def turn_position(job: GameJob, number: int) -> tuple[Game, dict[str, Any]]:
    """The game before turn ``number`` (from 1), and the turn's facts, not analysed: its
    move and score, its best play so far (the move played), the board before it and every
    total after it (:func:`~binscrabble.web.shown.shown_move` writes the moves)."""
    before = GameJob(
        job.players,
        job.rules,
        job.seed,
        job.moves[: number - 1],
        tuple(left for left in job.departures if left[0] < number),
    )
    game = replay(before)
    notation = job.moves[number - 1]
    played = shown_move(notation, game.score(parse_move(notation, game.board)), game.board)
    scores = list(game.scores)
    scores[game.to_move] += played["score"]
    turn: dict[str, Any] = {
        "turn": number,
        "seat": game.to_move,
        "played": played,
        "best": played,
        "lost": 0,
        "board": game.board.rows(),
        "blanks": [square_name(sq) for sq in game.board.blank_squares()],
        "rotated": [square_name(sq) for sq in game.board.rotated_squares()],
        "scores": scores,
        "analysed": False,
        "reason": None,
    }
    return game, turn


def turn_facts(job: GameJob, number: int) -> dict[str, Any]:
    """Turn ``number``'s facts, not analysed (see :func:`turn_position`)."""
    return turn_position(job, number)[1]


def analyse_turn(job: GameJob, number: int, memory: int | None) -> dict[str, Any]:
    """Turn ``number`` (from 1) of a game next to the highest-scoring play there was, and
    the board before it; the search for that play may take ``memory`` more bytes.

    The search reads only for the best play (``best_moves``), not every placement. What is
    known is sent as progress (:func:`~binscrabble.web.pool.progress`) before each search:
    the answer when the search cannot finish. With blanks on the rack, the best play
    without them is found first. Over its memory the search raises ``MemoryError``.
    """
    game, turn = turn_position(job, number)
    progress(turn)
    for found in best_found(game, memory):
        turn = better(turn, [found], game)
        progress(turn)
    return turn | {"analysed": True}


def better(turn: dict[str, Any], found: list[GeneratedMove], game: Game) -> dict[str, Any]:
    """The turn with ``found[0]`` as its best play when that scores more than its best."""
    if not found or found[0].score <= turn["best"]["score"]:
        return turn
    best = shown_move(move_notation(found[0].place, game.board), found[0].score, game.board)
    return turn | {"best": best, "lost": best["score"] - turn["played"]["score"]}


# The most workers by default, as `serve --workers` allows (binscrabble.cli.serve_command).
MOST_WORKERS = 32


def default_workers() -> int:
    """One worker per core but one (kept for the server), at least one and at most 32."""
    return max(1, min(MOST_WORKERS, (os.cpu_count() or 2) - 1))
