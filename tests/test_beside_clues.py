"""`evensandwich` and `besidelargest` (`--outside TYPE`): clues about the digits next to one
digit of a row or column, counted on every 4x4 grid against predicates written here from the
rules texts, and the published puzzles read as their rules texts mean them."""

from __future__ import annotations

import time

import pytest

from satsudoku.backends import get_backend
from satsudoku.errors import PuzzleError
from satsudoku.grid import Shape
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule
from tests.mirrors import assert_published_unique
from tests.outside_counts import SIDES, assert_4x4_counts, assert_every_clue_on_every_side

BACKENDS = ["bitmask", "sat", "cpsat"]


def _between_evens(line: list[int], clue: int) -> bool:
    """ "that digit must be 'sandwiched' between two even digits in that row or column" """
    at = line.index(clue)
    return 0 < at < len(line) - 1 and line[at - 1] % 2 == 0 and line[at + 1] % 2 == 0


def _sum_touching_top(line: list[int], clue: int) -> bool:
    """ "the sum of the digit(s) touching the 9 in that row or column" (4 on a 4x4)"""
    at = line.index(len(line))
    touching = [line[j] for j in (at - 1, at + 1) if 0 <= j < len(line)]
    return sum(touching) == clue


ORACLES = {"evensandwich": (_between_evens, 4), "besidelargest": (_sum_touching_top, 5)}


def _assert_counts(kind: str, clues: dict[str, list[int]]) -> int:
    return assert_4x4_counts(kind, clues, ORACLES[kind][0])


# A row and a column clue that some grids meet; then clues none meets (the 2 between two evens:
# a 4x4 has only 2 and 4; r1's digits beside its 4 summing to 3 and to 2, one clue each side).
CASES = {
    "evensandwich": [{"left": [0, 3, 0, 0], "bottom": [0, 0, 1, 0]}, {"top": [2, 0, 0, 0]}],
    "besidelargest": [
        {"right": [0, 0, 5, 0], "top": [3, 0, 0, 0]},
        {"left": [3, 0, 0, 0], "right": [2, 0, 0, 0]},
    ],
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_clues_count_as_the_rules_text_on_4x4(kind: str) -> None:
    met, unmet = (_assert_counts(kind, clues) for clues in CASES[kind])
    assert met > 0 and unmet == 0


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(ORACLES))
def test_every_clue_value_on_every_side_counts_as_the_oracle(kind: str) -> None:
    holds, highest = ORACLES[kind]
    assert_every_clue_on_every_side(kind, holds, highest)


@pytest.mark.parametrize(("kind", "clue"), [("evensandwich", 10), ("besidelargest", 16)])
def test_a_clue_above_the_highest_is_refused(kind: str, clue: int) -> None:
    with pytest.raises(PuzzleError, match=kind):
        make_rule({"type": kind, "left": [clue] + [0] * 8}, Shape(3, 3))


def test_a_64x64_sum_beside_the_largest_is_refused_at_once() -> None:
    """Its three-cell tables would hold 249,984 rows each: refused before any is built."""
    shape = Shape(8, 8)
    puzzle = Puzzle.empty(shape, [make_rule({"type": "besidelargest", "left": [5] * 64}, shape)])
    start = time.process_time()
    with pytest.raises(PuzzleError, match="too many"):
        get_backend("sat").solve(puzzle, limit=2)
    assert time.process_time() - start < 5  # generous: a refusal, not a build


@pytest.mark.slow
def test_every_even_sandwich_clue_of_a_64x64_stops_at_the_budget() -> None:
    shape = Shape(8, 8)
    spec = {"type": "evensandwich", **{side: list(range(1, 65)) for side in SIDES}}
    puzzle = Puzzle.empty(shape, [make_rule(spec, shape)])
    with pytest.raises(PuzzleError, match="tuples in total"):
        get_backend("sat").solve(puzzle, limit=2)


# The published puzzles (Nickleaton/sudoku, MIT): name, --outside TYPE.
PUBLISHED = [
    ("yduxh3w3", "evensandwich"),  # "Even Sandwich"
    ("yzrxvbml", "evensandwich"),  # "Even Sandwich"
    ("2hvh2otu", "besidelargest"),  # "Sum Next to 9", solution stored
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "kind"), PUBLISHED)
def test_the_published_puzzles_are_unique_with_their_solution(name: str, kind: str) -> None:
    assert_published_unique(name, outside=kind)
