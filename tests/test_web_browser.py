"""The web page in a real browser: Playwright driving Debian's Chromium (/usr/bin/chromium)
against a real `binscrabble serve --port 0` on 127.0.0.1 with a database in a temporary
folder.

Whole games against the computer are played three ways (drag-and-drop, keyboard, the `Move`
box): the test finds a legal move with the library from its own seat's view, enacts it in the
page, checks the page's preview against the library's score, plays a few moves that way and
then passes until the game ends (the computer plays on until it goes out or six scoreless
turns end the game), so every game reaches the end-of-game screen.

Screenshots are written under test-artifacts/screenshots/.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import serve_known_bags
from serve_known_bags import naming_headers

from binscrabble.board import square_name, square_row
from binscrabble.game import Game
from binscrabble.move import display_notation, move_notation
from binscrabble.movegen import GeneratedMove, generate_moves
from binscrabble.position import load_position

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package is missing: pip install playwright"
)
expect = sync_api.expect

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Requests go straight to 127.0.0.1, whatever proxy the environment names.
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
READY = re.compile(r"binscrabble serving on (http://127\.0\.0\.1:\d+/)")
# Playwright's timeout for one expectation, in milliseconds: a computer's move included,
# on a machine busy with other work.
WAIT_MS = 30_000
# Assertions wait as long as actions do (Playwright's own default for them is 5 s).
expect.set_options(timeout=WAIT_MS)
# Upper bound on the turns of one game; a game against the computer ends well before.
MAX_TURNS = 200


class Server:
    """A `binscrabble serve` process and the address it printed."""

    def __init__(self, folder: Path) -> None:
        # The games a test creates draw bags seeded from its id (serve_known_bags.py).
        command = [sys.executable, serve_known_bags.PATH, "serve", "--host", "127.0.0.1"]
        #: The server's SQLite file (tests may store finished games in it directly).
        self.database = folder / "games.sqlite3"
        command += ["--port", "0", "--db", str(self.database), "--workers", "1"]
        # One address plays every test's games back to back, many a minute (a person plays
        # one): new games (the blank's test draws up to 40), moves and previews get ten
        # times the default limits; hints, analyses and record uploads keep them.
        command += ["--rate-limit", "create=300/minute", "--rate-limit", "move=1200/minute"]
        command += ["--rate-limit", "preview=6000/minute"]
        self.log = (folder / "server.log").open("w")
        self.process = subprocess.Popen(
            command, cwd=folder, stdout=subprocess.PIPE, stderr=self.log, text=True
        )
        self.url = ""
        ready = threading.Event()
        threading.Thread(target=self._read_output, args=(ready,), daemon=True).start()
        if not ready.wait(60) or not self.url:
            self.stop()
            raise RuntimeError(f"binscrabble serve did not start; see {folder / 'server.log'}")

    def _read_output(self, ready: threading.Event) -> None:
        # Read every line, so a full pipe never blocks the server.
        assert self.process.stdout is not None
        for line in self.process.stdout:
            found = READY.search(line)
            if found and not self.url:
                self.url = found.group(1).rstrip("/")
                ready.set()
        ready.set()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.close()

    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        """One JSON request to the server; an error status raises HTTPError."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        for name, value in naming_headers().items():
            request.add_header(name, value)
        with DIRECT.open(request, timeout=30) as response:
            return json.loads(response.read())

    def new_game(self, players: list[dict[str, str]], rules: dict[str, Any] | None = None) -> Any:
        return self.api("POST", "/api/games", {"players": players, "rules": rules or {}})


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("serve"))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
        )
        yield launched
        launched.close()


@pytest.fixture(scope="module", autouse=True)
def screenshot_folder() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


# Run in every page before its own scripts: each Content-Security-Policy violation is kept.
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
});
"""


# Run in every page before its own scripts too: the layout shifts no input of the person
# caused, summed from the first paint (the page's Cumulative Layout Shift).
RECORD_LAYOUT_SHIFT = """
window.layoutShift = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) window.layoutShift += entry.value;
  }
}).observe({ type: "layout-shift", buffered: true });
"""
# The most a page may shift as it loads: "good" by the Core Web Vitals' measure.
MOST_LAYOUT_SHIFT = 0.1


def new_page(browser: Any, width: int = 1280, height: int = 900, **options: Any) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    context.set_extra_http_headers(naming_headers())
    context.add_init_script(RECORD_VIOLATIONS)
    context.add_init_script(RECORD_LAYOUT_SHIFT)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def csp_problems(page: Any, console: list[str]) -> list[str]:
    """The policy violations the page saw, and the console's messages about the policy."""
    seen: list[str] = page.evaluate("window.cspViolations")
    return seen + [line for line in console if "Content Security Policy" in line]


