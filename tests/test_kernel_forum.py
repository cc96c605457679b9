"""The reference on a hard forum killer: no givens, cages of 4-5 cells, the kind of puzzle
its innie/outie sums and conflict scores are there for (docs/backends.md)."""

from __future__ import annotations

import pytest

from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.io import read_text

# Line 40 of ../shared/data/killer-hard-forum-9x9.txt (cage letters, cage sums, no solution).
FORUM_40 = (
    "AABBBCCCDEAAABBCDDEEFFFFGDHEIFJGGGDHIIKJJJGHHILKKKJMHNILKMMMMNNLLOPPQQQNLOOOPPPQQ "
    "17,28,20,21,24,27,34,15,24,31,20,25,28,22,18,22,29 -"
)
SOLUTION_40 = "537184296812693574964725813159847632728356941643219758476938125391562487285471369"


@pytest.mark.slow  # 32 nodes with probing, ~0.5 s CPU (3,148 nodes, 3-6 s without)
def test_forum_killer_40_settles_to_its_solution() -> None:
    (puzzle,) = read_text(FORUM_40, fmt="killer")
    result = BitmaskBackend().solve(puzzle, limit=2)
    assert result.exhausted and result.count == 1
    assert result.solution is not None
    assert "".join(map(str, result.solution.values)) == SOLUTION_40
