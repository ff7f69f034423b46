"""Games that end, in a real browser (Debian's Chromium, as tests/test_web_browser.py):
clocks ticking on two devices until one seat's time runs out, clocks in step after a
reload, and resigning and aborting from the page.

Screenshots are written under /tmp/shots-clocks/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import CHROMIUM, CHROMIUM_FLAGS, Server, new_page, sync_api

from binscrabble.i18n import _, use_language

expect = sync_api.expect
SHOTS = Path("/tmp/shots-clocks")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("serve"))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
        )
        yield launched
        launched.close()


def shoot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def two_people(server: Server, clock: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    """A new game of Ann and Bo: its id and their tokens."""
    body: dict[str, Any] = {"players": [{"name": "Ann"}, {"name": "Bo"}]}
    if clock is not None:
        body["clock"] = clock
    created = server.api("POST", "/api/games", body)
    return created["id"], [seat["token"] for seat in created["seats"]]


def seat_page(browser: Any, server: Server, game_id: str, token: str, **options: Any) -> Any:
    page = new_page(browser, **options)
    page.goto(f"{server.url}/games/{game_id}?token={token}")
    return page


def seconds_shown(clock: Any) -> int:
    """The seconds a live clock shows ("9:58" is 598)."""
    text = clock.locator(".clock-time").inner_text()
    found = re.fullmatch(r"(−?)(\d+):(\d\d)", text)
    assert found, f"a clock reads {text!r}"
    seconds = int(found.group(2)) * 60 + int(found.group(3))
    return -seconds if found.group(1) else seconds


def test_a_live_game_where_one_seat_lets_its_time_run_out(browser: Any, server: Server) -> None:
    game_id, (ann, bo) = two_people(server, {"kind": "live", "seconds": 5})
    # Each moves at once (a seat that never moved would not lose on time, the game would be
    # aborted); then Bo's five seconds run while both devices watch.
    for turn, token in enumerate((ann, bo, ann)):
        server.api("POST", f"/api/games/{game_id}/moves", {"move": "pass", "turn": turn}, token)
    # (Both joined with their moves; Ann passed before Bo came, which cost her nothing.)
    pages = [
        seat_page(browser, server, game_id, ann),
        seat_page(browser, server, game_id, bo, width=360, height=740, has_touch=True),
    ]
    for page in pages:
        expect(page.get_by_role("timer", name="clock Ann")).to_be_visible()
        expect(page.get_by_role("timer", name="clock Bo")).to_have_class(re.compile("running"))
    shoot(pages[0], "live-ticking-ann")
    shoot(pages[1], "live-ticking-bo-phone")
    for page, name in zip(pages, ("ann", "bo-phone"), strict=True):
        expect(page.locator(".end-reason")).to_have_text("Bo ran out of time.")
        expect(page.locator("#result .headline")).to_have_text("Ann wins.")
        # The status line says how the game ended, not the last move before it.
        expect(page.locator("#status")).to_have_text("The game is over: Bo ran out of time.")
        expect(page.get_by_role("timer", name="clock Bo")).to_have_text(re.compile(r"0:00$"))
        expect(page.get_by_role("button", name="Resign")).to_be_hidden()
        shoot(page, f"live-time-out-{name}")
    view = server.api("GET", f"/api/games/{game_id}")
    assert view["end"] == {"reason": "time", "seat": 1, "winners": [0]}
    # The three passes above, nothing more (the pages moved nothing on their own).
    assert [move["seat"] for move in view["moves"]] == [0, 1, 0]
    for page in pages:
        page.context.close()


def test_the_clocks_start_only_when_the_second_seat_opens_its_link(
    browser: Any, server: Server
) -> None:
    """Ann opens a 5-second game; the page says it waits for Bo and no clock runs, well
    past five seconds. Bo opens his link on a phone: Ann's clock runs on both devices, and
    runs out before her first move: the game is aborted, and the end card offers a new
    game (no rematch, no table of zeros) and the log says what happened."""
    game_id, (ann, bo) = two_people(server, {"kind": "live", "seconds": 5})
    page = seat_page(browser, server, game_id, ann)
    # The status line says whom the game waits for, in place of the turn's prompt.
    waiting = page.locator("#status")
    expect(waiting).to_have_text("Waiting for Bo to open the game: the clocks start then.")
    ann_clock = page.get_by_role("timer", name="clock Ann")
    expect(ann_clock).to_have_text(re.compile(r"0:05$"))
    shoot(page, "waiting-for-bo")
    page.wait_for_timeout(6000)  # longer than Ann's whole time: nobody's time ran
    expect(ann_clock).to_have_text(re.compile(r"0:05$"))
    expect(ann_clock).not_to_have_class(re.compile("running"))
    assert server.api("GET", f"/api/games/{game_id}")["end"] is None
    phone = seat_page(browser, server, game_id, bo, width=360, height=740, has_touch=True)
    for seen in (page, phone):
        expect(seen.get_by_role("timer", name="clock Ann")).to_have_class(re.compile("running"))
        expect(seen.locator("#status")).not_to_contain_text("Waiting for")
    reason = "Ann's time ran out before their first move: the game is aborted."
    for seen, name in ((page, "ann"), (phone, "bo-phone")):
        expect(seen.locator(".end-reason")).to_have_text(reason, timeout=15_000)
        expect(seen.locator("#result .headline")).to_have_text("Nobody wins.")
        expect(seen.locator("#status")).to_have_text(f"The game is over: {reason}")
        expect(seen.locator("#result table")).to_have_count(0)
        expect(seen.get_by_role("button", name="Rematch")).to_be_hidden()
        expect(seen.get_by_role("link", name="New game")).to_be_visible()
        expect(seen.locator("#log .log-end")).to_contain_text(reason)
        shoot(seen, f"aborted-before-first-move-{name}")
    end = server.api("GET", f"/api/games/{game_id}")["end"]
    assert end == {"reason": "aborted", "seat": 0, "winners": [], "cause": "time"}
    page.context.close()
    phone.context.close()


def test_clocks_stay_in_step_after_a_reload(browser: Any, server: Server) -> None:
    game_id, (ann, bo) = two_people(server, {"kind": "live", "seconds": 600, "increment": 2})
    server.api("GET", f"/api/games/{game_id}", token=bo)  # Bo has opened it: clocks run
    server.api("POST", f"/api/games/{game_id}/moves", {"move": "pass", "turn": 0}, ann)
    page = seat_page(browser, server, game_id, ann)
    bo_clock = page.get_by_role("timer", name="clock Bo")
    expect(bo_clock).to_have_class(re.compile("running"))
    page.wait_for_function(
        """() => {
          const [minutes, seconds] = document.querySelectorAll(".clock .clock-time")[1]
            .textContent.split(":").map(Number);
          return minutes * 60 + seconds < 599;
        }"""
    )
    before = seconds_shown(bo_clock)
    page.reload()
    expect(bo_clock).to_have_class(re.compile("running"))
    after = seconds_shown(bo_clock)
    # The server's time left, not a fresh clock: no more than before the reload.
    assert 540 < after <= before < 600
    # Ann's clock stands: ten minutes less her think, plus the increment.
    assert 590 < seconds_shown(page.get_by_role("timer", name="clock Ann")) <= 602
    shoot(page, "clocks-after-reload")
    page.context.close()


def test_resign_from_the_page(browser: Any, server: Server) -> None:
    game_id, (ann, _bo) = two_people(server)
    page = seat_page(browser, server, game_id, ann)
    expect(page.locator("#clocks")).to_be_hidden()  # an untimed game has no clocks
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="Resign").click()
    expect(page.get_by_role("button", name="Resign")).to_be_visible()
    assert server.api("GET", f"/api/games/{game_id}")["end"] is None
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator(".end-reason")).to_have_text("Ann resigned.")
    expect(page.locator("#result .headline")).to_have_text("Bo wins.")
    # The final scores only (no rack adjustments were made), and a line in the log.
    headers = page.locator("#result table thead th")
    expect(headers).to_have_text(["Player", "Final"])
    expect(page.locator("#log .log-end")).to_contain_text("Ann resigned.")
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    expect(page.get_by_role("link", name="New game")).to_be_hidden()
    shoot(page, "resigned")
    assert server.api("GET", f"/api/games/{game_id}")["end"]["reason"] == "resigned"
    page.context.close()


def test_abort_from_the_page_only_until_every_seat_has_moved(browser: Any, server: Server) -> None:
    game_id, (ann, bo) = two_people(server)
    page = seat_page(browser, server, game_id, ann)
    abort = page.get_by_role("button", name="Abort")
    expect(abort).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    abort.click()
    expect(page.locator(".end-reason")).to_have_text("Ann aborted the game.")
    expect(page.locator("#result .headline")).to_have_text("Nobody wins.")
    expect(page.locator("#result table")).to_have_count(0)
    expect(page.get_by_role("button", name="Rematch")).to_be_hidden()
    expect(page.get_by_role("link", name="New game")).to_be_visible()
    expect(page.locator("#log .log-end")).to_contain_text("Ann aborted the game.")
    shoot(page, "aborted")
    page.context.close()

    game_id, (ann, bo) = two_people(server)
    for turn, token in enumerate((ann, bo)):
        server.api("POST", f"/api/games/{game_id}/moves", {"move": "pass", "turn": turn}, token)
    page = seat_page(browser, server, game_id, ann)
    expect(page.get_by_role("button", name="Resign")).to_be_visible()
    expect(page.get_by_role("button", name="Abort")).to_be_hidden()
    shoot(page, "abort-gone-after-every-seat-moved")
    page.context.close()


def test_a_seat_of_three_that_resigned_is_marked_and_skipped(browser: Any, server: Server) -> None:
    players = [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}]
    created = server.api("POST", "/api/games", {"players": players})
    game_id = created["id"]
    ann, bo, _cy = (seat["token"] for seat in created["seats"])
    page = seat_page(browser, server, game_id, bo)
    expect(page.locator("#turn-info")).to_have_text("Ann's turn")
    server.api("POST", f"/api/games/{game_id}/resign", {}, ann)
    # The live view: Ann is marked in the scores, and the turn passed to Bo.
    expect(page.locator("#scores")).to_contain_text("Ann (resigned)")
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    expect(page.locator("#result")).to_be_hidden()
    shoot(page, "three-seats-one-resigned")
    page.context.close()


ABORT_NOTE = (
    "A game can be aborted until every player has moved once; it then has no winner, and the"
    " moves already played do not count."
)


ABORTED_LANGUAGES = ["en", "fr", "he", "bg"]


@pytest.fixture(scope="module")
def aborted_pages(browser: Any, server: Server) -> Iterator[dict[str, tuple[str, Any]]]:
    """For each language, a game in which Ann passes (her first move) and Bo lets his 5
    seconds and 5 of overtime run out before his first move, and Ann's phone page open on it
    in that language from the start: the game's id and the page. The four games' clocks run
    at the same time, so the four tests wait for one game's ten seconds, not four."""
    pages = {}
    for language in ABORTED_LANGUAGES:
        game_id, (ann, bo) = two_people(server, {"kind": "live", "seconds": 5, "overtime": 5})
        server.api("GET", f"/api/games/{game_id}", token=bo)  # Bo opens it: the clocks run
        server.api("POST", f"/api/games/{game_id}/moves", {"move": "pass", "turn": 0}, ann)
        page = new_page(browser, 360, 740, has_touch=True, is_mobile=True)
        page.goto(f"{server.url}/games/{game_id}?token={ann}&lang={language}")
        pages[language] = (game_id, page)
    yield pages
    for _game_id, page in pages.values():
        page.context.close()


