"""The equation language: docs/rules.md §6, §7 and §11, error kinds, normalizing, trees."""

from __future__ import annotations

import pickle

import pytest

from binscrabble.expr import (
    ERROR_KINDS,
    MAX_SYMBOLS,
    BinaryOperation,
    CheckResult,
    Equation,
    EquationError,
    Not,
    Number,
    binary,
    bonus,
    check,
    checks,
    equation_value,
    identity_fragments,
    normalize,
    number_value,
    parse,
    side_value,
)
from binscrabble.rules import RULE_LABELS, Rules

STANDARD = Rules()
LEFT_TO_RIGHT = Rules(precedence="left-to-right")
LEARNING = Rules.preset("learning")
EXPERT = Rules.preset("expert")


def assert_sentence(message: str) -> None:
    assert message
    assert "\n" not in message
    assert "Traceback" not in message
    assert len(message.split()) >= 2, message
    assert not message.endswith((".", " ")), message


# -- docs/rules.md §11 --------------------------------------------------------------------------

VALID_UNDER_DEFAULTS = [
    ("1+1=10", 2, 2),
    ("11+1=100", 4, 4),
    ("100 OR 1=101", 5, 4),
    ("101 AND 1=1", 1, 1),
    ("10x10=100=11+1", 4, 4),
    ("1-1+1-1=0=0+0", 0, 0),
    ("11x11=1001", 9, 8),
    ("1000x11=11000", 24, 16),
    ("NOT 101=10", 2, 2),
    ("NOT 10+1=10", 2, 2),
    ("1+1=10x1", 2, 2),
]


@pytest.mark.parametrize(("text", "value", "expected_bonus"), VALID_UNDER_DEFAULTS)
def test_reference_cases_valid_under_defaults(text: str, value: int, expected_bonus: int) -> None:
    result = check(text, STANDARD)
    assert result.valid, result.reason
    assert result.value == value
    assert result.bonus == expected_bonus
    assert result.binary == format(value, "b")
    assert result.reason is None and result.error is None
    assert equation_value(normalize(text), STANDARD) == value


@pytest.mark.parametrize(
    ("text", "valid_under"),
    [
        ("1+1x10=11", "standard"),
        ("1+1x10=100", "left-to-right"),
        ("11 OR 1 AND 10=11", "standard"),
    ],
)
def test_reference_cases_depending_on_precedence(text: str, valid_under: str) -> None:
    for precedence in ("standard", "left-to-right"):
        result = check(text, Rules(precedence=precedence))  # type: ignore[arg-type]
        assert result.valid == (precedence == valid_under), (precedence, result.reason)
        if not result.valid:
            assert result.kind == "sides_differ"


INVALID_UNDER_DEFAULTS = [
    ("100 AND 1=101", "sides_differ", "the left side is 0 but the right side is 101"),
    ("1001x11=11000", "sides_differ", "the left side is 11011 but the right side is 11000"),
    ("1+xx1==10", "consecutive_operators", "two binary operators in a row at position 3"),
    ("+1=1", "leading_operator", "may not start with +"),
    ("01+1=10", "leading_zero", "a number may not start with 0"),
    ("1-10=0", "negative", "1 − 10 would be negative"),
    ("1/0=0", "division_by_zero", "division by zero"),
    ("11/10=1", "remainder", "11 ÷ 10 leaves a remainder"),
    ("1=1=", "empty_side", "last side is missing"),
    ("10", "no_equals", "no = sign: an equation needs at least two sides"),
    ("1=10", "sides_differ", "the left side is 1 but the right side is 10"),
    (
        "1+1=10+0+0+0x1x1",
        "identity_chain",
        "while the house rule “Several of ×1, +0, AND 1 in one equation” is off",
    ),
]


@pytest.mark.parametrize(("text", "kind", "words"), INVALID_UNDER_DEFAULTS)
def test_reference_cases_invalid_under_defaults(text: str, kind: str, words: str) -> None:
    result = check(text, STANDARD)
    assert not result.valid
    assert result.kind == kind
    assert result.reason is not None and words in result.reason
    assert_sentence(result.reason)
    assert result.value is None and result.binary is None and result.bonus is None
    with pytest.raises(EquationError) as raised:
        equation_value(normalize(text), STANDARD)
    assert raised.value.kind == kind


