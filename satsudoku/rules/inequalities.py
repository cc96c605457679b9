"""Inequality signs: the digit on the open side of a sign is greater than the one it points to."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from satsudoku.constraints import Constraint, Less
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Shape, cell_name
from satsudoku.rules import parse_cell, register_rule
from satsudoku.rules.fields import adjacent, as_list, check_fields


@register_rule("greaterthan")
@dataclass(frozen=True)
class GreaterThan:
    """Each sign sits on the border of two orthogonally adjacent cells: in `[a, b]`, `a` holds
    the greater digit (the sign reads a > b).

    Meaning: ISS `GreaterThan` ("a cell must be greater than any later adjacent cells"; a group
    `GreaterThan~A~B~C` is the pairs A > B and A > C here) and the inequality signs of
    greater-than (futoshiki-style) sudoku. f-puzzles has no key for it.
    """

    type: ClassVar[str] = "greaterthan"
    pairs: tuple[tuple[Cell, Cell], ...]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> GreaterThan:
        check_fields(spec, {"pairs"})
        pairs = []
        for i, item in enumerate(as_list(spec["pairs"], "pairs")):
            pair = as_list(item, f"pairs[{i}]")
            if len(pair) != 2:
                raise PuzzleError(f"pairs[{i}] must name exactly two cells, greater first")
            a, b = (parse_cell(c, shape, f"pairs[{i}][{k}]") for k, c in enumerate(pair))
            if not adjacent(a, b):
                raise PuzzleError(f"pairs[{i}]: {cell_name(a)} and {cell_name(b)} are not adjacent")
            pairs.append((a, b))
        return cls(tuple(pairs))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for greater, smaller in self.pairs:
            yield Less(smaller, greater)

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type, "pairs": [[cell_name(a), cell_name(b)] for a, b in self.pairs]}
