"""The generator's side enumeration agrees with the referee on every short side.

The generator works out a side's value, and its identity fragments (docs/rules.md §7), while it
writes the side, one square at a time (pending operations of a shunting-yard stack). The
brute-force comparison uses small racks, which never build a deep stack, so here every
string of a few faces is tried: the generator must list exactly the strings the referee
(:func:`binscrabble.expr.equation_value`) accepts as a side, each with its value.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from itertools import product
from typing import Any

import pytest

from binscrabble.expr import EquationError, binary, equation_value
from binscrabble.movegen.options import ALL_OPTIONS
from binscrabble.movegen.sides import enumerate_side
from binscrabble.movegen.usage import make_context
from binscrabble.rules import FACES, Rules

#: (rules, faces tried, side length): every string of that length over those faces.
CASES = (
    (Rules(), "01+-x/&|~", 5),
    (Rules(precedence="left-to-right"), "01+-x/&|~", 5),
    (Rules.preset("expert"), "01+-x/&|~", 5),
    (Rules(identity_chains=True), "01+x/&|~", 5),
    (Rules(xor_tiles=3), "01-x&|^~", 4),
    (
        Rules(
            leading_zeros=True,
            allow_negatives=True,
            identity_chains=True,
            identity_and_one_or_zero=True,
        ),
        "01+-x/&|~",
        4,
    ),
)


def _referee_sides(rules: Rules, faces: str, length: int) -> set[tuple[str, int]]:
    """Every string the referee accepts as a side under `rules`, with its value."""
    return _referee_values(rules, ("".join(symbols) for symbols in product(faces, repeat=length)))


def _referee_values(rules: Rules, sides: Iterable[str]) -> set[tuple[str, int]]:
    """Those of `sides` the referee accepts as a side under `rules`, with their values."""
    # With every identity rule on, `s=s` is valid exactly when `s` is a side (grammar and
    # arithmetic); its value is the side's. Whether the rules allow the side's own identity
    # fragments is then asked with the value written as a plain number on the other side
    # (a negative value has no such number: those rules have every identity rule on).
    permissive = replace(
        rules,
        identity_times_one=True,
        identity_plus_minus_zero=True,
        identity_and_one_or_zero=True,
        identity_chains=True,
    )
    found = set()
    for side in sides:
        try:
            value = equation_value(f"{side}={side}", permissive)
        except EquationError:
            continue
        if permissive != rules:
            try:
                equation_value(f"{side}={binary(value)}", rules)
            except EquationError:
                continue
        found.add((side, value))
    return found


def _listed_sides(table: Any) -> set[tuple[str, Any]]:
    """Every (text, value) a side table lists, each listed once."""
    generated = [
        (text, value)
        for value, bucket in table.items()
        for fillings in bucket.values()
        for text in fillings[1:]
    ]
    assert len(generated) == len(set(generated))
    return set(generated)


@pytest.mark.parametrize(("rules", "faces", "length"), CASES)
def test_every_short_side_as_the_referee_reads_it(rules: Rules, faces: str, length: int) -> None:
    context = make_context(faces * length, rules)
    table = enumerate_side(context, (ALL_OPTIONS,) * length)
    generated = _listed_sides(table)
    expected = _referee_sides(rules, faces, length)
    assert generated == expected
    if length >= 5:
        # Sides with two operators are among them (so with two pending operations).
        assert any(sum(symbol in "+-x/&|^" for symbol in text) >= 2 for text, _ in expected)


#: Rules for the deep stacks below: every precedence level (standard), negatives with
#: leading zeros (a failed last division is dropped by the floor alone), one level.
DEEP_RULES = (
    Rules(),
    Rules(
        leading_zeros=True,
        allow_negatives=True,
        identity_chains=True,
        identity_and_one_or_zero=True,
    ),
    Rules(precedence="left-to-right"),
)


@pytest.mark.parametrize("rules", DEEP_RULES)
@pytest.mark.parametrize("last", ["free", "fixed"])
def test_deep_stacks_as_the_referee_reads_them(rules: Rules, last: str) -> None:
    """Sides of four operands between three free operator squares (up to three operations
    waiting at the last operand: the weaker ones applied in turn after the strongest),
    their last digit a free square or a tile, against the referee."""
    operators = "+-x/&|"
    operator_mask = sum(1 << FACES.index(symbol) for symbol in operators)
    digit_mask = 1 << FACES.index("0") | 1 << FACES.index("1")
    end: str | int = digit_mask if last == "free" else "1"
    shape = ("10", operator_mask, "1", operator_mask, "11", operator_mask, end)
    context = make_context("01" * 3 + operators * 3, rules)
    table = enumerate_side(context, shape)
    generated = _listed_sides(table)
    ends = "01" if last == "free" else "1"
    candidates = [
        f"10{a}1{b}11{c}{d}" for a in operators for b in operators for c in operators for d in ends
    ]
    expected = _referee_values(rules, candidates)
    assert generated == expected
    # Three operations waiting at the last operand are among them.
    assert any(sum(symbol in operators for symbol in text) == 3 for text, _ in expected)
