"""Property tests of the equation language: the parser, the fast path and the tree agree."""

from __future__ import annotations

import contextlib
import itertools
import random as random_module

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from binscrabble import expr
from binscrabble.expr import (
    ERROR_KINDS,
    EquationError,
    bonus,
    check,
    check_many,
    checker,
    checks,
    columns,
    diagnosis,
    equation_value,
    equation_value_or_none,
    identity_fragments,
    limits,
    normalizing,
    parse,
    shapes,
    side_value,
    symbols,
)
from binscrabble.expr.evaluation import evaluate_side
from binscrabble.rules import Rules

RULE_SETS = [
    Rules(),
    Rules(precedence="left-to-right"),
    Rules.preset("learning"),
    Rules.preset("expert"),
    Rules(allow_negatives=True),
    Rules(leading_zeros=True, identity_chains=True),
    Rules(allow_negatives=True, precedence="left-to-right", identity_times_one=False),
]
rule_sets = st.sampled_from(RULE_SETS)

PROPERTY_SETTINGS = settings(max_examples=250, deadline=None)

digits = st.text(alphabet="01", min_size=1, max_size=5)
numbers = st.one_of(st.just("0"), digits.map(lambda tail: "1" + tail[:4]), st.just("1"))
operands = st.one_of(numbers, numbers, digits.map(lambda written: "~" + written))
operators = st.sampled_from("+-x/&|^")


@st.composite
def sides(draw: st.DrawFn, operator_choice: st.SearchStrategy[str] = operators) -> str:
    parts = [draw(operands)]
    for _ in range(draw(st.integers(0, 3))):
        parts.append(draw(operator_choice))
        parts.append(draw(operands))
    return "".join(parts)


@st.composite
def equations(draw: st.DrawFn, operator_choice: st.SearchStrategy[str] = operators) -> str:
    count = draw(st.integers(2, 3))
    return "=".join(draw(sides(operator_choice)) for _ in range(count))


symbol_soup = st.text(alphabet="0101=+-x/&|^~ XANDORNOT*:!×÷¬", max_size=30)
any_text = st.one_of(st.text(max_size=30), symbol_soup, equations())


def reference(text: str, rules: Rules) -> tuple[object, ...]:
    """The verdict built from the parse tree alone: the slow path the fast one must match."""
    try:
        tree = parse(text, rules)
    except EquationError as error:
        return ("invalid", error.kind, error.position)
    fragments = identity_fragments(tree)
    for fragment in fragments:
        if not getattr(rules, fragment.switch):
            return ("invalid", "identity_not_allowed", fragment.position)
    if len(fragments) > 1 and not rules.identity_chains:
        return ("invalid", "identity_chain", fragments[1].position)
    values = []
    for side in tree.sides:
        try:
            values.append(side_value(side, rules))
        except EquationError as error:
            return ("invalid", error.kind, error.position)
    for number, value in enumerate(values):
        if value != values[0]:
            return ("invalid", "sides_differ", tree.equals_positions[number - 1])
    return ("valid", values[0])


def verdict(text: str, rules: Rules) -> tuple[object, ...]:
    result = check(text, rules)
    if result.valid:
        return ("valid", result.value)
    return ("invalid", result.kind, result.position)


@PROPERTY_SETTINGS
@given(any_text, rule_sets)
def test_parser_raises_only_equation_errors(text: str, rules: Rules) -> None:
    try:
        parse(text, rules)
    except EquationError as error:
        assert error.kind in ERROR_KINDS
        assert str(error)


@PROPERTY_SETTINGS
@given(any_text, rule_sets)
def test_check_never_raises_and_agrees_with_the_tree(text: str, rules: Rules) -> None:
    result = check(text, rules)
    assert result.valid == (result.reason is None)
    if not result.valid:
        assert result.kind in ERROR_KINDS
        assert result.reason
    assert verdict(text, rules) == reference(text, rules)


