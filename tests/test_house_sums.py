"""Sums that contain whole houses: the SAT encoding folds the houses' totals into the sum's
(`encoders.house_sums`), and so do CP-SAT's and MIP's linear sums. Counted against brute force
over the grids on 4x4 and 6x6 by sat (extended and reduced), cpsat (Boolean and integer
models), mip and bitmask (which keeps the sums as stated), with predicates written here from
the rules' meaning."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import available, get_backend, unsupported
from satsudoku.constraints import AllDifferent, Sum
from satsudoku.encoders.cnf import Encoding, encode_puzzle
from satsudoku.encoders.house_sums import fold_houses, folded_constraints
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule
from tests.test_differential_oracle import SHAPES, all_grids, grids

REAL = Path(__file__).resolve().parent.parent / "models" / "variants" / "real"
IBET = REAL / "i-bet-someone-did-this-already.json"
# (backend, options): every model that folds, and bitmask, which does not
BACKENDS = [
    ("sat", {}),
    ("sat", {"encoding": Encoding.REDUCED}),
    ("cpsat", {"model": "boolean"}),
    ("cpsat", {"model": "integer"}),
    ("bitmask", {}),
]

Pos = tuple[int, int]
Rows = tuple[tuple[int, ...], ...]


def nine_houses() -> list[frozenset[int]]:
    rows = [frozenset(r * 9 + c for c in range(9)) for r in range(9)]
    cols = [frozenset(r * 9 + c for r in range(9)) for c in range(9)]
    boxes = [
        frozenset((br + r) * 9 + bc + c for r in range(3) for c in range(3))
        for br in (0, 3, 6)
        for bc in (0, 3, 6)
    ]
    return rows + cols + boxes


def test_a_pill_over_the_rest_of_the_grid_folds_to_its_own_three_cells() -> None:
    # i-bet-someone-did-this-already: 100a + 10b + c - (the other 78 cells) = 0. Eight whole
    # rows (or boxes) fold in at -1 each; then row 1 holds the pill and six -1 cells.
    shaft = list(range(3, 81))
    cells, weights, total = fold_houses(
        [0, 1, 2, *shaft], [100, 10, 1, *([-1] * 78)], 0, nine_houses(), 9
    )
    assert (cells, weights, total) == ((0, 1, 2), (101, 11, 2), 405)


def test_a_sum_without_a_whole_house_is_left_as_stated() -> None:
    houses = nine_houses()
    row_but_one = [0, 1, 2, 3, 4, 5, 6, 7, 9, 9]  # r1c9 missing; r2c1 twice
    weights = [1] * 10
    assert fold_houses(row_but_one, weights, 50, houses, 9) == (
        tuple(row_but_one),
        tuple(weights),
        50,
    )


def test_mixed_weights_fold_by_their_commonest_weight() -> None:
    # Row 1 with weights 2 (five cells) and 3 (four): 2 * 45 leaves the four at weight 1.
    weights = [2, 3, 2, 3, 2, 3, 2, 3, 2, 7]
    cells, folded, total = fold_houses(list(range(10)), weights, 200, nine_houses(), 9)
    assert (cells, folded, total) == ((1, 3, 5, 7, 9), (1, 1, 1, 1, 7), 110)


def test_cp_sat_and_mip_post_a_folded_sum_and_its_distinct_pairs_apart() -> None:
    shape = Shape(2, 2)
    row = tuple((0, c) for c in range(4))
    houses = [AllDifferent(row), AllDifferent(((1, 0), (1, 1), (1, 2), (1, 3)))]
    arrow = Sum(((1, 0), (1, 1), *row, (2, 0)), 0, (10, 1, -1, -1, -1, -1, -1), ((0, 6),))
    other = Sum(((2, 0), (3, 0)), 5)  # no house inside: kept as it is
    folded = folded_constraints([*houses, arrow, other], shape.size)
    assert folded == [
        *houses,
        AllDifferent(((1, 0), (2, 0))),
        Sum(((1, 0), (1, 1), (2, 0)), 10, (10, 1, -1)),
        other,
    ]


def names(cells: Sequence[Pos]) -> list[str]:
    return [f"r{r + 1}c{c + 1}" for r, c in cells]


def value(g: Rows, cells: Sequence[Pos]) -> list[int]:
    return [g[r][c] for r, c in cells]


Case = tuple[int, list[dict[str, Any]], dict[Pos, int], Callable[[Rows], bool]]


def case_arrow_over_a_row(n: int) -> Case:
    """A 2-cell pill in row 2 whose shaft is all of row 1 and one more cell (10a + b)."""
    row = [(0, c) for c in range(n)]
    bulb, extra = [(1, 0), (1, 1)], (2, 0)
    spec = {"type": "arrow", "arrows": [{"bulb": names(bulb), "shaft": names([*row, extra])}]}

    def holds(g: Rows) -> bool:
        a, b = value(g, bulb)
        return 10 * a + b == sum(value(g, [*row, extra]))

    return n, [spec], {}, holds


def case_little_killer_over_a_box_and_a_column(n: int) -> Case:
    """A clue over box 1, all of the last column and two cells of row br+1 (a row's two
    first cells, in one box): the houses overlap nothing and those two must add up to 5."""
    br, bc = SHAPES[n]
    box = [(r, c) for r in range(br) for c in range(bc)]
    column = [(r, n - 1) for r in range(n)]
    cells = [*box, *column, (br, 0), (br, 1)]
    total = n * (n + 1) + 5

    def holds(g: Rows) -> bool:
        return sum(value(g, cells)) == total

    spec = {"type": "littlekiller", "clues": [{"cells": names(cells), "sum": total}]}
    return n, [spec], {}, holds


def case_unsatisfiable_pill(n: int) -> Case:
    """A 2-cell pill equal to a whole row: 10a + b = n(n+1)/2 — unsatisfiable on 4x4 (10),
    satisfiable on 6x6 (21: a=2, b=1)."""
    row = [(0, c) for c in range(n)]
    bulb = [(1, 0), (1, 1)]
    spec = {"type": "arrow", "arrows": [{"bulb": names(bulb), "shaft": names(row)}]}

    def holds(g: Rows) -> bool:
        a, b = value(g, bulb)
        return 10 * a + b == sum(value(g, row))

    return n, [spec], {}, holds


CASES = {
    "arrow-over-a-row": case_arrow_over_a_row,
    "little-killer-over-a-box-and-a-column": case_little_killer_over_a_box_and_a_column,
    "pill-equal-to-a-row": case_unsatisfiable_pill,
}


def puzzle_of(n: int, specs: list[dict[str, Any]], givens: dict[Pos, int]) -> Puzzle:
    shape = Shape(*SHAPES[n])
    values = [0] * (n * n)
    for (r, c), d in givens.items():
        values[r * n + c] = d
    return Puzzle(shape, Grid(n, tuple(values)), tuple(make_rule(s, shape) for s in specs))


# 6x6: the last row and two cells above it given, leaving few enough grids to enumerate
SIX_GIVENS = {**{(5, c): c + 1 for c in range(6)}, (4, 0): 4, (4, 1): 5}


def candidates(n: int, givens: dict[Pos, int]) -> list[Rows]:
    if n == 4:
        return [g for g in all_grids(4) if all(g[r][c] == d for (r, c), d in givens.items())]
    found = grids(n, givens, 20_000)
    assert found is not None
    return found


@pytest.mark.parametrize("n", [4, pytest.param(6, marks=pytest.mark.slow)])  # 6x6: ~1 s each
@pytest.mark.parametrize("name", sorted(CASES))
def test_sums_over_whole_houses_count_as_brute_force(name: str, n: int) -> None:
    size, specs, givens, holds = CASES[name](n)
    if n == 6:
        givens = {**givens, **SIX_GIVENS}
    puzzle = puzzle_of(size, specs, givens)
    want = sum(1 for g in candidates(n, givens) if holds(g))
    formula = encode_puzzle(puzzle)
    stated = sum(len(rule_cells) for rule_cells in _sum_cells(specs))
    layers = sum(len(s.cells) for s in formula.sums)  # 0: no digits fit, a contradiction
    assert layers < stated and (layers or not want)  # the houses folded into the totals
    for backend_name, options in BACKENDS:
        backend = get_backend(backend_name, **options)
        if unsupported(backend, puzzle):
            continue
        result = backend.solve(puzzle, limit=want + 1)
        where = f"{name} {n}x{n} {backend_name} {options}"
        assert result.count == want, f"{where}: {result.count} != {want}"


@pytest.mark.slow  # ~1 s a case; counting them all took mip minutes (a cut per solution)
@pytest.mark.parametrize("name", sorted(CASES))
def test_mip_settles_sums_over_whole_houses_as_brute_force(name: str) -> None:
    if "mip" not in available(partial=True):
        pytest.skip("no MIP solver installed")
    size, specs, givens, holds = CASES[name](4)
    puzzle = puzzle_of(size, specs, givens)
    want = sum(1 for g in candidates(4, givens) if holds(g))
    result = get_backend("mip").solve(puzzle, limit=1)
    assert len(result.solutions) == min(want, 1)
    if not want:
        assert result.count == 0  # exhausted: unsatisfiable
    assert all(holds(tuple(grid.rows())) for grid in result.solutions)


def _sum_cells(specs: list[dict[str, Any]]) -> list[list[str]]:
    out: list[list[str]] = []
    for spec in specs:
        for arrow in spec.get("arrows", []):
            out.append([*arrow["bulb"], *arrow["shaft"]])
        for clue in spec.get("clues", []):
            out.append(clue["cells"])
    return out


def test_the_pill_over_the_rest_of_the_grid_is_a_three_cell_sum() -> None:
    (puzzle,) = read_puzzles(IBET)
    formula = encode_puzzle(puzzle)
    assert [len(s.cells) for s in formula.sums] == [3]  # 81 terms before: 317,012 clauses
    assert len(formula.clauses) < 25_000
    result = get_backend("sat").solve(puzzle, limit=2)
    assert result.count == 1 and result.solutions[0] == puzzle.solution
    # its bitmask proof: tests/test_proof_fixed_costs.py (slow)
