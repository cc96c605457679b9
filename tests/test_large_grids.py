"""Large boards: the automatic at-most-one choice, the sequential counter, QCP-style instances."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from satsudoku import Puzzle, PuzzleError, Shape, Status
from satsudoku.backends.cpsat import CpSatBackend
from satsudoku.backends.sat import SatBackend
from satsudoku.encoders.cnf import AtMostOne, Encoding, amo_for, encode_puzzle
from satsudoku.tools.holes import pattern_grid, qcp_puzzle, with_holes
from satsudoku.verify import violations


@pytest.mark.parametrize("boxes", [(2, 2), (2, 3), (3, 4), (4, 3), (5, 5), (6, 6), (8, 8)])
def test_pattern_grids_are_solutions(boxes: tuple[int, int]) -> None:
    shape = Shape(*boxes)
    for seed in range(3):
        grid = pattern_grid(shape, random.Random(seed))
        assert violations(replace(Puzzle.empty(shape), givens=grid), grid) == []


def test_qcp_puzzles_keep_the_fraction_asked_and_repeat_by_seed() -> None:
    shape = Shape(6, 6)
    first, again = qcp_puzzle(shape, 0.7, 11), qcp_puzzle(shape, 0.7, 11)
    assert first.givens == again.givens
    assert first.givens != qcp_puzzle(shape, 0.7, 12).givens
    assert sum(1 for v in first.givens.values if v) == round(0.7 * 36 * 36)
    with pytest.raises(PuzzleError, match="fill must be between 0 and 1"):
        with_holes(first.givens, 1.5, random.Random(0))


def test_auto_is_pairwise_up_to_25_and_counter_beyond() -> None:
    assert amo_for(AtMostOne.AUTO, 9) is AtMostOne.PAIRWISE
    assert amo_for(AtMostOne.AUTO, 25) is AtMostOne.PAIRWISE
    assert amo_for(AtMostOne.AUTO, 26) is AtMostOne.SEQCOUNTER
    nine = Puzzle.empty(Shape(3, 3))
    auto = encode_puzzle(nine, Encoding.EXTENDED, AtMostOne.AUTO)
    pairwise = encode_puzzle(nine, Encoding.EXTENDED, AtMostOne.PAIRWISE)
    assert auto.clauses == pairwise.clauses and auto.num_vars == 729  # 9×9 exactly as before


def test_27x27_extended_has_the_counted_size_and_repeats_its_numbering() -> None:
    """2,916 groups of 27 (cells, and house-digits): 3·27-4 clauses and 26 counters each, plus
    one at-least-one clause per group; the counters are numbered the same every time."""
    empty = Puzzle.empty(Shape(3, 9))
    formula = encode_puzzle(empty, Encoding.EXTENDED, AtMostOne.AUTO)
    assert len(formula.clauses) == 2916 * (3 * 27 - 4) + 2916
    assert formula.num_vars == 27**3 + 2916 * 26
    assert encode_puzzle(empty, Encoding.EXTENDED, AtMostOne.AUTO).clauses == formula.clauses


def test_sequential_counter_counts_exactly_what_pairwise_counts() -> None:
    """A 6×6 (2×3 boxes) with a few givens: every solution under both encodings."""
    puzzle = qcp_puzzle(Shape(2, 3), 0.25, 3)
    counts = [
        SatBackend(amo=amo).solve(puzzle, limit=10_000).count for amo in ("pairwise", "seqcounter")
    ]
    assert counts[0] == counts[1] and counts[0] is not None and counts[0] > 1


@pytest.mark.parametrize("encoding", [pytest.param("extended", marks=pytest.mark.slow), "reduced"])
def test_36x36_with_most_givens_is_solved_to_the_generating_grid(encoding: str) -> None:
    shape = Shape(6, 6)
    grid = pattern_grid(shape, random.Random(5))
    givens = with_holes(grid, 0.9, random.Random(6))
    puzzle = replace(Puzzle.empty(shape), givens=givens)
    sat = SatBackend(encoding=encoding).solve(puzzle, timeout=60)
    cpsat = CpSatBackend().solve(puzzle, timeout=60)
    assert sat.status is cpsat.status
    assert grid in sat.solutions
    if sat.status is Status.UNIQUE:
        assert sat.solution == grid == cpsat.solution


def test_64x64_reduced_is_encoded_per_puzzle_in_bounded_size() -> None:
    """Above 25×25 the reduced encoding skips the whole-board propagator: only the cells the
    givens leave open get variables, so a 64×64 with 90% givens is a small formula."""
    puzzle = qcp_puzzle(Shape(8, 8), 0.9, 2)
    result = SatBackend(encoding="reduced").solve(puzzle, timeout=60)
    assert result.status in (Status.UNIQUE, Status.MULTIPLE)
    assert int(result.stats["clauses"]) < 400_000
