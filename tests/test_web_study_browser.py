"""The newcomer's findings on the analysis, the viewer and hints, in a real browser (Debian's
Chromium, as in test_web_browser.py): where hints come from is said on the page and in the
lobby; the analysis's chart works from the keyboard; the viewer says who won; the marks
leave every tile's face readable; the analysis lays out before its script runs.

Screenshots are written under test-artifacts/screenshots/ (study-*.png).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_known_bags import naming_headers
from test_web_browser import (
    DIRECT,
    SCREENSHOTS,
    Server,
    browser,  # noqa: F401  (a fixture)
    check_fits,
    expect,
    new_page,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
)
from web_api_support import store_game, store_played_game

from binscrabble.game import Game
from binscrabble.web.storage import SeatRecord

HINTS_NOTE = "Hints come with the Learning rules"


def test_a_game_without_hints_says_they_come_with_the_learning_rules(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """Newcomer's finding 5: the Hint button existed only under the Learning preset and
    nothing said so. Now it is there, disabled, with a line saying why; the lobby's
    description of each preset says whether it gives hints."""
    for rules, width, height in (({}, 360, 740), ({"preset": "expert"}, 1366, 768)):
        created = server.new_game([{"name": "Ann"}, {"name": "Bo"}], rules)
        page = new_page(browser, width, height, has_touch=width < 400)
        page.goto(server.url + created["seats"][0]["url"])
        expect(page.locator("#turn-info")).to_have_text("Your turn")
        button = page.get_by_role("button", name="Hint", exact=True)
        expect(button).to_be_visible()
        expect(button).to_be_disabled()
        note = page.locator("#hint-note")
        expect(note).to_be_visible()
        expect(note).to_contain_text(HINTS_NOTE)
        expect(button).to_have_accessible_description(note.inner_text())
        shoot(page, f"study-hint-note-{width}")
        page.context.close()
    learning = server.new_game([{"name": "Ann"}, {"name": "Bo"}], {"preset": "learning"})
    page = new_page(browser, 1366, 768)
    page.goto(server.url + learning["seats"][0]["url"])
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    expect(page.get_by_role("button", name="Hint", exact=True)).to_be_enabled()
    expect(page.locator("#hint-note")).to_be_hidden()
    page.goto(server.url + "/")
    page.get_by_text("House rules").click()
    description = page.locator("#preset-description")
    for preset, says in (("standard", "No hints"), ("expert", "No hints"), ("learning", "hints")):
        page.get_by_label("Preset").select_option(preset)
        expect(description).to_contain_text(says)
    page.context.close()


def both_marks(turn: dict[str, Any]) -> bool:
    """Whether a turn's play and best play differ and both put tiles down."""
    played, best = turn["played"]["tiles"], turn["best"]["tiles"]
    return bool(played and best and played != best)


#: The bag of the stored game: with six weak plays, Ann and Bo each put tiles down three
#: times, each time with a better play left for the analysis to find.
PLAYED_SEED = "3"


class Played:
    """A finished game of Ann and Bo stored from a fixed seed: three weak plays each
    (:func:`web_api_support.weak_play`), then six passes; its record file and its analysis."""

    def __init__(self, running: Server, folder: Path) -> None:
        self.id = "played"
        seats = [SeatRecord(0, "Ann", None, "a" * 64), SeatRecord(1, "Bo", None, "b" * 64)]
        moves = store_played_game(running.database, self.id, PLAYED_SEED, seats, plays=6)
        assert "pass" not in moves[:6], f"a seat of the stored game had no play: {moves}"
        path = f"/api/games/{self.id}"
        self.view: dict[str, Any] = running.api("GET", path)
        assert self.view["over"], "six passes did not end the game"
        with DIRECT.open(f"{running.url}{path}/record", timeout=30) as answer:
            self.record = folder / "played.bsr"
            self.record.write_bytes(answer.read())
        deadline = time.monotonic() + 120
        while not (analysis := running.api("GET", f"{path}/analysis"))["complete"]:
            assert time.monotonic() < deadline, "the analysis did not finish"
            time.sleep(0.5)
        self.turns: list[dict[str, Any]] = analysis["turns"]


