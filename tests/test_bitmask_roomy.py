"""Least-constraining child order under restarts (`bitmask._ROOMY_SHARE`): it only reorders
children, so verdicts, counts and solutions stay exact whatever share of nodes uses it."""

from __future__ import annotations

import pytest

from satsudoku.backends import bitmask
from satsudoku.backends.bitmask import BitmaskBackend, _room
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.search.kernel import search_kernel
from tests.conftest import REPO

backend = BitmaskBackend()


def valid(grid: Grid, box: int) -> bool:
    n = grid.size
    rows = [grid.values[r * n : r * n + n] for r in range(n)]
    units = [*rows, *zip(*rows, strict=True)]
    units += [
        [rows[r + i][c + j] for i in range(box) for j in range(box)]
        for r in range(0, n, box)
        for c in range(0, n, box)
    ]
    return all(sorted(u) == list(range(1, n + 1)) for u in units)


@pytest.mark.parametrize("share", [0.0, 0.5, 1.0])
def test_every_share_keeps_verdicts_exact(monkeypatch: pytest.MonkeyPatch, share: float) -> None:
    """Restarts on every board after 1, 1, 2, … failures, so many runs reorder children."""
    monkeypatch.setattr(bitmask, "_RESTART_FROM", 1)
    monkeypatch.setattr(bitmask, "_RESTART_UNIT", 1)
    monkeypatch.setattr(bitmask, "_ROOMY_SHARE", share)
    (unique,) = read_puzzles(REPO / "models" / "classic" / "ai-escargot.toml")
    result = backend.solve(unique)
    assert result.status is Status.UNIQUE and result.solution == unique.solution
    result = backend.solve(Puzzle.empty(Shape(2, 2)), limit=2)
    assert result.status is Status.MULTIPLE and len({g.values for g in result.solutions}) == 2
    assert all(valid(g, 2) for g in result.solutions)
    clash = Puzzle(Shape(2, 2), Grid(4, (1, 0, 0, 0, 0, 1) + (0,) * 10), ())
    assert backend.solve(clash).status is Status.UNSATISFIABLE


def test_room_counts_candidates_and_placed_cells() -> None:
    puzzle = Puzzle.empty(Shape(2, 2))
    kernel = search_kernel(puzzle)
    root = kernel.initial(puzzle.givens.values)
    assert root is not None and _room(root) == 16 * 4
    assert kernel.assign(root, 0, kernel.bit[0]) >= 0  # r1c1 = 1: 7 peers lose the 1
    assert _room(root) == 64 - 3 - 7
