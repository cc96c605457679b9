"""Explanations of contradictions: a minimal set of givens that cannot hold together.

The rules are encoded once and the givens passed as assumptions; the solver's unsatisfiable core
over them is then shrunk by deletion until dropping any one given makes the rest satisfiable.
"""

from __future__ import annotations

from satsudoku.deadline import OutOfTime
from satsudoku.encoders.cnf import Encoding, board_amo, encode_rules
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell
from satsudoku.puzzle import Puzzle
from satsudoku.sat.solvers import NON_INCREMENTAL, SolverRun, new_solver

CORE_SOLVER = "cadical195"


def minimal_conflict(
    puzzle: Puzzle,
    *,
    encoding: Encoding = Encoding.EXTENDED,
    solver: str = CORE_SOLVER,
    deadline: float | None = None,
) -> list[tuple[Cell, int]] | None:
    """A minimal set of givens (cell, digit) with no solution; None if the puzzle has one.

    An empty list means the rules alone have no solution, whatever the givens. OutOfTime once
    `deadline` (a perf_counter time) passes: one solve per given of the core, each of which
    may be hard (an empty 36x36 alone took 10 s and 1 GB to find satisfiable).
    """
    if solver in NON_INCREMENTAL:
        raise PuzzleError(f"solver {solver} ignores assumptions; explain needs another solver")
    n = puzzle.size
    # Pairwise up to 36x36: the shrinking's solves find a 36x36 grid in seconds, not at all in
    # 20 s with counters; a 64x64 pairwise died of a MemoryError at 3.7 GB (`board_amo`).
    amo = board_amo(n)
    formula = encode_rules(puzzle.shape, puzzle.constraints(), encoding, amo, deadline=deadline)
    givens = [i * n + d for i, d in enumerate(puzzle.givens.values) if d]
    with new_solver(solver, bootstrap_with=formula.clauses) as sat:
        run = SolverRun(sat, solver)

        def satisfiable(assumptions: list[int]) -> bool:
            answer = run.solve(assumptions, deadline)
            if answer is None:
                raise OutOfTime
            return answer

        if satisfiable(givens):
            return None
        core = _in_order(givens, sat.get_core() or [])
        index = 0
        while index < len(core):
            trial = core[:index] + core[index + 1 :]
            if satisfiable(trial):
                index += 1  # this given is needed for the contradiction
            else:
                core = _in_order(trial, sat.get_core() or [])  # the new core may be smaller still
    return [(divmod((lit - 1) // n, n), (lit - 1) % n + 1) for lit in core]


def _in_order(assumptions: list[int], core: list[int]) -> list[int]:
    """The core's literals in the order of the assumptions (reading order of the cells)."""
    members = set(core)
    return [lit for lit in assumptions if lit in members]
