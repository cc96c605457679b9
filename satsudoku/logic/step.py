"""One deduction: what a person would say, and the placements and eliminations it makes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from satsudoku.grid import Digit
from satsudoku.logic.state import Board, Candidate, Layout


@dataclass(frozen=True)
class Step:
    """A deduction: its technique, its SE-like difficulty, a sentence, and its effect."""

    technique: str
    difficulty: float
    text: str
    placements: tuple[Candidate, ...] = ()
    eliminations: tuple[Candidate, ...] = ()

    def apply(self, board: Board) -> None:
        for cell, digit in self.eliminations:
            board.eliminate(cell, digit)
        for cell, digit in self.placements:
            board.place(cell, digit)

    def to_json(self, layout: Layout) -> dict[str, Any]:
        return {
            "technique": self.technique,
            "difficulty": self.difficulty,
            "text": self.text,
            "placements": [f"{layout.name(c)}={d}" for c, d in self.placements],
            "eliminations": [f"{layout.name(c)}#{d}" for c, d in self.eliminations],
        }


Finder = Callable[[Board], "Step | None"]


@dataclass(frozen=True)
class Technique:
    """A named technique: `find` returns its easiest step on a board, or None."""

    name: str
    difficulty: float  # SE-like base figure; a step may add a length modifier
    find: Finder
    default: bool = True  # uniqueness-based techniques are off unless asked for
    # True when each digit's pencil marks are searched on their own (fish, X-chains, Nishio):
    # the solver then re-runs it only on the digits changed since it last found nothing.
    per_digit: bool = False


def cells_text(layout: Layout, cells: Iterable[int]) -> str:
    return ", ".join(layout.name(c) for c in sorted(set(cells)))


def removal_text(layout: Layout, eliminations: Iterable[Candidate]) -> str:
    """'remove 3 from r5c4, r8c9; 5 from r1c1' (grouped by digit, in digit order)."""
    by_digit: dict[Digit, list[int]] = {}
    for cell, digit in eliminations:
        by_digit.setdefault(digit, []).append(cell)
    parts = [f"{d} from {cells_text(layout, cells)}" for d, cells in sorted(by_digit.items())]
    return "remove " + "; ".join(parts)


def length_bonus(length: int) -> float:
    """SE's chain-length modifier: +0.1 each time the length passes 4, 6, 8, 12, 16, 24, …

    (thresholds grow alternately by 3/2 and 4/3, as Sudoku Explainer documents).
    """
    added, threshold, odd = 0.0, 4, False
    while length > threshold:
        added += 0.1
        threshold = threshold * 4 // 3 if odd else threshold * 3 // 2
        odd = not odd
    return round(added, 1)
