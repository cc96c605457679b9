"""f-puzzles keys of the rule families added for issue 9 §3 (rangsk's f-puzzles extensions, as
his SudokuSolver reads them): outside clues, indexer cells and given pencil marks."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from satsudoku.io.fpuzzles_numbers import clue_number
from satsudoku.rules.outside import SIDES

Translator = Callable[[Any, int], list[dict[str, Any]]]
_CELL = re.compile(r"^R([0-9]{1,20})C([0-9]{1,20})$", re.IGNORECASE)  # ASCII, bounded for int()


def outside_side(name: str, size: int) -> tuple[str, int]:
    """Where a clue cell beside the grid stands: R0Cc is above column c, R(n+1)Cc below it,
    RrC0 left of row r, RrC(n+1) right of it; returns (side, 0-based row or column)."""
    match = _CELL.match(name)
    if not match:
        raise ValueError(f"clue cell {name!r} is not RrCc")
    r, c = int(match.group(1)), int(match.group(2))
    if r in (0, size + 1) and 1 <= c <= size:
        return ("top" if r == 0 else "bottom"), c - 1
    if c in (0, size + 1) and 1 <= r <= size:
        return ("left" if c == 0 else "right"), r - 1
    raise ValueError(f"clue cell {name!r} is not beside the grid")


def outside_rule(kind: str) -> Translator:
    """`[{cell: "R0C3", value: "15"}, …]` → one rule with `left/right/top/bottom` lists."""

    def translate(value: Any, size: int) -> list[dict[str, Any]]:
        sides: dict[str, list[int | None]] = {}
        for entry in value:
            text = str(entry.get("value", "")).strip()
            if not text:
                continue  # an empty clue box draws nothing
            side, index = outside_side(str(entry["cell"]), size)
            line, clue = sides.setdefault(side, [None] * size), clue_number(text)
            if clue == 0:  # the rule reads 0 as "no clue": a written 0 would vanish unseen
                raise ValueError(f"clue 0 at {entry['cell']}: no {kind} clue is 0")
            if line[index] not in (None, clue):
                raise ValueError(f"two clues at {entry['cell']}: {line[index]} and {clue}")
            line[index] = clue
        if not sides:
            return []
        return [{"type": kind, **{side: sides[side] for side in SIDES if side in sides}}]

    return translate


def indexer(kind: str) -> Translator:
    """`[{cells: [...]}, …]` of rowindexer / columnindexer / boxindexer → an `indexer` rule."""

    def translate(value: Any, size: int) -> list[dict[str, Any]]:
        cells = [str(c).lower() for entry in value for c in entry["cells"]]
        return [{"type": "indexer", kind: list(dict.fromkeys(cells))}] if cells else []

    return translate


def given_pencil_marks(grid: list[Any], size: int) -> list[dict[str, Any]]:
    """Cells' `givenPencilMarks` (setter's candidates, ignored under a given digit) → one
    `givencandidates` rule; an empty list restricts nothing."""
    candidates: dict[str, list[int]] = {}
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if not isinstance(cell, Mapping) or (cell.get("given") and cell.get("value")):
                continue
            marks = cell.get("givenPencilMarks")
            if marks is None or marks == []:
                continue
            if not isinstance(marks, list) or not all(
                type(d) is int and 1 <= d <= size for d in marks
            ):
                where = f"r{r + 1}c{c + 1}"
                raise ValueError(f"{where}: digits must be 1..{size}, not {marks!r:.40}")
            candidates[f"r{r + 1}c{c + 1}"] = sorted(set(marks))
    return [{"type": "givencandidates", "candidates": candidates}] if candidates else []