@PROPERTY_SETTINGS
@given(sides(), rule_sets, st.booleans())
def test_true_equations_by_construction(side: str, rules: Rules, value_first: bool) -> None:
    """A side and its own value make a true equation unless a rule forbids it."""
    expected = reference(f"{side}={side}", rules)
    if expected[0] != "valid":
        return
    value = expected[1]
    assert isinstance(value, int)
    written = format(value, "b") if value >= 0 else f"0-{-value:b}"
    text = f"{written}={side}" if value_first else f"{side}={written}"
    assert verdict(text, rules) == reference(text, rules)
    if not identity_fragments(parse(text, rules)) and value >= 0:
        assert equation_value(text, rules) == value


def python_value(side: str) -> int:
    """An independent oracle for standard precedence: Python's own operator order."""
    python = []
    index = 0
    while index < len(side):
        symbol = side[index]
        if symbol == "~":
            end = index + 1
            while end < len(side) and side[end] in "01":
                end += 1
            written = side[index + 1 : end]
            python.append(str(((1 << len(written)) - 1) ^ int(written, 2)))
            index = end
        elif symbol in "01":
            end = index
            while end < len(side) and side[end] in "01":
                end += 1
            python.append(str(int(side[index:end], 2)))
            index = end
        else:
            python.append({"x": "*"}.get(symbol, symbol))
            index += 1
    return int(eval("".join(python)))


def calculator_value(side: str) -> int:
    """An independent oracle for left to right: a pocket calculator."""
    tokens: list[str] = []
    for symbol in side:
        if symbol in "+x&|^" or not tokens or tokens[-1] in "+x&|^":
            tokens.append(symbol)
        else:
            tokens[-1] += symbol

    def operand(token: str) -> int:
        if token.startswith("~"):
            return ((1 << (len(token) - 1)) - 1) ^ int(token[1:], 2)
        return int(token, 2)

    value = operand(tokens[0])
    for operator, token in zip(tokens[1::2], tokens[2::2], strict=True):
        right = operand(token)
        if operator == "+":
            value += right
        elif operator == "x":
            value *= right
        elif operator == "&":
            value &= right
        elif operator == "|":
            value |= right
        else:
            value ^= right
    return value


@PROPERTY_SETTINGS
@given(sides(st.sampled_from("+x&|^")))
def test_values_match_independent_oracles(side: str) -> None:
    learning = Rules.preset("learning")
    standard = python_value(side)
    assert check(f"{side}={standard:b}", learning).value == standard
    flat = calculator_value(side)
    left_to_right = learning.override("precedence", "left-to-right")
    assert check(f"{side}={flat:b}", left_to_right).value == flat


@PROPERTY_SETTINGS
@given(equations(), rule_sets)
def test_format_of_parse_reparses_to_the_same_tree(codes: str, rules: Rules) -> None:
    try:
        tree = parse(codes, rules)
    except EquationError:
        return
    assert tree.format() == codes
    assert parse(tree.format(), rules) == tree


LEVELS = ["x/", "+-", "&", "^", "|"]


@PROPERTY_SETTINGS
@given(st.sampled_from(LEVELS).flatmap(lambda level: equations(st.sampled_from(level))))
def test_one_precedence_level_means_both_modes_agree(codes: str) -> None:
    for base in RULE_SETS:
        standard = base.override("precedence", "standard")
        flat = base.override("precedence", "left-to-right")
        assert verdict(codes, standard) == verdict(codes, flat)
        with contextlib.suppress(EquationError):
            assert parse(codes, standard) == parse(codes, flat)


@PROPERTY_SETTINGS
@given(st.integers(min_value=-(10**6), max_value=10**30))
def test_bonus_is_the_leading_bit(value: int) -> None:
    points = bonus(value)
    if value <= 0:
        assert points == 0
        return
    assert points & (points - 1) == 0  # a power of two
    assert points <= value < 2 * points


