"""Bounds on untrusted input, checked before anything is parsed (docs/limits.md).

Records, position files and rules files may come from anyone, so each reader first asks
here: is the file small enough, is its nesting shallow enough, are its numbers short
enough? Player names and other text shown on a terminal are checked for control
characters, and escaped on output.

>>> check_structure('{"rack": "1=1", "scores": [1, 2]}', "json")
>>> check_structure("[" * 40 + "]" * 40, "json")
Traceback (most recent call last):
...
binscrabble.limits.InputLimitError: it nests more than 32 levels deep; 2 or 3 are enough
>>> check_structure(".".join(["a"] * 40) + " = 1", "toml")
Traceback (most recent call last):
...
binscrabble.limits.InputLimitError: it nests more than 32 levels deep; 2 or 3 are enough
>>> check_structure("bingo_bonus = 0x" + "f" * 200, "toml")
Traceback (most recent call last):
...
binscrabble.limits.InputLimitError: it holds a number of 200 digits; numbers have at most 100
>>> name_problem("Ada\\x1b[2J")
"it holds the control character '\\\\x1b'"
>>> escape_controls("Ada\\x1b[2J")
'Ada\\\\x1b[2J'
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from collections.abc import Mapping, Sequence
from typing import BinaryIO, Final, Literal

from binscrabble.i18n import N_, _

#: The largest record, position or rules file read, in bytes (a whole game's record is
#: under 10 KiB).
MAX_FILE_BYTES: Final = 1 << 20
#: The deepest nesting of lists and objects (tables) in a position or rules file.
MAX_NESTING: Final = 32
#: The most digits of a number in a record, position or rules file (Python refuses to
#: read integers of more than 4,300 digits; no score or seed needs more than a few dozen).
MAX_DIGITS: Final = 100
#: The longest player name, in characters.
MAX_NAME_LENGTH: Final = 64
#: The longest line of a record that is not a comment (a turn's line is under 100).
MAX_RECORD_LINE: Final = 1000

# A string never closed runs to the end of its line (or of the text, for a kind that may
# span lines): the parser refuses it there, before reading anything it hides. Every match
# moves the scan on, so the scan stays linear whatever the quotes.
_JSON_SKIPPED: Final = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)', re.DOTALL)
# TOML's four kinds of strings, and its comments: brackets inside them do not nest. A
# backslash escapes the next character in both basic kinds (so \""" ends no string).
_TOML_SKIPPED: Final = re.compile(
    r'"""(?:[^\\]|\\[\s\S])*?(?:"""|\\?\Z)'
    r"|'''[\s\S]*?(?:'''|\Z)"
    r'|"(?:[^"\\\n]|\\.)*(?:"|\\?(?=\n)|\\?\Z)'
    r"|'[^'\n]*(?:'|(?=\n)|\Z)"
    r"|#[^\n]*"
)
# What nests: brackets, and in TOML a dotted key (``a.b.c = 1`` and ``[a.b.c]`` make a
# table in a table in a table), its parts bare words or strings (each string is "" by then).
_JSON_NESTING: Final = re.compile(r"[\[\]{}]")
# A key's part is matched from its start only, and whole (``++``): a long bare word is
# scanned once, not once from each of its characters.
_TOML_NESTING: Final = re.compile(
    r"[\[\]{}]"
    r"|(?<![A-Za-z0-9_-])(?:[A-Za-z0-9_-]++|\"\")(?:[ \t]*\.[ \t]*(?:[A-Za-z0-9_-]++|\"\"))+"
)
# A number: decimal digits, or TOML's hexadecimal, octal and binary ones, with underscores
# (matched from its start only, as above).
_LONG_NUMBER: Final = re.compile(rf"(?<![0-9A-Za-z_])(?:0[xob])?[0-9A-Fa-f_]{{{MAX_DIGITS + 1},}}")
_NUMBER_DIGITS: Final = re.compile(r"(?:0[xob])?([0-9A-Fa-f_]+)")


#: The numbers of a record whose digits are counted (:func:`check_digits`).
Number = Literal["seed", "adjustment", "score", "total"]
#: What :func:`check_digits` says of a number too long to read, by which number it is.
_TOO_MANY_DIGITS: Final[Mapping[Number, str]] = {
    "seed": N_("the seed has {digits} digits; numbers have at most {most}"),
    "adjustment": N_("the adjustment has {digits} digits; numbers have at most {most}"),
    "score": N_("the score has {digits} digits; numbers have at most {most}"),
    "total": N_("the total has {digits} digits; numbers have at most {most}"),
}


def _too_large() -> str:
    """Why a file or a text over :data:`MAX_FILE_BYTES` is not read, in the current language."""
    return _("it is larger than {size} KiB, the most read").format(size=MAX_FILE_BYTES // 1024)


class InputLimitError(ValueError):
    """Input over one of the bounds of this module; the message says which, as a sentence
    fragment the reader puts after the file's name."""


def read_limited(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a file, at most :data:`MAX_FILE_BYTES` of them.

    Never reads more than one byte past the bound, so a special file such as /dev/zero
    ends at once. The file is opened without waiting for a writer: a FIFO (or a pipe such
    as ``<(command)``) is read as it comes, and one that no program writes to reads as
    empty at once. Raises :class:`InputLimitError` for a larger file, or a FIFO with
    nothing in it; ``OSError`` for one that cannot be read.
    """
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with open(descriptor, "rb", closefd=True) as handle:
        # Waiting is only what is wanted once open: a writer's bytes are read as they come.
        os.set_blocking(descriptor, True)
        is_regular = stat.S_ISREG(os.fstat(descriptor).st_mode)
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise InputLimitError(_too_large())
    if not data and not is_regular:
        raise InputLimitError(
            _("it is a FIFO or device with nothing to read (no program writes to it)")
        )
    return data


def open_for_writing(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened to be written from its start, without waiting for a reader.

    A regular file is created or emptied. A FIFO that no program reads raises ``OSError``
    (``ENXIO``) at once, rather than waiting for a reader that never comes.
    """
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK, 0o666)
    try:
        os.set_blocking(descriptor, True)
        if stat.S_ISREG(os.fstat(descriptor).st_mode):
            os.ftruncate(descriptor, 0)
    except BaseException:
        os.close(descriptor)
        raise
    return open(descriptor, "wb", closefd=True)


def check_text_size(text: str) -> None:
    """:class:`InputLimitError` when a text given whole is over the size of a file."""
    if len(text) > MAX_FILE_BYTES:
        raise InputLimitError(_too_large())


def check_structure(text: str, syntax: Literal["json", "toml"]) -> None:
    """:class:`InputLimitError` when a JSON or TOML text nests deeper than
    :data:`MAX_NESTING` or holds a number of more than :data:`MAX_DIGITS` digits.

    Strings (and TOML comments) are skipped: what they hold is text, not structure.
    """
    skipped = _JSON_SKIPPED if syntax == "json" else _TOML_SKIPPED
    nesting = _JSON_NESTING if syntax == "json" else _TOML_NESTING
    bare = skipped.sub('""', text)
    depth = 0
    for match in nesting.finditer(bare):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
        elif token in ("]", "}"):
            depth -= 1
        # A dotted key of N parts nests N tables where it stands (a float's one dot too:
        # 2 levels, far under the bound).
        if depth + token.count(".") > MAX_NESTING:
            raise InputLimitError(
                _("it nests more than {most} levels deep; 2 or 3 are enough").format(
                    most=MAX_NESTING
                )
            )
    long_number = _LONG_NUMBER.search(bare)
    if long_number is not None:
        digits = _NUMBER_DIGITS.fullmatch(long_number.group())
        count = len(digits.group(1).replace("_", "")) if digits else len(long_number.group())
        if count > MAX_DIGITS:
            raise InputLimitError(
                _("it holds a number of {count} digits; numbers have at most {most}").format(
                    count=count, most=MAX_DIGITS
                )
            )


def check_digits(text: str, what: Number) -> None:
    """:class:`InputLimitError` when the number `text` (a `what`) is too long to read."""
    digits = sum(char.isdigit() for char in text)
    if digits > MAX_DIGITS:
        raise InputLimitError(_(_TOO_MANY_DIGITS[what]).format(digits=digits, most=MAX_DIGITS))


def is_control(char: str) -> bool:
    """Whether a character acts on a terminal rather than showing (C0, DEL, C1, and the
    line and paragraph separators)."""
    return unicodedata.category(char) in ("Cc", "Zl", "Zp")


# Characters that show nothing though they are letters, marks or symbols: the Hangul
# fillers, the Khmer inherent vowels, the combining grapheme joiner, the Mongolian and
# other variation selectors, the blank Braille pattern (a name of them shows as nothing,
# and one added to a name leaves it looking the same).
_BLANK_RANGES: Final = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0100, 0xE01EF),
)


