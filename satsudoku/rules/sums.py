"""Sum rules: killer cages, little killers, sandwiches and arrows (multi-cell bulbs as numbers)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from satsudoku.constraints import AllDifferent, Constraint, DigitSets, Sandwich, Sum
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Digit, Shape, cell_name
from satsudoku.rules import register_rule
from satsudoku.rules.fields import (
    as_list,
    cells_of,
    check_fields,
    distinct_positions,
    integer,
    names,
)


def digit_sets(size: int, count: int, total: int) -> frozenset[frozenset[Digit]]:
    """Every set of `count` different digits 1..size adding up to `total` (pruned by bounds)."""
    found: list[frozenset[Digit]] = []
    chosen: list[Digit] = []

    def extend(start: int, left: int, remaining: int) -> None:
        if left == 0:
            if remaining == 0:
                found.append(frozenset(chosen))
            return
        for d in range(start, size + 1):
            smallest = d * left + left * (left - 1) // 2  # d, d+1, …, d+left-1
            largest = d + sum(range(size - left + 2, size + 1))  # d and the left-1 largest
            if smallest > remaining:
                return
            if largest < remaining:
                continue
            chosen.append(d)
            extend(d + 1, left - 1, remaining - d)
            chosen.pop()

    extend(1, count, total)
    return frozenset(found)


@dataclass(frozen=True)
class Cage:
    """One killer cage: different digits, adding up to `total` when one is given."""

    cells: tuple[Cell, ...]
    total: int | None = None


@register_rule("killer")
@dataclass(frozen=True)
class Killer:
    """Cages hold different digits that add up to the cage's sum (when it has one).

    A cage with a sum becomes `DigitSets` over the digit sets with that sum, never a table of
    sums, so cages of 6–9 cells stay small (see `DigitSets`).
    """

    type: ClassVar[str] = "killer"
    cages: tuple[Cage, ...]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Killer:
        check_fields(spec, {"cages"})
        cages = []
        seen: dict[Cell, int] = {}
        for i, item in enumerate(as_list(spec["cages"], "cages")):
            where = f"cages[{i}]"
            if not isinstance(item, Mapping):
                raise PuzzleError(f"{where} must be an object with 'cells' and optional 'sum'")
            unknown = sorted(set(item) - {"cells", "sum"})
            if unknown:
                raise PuzzleError(f"{where}: unexpected field {unknown[0]!r} (fields: cells, sum)")
            if "cells" not in item:
                raise PuzzleError(f"{where}: missing field 'cells'")
            cells = cells_of(item["cells"], shape, f"{where}.cells")
            if len(cells) > shape.size:
                raise PuzzleError(f"{where}.cells: {len(cells)} cells cannot all differ")
            for cell in cells:
                if cell in seen:
                    raise PuzzleError(
                        f"{where}.cells: {cell_name(cell)} is already in cages[{seen[cell]}]"
                    )
                seen[cell] = i
            total = None
            if item.get("sum") is not None:
                total = integer(item["sum"], f"{where}.sum", low=1)
            cages.append(Cage(cells, total))
        return cls(tuple(cages))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cage in self.cages:
            if cage.total is None:
                yield AllDifferent(cage.cells)
            else:
                sets = digit_sets(shape.size, len(cage.cells), cage.total)
                yield DigitSets(cage.cells, sets, f"sum {cage.total}")

    def to_spec(self) -> dict[str, Any]:
        cages: list[dict[str, Any]] = []
        for cage in self.cages:
            entry: dict[str, Any] = {"cells": names(cage.cells)}
            if cage.total is not None:
                entry["sum"] = cage.total
            cages.append(entry)
        return {"type": self.type, "cages": cages}


@register_rule("littlekiller")
@dataclass(frozen=True)
class LittleKiller:
    """Each clue's cells (a diagonal, listed in full) add up to its sum; digits may repeat."""

    type: ClassVar[str] = "littlekiller"
    clues: tuple[tuple[tuple[Cell, ...], int], ...]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> LittleKiller:
        check_fields(spec, {"clues"})
        clues = []
        for i, item in enumerate(as_list(spec["clues"], "clues")):
            where = f"clues[{i}]"
            if not isinstance(item, Mapping) or set(item) != {"cells", "sum"}:
                raise PuzzleError(f"{where} must be an object with exactly 'cells' and 'sum'")
            cells = cells_of(item["cells"], shape, f"{where}.cells")
            clues.append((cells, integer(item["sum"], f"{where}.sum", low=1)))
        return cls(tuple(clues))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cells, total in self.clues:
            yield Sum(cells, total, distinct=distinct_positions(cells, shape))

    def to_spec(self) -> dict[str, Any]:
        clues = [{"cells": names(cells), "sum": total} for cells, total in self.clues]
        return {"type": self.type, "clues": clues}


