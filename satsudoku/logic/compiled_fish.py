"""The first (finned) fish in compiled form (Numba, when it is installed).

Fish and finned fish run before every chain and forcing step and nearly always find nothing:
in CPython a quarter of the rating's time once the chains were compiled. This search visits
digits, orientations, bases and covers in `fish.fish_steps`' order (a finned base's fin boxes
in the order the base lines first reach them, `compiled_chains._first_seen`) and
stops at the first fish that clears something; `fish.py` words the step and stays the reference
and the path without Numba (tests/test_logic_speed.py compares the two).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from satsudoku.backends.fast_kernel import compiled
from satsudoku.logic.compiled_chains import _first_seen
from satsudoku.logic.compiled_franken import _count, plain
from satsudoku.logic.state import Layout


@compiled
def _segment(seg_box: Any, seg_mask: Any, seg_cnt: Any, o: int, line: int, box: int) -> int:
    """The cross lines of `line` inside `box` (0 if it does not cross it)."""
    for j in range(seg_cnt[o, line]):
        if seg_box[o, line, j] == box:
            return int(seg_mask[o, line, j])
    return 0


@compiled
def _clears(where: Any, in_base: Any, n: int, o: int, cover: int, box: int, box_of: Any) -> bool:
    """Whether a cover place off the base lines (in `box` if box >= 0) holds the digit."""
    for line in range(n):
        if in_base[line]:
            continue
        hits = where[line] & cover
        while hits:
            k = 0
            while not hits >> k & 1:
                k += 1
            hits ^= 1 << k
            cell = line * n + k if o == 0 else k * n + line
            if box < 0 or box_of[cell] == box:
                return True
    return False


@compiled
def _search(
    cands: Any,
    values: Any,
    n: int,
    size: int,
    finned: bool,
    box_of: Any,
    seg_box: Any,
    seg_mask: Any,
    seg_cnt: Any,
    out: Any,
) -> bool:
    """`fish.fish_steps`' first fish: out = digit, orientation (0: base rows), cover mask, fin
    box (-1: none), the base lines."""
    limit = size + 3 if finned else size
    where = np.zeros(n, dtype=np.int64)
    elig_line = np.empty(n, dtype=np.int64)
    elig_w = np.empty(n, dtype=np.int64)
    pos = np.empty(size + 1, dtype=np.int64)
    unions = np.zeros(size + 1, dtype=np.int64)
    in_base = np.zeros(n, dtype=np.bool_)
    width = size * seg_box.shape[2] + 1
    seq = np.empty(width, dtype=np.int64)
    boxes = np.empty(width, dtype=np.int64)
    crosses = np.empty(n, dtype=np.int64)
    pick = np.empty(n + 1, dtype=np.int64)
    no_box = plain(-1)
    for digit in range(n):
        bit = 1 << digit
        for o in range(2):
            total = 0
            for line in range(n):
                w = 0
                for k in range(n):
                    cell = line * n + k if o == 0 else k * n + line
                    if values[cell] == 0 and cands[cell] & bit:
                        w |= 1 << k
                where[line] = w
                total |= w
            if not total:
                break  # no place of this digit: the other orientation has none either
            m = 0
            for line in range(n):
                w = where[line]
                if w:
                    c = _count(w)
                    if c <= limit and (finned or c >= 2):
                        elig_line[m] = line
                        elig_w[m] = w
                        m += 1
            if m < size:
                continue
            d = 0
            pos[0] = 0
            while d >= 0:
                i = pos[d]
                if i > m - (size - d):
                    d -= 1
                    if d >= 0:
                        pos[d] += 1
                    continue
                union = unions[d] | elig_w[i]
                spread = _count(union)
                if spread > limit:
                    pos[d] += 1
                    continue
                if d + 1 < size:
                    unions[d + 1] = union
                    d += 1
                    pos[d] = i + 1
                    continue
                # A whole base: elig[pos[0..size-1]].
                pos[d] += 1
                if spread <= size if finned else spread != size:
                    continue  # finned: a basic fish (found at its own level)
                in_base[:] = False
                for j in range(size):
                    in_base[elig_line[pos[j] - (1 if j == d else 0)]] = True
                if not finned:
                    if _clears(where, in_base, n, o, union, no_box, box_of):
                        _write(out, digit, o, union, no_box, elig_line, pos, size)
                        return True
                    continue
                count = plain(0)
                for j in range(size):
                    line = elig_line[pos[j] - (1 if j == d else 0)]
                    w = where[line]
                    for s in range(seg_cnt[o, line]):
                        if w & seg_mask[o, line, s]:
                            seq[count] = seg_box[o, line, s]
                            count += 1
                listed = _first_seen(seq, count, boxes)
                for b in range(listed):
                    box = boxes[b]
                    off_base = False
                    for line in range(n):
                        if not in_base[line] and where[line] & _segment(
                            seg_box, seg_mask, seg_cnt, o, line, box
                        ):
                            off_base = True
                            break
                    if not off_base:
                        continue  # its fins would clear nothing
                    fixed, inside = plain(0), plain(0)
                    for j in range(size):
                        line = elig_line[pos[j] - (1 if j == d else 0)]
                        w = where[line]
                        inner = _segment(seg_box, seg_mask, seg_cnt, o, line, box)
                        fixed |= w & ~inner
                        inside |= w & inner
                    free = size - _count(fixed)
                    inside &= ~fixed
                    if free < 0 or free > _count(inside):
                        continue
                    ci = 0
                    for k in range(n):
                        if inside >> k & 1:
                            crosses[ci] = k
                            ci += 1
                    for t in range(free):
                        pick[t] = t
                    while True:  # combinations(crosses, free), in order
                        cover = fixed
                        for t in range(free):
                            cover |= 1 << crosses[pick[t]]
                        if inside & ~cover and _clears(where, in_base, n, o, cover, box, box_of):
                            _write(out, digit, o, cover, box, elig_line, pos, size)
                            return True
                        t = free - 1
                        while t >= 0 and pick[t] == ci - free + t:
                            t -= 1
                        if t < 0:
                            break
                        pick[t] += 1
                        for u in range(t + 1, free):
                            pick[u] = pick[u - 1] + 1
    return False


@compiled
def _write(
    out: Any, digit: int, o: int, cover: int, box: int, elig_line: Any, pos: Any, size: int
) -> None:
    """The found fish into `out` (pos[size - 1] already points past the last base line)."""
    out[0] = digit + 1
    out[1] = o
    out[2] = cover
    out[3] = box
    for j in range(size):
        out[4 + j] = elig_line[pos[j] - (1 if j == size - 1 else 0)]


_TABLES: dict[int, tuple[Layout, tuple[Any, ...]]] = {}


def tables(layout: Layout, segments: dict[bool, list[dict[int, int]]]) -> tuple[Any, ...]:
    """`fish._tables`' segments as arrays (orientation 0: lines are rows), and the box of each
    cell: remembered for one layout at a time."""
    known = _TABLES.get(id(layout))
    if known is not None and known[0] is layout:
        return known[1]
    n = layout.n
    seg_box = np.full((2, n, n), -1, dtype=np.int64)
    seg_mask = np.zeros((2, n, n), dtype=np.int64)
    seg_cnt = np.zeros((2, n), dtype=np.int64)
    for o, by_rows in enumerate((True, False)):
        for line, parts in enumerate(segments[by_rows]):
            for j, (box, mask) in enumerate(parts.items()):  # dict order: the set's adds
                seg_box[o, line, j] = box
                seg_mask[o, line, j] = mask
            seg_cnt[o, line] = len(parts)
    out = (np.array(layout.box_of, dtype=np.int64), seg_box, seg_mask, seg_cnt)
    _TABLES.clear()
    _TABLES[id(layout)] = (layout, out)
    return out


def search(
    cands: list[int],
    values: list[int],
    layout: Layout,
    segments: dict[bool, list[dict[int, int]]],
    size: int,
    finned: bool,
) -> tuple[int, bool, int, int, tuple[int, ...]] | None:
    """`_search` from Python: (digit, base lines are rows, cover mask, fin box or -1, base
    lines), or None."""
    out = np.zeros(4 + size, dtype=np.int64)
    box_of, seg_box, seg_mask, seg_cnt = tables(layout, segments)
    cells = np.array(cands, dtype=np.int64), np.array(values, dtype=np.int64)
    if not _search(*cells, layout.n, size, finned, box_of, seg_box, seg_mask, seg_cnt, out):
        return None
    found = [int(x) for x in out]
    return found[0], found[1] == 0, found[2], found[3], tuple(found[4:])
