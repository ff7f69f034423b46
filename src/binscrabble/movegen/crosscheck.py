"""Cross-checks: which options may go on an empty square between the tiles of a crossing run,
and what the run then is (an equation and its value, or a number).
"""

from __future__ import annotations

from typing import Final

from binscrabble.expr import EquationError, equation_value_or_none, number_value
from binscrabble.rules import Rules

from .caches import clear_tracked, kept_tracked
from .context import CrossInfo
from .options import ALL_OPTIONS, EQUALS_OPTION, OPTION_COUNT, OPTION_TEXTS, blank_option_mask

_CROSS_NONE: Final = 0
CROSS_EQUATION: Final = 1
_CROSS_NUMBER: Final = 2
#: Per rules, (before, after, wanted) -> cross-check: hashing a Rules (a dataclass of many
#: fields) once per call instead of once per square.
_CROSS_CACHES: dict[Rules, dict[tuple[str, str, int], CrossInfo]] = {}


def rules_cross_cache(rules: Rules) -> dict[tuple[str, str, int], CrossInfo]:
    found = _CROSS_CACHES.get(rules)
    if found is None:
        if len(_CROSS_CACHES) >= 64:
            _CROSS_CACHES.clear()
        found = _CROSS_CACHES[rules] = kept_tracked({})
    return found


#: Per mask of options: its options in order (the options a cross-check tries).
_MASK_OPTIONS: dict[int, tuple[int, ...]] = kept_tracked({})


def cross_info(
    before: str,
    after: str,
    rules: Rules,
    wanted: int = ALL_OPTIONS,
    cache: dict[tuple[str, str, int], CrossInfo] | None = None,
    every: int = -1,
) -> CrossInfo:
    """Which of the `wanted` options (a mask) may go between `before` and `after` (a
    crossing run), and as what: kind (equation or number) and value per option. `cache` is
    ``rules_cross_cache(rules)`` when the caller has it (a Rules hash is dear), and `every`
    ``blank_option_mask(rules)``."""
    if cache is None:
        cache = rules_cross_cache(rules)
    key = (before, after, wanted)
    found = cache.get(key)
    if found is not None:
        return found
    # A rack with a blank wants every option a blank may show: its cross-check, when made
    # already (often: an earlier rack's), holds this rack's too, as every option is tried
    # alone (kinds and values of options outside `wanted` are never read).
    if every < 0:
        every = blank_option_mask(rules)
    if wanted != every:
        whole = cache.get((before, after, every))
        if whole is not None:
            found = cache[key] = (whole[0] & wanted, whole[1], whole[2])
            return found
    info = _tried_cross_info(before, after, rules, wanted)
    if len(cache) >= 1 << 16:
        clear_tracked(cache)
    cache[key] = info
    return info


def _tried_options(wanted: int, has_equals: bool, parallel: bool) -> tuple[int, ...]:
    """The options of `wanted` a cross-check tries: without an `=` in the run, only an `=`
    on the square could make it an equation (and, under parallel_numbers, any option a
    number)."""
    if not (has_equals or parallel):
        return (EQUALS_OPTION,) if wanted >> EQUALS_OPTION & 1 else ()
    tried = _MASK_OPTIONS.get(wanted)
    if tried is None:
        tried = _MASK_OPTIONS[wanted] = tuple(
            option for option in range(OPTION_COUNT) if wanted >> option & 1
        )
    return tried


def _tried_cross_info(before: str, after: str, rules: Rules, wanted: int) -> CrossInfo:
    """:func:`cross_info` worked out: each option tried on the square."""
    mask = 0
    kinds = [_CROSS_NONE] * OPTION_COUNT
    values = [0] * OPTION_COUNT
    has_equals = "=" in before or "=" in after
    parallel = rules.parallel_numbers
    for option in _tried_options(wanted, has_equals, parallel):
        text = before + OPTION_TEXTS[option] + after
        if has_equals or option == EQUALS_OPTION:
            # Most options fail here: asking for None spares raising and catching.
            value = equation_value_or_none(text, rules)
            if value is not None:
                values[option] = value
                kinds[option] = CROSS_EQUATION
                mask |= 1 << option
                continue
        if parallel and all(symbol in "01" for symbol in text):
            try:
                number_value(text, rules)
            except EquationError:
                continue
            kinds[option] = _CROSS_NUMBER
            mask |= 1 << option
    return mask, tuple(kinds), tuple(values)
