"""The independent verifier in compiled form, for batches of classic grids (the fast CLI path).

It re-derives rows, columns and boxes from the box shape alone and shares no code or data with
the search kernel, so a kernel bug cannot vouch for itself; `verify.violations` words the
failure once this check has found a grid to refuse.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from satsudoku.backends.fast_kernel import compiled


@compiled
def _grid_ok(givens: Any, grid: Any, box_cell: Any, bit: Any) -> bool:
    """Every given kept, every row, column and box all n digits: a house of n cells whose
    digits' bits OR to all n bits holds each digit once. `bit[v]` is digit v's bit, 0 for a
    value outside 1..n, so such a value leaves its houses short of a bit."""
    n = box_cell.shape[0]
    full = (1 << n) - 1
    kept = True  # no early exits: the loops stay branch-free, 2x faster on valid grids
    for i in range(n * n):
        kept &= (givens[i] == 0) | (grid[i] == givens[i])
    for a in range(n):
        row = col = box = 0
        for b in range(n):
            row |= bit[grid[a * n + b]]
            col |= bit[grid[b * n + a]]
            box |= bit[grid[box_cell[a, b]]]
        kept &= (row == full) & (col == full) & (box == full)
    return kept


@compiled
def first_bad(givens: Any, sols: Any, found: Any, box_rows: int, box_cols: int) -> Any:
    """Per puzzle p, 0 if its found[p] grids in sols[p] all solve givens[p] and differ from
    each other, else 1 + the index of the first grid that fails (or repeats an earlier one)."""
    n = box_rows * box_cols
    box_cell = np.empty((n, n), np.uint32)  # box a's cell b (boxes and cells row-wise)
    for a in range(n):
        for b in range(n):
            top, left = (a // box_rows) * box_rows + b // box_cols, (a % box_rows) * box_cols
            box_cell[a, b] = top * n + left + b % box_cols
    bit = np.zeros(256, np.int64)  # grids are bytes: any value has an entry
    for digit in range(1, n + 1):
        bit[digit] = 1 << (digit - 1)
    bad = np.zeros(givens.shape[0], np.int64)
    cells = givens.shape[1]
    for p in range(givens.shape[0]):
        for k in range(found[p]):
            if not _grid_ok(givens[p], sols[p, k], box_cell, bit):
                bad[p] = k + 1
                break
            for j in range(k):
                same = True
                for i in range(cells):
                    if sols[p, j, i] != sols[p, k, i]:
                        same = False
                        break
                if same:
                    bad[p] = k + 1
                    break
            if bad[p]:
                break
    return bad
