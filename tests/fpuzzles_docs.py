"""f-puzzles documents the line-type tests build: one shared shape, so each test file states
only its lines and colours."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence


def lines_document(
    size: int,
    lines: Sequence[tuple[str, Sequence[str]]],
    width: float = 0.5,
    givens: Mapping[tuple[int, int], int] | None = None,
) -> str:
    """An f-puzzles document of `size` with each (colour, cells) drawn as a line of `width`;
    a 6×6 has its first row 123456 given, as the brute-force oracle's grids do
    (tests.test_rules.all_6x6_first_row), plus `givens` ((row, column) from 0: digit)."""
    drawn = [
        {"lines": [list(cells)], "outlineC": colour, "width": width} for colour, cells in lines
    ]
    grid: list[list[dict[str, object]]] = [[{} for _ in range(size)] for _ in range(size)]
    if size == 6:
        grid[0] = [{"value": d, "given": True} for d in range(1, 7)]
    for (r, c), d in (givens or {}).items():
        grid[r][c] = {"value": d, "given": True}
    return json.dumps({"size": size, "grid": grid, "line": drawn})
