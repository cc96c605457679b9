"""The independent verifier in compiled form, for batches of classic grids (the fast CLI path).

It re-derives rows, columns and boxes from the box shape alone and shares no code or data with
the search kernel, so a kernel bug cannot vouch for itself; `verify.violations` words the
failure once this check has found a grid to refuse.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from satsudoku.backends.fast_kernel import CACHE_DIR, config

# Compiled code is cached where the kernel's is (a directory private to the user, or nowhere);
# Numba reads config.CACHE_DIR when a function is decorated, so it is set around the decorator.
_SAVED_CACHE_DIR = config.CACHE_DIR
if CACHE_DIR is not None:
    config.CACHE_DIR = CACHE_DIR


@njit(cache=CACHE_DIR is not None)
def _grid_ok(givens: Any, grid: Any, box_rows: int, box_cols: int) -> bool:
    """Every cell a digit 1..n, every given kept, every row, column and box all n digits."""
    n = box_rows * box_cols
    full = (1 << n) - 1
    for i in range(n * n):
        if grid[i] < 1 or grid[i] > n or (givens[i] != 0 and grid[i] != givens[i]):
            return False
    for a in range(n):
        row = col = box = 0
        top = (a // box_rows) * box_rows  # box a: its band and stack, boxes numbered row-wise
        left = (a % box_rows) * box_cols
        for b in range(n):
            row |= 1 << (grid[a * n + b] - 1)
            col |= 1 << (grid[b * n + a] - 1)
            box |= 1 << (grid[(top + b // box_cols) * n + left + b % box_cols] - 1)
        if row != full or col != full or box != full:  # n digits, each present: no repeat
            return False
    return True


@njit(cache=CACHE_DIR is not None)
def first_bad(givens: Any, sols: Any, found: Any, box_rows: int, box_cols: int) -> Any:
    """Per puzzle p, 0 if its found[p] grids in sols[p] all solve givens[p] and differ from
    each other, else 1 + the index of the first grid that fails (or repeats an earlier one)."""
    bad = np.zeros(givens.shape[0], np.int64)
    cells = givens.shape[1]
    for p in range(givens.shape[0]):
        for k in range(found[p]):
            if not _grid_ok(givens[p], sols[p, k], box_rows, box_cols):
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


config.CACHE_DIR = _SAVED_CACHE_DIR
