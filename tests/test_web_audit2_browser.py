"""The web findings of the second newcomer audits (French/Bulgarian, English/Hebrew), in a
real browser (Debian's Chromium, as tests/test_web_browser.py): each test is written from a
finding's steps and failed before its fix.

- fr/bg N1: on a phone the hint's answer is brought into view when Hint is pressed.
- fr/bg N6, N8: an exchange the hint proposes, or the analysis names as the computer's best,
  is said in words with its tiles, in the page's language, never in notation.
- fr/bg N5: the chart's turn names join their parts with the catalogue's punctuation.
- fr/bg N9, en/he N16: a negative score is written with the minus sign, left to right.
- fr/bg N12, en/he N14: a play being laid says what it lacks, never "not legal".
- fr/bg N15: a game ended before any move offers no analysis.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_browser import (
    Server,
    browser,  # noqa: F401  (a fixture)
    expect,
    new_page,
    screenshot_folder,  # noqa: F401  (a fixture)
    server,  # noqa: F401  (a fixture)
    shoot,
)

PHONE = {"has_touch": True, "is_mobile": True, "device_scale_factor": 2}


def seat_page(
    opened: Any, running: Server, seat: dict[str, Any], language: str, **size: Any
) -> Any:
    """A seat's game page, in `language`, at 1366x768 or the `width` and `height` given."""
    width, height = size.pop("width", 1366), size.pop("height", 768)
    page = new_page(opened, width, height, **size)
    joiner = "&" if "?" in seat["url"] else "?"
    page.goto(f"{running.url}{seat['url']}{joiner}lang={language}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    return page


def panels(page: Any, call: str) -> Any:
    """What the page's own panels.js module answers to `call` (its functions, as `m`),
    with the page's messages in its language."""
    return page.evaluate(f"import('/static/js/panels.js').then((m) => {call})")


@pytest.mark.parametrize("language", ["fr", "bg"])
def test_on_a_phone_the_hint_comes_into_view_when_hint_is_pressed(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    created = server.new_game([{"name": "Élodie"}, {"name": "Hugo"}], {"preset": "learning"})
    page = seat_page(browser, server, created["seats"][0], language, width=360, height=740, **PHONE)
    expect(page.locator("#rack .tile")).to_have_count(9)
    page.locator("#hint").tap()
    panel = page.locator("#hint-panel")
    expect(panel.locator("h2")).to_be_visible()
    top = panel.evaluate("(node) => node.getBoundingClientRect().top")
    assert 0 <= top < 740 - 48, f"the hint's panel begins {top} px down a 740 px screen"
    assert panel.evaluate("(node) => document.activeElement === node"), "the panel has no focus"
    shoot(page, f"audit2-hint-in-view-{language}-360x740")
    page.context.close()


@pytest.mark.parametrize(
    ("language", "title", "best"),
    [
        (
            "en",
            "Hint: exchange 0, 0, and OR",
            "The computer's best: exchanging 3 tiles (0, 0, and OR).",
        ),
        (
            "fr",
            "Conseil\u00a0: échangez 0, 0 et OR",
            "Le meilleur coup de l’ordinateur\u00a0: échanger 3 jetons (0, 0 et OR).",
        ),
        (
            "bg",
            "Подсказка: сменете 0, × и OR",
            "Най-добрият ход на компютъра: смяна на 3 плочки (0, × и OR).",
        ),
    ],
)
def test_an_exchange_is_said_in_words_in_the_hint_and_the_analysis(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
    title: str,
    best: str,
) -> None:
    created = server.new_game([{"name": "Élodie"}, {"name": "Hugo"}], {"preset": "learning"})
    page = seat_page(browser, server, created["seats"][0], language)
    tiles = "00|" if language != "bg" else "0x|"
    shown = "0 0 OR" if language != "bg" else "0 × OR"
    exchange = {"notation": f"exchange {tiles}", "display": f"exchange {shown}", "score": 0}
    assert panels(page, f"m.hintTitle({exchange})") == title
    assert panels(page, f"m.bestSentence({exchange})") == best
    play = {"notation": "8D 1+1=10", "display": "8D 1+1=10", "score": 6}
    assert "8D 1+1=10" in panels(page, f"m.hintTitle({play})")
    page.context.close()


def test_a_pass_hint_and_best_are_said_in_words(browser: Any, server: Server) -> None:  # noqa: F811
    created = server.new_game([{"name": "Élodie"}, {"name": "Hugo"}], {"preset": "learning"})
    page = seat_page(browser, server, created["seats"][0], "fr")
    passing = {"notation": "pass", "display": "pass", "score": 0}
    assert panels(page, f"m.hintTitle({passing})") == "Conseil\u00a0: passez votre tour"
    assert (
        panels(page, f"m.bestSentence({passing})")
        == "Le meilleur coup de l’ordinateur\u00a0: passer."
    )
    page.context.close()


@pytest.mark.parametrize("language", ["fr", "he"])
def test_a_negative_score_has_the_minus_sign_drawn_left_to_right(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    created = server.new_game([{"name": "Hugo"}, {"name": "Léa"}])
    page = seat_page(browser, server, created["seats"][0], language)
    cell = page.evaluate(
        "import('/static/js/panels.js').then((m) => { const node = m.scoreText(-10);"
        " document.body.append(node);"
        " return [node.textContent, getComputedStyle(node).direction]; })"
    )
    assert cell == ["−10", "ltr"]
    assert (
        page.evaluate("import('/static/js/panels.js').then((m) => m.scoreText(12).textContent)")
        == "12"
    )
    page.context.close()


def test_the_end_table_writes_a_negative_final_score_with_the_minus_sign(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """A live game with overtime lost in overtime, then resigned (fr/bg N9, en/he N16): the
    end table's Overtime and Final cells and the scores say −10, drawn left to right."""
    clock = {"kind": "live", "seconds": 5, "overtime": 120}
    players = [{"name": "Hugo"}, {"name": "Léa"}]
    created = server.api("POST", "/api/games", {"players": players, "clock": clock})
    game_id = created["id"]
    first, second = (seat["token"] for seat in created["seats"])
    server.api("GET", f"/api/games/{game_id}", token=second)
    page = seat_page(browser, server, created["seats"][0], "he")
    # Hugo's five seconds run out; one started minute of overtime costs 10 points.
    expect(page.locator(".clock.overtime")).to_have_count(1, timeout=30_000)
    server.api("POST", f"/api/games/{game_id}/moves", {"move": "pass", "turn": 0}, token=first)
    server.api("POST", f"/api/games/{game_id}/resign", None, token=second)
    cells = page.locator("#result-body .adjustments td")
    expect(cells.first).to_be_visible()
    texts = cells.all_text_contents()
    assert "-10" not in texts and "10−" not in texts, texts
    assert texts[:2] == ["−10", "−10"], texts
    for index in range(2):
        found = cells.nth(index).evaluate(
            "(td) => getComputedStyle(td.querySelector('bdi') || td).direction"
        )
        assert found == "ltr", f"cell {index} is drawn {found}"
    expect(page.locator("#scores .score").first).to_have_text("−10")
    shoot(page, "audit2-negative-final-he")
    page.context.close()


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "The first play needs at least 3 tiles"), ("bg", "Първият ход")],
)
def test_the_first_tile_laid_is_told_what_the_play_lacks_not_that_it_is_wrong(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
    words: str,
) -> None:
    created = server.new_game([{"name": "Ann"}, {"name": "Bo"}])
    page = seat_page(browser, server, created["seats"][0], language, width=360, height=740, **PHONE)
    page.locator("#rack .tile").first.tap()
    page.locator('[data-square="H8"]').tap()
    if page.locator("#blank-dialog").is_visible():
        page.locator("#blank-faces button").first.tap()
    verdict = page.locator("#status .verdict")
    expect(verdict).to_be_visible()
    text = verdict.text_content() or ""
    for refusal in ("not legal", "не е правилен", "Неправилен"):
        assert refusal not in text, text
    assert text.startswith(words), text
    page.context.close()


def test_a_game_ended_before_any_move_offers_no_analysis(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    created = server.new_game([{"name": "Иван"}, {"name": "Петя"}])
    token = created["seats"][0]["token"]
    server.api("POST", f"/api/games/{created['id']}/abort", None, token=token)
    page = seat_page(browser, server, created["seats"][0], "bg", width=360, height=740, **PHONE)
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#download")).to_be_visible()
    expect(page.locator("#analysis")).to_be_hidden()
    page.context.close()
    # A game with a move offers it.
    played = server.new_game([{"name": "Иван"}, {"name": "Петя"}])
    token = played["seats"][0]["token"]
    server.api("POST", f"/api/games/{played['id']}/moves", {"move": "pass", "turn": 0}, token=token)
    server.api("POST", f"/api/games/{played['id']}/resign", None, token=token)
    page = seat_page(browser, server, played["seats"][0], "bg", width=360, height=740, **PHONE)
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#analysis")).to_be_visible()
    page.context.close()


def test_the_charts_turn_name_uses_the_catalogues_punctuation(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """fr/bg N5: "… Ordinateur 0\u202f; 0 point perdu", not "Ordinateur 0; 0 point perdu"."""
    played = server.new_game([{"name": "Élodie"}, {"name": "Hugo"}])
    token = played["seats"][0]["token"]
    server.api("POST", f"/api/games/{played['id']}/moves", {"move": "pass", "turn": 0}, token=token)
    server.api("POST", f"/api/games/{played['id']}/resign", None, token=token)
    page = new_page(browser, 1366, 768)
    page.goto(f"{server.url}/games/{played['id']}/analysis?lang=fr")
    column = page.locator("svg .chart-turn[data-turn='1']")
    expect(column).to_have_attribute("aria-label", re.compile("perdu"))
    name = column.get_attribute("aria-label") or ""
    assert "\u202f; " in name and "0; " not in name, name
    page.context.close()


@pytest.mark.parametrize("language", ["fr", "bg"])
def test_the_keyboard_help_says_what_each_code_types(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    """fr/bg N13: `& | ~ ^` are listed with the tiles they type, AND OR NOT XOR."""
    created = server.new_game([{"name": "Élodie"}, {"name": "Hugo"}])
    page = seat_page(browser, server, created["seats"][0], language)
    help_text = page.locator("#keys-help")
    expect(help_text).to_be_visible()
    text = help_text.text_content() or ""
    for code, face in (
        ("x", "×"),
        ("/", "÷"),
        ("&", "AND"),
        ("|", "OR"),
        ("~", "NOT"),
        ("^", "XOR"),
    ):
        assert f"{code} ({face})" in text, text
    page.context.close()


@pytest.mark.parametrize("language", ["en", "he"])
def test_choosing_tiles_to_exchange_by_touch_leaves_exchange_the_button_to_press(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    """en/he N18: in exchange mode Play waits (it said "place tiles ... then press Play"),
    Recall ends the mode and gives Play back, and Exchange swaps the marked tiles."""
    created = server.new_game([{"name": "Ann"}, {"name": "Bo"}])
    page = seat_page(browser, server, created["seats"][0], language, width=360, height=740, **PHONE)
    expect(page.locator("#rack .tile")).to_have_count(9)
    page.locator("#exchange").tap()
    tiles = page.locator("#rack .tile")
    tiles.nth(0).tap()
    tiles.nth(1).tap()
    expect(page.locator("#play")).to_be_disabled()
    page.locator("#recall").tap()
    expect(page.locator("#play")).to_be_enabled()
    page.locator("#exchange").tap()
    tiles.nth(0).tap()
    tiles.nth(1).tap()
    page.locator("#exchange").tap()
    expect(page.locator("#log tr")).to_have_count(1)
    page.context.close()


@pytest.mark.parametrize("language", ["en", "he"])
def test_a_link_with_a_broken_token_keeps_saying_so_while_it_watches(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    """en/he N23: a link cut short opens the game as a spectator, and the status keeps
    saying that its token opened no seat after the live views arrive (a move of the game)."""
    created = server.new_game([{"name": "Ann"}, {"name": "Bo"}])
    page = new_page(browser, 360, 740, **PHONE)
    page.goto(f"{server.url}/games/{created['id']}?token=broken&lang={language}")
    status = page.locator("#status")
    expect(page.locator("#board .square").first).to_be_visible()
    token = created["seats"][0]["token"]
    server.api(
        "POST", f"/api/games/{created['id']}/moves", {"move": "pass", "turn": 0}, token=token
    )
    expect(page.locator("#log tr")).to_have_count(1)
    invite = {"en": "use your invite link", "he": "השתמשו בקישור ההזמנה שלכם"}[language]
    expect(status).to_contain_text(invite)
    expect(status).to_contain_text({"en": "You are watching", "he": "צופים"}[language])
    page.context.close()


def test_your_games_names_a_game_against_the_computer_once(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """fr/bg N14: "Élodie contre Ordinateur (ordinateur)" said the computer twice."""
    players = [{"name": "Élodie"}, {"name": "Ordinateur", "computer": "beginner"}]
    created = server.api("POST", "/api/games", {"players": players})
    page = seat_page(browser, server, created["seats"][0], "fr")
    expect(page.locator("#rack .tile")).to_have_count(9)
    page.goto(f"{server.url}/?lang=fr")
    link = page.locator("#games li a").first
    expect(link).to_have_text("Élodie contre Ordinateur")
    page.context.close()


@pytest.mark.parametrize(("language", "name"), [("fr", "Ordinateur"), ("bg", "Компютър")])
@pytest.mark.parametrize("width", [360, 1366])
def test_the_analysis_table_holds_the_computers_name_whole(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
    name: str,
    width: int,
) -> None:
    """fr/bg N10, en/he N15: the Player column read "Ordinat…" at 1366 px, "Ком…" on a phone."""
    players = [{"name": "Élodie"}, {"name": name, "computer": "beginner"}]
    created = server.api("POST", "/api/games", {"players": players})
    token = created["seats"][0]["token"]
    server.api(
        "POST", f"/api/games/{created['id']}/moves", {"move": "pass", "turn": 0}, token=token
    )
    page = seat_page(browser, server, created["seats"][0], language)
    expect(page.locator("#log tr")).to_have_count(2)  # the computer has moved too
    page.context.close()
    server.api("POST", f"/api/games/{created['id']}/resign", None, token=token)
    options = PHONE if width < 600 else {}
    page = new_page(browser, width, 740 if width < 600 else 768, **options)
    page.goto(f"{server.url}/games/{created['id']}/analysis?lang={language}")
    cell = page.locator("#turns tr").nth(1).locator("td").nth(1)
    expect(cell).to_have_text(name)
    widths = cell.evaluate("(td) => [td.scrollWidth, td.clientWidth]")
    assert widths[0] <= widths[1], f"{name} is cut: {widths}"
    page.context.close()


def test_a_seat_out_of_time_reads_its_reason_whole_on_a_phone(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """en/he N3: "Noa — you (out of ti…" then "9 tiles": the reason is the row's news."""
    clock = {"kind": "live", "seconds": 5, "overtime": 0}
    players = [{"name": "Noa"}, {"name": "Yoav"}]
    created = server.api("POST", "/api/games", {"players": players, "clock": clock})
    server.api("GET", f"/api/games/{created['id']}", token=created["seats"][1]["token"])
    page = seat_page(browser, server, created["seats"][0], "en", width=360, height=740, **PHONE)
    # Each seat moves once (before that, time running out aborts the game), then Noa's
    # five seconds run out.
    for seat in (0, 1):
        move = {"move": "pass", "turn": seat}
        token = created["seats"][seat]["token"]
        server.api("POST", f"/api/games/{created['id']}/moves", move, token=token)
    expect(page.locator("#result")).to_be_visible(timeout=30_000)
    name = page.locator("#scores tr").first.locator(".seat-name")
    expect(name).to_contain_text("(out of time)")
    widths = name.evaluate("(node) => [node.scrollWidth, node.clientWidth]")
    assert widths[0] <= widths[1], f"the row is cut: {widths}"
    page.context.close()


def test_the_hebrew_lobby_reads_a_computers_name_before_its_level(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """en/he N17: "מחשב (מתחיל) נגד דנה" was drawn so that, read right to left, the level
    came first: the pair's isolate had no strong letter of its own and went left to right."""
    players = [{"name": "מחשב", "computer": "beginner"}, {"name": "דנה"}]
    server.api("POST", "/api/games", {"players": players})
    page = new_page(browser, 360, 740, **PHONE)
    page.goto(f"{server.url}/?lang=he")
    link = page.locator("#playing li a", has_text="דנה").first
    expect(link).to_be_visible()
    # The drawn right edge of the name and of the level's "(" : right to left, the name is
    # read first, so it stands to the right of the level.
    edges = link.evaluate(
        """(node) => {
          const text = node.firstChild;
          const at = (needle) => {
            const start = text.data.indexOf(needle);
            const range = document.createRange();
            range.setStart(text, start);
            range.setEnd(text, start + needle.length);
            return range.getBoundingClientRect().right;
          };
          return [at("מחשב"), at("מתחיל")];
        }"""
    )
    assert edges[0] > edges[1], f"the level is read before the name: {edges}"
    page.context.close()


@pytest.mark.parametrize("language", ["fr", "bg", "he"])
def test_the_phone_header_shows_the_site_title_whole_or_not_at_all(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    language: str,
) -> None:
    """fr/bg N2, en/he N8: "Scrabble …", "Двоичен …", "B…" at the end of a game or while the
    computer thinks: the title is shown whole, or left to screen readers alone."""
    created = server.new_game([{"name": "Élodie"}, {"name": "Hugo"}])
    token = created["seats"][0]["token"]
    server.api("POST", f"/api/games/{created['id']}/resign", None, token=token)
    page = seat_page(browser, server, created["seats"][0], language, width=360, height=740, **PHONE)
    expect(page.locator("#result")).to_be_visible()
    title = page.locator(".site-title")
    expect(title).to_be_attached()
    found = title.evaluate(
        """(node) => ({cut: node.scrollWidth > node.clientWidth + 1,
                       hidden: node.getBoundingClientRect().width <= 1,
                       turn: document.getElementById('turn-info').scrollWidth
                             <= document.getElementById('turn-info').clientWidth + 1})"""
    )
    assert found["hidden"] or not found["cut"], found
    assert found["turn"], "the turn's text is cut instead"
    expect(page.get_by_role("heading", level=1)).to_have_count(1)
    page.context.close()
