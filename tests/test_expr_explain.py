"""Explanations for learners: steps in binary with decimals, verdicts, one-symbol fixes."""

from __future__ import annotations

import pytest

from binscrabble import i18n
from binscrabble.expr import explain as explain_from_expr
from binscrabble.expr.explanations import Explanation, explain, one_symbol_fixes, show
from binscrabble.rules import Rules

STANDARD = Rules()


def test_true_equation_step_by_step() -> None:
    explanation = explain("11 x 11 = 1001", STANDARD)
    assert isinstance(explanation, Explanation)
    assert explanation.valid
    assert explanation.lines == (
        "11 × 11 = 1001 is true (standard precedence: NOT, then × ÷, then + −, then AND, XOR, OR)",
        "left side: 11 × 11",
        "  11 × 11 = 1001   (3 × 3 = 9)",
        "right side: 1001   (9)",
        "both sides are 1001 (9): the value is 1001 (9), bonus 8 points (its leading bit, 1000)",
    )
    assert str(explanation) == "\n".join(explanation.lines)
    assert str(explain_from_expr("11 x 11 = 1001", STANDARD)) == str(explanation)


def test_steps_follow_the_precedence_in_force() -> None:
    standard = explain("1+1x10=11", STANDARD).lines
    assert standard[2:4] == ("  1 × 10 = 10   (1 × 2 = 2)", "  1 + 10 = 11   (1 + 2 = 3)")
    flat = explain("1+1x10=100", Rules(precedence="left-to-right")).lines
    assert "left-to-right precedence" in flat[0]
    assert flat[2:4] == ("  1 + 1 = 10      (1 + 1 = 2)", "  10 × 10 = 100   (2 × 2 = 4)")


def test_not_steps_say_how_many_digits_flip() -> None:
    lines = explain("NOT 011 = 100", STANDARD).lines
    assert "  NOT 011 = 100   (NOT 3 = 4, flipping all 3 digits)" in lines


def test_false_equation_shows_each_side_and_a_fix() -> None:
    explanation = explain("100 AND 1 = 101", STANDARD)
    assert not explanation.valid
    assert "the left side is 0 but the right side is 101" in explanation.lines
    assert explanation.lines[-1] == (
        "100 AND 1 = 0, not 101 — changing one symbol gives the true equation 100 + 1 = 101"
        " (or 100 OR 1 = 101)"
    )


def test_fixes_respect_the_rules_and_the_tiles() -> None:
    assert one_symbol_fixes("100&1=101", STANDARD) == ["100+1=101", "100|1=101"]
    # XOR is suggested only when the game has XOR tiles.
    assert "1^1=0" not in one_symbol_fixes("1|1=0", STANDARD)
    assert "1^1=0" in one_symbol_fixes("1|1=0", Rules(xor_tiles=2))
    assert one_symbol_fixes("1+1=10", STANDARD, limit=2) == one_symbol_fixes("1+1=10", STANDARD)[:2]


def test_arithmetic_failure_points_at_the_operator() -> None:
    lines = explain("11/10=1", STANDARD).lines
    assert "  11 ÷ 10 leaves a remainder   (3 ÷ 2 = 1 remainder 1)" in lines
    caret = lines.index("11/10=1")
    assert lines[caret + 1] == "  ^"
    assert lines[caret + 2] == "11 ÷ 10 leaves a remainder"
    assert lines[-1].startswith("changing one symbol gives the true equation 10 ÷ 10 = 1")
    negative = explain("1-10=0", STANDARD).lines
    assert "  1 − 10 would be negative   (1 − 2 = −1, below zero)" in negative


def test_malformed_input_gets_a_caret() -> None:
    explanation = explain("1 # 1", STANDARD)
    assert not explanation.valid
    # The caret stands under the third symbol, which the sentence counts as the third.
    assert explanation.lines == ("1 # 1", "  ^", "unknown symbol '#' at position 3")
    assert explain("", STANDARD).lines == ("empty input: there is nothing to check",)
    assert explain("10", STANDARD).lines == ("no = sign: an equation needs at least two sides",)


def test_identity_fragments_name_their_rules_in_words() -> None:
    lines = explain("1+1=10+0+0", STANDARD).lines
    assert (
        lines[-5:-3]
        == ("+0 changes nothing here: allowed by the house rule “Plus 0 and minus 0 allowed”",) * 2
    )
    assert lines[-3] == (
        "an equation with more than one of these needs the house rule “Several of ×1, +0, "
        "AND 1 in one equation”, which is off"
    )
    assert lines[-2] == (
        "more than one identity fragment (+0, +0) while the house rule “Several of ×1, +0, "
        "AND 1 in one equation” is off"
    )
    assert lines[-1].startswith("changing one symbol gives the true equation 1 + 1 = 10 OR 0 + 0")


def test_several_sides_and_zero_bonus() -> None:
    lines = explain("1-1=0=0", STANDARD).lines
    assert "side 3: 0   (0)" in lines
    assert lines[-1].endswith("bonus 0 points (a value of 0 or less has no leading bit)")


def test_show() -> None:
    assert show("~101&1|0^1=1") == "NOT 101 AND 1 OR 0 XOR 1 = 1"


NEAR_MISS = {
    "en": "1 + 1 = 10, not 11 — changing one symbol gives the true equation 1 + 1 = 10",
    "fr": "1 + 1 = 10, et non 11 — en changeant un seul symbole, on obtient l’égalité vraie"
    " 1 + 1 = 10",
    "bg": "1 + 1 = 10, а не 11 — при смяна на един символ се получава вярното равенство 1 + 1 = 10",
    "he": "\u20681 + 1\u2069 = \u206810\u2069, ולא \u206811\u2069 — \u2068בהחלפת סימן אחד"
    " מתקבלת המשוואה הנכונה \u20681 + 1 = 10\u2069\u2069",
}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_near_miss_reads_as_the_true_equation_a_change_gives(language: str) -> None:
    # "one symbol away, 1 + 1 = 10 would be true" read as if 1 + 1 = 10 were false.
    with i18n.use_language(language):
        lines = explain("1+1=11", STANDARD).lines
    assert lines[-1] == NEAR_MISS[language]


@pytest.mark.parametrize(
    ("language", "others"),
    [
        ("en", "(or 100 OR 1 = 101)"),
        ("fr", "(ou 100 OR 1 = 101)"),
        ("bg", "(или 100 OR 1 = 101)"),
        ("he", "(או \u2068100 OR 1 = 101\u2069)"),
    ],
)
def test_more_near_misses_are_listed_as_other_true_equations(language: str, others: str) -> None:
    with i18n.use_language(language):
        last = explain("100 AND 1 = 101", STANDARD).lines[-1]
    assert last.rstrip("\u2069").endswith(others), last


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_a_negative_difference_takes_the_minus_sign_of_the_page(language: str) -> None:
    with i18n.use_language(language):
        lines = explain("1-10=0", STANDARD).lines
    step = lines[2]
    assert "−\u20681\u2069" in step or "−1" in step, step
    assert "-" not in step, step
