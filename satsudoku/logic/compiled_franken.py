"""The franken fish search (franken.py, unfinned) in compiled form (Numba, when installed).

Franken X-wings and swordfish are tried on every step that gets past the alternating chains
and almost never found (1 step in 100 top1465 puzzles), so their search, which looks at every
set of k disjoint base houses and the cover sets through their places, cost a quarter of the
rating's time in CPython. This kernel walks the same bases in the same order and the same cover
choices in the same order, and returns the first fish `franken._fishes` would yield, digit by
digit. A digit's places are numbered within the digit (bit k: its k-th open place in grid
order), so one 64-bit word holds them; a digit with more than 63 places (a nearly empty 9×9,
or a larger board) is handed back to the Python search. tests/test_logic_speed.py checks that
both paths pick the same fish.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from satsudoku.backends.fast_kernel import compiled
from satsudoku.logic.state import Layout

MAX_PLACES = 63  # places numbered 0..62: a signed 64-bit word, shifts never reach the sign
FOUND, NOTHING, TOO_MANY = 0, 1, 2  # out[0] after a search
# np.int64(k) is typed int64 in compiled code, a bare k Literal[int](k): passed to another
# compiled function (even as a loop's first value), a literal compiles it once more per value
# (0.2-1.2 s each on a first run). Typed Any so that mypy takes it where an int is expected.
plain: Any = np.int64


@compiled
def _count(x: int) -> int:
    k = 0
    while x:
        x &= x - 1
        k += 1
    return k


@compiled
def _low(x: int) -> int:
    """Index of the lowest set bit of x (x > 0)."""
    k = 0
    while not x & 1:
        x >>= 1
        k += 1
    return k


@compiled
def _first_cover(
    places: Any,
    cell_of: Any,
    options: Any,
    is_line: Any,
    base: Any,
    size: int,
    widest: int,
    union: int,
    cover: Any,
) -> bool:
    """franken._covers (unfinned) for one base, stopping at the first cover that is not all
    lines and clears something: the lowest place not yet covered is taken by one of the
    houses through it, in `options` order. The cover is left in `cover[:size]`."""
    todo = np.zeros(size + 1, dtype=np.int64)
    cell = np.zeros(size + 1, dtype=np.int64)
    ptr = np.zeros(size + 1, dtype=np.int64)
    todo[0] = union
    level = 0
    entering = True
    while level >= 0:
        if entering:
            entering = False
            if _count(todo[level]) > (size - level) * widest:
                level -= 1
                continue
            if level == size:
                lines = True
                gone = 0
                for j in range(size):
                    gone |= places[cover[j]]
                    if not is_line[cover[j]]:
                        lines = False
                if lines:
                    for j in range(size):
                        if not is_line[base[j]]:
                            lines = False
                if not lines and gone & ~union:
                    return True
                level -= 1
                continue
            if not todo[level]:
                level -= 1
                continue
            cell[level] = cell_of[_low(todo[level])]
            ptr[level] = 0
        # Try the next house through this level's place.
        advanced = False
        while ptr[level] < options.shape[1]:
            h = options[cell[level], ptr[level]]
            ptr[level] += 1
            if h < 0:
                break
            taken = False
            for j in range(level):
                if cover[j] == h:
                    taken = True
            for j in range(size):
                if base[j] == h:
                    taken = True
            if taken:
                continue
            cover[level] = h
            todo[level + 1] = todo[level] & ~places[h]
            level += 1
            entering = True
            advanced = True
            break
        if not advanced:
            level -= 1
    return False


@compiled
def _search(
    cands: Any,
    values: Any,
    size: int,
    first_digit: int,
    house_cells: Any,
    is_line: Any,
    barred: Any,
    covering: Any,
    options: Any,
    out: Any,
) -> None:
    """franken._fishes digit by digit from `first_digit`: out = [FOUND, digit, base…,
    cover…], [NOTHING], or [TOO_MANY, digit] for a digit the Python search must take."""
    cells = cands.shape[0]
    houses, n = house_cells.shape[0], house_cells.shape[1]
    index = np.full(cells, -1, dtype=np.int64)
    cell_of = np.zeros(MAX_PLACES, dtype=np.int64)
    places = np.zeros(houses, dtype=np.int64)
    pool = np.zeros(houses, dtype=np.int64)
    base = np.zeros(size, dtype=np.int64)
    cover = np.zeros(size, dtype=np.int64)
    at = np.zeros(size + 1, dtype=np.int64)
    unions = np.zeros(size + 1, dtype=np.int64)
    for digit in range(first_digit, n + 1):
        bit = 1 << (digit - 1)
        count = 0
        for c in range(cells):
            index[c] = -1
            if not values[c] and cands[c] & bit:
                if count == MAX_PLACES:
                    out[0], out[1] = TOO_MANY, digit
                    return
                index[c] = count
                cell_of[count] = c
                count += 1
        if not count:
            continue
        for h in range(houses):
            mask = 0
            for j in range(n):
                k = index[house_cells[h, j]]
                if k >= 0:
                    mask |= 1 << k
            places[h] = mask
        for o in range(2):
            pooled = 0
            widest = plain(0)
            for h in range(houses):
                if not barred[o, h] and places[h] & (places[h] - 1):
                    pool[pooled] = h
                    pooled += 1
                if covering[o, h]:
                    widest = max(widest, _count(places[h]))
            # The bases: `size` pool houses with disjoint places, in lexicographic order.
            level = 0
            at[0] = 0
            unions[0] = 0
            while level >= 0:
                if level == size:
                    if _first_cover(
                        places,
                        cell_of,
                        options[o],
                        is_line,
                        base,
                        size,
                        widest,
                        unions[size],
                        cover,
                    ):
                        out[0], out[1] = FOUND, digit
                        for j in range(size):  # not slice copies: see compiled_easy._nishio
                            out[2 + j] = base[j]
                            out[2 + size + j] = cover[j]
                        return
                    level -= 1
                    continue
                moved = False
                while at[level] < pooled:
                    h = pool[at[level]]
                    at[level] += 1
                    if not places[h] & unions[level]:
                        base[level] = h
                        unions[level + 1] = unions[level] | places[h]
                        at[level + 1] = at[level]
                        level += 1
                        moved = True
                        break
                if not moved:
                    level -= 1
    out[0] = NOTHING


_TABLES: dict[int, tuple[Layout, tuple[Any, ...]]] = {}


def tables(layout: Layout, base_kinds: tuple[str, str]) -> tuple[Any, ...]:
    """The layout as the search's arrays, remembered for one layout at a time: house cells,
    line flags, and per orientation o (base kind base_kinds[o], the other kind barred from
    the base) the houses barred from the base, the cover houses, and per cell the cover houses
    through it (in the order of layout.houses_of)."""
    known = _TABLES.get(id(layout))
    if known is not None and known[0] is layout:
        return known[1]
    houses = layout.houses
    kinds = [h.kind for h in houses]
    house_cells = np.array(layout.house_cells, dtype=np.int64).reshape(-1, layout.n)
    is_line = np.array([k in base_kinds for k in kinds], dtype=np.bool_)
    barred = np.zeros((2, len(houses)), dtype=np.bool_)
    covering = np.zeros((2, len(houses)), dtype=np.bool_)
    deepest = max((len(h) for h in layout.houses_of), default=0)
    options = np.full((2, len(layout.houses_of), max(1, deepest)), -1, dtype=np.int64)
    for o, base_kind in enumerate(base_kinds):
        other = base_kinds[1 - o]
        for h, kind in enumerate(kinds):
            barred[o, h] = kind == other
            covering[o, h] = kind != base_kind
        for cell, through in enumerate(layout.houses_of):
            row = [h for h in through if kinds[h] != base_kind]
            options[o, cell, : len(row)] = row
    out = (house_cells, is_line, barred, covering, options)
    _TABLES.clear()
    _TABLES[id(layout)] = (layout, out)
    return out


def first_fish(
    cands: list[int], values: list[int], layout: Layout, size: int, first_digit: int
) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    """`_search` from Python: (status, digit, base houses, cover houses in search order)."""
    house_cells, is_line, barred, covering, options = tables(layout, ("row", "column"))
    out = np.zeros(2 + 2 * size, dtype=np.int64)
    _search(
        np.array(cands, dtype=np.int64),
        np.array(values, dtype=np.int64),
        size,
        first_digit,
        house_cells,
        is_line,
        barred,
        covering,
        options,
        out,
    )
    found = [int(x) for x in out]
    return found[0], found[1], tuple(found[2 : 2 + size]), tuple(found[2 + size :])