def is_invisible(char: str) -> bool:
    """Whether a character shows nothing yet changes how a name reads or compares: Unicode's
    format characters (zero-width spaces and joiners, direction marks, embeddings,
    overrides and isolates, the byte order mark, tag characters), fillers and blanks.

    >>> [is_invisible(char) for char in "A\u061c\u3164\u200b\u0301"]
    [False, True, True, True, False]
    """
    if unicodedata.category(char) in ("Cf", "Cs"):
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in _BLANK_RANGES)


def invisible_character(text: str) -> str | None:
    """The first invisible character of `text` (:func:`is_invisible`), or None."""
    for char in text:
        if is_invisible(char):
            return char
    return None


def has_visible_character(text: str) -> bool:
    """Whether `text` shows something: a letter, digit, punctuation mark or symbol that is
    not a blank (spaces and lone combining marks show nothing).

    >>> has_visible_character(" \u0301\u2800"), has_visible_character("\u00e9")
    (False, True)
    """
    return any(unicodedata.category(char)[0] in "LNPS" and not is_invisible(char) for char in text)


def alike_names(names: Sequence[str]) -> tuple[str, str] | None:
    """The first two of `names` that read alike (the same once compared as Unicode's NFKC
    form ignoring case: a full-width "Ａ" is "A", "ann" is "Ann"), or None.

    >>> alike_names(["Ann", "Bo", "\uff21nn"]), alike_names(["Ann", "Bo"])
    (('Ann', 'Ａnn'), None)
    """
    seen: dict[str, str] = {}
    for name in names:
        key = unicodedata.normalize("NFKC", name.strip()).casefold()
        if key in seen:
            return seen[key], name
        seen[key] = name
    return None


