"""`binscrabble check` (INTERFACES.md §1): arguments, standard input, rules, JSON, exit status."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from binscrabble.cli import main

JSON_KEYS = ["input", "valid", "value", "binary", "bonus", "reason"]


def run(
    argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str | bytes | None = None
) -> tuple[int, str, str]:
    if stdin is not None:
        data = stdin.encode() if isinstance(stdin, str) else stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        try:
            status = main(argv)
        except SystemExit as exit_:
            status = int(exit_.code or 0)
    finally:
        sys.stdin = sys.__stdin__
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def json_lines(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines()]


def test_json_shape_valid_and_invalid(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["check", "--json", "1+1=10", "100 AND 1 = 101"], capsys)
    assert status == 1
    assert err == ""
    valid, invalid = json_lines(out)
    assert list(valid) == JSON_KEYS
    assert valid == {
        "input": "1+1=10",
        "valid": True,
        "value": 2,
        "binary": "10",
        "bonus": 2,
        "reason": None,
    }
    assert list(invalid) == JSON_KEYS
    assert invalid == {
        "input": "100 AND 1 = 101",
        "valid": False,
        "value": None,
        "binary": None,
        "bonus": None,
        "reason": "the left side is 0 but the right side is 101",
    }


def test_json_output_matches_json_dumps_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    texts = ["1+1=10", 'say "hi"\\', "é = é", "11x11=1001"]
    status, out, _ = run(["check", "--json", *texts], capsys)
    assert status == 1
    for line, text in zip(out.splitlines(), texts, strict=True):
        parsed = json.loads(line)
        assert parsed["input"] == text
        assert line == json.dumps(parsed)


def test_exit_zero_when_all_valid(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["check", "1+1=10", "11x11=1001"], capsys)
    assert status == 0
    assert (
        out == "1+1=10: valid, value 10 (2), bonus 2\n11x11=1001: valid, value 1001 (9), bonus 8\n"
    )


def test_plain_output_for_invalid(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["check", "1-10=0"], capsys)
    assert status == 1
    assert out == "1-10=0: invalid, 1 − 10 would be negative\n"
    assert "\033[" not in out


def test_standard_input_one_per_line_with_blank_lines(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["check", "--json"], capsys, stdin="1+1=10\n\n1=10\r\n11+1=100")
    assert status == 1
    results = json_lines(out)
    assert [result["input"] for result in results] == ["1+1=10", "", "1=10", "11+1=100"]
    assert [result["valid"] for result in results] == [True, False, False, True]
    assert results[1]["reason"] == "empty input: there is nothing to check"


def test_standard_input_all_valid(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["check"], capsys, stdin="1+1=10\n100 OR 1 = 101\n")
    assert status == 0
    assert len(out.splitlines()) == 2


def test_undecodable_input_is_reported_not_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(["check", "--json"], capsys, stdin=b"1=1\n\xff\xfe=1\n")
    assert status == 1
    first, second = json_lines(out)
    assert first["valid"] is True
    assert second["valid"] is False
    assert "unknown symbol" in str(second["reason"])
    assert err == ""


def test_preset_and_precedence(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["check", "1+1=10x1"], capsys)[0] == 0
    assert run(["check", "--preset", "expert", "1+1=10x1"], capsys)[0] == 1
    assert run(["check", "1+1x10=100"], capsys)[0] == 1
    assert run(["check", "--precedence", "left-to-right", "1+1x10=100"], capsys)[0] == 0


def test_rule_option(capsys: pytest.CaptureFixture[str]) -> None:
    chain = "1+1=10+0+0+0x1x1"
    assert run(["check", chain], capsys)[0] == 1
    assert run(["check", "--rule", "identity_chains=on", chain], capsys)[0] == 0
    assert run(["check", "--rule", "allow_negatives=on", "1-10=0-1"], capsys)[0] == 0
    status, _, _ = run(
        ["check", "--rule", "leading_zeros=on", "--rule", "xor_tiles=4", "01^1=0"], capsys
    )
    assert status == 0


def test_rules_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text('[rules]\npreset = "expert"\nprecedence = "left-to-right"\n')
    assert run(["check", "--rules", str(rules), "1+1x10=100"], capsys)[0] == 0
    assert run(["check", "--rules", str(rules), "1+1=10x1"], capsys)[0] == 1


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["check", "--rule", "no_such_rule=on", "1=1"], "unknown rule 'no_such_rule'"),
        (["check", "--rule", "identity_chains=maybe", "1=1"], "identity_chains"),
        (["check", "--rule", "xor_tiles=many", "1=1"], "xor_tiles"),
        (["check", "--rule", "oops", "1=1"], "NAME=VALUE"),
        (["check", "--rules", "/no/such/file.toml", "1=1"], "cannot read rules file"),
        (["check", "--preset", "casual", "1=1"], "invalid choice"),
        (["check", "--precedence", "backwards", "1=1"], "invalid choice"),
        (["check", "--no-such-option", "1=1"], "unrecognized arguments"),
    ],
)
def test_usage_errors_exit_2_with_a_message(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(argv, capsys)
    assert status == 2
    assert out == ""
    assert words in err
    assert "Traceback" not in err


def test_bad_toml_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("precedence = \n")
    status, _, err = run(["check", "--rules", str(broken), "1=1"], capsys)
    assert status == 2
    assert "not valid TOML" in err


@pytest.mark.parametrize(
    "text", ["", "   ", "#", "1" * 10_000, "é=é", "\x00", "=" * 5000, "NOT NOT NOT"]
)
def test_malformed_arguments_never_crash(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["check", "--json", text], capsys)
    assert status == 1
    (result,) = json_lines(out)
    assert result["valid"] is False and result["reason"]
    assert err == ""


def test_explain_option(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["check", "--explain", "11 x 11 = 1001", "1+xx1==10"], capsys)
    assert status == 1
    assert "11 × 11 = 1001   (3 × 3 = 9)" in out
    assert "1+xx1==10\n  ^\ntwo binary operators in a row at position 3 (+ then ×)" in out


def test_subprocess_batch_of_many_lines(tmp_path: Path) -> None:
    lines = ["1+1=10", "1=10", "11x11=1001", "+1=1", "", "100 or 1 = 101"] * 5000
    completed = subprocess.run(
        [sys.executable, "-m", "binscrabble", "check", "--json"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 1
    assert completed.stderr == ""
    output = completed.stdout.splitlines()
    assert len(output) == len(lines)
    parsed = [json.loads(line) for line in output[:6]]
    assert [result["valid"] for result in parsed] == [True, False, True, False, False, True]
    assert json.loads(output[-1])["input"] == "100 or 1 = 101"


def test_subprocess_usage_error() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "binscrabble", "check", "--rule", "bogus=1", "1=1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert "unknown rule 'bogus'" in completed.stderr


def test_color_only_when_asked_for(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from binscrabble.cli import check_command

    monkeypatch.setattr(check_command, "use_color", lambda stream: True)
    status, out, _ = run(["check", "1+1=10", "1=10"], capsys)
    assert status == 1
    assert "\033[32mvalid\033[0m" in out
    assert "\033[31minvalid\033[0m" in out
    # JSON is never colored.
    status, out, _ = run(["check", "--json", "1+1=10"], capsys)
    assert "\033[" not in out


def test_a_negative_value_reads_with_the_minus_sign_json_keeps_numbers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    negatives = ["--rule", "allow_negatives=on"]
    status, out, _ = run(["check", *negatives, "1-10=0-1"], capsys)
    assert status == 0
    assert out == "1-10=0-1: valid, value −1 (−1), bonus 0\n"  # as typed, then U+2212
    status, out, _ = run(["check", "--json", *negatives, "1-10=0-1"], capsys)
    assert json_lines(out)[0]["value"] == -1 and json_lines(out)[0]["binary"] == "-1"
