"""Native sandwiches (`Sandwich` by its layouts) on every backend: exact counts against the
brute-force oracle of tests/test_rules.py and the bitmask Table path, the layouts against
the rows they stand for, 9×9 puzzles with every clue, a 12×12 the Table path refuses, and
certificates."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from satsudoku.backends import get_backend
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.cli import main
from satsudoku.constraints import Constraint, Sandwich, TableTooLargeError
from satsudoku.encoders.cnf import encode_puzzle
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Grid, Shape
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from tests.conftest import REPO, prove_one
from tests.test_native_encodings import BACKEND_IDS, BACKENDS, GIVENS_4, backend_grid
from tests.test_rules import FIRST_ROW, Rows, all_4x4, col, count_6x6, sandwich

Clues = tuple[list[int | None], list[int | None]]

# Clues read off grids (so each case has solutions); every total from 0 to the maximum occurs
# (4×4: 0, 2, 3, 5; 6×6: 0 and 14 among others).
CASES_4X4: list[Clues] = [
    ([None, 3, None, 2], [5, None, 5, None]),
    ([0, 0, None, 5], [0, None, None, None]),
    ([None, None, 0, 0], [5, 2, None, None]),
    ([2, 3, 3, 2], [None, None, None, None]),
]
CASES_6X6: list[Clues] = [
    ([14, 2, 0, None, None, 0], [None, 8, None, 0, None, None]),
    ([14, None, None, None, 0, 0], [None, None, 0, None, 6, 14]),
    ([None, None, 4, 0, 14, 7], [10, None, None, 0, 9, None]),
    ([None, 9, 5, None, None, None], [5, None, None, 5, None, None]),
    ([None, 12, 4, None, None, None], [None, None, None, None, 9, 2]),
]


def _rule(clues: Clues, shape: Shape) -> Any:
    rows, cols = clues
    return make_rule({"type": "sandwich", "rows": rows, "cols": cols}, shape)


def _holds(grid: Rows, clues: Clues) -> bool:
    n = len(grid)
    rows, cols = clues
    return all(t is None or sandwich(grid[r], n) == t for r, t in enumerate(rows)) and all(
        t is None or sandwich(col(grid, c), n) == t for c, t in enumerate(cols)
    )


def _count_6x6(clues: Clues) -> int:
    """The oracle's count for a 6×6 case, shared by the backends (the clue lists are its key)."""
    return count_6x6(lambda g: _holds(g, clues), key=("sandwich", repr(clues)))