def control_character(text: str) -> str | None:
    """The first control character of `text`, or None."""
    for char in text:
        if is_control(char):
            return char
    return None


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name (empty, too long, a control character, an
    invisible character, nothing visible), or None.

    >>> name_problem("Ada") is None, name_problem(" ")
    (True, 'it is empty')
    """
    if not name.strip():
        return _("it is empty")
    if len(name) > MAX_NAME_LENGTH:
        return _("it has {count} characters; a name has at most {most}").format(
            count=len(name), most=MAX_NAME_LENGTH
        )
    char = control_character(name)
    if char is not None:
        return _("it holds the control character {char}").format(char=repr(char))
    char = invisible_character(name)
    if char is not None:
        return _("it holds the invisible character {char}").format(char=f"U+{ord(char):04X}")
    if not has_visible_character(name):
        return _("it has no visible character")
    return None


def quoted(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to `limit` characters with an ellipsis: an error message quotes
    what it was given (control characters escaped) without repeating a megabyte of it.

    >>> quoted("1+" * 100)
    "'1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+…"
    """
    if isinstance(value, int) and value.bit_length() > 3 * MAX_DIGITS + 20:
        # Python will not write an integer of more than 4,300 digits in decimal; none that
        # long is worth reading in a message.
        return _("a number of about {count} digits").format(
            count=f"{int(value.bit_length() * 0.30103):,}"
        )
    shown = repr(value)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def typed(text: str, limit: int = 60) -> str:
    """What a person typed, to be quoted by a sentence's own quotes (“…”, « … », „…“): cut
    to `limit` characters with an ellipsis, each control character escaped.

    >>> print(typed("8H 1+1=11" + chr(27)))
    8H 1+1=11\\x1b
    """
    return shortened(escape_controls(text), limit)


def shortened(text: str, limit: int = 60) -> str:
    """`text` cut to `limit` characters with an ellipsis (for text known to be plain)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def escape_controls(text: str) -> str:
    """`text` with each control character written as an escape (``\\x1b``), so that
    printing it cannot move the cursor, clear the screen or retitle the window."""
    if control_character(text) is None:
        return text
    return "".join(repr(char)[1:-1] if is_control(char) else char for char in text)