def shoot(page: Any, name: str) -> None:
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def check_fits(page: Any, what: str, *, boxes: tuple[str, ...] = (), settled: bool = False) -> None:
    """The page (`what` names it in a failure) is no wider than its screen, so it never
    scrolls sideways, nor does any of the `boxes` (CSS selectors) inside it; `settled`: the
    page has loaded, and shifted its layout by less than MOST_LAYOUT_SHIFT in all since
    its first paint (measured two frames after the last change, so that change counts)."""
    width = page.viewport_size["width"]
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{what}: the page is {wide} px wide on a {width} px screen"
    for selector in boxes:
        inner = page.locator(selector).evaluate("(box) => box.scrollWidth - box.clientWidth")
        assert inner <= 0, f"{what}: {selector} scrolls sideways by {inner} px at {width} px"
    if settled:
        page.evaluate(
            "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
        )
        shift = page.evaluate("window.layoutShift")
        print(f"{what}: layout shift {shift:.3f}")
        assert shift < MOST_LAYOUT_SHIFT, f"{what}: the layout shifts by {shift:.3f} at {width} px"


def token_of(page: Any) -> str:
    """The token the page keeps for its seat (in this tab's storage, not in its address)."""
    key = f"binscrabble.seat.{game_id_of(page)}"
    token: str | None = page.evaluate("(key) => sessionStorage.getItem(key)", key)
    assert token, f"no token kept for {page.url}"
    return token


def game_id_of(page: Any) -> str:
    found = re.search(r"/games/([^/?]+)", page.url)
    assert found, f"no game id in {page.url}"
    return found.group(1)


def square(page: Any, name: str) -> Any:
    """The board square button whose accessible name starts with `name`."""
    return page.get_by_role("button", name=re.compile(rf"^{name}( |$)"))


def rack_tile(page: Any, face_name: str) -> Any:
    return page.get_by_role("button", name=f"rack {face_name}", exact=True).first


# Each code's face, as the page names a tile (INTERFACES.md §6): `rack AND`, `H9 ×`.
WORDS = {"&": "AND", "|": "OR", "~": "NOT", "^": "XOR", "-": "−", "x": "×", "/": "÷"}


def game_of_view(view: dict[str, Any]) -> Game:
    """The seat's position as the library's Game, from the seat's own view."""
    return load_position(
        {
            "rules": view["rules"],
            "board": view["board"],
            "blanks": view["blanks"],
            "rotated": view["rotated"],
            "rack": view["rack"],
        }
    )


def pick_move(view: dict[str, Any], most_tiles: int) -> tuple[Game, GeneratedMove] | None:
    """A legal play of at most `most_tiles` tiles, without a blank if there is one."""
    game = game_of_view(view)
    moves = generate_moves(game)
    fitting = [move for move in moves[:2000] if len(move.place.tiles) <= most_tiles]
    plain = [move for move in fitting if not any(tile.blank for tile in move.place.tiles)]
    chosen = plain or fitting
    return (game, chosen[0]) if chosen else None


def wait_for_turn(page: Any, server: Server, game_id: str, token: str) -> dict[str, Any]:
    """Wait until it is this seat's turn or the game is over, and the page shows that view."""
    for _ in range(1200):  # 60 seconds at most: a computer's move takes far less
        view: dict[str, Any] = server.api("GET", f"/api/games/{game_id}", token=token)
        if view["over"] or view["to_move"] == view["seat"]:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the other seat did not move")
    # The page has drawn this very view when its log has as many rows as turns were played.
    expect(page.locator("#log tr")).to_have_count(view["turn"])
    expect(page.locator("#turn-info")).to_have_text("Game over" if view["over"] else "Your turn")
    return view


def expect_preview(page: Any, score: int) -> None:
    status = page.get_by_role("status")
    expect(status).to_contain_text("legal")
    expect(status).to_contain_text(f"— legal, {score} point{'' if score == 1 else 's'}")


def drag_tiles(page: Any, move: GeneratedMove) -> None:
    for tile in move.place.tiles:
        target = square(page, square_name(tile.square))
        rack_tile(page, "blank" if tile.blank else WORDS.get(tile.face, tile.face)).drag_to(target)
        if tile.blank:
            face = WORDS.get(tile.face, tile.face)
            page.get_by_role("button", name=f"face {face}", exact=True).click()
        expect(target).to_have_accessible_name(re.compile(rf"^{square_name(tile.square)} "))


def type_tiles(page: Any, move: GeneratedMove) -> None:
    """Click the play's first square, set the direction with Space, type its tiles."""
    tiles = move.place.tiles
    across = len({square_row(tile.square) for tile in tiles}) == 1
    first = square_name(tiles[0].square)
    cursor = page.locator(f'[data-square="{first}"]')
    square(page, first).click()
    expect(cursor).to_have_class(re.compile("cursor"))
    if ("across" in (cursor.get_attribute("class") or "")) != across:
        page.keyboard.press("Space")
    expect(cursor).to_have_class(re.compile("across" if across else "down"))
    for tile in tiles:
        if tile.blank:
            page.keyboard.press("?")
        page.keyboard.press(tile.face)


def play_whole_game(page: Any, server: Server, method: str, real_plays: int) -> dict[str, Any]:
    """Play this page's seat to the end of the game: `real_plays` plays entered by
    `method` ("drag", "keyboard" or "move box"), then passes. Returns the last view."""
    try:
        return play_turns(page, server, method, real_plays)
    except Exception:
        shoot(page, f"failed-{method.replace(' ', '-')}")
        raise


