"""The X-chain, XY-chain and AIC searches in compiled form (Numba, when it is installed).

`chains._search` walks each node's links in the order they were first made (digits ascending,
then peers as the layout lists them; strong links bivalue cells first, then houses in order),
and that order decides which of two equally short chains a step names. `_first_seen` lists
each link sequence the same way here. `chains.py` stays the reference and the path without
Numba; tests/test_logic_speed.py compares the two step by step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from satsudoku.backends.fast_kernel import compiled
from satsudoku.logic import compiled_multiple
from satsudoku.logic.compiled_franken import plain
from satsudoku.logic.state import WIDEST, Layout


@compiled
def _first_seen(seq: Any, count: int, out: Any) -> int:
    """The distinct members of seq[:count] in the order they first occur, written to `out`;
    returns how many (sequences hold a few dozen links: a quadratic scan is the cheapest)."""
    k = 0
    for i in range(count):
        key = seq[i]
        new = True
        for j in range(k):
            if out[j] == key:
                new = False
                break
        if new:
            out[k] = key
            k += 1
    return k


@compiled
def _sorted_into(seq: Any, count: int, out: Any) -> None:
    """seq[:count] ascending into `out`: an insertion sort, as a chain removes a few
    candidates; np.sort would compile Numba's quicksort (about 2 s on a first run)."""
    for i in range(count):
        key = seq[i]
        j = i
        while j > 0 and out[j - 1] > key:
            out[j] = out[j - 1]
            j -= 1
        out[j] = key


@compiled
def _weak(
    v: int,
    cands: Any,
    values: Any,
    n: int,
    peers: Any,
    n_peers: Any,
    same_cell: bool,
    scratch: Any,
    w_adj: Any,
    w_len: Any,
) -> None:
    """`chains._WeakLinks.__missing__`: node v's weak links, in the order it makes them."""
    (seq,) = scratch
    cell = v // n
    d = v - cell * n
    count = plain(0)  # see compiled_franken.plain
    if same_cell:
        mask = cands[cell]
        for e in range(n):
            if mask >> e & 1 and e != d:
                seq[count] = cell * n + e
                count += 1
    bit = 1 << d
    for k in range(n_peers[cell]):
        p = peers[cell, k]
        if values[p] == 0 and cands[p] & bit:
            seq[count] = p * n + d
            count += 1
    w_len[v] = _first_seen(seq, count, w_adj[v])


