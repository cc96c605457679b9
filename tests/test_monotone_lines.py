"""`monotoneline` and `--line COLOUR=monotoneline` ("along each line, digits either strictly
increase or strictly decrease; whether digits increase or decrease along any particular line is
to be determined by the solver"): counted on every backend against a predicate written here
over every 4×4 grid (288) and every 6×6 grid with the first row 123456 (39,168); Nickleaton's
"Creasing Sudoku" (yfvgkslv, MIT) comes out unique."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.sudokupad_lines import parse_line_type
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from tests.fpuzzles_docs import lines_document
from tests.mirrors import nickleaton
from tests.test_rules import Rows, all_4x4, all_6x6_first_row, count_6x6, v

GREEN = "#00FF2F"
LINES_4 = [["R1C1", "R2C2", "R3C2"], ["R4C4", "R4C3"]]
LINES_6 = [["R2C1", "R3C2", "R4C3", "R5C4"], ["R6C6", "R5C6", "R4C6"], ["R2C4", "R2C5"]]


def data(size: int, lines: list[list[str]]) -> str:
    return lines_document(size, [(GREEN, cells) for cells in lines], width=0.3)


def read(text: str) -> Puzzle:
    (puzzle,) = read_text(text, lines=[parse_line_type("00ff2f=monotoneline")])
    return puzzle


def one_way(lines: list[list[str]]) -> Callable[[Rows], bool]:
    """Each line's neighbours all go up, or all go down."""

    def holds(g: Rows) -> bool:
        for cells in lines:
            digits = [v(g, c.lower()) for c in cells]
            pairs = list(zip(digits, digits[1:], strict=False))
            if not (all(a < b for a, b in pairs) or all(a > b for a, b in pairs)):
                return False
        return True

    return holds


@pytest.mark.parametrize("backend", available())
def test_monotone_lines_count_what_the_rules_text_means(backend: str) -> None:
    expected = sum(1 for g in all_4x4() if one_way(LINES_4)(g))
    assert 0 < expected < 288
    result = get_backend(backend).solve(read(data(4, LINES_4)), limit=400)
    assert result.exhausted and result.count == expected
    expected = count_6x6(one_way(LINES_6), key="monotone-lines-6")
    assert 0 < expected < len(all_6x6_first_row())
    result = get_backend(backend).solve(read(data(6, LINES_6)), limit=20_000)
    assert result.exhausted and result.count == expected


def test_the_document_rule_and_its_check() -> None:
    rule = {"type": "monotoneline", "lines": [["r1c1", "r2c2", "r3c1"]]}
    (puzzle,) = read_text(json.dumps({"size": 4, "rules": [rule]}))
    (constraint,) = puzzle.rule_constraints()
    assert constraint.check({(0, 0): 4, (1, 1): 2, (2, 0): 1})
    assert not constraint.check({(0, 0): 1, (1, 1): 3, (2, 0): 2})
    expected = sum(1 for g in all_4x4() if one_way([["r1c1", "r2c2", "r3c1"]])(g))
    assert 0 < expected and get_backend("sat").solve(puzzle, limit=400).count == expected


def test_lines_meeting_are_refused() -> None:
    with pytest.raises(PuzzleError, match="meets another 00FF2F line"):
        read(data(4, [["R1C1", "R2C2", "R3C3"], ["R2C2", "R1C3"]]))


@pytest.mark.slow
def test_creasing_sudoku_comes_out_unique() -> None:
    """Five green lines of 4 to 7 cells; no stored solution, so the grid is checked on a
    second backend."""
    (puzzle,) = read_text(
        json.dumps(nickleaton("yfvgkslv")), lines=[parse_line_type("00ff2f=monotoneline")]
    )
    first = get_backend("sat").solve(puzzle, limit=2)
    again = get_backend("cpsat").solve(puzzle, limit=2)
    assert first.status is Status.UNIQUE and again.status is Status.UNIQUE
    assert first.solution == again.solution
