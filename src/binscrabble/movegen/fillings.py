"""The equations of a join group, one filling at a time: the options of the free squares,
the run's text, its value and usage.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from itertools import chain, product
from typing import Final

from .context import Filling, JoinGroup
from .options import EQUALS_CHARACTER, EQUALS_OPTION, OPTION_OF_CHARACTER, ROTATED_CHARACTER

#: Each character a side's text may hold (and the `=` between two sides) as the byte of
#: its option, for :func:`two_sided_fillings`.
_OPTION_BYTES: Final = bytes.maketrans(
    "".join([*OPTION_OF_CHARACTER, EQUALS_CHARACTER]).encode("ascii"),
    bytes([*OPTION_OF_CHARACTER.values(), EQUALS_OPTION]),
)


def group_fillings(group: JoinGroup, chains: bool, rotated: bool) -> Iterable[Filling]:
    """The equations of a join group, as fillings (options, text, value, option usage)."""
    if not group.more:
        found = two_sided_fillings(group, chains, rotated)
        if found is not None:
            return found
    return general_fillings(group, chains, rotated)


def two_sided_fillings(group: JoinGroup, chains: bool, rotated: bool) -> list[Filling] | None:
    """:func:`group_fillings` of a group of two sides (nearly all), in the same order, as
    a list: each equation's options read from its text at once (the text's bytes mapped
    to options, :data:`_OPTION_BYTES`, then picked at the free squares, the new `=`
    included), not a comprehension per side and a tuple built around the `=` (best moves
    read every group, and so does reading, under parallel_numbers, a segment that touches
    only through crossings: many groups of a few equations each). None when an equation
    has fewer than two free squares (a picker of one returns no tuple)."""
    first_at, second_at = group.free_positions
    first, second = group.first, group.second
    equals_slot, value, usage = group.equals_slot, group.value, group.usage
    # A side's texts are all as long (a character per free square, then its tiles' texts).
    width = len(first[1])
    after = width + 1
    if equals_slot >= 0:
        # (The new `=` is the free square between the two sides.)
        positions = (*first_at, width, *[after + at for at in second_at])
    else:
        positions = (*first_at, *[after + at for at in second_at])
    if len(positions) < 2:
        return None
    read = operator.itemgetter(*positions)
    codes = _OPTION_BYTES
    first_plain, second_plain = first[0], second[0]
    # The pairs in the order of general_fillings: every with every under identity_chains,
    # else plain with plain, then the first's fragments with the second's plain, then the
    # first's plain with the second's fragments.
    if chains:
        runs = [(first[1:], second[1:])]
    else:
        first_plains = first[1 : first_plain + 1]
        second_plains = second[1 : second_plain + 1]
        runs = [(first_plains, second_plains)]
        if len(first) - 1 > first_plain:
            runs.append((first[first_plain + 1 :], second_plains))
        if len(second) - 1 > second_plain:
            runs.append((first_plains, second[second_plain + 1 :]))
    found: list[Filling] = []
    for lefts, rights in runs:
        for left in lefts:
            head = left + "="
            for right in rights:
                text = head + right
                # (A picker of two or more returns a tuple.)
                options = read(text.encode("ascii").translate(codes))
                found.append(
                    (
                        options,
                        text.replace(ROTATED_CHARACTER, "11") if rotated else text,
                        value,
                        usage,
                    )
                )
    return found


def general_fillings(group: JoinGroup, chains: bool, rotated: bool) -> Iterator[Filling]:
    """:func:`group_fillings` of any group, one equation at a time."""
    value, equals_slot, usage = group.value, group.equals_slot, group.usage
    free_positions = group.free_positions
    parts = group.parts
    combinations: Iterable[tuple[str, ...]]
    # (Each side's fillings: see KindParts.)
    if chains:
        combinations = product(*[fillings[1:] for fillings in parts])
    else:
        plain_lists = [fillings[1 : fillings[0] + 1] for fillings in parts]
        runs = [product(*plain_lists)]
        for index, fillings in enumerate(parts):
            if len(fillings) - 1 > fillings[0]:
                runs.append(
                    product(
                        *plain_lists[:index],
                        fillings[fillings[0] + 1 :],
                        *plain_lists[index + 1 :],
                    )
                )
        combinations = chain.from_iterable(runs)
    option_of = OPTION_OF_CHARACTER
    for combination in combinations:
        text = "=".join(combination)
        if rotated:
            text = text.replace(ROTATED_CHARACTER, "11")
        options = tuple(
            [
                option_of[side[at]]
                # (Equal lengths; no `strict=`, whose keyword call is slow: this runs
                # per equation.)
                for side, positions in zip(combination, free_positions)  # noqa: B905
                for at in positions
            ]
        )
        if equals_slot >= 0:
            options = (*options[:equals_slot], EQUALS_OPTION, *options[equals_slot:])
        yield options, text, value, usage
