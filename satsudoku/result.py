"""What every backend returns: a verdict, verified solutions, statistics and the evidence."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from satsudoku.errors import BackendBugError
from satsudoku.grid import Grid
from satsudoku.puzzle import Puzzle
from satsudoku.verify import violations


class Status(Enum):
    """The verdict; `SOLVED` means one solution was asked for (limit 1) and found."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    UNSATISFIABLE = "unsatisfiable"
    UNKNOWN = "unknown"
    SOLVED = "solved"


@dataclass(frozen=True)
class Proof:
    """Evidence for a verdict: how it was reached and anything a third party can re-check."""

    method: str  # e.g. "exhaustive-search", "sat-refutation", "cp-exhausted", "witness"
    details: Mapping[str, Any] = field(default_factory=dict)
    certificate: Any = None  # e.g. a SAT certificate object, attached by backends that can

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"method": self.method, **self.details}
        if self.certificate is not None and hasattr(self.certificate, "to_json"):
            out["certificate"] = self.certificate.to_json()
        return out


@dataclass(frozen=True)
class Result:
    """A verdict with evidence; build it with `make_result`, which verifies every grid."""

    status: Status
    solutions: tuple[Grid, ...]
    backend: str
    stats: Mapping[str, int | float | str]
    proof: Proof | None = None
    exhausted: bool = False  # True when the search space was fully explored
    limit: int = 2

    @property
    def solution(self) -> Grid | None:
        return self.solutions[0] if self.solutions else None

    @property
    def count(self) -> int | None:
        """The exact number of solutions, when the search was exhausted; None otherwise."""
        return len(self.solutions) if self.exhausted else None

    @property
    def time_s(self) -> float:
        return float(self.stats.get("time_s", 0.0))


def status_from(found: int, *, limit: int, exhausted: bool) -> Status:
    """The verdict implied by `found` solutions when up to `limit` were looked for."""
    if found >= 2:
        return Status.MULTIPLE
    if exhausted:
        return Status.UNIQUE if found == 1 else Status.UNSATISFIABLE
    if found == 1 and limit == 1:
        return Status.SOLVED
    return Status.UNKNOWN


class CheckedGrids:
    """Solutions re-checked against every constraint as they arrive.

    A backend that finds grids faster than they can be checked (the compiled search lists
    50,000 36×36 grids a second; checking each costs 0.1 ms) checks them as it goes, so its
    timeout covers the checking too: checked all at the end, a 0.3 s timeout ran 1.9 s.
    """

    def __init__(self, puzzle: Puzzle, backend: str) -> None:
        self.puzzle = puzzle
        self.backend = backend
        self.grids: list[Grid] = []
        self._seen: set[Grid] = set()

    def add(self, grid: Grid) -> None:
        """Keep `grid`, or raise BackendBugError if it breaks a rule or was found before."""
        if broken := violations(self.puzzle, grid):
            raise BackendBugError(f"backend {self.backend!r} returned a grid that {broken[0]}")
        if grid in self._seen:
            raise BackendBugError(f"backend {self.backend!r} returned the same solution twice")
        self._seen.add(grid)
        self.grids.append(grid)

    def __len__(self) -> int:
        return len(self.grids)

    def __contains__(self, grid: Grid) -> bool:
        return grid in self._seen


def make_result(
    puzzle: Puzzle,
    backend: str,
    solutions: Sequence[Grid] | CheckedGrids,
    *,
    exhausted: bool,
    limit: int,
    stats: Mapping[str, int | float | str],
    proof: Proof | None = None,
) -> Result:
    """Build a Result after re-checking every grid against every constraint (grids a
    `CheckedGrids` of this puzzle and backend holds were checked as they arrived)."""
    if isinstance(solutions, CheckedGrids):
        if solutions.puzzle is not puzzle or solutions.backend != backend:
            raise BackendBugError(f"backend {backend!r} checked its grids for another puzzle")
        checked = solutions
    else:
        checked = CheckedGrids(puzzle, backend)
        for grid in solutions:
            checked.add(grid)
    status = status_from(len(checked), limit=limit, exhausted=exhausted)
    return Result(status, tuple(checked.grids), backend, dict(stats), proof, exhausted, limit)


def early_result(
    puzzle: Puzzle,
    backend: str,
    *,
    limit: int,
    stats: dict[str, int | float | str],
    started: float,
    conflict: str | None = None,
) -> Result:
    """A verdict reached before any search: the model could not be built in time (`unknown`,
    stopped: timeout), or a given lies outside its cell's domain (`conflict`: unsatisfiable)."""
    if conflict is None:
        stats["stopped"] = "timeout"
        proof = Proof("none", {"status": "model not built", "complete": False})
    else:
        proof = Proof("domain-conflict", {"reason": conflict, "complete": True})
    stats["time_s"] = time.perf_counter() - started
    exhausted = conflict is not None
    return make_result(
        puzzle, backend, [], exhausted=exhausted, limit=limit, stats=stats, proof=proof
    )
