"""Inequality signs: the digit on the open side of a sign is greater than the one it points to."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from satsudoku.constraints import Constraint, Less
from satsudoku.grid import Cell, Shape
from satsudoku.rules import register_rule
from satsudoku.rules.schema import CellPair, Declared, ListOf, spec


@register_rule("greaterthan")
@dataclass(frozen=True)
class GreaterThan(Declared):
    """Each sign sits on the border of two orthogonally adjacent cells: in `[a, b]`, `a` holds
    the greater digit (the sign reads a > b).

    Meaning: ISS `GreaterThan` ("a cell must be greater than any later adjacent cells"; a group
    `GreaterThan~A~B~C` is the pairs A > B and A > C here) and the inequality signs of
    greater-than (futoshiki-style) sudoku. f-puzzles has no key for it.
    """

    type: ClassVar[str] = "greaterthan"
    pairs: tuple[tuple[Cell, Cell], ...] = spec(ListOf(CellPair("greater first")))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for greater, smaller in self.pairs:
            yield Less(smaller, greater)
