"""Minimality: which givens and rule instances a unique puzzle could do without, and a minimal
puzzle obtained by removing them one at a time.

An item (a given, or a rule instance from `instances`) is redundant when the puzzle without
it still has exactly one solution. With S that solution, any other solution of the puzzle
without a given must differ from S there, so each test is one refutation of "a grid other than
S satisfies the rest". Greedy removal reaches a minimal puzzle in one pass when removing items
only adds solutions, so an item needed once stays needed; a removal that frees items held fixed
(kropki dots once the negative constraint is gone) earns the puzzle reached another pass.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from satsudoku.backends import get_backend
from satsudoku.deadline import OutOfTime
from satsudoku.errors import BackendBugError, PuzzleError
from satsudoku.grid import Cell, Grid, cell_name
from satsudoku.options import checked_optional_seed, checked_timeout
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result, Status
from satsudoku.tools.instances import Instance, Split, split_rules, without

BACKENDS = ("sat", "cpsat", "bitmask")
Stats = dict[str, int | float | str]


@dataclass(frozen=True)
class Items:
    """What can be removed: the givens (as cells) and the rule instances, numbered together
    (givens first), so a set of ints names any partial puzzle."""

    puzzle: Puzzle
    givens: tuple[tuple[Cell, int], ...]
    split: Split

    @property
    def instances(self) -> tuple[Instance, ...]:
        return self.split.instances

    def __len__(self) -> int:
        return len(self.givens) + len(self.split.instances)

    def puzzle_without(self, removed: Iterable[int]) -> Puzzle:
        """The puzzle with the items numbered `removed` taken out."""
        removed = set(removed)
        g = len(self.givens)
        values = list(self.puzzle.givens.values)
        n = self.puzzle.size
        for k in removed:
            if k < g:
                (r, c), _ = self.givens[k]
                values[r * n + c] = 0
        reduced = replace(self.puzzle, givens=Grid(n, tuple(values)))
        gone = [self.split.instances[k - g] for k in sorted(removed) if k >= g]
        return without(reduced, self.split, gone) if gone else reduced

    def name(self, k: int) -> str:
        if k < len(self.givens):
            return cell_name(self.givens[k][0])
        return self.split.instances[k - len(self.givens)].label


class Oracle(Protocol):
    """Answers "is the puzzle still unique without these items?"; OutOfTime past the deadline."""

    def verdict(self) -> tuple[Status, tuple[Grid, ...]]:
        """The whole puzzle's status and up to two of its solutions (called first, once)."""

    def still_unique(self, removed: frozenset[int]) -> bool: ...

    def close(self) -> None:
        """Release what the oracle holds for this puzzle."""


@dataclass(frozen=True)
class Minimality:
    """The verdict on a puzzle and, when it is unique, its redundant items."""

    status: Status
    solution: Grid | None
    redundant: tuple[int, ...]  # item numbers (see `Items`)
    items: Items
    backend: str
    stats: Stats = field(default_factory=dict)

    @property
    def minimal(self) -> bool:
        """Defined for unique puzzles only: a puzzle with several solutions or none is not."""
        return self.status is Status.UNIQUE and not self.redundant

    @property
    def redundant_givens(self) -> tuple[Cell, ...]:
        g = len(self.items.givens)
        return tuple(self.items.givens[k][0] for k in self.redundant if k < g)

    @property
    def redundant_instances(self) -> tuple[Instance, ...]:
        g = len(self.items.givens)
        return tuple(self.items.instances[k - g] for k in self.redundant if k >= g)


@dataclass(frozen=True)
class Reduction:
    """A minimal puzzle reached by greedy removal, and what was removed (item numbers)."""

    verdict: Minimality  # of the original puzzle's uniqueness; `redundant` is empty here
    puzzle: Puzzle
    removed: tuple[int, ...]
    # A further pass over the puzzle this one's removals left, when they made items removable
    # that were fixed before (a kropki dot once the negative constraint is gone); `puzzle` is
    # then the last pass's.
    then: Reduction | None = None

    def removals(self) -> list[tuple[Items, int]]:
        """Every item removed, pass after pass, with the items it is numbered among."""
        mine = [(self.verdict.items, k) for k in self.removed]
        return mine + (self.then.removals() if self.then is not None else [])


def items_of(puzzle: Puzzle, *, rules: bool = True, deadline: float | None = None) -> Items:
    """The removable items of `puzzle`: its givens, and its rule instances when `rules`."""
    givens = tuple(puzzle.given_cells())
    # Without `rules`, every rule stays whole and always holds.
    split = split_rules(puzzle, deadline) if rules else Split((), tuple(puzzle.constraints()))
    return Items(puzzle, givens, split)


def find_redundant(
    puzzle: Puzzle,
    backend: str = "sat",
    *,
    rules: bool = True,
    timeout: float | None = None,
) -> Minimality:
    """Every given (and rule instance, with `rules`) whose removal keeps the puzzle unique."""
    timeout = checked_timeout(timeout)
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    verdict, oracle = _prepare(puzzle, backend, rules, deadline)
    if oracle is None:
        return verdict
    redundant: list[int] = []
    try:
        for k in range(len(verdict.items)):
            if oracle.still_unique(frozenset((k,))):
                redundant.append(k)
    except OutOfTime:
        return _stopped(verdict, start)
    finally:
        oracle.close()
    stats = {**verdict.stats, "tests": len(verdict.items), "time_s": time.perf_counter() - start}
    return replace(verdict, redundant=tuple(redundant), stats=stats)


