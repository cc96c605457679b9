"""Given candidates: the setter's pencil marks, each cell restricted to the digits listed."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from satsudoku.constraints import Allowed, Constraint
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Digit, Shape, cell_name
from satsudoku.rules import parse_cell, register_rule
from satsudoku.rules.fields import as_list, integer
from satsudoku.rules.schema import Declared, Kind, spec

Candidates = tuple[tuple[Cell, frozenset[Digit]], ...]  # in cell order


@dataclass(frozen=True)
class CandidateTable(Kind[Candidates]):
    """An object of cell: [digits], each cell once and each with at least one digit."""

    def read(self, value: Any, shape: Shape, where: str) -> Candidates:
        if not isinstance(value, Mapping):
            raise PuzzleError(f"{where} must be an object of cell: [digits], not {value!r}")
        found: dict[Cell, frozenset[Digit]] = {}
        for key, digits in value.items():
            cell = parse_cell(key, shape, where)
            at = f"{where}.{cell_name(cell)}"
            if cell in found:
                raise PuzzleError(f"{at} is listed twice")
            listed = [
                integer(d, f"{at}[{i}]", low=1, high=shape.size)
                for i, d in enumerate(as_list(digits, at))
            ]
            if not listed:
                raise PuzzleError(f"{at} lists no digit")
            found[cell] = frozenset(listed)
        return tuple(sorted(found.items()))

    def write(self, value: Candidates) -> dict[str, list[Digit]]:
        return {cell_name(cell): sorted(digits) for cell, digits in value}

    def describe(self) -> str:
        return 'object of cell: digits, e.g. {"r1c1": [1, 2]}; each cell once, ≥ 1 digit'


@register_rule("givencandidates")
@dataclass(frozen=True)
class GivenCandidates(Declared):
    """Each listed cell holds one of its listed digits (sukaku and pencil-mark puzzles).

    Meaning: f-puzzles' per-cell `givenPencilMarks` as rangsk's SudokuSolver reads them, and
    ISS's given-candidates cells (`~R1C1_1_2`: r1c1 is 1 or 2). Written as
    `candidates: {"r1c1": [1, 2], …}`.
    """

    type: ClassVar[str] = "givencandidates"
    candidates: Candidates = spec(CandidateTable())

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cell, digits in self.candidates:
            yield Allowed(cell, digits)
