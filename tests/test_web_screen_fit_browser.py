"""What a turn needs is on the first screen, in every language and every state of a game, in
a real browser (Debian's Chromium, as tests/test_web_browser.py).

On a 360×740 phone (touch) and at 1366×768, in English, French, Hebrew and Bulgarian, a live
game between two people goes through every state the game page has while it is played:
waiting for the other seat to open the game (the header's two-line notice), the seat's own
turn, its turn in overtime, its turn after a move the server refused (the status box holds
the reason), and the other seat's turn. In each: the page at its top and no wider than the
screen, the rack, every button of the turn and the Move box wholly inside the viewport, and
the scores and clocks inside it too, above the board on a phone.

The states from overtime on are seen in a second game of the same two people whose clocks
started when the module did (`in_overtime`): its five seconds ran out while the tests before
it ran, so no test waits five seconds of its own.

Screenshots: test-artifacts/screenshots/fit-LANG-STATE-WIDTHxHEIGHT.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import (
    SCREENSHOTS,
    Server,
    browser,  # noqa: F401  (a fixture)
    check_fits,
    expect,
    new_page,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
)

LANGUAGES = {
    "en": ("Ann", "Bo"),
    "fr": ("Amélie", "Hugo"),
    "he": ("נועה", "יואב"),
    "bg": ("Мария", "Иван"),
}
# The third and fourth players of a game of three or four.
MORE_PLAYERS = {
    "en": ("Cleo", "Dmitri"),
    "fr": ("Léa", "Élodie"),
    "he": ("דנה", "אביגיל"),
    "bg": ("Петя", "Георги"),
}
SIZES = {"phone": (360, 740), "desktop": (1366, 768)}
# Five seconds of main time, then overtime long enough to outlast the whole module.
CLOCK = {"kind": "live", "seconds": 5, "overtime": 600}
# A move that reads well and that the server refuses, whatever the rack: a false equation (or,
# when the rack lacks its tiles, the longer sentence naming them), in the status box.
REFUSED = "8G 1+1=0"

# Each part of the page that must be in view, by selector, and whether there may be several.
IN_VIEW = ("#rack", "#play", "#recall", "#shuffle", "#exchange", "#pass", "#hint", "#move")
ABOVE_THE_BOARD = ("#scores", "#clocks")


def boxes(page: Any) -> dict[str, Any]:
    """The box of each part (null when it is not drawn), of the board, and the scroll."""
    found: dict[str, Any] = page.evaluate(
        """(selectors) => {
          const box = (selector) => {
            const node = document.querySelector(selector);
            if (!node || !node.getClientRects().length) return null;
            const r = node.getBoundingClientRect();
            return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
          };
          const out = {scrollY: window.scrollY, board: box("#board")};
          for (const selector of selectors) out[selector] = box(selector);
          return out;
        }""",
        [*IN_VIEW, *ABOVE_THE_BOARD],
    )
    return found


# Each square of the board whose middle shows something else (a status or the overtime
# sentence laid over it): its name and what covers it.
HIDDEN_SQUARES = """() => [...document.querySelectorAll("#board .square")].flatMap((square) => {
  const box = square.getBoundingClientRect();
  const top = document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
  if (top && square.contains(top)) return [];
  return [`${square.dataset.square} under ${top ? top.id || top.className : "nothing"}`];
})"""

# The Move box's example against the box: the width its placeholder takes in the box's font
# and the width the box leaves for text.
PLACEHOLDER = """(box) => {
  const style = getComputedStyle(box);
  const context = document.createElement("canvas").getContext("2d");
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {text: box.placeholder, width: context.measureText(box.placeholder).width, room};
}"""

# The status slot: whether it holds more than it shows, and if so whether that is reachable
# (it scrolls, and takes the keyboard's focus).
STATUS_SLOT = """() => {
  const slot = document.querySelector(".status-slot");
  return {more: slot.scrollHeight > slot.clientHeight + 1,
          scrolls: ["auto", "scroll"].includes(getComputedStyle(slot).overflowY),
          focusable: slot.tabIndex === 0, text: slot.innerText};
}"""


def check_in_view(page: Any, what: str, *, clocks: bool = True) -> None:
    """Everything a turn needs inside the screen, as the page is at its top; every square
    of the board in view, nothing laid over it; the Move box's example whole in the box;
    a status longer than its slot reachable by scrolling the slot."""
    check_fits(page, what)
    hidden = page.evaluate(HIDDEN_SQUARES)
    assert not hidden, f"{what}: squares of the board are hidden: {', '.join(hidden)}"
    example = page.locator("#move").evaluate(PLACEHOLDER)
    assert example["width"] <= example["room"], f"{what}: the Move box's example is cut: {example}"
    slot = page.evaluate(STATUS_SLOT)
    if slot["more"]:
        assert slot["scrolls"] and slot["focusable"], f"{what}: the status is cut: {slot}"
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    found = boxes(page)
    assert found["scrollY"] == 0, f"{what}: the page is scrolled by {found['scrollY']} px"
    outside = []
    above = ABOVE_THE_BOARD if clocks else ("#scores",)
    for selector in (*IN_VIEW, *above):
        box = found[selector]
        assert box is not None, f"{what}: {selector} is not shown"
        if box["left"] < 0 or box["top"] < 0 or box["right"] > width or box["bottom"] > height:
            outside.append(f"{selector} {box['top']:.0f}-{box['bottom']:.0f}")
    assert not outside, f"{what}: outside the {width}x{height} screen: {', '.join(outside)}"
    if width < 600:
        board = found["board"]["top"]
        for selector in above:
            bottom = found[selector]["bottom"]
            where = f"ends at {bottom} under the board's top {board}"
            assert bottom <= board + 0.5, f"{what}: {selector} {where}"


def live_game(server: Server, language: str) -> tuple[str, str, str]:  # noqa: F811
    """A new live game of the language's two people: its id and the two seats' tokens."""
    players = [{"name": name} for name in LANGUAGES[language]]
    created = server.api("POST", "/api/games", {"players": players, "clock": CLOCK})
    first, second = (seat["token"] for seat in created["seats"])
    return created["id"], first, second


def opened_game(server: Server, language: str, count: int, clock: Any) -> tuple[str, str]:  # noqa: F811
    """A new game of `count` people of the language (`clock`: a clock, or None) that every
    seat has opened: its id and the first seat's token."""
    names = (*LANGUAGES[language], *MORE_PLAYERS[language])[:count]
    body: dict[str, Any] = {"players": [{"name": name} for name in names]}
    if clock:
        body["clock"] = clock
    created = server.api("POST", "/api/games", body)
    for seat in created["seats"]:
        server.api("GET", f"/api/games/{created['id']}", token=seat["token"])
    return created["id"], created["seats"][0]["token"]