def _agrees(grid: Rows, givens: Grid) -> bool:
    n = givens.size
    return all(not d or grid[i // n][i % n] == d for i, d in enumerate(givens.values))


def _count(spec: tuple[str, dict[str, Any]], puzzle: Puzzle, limit: int) -> int:
    name, options = spec
    result = get_backend(name, **options).solve(puzzle, limit=limit)
    assert result.exhausted and result.count is not None, (spec, result.status)
    return result.count


@pytest.fixture(params=BACKENDS, ids=BACKEND_IDS)
def backend_spec(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    spec: tuple[str, dict[str, Any]] = request.param
    return spec


@pytest.mark.parametrize("clues", CASES_4X4, ids=range(len(CASES_4X4)))
def test_4x4_counts_match_the_oracle(
    backend_spec: tuple[str, dict[str, Any]], clues: Clues
) -> None:
    shape = Shape(2, 2)
    puzzle_rules = (_rule(clues, shape),)
    for givens in (Grid.empty(4), GIVENS_4):  # r1c1 = r4c4 = 1: crusts given
        expected = sum(1 for g in all_4x4() if _agrees(g, givens) and _holds(g, clues))
        assert _count(backend_spec, Puzzle(shape, givens, puzzle_rules), 300) == expected


# Each backend on one 6x6 clue set by default, every set on one backend at least (2.9 -> ~0.3 s);
# the 4x4 test keeps every backend x set pair.
DEFAULT_6X6 = {
    "bitmask": "1",
    "bitmask-tables": "2",
    "cpsat-boolean": "0",
    "cpsat-integer": "1",
    "sat-efficient": "0",
    "sat-extended": "4",
    "sat-minimal": "4",
    "sat-reduced": "3",
}


@pytest.mark.parametrize(
    ("backend_spec", "clues"),
    backend_grid([(str(i), (c,)) for i, c in enumerate(CASES_6X6)], DEFAULT_6X6),
)
def test_6x6_counts_match_the_oracle(
    backend_spec: tuple[str, dict[str, Any]], clues: Clues
) -> None:
    shape = Shape(2, 3)
    expected = _count_6x6(clues)
    puzzle = Puzzle(shape, FIRST_ROW, (_rule(clues, shape),))
    assert _count(backend_spec, puzzle, expected + 1) == expected


def test_the_cases_are_not_trivial() -> None:
    for clues in CASES_4X4:
        assert 0 < sum(1 for g in all_4x4() if _holds(g, clues)) < 288
    for clues in CASES_6X6:
        assert 0 < _count_6x6(clues) < 3000
    totals = {t for rows, cols in CASES_6X6 for t in rows + cols if t is not None}
    assert {0, 14} <= totals


@pytest.mark.parametrize(("size", "width"), [(4, 4), (6, 6), (6, 5)])
def test_each_qualifying_row_fits_exactly_one_layout(size: int, width: int) -> None:
    """Over every row of distinct digits: `check` accepts it iff one layout allows each of its
    digits, never two; `count` and the Table path agree (a short line leaves digits out)."""
    cells = tuple((0, c) for c in range(width))
    for total in range(sum(range(2, size)) + 1):
        clue = Sandwich(cells, total, 1, size)
        layouts = clue.layout_digits(size)
        assert len(layouts) == len(clue.layouts(size))
        qualifying = 0
        for row in itertools.permutations(range(1, size + 1), width):
            fits = sum(1 for allowed in layouts if all(map(frozenset.__contains__, allowed, row)))
            accepted = clue.check(dict(zip(cells, row, strict=True)))
            assert fits == int(accepted), (total, row)
            qualifying += accepted
        assert clue.count(size) == qualifying


@dataclass(frozen=True)
class _Raw:
    """A test-only rule: one `Sandwich` with any crusts and total."""

    type: ClassVar[str] = "test-raw-sandwich"
    total: int
    low: int = 1
    high: int = 4

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        yield Sandwich(tuple((0, c) for c in range(shape.size)), self.total, self.low, self.high)

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type}


@pytest.mark.parametrize("rule", [_Raw(6), _Raw(0, 1, 5)], ids=["total-too-big", "off-board"])
def test_sandwiches_without_layouts_are_refuted(
    backend_spec: tuple[str, dict[str, Any]], rule: _Raw
) -> None:
    assert _count(backend_spec, Puzzle.empty(Shape(2, 2), (rule,)), 10) == 0


def test_other_crusts_count_as_the_oracle(backend_spec: tuple[str, dict[str, Any]]) -> None:
    """Crusts 2 and 3 in the first row (the rules only make 1 and n): digits between sum to 4."""

    def holds(g: Rows) -> bool:
        i, j = sorted((g[0].index(2), g[0].index(3)))
        return sum(g[0][i + 1 : j]) == 4

    expected = sum(1 for g in all_4x4() if holds(g))
    assert _count(backend_spec, Puzzle.empty(Shape(2, 2), (_Raw(4, 2, 3),)), 300) == expected


# ---------------------------------------------------------------------------------------------
# 9×9 with every clue, few or no givens (the generic Table path took 7-35 s per backend, SAT did
# not finish in 60 s); clues read off SOLUTION_9, which is among the solutions.

ROWS_9 = [2, 35, 25, 5, 15, 16, 5, 27, 9]
COLS_9 = [14, 0, 8, 11, 13, 25, 0, 14, 26]
SOLUTION_9 = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
GIVENS_9 = "4............4.............5............6............5.............5............2"


NATIVE = [spec for spec in BACKENDS if spec != ("bitmask", {"generic": True})]


def _every_clue_cases() -> list[Any]:
    """Every native path counts the 12 with GIVENS_9 by default; the 24 of the empty grid
    (0.13-0.29 s of CPU a path) by default on bitmask only, on the rest under -m slow."""
    cases = []
    for givens, count in (("." * 81, 24), (GIVENS_9, 12)):
        for spec in NATIVE:
            slow = givens != GIVENS_9 and spec[0] != "bitmask"
            marks = [pytest.mark.slow] if slow else []
            cases.append(pytest.param(givens, count, spec, marks=marks, id=f"{count}-{spec}"))
    return cases


# The generic Table path is left out here: it takes 10-30 s (and counts 24 and 12 as well).
@pytest.mark.parametrize(("givens", "count", "backend_spec"), _every_clue_cases())
def test_9x9_with_every_clue(
    backend_spec: tuple[str, dict[str, Any]], givens: str, count: int
) -> None:
    shape = Shape(3, 3)
    grid = Grid(9, tuple(0 if ch == "." else int(ch) for ch in givens))
    puzzle = Puzzle(shape, grid, (_rule((list(ROWS_9), list(COLS_9)), shape),))
    name, options = backend_spec
    result = get_backend(name, **options).solve(puzzle, limit=count + 1)
    assert result.exhausted and result.count == count
    assert Grid(9, tuple(map(int, SOLUTION_9))) in result.solutions


# ---------------------------------------------------------------------------------------------
# 12×12: all 24 clues of a random grid, givens added until unique and then 21 more (for speed).

DOC_12 = {
    "size": 12,
    "box": [3, 4],
    "givens": ".........B..GF.BH.EC...ADK.CBJ.....IJE......C...........H....D.AG...K.I...G.L..F"
    ".........B....H......E....L.......J.....KJ..A...D........F......",
    "rules": [
        {
            "type": "sandwich",
            "rows": [0, 15, 0, 20, 17, 34, 26, 29, 51, 36, 5, 65],
            "cols": [20, 46, 26, 27, 18, 0, 29, 43, 29, 17, 24, 62],
        }
    ],
    "solution": "HLAIFGDKEBJCGFJBHIECLKDADKECBJLAGHFIJEKHILFDCGABICLGJAKBHDEFBDFAGHCEKLIJEHGJLKI"
    "FACBDLIDKCBAJFEHGCABFDEHGJILKFGHLKDJIBACEKJIEACBLDFGHABCDEFGHIJKL",
}


DEFAULTS: list[tuple[str, dict[str, Any]]] = [
    ("sat", {}),
    ("cpsat", {"model": "boolean"}),
    ("cpsat", {"model": "integer"}),
    ("bitmask", {}),
]


@pytest.mark.slow  # seconds of waiting or solving: CI's `pytest -m slow` runs it
def test_a_12x12_beyond_the_table_path_solves_on_every_backend(tmp_path: Path) -> None:
    path = tmp_path / "sandwich-12x12.json"
    path.write_text(json.dumps(DOC_12))
    (puzzle,) = read_puzzles(path)
    clue = next(c for c in puzzle.constraints() if isinstance(c, Sandwich))
    with pytest.raises(TableTooLargeError):
        clue.decompose(puzzle.shape)
    with pytest.raises(TableTooLargeError):
        BitmaskBackend(generic=True).solve(puzzle)
    for name, options in DEFAULTS:
        result = get_backend(name, **options).solve(puzzle)
        assert result.status is Status.UNIQUE and result.solution == puzzle.solution, name


# ---------------------------------------------------------------------------------------------
# The published puzzle (models/variants/real/sandwich.json, 3 givens): the encoding is small and
# repeatable, and its certificate verifies.

PUBLISHED = REPO / "models" / "variants" / "real" / "sandwich.json"


def test_the_sat_encoding_is_small_and_repeatable() -> None:
    (puzzle,) = read_puzzles(PUBLISHED)
    first, again = encode_puzzle(puzzle), encode_puzzle(puzzle)
    assert first.clauses == again.clauses  # certificates re-encode and compare
    clues = [c for c in puzzle.constraints() if isinstance(c, Sandwich)]
    selectors = sum(len(c.layouts(9)) for c in clues)
    assert first.num_vars <= 729 + selectors
    assert len(first.clauses) < 100_000  # the Table path built 2.1 million clauses
    assert sum(c.count(9) for c in clues) > 100_000  # tuples it would need


# The 6x6 model by default; the published 9x9 (~1.6 s of CPU to prove and check) under -m slow.
@pytest.mark.parametrize(
    ("document", "size"),
    [
        pytest.param(REPO / "models/variants/sums/sandwich-6x6.json", 6, id="6x6"),
        pytest.param(PUBLISHED, 9, id="published", marks=pytest.mark.slow),
    ],
)
def test_a_sandwich_certificate_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], document: Path, size: int
) -> None:
    folder = prove_one(document, tmp_path)
    assert "unique" in capsys.readouterr().out
    # more variables than the cells' digits: the sandwiches' layout selectors
    assert json.loads((folder / "manifest.json").read_text())["variables"] > size**3
    assert main(["verify-certificate", str(folder)]) == 0
    assert "VERIFIED" in capsys.readouterr().out


