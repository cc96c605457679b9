"""The integer-programming backend: a 0-1 model solved by a MIP branch-and-bound solver that
OR-Tools ships (SCIP by default, or HiGHS), through MathOpt.

Counting re-solves with a no-good cut per solution found. Verdicts are solver-trusted: "unique"
means the solver called the model infeasible once the found grid was cut off.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from enum import Enum

from ortools.math_opt.python import mathopt

from satsudoku.deadline import OutOfTime
from satsudoku.encoders.mip import MipEncoding, encoding_for
from satsudoku.errors import BackendBugError, PuzzleError
from satsudoku.grid import Grid
from satsudoku.options import checked, checked_timeout
from satsudoku.puzzle import Puzzle
from satsudoku.result import Proof, Result, early_result, make_result

TRUST = (
    "solver-trusted: the MIP solver reported the model with every found grid cut off "
    "infeasible (floating-point branch and bound; nothing independent re-checks that no other "
    "grid exists)"
)


class MipSolver(Enum):
    """The MIP solvers of the ortools wheel reachable through MathOpt, by option name.

    CBC is in the wheel too, but only behind the older pywraplp interface, and was the slowest
    of the three there (20 top1465 puzzles with their uniqueness re-solve: CBC 8.9 s, HiGHS
    4.6 s, SCIP 2.8 s, model building included).
    """

    SCIP = "scip"
    HIGHS = "highs"

    @property
    def solver_type(self) -> mathopt.SolverType:
        return {
            MipSolver.HIGHS: mathopt.SolverType.HIGHS,
            MipSolver.SCIP: mathopt.SolverType.GSCIP,
        }[self]


MIP_SOLVERS = tuple(solver.value for solver in MipSolver)
_R = mathopt.TerminationReason
# A 0-1 model has no unbounded direction, so "infeasible or unbounded" is infeasible.
_NO_GRID = (_R.INFEASIBLE, _R.INFEASIBLE_OR_UNBOUNDED)
_FOUND = (_R.OPTIMAL, _R.FEASIBLE)


def solver_named(name: str | MipSolver) -> MipSolver:
    """The solver called `name`; a PuzzleError lists the choices otherwise."""
    if isinstance(name, MipSolver):
        return name
    try:
        return MipSolver(name)
    except ValueError:
        raise PuzzleError(
            f"unknown MIP solver {name!r}; choose from {', '.join(MIP_SOLVERS)}"
        ) from None


class MipBackend:
    """Bartlett et al.'s 0-1 model; one solve per solution, plus one that proves there are no
    more. SCIP is the default: on 50 puzzles each of top1465, forum-hardest-1106 and janko
    killers it took 2.6x less time in all than HiGHS (5x less on the hardest, 2x and 3.7x more
    on the others), and half its time to count by cuts (docs/backends.md)."""

    name = "mip"

    def __init__(self, mip_solver: str = "scip") -> None:
        self.solver = solver_named(mip_solver)

    def warm_up(self, puzzle: Puzzle, timeout: float | None = None) -> None:
        """Build the model for the puzzle's shape and rules now, so no timed solve pays for it;
        within `timeout` seconds, if given (past it the timed solve builds it, and runs out)."""
        timeout = checked_timeout(timeout)
        deadline = None if timeout is None else time.perf_counter() + timeout
        try:
            encoding_for(puzzle, deadline)
        except OutOfTime:
            pass

    def solve(self, puzzle: Puzzle, *, limit: int = 2, timeout: float | None = None) -> Result:
        """Look for up to `limit` solutions, cutting each off in turn; 'unknown' when `timeout`
        runs out first."""
        limit, timeout = checked(limit, timeout)
        start = time.perf_counter()
        deadline = None if timeout is None else start + timeout
        stats: dict[str, int | float | str] = {"solver": self.solver.value}
        try:
            encoding = encoding_for(puzzle, deadline)
        except OutOfTime:  # building the model used up the time: nothing is known
            return early_result(puzzle, self.name, limit=limit, stats=stats, started=start)
        if reason := encoding.conflict(puzzle.givens):
            return early_result(
                puzzle, self.name, limit=limit, stats=stats, started=start, conflict=reason
            )
        encoding.set_givens(puzzle.givens)
        search = _Enumeration(encoding, self.solver, puzzle.givens, deadline)
        found, exhausted = search.run(limit)
        stats.update(search.stats())
        stats["time_s"] = time.perf_counter() - start
        proof = _proof(exhausted, found, search.last)
        return make_result(
            puzzle, self.name, found, exhausted=exhausted, limit=limit, stats=stats, proof=proof
        )


class _Enumeration:
    """Solve, cut the grid off, solve again, until `limit` grids, infeasibility or the deadline.

    The cuts are removed afterwards, so the shared model is ready for the next puzzle.
    """

    def __init__(
        self, encoding: MipEncoding, solver: MipSolver, givens: Grid, deadline: float | None
    ) -> None:
        self.encoding = encoding
        self.solver = solver
        self.givens = givens
        self.deadline = deadline
        self.solves = 0
        self.nodes = 0
        self.lp_iterations = 0
        self.solve_s = 0.0
        self.last = "not solved"  # the last termination reason, by name
        self.stopped = ""

    def run(self, limit: int) -> tuple[list[Grid], bool]:
        """The grids found and whether they are all there are."""
        found: list[Grid] = []
        cuts: list[mathopt.LinearConstraint] = []
        try:
            while len(found) < limit:
                result = self._solve_once()
                if result is None:
                    return found, False
                reason = result.termination.reason
                if reason in _NO_GRID:
                    return found, True
                if reason not in _FOUND:
                    self._give_up(result)
                    return found, False
                grid = self.encoding.decode(result.variable_values(self.encoding.x))
                found.append(grid)
                cuts.append(self.encoding.add_cut(grid, self.givens))
            return found, False
        finally:
            for cut in cuts:
                self.encoding.model.delete_linear_constraint(cut)

    def _solve_once(self) -> mathopt.SolveResult | None:
        """One solve within the time left, or None (stopped: timeout) when none is left."""
        left = None if self.deadline is None else self.deadline - time.perf_counter()
        if left is not None and left <= 0:
            self.stopped = "timeout"
            return None
        params = mathopt.SolveParameters(enable_output=False)
        params.gscip.silence_output = True  # else SCIP prints on stdout despite enable_output
        params.gscip.bool_params["misc/catchctrlc"] = False  # Ctrl-C is Python's (see below)
        if left is not None:  # at most MAX_SECONDS (`checked`): inf overflowed timedelta
            params.time_limit = timedelta(seconds=left)
        result = _solve_in_worker(self.encoding.model, self.solver, params)
        stats = result.solve_stats
        self.solves += 1
        self.nodes += stats.node_count
        self.lp_iterations += (
            stats.simplex_iterations + stats.barrier_iterations + stats.first_order_iterations
        )
        self.solve_s += stats.solve_time.total_seconds()
        self.last = result.termination.reason.name
        return result

    def _give_up(self, result: mathopt.SolveResult) -> None:
        """A solve that ended without an answer: a limit we set, or a solver failure (raised)."""
        termination = result.termination
        if termination.limit == mathopt.Limit.TIME:
            self.stopped = "timeout"
        elif termination.limit == mathopt.Limit.INTERRUPTED:
            self.stopped = "interrupted"
        else:
            detail = f": {termination.detail}" if termination.detail else ""
            raise BackendBugError(
                f"MIP solver {self.solver.value} ended with {termination.reason.name}{detail}"
            )

    def stats(self) -> dict[str, int | float | str]:
        out: dict[str, int | float | str] = {
            "status": self.last,
            "solves": self.solves,
            "nodes": self.nodes,
            "lp_iterations": self.lp_iterations,
            "solve_s": self.solve_s,
        }
        if self.stopped:
            out["stopped"] = self.stopped
        return out


def _proof(exhausted: bool, found: list[Grid], status: str) -> Proof:
    if exhausted:
        return Proof("mip-exhausted", {"status": status, "complete": True, "trust": TRUST})
    if len(found) >= 2:
        return Proof("witness", {"status": status, "complete": False})
    return Proof("none", {"status": status, "complete": False})


def _solve_in_worker(
    model: mathopt.Model, solver: MipSolver, params: mathopt.SolveParameters
) -> mathopt.SolveResult:
    """`mathopt.solve` in a daemon thread, so that Ctrl-C stops satsudoku at once.

    Python runs signal handlers only in the main thread between bytecodes, which a solve there
    would hold for its whole length; here the main thread waits in short joins instead. The
    solvers themselves cannot be stopped from outside in 9.15 (SCIP's interrupter hook fails
    and prints errors on stdout; HiGHS, interrupted 1 s into an empty 36×36, ran on to 3.4 s),
    so an interrupted solve is abandoned and ends with its time limit or the process.
    """
    results: list[mathopt.SolveResult] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append(mathopt.solve(model, solver.solver_type, params=params))
        except BaseException as exc:  # handed to the main thread below
            errors.append(exc)

    worker = threading.Thread(target=work, name="mip-solve", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
    if errors:
        # 9.15 turns a solver's own error status into an AttributeError ('StatusNotOk' object
        # has no attribute 'canonical_code'); the status it was mapping is its __context__.
        error = errors[0]
        cause = error.__context__ or error
        raise BackendBugError(f"MIP solver {solver.value} failed: {cause}") from error
    return results[0]
