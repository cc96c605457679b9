"""Line rules about equal sums: zipper lines, region sum lines and double arrows, all posted as
`Sum` (linear equalities every backend handles natively; digits may repeat off-house)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from satsudoku.constraints import Constraint, Sum
from satsudoku.grid import Cell, Shape
from satsudoku.rules import register_rule
from satsudoku.rules.fields import distinct_positions
from satsudoku.rules.lines import LineRule, Lines, lines_field
from satsudoku.rules.schema import FpuzzlesKey


def equal_sums(first: tuple[Cell, ...], second: tuple[Cell, ...], shape: Shape) -> Sum:
    """Σ first == Σ second, with the cells that share a house marked distinct."""
    cells = first + second
    weights = (1,) * len(first) + (-1,) * len(second)
    return Sum(cells, 0, weights, distinct_positions(cells, shape))


@register_rule("zipperline")
@dataclass(frozen=True)
class ZipperLine(LineRule):
    """Cells at equal distance from a line's centre add up to the same total; on a line of odd
    length that total is the centre digit.

    Meaning: ISS `Zipper` ("digits which are equal distance from the center of the zipper have
    the same sum; for odd length lines, the center digit is the sum") and rangsk's SudokuSolver
    `zipperline`.
    """

    type: ClassVar[str] = "zipperline"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("zipperline", "lines")
    lines: Lines = lines_field(minimum=3)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            k = len(line)
            pairs = [(line[i], line[k - 1 - i]) for i in range(k // 2)]
            if k % 2:
                centre = line[k // 2]
                for pair in pairs:
                    yield equal_sums(pair, (centre,), shape)
            else:
                for pair, following in zip(pairs, pairs[1:], strict=False):
                    yield equal_sums(pair, following, shape)


def region_segments(line: tuple[Cell, ...], shape: Shape) -> list[tuple[Cell, ...]]:
    """The line cut where it crosses a region border: runs of consecutive cells in one region."""
    region_of = {cell: i for i, region in enumerate(shape.regions()) for cell in region}
    segments: list[list[Cell]] = []
    for cell in line:
        if segments and region_of[segments[-1][-1]] == region_of[cell]:
            segments[-1].append(cell)
        else:
            segments.append([cell])
    return [tuple(segment) for segment in segments]


@register_rule("regionsumline")
@dataclass(frozen=True)
class RegionSumLine(LineRule):
    """Region borders cut each line into segments that all have the same sum; a line that
    enters a region twice has two segments there, each with that sum.

    Meaning: ISS `RegionSumLine` ("values on the line have an equal sum N within each box it
    passes through; if a line passes through the same box more than once, each individual
    segment of such a line within that box sums to N separately"; jigsaw regions when there
    are no boxes) and f-puzzles key `regionsumline` as rangsk's SudokuSolver reads it.
    """

    type: ClassVar[str] = "regionsumline"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("regionsumline", "lines")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            segments = region_segments(line, shape)
            for first, second in zip(segments, segments[1:], strict=False):
                yield equal_sums(first, second, shape)


@register_rule("doublearrow")
@dataclass(frozen=True)
class DoubleArrow(LineRule):
    """The digits strictly inside a line add up to the sum of its two ends (its two circles).

    Meaning: ISS `DoubleArrow` ("the sum of the values along the line equal the sum of the
    values in the circles", the circles at both ends) and rangsk's SudokuSolver `doublearrow`.
    """

    type: ClassVar[str] = "doublearrow"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("doublearrow", "lines")
    lines: Lines = lines_field(minimum=3)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            yield equal_sums((line[0], line[-1]), line[1:-1], shape)
