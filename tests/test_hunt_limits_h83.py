"""Extreme but legal options and board sizes (hunt h83): each answer is printed, in time."""

from __future__ import annotations

from pathlib import Path

import pytest

from satsudoku.cli import main
from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.symbols import DEFAULT_SYMBOLS
from satsudoku.verify import violations

N64, BOX64 = 64, 8


def _pattern64() -> list[int]:
    """A valid 64x64 grid: row r shifted by 8·(r mod 8) + r div 8."""
    cells = range(N64 * N64)
    return [(BOX64 * (i // N64 % BOX64) + i // N64 // BOX64 + i % N64) % N64 + 1 for i in cells]


def test_a_64x64_written_in_symbols_is_answered_in_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """1-9A-Za-z has 61 symbols: a 64x64 line (its digits 62-64 left blank) solved, then its
    answer failed to print with a ValueError traceback (digit 62 has no symbol)."""
    givens = [v if v <= len(DEFAULT_SYMBOLS) else 0 for v in _pattern64()]
    line = "".join(DEFAULT_SYMBOLS[v - 1] if v else "." for v in givens)
    path = tmp_path / "p.txt"
    path.write_text(line + "\n")
    assert main(["solve", str(path), "--limit", "1"]) == 0
    words = capsys.readouterr().out.split()
    assert words[N64 * N64] == "solved"
    grid = Grid(N64, tuple(int(word) for word in words[: N64 * N64]))
    assert not violations(Puzzle(Shape.for_size(N64), Grid(N64, tuple(givens))), grid)
    assert {grid.values[i] for i, v in enumerate(givens) if not v} == {62, 63, 64}
