"""The bitmask reference against the verdicts and solutions recorded for ../shared/data.

These run where the shared datasets exist (CI); elsewhere they skip and say why.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.grid import Shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules.classic import Diagonal
from tests.conftest import grid_from_line, puzzle_from_line, sample_lines

# Dataset sweeps: behind the slow marker, which CI runs after README's command (pytest -m slow).
pytestmark = pytest.mark.slow

backend = BitmaskBackend()
SAMPLE = 25

ALL_UNIQUE = [
    "17clue.txt",
    "17clue-royle-49151.txt",
    "forum-hardest-1106.txt",
    "forum-hardest-1905-11plus.txt",
    "top1465.txt",
    "norvig-top95.txt",
    "norvig-hardest.txt",
    "norvig-easy50.txt",
    "norvig-sudoku10k.txt",
    "magictour-subig20.txt",
    "sudoku-exchange-graded.txt",
]


@pytest.mark.parametrize("name", ALL_UNIQUE)
def test_sample_of_an_all_unique_dataset_is_unique(shared_data: Path, name: str) -> None:
    for line in sample_lines(shared_data / name, SAMPLE):
        assert backend.solve(puzzle_from_line(line)).status is Status.UNIQUE, line


def test_serg_benchmark_sample_has_two_solutions_each(shared_data: Path) -> None:
    for line in sample_lines(shared_data / "serg-benchmark.txt", SAMPLE):
        assert backend.solve(puzzle_from_line(line)).status is Status.MULTIPLE, line


def test_files_with_one_known_multi_solution_line(shared_data: Path) -> None:
    for name, multi_line in (("magictour-top2365.txt", 566), ("famous-hard-16.txt", 9)):
        lines = (shared_data / name).read_text().splitlines()
        assert backend.solve(puzzle_from_line(lines[multi_line - 1])).status is Status.MULTIPLE
        for line in sample_lines(shared_data / name, SAMPLE, seed=5):
            if line != lines[multi_line - 1]:
                assert backend.solve(puzzle_from_line(line)).status is Status.UNIQUE, line


def test_lewis_9x9_general_has_977_unique_and_1123_multiple(shared_data: Path) -> None:
    """The whole file: its recorded verdict totals, none unsatisfiable."""
    tally = {status: 0 for status in Status}
    for line in (shared_data / "lewis-9x9-general.txt").read_text().splitlines():
        tally[backend.solve(puzzle_from_line(line)).status] += 1
    assert tally[Status.UNIQUE] == 977 and tally[Status.MULTIPLE] == 1123


@pytest.mark.parametrize("stem", ["16x16-janko", "16x16-acwing169-sample"])
def test_16x16_known_solutions(shared_data: Path, stem: str) -> None:
    puzzles = (shared_data / f"{stem}.txt").read_text().split()
    solutions = (shared_data / f"{stem}.solutions.txt").read_text().split()
    for index in range(0, len(puzzles), max(1, len(puzzles) // SAMPLE)):
        result = backend.solve(puzzle_from_line(puzzles[index]))
        assert result.status is Status.UNIQUE
        assert result.solution == grid_from_line(solutions[index])


def test_jigsaw_janko_known_solutions(shared_data: Path) -> None:
    """Format 'PUZZLE REGIONS SOLUTION': the regions replace the 3x3 boxes."""
    for line in sample_lines(shared_data / "jigsaw-janko-9x9.txt", SAMPLE):
        givens, regions, solution = line.split()
        shape = Shape.jigsaw([list(regions[r * 9 : r * 9 + 9]) for r in range(9)])
        result = backend.solve(Puzzle(shape, grid_from_line(givens)))
        assert result.status is Status.UNIQUE and result.solution == grid_from_line(solution)


def test_x_sudoku_needs_its_diagonals(shared_data: Path) -> None:
    givens, solution = (shared_data / "x-sudoku-sample.txt").read_text().split()
    plain = puzzle_from_line(givens)
    assert backend.solve(plain).status is Status.MULTIPLE
    x = Puzzle(plain.shape, plain.givens, (Diagonal(),))
    result = backend.solve(x)
    assert result.status is Status.UNIQUE and result.solution == grid_from_line(solution)


def test_25x25_lewis_high_fill_instances_are_unique(shared_data: Path) -> None:
    """SOURCES.md: every 25x25 instance with 90-100 % of cells given is unique."""
    lines = (shared_data / "25x25-lewis-general.txt").read_text().splitlines()
    for line in lines[1800:2100:30]:  # 90 %, 95 %, 100 % levels
        assert backend.solve(puzzle_from_line(line)).status is Status.UNIQUE