@compiled
def _search(
    cands: Any,
    values: Any,
    n: int,
    peers: Any,
    n_peers: Any,
    houses_of: Any,
    house_cells: Any,
    bivalue_links: bool,
    house_links: bool,
    same_cell: bool,
    same_digit: bool,
    max_nodes: int,
    path: Any,
    gone: Any,
) -> Any:
    """`chains._chain_finder`'s loop over start nodes: (length, path length, eliminations),
    length 0 when no chain removes anything; the chain's nodes in `path`, the removed
    candidates' nodes (ascending) in `gone`."""
    cells = cands.shape[0]
    nodes = cells * n
    # peers.shape[1] = max(1, most peers): n_peers.max() would compile Numba's array max (~1 s)
    width = n + peers.shape[1] + houses_of.shape[1]
    scratch = (np.empty(width, dtype=np.int64),)
    # Strong links: added as chains._Graph adds them, then listed without repeats.
    s_seq = np.empty((nodes, 1 + houses_of.shape[1]), dtype=np.int64)
    s_cnt = np.zeros(nodes, dtype=np.int64)
    if bivalue_links:
        for c in range(cells):
            mask = cands[c]
            if values[c] == 0 and mask != 0 and mask & (mask - 1) != 0:
                low = 0
                while not mask >> low & 1:
                    low += 1
                high = low + 1
                while not mask >> high & 1:
                    high += 1
                if mask >> (high + 1) == 0:
                    a, b = c * n + low, c * n + high
                    s_seq[a, s_cnt[a]] = b
                    s_cnt[a] += 1
                    s_seq[b, s_cnt[b]] = a
                    s_cnt[b] += 1
    if house_links:
        for h in range(house_cells.shape[0]):
            once = twice = thrice = 0
            for k in range(n):
                c = house_cells[h, k]
                if values[c] == 0:
                    mask = cands[c]
                    thrice |= twice & mask
                    twice |= once & mask
                    once |= mask
            pairs = twice & ~thrice
            for d in range(n):
                if not pairs >> d & 1:
                    continue
                p = q = -1
                for k in range(n):
                    c = house_cells[h, k]
                    if values[c] == 0 and cands[c] >> d & 1:
                        if p < 0:
                            p = c * n + d
                        else:
                            q = c * n + d
                s_seq[p, s_cnt[p]] = q
                s_cnt[p] += 1
                s_seq[q, s_cnt[q]] = p
                s_cnt[q] += 1
    s_adj = np.empty_like(s_seq)
    s_len = np.zeros(nodes, dtype=np.int64)
    for v in range(nodes):
        if s_cnt[v]:
            s_len[v] = _first_seen(s_seq[v], s_cnt[v], s_adj[v])
    w_adj = np.empty((nodes, n - 1 + peers.shape[1] + 1), dtype=np.int64)
    w_len = np.full(nodes, -1, dtype=np.int64)
    seen = np.full(2 * nodes, -1, dtype=np.int64)
    parent = np.empty(2 * nodes, dtype=np.int64)
    near = np.full(nodes, -1, dtype=np.int64)  # tagged: a weak neighbour of the start
    queue = np.empty(2 * nodes, dtype=np.int64)
    depth = np.empty(2 * nodes, dtype=np.int64)
    found = np.empty(gone.shape[0], dtype=np.int64)
    best = 0
    best_path = 0
    best_gone = 0
    for start in range(nodes):
        cell = start // n
        if values[cell] or not cands[cell] >> (start - cell * n) & 1 or s_len[start] == 0:
            continue
        limit = best if best else max_nodes
        if w_len[start] < 0:
            _weak(start, cands, values, n, peers, n_peers, same_cell, scratch, w_adj, w_len)
        for k in range(w_len[start]):
            near[w_adj[start, k]] = start
        first = 2 * start
        seen[first] = start
        parent[first] = -1
        queue[0] = first
        depth[0] = 1
        head, tail = 0, 1
        hit = -1
        hits = plain(0)
        while head < tail and hit < 0:
            state = queue[head]
            length = depth[head]
            head += 1
            if length >= limit:
                break
            node = state >> 1
            truth = state & 1
            if truth:
                if w_len[node] < 0:
                    _weak(node, cands, values, n, peers, n_peers, same_cell, scratch, w_adj, w_len)
                links = w_adj[node, : w_len[node]]
            else:
                links = s_adj[node, : s_len[node]]
            for nxt in links:
                after = 2 * nxt + 1 - truth
                if seen[after] == start or truth and s_len[nxt] == 0:
                    continue
                seen[after] = start
                parent[after] = state
                if not truth and nxt != start and (not same_digit or (nxt - start) % n == 0):
                    if w_len[nxt] < 0:
                        _weak(
                            nxt, cands, values, n, peers, n_peers, same_cell, scratch, w_adj, w_len
                        )
                    hits = plain(0)
                    for k in range(w_len[nxt]):
                        v = w_adj[nxt, k]
                        if near[v] == start and v != start and v != nxt:
                            found[hits] = v
                            hits += 1
                    if hits:
                        hit = after
                        best = length + 1
                        break
                queue[tail] = after
                depth[tail] = length + 1
                tail += 1
        if hit < 0:
            continue
        _sorted_into(found, hits, gone)
        best_gone = hits
        best_path = 0
        state = hit
        while state != -1:
            path[best_path] = state >> 1
            best_path += 1
            state = parent[state]
        for i in range(best_path // 2):  # reversed in place: start first
            path[i], path[best_path - 1 - i] = path[best_path - 1 - i], path[i]
    return best, best_path, best_gone


def search(
    cands: list[int],
    values: list[int],
    layout: Layout,
    kind: str,
    same_digit: bool,
    max_nodes: int,
) -> tuple[int, list[int], list[int]] | None:
    """`_search` from Python: (length, the chain's nodes, the removed nodes) or None."""
    peers, n_peers, houses_of, house_cells = compiled_multiple.tables(layout)
    n = layout.n
    path = np.empty(max_nodes + 2, dtype=np.int64)
    gone = np.empty(n - 1 + int(n_peers.max()) + 1, dtype=np.int64)
    length, path_len, gone_len = _search(
        np.array(cands, dtype=np.int64),
        np.array(values, dtype=np.int64),
        n,
        peers,
        n_peers,
        houses_of,
        house_cells,
        kind in ("xy", "aic"),
        kind in ("x", "aic"),
        kind != "x",
        same_digit,
        max_nodes,
        path,
        gone,
    )
    if not length:
        return None
    return int(length), path[:path_len].tolist(), gone[:gone_len].tolist()


def usable(n: int) -> bool:
    """Whether the compiled searches take an n×n board: candidate masks must fit an int64."""
    return n <= WIDEST