SPOKEN = {
    "&": [" AND ", " and ", "∧", "And"],
    "|": [" OR ", " or ", "∨"],
    "^": [" XOR ", " xor ", "⊕"],
    "~": ["NOT ", "not", "¬", "!"],
    "x": ["x", " X ", "*", "×"],
    "/": ["/", "÷", " : "],
    "-": ["-", " − "],
    "+": ["+", " + "],
    "=": ["=", " = "],
}


@PROPERTY_SETTINGS
@given(equations(), st.randoms(use_true_random=False), rule_sets)
def test_typed_forms_check_like_their_codes(codes: str, random: object, rules: Rules) -> None:
    assert isinstance(random, random_module.Random)
    typed = "".join(random.choice(SPOKEN.get(symbol, [symbol])) for symbol in codes)
    spoken, plain = check(typed, rules), check(codes, rules)
    assert (spoken.valid, spoken.value, spoken.kind) == (plain.valid, plain.value, plain.kind)
    if spoken.position is not None:
        assert 0 <= spoken.position < len(typed)
        assert not typed[spoken.position].isspace()
    # Positions (and everything else) as the tree, read symbol by symbol, finds them.
    assert verdict(typed, rules) == reference(typed, rules)


@PROPERTY_SETTINGS
@given(sides(), rule_sets)
def test_interpreted_and_compiled_side_evaluators_agree(side: str, rules: Rules) -> None:
    """Both evaluators of a shape give the same answer as the full evaluation of the side."""
    evaluator = checks.evaluator_for(rules)
    if evaluator.grammar.fullmatch(f"{side}=0") is None:
        return  # leading zeros under rules that forbid them: not a side to evaluate
    shape = side.replace("0", "").replace("1", "")
    arguments = (shape, evaluator.precedence, evaluator.negatives, evaluator.allowed)
    interpreted = shapes.interpret_shape(*arguments)(side)
    compiled = shapes.compile_shape(*arguments)(side)
    assert interpreted == compiled
    value, failure, fragments = evaluate_side(side, evaluator.precedence, evaluator.negatives)
    if interpreted is None:
        # Left to the full evaluation: a bad step or a forbidden fragment.
        assert failure is not None or not all(getattr(rules, switch) for *_, switch in fragments)
    elif isinstance(interpreted, tuple):
        assert interpreted == (value, len(fragments))
    else:
        assert (interpreted, failure, fragments) == (value, None, ())


@settings(max_examples=150, deadline=None)
@given(st.lists(sides(), min_size=1, max_size=12), rule_sets)
def test_sides_evaluated_together_agree_with_the_shape_evaluators(
    batch: list[str], rules: Rules
) -> None:
    """check_many's evaluation of many sides at once (grouped by operators, NOT folded into
    the operands' values, so `1x1` and `~0x~0` share a group) answers as each side's own
    shape evaluator does, and leaves exactly the sides it answers None to the full path."""
    evaluator = checks.evaluator_for(rules)
    batch = [side for side in batch if evaluator.grammar.fullmatch(f"{side}=0")]
    batch = list(dict.fromkeys(batch + [side.replace("1", "~1", 1) for side in batch]))
    batch = [side for side in batch if evaluator.grammar.fullmatch(f"{side}=0")]
    expr.clear_caches()
    found, rejected = columns.evaluate_sides(
        batch, evaluator.precedence, evaluator.negatives, evaluator.allowed
    )
    assert sorted(found) == sorted(batch)
    for side in batch:
        shape = side.replace("0", "").replace("1", "")
        arguments = (shape, evaluator.precedence, evaluator.negatives, evaluator.allowed)
        assert found[side] == shapes.interpret_shape(*arguments)(side), side
    assert sorted(rejected) == sorted(side for side in batch if found[side] is None)


