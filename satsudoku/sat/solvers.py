"""What every pysat-driven path shares: solver names, construction, loading, deadlines, counters.

Used by the SAT backend's sessions, the residual (reduced) path, explanations and certificates,
so a solver is named, built, loaded and stopped the same way everywhere.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from satsudoku.encoders.cnf import CnfFormula
from satsudoku.errors import PuzzleError

DEFAULT_SOLVER = "cadical195"
# pysat's solver names: each SolverNames entry lists the spellings Solver(name=...) accepts
# (its key is not always one of them: "minisatgh" is spelled "mgh"). satsudoku reports keys.
_SPELLINGS: dict[str, tuple[str, ...]] = {
    key: tuple(names)
    for key, names in vars(SolverNames).items()
    if not key.startswith("_") and key != "cryptosat"  # needs pycryptosat, not a dependency
}
SOLVERS = tuple(sorted(_SPELLINGS))
_CANONICAL = {alias: key for key, names in _SPELLINGS.items() for alias in (key, *names)}
# Kissat in pysat is not incremental and ignores assumptions (only a warning): one-shot only.
NON_INCREMENTAL = frozenset({"kissat404"})
# Solvers pysat cannot give preferred phases (set_phases raises NotImplementedError), so they
# cannot start a search from random phases (`solve --random`).
PHASELESS = frozenset({"kissat404", "cadical103"})
# Lingeling and Kissat have neither budgets nor interrupt(): they cannot honour --timeout.
UNSTOPPABLE = frozenset({"lingeling", "kissat404"})
# CaDiCaL has no interrupt(): deadlines become conflict budgets. The others are interrupted
# by a timer, which costs nothing while they run (budget slices slowed MapleChrono 5-7x).
_BUDGETED = frozenset({"cadical103", "cadical153", "cadical195", "cadical300"})
# Solvers with a native at-most-k constraint (pysat's add_atmost).
NATIVE_CARDINALITY = frozenset({"minicard", "gluecard3", "gluecard4"})
_FIRST_BUDGET = 100  # conflicts in the first slice when a deadline is set
_SLICE_S = 0.05  # later slices are sized from the measured conflict rate to last about this
_MAX_SLICE_S = 1.0  # and later slices grow up to this (see SolverRun.solve)
_LOAD_CHUNK = 100_000  # clauses loaded between two readings of the clock

Stats = dict[str, int | float | str]


def parse_solver(name: str) -> str:
    """The solver a pysat name or alias means (e.g. g4 → glucose4); a PuzzleError otherwise."""
    if name not in _CANONICAL:
        raise PuzzleError(f"unknown SAT solver {name!r}; choose from {', '.join(SOLVERS)}")
    return _CANONICAL[name]


def new_solver(name: str, **options: Any) -> Any:
    """A pysat Solver for a satsudoku solver name; a PuzzleError if pysat cannot build it."""
    try:
        return Solver(name=_SPELLINGS[name][0], **options)
    except NoSuchSolverError as exc:
        raise PuzzleError(f"SAT solver {name!r} is not available here: {exc}") from None


def load(solver: Any, formula: CnfFormula, deadline: float | None = None) -> bool:
    """Add the formula's clauses and native at-most-ones; False if `deadline` passed first.

    Formulas of 36×36 boards run to millions of clauses (seconds to load), so the clock is
    read between chunks; a solver left half-loaded must be thrown away by the caller.
    """
    clauses = formula.clauses
    if deadline is None or len(clauses) <= _LOAD_CHUNK:
        solver.append_formula(clauses)
    else:
        for start in range(0, len(clauses), _LOAD_CHUNK):
            if time.perf_counter() >= deadline:
                return False
            solver.append_formula(clauses[start : start + _LOAD_CHUNK])
    for lits in formula.atmost:
        solver.add_atmost(lits, 1)
    return True


class SolverRun:
    """Solves under a deadline: a timer interrupt where the solver has one, budgets otherwise."""

    def __init__(self, solver: Any, name: str) -> None:
        self.solver = solver
        self.name = name

    def solve(self, assumptions: list[int], deadline: float | None) -> bool | None:
        """Solve under `assumptions`; None when `deadline` passed first.

        CaDiCaL has no interrupt(), so there a deadline becomes conflict-budget slices in a
        loop (learnt clauses survive between slices). Conflicts cost from microseconds (9×9)
        to seconds (formulas of millions of clauses), so each slice is sized from the rate
        the previous one measured, to end near `_SLICE_S` or the deadline.
        """
        if deadline is None:
            answer: bool = self.solver.solve(assumptions=assumptions)
            return answer
        if self.name in UNSTOPPABLE:
            raise PuzzleError(
                f"solver {self.name} cannot stop early; drop --timeout or pick another"
            )
        if self.name not in _BUDGETED:
            return self._solve_interrupted(assumptions, deadline)
        budget = _FIRST_BUDGET
        begun = time.perf_counter()
        while True:
            started = time.perf_counter()
            left = deadline - started
            if left <= 0:
                return None
            self.solver.conf_budget(budget)
            result: bool | None = self.solver.solve_limited(assumptions=assumptions)
            if result is not None:
                return result
            now = time.perf_counter()
            rate = budget / max(now - started, 1e-6)  # conflicts per second
            # Slices grow with the time already spent (at most doubling it), so a long search
            # is a few dozen calls: every call restarts CaDiCaL's search schedule, and 50 ms
            # slices throughout left a 36×36 unsettled after 30 s that one call settles in 3 s.
            slice_s = min(max(_SLICE_S, now - begun), _MAX_SLICE_S)
            budget = max(1, int(rate * min(slice_s, left / 2)))

    def _solve_interrupted(self, assumptions: list[int], deadline: float) -> bool | None:
        """One solve that a timer interrupts at `deadline` (pysat releases the GIL for it)."""
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        timer = threading.Timer(left, self.solver.interrupt)
        timer.start()
        try:
            result: bool | None = self.solver.solve_limited(
                assumptions=assumptions, expect_interrupt=True
            )
        finally:
            timer.cancel()
            self.solver.clear_interrupt()  # a timer that fired after the answer is harmless
        return result


def counters(solver: Any) -> dict[str, int]:
    """Conflicts, decisions and propagations so far; empty when the solver does not say."""
    try:
        stats = solver.accum_stats() or {}
    except NotImplementedError:  # Kissat exposes no statistics in pysat: report none, not 0
        return {}
    return {key: int(stats.get(key, 0)) for key in ("conflicts", "decisions", "propagations")}


def add_counts(totals: dict[str, int], solver: Any) -> None:
    """Add a solver's counters to `totals` (before it is deleted)."""
    for key, value in counters(solver).items():
        totals[key] = totals.get(key, 0) + value


