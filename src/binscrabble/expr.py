"""The equation language of Binary Scrabble (RULES.md §6 and §7): this game's dictionary.

Everything that asks "is this run an equation, and what is it worth?" asks here.

>>> equation_value("1+1=10", Rules())
2
>>> check("11 x 11 = 1001", Rules()).bonus
8
>>> check("100 AND 1 = 101", Rules()).reason
'the left side is 0 but the right side is 101'
>>> normalize("NOT 101 = 10")
'~101=10'
>>> parse("1+1x10=11", Rules()).sides[0].right
BinaryOperation(operator='x', left=Number(digits='1'), right=Number(digits='10'))

Two layers do the work. A *fast path* validates the grammar with one compiled regular
expression, splits the sides with ``str.split`` and evaluates each side once (side results
are cached, because the same sides recur all the time), through an evaluator made for the
side's shape; only when something fails does it work out the reason, in full. A *tree
path* (:func:`parse`) builds a full parse tree with positions, used for explanations and
as the reference the tests hold the fast path to. Errors are :class:`EquationError`
values with a ``kind``, the ``position`` of the offending symbol in the text as given,
and a sentence. docs/equations.md tells users the same story.
"""

from __future__ import annotations

import collections
import gc
import itertools
import operator as operator_module
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, NamedTuple, Protocol, TypeAlias, TypeVar, cast

from binscrabble.rules import SYMBOL_ALIASES, WORD_ALIASES, Rules

if TYPE_CHECKING:
    from binscrabble.explain import Explanation

__all__ = [
    "ERROR_KINDS",
    "MAX_SYMBOLS",
    "BinaryOperation",
    "CheckResult",
    "Equation",
    "EquationError",
    "Expression",
    "IdentityFragment",
    "Not",
    "Number",
    "binary",
    "bonus",
    "check",
    "check_many",
    "clear_caches",
    "equation_value",
    "equation_value_or_none",
    "explain",
    "identity_fragments",
    "normalize",
    "number_value",
    "parse",
    "side_value",
]

#: The longest equation (in symbols, after normalizing) this module accepts. A board run
#: has at most 30 symbols (15 squares, a rotated `=` reads as two); the limit keeps parse
#: trees shallow and values small however long a line someone pastes into `check`.
MAX_SYMBOLS: Final = 256

#: Every way an equation can fail, by `EquationError.kind`, with a short description.
ERROR_KINDS: Final[Mapping[str, str]] = {
    "empty_input": "nothing to check (empty, or only spaces)",
    "unknown_symbol": "a symbol that is no tile code, alias or word",
    "too_long": f"more than {MAX_SYMBOLS} symbols",
    "no_equals": "no = sign, so only one side",
    "empty_side": "a side is missing: = at the start or end, or == ",
    "leading_operator": "a side starts with a binary operator (there are no signs)",
    "trailing_operator": "a binary operator with nothing after it",
    "consecutive_operators": "two binary operators in a row",
    "double_not": "NOT NOT",
    "not_without_operand": "NOT not followed by digits",
    "not_after_number": "NOT right after a number (there is no implied operation)",
    "leading_zero": "a number starting with 0 (rule leading_zeros is off)",
    "not_a_number": "a digits-only run expected (parallel_numbers)",
    "negative": "a subtraction below zero (rule allow_negatives is off)",
    "remainder": "a division that leaves a remainder",
    "division_by_zero": "a division by zero",
    "identity_not_allowed": "an identity fragment whose rule is off",
    "identity_chain": "more than one identity fragment (rule identity_chains is off)",
    "sides_differ": "sides of different values",
}

_DIGITS: Final = frozenset("01")
_BINARY_OPERATORS: Final = frozenset("+-x/&|^")
_CODES: Final = frozenset("01=+-x/&|^~")

#: How operators are shown to people in messages: words for the logical ones.
_SHOWN: Final[Mapping[str, str]] = {
    "+": "+",
    "-": "-",
    "x": "x",
    "/": "/",
    "&": "AND",
    "|": "OR",
    "^": "XOR",
    "~": "NOT",
    "=": "=",
}

#: Binding strength of each binary operator under `standard` precedence (RULES.md §6).
_STANDARD_PRECEDENCE: Final[Mapping[str, int]] = {
    "x": 5,
    "/": 5,
    "+": 4,
    "-": 4,
    "&": 3,
    "^": 2,
    "|": 1,
}
_FLAT_PRECEDENCE: Final[Mapping[str, int]] = dict.fromkeys(_STANDARD_PRECEDENCE, 1)

#: Which switch of RULES.md §7 allows an identity fragment of each operator.
_IDENTITY_SWITCH: Final[Mapping[str, str]] = {
    "x": "identity_times_one",
    "/": "identity_times_one",
    "+": "identity_plus_minus_zero",
    "-": "identity_plus_minus_zero",
    "&": "identity_and_one_or_zero",
    "|": "identity_and_one_or_zero",
    "^": "identity_and_one_or_zero",
}
#: The neutral literal value of each operator (1 for x / AND, 0 for the others) and
#: whether a neutral literal on the left also makes a fragment (not for `/` and `-`).
_NEUTRAL: Final[Mapping[str, tuple[int, bool]]] = {
    "x": (1, True),
    "/": (1, False),
    "+": (0, True),
    "-": (0, False),
    "&": (1, True),
    "|": (0, True),
    "^": (0, True),
}


