"""Neighbourhood rules: anti-knight, anti-king and non-consecutive (the Miracle Sudoku trio)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from satsudoku.constraints import AllDifferent, Constraint, Pair, Relation
from satsudoku.grid import Shape
from satsudoku.rules import register_rule
from satsudoku.rules.fields import neighbours, orthogonal_pairs, same_house
from satsudoku.rules.schema import Declared, FpuzzlesKey

KNIGHT = ((1, -2), (1, 2), (2, -1), (2, 1))  # forward half: each pair is yielded once
KING = ((1, -1), (1, 1))  # the orthogonal king moves share a row or column already


def _apart(shape: Shape, offsets: tuple[tuple[int, int], ...]) -> Iterator[Constraint]:
    """Two-cell all-different groups for every pair at these offsets not already in a house."""
    peers = same_house(shape)
    for cell in shape.cells():
        for other in neighbours(cell, offsets, shape.size):
            if other not in peers[cell]:
                yield AllDifferent((cell, other))


@register_rule("antiknight")
@dataclass(frozen=True)
class AntiKnight(Declared):
    """Cells a chess knight's move apart hold different digits."""

    type: ClassVar[str] = "antiknight"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("antiknight", "flag")
    digit_symmetric: ClassVar[bool] = True  # relabelling digits keeps it

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        yield from _apart(shape, KNIGHT)


@register_rule("antiking")
@dataclass(frozen=True)
class AntiKing(Declared):
    """Cells a chess king's move apart (diagonally touching) hold different digits."""

    type: ClassVar[str] = "antiking"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("antiking", "flag")
    digit_symmetric: ClassVar[bool] = True  # relabelling digits keeps it

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        yield from _apart(shape, KING)


@register_rule("nonconsecutive")
@dataclass(frozen=True)
class Nonconsecutive(Declared):
    """Orthogonally adjacent cells never hold consecutive digits."""

    type: ClassVar[str] = "nonconsecutive"

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for a, b in orthogonal_pairs(shape):
            yield Pair(a, b, Relation.NOT_DIFFERENCE, 1)
