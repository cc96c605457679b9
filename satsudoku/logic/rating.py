"""A puzzle's difficulty: the SE-like figure of the hardest step the logical solver needs, and
beside it raw machine figures: the backtrack rating (mean log2 guesses of the bitmask search
over random relabellings and symmetries, as tdoku's generator grades) and SAT statistics."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from satsudoku.backends import get_backend
from satsudoku.grid import Grid
from satsudoku.logic.solver import TECHNIQUES, LogicResult, solve_logically
from satsudoku.logic.state import Board
from satsudoku.logic.step import Technique
from satsudoku.puzzle import Puzzle

STUCK = 12.0  # logic (nested forcing chains included) runs out: past SE's top figures


@dataclass(frozen=True)
class Rating:
    """The SE-like rating and the raw figures it was made from."""

    rating: float
    technique: str | None  # the hardest technique used; None when no step was needed
    steps: int
    status: str  # the logical solver's end: solved, stuck or contradiction
    backtrack: float | None  # mean log2(1 + guesses) of the bitmask search
    sat: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "rating": self.rating,
            "technique": self.technique,
            "steps": self.steps,
            "logic": self.status,
            "backtrack": self.backtrack,
            "sat": self.sat,
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
    """Rate `puzzle`; `machine=False` skips the backtrack and SAT figures (faster)."""
    result = solve_logically(Board.from_puzzle(puzzle), techniques, timeout=timeout)
    hardest = result.hardest.technique if result.hardest else None
    backtrack = backtrack_rating(puzzle, samples, seed) if machine else None
    sat: dict[str, float] = {}
    if machine:
        stats = get_backend("sat").solve(puzzle, limit=2).stats
        sat = {k: float(v) for k, v in stats.items() if k in ("conflicts", "decisions")}
    return Rating(logic_rating(result), hardest, len(result.steps), result.status, backtrack, sat)


def backtrack_rating(puzzle: Puzzle, samples: int, seed: int) -> float:
    """Mean log2(1 + guesses) of the bitmask search for a first solution over `samples`
    random relabellings and row/column symmetries (the puzzle alone when it has variant rules,
    whose meaning such moves may change)."""
    rng = random.Random(seed)
    backend = get_backend("bitmask")
    variants = [puzzle]
    if not puzzle.rules and not puzzle.shape.is_jigsaw:
        variants += [_shuffled(puzzle, rng) for _ in range(samples - 1)]
    logs = []
    for variant in variants:
        nodes = int(backend.solve(variant, limit=1).stats.get("nodes", 1))
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
