"""The reduced encoding's propagate-then-residual path, native at-most-one, and setup deadlines."""

from __future__ import annotations

import pytest

from satsudoku import Puzzle, PuzzleError, Shape, Status
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.backends.sat import SatBackend
from satsudoku.grid import Grid
from satsudoku.rules import make_rule
from tests.conftest import BUNDLED, grid_from_line, puzzle_from_line, referee, sample_lines

NINE = Shape(3, 3)
reference = BitmaskBackend()


def _nine(name: str, k: int) -> list[Puzzle]:
    return [puzzle_from_line(line.split(":")[0], NINE) for line in sample_lines(BUNDLED / name, k)]


@pytest.mark.parametrize(
    ("solver", "amo"),
    [("cadical195", "pairwise"), ("minisat22", "seqcounter"), ("minicard", "native")],
)
@pytest.mark.parametrize(
    "name", ["17clue.txt", "forum-hardest-1106.txt", "serg-benchmark.txt", "famous-hard-16.txt"]
)
def test_reduced_agrees_with_bitmask(name: str, solver: str, amo: str) -> None:
    backend = SatBackend(encoding="reduced", solver=solver, amo=amo)
    for puzzle in _nine(name, 6):
        ours, theirs = backend.solve(puzzle), referee(puzzle)
        assert ours.status is theirs.status  # every grid was verified on the way out
        if theirs.status is Status.UNIQUE:
            assert ours.solution == theirs.solution


# The 37 lines labelled 0 to 132 by default; all 43 (up to 847) under -m slow: the six with
# 601-847 solutions were most of the test's ~1.2 s of CPU.
@pytest.mark.parametrize("most", [132, pytest.param(847, marks=pytest.mark.slow)])
def test_reduced_counts_the_tdoku_labels_exactly(most: int) -> None:
    """0, 1 and up to 847 solutions: every blocking clause lands in the residual formula."""
    backend = SatBackend(encoding="reduced", solver="minicard", amo="native")
    for line in (BUNDLED / "tdoku-test-puzzles.labeled.txt").read_text().splitlines():
        text, count, *solution = line.split(":")
        if int(count) > most:
            continue
        result = backend.solve(puzzle_from_line(text, NINE), limit=1000)
        assert result.exhausted and result.count == int(count), text
        if solution:
            assert result.solution == grid_from_line(solution[0])


def test_what_propagation_settles_leaves_no_formula() -> None:
    first = (BUNDLED / "norvig-easy50.txt").read_text().split()[0]  # Project Euler's grid 01
    easy = puzzle_from_line(first, NINE)  # naked and hidden singles solve it
    result = SatBackend(encoding="reduced").solve(easy)
    assert result.status is Status.UNIQUE
    assert result.stats["variables"] == 0 and result.stats["propagated"] == 729


def test_hard_puzzles_leave_a_small_residual_formula() -> None:
    hard = _nine("forum-hardest-1106.txt", 1)[0]
    result = SatBackend(encoding="reduced", solver="minicard", amo="native").solve(hard)
    assert result.status is Status.UNIQUE
    assert 0 < int(result.stats["variables"]) < 729 // 2


def test_contradictory_givens_are_refuted_by_propagation() -> None:
    result = SatBackend(encoding="reduced").solve(puzzle_from_line("55" + "." * 79, NINE))
    assert result.status is Status.UNSATISFIABLE and result.stats["variables"] == 0


def test_empty_4x4_counts_288_through_the_residual_path() -> None:
    for amo, solver in (("pairwise", "cadical195"), ("native", "gluecard4"), ("ladder", "g4")):
        backend = SatBackend(encoding="reduced", amo=amo, solver=solver)
        assert backend.solve(Puzzle.empty(Shape(2, 2)), limit=300).count == 288


@pytest.mark.parametrize(
    "spec",
    [
        {"type": "diagonal"},
        {"type": "antiking"},
        {"type": "odd", "cells": ["r1c1", "r2c2", "r3c3"]},  # Allowed: unit literals
        {"type": "killer", "cages": [{"cells": ["r1c1", "r1c2"], "sum": 3}]},  # not groups
    ],
)
def test_variant_rules_count_the_same_as_bitmask(spec: dict[str, object]) -> None:
    shape = Shape(2, 2)
    puzzle = Puzzle.empty(shape, (make_rule(spec, shape),))
    expected = reference.solve(puzzle, limit=300).count
    for amo, solver in (("pairwise", "cadical195"), ("native", "minicard")):
        result = SatBackend(encoding="reduced", amo=amo, solver=solver).solve(puzzle, limit=300)
        assert result.count == expected and set(result.solutions) == set(
            reference.solve(puzzle, limit=300).solutions
        )


def test_native_at_most_one_on_the_incremental_path() -> None:
    backend = SatBackend(encoding="extended", solver="minicard", amo="native")
    for puzzle in _nine("top1465.txt", 5):
        assert backend.solve(puzzle).solution == reference.solve(puzzle).solution
    assert backend.solve(Puzzle.empty(Shape(2, 2)), limit=300).count == 288


def test_native_at_most_one_needs_a_cardinality_solver() -> None:
    with pytest.raises(PuzzleError, match="no native at-most-one"):
        SatBackend(amo="native", solver="cadical195")


# A 16x16 by default (0.3 s of CPU, the solve afterwards); the 25x25 (1.3 s) under -m slow.
@pytest.mark.parametrize("box", [4, pytest.param(5, marks=pytest.mark.slow)])
def test_a_deadline_that_passes_while_loading_gives_unknown(box: int) -> None:
    """A 25x25 extended formula is ~750k clauses: loading is chunked and reads the clock."""
    puzzle = Puzzle(Shape(box, box), Grid.empty(box * box))
    backend = SatBackend()
    backend.solve(Puzzle(Shape(2, 2), Grid.empty(4)))  # another session first
    result = backend.solve(puzzle, timeout=1e-6)
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "timeout"
    assert backend.solve(puzzle, limit=1).status is Status.SOLVED  # nothing half-loaded kept


@pytest.mark.slow  # seconds of waiting or solving: CI's `pytest -m slow` runs it
def test_kissat_is_rebuilt_for_every_blocking_clause() -> None:
    """Kissat takes no clause after a solve (pysat aborts the process): 288 by rebuilding."""
    backend = SatBackend(encoding="reduced", solver="kissat404")
    assert backend.solve(Puzzle.empty(Shape(2, 2)), limit=300).count == 288


def test_a_residual_search_cut_short_says_timeout() -> None:
    """1 s: the build reads the clock too (a rule's decomposition included), and on a busy
    machine 0.3 s now and then ended it before the first solution (unknown, not multiple)."""
    result = SatBackend(encoding="reduced").solve(
        Puzzle.empty(Shape(3, 3)), limit=10**6, timeout=1.0
    )
    assert result.status is Status.MULTIPLE and result.stats["stopped"] == "timeout"
    assert result.time_s < 3
