"""Random jigsaw regions for the generator: n connected regions of n cells, reached from
regular boxes (or from the rows, when n has no box shape) by random swaps of two adjacent
cells of different regions that leave both regions connected."""

from __future__ import annotations

import random

from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Shape, default_box

_SWAPS_PER_CELL = 4  # successful swaps per cell: enough that no box outline survives


def random_regions(n: int, rng: random.Random) -> Shape:
    """A jigsaw shape of size n; every region connected (orthogonally)."""
    region = _start(n)
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
            for cell, label in region.items()
            if label == rb and cell != x and any(region.get(p) == ra for p in _around(cell))
        )
        if not border:
            continue
        b = rng.choice(border)
        region[a], region[b] = rb, ra
        if _connected(region, ra, n) and _connected(region, rb, n):
            done += 1
        else:
            region[a], region[b] = ra, rb
    labels = [[str(region[(r, c)]) for c in range(n)] for r in range(n)]
    return Shape.jigsaw(labels)


def _start(n: int) -> dict[Cell, int]:
    """Regular boxes where n has a box shape, else one region per row."""
    try:
        rows, cols = default_box(n)
    except PuzzleError:
        return {(r, c): r for r in range(n) for c in range(n)}
    return {(r, c): (r // rows) * (n // cols) + c // cols for r in range(n) for c in range(n)}


def _connected(region: dict[Cell, int], label: int, n: int) -> bool:
    """Whether the cells labelled `label` form one orthogonally connected piece."""
    cells = {cell for cell, value in region.items() if value == label}
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
