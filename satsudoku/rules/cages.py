"""Cage rules beside the killer cage: rellik cages (no part adds up to the clue) and sum cages
(the sum holds, digits may repeat where no house forbids it)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from satsudoku.constraints import MAX_TABLE, Constraint, DigitSets, Sum, TableTooLargeError
from satsudoku.grid import Cell, Digit, Shape
from satsudoku.rules import register_rule
from satsudoku.rules.fields import distinct_positions
from satsudoku.rules.schema import Declared, ListOf, spec
from satsudoku.rules.sums import CELLS_AND_SUM, cages_apart

Cages = tuple[tuple[tuple[Cell, ...], int], ...]  # (cells, clue) per cage


def rellik_sets(size: int, count: int, clue: int) -> frozenset[frozenset[Digit]]:
    """Every set of `count` different digits 1..size none of whose non-empty subsets adds up
    to `clue` (subset sums tracked as a bit set); refuses past MAX_TABLE candidate sets."""
    if math.comb(size, count) > MAX_TABLE:
        raise TableTooLargeError(
            f"a {count}-cell rellik cage on a {size}x{size} board has {math.comb(size, count):,} "
            f"digit sets to test (limit {MAX_TABLE:,})"
        )
    found = []
    for digits in itertools.combinations(range(1, size + 1), count):
        reachable = 1  # bit s set ⇔ some subset sums to s (the empty one: 0)
        for d in digits:
            reachable |= reachable << d
        if not reachable >> clue & 1:
            found.append(frozenset(digits))
    return frozenset(found)


@register_rule("rellik")
@dataclass(frozen=True)
class Rellik(Declared):
    """Cages hold different digits, and no one or more of a cage's digits add up to its clue.

    Meaning: ISS `RellikCage` ("any combination of one or more digits within the cage cannot
    sum to the given value", with the cage's digits all different). Posted as `DigitSets` over
    the digit sets with no such subset, like a killer cage over its sum's sets.
    """

    type: ClassVar[str] = "rellik"
    cages: Cages = spec(ListOf(CELLS_AND_SUM))

    def validate(self, shape: Shape) -> None:
        cages_apart([cells for cells, _ in self.cages], shape)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cells, clue in self.cages:
            sets = rellik_sets(shape.size, len(cells), clue)
            yield DigitSets(cells, sets, f"no part sums to {clue}")


@register_rule("sumcage")
@dataclass(frozen=True)
class SumCage(Declared):
    """The digits of each cage add up to its sum; unlike a killer cage, digits may repeat (as
    far as rows, columns and regions allow), and cages may overlap.

    Meaning: ISS `Sum` ("values must add up to the given sum", no uniqueness: the cages of its
    'Neighbor Sums' example share cells), the killer cage whose setter allows repeated digits.
    """

    type: ClassVar[str] = "sumcage"
    cages: Cages = spec(ListOf(CELLS_AND_SUM))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cells, total in self.cages:
            yield Sum(cells, total, distinct=distinct_positions(cells, shape))
