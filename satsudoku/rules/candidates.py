"""Given candidates: the setter's pencil marks, each cell restricted to the digits listed."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from satsudoku.constraints import Allowed, Constraint
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Digit, Shape, cell_name
from satsudoku.rules import parse_cell, register_rule
from satsudoku.rules.fields import as_list, check_fields, integer


@register_rule("givencandidates")
@dataclass(frozen=True)
class GivenCandidates:
    """Each listed cell holds one of its listed digits (sukaku and pencil-mark puzzles).

    Meaning: f-puzzles' per-cell `givenPencilMarks` as rangsk's SudokuSolver reads them, and
    ISS's given-candidates cells (`~R1C1_1_2`: r1c1 is 1 or 2). Written as
    `candidates: {"r1c1": [1, 2], …}`.
    """

    type: ClassVar[str] = "givencandidates"
    candidates: tuple[tuple[Cell, frozenset[Digit]], ...]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> GivenCandidates:
        check_fields(spec, {"candidates"})
        table = spec["candidates"]
        if not isinstance(table, Mapping):
            raise PuzzleError(f"candidates must be an object of cell: [digits], not {table!r}")
        found: dict[Cell, frozenset[Digit]] = {}
        for key, value in table.items():
            cell = parse_cell(key, shape, "candidates")
            where = f"candidates.{cell_name(cell)}"
            if cell in found:
                raise PuzzleError(f"{where} is listed twice")
            digits = [
                integer(d, f"{where}[{i}]", low=1, high=shape.size)
                for i, d in enumerate(as_list(value, where))
            ]
            if not digits:
                raise PuzzleError(f"{where} lists no digit")
            found[cell] = frozenset(digits)
        return cls(tuple(sorted(found.items())))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cell, digits in self.candidates:
            yield Allowed(cell, digits)

    def to_spec(self) -> dict[str, Any]:
        table = {cell_name(cell): sorted(digits) for cell, digits in self.candidates}
        return {"type": self.type, "candidates": table}
