"""The dynamic forcing chain's propagations in compiled form (Numba, when it is installed).

A forcing step follows naked and hidden singles from every open candidate (about 200 on a hard
9×9), to budgets of 6, 12, 24 deductions and then to the end; in CPython that is a quarter of
the rating's time. This kernel does exactly what `forcing.Propagation.run` does without helpers
(the same sweeps in the same order: cells, then houses, each ascending, looking only at those
marked since they were last looked at), for every candidate of one budget pass at once, keeping
the shortest contradiction as `forcing._outcomes` does. `forcing.py` stays the reference and
the path taken without Numba; tests/test_logic_speed.py checks that both give the same boards,
counts and reasons.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from satsudoku.backends.fast_kernel import compiled
from satsudoku.logic.state import Layout

# Why a propagation broke: why[r, 0] is one of these, why[r, 1] the cell or house, why[r, 2]
# the digit.
NONE, EMPTY_CELL, TWICE, NO_PLACE = 0, 1, 2, 3


@compiled
def _bit_length(x: int) -> int:
    k = 0
    while x:
        x >>= 1
        k += 1
    return k


@compiled
def _place(r: int, cell: int, bit: int, st: Any, tables: Any) -> None:
    """Board.place in run r, marking the cells and houses it changes."""
    cands, values, cell_todo, house_todo = st
    peers, n_peers, houses_of, _house_cells = tables
    values[r, cell] = _bit_length(bit)
    cands[r, cell] &= bit
    for k in range(houses_of.shape[1]):
        h = houses_of[cell, k]
        if h >= 0:
            house_todo[r, h] = 1
    for k in range(n_peers[cell]):
        p = peers[cell, k]
        mask = cands[r, p]
        if mask & bit:
            cands[r, p] = mask ^ bit
            cell_todo[r, p] = 1
            for j in range(houses_of.shape[1]):
                h = houses_of[p, j]
                if h >= 0:
                    house_todo[r, h] = 1


@compiled
def _run(r: int, budget: int, st: Any, tables: Any, made: Any, finished: Any, why: Any) -> None:
    """forcing.Propagation.run(budget) without helpers, on run r."""
    cands, values, cell_todo, house_todo = st
    house_cells = tables[3]
    cells, houses, n = cands.shape[1], house_cells.shape[0], house_cells.shape[1]
    full = (1 << n) - 1
    while not finished[r] and made[r] < budget:
        progress = False
        for cell in range(cells):
            if not cell_todo[r, cell]:
                continue
            cell_todo[r, cell] = 0
            mask = cands[r, cell]
            if not mask:
                why[r, 0], why[r, 1], finished[r] = EMPTY_CELL, cell, True
                return
            if not values[r, cell] and not mask & (mask - 1):
                _place(r, cell, mask, st, tables)
                made[r] += 1
                progress = True
        for h in range(houses):
            if not house_todo[r, h]:
                continue
            house_todo[r, h] = 0
            once = twice = placed = 0
            for k in range(n):
                cell = house_cells[h, k]
                mask = cands[r, cell]
                if values[r, cell]:
                    if placed & mask:
                        why[r, 0], why[r, 1], why[r, 2] = TWICE, h, values[r, cell]
                        finished[r] = True
                        return
                    placed |= mask
                    continue
                twice |= once & mask
                once |= mask
            if (once | placed) != full:
                why[r, 0], why[r, 1] = NO_PLACE, h
                why[r, 2] = _bit_length(full & ~(once | placed))
                finished[r] = True
                return
            hidden = once & ~twice & ~placed
            while hidden:
                low = hidden & -hidden
                hidden ^= low
                for k in range(n):
                    cell = house_cells[h, k]
                    if not values[r, cell] and cands[r, cell] & low:
                        _place(r, cell, low, st, tables)
                        made[r] += 1
                        progress = True
                        break
        finished[r] = not progress


@compiled
def _pass(
    start: int,
    stop: int,
    limit: int,
    best: Any,
    st: Any,
    tables: Any,
    made: Any,
    finished: Any,
    why: Any,
) -> None:
    """Runs start..stop-1 of one budget pass of forcing._outcomes: each unfinished run goes on
    to `limit` (or to the shortest contradiction so far, best[0] deductions with the
    assumption; -1: none), and best becomes (deductions, position) of the shortest one."""
    for r in range(start, stop):
        if finished[r]:
            continue
        _run(r, limit if best[0] < 0 else min(limit, best[0]), st, tables, made, finished, why)
        if why[r, 0] != NONE:
            length = made[r] + 1
            if best[0] < 0 or length < best[0] or (length == best[0] and r < best[1]):
                best[0], best[1] = length, r


@compiled
def _assume(cells: Any, digits: Any, quiet: bool, st: Any, tables: Any) -> None:
    """Run r starts from forcing.assume(board, cells[r], digits[r]): the digit placed, and
    marked to look at the cells that placing changed (every cell and house unless `quiet`)."""
    cands, values, cell_todo, house_todo = st
    peers, n_peers, houses_of, _house_cells = tables
    for r in range(cells.shape[0]):
        cell, bit = cells[r], 1 << (digits[r] - 1)
        if not quiet:
            cell_todo[r, :] = 1
            house_todo[r, :] = 1
        cell_todo[r, cell] = 1
        for j in range(houses_of.shape[1]):
            if houses_of[cell, j] >= 0:
                house_todo[r, houses_of[cell, j]] = 1
        for k in range(n_peers[cell]):
            p = peers[cell, k]
            if cands[r, p] & bit:
                cands[r, p] &= ~bit
                cell_todo[r, p] = 1
                for j in range(houses_of.shape[1]):
                    if houses_of[p, j] >= 0:
                        house_todo[r, houses_of[p, j]] = 1
        values[r, cell] = digits[r]
        cands[r, cell] &= bit


@compiled
def closure_into(offsets: Any, targets: Any, first: int, depth: Any, queue: Any) -> int:
    """Breadth-first closure from node `first` (node k's links: targets[offsets[k]:offsets[k +
    1]]): depth[node] its distance (`depth` all -1 before), `queue` the nodes reached in order;
    their count."""
    depth[first] = 0
    queue[0], head, tail = first, 0, 1
    while head < tail:
        node = queue[head]
        head += 1
        after = depth[node] + 1
        for k in range(offsets[node], offsets[node + 1]):
            child = targets[k]
            if depth[child] < 0:
                depth[child] = after
                queue[tail] = child
                tail += 1
    return tail


@compiled
def source_total(depth: Any, reached: Any, count: Any, rows: Any, candidates: Any) -> int:
    """One source's least total length over the nodes every branch reaches (branch j's closure
    in row rows[j] of `depth`/`reached`/`count`, its candidate candidates[j]), other than the
    source's own candidates; -1 when there is none."""
    best = -1
    first = rows[0]
    for i in range(count[first]):
        node = reached[first, i]
        total = 0
        for j in range(rows.shape[0]):
            d = depth[rows[j], node]
            if d < 0:
                total = -1
                break
            total += d + 1
        if total < 0:
            continue
        for j in range(rows.shape[0]):  # a source candidate, reached from another branch
            if candidates[j] == node >> 1:
                total = -1
        if total >= 0 and (best < 0 or total < best):
            best = total
    return best


