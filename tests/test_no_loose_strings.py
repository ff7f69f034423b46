"""No sentence people read is outside the catalogues (docs/languages.md, "Marking a new
string"): the pages' text and read attributes, the scripts' strings shown to people, and
the sentences of the errors the referee, the game and the notation raise are all messages
of the template, so each is translated."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from binscrabble import i18n
from binscrabble.web.page_text import STATIC, html_messages, js_messages

SOURCE = Path(i18n.__file__).parent
TEMPLATE = SOURCE / "locale" / "binscrabble.pot"
#: Looks written for people: two words, or one capitalised word ("Play").
PEOPLE = re.compile(r"[A-Za-z]{2,}[ ,.:;!?'’…]+[A-Za-z]{2,}|^[A-Z][a-z]+$")
#: Strings of the scripts that look like words but are not shown to people: storage keys,
#: CSS classes and selectors, key names, media queries, the authorization scheme. Each is
#: written here whole, with where it is used.
NOT_FOR_PEOPLE = {
    "Bearer",  # api.js: the Authorization header's scheme
    "input, textarea, select, dialog, a",  # game.js: a selector
    "input, select, textarea",  # stepper.js: a selector
    "Arrow",  # game.js: the prefix of the arrow keys' names
    "Backspace",  # game.js: a key name
    "Delete",  # game.js: a key name
    "Enter",  # game.js, chart.js: a key name
    "Escape",  # game.js: a key name
    "verdict legal",  # game.js: CSS classes
    "verdict illegal",  # game.js: CSS classes
    "verdict unfinished",  # game.js: CSS classes
    "tile face-button",  # table.js: CSS classes
    "mini-tile blank",  # tiles.js: CSS classes
    "(prefers-color-scheme: dark)",  # theme.js: a media query
}
#: The errors whose sentences reach people (the page's status, the API's answers, the
#: terminal). The equation checker's reasons are English by design and said in the
#: reader's language where they are shown (binscrabble.expr.sentences).
PEOPLES_ERRORS = {
    "RefereeError",
    "Busy",
    "IllegalMoveError",
    "NotationError",
    "CliError",
    "GameSetupError",
    "RecordError",
    "RulesError",
    "SetupError",  # a game that cannot be set up (game.py, table.py)
    "InputLimitError",  # an input over a bound (limits.py)
    "PlayerNameError",  # a computer player's name that names none (engine/levels.py)
    "ClusterError",  # selfplay --cluster (engine/cluster.py)
    "VersionMismatch",
    "ClockError",  # a clock that cannot be (clock.py)
    # The printables' reasons (binscrabble.print): a tile size, a laser bed, a missing
    # extra or font, a rules card's language.
    "TileSetError",
    "LaserError",
    "PrintExtraMissing",
    "FontMissing",
    "RulesCardError",
}


def template_ids() -> set[str]:
    with TEMPLATE.open("rb") as file:
        return {
            message.id if isinstance(message.id, str) else message.id[0]
            for message in read_po(file)
            if message.id
        }


#: After these, a ``/`` starts a regular expression rather than a division.
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^")


class ScriptStrings:
    """The string literals of a script, read as JavaScript reads them: comments, regular
    expressions and template literals (with their substitutions, read in turn) skipped
    or split, so a quote inside any of them is not taken for a string."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.found: list[tuple[int, int, str]] = []  # (start, end, text)
        self.before = ""  # the last thing read that is not a space
        self.read(0, inside=False)

    def read(self, at: int, inside: bool) -> int:
        source, depth = self.source, 0
        while at < len(source):
            char = source[at]
            if source.startswith("//", at):
                end = source.find("\n", at)
                at = len(source) if end < 0 else end
            elif source.startswith("/*", at):
                at = source.index("*/", at + 2) + 2
            elif char == "/" and self.before in REGEX_AFTER | {"", "return"}:
                at = self.regex_end(at)
            elif char in "\"'":
                at = self.quoted(at, char)
            elif char == "`":
                at = self.template(at)
            else:
                if char == "{":
                    depth += 1
                elif char == "}":
                    if inside and depth == 0:
                        return at + 1
                    depth -= 1
                if char.isalnum() or char in "_$":
                    word = re.match(r"[\w$]+", source[at:])
                    assert word is not None
                    self.before = "return" if word.group() == "return" else "x"
                    at += len(word.group())
                    continue
                if not char.isspace():
                    self.before = char
                at += 1
        return at

    def regex_end(self, at: int) -> int:
        at, in_class = at + 1, False
        while at < len(self.source) and self.source[at] != "\n":
            char = self.source[at]
            if char == "\\":
                at += 2
                continue
            if char == "/" and not in_class:
                break
            in_class = (in_class or char == "[") and char != "]"
            at += 1
        self.before = "x"
        return at + 1

    def quoted(self, at: int, quote: str) -> int:
        end = at + 1
        while self.source[end] != quote:
            end += 2 if self.source[end] == "\\" else 1
        self.found.append((at, end + 1, self.source[at + 1 : end]))
        self.before = "x"
        return end + 1

    def template(self, at: int) -> int:
        start, end, parts, part = at, at + 1, [], []
        while self.source[end] != "`":
            if self.source[end] == "\\":
                part.append(self.source[end : end + 2])
                end += 2
            elif self.source.startswith("${", end):
                parts.append("".join(part))
                part = []
                self.before = "("
                end = self.read(end + 2, inside=True)
            else:
                part.append(self.source[end])
                end += 1
        parts.append("".join(part))
        self.found.append((start, end + 1, " ".join(parts)))
        self.before = "x"
        return end + 1


