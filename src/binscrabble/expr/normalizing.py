"""Reading people's input: aliases, words (any case) and spaces turned into codes.

``1 AND NOT 0 = 1`` becomes ``1&~0=1``. The checker asks for codes only; positions in the
text as typed are worked out only when an error needs pointing at (:class:`CodePositions`
and :class:`LayoutPositions` find them one index at a time).

Two readers agree on every text: :func:`codes_and_positions` walks the text symbol by
symbol and knows where each code stood; :func:`quick_codes` (and its batch form) gets the
same codes from a few string methods run in C, for the text people usually type.
"""

from __future__ import annotations

import itertools
import re
from typing import Final

from binscrabble.expr.errors import EquationError, counted
from binscrabble.expr.limits import SHAPE_LIMIT
from binscrabble.expr.symbols import CODE_TEXT, CODES
from binscrabble.rules import SYMBOL_ALIASES, WORD_ALIASES

CODES_ONLY: Final = re.compile(r"[01=+\-x/&|^~]*")
_WORDS_BY_LENGTH: Final = tuple(
    sorted(((word, code) for word, code in WORD_ALIASES.items()), key=lambda item: -len(item[0]))
)


_WORD_INITIALS: Final = frozenset(
    initial for word in WORD_ALIASES for initial in (word[0], word[0].lower())
)


#: The aliases beyond ASCII, made ASCII before the words are read; × becomes `*`, its ASCII
#: alias, made x only after the words (_padded_words): `×OR` is x then OR, as
#: codes_and_positions reads it, not XOR.
_UNICODE_ALIASES: Final = str.maketrans(
    {
        symbol: "*" if code == "x" else code
        for symbol, code in SYMBOL_ALIASES.items()
        if not symbol.isascii()
    }
)
_SPACES_AWAY: Final = str.maketrans("", "", " ")
_ASCII_TAIL: Final = str.maketrans(
    {
        **{symbol: code for symbol, code in SYMBOL_ALIASES.items() if symbol.isascii()},
        **{chr(number): None for number in range(128) if chr(number).isspace()},
    }
)


def _words_to_codes(text: str) -> str:
    """Words and X to codes, spaces away: words first (``xor`` before ``or``, as
    codes_and_positions reads them), spaces last, so that ``X OR`` stays two symbols."""
    return _padded_words(text).replace(" ", "")


def quick_codes(text: str) -> str | None:
    """Codes for typical people's input in a few C calls, or None: then use
    :func:`codes_and_positions`.

    Words first (``xor`` before ``or``, as codes_and_positions reads them), spaces last, so
    that ``X OR`` stays two symbols, and × (and *) made x after the words, so that ``×OR``
    is x then OR, not XOR; this agrees with codes_and_positions on every text it accepts
    because no two words overlap except OR inside XOR.

    >>> quick_codes("1×OR1=1"), quick_codes("1 X OR 1=1"), quick_codes("1XOR1=1")
    ('1x|1=1', '1x|1=1', '1^1=1')
    """
    if not text.isascii():
        text = text.translate(_UNICODE_ALIASES)
        if not text.isascii():
            return None
    codes = _words_to_codes(text)
    if CODES_ONLY.fullmatch(codes):
        return codes
    # Rarer aliases (* : !) and other spaces (tabs...): one translation, slower.
    codes = codes.translate(_ASCII_TAIL)
    return codes if CODES_ONLY.fullmatch(codes) else None


def quick_codes_many(texts: list[str]) -> tuple[list[str | None], list[str]]:
    """:func:`quick_codes` for many texts, with each string method run once for all, and
    each text's *layout* (see :class:`LayoutPositions`).

    The texts are joined with a NUL between them (when none holds one), so each method
    walks one long string in C instead of being called once per text.
    """
    if not texts:
        return [], []
    joined = "\0".join(texts)
    if joined.count("\0") != len(texts) - 1:
        return list(map(quick_codes, texts)), list(map(layout, texts))
    if not joined.isascii():
        for symbol, code in _UNICODE_ALIAS_PAIRS:
            joined = joined.replace(symbol, code)
    # A text still not ASCII here has no quick codes (decided before upper(), which turns
    # some letters into ASCII ones).
    all_ascii = joined.isascii()
    ascii_flags = [True] * len(texts) if all_ascii else list(map(str.isascii, joined.split("\0")))
    joined = _padded_words(joined)
    layouts = joined.split("\0")
    # (Deleting by translate: 30 times cheaper than replace(" ", "") on a long text.)
    joined = joined.translate(_SPACES_AWAY)
    found: list[str | None] = list(joined.split("\0"))
    if all_ascii and not joined.translate(_CODES_AND_NUL_AWAY):
        return found, layouts  # the common case: nothing but codes left in any text
    for index, (codes, ascii_text) in enumerate(zip(found, ascii_flags, strict=True)):
        if not ascii_text:
            found[index] = None
        elif codes and codes.strip(CODE_TEXT):
            # Rarer aliases (* : !) and other spaces (tabs...): one translation, slower.
            codes = codes.translate(_ASCII_TAIL)
            found[index] = codes if CODES_ONLY.fullmatch(codes) else None
    return found, layouts


