"""A hostile document may draw one mark many times. It holds one constraint, and costs one:
60,000 copies of a few hundred kropki dots (1.8 MB) built a 1.9 GB formula and died in a
MemoryError traceback; 60,000 copies of f-puzzles cages took 17 s to group. The verdict
never changes, since stating a constraint twice says nothing more."""

from __future__ import annotations

import json
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.io import read_text
from satsudoku.puzzle import Puzzle


def _fpuzzles(**keys: Any) -> str:
    return json.dumps({"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)], **keys})


DOTS = [{"cells": ["R1C1", "R1C2"]}, {"cells": ["R2C3", "R3C3"]}]
CAGES = [{"cells": ["R1C1", "R1C2"], "value": "5"}, {"cells": ["R1C2", "R2C3"], "value": "5"}]


def _read(**keys: Any) -> Puzzle:
    (puzzle,) = read_text(_fpuzzles(**keys), fmt="fpuzzles")
    return puzzle


@pytest.mark.parametrize("key, marks", [("difference", DOTS), ("killercage", CAGES)])
def test_a_mark_drawn_many_times_is_one_constraint(key: str, marks: list[Any]) -> None:
    once, many = _read(**{key: marks}), _read(**{key: marks * 5000})
    assert len(list(many.constraints())) == len(list(once.constraints()))


@pytest.mark.parametrize("backend", ["sat", "bitmask", "cpsat"])
@pytest.mark.parametrize("key, marks", [("difference", DOTS), ("killercage", CAGES)])
def test_repeats_count_as_the_marks_drawn_once(key: str, marks: list[Any], backend: str) -> None:
    """The count drawn once and drawn 50 times is the brute-force count over the 288 grids (the
    two dots: 96; the two overlapping cages of 5: 48)."""
    expected = _oracle(key, marks)
    assert expected == {"difference": 96, "killercage": 48}[key]
    for puzzle in (_read(**{key: marks}), _read(**{key: marks * 50})):
        result = get_backend(backend).solve(puzzle, limit=300)
        assert result.exhausted and result.count == expected


def _oracle(key: str, marks: list[Any]) -> int:
    from tests.test_rules import all_4x4

    def at(grid: Any, cell: str) -> int:
        return int(grid[int(cell[1]) - 1][int(cell[3]) - 1])

    count = 0
    for grid in all_4x4():
        if key == "difference":
            ok = all(abs(at(grid, m["cells"][0]) - at(grid, m["cells"][1])) == 1 for m in marks)
        else:
            ok = all(
                sum(at(grid, c) for c in m["cells"]) == int(m["value"])
                and len({at(grid, c) for c in m["cells"]}) == len(m["cells"])
                for m in marks
            )
        count += ok
    return count
