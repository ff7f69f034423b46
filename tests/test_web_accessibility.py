"""axe-core on every page, in the light and the dark theme, in a real browser (Debian's
Chromium, as in test_web_browser.py): no serious or critical violation anywhere. axe-core
comes inside the axe-playwright-python package; nothing is fetched while the tests run.

The pages: the lobby, a game page during play (untimed, and with clocks), the end screen,
the analysis, the record viewer with a record open, and the referee's table page, set up
and during play. The violations found (of any impact) are printed with their counts, page
by page and theme by theme (`pytest -s`).

Also here: boxes that scroll take the keyboard's focus and have a name, and the moves
log's header stays in view when the log scrolls.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from test_web_analysis_browser import Finished
from test_web_browser import (
    Server,
    browser,  # noqa: F401  (a fixture)
    expect,
    finished_game,
    new_page,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
)

sync_axe = pytest.importorskip(
    "axe_playwright_python.sync_playwright",
    reason="the axe-playwright-python package is missing: pip install -e '.[dev]'",
)
AXE = sync_axe.Axe()
# The impacts that fail the test; "minor" and "moderate" ones are printed only.
FAILING = ("serious", "critical")
THEMES = ("light", "dark")


@pytest.fixture(scope="module")
def finished(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Finished]:  # noqa: F811
    yield Finished(server, tmp_path_factory.mktemp("records"))


def in_play(server: Server, page: Any) -> None:  # noqa: F811
    """A game page during play, after a turn of each player (the log has rows)."""
    created = server.new_game([{"name": "Ann"}, {"name": "Bot", "computer": "beginner"}])
    page.goto(server.url + created["seats"][0]["url"])
    page.get_by_role("button", name="Pass", exact=True).click()
    expect(page.locator("#log tr")).to_have_count(2)
    expect(page.locator("#turn-info")).to_have_text("Your turn")


def timed(server: Server, page: Any) -> None:  # noqa: F811
    """A game page with live clocks, the seat's own clock running."""
    players = [{"name": "Ann"}, {"name": "Bo"}]
    clock = {"kind": "live", "seconds": 600}
    created = server.api("POST", "/api/games", {"players": players, "clock": clock})
    # Bo has opened the game too: the clocks run once both have.
    server.api("GET", f"/api/games/{created['id']}", token=created["seats"][1]["token"])
    page.goto(server.url + created["seats"][0]["url"])
    expect(page.locator(".clock.running")).to_have_count(1)


def pages(server: Server, finished: Finished) -> dict[str, Any]:  # noqa: F811
    """Each page to check: how to open it in a page of the browser."""
    over = finished_game(server)

    def analysis(page: Any) -> None:
        page.goto(f"{server.url}/games/{finished.id}/analysis")
        expect(page.locator("#turns tr")).to_have_count(len(finished.turns))
        expect(page.locator("#progress")).to_be_hidden()

    def viewer(page: Any) -> None:
        page.goto(server.url + "/viewer")
        page.get_by_label("Game record file").set_input_files(str(finished.record))
        expect(page.locator("#turns tr")).to_have_count(len(finished.turns) + 1)

    def end(page: Any) -> None:
        page.goto(f"{server.url}/games/{over}")
        expect(page.get_by_role("region", name="Game over")).to_be_visible()

    def long_end(page: Any) -> None:
        page.goto(f"{server.url}/games/{finished.id}")
        expect(page.get_by_role("region", name="Game over")).to_be_visible()

    def lobby(page: Any) -> None:
        page.goto(server.url + "/")
        expect(page.get_by_role("button", name="Start the game")).to_be_visible()

    def table(page: Any) -> None:
        page.goto(server.url + "/table")
        expect(page.get_by_role("button", name="Start the game")).to_be_visible()

    def table_play(page: Any) -> None:
        players = [{"name": "Ada"}, {"name": "Bob"}]
        created = server.api("POST", "/api/games", {"players": players, "table": True})
        token = created["seats"][0]["token"]
        body = {"move": "8H 1=1", "turn": 0}
        server.api("POST", f"/api/games/{created['id']}/moves", body, token=token)
        page.goto(f"{server.url}/table/{created['id']}")
        expect(page.locator("#log tr")).to_have_count(1)

    return {
        "lobby": lobby,
        "game": lambda page: in_play(server, page),
        "clocks": lambda page: timed(server, page),
        "end": end,
        "end-long": long_end,
        "analysis": analysis,
        "viewer": viewer,
        "table": table,
        "table-play": table_play,
    }


