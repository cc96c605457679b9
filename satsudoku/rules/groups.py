"""Rules that add all-different groups: disjoint groups, windoku windows, extra regions."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from satsudoku.constraints import AllDifferent, Constraint
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Shape
from satsudoku.rules import register_rule
from satsudoku.rules.schema import Cells, Declared, spec


def _regular(shape: Shape, rule: str) -> None:
    if shape.is_jigsaw:
        raise PuzzleError(f"{rule} needs regular boxes, not jigsaw regions")


class _BoxRule(Declared):
    """Base of the rules defined by the regular boxes; a jigsaw board is refused up front."""

    @classmethod
    def admit(cls, shape: Shape) -> None:
        _regular(shape, cls.type)


@register_rule("disjointgroups")
@dataclass(frozen=True)
class DisjointGroups(_BoxRule):
    """Cells in the same position of every box hold different digits."""

    type: ClassVar[str] = "disjointgroups"
    digit_symmetric: ClassVar[bool] = True  # relabelling digits keeps it

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        _regular(shape, "disjointgroups")
        boxes = list(shape.regions())
        for position in range(shape.size):
            yield AllDifferent(tuple(box[position] for box in boxes))


@register_rule("windoku")
@dataclass(frozen=True)
class Windoku(_BoxRule):
    """Extra box-sized windows, one cell in from the edges and one apart, hold every digit once
    (the four windows of a 9×9 at rows/columns 2–4 and 6–8)."""

    type: ClassVar[str] = "windoku"
    digit_symmetric: ClassVar[bool] = True  # relabelling digits keeps it

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        _regular(shape, "windoku")
        n, rows, cols = shape.size, shape.box_rows, shape.box_cols
        for top in range(1, n - rows, rows + 1):
            for left in range(1, n - cols, cols + 1):
                yield AllDifferent(
                    tuple((top + r, left + c) for r in range(rows) for c in range(cols))
                )


@register_rule("extraregion")
@dataclass(frozen=True)
class ExtraRegion(Declared):
    """The given cells hold different digits (all n of them when the region has n cells)."""

    type: ClassVar[str] = "extraregion"
    digit_symmetric: ClassVar[bool] = True  # relabelling digits keeps it
    cells: tuple[Cell, ...] = spec(Cells(minimum=2))

    def validate(self, shape: Shape) -> None:
        if len(self.cells) > shape.size:
            raise PuzzleError(f"cells: {len(self.cells)} cells cannot hold different digits 1..n")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        yield AllDifferent(self.cells)