def test_identity_fragment_refused_under_expert() -> None:
    result = check("1+1=10x1", EXPERT)
    assert result.kind == "identity_not_allowed"
    assert result.reason == (
        "×1 is an identity fragment, not allowed under these rules "
        "(the house rule “Times 1 and divided by 1 allowed” is off)"
    )
    assert result.position == 6


def test_identity_chain_allowed_while_learning() -> None:
    assert check("1+1=10+0+0+0x1x1", LEARNING).value == 2


# -- one test per error kind: kind, position, sentence -------------------------------------

ERROR_CASES = [
    ("empty_input", "", STANDARD, None),
    ("empty_input", "   ", STANDARD, None),
    ("unknown_symbol", "1 # 1", STANDARD, 2),
    ("too_long", "1" * (MAX_SYMBOLS + 1) + "=1", STANDARD, None),
    ("no_equals", "101", STANDARD, None),
    ("empty_side", "=1", STANDARD, 0),
    ("empty_side", "1==1", STANDARD, 2),
    ("empty_side", "1=1=", STANDARD, 3),
    ("leading_operator", "+1=1", STANDARD, 0),
    ("leading_operator", "1=-1", STANDARD, 2),
    ("trailing_operator", "1+=10", STANDARD, 1),
    ("trailing_operator", "1=1+", STANDARD, 3),
    ("consecutive_operators", "1+x1=1", STANDARD, 2),
    ("double_not", "~~1=0", STANDARD, 1),
    ("not_without_operand", "~=1", STANDARD, 0),
    ("not_without_operand", "1=1+~", STANDARD, 4),
    ("not_after_number", "1~1=1", STANDARD, 1),
    ("leading_zero", "1=01", STANDARD, 2),
    ("negative", "1-10=0", STANDARD, 1),
    ("remainder", "11/10=1", STANDARD, 2),
    ("division_by_zero", "1/0=0", STANDARD, 1),
    ("identity_not_allowed", "1+0=1", EXPERT, 1),
    ("identity_not_allowed", "1 AND 1=1", EXPERT, 2),
    ("identity_chain", "1+0=1x1", STANDARD, 5),
    ("sides_differ", "1=10", STANDARD, 1),
    ("sides_differ", "1=1=10", STANDARD, 3),
]


@pytest.mark.parametrize(("kind", "text", "rules", "position"), ERROR_CASES)
def test_each_error_kind(kind: str, text: str, rules: Rules, position: int | None) -> None:
    result = check(text, rules)
    assert not result.valid
    assert result.kind == kind
    assert result.position == position
    assert result.reason is not None
    assert_sentence(result.reason)
    error = result.error
    assert isinstance(error, EquationError)
    assert (error.kind, error.position, str(error)) == (kind, position, result.reason)


def test_every_error_kind_is_tested_and_listed() -> None:
    tested = {case[0] for case in ERROR_CASES} | {"not_a_number"}
    assert tested == set(ERROR_KINDS)


def test_not_a_number() -> None:
    with pytest.raises(EquationError) as raised:
        number_value("1+1", STANDARD)
    assert raised.value.kind == "not_a_number"
    assert raised.value.position == 1
    assert_sentence(str(raised.value))


def test_positions_refer_to_the_text_as_given() -> None:
    assert check("1 + 1 = 1 1", STANDARD).position == 6
    assert check("100 AND 1=101", STANDARD).position == 9
    result = check("1 and and 1 = 1", STANDARD)
    assert (result.kind, result.position) == ("consecutive_operators", 6)
    # The sentence counts from 1, as the person who typed it does; `position` from 0.
    assert "at position 7" in (result.reason or "")
    assert check("NOT NOT 1 = 0", STANDARD).position == 4


def test_messages_name_operators_as_people_read_them() -> None:
    assert check("1 AND OR 1=1", STANDARD).reason == (
        "two binary operators in a row at position 7 (AND then OR)"
    )
    assert check("10 OR 1=11=10 OR 0", STANDARD).reason == "the first side is 11 but side 3 is 10"


