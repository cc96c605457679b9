"""Minimality by SAT: one incremental solver per shape and rules, holding every rule instance
behind its guard literal; a puzzle's givens and guards are assumptions, and "not its solution"
is a clause behind the puzzle's own selector, retired when the next puzzle comes. Asking
whether the puzzle stays unique without some items is then one call that leaves them out."""

from __future__ import annotations

import time
from typing import Any

from satsudoku.deadline import BuildCache, OutOfTime
from satsudoku.errors import BackendBugError
from satsudoku.grid import Grid
from satsudoku.result import Status
from satsudoku.sat.solvers import DEFAULT_SOLVER, SolverRun, new_solver
from satsudoku.tools.guarded import guarded_cnf
from satsudoku.tools.minimal import Items
from satsudoku.verify import violations

REBUILD_EVERY = 500  # puzzles per solver: each retired selector stays in it for good
_LOAD_CHUNK = 100_000  # clauses loaded between two readings of the clock


class _Session:
    """A loaded solver for one shape and rule split, with fresh variables handed out above it."""

    def __init__(self, items: Items, deadline: float | None) -> None:
        puzzle = items.puzzle
        groups = [instance.constraints for instance in items.instances]
        self.cnf = guarded_cnf(puzzle.shape, items.split.fixed, groups, deadline)
        self.guards = self.cnf.guards
        self.solver: Any = None
        self.restart(deadline)

    def restart(self, deadline: float | None) -> None:
        """A new solver with the formula alone (the retired selectors and learnt clauses go)."""
        if self.solver is not None:
            self.solver.delete()
        self.next_var = self.cnf.num_vars
        self.puzzles = 0
        self.solver = new_solver(DEFAULT_SOLVER)
        clauses = self.cnf.clauses
        for start in range(0, len(clauses), _LOAD_CHUNK):  # 36×36 rules: millions of clauses
            if deadline is not None and time.perf_counter() >= deadline:
                self.solver.delete()
                self.solver = None
                raise OutOfTime
            self.solver.append_formula(clauses[start : start + _LOAD_CHUNK])

    def fresh(self) -> int:
        self.next_var += 1
        return self.next_var


_SESSIONS: BuildCache[_Session] = BuildCache(size=4)


def _session_for(items: Items, deadline: float | None) -> _Session:
    """The shared session of the puzzle's shape and rules (a fresh one every REBUILD_EVERY)."""
    puzzle = items.puzzle
    key = (puzzle.shape, puzzle.rules, tuple(i.label for i in items.instances))
    try:
        hash(key)
    except TypeError:  # a user rule that is not hashable: a session of its own
        return _Session(items, deadline)
    session = _SESSIONS.get(key, lambda: _Session(items, deadline))
    if session.puzzles >= REBUILD_EVERY or session.solver is None:
        session.restart(deadline)
    session.puzzles += 1
    return session


class SatOracle:
    """Uniqueness of one puzzle and of the puzzle without some items, by assumptions."""

    def __init__(self, items: Items, deadline: float | None) -> None:
        self.items = items
        self.deadline = deadline
        self.session = _session_for(items, deadline)
        self.run = SolverRun(self.session.solver, DEFAULT_SOLVER)
        n = self.n = items.puzzle.size
        # Item k's literal: "cell holds its given" (var (r·n + c)·n + d), or instance k's guard.
        self.literals = [(r * n + c) * n + d for (r, c), d in items.givens]
        self.literals += list(self.session.guards)
        self.selector = self.session.fresh()  # switches on "not this puzzle's solution"
        self.solution: Grid | None = None
        self.calls = 0

    def verdict(self) -> tuple[Status, tuple[Grid, ...]]:
        """Unique, multiple (with two witnesses) or unsatisfiable; OutOfTime past the deadline."""
        first = self._solve(self.literals)
        if first is None:
            self.close()
            return Status.UNSATISFIABLE, ()
        self._check(first, frozenset())
        n = self.n
        self.session.solver.add_clause(
            [-self.selector, *(-(index * n + d) for index, d in enumerate(first.values))]
        )
        self.solution = first
        second = self._solve([*self.literals, self.selector])
        if second is None:
            return Status.UNIQUE, (first,)
        self._check(second, frozenset())
        self.close()
        return Status.MULTIPLE, (first, second)

    def still_unique(self, removed: frozenset[int]) -> bool:
        assumptions = [lit for k, lit in enumerate(self.literals) if k not in removed]
        second = self._solve([*assumptions, self.selector])
        if second is None:
            return True
        self._check(second, removed)
        return False

    def close(self) -> None:
        """Retire this puzzle's selector: its clause is satisfied for good."""
        self.session.solver.add_clause([-self.selector])

    def _solve(self, assumptions: list[int]) -> Grid | None:
        self.calls += 1
        answer = self.run.solve(assumptions, self.deadline)
        if answer is None:
            raise OutOfTime
        if not answer:
            return None
        n = self.n
        model = self.session.solver.get_model()[: n**3]
        values = [0] * (n * n)
        for var in [lit for lit in model if lit > 0]:  # one true digit per cell
            values[(var - 1) // n] = (var - 1) % n + 1
        return Grid(n, tuple(values))

    def _check(self, grid: Grid, removed: frozenset[int]) -> None:
        """A grid the solver found must solve the puzzle without `removed`: trust no solver."""
        reduced = self.items.puzzle_without(removed) if removed else self.items.puzzle
        if grid == self.solution or (broken := violations(reduced, grid)):
            why = "repeats the solution" if grid == self.solution else broken[0]
            raise BackendBugError(f"the SAT solver returned a grid that {why}")
