"""The web app in each of its four languages, page by page, in a real browser (Debian's
Chromium, as in test_web_browser.py): the lobby, a whole game against the computer on a
360×740 phone (two plays typed in the Move box, then passes until the game ends), its end
screen, its analysis and the record viewer, then the same pages at 1366×768.

`make test` runs the phone's pages in every language, where the languages differ (their
words' lengths, Hebrew's direction), and the 1366×768 repeat in Hebrew; the repeat in
English, French and Bulgarian (the same pages, wider, axe-core's run again) is marked
`full` and runs in `make test-full` (docs/deploy.md, "Tests"), each after a phone's game of
its own.

On every page: `<html lang dir>` of the language chosen with `?lang=` (and remembered by
the cookie for the pages after it), the page no wider than the screen (French and
Bulgarian words are longer), and axe-core with no serious or critical violation. In Hebrew
also: the board's squares in the same order as in English (A to O from the left), and the
equation of a play in the status box in logical order, drawn left to right.

The page is driven by ids and faces, never by its words, so the same steps serve every
language. Screenshots: test-artifacts/screenshots/lang-LANG-PAGE-WIDTHxHEIGHT.png.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from test_web_accessibility import AXE, FAILING
from test_web_browser import (
    DIRECT,
    Server,
    browser,  # noqa: F401  (a fixture)
    expect,
    game_id_of,
    game_of_view,
    new_page,
    pick_move,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
    token_of,
)
from test_web_rtl_browser import check_board_left_to_right, text_drawn_left_to_right

from binscrabble.move import display_notation, move_notation

# Each language, its direction and a player's name written in it.
LANGUAGES = {
    "en": ("ltr", "Ann"),
    "fr": ("ltr", "Amélie"),
    "he": ("rtl", "נועה"),
    "bg": ("ltr", "Мария"),
}
PHONE = (360, 740)
#: The notation of a play (a coordinate first), not of a pass or an exchange.
PLAY = re.compile(r"(?:\d+[A-O]|[A-O]\d+) ")
DESKTOP = (1366, 768)
MAX_TURNS = 200
PLAYS = 2


def open_in(browser: Any, language: str, size: tuple[int, int]) -> Any:  # noqa: F811
    """A page of a browser whose cookie says `language` (chosen once with ?lang=)."""
    width, height = size
    phone = width < 600
    options = {"has_touch": True, "is_mobile": True, "device_scale_factor": 2} if phone else {}
    return new_page(browser, width, height, **options)


def check_page(page: Any, language: str, what: str, failures: list[str]) -> None:
    """What holds on every page in every language; axe-core's serious findings are kept in
    `failures`, and the page is shot."""
    direction = LANGUAGES[language][0]
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("html")).to_have_attribute("dir", direction)
    width = page.viewport_size["width"]
    height = page.viewport_size["height"]
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{language} {what}: the page is {wide} px wide on a {width} px screen"
    if direction == "rtl" and page.locator('[data-square="A1"]').count():
        check_board_left_to_right(page)
    for violation in AXE.run(page).response["violations"]:
        if violation["impact"] in FAILING:
            targets = [node["target"] for node in violation["nodes"][:5]]
            failures.append(f"{language} {what} {width}px: {violation['id']} on {targets}")
    shoot(page, f"lang-{language}-{what}-{width}x{height}")


def wait_for_seat(page: Any, server: Server, game_id: str, token: str) -> dict[str, Any]:  # noqa: F811
    """This seat's turn or the game's end, once the page shows that view (its log has a row
    for each turn played)."""
    for _ in range(1200):  # 60 seconds at most
        view: dict[str, Any] = server.api("GET", f"/api/games/{game_id}", token=token)
        if view["over"] or view["to_move"] == view["seat"]:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the computer did not move")
    expect(page.locator("#log tr")).to_have_count(view["turn"])
    return view


def check_equation_in_status(page: Any, server: Server, notation: str) -> None:  # noqa: F811
    """The play's notation and each run's equation and sum in the status box: their DOM
    text as the server wrote them (logical order), drawn left to right whatever the page's
    direction."""
    status = page.locator("#status")
    expect(status).to_contain_text(display_notation(notation))
    text_drawn_left_to_right(status, display_notation(notation))
    game_id, token = game_id_of(page), token_of(page)
    language = page.evaluate("document.documentElement.lang")
    path = f"/api/games/{game_id}/preview?lang={language}"
    preview = server.api("POST", path, {"move": notation}, token=token)
    for run in preview["runs"]:
        text_drawn_left_to_right(status, run["display"])
        text_drawn_left_to_right(status, run["sum"])


def play_to_the_end(
    page: Any,
    server: Server,  # noqa: F811
    language: str,
    failures: list[str],
) -> dict[str, Any]:
    """Seat 0 plays PLAYS plays typed in the Move box (the first turns it can: before its
    first play, a rack without one is exchanged), then passes until the game ends; at least
    one play is made, so its status is checked."""
    game_id, token = game_id_of(page), token_of(page)
    played = 0
    for _ in range(MAX_TURNS):
        view = wait_for_seat(page, server, game_id, token)
        if view["over"]:
            assert played, "no play was found for this seat in the whole game"
            return view
        found = pick_move(view, most_tiles=7) if played < PLAYS else None
        if found is None and not played and view["bag"] >= game_of_view(view).rules.rack_size:
            # No play on this rack yet: new tiles (the seat needs a play before the end).
            page.locator("#move").fill(f"exchange {view['rack']}")
            page.locator("#move").press("Enter")
        elif found is None:
            page.locator("#pass").click()
        else:
            game, move = found
            notation = move_notation(move.place, game.board)
            box = page.locator("#move")
            box.fill(notation)
            expect(page.locator("#status")).to_have_attribute("data-kind", "legal")
            check_equation_in_status(page, server, notation)
            if played == 0:
                check_page(page, language, "game", failures)
            box.press("Enter")
            played += 1
        page.wait_for_function(
            "(turn) => document.querySelectorAll('#log tr').length > turn", arg=view["turn"]
        )
    raise AssertionError(f"the game did not end within {MAX_TURNS} turns")


def record_file(server: Server, game_id: str, folder: Path) -> Path:  # noqa: F811
    with DIRECT.open(f"{server.url}/api/games/{game_id}/record", timeout=30) as answer:
        path = folder / f"{game_id}.bsr"
        path.write_bytes(answer.read())
    return path


def visit_after_the_game(
    page: Any,
    server: Server,  # noqa: F811
    language: str,
    game: tuple[str, int, Path],
    failures: list[str],
) -> None:
    """The end screen, the analysis and the viewer of a finished game."""
    game_id, turns, record = game
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator("#result")).to_be_visible()
    check_page(page, language, "end", failures)
    page.goto(f"{server.url}/games/{game_id}/analysis")
    expect(page.locator("#turns tr")).to_have_count(turns, timeout=90_000)
    expect(page.locator("#progress")).to_be_hidden(timeout=90_000)
    # The status names a turn's play: drawn left to right inside the sentence. (A pass or
    # an exchange is said in words, so the first turn that is a play is chosen.)
    analysis = server.api("GET", f"/api/games/{game_id}/analysis?lang={language}")
    played = [turn["played"] for turn in analysis["turns"]]
    index = next(at for at, move in enumerate(played) if PLAY.match(move["notation"]))
    page.locator("#turns tr").nth(index).click()
    expect(page.locator("#status")).to_contain_text(played[index]["display"])
    text_drawn_left_to_right(page.locator("#status"), played[index]["display"])
    check_page(page, language, "analysis", failures)
    page.goto(f"{server.url}/viewer")
    page.locator("#file").set_input_files(str(record))
    expect(page.locator("#turns tr")).to_have_count(turns + 1)
    check_page(page, language, "viewer", failures)


# Each language's run, and whether it goes on to the desktop's pages: in `make test` for
# Hebrew (right to left: phone and desktop), in `make test-full` for the others (each of
# those plays the phone's game first, then the desktop's pages).
RUNS = [
    pytest.param("he", True, id="he"),
    *(
        pytest.param(language, True, id=f"{language}-desktop", marks=pytest.mark.full)
        for language in ("en", "fr", "bg")
    ),
]


@pytest.mark.parametrize(("language", "desktop"), RUNS)
def test_a_whole_game_and_every_page_in_each_language(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    tmp_path: Path,
    language: str,
    desktop: bool,
) -> None:
    failures: list[str] = []
    page = open_in(browser, language, PHONE)
    page.goto(f"{server.url}/?lang={language}")
    expect(page.locator("#level option")).not_to_have_count(0)
    check_page(page, language, "lobby", failures)
    page.locator("input[name=human]").fill(LANGUAGES[language][1])
    page.locator("#level").select_option("beginner")
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_url(lambda url: "/games/" in url and "token=" not in url)
    # The cookie keeps the language chosen on the lobby: the game page has no ?lang=.
    assert "lang=" not in page.url
    view = play_to_the_end(page, server, language, failures)
    assert view["over"]
    game_id = game_id_of(page)
    expect(page.locator("#result")).to_be_visible()
    game = (game_id, len(view["moves"]), record_file(server, game_id, tmp_path))
    visit_after_the_game(page, server, language, game, failures)
    page.context.close()
    if not desktop:
        assert failures == [], "\n".join(failures)
        return
    page = open_in(browser, language, DESKTOP)
    page.goto(f"{server.url}/?lang={language}")
    expect(page.locator("#level option")).not_to_have_count(0)
    check_page(page, language, "lobby", failures)
    visit_after_the_game(page, server, language, game, failures)
    page.context.close()
    assert failures == [], "\n".join(failures)