def play_turns(page: Any, server: Server, method: str, real_plays: int) -> dict[str, Any]:
    game_id, token = game_id_of(page), token_of(page)
    played = 0
    for _ in range(MAX_TURNS):
        view = wait_for_turn(page, server, game_id, token)
        if view["over"]:
            return view
        found = pick_move(view, most_tiles=4) if played < real_plays else None
        if found is None:
            page.get_by_role("button", name="Pass", exact=True).click()
        else:
            game, move = found
            if method == "drag":
                drag_tiles(page, move)
                expect_preview(page, move.score)
                page.get_by_role("button", name="Play", exact=True).click()
            elif method == "keyboard":
                type_tiles(page, move)
                expect_preview(page, move.score)
                page.keyboard.press("Enter")
            else:
                box = page.get_by_role("textbox", name="Move")
                box.fill(move_notation(move.place, game.board))
                expect_preview(page, move.score)  # previewed as it is typed
                box.press("Enter")
            row = page.locator("#log tr").nth(view["turn"])
            expect(row.locator("td").nth(3)).to_have_text(str(move.score))
            played += 1
            if played == 1:
                shoot(page, f"game-{method.replace(' ', '-')}-first-play")
        # The computer may answer at once: wait for this turn's row, not an exact count.
        # A function, not an expression: the page's policy forbids evaluating strings.
        page.wait_for_function(
            "(turn) => document.querySelectorAll('#log tr').length > turn", arg=view["turn"]
        )
    raise AssertionError(f"the game did not end within {MAX_TURNS} turns")


def check_end_screen(page: Any, server: Server, view: dict[str, Any]) -> None:
    result = page.get_by_role("region", name="Game over")
    expect(result).to_be_visible()
    if view["result"]["reason"] == "out":
        out = next(player["name"] for player in view["players"] if player["tiles"] == 0)
        expect(result).to_contain_text(f"{out} went out with the bag empty")
    else:
        expect(result).to_contain_text("Six scoreless turns in a row ended the game")
    for player, final in zip(view["players"], view["result"]["final"], strict=True):
        shown = str(final).replace("-", "\u2212")  # a negative score with the minus sign
        expect(page.get_by_label(f"score {player['name']}", exact=True)).to_have_text(shown)
        assert player["score"] == final
    expect(page.get_by_role("link", name="Download the game record")).to_be_visible()
    expect(page.get_by_role("button", name="Rematch", exact=True)).to_be_visible()


def test_lobby_game_against_the_computer_by_drag_and_drop(browser: Any, server: Server) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Computer level").select_option("beginner")
    shoot(page, "lobby")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[^/?]+$"))
    expect(page.get_by_label("score Ann", exact=True)).to_have_text("0")
    expect(page.get_by_role("button", name="H8 double word", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="D8 double letter", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="E8", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"^rack ")).first).to_be_visible()
    for name in ("Play", "Pass", "Exchange", "Recall", "Shuffle"):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()
    view = play_whole_game(page, server, "drag", real_plays=3)
    assert view["over"]
    check_end_screen(page, server, view)
    shoot(page, "game-drag-end")
    # Dragging moved a tile by its style, which the Content-Security-Policy allows.
    assert page.evaluate("window.cspViolations") == []
    # The record and its analysis are offered once the game is over.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the game record").click()
    record = Path(download.value.path()).read_text()
    assert record.strip(), "the downloaded record is empty"
    page.get_by_role("link", name="Analyse the game").click()
    expect(page.locator("#turns tr")).to_have_count(len(view["moves"]), timeout=60_000)
    # The first turn is told as what the player did: a play, a pass or an exchange.
    expect(page.get_by_role("status")).to_contain_text(re.compile("played|passed|exchanged"))
    page.get_by_role("button", name="Forward").click()
    expect(page.locator("#position")).to_have_text(f"Turn 2 of {len(view['moves'])}")
    shoot(page, "analysis")
    # The record file opens in the viewer, whose last turn shows the final board.
    viewer = page.context.new_page()
    viewer.goto(server.url + "/viewer")
    record_file = SCREENSHOTS.parent / "game-drag.bsr"
    record_file.write_text(record)
    viewer.get_by_label("Game record file").set_input_files(str(record_file))
    try:
        expect(viewer.locator("#turns tr")).to_have_count(len(view["moves"]) + 1)
    except AssertionError as failed:
        said = viewer.get_by_role("status").inner_text()
        raise AssertionError(f"the viewer did not show the record; it says {said!r}") from failed
    viewer.get_by_role("button", name="Last").click()
    for row, line in enumerate(view["board"]):
        for column, face in enumerate(line):
            if face != ".":
                name = f"{'ABCDEFGHIJKLMNO'[column]}{row + 1}"
                blank = "blank " if name in view["blanks"] else ""
                spoken = f"{name} {blank}{WORDS.get(face, face)}"
                expect(square(viewer, name)).to_have_accessible_name(spoken)
    shoot(viewer, "viewer")
    page.context.close()


def test_game_against_the_computer_by_keyboard(browser: Any, server: Server) -> None:
    created = server.new_game([{"name": "Kim"}, {"name": "Bot", "computer": "beginner"}])
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["url"])
    view = play_whole_game(page, server, "keyboard", real_plays=3)
    check_end_screen(page, server, view)
    shoot(page, "game-keyboard-end")
    page.context.close()


