"""Cross-checking: run every available paradigm on a puzzle; a disagreement is a bug, loudly.

Verdicts must match; backends that exhausted their search must have found the same solution
set (so the same count); and no verified grid found by one backend may be missing from the
complete set of another (which covers a "unique" or "unsatisfiable" that a grid contradicts).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from satsudoku.backends import Backend, available, get_backend, unsupported
from satsudoku.errors import BackendBugError
from satsudoku.grid import Grid
from satsudoku.io import format_line
from satsudoku.options import checked
from satsudoku.puzzle import Puzzle
from satsudoku.result import Proof, Result, Status, make_result


class CrossCheckError(BackendBugError):
    """Backends disagree about a puzzle; the message shows every answer."""

    def __init__(self, message: str, results: Mapping[str, Result]) -> None:
        super().__init__(message)
        self.results = dict(results)


def disagreement(puzzle: Puzzle, results: Mapping[str, Result]) -> str | None:
    """Describe how `results` (backend name → result) contradict each other, or None."""
    problem = _verdict_problem(results) or _solution_set_problem(puzzle, results)
    if problem is None:
        return None
    where = f" ({puzzle.origin})" if puzzle.origin else ""
    answers = "; ".join(f"{name}: {_answer(puzzle, r)}" for name, r in results.items())
    return f"cross-check failed{where}: {problem}. {answers}"


def _verdict_problem(results: Mapping[str, Result]) -> str | None:
    verdicts = {r.status for r in results.values() if r.status is not Status.UNKNOWN}
    return "verdicts differ" if len(verdicts) > 1 else None


def _solution_set_problem(puzzle: Puzzle, results: Mapping[str, Result]) -> str | None:
    """An exhausted search claims its solutions are all there are: hold every backend to it."""
    complete = {name: frozenset(r.solutions) for name, r in results.items() if r.exhausted}
    if len(set(complete.values())) > 1:
        counts = ", ".join(f"{name} {len(grids)}" for name, grids in complete.items())
        if len({len(grids) for grids in complete.values()}) > 1:
            return f"exhausted searches count differently ({counts})"
        return f"exhausted searches found different solutions ({counts} each)"
    for name, grids in complete.items():
        for other, result in results.items():
            if extra := set(result.solutions) - grids:
                return (
                    f"{other} found a valid grid that {name}'s exhausted search "
                    f"({_count(len(grids))}) does not have: "
                    f"{format_line(next(iter(extra)), puzzle.symbols)}"
                )
    return None


def _count(found: int) -> str:
    return "no solution" if found == 0 else f"{found} solution" + ("s" * (found != 1))


def _answer(puzzle: Puzzle, result: Result) -> str:
    shown = ", ".join(format_line(grid, puzzle.symbols) for grid in result.solutions[:2])
    return f"{result.status.value}" + (f" [{shown}]" if shown else "")


_SHARED: dict[str, Backend] = {}


def _backend(name: str) -> Backend:
    """One instance per backend per process, so batch-level reuse (models, caches) pays off."""
    if name not in _SHARED:
        _SHARED[name] = get_backend(name)
    return _SHARED[name]


def cross_check(
    puzzle: Puzzle,
    *,
    backends: Sequence[str] | Mapping[str, Backend] | None = None,
    limit: int = 2,
    timeout: float | None = None,
) -> dict[str, Result]:
    """Solve `puzzle` with every backend (default: all available); raise on any disagreement.

    `backends` names backends (shared default instances) or maps names to configured ones.
    """
    limit, timeout = checked(limit, timeout)  # once, not once per backend
    if isinstance(backends, Mapping):
        instances = dict(backends)
    else:
        names = list(backends) if backends is not None else available()
        instances = {name: _backend(name) for name in names}
    results = {
        name: backend.solve(puzzle, limit=limit, timeout=timeout)
        for name, backend in instances.items()
        if unsupported(backend, puzzle) is None  # a partial backend (fast) sits this one out
    }
    if problem := disagreement(puzzle, results):
        raise CrossCheckError(problem, results)
    return results


class CrossCheckBackend:
    """`--backend all`: every available backend on each puzzle, one agreed Result back."""

    name = "all"

    def __init__(
        self,
        backends: Sequence[str] | None = None,
        *,
        options: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        """`options` maps a backend name to its tuning options (e.g. {"sat": {"solver": ...}})."""
        names = list(backends) if backends is not None else available()
        options = options or {}
        self.backends = {name: get_backend(name, **options.get(name, {})) for name in names}

    def solve(self, puzzle: Puzzle, *, limit: int = 2, timeout: float | None = None) -> Result:
        """The agreed verdict, with each backend's verdict and time in the stats."""
        start = time.perf_counter()
        results = cross_check(puzzle, backends=self.backends, limit=limit, timeout=timeout)
        conclusive = [r for r in results.values() if r.status is not Status.UNKNOWN]
        exhausted = [r for r in conclusive if r.exhausted]  # the one whose count is exact
        chosen = (exhausted or conclusive or list(results.values()))[0]
        stats: dict[str, int | float | str] = {"time_s": time.perf_counter() - start}
        if "stopped" in chosen.stats:
            stats["stopped"] = chosen.stats["stopped"]
        for name, result in results.items():
            stats[f"{name}_status"] = result.status.value
            stats[f"{name}_time_s"] = round(result.time_s, 6)
        for name in self.backends.keys() - results.keys():
            stats[f"{name}_status"] = "skipped"  # not its rules: see its `supports`
        agreeing = [name for name, r in results.items() if r.status is chosen.status]
        proof = Proof(
            "cross-check",
            {
                "agreeing": agreeing,
                "methods": {n: r.proof.method for n, r in results.items() if r.proof},
                "complete": chosen.exhausted,
            },
        )
        solutions: list[Grid] = list(chosen.solutions)
        return make_result(
            puzzle,
            self.name,
            solutions,
            exhausted=chosen.exhausted,
            limit=chosen.limit,
            stats=stats,
            proof=proof,
        )
