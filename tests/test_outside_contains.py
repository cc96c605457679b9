"""`--outside contains` ("Outside Sudoku": a clue's digits appear among the first three cells
from its side), counted on every backend against a predicate written here from that rules text
over every 4×4 grid (288) and every 6×6 grid with the first row 123456 (39,168)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.outside_text import outside_clue
from satsudoku.puzzle import Puzzle
from tests.mirrors import nickleaton
from tests.test_rules import Rows, all_4x4, all_6x6_first_row


def text(cell: str, value: str) -> dict[str, Any]:
    return {"cells": [cell], "fontC": "#000000", "size": 0.5, "value": value}


def fpuzzles(size: int, first_row: str, texts: list[dict[str, Any]]) -> str:
    grid = [
        [
            {"value": int(first_row[c]), "given": True} if r == 0 and first_row else {}
            for c in range(size)
        ]
        for r in range(size)
    ]
    return json.dumps({"size": size, "grid": grid, "text": texts})


def nearest(g: Rows, cell: str) -> list[int]:
    """The first three digits seen from an f-puzzles clue cell beside the grid."""
    n = len(g)
    r, c = (int(x) for x in cell[1:].split("C"))
    if r == 0:
        return [g[i][c - 1] for i in range(3)]
    if r == n + 1:
        return [g[n - 1 - i][c - 1] for i in range(3)]
    if c == 0:
        return list(g[r - 1][:3])
    return [g[r - 1][n - 1 - i] for i in range(3)]


def outside(clues: dict[str, str]) -> Any:
    def holds(g: Rows) -> bool:
        return all(
            all(int(d) in nearest(g, cell) for d in value.replace(" ", ""))
            for cell, value in clues.items()
        )

    return holds


CLUES_4 = {"R0C1": "12", "R5C3": "4", "R2C5": "1 3"}
CLUES_6 = {"R0C4": "25", "R3C0": "3", "R7C5": "16", "R5C7": "4 5 6"}
CASES = {
    "4x4": (fpuzzles(4, "", [text(c, v) for c, v in CLUES_4.items()]), all_4x4, CLUES_4),
    "6x6": (
        fpuzzles(6, "123456", [text(c, v) for c, v in CLUES_6.items()]),
        all_6x6_first_row,
        CLUES_6,
    ),
}


def read(data: str, kind: str | None = "contains") -> Puzzle:
    (puzzle,) = read_text(data, outside=kind)
    return puzzle


@pytest.mark.parametrize("backend", available())
@pytest.mark.parametrize("case", CASES)
def test_outside_digits_count_what_the_rules_text_means(case: str, backend: str) -> None:
    data, grids, clues = CASES[case]
    expected = sum(1 for g in grids() if outside(clues)(g))
    assert 0 < expected < len(grids())
    result = get_backend(backend).solve(read(data), limit=500)
    assert result.exhausted and result.count == expected


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_outside_digits_count_the_same_on_mip(case: str) -> None:
    data, grids, clues = CASES[case]
    result = get_backend("mip").solve(read(data), limit=500)
    assert result.count == sum(1 for g in grids() if outside(clues)(g))


def test_clues_that_are_no_digit_list_are_left_as_drawings() -> None:
    assert outside_clue("R0C1", "1 2", 9, "contains") == {"cell": "R0C1", "value": "1 2"}
    assert outside_clue("R0C1", "12", 9, "contains") == {"cell": "R0C1", "value": "1 2"}
    assert outside_clue("R0C1", "1234", 9, "contains") is None  # more than three cells hold
    assert outside_clue("R0C1", "7", 4, "contains") is None
    assert outside_clue("R1C1", "1", 4, "contains") is None  # inside the grid
    with pytest.raises(PuzzleError, match=r"--outside TYPE \(.*contains"):
        read(fpuzzles(4, "", [text("R0C1", "1 2")]), None)
    with pytest.raises(PuzzleError, match="text ×1"):
        read(fpuzzles(4, "", [text("R0C1", "1 2"), text("R0C2", "12 3 4")]))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ygd8uwm9", "y7tnxsh6"])
def test_published_outside_sudokus_have_one_solution(name: str) -> None:
    """ "A digit outside the grid means that digit must appear somewhere in the first three
    cells in the corresponding direction" (Nickleaton/sudoku, MIT; no stored solution): unique,
    and the grid keeps every clue as the predicate above reads it."""
    data = nickleaton(name)
    result = get_backend("sat").solve(read(json.dumps(data)), limit=2)
    assert result.status.value == "unique" and result.solution is not None
    values = result.solution.values
    rows = tuple(tuple(values[9 * r : 9 * r + 9]) for r in range(9))
    clues = {entry["cells"][0]: entry["value"] for entry in data["text"]}
    assert outside(clues)(rows)


@pytest.mark.slow
def test_a_stored_solution_breaking_a_clue_is_refused() -> None:
    """ "Scratchcard Lanyard": its stored solution lacks the 3 of the clue 23 left of row 3 in
    the first three cells (2 4 7): the puzzle is refused, not answered with another grid."""
    data = nickleaton("2kjmw3sa")
    with pytest.raises(PuzzleError, match=r"breaks quadruple\(r3c1, r3c2, r3c3 ∋ 23\)"):
        read(json.dumps(data))
