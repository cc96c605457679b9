"""The `frame` rule and `--outside TYPE`: numbers written as plain text beside the grid.

Frame clues are checked against brute force (an independent predicate over every 4×4 grid and
the 6×6 grids with a fixed first row, where a row's clue sums three cells and a column's two);
the reading against the same clues written as f-puzzles text and as SudokuPad text overlays,
and against a published frame puzzle with its published solution.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_text
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule
from tests.test_rule_meanings import ROW_6
from tests.test_rules import Rows, all_4x4, all_6x6_first_row

DATA = Path(__file__).parent / "data"
# Frame clues read off known grids: (side, index, clue); a row's clue sums the nearest box's
# width of cells (3 on 6x6), a column's its height (2).
SOLUTION_4 = ((1, 2, 3, 4), (3, 4, 1, 2), (2, 1, 4, 3), (4, 3, 2, 1))
CLUES_4 = (("left", 0, 3), ("top", 2, 4), ("right", 3, 3))
R6 = ((1, 2, 3, 4, 5, 6), (5, 6, 4, 1, 2, 3), (3, 5, 1, 6, 4, 2))
CLUES_6 = (("left", 1, 15), ("bottom", 0, 7), ("top", 3, 5), ("right", 2, 12), ("top", 5, 9))


def seen(g: Rows, side: str, index: int) -> list[int]:
    """A row or column read from `side`, nearest cell first (written apart from the rule)."""
    line = list(g[index]) if side in ("left", "right") else [row[index] for row in g]
    return line[::-1] if side in ("right", "bottom") else line


def frame_holds(g: Rows, clues: tuple[tuple[str, int, int], ...], rows: int, cols: int) -> bool:
    return all(
        sum(seen(g, side, i)[: cols if side in ("left", "right") else rows]) == clue
        for side, i, clue in clues
    )


def spec_of(clues: tuple[tuple[str, int, int], ...], n: int) -> dict[str, object]:
    spec: dict[str, object] = {"type": "frame"}
    for side, index, clue in clues:
        row = spec.setdefault(side, [0] * n)
        assert isinstance(row, list)
        row[index] = clue
    return spec


@cache
def expected(n: int) -> int:
    if n == 4:
        return sum(1 for g in all_4x4() if frame_holds(g, CLUES_4, 2, 2))
    return sum(1 for g in all_6x6_first_row() if frame_holds(g, CLUES_6, 2, 3))


def puzzle(n: int) -> Puzzle:
    shape = Shape(2, 2) if n == 4 else Shape(2, 3)
    clues = CLUES_4 if n == 4 else CLUES_6
    first = () if n == 4 else ROW_6
    givens = Grid(n, tuple(first) + (0,) * (n * n - len(first)))
    return Puzzle(shape, givens, (make_rule(spec_of(clues, n), shape),))


@pytest.mark.parametrize(
    ("n", "backend"),
    [
        (4, "sat"),
        (4, "bitmask"),
        (4, "cpsat"),
        pytest.param(4, "mip", marks=pytest.mark.slow),
        (6, "sat"),
        pytest.param(6, "bitmask", marks=pytest.mark.slow),
        pytest.param(6, "cpsat", marks=pytest.mark.slow),
    ],
)
def test_frame_counts_as_brute_force(n: int, backend: str) -> None:
    want = expected(n)
    assert 1 <= want < (288 if n == 4 else 39_168)
    result = get_backend(backend).solve(puzzle(n), limit=400)
    assert result.exhausted and result.count == want


def test_the_clues_hold_in_the_grids_they_were_read_from() -> None:
    """The oracle itself: the 4×4 solution keeps its clues, a 6×6 row's clue sums 3 cells."""
    assert frame_holds(SOLUTION_4, CLUES_4, 2, 2)
    assert sum(seen(R6, "left", 1)[:3]) == 15 and sum(seen(R6, "top", 3)[:2]) == 5


def test_frame_needs_regular_boxes() -> None:
    jigsaw = Shape.jigsaw(["1122", "1122", "3344", "3344"])
    with pytest.raises(PuzzleError, match="frame needs regular boxes"):
        make_rule({"type": "frame", "left": [3, 0, 0, 0]}, jigsaw)


def fpuzzles_text(clues: tuple[tuple[str, int, int], ...], n: int) -> list[dict[str, object]]:
    """The clues as f-puzzles text beside the grid (R0Cc above column c, RrC0 left of row r)."""
    out: list[dict[str, object]] = []
    for side, index, clue in clues:
        r, c = {
            "left": (index + 1, 0),
            "right": (index + 1, n + 1),
            "top": (0, index + 1),
            "bottom": (n + 1, index + 1),
        }[side]
        out.append({"cells": [f"R{r}C{c}"], "value": str(clue), "fontC": "#000000", "size": 0.5})
    return out


def fpuzzles_json(text: list[dict[str, object]]) -> str:
    grid = [[{} for _ in range(4)] for _ in range(4)]
    return json.dumps({"size": 4, "grid": grid, "text": text})


