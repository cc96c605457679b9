"""Cell rules: odd/even cells, minimum/maximum cells, quadruples and clones."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from satsudoku.constraints import Allowed, Constraint, Contains, Less, Pair, Relation
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Digit, Shape
from satsudoku.rules import register_rule
from satsudoku.rules.fields import ORTHOGONAL, neighbours
from satsudoku.rules.schema import (
    Both,
    Cells,
    Declared,
    Digits,
    FpuzzlesKey,
    ListOf,
    Object,
    Region,
    spec,
)


@dataclass(frozen=True)
class _CellSet(Declared):
    """Shared by the rules whose only field is `cells`."""

    cells: tuple[Cell, ...] = spec(Cells())


@register_rule("odd")
@dataclass(frozen=True)
class Odd(_CellSet):
    """The cells hold odd digits."""

    type: ClassVar[str] = "odd"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("odd", "cell")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        odd = frozenset(range(1, shape.size + 1, 2))
        for cell in self.cells:
            yield Allowed(cell, odd)


@register_rule("even")
@dataclass(frozen=True)
class Even(_CellSet):
    """The cells hold even digits."""

    type: ClassVar[str] = "even"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("even", "cell")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        even = frozenset(range(2, shape.size + 1, 2))
        for cell in self.cells:
            yield Allowed(cell, even)


def _outside_neighbours(cells: tuple[Cell, ...], shape: Shape) -> Iterator[tuple[Cell, Cell]]:
    """(cell, neighbour) for each orthogonal neighbour of each cell that is not in `cells`.

    Fortress cells compare only with neighbours outside their own set: two touching maximum
    cells need not be ordered (else any two would contradict each other). This is f-puzzles'
    meaning, as its solver states it: dclamage/SudokuSolver `MinimumConstraint` and
    `MaximumConstraint`, whose `ValidAdjacentCells` skips cells of the same constraint. A
    minimum cell beside a maximum cell is outside the other's set, so both rules order them.
    """
    inside = frozenset(cells)
    for cell in cells:
        for other in neighbours(cell, ORTHOGONAL, shape.size):
            if other not in inside:
                yield cell, other


@register_rule("minimum")
@dataclass(frozen=True)
class Minimum(_CellSet):
    """Each cell holds a smaller digit than each orthogonal neighbour that is not itself one of
    these minimum cells (see `_outside_neighbours`)."""

    type: ClassVar[str] = "minimum"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("minimum", "cell")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cell, other in _outside_neighbours(self.cells, shape):
            yield Less(cell, other)


@register_rule("maximum")
@dataclass(frozen=True)
class Maximum(_CellSet):
    """Each cell holds a larger digit than each orthogonal neighbour that is not itself one of
    these maximum cells (see `_outside_neighbours`)."""

    type: ClassVar[str] = "maximum"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("maximum", "cell")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cell, other in _outside_neighbours(self.cells, shape):
            yield Less(other, cell)


@register_rule("quadruple")
@dataclass(frozen=True)
class Quadruple(Declared):
    """Each clue's digits (repeats count) all appear in its cells, usually a 2×2 block."""

    type: ClassVar[str] = "quadruple"
    clues: tuple[tuple[tuple[Cell, ...], tuple[Digit, ...]], ...] = spec(
        ListOf(
            Object(
                {"cells": Cells(), "digits": Digits()},
                lambda cells, digits: (cells, tuple(sorted(digits))),
            )
        )
    )

    def validate(self, shape: Shape) -> None:
        for i, (cells, digits) in enumerate(self.clues):
            if not 1 <= len(digits) <= len(cells):
                raise PuzzleError(f"clues[{i}].digits: give 1..{len(cells)} digits")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cells, digits in self.clues:
            yield Contains(cells, digits)


@register_rule("clone")
@dataclass(frozen=True)
class Clone(Declared):
    """Each pair of equally shaped regions holds the same digits in corresponding cells.

    `pairs`: a list of [cells_a, cells_b]; a single cell may stand for a one-cell region.
    """

    type: ClassVar[str] = "clone"
    digit_symmetric: ClassVar[bool] = True  # relabelling digits keeps it
    pairs: tuple[tuple[tuple[Cell, ...], tuple[Cell, ...]], ...] = spec(
        ListOf(Both(Region(), "[cells_a, cells_b]"))
    )

    def validate(self, shape: Shape) -> None:
        for i, (a, b) in enumerate(self.pairs):
            if len(a) != len(b):
                raise PuzzleError(f"pairs[{i}]: the two regions have {len(a)} and {len(b)} cells")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for a, b in self.pairs:
            for x, y in zip(a, b, strict=True):
                yield Pair(x, y, Relation.EQUAL)
