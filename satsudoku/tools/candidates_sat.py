"""True candidates by SAT: one incremental pysat solver, a guarded witness clause, blocked models.

The witness clause "some pair still below the cap holds" sits behind an activation literal
that each call assumes; when a pair reaches the cap the clause is retired (its literal set
false for good) and a narrower one takes its place. Phases prefer the open pairs, so each
model tends to cover many of them at once.
"""

from __future__ import annotations

import time
from typing import Any

from satsudoku.backends.pysat_tools import (
    DEFAULT_SOLVER,
    NON_INCREMENTAL,
    SolverRun,
    counters,
    load,
    new_solver,
    parse_solver,
)
from satsudoku.deadline import OutOfTime
from satsudoku.encoders.cnf import CnfFormula, Encoding, encode_puzzle
from satsudoku.errors import PuzzleError
from satsudoku.puzzle import Puzzle
from satsudoku.tools.candidates import CandidateCounts, Stats, Tally, result_from


def sat_candidates(
    puzzle: Puzzle, tally: Tally, deadline: float | None, solver: str = DEFAULT_SOLVER
) -> CandidateCounts:
    """Run the saturation loop in one solver; stop (incomplete) at `deadline`."""
    name = parse_solver(solver)
    if name in NON_INCREMENTAL:
        raise PuzzleError(
            f"solver {name} is not incremental; candidates need one (e.g. cadical195)"
        )
    stats: Stats = {"solver": name, "calls": 0}
    try:
        formula = encode_puzzle(puzzle, Encoding.EXTENDED, deadline=deadline)
    except OutOfTime:
        return result_from(tally, complete=False, stats={**stats, "stopped": "timeout"})
    sat = new_solver(name)
    try:
        if not load(sat, formula, deadline):
            return result_from(tally, complete=False, stats={**stats, "stopped": "timeout"})
        complete = _saturate(sat, SolverRun(sat, name), formula, tally, deadline, stats)
        stats.update(counters(sat))
    finally:
        sat.delete()
    if not complete:
        stats["stopped"] = "timeout"
    return result_from(tally, complete=complete, stats=stats)


def _saturate(
    sat: Any,
    run: SolverRun,
    formula: CnfFormula,
    tally: Tally,
    deadline: float | None,
    stats: Stats,
) -> bool:
    """Find, count and block models until no open pair can be met; False if out of time."""
    givens = tally.puzzle.givens
    next_var = formula.num_vars
    active = 0  # the activation literal of the current witness clause; 0 before the first
    calls, solving = 0, 0.0  # solve_s: time inside the solver, what the targets measure
    open_pairs = tally.open_pairs()
    while open_pairs:
        if not active:
            next_var += 1
            active = next_var
            sat.add_clause([-active] + [pair + 1 for pair in open_pairs])
            sat.set_phases([pair + 1 for pair in open_pairs])
        calls += 1
        started = time.perf_counter()
        answer = run.solve([active], deadline)
        solving += time.perf_counter() - started
        if answer is None:
            stats.update(calls=calls, solve_s=solving)
            return False
        if not answer:
            break
        grid = formula.decode(sat.get_model())
        if tally.add(grid):  # some pair reached the cap: narrow the witness clause
            sat.add_clause([-active])
            active = 0
            open_pairs = tally.open_pairs()
        sat.add_clause(formula.block(grid, givens))
    stats.update(calls=calls, solve_s=solving)
    return True
