"""The bitmask search's native cages (`DigitSets`) and sums (`Sum`) against independent counts.

Every case is counted three ways where possible: by an oracle that filters every grid of the
board (tests/test_rules.py enumerates them without satsudoku), by the bitmask search with its
native propagation, and by the same search on the Table decompositions (`generic=True`); the
SAT and CP-SAT backends count the harder cases too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.constraints import Constraint, DigitSets, Sum, TableTooLargeError
from satsudoku.grid import Cell, Grid, Shape
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import Rule, make_rule
from satsudoku.rules.fields import distinct_positions
from satsudoku.rules.sums import digit_sets
from tests.conftest import REPO
from tests.test_rules import FIRST_ROW, Rows, all_4x4, all_6x6_first_row

native = BitmaskBackend()
generic = BitmaskBackend(generic=True)
OTHERS = [name for name in available() if name != "bitmask"]


@dataclass(frozen=True)
class Linear:
    """A test-only rule: one weighted sum with any weights (the rules only make ±1 and 10^k)."""

    type: ClassVar[str] = "linear"
    cells: tuple[Cell, ...]
    weights: tuple[int, ...]
    total: int
    distinct: tuple[tuple[int, int], ...] | None = None  # None: the pairs that share a house

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        pairs = self.distinct
        if pairs is None:
            pairs = distinct_positions(self.cells, shape)
        yield Sum(self.cells, self.total, self.weights, pairs)

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type}


def name(cell: Cell) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def value(grid: Rows, cell: Cell) -> int:
    return grid[cell[0]][cell[1]]


@dataclass
class Case:
    """Rules drawn at random from one grid, with the oracle's reading of them."""

    specs: list[dict[str, Any]]
    cages: list[tuple[tuple[Cell, ...], int]]
    sums: list[tuple[tuple[Cell, ...], tuple[int, ...], int]]  # cells, weights, total
    extra: list[Linear]

    def holds(self, grid: Rows) -> bool:
        for cells, total in self.cages:
            digits = [value(grid, c) for c in cells]
            if len(set(digits)) != len(digits) or sum(digits) != total:
                return False
        for cells, weights, total in self.sums:
            if sum(w * value(grid, c) for c, w in zip(cells, weights, strict=True)) != total:
                return False
        return True

    def rules(self, shape: Shape) -> tuple[Rule, ...]:
        return (*(make_rule(spec, shape) for spec in self.specs), *self.extra)


def diagonals(n: int) -> list[tuple[Cell, ...]]:
    """Every diagonal of at least three cells, both directions."""
    lines = []
    for k in range(-(n - 3), n - 2):
        lines.append(tuple((r, r - k) for r in range(n) if 0 <= r - k < n))
        lines.append(tuple((r, n - 1 - r + k) for r in range(n) if 0 <= n - 1 - r + k < n))
    return lines


