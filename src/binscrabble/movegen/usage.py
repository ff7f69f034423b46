"""What the rack can show: the context of a call, how many blanks a usage needs
(:func:`deficit_of`), and the automaton's steps the rack still allows after a usage.
"""

from __future__ import annotations

from binscrabble.rules import BLANK, FACES, Rules

from .arithmetic import (
    FLAT_STRENGTH,
    NEGATIVE_FLOOR,
    OPERATIONS,
    STANDARD_STRENGTH,
    arithmetic_tables,
    identity_kinds,
)
from .caches import clear_tracked, kept_tracked
from .context import Context, LastStep, Rack, Step, UsableStep
from .grammar import BINARY, CHARACTER_EFFECTS, DEAD, DIGITS, NEGATING, TRANSITIONS
from .options import (
    ALL_OPTIONS,
    BLANK_FIELD,
    EQUALS_OPTION,
    FIELD_BITS,
    FIELD_MASK,
    FIELD_ONES,
    FIELDS_AT,
    GUARD,
    GUARD_BIT,
    GUARDS,
    MIX_ROOM,
    OPTION_COUNT,
    OPTION_FIELD,
    OPTION_SHIFT,
    OPTION_USAGE,
    ROTATED,
    SIDE_CHARACTERS,
    TOP_FIELD_SHIFT,
    blank_designations,
)


def make_context(rack: str, rules: Rules) -> Context:
    """The context of one call, with its :attr:`Context.equals_sides`.

    Sides beside the new `=` are enumerated for the rack without that `=`: without a
    natural `=` it takes a blank, and the sides then have one blank fewer to show any option
    with (on a 9-tile rack with one blank and no `=` that is the difference between strings
    of the rack's own faces and strings of all eleven faces). The join still checks every
    equation against the whole rack, the new `=` included, so the equations are the same;
    only fillings no equation could use are never made. Which tile the new `=` spends does
    not matter: the blanks an option usage needs beyond the natural tiles are the same
    either way (one more `=` counted against the whole rack, or one `=` fewer on the rack).
    """
    context = make_rack_context(rack, rules)
    # A natural `=` shows in a side only rotated: without `rotated_equals` the sides of the
    # rack with one `=` fewer are this rack's own, so they share this context's caches.
    if context.equals_usable and ("=" not in rack or rules.rotated_equals):
        spent = "=" if "=" in rack else BLANK
        context.equals_sides = make_rack_context(rack.replace(spent, "", 1), rules)
    return context


#: How shapes split at their fixed `=` (:func:`_split_sides`) and where sides' free squares
#: are (:func:`_free_positions`): they depend on the shape alone, and the same shapes recur
#: from call to call (most sides are free squares and a few fixed digits), so these are
#: kept for every call, each context's :attr:`Context.splits` and :attr:`Context.layouts`.
_SPLITS: dict[tuple[str | int, ...], list[tuple[str | int, ...]] | None] = {}
_LAYOUTS: dict[tuple[str | int, ...], tuple[int, ...]] = kept_tracked({})


