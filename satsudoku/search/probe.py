"""Shallow probing for the plain search: try each digit of the few-candidate cells, propagate,
and keep only what some surviving trial allows.

A trial is the cell's child as the search would make it (`assign` + `settle`). A digit whose
trial fails goes (a failed literal); and since every solution through the node lies under one
of the surviving trials, every other cell keeps only the union of its digits over them
(constructive disjunction). Killer cages propagate far, so one trial narrows cells all over
the board: near the root, where a wrong choice costs most, this cuts the forum killers' trees
several times over (docs/backends.md, "Does the reference settle every real puzzle?").

It removes only digits that lead to no solution, so counts and enumeration stay exact; but
the proof mode cannot replay it (a trial is a whole propagation, not one clause), so only
`BitmaskBackend`'s own search runs it.
"""

from __future__ import annotations

from operator import and_, invert, or_
from typing import TYPE_CHECKING

from satsudoku.deadline import check_building

if TYPE_CHECKING:
    from satsudoku.search.kernel import Masks, _Kernel

# A trial's outcome, by (cell, open bit): its settled masks and their open bits, as found at
# this node or an ancestor (every solution under the node and the trial lies within them).
Known = dict[tuple[int, int], tuple[list[int], list[int]]]

WIDEST = 3  # cells of at most this many candidates are probed
# Trials per node at most: a bound on one node's cost on boards with many narrow cells.
BUDGET = 2000


def probe(
    kernel: _Kernel,
    cands: Masks,
    locked: bool,
    budget: int = BUDGET,
    widest: int = WIDEST,
    known: Known | None = None,
    fresh: dict[tuple[int, int], list[int]] | None = None,
) -> int:
    """Probe the open cells of 2..`widest` candidates, fewest first, pass after pass until one
    narrows nothing or `budget` trials have run, narrowing `cands` in place (`locked` as in
    `settle`). Returns the trials run, or -1 when the node has no solution.

    `known` (this node's own copy of its parent's, filled in here) holds earlier outcomes of
    the same trials: a later pass, or a node below, starts a trial from its earlier outcome
    cut down to today's masks (`_resume`), so only what changed since is propagated again.

    `fresh`, if given, is left holding the outcome of each trial of the last pass, by (cell,
    open bit), when that pass narrowed nothing: each is then the node's child on that digit,
    assigned and settled, which the search takes instead of settling it again."""
    guard, open_bits = kernel.guard, kernel.open_bits
    assign, settle = kernel.assign, kernel.settle
    trials = 0
    changed = True
    while changed and trials < budget:
        changed = False
        if fresh is not None:
            fresh.clear()
        counts = list(map(int.bit_count, cands))
        order = sorted(
            (c, i) for i, c in enumerate(counts) if 2 <= c <= widest and not cands[i] & guard
        )
        outside: list[int] | None = None  # per cell, the open bits it has lost (None: stale)
        for _, i in order:
            mask = cands[i]
            if trials >= budget or mask & guard or mask.bit_count() < 2:
                continue  # out of trials, or placed or narrowed by an earlier probe
            union: list[int] | None = None  # per cell, its digits over the surviving trials
            while mask:
                bit = mask & -mask
                mask ^= bit
                trials += 1
                check_building()  # a node's probes take up to ~1 s: the deadline comes first
                before = known.get((i, bit)) if known is not None else None
                if before is None:
                    child = cands.copy()
                    dirty = assign(child, i, bit)
                    if dirty < 0 or not settle(child, dirty, locked):
                        continue
                    opened = list(map(open_bits, child))
                else:
                    if outside is None:
                        outside = list(map(invert, map(open_bits, cands)))
                    resumed = _resume(kernel, before, outside, locked)
                    if resumed is None:
                        continue
                    child, opened = resumed
                if known is not None:
                    known[(i, bit)] = (child, opened)
                if fresh is not None:
                    fresh[(i, bit)] = child
                union = opened if union is None else list(map(or_, union, opened))
            if union is None:
                return -1  # every digit of cell i fails
            dirty = 0
            for j, keep in enumerate(union):
                m = cands[j]  # read now: an earlier narrowing may have placed it
                if not m & guard and m & ~keep:
                    narrowed = kernel._narrow(cands, j, keep)
                    if narrowed < 0:
                        return -1
                    dirty |= narrowed
            if dirty:
                changed = True
                outside = None
                if not settle(cands, dirty, locked):
                    return -1
    if changed and fresh is not None:
        fresh.clear()  # out of trials: the last pass's outcomes predate a narrowing
    return trials


def _resume(
    kernel: _Kernel, before: tuple[list[int], list[int]], outside: list[int], locked: bool
) -> tuple[list[int], list[int]] | None:
    """A trial's outcome now, from its earlier one (`before`: masks, open bits) and the open
    bits the node's cells have lost since (`outside`, as ~open bits): the earlier outcome
    itself when it lost nothing (a fixpoint stays one), else it cut down and settled again.
    None when the trial fails now.

    The earlier outcome holds every solution of the trial at an ancestor, so its cut holds
    every one of the trial here, and it is a tighter start than a fresh trial's."""
    masks, opened = before
    lost = list(map(and_, opened, outside))
    if not any(lost):
        return before
    child = masks.copy()
    dirty = 0
    for j, gone in enumerate(lost):
        if gone:
            # Read now: an earlier cut may have placed or narrowed the cell. A placed digit that
            # the node has lost fails the trial; an open cell keeps what the node still allows.
            changed = kernel._restrict(child, j, ~outside[j] & kernel.full)
            if changed < 0:
                return None
            dirty |= changed
    if dirty and not kernel.settle(child, dirty, locked):
        return None
    return child, list(map(kernel.open_bits, child))
