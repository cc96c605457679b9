"""The static cell/region forcing chain's whole search in compiled form (Numba, when installed).

multiple.py with Numba already closed the chains in compiled code, but still built the links,
the sources and their arrays in Python on every call (about 500 calls in 100 top1465 puzzles,
most of the technique's time). Here the links are built as `multiple._links` builds them (the
same nodes in the same order: a true candidate's other digits ascending, then its open peers in
the order the layout's peer set lists them; a false one's bivalue partner, then its partner in
each house, in house order, with two places), the sources as `multiple_forcing_chain` lists
them (open cells ascending, then per house the digits ascending with two or more places), and
the closures and the choice are compiled._shortest_shared's. Python words the winning step from
the same links. tests/test_logic_speed.py checks both paths pick the same step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from satsudoku.backends.fast_kernel import compiled
from satsudoku.logic.compiled import (
    _shortest_shared,
    closure_into,
    layout_arrays,
    source_total,
)
from satsudoku.logic.state import Layout


@compiled
def _links(
    cands: Any, values: Any, n: int, peers: Any, n_peers: Any, houses_of: Any, house_cells: Any
) -> tuple[Any, Any]:
    """multiple._links as (offsets, targets): node k links to targets[offsets[k]:offsets[k+1]]."""
    cells = cands.shape[0]
    nodes = 2 * n * cells
    width = n + peers.shape[1] + houses_of.shape[1]
    table = np.empty((nodes, width), dtype=np.int64)
    count = np.zeros(nodes, dtype=np.int64)
    for cell in range(cells):
        if values[cell]:
            continue
        mask = cands[cell]
        rest = mask & (mask - 1)
        pair = rest != 0 and rest & (rest - 1) == 0
        for d in range(n):
            if not mask >> d & 1:
                continue
            node = 2 * (cell * n + d)
            true = node + 1
            for e in range(n):
                if e != d and mask >> e & 1:
                    other = 2 * (cell * n + e)
                    table[true, count[true]] = other
                    count[true] += 1
                    if pair:
                        table[node, count[node]] = other + 1
                        count[node] += 1
            for k in range(n_peers[cell]):
                p = peers[cell, k]
                if not values[p] and cands[p] >> d & 1:
                    table[true, count[true]] = 2 * (p * n + d)
                    count[true] += 1
            for j in range(houses_of.shape[1]):
                h = houses_of[cell, j]
                if h < 0:
                    continue
                places = 0
                partner = -1
                for i in range(house_cells.shape[1]):
                    c = house_cells[h, i]
                    if not values[c] and cands[c] >> d & 1:
                        places += 1
                        if c != cell:
                            partner = c
                if places == 2:
                    table[node, count[node]] = 2 * (partner * n + d) + 1
                    count[node] += 1
    offsets = np.zeros(nodes + 1, dtype=np.int64)
    for k in range(nodes):
        offsets[k + 1] = offsets[k] + count[k]
    targets = np.empty(offsets[nodes], dtype=np.int64)
    for k in range(nodes):  # element by element: a slice copy compiles Numba's shape-error
        for i in range(count[k]):  # message (str formatting, ~2 s on a first run)
            targets[offsets[k] + i] = table[k, i]
    return offsets, targets


@compiled
def _sources(
    cands: Any, values: Any, n: int, peers: Any, n_peers: Any, houses_of: Any, house_cells: Any
) -> tuple[Any, Any, Any, Any, Any, Any, Any, Any]:
    """multiple_forcing_chain's links and sources: (offsets, targets, the rows' candidates,
    source offsets, source rows, and per source its kind (0 cell, 1 region), cell or house and
    digit (regions))."""
    offsets, targets = _links(cands, values, n, peers, n_peers, houses_of, house_cells)
    cells = cands.shape[0]
    row_of = np.full(cells * n, -1, dtype=np.int64)
    starts = np.empty(cells * n, dtype=np.int64)
    rows = 0
    for cell in range(cells):
        if not values[cell]:
            for d in range(n):
                if cands[cell] >> d & 1:
                    row_of[cell * n + d] = rows
                    starts[rows] = cell * n + d
                    rows += 1
    houses = house_cells.shape[0]
    most = cells + houses * n
    kinds = np.empty(most, dtype=np.int64)
    wheres = np.empty(most, dtype=np.int64)
    digits = np.zeros(most, dtype=np.int64)
    source_offsets = np.zeros(most + 1, dtype=np.int64)
    source_rows = np.empty(rows * 4 + houses * n * n, dtype=np.int64)
    sources = 0
    used = 0
    for cell in range(cells):
        if values[cell]:
            continue
        kinds[sources], wheres[sources] = 0, cell
        mask = cands[cell]
        if mask & (mask - 1):  # two digits or more: branches
            for d in range(n):
                if mask >> d & 1:
                    source_rows[used] = row_of[cell * n + d]
                    used += 1
        sources += 1
        source_offsets[sources] = used
    for h in range(houses):
        placed = 0
        for i in range(house_cells.shape[1]):
            v = values[house_cells[h, i]]
            if v:
                placed |= 1 << (v - 1)
        for d in range(n):
            if placed >> d & 1:
                continue
            at = used
            for i in range(house_cells.shape[1]):
                c = house_cells[h, i]
                if not values[c] and cands[c] >> d & 1:
                    source_rows[used] = row_of[c * n + d]
                    used += 1
            if used - at >= 2:
                kinds[sources], wheres[sources], digits[sources] = 1, h, d + 1
                sources += 1
                source_offsets[sources] = used
            else:
                used = at
    return (
        offsets,
        targets,
        starts[:rows],
        source_offsets[: sources + 1],
        source_rows[:used],
        kinds[:sources],
        wheres[:sources],
        digits[:sources],
    )


@compiled
def _source_total(
    offsets: Any, targets: Any, starts: Any, branches: Any, depth: Any, reached: Any
) -> int:
    """One source's `source_total` from closures of its branches alone: `depth` and `reached`
    are scratch rows (one per branch, all -1 in `depth`, left so)."""
    k = branches.shape[0]
    count = np.zeros(k, dtype=np.int64)
    for j in range(k):
        count[j] = closure_into(offsets, targets, 2 * starts[branches[j]] + 1, depth[j], reached[j])
    best = source_total(depth, reached, count, np.arange(k), starts[branches])
    for j in range(k):
        for i in range(count[j]):
            depth[j, reached[j, i]] = -1
    return best


_TABLES: dict[int, tuple[Layout, tuple[Any, ...]]] = {}


def tables(layout: Layout) -> tuple[Any, ...]:
    """Peers in the order the layout's peer sets list them (the links' order), houses per
    cell ascending, house cells: remembered for one layout at a time."""
    known = _TABLES.get(id(layout))
    if known is not None and known[0] is layout:
        return known[1]
    out = layout_arrays(layout, layout.peers, [sorted(through) for through in layout.houses_of])
    _TABLES.clear()
    _TABLES[id(layout)] = (layout, out)
    return out


class Links:
    """The links as `multiple._links` lists them, read from the arrays node by node (only
    the winning source's closures need them)."""

    def __init__(self, offsets: Any, targets: Any) -> None:
        self.bounds: list[int] = offsets.tolist()
        self.flat: list[int] = targets.tolist()

    def __getitem__(self, node: int, /) -> list[int]:
        return self.flat[self.bounds[node] : self.bounds[node + 1]]


# Above this many closure entries (candidates x nodes) `_shortest_shared`'s all-at-once closures
# (two int32 arrays of that size) give way to one source's closures at a time: an empty 25x25
# board took `logic` 2.2 GB (15,625 candidates x 31,250 nodes); a source has at most n branches.
ALL_AT_ONCE = 1 << 22


def search(
    cands: list[int], values: list[int], layout: Layout, expired: Callable[[], bool] | None = None
) -> tuple[int, int, int, int, Links | None]:
    """The compiled search from Python: (length, kind, cell or house, digit, the links),
    length -1 and no links when nothing is found (or `expired()` turned true first)."""
    offsets, targets, starts, source_offsets, source_rows, kinds, wheres, digits = _sources(
        np.array(cands, dtype=np.int64),
        np.array(values, dtype=np.int64),
        layout.n,
        *tables(layout),
    )
    nodes = offsets.shape[0] - 1
    if starts.shape[0] * nodes <= ALL_AT_ONCE:
        best, index = _shortest_shared(offsets, targets, starts, source_offsets, source_rows)
    else:
        best, index = _one_source_at_a_time(
            offsets, targets, starts, source_offsets, source_rows, expired
        )
    if index < 0:
        return -1, 0, 0, 0, None
    length, kind, where, digit = best, kinds[index], wheres[index], digits[index]
    return int(length), int(kind), int(where), int(digit), Links(offsets, targets)


def _one_source_at_a_time(
    offsets: Any,
    targets: Any,
    starts: Any,
    source_offsets: Any,
    source_rows: Any,
    expired: Callable[[], bool] | None,
) -> tuple[int, int]:
    """`_shortest_shared`'s answer in memory of one source's closures (a branch's closure is
    recomputed for each source it is in, up to 4 times), the clock read between sources."""
    nodes = offsets.shape[0] - 1
    widths = np.diff(source_offsets)
    widest = int(widths.max()) if widths.shape[0] else 0
    depth = np.full((widest, nodes), -1, dtype=np.int32)
    reached = np.empty((widest, nodes), dtype=np.int32)
    best, best_source = -1, -1
    for s in range(widths.shape[0]):
        if widths[s] < 2:
            continue
        if expired is not None and expired():
            return -1, -1  # as the other long searches: out of time, nothing found
        branches = source_rows[source_offsets[s] : source_offsets[s + 1]]
        total = _source_total(offsets, targets, starts, branches, depth, reached)
        if total >= 0 and (best < 0 or total < best):
            best, best_source = total, s
    return best, best_source
