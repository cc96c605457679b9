"""`--paint RRGGBB=extraregion` ("each colored region must contain the digits 1-9 exactly once
each. (Note: the central orange region is connected diagonally!)"): counted on every backend
against a predicate written here over every 4×4 grid (288) and every 6×6 grid with the first
row 123456 (39,168); the published "Tilting at Windoku" and "Scattered" (Nickleaton/sudoku,
MIT) come out unique."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.painted import parse_paint_type
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from tests.mirrors import nickleaton
from tests.test_rules import Rows, all_4x4, all_6x6_first_row, count_6x6, v

BLUE, ORANGE = "#D0D0FF", "#FFE060"


def painted(size: int, colours: dict[str, list[str]], first_row: bool = False) -> str:
    grid: list[list[dict[str, object]]] = [[{} for _ in range(size)] for _ in range(size)]
    if first_row:
        grid[0] = [{"value": d, "given": True} for d in range(1, size + 1)]
    for colour, cells in colours.items():
        for name in cells:
            r, c = int(name[1]) - 1, int(name[3]) - 1
            grid[r][c] = {**grid[r][c], "c": colour}
    return json.dumps({"size": size, "grid": grid})


def read(text: str, *paints: str) -> Puzzle:
    (puzzle,) = read_text(text, paints=[parse_paint_type(p) for p in paints])
    return puzzle


def all_digits(*regions: list[str]) -> Callable[[Rows], bool]:
    def holds(g: Rows) -> bool:
        return all(len({v(g, c.lower()) for c in cells}) == len(cells) for cells in regions)

    return holds


# 4x4: one orange region in two diagonal pieces; 6x6: two blue 2x3 regions off the boxes and
# an orange one of three pieces.
DIAGONAL_4 = ["R2C2", "R2C3", "R3C1", "R4C4"]
BLUE_6 = [["R2C2", "R2C3", "R2C4", "R3C2", "R3C3", "R3C4"]]
BLUE_6.append(["R5C3", "R5C4", "R5C5", "R6C3", "R6C4", "R6C5"])
ORANGE_6 = ["R2C6", "R3C6", "R4C1", "R4C2", "R5C6", "R6C1"]


@pytest.mark.parametrize("backend", available())
def test_painted_regions_count_what_the_rules_text_means(backend: str) -> None:
    puzzle = read(painted(4, {ORANGE: DIAGONAL_4}), "ffe060=extraregion")
    expected = sum(1 for g in all_4x4() if all_digits(DIAGONAL_4)(g))
    assert 0 < expected < 288
    result = get_backend(backend).solve(puzzle, limit=400)
    assert result.exhausted and result.count == expected
    colours = {BLUE: BLUE_6[0] + BLUE_6[1], ORANGE: ORANGE_6}
    puzzle = read(painted(6, colours, True), "d0d0ff=extraregion", "ffe060=extraregion")
    expected = count_6x6(all_digits(*BLUE_6, ORANGE_6), key="painted-regions-6")
    assert 0 < expected < len(all_6x6_first_row())
    result = get_backend(backend).solve(puzzle, limit=20_000)
    assert result.exhausted and result.count == expected


def test_regions_of_another_size_are_refused() -> None:
    with pytest.raises(PuzzleError, match="the region at r2c2 has 2 cells, and the colour 3"):
        read(painted(4, {ORANGE: DIAGONAL_4[:3]}), "ffe060=extraregion")
    with pytest.raises(PuzzleError, match="no cell is painted so"):
        read(painted(4, {}), "ffe060=extraregion")
    with pytest.raises(PuzzleError, match="cell colour ×4"):
        read(painted(4, {ORANGE: DIAGONAL_4}))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "paints"),
    [
        ("2hkkafwc", ("d0d0ff=extraregion", "ffe060=extraregion")),
        ("yxvap36j", ("ffe060=extraregion",)),
    ],
)
def test_published_painted_regions_come_out_unique(name: str, paints: tuple[str, ...]) -> None:
    """Four blue windoku squares (outlined as cages too) and a diagonally connected orange
    region; an irregular region in pieces that the file's regions also store, painted."""
    data = nickleaton(name)
    puzzle = read(json.dumps(data), *paints)
    first = get_backend("sat").solve(puzzle, limit=2)
    again = get_backend("cpsat").solve(puzzle, limit=2)
    assert first.status is Status.UNIQUE and again.status is Status.UNIQUE
    assert first.solution == again.solution
