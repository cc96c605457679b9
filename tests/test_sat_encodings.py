"""CNF encodings: standard numbering, model counts, and agreement with the bitmask backend."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pysat.solvers import Solver

from satsudoku import Puzzle, Shape, Status, get_backend
from satsudoku.backends.sat import SatBackend
from satsudoku.constraints import Allowed, Constraint, Less
from satsudoku.encoders import cnf
from satsudoku.encoders.cnf import AtMostOne, Encoding, VarMap, dimacs, encode_puzzle
from satsudoku.grid import Grid
from satsudoku.proof.drat import parse_dimacs
from tests.conftest import BUNDLED, grid_from_line, puzzle_from_line, referee, sample_lines

NINE = Shape(3, 3)
SOLVERS = ("cadical195", "glucose4", "minisat22")
BUNDLED_9X9 = (
    "17clue.txt",
    "top1465.txt",
    "forum-hardest-1106.txt",
    "norvig-easy50.txt",
    "norvig-top95.txt",
    "serg-benchmark.txt",
    "sudoku-exchange-graded.txt",
    "tdoku-test-puzzles.labeled.txt",
)


def _lines(path: Path, k: int) -> list[str]:
    return [line for line in sample_lines(path, k) if len(line.split()[0].split(":")[0]) == 81]


def _puzzle(line: str) -> Puzzle:
    return puzzle_from_line(line.split(":")[0], NINE)


def _agree(backend: Any, puzzle: Puzzle) -> None:
    expected = referee(puzzle)
    got = backend.solve(puzzle)
    assert got.status is expected.status
    if expected.status is Status.UNIQUE:
        assert got.solutions == expected.solutions


def test_standard_numbering() -> None:
    varmap = VarMap(9)
    assert varmap.lit((0, 0), 1) == 1
    assert varmap.lit((1, 2), 3) == 1 * 81 + 2 * 9 + 3
    assert varmap.lit((8, 8), 9) == 729
    assert varmap.cell_digit(729) == ((8, 8), 9)


@pytest.mark.parametrize("encoding", list(Encoding))
def test_empty_4x4_has_288_grids_per_encoding(encoding: Encoding) -> None:
    result = SatBackend(encoding=encoding).solve(Puzzle.empty(Shape(2, 2)), limit=300)
    assert result.status is Status.MULTIPLE and result.count == 288


@pytest.mark.parametrize("amo", [a for a in AtMostOne if a is not AtMostOne.PAIRWISE])
def test_empty_4x4_has_288_grids_per_at_most_one(amo: AtMostOne) -> None:
    solver = "minicard" if amo is AtMostOne.NATIVE else "cadical195"  # native: its own AMO
    backend = SatBackend(encoding="efficient", amo=amo, solver=solver)
    assert backend.solve(Puzzle.empty(Shape(2, 2)), limit=300).count == 288


def test_auxiliary_variables_come_after_n_cubed() -> None:
    formula = encode_puzzle(Puzzle.empty(Shape(2, 2)), Encoding.EXTENDED, AtMostOne.SEQCOUNTER)
    lits = {abs(lit) for clause in formula.clauses for lit in clause}
    assert set(range(1, 65)) <= lits and max(lits) == formula.num_vars > 64


# Each encoding with one solver and each solver with an encoding by default; the other eight
# pairs under -m slow (1.8 -> ~0.5 s of CPU).
DEFAULT_PAIRS = {
    (Encoding.MINIMAL, "glucose4"),
    (Encoding.EFFICIENT, "cadical195"),
    (Encoding.EXTENDED, "cadical195"),
    (Encoding.REDUCED, "minisat22"),
}


@pytest.mark.parametrize(
    ("encoding", "solver"),
    [
        pytest.param(
            encoding,
            solver,
            marks=[] if (encoding, solver) in DEFAULT_PAIRS else [pytest.mark.slow],
            id=f"{solver}-{encoding}",
        )
        for solver in SOLVERS
        for encoding in Encoding
    ],
)
def test_agrees_with_bitmask_on_bundled_samples(encoding: Encoding, solver: str) -> None:
    backend = SatBackend(encoding=encoding, solver=solver)
    for name in BUNDLED_9X9:
        for line in _lines(BUNDLED / name, 3):
            _agree(backend, _puzzle(line))


def test_serg_benchmark_multiple_solutions() -> None:
    backend = SatBackend()
    statuses = set()
    for line in _lines(BUNDLED / "serg-benchmark.txt", 20):
        puzzle = _puzzle(line)
        result = backend.solve(puzzle)
        assert result.status is referee(puzzle).status
        statuses.add(result.status)
    assert Status.MULTIPLE in statuses


def _known(name: str) -> tuple[Puzzle, Grid]:
    """A bundled large puzzle and its published solution."""
    puzzle = puzzle_from_line((BUNDLED / f"{name}.txt").read_text())
    return puzzle, grid_from_line((BUNDLED / f"{name}.solutions.txt").read_text())


def _16x16_cases() -> list[Any]:
    """Every encoding on both solvers; the minimal and efficient encodings (0.9-1.6 s CPU each)
    only under -m slow: both solvers run every encoding on the 9x9s by default."""
    slow = {
        (s, e) for s in ("glucose4", "cadical195") for e in (Encoding.MINIMAL, Encoding.EFFICIENT)
    }
    return [
        pytest.param(
            encoding, solver, marks=[pytest.mark.slow] if (solver, encoding) in slow else []
        )
        for solver in ("cadical195", "glucose4")
        for encoding in Encoding
    ]


@pytest.mark.parametrize(("encoding", "solver"), _16x16_cases())
def test_16x16_every_encoding_on_two_solvers(encoding: Encoding, solver: str) -> None:
    """The formula with its givens as unit clauses: one model, then the blocking clause.

    (Through the backend's incremental session the givens are assumptions, and the minimal
    and efficient encodings of this puzzle then take 3-15 s per solver here instead of 1-2 s;
    extended and reduced go through the backend below.)
    """
    puzzle, known = _known("16x16-acwing169-sample")
    formula = encode_puzzle(puzzle, encoding)
    with Solver(name=solver, bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        assert formula.decode(sat.get_model()) == known
        sat.add_clause(formula.block(known, puzzle.givens))
        assert not sat.solve()  # unique


@pytest.mark.slow  # 25x25 on two solvers and two encodings: CI runs it with pytest -m slow
@pytest.mark.parametrize("encoding", [Encoding.EXTENDED, Encoding.REDUCED])
@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_16x16_and_25x25_through_the_backend(encoding: Encoding, solver: str) -> None:
    for name in ("16x16-acwing169-sample", "25x25-durr-example"):
        puzzle, known = _known(name)
        result = SatBackend(encoding=encoding, solver=solver).solve(puzzle)
        assert result.status is Status.UNIQUE and result.solution == known, name


@pytest.mark.slow  # a dataset sweep: CI runs it with pytest -m slow
def test_every_shared_9x9_dataset(shared_data: Path) -> None:
    skip = ("killer", "jigsaw", "x-sudoku", "ratings")
    files = [p for p in sorted(shared_data.glob("*.txt")) if not any(s in p.name for s in skip)]
    checked = 0
    for path in files:
        lines = _lines(path, 2)
        for k, line in enumerate(lines):
            encoding = list(Encoding)[(checked + k) % 4]
            _agree(SatBackend(encoding=encoding, solver=SOLVERS[k % 3]), _puzzle(line))
        checked += len(lines)
    assert checked >= 20


def test_reduced_encoding_drops_what_the_givens_settle() -> None:
    puzzle = _puzzle((BUNDLED / "top1465.txt").read_text().splitlines()[0])
    full = encode_puzzle(puzzle, Encoding.EXTENDED)
    reduced = encode_puzzle(puzzle, Encoding.REDUCED)
    assert reduced.used_vars() < full.used_vars() // 2
    assert len(reduced.clauses) < len(full.clauses) // 3
    given = {VarMap(9).lit(cell, d) for cell, d in puzzle.given_cells()}
    assert not any(abs(lit) in given for clause in reduced.clauses for lit in clause)


def test_dimacs_round_trips() -> None:
    puzzle = _puzzle((BUNDLED / "17clue.txt").read_text().splitlines()[0])
    formula = encode_puzzle(puzzle, Encoding.MINIMAL)
    text = dimacs(formula, cnf.header_comments(puzzle, formula))
    assert "c numbering: var(r, c, d) = (r-1)*81 + (c-1)*9 + d" in text
    num_vars, clauses = parse_dimacs(text)
    assert num_vars == 729 and clauses == formula.clauses


@dataclass(frozen=True)
class _Ordered:
    """A test rule: r1c1 < r1c2, and r1c1 is 1 or 2 (Less → Table, plus Allowed)."""

    type: ClassVar[str] = "test-ordered"

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        yield Less((0, 0), (0, 1))
        yield Allowed((0, 0), frozenset({1, 2}))

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type}


@pytest.mark.parametrize("selectors", [False, True])
@pytest.mark.parametrize("encoding", list(Encoding))
def test_tables_and_domains_count_like_bitmask(
    encoding: Encoding, selectors: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if selectors:
        monkeypatch.setattr(cnf, "_MAX_FORBIDDEN", 0)  # force the selector encoding of tables
    puzzle = Puzzle.empty(Shape(2, 2), [_Ordered()])
    expected = get_backend("bitmask").solve(puzzle, limit=300)
    got = SatBackend(encoding=encoding).solve(puzzle, limit=300)
    # 288 / 12 grids per ordered digit pair in r1c1, r1c2; 5 pairs have a in {1, 2}, a < b.
    assert got.count == expected.count == 288 // 12 * 5


def test_givens_that_clash_are_unsatisfiable_in_every_encoding() -> None:
    puzzle = _puzzle("11" + "." * 79)
    for encoding in Encoding:
        assert SatBackend(encoding=encoding).solve(puzzle).status is Status.UNSATISFIABLE