def reduce_puzzle(
    puzzle: Puzzle,
    backend: str = "sat",
    *,
    rules: bool = True,
    seed: int | None = None,
    keep: Sequence[Cell] = (),
    timeout: float | None = None,
) -> Reduction | Minimality:
    """A minimal puzzle with the same unique solution: items are tried once each, in a random
    order (`seed`) with the givens at `keep` tried last, and removed while uniqueness holds.

    Returns the Minimality verdict instead when the puzzle is not unique (or time ran out).
    """
    seed = checked_optional_seed(seed, "seed")
    timeout = checked_timeout(timeout)
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    given_cells = [cell for cell, _ in puzzle.given_cells()]
    for cell in keep:
        if cell not in given_cells:
            raise PuzzleError(f"--keep {cell_name(cell)}: that cell is not a given")
    verdict, oracle = _prepare(puzzle, backend, rules, deadline)
    if oracle is None:
        return verdict
    items = verdict.items
    order = list(range(len(items)))
    random.Random(seed).shuffle(order)
    last = [given_cells.index(cell) for cell in keep]
    order = [k for k in order if k not in last] + last
    removed: set[int] = set()
    try:
        for k in order:
            if oracle.still_unique(frozenset(removed | {k})):
                removed.add(k)
    except OutOfTime:
        return _stopped(verdict, start)
    finally:
        oracle.close()
    reduced = items.puzzle_without(removed)
    stats = {**verdict.stats, "tests": len(order), "time_s": time.perf_counter() - start}
    result = Reduction(replace(verdict, stats=stats), reduced, tuple(sorted(removed)))
    # One pass is minimal when removing an item only removes constraints. An instance that
    # stayed fixed because removing it would add some (a kropki dot under the negative
    # constraint) may be separable once another item is gone: then the result is not minimal
    # yet, and the puzzle reached is reduced again.
    try:
        left_over = len(items) - len(removed)
        unlocked = (
            bool(removed) and len(items_of(reduced, rules=rules, deadline=deadline)) > left_over
        )
    except OutOfTime:
        return _stopped(verdict, start)
    if not unlocked:
        return result
    left = None if deadline is None else max(deadline - time.perf_counter(), 1e-9)
    still = [cell for cell in keep if reduced.givens[cell]]
    further = reduce_puzzle(reduced, backend, rules=rules, seed=seed, keep=still, timeout=left)
    if not isinstance(further, Reduction):
        return _stopped(verdict, start)  # it is unique: only the clock can stop it
    return replace(result, puzzle=further.puzzle, then=further) if further.removed else result


def _prepare(
    puzzle: Puzzle, backend: str, rules: bool, deadline: float | None
) -> tuple[Minimality, Oracle | None]:
    """The uniqueness verdict, and an oracle when the puzzle is unique."""
    if backend not in BACKENDS:
        raise PuzzleError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    started = time.perf_counter()
    empty = Items(puzzle, (), Split((), ()))
    try:
        items = items_of(puzzle, rules=rules, deadline=deadline)
        oracle: Oracle
        if backend == "sat":
            module = importlib.import_module("satsudoku.tools.minimal_sat")
            oracle = module.SatOracle(items, deadline)
            status, grids = oracle.verdict()
        else:
            oracle = ResolveOracle(items, backend, deadline)
            status, grids = oracle.verdict()
    except OutOfTime:
        verdict = Minimality(Status.UNKNOWN, None, (), empty, backend, {})
        return _stopped(verdict, started), None
    stats: Stats = {"verdict_s": time.perf_counter() - started}
    solution = grids[0] if grids else None
    if status is not Status.UNIQUE:
        return Minimality(status, solution, (), empty, backend, stats), None
    return Minimality(Status.UNIQUE, solution, (), items, backend, stats), oracle


def _stopped(verdict: Minimality, start: float) -> Minimality:
    """Out of time: the puzzle is unique (if it was found so) but minimality is unknown."""
    stats: Stats = {**verdict.stats, "stopped": "timeout", "time_s": time.perf_counter() - start}
    return replace(verdict, status=Status.UNKNOWN, redundant=(), stats=stats)


class ResolveOracle:
    """Any backend through its public `solve`: the puzzle without the items, two solutions
    looked for. Slower than assumptions, and independent of them: the cross-check."""

    def __init__(self, items: Items, backend: str, deadline: float | None) -> None:
        self.items = items
        self.backend = get_backend(backend)
        self.deadline = deadline
        self.solution: Grid | None = None

    def verdict(self) -> tuple[Status, tuple[Grid, ...]]:
        """The puzzle's own status and up to two of its solutions."""
        result = self._solve(self.items.puzzle)
        if result.status is Status.UNIQUE:
            self.solution = result.solutions[0]
        return result.status, result.solutions

    def still_unique(self, removed: frozenset[int]) -> bool:
        result = self._solve(self.items.puzzle_without(removed))
        unique = result.status is Status.UNIQUE
        if unique and result.solutions[0] != self.solution:  # fewer clues cannot lose it
            raise BackendBugError(f"{self.backend.name} lost the solution without some items")
        return unique

    def close(self) -> None:
        """Nothing is held between calls."""

    def _solve(self, puzzle: Puzzle) -> Result:
        left = None
        if self.deadline is not None:
            left = self.deadline - time.perf_counter()
            if left <= 0:
                raise OutOfTime
        result = self.backend.solve(puzzle, limit=2, timeout=left)
        if result.status is Status.UNKNOWN:
            raise OutOfTime
        return result
