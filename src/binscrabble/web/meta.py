"""What the lobby and the page need to know about the game, from the core's own tables:
levels, presets, house-rule switches with a sentence each, tiles and premium squares."""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from binscrabble.board import PREMIUM_NAMES, PREMIUMS, square_name
from binscrabble.engine.levels import LEVELS
from binscrabble.i18n import N_, _
from binscrabble.rules import (
    BASE_TILE_COUNTS,
    FACE_LABELS,
    INT_RULE_LIMITS,
    PRECEDENCES,
    PRESETS,
    RULE_LABELS,
    TILE_POINTS,
    Rules,
)

#: The identity switches of docs/rules.md §10 named in words, as the lobby names them
#: (``RULE_LABELS``, the messages of ``RULE_NAMES`` in ``js/rules-form.js``): a hint's
#: explanation names the house rule that allows an identity fragment by these words, not by
#: its switch.
SWITCH_NAMES: Final = {
    switch: RULE_LABELS[switch]
    for switch in (
        "identity_times_one",
        "identity_plus_minus_zero",
        "identity_and_one_or_zero",
        "identity_chains",
    )
}

#: One sentence per switch of docs/rules.md §10, as the lobby shows it.
SWITCH_EXPLANATIONS: Final = {
    "precedence": N_(
        "Standard order: NOT, then × ÷, then + −, then AND, XOR, OR. Left to right: every "
        "operator in written order, like a pocket calculator."
    ),
    "identity_times_one": N_("Allows multiplying by 1 or dividing by 1 (1+1=10×1)."),
    "identity_plus_minus_zero": N_("Allows adding 0 or subtracting 0 (1+1=10+0)."),
    "identity_and_one_or_zero": N_("Allows AND 1, OR 0 and XOR 0 (1 AND 1=1)."),
    "identity_chains": N_(
        "Allows more than one of those identity pieces in one equation (1+1=10+0+0×1), "
        "handy while learning."
    ),
    "allow_negatives": N_("Allows subtraction to go below zero."),
    "leading_zeros": N_("Allows numbers to start with 0 (01+1=10)."),
    "parallel_numbers": N_(
        "Lets a play lie alongside a run when the side runs it makes are plain numbers; "
        "those score nothing."
    ),
    "rotated_equals": N_("Lets an = tile be turned to read 11 in both directions."),
    "xor_tiles": N_("How many XOR tiles join the bag."),
    "rack_size": N_("How many tiles each rack holds."),
    "bingo_bonus": N_("The bonus for playing a whole rack in one turn."),
}


def switches() -> list[dict[str, Any]]:
    """Every house-rule switch: its name, default, type, range or choices, and a sentence."""
    result: list[dict[str, Any]] = []
    for field in dataclasses.fields(Rules):
        default = getattr(Rules(), field.name)
        entry: dict[str, Any] = {"name": field.name, "default": default}
        if field.name == "precedence":
            entry.update(type="choice", choices=list(PRECEDENCES))
        elif isinstance(default, bool):
            entry["type"] = "bool"
        else:
            low, high = INT_RULE_LIMITS[field.name]
            entry.update(type="int", min=low, max=high)
        entry["explanation"] = _(SWITCH_EXPLANATIONS[field.name])
        result.append(entry)
    return result


def game_meta() -> dict[str, Any]:
    """The answer of ``GET /api/meta``, its sentences in the current language."""
    counts = dict(BASE_TILE_COUNTS)
    counts.setdefault("^", 0)
    return {
        "levels": [{"name": name, "description": _(text)} for name, text in LEVELS.items()],
        "presets": {name: Rules.preset(name).to_mapping() for name in PRESETS},
        "switches": switches(),
        "tiles": {
            code: {"points": TILE_POINTS[code], "label": FACE_LABELS[code], "count": count}
            for code, count in counts.items()
        },
        "premiums": {
            square_name(sq): PREMIUM_NAMES[kind]
            for sq, kind in enumerate(PREMIUMS)
            if kind is not None
        },
    }
