"""read_text(ignore_drawings=True), the library's --ignore-drawings: an f-puzzles object whose
drawings only a rules text explains is read without them ("normal sudoku rules apply, and
that's it") rather than refused; and the published files whose texts call for it (or for an
existing type, benchmarks/fpuzzles_corpus_lines.txt) come out unique on every backend, on the
stored grid where the file stores one."""

from __future__ import annotations

import json
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.painted import parse_paint_type
from satsudoku.io.sudokupad_lines import parse_line_type
from tests.mirrors import assert_published_unique
from tests.test_fpuzzles import GRIDS_4X4, fp_grid

GIVENS = {(0, 0): 1, (1, 2): 3, (3, 3): 2}


def drawn_4x4() -> dict[str, Any]:
    """A 4x4 with three givens, a painted cell and a circle: neither drawing has a meaning
    the data says."""
    grid = fp_grid(4, GIVENS)
    grid[2][1]["c"] = "#FFE060"
    return {"size": 4, "grid": grid, "circle": [{"cells": ["R3C3"], "baseC": "#FFFFFF"}]}


def test_drawings_are_refused_unless_ignored() -> None:
    data = drawn_4x4()
    with pytest.raises(PuzzleError, match="drawings"):
        read_text(json.dumps(data))
    (puzzle,) = read_text(json.dumps(data), ignore_drawings=True)
    expected = sum(all(g[r][c] == v for (r, c), v in GIVENS.items()) for g in GRIDS_4X4)
    assert expected == 3
    for backend in ("bitmask", "sat", "cpsat"):
        result = get_backend(backend).solve(puzzle, limit=100)
        assert len(result.solutions) == expected, backend


def test_mark_o_lantern_is_classic() -> None:
    # 22v4qr84: "Normal sudoku rules apply. And that's it!" over 81 painted cells.
    assert_published_unique("22v4qr84", ignore_drawings=True)


def test_lockout_diamonds_are_the_lines_ends() -> None:
    # yyeyjb84: lockout lines read from their key; the 11 grey diamonds sit on their 11 ends.
    assert_published_unique("yyeyjb84", ignore_drawings=True)


def test_slow_thermometers_and_painted_clones() -> None:
    assert_published_unique("ygqa5x9w", lines=[parse_line_type("cccccc=slowthermometer")])
    paints = [parse_paint_type(f"{c}=clone") for c in ("d0d0ff", "ffe060", "60d060")]
    assert_published_unique("yghm3394", paints=paints)