def test_game_against_the_computer_through_the_move_box(browser: Any, server: Server) -> None:
    created = server.new_game([{"name": "Bot", "computer": "beginner"}, {"name": "Lee"}])
    page = new_page(browser)
    page.goto(server.url + created["seats"][1]["url"])
    view = play_whole_game(page, server, "move box", real_plays=3)
    check_end_screen(page, server, view)
    shoot(page, "game-move-box-end")
    # A rematch: a new game with the same players, where this player's token still works, at
    # the first seat: the player who moved second starts it.
    page.get_by_role("button", name="Rematch", exact=True).click()
    page.wait_for_url(re.compile(r"/games/(?!" + created["id"] + r")[^/?]+$"))
    again = server.api("GET", f"/api/games/{game_id_of(page)}", token=token_of(page))
    assert again["seat"] == 0 and again["to_move"] == 0 and again["turn"] == 0
    assert [player["name"] for player in again["players"]] == ["Lee", "Bot"]
    expect(page.get_by_role("button", name=re.compile(r"^rack "))).to_have_count(len(again["rack"]))
    assert server.api("GET", f"/api/games/{created['id']}")["rematch"] == game_id_of(page)
    page.context.close()


def test_an_illegal_play_shows_the_servers_reason(browser: Any, server: Server) -> None:
    created = server.new_game([{"name": "Ann"}, {"name": "Bob"}])
    token = created["seats"][0]["token"]
    game_id = created["id"]
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["url"])
    view = server.api("GET", f"/api/games/{game_id}", token=token)
    # One tile in a corner: a first play must cover H8 with at least three tiles.
    code = view["rack"][0]
    face = "blank" if code == "?" else WORDS.get(code, code)
    rack_tile(page, face).click()
    square(page, "A1").click()
    if code == "?":
        page.get_by_role("button", name="face 1", exact=True).click()
    tile = {"square": "A1", "face": "1" if code == "?" else code, "blank": code == "?"}
    reason = server.api("POST", f"/api/games/{game_id}/preview", {"tiles": [tile]}, token)
    assert reason["legal"] is False and reason["reason"]
    status = page.get_by_role("status")
    # A play being laid says what it lacks, in the reason's words, never "not legal" (its
    # first letter made a capital: it stands as a sentence of its own).
    expect(status.locator(".verdict")).to_have_text(re.compile(re.escape(reason["reason"][1:])))
    expect(status).not_to_contain_text("not legal")
    shoot(page, "illegal-preview")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(status).to_contain_text(reason["reason"])
    after = server.api("GET", f"/api/games/{game_id}", token=token)
    assert after["turn"] == 0 and after["rack"] == view["rack"]
    # A move typed in bad notation gets the server's sentence too, and changes nothing.
    box = page.get_by_role("textbox", name="Move")
    box.fill("8Z 1=1")
    box.press("Enter")
    expect(status).to_contain_text("8Z")
    assert server.api("GET", f"/api/games/{game_id}", token=token)["turn"] == 0
    # Recall puts the tile back on the rack and the board is empty again.
    page.get_by_role("button", name="Recall", exact=True).click()
    expect(square(page, "A1")).to_have_accessible_name("A1 triple word")
    page.context.close()


def test_a_typed_move_is_drawn_and_every_move_is_written_with_faces(
    browser: Any, server: Server
) -> None:
    # About one first rack in six has no play (no = and no blank): start games until one has.
    for _ in range(30):
        created = server.new_game([{"name": "Ann"}, {"name": "Bob"}])
        game_id, token = created["id"], created["seats"][0]["token"]
        view = server.api("GET", f"/api/games/{game_id}", token=token)
        found = pick_move(view, most_tiles=9)
        if found:
            break
    else:
        raise AssertionError("no first rack with a play in 30 new games")
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["url"])
    game, move = found
    notation = move_notation(move.place, game.board)
    shown = display_notation(notation)
    # Typed in the Move box, the play is drawn on the board as it is read, and taken off
    # when the box is emptied.
    box = page.get_by_role("textbox", name="Move")
    box.fill(notation)
    for tile in move.place.tiles:
        name = square_name(tile.square)
        expect(square(page, name)).to_have_accessible_name(re.compile(rf"^{name} .* typed$"))
    status = page.get_by_role("status")
    expect(status).to_contain_text(f"{shown} — legal")
    shoot(page, "typed-move-drawn")
    box.fill("")
    first = square_name(move.place.tiles[0].square)
    expect(square(page, first)).not_to_have_accessible_name(re.compile("typed"))
    # Played, the move is written with the tiles' faces in the log and the status line.
    box.fill(notation)
    box.press("Enter")
    expect(page.locator("#log tr td.notation")).to_have_text(shown)
    expect(status).to_contain_text(f"You played {shown} for ")
    # Bob exchanges: Ann's page says how many tiles, in words.
    bob = created["seats"][1]["token"]
    rack = server.api("GET", f"/api/games/{game_id}", token=bob)["rack"]
    server.api("POST", f"/api/games/{game_id}/moves", {"move": f"-{rack[0]}", "turn": 1}, bob)
    expect(page.locator("#log tr").nth(1).locator("td").nth(2)).to_have_text("exchanged 1 tile")
    expect(status).to_contain_text("Bob exchanged 1 tile.")
    page.context.close()