def js_literals(source: str) -> list[tuple[int, str, bool]]:
    """Every string literal of a script but the keys of objects (codes: the server's
    premium names, for one): its line, its text (a template literal's substitutions as
    spaces) and whether it is the message of a ``t``/``tn`` call."""
    found = []
    for offset, end, text in ScriptStrings(source).found:
        if source[end:].lstrip(" ").startswith(":") and not source[:offset].rstrip().endswith("?"):
            continue
        before = source[max(0, offset - 300) : offset]
        wrapped = re.search(r'\bt\(\s*$|\btn\(\s*$|\btn\(\s*"(?:[^"\\\n]|\\.)*"\s*,\s*$', before)
        found.append((source.count("\n", 0, offset) + 1, text, wrapped is not None))
    return found


def test_every_page_message_is_in_the_template() -> None:
    known = template_ids()
    missing = [
        (page.name, line, message)
        for page in sorted([*STATIC.glob("*.html"), *STATIC.glob("parts/*.html")])
        for line, message in html_messages(page.read_text(encoding="utf-8"))
        if message not in known
    ]
    assert missing == [], "run `make messages` and translate"


def test_every_script_message_is_in_the_template() -> None:
    known = template_ids()
    missing = [
        (path.name, line, message)
        for path in sorted((STATIC / "js").glob("*.js"))
        for line, message, _plural in js_messages(path.read_text(encoding="utf-8"))
        if message not in known
    ]
    assert missing == [], "run `make messages` and translate"


def test_no_script_shows_a_string_outside_a_message() -> None:
    loose = []
    for path in sorted((STATIC / "js").glob("*.js")):
        if path.name == "i18n.js":
            continue
        source = path.read_text(encoding="utf-8")
        for line, text, wrapped in js_literals(source):
            shown = text.strip()
            if wrapped or shown in NOT_FOR_PEOPLE or shown.endswith(".js"):
                continue
            if shown.startswith(("binscrabble.", "chart-", "/api/", "/games/", "/table/")):
                continue  # storage keys, CSS classes, addresses
            if PEOPLE.search(shown):
                loose.append((path.name, line, shown))
    assert loose == []


def _string_parts(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [value.value for value in node.values if isinstance(value, ast.Constant)]
    if isinstance(node, ast.BinOp):
        return _string_parts(node.left) + _string_parts(node.right)
    return []


def test_no_error_people_read_is_raised_with_a_bare_sentence() -> None:
    loose = []
    for path in sorted(SOURCE.rglob("*.py")):
        relative = path.relative_to(SOURCE)
        if relative.parts[0] == "movegen":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in PEOPLES_ERRORS:
                continue
            for argument in node.args:
                text = " ".join(_string_parts(argument))
                if PEOPLE.search(text.strip()):
                    loose.append((str(relative), node.lineno, text[:60]))
    assert loose == []


#: The modules whose every sentence is a message: the command line, what it shows, the
#: reasons of the bounds on input, the computer players' names and descriptions, the
#: cluster's sentences, a move's legality, a clock's refusals, a table game's analysis and
#: the board pictures.
SPEAKING_MODULES = [
    *sorted((SOURCE / "cli").glob("*.py")),
    SOURCE / "terminal.py",
    SOURCE / "record.py",
    SOURCE / "rules.py",
    SOURCE / "limits.py",
    SOURCE / "engine" / "levels.py",
    SOURCE / "engine" / "descriptions.py",
    SOURCE / "engine" / "cluster.py",
    SOURCE / "legality.py",
    SOURCE / "clock.py",
    SOURCE / "web" / "table_routes.py",
    # The printables: the rules card, and the tile sheets' and laser files' own words.
    *sorted((SOURCE / "print").glob("*.py")),
    # The board pictures' words (render, Jupyter).
    SOURCE / "svg.py",
]
#: Their strings that look like words but are not shown to people, each with why.
NOT_SENTENCES = {
    "binscrabble.cli.",  # a module name's prefix
    "POSITION.json",  # metavars and file names: written the same in every language
    "FILE.toml",
    "FILE.pdf",
    "binscrabble.db",
    "games.db",
    "binscrabble-game.bsr",
    "binscrabble play --resume",  # a command to type, inside a translated sentence
    # record.py: lines of a record file, which is written in English whatever the language
    "# Binary Scrabble game record (format: docs/record-format.md)",
    "points of overtime",
    # limits.py: the Unicode categories of the control characters, and of the format
    # characters and surrogates (invisible in a name)
    "Cc",
    "Zl",
    "Zp",
    "Cf",
    "Cs",
    # svg.py: the pictures' font family, a tile's classes, and the Unicode categories of
    # the marks that take no room in a line
    "DejaVu Sans, Verdana, Arial, sans-serif",
    "tile last",
    "Mn",
    "Me",
    # print/: the font files every PDF embeds and the laser files' outlines come from, and
    # the package that draws the PNG pictures (named in the sentence of a missing extra)
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "Pillow",
}
MARKERS = {"_", "N_", "ngettext", "pgettext"}


def loose_strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module that read as words for people and are neither a
    docstring nor the message of ``_``, ``N_``, ``ngettext`` or ``pgettext``. Also left
    out: the message of an ``AssertionError`` (a broken invariant, for the program's
    authors) and markup (``<svg ...>``: a laser file's elements, read by programs)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            skipped.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in {
            *MARKERS,
            "AssertionError",
        }:
            skipped.update(id(inner) for argument in node.args for inner in ast.walk(argument))
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.strip()
            if text.startswith("<"):
                continue
            if PEOPLE.search(text) and text not in NOT_SENTENCES:
                found.append((node.lineno, text[:70]))
    return found


@pytest.mark.parametrize("path", SPEAKING_MODULES, ids=lambda path: path.name)
def test_the_command_line_says_nothing_outside_a_message(path: Path) -> None:
    assert loose_strings(path) == []
