"""Many texts checked at once: the same verdicts as :meth:`Evaluator.check`, in order.

Each distinct text is read once, by one regular expression over them all (joined by line
breaks); each distinct side of the grammatical ones is evaluated once, together with the
others of the same operators (:func:`binscrabble.expr.columns.evaluate_sides`); each
distinct error spot of malformed codes is worked out once. Only texts with something to
explain (a chain, a bad step, three sides or more) take the one-by-one path.

Fewer passes over the data pay: every pass over a list (even a ``map`` in C) costs about
as much per text as a few lines of Python do, so each step below is one loop that does
all it can for a text.
"""

from __future__ import annotations

import gc
import itertools
import operator as operator_module
from collections.abc import Collection, Iterable
from typing import Final, TypeAlias, cast

from binscrabble.expr.checker import Evaluator
from binscrabble.expr.diagnosis import malformed
from binscrabble.expr.errors import Failure, counted, located
from binscrabble.expr.evaluation import SIDES_DIFFER, CachedSide, failed_pair, fragments_allowed
from binscrabble.expr.limits import MAX_SYMBOLS
from binscrabble.expr.normalizing import LayoutPositions, layout_position, quick_codes_many
from binscrabble.expr.results import CheckResult, new_tuple

#: A typed text with two sides: (text, codes, layout, left side, right side).
_TypedPair: TypeAlias = tuple[str, str, str, str, str]
#: A typed text to check one by one: (text, codes, layout).
_TypedText: TypeAlias = tuple[str, str, str]

_FOURTH: Final = operator_module.itemgetter(3)
_FIFTH: Final = operator_module.itemgetter(4)
_EQUALS: Final = itertools.repeat("=")


def check_batch(evaluator: Evaluator, texts: Iterable[str]) -> list[CheckResult]:
    """The verdicts on many texts, in order (see :func:`binscrabble.expr.check_many`)."""
    texts = texts if isinstance(texts, list) else list(texts)
    # A batch allocates many objects that live until it ends and can never form cycles:
    # the cyclic garbage collector would trace them again and again for nothing (a sixth
    # of the time or more), so it is paused for the batch.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _check_texts(evaluator, texts)
    finally:
        if collecting:
            gc.enable()


def _check_texts(evaluator: Evaluator, texts: list[str]) -> list[CheckResult]:
    # The distinct texts are the keys of the dictionary of verdicts, made at once: each
    # verdict then replaces its None (no dictionary grows key by key).
    verdicts: dict[str, CheckResult] = dict.fromkeys(texts)  # type: ignore[assignment]
    distinct, joined = _answer_odd_texts(evaluator, verdicts)
    rows = evaluator.lines.findall(joined + "\n") if distinct else []
    failures: dict[object, Failure] = {}
    pair_texts, typed, later = _sort_rows(evaluator, distinct, rows, verdicts, failures)
    typed_pairs: list[_TypedPair] = []
    typed_later: list[_TypedText] = []
    if typed:
        sort_typed(evaluator, typed, verdicts, failures, typed_pairs, typed_later)
    # Each two-sided text holds one `=`: joined by `=` and split, all their sides come out
    # in order, left, right, left, right...
    pair_sides = "=".join(pair_texts).split("=") if pair_texts else []
    values = evaluator.side_values(
        itertools.chain(
            pair_sides,
            map(_FOURTH, typed_pairs),
            map(_FIFTH, typed_pairs),
            itertools.chain.from_iterable(map(str.split, later, _EQUALS)),
        )
    )
    lefts = pair_sides[0::2]
    rights = pair_sides[1::2]
    _compare_pairs(evaluator, pair_texts, lefts, rights, values, verdicts, later)
    _compare_typed_pairs(evaluator, typed_pairs, values, verdicts, typed_later)
    # The rest one by one: identity fragments, failing steps, three sides or more.
    for text in later:
        verdicts[text] = evaluator.verdict(text, evaluator.evaluate(text))
    for text, codes, layout in typed_later:
        verdicts[text] = evaluator.verdict(text, evaluator.evaluate(codes), layout)
    if len(texts) > 1:
        # One itemgetter call looks every text up in C, a third cheaper than a `map`
        # over the bound method.
        return list(operator_module.itemgetter(*texts)(verdicts))
    return list(map(verdicts.__getitem__, texts))


