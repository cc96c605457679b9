"""The reference search's branching on sandwich crusts (`_Kernel.crust_places`): counts on
random 4×4 clue sets equal brute force over all 288 grids, a 9×9 of twelve equal clues that
had no answer in 2,000 nodes settles within 300, and its search-tree proof still verifies."""

from __future__ import annotations

import random

import pytest

from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.grid import Grid, Shape
from satsudoku.proof.certificate import check_certificate
from satsudoku.proof.search_proof import prove_by_search
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from satsudoku.search.kernel import search_kernel
from tests.test_rules import all_4x4, col, sandwich

Clues = list[int | None]


def _puzzle(shape: Shape, rows: Clues, cols: Clues) -> Puzzle:
    rule = make_rule({"type": "sandwich", "rows": rows, "cols": cols}, shape)
    return Puzzle(shape, Grid.empty(shape.size), (rule,))


def test_4x4_random_clue_sets_count_as_brute_force() -> None:
    """60 clue sets: read off a random grid, one clue in three redrawn (some sets have no
    grid); each line clued with probability 0.6. Every count exact, from 0 to 288."""
    grids = all_4x4()
    rng = random.Random(71)
    counts = set()
    for _ in range(60):
        grid = rng.choice(grids)
        rows: Clues = [None] * 4
        cols: Clues = [None] * 4
        for i in range(4):
            if rng.random() < 0.6:
                rows[i] = sandwich(grid[i], 4) if rng.random() < 0.67 else rng.randrange(6)
            if rng.random() < 0.6:
                cols[i] = sandwich(col(grid, i), 4) if rng.random() < 0.67 else rng.randrange(6)
        expected = sum(
            1
            for g in grids
            if all(t is None or sandwich(g[r], 4) == t for r, t in enumerate(rows))
            and all(t is None or sandwich(col(g, c), 4) == t for c, t in enumerate(cols))
        )
        result = BitmaskBackend().solve(_puzzle(Shape(2, 2), rows, cols), limit=300)
        assert result.exhausted and result.count == expected, (rows, cols)
        counts.add(expected)
    assert 0 in counts and len(counts) > 5


# Twelve lines clued 10 on an empty 9×9 (random lines): no grid, as SAT says. Fewest-candidate
# cells alone: no answer in 2,000 nodes (8.8 s CPU); branching on where the crusts go: 54.
TWELVE_TENS = (
    [10, None, None, 10, 10, 10, None, 10, None],
    [10, 10, 10, 10, 10, None, 10, None, 10],
)


def test_crusts_are_branched_on_where_they_have_fewest_places() -> None:
    puzzle = _puzzle(Shape(3, 3), *TWELVE_TENS)
    kernel = search_kernel(puzzle)
    root = kernel.initial(puzzle.givens.values)
    assert root is not None
    places = kernel.crust_places(root)
    cells = {cell for cell, _ in places}
    assert len(places) >= 2 and len({bit for _, bit in places}) == 1
    assert any(set(line[0]) >= cells for line in kernel.crusts)  # one line's cells
    result = BitmaskBackend().solve(puzzle, max_nodes=300)
    assert result.status is Status.UNSATISFIABLE


@pytest.mark.slow  # ~4 s: the proof search checks its lemmas as it goes
def test_the_crust_search_is_certified() -> None:
    found = prove_by_search(_puzzle(Shape(3, 3), *TWELVE_TENS))
    assert found.status == "unsatisfiable" and found.certificate is not None
    check = check_certificate(found.certificate)
    assert check.ok, check.messages
