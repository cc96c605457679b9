"""Sum rules: killer cages, little killers, sandwiches and arrows (multi-cell bulbs as numbers)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from satsudoku.constraints import AllDifferent, Constraint, DigitSets, Sandwich, Sum, sets_of_sum
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Digit, Shape, cell_name
from satsudoku.rules import register_rule
from satsudoku.rules.fields import distinct_positions
from satsudoku.rules.schema import (
    NO_CLUES,
    BySize,
    Cells,
    Clues,
    Declared,
    Integer,
    ListOf,
    Object,
    spec,
)


def digit_sets(size: int, count: int, total: int) -> frozenset[frozenset[Digit]]:
    """Every set of `count` different digits 1..size adding up to `total` (pruned by bounds)."""
    return frozenset(map(frozenset, sets_of_sum(range(1, size + 1), count, total)))


def cages_apart(cages: list[tuple[Cell, ...]], shape: Shape) -> None:
    """Refuse a cage of more than n cells (they cannot all differ) and a cell in two cages of
    one rule (overlapping cages go in separate rules)."""
    seen: dict[Cell, int] = {}
    for i, cells in enumerate(cages):
        if len(cells) > shape.size:
            raise PuzzleError(f"cages[{i}].cells: {len(cells)} cells cannot all differ")
        for cell in cells:
            if cell in seen:
                raise PuzzleError(
                    f"cages[{i}].cells: {cell_name(cell)} is already in cages[{seen[cell]}]"
                )
            seen[cell] = i


@dataclass(frozen=True)
class Cage:
    """One killer cage: different digits, adding up to `total` when one is given."""

    cells: tuple[Cell, ...]
    total: int | None = None


@register_rule("killer")
@dataclass(frozen=True)
class Killer(Declared):
    """Cages hold different digits that add up to the cage's sum (when it has one).

    A cage with a sum becomes `DigitSets` over the digit sets with that sum, never a table of
    sums, so cages of 6–9 cells stay small (see `DigitSets`).
    """

    type: ClassVar[str] = "killer"
    cages: tuple[Cage, ...] = spec(
        ListOf(Object({"cells": Cells(), "sum": Integer(1)}, Cage, optional=frozenset({"sum"})))
    )

    def validate(self, shape: Shape) -> None:
        cages_apart([cage.cells for cage in self.cages], shape)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        # Cages of one size and sum share their sets: a 64x64 of 1,382 cages has 202 kinds,
        # whose sets took 30 s of CPU listed cage by cage (kept for this rule only).
        listed: dict[tuple[int, int], frozenset[frozenset[Digit]]] = {}
        for cage in self.cages:
            if cage.total is None:
                yield AllDifferent(cage.cells)
            else:
                kind = (len(cage.cells), cage.total)
                sets = listed.get(kind)
                if sets is None:
                    sets = listed[kind] = digit_sets(shape.size, *kind)
                yield DigitSets(cage.cells, sets, f"sum {cage.total}")


# A clue of cells adding up to a sum: little killer clues, rellik and sum cages.
CELLS_AND_SUM: Object[tuple[tuple[Cell, ...], int]] = Object({"cells": Cells(), "sum": Integer(1)})


@register_rule("littlekiller")
@dataclass(frozen=True)
class LittleKiller(Declared):
    """Each clue's cells (a diagonal, listed in full) add up to its sum; digits may repeat."""

    type: ClassVar[str] = "littlekiller"
    clues: tuple[tuple[tuple[Cell, ...], int], ...] = spec(ListOf(CELLS_AND_SUM))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cells, total in self.clues:
            yield Sum(cells, total, distinct=distinct_positions(cells, shape))


# A sandwich holds at most the digits 2..n-1 (35 on 9×9); 0 is a clue: the 1 and the n touch.
SANDWICH_CLUES = Clues(BySize("2+…+(n−1)", lambda n: sum(range(2, n))), zero_is_clue=True)


@register_rule("sandwich")
@dataclass(frozen=True)
class SandwichRule(Declared):
    """A clue outside row/column i is the sum of the digits between its 1 and its n.

    `rows` and `cols` hold one entry per line, null where there is no clue.
    """

    type: ClassVar[str] = "sandwich"
    rows: tuple[int | None, ...] = spec(SANDWICH_CLUES, absent=NO_CLUES)
    cols: tuple[int | None, ...] = spec(SANDWICH_CLUES, absent=NO_CLUES)

    @classmethod
    def admit(cls, shape: Shape) -> None:
        if shape.size < 2:  # its crusts, 1 and n, would be one digit
            raise PuzzleError(
                f"needs a board of at least 2x2 (crusts 1 and n), not {shape.size}x{shape.size}"
            )

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        n = shape.size
        lines = list(shape.rows()), list(shape.columns())
        for clues, houses in zip((self.rows, self.cols), lines, strict=True):
            for total, cells in zip(clues, houses, strict=True):
                if total is not None:
                    yield Sandwich(cells, total, 1, n)


@dataclass(frozen=True)
class Arrow:
    """A bulb (its cells read as one number, in order) and the shaft that sums to it."""

    bulb: tuple[Cell, ...]
    shaft: tuple[Cell, ...]


@register_rule("arrow")
@dataclass(frozen=True)
class ArrowRule(Declared):
    """Digits along each arrow's shaft add up to the number in its bulb (digits may repeat)."""

    type: ClassVar[str] = "arrow"
    arrows: tuple[Arrow, ...] = spec(ListOf(Object({"bulb": Cells(), "shaft": Cells()}, Arrow)))

    def validate(self, shape: Shape) -> None:
        for i, arrow in enumerate(self.arrows):
            where = f"arrows[{i}]"
            if set(arrow.bulb) & set(arrow.shaft):
                raise PuzzleError(f"{where}: the shaft runs through the bulb")
            if len(arrow.bulb) > 1 and shape.size > 9:
                # A pill reads its digits side by side as one decimal number; a digit 10..n
                # has no single decimal place (f-puzzles' solver concatenates the decimal
                # strings, so 1 and 12 read 112), and a silent different reading is worse.
                raise PuzzleError(
                    f"{where}: a {len(arrow.bulb)}-cell bulb reads its digits as one number, "
                    f"defined for digits 1..9 only, not on a {shape.size}x{shape.size} board"
                )

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for arrow in self.arrows:
            k = len(arrow.bulb)  # a k-cell bulb is a k-digit decimal number, read in order
            weights = tuple(10 ** (k - 1 - i) for i in range(k)) + (-1,) * len(arrow.shaft)
            cells = arrow.bulb + arrow.shaft
            yield Sum(cells, 0, weights, distinct_positions(cells, shape))