class EquationError(ValueError):
    """Why a text is not a valid equation.

    ``kind`` names the way it failed (one of :data:`ERROR_KINDS`), ``position`` is the index
    of the offending symbol in the text as the caller gave it (``None`` when no single
    symbol is to blame), and ``str(error)`` is a sentence for a person.

    >>> error = EquationError("empty input", kind="empty_input")
    >>> error.kind, error.position, str(error)
    ('empty_input', None, 'empty input')
    """

    def __init__(self, message: str, *, kind: str, position: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.position = position

    def __reduce__(self) -> tuple[Callable[..., EquationError], tuple[object, ...]]:
        # Keyword-only fields need help to survive pickling (process pools, for instance).
        return _rebuild_error, (str(self), self.kind, self.position)

    def __repr__(self) -> str:
        return f"EquationError({str(self)!r}, kind={self.kind!r}, position={self.position!r})"


def _rebuild_error(message: str, kind: str, position: int | None) -> EquationError:
    return EquationError(message, kind=kind, position=position)


# An error found while working on codes: (kind, position in the codes, message template
# whose "{position}" is filled in with the position in the caller's text).
_Failure: TypeAlias = tuple[str, int | None, str]


class _Positions(Protocol):
    """Where each code of a normalized text stood in the text as given."""

    def __getitem__(self, index: int, /) -> int: ...


def _located(failure: _Failure, positions: _Positions | None) -> tuple[str, int | None, str]:
    """Kind, position in the caller's text, and the finished sentence of a failure."""
    kind, position, template = failure
    if position is not None and positions is not None:
        position = positions[position]
    if "{" in template:
        template = template.replace("{position}", str(position))
    return kind, position, template


def _raise(failure: _Failure, positions: _Positions | None = None) -> EquationError:
    kind, position, message = _located(failure, positions)
    return EquationError(message, kind=kind, position=position)


# -- values ------------------------------------------------------------------------------


def binary(value: int) -> str:
    """A value written in binary, with a minus sign when negative.

    >>> binary(5), binary(0), binary(-5)
    ('101', '0', '-101')
    """
    return format(value, "b")


def bonus(value: int) -> int:
    """The bonus of an equation's value (RULES.md §8): its leading bit; 0 for 0.

    Negative values (only possible under ``allow_negatives``) earn no bonus: see
    docs/equations.md.

    >>> bonus(2), bonus(9), bonus(24), bonus(0), bonus(-5)
    (2, 8, 16, 0, 0)
    """
    if value <= 0:
        return 0
    return 1 << (value.bit_length() - 1)


def _not_value(digits: str) -> int:
    """NOT flips each written digit: the width is the number of digits written."""
    return ((1 << len(digits)) - 1) ^ int(digits, 2)


# -- normalizing people's input ---------------------------------------------------------

_CODES_ONLY: Final = re.compile(r"[01=+\-x/&|^~]*")
_WORDS_BY_LENGTH: Final = tuple(
    sorted(((word, code) for word, code in WORD_ALIASES.items()), key=lambda item: -len(item[0]))
)


_WORD_INITIALS: Final = frozenset(
    initial for word in WORD_ALIASES for initial in (word[0], word[0].lower())
)


#: The aliases beyond ASCII, made ASCII before the words are read; × becomes `*`, its ASCII
#: alias, made x only after the words (_padded_words): `×OR` is x then OR, as _normalize
#: reads it, not XOR.
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
    """Words and X to codes, spaces away: words first (``xor`` before ``or``, as _normalize
    reads them), spaces last, so that ``X OR`` stays two symbols."""
    return _padded_words(text).replace(" ", "")


def _quick_codes(text: str) -> str | None:
    """Codes for typical people's input in a few C calls, or None: then use _normalize.

    Words first (``xor`` before ``or``, as _normalize reads them), spaces last, so that
    ``X OR`` stays two symbols, and × (and *) made x after the words, so that ``×OR`` is x
    then OR, as for _normalize, not XOR; this agrees with _normalize on every text it
    accepts because no two words overlap except OR inside XOR.

    >>> _quick_codes("1×OR1=1"), _quick_codes("1 X OR 1=1"), _quick_codes("1XOR1=1")
    ('1x|1=1', '1x|1=1', '1^1=1')
    """
    if not text.isascii():
        text = text.translate(_UNICODE_ALIASES)
        if not text.isascii():
            return None
    codes = _words_to_codes(text)
    if _CODES_ONLY.fullmatch(codes):
        return codes
    # Rarer aliases (* : !) and other spaces (tabs...): one translation, slower.
    codes = codes.translate(_ASCII_TAIL)
    return codes if _CODES_ONLY.fullmatch(codes) else None


def _quick_codes_many(texts: list[str]) -> tuple[list[str | None], list[str]]:
    """:func:`_quick_codes` for many texts, with each string method run once for all, and
    each text's *layout* (see :class:`_LayoutPositions`).

    The texts are joined with a NUL between them (when none holds one), so each method
    walks one long string in C instead of being called once per text.
    """
    if not texts:
        return [], []
    joined = "\0".join(texts)
    if joined.count("\0") != len(texts) - 1:
        return list(map(_quick_codes, texts)), list(map(_layout, texts))
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
        elif codes and codes.strip(_CODE_SYMBOL_TEXT):
            # Rarer aliases (* : !) and other spaces (tabs...): one translation, slower.
            codes = codes.translate(_ASCII_TAIL)
            found[index] = codes if _CODES_ONLY.fullmatch(codes) else None
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


def _layout(text: str) -> str:
    """The layout of one text (see :class:`_LayoutPositions`)."""
    if not text.isascii():
        text = text.translate(_UNICODE_ALIASES)
    return _padded_words(text)


class _LayoutPositions:
    """Where each code of a typed text starts, read from the text's *layout*: the text with
    its aliases and words replaced by their codes, each word padded with spaces to its
    length (:func:`_padded_words`). The codes are then exactly the layout's characters
    other than white space, each at the index where its symbol or word starts in the text.

    >>> _LayoutPositions(_layout("1  AND NOT 0 = 1"))[3]
    11
    """

    __slots__ = ("layout",)

    def __init__(self, layout: str) -> None:
        self.layout = layout

    def __getitem__(self, index: int) -> int:
        return _layout_position(self.layout, index)


def _layout_position(layout: str, index: int) -> int:
    """Where code number `index` starts in a text of this `layout` (see _LayoutPositions)."""
    skip = _SKIP_CODES.get(index)
    if skip is None:
        if len(_SKIP_CODES) >= _SHAPE_LIMIT:
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
_CODE_SYMBOL_TEXT: Final = "01=+-x/&|^~"


# One unit per code, as _normalize reads them: a word (tried first) or any other symbol.
_UNITS: Final = re.compile(r"(?i:xor|and|not|or)|\S")


class _CodePositions:
    """Where each code of `text` starts, for text that _quick_codes accepted.

    Looked up one index at a time (only an error's position is ever wanted), skipping the
    units before it inside ``itertools.islice``, in C.
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __getitem__(self, index: int) -> int:
        skip = _SKIP_UNITS.get(index)
        if skip is None:
            if len(_SKIP_UNITS) >= _SHAPE_LIMIT:
                _SKIP_UNITS.clear()
            # `index` units, each after optional spaces, then the spaces before the next:
            # the match ends where that unit starts. Atomic groups read each unit as
            # _UNITS.finditer does (a word before a single symbol), never otherwise.
            skip = _SKIP_UNITS[index] = re.compile(
                rf"(?>\s*+(?>(?i:xor|and|not|or)|\S)){{{index}}}\s*+"
            )
        found = skip.match(self.text)
        if found is None or found.end() >= len(self.text):
            return next(itertools.islice(_UNITS.finditer(self.text), index, None)).start()
        return found.end()


_SKIP_UNITS: dict[int, re.Pattern[str]] = {}


def _normalize(text: str) -> tuple[str, list[int] | None]:
    """Codes for `text` and, unless they are the same string, each code's index in `text`."""
    if _CODES_ONLY.fullmatch(text):
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
        if symbol in _CODES:
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
            f"unknown symbol '?' at position {index}: a blank must be written as the face "
            "it stands for"
        )
    else:
        message = f"unknown symbol {symbol!r} at position {index}"
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
    binscrabble.expr.EquationError: unknown symbol '#' at position 2
    """
    return _normalize(text)[0]


# -- the grammar: the first error in text order ------------------------------------------

_SIDE_START, _AFTER_OPERATOR, _AFTER_NOT, _IN_NUMBER, _IN_NOT_DIGITS = range(5)


def _syntax_failure(codes: str, leading_zeros: bool, start: int = 0) -> _Failure | None:
    """The first grammar error of `codes` in reading order, or None if the grammar holds.

    This is the slow, explaining twin of the compiled grammar of :class:`_Evaluator`.
    `start`, when given, is the end of a prefix of complete sides each followed by `=`
    (known good), where the reading may begin.
    """
    if not codes:
        return ("empty_input", None, "empty input: there is nothing to check")
    if len(codes) > MAX_SYMBOLS:
        return (
            "too_long",
            None,
            f"the input has {len(codes)} symbols; an equation may have at most {MAX_SYMBOLS}",
        )
    state = _SIDE_START
    number_start = 0
    not_position = 0
    operator_position = 0
    equals_seen = start > 0
    for index in range(start, len(codes)):
        symbol = codes[index]
        if symbol in _DIGITS:
            if state in (_SIDE_START, _AFTER_OPERATOR):
                state = _IN_NUMBER
                number_start = index
            elif state == _AFTER_NOT:
                state = _IN_NOT_DIGITS
            elif (
                state == _IN_NUMBER
                and index == number_start + 1
                and codes[number_start] == "0"
                and not leading_zeros
            ):
                return (
                    "leading_zero",
                    number_start,
                    "a number may not start with 0 (position {position})",
                )
        elif symbol in _BINARY_OPERATORS:
            shown = _SHOWN[symbol]
            if state == _SIDE_START:
                where = "an equation" if index == 0 else "a side"
                return (
                    "leading_operator",
                    index,
                    f"{where} may not start with {shown} (position {{position}}): "
                    "numbers have no signs",
                )
            if state == _AFTER_OPERATOR:
                return (
                    "consecutive_operators",
                    index,
                    f"two binary operators in a row at position {{position}} "
                    f"({_SHOWN[codes[operator_position]]} then {shown})",
                )
            if state == _AFTER_NOT:
                return _not_without_operand(not_position)
            state = _AFTER_OPERATOR
            operator_position = index
        elif symbol == "~":
            if state in (_SIDE_START, _AFTER_OPERATOR):
                state = _AFTER_NOT
                not_position = index
            elif state == _AFTER_NOT:
                return (
                    "double_not",
                    index,
                    "NOT NOT at position {position}: NOT must be followed by digits",
                )
            else:
                return (
                    "not_after_number",
                    index,
                    "NOT at position {position} follows a number: write an operator between "
                    "them (there is no implied operation)",
                )
        elif symbol == "=":
            if state == _SIDE_START:
                if index == 0:
                    return (
                        "empty_side",
                        index,
                        "the equation starts with =, so its first side is missing",
                    )
                return (
                    "empty_side",
                    index,
                    "two = signs in a row at position {position}: a side is missing",
                )
            if state == _AFTER_OPERATOR:
                return _trailing_operator(codes, operator_position)
            if state == _AFTER_NOT:
                return _not_without_operand(not_position)
            state = _SIDE_START
            equals_seen = True
        else:
            return (
                "unknown_symbol",
                index,
                f"unknown symbol {symbol!r} at position {{position}}",
            )
    if state == _SIDE_START:
        return (
            "empty_side",
            len(codes) - 1,
            "the equation ends with =, so its last side is missing",
        )
    if state == _AFTER_OPERATOR:
        return _trailing_operator(codes, operator_position)
    if state == _AFTER_NOT:
        return _not_without_operand(not_position)
    if not equals_seen:
        return ("no_equals", None, "no = sign: an equation needs at least two sides")
    return None


# The grammar's first error by one regular-expression search, for the fast path. Each
# state of the reading in _syntax_failure is fixed by the symbol before (a digit, an
# operator, NOT, `=` or the start), so every error but one is a bad pair of neighbours,
# and a leading zero is a bad triple: the search finds the first bad spot, and the symbol
# there and the one before name the error.
_BAD_SPOT_SOURCE: Final = (
    r"[^01=+\-x/&|^~]"  # an unknown symbol
    r"|(?<![^=])[-+x/&|^=]"  # an operator or `=` at the start of a side
    r"|(?<=[-+x/&|^~])[-+x/&|^=]"  # an operator or `=` after an operator or NOT
    r"|(?<=[~01])~"  # NOT after NOT or after a digit
)
_BAD_SPOT: Final = re.compile(_BAD_SPOT_SOURCE)
# With leading_zeros off, also the digit after a 0 that starts a number (not NOT's digits).
_BAD_SPOT_NO_LEADING_ZEROS: Final = re.compile(_BAD_SPOT_SOURCE + r"|(?<=(?<![01~])0)[01]")


def _quick_syntax_failure(codes: str, leading_zeros: bool) -> _Failure | None:
    """The same answer as :func:`_syntax_failure`, from one regular-expression search.

    >>> _quick_syntax_failure("1+xx1==10", False)[:2]
    ('consecutive_operators', 2)
    """
    length = len(codes)
    if not length or length > MAX_SYMBOLS:
        return _syntax_failure(codes, leading_zeros)
    spot = (_BAD_SPOT if leading_zeros else _BAD_SPOT_NO_LEADING_ZEROS).search(codes)
    if spot is None:
        # Every pair of neighbours is fine: only the end can still be wrong.
        last = codes[-1]
        if last == "=":
            return (
                "empty_side",
                length - 1,
                "the equation ends with =, so its last side is missing",
            )
        if last == "~":
            return _not_without_operand(length - 1)
        if last in _BINARY_OPERATORS:
            return _trailing_operator(codes, length - 1)
        if "=" not in codes:
            return ("no_equals", None, "no = sign: an equation needs at least two sides")
        return None
    index = spot.start()
    symbol = codes[index]
    if symbol in _DIGITS:
        return ("leading_zero", index - 1, "a number may not start with 0 (position {position})")
    if symbol not in _CODES:
        return ("unknown_symbol", index, f"unknown symbol {symbol!r} at position {{position}}")
    before = codes[index - 1] if index else "="
    if symbol == "~":
        if before == "~":
            return (
                "double_not",
                index,
                "NOT NOT at position {position}: NOT must be followed by digits",
            )
        return (
            "not_after_number",
            index,
            "NOT at position {position} follows a number: write an operator between "
            "them (there is no implied operation)",
        )
    if before == "~":
        return _not_without_operand(index - 1)
    if before != "=":
        if symbol == "=":
            return _trailing_operator(codes, index - 1)
        return (
            "consecutive_operators",
            index,
            f"two binary operators in a row at position {{position}} "
            f"({_SHOWN[before]} then {_SHOWN[symbol]})",
        )
    if symbol == "=":
        if index == 0:
            return ("empty_side", 0, "the equation starts with =, so its first side is missing")
        return (
            "empty_side",
            index,
            "two = signs in a row at position {position}: a side is missing",
        )
    where = "an equation" if index == 0 else "a side"
    return (
        "leading_operator",
        index,
        f"{where} may not start with {_SHOWN[symbol]} (position {{position}}): "
        "numbers have no signs",
    )


def _malformed(codes: str, leading_zeros: bool) -> _Failure:
    """The first grammar error of codes known to have one."""
    failure = _quick_syntax_failure(codes, leading_zeros)
    assert failure is not None, codes
    return failure


def _not_without_operand(position: int) -> _Failure:
    return (
        "not_without_operand",
        position,
        "NOT at position {position} is not followed by digits",
    )


def _trailing_operator(codes: str, position: int) -> _Failure:
    return (
        "trailing_operator",
        position,
        f"the operator {_SHOWN[codes[position]]} at position {{position}} has nothing after it",
    )


# -- the fast path -----------------------------------------------------------------------

_OPERATOR_SPLIT: Final = re.compile(r"([-+x/&|^])")

# Side results: (value or None, first arithmetic failure or None, identity fragments as
# (position in side, text, switch)). Positions are relative to the side's first symbol.
_Fragment: TypeAlias = tuple[int, str, str]
_SideResult: TypeAlias = tuple[int | None, _Failure | None, tuple[_Fragment, ...]]
# An equation's outcome: its value, or why it fails.
_Outcome: TypeAlias = int | _Failure

# A cached side: its value (no identity fragment), its value and how many identity
# fragments (all allowed) it has, or the full result with reasons.
_CachedSide: TypeAlias = int | tuple[int, int] | _SideResult
_ShapeFunction: TypeAlias = Callable[[str], int | tuple[int, int] | None]

_CACHE_LIMIT: Final = 1 << 16
#: Texts longer than this are answered but not remembered: a flood of long lines must
#: not fill the memory.
_LONGEST_CACHED: Final = 4 * MAX_SYMBOLS
_SHAPE_LIMIT: Final = 1 << 12
#: A side shape is compiled when seen this many times (before, it is interpreted).
_COMPILE_AFTER: Final = 64


def _shape_steps(
    shape: str, precedence: Mapping[str, int]
) -> tuple[list[int], list[tuple[str, int, int, bool, bool]]]:
    """The parse of a side's *shape* (its symbols with the digits removed) as register steps.

    ``"x~+"`` is the shape of ``11x~10+1``. Returns the indexes of the operands under NOT,
    and the operations in evaluation order as (operator, left register, right register,
    left is a bare literal, right is a bare literal); registers 0..n-1 hold the operands
    and each step appends its result as the next register.
    """
    under_not: list[bool] = []
    operators: list[str] = []
    index = 0
    if shape[:1] == "~":
        under_not.append(True)
        index = 1
    else:
        under_not.append(False)
    while index < len(shape):
        operators.append(shape[index])
        index += 1
        if index < len(shape) and shape[index] == "~":
            under_not.append(True)
            index += 1
        else:
            under_not.append(False)
    steps: list[tuple[str, int, int, bool, bool]] = []
    stack: list[tuple[int, bool]] = [(0, not under_not[0])]  # (register, bare literal?)
    waiting: list[str] = []
    registers = len(under_not)

    def reduce() -> None:
        nonlocal registers
        operator = waiting.pop()
        right, right_literal = stack.pop()
        left, left_literal = stack.pop()
        steps.append((operator, left, right, left_literal, right_literal))
        stack.append((registers, False))
        registers += 1

    for number, operator in enumerate(operators, start=1):
        while waiting and precedence[waiting[-1]] >= precedence[operator]:
            reduce()
        waiting.append(operator)
        stack.append((number, not under_not[number]))
    while waiting:
        reduce()
    return [number for number, flag in enumerate(under_not) if flag], steps


def _column_steps(
    operators: str, precedence: Mapping[str, int]
) -> list[tuple[str, int, int, bool, bool]]:
    """``_shape_steps(operators, precedence)[1]`` for a shape without NOT, in fewer steps
    (every operand register is a bare literal, every result register is not): it is
    worked out for every group of sides in a batch.

    >>> _column_steps("+x", _STANDARD_PRECEDENCE)
    [('x', 1, 2, True, True), ('+', 0, 3, True, False)]
    """
    operands = len(operators) + 1
    steps: list[tuple[str, int, int, bool, bool]] = []
    stack = [0]
    waiting: list[str] = []
    register = operands
    for number, operator in enumerate(operators, start=1):
        strength = precedence[operator]
        while waiting and precedence[waiting[-1]] >= strength:
            right = stack.pop()
            left = stack[-1]
            steps.append((waiting.pop(), left, right, left < operands, right < operands))
            stack[-1] = register
            register += 1
        waiting.append(operator)
        stack.append(number)
    while waiting:
        right = stack.pop()
        left = stack[-1]
        steps.append((waiting.pop(), left, right, left < operands, right < operands))
        stack[-1] = register
        register += 1
    return steps


class _NeedsCloserLook(Exception):
    """A step a shape evaluator leaves to the full evaluation (negative, inexact)."""


def _subtract(left: int, right: int) -> int:
    if left < right:
        raise _NeedsCloserLook
    return left - right


def _divide(left: int, right: int) -> int:
    if not right or left % right:
        raise _NeedsCloserLook
    return left // right


def _digit_splitter(shape: str) -> Callable[[str], list[str]]:
    """A function giving the digit runs of a side of this shape, with plain string methods.

    The shape says which operators occur, so the split needs no regular expression: one
    ``str.split`` when a single operator occurs, a few ``str.replace`` first otherwise.
    """
    operators = sorted(set(shape) - {"~"})
    has_not = "~" in shape
    if not operators:
        return _strip_not if has_not else _alone
    first, *others = operators
    if not others and not has_not:
        splitter: Callable[[str], list[str]] = operator_module.methodcaller("split", first)
        return splitter

    def split(side: str) -> list[str]:
        if has_not:
            side = side.replace("~", "")
        for other in others:
            side = side.replace(other, first)
        return side.split(first)

    return split


def _strip_not(side: str) -> list[str]:
    return [side[1:]]


def _alone(side: str) -> list[str]:
    return [side]


def _splitting_source(shape: str) -> str:
    """The Python expression `_digit_splitter` evaluates, for compiled evaluators."""
    operators = sorted(set(shape) - {"~"})
    expression = "side"
    if "~" in shape:
        expression += '.replace("~", "")'
    if not operators:
        return f"[{expression}]"
    first, *others = operators
    for other in others:
        expression += f".replace({other!r}, {first!r})"
    return f"{expression}.split({first!r})"


def _interpret_shape(
    shape: str, precedence: Mapping[str, int], negatives: bool, allowed: Mapping[str, bool]
) -> _ShapeFunction:
    """An evaluator for every side of one shape, ready at once (see :func:`_compile_shape`).

    It runs the shape's steps as a small register program; cheaper to build than the
    compiled evaluator, slower to run, so it serves a shape until the shape proves common.
    """
    under_not, steps = _shape_steps(shape, precedence)
    program = []
    for operator, left, right, left_literal, right_literal in steps:
        neutral, either_side = _NEUTRAL[operator]
        tests = tuple(
            register
            for register, literal in ((right, right_literal), (left, left_literal and either_side))
            if literal
        )
        if operator == "-":
            function = operator_module.sub if negatives else _subtract
        elif operator == "/":
            function = _divide
        else:
            function = _PYTHON_OPERATIONS[operator]
        forbidden = not allowed[_IDENTITY_SWITCH[operator]]
        program.append((function, left, right, tests, neutral, forbidden))

    split = _digit_splitter(shape)

    def evaluate(side: str) -> int | tuple[int, int] | None:
        digits = split(side)
        registers = [int(written, 2) for written in digits]
        for number in under_not:
            registers[number] ^= (1 << len(digits[number])) - 1
        fragments = 0
        try:
            for function, left, right, tests, neutral, forbidden in program:
                for register in tests:
                    if registers[register] == neutral:
                        if forbidden:
                            return None
                        fragments += 1
                        break
                registers.append(function(registers[left], registers[right]))
        except _NeedsCloserLook:
            return None
        return (registers[-1], fragments) if fragments else registers[-1]

    return evaluate


def _evaluate_sides(
    sides: list[str],
    precedence: Mapping[str, int],
    negatives: bool,
    allowed: Mapping[str, bool],
    smallest_group: int = 1,
) -> tuple[dict[str, int | tuple[int, int] | None], list[str]]:
    """What the shape evaluators answer, for many sides at once, and the sides they leave
    to the full evaluation (a forbidden identity fragment, a negative step, an inexact
    division; and every side of a group smaller than `smallest_group`), which are answered
    None.

    The batch form of :func:`_interpret_shape`. The sides are grouped by their operators
    (NOT set aside: it is folded into the operand's value); all the operands of a group
    come out of one ``str.split`` and get their values by one dictionary lookup each (NOT
    included), and each step of the group runs over whole columns (one list per operand)
    with ``map``, in C.
    Identity fragments need a bare literal: an operand is tested by its text, so that a
    NOT operand never counts.

    >>> _evaluate_sides([], _STANDARD_PRECEDENCE, False, {})
    ({}, [])
    >>> values, rejected = _evaluate_sides(
    ...     ["1+1", "10x~10", "11-100", "1+0", "~0"], _STANDARD_PRECEDENCE, False,
    ...     dict.fromkeys(_IDENTITY_SWITCH.values(), True))
    >>> values, rejected
    ({'1+1': 2, '1+0': (1, 1), '10x~10': 2, '11-100': None, '~0': 1}, ['11-100'])
    >>> _evaluate_sides(["1+1", "1+0", "10x~10"], _STANDARD_PRECEDENCE, False,
    ...     dict.fromkeys(_IDENTITY_SWITCH.values(), True), smallest_group=2)
    ({'1+1': 2, '1+0': (1, 1), '10x~10': None}, ['10x~10'])
    """
    if not sides:
        return {}, []
    shapes = "\n".join(sides).translate(_OPERATORS_ONLY).split("\n")
    groups: collections.defaultdict[str, list[str]] = collections.defaultdict(list)
    # Each side appended to its group's list in C.
    collections.deque(map(list.append, _look_up_all(groups, shapes), sides), maxlen=0)
    known = _OPERAND_VALUES
    neutral_runs = _BARE_NEUTRALS
    found: dict[str, int | tuple[int, int] | None] = {}
    all_rejected: list[str] = []
    for shape, group in groups.items():
        if len(group) < smallest_group:
            # A program over columns costs about twice a side's full evaluation to set up
            # (parsing the shape, splitting, a dozen lists): not worth it for a side or two.
            found.update(dict.fromkeys(group))
            all_rejected.extend(group)
            continue
        operands = len(shape) + 1
        runs = "+".join(group).translate(_OPERATORS_TO_PLUS).split("+")
        # Few operand texts recur (a batch of 100,000 texts has some hundreds): looked up
        # straight away, and only the unknown ones (None) worked out.
        values: Sequence[int]
        try:
            values = _look_up_all(known, runs)
        except KeyError:
            missing = set(runs).difference(known)
            if len(known) + len(missing) > _CACHE_LIMIT:
                _clear_operand_values()
                missing = set(runs)
            for run in missing:
                value = known[run] = _not_value(run[1:]) if run[0] == "~" else int(run, 2)
                if value < 2 and run[0] != "~":
                    # The bare literals worth 0 and 1: "0" and "1", more with leading zeros.
                    neutral_runs[value].add(run)
            values = _look_up_all(known, runs)
        registers = [values[number::operands] for number in range(operands)]
        rejected: set[int] = set()
        fragments: dict[int, int] = {}
        for operator, left, right, left_literal, right_literal in _column_steps(shape, precedence):
            neutral, either_side = _NEUTRAL[operator]
            tested = [right] if right_literal else []
            if left_literal and either_side:
                tested.append(left)
            hits: set[int] = set()
            bare = neutral_runs[neutral]
            for register in tested:
                column_runs = runs[register::operands]
                for literal in bare:
                    # Found by list methods in C: the same one-character strings recur, and
                    # most of a column is skipped at C speed.
                    index = -1
                    for _ in range(column_runs.count(literal)):
                        index = column_runs.index(literal, index + 1)
                        hits.add(index)
            if hits:
                if not allowed[_IDENTITY_SWITCH[operator]]:
                    rejected.update(hits)
                else:
                    for index in hits:  # one fragment per step, however many operands
                        fragments[index] = fragments.get(index, 0) + 1
            left_column = registers[left]
            right_column = registers[right]
            if operator == "-":
                result = list(map(operator_module.sub, left_column, right_column))
                if not negatives and min(result) < 0:
                    rejected.update(index for index, value in enumerate(result) if value < 0)
            elif operator == "/":
                if 0 in right_column:
                    rejected.update(index for index, value in enumerate(right_column) if not value)
                    right_column = [value or 1 for value in right_column]
                remainders = list(map(operator_module.mod, left_column, right_column))
                if any(remainders):
                    rejected.update(index for index, value in enumerate(remainders) if value)
                result = list(map(operator_module.floordiv, left_column, right_column))
            else:
                result = list(map(_PYTHON_OPERATIONS[operator], left_column, right_column))
            registers.append(result)
        last = registers[-1]
        found.update(zip(group, last, strict=True))
        for index, count in fragments.items():
            found[group[index]] = (last[index], count)
        for index in rejected:
            found[group[index]] = None
            all_rejected.append(group[index])
    return found, all_rejected


_Key = TypeVar("_Key")
_Value = TypeVar("_Value")


def _look_up_all(mapping: Mapping[_Key, _Value], keys: list[_Key]) -> Sequence[_Value]:
    """``mapping[key]`` for every key, in order: by one ``operator.itemgetter`` call when
    there are several (all looked up in C, a third cheaper than a ``map`` over
    ``mapping.__getitem__``). Raises KeyError for a missing key (unless the mapping makes
    it, as a defaultdict does).

    >>> _look_up_all({"0": 0, "1": 1}, ["1", "0", "1"]), _look_up_all({"1": 1}, ["1"])
    ((1, 0, 1), [1])
    """
    if len(keys) > 1:
        found: tuple[_Value, ...] = operator_module.itemgetter(*keys)(mapping)
        return found
    return [mapping[key] for key in keys]


#: Operand texts (digits, or NOT and its digits) and their values, under every set of rules,
#: and those that are bare literals (no NOT) worth 0 and worth 1.
_OPERAND_VALUES: dict[str, int] = {}
_BARE_NEUTRALS: Final[tuple[set[str], set[str]]] = (set(), set())


def _clear_operand_values() -> None:
    _OPERAND_VALUES.clear()
    for runs in _BARE_NEUTRALS:
        runs.clear()


_OPERATORS_ONLY: Final = str.maketrans("", "", "01~")
_OPERATORS_TO_PLUS: Final = str.maketrans("-x/&|^", "++++++")


_FOURTH: Final = operator_module.itemgetter(3)
_FIFTH: Final = operator_module.itemgetter(4)
_EQUALS: Final = itertools.repeat("=")
_SIDES_DIFFER: Final = "the left side is {:b} but the right side is {:b}"


_PYTHON_OPERATIONS: Final[Mapping[str, Callable[[int, int], int]]] = {
    "+": operator_module.add,
    "x": operator_module.mul,
    "&": operator_module.and_,
    "|": operator_module.or_,
    "^": operator_module.xor,
}


def _compile_shape(
    shape: str, precedence: Mapping[str, int], negatives: bool, allowed: Mapping[str, bool]
) -> _ShapeFunction:
    """A function evaluating every side of one shape, compiled to straight-line code.

    The function takes the side (codes) and returns its value (or its value and its
    count of identity fragments, when it has some and the rules allow each), or None when
    the side needs a closer look (a fragment the rules forbid, a negative step, an inexact
    division). The parse is done once, here, and baked into Python source, so a side costs
    a few integer operations; compiling costs as much as some dozens of interpreted sides.
    """
    under_not, steps = _shape_steps(shape, precedence)
    lines = ["def evaluate(side):", f"    digits = {_splitting_source(shape)}", "    fragments = 0"]
    operands = len(steps) + 1
    for number in range(operands):
        if number in under_not:
            lines.append(
                f"    r{number} = ((1 << len(digits[{number}])) - 1) ^ int(digits[{number}], 2)"
            )
        else:
            lines.append(f"    r{number} = int(digits[{number}], 2)")
    result = operands
    for operator, left, right, left_literal, right_literal in steps:
        neutral, either_side = _NEUTRAL[operator]
        found = "fragments += 1" if allowed[_IDENTITY_SWITCH[operator]] else "return None"
        tests = []
        if right_literal:
            tests.append(f"r{right} == {neutral}")
        if either_side and left_literal:
            tests.append(f"r{left} == {neutral}")
        if tests:
            lines.append(f"    if {' or '.join(tests)}: {found}")
        if operator == "-":
            if not negatives:
                lines.append(f"    if r{left} < r{right}: return None")
            lines.append(f"    r{result} = r{left} - r{right}")
        elif operator == "/":
            lines.append(f"    if not r{right} or r{left} % r{right}: return None")
            lines.append(f"    r{result} = r{left} // r{right}")
        else:
            python = {"+": "+", "x": "*", "&": "&", "|": "|", "^": "^"}[operator]
            lines.append(f"    r{result} = r{left} {python} r{right}")
        result += 1
    last = f"r{result - 1}"
    lines.append(f"    return ({last}, fragments) if fragments else {last}")
    namespace: dict[str, _ShapeFunction] = {}
    # The source is built only from operator codes and numbers made here, never from input.
    exec("\n".join(lines), {"int": int, "len": len}, namespace)
    return namespace["evaluate"]


class _Evaluator:
    """Checks equations under one set of the rules that matter here, with bounded caches.

    Three caches, each cleared when full (simple, and the working set of a game or of a
    search is far smaller): people's texts to results, codes to outcomes, and sides to
    their values. A side is cached as a bare ``int`` when it has a value, no identity
    fragment and no failure, which is the common case the fast path tests first.
    """

    __slots__ = (
        "allowed",
        "chains",
        "equations",
        "grammar",
        "leading_zeros",
        "lines",
        "negatives",
        "precedence",
        "readable",
        "results",
        "shapes",
        "sides",
        "sightings",
    )

    def __init__(self, rules: Rules) -> None:
        self.precedence = (
            _STANDARD_PRECEDENCE if rules.precedence == "standard" else _FLAT_PRECEDENCE
        )
        self.allowed = {
            "identity_times_one": rules.identity_times_one,
            "identity_plus_minus_zero": rules.identity_plus_minus_zero,
            "identity_and_one_or_zero": rules.identity_and_one_or_zero,
        }
        self.chains = rules.identity_chains
        self.negatives = rules.allow_negatives
        self.leading_zeros = rules.leading_zeros
        number = "[01]++" if rules.leading_zeros else "0|1[01]*+"
        operand = f"(?:~[01]++|{number})"
        side = f"{operand}(?>(?:[-+x/&|^]{operand})*)"
        # The whole grammar of RULES.md §6 as one regular expression: checked in C, in one
        # call. Nothing is ever worth backtracking into, since digits, operators and `=` never
        # overlap: possessive repeats of one character class, and atomic groups around the
        # repeats of a group. (Not a possessive repeat of a group: CPython before 3.11.5
        # matched those wrongly when the group could backtrack, gh-106052; Debian 12's
        # 3.11.2 read "1+~=1" as grammatical.) When it fails, _syntax_failure says why.
        self.grammar = re.compile(f"{side}(?>(?:={side})+)")
        # The longest start of a text that the grammar can still read (every state of the
        # reading is fixed by the symbol before, RULES.md §6): it ends where the first
        # error is, or at the end of the text. One match classifies a text in a batch.
        readable = f"(?>(?:{operand}[-+x/&|^=])*)(?>(?:{operand}|~)?)"
        self.readable = re.compile(readable)
        # A batch's texts joined by line breaks, read by one `findall`: every line gives
        # ("\n", "", "") when it is grammatical with two sides (the sides themselves are cut
        # out afterwards, all at once), else ("", readable start, first symbol after it or
        # "") when it is codes only, else ("", "", "") (typed text, or unknown symbols; or
        # the empty text). Few groups, none around the sides: each group costs every line of
        # the batch (a group around a side also makes each of its branches save marks).
        code = "[-+x/&|^=~01]"
        self.lines = re.compile(f"(?:{side}={side}(\n)|({readable})({code}?+){code}*+\n|[^\n]++\n)")
        self.equations: dict[str, _Outcome] = {}
        self.sides: dict[str, _CachedSide] = {}
        self.results: dict[str, CheckResult] = {}
        self.shapes: dict[str, _ShapeFunction] = {}
        self.sightings: dict[str, int] = {}

    def check(self, text: str) -> CheckResult:
        """The verdict on people's input (see :func:`check`)."""
        results = self.results
        result = results.get(text)
        if result is not None:
            return result
        if len(results) >= _CACHE_LIMIT:
            results.clear()
        if len(text) <= MAX_SYMBOLS and self.grammar.fullmatch(text):
            # Already codes, and grammatical: straight to the values.
            sides = text.split("=")
            if len(sides) == 2:
                # The hottest path of all (two known sides, equal) built right here.
                get = self.sides.get
                left = get(sides[0])
                if type(left) is int and left == get(sides[1]):
                    result = _new_tuple(CheckResult, (text, left, None, None, None))
                    results[text] = result
                    return result
            outcome = self._evaluate(text)
            if type(outcome) is int:
                result = _result(text, outcome, None, None, None)
            else:
                assert isinstance(outcome, tuple)
                kind, position, message = _located(outcome, None)
                result = _result(text, None, message, kind, position)
        else:
            result = self._ungrammatical_codes_or_typed(text)
        if len(text) <= _LONGEST_CACHED:
            results[text] = result
        return result

    def _ungrammatical_codes_or_typed(self, text: str) -> CheckResult:
        """The verdict on a text that is not grammatical codes (see :meth:`check`)."""
        positions: _Positions | None = None
        outcome: _Outcome
        if len(text) <= MAX_SYMBOLS and _CODES_ONLY.fullmatch(text):
            # Codes already, and the grammar said no: only the reason is left to find.
            outcome = self._syntax_failure(text)
        else:
            quick = _quick_codes(text)
            if quick is not None:
                outcome = self.outcome(quick)
                if type(outcome) is not int:
                    # The quick path keeps no positions; find them for the message.
                    positions = _CodePositions(text)
            else:
                try:
                    codes, positions = _normalize(text)
                except EquationError as error:
                    return _result(text, None, error.args[0], error.kind, error.position)
                outcome = self.outcome(codes)
        if type(outcome) is int:
            return _result(text, outcome, None, None, None)
        assert isinstance(outcome, tuple)
        kind, position, message = _located(outcome, positions)
        return _result(text, None, message, kind, position)

    def check_many(self, texts: Iterable[str]) -> list[CheckResult]:
        """The verdicts on many texts, in order (see :func:`check_many`).

        Each distinct text is read once, by one regular expression over them all, and
        each distinct side of the grammatical ones is evaluated once, together with the
        others of the same operators (:func:`_evaluate_sides`). Each distinct error spot
        of malformed codes is worked out once. Only texts with something to explain (a
        chain, a bad step, three sides or more) take the one-by-one path.
        """
        texts = texts if isinstance(texts, list) else list(texts)
        # A batch allocates many objects that live until it ends and can never form cycles:
        # the cyclic garbage collector would trace them again and again for nothing (a
        # sixth of the time or more), so it is paused for the batch.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._check_many(texts)
        finally:
            if collecting:
                gc.enable()

    def _check_many(self, texts: list[str]) -> list[CheckResult]:
        # One regular-expression pass over all the distinct texts (joined by line breaks)
        # sorts them, and one Python loop per kind builds the verdicts. Fewer passes over
        # the data pay: every extra pass over a list (even a `map` in C) costs about as much
        # per text as a few lines of Python do.
        # The distinct texts are the keys of the dictionary of verdicts, made at once: each
        # verdict then replaces its None (no dictionary grows key by key).
        verdicts: dict[str, CheckResult] = dict.fromkeys(texts)  # type: ignore[assignment]
        distinct: Collection[str] = verdicts
        joined = "\n".join(distinct)
        if verdicts and (
            max(map(len, verdicts)) > MAX_SYMBOLS or joined.count("\n") >= len(verdicts)
        ):
            # Too long to remember, or holding a line break (typed text, never codes): one
            # by one, as check() does.
            odd = [text for text in verdicts if len(text) > MAX_SYMBOLS or "\n" in text]
            for text in odd:
                verdicts[text] = self._ungrammatical_codes_or_typed(text)
            distinct = list(itertools.filterfalse(set(odd).__contains__, verdicts))
            joined = "\n".join(distinct)
        rows = self.lines.findall(joined + "\n") if distinct else []
        new = _new_tuple
        pair_texts: list[str] = []
        typed: list[str] = []
        later: list[str] = []
        failures: dict[object, _Failure] = {}
        located: dict[object, tuple[str, str, int | None]] = {}
        leading_zeros = self.leading_zeros
        for text, (pair, readable, bad) in zip(distinct, rows, strict=True):
            if pair:
                # Grammatical, two sides: compared once every side has a value.
                pair_texts.append(text)
                continue
            # Codes the grammar rejects (or grammatical with three sides or more). The first
            # error depends only on where the reading stops and the symbols there, so each
            # distinct spot is worked out once.
            if not readable:
                if not bad and text:
                    # Not codes only: typed text (or unknown symbols).
                    typed.append(text)
                    continue
                # Wrong from the first symbol (or empty): that symbol alone says why.
                key: object = bad
            elif bad:
                key = (len(readable), readable[-1], bad)
            else:
                last = text[-1]
                has_equals = "=" in text
                if has_equals and (last == "1" or last == "0"):
                    # Grammatical, three sides or more: its sides are evaluated with the
                    # others, the text itself later.
                    later.append(text)
                    continue
                key = (len(text), last, has_equals)
            found = located.get(key)
            if found is None:
                failure = failures[key] = _malformed(text, leading_zeros)
                kind, position, message = _located(failure, None)
                found = located[key] = (message, kind, position)
            message, kind, position = found
            verdicts[text] = new(CheckResult, (text, None, message, kind, position))
        typed_pairs: list[tuple[str, str, str, str, str]] = []
        typed_later: list[tuple[str, str, str]] = []
        if typed:
            self._sort_typed(typed, verdicts, failures, typed_pairs, typed_later)
        # Each two-sided text holds one `=`: joined by `=` and split, all their sides come out
        # in order, left, right, left, right...
        pair_sides = "=".join(pair_texts).split("=") if pair_texts else []
        lefts = pair_sides[0::2]
        rights = pair_sides[1::2]
        values = self._side_values(
            itertools.chain(
                pair_sides,
                map(_FOURTH, typed_pairs),
                map(_FIFTH, typed_pairs),
                itertools.chain.from_iterable(map(str.split, later, _EQUALS)),
            )
        )
        differ = _SIDES_DIFFER.format
        messages: dict[tuple[int, int], str] = {}
        chains = self.chains
        for text, left, right in zip(pair_texts, lefts, rights, strict=True):
            left_value = values[left]
            right_value = values[right]
            if type(left_value) is int and type(right_value) is int:
                if left_value == right_value:
                    verdicts[text] = new(CheckResult, (text, left_value, None, None, None))
                else:
                    # The same two values recur: each message is written once.
                    pair = (left_value, right_value)
                    written = messages.get(pair)
                    if written is None:
                        written = messages[pair] = differ(left_value, right_value)
                    verdicts[text] = new(
                        CheckResult, (text, None, written, "sides_differ", len(left))
                    )
            else:
                # Sides with identity fragments: fine if the rules allow each and the two
                # sides do not make a chain the rules forbid.
                # (What _fragments_allowed does, written out: a tenth of the texts.)
                fragments = 0
                if type(left_value) is tuple:
                    if len(left_value) != 2:
                        failed = self._failed_pair(left, left_value, right_value)
                        if failed is None:
                            later.append(text)
                        else:
                            verdicts[text] = new(CheckResult, (text, None, *failed))
                        continue
                    left_value, fragments = left_value
                if type(right_value) is tuple:
                    if len(right_value) != 2:
                        # (Fragments on the left, allowed, may still make a chain.)
                        failed = (
                            None if fragments else self._failed_pair(left, left_value, right_value)
                        )
                        if failed is None:
                            later.append(text)
                        else:
                            verdicts[text] = new(CheckResult, (text, None, *failed))
                        continue
                    right_value, count = right_value
                    fragments += count
                if fragments > 1 and not chains:
                    later.append(text)
                elif left_value == right_value:
                    verdicts[text] = new(CheckResult, (text, left_value, None, None, None))
                else:
                    verdicts[text] = new(
                        CheckResult,
                        (text, None, differ(left_value, right_value), "sides_differ", len(left)),
                    )
        for text, codes, layout, left, right in typed_pairs:
            left_value = values[left]
            right_value = values[right]
            if type(left_value) is not int or type(right_value) is not int:
                both = _fragments_allowed(left_value, right_value, chains)
                if both is not None:
                    left_value, right_value = both
            if type(left_value) is not int or type(right_value) is not int:
                typed_later.append((text, codes, layout))
            elif left_value == right_value:
                verdicts[text] = new(CheckResult, (text, left_value, None, None, None))
            else:
                position = _LayoutPositions(layout)[len(left)]
                message = differ(left_value, right_value)
                verdicts[text] = new(CheckResult, (text, None, message, "sides_differ", position))
        # The rest one by one: identity fragments, failing steps, three sides or more.
        for text in later:
            verdicts[text] = self._verdict(text, self._evaluate(text))
        for text, codes, layout in typed_later:
            verdicts[text] = self._verdict(text, self._evaluate(codes), layout)
        if len(texts) > 1:
            # One itemgetter call looks every text up in C, a third cheaper than a `map`
            # over the bound method.
            return list(operator_module.itemgetter(*texts)(verdicts))
        return list(map(verdicts.__getitem__, texts))

    def _sort_typed(
        self,
        typed: list[str],
        verdicts: dict[str, CheckResult],
        failures: dict[object, _Failure],
        pairs: list[tuple[str, str, str, str, str]],
        later: list[tuple[str, str, str]],
    ) -> None:
        """Typed texts (spaces, words, aliases) of a batch, turned into codes all at once and
        read like the others: malformed ones get their verdict in `verdicts`, grammatical
        ones with two sides go to `pairs` as (text, codes, layout, left side, right side),
        the rest to `later` as (text, codes, layout). `failures` holds the errors of
        malformed codes by their spot (see _check_many)."""
        texts: list[str] = []
        all_codes: list[str] = []
        layouts: list[str] = []
        found, all_layouts = _quick_codes_many(typed)
        if None not in found and max(map(len, cast("list[str]", found))) <= MAX_SYMBOLS:
            # The common case: quick codes for every text, none too long.
            texts, all_codes, layouts = typed, cast("list[str]", found), all_layouts
        else:
            for text, quick, layout in zip(typed, found, all_layouts, strict=True):
                if quick is None or len(quick) > MAX_SYMBOLS:
                    verdicts[text] = self._ungrammatical_codes_or_typed(text)
                else:
                    texts.append(text)
                    all_codes.append(quick)
                    layouts.append(layout)
            if not texts:
                return
        rows = self.lines.findall("\n".join(all_codes) + "\n")
        new = _new_tuple
        leading_zeros = self.leading_zeros
        for text, codes, layout, (pair, readable, bad) in zip(
            texts, all_codes, layouts, rows, strict=True
        ):
            if pair:
                left, right = codes.split("=")
                pairs.append((text, codes, layout, left, right))
                continue
            if not readable:
                key: object = bad
            elif bad:
                key = (len(readable), readable[-1], bad)
            else:
                last = codes[-1]
                has_equals = "=" in codes
                if has_equals and (last == "1" or last == "0"):
                    later.append((text, codes, layout))
                    continue
                key = (len(codes), last, has_equals)
            failure = failures.get(key)
            if failure is None:
                failure = failures[key] = _malformed(codes, leading_zeros)
            # What _located does with a _LayoutPositions, without making one.
            kind, position, message = failure
            if position is not None:
                position = _layout_position(layout, position)
            if "{" in message:
                message = message.replace("{position}", str(position))
            verdicts[text] = new(CheckResult, (text, None, message, kind, position))

    @staticmethod
    def _failed_pair(
        left: str, left_value: _CachedSide, right_value: _CachedSide
    ) -> tuple[str, str, int | None] | None:
        """Message, kind and position for two sides of which one fails a step (a negative
        one, a remainder, a division by zero) and neither has an identity fragment: the
        failure of the first failing side, as _identity_or_arithmetic finds it. None when
        there is more to look at (identity fragments): then the full path answers.

        `left_value` may be the value of a left side without fragments (an int).
        """
        if type(left_value) is tuple:
            if len(left_value) != 3 or left_value[2]:
                return None
            failure = left_value[1]
            offset = 0
            if failure is None:
                return None
        else:
            failure = None
        if failure is None:
            if type(right_value) is not tuple or len(right_value) != 3 or right_value[2]:
                return None
            failure = right_value[1]
            if failure is None:
                return None
            offset = len(left) + 1
        elif type(right_value) is tuple and (len(right_value) != 3 or right_value[2]):
            return None
        kind, at, message = failure
        assert at is not None
        position = offset + at
        if "{" in message:
            message = message.replace("{position}", str(position))
        return message, kind, position

    def _side_values(self, sides: Iterable[str]) -> dict[str, _CachedSide]:
        """The cached form of each distinct side of `sides`: from the cache, or evaluated
        all together by :meth:`_new_sides`."""
        # A set tells the distinct sides for less than a dictionary does (no values, no
        # order kept); their order does not matter.
        distinct = set(sides)
        known = self.sides
        if not known:
            return self._new_sides(list(distinct))  # nothing known yet: all are new
        unknown = list(itertools.filterfalse(known.__contains__, distinct))
        if len(unknown) == len(distinct):
            return self._new_sides(unknown)  # none known: the new ones are all
        # The known ones first: evaluating the new ones may clear the cache.
        cached = list(filter(known.__contains__, distinct))
        values: dict[str, _CachedSide] = dict(
            zip(cached, map(known.__getitem__, cached), strict=True)
        )
        if unknown:
            values.update(self._new_sides(unknown))
        return values

    def _verdict(self, text: str, outcome: _Outcome, layout: str | None = None) -> CheckResult:
        """The result for `text` from the outcome of its codes, which are `text` itself
        unless a layout is given (typed text, see :class:`_LayoutPositions`)."""
        if type(outcome) is int:
            return _new_tuple(CheckResult, (text, outcome, None, None, None))
        assert isinstance(outcome, tuple)
        positions = None if layout is None else _LayoutPositions(layout)
        kind, position, message = _located(outcome, positions)
        return _new_tuple(CheckResult, (text, None, message, kind, position))

    def outcome(self, codes: str) -> _Outcome:
        """The value of `codes`, or the first reason it is not a valid equation."""
        cached = self.equations.get(codes)
        if cached is not None:
            return cached
        if len(codes) > MAX_SYMBOLS or not self.grammar.fullmatch(codes):
            result: _Outcome = self._syntax_failure(codes)
        else:
            result = self._evaluate(codes)
        if len(codes) <= MAX_SYMBOLS:
            if len(self.equations) >= _CACHE_LIMIT:
                self.equations.clear()
            self.equations[codes] = result
        return result

    def _syntax_failure(self, codes: str) -> _Failure:
        """Why codes the grammar rejects are rejected."""
        return _malformed(codes, self.leading_zeros)

    def _evaluate(self, codes: str) -> _Outcome:
        """The outcome of grammatical codes: identity rules, arithmetic, equal sides."""
        sides = codes.split("=")
        get = self.sides.get
        if len(sides) == 2:
            # The common shape, tested without building anything.
            left_side, right_side = sides
            left = get(left_side)
            if left is None:
                left = self._new_side(left_side)
            right = get(right_side)
            if right is None:
                right = self._new_side(right_side)
            if type(left) is int and type(right) is int:
                if left == right:
                    return left
                return (
                    "sides_differ",
                    len(left_side),
                    _SIDES_DIFFER.format(left, right),
                )
            found = [left, right]
        else:
            found = []
            for side in sides:
                result = get(side)
                if result is None:
                    result = self._new_side(side)
                found.append(result)
        # Sides whose identity fragments the rules allow carry their count: add them up.
        values: list[int] = []
        fragments = 0
        for result in found:
            if isinstance(result, int):
                values.append(result)
            elif len(result) == 2:
                values.append(result[0])
                fragments += result[1]
            else:
                break
        else:
            if fragments <= 1 or self.chains:
                first = values[0]
                for number, value in enumerate(values):
                    if value != first:
                        return _sides_differ(sides, values, number)
                return first
        # Something to explain (a fragment not allowed, a chain, a bad step): the full path.
        # zip without strict= (equal lengths here): the keyword makes each call cost a
        # thousand instructions more, and this runs once per text with something to explain.
        full = [self._full_side(side, result) for side, result in zip(sides, found)]  # noqa: B905
        failure = self._identity_or_arithmetic(sides, full)
        assert failure is not None, codes
        return failure

    def _full_side(self, side: str, cached: _CachedSide) -> _SideResult:
        if isinstance(cached, int):
            return (cached, None, ())
        if len(cached) == 3:
            return cached
        return self._side(side)

    def _new_side(self, side: str) -> _CachedSide:
        """Evaluate a side not in the cache, and cache it.

        First through the compiled function of its shape, which answers the common cases
        (a value, with or without identity fragments the rules allow); anything else goes
        through :meth:`_side`, which works out the fragments and the failure in full.
        """
        shape = side.replace("0", "").replace("1", "")
        function = self.shapes.get(shape)
        sightings = self.sightings.get(shape, 0) + 1
        stored: _CachedSide | None = None
        # Ski rental, twice: a shape seen once is evaluated in full (building its program
        # costs two full evaluations); seen again, it gets a register program; seen
        # _COMPILE_AFTER times, compiled straight-line code (dozens of programs' worth).
        if function is None:
            if sightings > 1:
                if len(self.shapes) >= _SHAPE_LIMIT:
                    self.shapes.clear()
                function = self.shapes[shape] = _interpret_shape(
                    shape, self.precedence, self.negatives, self.allowed
                )
            if len(self.sightings) >= _SHAPE_LIMIT:
                self.sightings.clear()
            self.sightings[shape] = sightings
        elif shape in self.sightings:
            if sightings < _COMPILE_AFTER:
                self.sightings[shape] = sightings
            else:
                del self.sightings[shape]
                function = self.shapes[shape] = _compile_shape(
                    shape, self.precedence, self.negatives, self.allowed
                )
        if function is not None:
            stored = function(side)
        if stored is None:
            stored = self._side_in_full(side)
        if len(self.sides) >= _CACHE_LIMIT:
            self.sides.clear()
        self.sides[side] = stored
        return stored

    def _side_in_full(self, side: str) -> _CachedSide:
        """A side through :meth:`_side`, kept short when it has nothing to explain."""
        result = self._side(side)
        value, failure, fragments = result
        if failure is None and all(self.allowed[switch] for _, _, switch in fragments):
            assert value is not None
            return (value, len(fragments)) if fragments else value
        return result

    def _new_sides(self, sides: list[str]) -> dict[str, _CachedSide]:
        """Evaluate many sides not in the cache at once, and cache them (see :meth:`_new_side`).

        With every side known in advance, the sides are grouped by their operators and each
        group is evaluated column by column (:func:`_evaluate_sides`); every side that
        needs a closer look takes the full path.
        """
        found: dict[str, _CachedSide | None]
        found, rejected = _evaluate_sides(  # type: ignore[assignment]
            sides, self.precedence, self.negatives, self.allowed, smallest_group=3
        )
        for side in rejected:
            found[side] = self._side_in_full(side)
        if len(found) <= _CACHE_LIMIT:
            if len(self.sides) + len(found) > _CACHE_LIMIT:
                self.sides.clear()
            self.sides.update(found)  # type: ignore[arg-type]
        return found  # type: ignore[return-value]

    def _identity_or_arithmetic(
        self, sides: list[str], results: list[_SideResult]
    ) -> _Failure | None:
        fragments: list[tuple[int, str, str]] = []
        offset = 0
        # zip without strict= (equal lengths): see _evaluate.
        for side, result in zip(sides, results):  # noqa: B905
            for position, text, switch in result[2]:
                fragments.append((offset + position, text, switch))
            offset += len(side) + 1
        for position, text, switch in fragments:
            if not self.allowed[switch]:
                return (
                    "identity_not_allowed",
                    position,
                    f"{text} is an identity fragment, not allowed under these rules "
                    f"({switch} is off)",
                )
        if len(fragments) > 1 and not self.chains:
            listed = ", ".join(text for _, text, _ in fragments)
            return (
                "identity_chain",
                fragments[1][0],
                f"more than one identity fragment ({listed}) while identity_chains is off",
            )
        offset = 0
        for side, result in zip(sides, results):  # noqa: B905
            failure = result[1]
            if failure is not None:
                kind, at, template = failure
                assert at is not None
                return (kind, offset + at, template)
            offset += len(side) + 1
        return None

    def _side(self, side: str) -> _SideResult:
        """Evaluate one side (already known to follow the grammar) in the precedence in force.

        Operator precedence parsing with two stacks; its reductions happen in the order of
        a post-order walk of the parse tree, so the first failure is the tree's first. An
        operand is a *bare literal* (identity fragments need one) until it is reduced.
        Written as one flat loop: this is the hot path of every new side.
        """
        tokens = _OPERATOR_SPLIT.split(side)
        count = len(tokens)
        first = tokens[0]
        if count == 1:
            return (_not_value(first[1:]) if first[0] == "~" else int(first, 2), None, ())
        precedence = self.precedence
        negatives = self.negatives
        if first[0] == "~":
            values = [_not_value(first[1:])]
            literals = [False]
        else:
            values = [int(first, 2)]
            literals = [True]
        operators: list[int] = []  # indexes of operator tokens waiting for their right side
        failure: _Failure | None = None
        fragments: list[tuple[int, bool]] = []  # (operator index, neutral literal on right)
        index = 1
        while True:
            if index < count and not (
                operators and precedence[tokens[operators[-1]]] >= precedence[tokens[index]]
            ):
                operators.append(index)
                operand = tokens[index + 1]
                if operand[0] == "~":
                    values.append(_not_value(operand[1:]))
                    literals.append(False)
                else:
                    values.append(int(operand, 2))
                    literals.append(True)
                index += 2
                continue
            if not operators:
                break
            at = operators.pop()
            operator = tokens[at]
            right = values.pop()
            left = values[-1]
            neutral, either_side = _NEUTRAL[operator]
            if literals.pop() and right == neutral:
                fragments.append((at, True))
            elif either_side and literals[-1] and left == neutral:
                fragments.append((at, False))
            literals[-1] = False
            if failure is not None:
                continue
            if operator == "+":
                values[-1] = left + right
            elif operator == "x":
                values[-1] = left * right
            elif operator == "&":
                values[-1] = left & right
            elif operator == "|":
                values[-1] = left | right
            elif operator == "^":
                values[-1] = left ^ right
            elif operator == "-" and (negatives or left >= right):
                values[-1] = left - right
            elif operator == "/" and right and not left % right:
                values[-1] = left // right
            else:
                failure = _apply(operator, left, right, negatives, tokens, at)[1]
        if not fragments:
            if failure is not None:
                return (None, failure, ())
            return (values[0], None, ())
        named = []
        for at, on_right in sorted(fragments):
            operator = tokens[at]
            text = (
                _show_fragment(operator, tokens[at + 1])
                if on_right
                else _show_fragment(tokens[at - 1], operator)
            )
            named.append((_position(tokens, at), text, _IDENTITY_SWITCH[operator]))
        return (None if failure is not None else values[0], failure, tuple(named))


def _show_fragment(left: str, right: str) -> str:
    """`x1`, `+0`, `AND 1`, `1 AND`: an operator shown with its neutral literal."""
    shown_left = _SHOWN.get(left, left)
    shown_right = _SHOWN.get(right, right)
    if (shown_left.isalpha() and len(shown_left) > 1) or (
        shown_right.isalpha() and len(shown_right) > 1
    ):
        return f"{shown_left} {shown_right}"
    return f"{shown_left}{shown_right}"


def _position(tokens: list[str], index: int) -> int:
    return sum(map(len, tokens[:index]))


def _apply(
    operator: str, left: int, right: int, negatives: bool, tokens: list[str], index: int
) -> tuple[int, _Failure | None]:
    """One binary operation on exact integers, or why it is not allowed."""
    if operator == "+":
        return left + right, None
    if operator == "-":
        if left < right and not negatives:
            return 0, (
                "negative",
                _position(tokens, index),
                f"{binary(left)} - {binary(right)} would be negative",
            )
        return left - right, None
    if operator == "x":
        return left * right, None
    if operator == "/":
        if right == 0:
            return 0, (
                "division_by_zero",
                _position(tokens, index),
                f"{binary(left)} / 0 is a division by zero",
            )
        if left % right:
            return 0, (
                "remainder",
                _position(tokens, index),
                f"{binary(left)} / {binary(right)} leaves a remainder",
            )
        return left // right, None
    if operator == "&":
        return left & right, None
    if operator == "|":
        return left | right, None
    return left ^ right, None


def _fragments_allowed(
    left: _CachedSide, right: _CachedSide, chains: bool
) -> tuple[int, int] | None:
    """The values of two cached sides when every identity fragment in them is allowed.

    None when either side has something to explain (a failure, a forbidden fragment), or
    when together they make a chain the rules forbid.
    """
    if isinstance(left, int):
        left_value, left_count = left, 0
    elif len(left) == 2:
        left_value, left_count = left
    else:
        return None
    if isinstance(right, int):
        right_value, right_count = right, 0
    elif len(right) == 2:
        right_value, right_count = right
    else:
        return None
    if left_count + right_count > 1 and not chains:
        return None
    return left_value, right_value


def _sides_differ(sides: list[str], values: list[int], number: int) -> _Failure:
    first = values[0]
    other = values[number]
    # Each side before this one and its `=`, back to the `=` before this side.
    position = sum(map(len, sides[:number])) + number - 1
    # (Values in binary, as binary() writes them.)
    if len(sides) == 2:
        message = f"the left side is {first:b} but the right side is {other:b}"
    else:
        message = f"the first side is {first:b} but side {number + 1} is {other:b}"
    return ("sides_differ", position, message)


_EVALUATORS: dict[int, tuple[Rules, _Evaluator]] = {}
# The evaluator asked for last: nearly every call uses the same rules as the one before.
_LAST: tuple[Rules | None, _Evaluator] = (None, _Evaluator(Rules()))
_EVALUATORS_BY_KEY: dict[tuple[object, ...], _Evaluator] = {}


def clear_caches() -> None:
    """Forget every cached result, equation, side, shape and operand (for every set of rules).

    The caches are bounded and never need clearing for correctness; this is for timing
    cold runs and for tests that want a fresh start.

    >>> clear_caches()
    >>> check("1+1=10", Rules()).valid
    True
    """
    _clear_operand_values()
    for evaluator in _EVALUATORS_BY_KEY.values():
        for cache in (
            evaluator.results,
            evaluator.equations,
            evaluator.sides,
            evaluator.shapes,
            evaluator.sightings,
        ):
            cache.clear()


def _evaluator(rules: Rules) -> _Evaluator:
    # Looking up by id() avoids hashing the dataclass on every call; keeping the Rules in
    # the entry keeps its id from being reused while the entry lives.
    global _LAST
    entry = _EVALUATORS.get(id(rules))
    if entry is not None and entry[0] is rules:
        _LAST = entry
        return entry[1]
    key = (
        rules.precedence,
        rules.identity_times_one,
        rules.identity_plus_minus_zero,
        rules.identity_and_one_or_zero,
        rules.identity_chains,
        rules.allow_negatives,
        rules.leading_zeros,
    )
    evaluator = _EVALUATORS_BY_KEY.get(key)
    if evaluator is None:
        evaluator = _EVALUATORS_BY_KEY[key] = _Evaluator(rules)
    if len(_EVALUATORS) >= 256:
        _EVALUATORS.clear()
    _EVALUATORS[id(rules)] = (rules, evaluator)
    _LAST = (rules, evaluator)
    return evaluator


# -- the public checks -------------------------------------------------------------------


def equation_value(codes: str, rules: Rules) -> int:
    """The value of a valid equation written in codes (no spaces, no aliases).

    Raises :class:`EquationError` when it is not a valid equation under `rules`.
    Results are cached, so asking again about the same run is cheap.

    >>> equation_value("10x10=100=11+1", Rules())
    4
    >>> equation_value("1+1x10=100", Rules(precedence="left-to-right"))
    4
    >>> equation_value("1-10=0", Rules())
    Traceback (most recent call last):
    ...
    binscrabble.expr.EquationError: 1 - 10 would be negative
    """
    last = _LAST
    evaluator = last[1] if last[0] is rules else _evaluator(rules)
    outcome = evaluator.outcome(codes)
    if type(outcome) is int:
        return outcome
    assert isinstance(outcome, tuple)
    raise _raise(outcome)


def equation_value_or_none(codes: str, rules: Rules) -> int | None:
    """Like :func:`equation_value`, but None instead of an exception: for callers that try
    many runs and do not need the reason (raising and catching costs more than the check).

    >>> equation_value_or_none("11x11=1001", Rules()), equation_value_or_none("1=10", Rules())
    (9, None)
    """
    last = _LAST
    evaluator = last[1] if last[0] is rules else _evaluator(rules)
    outcome = evaluator.outcome(codes)
    return outcome if type(outcome) is int else None


def number_value(codes: str, rules: Rules) -> int:
    """The value of a digits-only run (rule ``parallel_numbers``): it must be a valid number.

    >>> number_value("101", Rules())
    5
    >>> number_value("011", Rules())
    Traceback (most recent call last):
    ...
    binscrabble.expr.EquationError: a number may not start with 0 (position 0)
    >>> number_value("011", Rules(leading_zeros=True))
    3
    """
    if not codes:
        raise EquationError("empty input: there is nothing to check", kind="empty_input")
    for index, symbol in enumerate(codes):
        if symbol not in _DIGITS:
            raise EquationError(
                f"{symbol!r} at position {index} is not a binary digit: a run of digits "
                "only must be a number",
                kind="not_a_number",
                position=index,
            )
    if len(codes) > MAX_SYMBOLS:
        raise _raise(_syntax_failure(codes, rules.leading_zeros) or ("too_long", None, ""))
    if codes[0] == "0" and len(codes) > 1 and not rules.leading_zeros:
        raise EquationError(
            "a number may not start with 0 (position 0)",
            kind="leading_zero",
            position=0,
        )
    return int(codes, 2)


class CheckResult(NamedTuple):
    """The verdict on one text: valid with its value and bonus, or invalid with a reason.

    A named tuple ``(input, value, reason, kind, position)``: ``value`` is None when
    invalid, ``reason`` None when valid, ``kind`` and ``position`` are the error's.
    Derived when read: ``valid``, ``binary``, ``bonus`` and ``error`` (the
    :class:`EquationError` itself, a new one each time). A tuple because batches make
    hundreds of thousands of them, and a tuple is built in C.

    >>> result = check("1 = 10", Rules())
    >>> result.valid, result.reason, result.kind, result.position
    (False, 'the left side is 1 but the right side is 10', 'sides_differ', 2)
    >>> result.error
    EquationError('the left side is 1 but the right side is 10', kind='sides_differ', position=2)
    >>> check("11x11=1001", Rules())
    CheckResult(input='11x11=1001', valid=True, value=9, binary='1001', bonus=8, reason=None)
    """

    input: str
    value: int | None
    reason: str | None
    kind: str | None = None
    position: int | None = None

    @property
    def valid(self) -> bool:
        """True when the text is a valid equation under the rules it was checked with."""
        return self.reason is None

    @property
    def binary(self) -> str | None:
        """The value in binary (``-101`` when negative), None when invalid."""
        return None if self.value is None else format(self.value, "b")

    @property
    def bonus(self) -> int | None:
        """The bonus of the value (RULES.md §8), None when invalid."""
        return None if self.value is None else bonus(self.value)

    @property
    def error(self) -> EquationError | None:
        """The error as an exception (a new one each time: raise it freely), or None."""
        if self.reason is None or self.kind is None:
            return None
        return EquationError(self.reason, kind=self.kind, position=self.position)

    def __repr__(self) -> str:
        if self.reason is None:
            return (
                f"CheckResult(input={self.input!r}, valid=True, value={self.value!r}, "
                f"binary={self.binary!r}, bonus={self.bonus!r}, reason=None)"
            )
        return (
            f"CheckResult(input={self.input!r}, valid=False, reason={self.reason!r}, "
            f"kind={self.kind!r}, position={self.position!r})"
        )

    def to_json(self) -> dict[str, object]:
        """The object `binscrabble check --json` prints (INTERFACES.md §1)."""
        return {
            "input": self.input,
            "valid": self.valid,
            "value": self.value,
            "binary": self.binary,
            "bonus": self.bonus,
            "reason": self.reason,
        }


# The named tuple's own constructor is Python code; tuple.__new__ with the fields in
# order builds the same object in C (what the named tuple's _make does).
_new_tuple: Final = tuple.__new__


def _result(
    text: str, value: int | None, reason: str | None, kind: str | None, position: int | None
) -> CheckResult:
    return _new_tuple(CheckResult, (text, value, reason, kind, position))


def check(text: str, rules: Rules) -> CheckResult:
    """Check people's input (aliases, words, spaces allowed); never raises on bad input.

    Results are cached per rules and text, so the same text gives the same object.

    >>> result = check("1000 x 11 = 11000", Rules())
    >>> result.valid, result.value, result.binary, result.bonus
    (True, 24, '11000', 16)
    >>> check("1+xx1==10", Rules()).reason
    'two binary operators in a row at position 2 (+ then x)'
    """
    last = _LAST
    if last[0] is rules:
        return last[1].check(text)
    return _evaluator(rules).check(text)


def check_many(texts: Iterable[str], rules: Rules) -> list[CheckResult]:
    """Check many texts at once: the same verdicts as :func:`check`, in the same order.

    Faster than one call per text for large batches (``binscrabble check`` reading a file,
    a referee checking a whole game): each distinct text is read once, each distinct side
    evaluated once (all the new sides together, grouped by their operators), each distinct
    error spot worked out once. The per-rules caches of sides are shared with
    :func:`check`.

    >>> [result.valid for result in check_many(["1+1=10", "1=10", "1+1=10"], Rules())]
    [True, False, True]
    """
    last = _LAST
    evaluator = last[1] if last[0] is rules else _evaluator(rules)
    return evaluator.check_many(texts)


def explain(text: str, rules: Rules) -> Explanation:
    """Explain `text` step by step for a learner (see :mod:`binscrabble.explain`).

    >>> print(explain("1+1=10", Rules()).lines[-1])
    both sides are 10 (2): the value is 10 (2), bonus 2 points (its leading bit, 10)
    """
    from binscrabble.explain import explain as explain_text

    return explain_text(text, rules)


# -- the parse tree ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Number:
    """A number literal, e.g. ``Number("101")``; its value is its digits read in binary."""

    digits: str
    position: int | None = field(default=None, compare=False, repr=False)

    def format(self) -> str:
        """The canonical codes text."""
        return self.digits


@dataclass(frozen=True, slots=True)
class Not:
    """NOT applied to the digits right after it; the written digits set the width."""

    digits: str
    position: int | None = field(default=None, compare=False, repr=False)

    def format(self) -> str:
        """The canonical codes text.

        >>> Not("011").format()
        '~011'
        """
        return "~" + self.digits


@dataclass(frozen=True, slots=True)
class BinaryOperation:
    """A binary operator (its code: ``+ - x / & | ^``) applied to two operands."""

    operator: str
    left: Expression
    right: Expression
    position: int | None = field(default=None, compare=False, repr=False)

    def format(self) -> str:
        """The canonical codes text (no parentheses: the tree came from that precedence)."""
        return self.left.format() + self.operator + self.right.format()


Expression: TypeAlias = Number | Not | BinaryOperation


@dataclass(frozen=True, slots=True)
class Equation:
    """Two or more sides joined by ``=``."""

    sides: tuple[Expression, ...]
    equals_positions: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def format(self) -> str:
        """The canonical codes text.

        >>> parse("1 + 1 = 10", Rules()).format()
        '1+1=10'
        """
        return "=".join(side.format() for side in self.sides)


def parse(text: str, rules: Rules) -> Equation:
    """The parse tree of an equation under the precedence in force; grammar errors raise.

    Only the grammar (and the leading_zeros rule) is checked here; values, identity
    fragments and equality are for :func:`equation_value` / :func:`check`. Positions in the
    tree are indexes in `text`.

    >>> tree = parse("1+1x10=100", Rules(precedence="left-to-right"))
    >>> tree.sides[0].format(), tree.sides[0].operator
    ('1+1x10', 'x')
    """
    codes, positions = _normalize(text)
    failure = _syntax_failure(codes, rules.leading_zeros)
    if failure is not None:
        raise _raise(failure, positions)

    def where(index: int) -> int:
        return positions[index] if positions is not None else index

    precedence = _STANDARD_PRECEDENCE if rules.precedence == "standard" else _FLAT_PRECEDENCE
    sides: list[Expression] = []
    equals: list[int] = []
    offset = 0
    for side in codes.split("="):
        tokens = _OPERATOR_SPLIT.split(side)
        operands: list[Expression] = []
        operators: list[tuple[str, int]] = []
        at = offset
        for index, token in enumerate(tokens):
            if index % 2 == 0:
                if token[0] == "~":
                    operands.append(Not(token[1:], where(at)))
                else:
                    operands.append(Number(token, where(at)))
            else:
                strength = precedence[token]
                while operators and precedence[operators[-1][0]] >= strength:
                    _reduce_tree(operands, operators)
                operators.append((token, where(at)))
            at += len(token)
        while operators:
            _reduce_tree(operands, operators)
        sides.append(operands[0])
        offset += len(side) + 1
        if offset - 1 < len(codes):
            equals.append(where(offset - 1))
    return Equation(tuple(sides), tuple(equals))


def _reduce_tree(operands: list[Expression], operators: list[tuple[str, int]]) -> None:
    operator, position = operators.pop()
    right = operands.pop()
    left = operands.pop()
    operands.append(BinaryOperation(operator, left, right, position))


@dataclass(frozen=True, slots=True)
class IdentityFragment:
    """A binary operation with a neutral bare literal (RULES.md §7), e.g. ``x1``."""

    text: str
    switch: str
    position: int | None


def identity_fragments(tree: Equation | Expression) -> tuple[IdentityFragment, ...]:
    """Every identity fragment of a parse tree, in reading order.

    >>> [fragment.text for fragment in identity_fragments(parse("1x1=1+0", Rules()))]
    ['x1', '+0']
    """
    found: list[IdentityFragment] = []
    pending: list[Expression] = list(tree.sides) if isinstance(tree, Equation) else [tree]
    while pending:
        node = pending.pop()
        if not isinstance(node, BinaryOperation):
            continue
        neutral, either_side = _NEUTRAL[node.operator]
        switch = _IDENTITY_SWITCH[node.operator]
        right, left = node.right, node.left
        if isinstance(right, Number) and int(right.digits, 2) == neutral:
            found.append(
                IdentityFragment(_show_fragment(node.operator, right.digits), switch, node.position)
            )
        elif either_side and isinstance(left, Number) and int(left.digits, 2) == neutral:
            found.append(
                IdentityFragment(_show_fragment(left.digits, node.operator), switch, node.position)
            )
        pending.append(left)
        pending.append(right)
    found.sort(key=lambda fragment: -1 if fragment.position is None else fragment.position)
    return tuple(found)


def side_value(expression: Expression, rules: Rules) -> int:
    """The exact value of one side's tree; raises EquationError on a bad step.

    >>> side_value(parse("11/10=1", Rules()).sides[0], Rules())
    Traceback (most recent call last):
    ...
    binscrabble.expr.EquationError: 11 / 10 leaves a remainder
    """
    if isinstance(expression, Number):
        return int(expression.digits, 2)
    if isinstance(expression, Not):
        return _not_value(expression.digits)
    left = side_value(expression.left, rules)
    right = side_value(expression.right, rules)
    value, failure = _apply(expression.operator, left, right, rules.allow_negatives, [], 0)
    if failure is not None:
        kind, _, template = failure
        raise EquationError(template, kind=kind, position=expression.position)
    return value
