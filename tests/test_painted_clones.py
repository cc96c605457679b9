"""`--paint RRGGBB=clone` ("blue regions are clones, and must contain the same digits in the
same relative positions"): f-puzzles painted cells read as clones, counted on every backend
against a predicate written here over every 4×4 grid (288) and every 6×6 grid with the first
row 123456 (39,168)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.painted import parse_paint_type, regions
from tests.mirrors import nickleaton
from tests.test_rules import Rows, all_4x4, all_6x6_first_row

BLUE = "#D0D0FF"


def painted(size: int, first_row: str, cells: dict[tuple[int, int], str]) -> str:
    grid = [
        [
            {
                **({"value": int(first_row[c]), "given": True} if r == 0 and first_row else {}),
                **({"c": cells[(r, c)]} if (r, c) in cells else {}),
            }
            for c in range(size)
        ]
        for r in range(size)
    ]
    return json.dumps({"size": size, "grid": grid})


# Two blue dominoes (in different boxes, rows and columns), and two Ls of three in 6x6.
DOMINOES = [[(0, 0), (1, 0)], [(2, 1), (3, 1)]]
ELLS = [[(1, 0), (2, 0), (2, 1)], [(3, 3), (4, 3), (4, 4)]]


def clones(groups: list[list[tuple[int, int]]]) -> Any:
    def holds(g: Rows) -> bool:
        first = [g[r][c] for r, c in groups[0]]
        return all([g[r][c] for r, c in other] == first for other in groups[1:])

    return holds


CASES = {
    "4x4": (painted(4, "", {cell: BLUE for g in DOMINOES for cell in g}), all_4x4, DOMINOES),
    "6x6": (
        painted(6, "123456", {cell: BLUE for g in ELLS for cell in g}),
        all_6x6_first_row,
        ELLS,
    ),
}


@pytest.mark.parametrize("backend", available())
@pytest.mark.parametrize("case", CASES)
def test_painted_clones_count_what_the_rules_text_means(case: str, backend: str) -> None:
    data, grids, groups = CASES[case]
    (puzzle,) = read_text(data, paints=[parse_paint_type("d0d0ff=clone")])
    assert [rule.type for rule in puzzle.rules] == ["clone"]
    expected = sum(1 for g in grids() if clones(groups)(g))
    assert 0 < expected < len(grids())
    result = get_backend(backend).solve(puzzle, limit=500)
    assert result.exhausted and result.count == expected


def test_regions_are_orthogonally_connected_groups() -> None:
    cells = {(0, 0), (0, 1), (1, 1), (3, 3), (2, 2)}
    assert regions(cells) == [[(0, 0), (0, 1), (1, 1)], [(2, 2)], [(3, 3)]]


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ({(0, 0): BLUE, (0, 1): BLUE}, "1 region painted so; clones need two or more"),
        (
            {(0, 0): BLUE, (0, 1): BLUE, (2, 2): BLUE, (3, 2): BLUE},
            "the region at r3c3 has another shape than the one at r1c1",
        ),
    ],
)
def test_paint_that_cannot_be_clones_is_refused(
    cells: dict[tuple[int, int], str], message: str
) -> None:
    with pytest.raises(PuzzleError, match=message):
        read_text(painted(4, "", cells), paints=[parse_paint_type("d0d0ff=clone")])
    with pytest.raises(PuzzleError, match="cell colour"):
        read_text(painted(4, "", cells))  # untyped: still refused for its painted cells


def test_paint_option_parses_and_reaches_the_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError, match="not RRGGBB=TYPE"):
        parse_paint_type("blue=clone")
    with pytest.raises(ValueError, match="is not one of clone"):
        parse_paint_type("d0d0ff=magic")
    path = tmp_path / "clones.json"
    path.write_text(CASES["4x4"][0])
    assert main(["count", str(path), "--paint", "#d0d0ff=clone"]) == 0
    expected = sum(1 for g in all_4x4() if clones(DOMINOES)(g))
    assert capsys.readouterr().out.split() == [str(expected)]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "colour"), [("yz9ry7vd", "d0d0ff"), ("y5chq7ad", "ffe060")])
def test_published_clone_puzzles_have_one_solution(name: str, colour: str) -> None:
    """ "Return of the Clones" (with thermometers) and "X-23" (with X marks), Nickleaton/sudoku
    (MIT; no stored solution): unique, and the grid keeps the clones as the predicate reads."""
    entry = nickleaton(name)
    (puzzle,) = read_text(json.dumps(entry), paints=[parse_paint_type(f"{colour}=clone")])
    result = get_backend("sat").solve(puzzle, limit=2)
    assert result.status.value == "unique" and result.solution is not None
    values = result.solution.values
    rows = tuple(tuple(values[9 * r : 9 * r + 9]) for r in range(9))
    found = regions(
        {
            (r, c)
            for r, row in enumerate(entry["grid"])
            for c, cell in enumerate(row)
            if str(cell.get("c", "")).upper() == f"#{colour.upper()}"
        }
    )
    assert len(found) >= 2 and clones(found)(rows)