def test_sides_evaluated_together_count_only_bare_literals_as_fragments() -> None:
    allowed = dict.fromkeys(("identity_times_one", "identity_plus_minus_zero"), True)
    allowed["identity_and_one_or_zero"] = False
    found, rejected = columns.evaluate_sides(
        ["10x1", "10x~0", "~0x10", "1&10", "~0&10", "001+1", "1+001"],
        symbols.STANDARD_PRECEDENCE,
        False,
        allowed,
    )
    assert found == {
        "10x1": (2, 1),
        "10x~0": 2,
        "~0x10": 2,
        "1&10": None,
        "~0&10": 0,
        "001+1": 2,
        "1+001": 2,
    }
    assert rejected == ["1&10"]


def test_sides_of_small_groups_are_left_to_the_full_path() -> None:
    """check_many evaluates a side whose operators no other side of the batch shares (or
    one other) in full, not by a program over columns: evaluate_sides answers None for
    the sides of groups smaller than `smallest_group`, and the verdicts stay check's."""
    allowed = dict.fromkeys(symbols.IDENTITY_SWITCH.values(), True)
    found, rejected = columns.evaluate_sides(
        ["1+1", "10+1", "1+0", "11x10", "~1&1", "11-100|1"],
        symbols.STANDARD_PRECEDENCE,
        False,
        allowed,
        smallest_group=2,
    )
    assert found == {
        "1+1": 2,
        "10+1": 3,
        "1+0": (1, 1),
        "11x10": None,
        "~1&1": None,
        "11-100|1": None,
    }
    assert sorted(rejected) == ["11-100|1", "11x10", "~1&1"]
    # Lone shapes with a value, an allowed fragment, a forbidden one, a chain, a negative
    # step, an inexact division, a division by zero: each verdict as check gives it.
    texts = [
        "11x10=110",
        "11x10=111",
        "~1&1=0",
        "1&1x1=1",
        "1x1+0=1",
        "11-100|1=1",
        "10/11^1=1",
        "1/0-1=0",
        "1+1=10",
        "10+1=11",
    ]
    for rules in (Rules(), Rules(identity_times_one=False), Rules(identity_chains=True)):
        expr.clear_caches()
        batch = check_many(texts, rules)
        expr.clear_caches()
        assert batch == [check(text, rules) for text in texts]


def test_check_many_on_failing_steps_next_to_other_sides() -> None:
    """A side that fails a step (negative, remainder, division by zero), without identity
    fragments, gives the verdict straight from the batch: its failure, at its place; with
    fragments on either side (allowed ones may make a chain, which is reported first) the
    full path answers. Either way the verdicts are check's, under every set of rules."""
    failing = ["1-10", "10/11", "1/0", "11-100x1", "1x1-10"]
    others = ["0", "1", "1+1", "1x1", "1x1x1", "1+0", "10-11", "~1-1", "1x1-10"]
    texts = [f"{left}={right}" for left in failing for right in others]
    texts += [f"{right}={left}" for left in failing for right in others]
    for rules in (
        Rules(),
        Rules(identity_times_one=False),
        Rules(identity_chains=True),
        Rules(precedence="left-to-right"),
        Rules(allow_negatives=True),
    ):
        expr.clear_caches()
        batch = check_many(texts, rules)
        expr.clear_caches()
        assert batch == [check(text, rules) for text in texts]


def test_column_steps_are_the_shape_steps_of_shapes_without_not() -> None:
    """The batch's quick parse of a shape (column_steps) gives the steps of shape_steps,
    for every shape of up to four operators, in both orders of operations."""
    for precedence in (symbols.STANDARD_PRECEDENCE, symbols.FLAT_PRECEDENCE):
        for length in range(5):
            for operators in itertools.product("+-x/&|^", repeat=length):
                shape = "".join(operators)
                assert (
                    shapes.column_steps(shape, precedence)
                    == (shapes.shape_steps(shape, precedence)[1])
                ), shape