@register_rule("sandwich")
@dataclass(frozen=True)
class SandwichRule:
    """A clue outside row/column i is the sum of the digits between its 1 and its n.

    `rows` and `cols` hold one entry per line, null where there is no clue.
    """

    type: ClassVar[str] = "sandwich"
    rows: tuple[int | None, ...]
    cols: tuple[int | None, ...]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> SandwichRule:
        check_fields(spec, set(), {"rows", "cols"})
        n = shape.size
        high = sum(range(2, n))

        def clues(field: str) -> tuple[int | None, ...]:
            items = as_list(spec.get(field, [None] * n), field)
            if len(items) != n:
                raise PuzzleError(f"{field} needs {n} entries (null for no clue), got {len(items)}")
            return tuple(
                None if v is None else integer(v, f"{field}[{i}]", low=0, high=high)
                for i, v in enumerate(items)
            )

        return cls(clues("rows"), clues("cols"))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        n = shape.size
        lines = list(shape.rows()), list(shape.columns())
        for clues, houses in zip((self.rows, self.cols), lines, strict=True):
            for total, cells in zip(clues, houses, strict=True):
                if total is not None:
                    yield Sandwich(cells, total, 1, n)

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type, "rows": list(self.rows), "cols": list(self.cols)}


@dataclass(frozen=True)
class Arrow:
    """A bulb (its cells read as one number, in order) and the shaft that sums to it."""

    bulb: tuple[Cell, ...]
    shaft: tuple[Cell, ...]


@register_rule("arrow")
@dataclass(frozen=True)
class ArrowRule:
    """Digits along each arrow's shaft add up to the number in its bulb (digits may repeat)."""

    type: ClassVar[str] = "arrow"
    arrows: tuple[Arrow, ...]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> ArrowRule:
        check_fields(spec, {"arrows"})
        arrows = []
        for i, item in enumerate(as_list(spec["arrows"], "arrows")):
            where = f"arrows[{i}]"
            if not isinstance(item, Mapping) or set(item) != {"bulb", "shaft"}:
                raise PuzzleError(f"{where} must be an object with exactly 'bulb' and 'shaft'")
            bulb = cells_of(item["bulb"], shape, f"{where}.bulb")
            shaft = cells_of(item["shaft"], shape, f"{where}.shaft")
            if set(bulb) & set(shaft):
                raise PuzzleError(f"{where}: the shaft runs through the bulb")
            if len(bulb) > 1 and shape.size > 9:
                # A pill reads its digits side by side as one decimal number; a digit 10..n
                # has no single decimal place (f-puzzles' solver concatenates the decimal
                # strings, so 1 and 12 read 112), and a silent different reading is worse.
                raise PuzzleError(
                    f"{where}: a {len(bulb)}-cell bulb reads its digits as one number, "
                    f"defined for digits 1..9 only, not on a {shape.size}x{shape.size} board"
                )
            arrows.append(Arrow(bulb, shaft))
        return cls(tuple(arrows))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for arrow in self.arrows:
            k = len(arrow.bulb)  # a k-cell bulb is a k-digit decimal number, read in order
            weights = tuple(10 ** (k - 1 - i) for i in range(k)) + (-1,) * len(arrow.shaft)
            cells = arrow.bulb + arrow.shaft
            yield Sum(cells, 0, weights, distinct_positions(cells, shape))

    def to_spec(self) -> dict[str, Any]:
        arrows = [{"bulb": names(a.bulb), "shaft": names(a.shaft)} for a in self.arrows]
        return {"type": self.type, "arrows": arrows}
