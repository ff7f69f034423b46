"""The state of one call: the rack (:class:`Rack`), everything fixed for the call and its
caches (:class:`Context`), the tables of pending operations shared across calls
(:class:`Generation`), and the shapes of the values the modules pass to each other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from binscrabble.rules import Rules

from .caches import kept_tracked

#: An Operation gives the result, or None when the step fails (a negative difference
#: without allow_negatives, an inexact division, division by zero).
Operation = Callable[[int, int], "int | None"]


# (before, after, rules, wanted) -> (mask of allowed options, per option: kind, value)
CrossInfo = tuple[int, tuple[int, ...], tuple[int, ...]]


@dataclass(slots=True)
class Rack:
    """What the rack holds, and which of its tiles (natural or blank) can show each option.

    Kept apart from :class:`Context` because a lazy :class:`MoveList` keeps it to expand
    blank variants later, and must not keep the context's large caches alive.
    """

    rack_counts: tuple[int, ...]
    blanks: int
    natural: tuple[bool, ...]
    designable: tuple[bool, ...]
    realizations: dict[tuple[int, ...], list[tuple[int, ...]]]
    variant_counts: dict[int, int]
    #: The rack's tile counts with guard bits (:attr:`Context.rack_guarded`), and the
    #: usage fields of the faces a blank may show, all bits set (see :func:`one_blank_fields`).
    guarded: int
    designable_fields: int
    #: For a rack of one blank, per option usage: the field its natural tiles fall one
    #: short of, or -1, and its number of ways to be shown (:func:`one_blank_fields`).
    short_fields: dict[int, tuple[int, int]] = field(default_factory=dict)


@dataclass(slots=True)
class Context:
    """Everything fixed for one call: the rack, the rules, caches of side fillings.

    Sides are enumerated over *options* (what a square shows), not over rack tiles: a blank
    that shows ``1`` reads exactly like a natural ``1``, so which tiles are blanks is decided
    only for equations that are found (:func:`realizations_of`), not once per partial side.
    """

    rules: Rules
    rack_counts: tuple[int, ...]
    rack_guarded: int
    blanks: int
    transitions: tuple[tuple[int, ...], ...]
    standard: bool
    operations: Mapping[str, Operation]
    #: The least value a side may take (see :func:`last_operations_of`): 0 without
    #: `allow_negatives`, else :data:`NEGATIVE_FLOOR` (below every side's value).
    floor: int
    strength: Mapping[str, int]
    options_by_mask: dict[int, tuple[int, ...]]
    natural: tuple[bool, ...]
    designable: tuple[bool, ...]
    equals_usable: bool
    wanted: int
    side_cache: dict[tuple[str | int, ...], dict[int, SideBucket]]
    splits: dict[tuple[str | int, ...], list[tuple[str | int, ...]] | None]
    layouts: dict[tuple[str | int, ...], tuple[int, ...]]
    frontiers: dict[tuple[str | int, ...], Frontier]
    steps: dict[tuple[int, int], list[Step]]
    #: Per mask, :func:`square_steps` for every state; and only the steps into an accepting
    #: state (a side's last square).
    steps_by_state: dict[int, list[list[Step]]]
    last_steps: dict[int, list[list[Step]]]
    #: Per mask and state, by usage: the steps the rack still allows (:func:`usable_steps_of`);
    #: for every square, and for a side's last. A usage decides the blanks it needs (each
    #: option beyond the rack's natural tiles of its kind), so it is the whole key.
    usable_steps: dict[int, list[dict[int, list[UsableStep]]]]
    usable_last_steps: dict[int, list[dict[int, list[LastStep]]]]
    kinds_by_marks: tuple[int, ...]
    deficits: dict[int, int]
    rack: Rack
    #: How many free squares the rack can fill with digits (a rotated `=` is one), with
    #: binary operators, with NOT signs: blanks counted in each (see :func:`may_fill`).
    digit_capacity: int
    operator_capacity: int
    not_capacity: int
    #: For the sides of a play that adds the new `=`: the same rules with one `=` fewer on
    #: the rack (a natural one when the rack holds one, else a blank), since that `=` takes
    #: a tile every such equation needs (:func:`make_context`). None when those sides are
    #: this context's own (or no `=` can be added).
    equals_sides: Context | None = None
    #: Per usage bucket of a side table (by ``id``: every bucket lives in a side cache as long
    #: as the context), its usages by the blanks each needs alone (:func:`deficit_levels`).
    deficit_levels: dict[int, list[list[int]]] = field(default_factory=dict)
    #: Per usage bucket of a side table (by ``id``, as above), as the first side of a
    #: two-sided join: its usage groups the rack can show (:func:`_first_groups`); for
    #: joins without the new `=`, and with it.
    first_groups: dict[int, list[tuple[int, int, int, int, KindParts]]] = field(
        default_factory=dict
    )
    equals_first_groups: dict[int, list[tuple[int, int, int, int, KindParts]]] = field(
        default_factory=dict
    )
    #: The pending operations tuples met, each once, by number (a partial holds the number,
    #: see :data:`_Partial`; 0 is nothing pending), and the number of each tuple.
    pending_tuples: list[Pending] = field(default_factory=lambda: [_NO_PENDING])
    pending_numbers: dict[Pending, int] = field(default_factory=lambda: {_NO_PENDING: 0})
    #: Per pending operations number, once met at a side's end: what they do to the last
    #: operand (:func:`last_operations_of`). Partials that stand alike hold equal pending
    #: operations, seldom as neighbours: most uses find theirs kept.
    last_operations: list[LastOperations | None] = field(default_factory=lambda: [None])
    #: Per (pending operations number, operand, its literal value, operator): the number of
    #: the pending operations once the operator follows (:func:`pushed_number`), -1 when a step
    #: fails.
    pushes: dict[tuple[int, int, int, str], int] = field(default_factory=dict)
    #: Per (state, pending operations number, operand, fixed text): where a partial stands
    #: after the text (:func:`read_text`).
    readings: dict[tuple[int, int, int, str], Reading] = field(default_factory=dict)
    #: Per text of tiles: the side table of a side of those tiles alone (no free square),
    #: the same for every rack: shared like the tables above (:func:`enumerate_side`).
    fixed_sides: dict[str, dict[int, SideBucket]] = field(default_factory=dict)
    #: The generation these tables belong to, and through it the one before (see
    #: :func:`arithmetic_tables`): what a table lacks is looked up there before it is
    #: worked out.
    generation: Generation = field(default_factory=lambda: Generation(None))
    #: Every usage a step leads to, once (see :func:`usable_steps_of`).
    usages: dict[int, int] = field(default_factory=dict)
    #: The sums of usages a two-sided join met, by whether the rack can show them (whether
    #: their :func:`deficit_of` is at most the rack's blanks): a membership test per pair of
    #: usage groups, not a call of ``deficits.get`` and a comparison. Those it can show are
    #: kept with the number of ways it can (:func:`variant_count`), for the join's count.
    fitting: dict[int, int] = field(default_factory=dict)
    unfitting: set[int] = field(default_factory=set)


#: A side's fillings of one value and usage, split by identity fragments (docs/rules.md §7):
#: those with none, and those with one allowed (or more, under ``identity_chains``), in one
#: list: how many have none, then their texts, then the others' texts (``[plain, *texts]``).
#: Fillings whose fragments the rules forbid are left out. One list a group, not a tuple of
#: a list per kind: a heavy call makes 10,000-30,000 groups, and every object more is one
#: more to free at the call's end (see docs/movegen.md).
KindParts = list[Any]
# A side's fillings of one value, grouped by option usage: fillings that use the same
# tiles fit the rack together with exactly the same partners, so pairs are checked once.
SideBucket = dict[int, KindParts]


class Generation:
    """One generation of the pending operations tables of one arithmetic: the tables a
    context uses (:attr:`Context.pending_tuples`, ``pending_numbers``,
    ``last_operations``, ``pushes``, ``readings``, ``fixed_sides``), and the generation
    before it (`older`, or None), which is only read: what these tables lack is looked
    up there (:func:`_older_number`, :func:`_adopted`) before it is worked out.

    The two generations number their pending operations apart (each a list indexed by
    number), so `older_numbers` holds, per number of this generation looked up, the
    older generation's number of the same tuple (-1 when it has none)."""

    __slots__ = (
        "fixed_sides",
        "last_operations",
        "older",
        "older_numbers",
        "pending_numbers",
        "pending_tuples",
        "pushes",
        "readings",
    )

    def __init__(self, older: Generation | None) -> None:
        self.pending_tuples: list[Pending] = [_NO_PENDING]
        self.pending_numbers: dict[Pending, int] = kept_tracked({_NO_PENDING: 0})
        self.last_operations: list[LastOperations | None] = [None]
        self.pushes: dict[tuple[int, int, int, str], int] = kept_tracked({})
        self.readings: dict[tuple[int, int, int, str], Reading] = kept_tracked({})
        self.fixed_sides: dict[str, dict[int, SideBucket]] = {}
        self.older = older
        self.older_numbers: dict[int, int] = {0: 0}

    def entries(self) -> int:
        """Pushes and readings held, the older generation's too."""
        own = len(self.pushes) + len(self.readings)
        older = self.older
        return own if older is None else own + len(older.pushes) + len(older.readings)


