"""The pages' words in the reader's language, and the messages of the pages and scripts.

The pages in ``static/`` are plain HTML written in English. :func:`render` serves one in the
current language: every text node, and the attributes people read (``aria-label``,
``title``, ``placeholder``, ``alt``, an ``<optgroup>``'s ``label``), is looked up in the
catalogue with its English text as the message id (whitespace inside collapsed, around it
kept); an element marked ``data-i18n="html"`` is one message with its inner markup (a
sentence with ``<kbd>`` keys in it stays one sentence for the translator);
``data-i18n-context="CONTEXT"`` gives the messages inside an element that context
(``pgettext``: the same English words used for two things, the lobby's "How to play", get a
translation each); ``translate="no"`` keeps an element's text as it is, and text without two
letters in a row (``A``, ``15``, ``◐``) is
no message. A line
``<!-- part: NAME -->`` takes the part ``static/parts/NAME.html`` (the language menu,
written once for every page). ``<html>`` gets the language's ``lang`` and ``dir``, and
``<head>`` ends with the scripts' messages as a JSON object (``<script
type="application/json" id="messages">``) that ``js/i18n.js`` reads: no request, no layout
shift, and no inline script for the Content-Security-Policy to refuse.

The same readers give Babel the messages (:func:`extract_html`, :func:`extract_js`, named
in ``babel.cfg``) and give :func:`script_messages` the ones the scripts ask for, so what is
extracted is exactly what is looked up. In the scripts a message is ``t("…")`` or
``tn("…", "…", count)`` with double-quoted literals (docs/languages.md).

>>> [message for _line, message in html_messages('<p title="Dark theme">Play <b>now</b></p>')]
['Dark theme', 'Play', 'now']
>>> js_messages('say(t("Your turn."), tn("{count} tile", "{count} tiles", n))')
[(1, 'Your turn.', None), (1, '{count} tile', '{count} tiles')]
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any, Final

from binscrabble import i18n

STATIC: Final = Path(__file__).parent / "static"
#: Attributes whose values people read (or hear).
READ_ATTRIBUTES: Final = frozenset({"aria-label", "title", "placeholder", "alt", "label"})
#: Elements whose content is not text for people.
NOT_TEXT: Final = frozenset({"script", "style"})
#: Elements that have no end tag.
VOID: Final = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
#: Two letters in a row: what makes a text a message (``A``, ``10``, ``◐`` are not).
WORDS: Final = re.compile(r"[^\W\d_]{2}")
_SPACES: Final = re.compile(r"\s+")
_JS_STRING: Final = r'"((?:[^"\\\n]|\\.)*)"'
_JS_MESSAGE: Final = re.compile(rf"\b(?:t\(\s*{_JS_STRING}|tn\(\s*{_JS_STRING}\s*,\s*{_JS_STRING})")


def _replacement(text: str) -> str:
    """``text`` as the replacement of a regular-expression substitution (no group refs)."""
    return text.replace("\\", "\\\\")


def is_message(text: str) -> bool:
    """Whether a text is a message: it has two letters in a row."""
    return WORDS.search(text) is not None


def collapsed(text: str) -> str:
    """``text`` with its runs of whitespace made one space, and none around it."""
    return _SPACES.sub(" ", text).strip()


class _Pass(HTMLParser):
    """One pass over a page: it re-writes the page with each message replaced by
    ``translate(message)`` (``translate_in(context, message)`` inside an element with a
    ``data-i18n-context``), and lists the messages with their lines and contexts."""

    def __init__(self, translate: Any, translate_in: Any = None) -> None:
        super().__init__(convert_charrefs=False)
        self.translate = translate
        self.translate_in = translate_in
        self.out: list[str] = []
        self.found: list[tuple[int, str, str | None]] = []
        self.skip = 0  # depth inside <script>, <style> or translate="no"
        self.context: str | None = None  # the data-i18n-context of the element
        # (tag, skipping, whole, the context outside it)
        self.stack: list[tuple[str, bool, bool, str | None]] = []
        self.whole: list[str] | None = None  # the inner markup of a data-i18n="html"
        self.whole_line = 0
        self.text: list[str] = []  # a text node so far (entities split it in html.parser)

    def emit(self, text: str) -> None:
        self.flush()
        (self.whole if self.whole is not None else self.out).append(text)

    def flush(self) -> None:
        """Write the text node read so far, translated unless skipped or in a whole."""
        if not self.text:
            return
        data, self.text = "".join(self.text), []
        shown = data if self.skip or self.whole is not None else self.message(data)
        (self.whole if self.whole is not None else self.out).append(shown)

    def message(self, text: str) -> str:
        """The translation of ``text`` (entities as written), its spaces kept around it."""
        core = collapsed(text)
        if not core or not is_message(html.unescape(core)):
            return text
        self.found.append((self.getpos()[0], html.unescape(core), self.context))
        start = text[: len(text) - len(text.lstrip())]
        end = text[len(text.rstrip()) :]
        return start + html.escape(self.look_up(html.unescape(core)), quote=False) + end

    def look_up(self, message: str) -> str:
        """The translation of a message, in the context of the element it is in."""
        if self.context is None or self.translate_in is None:
            return str(self.translate(message))
        return str(self.translate_in(self.context, message))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.flush()
        self.emit(self.start_tag(tag, attrs, closed=False))
        if tag in VOID:
            return
        named = dict(attrs)
        skipping = tag in NOT_TEXT or named.get("translate") == "no"
        whole = named.get("data-i18n") == "html" and self.whole is None and not self.skip
        self.stack.append((tag, skipping, whole, self.context))
        self.context = named.get("data-i18n-context") or self.context
        self.skip += skipping
        if whole:
            self.whole, self.whole_line = [], self.getpos()[0]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.emit(self.start_tag(tag, attrs, closed=True))

    def start_tag(self, tag: str, attrs: list[tuple[str, str | None]], closed: bool) -> str:
        """The start tag as written (the parser lowercases names: ``viewBox`` must stay),
        each attribute people read replaced by its translation."""
        self.flush()
        raw = self.get_starttag_text() or ""
        outside = self.context
        self.context = dict(attrs).get("data-i18n-context") or outside
        for name, value in attrs:
            if value is None or name not in READ_ATTRIBUTES or self.skip or not is_message(value):
                continue
            self.found.append((self.getpos()[0], collapsed(value), self.context))
            shown = html.escape(self.look_up(collapsed(value)))
            written = re.compile(rf"""(\s{name}\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)""", re.I)
            raw = written.sub(rf'\g<1>"{_replacement(shown)}"', raw, count=1)
        self.context = outside
        return raw

    def handle_endtag(self, tag: str) -> None:
        self.flush()
        while self.stack:
            opened, skipping, whole, outside = self.stack.pop()
            self.skip -= skipping
            if whole and self.whole is not None:
                inner, self.whole = "".join(self.whole), None
                core = collapsed(inner)
                if core:
                    self.found.append((self.whole_line, core, self.context))
                    start = inner[: len(inner) - len(inner.lstrip())]
                    end = inner[len(inner.rstrip()) :]
                    self.out.append(start + self.look_up(core) + end)
            self.context = outside
            if opened == tag:
                break
        self.emit(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def handle_entityref(self, name: str) -> None:
        self.handle_data(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.handle_data(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        self.emit(f"<!--{data}-->")

    def handle_decl(self, decl: str) -> None:
        self.emit(f"<!{decl}>")


def _merge_text(parser: _Pass, page: str) -> None:
    parser.feed(page)
    parser.close()
    parser.flush()


def html_messages(page: str) -> list[tuple[int, str]]:
    """The messages of a page, each with its line."""
    return [(line, message) for line, message, _context in html_entries(page)]


def html_entries(page: str) -> list[tuple[int, str, str | None]]:
    """The messages of a page, each with its line and its context (``None``: none).

    >>> html_entries('<legend data-i18n-context="game mode">How to play</legend>')
    [(1, 'How to play', 'game mode')]
    """
    found = _Pass(lambda text: text)
    _merge_text(found, page)
    return found.found


def translate_html(page: str, translate: Any, translate_in: Any = None) -> str:
    """``page`` with every message replaced by ``translate(message)``, or by
    ``translate_in(context, message)`` where it has a context (``pgettext``)."""
    rewriter = _Pass(translate, translate_in)
    _merge_text(rewriter, page)
    return "".join(rewriter.out)


def js_messages(source: str) -> list[tuple[int, str, str | None]]:
    """The messages of a script: ``(line, message, plural or None)``."""
    found: list[tuple[int, str, str | None]] = []
    for match in _JS_MESSAGE.finditer(source):
        line = source.count("\n", 0, match.start()) + 1
        single, first, plural = match.groups()
        if single is not None:
            found.append((line, json.loads(f'"{single}"'), None))
        else:
            found.append((line, json.loads(f'"{first}"'), json.loads(f'"{plural}"')))
    return found


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """Babel's extraction method for the pages (``babel.cfg``); a message with a context is
    given as ``pgettext``'s (``-k pgettext:1c,2`` in the Makefile)."""
    for line, message, context in html_entries(fileobj.read().decode("utf-8")):
        if context is None:
            yield line, "", message, []
        else:
            yield line, "pgettext", (context, message), []


