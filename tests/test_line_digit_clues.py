"""`besidelargestdigits`, `adjacentpair`, `descriptivepair` (`--outside TYPE`): digit lists
about a whole row or column, counted on every 4x4 grid against predicates written here from the
rules texts, their refusals, and the published puzzles read as their rules texts mean them."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.errors import PuzzleError
from satsudoku.grid import Shape
from satsudoku.io import read_text
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule
from tests.mirrors import assert_published_unique
from tests.test_differential_oracle import all_grids

BACKENDS = ["bitmask", "sat", "cpsat"]


def _next_to_top(line: list[int], digits: list[int]) -> bool:
    """ "clues ... give ALL digits that are adjacent to the 9 [the n]" """
    at = line.index(len(line))
    return {line[j] for j in (at - 1, at + 1) if 0 <= j < len(line)} == set(digits)


def _friends(line: list[int], digits: list[int]) -> bool:
    """ "a pair of digits that must appear adjacent to each other (in either order)" """
    return any({line[i], line[i + 1]} == set(digits) for i in range(len(line) - 1))


def _described(line: list[int], digits: list[int]) -> bool:
    """ "either X appears in the Yth position ... or Y appears in the Xth position" """
    x, y = digits
    return line[y - 1] == x or line[x - 1] == y


ORACLES = {
    "besidelargestdigits": _next_to_top,
    "adjacentpair": _friends,
    "descriptivepair": _described,
}


def _cells(side: str, i: int) -> list[tuple[int, int]]:
    cells = [(i, c) for c in range(4)] if side in ("left", "right") else [(r, i) for r in range(4)]
    return cells[::-1] if side in ("right", "bottom") else cells


Clue = tuple[str, int, list[int]]  # side, row or column, digits


def _assert_counts(kind: str, clues: list[Clue]) -> int:
    holds = ORACLES[kind]
    want = sum(
        all(holds([grid[r][c] for r, c in _cells(side, i)], d) for side, i, d in clues)
        for grid in all_grids(4)
    )
    spec = {
        "type": kind,
        "clues": [
            {"cells": [f"r{r + 1}c{c + 1}" for r, c in _cells(side, i)], "digits": d}
            for side, i, d in clues
        ],
    }
    shape = Shape(2, 2)
    puzzle = Puzzle.empty(shape, [make_rule(spec, shape)])
    for name in BACKENDS:
        got = get_backend(name).solve(puzzle, limit=want + 1).count
        assert got == want, f"{name}: {spec}: {got} != {want}"
    return want


# Clues some grids meet, then clues none meets (r1's 4 beside both 1 and 2, and beside 3 alone;
# r1's 1 beside 2, 3 and 4; c1's 1 in its first cell, and 2 there or 1 in its second).
CASES: dict[str, list[list[Clue]]] = {
    "besidelargestdigits": [
        [("left", 0, [1, 3]), ("top", 2, [2])],
        [("left", 0, [1, 2]), ("right", 0, [3])],
    ],
    "adjacentpair": [
        [("right", 1, [2, 3]), ("bottom", 0, [1, 4])],
        [("left", 0, [1, 2]), ("left", 0, [1, 3]), ("left", 0, [1, 4])],
    ],
    "descriptivepair": [
        [("left", 2, [3, 2]), ("bottom", 1, [4, 4])],
        [("top", 0, [1, 1]), ("top", 0, [2, 1])],
    ],
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_clues_count_as_the_rules_text_on_4x4(kind: str) -> None:
    met, unmet = (_assert_counts(kind, clues) for clues in CASES[kind])
    assert met > 0 and unmet == 0


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(ORACLES))
def test_every_pair_of_digits_on_every_side_counts_as_the_oracle(kind: str) -> None:
    for side in ("left", "right", "top", "bottom"):
        for a in range(1, 5):
            for b in range(1, 5):
                if a != b or kind == "descriptivepair":
                    _assert_counts(kind, [(side, (a + b) % 4, [a, b])])
        if kind == "besidelargestdigits":
            for a in range(1, 4):
                _assert_counts(kind, [(side, a, [a])])


ROW = [f"r1c{c}" for c in range(1, 10)]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"type": "adjacentpair", "clues": [{"cells": ROW, "digits": [3, 3]}]}, "different"),
        ({"type": "adjacentpair", "clues": [{"cells": ROW, "digits": [3]}]}, "give 2"),
        ({"type": "besidelargestdigits", "clues": [{"cells": ROW, "digits": [1, 2, 3]}]}, "1..2"),
        ({"type": "descriptivepair", "clues": [{"cells": ROW[:5], "digits": [1, 2]}]}, "whole"),
        (
            {"type": "descriptivepair", "clues": [{"cells": ROW[:8] + ["r2c9"], "digits": [1, 2]}]},
            "whole row",
        ),
        ({"type": "descriptivepair", "clues": [{"cells": ROW, "digits": [1, 10]}]}, "digits"),
    ],
)
def test_clues_that_are_no_clue_are_refused(spec: dict[str, Any], message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        make_rule(spec, Shape(3, 3))


def _fpuzzles(text: list[dict[str, Any]], size: int = 9) -> str:
    grid = [[{} for _ in range(size)] for _ in range(size)]
    return json.dumps({"size": size, "grid": grid, "text": text})


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("adjacentpair", "4"),
        ("adjacentpair", "1 2 3"),
        ("besidelargestdigits", "0"),
        ("descriptivepair", "x y"),
    ],
)
def test_text_listing_the_wrong_digits_stays_a_drawing(kind: str, value: str) -> None:
    with pytest.raises(PuzzleError, match="drawings"):
        read_text(_fpuzzles([{"cells": ["R1C0"], "value": value}]), outside=kind)


def test_the_reader_writes_the_line_from_the_clues_side() -> None:
    text = [{"cells": ["R2C10"], "value": "3 6"}, {"cells": ["R10C1"], "value": "12"}]
    (puzzle,) = read_text(_fpuzzles(text), outside="descriptivepair")
    (spec,) = [rule.to_spec() for rule in puzzle.rules]
    right, below = spec["clues"]
    assert right == {"cells": [f"r2c{c}" for c in range(9, 0, -1)], "digits": [3, 6]}
    assert below == {"cells": [f"r{r}c1" for r in range(9, 0, -1)], "digits": [1, 2]}


def test_a_64x64_clue_beside_the_largest_is_refused_at_once() -> None:
    shape = Shape(8, 8)
    row = [f"r1c{c}" for c in range(1, 65)]
    spec = {"type": "besidelargestdigits", "clues": [{"cells": row, "digits": [1, 2]}]}
    puzzle = Puzzle.empty(shape, [make_rule(spec, shape)])
    start = time.process_time()
    with pytest.raises(PuzzleError, match="too many"):
        get_backend("sat").solve(puzzle, limit=2)
    assert time.process_time() - start < 5  # generous: a refusal, not a build


# The published puzzles (Nickleaton/sudoku, MIT): name, --outside TYPE.
PUBLISHED = [
    ("yhacmw2t", "besidelargestdigits"),  # "Next to Nine"
    ("yzpzmf3t", "besidelargestdigits"),  # "Next to 6", 6x6
    ("2pwjjg9u", "adjacentpair"),  # "Best Friends", solution stored
    ("27cgxe2j", "descriptivepair"),  # "Descriptive Pairs", solution stored
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "kind"), PUBLISHED)
def test_the_published_puzzles_are_unique_with_their_solution(name: str, kind: str) -> None:
    assert_published_unique(name, outside=kind)
