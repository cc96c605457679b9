"""The sums a killer's cages and houses imply (innies and outies, `search.sums.implied_sums`),
and the bitmask reference's use of them, against a brute-force oracle: every one of the 39,168
6×6 grids with first row 123456 (tests/test_rules.py), filtered by the cages."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.grid import Shape
from satsudoku.io import read_text
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from satsudoku.search import kernel as kernel_module
from satsudoku.search.kernel import search_kernel
from satsudoku.search.sums import implied_sums
from tests.test_rules import FIRST_ROW, Rows, all_6x6_first_row

N = 6
# Cages read off 123456 / 564123 / 351642 / 246531 / 412365 / 635214 (12 grids fit them). Row 3
# meets three: r3c5-r3c6-r4c6 mostly inside it (counted whole, r4c6 an outie), r3c3-r4c3-r4c2
# and r2c4-r3c4 mostly outside (their cells in row 3 are innies): r3c1 + r3c2 + r3c3 + r3c4 -
# r4c6 = 21 - 7, five terms where all innies or all outies take six.
CAGES = [
    (["r1c1", "r1c2", "r2c1"], 8),
    (["r3c3", "r4c3", "r4c2"], 11),
    (["r2c4", "r3c4"], 7),
    (["r3c5", "r3c6", "r4c6"], 7),
]


@cache  # the oracles look cells up by name for every grid
def flat(name: str) -> int:
    r, c = name[1:].split("c")
    return (int(r) - 1) * N + int(c) - 1


def killer(g: Rows) -> bool:
    return all(
        sum(g[r][c] for r, c in cells) == total and len({g[r][c] for r, c in cells}) == len(cells)
        for cells, total in _AT
    )


_AT = [([divmod(flat(name), N) for name in cells], total) for cells, total in CAGES]


def houses() -> Iterator[tuple[int, ...]]:
    yield from (tuple(r * N + c for c in range(N)) for r in range(N))
    yield from (tuple(r * N + c for r in range(N)) for c in range(N))
    for br in range(0, N, 2):
        for bc in range(0, N, 3):
            yield tuple((br + r) * N + bc + c for r in range(2) for c in range(3))


def killer_puzzle() -> Puzzle:
    spec = {"type": "killer", "cages": [{"cells": c, "sum": t} for c, t in CAGES]}
    return Puzzle(Shape(2, 3), FIRST_ROW, (make_rule(spec, Shape(2, 3)),))


def test_every_implied_sum_holds_on_every_grid_of_the_cages() -> None:
    """All implied sums of any length (unions of rows, columns and of consecutive boxes, with
    innies, outies and both mixed) hold on each grid the oracle accepts."""
    grids = [g for g in all_6x6_first_row() if killer(g)]
    assert len(grids) > 1
    cages = [(tuple(map(flat, cells)), total) for cells, total in CAGES]
    sums = implied_sums(N, list(houses()), cages, limit=N * N)
    assert ((12, 13, 14, 15, 23), (1, 1, 1, 1, -1), 14) in sums  # mixed, see CAGES
    left_boxes = {r * N + c for r in range(4) for c in range(3)}  # boxes 1 and 3: no lines'
    assert any(set(cells) <= left_boxes and len(cells) < 12 for cells, _, _ in sums)
    assert len(sums) > 40
    for cells, weights, total in sums:
        for g in grids:
            assert sum(w * g[i // N][i % N] for i, w in zip(cells, weights, strict=True)) == total


def test_implied_sums_hold_on_the_grid_of_random_cages() -> None:
    """Cages of 1-5 cells cut at random out of 100 of the oracle's grids, with the sums those
    grids give them: every implied sum of any length holds on its grid."""
    rng = random.Random(13)
    grids = all_6x6_first_row()
    box_houses = list(houses())
    for _ in range(100):
        g = rng.choice(grids)
        cells = list(range(N * N))
        rng.shuffle(cells)
        cages = []
        while len(cells) > 4 and rng.random() < 0.9:
            size = rng.randint(1, 5)
            cage, cells = tuple(cells[:size]), cells[size:]
            cages.append((cage, sum(g[i // N][i % N] for i in cage)))
        for sum_cells, weights, total in implied_sums(N, box_houses, cages, limit=N * N):
            terms = zip(sum_cells, weights, strict=True)
            assert sum(w * g[i // N][i % N] for i, w in terms) == total


def test_a_sum_is_not_posted_twice_with_its_sign_turned() -> None:
    """Rows 1-2 and rows 3-6 imply the same sum, negated: it is kept once."""
    cages = [(tuple(map(flat, cells)), total) for cells, total in CAGES]
    sums = implied_sums(N, list(houses()), cages, limit=N * N)
    kept = {(frozenset(zip(c, w, strict=True)), t) for c, w, t in sums}
    for cells, weights, total in sums:
        assert (frozenset(zip(cells, (-w for w in weights), strict=True)), -total) not in kept


def test_every_implied_sum_at_every_node_keeps_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the implied sums of any length propagated at every node (not only those of up to
    DERIVED_TERMS), the search counts the oracle's grids: none of them cuts a solution."""
    expected = sum(map(killer, all_6x6_first_row()))
    monkeypatch.setattr(kernel_module, "DERIVED_TERMS", N * N)
    kernel_module._cached_kernel.cache_clear()
    try:
        puzzle = killer_puzzle()
        assert len(search_kernel(puzzle).derived) > 40
        result = BitmaskBackend().solve(puzzle, limit=expected + 1)
        assert result.exhausted and result.count == expected > 1
    finally:
        kernel_module._cached_kernel.cache_clear()


@pytest.mark.slow
def test_forum_killer_41_settles(shared_data: Path) -> None:
    """Forum killer line 41 (tarek #41): no answer in 41,000 nodes with row and column
    innies alone; the mixed and box-union ones settle it in a few hundred."""
    line = (shared_data / "killer-hard-forum-9x9.txt").read_text()
    (puzzle,) = read_text(line.splitlines()[40], fmt="killer")
    result = BitmaskBackend().solve(puzzle, limit=2, max_nodes=3000)
    assert result.status is Status.UNIQUE and result.solution == puzzle.solution