# -- malformed input of every sort -----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "\t\t",
        "#",
        "1 # 1",
        "1+1=10\x00",
        "é=é",
        "１+１=１０",  # full-width digits are not binary digits
        "😀",
        "1=1\u200b",
        "?=1",
        "(1+1)=10",
        "1+1=10" * 2000,
        "1" * 10_000,
        "=" * 10_000,
        "~" * 10_000,
        "1+" * 5_000,
    ],
)
def test_malformed_input_gives_a_clear_reason(text: str) -> None:
    for rules in (STANDARD, LEFT_TO_RIGHT, LEARNING, EXPERT):
        result = check(text, rules)
        assert not result.valid
        assert result.kind in ERROR_KINDS
        assert result.reason is not None
        assert_sentence(result.reason)
        with pytest.raises(EquationError):
            parse(text, rules)


def test_long_lines_are_refused_as_too_long() -> None:
    result = check("1+1=10" * 2000, STANDARD)
    assert result.kind == "too_long"
    assert "12000 symbols" in (result.reason or "")


def test_unknown_symbol_repr_and_blank_hint() -> None:
    assert check("1=1\x00", STANDARD).reason == "unknown symbol '\\x00' at position 4"
    assert "blank" in (check("1=?", STANDARD).reason or "")


# -- normalize ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("1 + 1 = 10", "1+1=10"),
        ("1 − 1 = 0", "1-1=0"),
        ("1 * 1 = 1", "1x1=1"),
        ("1 × 1 = 1", "1x1=1"),
        ("1 X 1 = 1", "1x1=1"),
        ("10 ÷ 10 = 1", "10/10=1"),
        ("10 : 10 = 1", "10/10=1"),
        ("1 ∧ 1 = 1", "1&1=1"),
        ("1 ∨ 0 = 1", "1|0=1"),
        ("¬0 = 1", "~0=1"),
        ("!0 = 1", "~0=1"),
        ("1 ⊕ 1 = 0", "1^1=0"),
        ("1 and 1 = 1", "1&1=1"),
        ("1 Or 0 = 1", "1|0=1"),
        ("nOt 0 = 1", "~0=1"),
        ("1 xor 1 = 0", "1^1=0"),
        ("1xor1=0", "1^1=0"),
        ("1 x or 1", "1x|1"),
        ("1XNOT1", "1x~1"),
        ("\t1=1\t", "1=1"),
        ("1x1=1", "1x1=1"),
    ],
)
def test_normalize(text: str, codes: str) -> None:
    assert normalize(text) == codes
    # Everything that normalizes checks exactly as its codes do.
    assert check(text, STANDARD).reason == check(codes, STANDARD).reason or (
        check(text, STANDARD).kind == check(codes, STANDARD).kind
    )


def test_normalize_unknown_symbol() -> None:
    with pytest.raises(EquationError) as raised:
        normalize("1 A 1")
    assert (raised.value.kind, raised.value.position) == ("unknown_symbol", 2)


def test_equation_value_takes_codes_only() -> None:
    with pytest.raises(EquationError) as raised:
        equation_value("1 + 1 = 10", STANDARD)
    assert raised.value.kind == "unknown_symbol"
    assert raised.value.position == 1


# -- values ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("codes", "value"),
    [
        ("101&1=1", 1),
        ("100|1=101", 5),
        ("110^11=101", 5),
        ("~101=10", 2),
        ("~0=1", 1),
        ("~1=0", 0),
        ("~011=100", 4),
        ("~111=0", 0),
        ("110/11=10", 2),
        ("11x11-1=1000", 8),
        ("1-1=0", 0),
    ],
)
def test_values(codes: str, value: int) -> None:
    assert equation_value(codes, STANDARD) == value


def test_standard_precedence_levels() -> None:
    # AND binds tighter than XOR, XOR tighter than OR; left to right ignores all that.
    standard = 0b1 | (0b10 ^ (0b11 & 0b1))
    flat = ((0b1 | 0b10) ^ 0b11) & 0b1
    assert standard != flat
    assert equation_value(f"1|10^11&1={standard:b}", STANDARD) == standard
    assert equation_value(f"1|10^11&1={flat:b}", LEFT_TO_RIGHT) == flat
    # + and - bind tighter than AND.
    assert equation_value("110&11+1=100", STANDARD) == 0b110 & 0b100


