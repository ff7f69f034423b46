"""Why an equation fails, said in the reader's language (docs/languages.md).

The checker writes its reasons in English, once, and keeps them in its caches with the
results (the hot path of the game and the move generator is not slowed by a language).
:func:`say` turns such a reason into the current language where it is shown: each reason
the checker can give has a template here with named values, found by matching, and the
catalogue's translation of the template is filled with the same values (numbers, symbols
and positions stay as they are; a house rule, named by its words, has them translated).

>>> from binscrabble.i18n import use_language
>>> with use_language("fr"):
...     say("the left side is 10 but the right side is 11")
'le membre de gauche vaut 10 mais celui de droite vaut 11'
>>> say("the left side is 10 but the right side is 11")
'the left side is 10 but the right side is 11'
"""

from __future__ import annotations

import functools
import re
from typing import Final

from binscrabble.i18n import ENGLISH, N_, _, language

#: Every reason the checker gives, as a template; the more particular first.
TEMPLATES: Final = (
    N_("empty input: there is nothing to check"),
    N_("no = sign: an equation needs at least two sides"),
    N_("the input has {length} symbols; an equation may have at most {most}"),
    N_("a number may not start with 0 (position {position})"),
    N_(
        "unknown symbol '?' at position {position}: a blank must be written as the face it "
        "stands for"
    ),
    N_("unknown symbol {symbol} at position {position}"),
    N_("an equation may not start with {operator} (position {position}): numbers have no signs"),
    N_("a side may not start with {operator} (position {position}): numbers have no signs"),
    N_("two binary operators in a row at position {position} ({first} then {second})"),
    N_("NOT NOT at position {position}: NOT must be followed by digits"),
    N_(
        "NOT at position {position} follows a number: write an operator between them (there "
        "is no implied operation)"
    ),
    N_("NOT at position {position} is not followed by digits"),
    N_("the operator {operator} at position {position} has nothing after it"),
    N_("the equation starts with =, so its first side is missing"),
    N_("two = signs in a row at position {position}: a side is missing"),
    N_("the equation ends with =, so its last side is missing"),
    N_("{left} − {right} would be negative"),
    N_("{left} ÷ 0 is a division by zero"),
    N_("{left} ÷ {right} leaves a remainder"),
    N_("{fragment} is an identity fragment, not allowed under these rules ({switch} is off)"),
    N_("more than one identity fragment ({fragments}) while {switch} is off"),
    N_("the left side is {left} but the right side is {right}"),
    N_("the first side is {left} but side {number} is {right}"),
    N_(
        "{symbol} at position {position} is not a binary digit: a run of digits only must be "
        "a number"
    ),
)

#: What each named value may be (anything else: the shortest text that fits).
_VALUES: Final = {
    "position": r"\d+|None",
    "length": r"\d+",
    "most": r"\d+",
    "number": r"\d+",
    "left": r"-?[01]+",
    "right": r"-?[01]+",
    "switch": r"the house rule “[^”]+”",
}
#: How a reason names a house rule (``evaluation.house_rule``): by its words.
_HOUSE_RULE: Final = re.compile(r"the house rule “(?P<rule>[^”]+)”")
_FIELD: Final = re.compile(r"\{([a-z_]+)\}")


def template_pattern(template: str) -> re.Pattern[str]:
    parts: list[str] = []
    at = 0
    for field in _FIELD.finditer(template):
        parts.append(re.escape(template[at : field.start()]))
        name = field.group(1)
        parts.append(f"(?P<{name}>{_VALUES.get(name, '.+?')})")
        at = field.end()
    parts.append(re.escape(template[at:]))
    return re.compile("".join(parts))


@functools.cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((template, template_pattern(template)) for template in TEMPLATES)


def say(reason: str) -> str:
    """``reason`` (an English sentence of the checker) in the current language; a text that
    is none of :data:`TEMPLATES` stays as it is."""
    if language() == ENGLISH:
        return reason
    for template, pattern in _patterns():
        found = pattern.fullmatch(reason)
        if found is not None:
            values = found.groupdict()
            if "switch" in values:
                values["switch"] = _house_rule(values["switch"])
            return _(template).format(**values)
    return reason


def _house_rule(named: str) -> str:
    """A house rule named in an English reason, in the current language."""
    found = _HOUSE_RULE.fullmatch(named)
    if found is None:
        return named
    return _("the house rule “{rule}”").format(rule=_(found.group("rule")))
