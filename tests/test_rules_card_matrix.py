"""The rules card under every house rule: what it shows is what the rules say.

For each preset, each switch of docs/rules.md §10 flipped alone from that preset, and each
language, the card is made and read back with pypdf:

- every equation the card claims is true (or shown as refused) is so under ``check``;
- every equation printed on the card is one it claims, each whole on one line;
- each sentence that depends on a house rule is the one for the setting in force, never the
  other.

The whole matrix (3 presets × 13 rule sets × 4 languages = 156 cards) takes minutes; by
default every rule set is made once, in one language chosen in turn (39 cards), so that
each language and each switch is covered. ``BINSCRABBLE_CARD_MATRIX=full`` makes all 156.
"""

from __future__ import annotations

import io
import os
import re
from typing import Any

import pytest
from pypdf import PdfReader

from binscrabble.expr import check, normalize
from binscrabble.move import display_equation
from binscrabble.print.card_words import card_words
from binscrabble.print.rules_card import LANGUAGES, rules_card
from binscrabble.rules import PRESETS, RULE_NAMES, Rules

#: The value each switch takes when flipped from a preset (whole numbers: one that changes
#: what the card says: XOR tiles in the table, the worked example as a whole-rack play).
FLIPPED: dict[str, object] = {"xor_tiles": 2, "rack_size": 3, "bingo_bonus": 25}


def flipped(rules: Rules, name: str) -> Rules:
    value = getattr(rules, name)
    if name == "precedence":
        return rules.override(name, "left-to-right" if value == "standard" else "standard")
    if isinstance(value, bool):
        return rules.override(name, not value)
    return rules.override(name, FLIPPED[name])


def rule_sets() -> list[tuple[str, Rules]]:
    sets = []
    for preset in PRESETS:
        base = Rules.preset(preset)
        sets.append((preset, base))
        sets.extend((f"{preset}+{name}", flipped(base, name)) for name in RULE_NAMES)
    return sets


def matrix() -> list[tuple[str, Rules, str]]:
    cases = []
    for index, (name, rules) in enumerate(rule_sets()):
        if os.environ.get("BINSCRABBLE_CARD_MATRIX") == "full":
            cases.extend((name, rules, language) for language in LANGUAGES)
        else:
            cases.append((name, rules, LANGUAGES[index % len(LANGUAGES)]))
    return cases


#: An equation as printed: operands (NOT before one) with operators between them, not
#: part of a decimal number or of the worked sum (pypdf may glue Hebrew words to it).
_OPERAND = r"(?:NOT )?[01]+"
_OPERATOR = r"(?: (?:AND|OR|XOR) |[=+−×÷])"
EQUATION = re.compile(rf"(?<![0-9A-Za-z(]){_OPERAND}(?:{_OPERATOR}{_OPERAND})+(?![0-9A-Za-z)])")


def page_lines(pdf: bytes) -> list[str]:
    """The card's lines as pypdf reads them, spaces made plain and direction marks gone."""
    lines = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        text = page.extract_text()
        for mark in ("\u2066", "\u2069", "\u200e"):
            text = text.replace(mark, "")
        lines.extend(re.sub(r"[ \u00a0]+", " ", line).strip() for line in text.splitlines())
    return lines


def switched_sentences(catalogue: dict[str, Any], rules: Rules) -> list[tuple[str, str, bool]]:
    """(where, sentence, whether it is the one in force) for each rule-dependent sentence."""
    found = []
    for section in ("placement", "equations"):
        for key, sentence in catalogue[section].items():
            match = re.fullmatch(r"(\w+)_(on|off)", key)
            if match and match[1] in RULE_NAMES:
                in_force = getattr(rules, match[1]) == (match[2] == "on")
                found.append((f"{section}.{key}", sentence, in_force))
    for key in ("standard", "left-to-right"):
        found.append((f"precedence.{key}", catalogue["precedence"][key], rules.precedence == key))
    return found


def words(text: str) -> set[str]:
    """The words of a text: pypdf keeps each word whole, but not always the order of the
    words on a right-to-left line, nor the punctuation, nor a space before a Latin word."""
    return set(re.findall(r"[^\W\d_A-Za-z]+|[A-Za-z]+", text))


def catalogue_texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in catalogue_texts(item)]
    if isinstance(value, list):
        return [text for item in value for text in catalogue_texts(item)]
    return []


def own_words(catalogue: dict[str, Any], sentence: str) -> set[str]:
    """The words of a sentence that no other text of the catalogue uses."""
    others = [text for text in catalogue_texts(catalogue) if text != sentence]
    return words(sentence) - set().union(*(words(text) for text in others))


@pytest.mark.parametrize(("name", "rules", "language"), matrix())
def test_the_card_says_what_the_rules_say(name: str, rules: Rules, language: str) -> None:
    card = rules_card(rules, language)
    lines = page_lines(card.pdf)
    assert len(PdfReader(io.BytesIO(card.pdf)).pages) == 2
    text = " ".join(lines)
    # Every claim holds under the rules, as `binscrabble check` says.
    wrong = [(codes, said) for codes, said in card.claims if check(codes, rules).valid != said]
    assert wrong == []
    # Every claimed equation is printed whole on one line ...
    shown = {display_equation(codes) for codes, _ in card.claims}
    broken = [equation for equation in shown if not any(equation in line for line in lines)]
    assert broken == []
    # ... and every equation printed is one the card claims.
    claimed = {codes for codes, _ in card.claims}
    printed = {
        normalize(match[0])
        for line in lines
        for match in EQUATION.finditer(line)
        if "=" in match[0]
    }
    assert printed and printed <= claimed, printed - claimed
    # Division as on the tiles.
    assert "/" not in text
    # Each rule-dependent sentence is there for the rule in force, and only then.
    catalogue = card_words(language)
    printed_words = words(text)
    for where, sentence, in_force in switched_sentences(catalogue, rules):
        own = own_words(catalogue, sentence)
        assert (own & printed_words) == (own if in_force else set()), where


def test_the_switched_sentences_tell_each_setting_apart() -> None:
    for language in LANGUAGES:
        catalogue = card_words(language)
        for where, sentence, _ in switched_sentences(catalogue, Rules()):
            # Words of its own tell each sentence from every other text of the card.
            assert own_words(catalogue, sentence), (language, where)


def test_the_matrix_covers_every_switch_and_language() -> None:
    cases = matrix()
    assert {language for _, _, language in cases} == set(LANGUAGES)
    assert len({name for name, _, _ in cases}) == len(PRESETS) * (len(RULE_NAMES) + 1)
    rules = {name: rules for name, rules, _ in cases}
    for preset in PRESETS:
        for switch in RULE_NAMES:
            assert rules[f"{preset}+{switch}"].differences(Rules.preset(preset)).keys() == {switch}
