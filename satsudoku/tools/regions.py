"""Random jigsaw regions for the generator: n connected regions of n cells, reached from
regular boxes (or from the rows, when n has no box shape) by random swaps of two adjacent
cells of different regions that leave both regions connected."""

from __future__ import annotations

import random

from satsudoku.deadline import check
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Shape, default_box

_SWAPS_PER_CELL = 4  # successful swaps per cell: enough that no box outline survives
_TRIES_PER_CHECK = 256  # swaps tried between two reads of the clock


def random_regions(n: int, rng: random.Random, deadline: float | None = None) -> Shape:
    """A jigsaw shape of size n; every region connected (orthogonally). OutOfTime once
    `deadline` passes.

    Each swap looks at the two regions' own cells (n each), not the whole board: scanning all
    n² cells per swap made a 64x64 drawing minutes of CPU (`generate --jigsaw 64 --timeout 1`
    ran past 120 s); the same swaps are tried in the same order, so a seed draws the same
    regions as before."""
    region = _start(n)
    members: dict[int, set[Cell]] = {}
    for cell, label in region.items():
        members.setdefault(label, set()).add(cell)
    pairs = [
        ((r, c), (r + dr, c + dc))
        for r in range(n)
        for c in range(n)
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < n and c + dc < n
    ]
    wanted, tries = _SWAPS_PER_CELL * n * n, 0
    done = 0
    while done < wanted and tries < 20 * wanted and pairs:
        if tries % _TRIES_PER_CHECK == 0:
            check(deadline)
        tries += 1
        a, x = rng.choice(pairs)
        ra, rb = region[a], region[x]
        if ra == rb:
            continue
        if rng.random() < 0.5:  # either side of the border gives a cell away
            a, x, ra, rb = x, a, rb, ra
        # `a` joins its neighbour's region B; a cell of B on the border with A goes the
        # other way, so both keep n cells. Swapping `a` with `x` itself would cut `x` off.
        border = sorted(
            cell
            for cell in members[rb]
            if cell != x and any(region.get(p) == ra for p in _around(cell))
        )
        if not border:
            continue
        b = rng.choice(border)
        _move(region, members, a, ra, rb)
        _move(region, members, b, rb, ra)
        if _connected(members[ra]) and _connected(members[rb]):
            done += 1
        else:
            _move(region, members, a, rb, ra)
            _move(region, members, b, ra, rb)
    labels = [[str(region[(r, c)]) for c in range(n)] for r in range(n)]
    return Shape.jigsaw(labels)


def start_regions(n: int) -> Shape:
    """The shape random drawings start from: a jigsaw of size n, at once (what `generate
    --jigsaw N` checks its options against before each puzzle draws its own)."""
    region = _start(n)
    return Shape.jigsaw([[str(region[(r, c)]) for c in range(n)] for r in range(n)])


def _move(
    region: dict[Cell, int], members: dict[int, set[Cell]], cell: Cell, old: int, new: int
) -> None:
    region[cell] = new
    members[old].remove(cell)
    members[new].add(cell)


def _start(n: int) -> dict[Cell, int]:
    """Regular boxes where n has a box shape, else one region per row."""
    try:
        rows, cols = default_box(n)
    except PuzzleError:
        return {(r, c): r for r in range(n) for c in range(n)}
    return {(r, c): (r // rows) * (n // cols) + c // cols for r in range(n) for c in range(n)}


def _connected(cells: set[Cell]) -> bool:
    """Whether `cells` form one orthogonally connected piece."""
    start = next(iter(cells))
    seen = {start}
    stack = [start]
    while stack:
        r, c = stack.pop()
        for other in _around((r, c)):
            if other in cells and other not in seen:
                seen.add(other)
                stack.append(other)
    return len(seen) == len(cells)


def _around(cell: Cell) -> tuple[Cell, ...]:
    r, c = cell
    return ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
