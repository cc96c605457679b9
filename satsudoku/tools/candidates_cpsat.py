"""True candidates by CP-SAT: the saturation loop on the one-hot model, the witness clause behind
an enforcement literal that each solve assumes; each solve enumerates and counts solutions
until some pair reaches the cap, and every solution counted is forbidden afterwards.

CP-SAT is not incremental: each call is a fresh search of the grown model (milliseconds on
9×9), so this is the slowest of the three and serves mainly as the independent cross-check.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from satsudoku.deadline import OutOfTime
from satsudoku.encoders.cpsat import CpSatEncoding, build
from satsudoku.errors import BackendBugError
from satsudoku.grid import Grid
from satsudoku.puzzle import Puzzle
from satsudoku.tools.candidates import CandidateCounts, Stats, Tally, result_from

# One worker, no presolve: each call is a small feasibility problem, where setup dominates
# (the CP-SAT backend measured the same; see its _TUNED). The assumption solves still work.
_PARAMETERS = {
    "num_workers": 1,
    "cp_model_presolve": False,
    "linearization_level": 0,
    "symmetry_level": 0,
    "use_sat_inprocessing": False,
    "catch_sigint_signal": False,
}


class _Counter(cp_model.CpSolverSolutionCallback):
    """Counts each solution as it comes and stops the search once some pair reaches the cap
    (the witness clause must then narrow); the grids are blocked after the call."""

    def __init__(self, encoding: CpSatEncoding, tally: Tally) -> None:
        super().__init__()
        self.encoding = encoding
        self.tally = tally
        self.grids: list[Grid] = []
        self.saturated = False

    def on_solution_callback(self) -> None:
        grid = self.encoding.decode(list(self.response_proto.solution))
        self.grids.append(grid)
        if self.tally.add(grid):
            self.saturated = True
            self.stop_search()


def cpsat_candidates(puzzle: Puzzle, tally: Tally, deadline: float | None) -> CandidateCounts:
    """Run the saturation loop with one CP-SAT solve per model; incomplete at `deadline`."""
    stats: Stats = {"model": "boolean", "calls": 0}
    try:
        encoding = build(puzzle.shape, puzzle.rules, "boolean", deadline)  # ours to extend
    except OutOfTime:
        return result_from(tally, complete=False, stats={**stats, "stopped": "timeout"})
    if encoding.conflict(puzzle.givens):  # a given its own rules forbid: no solution
        return result_from(tally, complete=True, stats=stats)
    encoding.set_givens(puzzle.givens)
    model = encoding.model
    n = puzzle.size
    pair_var = [model.get_bool_var_from_proto_index(p) for p in range(n * n * n)]
    solver = cp_model.CpSolver()
    for option, value in _PARAMETERS.items():
        setattr(solver.parameters, option, value)
    solver.parameters.enumerate_all_solutions = True
    calls, solving, complete = 0, 0.0, True
    open_pairs = tally.open_pairs()
    while open_pairs:
        active = model.new_bool_var(f"witness{calls}")
        model.add_bool_or([pair_var[p] for p in open_pairs]).only_enforce_if(active)
        model.clear_assumptions()
        model.add_assumptions([active])
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                complete = False
                break
            solver.parameters.max_time_in_seconds = left
        calls += 1
        counter = _Counter(encoding, tally)
        started = time.perf_counter()
        status = solver.solve(model, counter)  # positional: 9.15 rejects solution_callback=
        solving += time.perf_counter() - started
        for grid in counter.grids:  # never again, whatever the witness clause becomes
            model.add_bool_or(
                [~pair_var[index * n + digit - 1] for index, digit in enumerate(grid.values)]
            )
        if status in (cp_model.INFEASIBLE, cp_model.OPTIMAL):
            break  # every solution that could raise a count has been counted
        if status == cp_model.FEASIBLE and counter.saturated:
            model.add(active == 0)  # retire the witness clause: a narrower one follows
            open_pairs = tally.open_pairs()
            continue
        if status in (cp_model.FEASIBLE, cp_model.UNKNOWN):
            complete = False  # the time limit stopped the search
            break
        raise BackendBugError(f"CP-SAT answered {solver.status_name(status)} on a candidate call")
    stats.update(calls=calls, solve_s=solving)
    if not complete:
        stats["stopped"] = "timeout"
    return result_from(tally, complete=complete, stats=stats)
