"""Hostile inputs that cost their time in the model build, not the search: --timeout bounds the
build too, however the work is cut (many small decompositions as much as one large table)."""

from __future__ import annotations

import time

from satsudoku.backends import get_backend
from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule

SHAPE = Shape(3, 3)


def test_thousands_of_repeated_lines_stop_at_the_bitmask_timeout() -> None:
    """A mutated f-puzzles file (Nabner thermo, its 7 nabner lines repeated 1,000 times) took the
    bitmask backend 4.1 s to answer 'unknown' when asked for 0.5 s: 42,000 small pair
    decompositions, none of which read the clock. Here 21,000 pairs: 2.6 s before, 0.26 s now."""
    lines = [["r1c1", "r2c2", "r3c3"], ["r5c1", "r5c2"], ["r9c9", "r8c8", "r7c9"]] * 3000
    puzzle = Puzzle(SHAPE, Grid.empty(9), (make_rule({"type": "nabner", "lines": lines}, SHAPE),))
    start = time.perf_counter()
    result = get_backend("bitmask").solve(puzzle, limit=2, timeout=0.2)
    elapsed = time.perf_counter() - start
    assert result.status is Status.UNKNOWN
    assert result.stats["stopped"] == "timeout"
    assert elapsed < 1.0, elapsed


def snake(rows: range) -> list[str]:
    """Cells row by row, every other row right to left: a line of king moves."""
    out: list[str] = []
    for r in rows:
        cols = range(1, 10) if r % 2 else range(9, 0, -1)
        out += [f"r{r}c{c}" for c in cols]
    return out


def test_a_long_shaft_under_a_pill_stops_at_the_sat_timeout() -> None:
    """A mutated f-puzzles file (an arrow whose bulb became r1c1-r1c3 and whose shaft ran on
    for 75 cells) took the SAT backend 1.6 s to answer 'unknown' when asked for 0.5 s: the
    prefix-sum layers of the arrow's sum (values up to 987, 75 layers) never read the clock."""
    line = snake(range(1, 10))
    arrow = {"type": "arrow", "arrows": [{"bulb": line[:3], "shaft": line[3:78]}]}
    puzzle = Puzzle(SHAPE, Grid.empty(9), (make_rule(arrow, SHAPE),))
    start = time.perf_counter()
    result = get_backend("sat").solve(puzzle, limit=2, timeout=0.2)
    elapsed = time.perf_counter() - start
    assert result.status is Status.UNKNOWN
    assert elapsed < 0.8, elapsed
