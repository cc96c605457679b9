"""The explainer never tells a person something false: every claimed elimination and placement
is checked against the SAT backend (no solution keeps an eliminated candidate)."""

from __future__ import annotations

from collections.abc import Iterable

from satsudoku.backends import get_backend
from satsudoku.grid import cell_name
from satsudoku.logic.step import Step
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status


def false_claims(puzzle: Puzzle, steps: Iterable[Step], backend: str = "sat") -> list[str]:
    """The claims of `steps` that some solution of `puzzle` contradicts, as sentences.

    A unique puzzle is checked against its solution; one with several solutions asks the
    backend, per claim, for a solution that breaks it; one with none makes every claim true.
    """
    solver = get_backend(backend)
    result = solver.solve(puzzle, limit=2)
    n = puzzle.size
    claims = [(c, d, False) for s in steps for c, d in s.eliminations]
    claims += [(c, d, True) for s in steps for c, d in s.placements]
    if result.status is Status.UNSATISFIABLE:
        return []
    problems: list[str] = []
    if result.status is Status.UNIQUE:
        solution = result.solutions[0].values
        for cell, digit, placed in claims:
            if (solution[cell] == digit) != placed:
                verb = "places" if placed else "removes"
                problems.append(
                    f"{verb} {digit} at {cell_name(divmod(cell, n))}, "
                    f"the solution has {solution[cell]}"
                )
        return problems
    for cell, digit, placed in claims:
        if puzzle.givens.values[cell]:
            continue
        wrong = [e for e in range(1, n + 1) if e != digit] if placed else [digit]
        for value in wrong:
            trial = Puzzle(
                puzzle.shape, puzzle.givens.with_value(divmod(cell, n), value), puzzle.rules
            )
            if solver.solve(trial, limit=1).solutions:
                verb = "places" if placed else "removes"
                problems.append(
                    f"{verb} {digit} at {cell_name(divmod(cell, n))}, a solution has {value} there"
                )
                break
    return problems
