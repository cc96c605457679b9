"""The vocabulary: checks are safe on partial boards, decompositions mean the same thing,
and the verifier rejects every kind of wrong grid."""

from __future__ import annotations

import itertools

from satsudoku.constraints import AllDifferent, Allowed, Less, Table, lower
from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.rules.classic import Diagonal
from satsudoku.verify import violations
from tests.conftest import grid_from_line

SHAPE = Shape(2, 2)
SOLVED_4X4 = grid_from_line("1234341221434321")


def test_all_different_is_safe_on_partial_assignments() -> None:
    c = AllDifferent(((0, 0), (0, 1), (0, 2)))
    assert c.check({}) and c.check({(0, 0): 1}) and c.check({(0, 0): 1, (0, 2): 2})
    assert not c.check({(0, 0): 1, (0, 2): 1})


def test_allowed_and_table_checks() -> None:
    assert Allowed((1, 1), frozenset({2, 4})).check({(1, 1): 4})
    assert not Allowed((1, 1), frozenset({2, 4})).check({(1, 1): 3})
    table = Table(((0, 0), (0, 1)), frozenset({(1, 2), (3, 4)}))
    assert table.check({(0, 0): 3}) and not table.check({(0, 0): 2})
    assert not table.check({(0, 0): 1, (0, 1): 4})


def test_less_decomposes_to_an_equivalent_table() -> None:
    less = Less((0, 0), (0, 1))
    (table,) = less.decompose(SHAPE)
    for a, b in itertools.product(range(1, 5), repeat=2):
        values = {(0, 0): a, (0, 1): b}
        assert less.check(values) == table.check(values)
    assert lower([less], SHAPE) == [table]


def test_verifier_accepts_a_solution_and_names_each_fault() -> None:
    puzzle = Puzzle(SHAPE, grid_from_line("1..." + "." * 12))
    assert violations(puzzle, SOLVED_4X4) == []
    swapped = Grid(4, (2, 1) + SOLVED_4X4.values[2:])
    problems = violations(puzzle, swapped)
    assert any("r1c1 is 2 but the given is 1" in p for p in problems)
    assert any("repeats a digit" in p for p in problems)
    assert violations(puzzle, Grid(4, (0,) + SOLVED_4X4.values[1:])) == [
        "r1c1 holds 0, not a digit 1..4"
    ]


def test_verifier_checks_rule_constraints() -> None:
    x = Puzzle.empty(SHAPE, (Diagonal(),))
    assert any("all-different(r1c1, r2c2, r3c3, r4c4)" in p for p in violations(x, SOLVED_4X4))
