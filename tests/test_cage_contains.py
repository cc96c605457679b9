"""`--cage contains` ("Zone Sudoku": the digits written in a cage's corner appear in that cage,
at least as often as written), counted on every backend against a predicate written here over
every 4×4 grid (288), on f-puzzles cages and SudokuPad cages alike."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.sudokupad import fpuzzles_data
from tests.mirrors import nickleaton
from tests.test_rules import Rows, all_4x4, v

# A 1 twice across the centre (diagonal), 34 in an L over two boxes, a 2 in a domino.
CAGES = {
    ("R2C2", "R2C3", "R3C2", "R3C3"): "11",
    ("R1C1", "R2C1", "R3C1"): "43",
    ("R4C3", "R4C4"): "2",
}


def data(cages: dict[tuple[str, ...], str]) -> str:
    drawn = [
        {"cells": list(cells), "outlineC": "#000000", "value": v} for cells, v in cages.items()
    ]
    return json.dumps(
        {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)], "cage": drawn}
    )


def zones(g: Rows) -> bool:
    return all(
        not Counter(int(d) for d in value) - Counter(v(g, c.lower()) for c in cells)
        for cells, value in CAGES.items()
    )


@pytest.mark.parametrize("backend", available())
def test_cage_digits_count_what_the_rules_text_means(backend: str) -> None:
    (puzzle,) = read_text(data(CAGES), cage="contains")
    assert [rule.type for rule in puzzle.rules] == ["quadruple"]
    expected = sum(1 for g in all_4x4() if zones(g))
    assert 0 < expected < 288
    result = get_backend(backend).solve(puzzle, limit=400)
    assert result.exhausted and result.count == expected


def test_untyped_or_unreadable_cages_are_refused() -> None:
    with pytest.raises(
        PuzzleError, match=r"if the rules text says what such cages are, add --cage"
    ):
        read_text(data(CAGES))
    with pytest.raises(PuzzleError, match="--cage contains needs 1..2 digits of 1..4"):
        read_text(data({("R1C1", "R1C2"): "123"}), cage="contains")
    with pytest.raises(PuzzleError, match="--cage contains needs 1..2 digits"):
        read_text(data({("R1C1", "R1C2"): "x"}), cage="contains")


def test_sudokupad_cages_with_text_read_the_same() -> None:
    """A SudokuPad cage's `value` under --cage contains: a quadruple, before any killer reading
    (the user's word wins over `unique` and a whole-number text)."""
    cells = [[1, 1], [1, 2], [2, 1], [2, 2]]
    pad = {
        "cells": [[{} for _ in range(4)] for _ in range(4)],
        "cages": [{"cells": cells, "value": "11", "unique": True}],
    }
    data_read, drawings = fpuzzles_data(pad, cage="contains")
    assert data_read["quadruple"] == [{"cells": ["R2C2", "R2C3", "R3C2", "R3C3"], "values": [1, 1]}]
    assert drawings == {} and not data_read.get("killercage")
    killer, _ = fpuzzles_data(pad)
    assert killer["killercage"] == [{"cells": ["R2C2", "R2C3", "R3C2", "R3C3"], "value": "11"}]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["2byrv3ab", "2h8343gr", "2qh6vn5a"])
def test_published_zone_puzzles_solve_to_their_published_solution(name: str) -> None:
    """Nickleaton/sudoku's "Zones Sudoku" and two "Zone Sudoku"s (MIT): "the small digits in the
    top left corner of each cage must appear somewhere within that cage"."""
    entry = nickleaton(name)
    (puzzle,) = read_text(json.dumps(entry), cage="contains")
    result = get_backend("sat").solve(puzzle, limit=2)
    assert result.status.value == "unique" and result.solution is not None
    assert list(result.solution.values) == entry["solution"]


def test_the_cli_takes_cage_contains(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "zones.json"
    path.write_text(data(CAGES))
    assert main(["count", str(path), "--cage", "contains"]) == 0
    assert capsys.readouterr().out.split() == [str(sum(1 for g in all_4x4() if zones(g)))]
    assert main(["solve", str(path)]) == 1
    assert "add --cage TYPE (contains)" in capsys.readouterr().err
