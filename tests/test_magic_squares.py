"""`--paint RRGGBB=magicsquare`: each 3×3 region painted in the colour "is a magic square: it
contains the digits 1 through 9 once each, so that the sum of each row, column, and diagonal
within the square is equal to 15". Counted on every backend against a plain backtracker and a
predicate written here from that text (a 9×9 grid with a magic square off the boxes, the square
and the cells around it left open); the published files (Nickleaton/sudoku, MIT) solve to their
stored solutions."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.painted import parse_paint_type
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from tests.mirrors import nickleaton

# A grid whose r2c2..r4c4 is a magic square (2 9 4 / 7 5 3 / 6 1 8) across four boxes.
GRID = "318962745629475381475381962261897534947523618853614279596748123782139456134256897"
SQUARE = [r * 9 + c for r in range(1, 4) for c in range(1, 4)]
BLUE = "#D0D0FF"


def completions(grid: list[int], blanks: list[int]) -> list[tuple[int, ...]]:
    """Every filling of `blanks` obeying rows, columns and boxes: plain backtracking that
    shares no code with satsudoku."""
    g, out = list(grid), []
    for i in blanks:
        g[i] = 0

    def fits(i: int, d: int) -> bool:
        r, c = divmod(i, 9)
        box = [(r // 3 * 3 + dr) * 9 + c // 3 * 3 + dc for dr in range(3) for dc in range(3)]
        seen = [g[r * 9 + j] for j in range(9)] + [g[j * 9 + c] for j in range(9)]
        return d not in seen and d not in [g[j] for j in box]

    def fill(k: int) -> None:
        if k == len(blanks):
            out.append(tuple(g))
            return
        for d in range(1, 10):
            if fits(blanks[k], d):
                g[blanks[k]] = d
                fill(k + 1)
                g[blanks[k]] = 0

    fill(0)
    return out


def magic(g: tuple[int, ...]) -> bool:
    """The rules text: the digits 1..9 once each, rows, columns and diagonals summing to 15."""
    v = [g[i] for i in SQUARE]
    lines = [v[0:3], v[3:6], v[6:9], v[0::3], v[1::3], v[2::3], [v[0], v[4], v[8]]]
    lines.append([v[2], v[4], v[6]])
    return sorted(v) == list(range(1, 10)) and all(sum(line) == 15 for line in lines)


def fpuzzles(blanks: list[int], painted: list[int] = SQUARE) -> str:
    cells: list[dict[str, Any]] = []
    for i, digit in enumerate(GRID):
        cell: dict[str, Any] = {} if i in blanks else {"value": int(digit), "given": True}
        cells.append({**cell, "c": BLUE} if i in painted else cell)
    grid = [cells[r * 9 : r * 9 + 9] for r in range(9)]
    return json.dumps({"size": 9, "grid": grid})


def read(text: str, *paints: str) -> Puzzle:
    (puzzle,) = read_text(text, paints=[parse_paint_type(p) for p in paints])
    return puzzle


def open_block(rows: int, cols: int) -> list[int]:
    return sorted(set(SQUARE) | {r * 9 + c for r in range(rows) for c in range(cols)})


@cache
def oracle(rows: int, cols: int) -> tuple[int, int]:
    """(completions, magic ones) with the top-left rows×cols block and the square open: the
    backtracking is done once for every backend's case."""
    found = completions([int(d) for d in GRID], open_block(rows, cols))
    return len(found), sum(1 for g in found if magic(g))


@pytest.mark.parametrize("backend", available())
def test_magic_squares_count_what_the_rules_text_means(backend: str) -> None:
    blanks = open_block(5, 5)
    assert oracle(5, 5) == (6, 2)
    expected = 2
    result = get_backend(backend).solve(read(fpuzzles(blanks), "d0d0ff=magicsquare"), limit=50)
    assert result.exhausted and result.count == expected


@pytest.mark.slow
@pytest.mark.parametrize("backend", available())
def test_magic_squares_count_more_openings(backend: str) -> None:
    blanks = open_block(6, 6)
    assert oracle(6, 6) == (2852, 4)
    expected = 4
    result = get_backend(backend).solve(read(fpuzzles(blanks), "d0d0ff=magicsquare"), limit=50)
    assert result.exhausted and result.count == expected


@pytest.mark.parametrize(
    ("painted", "message"),
    [
        (SQUARE[:8], r"the region at r2c2 is not a 3x3 square \(8 cells\)"),
        ([], "no cell is painted so"),
    ],
)
def test_regions_that_are_no_3x3_square_are_refused(painted: list[int], message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        read(fpuzzles(SQUARE, painted), "d0d0ff=magicsquare")


def test_other_boards_and_unread_paint_are_refused() -> None:
    with pytest.raises(PuzzleError, match="needs a 9x9 board"):
        read(json.dumps({"size": 4, "grid": [[{"c": BLUE}] * 4] * 4}), "d0d0ff=magicsquare")
    with pytest.raises(PuzzleError, match="cell colour ×9"):
        read(fpuzzles(SQUARE))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["y28hom23", "2fn77pds", "y6cxau4g"])
def test_published_magic_squares_solve(name: str) -> None:
    """Three blue squares on boxes 1, 5, 9 ("Magic Squares"); four, two of them off the boxes
    ("Benediction"; "Magic Square", its squares also outlined as cages, stores no solution)."""
    data = nickleaton(name)
    puzzle = read(
        json.dumps({k: v for k, v in data.items() if k != "solution"}), "d0d0ff=magicsquare"
    )
    result = get_backend("sat").solve(puzzle, limit=2)
    assert result.status is Status.UNIQUE and result.solution is not None
    if "solution" in data:
        assert list(result.solution.values) == data["solution"]
    else:
        again = get_backend("cpsat").solve(puzzle, limit=2)
        assert again.status is Status.UNIQUE and again.solution == result.solution