def extract_js(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """Babel's extraction method for the scripts (``babel.cfg``)."""
    for line, message, plural in js_messages(fileobj.read().decode("utf-8")):
        if plural is None:
            yield line, "gettext", message, []
        else:
            yield line, "ngettext", (message, plural), []


@functools.cache
def script_message_ids(folder: Path = STATIC / "js") -> tuple[tuple[str, str | None], ...]:
    """Every message the scripts ask for (read once)."""
    found: dict[tuple[str, str | None], None] = {}
    for path in sorted(folder.glob("*.js")):
        for _line, message, plural in js_messages(path.read_text(encoding="utf-8")):
            found[(message, plural)] = None
    return tuple(found)


#: For each language, one count for each of its plural forms, in the forms' order (the
#: scripts' ``js/i18n.js`` chooses the form by the same rule).
PLURAL_SAMPLES: Final = {"en": (1, 2), "fr": (1, 2), "bg": (1, 2), "he": (1, 2, 3)}


def script_messages(language: str) -> dict[str, Any]:
    """What the scripts of a page read: the language, its direction, and each message the
    scripts ask for in it (a plural one as the list of its forms)."""
    catalogue = i18n.translations(language)
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    for message, plural in script_message_ids():
        if plural is None:
            messages[message] = catalogue.gettext(message)
        else:
            counts = PLURAL_SAMPLES[language]
            plurals[message] = [catalogue.ngettext(message, plural, n) for n in counts]
    return {
        "lang": language,
        "dir": i18n.direction(language),
        "messages": messages,
        "plurals": plurals,
    }


def embedded(data: dict[str, Any]) -> str:
    """``data`` as a JSON block a page may carry (``<`` escaped: no ``</script>`` in it)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" id="messages">{text}</script>\n'


_HTML_TAG: Final = re.compile(r"<html\b[^>]*>")
#: Where a page takes a part written once for every page (``static/parts/NAME.html``).
_PART: Final = re.compile(r"^([ \t]*)<!-- part: ([a-z-]+) -->\n", re.MULTILINE)


def with_parts(page: str, static: Path) -> str:
    """``page`` with each ``<!-- part: NAME -->`` line replaced by ``static/parts/NAME.html``,
    every line of it indented as the marker was: the language menu, the same in every
    page, is written once."""

    def part(found: re.Match[str]) -> str:
        indent, name = found.groups()
        text = (static / "parts" / f"{name}.html").read_text(encoding="utf-8")
        return "".join(f"{indent}{line}\n" for line in text.rstrip("\n").split("\n"))

    return _PART.sub(part, page)


def _stamp(static: Path, name: str) -> float:
    """The date of the newest file a page is made of (the page and the parts)."""
    files = [static / name, *sorted((static / "parts").glob("*.html"))]
    return max(path.stat().st_mtime for path in files)


@functools.lru_cache(maxsize=64)
def _rendered(name: str, language: str, stamp: float, static: Path) -> str:
    page = with_parts((static / name).read_text(encoding="utf-8"), static)
    catalogue = i18n.translations(language)
    shown = translate_html(page, catalogue.gettext, catalogue.pgettext)
    tag = f'<html lang="{language}" dir="{i18n.direction(language)}">'
    shown = _HTML_TAG.sub(tag, shown, count=1)
    return shown.replace("</head>", embedded(script_messages(language)) + "</head>", 1)


def render(name: str) -> str:
    """The page ``name`` of ``static/`` in the current language, its parts inserted (kept
    until one of its files changes)."""
    return _rendered(name, i18n.language(), _stamp(STATIC, name), STATIC)
