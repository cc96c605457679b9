"""Cage rules beside the killer cage: rellik cages (no part adds up to the clue) and sum cages
(the sum holds, digits may repeat where no house forbids it)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from satsudoku.constraints import MAX_TABLE, Constraint, DigitSets, Sum, TableTooLargeError
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Digit, Shape, cell_name
from satsudoku.rules import register_rule
from satsudoku.rules.fields import as_list, cells_of, check_fields, distinct_positions, integer
from satsudoku.rules.fields import names as cell_names

Cages = tuple[tuple[tuple[Cell, ...], int], ...]  # (cells, clue) per cage


def _read_cages(
    spec: Mapping[str, Any], shape: Shape, *, disjoint: bool, largest: int | None
) -> Cages:
    """`cages: [{cells: [...], sum: k}, …]`; every cage needs its sum."""
    check_fields(spec, {"cages"})
    cages = []
    seen: dict[Cell, int] = {}
    for i, item in enumerate(as_list(spec["cages"], "cages")):
        where = f"cages[{i}]"
        if not isinstance(item, Mapping) or set(item) != {"cells", "sum"}:
            raise PuzzleError(f"{where} must be an object with exactly 'cells' and 'sum'")
        cells = cells_of(item["cells"], shape, f"{where}.cells")
        if largest is not None and len(cells) > largest:
            raise PuzzleError(f"{where}.cells: {len(cells)} cells cannot all differ")
        if disjoint:
            for cell in cells:
                if cell in seen:
                    raise PuzzleError(
                        f"{where}.cells: {cell_name(cell)} is already in cages[{seen[cell]}]"
                    )
                seen[cell] = i
        cages.append((cells, integer(item["sum"], f"{where}.sum", low=1)))
    return tuple(cages)


def _cages_spec(kind: str, cages: Cages) -> dict[str, Any]:
    return {"type": kind, "cages": [{"cells": cell_names(c), "sum": s} for c, s in cages]}


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
class Rellik:
    """Cages hold different digits, and no one or more of a cage's digits add up to its clue.

    Meaning: ISS `RellikCage` ("any combination of one or more digits within the cage cannot
    sum to the given value", with the cage's digits all different). Posted as `DigitSets` over
    the digit sets with no such subset, like a killer cage over its sum's sets.
    """

    type: ClassVar[str] = "rellik"
    cages: Cages

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Rellik:
        return cls(_read_cages(spec, shape, disjoint=True, largest=shape.size))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cells, clue in self.cages:
            sets = rellik_sets(shape.size, len(cells), clue)
            yield DigitSets(cells, sets, f"no part sums to {clue}")

    def to_spec(self) -> dict[str, Any]:
        return _cages_spec(self.type, self.cages)


@register_rule("sumcage")
@dataclass(frozen=True)
class SumCage:
    """The digits of each cage add up to its sum; unlike a killer cage, digits may repeat (as
    far as rows, columns and regions allow), and cages may overlap.

    Meaning: ISS `Sum` ("values must add up to the given sum", no uniqueness: the cages of its
    'Neighbor Sums' example share cells), the killer cage whose setter allows repeated digits.
    """

    type: ClassVar[str] = "sumcage"
    cages: Cages

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> SumCage:
        return cls(_read_cages(spec, shape, disjoint=False, largest=None))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cells, total in self.cages:
            yield Sum(cells, total, distinct=distinct_positions(cells, shape))

    def to_spec(self) -> dict[str, Any]:
        return _cages_spec(self.type, self.cages)
