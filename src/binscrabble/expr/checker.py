"""The fast checker: one :class:`Evaluator` per set of the rules that matter to equations.

This is the hot path of the game and of the move generator. Text already in codes is
validated by one compiled regular expression, split with ``str.split("=")``, and each
distinct side is evaluated once and cached, through an evaluator made for the side's
shape (:mod:`binscrabble.expr.shapes`). Only when something fails does the full path
(:mod:`binscrabble.expr.evaluation`, :mod:`binscrabble.expr.diagnosis`) work out the
reason. Batches go through :mod:`binscrabble.expr.batch`, which shares these caches.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from binscrabble.expr.columns import evaluate_sides
from binscrabble.expr.diagnosis import malformed
from binscrabble.expr.errors import EquationError, Positions, located
from binscrabble.expr.evaluation import (
    SIDES_DIFFER,
    CachedSide,
    Outcome,
    SideResult,
    evaluate_side,
    identity_or_arithmetic,
    sides_differ,
)
from binscrabble.expr.limits import (
    CACHE_LIMIT,
    COMPILE_AFTER,
    LONGEST_CACHED,
    MAX_SYMBOLS,
    SHAPE_LIMIT,
)
from binscrabble.expr.normalizing import (
    CODES_ONLY,
    CodePositions,
    LayoutPositions,
    codes_and_positions,
    quick_codes,
)
from binscrabble.expr.results import CheckResult, make_result, new_tuple
from binscrabble.expr.shapes import ShapeFunction, compile_shape, interpret_shape
from binscrabble.expr.symbols import allowed_identities, precedence_of
from binscrabble.rules import Rules


def grammar_patterns(leading_zeros: bool) -> tuple[re.Pattern[str], ...]:
    """The grammar of docs/rules.md §6 as regular expressions: (whole equation, readable start,
    batch lines); see :class:`Evaluator`.

    Nothing is ever worth backtracking into, since digits, operators and `=` never
    overlap: possessive repeats of one character class, and atomic groups around the
    repeats of a group. (Not a possessive repeat of a group: CPython before 3.11.5 matched
    those wrongly when the group could backtrack, gh-106052; Debian 12's 3.11.2 read
    "1+~=1" as grammatical.)
    """
    number = "[01]++" if leading_zeros else "0|1[01]*+"
    operand = f"(?:~[01]++|{number})"
    side = f"{operand}(?>(?:[-+x/&|^]{operand})*)"
    grammar = re.compile(f"{side}(?>(?:={side})+)")
    # The longest start of a text that the grammar can still read (every state of the
    # reading is fixed by the symbol before): it ends where the first error is, or at the
    # end of the text.
    readable = f"(?>(?:{operand}[-+x/&|^=])*)(?>(?:{operand}|~)?)"
    # A batch's texts joined by line breaks, read by one `findall`: every line gives
    # ("\n", "", "") when it is grammatical with two sides, else ("", readable start, first
    # symbol after it or "") when it is codes only, else ("", "", "") (typed text, unknown
    # symbols, or the empty text). Few groups, none around the sides: each group costs
    # every line of the batch (a group around a side also makes each branch save marks).
    code = "[-+x/&|^=~01]"
    lines = f"(?:{side}={side}(\n)|({readable})({code}?+){code}*+\n|[^\n]++\n)"
    return grammar, re.compile(readable), re.compile(lines)


class Evaluator:
    """Checks equations under one set of the rules that matter here, with bounded caches.

    Three caches, each cleared when full: people's texts to results, codes to outcomes,
    and sides to their values. A side is cached as a bare ``int`` when it has a value, no
    identity fragment and no failure, which is the common case the fast path tests first.
    """

    __slots__ = (
        "allowed",
        "chains",
        "equations",
        "grammar",
        "leading_zeros",
        "lines",
        "negatives",
        "precedence",
        "readable",
        "results",
        "shapes",
        "sides",
        "sightings",
    )

    def __init__(self, rules: Rules) -> None:
        self.precedence = precedence_of(rules)
        self.allowed = allowed_identities(rules)
        self.chains = rules.identity_chains
        self.negatives = rules.allow_negatives
        self.leading_zeros = rules.leading_zeros
        self.grammar, self.readable, self.lines = grammar_patterns(rules.leading_zeros)
        self.equations: dict[str, Outcome] = {}
        self.sides: dict[str, CachedSide] = {}
        self.results: dict[str, CheckResult] = {}
        self.shapes: dict[str, ShapeFunction] = {}
        self.sightings: dict[str, int] = {}

    def clear(self) -> None:
        """Forget every cached result, equation, side and shape."""
        for cache in (self.results, self.equations, self.sides, self.shapes, self.sightings):
            cache.clear()

    def check(self, text: str) -> CheckResult:
        """The verdict on people's input (see :func:`binscrabble.expr.check`)."""
        results = self.results
        result = results.get(text)
        if result is not None:
            return result
        if len(results) >= CACHE_LIMIT:
            results.clear()
        if len(text) <= MAX_SYMBOLS and self.grammar.fullmatch(text):
            # Already codes, and grammatical: straight to the values.
            sides = text.split("=")
            if len(sides) == 2:
                # The hottest path of all (two known sides, equal) built right here.
                get = self.sides.get
                left = get(sides[0])
                if type(left) is int and left == get(sides[1]):
                    result = new_tuple(CheckResult, (text, left, None, None, None))
                    results[text] = result
                    return result
            outcome = self.evaluate(text)
            if type(outcome) is int:
                result = new_tuple(CheckResult, (text, outcome, None, None, None))
            else:
                assert isinstance(outcome, tuple)
                kind, position, message = located(outcome, None)
                result = new_tuple(CheckResult, (text, None, message, kind, position))
        else:
            result = self.ungrammatical_codes_or_typed(text)
        if len(text) <= LONGEST_CACHED:
            results[text] = result
        return result

    def ungrammatical_codes_or_typed(self, text: str) -> CheckResult:
        """The verdict on a text that is not grammatical codes (see :meth:`check`)."""
        positions: Positions | None = None
        outcome: Outcome
        if len(text) <= MAX_SYMBOLS and CODES_ONLY.fullmatch(text):
            # Codes already, and the grammar said no: only the reason is left to find.
            outcome = malformed(text, self.leading_zeros)
        else:
            quick = quick_codes(text)
            if quick is not None:
                outcome = self.outcome(quick)
                if type(outcome) is not int:
                    # The quick path keeps no positions; find them for the message.
                    positions = CodePositions(text)
            else:
                try:
                    codes, positions = codes_and_positions(text)
                except EquationError as error:
                    return make_result(text, None, error.args[0], error.kind, error.position)
                outcome = self.outcome(codes)
        if type(outcome) is int:
            return make_result(text, outcome, None, None, None)
        assert isinstance(outcome, tuple)
        kind, position, message = located(outcome, positions)
        return make_result(text, None, message, kind, position)

    def verdict(self, text: str, outcome: Outcome, layout: str | None = None) -> CheckResult:
        """The result for `text` from the outcome of its codes, which are `text` itself
        unless a layout is given (typed text, see :class:`LayoutPositions`)."""
        if type(outcome) is int:
            return new_tuple(CheckResult, (text, outcome, None, None, None))
        assert isinstance(outcome, tuple)
        positions = None if layout is None else LayoutPositions(layout)
        kind, position, message = located(outcome, positions)
        return new_tuple(CheckResult, (text, None, message, kind, position))

    def outcome(self, codes: str) -> Outcome:
        """The value of `codes`, or the first reason it is not a valid equation."""
        cached = self.equations.get(codes)
        if cached is not None:
            return cached
        if len(codes) > MAX_SYMBOLS or not self.grammar.fullmatch(codes):
            result: Outcome = malformed(codes, self.leading_zeros)
        else:
            result = self.evaluate(codes)
        if len(codes) <= MAX_SYMBOLS:
            if len(self.equations) >= CACHE_LIMIT:
                self.equations.clear()
            self.equations[codes] = result
        return result

    def evaluate(self, codes: str) -> Outcome:
        """The outcome of grammatical codes: identity rules, arithmetic, equal sides."""
        sides = codes.split("=")
        get = self.sides.get
        if len(sides) == 2:
            # The common shape, tested without building anything.
            left_side, right_side = sides
            left = get(left_side)
            if left is None:
                left = self.new_side(left_side)
            right = get(right_side)
            if right is None:
                right = self.new_side(right_side)
            if type(left) is int and type(right) is int:
                if left == right:
                    return left
                return ("sides_differ", len(left_side), SIDES_DIFFER.format(left, right))
            found = [left, right]
        else:
            found = []
            for side in sides:
                result = get(side)
                if result is None:
                    result = self.new_side(side)
                found.append(result)
        # Sides whose identity fragments the rules allow carry their count: add them up.
        values: list[int] = []
        fragments = 0
        for result in found:
            if isinstance(result, int):
                values.append(result)
            elif len(result) == 2:
                values.append(result[0])
                fragments += result[1]
            else:
                break
        else:
            if fragments <= 1 or self.chains:
                first = values[0]
                for number, value in enumerate(values):
                    if value != first:
                        return sides_differ(sides, values, number)
                return first
        # Something to explain (a fragment not allowed, a chain, a bad step): the full path.
        # zip without strict= (equal lengths here): see identity_or_arithmetic.
        full = [self._full_side(side, result) for side, result in zip(sides, found)]  # noqa: B905
        failure = identity_or_arithmetic(sides, full, self.allowed, self.chains)
        assert failure is not None, codes
        return failure

    def _full_side(self, side: str, cached: CachedSide) -> SideResult:
        if isinstance(cached, int):
            return (cached, None, ())
        if len(cached) == 3:
            return cached
        return evaluate_side(side, self.precedence, self.negatives)

    def new_side(self, side: str) -> CachedSide:
        """Evaluate a side not in the cache, and cache it.

        First through the evaluator of its shape, which answers the common cases (a value,
        with or without identity fragments the rules allow); anything else goes through
        :func:`evaluate_side`, which works out the fragments and the failure in full.
        """
        shape = side.replace("0", "").replace("1", "")
        function = self.shapes.get(shape)
        sightings = self.sightings.get(shape, 0) + 1
        # Ski rental, twice: a shape seen once is evaluated in full (building its program
        # costs two full evaluations); seen again, it gets a register program; seen
        # COMPILE_AFTER times, compiled straight-line code (dozens of programs' worth).
        # Written out here, not in a helper: this runs for every new side.
        if function is None:
            if sightings > 1:
                if len(self.shapes) >= SHAPE_LIMIT:
                    self.shapes.clear()
                function = self.shapes[shape] = interpret_shape(
                    shape, self.precedence, self.negatives, self.allowed
                )
            if len(self.sightings) >= SHAPE_LIMIT:
                self.sightings.clear()
            self.sightings[shape] = sightings
        elif shape in self.sightings:
            if sightings < COMPILE_AFTER:
                self.sightings[shape] = sightings
            else:
                del self.sightings[shape]
                function = self.shapes[shape] = compile_shape(
                    shape, self.precedence, self.negatives, self.allowed
                )
        stored: CachedSide | None = None if function is None else function(side)
        if stored is None:
            stored = self.side_in_full(side)
        if len(self.sides) >= CACHE_LIMIT:
            self.sides.clear()
        self.sides[side] = stored
        return stored

    def side_in_full(self, side: str) -> CachedSide:
        """A side through :func:`evaluate_side`, kept short when it has nothing to explain."""
        result = evaluate_side(side, self.precedence, self.negatives)
        value, failure, fragments = result
        if failure is None and all(self.allowed[switch] for _, _, switch in fragments):
            assert value is not None
            return (value, len(fragments)) if fragments else value
        return result

    def new_sides(self, sides: list[str]) -> dict[str, CachedSide]:
        """Evaluate many sides not in the cache at once, and cache them (see :meth:`new_side`).

        With every side known in advance, the sides are grouped by their operators and each
        group is evaluated column by column (:func:`evaluate_sides`); every side that
        needs a closer look takes the full path.
        """
        found: dict[str, CachedSide | None]
        found, rejected = evaluate_sides(  # type: ignore[assignment]
            sides, self.precedence, self.negatives, self.allowed, smallest_group=3
        )
        for side in rejected:
            found[side] = self.side_in_full(side)
        if len(found) <= CACHE_LIMIT:
            if len(self.sides) + len(found) > CACHE_LIMIT:
                self.sides.clear()
            self.sides.update(found)  # type: ignore[arg-type]
        return found  # type: ignore[return-value]

    def side_values(self, sides: Iterable[str]) -> dict[str, CachedSide]:
        """The cached form of each distinct side of `sides`: from the cache, or evaluated
        all together by :meth:`new_sides`."""
        # A set tells the distinct sides for less than a dictionary does (no values, no
        # order kept); their order does not matter.
        distinct = set(sides)
        known = self.sides
        if not known:
            return self.new_sides(list(distinct))  # nothing known yet: all are new
        unknown = list(itertools.filterfalse(known.__contains__, distinct))
        if len(unknown) == len(distinct):
            return self.new_sides(unknown)  # none known: the new ones are all
        # The known ones first: evaluating the new ones may clear the cache.
        cached = list(filter(known.__contains__, distinct))
        values: dict[str, CachedSide] = dict(
            zip(cached, map(known.__getitem__, cached), strict=True)
        )
        if unknown:
            values.update(self.new_sides(unknown))
        return values
