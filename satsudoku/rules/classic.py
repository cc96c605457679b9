"""Rules built only from all-different groups: the classic houses every puzzle has, and the
diagonals of X-Sudoku."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from satsudoku.constraints import AllDifferent, Constraint
from satsudoku.grid import Shape
from satsudoku.rules import register_rule
from satsudoku.rules.fields import check_fields
from satsudoku.rules.schema import Declared


@dataclass(frozen=True)
class Classic(Declared):
    """Rows, columns and regions (boxes or jigsaw) each hold every digit once.

    Every puzzle obeys it, so it is not listed among a puzzle's rules; it goes through the
    same Rule mechanism as the variants, so backends see no difference between the two.
    """

    type: ClassVar[str] = "classic"
    digit_symmetric: ClassVar[bool] = True  # relabelling digits keeps it

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for house in shape.houses():
            yield AllDifferent(house)


CLASSIC = Classic()


@register_rule("diagonal", "diagonal+", "diagonal-")
@dataclass(frozen=True)
class Diagonal:
    """Main diagonals hold every digit once (X-Sudoku); `diagonal+` is the anti-diagonal
    (bottom-left to top-right, f-puzzles' naming), `diagonal-` the main one."""

    type: ClassVar[str] = "diagonal"
    digit_symmetric: ClassVar[bool] = True  # relabelling digits keeps it
    positive: bool = True
    negative: bool = True

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Diagonal:
        check_fields(spec, set())  # the type name says which diagonals; there are no fields
        kind = spec["type"]
        return cls(positive=kind != "diagonal-", negative=kind != "diagonal+")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        n = shape.size
        if self.negative:
            yield AllDifferent(tuple((i, i) for i in range(n)))
        if self.positive:
            yield AllDifferent(tuple((n - 1 - i, i) for i in range(n)))

    def to_spec(self) -> dict[str, Any]:
        if self.positive and self.negative:
            return {"type": "diagonal"}
        return {"type": "diagonal+" if self.positive else "diagonal-"}