def test_fpuzzles_text_beside_the_grid_reads_as_frame_clues() -> None:
    data = fpuzzles_json(fpuzzles_text(CLUES_4, 4))
    with pytest.raises(PuzzleError, match=r"text '3' on r1c0\); .*add --outside TYPE \(frame,"):
        read_text(data)
    (read,) = read_text(data, outside="frame")
    assert [rule.to_spec() for rule in read.rules] == [spec_of(CLUES_4, 4)]
    assert get_backend("sat").solve(read, limit=400).count == expected(4)


@pytest.mark.parametrize(
    ("cell", "value"),
    [("R0C0", "3"), ("R2C2", "3"), ("R0C2", "?"), ("R0C2", "3.5"), ("R5C2", "-3")],
)
def test_other_text_stays_a_drawing_under_outside(cell: str, value: str) -> None:
    """A corner, a cell of the grid, or a text that is no whole number is no clue: still
    refused, never read as something else."""
    text = [*fpuzzles_text(CLUES_4, 4), {"cells": [cell], "value": value}]
    with pytest.raises(PuzzleError, match=r"drawings whose meaning is in the rules text: text ×1"):
        read_text(fpuzzles_json(text), outside="frame")


def sudokupad_json(clues: tuple[tuple[str, int, int], ...], n: int) -> str:
    """SudokuPad's own JSON: the clues as text overlays centred on the ring of clue cells."""
    overlays = []
    for side, index, clue in clues:
        r, c = {
            "left": (index, -1),
            "right": (index, n),
            "top": (-1, index),
            "bottom": (n, index),
        }[side]
        overlays.append(
            {"center": [r + 0.5, c + 0.5], "width": 0.8, "height": 0.8, "text": str(clue)}
        )
    cells = [[{} for _ in range(n)] for _ in range(n)]
    regions = [[[r + dr, c + dc] for dr in (0, 1) for dc in (0, 1)] for r in (0, 2) for c in (0, 2)]
    return json.dumps({"cells": cells, "regions": regions, "overlays": overlays})


def test_sudokupad_text_beside_the_grid_reads_as_frame_clues() -> None:
    data = sudokupad_json(CLUES_4, 4)
    with pytest.raises(PuzzleError, match="add --outside TYPE"):
        read_text(data)
    (read,) = read_text(data, outside="frame")
    assert [rule.to_spec() for rule in read.rules] == [spec_of(CLUES_4, 4)]
    assert get_backend("sat").solve(read, limit=400).count == expected(4)


def test_a_published_frame_puzzle_solves_to_its_published_solution(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """clover!'s "Frame" (f-puzzles, via Nickleaton/sudoku, MIT): "Clues outside of the grid
    give the sum of the first three digits seen in that row or column"; 12 clues, 9 givens."""
    path = DATA / "fpuzzles-frame-clover.json"
    entry = json.loads(path.read_text())
    data = json.dumps({k: v for k, v in entry.items() if k != "solution"})
    (read,) = read_text(data, outside="frame")
    result = get_backend("sat").solve(read, limit=2)
    assert result.status.value == "unique" and result.solution is not None
    assert list(result.solution.values) == entry["solution"]
    assert main(["solve", str(path), "--outside", "frame", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "unique"


@pytest.mark.parametrize(
    ("kind", "cells"),
    [("sandwich", ("R1C0", "R1C5")), ("frame", ("R1C0", "R1C0")), ("xsum", ("R0C2", "R0C2"))],
)
def test_two_different_clues_for_one_line_are_refused(kind: str, cells: tuple[str, str]) -> None:
    """A sandwich reads the same from both ends, and one cell holds one clue: two different
    numbers there are refused, not one of them kept."""
    text = [{"cells": [cells[0]], "value": "3"}, {"cells": [cells[1]], "value": "2"}]
    with pytest.raises(PuzzleError, match="two (sandwich )?clues .*3 and 2"):
        read_text(fpuzzles_json(text), outside=kind)


def test_the_users_word_wins_over_the_converters_sandwich_style() -> None:
    """SudokuPad's f-puzzles converter draws sandwich totals in one style, read as sandwiches;
    when the user says numbers beside the grid are frame clues, that style is theirs."""
    styled = json.loads(sudokupad_json(CLUES_4[:1], 4))
    styled["overlays"][0].update(
        {"backgroundColor": "#FFFFFF", "borderColor": "#FFFFFF", "fontSize": 32, "rounded": False}
    )
    styled["overlays"][0].update({"width": 0.25, "height": 0.25})
    (sandwich,) = read_text(json.dumps(styled))
    assert [rule.type for rule in sandwich.rules] == ["sandwich"]
    (frame,) = read_text(json.dumps(styled), outside="frame")
    assert [rule.to_spec() for rule in frame.rules] == [spec_of(CLUES_4[:1], 4)]