def _answer_odd_texts(
    evaluator: Evaluator, verdicts: dict[str, CheckResult]
) -> tuple[Collection[str], str]:
    """Answer the texts too long to remember or holding a line break (typed text, never
    codes) one by one, as check() does; return the other distinct texts, to read together,
    and the same joined by line breaks."""
    joined = "\n".join(verdicts)
    if not verdicts or (
        max(map(len, verdicts)) <= MAX_SYMBOLS and joined.count("\n") < len(verdicts)
    ):
        return verdicts, joined
    odd = [text for text in verdicts if len(text) > MAX_SYMBOLS or "\n" in text]
    for text in odd:
        verdicts[text] = evaluator.ungrammatical_codes_or_typed(text)
    distinct = list(itertools.filterfalse(set(odd).__contains__, verdicts))
    return distinct, "\n".join(distinct)


def _sort_rows(
    evaluator: Evaluator,
    distinct: Collection[str],
    rows: list[tuple[str, str, str]],
    verdicts: dict[str, CheckResult],
    failures: dict[object, Failure],
) -> tuple[list[str], list[str], list[str]]:
    """Answer the malformed codes; return the grammatical two-sided texts, the typed texts,
    and the texts to check one by one (three sides or more)."""
    pair_texts: list[str] = []
    typed: list[str] = []
    later: list[str] = []
    located_spots: dict[object, tuple[str, str, int | None]] = {}
    leading_zeros = evaluator.leading_zeros
    new = new_tuple
    for text, (pair, readable, bad) in zip(distinct, rows, strict=True):
        if pair:
            # Grammatical, two sides: compared once every side has a value.
            pair_texts.append(text)
            continue
        # Codes the grammar rejects (or grammatical with three sides or more). The first
        # error depends only on where the reading stops and the symbols there, so each
        # distinct spot is worked out once.
        if not readable:
            if not bad and text:
                # Not codes only: typed text (or unknown symbols).
                typed.append(text)
                continue
            # Wrong from the first symbol (or empty): that symbol alone says why.
            key: object = bad
        elif bad:
            key = (len(readable), readable[-1], bad)
        else:
            last = text[-1]
            has_equals = "=" in text
            if has_equals and (last == "1" or last == "0"):
                # Grammatical, three sides or more: its sides are evaluated with the
                # others, the text itself later.
                later.append(text)
                continue
            key = (len(text), last, has_equals)
        found = located_spots.get(key)
        if found is None:
            failure = failures[key] = malformed(text, leading_zeros)
            kind, position, message = located(failure, None)
            found = located_spots[key] = (message, kind, position)
        message, kind, position = found
        verdicts[text] = new(CheckResult, (text, None, message, kind, position))
    return pair_texts, typed, later


def sort_typed(
    evaluator: Evaluator,
    typed: list[str],
    verdicts: dict[str, CheckResult],
    failures: dict[object, Failure],
    pairs: list[_TypedPair],
    later: list[_TypedText],
) -> None:
    """Typed texts (spaces, words, aliases) of a batch, turned into codes all at once and
    read like the others: malformed ones get their verdict in `verdicts`, grammatical
    ones with two sides go to `pairs` as (text, codes, layout, left side, right side),
    the rest to `later` as (text, codes, layout). `failures` holds the errors of
    malformed codes by their spot (see _sort_rows)."""
    texts, all_codes, layouts = _typed_codes(evaluator, typed, verdicts)
    if not texts:
        return
    rows = evaluator.lines.findall("\n".join(all_codes) + "\n")
    new = new_tuple
    leading_zeros = evaluator.leading_zeros
    for text, codes, layout, (pair, readable, bad) in zip(
        texts, all_codes, layouts, rows, strict=True
    ):
        if pair:
            left, right = codes.split("=")
            pairs.append((text, codes, layout, left, right))
            continue
        if not readable:
            key: object = bad
        elif bad:
            key = (len(readable), readable[-1], bad)
        else:
            last = codes[-1]
            has_equals = "=" in codes
            if has_equals and (last == "1" or last == "0"):
                later.append((text, codes, layout))
                continue
            key = (len(codes), last, has_equals)
        failure = failures.get(key)
        if failure is None:
            failure = failures[key] = malformed(codes, leading_zeros)
        # What `located` does with a LayoutPositions, without making one.
        kind, position, message = failure
        if position is not None:
            position = layout_position(layout, position)
        if "{" in message:
            message = message.replace("{position}", counted(position))
        verdicts[text] = new(CheckResult, (text, None, message, kind, position))


