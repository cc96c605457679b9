"""`minmaxsum`, `minmaxdifference`, `maxposition` (`--outside TYPE`): clues about the three
digits nearest them, counted on every 4x4 grid against predicates written here from the rules
texts, and the published puzzles read as their rules texts mean them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.grid import Shape
from satsudoku.io import read_text
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule
from tests.mirrors import assert_published_unique
from tests.outside_counts import SIDES, assert_4x4_counts, count_4x4

BACKENDS = ["bitmask", "sat", "cpsat"]


def _ends_sum(near: list[int]) -> int:
    """ "the sum of the largest and smallest of the three digits nearest the clue" """
    return max(near) + min(near)


def _ends_gap(near: list[int]) -> int:
    """ "the difference of the largest and smallest of the three digits nearest the clue" """
    return max(near) - min(near)


def _place_of_largest(near: list[int]) -> int:
    """ "the relative position of the largest digit ... counted inwards from the clue" """
    return max(range(3), key=lambda i: near[i]) + 1


ORACLES = {
    "minmaxsum": (_ends_sum, 7),
    "minmaxdifference": (_ends_gap, 3),
    "maxposition": (_place_of_largest, 3),
}


def _nearest(kind: str) -> Callable[[list[int], int], bool]:
    """The clue's reading of the three digits nearest it, as a predicate on its line."""
    reading = ORACLES[kind][0]
    return lambda line, clue: reading(line[:3]) == clue


def _count(kind: str, clues: dict[str, list[int]]) -> int:
    """Grids of the 288 4x4 sudokus whose three nearest digits meet every clue."""
    return count_4x4(_nearest(kind), clues)


def _assert_counts(kind: str, clues: dict[str, list[int]], backends: list[str]) -> None:
    assert_4x4_counts(kind, clues, _nearest(kind), backends)


# Two clues on a row and a column, then clues no grid meets: 1 + 2 has no digit between, a
# spread of 1 none, and a row's largest both 2nd from the left and 2nd from the right.
MIXED = {
    "minmaxsum": [{"left": [0, 5, 0, 0], "bottom": [0, 0, 6, 0]}, {"top": [3, 0, 0, 0]}],
    "minmaxdifference": [{"right": [2, 0, 0, 0], "top": [0, 3, 0, 0]}, {"left": [1, 0, 0, 0]}],
    "maxposition": [
        {"left": [0, 0, 2, 0], "bottom": [3, 0, 0, 0]},
        {"left": [2, 0, 0, 0], "right": [2, 0, 0, 0]},
    ],
}


@pytest.mark.parametrize("kind", sorted(MIXED))
def test_clues_count_as_the_rules_text_on_4x4(kind: str) -> None:
    counts = []
    for clues in MIXED[kind]:
        _assert_counts(kind, clues, BACKENDS)
        counts.append(_count(kind, clues))
    assert counts[0] > 0 and counts[1] == 0


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(ORACLES))
def test_every_clue_value_on_every_side_counts_as_the_oracle(kind: str) -> None:
    highest = ORACLES[kind][1]
    for side_index, side in enumerate(SIDES):
        for clue in range(1, highest + 1):
            row = [0] * 4
            row[(clue + side_index) % 4] = clue
            _assert_counts(kind, {side: row}, BACKENDS)


def test_the_table_holds_exactly_the_orders_the_clue_allows() -> None:
    """The rows each rule writes out equal the digit orders the wording keeps, on 4x4..9x9."""
    from itertools import permutations

    from satsudoku.constraints import Table

    for n, box in ((4, (2, 2)), (6, (2, 3)), (9, (3, 3))):
        shape = Shape(*box)
        for kind, (reading, _) in ORACLES.items():
            for clue in range(1, 2 * n):
                try:
                    rule = make_rule({"type": kind, "left": [clue] + [0] * (n - 1)}, shape)
                except PuzzleError:
                    continue  # above the rule's highest clue
                (condition,) = rule.constraints(shape)
                (table,) = condition.decompose(shape)
                assert isinstance(table, Table)
                want = {p for p in permutations(range(1, n + 1), 3) if reading(list(p)) == clue}
                assert table.tuples == want, (kind, n, clue)


@pytest.mark.parametrize(
    ("kind", "clue"), [("minmaxsum", 18), ("minmaxdifference", 9), ("maxposition", 4)]
)
def test_a_clue_above_the_highest_is_refused(kind: str, clue: int) -> None:
    with pytest.raises(PuzzleError, match=kind):
        make_rule({"type": kind, "left": [clue] + [0] * 8}, Shape(3, 3))


def _fpuzzles(text: list[dict[str, Any]], size: int = 9) -> str:
    grid = [[{} for _ in range(size)] for _ in range(size)]
    return json.dumps({"size": size, "grid": grid, "text": text})


@pytest.mark.parametrize("value", ["-3", "x", "1e9", "99999999", "1 2"])
def test_text_that_is_no_clue_stays_a_drawing(value: str) -> None:
    with pytest.raises(PuzzleError, match="drawings"):
        read_text(_fpuzzles([{"cells": ["R1C0"], "value": value}]), outside="maxposition")


def test_a_huge_clue_is_one_line_through_the_command(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "big.json"
    path.write_text(_fpuzzles([{"cells": ["R1C0"], "value": "999999"}]))
    assert main(["solve", str(path), "--outside", "minmaxdifference"]) != 0
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "minmaxdifference" in err and "Traceback" not in err


@pytest.mark.slow
def test_every_clue_of_a_64x64_is_refused_in_proportion() -> None:
    """256 position clues would post 21 M rows: refused once the puzzle's tables pass the
    budget, after 25 clues (each clue's rows are written out, never searched): 3.0 s CPU."""
    shape = Shape(8, 8)
    spec = {"type": "maxposition", **{side: [2] * 64 for side in SIDES}}
    puzzle = Puzzle.empty(shape, [make_rule(spec, shape)])
    with pytest.raises(PuzzleError, match="tuples in total"):
        get_backend("sat").solve(puzzle, limit=2)


# The published puzzles (Nickleaton/sudoku, MIT): name, --outside TYPE.
PUBLISHED = [
    ("2xwva23o", "minmaxsum"),  # "Minimax", solution stored
    ("yfh7d499", "minmaxsum"),  # "Minmax Sudoku"
    ("256onkxo", "minmaxdifference"),  # "Maximin", solution stored
    ("2k48xsnf", "maxposition"),  # "Position Sudoku", solution stored
    ("yj36quyd", "maxposition"),  # "Position Sudoku"
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "kind"), PUBLISHED)
def test_the_published_puzzles_are_unique_with_their_solution(name: str, kind: str) -> None:
    assert_published_unique(name, outside=kind)
