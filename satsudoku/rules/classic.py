"""Rules built only from all-different groups: the classic houses every puzzle has, and the
diagonals of X-Sudoku."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from satsudoku.constraints import AllDifferent, Constraint
from satsudoku.errors import PuzzleError
from satsudoku.grid import Shape
from satsudoku.rules import register_rule


@dataclass(frozen=True)
class Classic:
    """Rows, columns and regions (boxes or jigsaw) each hold every digit once.

    Every puzzle obeys it, so it is not listed among a puzzle's rules; it goes through the
    same Rule mechanism as the variants, so backends see no difference between the two.
    """

    type: ClassVar[str] = "classic"
    digit_symmetric: ClassVar[bool] = True  # relabelling digits keeps it

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for house in shape.houses():
            yield AllDifferent(house)

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type}


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
        kind = spec["type"]
        unknown = set(spec) - {"type"}
        if unknown:
            raise PuzzleError(f"unexpected field {sorted(unknown)[0]!r}")
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
