"""The SAT backend: CNF from `encoders.cnf`, solved by any pysat solver, uniqueness by blocking.

Puzzles that share a shape and rules share one incremental solver: the rules are encoded once,
each puzzle's givens are assumptions, and the second ("is there another?") call adds the blocking
clause behind a fresh selector literal, retired afterwards; the solver is rebuilt now and then.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import compress
from typing import Any

from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from satsudoku.encoders.cnf import (
    AtMostOne,
    CnfFormula,
    Encoding,
    encode_puzzle,
    encode_rules,
    parse_amo,
    parse_encoding,
)
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Proof, Result, make_result
from satsudoku.rules import Rule

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
# Lingeling and Kissat have neither budgets nor interrupt(): they cannot honour --timeout.
UNSTOPPABLE = frozenset({"lingeling", "kissat404"})
# CaDiCaL has no interrupt(): deadlines become conflict budgets. The others are interrupted
# by a timer, which costs nothing while they run (budget slices slowed MapleChrono 5-7x).
_BUDGETED = frozenset({"cadical103", "cadical153", "cadical195", "cadical300"})
REBUILD_EVERY = 500  # puzzles per incremental solver: retired selectors lengthen every model
_FIRST_BUDGET = 100  # conflicts in the first slice when a deadline is set
_SLICE_S = 0.05  # later slices are sized from the measured conflict rate to last about this
# Solvers whose first call may prove uniqueness by itself: with these options every variable
# a model sets is an assumption, a counted decision or propagated, so a call with no decision
# and no conflict found a model that unit propagation implies. CaDiCaL's "lucky" phases decide
# without counting, "elim" sets eliminated variables by model extension, and "ilb" (incremental
# lazy backtracking) keeps the previous call's trail, so a later call may find a full
# assignment it never derived (an empty 6×6 once came back "unique" after a limit-1 solve).
# Checking with `propagate()` instead would be independent of these counters but costs as
# much as the blocking call it saves (measured: 17clue 3,800/s → 2,200/s).
UP_PROOF: dict[str, dict[str, int]] = {
    "cadical153": {"lucky": 0, "elim": 0, "ilb": 0},
    "cadical195": {"lucky": 0, "elim": 0, "ilb": 0},
}

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


class _Run:
    """One pysat solver plus the statistics and deadline handling shared by both paths."""

    def __init__(self, solver: Any, name: str) -> None:
        self.solver = solver
        self.name = name

    def solve(self, assumptions: list[int], deadline: float | None) -> bool | None:
        """Solve under `assumptions`; None when `deadline` passed first.

        CaDiCaL has no interrupt(), so a deadline becomes conflict-budget slices in a loop
        (learnt clauses survive between slices), for every solver alike. Conflicts cost from
        microseconds (9×9) to seconds (formulas of millions of clauses), so each slice is sized
        from the rate the previous one measured, to end near `_SLICE_S` or the deadline.
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
        while True:
            started = time.perf_counter()
            left = deadline - started
            if left <= 0:
                return None
            self.solver.conf_budget(budget)
            result: bool | None = self.solver.solve_limited(assumptions=assumptions)
            if result is not None:
                return result
            rate = budget / max(time.perf_counter() - started, 1e-6)  # conflicts per second
            budget = max(1, int(rate * min(_SLICE_S, left / 2)))

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


def _counters(solver: Any) -> dict[str, int]:
    """Conflicts, decisions and propagations so far; empty when the solver does not say."""
    try:
        stats = solver.accum_stats() or {}
    except NotImplementedError:  # Kissat exposes no statistics in pysat: report none, not 0
        return {}
    return {key: int(stats.get(key, 0)) for key in ("conflicts", "decisions", "propagations")}


@lru_cache(maxsize=16)
def _rules_formula(
    key: tuple[Shape, tuple[Rule, ...]], encoding: Encoding, amo: AtMostOne
) -> tuple[CnfFormula, int]:
    """The rules of a shape as CNF (never mutated) and its variable count, shared by every
    session and backend that needs them."""
    shape, rules = key
    formula = encode_rules(shape, Puzzle.empty(shape, rules).constraints(), encoding, amo)
    return formula, formula.used_vars()


