"""Real variant puzzles and facts, and the vocabulary's promise: each new kind's `decompose()`
means exactly what its `check()` says, on every assignment of its cells."""

from __future__ import annotations

import itertools

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.constraints import (
    Between,
    Constraint,
    Contains,
    DigitSets,
    Pair,
    Relation,
    Sandwich,
    Sum,
    TableTooLargeError,
    lower,
)
from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from satsudoku.rules.sums import digit_sets

SHAPE = Shape(2, 2)
A, B, C, D = (0, 0), (1, 2), (2, 1), (3, 3)
KINDS: list[Constraint] = [
    *(Pair(A, B, relation, value) for relation in Relation for value in (2, 3)),
    DigitSets((A, B, C), frozenset({frozenset({1, 2, 3}), frozenset({1, 2, 4})})),
    DigitSets((A, B, C, D), frozenset({frozenset({1, 2, 3, 4})})),
    DigitSets((A, B), frozenset({frozenset({1, 2, 3})})),  # no set fits two cells
    Sum((A, B, C), 7),
    Sum((A, B, C), 7, distinct=((0, 2),)),
    Sum((A, B, C), 0, weights=(10, -1, -1)),
    Sum((A, B, C), 0, weights=(1, -1, -1)),
    Sandwich(((0, 0), (0, 1), (0, 2), (0, 3)), 2, 1, 4),
    Sandwich(((0, 0), (0, 1), (0, 2), (0, 3)), 0, 1, 4),
    Between(A, B, C),
    Contains((A, B, C, D), (1, 1)),
    Contains((A, B, C, D), (2, 3, 4)),
]


@pytest.mark.parametrize("constraint", KINDS, ids=str)
def test_decompose_means_check(constraint: Constraint) -> None:
    core = lower([constraint], SHAPE)
    cells = constraint.cells
    agree = 0
    for digits in itertools.product(range(1, 5), repeat=len(cells)):
        values = dict(zip(cells, digits, strict=True))
        assert constraint.check(values) == all(c.check(values) for c in core), values
        agree += constraint.check(values)
    assert agree < 4 ** len(cells)  # every kind here rules something out


def test_checks_are_safe_on_partial_assignments() -> None:
    cage = DigitSets((A, B, C), frozenset({frozenset({1, 2, 3})}))
    assert cage.check({A: 1}) and not cage.check({A: 4}) and not cage.check({A: 1, B: 1})
    assert Sum((A, B), 3).check({A: 2}) and Contains((A, B, C), (1, 1)).check({A: 1})
    assert not Contains((A, B), (1, 1)).check({A: 2})
    assert Sandwich(((0, 0), (0, 1), (0, 2), (0, 3)), 2, 1, 4).check({(0, 0): 1})


def test_digit_sets_of_killer_sums() -> None:
    assert digit_sets(9, 2, 3) == {frozenset({1, 2})}
    assert digit_sets(9, 9, 45) == {frozenset(range(1, 10))}
    assert len(digit_sets(9, 3, 15)) == 8  # the 8 lines of the 3×3 magic square
    assert digit_sets(9, 4, 9) == set()
    # brute force over every subset, for every size and total
    for k in range(1, 10):
        for total in range(1, 46):
            brute = {
                frozenset(s) for s in itertools.combinations(range(1, 10), k) if sum(s) == total
            }
            assert digit_sets(9, k, total) == brute


def test_large_tables_are_refused_with_a_clear_message() -> None:
    line = tuple((r, r) for r in range(9))  # a main diagonal: repeats allowed between boxes
    with pytest.raises(TableTooLargeError, match="generic Table path"):
        Sum(line, 45).decompose(Shape(3, 3))


# The Miracle's rules on an empty grid allow exactly 72 grids: counted on every backend by
# tests/test_models.py from models/variants/miracle/miracle-rules-72.json (15-20 s on bitmask, so it
# is counted once, there).


@pytest.mark.parametrize("backend_name", available())
def test_the_miracle_two_givens_are_unique(backend_name: str) -> None:
    shape = Shape(3, 3)
    rules = tuple(
        make_rule({"type": t}, shape) for t in ("antiknight", "antiking", "nonconsecutive")
    )
    givens = [0] * 81
    givens[4 * 9 + 2], givens[5 * 9 + 6] = 1, 2  # r5c3 = 1, r6c7 = 2
    result = get_backend(backend_name).solve(Puzzle(shape, Grid(9, tuple(givens)), rules))
    assert result.status is Status.UNIQUE
    assert result.solution is not None
    assert "".join(map(str, result.solution.values[:9])) == "483726159"


@pytest.mark.parametrize("backend_name", available())
def test_four_by_four_facts(backend_name: str) -> None:
    """No 4×4 grid survives anti-king; windoku keeps 168 of 288 (counted in test_rules too)."""
    backend = get_backend(backend_name)
    king = (make_rule({"type": "antiking"}, SHAPE),)
    assert backend.solve(Puzzle.empty(SHAPE, king)).status is Status.UNSATISFIABLE
    window = (make_rule({"type": "windoku"}, SHAPE),)
    assert backend.solve(Puzzle.empty(SHAPE, window), limit=300).count == 168
