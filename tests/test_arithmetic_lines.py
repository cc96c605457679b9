"""`arithmeticline` and `--line COLOUR=arithmeticline` ("each grey line must consist of an
arithmetic sequence ... the sequence can begin at either end"; on three cells, "the digit in the
central cell must be the average of the two digits on the ends"): counted on every backend
against a predicate written here over every 4×4 grid (288) and every 6×6 grid with the first
row 123456 (39,168); Nickleaton's "Sequence Sudoku" and "Average Sudoku" (MIT) come out
unique."""

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

GREY = "#CCCCCC"
LINES_4 = [["R1C1", "R2C2", "R3C3"], ["R4C1", "R3C2"]]  # two cells: any two digits
LINES_6 = [["R2C1", "R3C1", "R4C1", "R5C1"], ["R6C6", "R5C5", "R4C4"], ["R3C4", "R3C5", "R4C6"]]


def data(size: int, lines: list[list[str]]) -> str:
    return lines_document(size, [(GREY, cells) for cells in lines])


def read(text: str) -> Puzzle:
    (puzzle,) = read_text(text, lines=[parse_line_type("ccc=arithmeticline")])
    return puzzle


def steady(lines: list[list[str]]) -> Callable[[Rows], bool]:
    """Each line's differences of neighbours are one number."""

    def holds(g: Rows) -> bool:
        for cells in lines:
            digits = [v(g, c.lower()) for c in cells]
            if len({b - a for a, b in zip(digits, digits[1:], strict=False)}) != 1:
                return False
        return True

    return holds


@pytest.mark.parametrize("backend", available())
def test_arithmetic_lines_count_what_the_rules_text_means(backend: str) -> None:
    expected = sum(1 for g in all_4x4() if steady(LINES_4)(g))
    assert 0 < expected < 288
    result = get_backend(backend).solve(read(data(4, LINES_4)), limit=400)
    assert result.exhausted and result.count == expected
    expected = count_6x6(steady(LINES_6), key="arithmetic-lines-6")
    assert 0 < expected < len(all_6x6_first_row())
    result = get_backend(backend).solve(read(data(6, LINES_6)), limit=20_000)
    assert result.exhausted and result.count == expected


def test_the_document_rule_and_its_check() -> None:
    rule = {"type": "arithmeticline", "lines": [["r1c1", "r2c2", "r3c1"]]}
    (puzzle,) = read_text(json.dumps({"size": 4, "rules": [rule]}))
    (constraint,) = puzzle.rule_constraints()
    assert constraint.check({(0, 0): 1, (1, 1): 2, (2, 0): 3})
    assert not constraint.check({(0, 0): 1, (1, 1): 2, (2, 0): 4})
    assert get_backend("sat").solve(puzzle, limit=400).count == sum(
        1 for g in all_4x4() if steady([["r1c1", "r2c2", "r3c1"]])(g)
    )


def test_lines_meeting_or_looping_are_refused() -> None:
    with pytest.raises(PuzzleError, match="meets another CCCCCC line"):
        read(data(4, [["R1C1", "R2C2", "R3C3"], ["R2C2", "R1C3"]]))
    with pytest.raises(PuzzleError, match="closes a loop or comes back to a cell"):
        read(data(4, [["R1C1", "R1C2", "R2C2", "R2C1", "R1C1"]]))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["y5um4yez", "y2y6ggrm"])
def test_published_sequences_come_out_unique(name: str) -> None:
    """Nine and twelve grey three-cell lines; no stored solution, so the grid is checked on a
    second backend."""
    (puzzle,) = read_text(
        json.dumps(nickleaton(name)), lines=[parse_line_type("ccc=arithmeticline")]
    )
    first = get_backend("sat").solve(puzzle, limit=2)
    again = get_backend("cpsat").solve(puzzle, limit=2)
    assert first.status is Status.UNIQUE and again.status is Status.UNIQUE
    assert first.solution == again.solution
