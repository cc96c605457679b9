"""Conflict scores as the tie-break of restarted searches (`bitmask._Search.heat`): they only
choose among the fewest-candidate cells, so verdicts stay exact (the restart tests run with
them); what they change is which cell, and how many nodes a band line takes."""

from __future__ import annotations

from pathlib import Path

from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.grid import Shape
from satsudoku.io import read_text
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.search.kernel import search_kernel


def test_heat_breaks_ties_among_the_fewest_candidates_only() -> None:
    puzzle = Puzzle.empty(Shape(2, 2))
    kernel = search_kernel(puzzle)
    root = kernel.initial(puzzle.givens.values)
    assert root is not None and kernel.assign(root, 0, kernel.bit[0]) >= 0
    # r1c1 = 1: its row, column and box peers (cells 1-5, 8, 12) keep 3 digits, each with 6
    # open peers, the other cells 4.
    heat = [0] * 16
    assert kernel.branch_cell(root) == kernel.branch_cell(root, heat) == 1
    heat[6] = 9  # 4 candidates: never before a cell of 3
    heat[3] = heat[12] = 2
    assert kernel.branch_cell(root, heat) == 3  # equal heat and degree: the first
    heat[12] = 3
    assert kernel.branch_cell(root, heat) == 12


def test_a_band_line_settles_in_fewer_nodes(shared_data: Path) -> None:
    """25x25-lewis-general.txt line 912 (45 % given, several solutions): 1,189 nodes with open
    peers alone as the tie-break, 79 with conflict scores first. (Before naked and hidden pairs
    ran at every node the example was line 920: 916 and 218; with them it takes 1,388.)"""
    line = (shared_data / "25x25-lewis-general.txt").read_text().splitlines()[911]
    (puzzle,) = read_text(line, box=(5, 5))
    result = BitmaskBackend().solve(puzzle, limit=2, max_nodes=2000)
    assert result.status is Status.MULTIPLE and len(set(result.solutions)) == 2
    assert int(result.stats["nodes"]) <= 400