class _Session:
    """An incremental solver for one shape and rule set; givens arrive as assumptions.

    Per puzzle: one call under the givens; if that call made no decision and met no conflict,
    unit propagation alone implied the whole model, so it is the only solution and the
    blocking call is skipped (sound only where `UP_PROOF` switches off what could assign a
    variable without counting a decision). Otherwise a second call under a selector-guarded
    blocking clause decides uniqueness.
    """

    def __init__(self, formula: CnfFormula, used_vars: int, solver_name: str) -> None:
        self.formula = formula
        self.solver_name = solver_name
        self.n = n = formula.shape.size
        self.cell_vars = n**3
        self.bases = [index * n for index in range(n * n)]  # var of (cell, digit) = base + digit
        self.up_proof = solver_name in UP_PROOF
        self.used_vars = used_vars
        self.solver: Any = None
        self.solved = 0
        self.next_var = 0
        self._start()

    def _start(self) -> None:
        if self.solver is not None:
            self.solver.delete()
        self.solver = new_solver(self.solver_name)
        if self.up_proof:
            self.solver.configure(UP_PROOF[self.solver_name])  # before any clause
        self.solver.append_formula(self.formula.clauses)
        self.next_var = self.formula.num_vars + 1
        self.solved = 0

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    def true_cell_lits(self, model: list[int]) -> list[int]:
        """The true cell-digit literals, in cell order (one per cell in a model)."""
        # Every cell variable occurs in the rules, so exactly one digit per cell is true
        # and filtering the cell block yields them in cell order.
        true = [lit for lit in model[: self.cell_vars] if lit > 0]
        if len(true) == len(self.bases):
            return true
        by_cell = [0] * len(self.bases)  # defensive: not one digit per cell
        for lit in true:
            by_cell[(lit - 1) // self.n] = lit
        return by_cell

    def decode(self, true: list[int]) -> Grid:
        digits = [lit - base if lit else 0 for lit, base in zip(true, self.bases, strict=True)]
        return Grid(self.n, tuple(digits))

    def solve(
        self, givens: Grid, limit: int, deadline: float | None
    ) -> tuple[list[Grid], bool, Stats]:
        """Up to `limit` solutions, whether the search was exhausted, and counters."""
        solver = self.solver
        values = givens.values
        assumptions = [base + d for base, d in zip(self.bases, values, strict=True) if d]
        open_cells = [not d for d in values]
        before = _counters(solver)
        run = _Run(solver, self.solver_name)
        solutions: list[Grid] = []
        selectors: list[int] = []
        exhausted = False
        stopped = False
        while True:
            answer = run.solve(assumptions, deadline)
            if answer is None:
                stopped = True
                break
            if not answer:
                exhausted = True
                break
            model = solver.get_model()
            true = self.true_cell_lits(model)
            solutions.append(self.decode(true))
            if len(solutions) >= limit:
                break
            if self.up_proof and len(solutions) == 1 and self._implied(before):
                exhausted = True  # unit propagation forced every cell: no other model
                break
            selector = self.next_var
            self.next_var += 1
            solver.add_clause([-selector, *[-lit for lit in compress(true, open_cells) if lit]])
            selectors.append(selector)
            assumptions.append(selector)
        for selector in selectors:
            solver.add_clause([-selector])  # retire: the guarded clause is now satisfied
        after = _counters(solver)
        stats: Stats = {key: after[key] - before[key] for key in after}
        if stopped:
            stats["stopped"] = "timeout"
        self.solved += 1
        if self.solved >= REBUILD_EVERY:
            self._start()
        return solutions, exhausted, stats

    def _implied(self, before: dict[str, int]) -> bool:
        """True when the last call neither decided nor conflicted: its model is UP-implied."""
        now = _counters(self.solver)
        return now["decisions"] == before["decisions"] and now["conflicts"] == before["conflicts"]


class SatBackend:
    """CNF + a pysat solver; `encoding`, `solver` and `amo` are chosen by name."""

    name = "sat"

    def __init__(
        self,
        encoding: str | Encoding = Encoding.EXTENDED,
        solver: str = DEFAULT_SOLVER,
        amo: str | AtMostOne = AtMostOne.PAIRWISE,
    ) -> None:
        self.encoding = parse_encoding(encoding)
        self.solver = parse_solver(solver)
        self.amo = parse_amo(amo)
        self._session: _Session | None = None
        self._session_key: tuple[Shape, tuple[Rule, ...]] | None = None

    def close(self) -> None:
        """Free the incremental solver (also done when the backend is garbage-collected)."""
        if getattr(self, "_session", None) is not None:  # __init__ may have failed early
            assert self._session is not None
            self._session.close()
            self._session = None
            self._session_key = None

    def __del__(self) -> None:
        self.close()

    def solve(
        self,
        puzzle: Puzzle,
        *,
        limit: int = 2,
        timeout: float | None = None,
        certify: bool = False,
    ) -> Result:
        """Look for up to `limit` solutions; status unknown when `timeout` seconds run out.

        With `certify=True`, a unique or unsatisfiable verdict carries a checkable
        `SatCertificate` (CNF + DRAT refutation) in `result.proof.certificate`.
        """
        start = time.perf_counter()
        limit = max(1, limit)
        deadline = None if timeout is None else start + timeout
        session = self._session_for(puzzle)
        if session is not None:
            formula, used = session.formula, session.used_vars
            solutions, exhausted, stats = session.solve(puzzle.givens, limit, deadline)
        else:
            formula = encode_puzzle(puzzle, self.encoding, self.amo)
            used = formula.used_vars()
            solutions, exhausted, stats = self._one_shot(formula, puzzle, limit, deadline)
        stats = {
            "variables": used,
            "clauses": len(formula.clauses),
            **stats,
            "time_s": time.perf_counter() - start,
        }
        details: dict[str, Any] = {
            "encoding": self.encoding.value,
            "amo": self.amo.value,
            "solver": self.solver,
            "complete": exhausted,
        }
        certificate = None
        if certify and exhausted:
            from satsudoku.proof.certificate import PROOF_SOLVER, PROOF_SOLVERS, make_certificate

            prover = self.solver if self.solver in PROOF_SOLVERS else PROOF_SOLVER
            certificate = make_certificate(puzzle, solutions, encoding=self.encoding, solver=prover)
            details["certificate_solver"] = certificate.solver
        method = "sat-refutation" if exhausted else "witness" if len(solutions) >= 2 else "none"
        proof = Proof(method, details, certificate)
        return make_result(
            puzzle, self.name, solutions, exhausted=exhausted, limit=limit, stats=stats, proof=proof
        )

    def solve_many(
        self, puzzles: Iterable[Puzzle], *, limit: int = 2, timeout: float | None = None
    ) -> Iterator[Result]:
        """Results for `puzzles` in order; consecutive puzzles of one shape and rule set share
        one incremental solver (that is also what `solve` does, so this is a convenience)."""
        for puzzle in puzzles:
            yield self.solve(puzzle, limit=limit, timeout=timeout)

    def _session_for(self, puzzle: Puzzle) -> _Session | None:
        """The incremental solver for this puzzle's shape and rules, when that path applies."""
        if self.encoding is Encoding.REDUCED or self.solver in NON_INCREMENTAL:
            return None  # the reduced formula depends on the givens; Kissat has no assumptions
        key = (puzzle.shape, puzzle.rules)
        try:
            same = key == self._session_key and hash(key) is not None
        except TypeError:  # an unhashable user rule: no sharing
            return None
        if same and self._session is not None:
            return self._session
        self.close()
        formula, used = _rules_formula(key, self.encoding, self.amo)
        self._session = _Session(formula, used, self.solver)
        self._session_key = key
        return self._session

    def _one_shot(
        self, formula: CnfFormula, puzzle: Puzzle, limit: int, deadline: float | None
    ) -> tuple[list[Grid], bool, Stats]:
        """A fresh solver for this formula; blocking clauses are added for good."""
        solutions: list[Grid] = []
        clauses = list(formula.clauses)
        totals: dict[str, int] = {}
        exhausted = stopped = False
        incremental = self.solver not in NON_INCREMENTAL
        solver: Any = None
        try:
            while True:
                if solver is None:
                    solver = new_solver(self.solver, bootstrap_with=clauses)
                answer = _Run(solver, self.solver).solve([], deadline)
                if answer is None:
                    stopped = True
                elif not answer:
                    exhausted = True
                else:
                    solutions.append(formula.decode(solver.get_model()))
                if stopped or exhausted or len(solutions) >= limit:
                    break
                block = formula.block(solutions[-1], puzzle.givens)
                if incremental:
                    solver.add_clause(block)
                else:
                    clauses.append(block)
                    for key, value in _counters(solver).items():
                        totals[key] = totals.get(key, 0) + value
                    solver.delete()
                    solver = None
            for key, value in _counters(solver).items():
                totals[key] = totals.get(key, 0) + value
        finally:
            if solver is not None:
                solver.delete()
        stats: Stats = dict(totals)
        if stopped:
            stats["stopped"] = "timeout"
        return solutions, exhausted, stats
