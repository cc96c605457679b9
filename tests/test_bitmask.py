"""The reference backtracker: exact counts, known solutions, limits that end as 'unknown'."""

from __future__ import annotations

import random
import time

import pytest

from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.constraints import Less
from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.verify import is_solution
from tests.conftest import BUNDLED, grid_from_line, puzzle_from_line

backend = BitmaskBackend()


def test_empty_4x4_has_exactly_288_solutions() -> None:
    result = backend.solve(Puzzle.empty(Shape(2, 2)), limit=300)
    assert result.status is Status.MULTIPLE
    assert result.exhausted and result.count == 288
    assert len(set(result.solutions)) == 288


# 2.9 s of CPU: the exact count of a large tree is kept by the 4x4's 288 above and the tdoku
# labels below (up to 601 by default), and count_estimate's 6x6 counts these grids another way.
@pytest.mark.slow
def test_empty_6x6_with_first_row_fixed_has_39168_solutions() -> None:
    # 28,200,960 grids of 2x3 Sudoku / 6! relabellings of the first row = 39,168.
    givens = Grid(6, (1, 2, 3, 4, 5, 6) + (0,) * 30)
    result = backend.solve(Puzzle(Shape(2, 3), givens), limit=40_000)
    assert result.exhausted and result.count == 39_168


def test_empty_4x4_with_diagonals_has_exactly_48_solutions() -> None:
    from satsudoku.rules.classic import Diagonal

    result = backend.solve(Puzzle.empty(Shape(2, 2), (Diagonal(),)), limit=300)
    assert result.count == 48  # hand count: 288 grids, 1 in 6 keeps both diagonals distinct


def test_limit_one_reports_solved() -> None:
    result = backend.solve(Puzzle.empty(Shape(3, 3)), limit=1)
    assert result.status is Status.SOLVED and len(result.solutions) == 1
    assert not result.exhausted


@pytest.mark.parametrize(
    "name",
    [
        "17clue.txt",
        "top1465.txt",
        "forum-hardest-1106.txt",
        "norvig-easy50.txt",
        "norvig-top95.txt",
        "sudoku-exchange-graded.txt",
    ],
)
def test_bundled_unique_puzzles_are_unique(name: str) -> None:
    for line in (BUNDLED / name).read_text().splitlines():
        result = backend.solve(puzzle_from_line(line))
        assert result.status is Status.UNIQUE, line
        assert result.proof is not None and result.proof.method == "exhaustive-search"


def test_serg_benchmark_puzzles_have_two_different_witnesses() -> None:
    for line in (BUNDLED / "serg-benchmark.txt").read_text().splitlines():
        puzzle = puzzle_from_line(line)
        result = backend.solve(puzzle)
        assert result.status is Status.MULTIPLE
        first, second = result.solutions
        assert first != second and is_solution(puzzle, first) and is_solution(puzzle, second)


