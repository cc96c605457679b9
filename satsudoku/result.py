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


def make_result(
    puzzle: Puzzle,
    backend: str,
    solutions: Sequence[Grid],
    *,
    exhausted: bool,
    limit: int,
    stats: Mapping[str, int | float | str],
    proof: Proof | None = None,
) -> Result:
    """Build a Result after re-checking every grid against every constraint."""
    for grid in solutions:
        if broken := violations(puzzle, grid):
            raise BackendBugError(f"backend {backend!r} returned a grid that {broken[0]}")
    if len(set(solutions)) != len(solutions):
        raise BackendBugError(f"backend {backend!r} returned the same solution twice")
    status = status_from(len(solutions), limit=limit, exhausted=exhausted)
    return Result(status, tuple(solutions), backend, dict(stats), proof, exhausted, limit)


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