def test_times_sign_before_or_is_times_then_or() -> None:
    """`×OR` is x then OR, as codes_and_positions reads it (the symbol, then the word), never XOR:
    check, the quick codes, the layout and check_many agree (found by hypothesis in
    test_layout_positions_find_the_start_of_each_unit)."""
    rules = Rules()
    for text, position in (("1×OR1=1", 2), ("1 × or 1 = 1", 4), ("1*OR1=1", 2)):
        assert normalizing.quick_codes(text) == normalizing.codes_and_positions(text)[0] == "1x|1=1"
        expr.clear_caches()
        result = check(text, rules)
        assert (result.kind, result.position) == ("consecutive_operators", position)
        expr.clear_caches()
        assert check_many([text, "1 × 1 = 1", text], rules) == [
            result,
            check("1 × 1 = 1", rules),
            result,
        ]
    assert normalizing.layout("1×OR1") == "1x| 1"


def test_equation_value_or_none() -> None:
    assert equation_value_or_none("1+1=10", Rules()) == 2
    assert equation_value_or_none("1+1=11", Rules()) is None
    assert equation_value_or_none("1 + 1 = 10", Rules()) is None


TYPED = {"&": " AND ", "|": " or ", "^": " Xor ", "~": "NOT ", "x": " × ", "-": " − "}
typed_equations = equations().map(lambda codes: "".join(TYPED.get(code, code) for code in codes))