# The five puzzles with 633-847 solutions are 0.7 s of the 1.2 s: under -m slow (601 stays).
@pytest.mark.parametrize("largest", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_tdoku_labelled_solution_counts_are_reproduced(largest: bool) -> None:
    """43 puzzles with exact counts 0, 1 (with solution) and 3..847."""
    for line in (BUNDLED / "tdoku-test-puzzles.labeled.txt").read_text().splitlines():
        puzzle_text, count, *solution = line.split(":")
        if (int(count) > 601) is not largest:
            continue
        result = backend.solve(puzzle_from_line(puzzle_text), limit=1000)
        assert result.exhausted and result.count == int(count), puzzle_text
        if int(count) == 0:
            assert result.status is Status.UNSATISFIABLE
        if solution:
            assert result.solution == grid_from_line(solution[0])


def _pairs(stem: str) -> list[tuple[str, str]]:
    puzzles = (BUNDLED / f"{stem}.txt").read_text().split()
    solutions = (BUNDLED / f"{stem}.solutions.txt").read_text().split()
    return list(zip(puzzles, solutions, strict=True))


def test_16x16_acwing_sample_has_its_known_solution() -> None:
    for puzzle_text, solution in _pairs("16x16-acwing169-sample"):
        result = backend.solve(puzzle_from_line(puzzle_text))
        assert result.status is Status.UNIQUE
        assert result.solution == grid_from_line(solution)


def test_25x25_durr_example_has_its_known_solution() -> None:
    for puzzle_text, solution in _pairs("25x25-durr-example"):
        result = backend.solve(puzzle_from_line(puzzle_text))
        assert result.status is Status.UNIQUE
        assert result.solution == grid_from_line(solution)


def test_25x25_completions_of_the_durr_solution() -> None:
    """70% of the known solution as givens must lead back to it; 55% leaves an unavoidable
    set open: two different valid grids."""
    ((_, solution_text),) = _pairs("25x25-durr-example")
    solution = grid_from_line(solution_text)
    for fraction, expected in ((0.7, Status.UNIQUE), (0.55, Status.MULTIPLE)):
        rng = random.Random(25)
        values = tuple(v if rng.random() < fraction else 0 for v in solution.values)
        result = backend.solve(Puzzle(Shape(5, 5), Grid(25, values)))
        assert result.status is expected
        if expected is Status.UNIQUE:
            assert result.solution == solution
        else:
            assert len(set(result.solutions)) == 2


def test_contradictory_givens_are_a_verdict_not_a_crash() -> None:
    puzzle = puzzle_from_line("55" + "." * 79)
    result = backend.solve(puzzle)
    assert result.status is Status.UNSATISFIABLE and result.exhausted


def test_node_budget_ends_with_unknown() -> None:
    # Counting all 28,200,960 6x6 grids cannot finish in 50 nodes, however good the pruning.
    result = backend.solve(Puzzle.empty(Shape(2, 3)), limit=10**9, max_nodes=50)
    assert result.status is Status.MULTIPLE and not result.exhausted
    assert result.stats["stopped"] == "node limit" and result.stats["nodes"] == 50


def test_node_budget_before_any_solution_gives_unknown() -> None:
    hard = (BUNDLED / "forum-hardest-1106.txt").read_text().split()[0]
    result = backend.solve(puzzle_from_line(hard), max_nodes=1)
    assert result.status is Status.UNKNOWN and result.solutions == ()


def test_node_budget_counts_expanded_nodes_exactly() -> None:
    """A budget of exactly the nodes a search needs is enough; one less is not."""
    hard = puzzle_from_line((BUNDLED / "forum-hardest-1106.txt").read_text().split()[0])
    needed = int(backend.solve(hard).stats["nodes"])
    assert needed > 1
    assert backend.solve(hard, max_nodes=needed).status is Status.UNIQUE
    assert backend.solve(hard, max_nodes=needed - 1).status is Status.UNKNOWN


def test_timeout_stops_an_endless_count() -> None:
    result = backend.solve(Puzzle.empty(Shape(2, 3)), limit=10**9, timeout=0.3)
    assert result.stats["stopped"] == "timeout" and not result.exhausted
    assert result.time_s < 3


def test_timeout_is_checked_often_on_large_boards() -> None:
    """A 64x64 node costs milliseconds, so the clock is read every node there (64 nodes
    between readings once overshot a 0.05 s timeout by more than a second)."""
    cpu = time.process_time()
    result = backend.solve(Puzzle.empty(Shape(8, 8)), limit=10**9, timeout=0.05)
    assert result.stats["stopped"] == "timeout" and not result.exhausted
    # CPU, not wall time: on a loaded machine the wall clock runs on while this process waits,
    # but the work done past the deadline (building the kernel and the overshoot) does not
    assert time.process_time() - cpu < 0.7


def test_tables_from_decomposed_constraints_are_enforced() -> None:
    """Less decomposes to a Table; a 4x4 whose first row must increase has 288/4! = 12 grids."""

    class Increasing:
        type = "increasing-first-row"

        def constraints(self, shape: Shape):  # type: ignore[no-untyped-def]
            yield Less((0, 0), (0, 1))
            yield Less((0, 1), (0, 2))
            yield Less((0, 2), (0, 3))

        def to_spec(self) -> dict[str, str]:
            return {"type": self.type}

    result = backend.solve(Puzzle.empty(Shape(2, 2), (Increasing(),)), limit=100)
    assert result.count == 12
    assert all(grid.rows()[0] == (1, 2, 3, 4) for grid in result.solutions)


@pytest.mark.parametrize(
    ("rows", "cols"),
    # 36x36 from an empty board: ~2.3 s CPU, under -m slow (16x16 is the default's largest here)
    [(2, 4), (4, 2), (3, 4), (4, 4), pytest.param(6, 6, marks=pytest.mark.slow)],
)
def test_empty_boards_of_every_shape_can_be_filled(rows: int, cols: int) -> None:
    shape = Shape(rows, cols)
    result = backend.solve(Puzzle.empty(shape), limit=1)
    assert result.status is Status.SOLVED


def test_jigsaw_shape_is_solved_on_its_own_regions() -> None:
    labels = ["aabb", "aabb", "ccdd", "ccdd"]  # same as boxes: sanity
    irregular = ["aaab", "cabb", "ccdb", "cddd"]
    assert backend.solve(Puzzle.empty(Shape.jigsaw(labels)), limit=300).count == 288
    result = backend.solve(Puzzle.empty(Shape.jigsaw(irregular)), limit=1000)
    assert result.exhausted and result.count is not None and result.count > 0
    for grid in result.solutions:
        for region in Shape.jigsaw(irregular).regions():
            assert sorted(grid[cell] for cell in region) == [1, 2, 3, 4]
