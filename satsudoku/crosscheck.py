"""Cross-checking: run every available paradigm on a puzzle; a disagreement is a bug, loudly.

Verdicts must match, a unique solution must be the same grid everywhere, and no verified grid
found by one backend may contradict another's "unique" or "unsatisfiable".
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from satsudoku.backends import Backend, available, get_backend
from satsudoku.errors import BackendBugError
from satsudoku.grid import Grid
from satsudoku.io import format_line
from satsudoku.puzzle import Puzzle
from satsudoku.result import Proof, Result, Status, make_result


class CrossCheckError(BackendBugError):
    """Backends disagree about a puzzle; the message shows every answer."""

    def __init__(self, message: str, results: Mapping[str, Result]) -> None:
        super().__init__(message)
        self.results = dict(results)


def disagreement(puzzle: Puzzle, results: Mapping[str, Result]) -> str | None:
    """Describe how `results` (backend name → result) contradict each other, or None."""
    conclusive = {name: r for name, r in results.items() if r.status is not Status.UNKNOWN}
    verdicts = {r.status for r in conclusive.values()}
    grids = {grid for r in results.values() for grid in r.solutions}  # all verified
    problem = None
    if len(verdicts) > 1:
        problem = "verdicts differ"
    elif Status.UNSATISFIABLE in verdicts and grids:
        problem = "a backend found a valid grid for a puzzle another calls unsatisfiable"
    elif Status.UNIQUE in verdicts and len(grids) > 1:
        problem = "backends found different grids for a puzzle called unique"
    if problem is None:
        return None
    where = f" ({puzzle.origin})" if puzzle.origin else ""
    answers = "; ".join(f"{name}: {_answer(puzzle, r)}" for name, r in results.items())
    return f"cross-check failed{where}: {problem}. {answers}"


def _answer(puzzle: Puzzle, result: Result) -> str:
    shown = ", ".join(format_line(grid, puzzle.symbols) for grid in result.solutions[:2])
    return f"{result.status.value}" + (f" [{shown}]" if shown else "")


_BACKENDS: dict[str, Backend] = {}


def _backend(name: str) -> Backend:
    """One instance per backend per process, so batch-level reuse (models, caches) pays off."""
    if name not in _BACKENDS:
        _BACKENDS[name] = get_backend(name)
    return _BACKENDS[name]


def cross_check(
    puzzle: Puzzle,
    *,
    backends: Sequence[str] | None = None,
    limit: int = 2,
    timeout: float | None = None,
) -> dict[str, Result]:
    """Solve `puzzle` with every backend (default: all available); raise on any disagreement."""
    names = list(backends) if backends is not None else available()
    results = {name: _backend(name).solve(puzzle, limit=limit, timeout=timeout) for name in names}
    if problem := disagreement(puzzle, results):
        raise CrossCheckError(problem, results)
    return results


class CrossCheckBackend:
    """`--backend all`: every available backend on each puzzle, one agreed Result back."""

    name = "all"

    def __init__(self, backends: Sequence[str] | None = None) -> None:
        self.backends = list(backends) if backends is not None else available()

    def solve(self, puzzle: Puzzle, *, limit: int = 2, timeout: float | None = None) -> Result:
        """The agreed verdict, with each backend's verdict and time in the stats."""
        start = time.perf_counter()
        results = cross_check(puzzle, backends=self.backends, limit=limit, timeout=timeout)
        conclusive = [r for r in results.values() if r.status is not Status.UNKNOWN]
        chosen = conclusive[0] if conclusive else next(iter(results.values()))
        stats: dict[str, int | float | str] = {"time_s": time.perf_counter() - start}
        for name, result in results.items():
            stats[f"{name}_status"] = result.status.value
            stats[f"{name}_time_s"] = round(result.time_s, 6)
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