def make_rack_context(rack: str, rules: Rules) -> Context:
    """The context of `rack` alone (see :func:`make_context`)."""
    counts = _rack_counts(rack)
    rack_guarded = MIX_ROOM + sum(
        (GUARD + count) << (FIELDS_AT + FIELD_BITS * field) for field, count in enumerate(counts)
    )
    blanks = counts[BLANK_FIELD]
    if len(_SPLITS) >= 1 << 15:
        _SPLITS.clear()
    if len(_LAYOUTS) >= 1 << 15:
        clear_tracked(_LAYOUTS)
    natural, designable = _shown_options(counts, rules)
    shown = [option for option in range(OPTION_COUNT) if natural[option] or designable[option]]
    side_options = tuple([option for option in shown if option != EQUALS_OPTION])
    generation = arithmetic_tables(rules)
    standard = rules.precedence == "standard"
    negatives = rules.allow_negatives
    return Context(
        rules=rules,
        rack_counts=tuple(counts),
        rack_guarded=rack_guarded,
        blanks=blanks,
        transitions=TRANSITIONS[rules.leading_zeros],
        standard=standard,
        operations=OPERATIONS[negatives],
        floor=NEGATIVE_FLOOR if negatives else 0,
        strength=STANDARD_STRENGTH if standard else FLAT_STRENGTH,
        options_by_mask={ALL_OPTIONS: side_options},
        natural=natural,
        designable=designable,
        equals_usable=natural[EQUALS_OPTION] or designable[EQUALS_OPTION],
        wanted=sum([1 << option for option in shown]),
        side_cache={},
        splits=_SPLITS,
        layouts=_LAYOUTS,
        frontiers={},
        steps={},
        steps_by_state={},
        last_steps={},
        usable_steps={},
        usable_last_steps={},
        kinds_by_marks=identity_kinds(rules),
        deficits={},
        digit_capacity=blanks + _digit_tiles(counts, rules.rotated_equals),
        operator_capacity=blanks + sum([counts[FACES.index(symbol)] for symbol in BINARY]),
        not_capacity=blanks + counts[FACES.index("~")],
        rack=_rack_of(counts, natural, designable, rack_guarded),
        pending_tuples=generation.pending_tuples,
        pending_numbers=generation.pending_numbers,
        last_operations=generation.last_operations,
        pushes=generation.pushes,
        readings=generation.readings,
        fixed_sides=generation.fixed_sides,
        generation=generation,
    )


def _digit_tiles(counts: list[int], rotated_equals: bool) -> int:
    """The rack's tiles that can show a digit (a rotated `=` reads `11`), blanks aside."""
    digits: int = counts[FACES.index("0")] + counts[FACES.index("1")]
    return digits + counts[EQUALS_OPTION] if rotated_equals else digits


def _rack_counts(rack: str) -> list[int]:
    """How many tiles of each rack field (the faces, then the blank) `rack` holds."""
    counts = [0] * (BLANK_FIELD + 1)
    for code in rack:
        if code == BLANK:
            counts[BLANK_FIELD] += 1
        elif code in FACES:
            counts[FACES.index(code)] += 1
        else:
            raise ValueError(f"{code!r} is not a rack tile code ({' '.join(FACES)} {BLANK})")
    if max(counts) >= GUARD:
        raise ValueError(f"a rack may hold at most {GUARD - 1} tiles of one kind")
    return counts


def _shown_options(counts: list[int], rules: Rules) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """Per option: whether a natural tile of the rack can show it, and whether a blank can."""
    designations = blank_designations(rules)
    blanks = counts[BLANK_FIELD]
    natural: list[bool] = []
    designable: list[bool] = []
    for option in range(OPTION_COUNT):
        allowed = option != ROTATED or rules.rotated_equals
        natural.append(allowed and counts[OPTION_FIELD[option]] > 0)
        designable.append(allowed and blanks > 0 and option in designations)
    return tuple(natural), tuple(designable)


def _rack_of(
    counts: list[int], natural: tuple[bool, ...], designable: tuple[bool, ...], guarded: int
) -> Rack:
    """The rack part of a context (see :class:`Rack`)."""
    return Rack(
        rack_counts=tuple(counts),
        blanks=counts[BLANK_FIELD],
        natural=natural,
        designable=designable,
        realizations={},
        variant_counts={},
        guarded=guarded,
        designable_fields=sum(
            FIELD_MASK << (FIELDS_AT + FIELD_BITS * face)
            for face in range(len(FACES))
            if designable[face]
        ),
    )


def _side_options(context: Context, mask: int) -> tuple[int, ...]:
    found = context.options_by_mask.get(mask)
    if found is None:
        everything = context.options_by_mask[ALL_OPTIONS]
        found = tuple(option for option in everything if mask >> option & 1)
        context.options_by_mask[mask] = found
    return found