def random_case(grid: Rows, rng: random.Random) -> Case:
    """One or two killer cages (at least one with several digit sets), and each with even odds:
    a little killer, an arrow (a two-cell bulb when the shaft's sum allows) and a weighted sum,
    all true in `grid`."""
    n = len(grid)
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    cages: list[tuple[tuple[Cell, ...], int]] = []
    used: set[Cell] = set()
    for _ in range(rng.randint(1, 2)):
        size = rng.randint(2, min(5, n - 1))
        cage: list[Cell] = []
        for cell in cells:
            if cell not in used and value(grid, cell) not in {value(grid, c) for c in cage}:
                cage.append(cell)
                if len(cage) == size:
                    break
        used.update(cage)
        cages.append((tuple(cage), sum(value(grid, c) for c in cage)))
    if all(len(digit_sets(n, len(cells), total)) < 2 for cells, total in cages):
        return random_case(grid, rng)  # every case must exercise the set choice
    specs: list[dict[str, Any]] = [
        {
            "type": "killer",
            "cages": [{"cells": [name(c) for c in cells], "sum": t} for cells, t in cages],
        }
    ]
    sums: list[tuple[tuple[Cell, ...], tuple[int, ...], int]] = []
    if rng.random() < 0.5:
        line = rng.choice([d for d in diagonals(n) if len(d) >= 4])
        total = sum(value(grid, c) for c in line)
        sums.append((line, (1,) * len(line), total))
        clue = {"cells": [name(c) for c in line], "sum": total}
        specs.append({"type": "littlekiller", "clues": [clue]})
    while rng.random() < 0.5:  # an arrow whose bulb reads the shaft's sum in `grid`
        shaft = tuple(rng.sample(cells, rng.randint(2, 4)))
        rest = [c for c in cells if c not in shaft]
        total = sum(value(grid, c) for c in shaft)
        one = [c for c in rest if value(grid, c) == total]
        two = [
            (a, b)
            for a in rest
            for b in rest
            if a != b and 10 * value(grid, a) + value(grid, b) == total
        ]
        if not one and not two:
            continue
        bulb = (rng.choice(one),) if one and (not two or rng.random() < 0.5) else rng.choice(two)
        k = len(bulb)
        weights = tuple(10 ** (k - 1 - i) for i in range(k)) + (-1,) * len(shaft)
        sums.append((bulb + shaft, weights, 0))
        arrow = {"bulb": [name(c) for c in bulb], "shaft": [name(c) for c in shaft]}
        specs.append({"type": "arrow", "arrows": [arrow]})
        break
    extra = []
    if rng.random() < 0.5:
        linear_cells = tuple(rng.sample(cells, 3))
        linear_weights = (3, -2, rng.choice((1, -1, 5)))
        terms = zip(linear_cells, linear_weights, strict=True)
        linear_total = sum(w * value(grid, c) for c, w in terms)
        sums.append((linear_cells, linear_weights, linear_total))
        extra.append(Linear(linear_cells, linear_weights, linear_total))
    return Case(specs, cages, sums, extra)


def count(backend: Any, puzzle: Puzzle, limit: int) -> int:
    result = backend.solve(puzzle, limit=limit)
    assert result.exhausted
    return int(result.count)


# Seeds 0-19 by default (~0.7 s of CPU), 20-59 under -m slow.
@pytest.mark.parametrize(
    "seed", [s if s < 20 else pytest.param(s, marks=pytest.mark.slow) for s in range(60)]
)
def test_random_4x4_cases_count_as_the_oracle(seed: int) -> None:
    rng = random.Random(seed)
    case = random_case(rng.choice(all_4x4()), rng)
    puzzle = Puzzle.empty(Shape(2, 2), case.rules(Shape(2, 2)))
    expected = sum(1 for g in all_4x4() if case.holds(g))
    assert expected >= 1
    assert count(native, puzzle, 300) == expected
    assert count(generic, puzzle, 300) == expected


def six_by_six_case(seed: int) -> tuple[Puzzle, int]:
    """A 6×6 case with the first row fixed and its oracle count (kept small enough to list)."""
    rng = random.Random(seed)
    grids = all_6x6_first_row()
    while True:
        case = random_case(rng.choice(grids), rng)
        expected = sum(1 for g in grids if case.holds(g))
        if expected <= 2_000:
            shape = Shape(2, 3)
            return Puzzle(shape, FIRST_ROW, case.rules(shape)), expected


# Seeds 1-3 by default, 0 (0.9 s of CPU) and 4-11 under -m slow (another ~1.7 s).
@pytest.mark.parametrize(
    "seed", [s if 1 <= s < 4 else pytest.param(s, marks=pytest.mark.slow) for s in range(12)]
)
def test_random_6x6_cases_count_as_the_oracle(seed: int) -> None:
    puzzle, expected = six_by_six_case(seed)
    assert count(native, puzzle, 2_001) == expected
    assert count(generic, puzzle, 2_001) == expected


@pytest.mark.parametrize("backend_name", OTHERS)
@pytest.mark.parametrize("seed", range(3))
def test_random_6x6_cases_count_the_same_on_every_backend(seed: int, backend_name: str) -> None:
    puzzle, expected = six_by_six_case(seed)
    assert count(get_backend(backend_name), puzzle, 2_001) == expected


