"""`--paint RRGGBB=rowindexer|columnindexer|boxindexer`: every cell painted the colour is an
indexer cell ("each digit in column 1 indicates which column the 1 appears in its respective
row"). Counts on bitmask, sat and cpsat equal a predicate written from the rules texts over all
288 4x4 grids; refusals; Nickleaton's two "159" files (skipped without the mirror)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.painted import parse_paint_type
from tests.mirrors import assert_published_unique
from tests.test_fpuzzles import GRIDS_4X4, fp_grid

Grid = tuple[tuple[int, ...], ...]
PAINTED = [(0, 0), (1, 0), (2, 1), (3, 3)]  # (row, col), 0-based


def column_indexed(g: Grid, r: int, c: int) -> bool:
    """rRcC holding X: the digit C sits in column X of row R (the 159 rules text)."""
    return g[r][g[r][c] - 1] == c + 1


def row_indexed(g: Grid, r: int, c: int) -> bool:
    """rRcC holding X: the digit R sits in row X of column C."""
    return g[g[r][c] - 1][c] == r + 1


def box_indexed(g: Grid, r: int, c: int) -> bool:
    """rRcC holding X: the X-th cell of its 2x2 box (reading order) holds the cell's own
    place in that box."""
    top, left = r - r % 2, c - c % 2
    place = (r - top) * 2 + (c - left) + 1
    x = g[r][c] - 1
    return g[top + x // 2][left + x % 2] == place


def painted_4x4(colour: str = "#FFD0D0") -> dict[str, Any]:
    grid = fp_grid(4, {(0, 1): 3})
    for r, c in PAINTED:
        grid[r][c]["c"] = colour
    return {"size": 4, "grid": grid}


@pytest.mark.parametrize(
    ("kind", "holds"),
    [("columnindexer", column_indexed), ("rowindexer", row_indexed), ("boxindexer", box_indexed)],
)
def test_counts_match_the_rules_text(kind: str, holds: Callable[[Grid, int, int], bool]) -> None:
    expected = sum(g[0][1] == 3 and all(holds(g, r, c) for r, c in PAINTED) for g in GRIDS_4X4)
    (puzzle,) = read_text(json.dumps(painted_4x4()), paints=[parse_paint_type(f"ffd0d0={kind}")])
    assert 0 < expected < sum(g[0][1] == 3 for g in GRIDS_4X4)
    for backend in ("bitmask", "sat", "cpsat"):
        found = get_backend(backend).solve(puzzle, limit=300).solutions
        assert len(found) == expected, (kind, backend)
        assert all(all(holds(tuple(s.rows()), r, c) for r, c in PAINTED) for s in found)


def test_an_unpainted_colour_is_one_line_refusal() -> None:
    with pytest.raises(PuzzleError, match="--paint 00FF00=columnindexer: no cell is painted"):
        read_text(json.dumps(painted_4x4()), paints=[parse_paint_type("00ff00=columnindexer")])


def test_an_unknown_paint_type_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["solve", "--paint", "ffd0d0=indexer", "-"])
    assert stop.value.code == 2
    assert "columnindexer" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["2e2zkum4", "2o24mj96"])
def test_published_159(name: str) -> None:
    assert_published_unique(name, paints=[parse_paint_type("ffd0d0=columnindexer")])
