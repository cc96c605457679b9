"""Batches of classic 9×9 givens through the fast kernel and the compiled verifier, as arrays.

This is the fast backend without a `Puzzle`, `Grid` or `Result` per puzzle, for the command
line's plain classic lines (`io.classic_lines`): many puzzles per kernel call, every returned
grid checked by `verify_compiled` (rows, columns, boxes and givens re-derived from the shape),
and a grid it refuses turned into the BackendBugError `make_result` would raise, in the words
of `verify.violations`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from satsudoku.backends.fast import (
    _SEARCH_LOCKS,
    _WORK_PER_CALL,
    FastBackend,
    kernel,
    verifier,
)
from satsudoku.backends.fast import structure_for as _structure_for
from satsudoku.errors import BackendBugError
from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.verify import violations

CLASSIC = Shape(3, 3)
CELLS = 81
# Node slice per puzzle in a batch call, as FastBackend._batch has it: a puzzle needing more is
# finished on the resumable path, where the clock is read.
BUDGET = max(1, _WORK_PER_CALL // (CELLS * 9))


FIRST_CALL = 16  # puzzles in the first kernel call: the first answers come out at once
PACE = 0.1  # seconds (wall) a kernel call aims at once the rate is known: solve's BATCH_SECONDS
MOST_CELLS = 1 << 20  # solution cells a call may hold: 6,472 puzzles at limit 2, 1 MB


class Pace:
    """How many puzzles the next kernel call takes: FIRST_CALL, then as many as take about
    PACE seconds at the last call's rate, growing at most fourfold a call (a file's later
    puzzles may be harder) and never past MOST_CELLS solution cells.

    Measured (17clue, 49,151 puzzles through the command, in-process CPU time over the
    kernel's in one call, load 4): calls of 809 puzzles +7.6%, 6,473 +6.2%; each call pays its
    Python and the caches the reading and writing between calls evict. On forum-hardest the
    same pace gives 30-160 puzzles a call, where a fixed 809 kept the first answers 0.3 s."""

    def __init__(self, limit: int) -> None:
        self.most = max(1, MOST_CELLS // (CELLS * limit))
        self.size = min(FIRST_CALL, self.most)

    def __call__(self) -> int:
        return self.size

    def took(self, verdicts: Verdicts) -> None:
        """Size the next call from this one's time."""
        count = len(verdicts.found)
        if count == 0:
            return
        per_puzzle = verdicts.seconds / count
        fits = int(PACE / per_puzzle) if per_puzzle > 0 else self.most
        self.size = max(1, min(4 * self.size, fits, self.most))


@dataclass
class Verdicts:
    """A batch's answers, puzzle k in row k; every grid in `sols` has been verified."""

    sols: npt.NDArray[np.uint8]  # (k, limit, 81): digits 1..9, found[k] rows valid
    found: npt.NDArray[np.int64]
    nodes: npt.NDArray[np.int64]
    backtracks: npt.NDArray[np.int64]
    finished: npt.NDArray[np.bool_]  # False: over the node slice, not settled here
    seconds: float  # the batch's kernel and verification time
    verified: int  # puzzles [0, verified) passed the verifier; the next one did not
    refused: BackendBugError | None  # why puzzle `verified` was refused (None: all passed)


def solve_classic(givens: npt.NDArray[np.uint8], limit: int) -> Verdicts:
    """Search every row of `givens` (k × 81) for up to `limit` solutions, then verify them."""
    structure = _structure_for(Puzzle.empty(CLASSIC))  # cached: built once per process
    count = givens.shape[0]
    began = time.perf_counter()
    sols = np.empty((count, limit, CELLS), dtype=np.uint8)  # only rows [0, found) are read
    found = np.zeros(count, dtype=np.int64)
    counters = np.zeros((count, 3), dtype=np.int64)
    kernel.solve_batch(
        givens, structure.allowed, *structure.args(), True, _SEARCH_LOCKS, BUDGET, sols, found,
        counters,
    )  # fmt: skip
    bad = verifier.first_bad(givens, sols, found, CLASSIC.box_rows, CLASSIC.box_cols)
    verified, refused = count, None
    if bad.any():
        verified = int(np.flatnonzero(bad)[0])
        grids = sols[verified, : found[verified]]
        refused = refusal(givens[verified], grids, int(bad[verified]) - 1)
    return Verdicts(
        sols,
        found,
        counters[:, 0],
        counters[:, 1],
        counters[:, 2].astype(np.bool_),
        time.perf_counter() - began,
        verified,
        refused,
    )


def refusal(
    givens: npt.NDArray[np.uint8], grids: npt.NDArray[np.uint8], index: int
) -> BackendBugError:
    """The error for grid `index` of `grids`, which the compiled verifier refused."""
    name = FastBackend.name
    puzzle = Puzzle(CLASSIC, Grid(9, tuple(givens.tolist())))
    grid = Grid(9, tuple(grids[index].tolist()))
    if broken := violations(puzzle, grid):
        return BackendBugError(f"backend {name!r} returned a grid that {broken[0]}")
    if any(bytes(grids[j]) == bytes(grids[index]) for j in range(index)):
        return BackendBugError(f"backend {name!r} returned the same solution twice")
    return BackendBugError(f"the two verifiers disagree on grid {''.join(map(str, grid.values))}")
