"""True candidates: for every cell and digit, how many solutions put that digit there, up to a cap.

Every paradigm runs the same "saturation" enumeration: find a solution that puts some digit
where fewer than `cap` solutions have been seen to put it, count it, forbid it, repeat. A pair
already counted `cap` times can no longer justify a search, so a unique puzzle takes two calls
(its solution, then the refutation) and counts below the cap are exact.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from satsudoku.errors import BackendBugError, BackendUnavailableError, PuzzleError
from satsudoku.grid import Cell, Grid, cell_name
from satsudoku.options import checked_int, checked_timeout
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.verify import violations

# Each solution counted raises some count below the cap, so at most cap·n³ are kept (blocked and
# deduplicated); typically about cap·n, as one covers n² pairs. 9×9 at 1,000: 9,000 typical.
MAX_CAP = 1_000
STRATEGIES = {
    "sat": "satsudoku.tools.candidates_sat:sat_candidates",
    "cpsat": "satsudoku.tools.candidates_cpsat:cpsat_candidates",
    "bitmask": "satsudoku.tools.candidates_bitmask:bitmask_candidates",
}
Stats = dict[str, int | float | str]


class Tally:
    """Solutions counted per (cell, digit), each count stopping at `cap`; every grid checked.

    Pair p = cell_index·n + digit − 1, so the SAT literal of p is p + 1 (the CNF numbering).
    """

    def __init__(self, puzzle: Puzzle, cap: int, backend: str) -> None:
        self.puzzle = puzzle
        self.n = n = puzzle.size
        self.cap = cap
        self.backend = backend
        self.counts = [0] * (n * n * n)
        self.solutions = 0
        self._seen: set[bytes] = set()  # every grid once: a repeat is a backend bug

    def add(self, grid: Grid) -> list[int]:
        """Count a solution (after checking it); return the pairs it brought up to the cap."""
        if broken := violations(self.puzzle, grid):
            raise BackendBugError(f"{self.backend} returned a grid that {broken[0]}")
        key = bytes(grid.values)
        if key in self._seen:
            raise BackendBugError(f"{self.backend} returned the same solution twice")
        self._seen.add(key)
        self.solutions += 1
        full: list[int] = []
        n, counts, cap = self.n, self.counts, self.cap
        for index, digit in enumerate(grid.values):
            pair = index * n + digit - 1
            if counts[pair] < cap:
                counts[pair] += 1
                if counts[pair] == cap:
                    full.append(pair)
        return full

    def knows(self, grid: Grid) -> bool:
        """Whether `grid` was counted already (searches that may meet a solution twice ask)."""
        return bytes(grid.values) in self._seen

    def open_pairs(self) -> list[int]:
        """Pairs that one more solution could still count (never seen ones included)."""
        cap = self.cap
        return [pair for pair, count in enumerate(self.counts) if count < cap]


@dataclass(frozen=True)
class CandidateCounts:
    """Per cell (row-major): digit → solutions with that digit there, counted up to `cap`.

    Only digits some solution uses appear. `complete` is False when the time ran out: the
    counts are then lower bounds and the status is unknown.
    """

    size: int
    cap: int
    counts: tuple[Mapping[int, int], ...]
    backend: str
    complete: bool
    solutions: int  # solutions found (each counted once), not the puzzle's solution count
    stats: Stats = field(default_factory=dict)

    @property
    def status(self) -> Status:
        """Unsatisfiable: no cell has a candidate; unique: every cell has exactly one."""
        if not self.complete:
            return Status.UNKNOWN
        if not any(self.counts):
            return Status.UNSATISFIABLE
        if all(len(digits) == 1 for digits in self.counts):
            return Status.UNIQUE
        return Status.MULTIPLE

    def digits(self, cell: Cell) -> tuple[int, ...]:
        """The true candidates of `cell`, in increasing order."""
        return tuple(sorted(self.counts[cell[0] * self.size + cell[1]]))

    def cells(self) -> Iterator[tuple[Cell, Mapping[int, int]]]:
        n = self.size
        for index, digits in enumerate(self.counts):
            yield divmod(index, n), digits


def result_from(tally: Tally, *, complete: bool, stats: Stats) -> CandidateCounts:
    """The counts a finished (or stopped) strategy leaves in `tally`."""
    n = tally.n
    counts = tuple(
        {
            d: tally.counts[index * n + d - 1]
            for d in range(1, n + 1)
            if tally.counts[index * n + d - 1]
        }
        for index in range(n * n)
    )
    return CandidateCounts(n, tally.cap, counts, tally.backend, complete, tally.solutions, stats)


def agree(results: Sequence[CandidateCounts]) -> CandidateCounts:
    """The one answer several backends gave; BackendBugError naming the first cell where two
    finished runs differ (a run stopped by the clock settles nothing and is not compared)."""
    finished = [found for found in results if found.complete]
    if len(results) == 1 or not finished:
        return results[0]
    first = finished[0]
    for other in finished[1:]:
        for index, (mine, theirs) in enumerate(zip(first.counts, other.counts, strict=True)):
            if dict(mine) != dict(theirs):
                cell = cell_name(divmod(index, first.size))
                raise BackendBugError(
                    f"{first.backend} and {other.backend} disagree on the candidates of {cell}: "
                    f"{_show(mine)} against {_show(theirs)}"
                )
    stats: Stats = {f"{found.backend}_time_s": found.stats.get("time_s", 0.0) for found in results}
    stats["time_s"] = sum(float(found.stats.get("time_s", 0.0)) for found in results)
    names = "+".join(found.backend for found in results)
    return CandidateCounts(first.size, first.cap, first.counts, names, True, first.solutions, stats)


def _show(counts: Mapping[int, int]) -> str:
    return "{" + ", ".join(f"{d}: {c}" for d, c in sorted(counts.items())) + "}"


Strategy = Callable[..., CandidateCounts]


def true_candidates(
    puzzle: Puzzle,
    backend: str = "sat",
    *,
    cap: int = 1,
    timeout: float | None = None,
    solver: str | None = None,
) -> CandidateCounts:
    """Count, per cell and digit, the solutions with that digit there (up to `cap`).

    Args:
        backend: "sat", "cpsat" or "bitmask"; all three give the same counts.
        cap: stop counting a cell-digit pair at this many solutions (1: possible or not).
        solver: the pysat solver of the "sat" backend (default: cadical195).
    """
    cap = checked_int(cap, "cap", most=MAX_CAP)
    timeout = checked_timeout(timeout)
    if backend not in STRATEGIES:
        raise PuzzleError(f"unknown backend {backend!r}; choose from {', '.join(STRATEGIES)}")
    if solver is not None and backend != "sat":
        raise PuzzleError(f"--solver applies to --backend sat, not {backend}")
    module_name, _, name = STRATEGIES[backend].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("satsudoku"):
            raise  # our own bug, not a missing solver package
        raise BackendUnavailableError(
            f"backend {backend!r} needs the package {exc.name!r}: pip install {exc.name}"
        ) from exc
    strategy: Strategy = getattr(module, name)
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    options = {"solver": solver} if solver is not None else {}
    found = strategy(puzzle, Tally(puzzle, cap, backend), deadline, **options)
    found.stats["time_s"] = time.perf_counter() - start
    return found