def test_the_cell_oracle_agrees_with_check() -> None:
    """`Sandwich.check` (what the verifier uses) against the test oracle on whole rows."""
    cells: tuple[Cell, ...] = tuple((0, c) for c in range(6))
    for row in itertools.permutations(range(1, 7)):
        clue = Sandwich(cells, sandwich(row, 6), 1, 6)
        assert clue.check(dict(zip(cells, row, strict=True)))


def test_a_sandwich_needs_two_different_crusts() -> None:
    """check() would read an empty 'between' and accept total 0, which no backend posts."""
    with pytest.raises(PuzzleError, match="two different crust digits"):
        Sandwich(((0, 0), (0, 1), (0, 2), (0, 3)), 0, 2, 2)


@pytest.mark.parametrize("size", [6, 9, 12])
def test_gap_sets_are_every_subset_that_makes_the_total(size: int) -> None:
    """`gap_sets` prunes its search on reachable sums: it must still give exactly the k-subsets
    of the other digits that add up to the total, sizes in order and each once, for every
    total (a short line keeps only the gaps that fit), and other crust digits than 1 and n."""
    for low, high, width in ((1, size, size), (2, size - 1, size), (1, size, size - 2)):
        inner = [d for d in range(1, size + 1) if d not in (low, high)]
        cells = tuple((0, c) for c in range(width))
        for total in range(sum(inner) + 2):
            expected = [
                between
                for k in range(min(len(inner), width - 2) + 1)
                for between in itertools.combinations(inner, k)
                if sum(between) == total
            ]
            assert Sandwich(cells, total, low, high).gap_sets(size) == expected, total


