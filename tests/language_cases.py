"""What the tests of the four languages share (docs/languages.md): a test run once in each
language with what that language is expected to say, and the error an action raises in a
language.

    @in_each_language({"en": "...", "fr": "...", "he": "...", "bg": "..."})
    def test_something_in_the_language(language: str, expected: str) -> None:
        assert str(error_in(language, RulesError, lambda: ...)) == expected
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import pytest

from binscrabble import i18n

Error = TypeVar("Error", bound=BaseException)


def in_each_language(expected: Mapping[str, Any]) -> pytest.MarkDecorator:
    """Runs the test once in each language of ``i18n.LANGUAGES`` (named by its code), with
    the arguments ``language`` and ``expected``, that language's entry of ``expected``;
    ``expected`` has one entry for each language and no other."""
    assert sorted(expected) == sorted(i18n.LANGUAGES), (
        f"the expected texts are for {sorted(expected)}, not for {sorted(i18n.LANGUAGES)}"
    )
    return pytest.mark.parametrize(
        ("language", "expected"),
        [(language, expected[language]) for language in i18n.LANGUAGES],
        ids=list(i18n.LANGUAGES),
    )


def error_in(language: str, error: type[Error], action: Callable[[], object]) -> Error:
    """The ``error`` that ``action`` raises when run in ``language`` (the test fails when it
    raises none)."""
    with i18n.use_language(language), pytest.raises(error) as raised:
        action()
    return raised.value