# Batches with repeats (texts and sides), of every kind: true, false, malformed, typed.
batches = st.lists(
    st.one_of(any_text, equations(), equations(), typed_equations), max_size=12
).flatmap(lambda texts: st.permutations(texts + texts[: len(texts) // 2]))


@settings(max_examples=150, deadline=None)
@given(batches, rule_sets)
def test_check_many_agrees_with_check_and_the_tree(texts: list[str], rules: Rules) -> None:
    expr.clear_caches()
    batch = check_many(texts, rules)
    expr.clear_caches()
    one_by_one = [check(text, rules) for text in texts]
    assert [repr(result) for result in batch] == [repr(result) for result in one_by_one]
    assert [result.input for result in batch] == texts
    for text, result in zip(texts, batch, strict=True):
        mine = (
            ("valid", result.value) if result.valid else ("invalid", result.kind, result.position)
        )
        assert mine == reference(text, rules)


def test_check_many_takes_any_iterable_and_leaves_the_collector_as_it_was() -> None:
    import gc

    rules = Rules()
    assert [result.valid for result in check_many(iter(["1=1", "1=10", "1=1"]), rules)] == [
        True,
        False,
        True,
    ]
    assert check_many([], rules) == []
    assert gc.isenabled()
    gc.disable()
    try:
        check_many(["1+1=10"], rules)
        assert not gc.isenabled()
    finally:
        gc.enable()


@PROPERTY_SETTINGS
@given(st.text(alphabet="0101=+-x/&|^~#", max_size=20), st.booleans())
def test_quick_grammar_errors_match_the_state_machine(codes: str, leading_zeros: bool) -> None:
    quick = diagnosis.quick_syntax_failure(codes, leading_zeros)
    assert quick == diagnosis.syntax_failure(codes, leading_zeros)
    evaluator = checks.evaluator_for(Rules(leading_zeros=leading_zeros))
    assert (quick is None) == (evaluator.grammar.fullmatch(codes) is not None)


def _shape_heavy_batch(seed: int) -> list[str]:
    """Many sides of a few shapes (so check_many evaluates them in groups, column by column),
    with every kind of trouble a group can meet: identity fragments, zero and inexact
    divisors, negative steps, NOT, three sides, typed text, malformed text."""
    rng = random_module.Random(seed)
    shapes = ["x", "+", "-", "/", "&", "|", "^", "x+", "-x", "~x", "x~", "/-"]

    def number() -> str:
        return rng.choice(
            ["0", "1", "1" + "".join(rng.choice("01") for _ in range(rng.randint(0, 3)))]
        )

    def side(shape: str) -> str:
        text = ""
        for symbol in shape:
            if symbol == "~":
                text += "~" + "".join(rng.choice("01") for _ in range(rng.randint(1, 3)))
                continue
            if not text or text[-1] in "+-x/&|^":
                text += number()
            text += symbol
        return text + number() if text[-1] in "+-x/&|^" else text

    texts = []
    for _ in range(3000):
        left = side(rng.choice(shapes))
        roll = rng.random()
        if roll < 0.6:
            right = number()
        elif roll < 0.85:
            right = side(rng.choice(shapes))
        else:
            right = side(rng.choice(shapes)) + "=" + number()
        text = f"{left}={right}"
        if rng.random() < 0.1:
            text = "".join(TYPED.get(code, code) for code in text)
        elif rng.random() < 0.1:
            index = rng.randrange(len(text))
            text = text[:index] + rng.choice("=+x~0") + text[index:]
        texts.append(text)
    return texts


def test_check_many_agrees_with_check_on_sides_evaluated_in_groups() -> None:
    for number, rules in enumerate(RULE_SETS):
        texts = _shape_heavy_batch(number)
        expr.clear_caches()
        batch = check_many(texts, rules)
        expr.clear_caches()
        one_by_one = [check(text, rules) for text in texts]
        assert [repr(result) for result in batch] == [repr(result) for result in one_by_one]
        assert sum(result.valid for result in batch) > 50  # the batch holds true equations
        for text, result in list(zip(texts, batch, strict=True))[:300]:
            mine = (
                ("valid", result.value)
                if result.valid
                else ("invalid", result.kind, result.position)
            )
            assert mine == reference(text, rules)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0101=+-x/&|^~ a", max_size=20), st.booleans())
def test_the_readable_start_ends_at_the_first_bad_spot(codes: str, leading_zeros: bool) -> None:
    # check_many classifies texts by how far the grammar reads them; the errors it reports
    # are keyed by that spot, so it must be exactly the first bad spot.
    rules = Rules(leading_zeros=leading_zeros)
    evaluator = checks.evaluator_for(rules)
    match = evaluator.readable.match(codes)
    assert match is not None
    pattern = diagnosis.BAD_SPOT if leading_zeros else diagnosis.BAD_SPOT_NO_LEADING_ZEROS
    spot = pattern.search(codes)
    assert match.end() == (len(codes) if spot is None else spot.start())
    grammatical = evaluator.grammar.fullmatch(codes) is not None
    read_whole = match.end() == len(codes) and codes[-1:] in ("0", "1") and "=" in codes
    assert grammatical == read_whole


def test_quick_codes_in_a_batch_agree_with_one_by_one() -> None:
    texts = [
        "1 AND 1 = 1",
        "11 × 10 = 110",
        "NOT 0 = 1",
        "1 xor 1 = 0",
        "ı = 1",
        "1\t+ 1 = 10",
        "1 * 1 = 1",
        "",
        "   ",
        "1 ÷ 1 = 1",
        "é",
        "10 OR 1 = 11",
    ]
    codes, layouts = normalizing.quick_codes_many(texts)
    assert codes == [normalizing.quick_codes(text) for text in texts]
    assert layouts == [normalizing.layout(text) for text in texts]
    with_nul = ["1 AND 1", "1\0 = 1"]
    codes, layouts = normalizing.quick_codes_many(with_nul)
    assert codes == [normalizing.quick_codes(text) for text in with_nul]
    assert layouts == [normalizing.layout(text) for text in with_nul]
    # Only codes left in every text: the quick way out; one rarer alias: the slower one.
    assert normalizing.quick_codes_many(["1 AND 1", "NOT 0"]) == (
        ["1&1", "~0"],
        ["1 &   1", "~   0"],
    )
    assert normalizing.quick_codes_many(["1 AND 1", "1 : 1"]) == (
        ["1&1", "1/1"],
        ["1 &   1", "1 : 1"],
    )
    # * (and ×) become x with the words, after them: ×OR is x then OR.
    assert normalizing.quick_codes_many(["1 * 1", "1×OR 1"]) == (
        ["1x1", "1x|1"],
        ["1 x 1", "1x|  1"],
    )


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="01 =+xX\tAaNnDdOoRrTt~", max_size=25))
def test_code_positions_find_the_start_of_each_unit(text: str) -> None:
    starts = [unit.start() for unit in normalizing.UNITS.finditer(text)]
    positions = normalizing.CodePositions(text)
    assert [positions[index] for index in range(len(starts))] == starts


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="01 =+xX\tAaNnDdOoRrTt~×−*!", max_size=25))
def test_layout_positions_find_the_start_of_each_unit(text: str) -> None:
    # The batch path finds positions in typed text from its layout; check() from the text.
    if normalizing.quick_codes(text) is None:
        return
    starts = [unit.start() for unit in normalizing.UNITS.finditer(text)]
    assert len(starts) == len(normalizing.quick_codes(text) or "")
    positions = normalizing.LayoutPositions(normalizing.layout(text))
    assert [positions[index] for index in range(len(starts))] == starts


