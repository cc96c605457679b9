"""A puzzle's difficulty: the SE-like figure of the hardest step the logical solver needs, and
beside it raw machine figures: the backtrack rating (mean log2 guesses of the bitmask search
over random relabellings and symmetries, as tdoku's generator grades) and SAT statistics.

One time bound covers all three, since a hostile puzzle can make any of them run for hours: a
figure that does not finish within it is reported as timed out, never estimated."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from satsudoku.backends import get_backend
from satsudoku.grid import Grid
from satsudoku.logic.solver import TECHNIQUES, LogicResult, for_puzzle, solve_logically
from satsudoku.logic.state import Board
from satsudoku.logic.step import Technique
from satsudoku.options import checked_int, checked_seed, checked_timeout
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status

STUCK = 12.0  # logic (nested forcing chains included) runs out: past SE's top figures
# The SAT figure's solver: a timer interrupts Glucose, so a bounded run that finishes counts
# what an unbounded one does. CaDiCaL has no interrupt; under a deadline it runs in conflict
# budgets sized by the clock, and its counts move with the load (forum killer line 37: 16,523
# conflicts unbounded, 12,575 to 19,363 with a 30-60 s bound).
SAT_SOLVER = "glucose4"


@dataclass(frozen=True)
class Rating:
    """The SE-like rating and the raw figures it was made from."""

    rating: float
    technique: str | None  # the hardest technique used; None when no step was needed
    steps: int
    status: str  # the logical solver's end: solved, stuck, contradiction or timeout
    backtrack: float | None  # mean log2(1 + guesses) of the bitmask search
    sat: dict[str, float]
    timed_out: tuple[str, ...] = ()  # machine figures ("backtrack", "sat") the bound cut short

    def to_json(self) -> dict[str, Any]:
        return {
            "rating": self.rating,
            "technique": self.technique,
            "steps": self.steps,
            "logic": self.status,
            "backtrack": self.backtrack,
            "sat": self.sat,
            "timed_out": list(self.timed_out),
        }


def logic_rating(result: LogicResult) -> float:
    """The hardest step's figure; a puzzle logic cannot finish (in time) rates STUCK."""
    if result.status in ("stuck", "timeout"):
        return STUCK
    return result.rating


def rate(
    puzzle: Puzzle,
    techniques: Sequence[Technique] = TECHNIQUES,
    *,
    samples: int = 8,
    seed: int = 0,
    machine: bool = True,
    timeout: float | None = None,
) -> Rating:
    """Rate `puzzle`; `machine=False` skips the backtrack and SAT figures (faster).

    `timeout` seconds bound the whole rating: the logic first, then the SAT figure within half
    of what is left, then the backtrack samples within the rest (each figure left unfinished
    is named in `timed_out`)."""
    samples, seed = checked_int(samples, "samples"), checked_seed(seed)
    timeout = checked_timeout(timeout)
    deadline = None if timeout is None else time.perf_counter() + timeout
    chosen = for_puzzle(puzzle, techniques, _left(deadline))
    result = solve_logically(Board.from_puzzle(puzzle), chosen, timeout=_left(deadline))
    hardest = result.hardest.technique if result.hardest else None
    backtrack: float | None = None
    sat: dict[str, float] = {}
    timed_out: list[str] = []
    if machine:
        # One SAT solve is usually far cheaper than K searches: it goes first, but with at
        # most half of the time left, so that a slow one (a large board's formula) leaves the
        # searches their share.
        left = _left(deadline)
        found = sat_figures(puzzle, None if left is None else time.perf_counter() + left / 2)
        if found is None:
            timed_out.append("sat")
        else:
            sat = found
        backtrack = backtrack_rating(puzzle, samples, seed, deadline=deadline)
        if backtrack is None:
            timed_out.append("backtrack")
    return Rating(
        logic_rating(result),
        hardest,
        len(result.steps),
        result.status,
        backtrack,
        sat,
        tuple(timed_out),
    )


def _left(deadline: float | None) -> float | None:
    """Seconds until `deadline` (0 once it has passed), None for no bound."""
    return None if deadline is None else max(deadline - time.perf_counter(), 0.0)


def sat_figures(puzzle: Puzzle, deadline: float | None = None) -> dict[str, float] | None:
    """The SAT backend's conflicts and decisions (SAT_SOLVER) to settle uniqueness; None when
    `deadline` passes first (a count cut short would understate the work)."""
    left = _left(deadline)
    if left == 0.0:
        return None
    result = get_backend("sat", solver=SAT_SOLVER).solve(puzzle, limit=2, timeout=left)
    if result.stats.get("stopped") == "timeout" or result.status is Status.UNKNOWN:
        return None
    return {k: float(v) for k, v in result.stats.items() if k in ("conflicts", "decisions")}


def backtrack_rating(
    puzzle: Puzzle, samples: int, seed: int, *, deadline: float | None = None
) -> float | None:
    """Mean log2(1 + guesses) of the bitmask search for a first solution over `samples`
    random relabellings and row/column symmetries (the puzzle alone when it has variant rules,
    whose meaning such moves may change); None when `deadline` (a time.perf_counter() value)
    passes before every search has finished: a mean over the searches that finished leaves
    out the slowest, so it would be a made-up figure."""
    samples, seed = checked_int(samples, "samples"), checked_seed(seed)
    rng = random.Random(seed)
    backend = get_backend("bitmask")
    # Drawn one at a time, so a huge `samples` costs time the deadline bounds, not memory
    # (10**30 filled the memory before the first search); the same draws as all at once.
    copies = samples - 1 if not puzzle.rules and not puzzle.shape.is_jigsaw else 0
    variants = chain([puzzle], (_shuffled(puzzle, rng) for _ in range(copies)))
    logs = []
    for variant in variants:
        left = _left(deadline)
        if left == 0.0:
            return None
        result = backend.solve(variant, limit=1, timeout=left)
        if "stopped" in result.stats:  # "timeout": its node count is only a lower bound
            return None
        nodes = int(result.stats.get("nodes", 1))
        logs.append(math.log2(1 + max(nodes - 1, 0)))
    return round(sum(logs) / len(logs), 3)


def _shuffled(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """Relabel the digits, permute bands, stacks and the lines inside them, maybe transpose."""
    shape, n = puzzle.shape, puzzle.size
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    rows = _line_order(n, shape.box_rows, rng)
    cols = _line_order(n, shape.box_cols, rng)
    old = puzzle.givens.values
    transpose = shape.box_rows == shape.box_cols and rng.random() < 0.5
    values = []
    for r in range(n):
        for c in range(n):
            src_r, src_c = (cols[c], rows[r]) if transpose else (rows[r], cols[c])
            v = old[src_r * n + src_c]
            values.append(labels[v - 1] if v else 0)
    return Puzzle(shape, Grid(n, tuple(values)))


def _line_order(n: int, band: int, rng: random.Random) -> list[int]:
    bands = list(range(n // band))
    rng.shuffle(bands)
    order = []
    for b in bands:
        inside = list(range(b * band, (b + 1) * band))
        rng.shuffle(inside)
        order += inside
    return order
