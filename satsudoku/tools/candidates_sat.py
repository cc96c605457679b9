"""True candidates by SAT: one incremental pysat solver, a guarded witness clause, blocked models.

The rules are loaded once per batch (`_Session`). The witness clause "some pair still below
the cap holds" sits behind an activation literal that each call assumes; when a pair reaches
the cap the clause is retired (its literal set false for good) and a narrower one takes its
place. Phases prefer the open pairs, so each model tends to cover many of them at once.
"""

from __future__ import annotations

import time
from typing import Any

from satsudoku.deadline import BuildCache, OutOfTime
from satsudoku.encoders.cnf import AtMostOne, Encoding, encode_rules
from satsudoku.errors import PuzzleError
from satsudoku.puzzle import Puzzle
from satsudoku.sat.solvers import (
    DEFAULT_SOLVER,
    NON_INCREMENTAL,
    SolverRun,
    counters,
    load,
    new_solver,
    parse_solver,
)
from satsudoku.tools.candidates import CandidateCounts, Stats, Tally, result_from

REBUILD_EVERY = 50  # puzzles per solver: retired selectors and their learnt clauses slow it
# (17clue less two givens, solver ms per puzzle: worst 229 ms rebuilding every 500, 81 every 50)


class _Session:
    """A solver holding one shape's rules, shared by the puzzles of a batch: a puzzle's givens
    are assumptions and its clauses (witness, blocked grids) sit behind its own selector,
    retired when it is done, so the rules are loaded once rather than once per puzzle."""

    def __init__(self, puzzle: Puzzle, name: str, deadline: float | None) -> None:
        constraints = Puzzle.empty(puzzle.shape, puzzle.rules).constraints()
        # At most one digit a cell, each digit once a house: pairwise up to 25 literals, a
        # sequential counter beyond, as the SAT backend posts them. Pairwise throughout, a
        # 64x64's rules were 33 million clauses (2.7 GB at --timeout 5, never loaded).
        self.formula = encode_rules(
            puzzle.shape, constraints, Encoding.EXTENDED, AtMostOne.AUTO, deadline=deadline
        )
        self.name = name
        self.solver: Any = None
        self.restart(deadline)

    def restart(self, deadline: float | None) -> None:
        """A fresh solver with the rules alone (retired selectors and learnt clauses go)."""
        if self.solver is not None:
            self.solver.delete()
        self.solver = new_solver(self.name)
        self.next_var = self.formula.num_vars
        self.puzzles = 0
        if not load(self.solver, self.formula, deadline):
            self.solver.delete()
            self.solver = None
            raise OutOfTime

    def fresh(self) -> int:
        self.next_var += 1
        return self.next_var


_SESSIONS: BuildCache[_Session] = BuildCache(size=4)


def _session_for(puzzle: Puzzle, name: str, deadline: float | None) -> _Session:
    key = (puzzle.shape, puzzle.rules, name)
    try:
        hash(key)
    except TypeError:  # a user rule that is not hashable: a session of its own
        return _Session(puzzle, name, deadline)
    session = _SESSIONS.get(key, lambda: _Session(puzzle, name, deadline))
    if session.solver is None or session.puzzles >= REBUILD_EVERY:
        session.restart(deadline)
    session.puzzles += 1
    return session


def sat_candidates(
    puzzle: Puzzle, tally: Tally, deadline: float | None, solver: str = DEFAULT_SOLVER
) -> CandidateCounts:
    """Run the saturation loop in the shared solver; stop (incomplete) at `deadline`."""
    name = parse_solver(solver)
    if name in NON_INCREMENTAL:
        raise PuzzleError(
            f"solver {name} is not incremental; candidates need one (e.g. cadical195)"
        )
    stats: Stats = {"solver": name, "calls": 0}
    try:
        session = _session_for(puzzle, name, deadline)
    except OutOfTime:
        return result_from(tally, complete=False, stats={**stats, "stopped": "timeout"})
    selector = session.fresh()
    before = counters(session.solver)
    try:
        complete = _saturate(session, selector, tally, deadline, stats)
    finally:
        session.solver.add_clause([-selector])  # this puzzle's clauses are now satisfied
    after = counters(session.solver)
    stats.update({key: value - before.get(key, 0) for key, value in after.items()})
    if not complete:
        stats["stopped"] = "timeout"
    return result_from(tally, complete=complete, stats=stats)


def _saturate(
    session: _Session, selector: int, tally: Tally, deadline: float | None, stats: Stats
) -> bool:
    """Find, count and block models until no open pair can be met; False if out of time."""
    sat, formula = session.solver, session.formula
    run = SolverRun(sat, session.name)
    givens = tally.puzzle.givens
    n = givens.size
    assumed = [index * n + d for index, d in enumerate(givens.values) if d] + [selector]
    active = 0  # the activation literal of the current witness clause; 0 before the first
    calls, solving = 0, 0.0  # solve_s: time inside the solver, what the targets measure
    open_pairs = tally.open_pairs()
    while open_pairs:
        if not active:
            active = session.fresh()
            sat.add_clause([-active] + [pair + 1 for pair in open_pairs])
            try:  # a hint toward open pairs; CaDiCaL 1.0.3 takes none, and saturates without
                sat.set_phases([pair + 1 for pair in open_pairs])
            except NotImplementedError:
                pass
        calls += 1
        started = time.perf_counter()
        answer = run.solve([*assumed, active], deadline)
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
        sat.add_clause([-selector, *formula.block(grid, givens)])
    if active:
        sat.add_clause([-active])
    stats.update(calls=calls, solve_s=solving)
    return True