#: A partial side: (automaton state, text, option usage, pending operations (by their number
#: in :attr:`Context.pending_tuples`: a number hashes and compares at once, where a tuple of
#: tuples is hashed anew at every lookup), the operand being read). After NOT the operand
#: is kept complemented, as NOT will read it (:data:`CHARACTER_EFFECTS`), so that no digit
#: count is needed: ``~c`` over `d` digits, then a digit ``a``, read
#: ``~(2c + a) = 2 * ~c + (1 - a)`` over `d + 1`. (The blanks its usage needs are
#: :func:`deficit_of`'s: a blank is spent only once the natural tiles of its kind are.) The
#: pending operations are the identity marks of what is written (see :func:`pushed_number`), then
#: (left operand, operator, the left operand's value if it is a bare literal that makes an
#: identity fragment of the operation, else -1) for each operator still waiting for its
#: right operand, weakest first (a shunting-yard stack: an operator first applies every
#: pending one at least as strong, so there is at most one per precedence level). The
#: side's value is thus worked out as it is written, each step once for every side sharing
#: it, and a step that fails (a negative difference, an inexact division) drops every side
#: that starts with it. A tuple holds only what decides the side's value and its identity
#: kind from there on (see :func:`pushed_number`), so that partials which differ in nothing else
#: share one number, and with it the pushes, readings and last operations worked out for it.
Pending = tuple[Any, ...]
_Partial = tuple[int, str, int, int, int]
#: A frontier (:func:`_frontier`): its partials' fields one after the other in one flat list,
#: _PARTIAL_FIELDS a partial, not a tuple per partial. A heavy call keeps 60,000-80,000
#: partials, and freeing a tuple for each at the call's end, long after it was made, misses
#: the caches (see docs/movegen.md). The partials are read back by ``zip`` of one iterator
#: over the list, once per field (``fields = iter(frontier)``, ``zip(fields, fields, fields,
#: fields, fields)``): it makes one tuple and, as each is unpacked at once, reuses it.
Frontier = list[Any]
_NO_PENDING: Final[Pending] = (0,)
#: (field shift, natural tiles, blank may show it, the step): the step as :func:`usable_steps_of`
#: lists it (:data:`UsableStep`), made once.
Step = tuple[int, int, bool, "UsableStep"]
#: One way to fill a segment: (options of its free squares, the run's text, its value,
#: option usage).
Filling = tuple[tuple[int, ...], str, int, int]


