"""The command line's failures: CliError raised where they are found, reported by cli.main."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from binscrabble.cli import main
from binscrabble.cli.common import (
    CliError,
    check_player_name,
    load_position_file,
    load_record_file,
    report_error,
    rules_from_options,
    write_output,
)


def _rule_options(*rules: str) -> argparse.Namespace:
    return argparse.Namespace(rules=None, preset=None, rule=list(rules), precedence=None)


def test_a_missing_record_is_a_cli_error_with_status_2(tmp_path: Path) -> None:
    missing = tmp_path / "gone.bsr"
    with pytest.raises(CliError) as raised:
        load_record_file(str(missing))
    assert raised.value.message == f"no such file: {missing}"
    assert raised.value.status == 2


def test_a_folder_given_as_a_position_is_a_cli_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(CliError) as raised:
        load_position_file(str(tmp_path))
    assert raised.value.message.startswith(f"{tmp_path}: ")
    assert raised.value.status == 2


def test_bad_rules_and_player_names_are_cli_errors() -> None:
    with pytest.raises(CliError, match="rack_size"):
        rules_from_options(_rule_options("rack_size=15"))
    assert rules_from_options(_rule_options("rack_size=7")).rack_size == 7
    with pytest.raises(CliError):
        check_player_name("nobody-plays-like-this")
    check_player_name("hard")


def test_an_unwritable_output_is_a_cli_error(tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "out.svg"
    with pytest.raises(CliError, match="cannot write"):
        write_output(target, lambda: "<svg/>")
    assert not target.exists()


def test_report_error_escapes_and_returns_the_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert report_error(CliError("bad \x1b[31mname", status=3)) == 3
    err = capsys.readouterr().err
    assert err.startswith("binscrabble: error: bad ")
    assert "\x1b" not in err


def test_main_reports_a_command_failure_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "gone.bsr"
    assert main(["replay", str(missing)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"binscrabble: error: no such file: {missing}\n"
