"""The constraint-programming backend: OR-Tools CP-SAT on a model reused across a batch.

Verdicts are solver-trusted: "unique" means CP-SAT reported its enumeration exhausted
(OPTIMAL/INFEASIBLE) after one or zero solutions; `certified=True` re-proves them with a DRAT
proof that satsudoku checks itself.
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
import time
from pathlib import Path

from ortools.sat.python import cp_model

from satsudoku.backends.drat_slot import DratSlot
from satsudoku.deadline import OutOfTime, check
from satsudoku.encoders.cpsat import CpSatEncoding, encoding_for, model_kind
from satsudoku.errors import BackendBugError, PuzzleError
from satsudoku.grid import Grid
from satsudoku.options import (
    checked,
    checked_int,
    checked_optional_seed,
    checked_timeout,
)
from satsudoku.puzzle import Puzzle
from satsudoku.result import Proof, Result, early_result, make_result

TRUST = (
    "solver-trusted: CP-SAT reported its search exhausted (status OPTIMAL or INFEASIBLE with "
    "enumerate_all_solutions, one worker); nothing independent re-checks that no other grid exists"
)


class _Collector(cp_model.CpSolverSolutionCallback):
    """Decodes each solution and stops the search itself once `limit` distinct grids are in."""

    def __init__(self, encoding: CpSatEncoding, limit: int) -> None:
        super().__init__()
        self.encoding = encoding
        self.limit = limit
        self.solutions: list[Grid] = []
        self._seen: set[Grid] = set()  # a list search here made counting quadratic

    def on_solution_callback(self) -> None:
        grid = self.encoding.decode(list(self.response_proto.solution))
        if grid not in self._seen:  # guard: parallel enumeration may repeat a solution
            self._seen.add(grid)
            self.solutions.append(grid)
        if len(self.solutions) >= self.limit:
            self.stop_search()


# Measured on 17clue/top1465/forum-hardest-1106 (benchmarks/bench_cpsat.py): none of these
# helps a pure feasibility problem this small, and each costs time on every solve.
_TUNED = {"linearization_level": 0, "symmetry_level": 0, "use_sat_inprocessing": False}
# CP-SAT's own parameter check takes at most 10,000 workers: 10,001 was an "invalid model".
MAX_WORKERS = 10_000


def _new_solver() -> cp_model.CpSolver:
    """A CpSolver that leaves Ctrl-C to Python (see `_Search`)."""
    _watch_sigint()
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False
    return solver


class CpSatBackend:
    """OR-Tools CP-SAT on a Boolean one-hot model (default) or an integer AllDifferent model.

    The defaults are the fastest measured combination: the one-hot model needs no presolve,
    while the integer one relies on presolve expanding its AllDifferents and is 2-5x slower on
    batches. Counting (`limit` >= 2) always runs one worker: with several, 9.15 may report a
    solution twice. `workers` speeds up plain solving (`limit` 1) of hard or large puzzles.
    """

    name = "cpsat"

    def __init__(
        self,
        model: str = "boolean",
        workers: int = 1,
        presolve: bool = False,
        certified: bool = False,
        random_seed: int | None = None,
    ) -> None:
        workers = checked_int(workers, "workers", most=MAX_WORKERS)
        random_seed = checked_optional_seed(random_seed)
        self.kind = model_kind(model)
        self.workers = workers
        self.presolve = presolve
        self.certified = certified  # re-prove unique/unsatisfiable verdicts with checked DRAT
        self._solver = _new_solver()
        for name, value in _TUNED.items():
            setattr(self._solver.parameters, name, value)
        self.random_seed = random_seed
        if random_seed is not None:  # `solve --random`: random polarities and branching
            params = self._solver.parameters
            params.random_seed = random_seed
            params.randomize_search = True
            params.random_polarity_ratio = params.random_branches_ratio = 0.5

    def warm_up(self, puzzle: Puzzle, timeout: float | None = None) -> None:
        """Build the model for the puzzle's shape and rules now, so no timed solve pays for it;
        within `timeout` seconds, if given (past it the timed solve builds it, and runs out)."""
        timeout = checked_timeout(timeout)
        deadline = None if timeout is None else time.perf_counter() + timeout
        try:
            encoding_for(puzzle, self.kind, deadline)
        except OutOfTime:
            pass

    def solve(self, puzzle: Puzzle, *, limit: int = 2, timeout: float | None = None) -> Result:
        """Look for up to `limit` solutions in one search; 'unknown' when `timeout` runs out."""
        limit, timeout = checked(limit, timeout)
        start = time.perf_counter()
        deadline = None if timeout is None else start + timeout
        stats: dict[str, int | float | str] = {"model": self.kind.value, "presolve": self.presolve}
        try:
            encoding = encoding_for(puzzle, self.kind, deadline)
        except OutOfTime:  # building the model used up the time: nothing is known
            return early_result(puzzle, self.name, limit=limit, stats=stats, started=start)
        if reason := encoding.conflict(puzzle.givens):
            return early_result(
                puzzle, self.name, limit=limit, stats=stats, started=start, conflict=reason
            )
        encoding.set_givens(puzzle.givens)
        # One worker when counting (see the class docstring) or when a seed must reproduce.
        workers = self.workers if limit == 1 and self.random_seed is None else 1
        params = self._solver.parameters
        params.num_workers = workers
        params.cp_model_presolve = self.presolve
        params.enumerate_all_solutions = limit > 1
        collector = _Collector(encoding, limit)
        search = _Search(self._solver, deadline)
        status = search.run(encoding.model, collector)
        if status == cp_model.MODEL_INVALID:
            detail = encoding.model.validate() or "no detail"
            raise BackendBugError(f"CP-SAT rejected the model as invalid: {detail}")
        # OPTIMAL ends an enumeration only when enumerating; for limit 1 it just means "found".
        exhausted = status == cp_model.INFEASIBLE or (status == cp_model.OPTIMAL and limit > 1)
        found = collector.solutions
        if status == cp_model.INFEASIBLE and found:
            raise BackendBugError("CP-SAT reported INFEASIBLE after reporting a solution")
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) and not found:
            raise BackendBugError(f"CP-SAT reported {self._solver.status_name(status)} but no grid")
        solver = self._solver
        status_name = solver.status_name(status)
        stats.update(
            status=status_name,
            branches=solver.num_branches,
            conflicts=solver.num_conflicts,
            wall_s=solver.wall_time,
            workers=workers,
        )
        if not exhausted and len(found) < limit:  # neither finished nor stopped by the collector
            stats["stopped"] = search.stop_reason()
        proof = _proof(exhausted, found, status_name)
        if self.certified and exhausted and len(found) <= 1:
            proof = certify(puzzle, found[0] if found else None, deadline=deadline)
            if "stopped" in proof.details:  # the re-proof was cut short: nothing is proved
                exhausted = False
                stats["stopped"] = proof.details["stopped"]
        stats["time_s"] = time.perf_counter() - start
        return make_result(
            puzzle, self.name, found, exhausted=exhausted, limit=limit, stats=stats, proof=proof
        )


def _proof(exhausted: bool, found: list[Grid], status: str) -> Proof:
    if exhausted:
        return Proof("cp-exhausted", {"status": status, "complete": True, "trust": TRUST})
    if len(found) >= 2:
        return Proof("witness", {"status": status, "complete": False})
    return Proof("none", {"status": status, "complete": False})


class _Search:
    """One CP-SAT search within a deadline, which Ctrl-C stops at once.

    OR-Tools would catch SIGINT itself (`catch_sigint_signal`), end the search and report
    UNKNOWN, which looked like a timeout; it is told not to. Python's own SIGINT handler runs
    only when the search returns, so a watcher thread (`_watch_sigint`) stops the running
    searches and KeyboardInterrupt follows as soon as control is back in Python.
    """

    def __init__(self, solver: cp_model.CpSolver, deadline: float | None) -> None:
        self.solver = solver
        self.deadline = deadline
        self.interrupted = False
        self.budget = 0.0
        self.elapsed = 0.0

    def run(
        self, model: cp_model.CpModel, callback: cp_model.CpSolverSolutionCallback | None = None
    ) -> cp_model.CpSolverStatus:
        """Solve with the time left before the deadline (the callback passed positionally)."""
        started = time.perf_counter()
        left = float("inf") if self.deadline is None else self.deadline - started
        self.budget = max(left, 1e-6)  # CP-SAT rejects a negative limit; 1 µs stops at once
        self.solver.parameters.max_time_in_seconds = self.budget
        _RUNNING.add(self)
        try:
            status = self.solver.solve(model, callback) if callback else self.solver.solve(model)
        finally:
            _RUNNING.discard(self)
            self.elapsed = time.perf_counter() - started
        return status

    def stop(self) -> None:
        self.interrupted = True
        self.solver.stop_search()

    def timed_out(self) -> bool:
        """Whether the time limit ended the search. OR-Tools' TimeLimit stops early on
        purpose: once now + T passes the limit, T the longest recent gap between two of its
        clock readings, which on a loaded machine and a 64x64 model reached 0.21 s of a
        1 s budget (bench e64x2 --backends cpsat --timeout 1). A quarter of the budget is
        allowed; a search stopped with more time left than that is still a bug."""
        return self.elapsed >= self.budget - max(0.02, 0.25 * self.budget)

    def stop_reason(self) -> str:
        """Why the search ended without settling the puzzle: never "timeout" unless it was."""
        if self.interrupted:
            return "interrupted"  # reached only when a SIGINT handler chose not to raise
        if self.timed_out():
            return "timeout"
        raise BackendBugError(
            f"CP-SAT gave up after {self.elapsed:.3f} s of a {self.budget:.3f} s budget, "
            "neither interrupted nor out of time"
        )


_RUNNING: set[_Search] = set()  # searches a Ctrl-C must stop
_WATCHER: dict[str, int] = {}  # pid and wakeup fd of this process's watcher thread


def _watch_sigint() -> None:
    """Start, once per process, a thread that stops every running search on SIGINT.

    Python's C-level signal handler writes the signal number to the `set_wakeup_fd` pipe
    while the main thread is still inside the solver; the thread reads it and stops searches.
    Leaves things alone outside the main thread or when someone else (an asyncio loop) owns
    the wakeup fd: Ctrl-C then takes effect when the search ends, as without this.
    """
    if _WATCHER.get("pid") == os.getpid():
        return
    if threading.current_thread() is not threading.main_thread():
        return
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)  # set_wakeup_fd requires it
    previous = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    if previous not in (-1, _WATCHER.get("fd", -1)):  # -1, or ours inherited through fork()
        signal.set_wakeup_fd(previous)
        os.close(read_fd)
        os.close(write_fd)
        _WATCHER.update(pid=os.getpid(), fd=-1)
        return
    threading.Thread(target=_watch, args=(read_fd,), daemon=True, name="cpsat-sigint").start()
    _WATCHER.update(pid=os.getpid(), fd=write_fd)


def _watch(read_fd: int) -> None:
    while data := os.read(read_fd, 64):
        if signal.SIGINT in data:
            for search in list(_RUNNING):
                search.stop()


# CP-SAT 9.15 writes DRAT only to the fixed path of its C++ flag --cp_model_drat_output, which
# Python cannot set; `DratSlot` owns and locks it (tests point this at a private directory).
DRAT_PATH = Path("/tmp/drat.txt")


def certify(puzzle: Puzzle, solution: Grid | None, *, deadline: float | None = None) -> Proof:
    """Refute "another grid exists" (or "any grid exists") with CP-SAT DRAT, checked by us.

    The clause model is classic Sudoku CNF (cell/house at-least-one, pairwise at-most-one,
    givens as units, plus the blocking clause of `solution`); CP-SAT solves it with presolve
    off, linearization and symmetry level 0 and one worker, the only setting in which it emits
    DRAT, and `satsudoku.proof.drat` checks that proof against exactly these clauses.
    A search cut short by `deadline` (a perf_counter time) or Ctrl-C proves nothing: the
    proof then says why it `stopped`. A refutation that fails raises BackendBugError, since
    the verdict it was to certify is then in doubt.
    """
    from satsudoku.proof.drat import check_drat, parse_drat

    try:
        clauses = _clauses(puzzle, solution, deadline)
        model = cp_model.CpModel()
        literals = [model.new_bool_var(f"v{k}") for k in range(1, puzzle.size**3 + 1)]
        for count, clause in enumerate(clauses):
            if not count & 4095:
                check(deadline)
            model.add_bool_or([literals[v - 1] if v > 0 else ~literals[-v - 1] for v in clause])
    except OutOfTime:
        return Proof("none", {"certification": "timeout", "stopped": "timeout", "complete": False})
    solver = _new_solver()
    params = solver.parameters
    params.num_workers = 1
    params.cp_model_presolve = False
    params.linearization_level = 0
    params.symmetry_level = 0
    params.output_drat_proof = True
    search = _Search(solver, deadline)
    slot = DratSlot(DRAT_PATH)
    if not slot.claim(deadline):  # another satsudoku run held the path until the deadline
        return Proof("none", {"certification": "timeout", "stopped": "timeout", "complete": False})
    try:
        status = search.run(model)
        text = slot.read()
    finally:
        slot.release()  # the proof is removed as soon as it is read
    if status == cp_model.UNKNOWN:
        reason = search.stop_reason()
        return Proof("none", {"certification": reason, "stopped": reason, "complete": False})
    if status != cp_model.INFEASIBLE:
        raise BackendBugError(
            f"certification failed: CP-SAT called the clause model {solver.status_name(status)}"
            " where the search had found it exhausted"
        )
    verdict = check_drat(clauses, parse_drat(text))
    if not verdict.ok:
        raise BackendBugError(
            f"certification failed: CP-SAT's DRAT proof is rejected: {verdict.message}"
        )
    details = {
        "clauses": len(clauses),
        "variables": puzzle.size**3,
        "certified": True,
        "check": verdict.message,
        "lemmas": verdict.lemmas,
        "complete": True,
    }
    return Proof("cp-drat", details)


def _clauses(
    puzzle: Puzzle, solution: Grid | None, deadline: float | None = None
) -> list[list[int]]:
    """Classic Sudoku CNF over variable (cell*n + digit), 1-based; rules are not supported.

    OutOfTime once `deadline` has passed (checked per cell and per house digit)."""
    if puzzle.rules:
        raise PuzzleError("certified CP mode covers classic Sudoku only (no variant rules)")
    n = puzzle.size
    clauses: list[list[int]] = []
    for i in range(n * n):  # each cell holds one digit
        check(deadline)
        cell = [i * n + d for d in range(1, n + 1)]
        clauses.append(cell)
        clauses += [[-a, -b] for a, b in itertools.combinations(cell, 2)]
    for house in puzzle.shape.house_indices:  # each house holds each digit once
        for d in range(1, n + 1):
            check(deadline)
            clauses.append([i * n + d for i in house])
            clauses += [[-(i * n + d), -(j * n + d)] for i, j in itertools.combinations(house, 2)]
    clauses += [[i * n + v] for i, v in enumerate(puzzle.givens.values) if v]
    if solution is not None:  # "some open cell differs from `solution`"
        clauses.append(
            [-(i * n + v) for i, v in enumerate(solution.values) if not puzzle.givens.values[i]]
        )
    return clauses
