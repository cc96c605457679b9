"""Puzzle-wide budgets: automaton transitions and table rows summed over all of a puzzle's
rules (each clue alone may stay under MAX_TRANSITIONS, 196 of them took 1.2 GB), refused
with one line naming the rule that crosses the budget, before any solving."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import satsudoku.backends.sat as sat_backend
import satsudoku.constraints as constraints
from satsudoku.cli import main
from satsudoku.deadline import BuildCache

MODELS = Path(__file__).resolve().parent.parent / "models" / "variants"


def _skyscraper_file(path: Path, n: int) -> Path:
    """Every outside skyscraper clue of a valid n x n grid (a pattern grid)."""
    b = math.isqrt(n)
    grid = [[(r * b + r // b + c) % n + 1 for c in range(n)] for r in range(n)]
    cols = [[grid[r][c] for r in range(n)] for c in range(n)]

    def seen(line: list[int]) -> int:
        count, tallest = 0, 0
        for d in line:
            if d > tallest:
                count, tallest = count + 1, d
        return count

    rule = {
        "type": "skyscraper",
        "left": [seen(row) for row in grid],
        "right": [seen(row[::-1]) for row in grid],
        "top": [seen(col) for col in cols],
        "bottom": [seen(col[::-1]) for col in cols],
    }
    path.write_text(json.dumps({"size": n, "box": [b, b], "givens": "." * n * n, "rules": [rule]}))
    return path


def test_automata_past_the_puzzle_budget_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # skyscraper-6x6's clues try 2,316 transitions together: a budget of 1,000 is crossed.
    monkeypatch.setattr(constraints, "MAX_PUZZLE_TRANSITIONS", 1_000)
    monkeypatch.setattr(sat_backend, "_FORMULAS", BuildCache())  # not a formula built before
    path = MODELS / "outside" / "skyscraper-6x6.json"
    assert main(["solve", str(path), "--backend", "sat"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before any answer
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert "skyscraper" in lines[0]
    assert "more than 1,000 transitions in total" in lines[0]


def test_tables_past_the_puzzle_budget_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(constraints, "MAX_PUZZLE_ROWS", 1_000)
    monkeypatch.setattr(sat_backend, "_FORMULAS", BuildCache())
    path = MODELS / "real" / "2d-1-5-9.json"  # 28,224 table rows on sat
    assert main(["solve", str(path), "--backend", "sat"]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1
    assert "the puzzle's tables hold more than 1,000 tuples in total" in lines[0]


def test_the_published_puzzles_stay_within_the_budgets() -> None:
    """The published puzzles try at most 39,717 transitions (x-sum) and 28,224 rows."""
    path = MODELS / "outside" / "skyscraper-6x6.json"
    assert main(["solve", str(path), "--backend", "sat"]) == 0


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sat", "bitmask"])
def test_every_clue_of_a_49x49_skyscraper_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], backend: str
) -> None:
    """196 clues, each under MAX_TRANSITIONS: 1.2 GB and 23 s before, about 300 MB and 6 s
    CPU to the one-line refusal now."""
    path = _skyscraper_file(tmp_path / "sky49.json", 49)
    assert main(["solve", str(path), "--backend", backend]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "automata unroll into more than 4,000,000 transitions in total" in captured.err
    assert len(captured.err.strip().splitlines()) == 1