@pytest.fixture(scope="module")
def in_overtime(server: Server) -> dict[tuple[str, str], tuple[str, str]]:  # noqa: F811
    """For each language and size, a live game whose clocks run from the module's start
    (both seats have opened it): its id and the first seat's token. The first seat's five
    seconds run out while the tests before its own run."""
    games = {}
    for language in LANGUAGES:
        for size in SIZES:
            game_id, first, second = live_game(server, language)
            for token in (first, second):
                server.api("GET", f"/api/games/{game_id}", token=token)
            games[language, size] = (game_id, first)
        games[language, "four"] = opened_game(server, language, 4, CLOCK)
    return games


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_turn_fits_the_first_screen_in_every_state(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    in_overtime: dict[tuple[str, str], tuple[str, str]],
    language: str,
    size: str,
) -> None:
    width, height = SIZES[size]
    names = LANGUAGES[language]
    game_id, first, second = live_game(server, language)
    options: dict[str, Any] = {}
    if width < 600:
        options = {"has_touch": True, "is_mobile": True, "device_scale_factor": 2}
    page = new_page(browser, width, height, **options)
    page.goto(f"{server.url}/games/{game_id}?token={first}&lang={language}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    where = f"{language} {width}x{height}"

    def state(name: str) -> None:
        shoot_top(page, f"fit-{language}-{name}-{width}x{height}")
        check_in_view(page, f"{where} {name}")

    # The other seat has not opened the game: the header says the clocks wait for it.
    expect(page.locator("#status")).to_contain_text(names[1])
    expect(page.locator("#play")).to_be_enabled()
    state("waiting")
    # The other seat opens it: the clocks run, the first seat's turn.
    server.api("GET", f"/api/games/{game_id}", token=second)
    expect(page.locator("#status")).not_to_contain_text(names[1])
    state("your-turn")
    # The same seat in the game whose clocks started with the module: in overtime.
    late_id, late_token = in_overtime[language, size]
    page.goto(f"{server.url}/games/{late_id}?token={late_token}&lang={language}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator(".clock.overtime")).to_have_count(1, timeout=30_000)
    state("overtime")
    # A move the server refuses: the reason in the status box.
    page.locator("#move").fill(REFUSED)
    page.locator("#move").press("Enter")
    expect(page.locator("#status")).to_have_attribute("data-kind", "error")
    expect(page.locator("#status")).not_to_be_empty()
    state("refused")
    # The seat passes: the other's turn.
    page.locator("#pass").click()
    expect(page.locator("#play")).to_be_disabled()
    expect(page.locator("#log tr")).to_have_count(1)
    state("their-turn")
    page.context.close()


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_three_and_four_players_fit_a_phone(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    in_overtime: dict[tuple[str, str], tuple[str, str]],
    language: str,
) -> None:
    """A 360x740 phone, games of three and four players, without a clock and with live
    clocks (one a seat, in the header): the scores, the clocks and everything a turn needs
    on the first screen, the Move box among them; then the four players' game whose clocks
    started with the module, its first seat in overtime, and a move refused there."""
    page = new_page(browser, 360, 740, has_touch=True, is_mobile=True, device_scale_factor=2)
    where = f"{language} 360x740"

    def state(name: str, count: int, clocks: int) -> None:
        expect(page.locator("#scores tr")).to_have_count(count)
        expect(page.locator("#clocks .clock")).to_have_count(clocks)
        expect(page.locator("#play")).to_be_enabled()
        shoot_top(page, f"fit-{language}-{name}-360x740")
        check_in_view(page, f"{where} {name}", clocks=bool(clocks))

    for count, clock in ((3, None), (3, CLOCK), (4, None), (4, CLOCK)):
        game_id, token = opened_game(server, language, count, clock)
        page.goto(f"{server.url}/games/{game_id}?token={token}&lang={language}")
        state(f"{count}-players{'-clocks' if clock else ''}", count, count if clock else 0)
    late_id, late_token = in_overtime[language, "four"]
    page.goto(f"{server.url}/games/{late_id}?token={late_token}&lang={language}")
    expect(page.locator(".clock.overtime")).to_have_count(1, timeout=30_000)
    expect(page.locator("#clock-overtime")).to_be_visible()
    state("4-players-overtime", 4, 4)
    page.locator("#move").fill(REFUSED)
    page.locator("#move").press("Enter")
    expect(page.locator("#status")).to_have_attribute("data-kind", "error")
    state("4-players-refused", 4, 4)
    page.context.close()


def shoot_top(page: Any, name: str) -> None:
    """The first screen only: what the person sees without scrolling."""
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


@pytest.mark.parametrize("language", ["fr", "bg", "he"])
def test_a_long_name_is_cut_before_its_rack_count_on_a_phone(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    """The scores of a 360 px phone: a computer's name with its level ("Ordinateur
    (компютър, начинаещ)") is cut with an ellipsis, its rack's count ("9 плочки") stays
    whole inside the row's cell."""
    players = [{"name": "Élodie"}, {"name": "Ordinateur", "computer": "beginner"}]
    created = server.api("POST", "/api/games", {"players": players})
    page = new_page(browser, 360, 740, has_touch=True, is_mobile=True, device_scale_factor=2)
    page.goto(f"{server.url}/games/{created['id']}?token={created['seats'][0]['token']}")
    page.goto(f"{server.url}/games/{created['id']}?lang={language}")
    expect(page.locator("#scores .rack-count")).to_have_count(2)
    found = page.locator("#scores tr").evaluate_all(
        """(rows) => rows.map((row) => {
          const cell = row.querySelector("th").getBoundingClientRect();
          const count = row.querySelector(".rack-count");
          const box = count.getBoundingClientRect();
          return {text: count.textContent, left: box.left, right: box.right,
                  cellLeft: cell.left, cellRight: cell.right,
                  cut: count.scrollWidth > count.clientWidth + 0.5};
        })"""
    )
    for row in found:
        inside = row["left"] >= row["cellLeft"] - 0.5 and row["right"] <= row["cellRight"] + 0.5
        assert inside and not row["cut"], f"{language}: {row['text']!r} is cut: {row}"
    shoot_top(page, f"fit-{language}-long-name-360x740")
    page.context.close()


def test_an_invite_link_reads_from_its_start_in_hebrew(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """On a Hebrew phone the invite links' boxes show the start of the address (http://...),
    left to right, as in English."""
    page = new_page(browser, 360, 740, has_touch=True, is_mobile=True)
    page.goto(f"{server.url}/?lang=he")
    page.locator("input[name=mode][value=online]").check()
    page.locator("#new-game button[type=submit]").click()
    fields = page.locator("#invite-list input")
    expect(fields).to_have_count(2)
    for field in fields.all():
        expect(field).to_have_attribute("dir", "ltr")
        assert field.evaluate("(box) => getComputedStyle(box).direction") == "ltr"
        assert field.evaluate("(box) => box.scrollLeft") == 0
    shoot_top(page, "fit-he-invite-links-360x740")
    page.context.close()


def test_a_play_being_laid_is_not_an_error_until_it_is_played(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """On a touch phone, the first tile laid (one tile: no first move yet) is answered in
    the status's plain ink and edge, saying what the play lacks; pressing Play with it makes
    it an error, in red."""
    created = server.new_game([{"name": "Ann"}, {"name": "Bo"}])
    page = new_page(browser, 360, 740, has_touch=True, is_mobile=True, device_scale_factor=2)
    page.goto(server.url + created["seats"][0]["url"])
    page.locator("#rack .tile").first.tap()
    page.locator('[data-square="H8"]').tap()
    if page.locator("#blank-dialog").is_visible():
        page.locator("#blank-faces button").first.tap()
    status = page.locator("#status")
    expect(status.locator(".verdict")).to_be_visible()
    expect(status).to_have_attribute("data-kind", "unfinished")
    expect(status.locator(".verdict.illegal")).to_have_count(0)
    ink = status.locator(".verdict").evaluate("(p) => getComputedStyle(p).color")
    assert ink == status.evaluate("(box) => getComputedStyle(box).color"), ink
    shoot_top(page, "fit-en-first-tile-laid-360x740")
    page.locator("#play").tap()
    expect(status).to_have_attribute("data-kind", "error")
    page.context.close()