@compiled
def _shortest_shared(
    offsets: Any, targets: Any, starts: Any, source_offsets: Any, source_rows: Any
) -> tuple[int, int]:
    """multiple.multiple_forcing_chain's search: a breadth-first closure from each candidate
    `starts[r]` assumed true (node = candidate · 2 + 1), then per source (its branches are the
    rows source_rows[source_offsets[s]:source_offsets[s + 1]]) `source_total`: (the least
    total length, the first source with it), or (-1, -1) when no source has a shared node.
    Every closure at once: candidates x nodes entries (compiled_multiple.ALL_AT_ONCE)."""
    nodes = offsets.shape[0] - 1
    depth = np.full((starts.shape[0], nodes), -1, dtype=np.int32)
    reached = np.empty((starts.shape[0], nodes), dtype=np.int32)  # per row, in BFS order
    count = np.zeros(starts.shape[0], dtype=np.int64)
    for r in range(starts.shape[0]):
        count[r] = closure_into(offsets, targets, 2 * starts[r] + 1, depth[r], reached[r])
    best, best_source = -1, -1
    for s in range(source_offsets.shape[0] - 1):
        a, b = source_offsets[s], source_offsets[s + 1]
        if b - a < 2:
            continue
        rows = source_rows[a:b]
        total = source_total(depth, reached, count, rows, starts[rows])
        if total >= 0 and (best < 0 or total < best):
            best, best_source = total, s
    return best, best_source


_TABLES: dict[int, tuple[Layout, tuple[Any, ...]]] = {}


def tables(layout: Layout) -> tuple[Any, ...]:
    """The layout as arrays (peers, peer counts, houses per cell, house cells), remembered for
    one layout at a time."""
    known = _TABLES.get(id(layout))
    if known is not None and known[0] is layout:
        return known[1]
    out = layout_arrays(layout, layout.peer_tuples, layout.houses_of)
    _TABLES.clear()
    _TABLES[id(layout)] = (layout, out)
    return out


def layout_arrays(
    layout: Layout, peer_rows: Sequence[Iterable[int]], house_rows: Sequence[Iterable[int]]
) -> tuple[Any, ...]:
    """(peers, peer counts, houses per cell, house cells) as -1-padded arrays, each cell's
    peers and houses in the order given: the compiled searches must meet links in the order
    their Python twins do, and those differ (peer tuples here, peer sets for static chains)."""
    cells = layout.n * layout.n
    peer_lists = [list(row) for row in peer_rows]
    house_lists = [list(row) for row in house_rows]
    width = max((len(p) for p in peer_lists), default=0)
    peers = np.full((cells, max(1, width)), -1, dtype=np.int64)
    n_peers = np.zeros(cells, dtype=np.int64)
    for cell, row in enumerate(peer_lists):
        peers[cell, : len(row)] = row
        n_peers[cell] = len(row)
    deepest = max((len(h) for h in house_lists), default=0)
    houses_of = np.full((cells, max(1, deepest)), -1, dtype=np.int64)
    for cell, row in enumerate(house_lists):
        houses_of[cell, : len(row)] = row
    house_cells = np.array(layout.house_cells, dtype=np.int64).reshape(-1, layout.n)
    return peers, n_peers, houses_of, house_cells


def start(
    cells: Any, digits: Any, quiet: bool, st: tuple[Any, ...], layout_tables: tuple[Any, ...]
) -> None:
    """`_assume` from Python (typed for mypy)."""
    _assume(cells, digits, quiet, st, layout_tables)


def run_pass(
    start: int,
    stop: int,
    limit: int,
    best: Any,
    st: tuple[Any, ...],
    layout_tables: tuple[Any, ...],
    made: Any,
    finished: Any,
    why: Any,
) -> None:
    """`_pass` from Python (typed for mypy)."""
    _pass(start, stop, limit, best, st, layout_tables, made, finished, why)