def test_check_many_with_some_sides_already_known(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sides known from earlier checks are taken from the cache, the others evaluated
    together; also when the cache is too small for the batch and is cleared in between."""
    texts = _shape_heavy_batch(11)[:60]
    for limit in (limits.CACHE_LIMIT, *range(16, 160, 8)):
        # The modules whose caches the limit bounds.
        monkeypatch.setattr(checker, "CACHE_LIMIT", limit)
        monkeypatch.setattr(columns, "CACHE_LIMIT", limit)
        for rules in RULE_SETS[:4]:
            expr.clear_caches()
            for text in texts[::7]:
                check(text, rules)  # some sides known before the batch
            batch = check_many(texts, rules)
            expr.clear_caches()
            one_by_one = [check(text, rules) for text in texts]
            assert [repr(result) for result in batch] == [repr(result) for result in one_by_one]


def test_the_compiled_grammar_agrees_with_the_state_machine_on_every_short_text() -> None:
    # Every text of up to six codes over digits, `=`, NOT and two operators: the
    # regular expressions of the fast path (the grammar, the readable start, the batch
    # reader) against the explaining state machine and the parse tree. A regression test
    # for CPython's possessive repeats of a group (gh-106052): on Debian 12's 3.11.2 the
    # grammar read "1+~=1" as an equation and the referee crashed on it.
    texts = [
        "".join(codes)
        for length in range(7)
        for codes in itertools.product("01=+~x", repeat=length)
    ]
    for leading_zeros in (False, True):
        rules = Rules(leading_zeros=leading_zeros)
        evaluator = checks.evaluator_for(rules)
        pattern = diagnosis.BAD_SPOT if leading_zeros else diagnosis.BAD_SPOT_NO_LEADING_ZEROS
        for codes in texts:
            grammatical = diagnosis.syntax_failure(codes, leading_zeros) is None
            assert (evaluator.grammar.fullmatch(codes) is not None) == grammatical, codes
            spot = pattern.search(codes)
            readable = evaluator.readable.match(codes)
            assert readable is not None
            assert readable.end() == (len(codes) if spot is None else spot.start()), codes
        expr.clear_caches()
        for text, result in zip(texts, check_many(texts, rules), strict=True):
            mine = (
                ("valid", result.value)
                if result.valid
                else ("invalid", result.kind, result.position)
            )
            assert mine == reference(text, rules), text
    with contextlib.suppress(EquationError):
        equation_value("1+~=1", Rules())
        raise AssertionError("1+~=1 is not an equation")
