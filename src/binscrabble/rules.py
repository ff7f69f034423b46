"""House rules, presets and the tile set (docs/rules.md §1 and §10).

A :class:`Rules` value is plain frozen data: every game stores one, and everything that
asks "is this allowed?" reads it.

>>> Rules().precedence
'standard'
>>> Rules.preset("expert").identity_times_one
False
>>> Rules.preset("learning").override("precedence", "left-to-right").precedence
'left-to-right'
>>> tile_counts(Rules())["?"]
3
>>> sum(tile_counts(Rules()).values())
100
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from binscrabble.i18n import N_, _
from binscrabble.limits import InputLimitError, check_structure, quoted, read_limited

Precedence = Literal["standard", "left-to-right"]
PRECEDENCES: Final = ("standard", "left-to-right")
PRESETS: Final = ("learning", "standard", "expert")

#: The blank tile's code on racks and in the bag.
BLANK: Final = "?"
#: Every face a tile can show on the board, as its one-character text code.
FACES: Final = ("0", "1", "=", "+", "-", "x", "/", "&", "|", "~", "^")
#: Digits, binary operators (in code form) and the unary NOT.
DIGITS: Final = frozenset("01")
BINARY_OPERATORS: Final = frozenset("+-x/&|^")
NOT: Final = "~"
EQUALS: Final = "="

#: Points of each tile code (docs/rules.md §1).
TILE_POINTS: Final[Mapping[str, int]] = {
    "0": 1,
    "1": 1,
    "=": 1,
    "+": 1,
    "-": 1,
    "x": 2,
    "/": 4,
    "&": 1,
    "|": 1,
    "~": 1,
    "^": 1,
    BLANK: 0,
}

#: Tile counts of the default 100-tile set; XOR tiles come from the rule `xor_tiles`.
BASE_TILE_COUNTS: Final[Mapping[str, int]] = {
    "0": 28,
    "1": 28,
    "=": 14,
    "+": 5,
    "-": 5,
    "x": 3,
    "/": 2,
    "&": 4,
    "|": 4,
    "~": 4,
    BLANK: 3,
}

#: How each face is shown to people (the face printed on the physical tile).
FACE_LABELS: Final[Mapping[str, str]] = {
    "0": "0",
    "1": "1",
    "=": "=",
    "+": "+",
    "-": "−",
    "x": "×",
    "/": "÷",
    "&": "AND",
    "|": "OR",
    "~": "NOT",
    "^": "XOR",
    BLANK: "blank",
}

#: Input aliases of docs/rules.md §1, symbol by symbol (words are handled case-insensitively).
SYMBOL_ALIASES: Final[Mapping[str, str]] = {
    "−": "-",
    "*": "x",
    "×": "x",
    "X": "x",
    "÷": "/",
    ":": "/",
    "∧": "&",
    "∨": "|",
    "¬": "~",
    "!": "~",
    "⊕": "^",
}
WORD_ALIASES: Final[Mapping[str, str]] = {"AND": "&", "OR": "|", "NOT": "~", "XOR": "^"}


class RulesError(ValueError):
    """An unknown rule, or a value a rule does not take. The message names both."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


