"""The SAT backend: CNF from `encoders.cnf`, solved by any pysat solver, uniqueness by blocking.

Puzzles that share a shape and rules share one incremental solver: the rules are encoded once,
each puzzle's givens are assumptions, and the second ("is there another?") call adds the blocking
clause behind a fresh selector literal, retired afterwards; the solver is rebuilt now and then.
The reduced encoding instead propagates the givens and solves what is left in a fresh solver
(`sat.residual`), or, for rules that are not all-different groups, re-encodes each puzzle.
"""

from __future__ import annotations

import atexit
import random
import sys
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from itertools import compress
from typing import Any

from satsudoku.constraints import Allowed, lower
from satsudoku.deadline import BuildCache, OutOfTime
from satsudoku.encoders.cnf import (
    NATIVE_KINDS,
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
from satsudoku.options import checked, checked_optional_seed
from satsudoku.puzzle import Puzzle
from satsudoku.result import Proof, Result, make_result
from satsudoku.rules import Rule
from satsudoku.sat.residual import ResidualSession, groups_of, unit_literals
from satsudoku.sat.solvers import (
    DEFAULT_SOLVER,
    NATIVE_CARDINALITY,
    NON_INCREMENTAL,
    PHASELESS,
    SOLVERS,
    SolverRun,
    Stats,
    counters,
    enumerate_models,
    load,
    new_solver,
    parse_solver,
)

__all__ = ["DEFAULT_SOLVER", "SOLVERS", "SatBackend", "new_solver", "parse_solver"]

REBUILD_EVERY = 500  # puzzles per incremental solver: retired selectors lengthen every model
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
# Boards above this size are large: a whole-board formula is millions of clauses (64×64: 3.1 M
# even with the sequential counter). There the reduced encoding skips the residual session's
# whole-board propagator and is built per puzzle from the givens (Kwon & Jain's reduction: a
# 64×64 with 70% givens is 38 k clauses, 0.2 s), and the other encodings stream their rules
# into the solver without keeping them as Python lists (64×64: 1.24 GB → see docs/backends.md).
LARGE_SIZE = 25
Loader = Callable[[Any, float | None], CnfFormula]  # fills a fresh solver, returns the formula
_RuleKey = tuple[Shape, tuple[Rule, ...]]
_FORMULAS: BuildCache[tuple[CnfFormula, int]] = BuildCache()


def _rules_formula(
    key: _RuleKey, encoding: Encoding, amo: AtMostOne, deadline: float | None = None
) -> tuple[CnfFormula, int]:
    """The rules of a shape as CNF (never mutated) and its variable count, shared by every
    session and backend that needs them; OutOfTime if `deadline` passes first."""

    def build() -> tuple[CnfFormula, int]:
        shape, rules = key
        constraints = Puzzle.empty(shape, rules).constraints()
        formula = encode_rules(shape, constraints, encoding, amo, deadline=deadline)
        return formula, formula.used_vars(deadline)

    return _FORMULAS.get((key, encoding, amo), build)


def _load_in_time(solver: Any, formula: CnfFormula, deadline: float | None) -> None:
    """Load `formula` into `solver`, or raise OutOfTime (the caller drops the solver)."""
    if not load(solver, formula, deadline):
        raise OutOfTime


class _Session:
    """An incremental solver for one shape and rule set; givens arrive as assumptions.

    Per puzzle: one call under the givens; if that call made no decision and met no conflict,
    unit propagation alone implied the whole model, so it is the only solution and the
    blocking call is skipped (sound only where `UP_PROOF` switches off what could assign a
    variable without counting a decision). Otherwise a second call under a selector-guarded
    blocking clause decides uniqueness.
    """

    def __init__(
        self,
        shape: Shape,
        loader: Loader,
        used_vars: int | None,
        solver_name: str,
        deadline: float | None,
    ) -> None:
        """`used_vars` None: every variable of the formula occurs in it (a streamed formula)."""
        self.loader = loader
        self.formula: CnfFormula | None = None
        self.solver_name = solver_name
        self.n = n = shape.size
        self.cell_vars = n**3
        self.bases = [index * n for index in range(n * n)]  # var of (cell, digit) = base + digit
        self.up_proof = solver_name in UP_PROOF
        self.used_vars = used_vars or 0
        self.solver: Any = None
        self.solved = 0
        self.next_var = 0
        self._start(deadline)

    def _start(self, deadline: float | None) -> None:
        self.close()
        self.solver = new_solver(self.solver_name)
        if self.up_proof:
            self.solver.configure(UP_PROOF[self.solver_name])  # before any clause
        try:
            self.formula = self.loader(self.solver, deadline)
        except OutOfTime:
            self.close()
            raise
        if self.used_vars == 0:
            self.used_vars = self.formula.num_vars
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
        before = counters(solver)
        run = SolverRun(solver, self.solver_name)
        solutions: list[Grid] = []
        # One selector guards every blocking clause of this puzzle: assumed while it is
        # searched, retired after. A selector per clause made the k-th call carry k
        # assumptions (39,168 grids of a 6x6: 292 s and 1.3 GB instead of 3 s).
        selector = 0
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
            if not selector:
                selector = self.next_var
                self.next_var += 1
                assumptions.append(selector)
            solver.add_clause([-selector, *[-lit for lit in compress(true, open_cells) if lit]])
        if selector:
            solver.add_clause([-selector])  # retire: the guarded clauses are now satisfied
        after = counters(solver)
        stats: Stats = {key: after[key] - before[key] for key in after}
        if stopped:
            stats["stopped"] = "timeout"
        self.solved += 1
        if self.solved >= REBUILD_EVERY:
            self._start(None)  # between puzzles: no deadline applies
        return solutions, exhausted, stats

    def _implied(self, before: dict[str, int]) -> bool:
        """True when the last call neither decided nor conflicted: its model is UP-implied."""
        now = counters(self.solver)
        return now["decisions"] == before["decisions"] and now["conflicts"] == before["conflicts"]


_LIVE: weakref.WeakSet[SatBackend] = weakref.WeakSet()


def _close_live_backends() -> None:
    """At exit, free every backend's solver while pysat can still do it: left to the garbage
    collector during interpreter teardown, pysat's own __del__ prints an "ignored" traceback."""
    for backend in list(_LIVE):
        backend.close()


atexit.register(_close_live_backends)


class SatBackend:
    """CNF + a pysat solver; `encoding`, `solver` and `amo` are chosen by name."""

    name = "sat"

    def __init__(
        self,
        encoding: str | Encoding = Encoding.EXTENDED,
        solver: str = DEFAULT_SOLVER,
        amo: str | AtMostOne = AtMostOne.AUTO,
        random_seed: int | None = None,
    ) -> None:
        """`random_seed`: start each puzzle's search from random phases (`solve --random`).
        `amo` AUTO is pairwise on boards up to 25×25 and the sequential counter beyond."""
        self.encoding = parse_encoding(encoding)
        self.solver = parse_solver(solver)
        self.amo = parse_amo(amo)
        self.random_seed = random_seed = checked_optional_seed(random_seed)
        if random_seed is not None and self.solver in PHASELESS:
            raise PuzzleError(
                f"solver {self.solver} takes no phases, so it cannot search at random"
            )
        if self.amo is AtMostOne.NATIVE and self.solver not in NATIVE_CARDINALITY:
            choices = ", ".join(sorted(NATIVE_CARDINALITY))
            raise PuzzleError(
                f"solver {self.solver} has no native at-most-one; --amo native needs {choices}"
            )
        self._session: _Session | ResidualSession | None = None
        self._session_key: _RuleKey | None = None
        _LIVE.add(self)

    def close(self) -> None:
        """Free the incremental solver (also done when the backend is garbage-collected)."""
        if getattr(self, "_session", None) is not None:  # __init__ may have failed early
            assert self._session is not None
            self._session.close()
            self._session = None
            self._session_key = None

    def __del__(self, _finalizing: Callable[[], bool] = sys.is_finalizing) -> None:
        # During interpreter teardown module globals (pysat's C module, even `sys`) may already
        # be gone: skip, the process frees the memory anyway (bound early, as a default).
        if not _finalizing():
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
        limit, timeout = checked(limit, timeout)
        start = time.perf_counter()
        deadline = None if timeout is None else start + timeout
        solutions: list[Grid] = []
        exhausted = False
        size: dict[str, int] = {}
        counts: Stats = {"stopped": "timeout"}
        try:
            session = self._session_for(puzzle, deadline)
            solutions, exhausted, size, counts = self._solve_in(session, puzzle, limit, deadline)
        except OutOfTime:
            pass  # building or loading the formula used up the time: unknown, nothing found
        stats: Stats = {**size, **counts, "time_s": time.perf_counter() - start}
        details: dict[str, Any] = {
            "encoding": self.encoding.value,
            "amo": self.amo.value,
            "solver": self.solver,
            "complete": exhausted,
        }
        certificate = None
        if certify and exhausted:
            from satsudoku.proof.certificate import (
                PROOF_SOLVER,
                PROOF_SOLVERS,
                CertificateTimeoutError,
                make_certificate,
            )

            prover = self.solver if self.solver in PROOF_SOLVERS else PROOF_SOLVER
            try:
                certificate = make_certificate(
                    puzzle, solutions, encoding=self.encoding, solver=prover, deadline=deadline
                )
                details["certificate_solver"] = certificate.solver
            except CertificateTimeoutError:  # asked for a proof, got none in time: unproved
                exhausted = details["complete"] = False
                stats["stopped"] = "timeout"
        method = "sat-refutation" if exhausted else "witness" if len(solutions) >= 2 else "none"
        proof = Proof(method, details, certificate)
        return make_result(
            puzzle, self.name, solutions, exhausted=exhausted, limit=limit, stats=stats, proof=proof
        )

    def _solve_in(
        self,
        session: _Session | ResidualSession | None,
        puzzle: Puzzle,
        limit: int,
        deadline: float | None,
    ) -> tuple[list[Grid], bool, dict[str, int], Stats]:
        """Solutions, exhaustion, formula size (variables, clauses) and solver counters."""
        if isinstance(session, ResidualSession):
            solutions, exhausted, stats, variables, clauses = session.solve(
                puzzle.givens, limit, deadline
            )
            return solutions, exhausted, {"variables": variables, "clauses": clauses}, stats
        if session is not None:
            assert session.formula is not None  # loaded by its constructor
            formula, used = session.formula, session.used_vars
            solutions, exhausted, stats = session.solve(puzzle.givens, limit, deadline)
        else:
            formula = encode_puzzle(puzzle, self.encoding, self.amo, deadline)
            used = formula.used_vars(deadline)
            solutions, exhausted, stats = self._one_shot(formula, puzzle, limit, deadline)
        size = {"variables": used, "clauses": formula.size}
        return solutions, exhausted, size, stats

    def solve_many(
        self, puzzles: Iterable[Puzzle], *, limit: int = 2, timeout: float | None = None
    ) -> Iterator[Result]:
        """Results for `puzzles` in order; consecutive puzzles of one shape and rule set share
        one incremental solver (that is also what `solve` does, so this is a convenience)."""
        for puzzle in puzzles:
            yield self.solve(puzzle, limit=limit, timeout=timeout)

    def _session_for(
        self, puzzle: Puzzle, deadline: float | None
    ) -> _Session | ResidualSession | None:
        """The solver state shared by puzzles of this shape and rules, when a path has one."""
        if self.solver in NON_INCREMENTAL and self.encoding is not Encoding.REDUCED:
            return None  # Kissat ignores assumptions
        if self.random_seed is not None:
            return None  # a fresh solver per puzzle: its phases alone decide, as the seed says
        key = (puzzle.shape, puzzle.rules)
        try:
            same = key == self._session_key and hash(key) is not None
        except TypeError:  # an unhashable user rule: no sharing
            return None
        if same and self._session is not None:
            return self._session
        self.close()
        session = self._new_session(key, deadline)
        if session is not None:
            self._session, self._session_key = session, key
        return session

    def _new_session(
        self, key: _RuleKey, deadline: float | None
    ) -> _Session | ResidualSession | None:
        shape, rules = key
        if self.encoding is not Encoding.REDUCED and shape.size > LARGE_SIZE:
            return _Session(shape, self._streamer(key), None, self.solver, deadline)
        if self.encoding is not Encoding.REDUCED:
            formula, used = _rules_formula(key, self.encoding, self.amo, deadline)

            def cached(solver: Any, deadline: float | None) -> CnfFormula:
                _load_in_time(solver, formula, deadline)
                return formula

            return _Session(shape, cached, used, self.solver, deadline)
        if shape.size > LARGE_SIZE:
            return None  # per puzzle: only the cells and digits the givens leave get variables
        constraints = lower(Puzzle.empty(shape, rules).constraints(), shape, NATIVE_KINDS, deadline)
        groups = groups_of(shape, constraints)
        if groups is None:
            return None  # not all-different groups: the givens-only reduction, per puzzle
        units = unit_literals(shape, constraints)
        plain = [c for c in constraints if not isinstance(c, Allowed)]
        propagation = encode_rules(
            shape, plain, Encoding.EXTENDED, AtMostOne.AUTO, deadline=deadline
        )
        return ResidualSession(propagation, groups, units, self.solver, self.amo, deadline)

    def _streamer(self, key: _RuleKey) -> Loader:
        """Encodes the rules of `key` straight into a solver (large boards: see LARGE_SIZE)."""
        encoding, amo = self.encoding, self.amo

        def stream(solver: Any, deadline: float | None) -> CnfFormula:
            shape, rules = key
            constraints = Puzzle.empty(shape, rules).constraints()
            formula = encode_rules(
                shape, constraints, encoding, amo, deadline=deadline, sink=solver.solver.add_clause
            )
            for lits in formula.atmost:
                solver.add_atmost(lits, 1)
            return formula

        return stream

    def _one_shot(
        self, formula: CnfFormula, puzzle: Puzzle, limit: int, deadline: float | None
    ) -> tuple[list[Grid], bool, Stats]:
        """A fresh solver for this formula; blocking clauses are added for good."""

        def read(model: list[int]) -> tuple[Grid, list[int]]:
            grid = formula.decode(model)
            return grid, formula.block(grid, puzzle.givens)

        def post(solver: Any) -> None:
            _load_in_time(solver, formula, deadline)
            if self.random_seed is not None:
                solver.set_phases(_random_phases(formula.shape.size, self.random_seed))

        found = enumerate_models(self.solver, post, read, limit, deadline)
        return found.answers, found.exhausted, found.stats()


def _random_phases(size: int, seed: int) -> list[int]:
    """Phases aiming every cell at one digit drawn by random.Random(seed): the solver's first
    model follows them where the rules allow, and the same seed gives the same start anywhere."""
    rng = random.Random(seed)
    phases: list[int] = []
    for base in range(0, size**3, size):
        aim = base + rng.randrange(size) + 1
        phases.extend(var if var == aim else -var for var in range(base + 1, base + size + 1))
    return phases