def test_left_to_right_never_goes_negative_at_any_step() -> None:
    # 1 - 10 is negative as a first step, even though (1 - 10) + 11 would be 10.
    assert check("1-10+11=10", LEFT_TO_RIGHT).kind == "negative"
    assert check("1-10+11=10", STANDARD).kind == "negative"
    assert check("11-10+1=10", STANDARD).value == 2


def test_allow_negatives() -> None:
    rules = Rules(allow_negatives=True)
    assert equation_value("1-10=0-1", rules) == -1
    result = check("1-10=0-1", rules)
    assert (result.binary, result.bonus) == ("-1", 0)
    # AND/OR/XOR on negatives: two's complement with infinite sign extension.
    assert equation_value("0-1&101=101", rules) == 5
    assert equation_value("0-10|1=0-1", rules) == -1
    assert equation_value("0-1^1=0-10", rules) == -2
    # Exact division stays exact with negatives.
    assert equation_value("0-110/11=0-10", rules) == -2
    assert check("0-111/10=0-11", rules).kind == "remainder"


def test_leading_zeros_rule() -> None:
    rules = Rules(leading_zeros=True)
    assert equation_value("01+1=10", rules) == 2
    assert equation_value("001=1", rules) == 1
    # NOT keeps its written width either way.
    assert equation_value("~001=110", STANDARD) == 6


def test_bonus() -> None:
    assert [bonus(value) for value in (0, 1, 2, 3, 4, 9, 24, 1000)] == [0, 1, 2, 2, 4, 8, 16, 512]
    assert bonus(-8) == 0
    assert binary(-5) == "-101"


def test_number_value() -> None:
    assert number_value("0", STANDARD) == 0
    assert number_value("1101", STANDARD) == 13
    assert number_value("0011", Rules(leading_zeros=True)) == 3
    with pytest.raises(EquationError) as raised:
        number_value("0011", STANDARD)
    assert (raised.value.kind, raised.value.position) == ("leading_zero", 0)
    with pytest.raises(EquationError) as raised:
        number_value("", STANDARD)
    assert raised.value.kind == "empty_input"


# -- identity fragments (docs/rules.md §7) ------------------------------------------------------


@pytest.mark.parametrize(
    ("codes", "switch"),
    [
        ("10x1=10", "identity_times_one"),
        ("1x10=10", "identity_times_one"),
        ("10/1=10", "identity_times_one"),
        ("10+0=10", "identity_plus_minus_zero"),
        ("0+10=10", "identity_plus_minus_zero"),
        ("10-0=10", "identity_plus_minus_zero"),
        ("10&1=0", "identity_and_one_or_zero"),
        ("1&10=0", "identity_and_one_or_zero"),
        ("10|0=10", "identity_and_one_or_zero"),
        ("0|10=10", "identity_and_one_or_zero"),
        ("10^0=10", "identity_and_one_or_zero"),
    ],
)
def test_each_identity_fragment_and_its_switch(codes: str, switch: str) -> None:
    assert check(codes, STANDARD).valid
    off = Rules().override(switch, "off")
    assert check(codes, off).kind == "identity_not_allowed"
    # The reason names the rule in words, as the lobby does, never by its code.
    reason = check(codes, off).reason or ""
    assert f"the house rule “{RULE_LABELS[switch]}” is off" in reason
    assert switch not in reason
    (fragment,) = identity_fragments(parse(codes, STANDARD))
    assert fragment.switch == switch


@pytest.mark.parametrize(
    "codes",
    ["1/10=0", "0-10=0", "10x~0=10", "~0x10=10", "10+~1=10", "1x1x0=0"],
)
def test_not_identity_fragments(codes: str) -> None:
    tree = parse(codes, Rules(allow_negatives=True))
    assert [fragment.text for fragment in identity_fragments(tree)] == (
        ["×1"] if codes == "1x1x0=0" else []
    )


