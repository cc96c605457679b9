"""Estimated solution counts: Knuth's unbiased estimator over the bitmask search tree.

One sample walks from the root to a leaf, at each node choosing uniformly among the children
that survive propagation and multiplying a weight by their number; the weight at a solution is
an unbiased estimate of the count (Knuth, "Estimating the efficiency of backtrack programs",
1975), 0 at a dead end. Two things keep the variance usable on Sudoku, where uniform choice
among raw candidates is hopeless: children are propagated (singles, tables) before the choice,
so dead branches get probability 0, and the branch cell is the backend's (fewest candidates);
a subtree with few open cells left is counted exactly instead of sampled.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from satsudoku.options import (
    checked_int,
    checked_optional_int,
    checked_seed,
    checked_timeout,
)
from satsudoku.puzzle import Puzzle
from satsudoku.search.kernel import search_kernel
from satsudoku.tools.counting import Masks, SearchKernel, count_from

_EXACT_NODES = 256  # node budget of an exact count below a sampled path; past it, sample on


@dataclass(frozen=True)
class Estimate:
    """The mean of the samples with its standard error and a normal 95% interval."""

    estimate: float
    stderr: float  # infinite from a single sample; estimates past 1e300 are ints
    ci95: tuple[float, float]  # mean ± 1.96 standard errors, the lower end clipped at 0
    samples: int
    zero_fraction: float  # samples that met a dead end: a high share means a poor estimate
    time_s: float
    stopped: str | None = None  # "timeout" when fewer samples than asked were drawn

    def to_json(self) -> dict[str, object]:
        """The JSON fields; what no sample (or one) cannot tell is null (JSON has no NaN)."""
        known = math.isfinite(self.stderr)
        return {
            "estimate": self.estimate if self.samples else None,
            "stderr": self.stderr if known else None,
            "ci95": list(self.ci95) if known else None,
            "samples": self.samples,
            "zero_fraction": self.zero_fraction if self.samples else None,
        }


def estimate_count(
    puzzle: Puzzle,
    samples: int,
    *,
    seed: int = 0,
    timeout: float | None = None,
    exact_cells: int | None = None,
    on_sample: Callable[[int], None] | None = None,
) -> Estimate:
    """Estimate the number of solutions of `puzzle` from `samples` Knuth walks.

    The same `seed` gives the same estimate on any machine (random.Random, children in digit
    order). A walk reaching `exact_cells` open cells or fewer (default: twice the board size)
    counts the rest exactly when that takes at most a few hundred nodes. Stops early, with
    the samples drawn so far, at `timeout` seconds; `on_sample(k)` hears each finished sample.
    """
    samples = checked_int(samples, "samples")
    seed = checked_seed(seed)
    timeout = checked_timeout(timeout)
    exact_cells = checked_optional_int(exact_cells, "exact_cells")
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    kernel = search_kernel(puzzle)
    root = kernel.initial(puzzle.givens.values)
    threshold = 2 * puzzle.size if exact_cells is None else exact_cells
    rng = random.Random(seed)
    total = squares = zeros = drawn = 0
    stopped = None
    while drawn < samples:
        value = 0 if root is None else _walk(kernel, root, rng, threshold, deadline)
        if value is None:
            stopped = "timeout"  # the clock ran out inside this walk: it is not a sample
            break
        total += value
        squares += value * value
        zeros += value == 0
        drawn += 1
        if on_sample is not None:
            on_sample(drawn)
    mean, stderr, half = _statistics(total, squares, drawn)
    return Estimate(
        estimate=mean,
        stderr=stderr,
        ci95=(max(0, mean - half), mean + half),
        samples=drawn,
        zero_fraction=zeros / drawn if drawn else math.nan,
        time_s=time.perf_counter() - start,
        stopped=stopped,
    )


def _statistics(total: int, squares: int, drawn: int) -> tuple[float, float, float]:
    """Mean, standard error and the 95% half-width from the samples' exact integer sums.

    Floats while they fit; past a float's range (a 25×25 board has about 10^386 grids) the
    nearest integers, which JSON writes in full as numbers just the same.
    """
    if not drawn:
        return math.nan, math.inf, math.inf
    # Sample variance without cancellation: N·Σx² − (Σx)² = N(N−1)·s².
    spread = drawn * squares - total * total
    scale = max(1, drawn * drawn * (drawn - 1))  # the squared error is spread / scale
    if total // drawn < 10**300 and spread // scale < 10**300:
        mean: float = total / drawn
        stderr: float = math.sqrt(spread / scale)
        half = 1.96 * stderr
    else:
        mean = round(Fraction(total, drawn))
        stderr = math.isqrt(spread // scale)
        half = stderr * 196 // 100
    if drawn == 1:
        return mean, math.inf, math.inf  # one sample has no spread to judge it by
    return mean, stderr, half


def _walk(
    kernel: SearchKernel,
    root: Masks,
    rng: random.Random,
    threshold: int,
    deadline: float | None,
) -> int | None:
    """One Knuth sample: the product of the live-children counts along a random path; None
    when `deadline` passes first (a walk on a large board takes many costly nodes)."""
    branch_cell, assign, propagate = kernel.branch_cell, kernel.assign, kernel.propagate
    cands, weight = root, 1
    while True:
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        counts = list(map(int.bit_count, cands))
        if len(counts) - counts.count(1) <= threshold:  # few open cells: try counting them
            below = count_from(kernel, cands, 0, max_nodes=_EXACT_NODES, deadline=deadline)
            if below.complete:
                return weight * below.count
        best = branch_cell(cands)
        if best < 0:
            return weight
        mask = cands[best]
        children = []
        while mask:
            bit = mask & -mask
            mask ^= bit
            child = cands.copy()
            dirty = assign(child, best, bit)
            if dirty >= 0 and propagate(child, dirty):
                children.append(child)
        if not children:
            return 0
        weight *= len(children)
        cands = children[rng.randrange(len(children))]
