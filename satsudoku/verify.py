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
    cells = grid.values
    if min(cells) < 1 or max(cells) > n:
        for index, value in enumerate(cells):
            if not 1 <= value <= n:
                problems.append(f"{cell_name(divmod(index, n))} holds {value}, not a digit 1..{n}")
        return problems
    for index, given in enumerate(puzzle.givens.values):
        if given and cells[index] != given:
            cell = cell_name(divmod(index, n))
            problems.append(f"{cell} is {cells[index]} but the given is {given}")
    for house in puzzle.shape.house_indices:
        if len({cells[i] for i in house}) != n:
            first, last = divmod(house[0], n), divmod(house[-1], n)
            problems.append(f"house {cell_name(first)}..{cell_name(last)} repeats a digit")
    if not puzzle.rules:
        return problems
    values = grid.filled()
    for constraint in puzzle.rule_constraints():
        if not constraint.check(values):
            problems.append(f"breaks {constraint}")
    return problems


def is_solution(puzzle: Puzzle, grid: Grid) -> bool:
    return not violations(puzzle, grid)