def test_a_move_typed_while_the_page_loads_is_read_when_the_game_comes(
    browser: Any, server: Server
) -> None:
    created = server.new_game([{"name": "Ann"}, {"name": "Bob"}])
    game_id = created["id"]
    page = new_page(browser)
    # The page's first look at the game is held back, so the Move box is typed into before
    # the page knows whose turn it is.
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(re.compile(rf"/api/games/{re.escape(game_id)}$"), hold_the_first)
    page.goto(server.url + created["seats"][0]["url"])
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page never asked for the game"
    page.get_by_role("textbox", name="Move").fill("8H 1=1")
    held[0].continue_()
    for name in ("H8", "I8", "J8"):
        expect(square(page, name)).to_have_accessible_name(re.compile(rf"^{name} .* typed$"))
    expect(page.locator("#status .verdict")).to_be_visible()
    page.context.close()


def frames_of(page: Any) -> list[dict[str, Any]]:
    """Every WebSocket message the page receives, decoded, in a list that keeps growing."""
    frames: list[dict[str, Any]] = []

    def listen(socket: Any) -> None:
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", listen)
    return frames


def play_by_move_box(page: Any, server: Server, game_id: str, token: str) -> str | None:
    """Play through the Move box: a legal play, or an exchange of the whole rack when the
    rack has none. Returns the accessible name the play's first square gets once it is on
    the board (None for an exchange)."""
    view = server.api("GET", f"/api/games/{game_id}", token=token)
    found = pick_move(view, most_tiles=9)
    box = page.get_by_role("textbox", name="Move")
    if found is None:
        box.fill(f"exchange {view['rack']}")
    else:
        box.fill(move_notation(found[1].place, found[0].board))
    box.press("Enter")
    row = page.locator("#log tr").nth(view["turn"])
    expect(row.locator("td").nth(3)).to_have_text(str(0 if found is None else found[1].score))
    if found is None:
        return None
    tile = found[1].place.tiles[0]
    blank = "blank " if tile.blank else ""
    return f"{square_name(tile.square)} {blank}{WORDS.get(tile.face, tile.face)}"


def test_online_game_between_two_browsers(browser: Any, server: Server) -> None:
    ann = new_page(browser)
    bob = new_page(browser)
    watcher = new_page(browser)
    bob_frames = frames_of(bob)
    watcher_frames = frames_of(watcher)
    # Ann starts an online game in the lobby; it shows one invite link per seat.
    ann.goto(server.url + "/")
    ann.get_by_label("Online with friends").check()
    ann.get_by_label("Player 1 name").fill("Ann")
    ann.get_by_label("Player 2 name").fill("Bob")
    ann.get_by_role("button", name="Start the game").click()
    links = [ann.get_by_label(f"invite link for {name}") for name in ("Ann", "Bob")]
    expect(links[1]).to_have_value(re.compile(r"^http://127\.0\.0\.1:\d+/games/"))
    shoot(ann, "online-invite-links")
    urls = [link.input_value() for link in links]
    tokens = [re.sub(r".*token=", "", url) for url in urls]
    game_id = re.sub(r".*/games/([^?]+)\?.*", r"\1", urls[0])
    ann.get_by_role("link", name="Ann's seat").click()
    bob.goto(urls[1])
    # The spectator comes in through the lobby's Watch form, with the game's link.
    watcher.goto(server.url + "/")
    watcher.get_by_label("Game id or link").fill(f"{server.url}/games/{game_id}")
    watcher.get_by_role("button", name="Watch", exact=True).click()
    watcher.wait_for_url(re.compile(rf"/games/{game_id}$"))
    expect(ann.locator("#turn-info")).to_have_text("Your turn")
    expect(bob.locator("#turn-info")).to_have_text("Ann's turn")
    racks = [server.api("GET", f"/api/games/{game_id}", token=token)["rack"] for token in tokens]
    # Each page shows its own rack only, and a spectator none.
    for page, rack in ((ann, racks[0]), (bob, racks[1])):
        expect(page.get_by_role("button", name=re.compile(r"^rack "))).to_have_count(len(rack))
    expect(watcher.get_by_role("button", name=re.compile(r"^rack "))).to_have_count(0)
    expect(bob.get_by_role("button", name="Play", exact=True)).to_be_disabled()
    first = play_by_move_box(ann, server, game_id, tokens[0])
    # Bob's page and the spectator's follow without reloading.
    for page in (bob, watcher):
        expect(page.locator("#log tr")).to_have_count(1)
        if first:
            expect(square(page, first.split()[0])).to_have_accessible_name(first)
    expect(bob.locator("#turn-info")).to_have_text("Your turn")
    shoot(ann, "online-ann-after-her-play")
    shoot(bob, "online-bob-live-update")
    second = play_by_move_box(bob, server, game_id, tokens[1])
    expect(ann.locator("#log tr")).to_have_count(2)
    if second:
        expect(square(ann, second.split()[0])).to_have_accessible_name(second)
    expect(ann.locator("#turn-info")).to_have_text("Your turn")
    # The log shows each move with the running scores; the bag and unseen tiles follow.
    seen = server.api("GET", f"/api/games/{game_id}", token=tokens[0])
    for page in (ann, watcher):
        for index, move in enumerate(seen["moves"]):
            cells = page.locator("#log tr").nth(index).locator("td")
            expect(cells.nth(4)).to_have_text(" – ".join(map(str, move["running"])))
        expect(page.locator("#bag")).to_have_text(f"Bag: {seen['bag']} tiles")
    expect(ann.locator("#unseen h3")).to_have_text(f"Unseen by you ({len(seen['unseen'])})")
    shoot(watcher, "online-spectator")
    ann_racks = {racks[0], server.api("GET", f"/api/games/{game_id}", token=tokens[0])["rack"]}
    assert bob_frames and watcher_frames
    for frame in bob_frames:
        assert frame.get("seat") == 1 and frame.get("rack") not in ann_racks
    for frame in watcher_frames:
        assert not frame.get("rack") and frame.get("seat") is None
    for page in (ann, bob, watcher):
        page.context.close()


