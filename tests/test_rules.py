"""Rules, presets, overrides and the tile set (docs/rules.md §1, §10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from binscrabble.rules import (
    BLANK,
    FACES,
    TILE_POINTS,
    Rules,
    RulesError,
    faces_in_game,
    parse_assignment,
    tile_bag,
    tile_counts,
)


def test_defaults_are_the_standard_preset() -> None:
    rules = Rules()
    assert rules == Rules.preset("standard")
    assert rules.precedence == "standard"
    assert (rules.identity_times_one, rules.identity_plus_minus_zero) == (True, True)
    assert rules.identity_and_one_or_zero is True
    assert rules.identity_chains is False
    assert (rules.rack_size, rules.bingo_bonus, rules.xor_tiles) == (9, 50, 0)


def test_learning_preset_turns_chains_on() -> None:
    learning = Rules.preset("learning")
    assert learning.identity_chains is True
    assert learning.identity_times_one and learning.identity_plus_minus_zero


def test_expert_preset_turns_every_identity_rule_off() -> None:
    expert = Rules.preset("expert")
    assert not expert.identity_times_one
    assert not expert.identity_plus_minus_zero
    assert not expert.identity_and_one_or_zero
    assert not expert.identity_chains


def test_unknown_preset_names_the_choices() -> None:
    with pytest.raises(RulesError, match="learning, standard, expert"):
        Rules.preset("casual")


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("identity_chains", "on", True),
        ("identity_chains", "OFF", False),
        ("allow_negatives", "true", True),
        ("xor_tiles", "4", 4),
        ("rack_size", " 7 ", 7),
        ("precedence", "left-to-right", "left-to-right"),
    ],
)
def test_override_from_text(name: str, text: str, expected: object) -> None:
    assert getattr(Rules().override(name, text), name) == expected


def test_override_leaves_the_original_untouched() -> None:
    rules = Rules()
    rules.override("identity_chains", True)
    assert rules.identity_chains is False


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("identity_chain", "on", "unknown rule 'identity_chain'"),
        ("identity_chains", "maybe", "takes on or off"),
        ("xor_tiles", "-1", "from 0 to 20"),
        ("xor_tiles", "many", "from 0 to 20"),
        ("precedence", "right-to-left", "standard or left-to-right"),
        ("rack_size", True, "whole number"),
    ],
)
def test_bad_override_names_rule_and_allowed_values(name: str, value: object, message: str) -> None:
    with pytest.raises(RulesError, match=message) as caught:
        Rules().override(name, value)
    assert caught.value.rule == name


def test_constructor_checks_types() -> None:
    with pytest.raises(RulesError, match="identity_chains takes on or off"):
        Rules(identity_chains="yes")  # type: ignore[arg-type]


def test_from_mapping_with_preset_and_switches() -> None:
    rules = Rules.from_mapping({"preset": "expert", "precedence": "left-to-right"})
    assert rules.precedence == "left-to-right"
    assert rules.identity_times_one is False
    assert Rules.from_mapping(rules.to_mapping()) == rules


def test_from_toml_reads_top_level_or_rules_table(tmp_path: Path) -> None:
    flat = tmp_path / "flat.toml"
    flat.write_text('preset = "learning"\nxor_tiles = 2\n')
    assert Rules.from_toml(flat) == Rules.preset("learning").override("xor_tiles", 2)
    table = tmp_path / "table.toml"
    table.write_text('[rules]\nrotated_equals = true\nprecedence = "left-to-right"\n')
    loaded = Rules.from_toml(table)
    assert loaded.rotated_equals and loaded.precedence == "left-to-right"


def test_from_toml_errors_are_clear(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="cannot read rules file"):
        Rules.from_toml(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("preset = \n")
    with pytest.raises(RulesError, match="not valid TOML"):
        Rules.from_toml(broken)
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("speed = 3\n")
    with pytest.raises(RulesError, match="unknown rule 'speed'"):
        Rules.from_toml(unknown)


def test_differences_lists_only_changed_rules() -> None:
    assert Rules().differences() == {}
    assert Rules.preset("learning").differences() == {"identity_chains": True}


def test_parse_assignment() -> None:
    assert parse_assignment("xor_tiles = 3") == ("xor_tiles", "3")
    with pytest.raises(RulesError, match="NAME=VALUE"):
        parse_assignment("identity_chains")


def test_default_tile_set_has_one_hundred_tiles() -> None:
    counts = tile_counts(Rules())
    assert sum(counts.values()) == 100
    assert counts == {
        "0": 28, "1": 28, "=": 14, "+": 5, "-": 5, "x": 3, "/": 2,
        "&": 4, "|": 4, "~": 4, BLANK: 3,
    }  # fmt: skip
    assert "^" not in counts
    assert len(tile_bag(Rules())) == 100


def test_xor_tiles_join_the_bag_and_the_blank_faces() -> None:
    rules = Rules(xor_tiles=4)
    assert tile_counts(rules)["^"] == 4
    assert tile_bag(rules).count("^") == 4
    assert "^" in faces_in_game(rules)
    assert "^" not in faces_in_game(Rules())


def test_points_cover_every_face() -> None:
    assert set(FACES) | {BLANK} == set(TILE_POINTS)
    assert (TILE_POINTS["x"], TILE_POINTS["/"], TILE_POINTS[BLANK]) == (2, 4, 0)
