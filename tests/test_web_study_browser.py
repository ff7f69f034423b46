"""The newcomer's findings on the analysis, the viewer and hints, in a real browser (Debian's
Chromium, as in test_web_browser.py): where hints come from is said on the page and in the
lobby; the analysis's chart works from the keyboard; the viewer says who won; the marks
leave every tile's face readable; the analysis lays out before its script runs.

Screenshots are written under test-artifacts/screenshots/ (study-*.png).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import (
    DIRECT,
    SCREENSHOTS,
    Server,
    browser,  # noqa: F401  (a fixture)
    expect,
    move_notation,
    new_page,
    pick_move,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
)

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


class Played:
    """A finished game of Ann and Bo: a few plays each, then six passes; its record file and
    its analysis."""

    def __init__(self, running: Server, folder: Path, plays: int = 6) -> None:
        created = running.new_game([{"name": "Ann"}, {"name": "Bo"}])
        self.id = str(created["id"])
        tokens = [seat["token"] for seat in created["seats"]]
        path = f"/api/games/{self.id}"
        for turn in range(plays + 6):
            view = running.api("GET", path, token=tokens[turn % 2])
            if view["over"]:  # a seat with no play passed: the passes came sooner
                break
            found = pick_move(view, 4) if turn < plays else None
            move = move_notation(found[1].place, found[0].board) if found else "pass"
            running.api("POST", f"{path}/moves", {"move": move, "turn": turn}, tokens[turn % 2])
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