def touch_drag(page: Any, source: Any, target: Any) -> None:
    """Drag with one finger from the middle of `source` to the middle of `target`."""
    start, end = source.bounding_box(), target.bounding_box()
    assert start and end
    cdp = page.context.new_cdp_session(page)
    points = [
        (start["x"] + start["width"] / 2, start["y"] + start["height"] / 2),
        (end["x"] + end["width"] / 2, end["y"] + end["height"] / 2),
    ]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point(*points[0])]})
    for step in range(1, 6):
        x = points[0][0] + (points[1][0] - points[0][0]) * step / 5
        y = points[0][1] + (points[1][1] - points[0][1]) * step / 5
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point(x, y)]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def point(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def test_phone_sized_layout(browser: Any, server: Server) -> None:
    created = server.new_game([{"name": "Pia"}, {"name": "Bot", "computer": "beginner"}])
    token = created["seats"][0]["token"]
    page = new_page(browser, 360, 740, has_touch=True, is_mobile=True, device_scale_factor=2)
    page.goto(server.url + created["seats"][0]["url"])
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    check_fits(page, "the game page")
    for name in ("A1", "O15", "H8"):
        box = square(page, name).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert box["width"] >= 20, f"{name} is {box['width']} px wide: too small to touch"
    rack = page.get_by_role("button", name=re.compile(r"^rack "))
    expect(rack).to_have_count(9)
    for index in range(9):
        box = rack.nth(index).bounding_box()
        assert box and box["x"] + box["width"] <= 360
    # Tap a tile, then a square: the tile moves to the board.
    view = server.api("GET", f"/api/games/{created['id']}", token=token)
    code = view["rack"][0]
    rack_tile(page, "blank" if code == "?" else WORDS.get(code, code)).tap()
    square(page, "H8").tap()
    if code == "?":
        page.get_by_role("button", name="face 1", exact=True).tap()
    expect(square(page, "H8")).to_have_accessible_name(re.compile(r"^H8 .* placed$"))
    expect(rack).to_have_count(8)
    # A finger drags the next tile to I8 (touch events, which Chromium turns into pointers).
    dragged_blank = rack.first.get_attribute("aria-label") == "rack blank"
    touch_drag(page, rack.first, square(page, "I8"))
    if dragged_blank:
        # A blank asks for its face. Chromium makes no click of a tap that comes a few
        # milliseconds after a finger's drag (a person's comes far later): the face is
        # chosen with a click.
        page.get_by_role("button", name="face 1", exact=True).click()
    expect(square(page, "I8")).to_have_accessible_name(re.compile(r"^I8 .* placed$"))
    expect(rack).to_have_count(7)
    shoot(page, "phone-layout")
    # The lobby fits the phone too.
    page.goto(server.url + "/")
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    check_fits(page, "the lobby")
    shoot(page, "phone-lobby")
    page.goto(server.url + "/viewer")
    expect(page.get_by_role("button", name="Choose a record file")).to_be_visible()
    check_fits(page, "the record viewer")
    page.context.close()


def test_hot_seat_from_the_lobby_with_the_learning_rules_and_a_hint(
    browser: Any, server: Server
) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.get_by_label("Hot-seat").check()
    page.get_by_label("Number of players").select_option("2")
    page.get_by_label("Player 1 name").fill("Ada")
    page.get_by_label("Player 2 name").fill("Bo")
    page.get_by_text("House rules").click()
    page.get_by_label("Preset").select_option("learning")
    # Each switch is explained in a sentence, and the preset sets them.
    chains = page.get_by_label("Several of ×1, +0, AND 1 in one equation")
    expect(chains).to_be_checked()
    expect(page.locator("#rule-identity_chains-why")).not_to_be_empty()
    shoot(page, "lobby-hot-seat-rules")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[^/?]+$"))
    game_id, token = game_id_of(page), token_of(page)
    view = server.api("GET", f"/api/games/{game_id}", token=token)
    assert view["rules"]["identity_chains"] is True
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    # The learning preset offers a hint: the computer's best move, written with the tiles'
    # faces, explained.
    page.get_by_role("button", name="Hint", exact=True).click()
    heading = page.get_by_role("region", name="hint").get_by_role("heading")
    expect(heading).to_contain_text("Hint: ")
    hint = server.api("POST", f"/api/games/{game_id}/hint", {}, token)
    notation = hint["notation"]
    if notation in ("pass", "-"):
        expect(heading).to_have_text("Hint: pass")
    elif notation.startswith(("-", "exchange ")):
        # An exchange is said in words with its tiles, never with points.
        expect(heading).to_have_text(re.compile(r"^Hint: exchange \S"))
        expect(heading).not_to_contain_text("point")
    else:
        worth = f"{hint['score']} point{'' if hint['score'] == 1 else 's'}"
        expect(heading).to_have_text(f"Hint: {hint['display']} for {worth}")
    box = page.get_by_role("textbox", name="Move")
    box.fill(hint["notation"])
    box.press("Enter")
    # The device goes to the next player, whose tiles stay hidden until they take it.
    expect(page.get_by_text("Pass the device to Bo.")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"^rack ")).first).to_be_hidden()
    shoot(page, "hot-seat-handover")
    page.get_by_role("button", name="I am Bo: show my tiles").click()
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    # The lobby lists the game, kept in this browser, and resumes it.
    page.goto(server.url + "/")
    page.get_by_role("link", name="Ada vs Bo (hotseat)").click()
    expect(page.get_by_text("Pass the device to Bo.")).to_be_visible()
    page.get_by_role("button", name="I am Bo: show my tiles").click()
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    expect(page.get_by_role("row", name=re.compile("Bo — you"))).to_be_visible()
    bo = server.api("GET", f"/api/games/{game_id}", token=token_of(page))
    assert bo["seat"] == 1 and bo["turn"] == 1
    assert bo["moves"][0]["score"] == hint["score"]
    expect(page.get_by_role("button", name=re.compile(r"^rack "))).to_have_count(len(bo["rack"]))
    page.context.close()


