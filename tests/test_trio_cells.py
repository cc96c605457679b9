"""`--cell COLOUR[:round|square]=low|middle|high`: a shape in a cell says which third of 1..n
its digit is ("1s, 2s and 3s are marked with circles; 4s, 5s and 6s are marked with squares":
Trio sudoku), counted on every backend against a predicate written here from that text over
every 6×6 grid with the first row 123456 (39,168); the published Trio files (Nickleaton/sudoku,
MIT) come out unique."""

from __future__ import annotations

import json
from typing import Any

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.sudokupad import fpuzzles_data
from satsudoku.io.sudokupad_lines import parse_cell_type, third_digits
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from tests.mirrors import nickleaton
from tests.test_rules import Rows, all_6x6_first_row, count_6x6, v

CIRCLES = ["R2C4", "R3C1", "R4C5", "R5C6"]  # low: 1 or 2 on 6x6
SQUARES = ["R2C1", "R6C2"]  # middle: 3 or 4
GREY = ["R4C2", "R6C4"]  # high: 5 or 6


def shape(cell: str, colour: str = "#FFFFFF") -> dict[str, Any]:
    return {"cells": [cell], "baseC": colour, "outlineC": "#000000", "width": 0.8, "height": 0.8}


def fpuzzles_6x6(paint: bool = False) -> str:
    """A 6x6 with the first row given, white circles and squares and a grey circle; `paint`:
    the cells under the white shapes painted, as the Trio files paint them."""
    grid: list[list[dict[str, Any]]] = [[{} for _ in range(6)] for _ in range(6)]
    for c, digit in enumerate("123456"):
        grid[0][c] = {"value": int(digit), "given": True}
    if paint:
        for cells, colour in ((CIRCLES, "#FFE060"), (SQUARES, "#D0D0FF")):
            for name in cells:
                grid[int(name[1]) - 1][int(name[3]) - 1]["c"] = colour
    data = {
        "size": 6,
        "grid": grid,
        "circle": [shape(c) for c in CIRCLES] + [shape(c, "#BABABA") for c in GREY],
        "rectangle": [shape(c) for c in SQUARES],
    }
    return json.dumps(data)


SPECS = ("fff:round=low", "fff:square=middle", "bababa=high")


def read(text: str, *specs: str) -> Puzzle:
    (puzzle,) = read_text(text, cells=[parse_cell_type(s) for s in specs])
    return puzzle


def trio_6(g: Rows) -> bool:
    return (
        all(v(g, c.lower()) in (1, 2) for c in CIRCLES)
        and all(v(g, c.lower()) in (3, 4) for c in SQUARES)
        and all(v(g, c.lower()) in (5, 6) for c in GREY)
    )


def test_thirds_of_the_digits() -> None:
    assert [third_digits(k, 9) for k in ("low", "middle", "high")] == [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 9],
    ]
    assert third_digits("high", 6) == [5, 6] and third_digits("low", 12) == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="4 is not divisible by 3"):
        third_digits("low", 4)


@pytest.mark.parametrize("backend", available())
def test_thirds_count_what_the_rules_text_means(backend: str) -> None:
    expected = count_6x6(trio_6)
    assert 0 < expected < len(all_6x6_first_row())
    result = get_backend(backend).solve(read(fpuzzles_6x6(), *SPECS), limit=10_000)
    assert result.exhausted and result.count == expected


def test_painted_cells_under_the_shapes_are_their_picture() -> None:
    """The Trio files paint the cells under the circles and squares: the paint of a colour
    that is exactly the read shapes' cells is explained; without the types it is refused."""
    puzzle = read(fpuzzles_6x6(paint=True), *SPECS)
    assert get_backend("sat").solve(puzzle, limit=10_000).count == count_6x6(trio_6)
    with pytest.raises(PuzzleError, match="cell colour ×6"):
        read(fpuzzles_6x6(paint=True))


def test_sudokupad_shapes_read_the_same() -> None:
    def at(name: str, colour: str, rounded: bool) -> dict[str, Any]:
        r, c = int(name[1]) - 1, int(name[3]) - 1
        return {
            "center": [r + 0.5, c + 0.5],
            "width": 0.8,
            "height": 0.8,
            "backgroundColor": colour,
            "rounded": rounded,
        }

    shapes = [at(c, "#FFFFFF", True) for c in CIRCLES] + [at(c, "#FFFFFF", False) for c in SQUARES]
    pad = {"cells": [[{} for _ in range(6)] for _ in range(6)], "underlays": shapes}
    data, drawings = fpuzzles_data(pad, cells=tuple(parse_cell_type(s) for s in SPECS[:2]))
    assert not drawings
    assert data["markcandidates"] == [{"cells": [c], "values": [1, 2]} for c in CIRCLES] + [
        {"cells": [c], "values": [3, 4]} for c in SQUARES
    ]


def test_a_board_without_thirds_is_refused() -> None:
    grid = [[{} for _ in range(4)] for _ in range(4)]
    text = json.dumps({"size": 4, "grid": grid, "circle": [shape("R1C1")]})
    with pytest.raises(PuzzleError, match="f-puzzles: --cell FFFFFF:round=low: a low cell is a"):
        read(text, "fff:round=low")


TRIO_FILES = ("yh5uxu73", "y5k48drh", "y6huvhts", "yhnxctst")


@pytest.mark.slow
@pytest.mark.parametrize("name", TRIO_FILES)
def test_published_trio_puzzles_come_out_unique(name: str) -> None:
    """Trio: "1s, 2s, and 3s are marked with circles. 4s, 5s, and 6s are marked with squares" (all
    27 of each drawn, on painted cells); the files store no solution, so the grid is checked
    on a second backend."""
    data = nickleaton(name)
    assert "solution" not in data
    with pytest.raises(PuzzleError, match="circle ×27, rectangle ×27, cell colour ×54"):
        read(json.dumps(data))
    puzzle = read(json.dumps(data), "fff:round=low", "fff:square=middle")
    first = get_backend("sat").solve(puzzle, limit=2)
    again = get_backend("cpsat").solve(puzzle, limit=2)
    assert first.status is Status.UNIQUE and again.status is Status.UNIQUE
    assert first.solution == again.solution
