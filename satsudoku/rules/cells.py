"""Cell rules: odd/even cells, minimum/maximum cells, quadruples and clones."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from satsudoku.constraints import Allowed, Constraint, Contains, Less, Pair, Relation
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Digit, Shape
from satsudoku.rules import parse_cell, register_rule
from satsudoku.rules.fields import (
    ORTHOGONAL,
    as_list,
    cells_of,
    check_fields,
    integer,
    names,
    neighbours,
)


@dataclass(frozen=True)
class _CellSet:
    """Shared by the rules whose only field is `cells`."""

    type: ClassVar[str]
    cells: tuple[Cell, ...]

    @classmethod
    def read(cls, spec: Mapping[str, Any], shape: Shape) -> tuple[Cell, ...]:
        check_fields(spec, {"cells"})
        return cells_of(spec["cells"], shape, "cells")

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type, "cells": names(self.cells)}


@register_rule("odd")
@dataclass(frozen=True)
class Odd(_CellSet):
    """The cells hold odd digits."""

    type: ClassVar[str] = "odd"

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Odd:
        return cls(cls.read(spec, shape))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        odd = frozenset(range(1, shape.size + 1, 2))
        for cell in self.cells:
            yield Allowed(cell, odd)


@register_rule("even")
@dataclass(frozen=True)
class Even(_CellSet):
    """The cells hold even digits."""

    type: ClassVar[str] = "even"

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Even:
        return cls(cls.read(spec, shape))

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

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Minimum:
        return cls(cls.read(spec, shape))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cell, other in _outside_neighbours(self.cells, shape):
            yield Less(cell, other)


@register_rule("maximum")
@dataclass(frozen=True)
class Maximum(_CellSet):
    """Each cell holds a larger digit than each orthogonal neighbour that is not itself one of
    these maximum cells (see `_outside_neighbours`)."""

    type: ClassVar[str] = "maximum"

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Maximum:
        return cls(cls.read(spec, shape))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cell, other in _outside_neighbours(self.cells, shape):
            yield Less(other, cell)


@register_rule("quadruple")
@dataclass(frozen=True)
class Quadruple:
    """Each clue's digits (repeats count) all appear in its cells, usually a 2×2 block."""

    type: ClassVar[str] = "quadruple"
    clues: tuple[tuple[tuple[Cell, ...], tuple[Digit, ...]], ...]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Quadruple:
        check_fields(spec, {"clues"})
        clues = []
        for i, item in enumerate(as_list(spec["clues"], "clues")):
            where = f"clues[{i}]"
            if not isinstance(item, Mapping) or set(item) != {"cells", "digits"}:
                raise PuzzleError(f"{where} must be an object with exactly 'cells' and 'digits'")
            cells = cells_of(item["cells"], shape, f"{where}.cells")
            raw = item["digits"]
            items = list(raw) if isinstance(raw, str) else as_list(raw, f"{where}.digits")
            digits = tuple(
                integer(d, f"{where}.digits[{k}]", low=1, high=shape.size)
                for k, d in enumerate(items)
            )
            if not 1 <= len(digits) <= len(cells):
                raise PuzzleError(f"{where}.digits: give 1..{len(cells)} digits")
            clues.append((cells, tuple(sorted(digits))))
        return cls(tuple(clues))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cells, digits in self.clues:
            yield Contains(cells, digits)

    def to_spec(self) -> dict[str, Any]:
        clues = [{"cells": names(cells), "digits": list(digits)} for cells, digits in self.clues]
        return {"type": self.type, "clues": clues}


@register_rule("clone")
@dataclass(frozen=True)
class Clone:
    """Each pair of equally shaped regions holds the same digits in corresponding cells.

    `pairs`: a list of [cells_a, cells_b]; a single cell may stand for a one-cell region.
    """

    type: ClassVar[str] = "clone"
    digit_symmetric: ClassVar[bool] = True  # relabelling digits keeps it
    pairs: tuple[tuple[tuple[Cell, ...], tuple[Cell, ...]], ...]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Clone:
        check_fields(spec, {"pairs"})
        pairs = []
        for i, item in enumerate(as_list(spec["pairs"], "pairs")):
            where = f"pairs[{i}]"
            sides = as_list(item, where)
            if len(sides) != 2:
                raise PuzzleError(f"{where} must be [cells_a, cells_b]")
            a, b = (
                (parse_cell(side, shape, f"{where}[{k}]"),)
                if isinstance(side, str)
                else cells_of(side, shape, f"{where}[{k}]")
                for k, side in enumerate(sides)
            )
            if len(a) != len(b):
                raise PuzzleError(f"{where}: the two regions have {len(a)} and {len(b)} cells")
            pairs.append((a, b))
        return cls(tuple(pairs))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for a, b in self.pairs:
            for x, y in zip(a, b, strict=True):
                yield Pair(x, y, Relation.EQUAL)

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type, "pairs": [[names(a), names(b)] for a, b in self.pairs]}
