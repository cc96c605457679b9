"""The independent verifier: checks a grid against the puzzle's definition, trusting no backend."""

from __future__ import annotations

from satsudoku.grid import Grid, cell_name
from satsudoku.puzzle import Puzzle


def violations(puzzle: Puzzle, grid: Grid) -> list[str]:
    """Every way `grid` fails to solve `puzzle` (empty list: it is a solution).

    Houses are re-derived from the shape here rather than taken from the constraints the
    backends were given, so a bug in constraint generation cannot hide a wrong grid; rule
    constraints are judged by their own `check`, never by a backend's encoding of them.
    """
    n = puzzle.size
    if grid.size != n:
        return [f"grid is {grid.size}x{grid.size}, puzzle is {n}x{n}"]
    problems: list[str] = []
    for index, value in enumerate(grid.values):
        if not 1 <= value <= n:
            problems.append(f"{cell_name(divmod(index, n))} holds {value}, not a digit 1..{n}")
    if problems:
        return problems
    for cell, given in puzzle.given_cells():
        if grid[cell] != given:
            problems.append(f"{cell_name(cell)} is {grid[cell]} but the given is {given}")
    cells = grid.values
    for house in puzzle.shape.house_indices:
        if len({cells[i] for i in house}) != n:
            first, last = divmod(house[0], n), divmod(house[-1], n)
            problems.append(f"house {cell_name(first)}..{cell_name(last)} repeats a digit")
    values = grid.filled()
    for constraint in puzzle.rule_constraints():
        if not constraint.check(values):
            problems.append(f"breaks {constraint}")
    return problems


def is_solution(puzzle: Puzzle, grid: Grid) -> bool:
    return not violations(puzzle, grid)
