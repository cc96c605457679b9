"""Rule instances read off a complete grid, for the generator: every clue a rule could state
that the grid satisfies (dots, XV pairs, little-killer diagonals, sandwich sums), or a random
drawing of clues that hold (killer cages partitioning the board, thermometers, arrows).

Each reader returns the rule's document form (a spec for `make_rule`), so the puzzle a
generator writes is an ordinary puzzle document. Randomness comes only from the `rng` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from satsudoku.grid import Cell, Grid, Shape, cell_name

Spec = dict[str, Any]
Reader = Callable[[Grid, Shape, random.Random], Spec]

_ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
_KING = _ORTHOGONAL + ((1, 1), (1, -1), (-1, 1), (-1, -1))
# Cage sizes, drawn per cage. Small cages pin more: measured on 30 9×9 grids (seed 1), the
# cages alone gave a unique puzzle for 9 grids with these sizes, 4 with (2, 2, 3, 3, 3, 4, 4, 5).
_CAGE_SIZES = (2, 2, 2, 3, 3, 3, 4)


def _names(cells: Iterator[Cell] | list[Cell] | tuple[Cell, ...]) -> list[str]:
    return [cell_name(cell) for cell in cells]


def _inside(cell: Cell, n: int) -> bool:
    return 0 <= cell[0] < n and 0 <= cell[1] < n


def _neighbours(cell: Cell, n: int, steps: tuple[Cell, ...]) -> list[Cell]:
    return [
        (cell[0] + dr, cell[1] + dc) for dr, dc in steps if _inside((cell[0] + dr, cell[1] + dc), n)
    ]


def _pairs(n: int) -> Iterator[tuple[Cell, Cell]]:
    """Every orthogonally adjacent pair once, row-major."""
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                yield (r, c), (r, c + 1)
            if r + 1 < n:
                yield (r, c), (r + 1, c)


def killer(grid: Grid, shape: Shape, rng: random.Random) -> Spec:
    """Cages that partition the board, grown from random cells through orthogonal neighbours
    with no repeated digit, each with the sum of its digits."""
    n = shape.size
    cells = list(shape.cells())
    rng.shuffle(cells)
    taken: set[Cell] = set()
    cages: list[list[Cell]] = []
    for seed_cell in cells:
        if seed_cell in taken:
            continue
        target = min(rng.choice(_CAGE_SIZES), n)
        cage = [seed_cell]
        digits = {grid[seed_cell]}
        taken.add(seed_cell)
        while len(cage) < target:
            frontier = sorted(
                {
                    other
                    for cell in cage
                    for other in _neighbours(cell, n, _ORTHOGONAL)
                    if other not in taken and grid[other] not in digits
                }
            )
            if not frontier:
                break
            grown = rng.choice(frontier)
            cage.append(grown)
            digits.add(grid[grown])
            taken.add(grown)
        cages.append(cage)
    _absorb_singletons(cages, grid, n)
    spec = [{"cells": _names(sorted(cage)), "sum": sum(grid[c] for c in cage)} for cage in cages]
    return {"type": "killer", "cages": spec}


def _absorb_singletons(cages: list[list[Cell]], grid: Grid, n: int) -> None:
    """A one-cell cage is a given in disguise: join it to a neighbouring cage that lacks its
    digit, where there is one (a cage never grows past n cells)."""
    owner = {cell: k for k, cage in enumerate(cages) for cell in cage}
    for k, cage in enumerate(cages):
        if len(cage) != 1:
            continue
        cell = cage[0]
        for other in sorted({owner[p] for p in _neighbours(cell, n, _ORTHOGONAL)} - {k}):
            host = cages[other]
            if len(host) < n and grid[cell] not in {grid[c] for c in host}:
                host.append(cell)
                owner[cell] = other
                cage.clear()
                break
    cages[:] = [cage for cage in cages if cage]


def kropki(grid: Grid, shape: Shape, rng: random.Random) -> Spec:
    """Every dot the grid allows: white between consecutive digits, black between a digit and
    its double (1 and 2 are both: one of the two at random). No negative constraint, so each
    dot is an instance of its own."""
    white: list[list[str]] = []
    black: list[list[str]] = []
    for a, b in _pairs(shape.size):
        low, high = sorted((grid[a], grid[b]))
        is_white, is_black = high == low + 1, high == 2 * low
        if is_white and is_black:
            is_white = rng.random() < 0.5
            is_black = not is_white
        if is_white:
            white.append(_names((a, b)))
        elif is_black:
            black.append(_names((a, b)))
    return {"type": "kropki", "white": white, "black": black}


def xv(grid: Grid, shape: Shape, rng: random.Random) -> Spec:
    """Every X (sum 10) and V (sum 5) the grid allows; no negative constraint."""
    x = [_names(pair) for pair in _pairs(shape.size) if grid[pair[0]] + grid[pair[1]] == 10]
    v = [_names(pair) for pair in _pairs(shape.size) if grid[pair[0]] + grid[pair[1]] == 5]
    return {"type": "xv", "x": x, "v": v}


def _diagonals(n: int) -> Iterator[list[Cell]]:
    """Every diagonal of the board in both directions, each listed from one end."""
    for start in range(-(n - 1), n):  # down-right: c - r == start
        yield [(r, r + start) for r in range(n) if 0 <= r + start < n]
    for start in range(2 * n - 1):  # down-left: r + c == start
        yield [(r, start - r) for r in range(n) if 0 <= start - r < n]


def littlekiller(grid: Grid, shape: Shape, rng: random.Random) -> Spec:
    """The sum of every diagonal of 2 cells or more short of the main ones (which would read
    as the sum of 1..n when digits do not repeat on them: no information)."""
    n = shape.size
    clues = [
        {"cells": _names(line), "sum": sum(grid[cell] for cell in line)}
        for line in _diagonals(n)
        if 2 <= len(line) < n
    ]
    return {"type": "littlekiller", "clues": clues}


def sandwich(grid: Grid, shape: Shape, rng: random.Random) -> Spec:
    """Each row's and column's sum between its 1 and its n."""
    n = shape.size

    def between(line: list[int]) -> int:
        low, high = sorted((line.index(1), line.index(n)))
        return sum(line[low + 1 : high])

    rows = [between([grid[(r, c)] for c in range(n)]) for r in range(n)]
    cols = [between([grid[(r, c)] for r in range(n)]) for c in range(n)]
    return {"type": "sandwich", "rows": rows, "cols": cols}


def thermometer(grid: Grid, shape: Shape, rng: random.Random) -> Spec:
    """About n disjoint thermometers of 3 cells or more: walks through king-adjacent cells
    whose digits rise, each from a random start, kept when long enough."""
    n = shape.size
    used: set[Cell] = set()
    lines: list[list[str]] = []
    starts = list(shape.cells())
    rng.shuffle(starts)
    for start in starts:
        if len(lines) >= n:
            break
        if start in used:
            continue
        line = [start]
        while True:
            here = line[-1]
            rising = [
                cell
                for cell in _neighbours(here, n, _KING)
                if cell not in used and cell not in line and grid[cell] > grid[here]
            ]
            if not rising:
                break
            line.append(rng.choice(rising))
        if len(line) >= 3:
            used.update(line)
            lines.append(_names(line))
    return {"type": "thermometer", "lines": lines}


def arrow(grid: Grid, shape: Shape, rng: random.Random) -> Spec:
    """About n disjoint single-cell-bulb arrows: from a random bulb, a walk through
    king-adjacent cells while the shaft's sum stays below the bulb, kept when it lands on it."""
    n = shape.size
    used: set[Cell] = set()
    arrows: list[Spec] = []
    bulbs = list(shape.cells())
    rng.shuffle(bulbs)
    for bulb in bulbs:
        if len(arrows) >= n:
            break
        if bulb in used:
            continue
        shaft: list[Cell] = []
        left = grid[bulb]
        here = bulb
        while left > 0:
            steps = [
                cell
                for cell in _neighbours(here, n, _KING)
                if cell not in used and cell != bulb and cell not in shaft and grid[cell] <= left
            ]
            if not steps:
                break
            here = rng.choice(steps)
            shaft.append(here)
            left -= grid[here]
        if left == 0 and len(shaft) >= 2:
            used.update([bulb, *shaft])
            arrows.append({"bulb": [cell_name(bulb)], "shaft": _names(shaft)})
    return {"type": "arrow", "arrows": arrows}


READERS: dict[str, Reader] = {
    "killer": killer,
    "kropki": kropki,
    "xv": xv,
    "littlekiller": littlekiller,
    "sandwich": sandwich,
    "thermometer": thermometer,
    "arrow": arrow,
}
