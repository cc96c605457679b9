"""`satsudoku logic --timeout S` bounds a puzzle: S for the step loop, S for the bitmask search
that gives the verdict where logic stops (on an empty 64x64 that search alone ran > 10 min)."""

from __future__ import annotations

from pathlib import Path

import pytest

from satsudoku.cli import main
from satsudoku.io import iter_puzzles
from satsudoku.logic.solver import solve_logically, techniques
from satsudoku.logic.state import Board

MODELS = Path(__file__).resolve().parent.parent / "models" / "classic"
ESCARGOT = "162857493534129678789643521475312986913586742628794135356478219241935867897261354"


def test_steps_before_a_timeout_are_all_sound() -> None:
    puzzle = next(iter_puzzles(MODELS / "ai-escargot.toml"))
    solution = [int(ch) for ch in ESCARGOT]
    result = solve_logically(Board.from_puzzle(puzzle), techniques(), timeout=1e-4)
    assert result.status == "timeout"  # AI Escargot needs chains, far beyond 0.1 ms
    for step in result.steps:
        assert all(solution[cell] == digit for cell, digit in step.placements), step.text
        assert all(solution[cell] != digit for cell, digit in step.eliminations), step.text


def _logic_on_an_empty_board(size: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """What `satsudoku logic --timeout 0.001` prints for an empty size x size board."""
    path = tmp_path / f"empty{size}.txt"
    path.write_text("." * size * size + "\n")
    assert main(["logic", str(path), "--timeout", "0.001"]) == 0
    return capsys.readouterr().out


def test_the_search_after_the_logic_has_a_timeout_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _logic_on_an_empty_board(25, tmp_path, capsys)
    assert "puzzle 1: gave up (--timeout) after 0 steps" in out  # no step exists on it
    assert out.rstrip().endswith("search from here (bitmask): unknown")


def test_pencil_marks_of_a_64x64_write_every_digit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Blanks alone give a 64x64 the 61 default symbols; its marks are written as numbers."""
    lines = _logic_on_an_empty_board(64, tmp_path, capsys).splitlines()
    marks = lines[1].split()
    assert marks[0] == ",".join(str(d) for d in range(1, 65))
    assert lines[-1] == "search from here (bitmask): unknown"
