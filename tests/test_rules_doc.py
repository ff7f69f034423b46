"""docs/rules.md says what the implementation does: its equation tables, scores, tile table,
premium squares, house rules and presets are read from the page and checked against the
code, and every equation quoted anywhere on the page is one of the checked ones."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from binscrabble.board import PREMIUMS, Board, parse_square
from binscrabble.expr import EquationError, check, normalize
from binscrabble.game import Game
from binscrabble.move import Place, parse_move
from binscrabble.rules import (
    BLANK,
    FACE_LABELS,
    SYMBOL_ALIASES,
    TILE_POINTS,
    WORD_ALIASES,
    Rules,
    tile_counts,
)

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")

Table = list[dict[str, str]]


def _cells(line: str) -> list[str]:
    # A `\|` inside a cell is the OR code, not a column border.
    parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [part.strip().replace("\\|", "|") for part in parts]


def tables(page: str = PAGE) -> list[Table]:
    """Every Markdown table of the page, as one mapping of header to cell per row."""
    found: list[Table] = []
    lines = page.splitlines()
    index = 0
    while index < len(lines):
        if lines[index].startswith("|") and index + 1 < len(lines):
            header = _cells(lines[index])
            index += 2  # the header and the |---| line under it
            rows: Table = []
            while index < len(lines) and lines[index].startswith("|"):
                rows.append(dict(zip(header, _cells(lines[index]), strict=True)))
                index += 1
            found.append(rows)
        else:
            index += 1
    return found


def tables_with(*columns: str) -> Table:
    """The rows of every table whose header starts with these columns."""
    rows = [row for table in tables() for row in table if list(row)[: len(columns)] == [*columns]]
    assert rows, f"no table headed {columns} in docs/rules.md"
    return rows


def code_span(cell: str) -> str:
    match = re.fullmatch(r"`([^`]+)`", cell)
    assert match, f"expected one `code` span, found {cell!r}"
    return match.group(1)


def switch_value(text: str) -> object:
    """A rule's value as the page writes it: on/off, a number or a word."""
    if text in ("on", "off"):
        return text == "on"
    return int(text) if text.isdigit() else text


def rules_named(text: str) -> Rules:
    """Rules written as a preset, then any `name=value` changes: `standard, xor_tiles=4`."""
    preset, *changes = [part.strip() for part in text.split(",")]
    rules = Rules.preset(preset)
    for change in changes:
        name, value = change.split("=")
        rules = rules.override(name, value)
    return rules


EQUATION_ROWS = tables_with("equation", "rules", "verdict", "value", "bonus")


@pytest.mark.parametrize(
    "row", EQUATION_ROWS, ids=[f"{row['equation']} ({row['rules']})" for row in EQUATION_ROWS]
)
def test_each_equation_of_the_page_has_the_stated_verdict(row: dict[str, str]) -> None:
    result = check(code_span(row["equation"]), rules_named(row["rules"]))
    assert row["verdict"] in ("valid", "invalid")
    assert result.valid == (row["verdict"] == "valid"), result.reason
    if result.valid:
        assert result.binary == row["value"]
        assert result.bonus == int(row["bonus"], 2)
    else:
        assert row["value"] == row["bonus"] == ""


def test_the_page_has_equations_of_every_verdict_and_every_preset() -> None:
    assert len(EQUATION_ROWS) >= 80
    assert {row["verdict"] for row in EQUATION_ROWS} == {"valid", "invalid"}
    presets = {row["rules"].split(",")[0] for row in EQUATION_ROWS}
    assert presets == {"learning", "standard", "expert"}


def _looks_like_an_equation(text: str) -> bool:
    symbols = re.sub(r"(?i)\b(AND|OR|NOT|XOR)\b", "&", text)
    return (
        "=" in text
        and bool(re.search("[01]", text))
        and re.fullmatch(r"[01=+\-x/&|~^ ]+", symbols) is not None
    )


def _normal_form(text: str) -> str:
    try:
        return normalize(text)
    except EquationError:  # a symbol that is no tile: compared as written
        return text.replace(" ", "")


def test_every_equation_quoted_on_the_page_is_a_checked_one() -> None:
    checked = {_normal_form(code_span(row["equation"])) for row in EQUATION_ROWS}
    quoted = {span for span in re.findall(r"`([^`\n]+)`", PAGE) if _looks_like_an_equation(span)}
    assert len(quoted) >= 40
    unchecked = sorted(span for span in quoted if _normal_form(span) not in checked)
    assert unchecked == []


SCORE_ROWS = tables_with("before", "play", "score")


def _rack_for(move: Place) -> str:
    return "".join(BLANK if tile.blank else tile.face for tile in move.tiles)


