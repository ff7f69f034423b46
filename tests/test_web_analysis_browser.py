"""The analysis and the record viewer in a real browser (Debian's Chromium, as in
test_web_browser.py): the marks of the move played and of the computer's best on the board,
the coordinates, the chart of the game (one point a turn, a click goes to that turn), moves
written with the tiles' faces, pages no wider than the screen at 360 and 1366 px, and the
theme switch of every page, remembered.

The finished game is one between two computers stored from a fixed seed, so it has the same
real plays on every run. Screenshots are written under test-artifacts/screenshots/ (analysis-*.png,
viewer-*.png, theme-*.png).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import (
    DIRECT,
    Server,
    browser,  # noqa: F401  (a fixture)
    check_fits,
    expect,
    new_page,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
)
from web_api_support import store_played_game

from binscrabble.web.storage import SeatRecord

# Seconds the analysis of the finished game has to finish.
ANALYSIS_SECONDS = 480
# Codes a person never reads: the faces are written instead (OR, AND, NOT, XOR, ×, ÷, −).
CODES = re.compile(r"[|&~^x/]|\d-|-\d")


#: The bag of the stored game between computers: 39 turns, 31 of them plays.
FINISHED_SEED = "7"


class Finished:
    """A game between two computers, over, stored from a fixed seed (a weak play every turn,
    :func:`web_api_support.weak_play`, so the analysis finds better ones): its id, its record
    file and its analysis."""

    def __init__(self, running: Server, folder: Path) -> None:
        self.id = "computers"
        seats = [SeatRecord(0, "Ro", "beginner", None), SeatRecord(1, "Bo", "beginner", None)]
        store_played_game(running.database, self.id, FINISHED_SEED, seats, plays=None)
        assert running.api("GET", f"/api/games/{self.id}")["over"], "the stored game is not over"
        with DIRECT.open(f"{running.url}/api/games/{self.id}/record", timeout=30) as answer:
            self.record = folder / "computers.bsr"
            self.record.write_bytes(answer.read())
        deadline = time.monotonic() + ANALYSIS_SECONDS
        while True:
            self.analysis: dict[str, Any] = running.api("GET", f"/api/games/{self.id}/analysis")
            if self.analysis["complete"]:
                break
            assert time.monotonic() < deadline, "the analysis did not finish"
            time.sleep(1)
        self.turns: list[dict[str, Any]] = self.analysis["turns"]


@pytest.fixture(scope="module")
def finished(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Finished]:  # noqa: F811
    yield Finished(server, tmp_path_factory.mktemp("records"))


def open_analysis(chromium: Any, server: Server, game: Finished, width: int, height: int) -> Any:  # noqa: F811
    page = new_page(chromium, width, height)
    page.goto(f"{server.url}/games/{game.id}/analysis")
    expect(page.locator("#turns tr")).to_have_count(len(game.turns))
    expect(page.locator("#progress")).to_be_hidden()
    return page


def open_viewer(chromium: Any, server: Server, game: Finished, width: int, height: int) -> Any:  # noqa: F811
    page = new_page(chromium, width, height)
    page.goto(server.url + "/viewer")
    page.get_by_label("Game record file").set_input_files(str(game.record))
    expect(page.get_by_role("status")).to_contain_text("played")
    expect(page.locator("#turns tr")).to_have_count(len(game.turns) + 1)
    return page


def marked(page: Any, kind: str) -> list[str]:
    """The squares of the board that carry a mark (`played` or `best`), in board order."""
    found: list[str] = page.eval_on_selector_all(
        f"#board .square.mark-{kind}", "(buttons) => buttons.map((b) => b.dataset.square)"
    )
    return found


def squares_of(tiles: list[dict[str, Any]]) -> list[str]:
    order = {f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}": r * 15 + c for r in range(15) for c in range(15)}
    return sorted((tile["square"] for tile in tiles), key=order.__getitem__)


def face_before(turn: dict[str, Any], square: str) -> str:
    """The face on `square` of the board before the turn ("." when empty)."""
    return str(turn["board"][int(square[1:]) - 1]["ABCDEFGHIJKLMNO".index(square[0])])


def a_turn_with_both_marks(game: Finished) -> int:
    """The index of a turn whose play and best play differ and both put tiles down."""
    for index, turn in enumerate(game.turns):
        played, best = turn["played"]["tiles"], turn["best"]["tiles"]
        if played and best and squares_of(played) != squares_of(best):
            return index
    raise AssertionError("no turn of the game has a play unlike the computer's best")


def test_the_analysis_marks_both_moves_and_charts_the_game(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    finished: Finished,
) -> None:
    page = open_analysis(browser, server, finished, 1366, 768)
    count = len(finished.turns)
    names = [player["name"] for player in server.api("GET", f"/api/games/{finished.id}")["players"]]
    # The chart: a line a player, a point and a column a turn, and the points lost.
    chart = page.locator("#chart svg.chart-svg")
    expect(chart).to_have_accessible_name(re.compile("score.*points lost"))
    expect(page.locator("#chart .chart-line")).to_have_count(2 * len(names))
    expect(page.locator("#chart .chart-turn")).to_have_count(count)
    expect(page.locator("#chart .chart-point")).to_have_count(count)
    losing = sum(1 for turn in finished.turns if turn["lost"])
    expect(page.locator("#chart .chart-bar")).to_have_count(losing)
    for number in (1, count // 2, count):
        turn = finished.turns[number - 1]
        point = page.locator(f"#chart .chart-turn[data-turn='{number}'] .chart-point")
        expect(point).to_have_class(re.compile(f"seat-{turn['seat']}"))
    # A click on a turn's column goes to that turn, in the stepper and in the table.
    index = a_turn_with_both_marks(finished)
    page.locator(f"#chart .chart-turn[data-turn='{index + 1}'] .chart-hit").click()
    expect(page.locator("#position")).to_have_text(f"Turn {index + 1} of {count}")
    expect(page.locator("#turns tr").nth(index)).to_have_attribute("aria-current", "true")
    turn = finished.turns[index]
    # The move played is on the board and marked; the computer's best is marked too, its
    # tiles shown on the squares the move played left empty.
    assert marked(page, "played") == squares_of(turn["played"]["tiles"])
    assert marked(page, "best") == squares_of(turn["best"]["tiles"])
    taken = {tile["square"] for tile in turn["played"]["tiles"]}
    on_empty = [
        tile
        for tile in turn["best"]["tiles"]
        if tile["square"] not in taken and face_before(turn, tile["square"]) == "."
    ]
    expect(page.locator("#board .best-face")).to_have_count(len(on_empty))
    first = turn["played"]["tiles"][0]
    expect(page.locator(f"#board [data-square='{first['square']}']")).to_have_attribute(
        "aria-description", re.compile("move played")
    )
    legend = page.locator(".marks-legend")
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("move played")
    expect(legend).to_contain_text("computer's best")
    # Coordinates around the board.
    expect(page.locator(".column-labels span")).to_have_text(list("ABCDEFGHIJKLMNO"))
    expect(page.locator(".row-labels span")).to_have_text([str(n) for n in range(1, 16)])
    # Moves are written with the tiles' faces, in the table and the status line.
    status = page.get_by_role("status")
    expect(status).to_contain_text(turn["played"]["display"])
    expect(status).to_contain_text(turn["best"]["display"])
    cells = page.locator("#turns td.notation").all_inner_texts()
    assert cells and not [cell for cell in cells if CODES.search(cell.split(" ", 1)[1])]
    # A click in the table goes to that turn as well, and the chart follows.
    page.locator("#turns tr").nth(0).click()
    expect(page.locator("#position")).to_have_text(f"Turn 1 of {count}")
    current = page.locator("#chart .chart-current")
    expect(current).to_have_count(1)
    shoot(page, "analysis-marks-chart")
    page.context.close()


def test_the_viewer_marks_each_play_and_charts_the_scores(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    finished: Finished,
) -> None:
    page = open_viewer(browser, server, finished, 1366, 768)
    count = len(finished.turns)
    expect(page.locator("#chart .chart-turn")).to_have_count(count)
    expect(page.locator("#chart .chart-point")).to_have_count(count)
    expect(page.locator("#chart .chart-bar")).to_have_count(0)
    index = next(i for i, turn in enumerate(finished.turns) if turn["played"]["tiles"])
    page.locator(f"#chart .chart-turn[data-turn='{index + 1}'] .chart-hit").click()
    expect(page.locator("#position")).to_have_text(f"Turn {index + 1} of {count}")
    played = finished.turns[index]["played"]
    assert marked(page, "played") == squares_of(played["tiles"])
    assert marked(page, "best") == []
    expect(page.get_by_role("status")).to_contain_text(played["display"])
    expect(page.locator(".row-labels span")).to_have_count(15)
    shoot(page, "viewer-marks-chart")
    page.context.close()


@pytest.mark.parametrize(("width", "height"), [(320, 568), (360, 740), (1366, 768)])
def test_analysis_and_viewer_are_no_wider_than_the_screen_and_do_not_shift(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    finished: Finished,
    width: int,
    height: int,
) -> None:
    for name, opener in (("analysis", open_analysis), ("viewer", open_viewer)):
        page = opener(browser, server, finished, width, height)
        check_fits(page, f"the {name} page, loaded", settled=True)
        # The longest moves shown, and the last turn, the widest the table gets.
        last = page.get_by_role("button", name="Last")
        if last.is_enabled():
            last.click()
        expect(page.locator("#position")).to_have_text(re.compile(r"of (\d+)$"))
        check_fits(page, f"the {name} page, last turn", boxes=(".turns-scroll",))
        chart = page.locator("#chart svg.chart-svg").bounding_box()
        assert chart is not None and chart["x"] + chart["width"] <= width
        shoot(page, f"{name}-{width}")
        page.context.close()


def test_the_analysis_says_how_the_game_ended(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    finished: Finished,
) -> None:
    created = server.new_game([{"name": "Ann"}, {"name": "Bo"}])
    ann, bo = (seat["token"] for seat in created["seats"])
    path = f"/api/games/{created['id']}"
    server.api("POST", f"{path}/moves", {"move": "pass", "turn": 0}, token=ann)
    server.api("POST", f"{path}/moves", {"move": "pass", "turn": 1}, token=bo)
    server.api("POST", f"{path}/resign", token=ann)
    page = new_page(browser, 1366, 768)
    page.goto(f"{server.url}/games/{created['id']}/analysis")
    expect(page.locator("#turns tr")).to_have_count(2)
    expect(page.locator("#ending")).to_have_text("Bo wins. Ann resigned.")
    page.goto(f"{server.url}/games/{finished.id}/analysis")
    view = server.api("GET", f"/api/games/{finished.id}")
    winner = view["players"][view["end"]["winners"][0]]["name"]
    expect(page.locator("#ending")).to_contain_text(f"{winner} wins.")
    expect(page.locator("#ending")).to_contain_text(
        re.compile("scoreless turns in a row|went out with the bag empty")
    )
    page.context.close()


def theme_of(page: Any) -> str:
    theme: str = page.evaluate("document.documentElement.dataset.theme")
    return theme


def test_the_theme_follows_the_system_and_the_switch_is_remembered(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    # A system in dark mode: every page opens dark, with nothing chosen.
    dark = new_page(browser, color_scheme="dark")
    for path in ("/", "/viewer", "/table"):
        dark.goto(server.url + path)
        assert theme_of(dark) == "dark", f"{path} is not dark on a dark system"
        expect(dark.get_by_role("button", name="Dark theme")).to_have_attribute(
            "aria-pressed", "true"
        )
    dark.context.close()
    # A light system: the switch turns the page dark, and the choice is remembered by the
    # page reloaded and by another page of the site.
    page = new_page(browser, color_scheme="light")
    page.goto(server.url + "/")
    assert theme_of(page) == "light"
    light = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    switch = page.get_by_role("button", name="Dark theme")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    assert theme_of(page) == "dark"
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") != light
    shoot(page, "theme-lobby-dark")
    page.reload()
    assert theme_of(page) == "dark"
    assert page.evaluate("localStorage.getItem('binscrabble.theme')") == "dark"
    created = server.new_game([{"name": "Ann"}, {"name": "Bot", "computer": "beginner"}])
    page.goto(server.url + created["seats"][0]["url"])
    expect(page.get_by_role("button", name=re.compile(r"^rack ")).first).to_be_visible()
    assert theme_of(page) == "dark"
    shoot(page, "theme-game-dark")
    # Back to the system's theme: the choice is forgotten, the page follows the system.
    page.get_by_role("button", name="Dark theme").click()
    assert theme_of(page) == "light"
    assert page.evaluate("localStorage.getItem('binscrabble.theme')") is None
    page.context.close()


# Each seat's line's last vertex, and the heights of the scores' 0 and of its top.
CHART_ENDS = """() => {
  const chart = document.querySelector("#chart svg.chart-svg");
  const lines = [...chart.querySelectorAll(":scope > polyline.chart-line")];
  const lastY = (line) => line.getAttribute("points").trim().split(" ").pop().split(",")[1];
  const ends = lines.map((line) => Number(lastY(line)));
  const axis = chart.querySelector(":scope > line.chart-axis");
  const grid = chart.querySelector(":scope > line.chart-grid");
  const top = [...chart.querySelectorAll(":scope > text.chart-label")].map((l) => l.textContent)[0];
  return {ends, zero: Number(axis.getAttribute("y1")), top: Number(grid.getAttribute("y1")),
          most: Number(top)};
}"""


@pytest.mark.parametrize("where", ["analysis", "viewer"])
def test_the_charts_last_point_is_the_final_score_with_the_racks_settled(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    finished: Finished,
    where: str,
) -> None:
    """The stored game is played out: the tiles left on the racks move the final scores
    away from the last turn's totals. The chart's lines end at the final scores (a point
    below the last turn's for the seat left with tiles), and the last column's name says
    that its point is the final scores, the end settled."""
    view = server.api("GET", f"/api/games/{finished.id}")
    final = view["result"]["final"]
    last = finished.turns[-1]["scores"]
    assert final != last, "the stored game's end changes no score"
    opener = open_analysis if where == "analysis" else open_viewer
    page = opener(browser, server, finished, 1366, 768)
    found = page.evaluate(CHART_ENDS)
    scale = (found["zero"] - found["top"]) / found["most"]
    for seat, score in enumerate(final):
        drawn = (found["zero"] - found["ends"][seat]) / scale
        assert abs(drawn - score) < 0.5, f"{where}: seat {seat}'s line ends at {drawn}, not {score}"
    names = [player["name"] for player in view["players"]]
    settled = ", ".join(f"{name} {score}" for name, score in zip(names, final, strict=True))
    column = page.locator(f"#chart .chart-turn[data-turn='{len(finished.turns)}']")
    expect(column).to_have_accessible_name(
        re.compile(
            re.escape(f"the chart ends at the final scores, the end of the game settled: {settled}")
            + "$"
        )
    )
    shoot(page, f"{where}-chart-settled")
    page.context.close()


def test_the_viewers_stepper_waits_for_a_record(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    finished: Finished,
) -> None:
    """Before a record is opened the viewer's First, Back, Forward and Last are disabled
    (there is nothing to step through); a record opened at its first turn enables Forward
    and Last."""
    page = new_page(browser, 1366, 768)
    page.goto(server.url + "/viewer")
    buttons = page.locator(".stepper button")
    expect(buttons).to_have_count(4)
    for button in buttons.all():
        expect(button).to_be_disabled()
    page.get_by_label("Game record file").set_input_files(str(finished.record))
    expect(page.locator("#turns tr")).to_have_count(len(finished.turns) + 1)
    expect(page.locator("#forward")).to_be_enabled()
    expect(page.locator("#last")).to_be_enabled()
    page.context.close()