@dataclass(frozen=True, slots=True)
class Rules:
    """Every switch of docs/rules.md §10. The defaults are the `standard` preset."""

    precedence: Precedence = "standard"
    identity_times_one: bool = True
    identity_plus_minus_zero: bool = True
    identity_and_one_or_zero: bool = True
    identity_chains: bool = False
    allow_negatives: bool = False
    leading_zeros: bool = False
    parallel_numbers: bool = False
    rotated_equals: bool = False
    xor_tiles: int = 0
    rack_size: int = 9
    bingo_bonus: int = 50

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            _check_value(field.name, getattr(self, field.name))

    # -- construction -------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of a named preset: `learning`, `standard` or `expert`."""
        if name == "standard":
            return cls()
        if name == "learning":
            return cls(identity_chains=True)
        if name == "expert":
            return cls(
                identity_times_one=False,
                identity_plus_minus_zero=False,
                identity_and_one_or_zero=False,
            )
        raise RulesError(
            "preset",
            _("unknown preset {name}: choose one of {presets}").format(
                name=quoted(name), presets=", ".join(PRESETS)
            ),
        )

    def preset_name(self) -> str | None:
        """The preset these rules are exactly, or ``None`` when a switch differs from each.

        >>> Rules.preset("learning").preset_name(), Rules(xor_tiles=2).preset_name()
        ('learning', None)
        """
        return _PRESET_OF.get(self)

    def override(self, name: str, value: object) -> Rules:
        """A copy with one rule changed; `value` may be typed or text (`"on"`, `"4"`)."""
        return self.with_overrides({name: value})

    def with_overrides(self, overrides: Mapping[str, object], *, strict: bool = False) -> Rules:
        """A copy with several rules changed, each named and checked.

        Values may be text (``"on"``, ``"4"``, as a command line gives them) unless
        ``strict``: then each must have its switch's own type (``True``, ``4``), and
        ``RulesError`` names the first that has not.
        """
        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            if strict:
                if name not in RULE_NAMES:
                    raise _unknown_rule(name)
                _check_value(name, value)
                changes[name] = value
            else:
                changes[name] = _coerce(name, value)
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], *, strict: bool = False) -> Rules:
        """Rules from a mapping such as ``{"preset": "expert", "xor_tiles": 2}``; with
        ``strict``, values are not read from text (see :meth:`with_overrides`).

        >>> Rules.from_mapping({"xor_tiles": "2"}).xor_tiles
        2
        >>> Rules.from_mapping({"xor_tiles": "2"}, strict=True)
        Traceback (most recent call last):
        ...
        binscrabble.rules.RulesError: rule xor_tiles takes a whole number from 0 to 20, not '2'
        """
        preset = data.get("preset", "standard")
        if not isinstance(preset, str):
            raise RulesError(
                "preset",
                _("preset must be a name, one of {presets}").format(presets=", ".join(PRESETS)),
            )
        rest = {key: value for key, value in data.items() if key != "preset"}
        return cls.preset(preset).with_overrides(rest, strict=strict)

    @classmethod
    def from_toml(cls, path: str | Path) -> Rules:
        """Rules from a TOML file: top-level keys, or a ``[rules]`` table, as in from_mapping."""
        try:
            text = read_limited(path).decode("utf-8")
            check_structure(text, "toml")
            data = tomllib.loads(text)
        except OSError as error:
            raise RulesError(
                "file",
                _("cannot read rules file {path}: {problem}").format(
                    path=path, problem=error.strerror or error
                ),
            ) from None
        except UnicodeDecodeError as error:
            raise RulesError(
                "file",
                _("rules file {path} is not a UTF-8 text file ({reason})").format(
                    path=path, reason=error.reason
                ),
            ) from None
        except InputLimitError as error:
            raise RulesError(
                "file",
                _("rules file {path} cannot be read: {error}").format(path=path, error=error),
            ) from None
        except tomllib.TOMLDecodeError as error:
            raise RulesError(
                "file",
                _("rules file {path} is not valid TOML: {error}").format(path=path, error=error),
            ) from None
        except (RecursionError, ValueError):
            # Nesting or a number hidden from check_structure by a malformed string.
            raise RulesError(
                "file",
                _("rules file {path} nests too deeply or holds too long a number").format(
                    path=path
                ),
            ) from None
        table = data.get("rules", data)
        if not isinstance(table, dict):
            raise RulesError(
                "rules", _("rules file {path}: [rules] must be a table").format(path=path)
            )
        return cls.from_mapping(table)

    def to_mapping(self) -> dict[str, object]:
        """Every rule by name, as stored with a game (`from_mapping` reads it back)."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    def differences(self, other: Rules | None = None) -> dict[str, object]:
        """The rules that differ from `other` (default: the standard preset)."""
        base = other if other is not None else Rules()
        return {
            name: value for name, value in self.to_mapping().items() if getattr(base, name) != value
        }

    def describe(self) -> str:
        """The rules in force, one a line in the reader's language: the rule as the lobby
        and the printed card name it, its value, and its switch for ``--rule``.

        >>> print(Rules(xor_tiles=2).describe().splitlines()[9])
        XOR tiles added to the bag — 2 (xor_tiles)
        """
        lines = []
        for name, value in self.to_mapping().items():
            if isinstance(value, bool):
                shown = _("on") if value else _("off")
            elif name == "precedence":
                shown = _(PRECEDENCE_LABELS[str(value)])
            else:
                shown = str(value)
            label = _(RULE_LABELS[name])
            lines.append(
                _("{rule} — {value} ({switch})").format(rule=label, value=shown, switch=name)
            )
        return "\n".join(lines)


RULE_NAMES: Final = tuple(field.name for field in dataclasses.fields(Rules))
#: Each rule named in words, as the lobby (``js/rules-form.js``) and the printed card name it.
RULE_LABELS: Final[Mapping[str, str]] = {
    "precedence": N_("Order of operations"),
    "identity_times_one": N_("Times 1 and divided by 1 allowed"),
    "identity_plus_minus_zero": N_("Plus 0 and minus 0 allowed"),
    "identity_and_one_or_zero": N_("AND 1, OR 0 and XOR 0 allowed"),
    "identity_chains": N_("Several of ×1, +0, AND 1 in one equation"),
    "allow_negatives": N_("Results below zero allowed"),
    "leading_zeros": N_("Numbers may start with 0"),
    "parallel_numbers": N_("Plain numbers beside a run"),
    "rotated_equals": N_("An = turned to read 11"),
    "xor_tiles": N_("XOR tiles added to the bag"),
    "rack_size": N_("Tiles on a rack"),
    "bingo_bonus": N_("Bonus for playing a whole rack"),
}


def rule_words(switch: str) -> str:
    """A house rule as a sentence a person reads names it: by its words (the lobby's and the
    printed card's), in the current language, never by its switch.

    >>> rule_words("identity_chains")
    'the house rule “Several of ×1, +0, AND 1 in one equation”'
    """
    return _("the house rule “{rule}”").format(rule=_(RULE_LABELS[switch]))


#: The choices of ``precedence`` in words, as the lobby names them.
PRECEDENCE_LABELS: Final[Mapping[str, str]] = {
    "standard": N_("standard order"),
    "left-to-right": N_("left to right"),
}
_BOOL_RULES: Final = frozenset(
    field.name for field in dataclasses.fields(Rules) if field.type in ("bool", bool)
)
_INT_LIMITS: Final[Mapping[str, tuple[int, int]]] = {
    "xor_tiles": (0, 20),
    # Above 9, three blanks under the most permissive rules give more placements than 3 GiB
    # can list (docs/limits.md).
    "rack_size": (3, 9),
    "bingo_bonus": (0, 1000),
}
#: The smallest and largest value of each whole-number rule (menus show them).
INT_RULE_LIMITS: Final = _INT_LIMITS
_TRUE_WORDS: Final = frozenset({"on", "true", "yes", "1"})
_FALSE_WORDS: Final = frozenset({"off", "false", "no", "0"})


def _unknown_rule(name: str) -> RulesError:
    return RulesError(
        name,
        _("unknown rule {name}: the rules are {rules}").format(
            name=quoted(name), rules=", ".join(RULE_NAMES)
        ),
    )


def _check_value(name: str, value: object) -> None:
    if name == "precedence":
        if value not in PRECEDENCES:
            raise RulesError(
                name,
                _("rule precedence takes {first} or {second}, not {value}").format(
                    first=PRECEDENCES[0], second=PRECEDENCES[1], value=quoted(value)
                ),
            )
    elif name in _BOOL_RULES:
        if not isinstance(value, bool):
            raise RulesError(
                name,
                _("rule {name} takes on or off, not {value}").format(
                    name=name, value=quoted(value)
                ),
            )
    elif name in _INT_LIMITS:
        low, high = _INT_LIMITS[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RulesError(
                name,
                _("rule {name} takes a whole number from {low} to {high}, not {value}").format(
                    name=name, low=low, high=high, value=quoted(value)
                ),
            )
    else:
        raise _unknown_rule(name)


def _coerce(name: str, value: object) -> object:
    """Turn a typed or text value into the rule's type, or raise a RulesError naming it."""
    if name not in RULE_NAMES:
        raise _unknown_rule(name)
    if isinstance(value, str):
        text = value.strip()
        if name in _BOOL_RULES:
            if text.lower() in _TRUE_WORDS:
                return True
            if text.lower() in _FALSE_WORDS:
                return False
            raise RulesError(
                name,
                _("rule {name} takes on or off, not {value}").format(
                    name=name, value=quoted(value)
                ),
            )
        if name in _INT_LIMITS:
            low, high = _INT_LIMITS[name]
            try:
                number = int(text)
            except ValueError:
                raise RulesError(
                    name,
                    _("rule {name} takes a whole number from {low} to {high}, not {value}").format(
                        name=name, low=low, high=high, value=quoted(value)
                    ),
                ) from None
            _check_value(name, number)
            return number
        _check_value(name, text)
        return text
    _check_value(name, value)
    return value


def parse_assignment(text: str) -> tuple[str, str]:
    """Split ``NAME=VALUE`` (as given to ``--rule``) into its two parts.

    >>> parse_assignment("identity_chains=on")
    ('identity_chains', 'on')
    """
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise RulesError(text, _("expected NAME=VALUE, not {text}").format(text=quoted(text)))
    return name.strip(), value.strip()


def tile_counts(rules: Rules) -> dict[str, int]:
    """How many tiles of each code the bag starts with under these rules."""
    counts = dict(BASE_TILE_COUNTS)
    if rules.xor_tiles:
        counts["^"] = rules.xor_tiles
    return counts


def tile_bag(rules: Rules) -> list[str]:
    """Every tile of the set, as codes, in a fixed order (shuffle before drawing)."""
    return [code for code, count in tile_counts(rules).items() for _copy in range(count)]


def faces_in_game(rules: Rules) -> tuple[str, ...]:
    """The faces a blank may be designated as: every face that exists in this game."""
    return tuple(face for face in FACES if face != "^" or rules.xor_tiles > 0)


#: Each preset's rules, to the preset's name (:meth:`Rules.preset_name`).
_PRESET_OF: Final[dict[Rules, str]] = {Rules.preset(name): name for name in PRESETS}