T = TypeVar("T")


@dataclass
class Enumeration(Generic[T]):
    """What `enumerate_models` found: answers, whether that is all of them, and counters."""

    answers: list[T] = field(default_factory=list)
    exhausted: bool = False
    stopped: bool = False  # the deadline came first
    counts: dict[str, int] = field(default_factory=dict)
    blocks: int = 0  # blocking clauses added

    def stats(self) -> Stats:
        return {**self.counts, "stopped": "timeout"} if self.stopped else dict(self.counts)


def enumerate_models(
    name: str,
    post: Callable[[Any], object],
    read: Callable[[list[int]], tuple[T, list[int]]],
    limit: int,
    deadline: float | None,
) -> Enumeration[T]:
    """Up to `limit` models of a formula in a fresh solver, each blocked once read.

    `post` puts the formula into an empty solver; `read` turns a model into an answer and the
    clause that forbids it. Kissat takes no clause after a solve (pysat aborts the process),
    so for it the solver is rebuilt with every blocking clause so far.
    """
    found: Enumeration[T] = Enumeration()
    blocks: list[list[int]] = []
    solver: Any = None
    try:
        while len(found.answers) < limit:
            if solver is None:
                solver = new_solver(name)
                post(solver)
                for block in blocks:
                    solver.add_clause(block)
            answer = SolverRun(solver, name).solve([], deadline)
            if answer is None or not answer:
                found.stopped, found.exhausted = answer is None, answer is False
                break
            result, block = read(solver.get_model())
            found.answers.append(result)
            found.blocks += 1
            if name in NON_INCREMENTAL:
                blocks.append(block)
                add_counts(found.counts, solver)
                solver.delete()
                solver = None
            else:
                solver.add_clause(block)
        if solver is not None:
            add_counts(found.counts, solver)
    finally:
        if solver is not None:
            solver.delete()
    return found