def summary(violations: list[dict[str, Any]]) -> str:
    return ", ".join(f"{v['id']} ({v['impact']}) ×{len(v['nodes'])}" for v in violations) or "none"


@dataclass
class Seen:
    """One page in one theme as the browser drew it: the theme the page took, axe-core's
    violations, and the texts of its first-level headings."""

    theme: str
    violations: list[dict[str, Any]]
    headings: list[str]


@pytest.fixture(scope="module")
def seen(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    finished: Finished,
) -> dict[tuple[str, str], Seen]:
    """Each page in each theme, opened once and checked by axe-core once, for the tests
    below that read it (each page shot too)."""
    found = {}
    for name, opener in pages(server, finished).items():
        for theme in THEMES:
            page = new_page(browser, 1280, 900, color_scheme=theme)
            opener(page)
            taken = page.evaluate("document.documentElement.dataset.theme")
            violations = AXE.run(page).response["violations"]
            headings = page.get_by_role("heading", level=1).all_inner_texts()
            found[name, theme] = Seen(taken, violations, headings)
            shoot(page, f"axe-{name}-{theme}")
            page.context.close()
    return found


def test_axe_finds_no_serious_violation_on_any_page_in_either_theme(
    seen: dict[tuple[str, str], Seen],
) -> None:
    failing: list[str] = []
    print("\naxe-core violations, by page and theme:")
    for (name, theme), drawn in seen.items():
        assert drawn.theme == theme, f"{name}: the page took the {drawn.theme} theme, not {theme}"
        print(f"  {name:9} {theme:5} {summary(drawn.violations)}")
        for violation in drawn.violations:
            if violation["impact"] in FAILING:
                targets = [node["target"] for node in violation["nodes"][:5]]
                failing.append(f"{name} ({theme}): {violation['id']} on {targets}")
    assert failing == [], "\n".join(failing)


def test_the_moves_log_scrolls_by_keyboard_under_a_header_that_stays(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    finished: Finished,
) -> None:
    page = new_page(browser, 1280, 900)
    page.goto(f"{server.url}/games/{finished.id}")
    log = page.get_by_role("region", name="Moves")
    expect(log).to_have_attribute("tabindex", "0")
    expect(page.locator("#log tr")).to_have_count(len(finished.turns))
    assert log.evaluate("(box) => box.scrollHeight > box.clientHeight"), "the log does not scroll"
    log.evaluate("(box) => { box.scrollTop = 0; }")
    # Tab reaches the log; the keyboard scrolls it.
    for _ in range(40):
        page.keyboard.press("Tab")
        if log.evaluate("(box) => document.activeElement === box"):
            break
    else:
        raise AssertionError("Tab never reaches the moves log")
    page.keyboard.press("End")
    page.wait_for_function(
        "() => document.querySelector('.log-scroll').scrollTop > 0", timeout=5_000
    )
    box = log.bounding_box()
    head = page.locator("#log-head th").first.bounding_box()
    assert box is not None and head is not None
    assert abs(head["y"] - box["y"]) <= 2, "the log's header scrolled away with the log"
    shoot(page, "log-scrolled")
    # The analysis' list of turns and the viewer's: reachable and named too.
    page.goto(f"{server.url}/games/{finished.id}/analysis")
    turns = page.get_by_role("region", name="turns")
    expect(turns).to_have_attribute("tabindex", "0")
    page.context.close()


def test_the_focus_ring_is_drawn_above_its_neighbours(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    page = new_page(browser, 1280, 900)
    page.goto(server.url + "/viewer")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches(':focus-visible')")
    ring = page.evaluate(
        """() => {
            const style = getComputedStyle(document.activeElement);
            return [style.outlineStyle, style.outlineWidth, style.zIndex, style.position];
        }"""
    )
    assert ring[0] == "solid" and ring[1] == "3px"
    assert int(ring[2]) > 0 and ring[3] != "static", f"the ring can hide under a neighbour: {ring}"
    page.context.close()


def test_every_page_has_one_h1(seen: dict[tuple[str, str], Seen]) -> None:
    """Each page has exactly one first-level heading (axe-core's moderate
    "page-has-heading-one" is not found either), in either theme: the game and table pages'
    is the site's name in the header, the lobby's its title, the analysis and viewer's the
    page's title."""
    missing: list[str] = []
    for (name, theme), drawn in seen.items():
        found = {violation["id"] for violation in drawn.violations}
        if len(drawn.headings) != 1 or "page-has-heading-one" in found:
            missing.append(f"{name} ({theme}): {len(drawn.headings)} h1 ({drawn.headings})")
    assert missing == [], "\n".join(missing)
