"""`--cell COLOUR=greaterthan`: a `<` or `>` in a shape on the border of two cells ("the open
end of the < points towards the larger number"), turned by f-puzzles' `angle` (degrees
clockwise), counted on every backend against a predicate written here over every 4×4 grid
(288); Nickleaton's "Greater Than" (2jzb7r5v, MIT: signs turned by 90 and -90 degrees) solves
to its stored solution, which the opposite turn would break."""

from __future__ import annotations

import json
from typing import Any

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.sudokupad import fpuzzles_data
from satsudoku.io.sudokupad_lines import parse_cell_type
from satsudoku.puzzle import Puzzle
from tests.mirrors import nickleaton
from tests.test_rules import Rows, all_4x4, v


def sign(cells: list[str], text: str, angle: int | None = None) -> dict[str, Any]:
    shape = {"cells": cells, "baseC": "#FFFFFF", "outlineC": "#FFFFFF", "value": text}
    shape.update(width=0.5, height=0.5)
    return shape if angle is None else {**shape, "angle": angle}


# Each sign with the cell it makes greater, worked out by hand from how it looks: `>` unturned
# opens left; turned 90 degrees clockwise it is a `v`, opening upwards; -90 a `^`; 180 a `<`.
SIGNS = [
    (sign(["R1C1", "R1C2"], ">"), "r1c1"),
    (sign(["R2C2", "R2C1"], "<"), "r2c2"),  # drawn between r2c1 and r2c2, opening right
    (sign(["R1C3", "R2C3"], ">", 90), "r1c3"),
    (sign(["R3C4", "R2C4"], "<", 90), "r3c4"),
    (sign(["R3C1", "R4C1"], ">", -90), "r4c1"),
    (sign(["R4C3", "R4C4"], ">", 180), "r4c4"),
    (sign(["R3C2", "R3C3"], "<", 270), ""),
]
# `<` turned 270 degrees clockwise points down: on a horizontal pair that is along the border,
# so that last sign is refused, not read; it is kept out of the counted case.
COUNTED = SIGNS[:-1]


def other(cells: list[str], greater: str) -> str:
    (smaller,) = {c.lower() for c in cells} - {greater}
    return smaller


def signs_hold(g: Rows) -> bool:
    return all(v(g, big) > v(g, other(s["cells"], big)) for s, big in COUNTED)


def data(*shapes: dict[str, Any]) -> str:
    grid = [[{} for _ in range(4)] for _ in range(4)]
    return json.dumps({"size": 4, "grid": grid, "circle": list(shapes)})


def read(text: str) -> Puzzle:
    (puzzle,) = read_text(text, cells=[parse_cell_type("fff:round=greaterthan")])
    return puzzle


@pytest.mark.parametrize("backend", available())
def test_signs_count_what_the_rules_text_means(backend: str) -> None:
    puzzle = read(data(*(s for s, _ in COUNTED)))
    expected = sum(1 for g in all_4x4() if signs_hold(g))
    assert 0 < expected < 288
    result = get_backend(backend).solve(puzzle, limit=400)
    assert result.exhausted and result.count == expected


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        (SIGNS[-1][0], "the sign points along the border, at neither cell"),
        (sign(["R1C1", "R1C2"], ">", 45), "turned by a multiple of 90 degrees"),
        (sign(["R1C1", "R1C2"], "x"), "needs the sign < or > in the mark, not 'x'"),
        (sign(["R1C1", "R1C2", "R2C1", "R2C2"], ">"), "on the border of two cells"),
    ],
)
def test_signs_that_cannot_be_read_are_refused(shape: dict[str, Any], message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        read(data(shape))


def test_sudokupad_signs_read_unturned_and_refuse_a_turn() -> None:
    mark = {"width": 0.4, "height": 0.4, "backgroundColor": "#FFFFFF", "rounded": True}
    pad = {"cells": [[{} for _ in range(4)] for _ in range(4)]}
    spec = (parse_cell_type("fff=greaterthan"),)
    found, _ = fpuzzles_data(
        {**pad, "overlays": [{**mark, "center": [0.5, 1], "text": "<"}]}, cells=spec
    )
    assert found["greaterthan"] == [{"cells": ["R1C2", "R1C1"]}]
    turned = {**mark, "center": [0.5, 1], "text": "<", "angle": 90}
    with pytest.raises(PuzzleError, match="turned by a multiple of 90"):
        fpuzzles_data({**pad, "overlays": [turned]}, cells=spec)


@pytest.mark.slow
def test_greater_than_solves_to_its_stored_solution() -> None:
    """ "Some inequality signs (<) appear in the grid": 30 white circles holding < or >, 14
    of them turned by 90 or -90 degrees."""
    entry = nickleaton("2jzb7r5v")
    result = get_backend("sat").solve(read(json.dumps(entry)), limit=2)
    assert result.status.value == "unique" and result.solution is not None
    assert list(result.solution.values) == entry["solution"]