def _padded_words(text: str) -> str:
    """`text` in capitals with each word replaced by its code and as many spaces as it has
    letters after the first, and X and * (and so ×, see _UNICODE_ALIASES) by x: with the
    spaces taken away, the codes (:func:`_words_to_codes`); with them, each code where its
    word or symbol starts."""
    return (
        text.upper()
        .replace("XOR", "^  ")
        .replace("AND", "&  ")
        .replace("NOT", "~  ")
        .replace("OR", "| ")
        .replace("X", "x")
        .replace("*", "x")
    )


def layout(text: str) -> str:
    """The layout of one text (see :class:`LayoutPositions`)."""
    if not text.isascii():
        text = text.translate(_UNICODE_ALIASES)
    return _padded_words(text)


class LayoutPositions:
    """Where each code of a typed text starts, read from the text's *layout*: the text with
    its aliases and words replaced by their codes, each word padded with spaces to its
    length (:func:`_padded_words`). The codes are then exactly the layout's characters
    other than white space, each at the index where its symbol or word starts in the text.

    >>> LayoutPositions(layout("1  AND NOT 0 = 1"))[3]
    11
    """

    __slots__ = ("layout",)

    def __init__(self, layout: str) -> None:
        self.layout = layout

    def __getitem__(self, index: int) -> int:
        return layout_position(self.layout, index)


def layout_position(layout: str, index: int) -> int:
    """Where code number `index` starts in a text of this `layout` (see LayoutPositions)."""
    skip = _SKIP_CODES.get(index)
    if skip is None:
        if len(_SKIP_CODES) >= SHAPE_LIMIT:
            _SKIP_CODES.clear()
        # `index` codes, each after optional white space, then the white space before
        # the next: the match ends where that code starts.
        skip = _SKIP_CODES[index] = re.compile(rf"(?:\s*+\S){{{index}}}\s*+")
    found = skip.match(layout)
    assert found is not None
    return found.end()


_SKIP_CODES: dict[int, re.Pattern[str]] = {}
_CODES_AND_NUL_AWAY: Final = str.maketrans("", "", "01=+-x/&|^~\0")


_UNICODE_ALIAS_PAIRS: Final = tuple(
    (symbol, "*" if code == "x" else code)
    for symbol, code in SYMBOL_ALIASES.items()
    if not symbol.isascii()
)


#: One unit per code, as codes_and_positions reads them: a word (tried first) or any other
#: symbol.
UNITS: Final = re.compile(r"(?i:xor|and|not|or)|\S")


class CodePositions:
    """Where each code of `text` starts, for text that quick_codes accepted.

    Looked up one index at a time (only an error's position is ever wanted), skipping the
    units before it inside ``itertools.islice``, in C.
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __getitem__(self, index: int) -> int:
        skip = _SKIP_UNITS.get(index)
        if skip is None:
            if len(_SKIP_UNITS) >= SHAPE_LIMIT:
                _SKIP_UNITS.clear()
            # `index` units, each after optional spaces, then the spaces before the next:
            # the match ends where that unit starts. Atomic groups read each unit as
            # UNITS.finditer does (a word before a single symbol), never otherwise.
            skip = _SKIP_UNITS[index] = re.compile(
                rf"(?>\s*+(?>(?i:xor|and|not|or)|\S)){{{index}}}\s*+"
            )
        found = skip.match(self.text)
        if found is None or found.end() >= len(self.text):
            return next(itertools.islice(UNITS.finditer(self.text), index, None)).start()
        return found.end()


_SKIP_UNITS: dict[int, re.Pattern[str]] = {}


def codes_and_positions(text: str) -> tuple[str, list[int] | None]:
    """Codes for `text` and, unless they are the same string, each code's index in `text`."""
    if CODES_ONLY.fullmatch(text):
        return text, None
    codes: list[str] = []
    positions: list[int] = []
    index = 0
    length = len(text)
    while index < length:
        symbol = text[index]
        # Words first: the `x` of `xor` is also the code for times.
        if symbol in _WORD_INITIALS:
            upper = text[index : index + 3].upper()
            word_code = next(
                ((word, code) for word, code in _WORDS_BY_LENGTH if upper.startswith(word)), None
            )
            if word_code is not None:
                codes.append(word_code[1])
                positions.append(index)
                index += len(word_code[0])
                continue
        if symbol in CODES:
            codes.append(symbol)
            positions.append(index)
            index += 1
        elif symbol.isspace():
            index += 1
        else:
            alias = SYMBOL_ALIASES.get(symbol)
            if alias is None:
                raise _unknown_symbol(symbol, index)
            codes.append(alias)
            positions.append(index)
            index += 1
    return "".join(codes), positions


def _unknown_symbol(symbol: str, index: int) -> EquationError:
    if symbol == "?":
        message = (
            f"unknown symbol '?' at position {counted(index)}: a blank must be written as the face "
            "it stands for"
        )
    else:
        message = f"unknown symbol {symbol!r} at position {counted(index)}"
    return EquationError(message, kind="unknown_symbol", position=index)


def normalize(text: str) -> str:
    """Turn people's input into codes: aliases, words (any case) and spaces are accepted.

    >>> normalize("100 or 1 = 101")
    '100|1=101'
    >>> normalize("11 × 11 ÷ 1 = 1001")
    '11x11/1=1001'
    >>> normalize("1 # 1")
    Traceback (most recent call last):
    ...
    binscrabble.expr.errors.EquationError: unknown symbol '#' at position 3
    """
    return codes_and_positions(text)[0]
