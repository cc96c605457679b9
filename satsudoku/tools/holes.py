"""Quasigroup-completion style instances: a random complete grid with a fraction of cells kept.

Gomes & Selman's "quasigroup with holes" recipe, for Sudoku: every instance is satisfiable (its
grid is a solution), and sweeping the fraction kept crosses the easy-hard-easy phase transition
(around 40% kept for Latin squares), so one seed and a list of fractions make a reproducible
hardness sweep for any board size. Uniqueness is not asked for: below the transition most
instances have many solutions.
"""

from __future__ import annotations

import random
from dataclasses import replace

from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle

# Up to this size the generator's randomised search finds a complete grid in about a second
# (25×25: 0.5 s, 36×36: 2.3 s measured; 49×49 did not finish in 60 s), beyond it the grid is
# the box pattern shuffled by validity-preserving symmetries.
SEARCH_MAX_SIZE = 25


def pattern_grid(shape: Shape, rng: random.Random) -> Grid:
    """A complete grid: the shifted-rows pattern under random symmetries of the board.

    The pattern puts digit ((r·bc + r // br + c) mod n) + 1 at (r, c); relabelling the digits,
    permuting bands, rows within a band, stacks and columns within a stack keep it a valid
    Sudoku. Fast for any size, but not uniform over grids (it reaches only the pattern's
    orbit), which is why the search is preferred where it is affordable.
    """
    br, bc, n = shape.box_rows, shape.box_cols, shape.size
    digits = rng.sample(range(1, n + 1), n)
    rows = _shuffled_lines(shape.box_rows, n // br, rng)  # n/br bands of br rows
    cols = _shuffled_lines(shape.box_cols, n // bc, rng)  # n/bc stacks of bc columns
    values = [digits[(r * bc + r // br + c) % n] for r in rows for c in cols]
    return Grid(n, tuple(values))


def _shuffled_lines(per_block: int, blocks: int, rng: random.Random) -> list[int]:
    """Line indices with the blocks permuted and the lines within each block permuted."""
    order = rng.sample(range(blocks), blocks)
    return [b * per_block + i for b in order for i in rng.sample(range(per_block), per_block)]


def random_grid(shape: Shape, rng: random.Random) -> Grid:
    """A complete classic grid: the generator's search up to `SEARCH_MAX_SIZE`, else a pattern."""
    if shape.size <= SEARCH_MAX_SIZE:
        from satsudoku.tools.generate import complete_grid  # imports the bitmask backend

        return complete_grid(shape, (), rng)
    return pattern_grid(shape, rng)


def with_holes(grid: Grid, fill: float, rng: random.Random) -> Grid:
    """`grid` with round(fill · n²) cells kept, chosen uniformly; the others emptied."""
    if not 0.0 <= fill <= 1.0:
        raise PuzzleError(f"fill must be between 0 and 1, got {fill}")
    cells = len(grid.values)
    kept = set(rng.sample(range(cells), round(fill * cells)))
    return Grid(grid.size, tuple(v if i in kept else 0 for i, v in enumerate(grid.values)))


def qcp_puzzle(shape: Shape, fill: float, seed: int) -> Puzzle:
    """A classic puzzle keeping `fill` of a random grid's cells; the same seed, the same puzzle."""
    rng = random.Random(seed)
    grid = random_grid(shape, rng)
    givens = with_holes(grid, fill, rng)
    title = f"qcp n={shape.size} fill={fill} seed={seed}"
    return replace(Puzzle.empty(shape), givens=givens, title=title)
