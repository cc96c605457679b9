"""`distinctline` and `--line COLOUR=distinctline:K` ("each marked diagonal only contains three
distinct digits"): counted on every backend against a predicate written here over every 4×4
grid (288) and every 6×6 grid with the first row 123456 (39,168); Nickleaton's "Repeat After
Me" (2zo8jnh9, MIT) solves to its stored solution."""

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
from tests.fpuzzles_docs import lines_document
from tests.mirrors import nickleaton
from tests.test_rules import Rows, all_4x4, count_6x6, v

TEAL, GOLD = "#00A3CC", "#FFE060"
DIAGONAL_4 = ["R1C1", "R2C2", "R3C3", "R4C4"]  # two distinct digits
WALK_6 = ["R2C1", "R3C2", "R4C2", "R5C3", "R6C4", "R6C5"]  # three distinct digits
ANTI_6 = ["R2C6", "R3C5", "R4C5"]  # two
DIAGONAL_6 = ["R3C3", "R4C4", "R5C5", "R6C6"]  # two
GIVEN_6 = {(3, 5): 5, (4, 1): 1}  # r4c6, r5c2: a few hundred grids left to count


def data(size: int, lines: list[tuple[str, list[str]]]) -> str:
    return lines_document(size, lines, width=0.1, givens=GIVEN_6 if size == 6 else None)


def read(text: str, *specs: str) -> Puzzle:
    (puzzle,) = read_text(text, lines=[parse_line_type(s) for s in specs])
    return puzzle


def distinct(*lines: tuple[list[str], int], given: bool = False) -> Callable[[Rows], bool]:
    def holds(g: Rows) -> bool:
        if given and any(g[r][c] != d for (r, c), d in GIVEN_6.items()):
            return False
        return all(len({v(g, c.lower()) for c in cells}) == k for cells, k in lines)

    return holds


@pytest.mark.parametrize("backend", available())
def test_distinct_lines_count_what_the_rules_text_means(backend: str) -> None:
    puzzle = read(data(4, [(TEAL, DIAGONAL_4)]), "00a3cc=distinctline:2")
    expected = sum(1 for g in all_4x4() if distinct((DIAGONAL_4, 2))(g))
    assert 0 < expected < 288
    result = get_backend(backend).solve(puzzle, limit=400)
    assert result.exhausted and result.count == expected
    text = data(6, [(TEAL, WALK_6), (GOLD, ANTI_6), (GOLD, DIAGONAL_6)])
    puzzle = read(text, "00a3cc=distinctline:3", "ffe060=distinctline:2")
    lines = ((WALK_6, 3), (ANTI_6, 2), (DIAGONAL_6, 2))
    expected = count_6x6(distinct(*lines, given=True), key="distinct-lines-6")
    assert expected == 103  # of 1,470 without the two givens
    result = get_backend(backend).solve(puzzle, limit=20_000)
    assert result.exhausted and result.count == expected


def test_the_document_rule_and_its_check() -> None:
    rule = {"type": "distinctline", "lines": [["r1c1", "r2c2", "r3c3"]], "count": 2}
    (puzzle,) = read_text(json.dumps({"size": 4, "rules": [rule]}))
    (constraint,) = puzzle.rule_constraints()
    cells = {(0, 0): 1, (1, 1): 3, (2, 2): 1}
    assert constraint.check(cells) and not constraint.check({**cells, (2, 2): 2})
    assert get_backend("sat").solve(puzzle, limit=400).count == sum(
        1 for g in all_4x4() if distinct((["r1c1", "r2c2", "r3c3"], 2))(g)
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("00a3cc=distinctline", "takes a number"),
        ("00a3cc=renban:3", "takes no number"),
        ("00a3cc=distinctline:x", "is not COLOUR"),
    ],
)
def test_the_number_goes_with_its_type_only(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_line_type(spec)


def test_crossing_lines_of_one_colour_are_refused() -> None:
    """Two lines of one style sharing a cell may be one line drawn in pieces, whose count is
    the whole line's: not guessed."""
    text = data(4, [(TEAL, DIAGONAL_4), (TEAL, ["R1C3", "R2C2", "R3C1"])])
    with pytest.raises(PuzzleError, match="meets another 00A3CC line"):
        read(text, "00a3cc=distinctline:2")


def test_sudokupad_lines_read_the_same() -> None:
    line = {"color": "#00a3cc", "thickness": 3, "wayPoints": [[0.5, 0.5], [2.5, 2.5]]}
    pad = {"cells": [[{} for _ in range(4)] for _ in range(4)], "lines": [line]}
    found, drawings = fpuzzles_data(pad, lines=(parse_line_type("00a3cc=distinctline:2"),))
    assert found["distinctline"] == [{"lines": [["R1C1", "R2C2", "R3C3"]], "value": "2"}]
    assert not drawings


@pytest.mark.slow
def test_repeat_after_me_solves_to_its_stored_solution() -> None:
    """Two diagonals, one gold and one blue, each "only contains three distinct digits"."""
    entry = nickleaton("2zo8jnh9")
    puzzle = read(json.dumps(entry), "ffe060=distinctline:3", "d0d0ff=distinctline:3")
    result = get_backend("sat").solve(puzzle, limit=2)
    assert result.status.value == "unique" and result.solution is not None
    assert list(result.solution.values) == entry["solution"]
