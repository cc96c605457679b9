"""Where the cheap techniques can find something, in compiled form (Numba, when installed).

Subsets, locked candidates and wings run before every harder step and nearly always find
nothing; in CPython their scans were a third of the rating's time once the chains and fish
were compiled. Each kernel here answers one question exactly: the first house (overlap, pivot,
pair of cells) at or after `start` where the Python technique yields a step. The Python
technique then looks there only and words the step, so what it finds and says is unchanged
(tests/test_logic_speed.py compares both paths).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from satsudoku.backends.fast_kernel import compiled
from satsudoku.logic import compiled_multiple
from satsudoku.logic.compiled_franken import _count, plain
from satsudoku.logic.state import Layout


@compiled
def _next_pick(pick: Any, k: int, m: int) -> bool:
    """Advance `pick` (k ascending indices below m) to the next combination in
    itertools.combinations order; False after the last."""
    t = k - 1
    while t >= 0 and pick[t] == m - k + t:
        t -= 1
    if t < 0:
        return False
    pick[t] += 1
    for u in range(t + 1, k):
        pick[u] = pick[u - 1] + 1
    return True


@compiled
def _hidden_house(cands: Any, values: Any, house_cells: Any, size: int, start: int) -> int:
    """`subsets._hidden_in`: the first house from `start` with a hidden subset of `size` that
    removes something, or -1."""
    n = house_cells.shape[1]
    places = np.zeros(n, dtype=np.int64)
    few = np.empty(n, dtype=np.int64)
    pick = np.empty(size, dtype=np.int64)
    for h in range(start, house_cells.shape[0]):
        places[:] = 0
        for i in range(n):
            c = house_cells[h, i]
            if values[c] == 0:
                mask = cands[c]
                for d in range(n):
                    if mask >> d & 1:
                        places[d] |= 1 << i
        present = 0
        m = plain(0)  # see compiled_franken.plain
        for d in range(n):
            if places[d]:
                present += 1
                k = _count(places[d])
                if 2 <= k <= size:
                    few[m] = d
                    m += 1
        if present <= size or m < size:
            continue
        for t in range(size):
            pick[t] = t
        while True:
            where = plain(0)
            keep = 0
            for t in range(size):
                where |= places[few[pick[t]]]
                keep |= 1 << few[pick[t]]
            if _count(where) == size:
                for i in range(n):
                    if where >> i & 1 and cands[house_cells[h, i]] & ~keep:
                        return h
            if not _next_pick(pick, size, m):
                break
    return -1


@compiled
def _naked_house(
    cands: Any, values: Any, house_cells: Any, houses_of: Any, size: int, start: int
) -> int:
    """`subsets.naked_steps`: the first house from `start` with a naked subset of `size` that
    removes something, or -1."""
    n = house_cells.shape[1]
    small = np.empty(n, dtype=np.int64)
    pick = np.empty(size, dtype=np.int64)
    for h in range(start, house_cells.shape[0]):
        m = plain(0)
        for i in range(n):
            c = house_cells[h, i]
            if values[c] == 0 and 2 <= _count(cands[c]) <= size:
                small[m] = c
                m += 1
        if m < size:
            continue
        for t in range(size):
            pick[t] = t
        while True:
            union = plain(0)
            for t in range(size):
                union |= cands[small[pick[t]]]
            if _count(union) == size:
                first = small[pick[0]]
                for j in range(houses_of.shape[1]):
                    common = houses_of[first, j]
                    if common < 0:
                        continue
                    shared = True
                    for t in range(1, size):
                        inside = False
                        for u in range(houses_of.shape[1]):
                            if houses_of[small[pick[t]], u] == common:
                                inside = True
                        shared = shared and inside
                    if not shared:
                        continue
                    for i in range(n):
                        c = house_cells[common, i]
                        if values[c] or not cands[c] & union:
                            continue
                        member = False
                        for t in range(size):
                            member = member or small[pick[t]] == c
                        if not member:
                            return h
            if not _next_pick(pick, size, m):
                break
    return -1


@compiled
def _locked_entry(cands: Any, values: Any, parts: Any, lengths: Any, start: int) -> int:
    """`locked._locked`: the first overlap entry from `start` that yields locked candidates
    (parts[e, 0]: the shared cells, 1: the rest of house a, 2: the rest of house b), or -1."""
    for e in range(start, parts.shape[0]):
        inside = 0
        for j in range(lengths[e, 0]):
            c = parts[e, 0, j]
            if values[c] == 0:
                inside |= cands[c]
        rest = 0
        for j in range(lengths[e, 1]):
            rest |= cands[parts[e, 1, j]]
        locked = inside & ~rest
        while locked:
            low = locked & -locked
            locked ^= low
            removed = False
            for j in range(lengths[e, 2]):
                c = parts[e, 2, j]
                if values[c] == 0 and cands[c] & low:
                    removed = True
                    break
            if not removed:
                continue
            places = 0
            for j in range(lengths[e, 0]):
                c = parts[e, 0, j]
                if values[c] == 0 and cands[c] & low:
                    places += 1
            if places >= 2:
                return e
    return -1


@compiled
def _seen_by_all(cands: Any, values: Any, sees: Any, cells: Any, k: int, bit: int) -> bool:
    """`state.seen_by_all` is not empty: an open cell besides `cells` seeing them all has
    the digit."""
    for c in range(cands.shape[0]):
        if values[c] or not cands[c] & bit:
            continue
        ok = True
        for t in range(k):
            if not sees[cells[t], c]:  # a cell does not see itself
                ok = False
                break
        if ok:
            return True
    return False


@compiled
def _wing_pivot(cands: Any, values: Any, sees: Any, pivot_size: int, start: int) -> int:
    """`wings._wing`: the first pivot from `start` of a wing that removes something, or -1."""
    cells = cands.shape[0]
    bivalue = np.empty(cells, dtype=np.int64)
    nb = 0
    for c in range(cells):
        if values[c] == 0 and _count(cands[c]) == 2:
            bivalue[nb] = c
            nb += 1
    pincers = np.empty(cells, dtype=np.int64)
    group = np.empty(3, dtype=np.int64)
    for pivot in range(start, cells):
        pmask = cands[pivot]
        if values[pivot] or _count(pmask) != pivot_size:
            continue
        m = 0
        for j in range(nb):
            c = bivalue[j]
            if c != pivot and sees[pivot, c]:
                pincers[m] = c
                m += 1
        for i in range(m):
            for j in range(i + 1, m):
                a, b = pincers[i], pincers[j]
                ma, mb = cands[a], cands[b]
                if ma == mb:
                    continue
                z = ma & mb
                if _count(z) != 1:
                    continue
                if pivot_size == 2:
                    if (ma | mb) & ~z != pmask or pmask & z:
                        continue
                    group[0], group[1] = a, b
                    k = plain(2)
                else:
                    if (ma | mb) != pmask:
                        continue
                    group[0], group[1], group[2] = pivot, a, b
                    k = plain(3)
                if _seen_by_all(cands, values, sees, group, k, z):
                    return pivot
    return -1


@compiled
def _w_wing_pair(cands: Any, values: Any, sees: Any, house_cells: Any) -> Any:
    """`wings.w_wing`: the first pair of cells (a, b) of a W-wing that removes something, or
    (-1, -1)."""
    cells = cands.shape[0]
    n = house_cells.shape[1]
    bivalue = np.empty(cells, dtype=np.int64)
    nb = 0
    for c in range(cells):
        if values[c] == 0 and _count(cands[c]) == 2:
            bivalue[nb] = c
            nb += 1
    group = np.empty(2, dtype=np.int64)
    two = plain(2)
    for i in range(nb):
        for j in range(i + 1, nb):
            a, b = bivalue[i], bivalue[j]
            if cands[a] != cands[b] or sees[a, b]:
                continue
            group[0], group[1] = a, b
            for x in range(n):
                xbit = 1 << x
                if not cands[a] & xbit:
                    continue
                ybit = cands[a] & ~xbit
                if not _seen_by_all(cands, values, sees, group, two, ybit):
                    continue
                for h in range(house_cells.shape[0]):
                    p = q = -1
                    count = 0
                    for t in range(n):
                        c = house_cells[h, t]
                        if values[c] == 0 and cands[c] & xbit:
                            count += 1
                            if p < 0:
                                p = c
                            else:
                                q = c
                    if count != 2 or p == a or p == b or q == a or q == b:
                        continue
                    if (sees[a, p] and sees[b, q]) or (sees[a, q] and sees[b, p]):
                        return a, b
    return -1, -1


@compiled
def _single_house(
    cands: Any, values: Any, house_cells: Any, pick: Any, full_house: bool, start: int
) -> int:
    """The first house from `start` among those `pick` marks with a full house (one open
    cell, its missing digit a candidate there, `full_house`) or else a hidden single: -1 if
    none."""
    n = house_cells.shape[1]
    for h in range(start, house_cells.shape[0]):
        if not pick[h]:
            continue
        if full_house:
            open_cell = -1
            empty = 0
            placed = 0
            for i in range(n):
                c = house_cells[h, i]
                if values[c] == 0:
                    empty += 1
                    open_cell = c
                else:
                    placed |= 1 << (values[c] - 1)
            if empty == 1:
                missing = ~placed & cands[open_cell]
                if missing and not missing & (missing - 1):
                    return h
            continue
        once = twice = 0
        for i in range(n):
            c = house_cells[h, i]
            if values[c] == 0:
                twice |= once & cands[c]
                once |= cands[c]
        if once & ~twice:
            return h
    return -1


@compiled
def _turbot_any(cands: Any, values: Any, sees: Any, house_cells: Any) -> bool:
    """`chains.turbot_fish` finds something: two strong links on a digit, ends b and c
    seeing each other, and a cell seeing both other ends a and d holds the digit."""
    n = house_cells.shape[1]
    houses = house_cells.shape[0]
    ends = np.empty((houses, 2), dtype=np.int64)
    for digit in range(n):
        bit = 1 << digit
        m = 0
        for h in range(houses):
            count = 0
            for i in range(n):
                c = house_cells[h, i]
                if values[c] == 0 and cands[c] & bit:
                    if count < 2:
                        ends[m, count] = c
                    count += 1
            if count == 2:
                m += 1
        for i in range(m):
            for j in range(i + 1, m):
                p1, q1, p2, q2 = ends[i, 0], ends[i, 1], ends[j, 0], ends[j, 1]
                if (p1 == p2 and q1 == q2) or (p1 == q2 and q1 == p2):
                    continue
                for x in range(2):
                    b, a = (p1, q1) if x == 0 else (q1, p1)
                    for y in range(2):
                        c, d = (p2, q2) if y == 0 else (q2, p2)
                        if a == c or a == d or b == c or b == d or not sees[b, c]:
                            continue
                        for e in range(cands.shape[0]):
                            if values[e] or not cands[e] & bit:
                                continue
                            if e == b or e == c or not sees[a, e] or not sees[d, e]:
                                continue
                            return True
    return False


@compiled
def _one_digit(
    n: int,
    cell: int,
    budget: int,
    places: Any,
    done: Any,
    peers: Any,
    n_peers: Any,
    house_cells: Any,
    todo: Any,
    why: Any,
) -> int:
    """`forcing._one_digit` on bool arrays (changed in place): the placements made; why[0]
    is 0 (no contradiction), 1 (cell why[1] cannot hold the digit) or 2 (house why[1] has no
    place for it)."""
    why[0] = 0
    todo[0] = cell
    top = 1
    made = 0
    while top > 0:
        top -= 1
        here = todo[top]
        if done[here]:
            continue
        if not places[here]:
            why[0], why[1] = 1, here
            return made
        done[here] = True
        made += 1
        if made > budget:
            return made
        places[here] = False
        for k in range(n_peers[here]):
            places[peers[here, k]] = False
        for h in range(house_cells.shape[0]):
            left = 0
            last = -1
            taken = False
            for i in range(n):
                c = house_cells[h, i]
                if done[c]:
                    taken = True
                    break
                if places[c]:
                    left += 1
                    last = c
            if taken:
                continue
            if left == 0:
                why[0], why[1] = 2, h
                return made
            if left == 1:
                todo[top] = last
                top += 1
    return made


@compiled
def _nishio(cands: Any, values: Any, peers: Any, n_peers: Any, house_cells: Any, best: Any) -> None:
    """`forcing.nishio`'s search: best = placements, cell, digit, why kind, why where of the
    shortest contradiction (first met among equals), placements -1 if none."""
    n = house_cells.shape[1]
    cells = cands.shape[0]
    base_places = np.zeros(cells, dtype=np.bool_)
    base_done = np.zeros(cells, dtype=np.bool_)
    places = np.zeros(cells, dtype=np.bool_)
    done = np.zeros(cells, dtype=np.bool_)
    todo = np.empty(cells * house_cells.shape[0] + 1, dtype=np.int64)
    why = np.zeros(2, dtype=np.int64)
    best[0] = -1
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        for c in range(cells):
            base_places[c] = values[c] == 0 and cands[c] & bit != 0
            base_done[c] = values[c] == digit
        for cell in range(cells):
            if not base_places[cell]:
                continue
            budget = best[0] if best[0] >= 0 else n * n
            for c in range(cells):  # element by element: an array copy brings in Numba's
                places[c] = base_places[c]  # shape-mismatch message, compiled str formatting
                done[c] = base_done[c]
            made = _one_digit(n, cell, budget, places, done, peers, n_peers, house_cells, todo, why)
            if why[0] and (best[0] < 0 or made < best[0]):
                best[0], best[1], best[2], best[3], best[4] = made, cell, digit, why[0], why[1]


_TABLES: dict[int, tuple[Layout, tuple[Any, ...]]] = {}


def tables(layout: Layout) -> tuple[Any, ...]:
    """(house cells, houses per cell, who sees whom, overlap parts and their lengths, box
    flags per house, peers and their counts), remembered for one layout at a time."""
    known = _TABLES.get(id(layout))
    if known is not None and known[0] is layout:
        return known[1]
    peers, n_peers, houses_of, house_cells = compiled_multiple.tables(layout)
    cells = layout.n * layout.n
    sees = np.zeros((cells, cells), dtype=np.bool_)
    for cell, seen in enumerate(layout.peers):
        sees[cell, list(seen)] = True
    overlaps = layout.overlap_parts
    width = max((len(p) for entry in overlaps for p in entry[2:]), default=1)
    parts = np.zeros((max(1, len(overlaps)), 3, width), dtype=np.int64)
    lengths = np.zeros((max(1, len(overlaps)), 3), dtype=np.int64)
    for e, (_a, _b, *cell_lists) in enumerate(overlaps):
        for k, part in enumerate(cell_lists):
            parts[e, k, : len(part)] = part
            lengths[e, k] = len(part)
    is_box = np.array([h.is_box for h in layout.houses], dtype=np.bool_)
    out = (
        house_cells,
        houses_of,
        sees,
        parts[: len(overlaps)],
        lengths[: len(overlaps)],
        is_box,
        peers,
        n_peers,
    )
    _TABLES.clear()
    _TABLES[id(layout)] = (layout, out)
    return out


_LAST: list[Any] = [None, None, None, None]  # the last marks converted, as lists and arrays


def arrays(cands: list[int], values: list[int]) -> tuple[Any, Any]:
    """The marks as int64 arrays (the last ones are kept: the ladder's techniques look at one
    board in turn)."""
    if _LAST[0] != cands or _LAST[1] != values:
        _LAST[:] = cands.copy(), values.copy()
        _LAST[2:] = np.array(cands, dtype=np.int64), np.array(values, dtype=np.int64)
    return _LAST[2], _LAST[3]


def hidden_house(cands: list[int], values: list[int], layout: Layout, size: int, start: int) -> int:
    return int(_hidden_house(*arrays(cands, values), tables(layout)[0], size, start))


def naked_house(cands: list[int], values: list[int], layout: Layout, size: int, start: int) -> int:
    house_cells, houses_of = tables(layout)[:2]
    return int(_naked_house(*arrays(cands, values), house_cells, houses_of, size, start))


def locked_entry(cands: list[int], values: list[int], layout: Layout, start: int) -> int:
    parts, lengths = tables(layout)[3:5]
    return int(_locked_entry(*arrays(cands, values), parts, lengths, start))


def wing_pivot(cands: list[int], values: list[int], layout: Layout, size: int, start: int) -> int:
    return int(_wing_pivot(*arrays(cands, values), tables(layout)[2], size, start))


def w_wing_pair(cands: list[int], values: list[int], layout: Layout) -> tuple[int, int]:
    house_cells, _houses_of, sees = tables(layout)[:3]
    a, b = _w_wing_pair(*arrays(cands, values), sees, house_cells)
    return int(a), int(b)


def single_house(
    cands: list[int], values: list[int], layout: Layout, boxes: bool | None, start: int
) -> int:
    """The first house from `start` with a hidden single (boxes only, lines and the rest
    only, or any: `boxes` True, False, None), or -1."""
    house_cells, is_box = tables(layout)[0], tables(layout)[5]
    pick = is_box if boxes is True else ~is_box if boxes is False else _ALL[: len(is_box)]
    return int(_single_house(*arrays(cands, values), house_cells, pick, False, start))


def full_house(cands: list[int], values: list[int], layout: Layout, start: int) -> int:
    """The first house from `start` with a full house, or -1."""
    house_cells = tables(layout)[0]
    pick = _ALL[: house_cells.shape[0]]
    return int(_single_house(*arrays(cands, values), house_cells, pick, True, start))


def turbot_any(cands: list[int], values: list[int], layout: Layout) -> bool:
    house_cells, _houses_of, sees = tables(layout)[:3]
    return bool(_turbot_any(*arrays(cands, values), sees, house_cells))


def nishio(
    cands: list[int], values: list[int], layout: Layout
) -> tuple[int, int, int, int, int] | None:
    """(placements, cell, digit, why kind, why where) of `forcing.nishio`'s choice, or None."""
    tab = tables(layout)
    best = np.zeros(5, dtype=np.int64)
    _nishio(*arrays(cands, values), tab[6], tab[7], tab[0], best)
    made, cell, digit, kind, where = (int(x) for x in best)
    return None if made < 0 else (made, cell, digit, kind, where)


_ALL = np.ones(4096, dtype=np.bool_)