@pytest.mark.parametrize("language", ABORTED_LANGUAGES)
def test_the_player_who_moved_is_told_why_an_aborted_game_has_no_result(
    server: Server, aborted_pages: dict[str, tuple[str, Any]], language: str
) -> None:
    """Ann passes (her first move) and Bo lets his 5 seconds and 5 of overtime run out
    before his first move: the game is aborted (docs/web.md). Ann's page, open before the
    end, says, on the end card and in the log's last line, in her language, why her move no
    longer counts; and Bo's started minute of overtime takes no 10 points in a game with no
    result."""
    game_id, page = aborted_pages[language]
    with use_language(language):
        note = _(ABORT_NOTE)
    assert language == "en" or note != ABORT_NOTE, f"{language}: the note is not translated"
    expect(page.locator("#result")).to_be_visible(timeout=30_000)
    expect(page.locator("#result .abort-note")).to_have_text(note)
    expect(page.locator("#log .log-end")).to_contain_text(note)
    expect(page.locator("#scores td.score")).to_have_text(["0", "0"])
    shoot(page, f"aborted-after-a-move-{language}")
    view = server.api("GET", f"/api/games/{game_id}")
    assert view["end"] == {"reason": "aborted", "seat": 1, "winners": [], "cause": "time"}
    assert view["result"]["penalties"] == [0, 0]