def _typed_codes(
    evaluator: Evaluator, typed: list[str], verdicts: dict[str, CheckResult]
) -> tuple[list[str], list[str], list[str]]:
    """The typed texts that have quick codes of a checkable length, their codes and their
    layouts; the others are answered one by one, into `verdicts`."""
    found, all_layouts = quick_codes_many(typed)
    if None not in found and max(map(len, cast("list[str]", found))) <= MAX_SYMBOLS:
        # The common case: quick codes for every text, none too long.
        return typed, cast("list[str]", found), all_layouts
    texts: list[str] = []
    all_codes: list[str] = []
    layouts: list[str] = []
    for text, quick, layout in zip(typed, found, all_layouts, strict=True):
        if quick is None or len(quick) > MAX_SYMBOLS:
            verdicts[text] = evaluator.ungrammatical_codes_or_typed(text)
        else:
            texts.append(text)
            all_codes.append(quick)
            layouts.append(layout)
    return texts, all_codes, layouts


def _compare_pairs(
    evaluator: Evaluator,
    pair_texts: list[str],
    lefts: list[str],
    rights: list[str],
    values: dict[str, CachedSide],
    verdicts: dict[str, CheckResult],
    later: list[str],
) -> None:
    """Answer the grammatical two-sided texts whose sides have values; the others (a chain,
    a fragment to explain) go to `later`."""
    new = new_tuple
    differ = SIDES_DIFFER.format
    messages: dict[tuple[int, int], str] = {}
    chains = evaluator.chains
    for text, left, right in zip(pair_texts, lefts, rights, strict=True):
        left_value = values[left]
        right_value = values[right]
        if type(left_value) is int and type(right_value) is int:
            if left_value == right_value:
                verdicts[text] = new(CheckResult, (text, left_value, None, None, None))
            else:
                # The same two values recur: each message is written once.
                pair = (left_value, right_value)
                written = messages.get(pair)
                if written is None:
                    written = messages[pair] = differ(left_value, right_value)
                verdicts[text] = new(CheckResult, (text, None, written, "sides_differ", len(left)))
            continue
        # Sides with identity fragments: fine if the rules allow each and the two sides do
        # not make a chain the rules forbid. A side failing a step, with no fragment on
        # either side, gives its failure here.
        if type(left_value) is tuple and len(left_value) != 2:
            failed = failed_pair(left, left_value, right_value)
        elif type(right_value) is tuple and len(right_value) != 2:
            # (Fragments on the left, allowed, may still make a chain.)
            fragments_on_left = type(left_value) is tuple
            failed = None if fragments_on_left else failed_pair(left, left_value, right_value)
        else:
            both = fragments_allowed(left_value, right_value, chains)
            if both is None:
                later.append(text)
            elif both[0] == both[1]:
                verdicts[text] = new(CheckResult, (text, both[0], None, None, None))
            else:
                reason = differ(*both)
                verdicts[text] = new(CheckResult, (text, None, reason, "sides_differ", len(left)))
            continue
        if failed is None:
            later.append(text)
        else:
            verdicts[text] = new(CheckResult, (text, None, *failed))


def _compare_typed_pairs(
    evaluator: Evaluator,
    typed_pairs: list[_TypedPair],
    values: dict[str, CachedSide],
    verdicts: dict[str, CheckResult],
    later: list[_TypedText],
) -> None:
    """Answer the typed two-sided texts whose sides have values; the others go to `later`."""
    new = new_tuple
    chains = evaluator.chains
    for text, codes, layout, left, right in typed_pairs:
        left_value = values[left]
        right_value = values[right]
        if type(left_value) is not int or type(right_value) is not int:
            both = fragments_allowed(left_value, right_value, chains)
            if both is None:
                later.append((text, codes, layout))
                continue
            left_value, right_value = both
        if left_value == right_value:
            verdicts[text] = new(CheckResult, (text, left_value, None, None, None))
        else:
            position = LayoutPositions(layout)[len(left)]
            message = SIDES_DIFFER.format(left_value, right_value)
            verdicts[text] = new(CheckResult, (text, None, message, "sides_differ", position))
