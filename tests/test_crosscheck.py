"""Cross-checking: every available paradigm agrees on real puzzles, and a liar is caught."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from satsudoku.backends import available
from satsudoku.bench import load_tasks
from satsudoku.crosscheck import CrossCheckBackend, CrossCheckError, cross_check, disagreement
from satsudoku.errors import PuzzleError
from satsudoku.grid import Shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from tests.conftest import BUNDLED, puzzle_from_line

UNIQUE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_bundled_samples_agree_everywhere() -> None:
    assert {"bitmask", "cpsat"} <= set(available())
    for path in sorted(BUNDLED.glob("*.txt")):
        if path.name.endswith(".solutions.txt"):
            continue
        for task in load_tasks([str(path)], sample=4, seed=3):
            results = cross_check(task.puzzle, timeout=20)
            assert set(results) == set(available())


def test_a_wrong_unique_solution_is_reported_with_both_answers() -> None:
    puzzle = puzzle_from_line(UNIQUE)
    results = cross_check(puzzle, backends=["bitmask", "cpsat"])
    many = cross_check(Puzzle.empty(Shape(3, 3)), backends=["bitmask"])["bitmask"]
    liar = replace(results["cpsat"], status=Status.MULTIPLE, solutions=many.solutions)
    message = disagreement(puzzle, {"bitmask": results["bitmask"], "cpsat": liar})
    assert message and "verdicts differ" in message
    assert "bitmask: unique [4" in message and "cpsat: multiple [" in message


def test_a_valid_grid_contradicts_unsatisfiable() -> None:
    puzzle = Puzzle.empty(Shape(2, 2))
    found = cross_check(puzzle, backends=["bitmask"], limit=1)["bitmask"]
    claim = replace(found, status=Status.UNSATISFIABLE, solutions=())
    assert disagreement(puzzle, {"a": found, "b": claim})  # SOLVED vs UNSATISFIABLE


def test_unknown_is_inconclusive_not_a_disagreement() -> None:
    puzzle = puzzle_from_line(UNIQUE)
    results = cross_check(puzzle, backends=["bitmask", "cpsat"])
    unknown = replace(results["cpsat"], status=Status.UNKNOWN, solutions=())
    assert disagreement(puzzle, {"bitmask": results["bitmask"], "cpsat": unknown}) is None


def test_crosscheck_backend_returns_the_agreed_result() -> None:
    result = CrossCheckBackend().solve(puzzle_from_line(UNIQUE))
    assert result.status is Status.UNIQUE and result.backend == "all"
    assert result.proof and set(result.proof.details["agreeing"]) == set(available())
    assert all(f"{name}_status" in result.stats for name in available())


def test_crosscheck_error_is_a_bug_report() -> None:
    assert issubclass(CrossCheckError, Exception)
    assert not issubclass(CrossCheckError, PuzzleError)  # not the user's fault


# Files the classic reader cannot read (killer cages need the killer reader); jigsaw and
# X-Sudoku files read as classic puzzles (their extra fields are trailing text), which is
# still the same puzzle for every backend, so they stay in.
def _readable(path: Path) -> bool:
    return not path.name.endswith((".solutions.txt", ".ratings.txt"))


def test_shared_datasets_agree_everywhere(shared_data: Path) -> None:
    """A few hundred puzzles drawn from every shared file, serg-benchmark's multiples included."""
    checked, skipped, verdicts = 0, [], set()
    for path in sorted(p for p in shared_data.glob("*.txt") if _readable(p)):
        big = path.name.startswith(("16x16", "25x25"))
        try:
            tasks = load_tasks([str(path)], sample=3 if big else 12, seed=5)
        except PuzzleError:
            skipped.append(path.name)
            continue
        for task in tasks:
            results = cross_check(task.puzzle, timeout=3 if big else 20)
            verdicts |= {r.status for r in results.values()}
            checked += 1
    assert checked >= 200, (checked, skipped)
    assert {Status.UNIQUE, Status.MULTIPLE, Status.UNSATISFIABLE} <= verdicts
    assert all(name.startswith("killer") for name in skipped), skipped