# By default r6c5=4 and r6c6=5 are given too: 161 grids, all three sets among them (0.2 s of
# CPU); the first row alone (1,961 grids, ~1.9 s, 1.7 s of it the native search) under -m slow.
@pytest.mark.parametrize(
    "extra",
    [
        pytest.param({(5, 4): 4, (5, 5): 5}, id="two-more-givens"),
        pytest.param({}, id="first-row-only", marks=pytest.mark.slow),
    ],
)
def test_a_cage_with_many_sets_in_a_full_6x6(extra: dict[Cell, int]) -> None:
    """A 4-cell cage summing to 14 fits {1,2,5,6}, {1,3,4,6} and {2,3,4,5}: counted over every
    grid with the givens, and the cage spans three boxes so no house implies it."""
    shape = Shape(2, 3)
    cage = ["r2c1", "r3c2", "r4c3", "r5c4"]
    assert len(digit_sets(6, 4, 14)) == 3
    rule = make_rule({"type": "killer", "cages": [{"cells": cage, "sum": 14}]}, shape)
    values = list(FIRST_ROW.values)
    for (r, c), digit in extra.items():
        values[r * 6 + c] = digit
    puzzle = Puzzle(shape, Grid(6, tuple(values)), (rule,))
    cells = [(int(c[1]) - 1, int(c[3]) - 1) for c in cage]
    grids = [
        g
        for g in all_6x6_first_row()
        if len({value(g, c) for c in cells}) == 4
        and sum(value(g, c) for c in cells) == 14
        and all(value(g, cell) == digit for cell, digit in extra.items())
    ]
    assert len({frozenset(value(g, c) for c in cells) for g in grids}) == 3  # every set occurs
    expected = len(grids)
    assert count(native, puzzle, 40_000) == expected == count(generic, puzzle, 40_000)


def test_distinct_pairs_outside_any_house_are_kept() -> None:
    """r1c1 + r2c3 = 4 with the two cells told to differ: 1+3 or 3+1, never 2+2."""
    shape = Shape(2, 2)
    a, b = (0, 0), (1, 2)
    for pairs, allowed in ((((0, 1),), ((1, 3), (3, 1))), ((), ((1, 3), (3, 1), (2, 2)))):
        rule = Linear((a, b), (1, 1), 4, pairs)
        expected = sum(1 for g in all_4x4() if (value(g, a), value(g, b)) in allowed)
        puzzle = Puzzle.empty(shape, (rule,))
        assert count(native, puzzle, 300) == expected == count(generic, puzzle, 300)


@dataclass(frozen=True)
class Sets:
    """A test-only rule: one `DigitSets` with any sets, even digits off the board."""

    type: ClassVar[str] = "sets"
    cells: tuple[Cell, ...]
    sets: frozenset[frozenset[int]]

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        yield DigitSets(self.cells, self.sets)

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type}


def test_digit_sets_off_the_board_never_fit() -> None:
    """On 4×4, {3, 5} cannot fill r1c1 and r2c3: only {1, 2} is left, either way round."""
    a, b = (0, 0), (1, 2)
    rule = Sets((a, b), frozenset({frozenset({1, 2}), frozenset({3, 5})}))
    expected = sum(1 for g in all_4x4() if {value(g, a), value(g, b)} == {1, 2})
    puzzle = Puzzle.empty(Shape(2, 2), (rule,))
    assert count(native, puzzle, 300) == expected == count(generic, puzzle, 300)


def test_sums_and_tables_over_no_cells() -> None:
    """An empty sum is 0: a total of 3 refutes every grid, a total of 0 keeps all 288."""
    shape = Shape(2, 2)
    assert count(native, Puzzle.empty(shape, (Linear((), (), 3),)), 300) == 0
    assert count(native, Puzzle.empty(shape, (Linear((), (), 0),)), 300) == 288
    assert count(generic, Puzzle.empty(shape, (Linear((), (), 3),)), 300) == 0


