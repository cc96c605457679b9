"""`segmentsumline` and `--line COLOUR=segmentsumline:K` ("the cells along each line can be
divided into connected groups so that every group sums to exactly 10 ... every cell must be
part of a group"): counted on every backend against a predicate written here over every 4×4
grid (288) and every 6×6 grid with the first row 123456 (39,168); Nickleaton's "10 Lines"
(2nn987nh, MIT) solves to its stored solution."""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import accumulate

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.sudokupad_lines import parse_line_type
from satsudoku.puzzle import Puzzle
from tests.fpuzzles_docs import lines_document
from tests.mirrors import nickleaton
from tests.test_rules import Rows, all_4x4, all_6x6_first_row, count_6x6, v

GREY = "#CCCCCC"
LINES_4 = [["R1C1", "R2C1", "R3C1", "R4C1"], ["R4C2", "R3C3", "R3C4"]]  # runs of 5
LINES_6 = [["R2C5", "R3C4", "R4C3", "R5C2"], ["R3C3", "R4C4", "R5C5", "R6C6"]]  # runs of 7


def data(size: int, lines: list[list[str]]) -> str:
    return lines_document(size, [(GREY, cells) for cells in lines])


def read(text: str, total: int) -> Puzzle:
    (puzzle,) = read_text(text, lines=[parse_line_type(f"ccc=segmentsumline:{total}")])
    return puzzle


def runs_of(total: int, lines: list[list[str]]) -> Callable[[Rows], bool]:
    """Every running total along the line that passes a multiple of `total` lands on it, and
    the whole line ends on one: the cuts fall where the running total is a multiple."""

    def holds(g: Rows) -> bool:
        for cells in lines:
            running = list(accumulate(v(g, c.lower()) for c in cells))
            if running[-1] % total:
                return False
            for before, after in zip([0, *running], running, strict=False):
                if after // total - before // total > (1 if after % total == 0 else 0):
                    return False
        return True

    return holds


@pytest.mark.parametrize("backend", available())
def test_segment_sum_lines_count_what_the_rules_text_means(backend: str) -> None:
    expected = sum(1 for g in all_4x4() if runs_of(5, LINES_4)(g))
    assert 0 < expected < 288
    result = get_backend(backend).solve(read(data(4, LINES_4), 5), limit=400)
    assert result.exhausted and result.count == expected
    expected = count_6x6(runs_of(7, LINES_6), key="segment-sum-lines-6")
    assert 0 < expected < len(all_6x6_first_row())
    result = get_backend(backend).solve(read(data(6, LINES_6), 7), limit=20_000)
    assert result.exhausted and result.count == expected


def test_the_document_rule_and_its_check() -> None:
    rule = {"type": "segmentsumline", "lines": [["r1c1", "r1c2", "r2c2"]], "total": 6}
    (puzzle,) = read_text(json.dumps({"size": 4, "rules": [rule]}))
    (constraint,) = puzzle.rule_constraints()
    assert constraint.check({(0, 0): 1, (0, 1): 2, (1, 1): 3})  # one run of 6
    assert constraint.check({(0, 0): 2, (0, 1): 4, (1, 1): 6})  # two (as a test of the words)
    assert not constraint.check({(0, 0): 2, (0, 1): 4, (1, 1): 4})
    expected = sum(1 for g in all_4x4() if runs_of(6, [["r1c1", "r1c2", "r2c2"]])(g))
    assert 0 < expected and get_backend("sat").solve(puzzle, limit=400).count == expected


def test_lines_meeting_are_refused_and_the_total_is_required() -> None:
    with pytest.raises(PuzzleError, match="meets another CCCCCC line"):
        read(data(4, [["R1C1", "R1C2", "R2C2"], ["R2C2", "R3C2"]]), 5)
    with pytest.raises(ValueError, match="takes a number"):
        parse_line_type("ccc=segmentsumline")


@pytest.mark.slow
def test_ten_lines_solves_to_its_stored_solution() -> None:
    """Nine grey lines of 4 to 8 cells, "every group sums to exactly 10"."""
    entry = nickleaton("2nn987nh")
    result = get_backend("sat").solve(read(json.dumps(entry), 10), limit=2)
    assert result.status.value == "unique" and result.solution is not None
    assert list(result.solution.values) == entry["solution"]
