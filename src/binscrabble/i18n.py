"""The language a player reads: English, French, Hebrew or Bulgarian (docs/languages.md).

Every sentence a player reads goes through :func:`_` (or :func:`ngettext` when it counts
something), which translates it into the current language: a :class:`~contextvars.ContextVar`
that the command line sets from ``--lang`` or the locale (:func:`from_environment`) and the
web app sets for each request (:func:`from_accept_language` and the ``lang`` query and
cookie). The catalogues are gettext's, compiled ``.mo`` files under ``locale/`` read with
the standard library alone; English is the source (the message ids), so ``en`` reads every
sentence exactly as written.

>>> with use_language("fr"):
...     ngettext("{count} point", "{count} points", 2).format(count=2)
'2 points'
>>> _("no such message stays as it is")
'no such message stays as it is'
>>> from_accept_language("he-IL;q=0.3, fr-CA, en;q=0.8"), from_accept_language("de")
('fr', None)
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import os
import re
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Final

#: The languages a player may read, English first (the source of every message).
LANGUAGES: Final = ("en", "fr", "he", "bg")
#: The default language, and the one the message ids are written in.
ENGLISH: Final = "en"
#: Languages written right to left (the page's ``dir``).
RIGHT_TO_LEFT: Final = frozenset({"he"})
#: The gettext domain of every catalogue.
DOMAIN: Final = "binscrabble"
#: Where the catalogues are: ``LANG/LC_MESSAGES/binscrabble.po`` and its ``.mo``.
LOCALE_DIR: Final = Path(__file__).parent / "locale"
#: Each language's name, written in that language (the language switch).
NAMES: Final = {"en": "English", "fr": "Français", "he": "עברית", "bg": "Български"}

_current: ContextVar[str] = ContextVar("binscrabble_language", default=ENGLISH)


class UnknownLanguage(ValueError):
    """A language that is not one of :data:`LANGUAGES`; its message is a sentence."""

    def __init__(self, asked: str) -> None:
        shown = asked if len(asked) <= 20 else asked[:19] + "…"
        message = _("there is no language {language}: choose one of {languages}")
        super().__init__(message.format(language=repr(shown), languages=", ".join(LANGUAGES)))


def known(language: str) -> str:
    """``language`` if it is one of :data:`LANGUAGES` (any case), else :class:`UnknownLanguage`.

    >>> known("FR")
    'fr'
    """
    code = language.strip().lower()
    if code not in LANGUAGES:
        raise UnknownLanguage(language)
    return code


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English and a missing file: none)."""
    if language == ENGLISH:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, [language], fallback=True)


def language() -> str:
    """The current language."""
    return _current.get()


def direction(language: str | None = None) -> str:
    """``rtl`` or ``ltr``: the writing direction of ``language`` (default: the current one)."""
    return "rtl" if (language or _current.get()) in RIGHT_TO_LEFT else "ltr"


def set_language(language: str) -> None:
    """Make ``language`` the current one, for the rest of this context (a command's run)."""
    _current.set(known(language))


@contextlib.contextmanager
def use_language(language: str) -> Iterator[None]:
    """The current language is ``language`` inside the ``with`` block."""
    token = _current.set(known(language))
    try:
        yield
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """``message`` in the current language."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of ``singular``/``plural`` that ``count`` takes in the current language."""
    return translations(_current.get()).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where ``context`` tells two uses apart."""
    return translations(_current.get()).pgettext(context, message)


#: A value French elides a word before: one that starts with a vowel, past any isolate
#: (the rule of the page's ``fill`` in ``i18n.js``: "d’Élodie", "d’Ann", "de Hugo", "de Bo").
_STARTS_WITH_VOWEL: Final = re.compile("[\u2066-\u2069]*[aeiouàâäéèêëîïôöùûü]", re.IGNORECASE)
#: "de", "que", "le", "la" right before a placeholder of a French sentence.
_ELIDABLE: Final = re.compile(r"\b([Dd]e|[Qq]ue|[Ll][ea]) \{(\w+)\}")


def fill(message: str, /, **values: object) -> str:
    """``message`` (a translated sentence) with its ``{placeholders}`` filled from
    ``values``; in French, a "de", "que", "le" or "la" before a value that starts with a
    vowel is elided, as the page does: a name is not known when the sentence is translated.

    >>> with use_language("fr"):
    ...     fill("le score de {name}, que {other} suit", name="Élodie", other="Hugo")
    'le score d’Élodie, que Hugo suit'
    """
    if _current.get() == "fr":

        def elide(match: re.Match[str]) -> str:
            word, key = match.group(1), match.group(2)
            if key in values and _STARTS_WITH_VOWEL.match(str(values[key])):
                return f"{word[:-1]}’{{{key}}}"
            return match.group(0)

        message = _ELIDABLE.sub(elide, message)
    return message.format(**values)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (a constant that
    :func:`_` translates where it is shown)."""
    return message


def from_tag(tag: str) -> str | None:
    """The language of a locale name or language tag (``fr_FR.UTF-8``, ``fr-CA``, ``he``),
    or ``None`` when it is none of :data:`LANGUAGES`.

    >>> from_tag("fr_FR.UTF-8"), from_tag("bg-BG"), from_tag("C"), from_tag("iw")
    ('fr', 'bg', None, 'he')
    """
    primary = tag.strip().replace("_", "-").split(".")[0].split("@")[0].split("-")[0].lower()
    if primary == "iw":  # Hebrew's old code, still sent by some systems
        primary = "he"
    return primary if primary in LANGUAGES else None


def from_accept_language(header: str) -> str | None:
    """The language an ``Accept-Language`` header prefers most among :data:`LANGUAGES`
    (q-values honoured, ``q=0`` refused, ties in the order written), or ``None``."""
    best: tuple[float, int, str] | None = None
    for index, part in enumerate(header.split(",")[:50]):
        tag, _sep, parameters = part.partition(";")
        quality = 1.0
        for parameter in parameters.split(";"):
            name, _eq, value = parameter.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        found = from_tag(tag)
        if found is None or not 0 < quality <= 1:
            continue
        if best is None or (quality, -index) > (best[0], best[1]):
            best = (quality, -index, found)
    return None if best is None else best[2]


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for: the first of ``LANGUAGE`` (a list, colon-separated),
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set; English when it is none of ours.

    >>> from_environment({"LANGUAGE": "de:fr", "LANG": "bg_BG.UTF-8"})
    'fr'
    >>> from_environment({"LC_ALL": "C", "LANG": "fr_FR"}), from_environment({})
    ('en', 'en')
    """
    environ = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if not value:
            continue
        for tag in value.split(":"):
            found = from_tag(tag)
            if found is not None:
                return found
        if name != "LANGUAGE":
            return ENGLISH  # the first locale variable set decides, as gettext does
    return ENGLISH
