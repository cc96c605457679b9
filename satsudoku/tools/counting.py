"""Exact solution counts by the bitmask search, keeping no list of solutions and skipping
digit-relabelled copies of the search tree when the rules allow it.

Orbit counting: while a set S of digits is interchangeable (no given, no rule and no placement
tells them apart), every cell offers all of S or none of it, and placing s or s' of S at a cell
leads to subtrees that the swap (s s') maps onto each other. So one child stands for |S| of
them and S loses the digit placed. On an empty grid this visits one grid per relabelling class:
the 28,200,960 6×6 grids cost 39,168 leaves (= 28,200,960 / 6!).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from satsudoku.errors import BackendBugError
from satsudoku.grid import Grid
from satsudoku.options import checked_limit, checked_max_nodes, checked_timeout
from satsudoku.puzzle import Puzzle
from satsudoku.search.kernel import search_kernel
from satsudoku.tools.symmetry import interchangeable_digits
from satsudoku.verify import violations

Masks = list[int]
_CHECK_WORK = 16_384  # cells of work between progress reports:
# 256 nodes on a 9×9, every 4th node on a 64×64 board, whose nodes cost tens of milliseconds


class SearchKernel(Protocol):
    """The part of the bitmask backend's kernel a counting walk uses (`search_kernel`)."""

    n: int
    bit: tuple[int, ...]

    def initial(self, givens: Sequence[int]) -> Masks | None: ...
    def branch_cell(self, cands: Masks) -> int: ...
    def assign(self, cands: Masks, cell: int, bit: int) -> int: ...
    def propagate(self, cands: Masks, dirty: int) -> bool: ...
    def digit(self, mask: int) -> int: ...


@dataclass(frozen=True)
class Count:
    """An exact count (`complete`), or the solutions counted before a limit stopped it."""

    count: int
    complete: bool
    witnesses: tuple[Grid, ...]  # up to two different solutions, verified
    nodes: int
    symmetric_digits: int  # |S| at the root: the search was divided by up to |S|!
    time_s: float
    stopped: str | None = None  # "timeout", "node limit" or "limit" when not complete


@dataclass
class SubtreeCount:
    """What `count_from` found below one node."""

    count: int = 0
    nodes: int = 0
    complete: bool = False
    stopped: str | None = None
    leaves: list[Masks] = field(default_factory=list)  # the first two leaves, for witnesses


def count_solutions(
    puzzle: Puzzle,
    *,
    limit: int | None = None,
    timeout: float | None = None,
    max_nodes: int | None = None,
    symmetry: bool = True,
    on_progress: Callable[[int], None] | None = None,
) -> Count:
    """Count the solutions of `puzzle` exactly; stop at `limit` solutions, `max_nodes` nodes or
    after `timeout` seconds. `symmetry=False` visits every grid, relabellings included.

    `on_progress(count)` hears the running total every few hundred nodes.
    """
    limit = None if limit is None else checked_limit(limit)
    timeout = checked_timeout(timeout)
    max_nodes = checked_max_nodes(max_nodes)
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    kernel = search_kernel(puzzle)
    digits = interchangeable_digits(puzzle) if symmetry else frozenset()
    root = kernel.initial(puzzle.givens.values)
    found = SubtreeCount(complete=True)
    if root is not None:
        sym = sum(kernel.bit[d - 1] for d in digits)
        found = count_from(
            kernel,
            root,
            sym,
            limit=limit,
            deadline=deadline,
            max_nodes=max_nodes,
            on_progress=on_progress,
        )
    witnesses = _witnesses(puzzle, kernel, found, sorted(digits))
    return Count(
        count=found.count,
        complete=found.complete,
        witnesses=witnesses,
        nodes=found.nodes,
        symmetric_digits=len(digits),
        time_s=time.perf_counter() - start,
        stopped=found.stopped,
    )


def count_from(
    kernel: SearchKernel,
    root: Masks,
    sym: int,
    *,
    limit: int | None = None,
    deadline: float | None = None,
    max_nodes: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> SubtreeCount:
    """Count the completions of the propagated masks `root` by depth-first search.

    `sym` holds the open bits of digits interchangeable in `root` (0 for none); `kernel` is a
    bitmask search kernel (`search_kernel`). Stops, incomplete, past `limit` solutions,
    `max_nodes` nodes or `deadline` (a perf_counter time).
    """
    branch_cell, assign, propagate = kernel.branch_cell, kernel.assign, kernel.propagate
    out = SubtreeCount()
    node_cap = max_nodes if max_nodes is not None else -1
    stack: list[tuple[Masks, int, int]] = [(root, sym, 1)]  # masks, S as open bits, weight
    nodes = total = 0
    check_every = max(1, _CHECK_WORK // (kernel.n * kernel.n))
    while stack:
        if nodes == node_cap:
            out.stopped = "node limit"
            break
        if nodes % check_every == 0 and nodes and on_progress is not None:
            on_progress(total)
        # The clock is read before every node, not with the progress reports: a rule's tables
        # can make one 9×9 node cost 12 ms, and 256 of them overran a 0.2 s timeout by 3 s.
        if deadline is not None and nodes and time.perf_counter() >= deadline:
            out.stopped = "timeout"
            break
        cands, same, weight = stack.pop()
        nodes += 1
        best = branch_cell(cands)
        if best < 0:
            total += weight
            if len(out.leaves) < 2:
                out.leaves.append(cands)
            if limit is not None and total >= limit:
                out.stopped = "limit" if stack else None
                break
            continue
        mask = cands[best]
        stand_in, times = 0, 1
        twins = mask & same
        if twins & (twins - 1):  # two or more interchangeable digits: one child for them all
            stand_in = twins & -twins
            times = twins.bit_count()
            mask = (mask & ~twins) | stand_in
        children: list[tuple[Masks, int, int]] = []
        while mask:
            if deadline is not None and children and time.perf_counter() >= deadline:
                break  # each child is a propagation: a 9x9 node of big tables took 0.4 s
            bit = mask & -mask
            mask ^= bit
            child = cands.copy()
            dirty = assign(child, best, bit)
            if dirty >= 0 and propagate(child, dirty):
                children.append((child, same & ~bit, weight * times if bit == stand_in else weight))
        if mask:  # left before its last child: out of time
            out.stopped = "timeout"
            break
        children.reverse()  # lowest digit first, as the backend searches
        stack.extend(children)
    out.count, out.nodes = total, nodes
    out.complete = out.stopped is None
    return out


def _witnesses(
    puzzle: Puzzle, kernel: SearchKernel, found: SubtreeCount, digits: list[int]
) -> tuple[Grid, ...]:
    """The first two solutions reached; when one leaf stood for several, the second is the first
    with two interchangeable digits swapped (a different grid: every digit fills whole rows)."""
    grids = [Grid(puzzle.size, tuple(map(kernel.digit, leaf))) for leaf in found.leaves]
    if len(grids) == 1 and found.count >= 2 and len(digits) >= 2:
        swap = {digits[0]: digits[1], digits[1]: digits[0]}
        grids.append(Grid(puzzle.size, tuple(swap.get(d, d) for d in grids[0].values)))
    for grid in grids:
        if broken := violations(puzzle, grid):
            raise BackendBugError(f"the counting search reached a grid that {broken[0]}")
    return tuple(grids)