@pytest.fixture(scope="module")
def played(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:  # noqa: F811
    yield Played(server, tmp_path_factory.mktemp("played"))


def open_record(page: Any, server: Server, record: Path) -> None:  # noqa: F811
    page.goto(server.url + "/viewer")
    page.get_by_label("Game record file").set_input_files(str(record))
    expect(page.locator("#outcome")).to_be_visible()


def test_the_viewer_says_who_won_and_opens_at_the_first_turn(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    played: Played,
) -> None:
    """Newcomer's finding 13: the viewer opened at the last turn and never said who won."""
    names = [player["name"] for player in played.view["players"]]
    final = played.view["result"]["final"]
    winners = [names[seat] for seat in played.view["result"]["winners"]]
    page = new_page(browser, 360, 740, has_touch=True)
    open_record(page, server, played.record)
    outcome = page.locator("#outcome")
    won = f"{winners[0]} wins." if len(winners) == 1 else "A draw between"
    expect(outcome).to_contain_text(won)
    expect(outcome).to_contain_text(f"Final scores: Ann {final[0]}, Bo {final[1]}.")
    expect(outcome).to_contain_text("Six scoreless turns in a row ended the game.")
    # At the top: above the board, inside the first screen of a phone.
    box, board = outcome.bounding_box(), page.locator("#board").bounding_box()
    assert box is not None and board is not None and box["y"] + box["height"] <= board["y"]
    # It opens at the first turn; Forward replays the game in order.
    count = len(played.turns)
    expect(page.locator("#position")).to_have_text(f"Turn 1 of {count}")
    page.get_by_role("button", name="Forward").click()
    expect(page.locator("#position")).to_have_text(f"Turn 2 of {count}")
    shoot(page, "study-viewer-outcome-360")
    # A resignation, told as such.
    created = server.new_game([{"name": "Cy"}, {"name": "Di"}])
    cy, di = (seat["token"] for seat in created["seats"])
    path = f"/api/games/{created['id']}"
    server.api("POST", f"{path}/moves", {"move": "pass", "turn": 0}, token=cy)
    server.api("POST", f"{path}/moves", {"move": "pass", "turn": 1}, token=di)
    server.api("POST", f"{path}/resign", token=di)
    resigned = SCREENSHOTS.parent / "study-resigned.bsr"
    with DIRECT.open(f"{server.url}{path}/record", timeout=30) as answer:
        resigned.write_bytes(answer.read())
    open_record(page, server, resigned)
    expect(page.locator("#outcome")).to_have_text("Cy wins. Final scores: Cy 0, Di 0. Di resigned.")
    page.context.close()


def focused_turn(page: Any) -> int | None:
    """The turn of the chart's column that has the keyboard's focus, if one has."""
    number: str | None = page.evaluate(
        "document.activeElement && document.activeElement.closest('.chart-turn')"
        " ? document.activeElement.dataset.turn : null"
    )
    return None if number is None else int(number)


def test_the_chart_is_used_from_the_keyboard(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    played: Played,
) -> None:
    """Newcomer's finding: the chart could not be used from the keyboard. Its columns are
    one Tab stop, named with turn, scores and points lost; arrows move, Enter and Space go
    to the turn; the focused column is framed."""
    count = len(played.turns)
    names = [player["name"] for player in played.view["players"]]
    for theme in ("light", "dark"):
        page = new_page(browser, 1366, 768, color_scheme=theme)
        page.goto(f"{server.url}/games/{played.id}/analysis")
        expect(page.locator("#turns tr")).to_have_count(count)
        expect(page.locator("#position")).to_have_text(f"Turn 1 of {count}")
        for _ in range(40):
            page.keyboard.press("Tab")
            if focused_turn(page) is not None:
                break
        assert focused_turn(page) == 1, "Tab never reached the chart's column of the turn shown"
        first = played.turns[0]
        scores = ", ".join(f"{name} {first['scores'][seat]}" for seat, name in enumerate(names))
        lost = first["lost"]
        expect(page.locator(".chart-turn[data-turn='1']")).to_have_accessible_name(
            re.compile(
                rf"^Turn 1: {names[first['seat']]} played .* for \d+ points?; "
                rf"scores: {re.escape(scores)}; {lost} points? lost$"
            )
        )
        expect(page.get_by_role("button", name=re.compile(r"^Turn \d+: "))).to_have_count(count)
        # Arrows move the focus, not the turn shown; Enter goes there and the focus stays.
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert focused_turn(page) == 3
        expect(page.locator("#position")).to_have_text(f"Turn 1 of {count}")
        page.keyboard.press("Enter")
        expect(page.locator("#position")).to_have_text(f"Turn 3 of {count}")
        assert focused_turn(page) == 3
        ring = page.evaluate(
            "(() => { const hit = document.activeElement.querySelector('.chart-hit');"
            " const style = getComputedStyle(hit); return [style.stroke, style.strokeWidth]; })()"
        )
        focus = page.evaluate(
            "getComputedStyle(document.documentElement).getPropertyValue('--focus').trim()"
        )
        rgb = tuple(int(focus[at : at + 2], 16) for at in (1, 3, 5))
        assert ring == [f"rgb({rgb[0]}, {rgb[1]}, {rgb[2]})", "3px"], ring
        page.keyboard.press("End")
        page.keyboard.press(" ")
        expect(page.locator("#position")).to_have_text(f"Turn {count} of {count}")
        assert focused_turn(page) == count
        page.keyboard.press("Home")
        assert focused_turn(page) == 1
        page.keyboard.press("ArrowRight")
        shoot(page, f"study-chart-focus-{theme}")
        page.context.close()


# For each square with a mark: the square's and the face's boxes, the background under the
# face, and each mark's pseudo-element (frame style and colour, its fill, its corner).
MARKS = """
(kind) => [...document.querySelectorAll(`#board .square.mark-${kind}`)].map((square) => {
  const part = kind === "played" ? "::after" : "::before";
  const mark = getComputedStyle(square, part);
  const face = square.querySelector(".glyph:not(:empty), .best-face");
  const box = (node) => { const r = node.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height }; };
  return {
    square: square.dataset.square, tile: square.classList.contains("has-tile"),
    box: box(square), face: face ? box(face) : null,
    background: getComputedStyle(square).backgroundColor,
    border: mark.borderTopStyle, width: mark.borderTopWidth, colour: mark.borderTopColor,
    fill: mark.backgroundColor, corner: mark.backgroundPosition,
    shadow: getComputedStyle(square).boxShadow,
  };
})
"""


def luminance(colour: str) -> float:
    """The relative luminance of a CSS ``rgb(r, g, b)`` colour (WCAG)."""
    channels = [int(part) / 255 for part in re.findall(r"\d+", colour)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def a_turn_with_both_marks(turns: list[dict[str, Any]]) -> int:
    """The index of a turn whose play and best play differ and both put tiles down."""
    for index, turn in enumerate(turns):
        if both_marks(turn):
            return index
    facts = [(turn["played"]["display"], turn["best"]["display"], turn["reason"]) for turn in turns]
    raise AssertionError(f"no turn of the game has a play unlike the computer's best: {facts}")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_marks_leave_every_face_readable(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    played: Played,
    theme: str,
) -> None:
    """Newcomer's finding 7: on a phone the marks of the move played and of the best move
    hid the tiles' faces. Each mark is a frame at the square's edge and a corner, never a
    fill: the face's box keeps clear of both; solid against dashed, top-left against
    top-right, tell them apart without colour; each stands 3:1 against what it is on."""
    index = a_turn_with_both_marks(played.turns)
    page = new_page(browser, 360, 740, has_touch=True, color_scheme=theme)
    page.goto(f"{server.url}/games/{played.id}/analysis")
    expect(page.locator("#turns tr")).to_have_count(len(played.turns))
    page.locator("#turns tr").nth(index).click()
    expect(page.locator("#position")).to_have_text(f"Turn {index + 1} of {len(played.turns)}")
    # An unmarked tile's look, from a tile square put on the board for the measure.
    plain_tile, plain_shadow = page.evaluate(
        """(() => { const probe = document.createElement("button");
        probe.className = "square has-tile"; document.querySelector("#board").append(probe);
        const style = getComputedStyle(probe);
        const look = [style.backgroundColor, style.boxShadow];
        probe.remove(); return look; })()"""
    )
    marks = {kind: page.evaluate(MARKS, kind) for kind in ("played", "best")}
    assert marks["played"] and marks["best"], marks
    for kind, style, corner in (("played", "solid", "0% 0%"), ("best", "dashed", "100% 0%")):
        for mark in marks[kind]:
            where = f"{kind} mark on {mark['square']} ({theme})"
            both = mark["square"] in {other["square"] for other in marks["played"]}
            # Where both mark a square, the best is its corner alone (inside the frame).
            frame = "none" if kind == "best" and both else style
            assert mark["border"] == frame and mark["corner"] == corner, where
            assert mark["fill"] == "rgba(0, 0, 0, 0)", where
            if mark["tile"]:
                assert mark["background"] == plain_tile, f"{where}: the tile is filled"
                assert mark["shadow"] == plain_shadow, f"{where}: a frame over the face"
            ground = mark["background"]
            assert contrast(mark["colour"], ground) >= 3, f"{where}: {mark['colour']} on {ground}"
            # The face keeps clear of the frame (its width, twice where both marks are)
            # and of the corner triangles (a third of the square, cut on the diagonal).
            box, face = mark["box"], mark["face"]
            if face is None:
                continue
            edge = 2.0
            assert face["x"] >= box["x"] + edge and face["y"] >= box["y"] + edge, where
            right, bottom = box["x"] + box["width"], box["y"] + box["height"]
            assert face["x"] + face["width"] <= right - edge, where
            assert face["y"] + face["height"] <= bottom - edge, where
            reach = 0.34 * box["width"]
            assert (face["x"] - box["x"]) + (face["y"] - box["y"]) >= reach, where
            assert (right - face["x"] - face["width"]) + (face["y"] - box["y"]) >= reach, where
    shoot(page, f"study-marks-360-{theme}")
    page.context.close()


def slowly(page: Any) -> None:
    """Every answer of the API 0.4 s late: the page paints its frame before its data."""

    def slow(route: Any) -> None:
        time.sleep(0.4)
        route.continue_()

    page.route("**/api/**", slow)


@pytest.mark.parametrize(("width", "height"), [(360, 740), (768, 1024), (1366, 768)])
def test_the_boards_are_sized_before_the_script_runs(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    played: Played,
    width: int,
    height: int,
) -> None:
    """Newcomer's finding: the analysis, viewer and table boards got their size only from
    their script. Without any script the analysis's and the viewer's boards already have
    the size they are drawn at; with every API answer late, the analysis, the viewer and a
    table game shift their layout by less than 0.1 as they load."""
    analysis = f"{server.url}/games/{played.id}/analysis"
    sizes = {}
    for script in (False, True):
        context = browser.new_context(
            viewport={"width": width, "height": height}, java_script_enabled=script
        )
        context.set_extra_http_headers(naming_headers())
        page = context.new_page()
        for name, address in (("analysis", analysis), ("viewer", server.url + "/viewer")):
            page.goto(address)
            if script:
                expect(page.locator("#board .square")).to_have_count(225)
            box = page.locator("#board").bounding_box()
            assert box is not None and box["width"] > 200, f"{name}: no board ({script=})"
            sizes[name, script] = (round(box["width"]), round(box["height"]), round(box["y"]))
        context.close()
    for name in ("analysis", "viewer"):
        assert sizes[name, False] == sizes[name, True], (name, sizes)
        assert sizes[name, True][0] == sizes[name, True][1], (name, sizes)
    page = new_page(browser, width, height, has_touch=width < 400)
    slowly(page)
    page.goto(analysis)
    expect(page.locator("#turns tr")).to_have_count(len(played.turns))
    expect(page.locator("#ending")).not_to_be_empty()
    check_fits(page, f"the analysis at {width}x{height}", boxes=(".turns-scroll",), settled=True)
    page.context.close()
    page = new_page(browser, width, height, has_touch=width < 400)
    slowly(page)
    page.goto(server.url + "/viewer")
    expect(page.locator("#board .square")).to_have_count(225)
    check_fits(page, f"the viewer at {width}x{height}", settled=True)
    page.context.close()
    players = [{"name": "Ada"}, {"name": "Bob"}]
    table = server.api("POST", "/api/games", {"players": players, "table": True})
    body = {"move": "8H 1=1", "turn": 0}
    server.api("POST", f"/api/games/{table['id']}/moves", body, token=table["seats"][0]["token"])
    page = new_page(browser, width, height, has_touch=width < 400)
    slowly(page)
    page.goto(f"{server.url}/table/{table['id']}")
    expect(page.locator("#log tr")).to_have_count(1)
    check_fits(page, f"a table game at {width}x{height}", settled=True)
    page.context.close()


@pytest.fixture(scope="module")
def narrated(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:  # noqa: F811
    """A stored game of Ann and Bo: Ann passes, Bo exchanges three tiles, then four passes
    end it, both final scores below 0 (the tiles left on the racks); analysed. Its record."""
    seats = [SeatRecord(0, "Ann", None, "c" * 64), SeatRecord(1, "Bo", None, "d" * 64)]

    def choose(game: Game, turn: int) -> str:
        return "-" + game.rack()[:3] if turn == 1 else "pass"

    moves = store_game(server.database, "narrated", PLAYED_SEED, seats, choose)
    assert moves[0] == "pass" and moves[1].startswith("-") and len(moves) == 6, moves
    with DIRECT.open(f"{server.url}/api/games/narrated/record", timeout=30) as answer:
        record = tmp_path_factory.mktemp("narrated") / "narrated.bsr"
        record.write_bytes(answer.read())
    deadline = time.monotonic() + 120
    while not server.api("GET", "/api/games/narrated/analysis")["complete"]:
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.5)
    yield record


def test_a_pass_and_an_exchange_are_said_as_such(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    narrated: Path,
) -> None:
    """The viewer's status line read "Ann played pass for 0 points" (and the analysis and
    the charts' turns the same): a pass and an exchange are said as such, in English and
    in French."""
    page = new_page(browser, 1366, 768)
    open_record(page, server, narrated)
    status = page.locator("#status")
    expect(status).to_have_text("Ann passed.")
    expect(page.locator(".chart-turn[data-turn='1']")).to_have_accessible_name(
        re.compile(r"^Turn 1: Ann passed; scores: ")
    )
    page.get_by_role("button", name="Forward", exact=True).click()
    expect(status).to_have_text("Bo exchanged 3 tiles.")
    expect(page.locator(".chart-turn[data-turn='2']")).to_have_accessible_name(
        re.compile(r"^Turn 2: Bo exchanged 3 tiles; scores: ")
    )
    for lang, passed, exchanged in (
        ("en", "Turn 1: Ann passed, ", "Turn 2: Bo exchanged 3 tiles, "),
        ("fr", "Tour 1\u00a0: Ann a passé, ", "Tour 2\u00a0: Bo a échangé 3 jetons, "),
    ):
        page.goto(f"{server.url}/games/narrated/analysis?lang={lang}")
        expect(status).to_contain_text(passed)
        page.locator("#forward").click()
        expect(status).to_contain_text(exchanged)
        expect(page.locator(".chart-turn[data-turn='2']")).to_have_accessible_name(
            re.compile(f"^{re.escape(exchanged[:-2])} ?; ")
        )
    shoot(page, "study-narrated-analysis")
    page.context.close()


def chart_geometry(page: Any) -> dict[str, Any]:
    """The chart's points (their heights), the top and bottom of its lines' panel (the
    columns' hit areas of a chart without bars), its bars' tops and its labels."""
    found: dict[str, Any] = page.evaluate(
        """() => {
          const chart = document.querySelector("#chart svg.chart-svg");
          const all = (selector, read) => [...chart.querySelectorAll(selector)].map(read);
          const number = (name) => (node) => Number(node.getAttribute(name));
          return {
            points: all(".chart-point", number("cy")),
            lines: all(".chart-line", (line) => line.getAttribute("points")),
            hits: all(".chart-hit", (hit) => [Number(hit.getAttribute("y")),
              Number(hit.getAttribute("y")) + Number(hit.getAttribute("height"))]),
            bars: all(".chart-bar", number("y")),
            labels: all(".chart-label", (label) => label.textContent),
          };
        }"""
    )
    return found


def test_the_chart_draws_scores_below_zero_inside_it(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    narrated: Path,
) -> None:
    """The viewer's chart drew final scores below 0 (tiles left on the racks) under its own
    bottom, off the chart: its scale now runs from the lowest score, labelled, to the
    highest. The analysis's chart (the same code) keeps its points above its bars."""
    page = new_page(browser, 1366, 768)
    open_record(page, server, narrated)
    expect(page.locator("#chart .chart-point")).to_have_count(6)
    viewer = chart_geometry(page)
    top, bottom = viewer["hits"][0]
    heights = viewer["points"] + [
        float(pair.split(",")[1]) for line in viewer["lines"] for pair in line.split()
    ]
    assert all(top <= height <= bottom for height in heights), (heights, top, bottom)
    assert "−10" in viewer["labels"], viewer["labels"]
    page.goto(f"{server.url}/games/narrated/analysis")
    expect(page.locator("#chart .chart-point")).to_have_count(6)
    analysis = chart_geometry(page)
    assert analysis["bars"], "no turn of the analysed game lost points"
    assert max(analysis["points"]) < min(analysis["bars"]), analysis
    shoot(page, "study-negative-chart")
    page.context.close()


def test_each_departure_has_its_line_in_the_log(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """In a game of three, a resignation while the others played on got no line in the
    moves log (only the departure that ended the game did). Each departure is now said at
    its place, on the game page and in the analysis."""
    created = server.new_game([{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}])
    ann, bo, cy = (seat["token"] for seat in created["seats"])
    path = f"/api/games/{created['id']}"
    server.api("POST", f"{path}/moves", {"move": "pass", "turn": 0}, token=ann)
    server.api("POST", f"{path}/moves", {"move": "pass", "turn": 1}, token=bo)
    server.api("POST", f"{path}/resign", token=bo)
    page = new_page(browser, 1366, 768)
    page.goto(server.url + created["seats"][2]["url"])
    rows = page.locator("#log tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(2)).to_have_text("—Bo resigned.")
    server.api("POST", f"{path}/moves", {"move": "pass", "turn": 2}, token=cy)
    server.api("POST", f"{path}/resign", token=ann)
    page.reload()
    expect(rows).to_have_count(5)
    # Cell by cell (each expectation waits out a log the page is still drawing).
    cells = [rows.nth(index).locator("th, td") for index in range(5)]
    expect(cells[2]).to_have_text(["—", "Bo resigned."])
    expect(cells[3].nth(0)).to_have_text("3")
    expect(cells[3].nth(1)).to_have_text("Cy")
    expect(cells[4]).to_have_text(["—", "Ann resigned."])
    shoot(page, "study-departures-log")
    deadline = time.monotonic() + 120
    while not server.api("GET", f"{path}/analysis")["complete"]:
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.5)
    page.goto(f"{server.url}/games/{created['id']}/analysis")
    turns = page.locator("#turns tr")
    expect(turns).to_have_count(4)
    expect(turns.nth(2)).to_have_text("—Bo resigned.")
    expect(page.locator("#position")).to_have_text("Turn 1 of 3")
    page.locator("#forward").click()
    page.locator("#forward").click()
    expect(page.locator("#position")).to_have_text("Turn 3 of 3")
    expect(turns.nth(3)).to_have_attribute("aria-current", "true")
    expect(page.locator("#ending")).to_contain_text("Ann resigned.")
    shoot(page, "study-departures-analysis")
    page.context.close()