def test_exchange_shuffle_and_recall(browser: Any, server: Server) -> None:
    created = server.new_game([{"name": "Eve"}, {"name": "Fay"}])
    game_id, token = created["id"], created["seats"][0]["token"]
    before = server.api("GET", f"/api/games/{game_id}", token=token)["rack"]
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["url"])
    rack = page.get_by_role("button", name=re.compile(r"^rack "))
    expect(rack).to_have_count(9)
    # Shuffle keeps the same tiles; Recall brings back a tile placed on the board.
    names = sorted(rack.evaluate_all("tiles => tiles.map(tile => tile.ariaLabel)"))
    page.get_by_role("button", name="Shuffle", exact=True).click()
    assert sorted(rack.evaluate_all("tiles => tiles.map(tile => tile.ariaLabel)")) == names
    rack.first.click()
    square(page, "H8").click()
    if before.count("?") and page.get_by_role("dialog").is_visible():
        page.get_by_role("button", name="face 1", exact=True).click()
    expect(rack).to_have_count(8)
    page.get_by_role("button", name="Recall", exact=True).click()
    expect(rack).to_have_count(9)
    expect(square(page, "H8")).to_have_accessible_name("H8 double word")
    # Exchange: press it, mark two tiles, press it again.
    exchange = page.get_by_role("button", name="Exchange", exact=True)
    exchange.click()
    rack.nth(0).click()
    rack.nth(1).click()
    expect(page.get_by_role("button", name=re.compile(r"^rack "), pressed=True)).to_have_count(2)
    exchange.click()
    expect(page.locator("#log tr")).to_have_count(1)
    # The player's own exchange is told with the tiles named.
    expect(page.locator("#log tr td").nth(2)).to_have_text(
        re.compile(r"^exchanged 2 tiles: \S+ \S+$")
    )
    after = server.api("GET", f"/api/games/{game_id}", token=token)
    assert after["turn"] == 1 and after["moves"][0]["notation"].startswith("-")
    assert len(after["moves"][0]["notation"]) == 3 and len(after["rack"]) == 9
    shoot(page, "exchange")
    page.context.close()


def test_a_blank_gets_the_face_chosen_for_it(browser: Any, server: Server) -> None:
    # A rack holds a blank in about one game of four: start games until one does.
    for _ in range(40):
        created = server.new_game([{"name": "Ivy"}, {"name": "Jo"}])
        token = created["seats"][0]["token"]
        if "?" in server.api("GET", f"/api/games/{created['id']}", token=token)["rack"]:
            break
    else:
        raise AssertionError("no rack with a blank in 40 new games")
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["url"])
    rack_tile(page, "blank").click()
    square(page, "H8").click()
    dialog = page.get_by_role("dialog", name="Choose the blank's face")
    expect(dialog).to_be_visible()
    shoot(page, "blank-face-chooser")
    dialog.get_by_role("button", name="face AND", exact=True).click()
    expect(dialog).to_be_hidden()
    expect(square(page, "H8")).to_have_accessible_name("H8 blank AND placed")
    # Cancelling the chooser leaves the blank on the rack.
    page.get_by_role("button", name="Recall", exact=True).click()
    rack_tile(page, "blank").click()
    square(page, "H9").click()
    dialog.get_by_role("button", name="Cancel").click()
    expect(square(page, "H9")).to_have_accessible_name("H9")
    expect(rack_tile(page, "blank")).to_be_visible()
    page.context.close()