def deficit_of(context: Context, usage: int) -> int:
    """How many blanks the options counted in `usage` need beyond the natural tiles."""
    found = context.deficits.get(usage)
    if found is None:
        # Each field of the guarded difference is 16 + natural tiles - used (usage fields
        # stay below 16, so nothing borrows): a field short of tiles has lost its guard
        # bit, and lacks 16 minus the field's value, one more than the field's low bits
        # complemented. Those of the short fields are summed by one multiplication, which
        # adds every field into the top one (a usage takes at most a segment's squares:
        # no field of the sum carries).
        difference = context.rack_guarded - usage
        short = ~difference & GUARDS
        if short:
            lacking = ~difference & (short >> GUARD_BIT) * (GUARD - 1)
            found = (lacking * FIELD_ONES >> TOP_FIELD_SHIFT & FIELD_MASK) + short.bit_count()
        else:
            found = 0
        context.deficits[usage] = found
    return found


def square_steps(context: Context, state: int, mask: int) -> list[Step]:
    """The options a free square of `mask` may show after `state`, with what each needs.

    Each is (its rack field's shift, how many natural tiles of it the rack holds (0 when
    none may show it), whether a blank may show it, and the step: (character in the side's
    text, next state, one of that field, and what it does to the value:
    :data:`CHARACTER_EFFECTS`)). Cached per (state, mask): the
    search asks this once per partial.
    """
    key = (state, mask)
    found = context.steps.get(key)
    if found is None:
        row = context.transitions[state]
        found = []
        for option in _side_options(context, mask):
            next_state = row[option]
            if next_state == DEAD:
                continue
            shift = OPTION_SHIFT[option]
            natural = context.rack_counts[OPTION_FIELD[option]] if context.natural[option] else 0
            character = SIDE_CHARACTERS[option]
            effect, multiplier, addend = CHARACTER_EFFECTS[character]
            if effect == DIGITS and state in NEGATING:
                addend = multiplier - 1 - addend
            found.append(
                (
                    shift,
                    natural,
                    context.designable[option],
                    (character, next_state, OPTION_USAGE[option], effect, multiplier, addend),
                )
            )
        context.steps[key] = found
    return found


def _blank_left(context: Context, usage: int) -> bool:
    """Whether a blank of the rack is left once `usage` is spent (its natural tiles first).

    Without blanks on the rack, what a usage needs is not looked up; with them it is mostly
    known already, for another state or mask: no call then.
    """
    blanks = context.blanks
    return bool(blanks) and (context.deficits.get(usage) or deficit_of(context, usage)) < blanks


def usable_steps_of(context: Context, steps: list[Step], usage: int) -> list[UsableStep]:
    """The steps (see :func:`square_steps`) the rack still allows once `usage` is spent: by a
    natural tile while one of its kind is left, else by a blank when one is left.

    Each carries the usage after it, added here once per usage rather
    than by every partial that takes the step (usages take up to 80 bits, and CPython makes
    a new object for any arithmetic on such ints).
    """
    found = []
    # Every usage after a step is one object per context, so that the dicts keyed by usage
    # (the steps of the partials that reach it, side tables) find it by identity.
    usages = context.usages
    # A blank left may show any option a blank may show; the others, and every option when
    # no blank is left, need a natural tile of their kind.
    blank_left = _blank_left(context, usage)
    for shift, natural, blank_may, step in steps:
        if usage >> shift & FIELD_MASK < natural or (blank_left and blank_may):
            character, next_state, one, effect, multiplier, addend = step
            after = usage + one
            found.append(
                (
                    character,
                    next_state,
                    usages.setdefault(after, after),
                    effect,
                    multiplier,
                    addend,
                )
            )
    return found


def usable_last_steps_of(context: Context, steps: list[Step], usage: int) -> list[LastStep]:
    """The steps of :func:`usable_steps_of` onto a side's last square, all digits: what the
    last operand needs of each (after NOT, complemented: see :data:`_Partial`)."""
    found = []
    blank_left = _blank_left(context, usage)
    for shift, natural, blank_may, step in steps:
        if usage >> shift & FIELD_MASK < natural or (blank_left and blank_may):
            character, _, one, _, multiplier, addend = step
            after = usage + one
            found.append((character, after, multiplier, addend))
    return found
