"""A line too long for its rule is a verdict, not an input error.

A 10-cell thermometer or renban, or a 6-cell nabner line, on a 9x9 board cannot be
satisfied, as a killer cage of 2 cells summing to 30 cannot. Such a puzzle is well formed (the
sites that draw these lines accept it) and has no solution: every backend says
`unsatisfiable`, and the certificates of both proof paths check.
"""

from __future__ import annotations

import pytest

from satsudoku.backends import get_backend
from satsudoku.grid import Shape
from satsudoku.proof.certificate import check_certificate, make_certificate
from satsudoku.proof.search_proof import prove_by_search
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule

ROW = [f"r1c{c}" for c in range(1, 10)] + ["r2c9"]  # ten cells
LINES = {
    "thermometer": ROW,
    "renban": ROW,
    "nabner": [f"r{r}c1" for r in range(1, 7)],  # six: at most five digits 2 apart in 1..9
}


def impossible(kind: str) -> Puzzle:
    shape = Shape(3, 3)
    return Puzzle.empty(shape, [make_rule({"type": kind, "lines": [LINES[kind]]}, shape)])


# MIP on the nabner line (0.66 s of CPU) under -m slow: MIP keeps renban and thermometer, the
# nabner line keeps the other three backends.
@pytest.mark.parametrize(
    ("backend", "kind"),
    [
        pytest.param(
            backend,
            kind,
            marks=[pytest.mark.slow] if (backend, kind) == ("mip", "nabner") else [],
            id=f"{backend}-{kind}",
        )
        for backend in ["sat", "cpsat", "bitmask", "mip"]
        for kind in sorted(LINES)
    ],
)
def test_a_line_too_long_for_its_rule_is_unsatisfiable(kind: str, backend: str) -> None:
    result = get_backend(backend).solve(impossible(kind), limit=2)
    assert result.status is Status.UNSATISFIABLE, (kind, backend, result.status)


@pytest.mark.parametrize("kind", sorted(LINES))
def test_its_unsatisfiability_is_certified(kind: str) -> None:
    puzzle = impossible(kind)
    assert check_certificate(make_certificate(puzzle, [])).ok
    searched = prove_by_search(puzzle)
    assert searched.status == "unsatisfiable" and searched.certificate is not None
    assert check_certificate(searched.certificate).ok


def test_one_cell_shorter_they_have_solutions() -> None:
    shape = Shape(3, 3)
    for kind, line in LINES.items():
        rule = make_rule({"type": kind, "lines": [line[:-1]]}, shape)
        puzzle = Puzzle.empty(shape, [rule])
        assert get_backend("sat").solve(puzzle, limit=2).status is Status.MULTIPLE, kind