def test_fragments_follow_the_precedence_in_force() -> None:
    # Standard: 1 + (1 x 10) has the fragment 1x; left to right: (1 + 1) x 10 has none.
    assert [f.text for f in identity_fragments(parse("1+1x10=11", STANDARD))] == ["1×"]
    assert identity_fragments(parse("1+1x10=100", LEFT_TO_RIGHT)) == ()
    assert check("1+1x10=11", EXPERT).kind == "identity_not_allowed"
    assert check("1+1x10=100", Rules.preset("expert").override("precedence", "left-to-right"))


def test_fragment_counting_is_per_equation() -> None:
    assert check("10x1=10", STANDARD).valid
    assert check("10x1=10+0", STANDARD).kind == "identity_chain"
    assert check("10x1=10+0", LEARNING).valid
    # One operation with a neutral literal on both sides is one fragment.
    assert check("1x1=1", STANDARD).valid


# -- parse trees -----------------------------------------------------------------------------


def test_parse_trees_per_precedence() -> None:
    standard = parse("1+1x10=11", STANDARD)
    assert standard.sides[0] == BinaryOperation(
        "+", Number("1"), BinaryOperation("x", Number("1"), Number("10"))
    )
    flat = parse("1+1x10=100", LEFT_TO_RIGHT)
    assert flat.sides[0] == BinaryOperation(
        "x", BinaryOperation("+", Number("1"), Number("1")), Number("10")
    )
    assert parse("NOT 011 = 100", STANDARD) == Equation((Not("011"), Number("100")))


def test_parse_positions_are_in_the_given_text() -> None:
    tree = parse("1 + 1 = 10", STANDARD)
    side = tree.sides[0]
    assert isinstance(side, BinaryOperation)
    assert (side.position, side.left.position, side.right.position) == (2, 0, 4)
    assert tree.equals_positions == (6,)


def test_format_round_trip() -> None:
    for text in ("1 + 1 x 10 = 11", "NOT 0 OR 10 = 11", "1-1+1-1=0=0+0"):
        for rules in (STANDARD, LEFT_TO_RIGHT):
            tree = parse(text, rules)
            assert parse(tree.format(), rules) == tree
            assert tree.format() == normalize(text)


def test_side_value_raises_on_bad_steps() -> None:
    side = parse("1-10=0", STANDARD).sides[0]
    with pytest.raises(EquationError) as raised:
        side_value(side, STANDARD)
    assert (raised.value.kind, raised.value.position) == ("negative", 1)
    assert side_value(side, Rules(allow_negatives=True)) == -1


# -- objects ---------------------------------------------------------------------------------


def test_check_result_is_frozen_and_cached() -> None:
    result = check("1+1=10", STANDARD)
    assert isinstance(result, CheckResult)
    with pytest.raises(AttributeError):
        result.value = 3  # type: ignore[misc]
    assert check("1+1=10", STANDARD) is result
    assert result == CheckResult("1+1=10", 2, None)


def test_results_do_not_leak_between_rules() -> None:
    assert check("1+1=10x1", STANDARD).valid
    assert not check("1+1=10x1", EXPERT).valid
    assert check("1+1=10x1", Rules()).valid
    assert not check("1+1=10x1", Rules.preset("expert")).valid


def test_equation_error_pickles() -> None:
    error = check("1-10=0", STANDARD).error
    assert error is not None
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.kind, copy.position, str(copy)) == (error.kind, error.position, str(error))
    assert repr(copy) == "EquationError('1 − 10 would be negative', kind='negative', position=1)"


def test_repeated_failures_raise_fresh_errors() -> None:
    errors = []
    for _ in range(3):
        with pytest.raises(EquationError) as raised:
            equation_value("1=10", STANDARD)
        errors.append(raised.value)
    assert errors[0] is not errors[1]
    assert {str(error) for error in errors} == {"the left side is 1 but the right side is 10"}


def test_long_texts_are_answered_but_not_cached() -> None:
    evaluator = checks.evaluator_for(STANDARD)
    long_text = "1 " * 5000 + "= 1"
    first = check(long_text, STANDARD)
    assert first.kind == "too_long"
    assert long_text not in evaluator.results
    assert all(len(codes) <= MAX_SYMBOLS for codes in evaluator.equations)
    assert check(long_text, STANDARD) == first
