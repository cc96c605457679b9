"""`--line COLOUR=parityline` ("digits along the snowflake alternate between odd and even"):
f-puzzles and SudokuPad lines read as parity lines, counted on every backend against a
predicate written here over every 4×4 grid (288), pieces meeting at a cell and a closed loop
included (each step alternates, the closing one too)."""

from __future__ import annotations

import json

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.sudokupad_lines import parse_line_type
from tests.mirrors import nickleaton
from tests.test_rules import Rows, all_4x4, v

GREY = "#B5B5B5"
# Two pieces meeting at r2c2 (a branch), and a loop around the bottom-right box.
LINES = [
    ["R1C1", "R2C2", "R2C3"],
    ["R2C2", "R3C1"],
    ["R3C3", "R3C4", "R4C4", "R4C3", "R3C3"],
]


def data(lines: list[list[str]]) -> str:
    drawn = [{"lines": [cells], "outlineC": GREY, "width": 0.25} for cells in lines]
    return json.dumps(
        {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)], "line": drawn}
    )


def alternates(g: Rows) -> bool:
    return all(
        v(g, a.lower()) % 2 != v(g, b.lower()) % 2
        for cells in LINES
        for a, b in zip(cells, cells[1:], strict=False)
    )


@pytest.mark.parametrize("backend", available())
def test_parity_lines_count_what_the_rules_text_means(backend: str) -> None:
    (puzzle,) = read_text(data(LINES), lines=[parse_line_type("b5b5b5=parityline")])
    assert [rule.type for rule in puzzle.rules] == ["parityline"]
    expected = sum(1 for g in all_4x4() if alternates(g))
    assert 0 < expected < 288
    result = get_backend(backend).solve(puzzle, limit=400)
    assert result.exhausted and result.count == expected


def test_untyped_parity_lines_are_refused_naming_the_option() -> None:
    with pytest.raises(PuzzleError, match=r"--line B5B5B5=TYPE"):
        read_text(data(LINES))


@pytest.mark.slow
def test_parity_snowflake_solves_to_its_published_solution() -> None:
    """ "Parity Snowflake" (Nickleaton/sudoku 2hzb6vfk, MIT): 21 grey line pieces, several
    meeting at a cell; "digits along the snowflake alternate between odd and even"."""
    entry = nickleaton("2hzb6vfk")
    (puzzle,) = read_text(json.dumps(entry), lines=[parse_line_type("b5b5b5=parityline")])
    result = get_backend("sat").solve(puzzle, limit=2)
    assert result.status.value == "unique" and result.solution is not None
    assert list(result.solution.values) == entry["solution"]
