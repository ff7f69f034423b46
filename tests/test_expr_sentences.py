"""Every reason the equation checker gives is said in each language (expr/sentences.py):
the checker keeps its English sentences in its caches, and each has a template that the
catalogues translate, its numbers and symbols kept."""

from __future__ import annotations

import pytest

from binscrabble import i18n
from binscrabble.expr import EquationError, check, number_value
from binscrabble.expr.sentences import TEMPLATES, say, template_pattern
from binscrabble.rules import Rules

STANDARD = Rules()
EXPERT = Rules.preset("expert")
#: One input for each way an equation fails, with the rules it fails under.
FAILING = [
    ("", STANDARD),
    ("1+1", STANDARD),
    ("1" * 300 + "=1", STANDARD),
    ("01=1", STANDARD),
    ("1$1=1", STANDARD),
    ("1?=1", STANDARD),
    ("+1=1", STANDARD),
    ("1=+1", STANDARD),
    ("1++1=1", STANDARD),
    ("~~1=0", STANDARD),
    ("1~1=0", STANDARD),
    ("1=~", STANDARD),
    ("1+=1", STANDARD),
    ("=1", STANDARD),
    ("1==1", STANDARD),
    ("1=", STANDARD),
    ("1-10=0", STANDARD),
    ("1/0=1", STANDARD),
    ("11/10=1", STANDARD),
    ("1+1=10x1", EXPERT),
    ("1+1=10x1+0", STANDARD),
    ("1=10", STANDARD),
    ("1=1=10", STANDARD),
]


def reasons() -> list[str]:
    found = []
    for text, rules in FAILING:
        result = check(text, rules)
        assert result.reason is not None, text
        found.append(result.reason)
    with pytest.raises(EquationError) as digits:
        number_value("1+1", STANDARD)
    found.append(str(digits.value))
    return found


@pytest.mark.parametrize("language", ["fr", "he", "bg"])
def test_every_reason_of_the_checker_is_translated(language: str) -> None:
    untranslated = []
    with i18n.use_language(language):
        for reason in reasons():
            shown = say(reason)
            if shown == reason or "{" in shown:
                untranslated.append(reason)
    assert untranslated == []


def test_every_template_is_used_and_english_stays_as_it_is() -> None:
    english = reasons()
    assert [say(reason) for reason in english] == english
    with i18n.use_language("fr"):
        matched = {
            template for template in TEMPLATES for reason in english if _matches(template, reason)
        }
    assert set(TEMPLATES) == matched


def _matches(template: str, reason: str) -> bool:
    return template_pattern(template).fullmatch(reason) is not None


def test_values_are_kept() -> None:
    with i18n.use_language("bg"):
        shown = say(check("1+=1", STANDARD).reason or "")
    assert shown == "след знака + на позиция 2 няма нищо"
