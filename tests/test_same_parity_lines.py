"""`sameparityline` and `--line COLOUR=sameparityline` ("for each grey line in the grid, either
all of the digits on it are odd, or all of them are even"): counted on every backend against a
predicate written here over every 4×4 grid (288) and every 6×6 grid with the first row 123456
(39,168), pieces meeting at a cell and a closed loop included (a line's cells as a set); the
published "Parity Lines" and "Three-in-a-row" files (Nickleaton/sudoku, MIT) come out unique."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.sudokupad import fpuzzles_data
from satsudoku.io.sudokupad_lines import parse_line_type
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from tests.fpuzzles_docs import lines_document
from tests.mirrors import nickleaton
from tests.test_rules import Rows, all_4x4, all_6x6_first_row, count_6x6, v

GREY = "#CCCCCC"
# Two pieces meeting at r2c2 (4x4); a loop across two boxes, read as its four cells (6x6).
LINES_4 = [["R1C1", "R2C2"], ["R2C2", "R3C1"], ["R4C3", "R3C4"]]
LINES_6 = [
    ["R2C1", "R3C2", "R4C3", "R5C4"],
    ["R6C6", "R5C6", "R4C6"],
    ["R4C4", "R4C5", "R5C5", "R5C4", "R4C4"],
]


def data(size: int, lines: list[list[str]]) -> str:
    return lines_document(size, [(GREY, cells) for cells in lines])


def one_parity(lines: list[list[str]]) -> Callable[[Rows], bool]:
    def holds(g: Rows) -> bool:
        return all(len({v(g, c.lower()) % 2 for c in cells}) == 1 for cells in lines)

    return holds


def read(text: str) -> Puzzle:
    (puzzle,) = read_text(text, lines=[parse_line_type("ccc=sameparityline")])
    return puzzle


@pytest.mark.parametrize("backend", available())
def test_same_parity_lines_count_what_the_rules_text_means_4x4(backend: str) -> None:
    puzzle = read(data(4, LINES_4))
    assert [rule.type for rule in puzzle.rules] == ["sameparityline"]
    expected = sum(1 for g in all_4x4() if one_parity(LINES_4)(g))
    assert 0 < expected < 288
    result = get_backend(backend).solve(puzzle, limit=400)
    assert result.exhausted and result.count == expected


@pytest.mark.parametrize("backend", available())
def test_same_parity_lines_count_what_the_rules_text_means_6x6(backend: str) -> None:
    oracle = one_parity(LINES_6)
    expected = count_6x6(oracle, key="same-parity-6")
    assert 0 < expected < len(all_6x6_first_row())
    result = get_backend(backend).solve(read(data(6, LINES_6)), limit=20_000)
    assert result.exhausted and result.count == expected


def test_the_document_rule_and_its_check() -> None:
    doc = {"size": 4, "rules": [{"type": "sameparityline", "lines": [["r1c1", "r2c2", "r3c1"]]}]}
    (puzzle,) = read_text(json.dumps(doc))
    (constraint,) = puzzle.rule_constraints()
    cells = {(0, 0): 1, (1, 1): 3, (2, 0): 3}
    assert constraint.check(cells) and not constraint.check({**cells, (2, 0): 2})
    expected = sum(1 for g in all_4x4() if one_parity([["r1c1", "r2c2", "r3c1"]])(g))
    assert get_backend("sat").solve(puzzle, limit=400).count == expected


def test_a_long_line_shares_one_set_of_rows() -> None:
    """A 4,096-cell line over a 64×64 (h72's hostile document) built 4,095 copies of the same
    2,048 rows, 1.08 GB and 8.8 s of CPU before its one-line refusal (0.6 s, 30 MB now)."""
    snake = [f"r{r + 1}c{(c if r % 2 == 0 else 15 - c) + 1}" for r in range(16) for c in range(16)]
    doc = {"size": 16, "rules": [{"type": "sameparityline", "lines": [snake]}]}
    (puzzle,) = read_text(json.dumps(doc))
    (constraint,) = puzzle.rule_constraints()
    tables = constraint.decompose(puzzle.shape)
    assert len(tables) == 255 and len({id(t.tuples) for t in tables}) == 1
    assert len(tables[0].tuples) == 128 and (1, 15) in tables[0].tuples


def test_sudokupad_lines_read_the_same() -> None:
    line = {"color": "#cccccc", "thickness": 8, "wayPoints": [[0.5, 0.5], [1.5, 1.5], [1.5, 2.5]]}
    pad = {"cells": [[{} for _ in range(4)] for _ in range(4)], "lines": [line]}
    found, drawings = fpuzzles_data(pad, lines=(parse_line_type("ccc=sameparityline"),))
    assert found["sameparityline"] == [{"lines": [["R1C1", "R2C2", "R2C3"]]}] and not drawings


def test_untyped_lines_are_refused_naming_the_option() -> None:
    with pytest.raises(PuzzleError, match=r"--line CCCCCC=TYPE"):
        read_text(data(4, LINES_4))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["3z9wmacn", "yedd3p42", "ydsud8nf"])
def test_published_same_parity_lines_come_out_unique(name: str) -> None:
    """ "Parity Lines" (grey lines of 4 and 6 cells; 2-6 cells) and "Three-in-a-row" (seven
    3-cell lines): no stored solution, so the grid is checked on a second backend."""
    data_ = nickleaton(name)
    colour = data_["line"][0]["outlineC"].lstrip("#")
    (puzzle,) = read_text(json.dumps(data_), lines=[parse_line_type(f"{colour}=sameparityline")])
    first = get_backend("sat").solve(puzzle, limit=2)
    again = get_backend("cpsat").solve(puzzle, limit=2)
    assert first.status is Status.UNIQUE and again.status is Status.UNIQUE
    assert first.solution == again.solution
