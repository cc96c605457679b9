"""`prefixsum`, `ascendingsum`, `longestascending`, `paritylongest`, `tripletsum` (`--outside
TYPE`): clues about runs along a row or column, counted on every 4x4 grid against predicates
written here from the rules texts, and the published puzzles read as their texts mean them."""

from __future__ import annotations

import time
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.errors import PuzzleError
from satsudoku.grid import Shape
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule
from tests.mirrors import assert_published_unique, nickleaton
from tests.outside_counts import assert_4x4_counts, assert_every_clue_on_every_side

BACKENDS = ["bitmask", "sat", "cpsat"]


def _frameless(line: list[int], clue: int) -> bool:
    """ "the first X cells in that direction must sum to the value of that clue" (some X)"""
    return any(sum(line[:x]) == clue for x in range(1, len(line) + 1))


def _ascending_starter(line: list[int], clue: int) -> bool:
    """ "the sum of the run of increasing digits ... that starts in the cell closest" """
    run = [line[0]]
    for d in line[1:]:
        if d < run[-1]:
            break
        run.append(d)
    return sum(run) == clue


def _runs(line: list[int], same: Any) -> list[int]:
    """Lengths of the maximal stretches whose neighbours `same` links."""
    lengths = [1]
    for a, b in zip(line, line[1:], strict=False):
        if same(a, b):
            lengths[-1] += 1
        else:
            lengths.append(1)
    return lengths


def _max_ascending(line: list[int], clue: int) -> bool:
    """ "the length of the longest contiguous run of increasing digits ... from the clue" """
    return max(_runs(line, lambda a, b: a < b)) == clue


def _max_parity_run(line: list[int], clue: int) -> bool:
    """ "the longest run of sequential cells ... either all odd or all even" """
    return max(_runs(line, lambda a, b: a % 2 == b % 2)) == clue


def _triplet(line: list[int], clue: int) -> bool:
    """ "three consecutive cells somewhere in that row or column which sum to the clue" """
    return clue in {sum(line[i : i + 3]) for i in range(len(line) - 2)}


# kind: (predicate, the highest clue on a 4x4)
ORACLES = {
    "prefixsum": (_frameless, 10),
    "ascendingsum": (_ascending_starter, 10),
    "longestascending": (_max_ascending, 4),
    "paritylongest": (_max_parity_run, 4),
    "tripletsum": (_triplet, 9),
}


def _assert_counts(kind: str, clues: dict[str, list[int]]) -> int:
    return assert_4x4_counts(kind, clues, ORACLES[kind][0])


# A row and a column clue some grids meet, then clues none meets (a row starting with 1 from
# both ends; rising 1 2 3 4 from both ends; rising 4 long from the left but 2 from the right;
# on a 4x4 no parity run is 3 long, and three neighbours add up to 6 at least).
CASES = {
    "prefixsum": [
        {"left": [0, 3, 0, 0], "bottom": [0, 0, 7, 0]},
        {"left": [1, 0, 0, 0], "right": [1, 0, 0, 0]},
    ],
    "ascendingsum": [
        {"right": [0, 7, 0, 0], "top": [4, 0, 0, 0]},
        {"left": [0, 10, 0, 0], "right": [0, 10, 0, 0]},
    ],
    "longestascending": [
        {"left": [0, 2, 0, 0], "top": [3, 0, 0, 0]},
        {"left": [4, 0, 0, 0], "right": [2, 0, 0, 0]},
    ],
    "paritylongest": [{"left": [2, 0, 0, 0], "bottom": [0, 1, 0, 0]}, {"top": [0, 0, 3, 0]}],
    "tripletsum": [{"left": [0, 8, 0, 0], "top": [0, 0, 6, 0]}, {"right": [5, 0, 0, 0]}],
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


@pytest.mark.parametrize(
    ("kind", "clue"),
    [
        ("prefixsum", 46),
        ("ascendingsum", 46),
        ("longestascending", 10),
        ("paritylongest", 10),
        ("tripletsum", 25),
    ],
)
def test_a_clue_above_the_highest_is_refused(kind: str, clue: int) -> None:
    with pytest.raises(PuzzleError, match=kind):
        make_rule({"type": kind, "left": [clue] + [0] * 8}, Shape(3, 3))


@pytest.mark.parametrize(("kind", "clue"), [("tripletsum", 90), ("ascendingsum", 1000)])
def test_a_64x64_clue_too_large_to_unroll_is_refused(kind: str, clue: int) -> None:
    shape = Shape(8, 8)
    puzzle = Puzzle.empty(shape, [make_rule({"type": kind, "left": [clue] + [0] * 63}, shape)])
    start = time.process_time()
    with pytest.raises(PuzzleError, match="transitions"):
        get_backend("sat").solve(puzzle, limit=2)
    assert time.process_time() - start < 10  # generous: it stops at the budget


# The published puzzles (Nickleaton/sudoku, MIT), none with a stored solution: name, TYPE.
PUBLISHED = [
    ("2ftcuu55", "prefixsum"),  # "Frameless"
    ("23x6hppz", "ascendingsum"),  # "Ascending Starters"
    ("23ndgmls", "longestascending"),  # "Max Ascending"
    ("ykyg5ktn", "paritylongest"),  # "Max Odd/Even Run"
    ("y6gmulvs", "tripletsum"),  # "Triplet Sum"
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "kind"), PUBLISHED)
def test_the_published_puzzles_are_unique(name: str, kind: str) -> None:
    assert "solution" not in nickleaton(name)  # none of these stores one
    assert_published_unique(name, outside=kind)
