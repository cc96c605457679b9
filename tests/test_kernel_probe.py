"""Shallow probing (`satsudoku.search.probe`): it removes only digits no solution uses, so
counts stay exact, and it fails a node only when the node has no solution. Checked against
the grid-by-grid oracle of tests/test_rules.py and known solutions."""

from __future__ import annotations

from pathlib import Path

import pytest

from satsudoku.backends import bitmask
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_text
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from satsudoku.search.kernel import search_kernel
from satsudoku.search.probe import probe
from tests.test_bitmask_reference import KILLER, at
from tests.test_rules import FIRST_ROW, Rows, all_6x6_first_row


@pytest.mark.slow  # the oracle's walk over 9,408 grids: 2-5 s
def test_probing_everywhere_keeps_the_killer_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """Probing every open cell at every depth, on a 6×6 with the first three cages of
    test_bitmask_reference's killer (many solutions): the oracle's count, each grid a real
    one (a probe that dropped a solution's digit would lose grids)."""
    monkeypatch.setattr(bitmask, "_PROBE_DEPTH", 99)
    monkeypatch.setattr(bitmask, "_PROBE_WIDEST", 6)
    monkeypatch.setattr(bitmask, "_PROBE_WIDEST_BELOW", 6)
    cages = KILLER[:3]
    spec = {"type": "killer", "cages": [{"cells": c, "sum": t} for c, t in cages]}
    puzzle = Puzzle(Shape(2, 3), FIRST_ROW, (make_rule(spec, Shape(2, 3)),))

    def fits(g: Rows) -> bool:
        return all(
            sum(at(g, c) for c in cells) == total and len({at(g, c) for c in cells}) == len(cells)
            for cells, total in cages
        )

    expected = sum(map(fits, all_6x6_first_row()))
    result = BitmaskBackend().solve(puzzle, limit=expected + 1)
    assert result.exhausted and result.count == expected == 216
    grids = {g.values for g in result.solutions}
    assert len(grids) == expected
    assert all(fits(tuple(g[r * 6 : r * 6 + 6] for r in range(6))) for g in grids)


def forum_36(shared_data: Path, given: int) -> tuple[Puzzle, Grid]:
    """Forum killer line 36 (unique, no givens) with its solution's first `given` cells given."""
    line = (shared_data / "killer-hard-forum-9x9.txt").read_text().splitlines()[35]
    (puzzle,) = read_text(line, fmt="killer")
    assert puzzle.solution is not None
    values = puzzle.solution.values
    grid = Grid(9, tuple(values[:given]) + (0,) * (81 - given))
    return Puzzle(puzzle.shape, grid, puzzle.rules), puzzle.solution


def test_a_probe_at_the_root_finds_the_solution(shared_data: Path) -> None:
    """Three cells of forum killer 36 given: propagation leaves hundreds of candidates, a
    probe of the cells of 2-3 candidates leaves exactly the solution."""
    puzzle, solution = forum_36(shared_data, 3)
    kernel = search_kernel(puzzle)
    root = kernel.initial(puzzle.givens.values)
    assert root is not None and kernel.settle(root, (1 << len(kernel.houses)) - 1, False)
    assert sum(map(int.bit_count, root)) > 500
    assert probe(kernel, root, False, 10_000) > 0
    assert tuple(map(kernel.digit, root)) == solution.values
    assert all(m.bit_count() == 1 for m in root)


def test_a_probe_fails_wrong_digits(shared_data: Path) -> None:
    """Two cells given; each other digit of r1c3 has no solution (the puzzle is unique):
    propagation fails one of the six (9, since the implied sums keep exact supports), the
    probe fails the other five (five of six before the mixed and box-union innies and
    outies; one it kept would have to stay open, not placed)."""
    puzzle, solution = forum_36(shared_data, 2)
    kernel = search_kernel(puzzle)
    root = kernel.initial(puzzle.givens.values)
    assert root is not None and kernel.settle(root, (1 << len(kernel.houses)) - 1, False)
    outcomes = []
    for bit in kernel.bit:
        if root[2] & bit and kernel.digit(bit) != solution.values[2]:
            node = root.copy()
            dirty = kernel.assign(node, 2, bit)
            if dirty < 0 or not kernel.settle(node, dirty, False):
                outcomes.append(None)
                continue
            outcomes.append(probe(kernel, node, False, 10_000))
            assert outcomes[-1] < 0 or any(m.bit_count() > 1 for m in node)
    assert outcomes == [-1, -1, -1, -1, -1, None]  # digits 1, 2, 5, 7, 8, 9


@pytest.mark.slow  # 226-499 nodes with probing, 2-5 s CPU; no answer in 6,700 nodes without
def test_forum_killer_36_settles(shared_data: Path) -> None:
    line = (shared_data / "killer-hard-forum-9x9.txt").read_text().splitlines()[35]
    (puzzle,) = read_text(line, fmt="killer")
    result = BitmaskBackend().solve(puzzle, limit=2)
    assert result.status is Status.UNIQUE and result.exhausted
    assert result.solution is not None and result.solution == puzzle.solution