def test_unsatisfiable_sums_and_cages_are_refuted() -> None:
    shape = Shape(2, 2)
    too_big = make_rule(
        {"type": "littlekiller", "clues": [{"cells": ["r1c1", "r2c2"], "sum": 9}]}, shape
    )
    no_set = make_rule({"type": "killer", "cages": [{"cells": ["r1c1", "r1c2"], "sum": 8}]}, shape)
    for rule in (too_big, no_set):
        assert native.solve(Puzzle.empty(shape, (rule,))).status is Status.UNSATISFIABLE


def test_renban_lines_are_native_digit_sets() -> None:
    """Renban (consecutive digit sets) through the same cage propagation, against the oracle."""
    shape = Shape(2, 3)
    line = ["r2c1", "r3c2", "r4c3", "r5c4"]
    rule = make_rule({"type": "renban", "lines": [line]}, shape)
    cells = [(int(c[1]) - 1, int(c[3]) - 1) for c in line]

    def holds(g: Rows) -> bool:
        digits = sorted(value(g, c) for c in cells)
        return digits == list(range(digits[0], digits[0] + 4))

    expected = sum(1 for g in all_6x6_first_row() if holds(g))
    puzzle = Puzzle(shape, FIRST_ROW, (rule,))
    assert count(native, puzzle, 40_000) == expected == count(generic, puzzle, 40_000)


ESCARGOT = REPO / "models" / "classic" / "ai-escargot.toml"
MAIN_DIAGONAL = tuple((i, i) for i in range(9))


def escargot_with_diagonal_sum(blank: set[Cell]) -> tuple[Puzzle, Grid]:
    """AI Escargot's solution with `blank` cells emptied (and its givens kept), plus a little
    killer over the main diagonal that its solution satisfies."""
    (escargot,) = read_puzzles(ESCARGOT)
    solution = escargot.solution
    assert solution is not None
    values = list(escargot.givens.values)
    for r in range(9):
        for c in range(9):
            if (r, c) not in blank and (r, c) not in MAIN_DIAGONAL and r % 3 == 0:
                values[r * 9 + c] = solution.values[r * 9 + c]  # more givens: a small count
    total = sum(solution.values[r * 9 + c] for r, c in MAIN_DIAGONAL)
    clue = {"cells": [name(c) for c in MAIN_DIAGONAL], "sum": total}
    rule = make_rule({"type": "littlekiller", "clues": [clue]}, Shape(3, 3))
    for r, c in blank:
        values[r * 9 + c] = 0
    return Puzzle(Shape(3, 3), Grid(9, tuple(values)), (rule,)), solution


# The generic search's refusal by default; the clue's own decompose() refusal as well (~0.9 s
# of CPU, asserted by default in test_native_encodings for a 9x9 diagonal sum) under -m slow.
@pytest.mark.parametrize("decompose", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_a_long_little_killer_too_large_for_a_table_solves_natively(decompose: bool) -> None:
    """The 9-cell diagonal sum has far more than MAX_TABLE tuples: the generic path refuses it,
    the native bounds propagation solves the puzzle (unique: its givens already are)."""
    puzzle, solution = escargot_with_diagonal_sum(set())
    total = sum(solution.values[r * 9 + c] for r, c in MAIN_DIAGONAL)
    clue = Sum(MAIN_DIAGONAL, total, distinct=distinct_positions(MAIN_DIAGONAL, Shape(3, 3)))
    assert clue in list(puzzle.constraints())
    if decompose:
        with pytest.raises(TableTooLargeError):
            clue.decompose(Shape(3, 3))
    with pytest.raises(TableTooLargeError):
        generic.solve(puzzle)
    result = native.solve(puzzle)
    assert result.status is Status.UNIQUE and result.solution == solution


@pytest.mark.parametrize("backend_name", OTHERS)
def test_a_long_little_killer_counts_as_other_backends(backend_name: str) -> None:
    """With Escargot's diagonal givens removed the sum decides: equal counts everywhere."""
    puzzle, solution = escargot_with_diagonal_sum(set(MAIN_DIAGONAL) | {(1, 1), (4, 3), (7, 6)})
    mine = native.solve(puzzle, limit=1000)
    theirs = get_backend(backend_name).solve(puzzle, limit=1000)
    assert mine.exhausted and theirs.exhausted
    assert mine.count == theirs.count >= 1 and solution in mine.solutions