def finished_game(server: Server) -> str:
    """A game between two people ended by six passes; its id."""
    created = server.new_game([{"name": "Uma"}, {"name": "Vic"}])
    tokens = [seat["token"] for seat in created["seats"]]
    for turn in range(6):
        body = {"move": "pass", "turn": turn}
        server.api("POST", f"/api/games/{created['id']}/moves", body, token=tokens[turn % 2])
    assert server.api("GET", f"/api/games/{created['id']}")["over"]
    return str(created["id"])


def test_no_page_breaks_the_content_security_policy_and_the_token_leaves_the_address(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    page = new_page(browser)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.goto(server.url + "/")
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    assert csp_problems(page, console) == []
    # A seat's invite link: the page reads the token, then takes it out of the address.
    created = server.new_game([{"name": "Cy"}, {"name": "Bot", "computer": "beginner"}])
    game_id, token = created["id"], created["seats"][0]["token"]
    page.goto(server.url + created["seats"][0]["url"])
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    assert "token" not in page.evaluate("location.href")
    assert token_of(page) == token
    assert csp_problems(page, console) == []
    # A reload keeps the seat, which still plays.
    page.reload()
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    expect(page.get_by_role("button", name=re.compile(r"^rack ")).first).to_be_visible()
    assert "token" not in page.evaluate("location.href")
    page.get_by_role("button", name="Pass", exact=True).click()
    expect(page.locator("#log tr").first).to_be_visible()
    view = server.api("GET", f"/api/games/{game_id}", token=token)
    assert view["moves"][0] == {**view["moves"][0], "seat": 0, "notation": "pass"}
    assert csp_problems(page, console) == []
    # The game's address in a new tab of the same browser (a bookmark, the history) opens it
    # as the seat this browser remembers; a browser that never had the link only watches.
    tab = page.context.new_page()
    tab.goto(f"{server.url}/games/{game_id}")
    expect(tab.get_by_role("button", name=re.compile(r"^rack ")).first).to_be_visible()
    assert token_of(tab) == token
    tab.close()
    stranger = new_page(browser)
    stranger.goto(f"{server.url}/games/{game_id}")
    expect(stranger.locator("#log tr").first).to_be_visible()
    expect(stranger.get_by_role("button", name=re.compile(r"^rack "))).to_have_count(0)
    stranger.context.close()
    # A finished game's page, its analysis, and its record in the viewer.
    over = finished_game(server)
    page.goto(f"{server.url}/games/{over}")
    expect(page.get_by_role("region", name="Game over")).to_be_visible()
    assert csp_problems(page, console) == []
    page.goto(f"{server.url}/games/{over}/analysis")
    expect(page.locator("#turns tr")).to_have_count(6, timeout=60_000)
    assert csp_problems(page, console) == []
    with DIRECT.open(f"{server.url}/api/games/{over}/record", timeout=30) as answer:
        record = tmp_path / "six-passes.bsr"
        record.write_bytes(answer.read())
    page.goto(server.url + "/viewer")
    page.get_by_label("Game record file").set_input_files(str(record))
    expect(page.locator("#turns tr")).to_have_count(7)
    assert csp_problems(page, console) == []
    page.context.close()


def hold_while_the_other_seat_passes(
    page: Any, server: Server, target: Any, game_id: str, token: str
) -> None:
    """Press the mouse on `target`, let the other seat pass (its view reaches the page while
    the button is held), then release: one click whose press and release straddle a view."""
    box = target.bounding_box()
    assert box
    turn = server.api("GET", f"/api/games/{game_id}", token=token)["turn"]
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    server.api("POST", f"/api/games/{game_id}/moves", {"move": "pass", "turn": turn}, token)
    expect(page.locator("#log tr")).to_have_count(turn + 1)
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    page.mouse.up()


def test_a_view_arriving_during_a_click_does_not_lose_it(browser: Any, server: Server) -> None:
    created = server.new_game([{"name": "Ann"}, {"name": "Bob"}])
    game_id = created["id"]
    ann, bob = (seat["token"] for seat in created["seats"])
    page = new_page(browser)
    page.goto(server.url + created["seats"][0]["url"])
    expect(page.locator("#turn-info")).to_have_text("Your turn")
    server.api("POST", f"/api/games/{game_id}/moves", {"move": "pass", "turn": 0}, ann)
    expect(page.locator("#turn-info")).to_have_text("Bob's turn")
    # A rack tile pressed during Bob's turn and released on Ann's is chosen.
    rack = page.get_by_role("button", name=re.compile(r"^rack "))
    expect(rack).to_have_count(9)
    tile = page.locator("#rack [data-tile]").first
    hold_while_the_other_seat_passes(page, server, tile, game_id, bob)
    expect(tile).to_have_attribute("aria-pressed", "true")
    # So is a board square: the press lands on its star, which a redraw used to replace.
    server.api("POST", f"/api/games/{game_id}/moves", {"move": "pass", "turn": 2}, ann)
    expect(page.locator("#turn-info")).to_have_text("Bob's turn")
    centre = page.locator('[data-square="H8"]')
    hold_while_the_other_seat_passes(page, server, centre, game_id, bob)
    expect(centre).to_have_class(re.compile(r"\bcursor\b"))
    page.context.close()