#: What a pending operations tuple does to a side's last operand (:func:`last_operations_of`).
LastOperations = tuple[int, int, int, int, int, tuple[Any, ...]]


#: Where a partial stands after fixed text (see :func:`read_text`): (automaton state, pending
#: operations number, the operand being read), or () when the text cannot follow.
Reading = tuple[int, int, int] | tuple[()]


#: A step the rack allows after a given usage (see :func:`usable_steps_of`): (character,
#: next state, the usage after it, what it does, multiplier, addend). In :data:`Step`, one
#: of its rack field stands for the usage after it.
UsableStep = tuple[str, Any, Any, int, int, int]
#: A step to a side's last square the rack allows (see :func:`usable_last_steps_of`):
#: (character, the usage after it, multiplier, addend).
LastStep = tuple[str, Any, int, int]


class JoinGroup:
    """Equations of one segment that share a value and a rack usage: every combination of
    one filling per side (:data:`KindParts`, in side order) whose identity fragments the
    rules allow together. A compiled class rather than a tuple: one object as a tuple
    would be, its fields read without an index, and built by a direct call (a
    ``NamedTuple`` is built through a Python-level ``__new__``). 10,000-15,000 are made
    in a heavy call, so a group of three sides or more keeps the sides past the second in
    `more` (``()``, shared, for the two-sided groups that are nearly all)."""

    __slots__ = (
        "count",
        "equals_slot",
        "first",
        "free_positions",
        "more",
        "second",
        "usage",
        "value",
    )

    def __init__(
        self,
        value: int,
        equals_slot: int,
        free_positions: tuple[tuple[int, ...], ...],
        usage: int,
        count: int,
        first: KindParts,
        second: KindParts,
        more: tuple[KindParts, ...],
    ) -> None:
        #: The equations' value.
        self.value = value
        #: The free square (its index among the segment's) of the new `=`, or -1.
        self.equals_slot = equals_slot
        #: Per side, where its free squares are in its text.
        self.free_positions = free_positions
        #: The option usage of the equations (the new `=` included).
        self.usage = usage
        #: How many moves: the equations times the ways the rack can show their usage
        #: (:func:`variant_count`, the blank variants).
        self.count = count
        #: The first side's fillings, the second's, and those of any more sides.
        self.first = first
        self.second = second
        self.more = more

    @property
    def parts(self) -> tuple[KindParts, ...]:
        """Every side's fillings, in side order."""
        return (self.first, self.second, *self.more)

    def __len__(self) -> int:
        """Its five fields before the sides, and one per side (:data:`TWO_SIDED` for the
        groups of two sides)."""
        return GROUP_SIDES + 2 + len(self.more)


#: A group's :func:`len` is its five fields before the sides and one per side; that of a
#: group of two sides (nearly all).
GROUP_SIDES: Final = 5
TWO_SIDED: Final = 7