@pytest.mark.parametrize(
    "backend",  # the other backends build a 25x25 board first: 1.5-5 s of CPU, under -m slow
    ["bitmask", *(pytest.param(b, marks=pytest.mark.slow) for b in ("sat", "cpsat", "mip"))],
)
def test_a_25x25_clue_with_millions_of_layouts_is_refused_at_once(backend: str) -> None:
    """A 25×25 row clue of 150 has millions of (crust places, digit set) layouts: building
    them all ran for minutes and ignored --timeout. Counting as they are found stops at
    MAX_SANDWICH_LAYOUTS with one error naming the clue, whatever the backend."""
    shape = Shape(5, 5)
    rule = make_rule({"type": "sandwich", "rows": [150] + [None] * 24}, shape)
    started = time.process_time()
    with pytest.raises(TableTooLargeError, match=r"sandwich\(r1c1\.\.r1c25\) = 150: more than"):
        get_backend(backend).solve(Puzzle.empty(shape, (rule,)), limit=2, timeout=30)
    assert time.process_time() - started < 10  # was minutes on every backend


@pytest.mark.slow  # 8 s of CPU, most of it sat encoding a 25x25
def test_a_25x25_clue_near_its_ends_is_posted_and_solved() -> None:
    """Clues near 0 or the most a row can hold have few layouts: posted, and a 25×25 grid
    with two of them comes out satisfiable on bitmask and sat with a verified grid."""
    shape = Shape(5, 5)
    spec = {"type": "sandwich", "rows": [0, sum(range(2, 25))] + [None] * 23}
    puzzle = Puzzle.empty(shape, (make_rule(spec, shape),))
    for backend in ("bitmask", "sat"):
        result = get_backend(backend).solve(puzzle, limit=1, timeout=60)
        assert result.solution is not None, backend
        first, second = result.solution.values[:25], result.solution.values[25:50]
        assert abs(first.index(1) - first.index(25)) == 1  # 0: the crusts touch
        assert {first.index(1), first.index(25)} != {0, 24}
        assert {second.index(1), second.index(25)} == {0, 24}  # everything else between


def test_a_sandwich_on_a_1x1_board_is_refused_naming_the_rule(tmp_path: Path) -> None:
    """On a 1x1 board the crusts 1 and n are one digit: refused as the rule's, with the file,
    not as a bare constraint error."""
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"size": 1, "rules": [{"type": "sandwich", "rows": [0]}]}))
    with pytest.raises(PuzzleError, match=r"rule 'sandwich': needs a board of at least 2x2"):
        read_puzzles(path)