@pytest.mark.parametrize("row", SCORE_ROWS, ids=[row["play"] for row in SCORE_ROWS])
def test_each_play_of_the_page_scores_as_stated(row: dict[str, str]) -> None:
    rules = Rules()
    board = Board()
    if row["before"]:
        first = parse_move(code_span(row["before"]), board)
        assert isinstance(first, Place)
        game = Game.from_setup(rules, board, [_rack_for(first), "0"], seed=1)
        game.push(first)
        board = game.board.copy()
    play = parse_move(code_span(row["play"]), board)
    assert isinstance(play, Place)
    game = Game.from_setup(rules, board, [_rack_for(play), "0"], seed=1)
    assert game.score(play) == int(row["score"])


def test_the_worked_example_is_the_first_scoring_row() -> None:
    assert "first play `8D 1+1=10`" in PAGE.replace("\n", " ")
    assert "= **18**" in PAGE
    assert SCORE_ROWS[0]["play"] == "`8D 1+1=10`"
    assert SCORE_ROWS[0]["score"] == "18"


def test_the_tile_table_is_the_default_tile_set() -> None:
    rows = tables_with("face", "code", "also accepted", "count", "points")
    counts = tile_counts(Rules())
    codes = [code_span(row["code"]) for row in rows]
    assert sorted(codes) == sorted([*TILE_POINTS])
    for row, code in zip(rows, codes, strict=True):
        assert row["face"] == FACE_LABELS[code]
        assert int(row["count"]) == counts.get(code, 0), code
        assert int(row["points"]) == TILE_POINTS[code], code
        for alias in re.findall(r"`([^`]+)`", row["also accepted"]):
            assert normalize(alias) == code, alias
    assert sum(int(row["count"]) for row in rows) == 100
    accepted = " ".join(row["also accepted"] for row in rows)
    for alias in [*SYMBOL_ALIASES, *WORD_ALIASES]:
        assert f"`{alias}`" in accepted, alias


PREMIUM_KINDS = {
    "Triple word": "TW",
    "Double word": "DW",
    "Triple letter": "TL",
    "Double letter": "DL",
}


def test_the_premium_squares_listed_are_the_boards() -> None:
    text = PAGE.replace("\n  ", " ")  # a list item's wrapped lines
    listed: dict[int, str] = {}
    for name, kind in PREMIUM_KINDS.items():
        match = re.search(rf"^- \*\*{name}\*\* \({kind}\): (.+)$", text, re.MULTILINE)
        assert match, name
        for square_name in match.group(1).split():
            listed[parse_square(square_name)] = kind
    board = {sq: kind for sq, kind in enumerate(PREMIUMS) if kind is not None}
    assert listed == board


def test_the_premium_map_is_the_boards() -> None:
    match = re.search(r"```premium-map\n(.*?)```", PAGE, re.DOTALL)
    assert match
    header, *rows = match.group(1).splitlines()
    assert header.split() == list("ABCDEFGHIJKLMNO")
    marks = {"T": "TW", "D": "DW", "t": "TL", "d": "DL", ".": None}
    assert len(rows) == 15
    for row_number, line in enumerate(rows, start=1):
        label, *cells = line.split()
        assert int(label) == row_number
        for letter, mark in zip(header.split(), cells, strict=True):
            name = f"{letter}{row_number}"
            assert marks[mark] == PREMIUMS[parse_square(name)], name


def test_the_house_rules_table_names_every_rule_with_its_default() -> None:
    rows = tables_with("rule", "default")
    stated = {code_span(row["rule"]): switch_value(row["default"].strip("`")) for row in rows}
    defaults = {field.name: field.default for field in dataclasses.fields(Rules)}
    assert stated == defaults


def test_the_presets_table_is_the_presets() -> None:
    rows = tables_with("preset", "differs from the defaults in")
    stated = {}
    for row in rows:
        changes = [part.strip() for part in row["differs from the defaults in"].split(",")]
        stated[code_span(row["preset"])] = {
            name: switch_value(value)
            for name, value in (change.split("=") for change in changes if change)
        }
    assert stated == {name: Rules.preset(name).differences() for name in stated}
    assert set(stated) == {"learning", "standard", "expert"}


def test_the_sections_are_numbered_as_the_code_cites_them() -> None:
    numbers = [int(number) for number in re.findall(r"^## (\d+)\. ", PAGE, re.MULTILINE)]
    assert numbers == list(range(1, 13))
    for folder in ("src", "tests", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".md") or not path.is_file():
                continue
            for cited in re.findall(r"rules\.md §(\d+)", path.read_text(encoding="utf-8")):
                assert 1 <= int(cited) <= 12, f"{path} cites §{cited}"
