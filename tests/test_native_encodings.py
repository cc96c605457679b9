"""Native SAT and CP-SAT encodings of killer cages (`DigitSets`) and sums (`Sum`): exact counts
under every CNF encoding and both CP-SAT models against brute-force oracles and the bitmask
backend's Table path (`generic=True`), a sum too large for any table, and certificates."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from satsudoku.backends import get_backend
from satsudoku.backends.cpsat import CpSatBackend
from satsudoku.cli import main
from satsudoku.constraints import MAX_TABLE, Constraint, DigitSets, Sum, TableTooLargeError
from satsudoku.encoders import cpsat
from satsudoku.encoders.cnf import Encoding, encode_puzzle
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from satsudoku.rules.sums import digit_sets
from tests.conftest import REPO, prove_one
from tests.test_rules import Rows, all_4x4, count_6x6, v

Predicate = Callable[[Rows], bool]

BACKENDS: list[tuple[str, dict[str, Any]]] = [
    *(("sat", {"encoding": e.value}) for e in Encoding),
    ("cpsat", {"model": "boolean"}),
    ("cpsat", {"model": "integer"}),
    ("bitmask", {"generic": True}),  # the Table decompositions: the reference path
    ("bitmask", {}),
]
BACKEND_IDS = [
    *(f"sat-{e.value}" for e in Encoding),
    "cpsat-boolean",
    "cpsat-integer",
    "bitmask-tables",
    "bitmask",
]


def backend_grid(cases: list[tuple[str, tuple[Any, ...]]], default: dict[str, str]) -> list[Any]:
    """Every backend x case pair as parameters; a backend runs its `default` case by default
    and the other pairs are under -m slow (the 4x4 tests keep every pair by default)."""
    assert set(default) == set(BACKEND_IDS) and set(default.values()) == {c for c, _ in cases}
    return [
        pytest.param(
            spec,
            *args,
            marks=[] if default[backend_id] == case_id else [pytest.mark.slow],
            id=f"{backend_id}-{case_id}",
        )
        for case_id, args in cases
        for spec, backend_id in zip(BACKENDS, BACKEND_IDS, strict=True)
    ]


def _values(g: Rows, cells: tuple[str, ...]) -> list[int]:
    return [v(g, x) for x in cells]


def _killer(*cages: tuple[tuple[str, ...], int]) -> dict[str, Any]:
    return {"type": "killer", "cages": [{"cells": list(c), "sum": s} for c, s in cages]}


def _cage_ok(g: Rows, cells: tuple[str, ...], total: int) -> bool:
    vals = _values(g, cells)
    return len(set(vals)) == len(vals) and sum(vals) == total


def _number(g: Rows, cells: tuple[str, ...]) -> int:
    return int("".join(str(d) for d in _values(g, cells)))


# 4×4 (reference grid 1234 / 3412 / 2143 / 4321), with two givens from it: r1c1=1, r4c4=1.
GIVENS_4 = Grid(4, (1,) + (0,) * 14 + (1,))
CASES_4X4: list[tuple[str, list[dict[str, Any]], Predicate]] = [
    (
        "killer-two-sets",
        [_killer((("r4c2", "r4c3"), 5), (("r1c1", "r2c1"), 4), (("r3c3", "r3c4"), 7))],
        lambda g: (
            _cage_ok(g, ("r4c2", "r4c3"), 5)
            and _cage_ok(g, ("r1c1", "r2c1"), 4)
            and _cage_ok(g, ("r3c3", "r3c4"), 7)
        ),
    ),
    (
        "renban-and-cage",
        [
            {"type": "renban", "lines": [["r1c2", "r2c3", "r3c4"]]},
            _killer((("r3c1", "r4c1", "r4c2"), 8)),
        ],
        lambda g: (
            sorted(_values(g, ("r1c2", "r2c3", "r3c4"))) in ([1, 2, 3], [2, 3, 4])
            and _cage_ok(g, ("r3c1", "r4c1", "r4c2"), 8)
        ),
    ),
    (
        "littlekiller-with-a-given",
        [
            {
                "type": "littlekiller",
                "clues": [
                    {"cells": ["r1c1", "r2c2", "r3c3", "r4c4"], "sum": 8},
                    {"cells": ["r2c1", "r3c2", "r4c3"], "sum": 7},
                ],
            }
        ],
        lambda g: (
            sum(_values(g, ("r1c1", "r2c2", "r3c3", "r4c4"))) == 8
            and sum(_values(g, ("r2c1", "r3c2", "r4c3"))) == 7
        ),
    ),
    (
        "arrows-two-cell-bulb",
        [
            {
                "type": "arrow",
                "arrows": [
                    {"bulb": ["r1c1", "r1c2"], "shaft": ["r2c2", "r3c3", "r4c1"]},
                    {"bulb": ["r2c4"], "shaft": ["r3c2", "r4c4"]},
                ],
            }
        ],
        lambda g: (
            _number(g, ("r1c1", "r1c2")) == sum(_values(g, ("r2c2", "r3c3", "r4c1")))
            and v(g, "r2c4") == v(g, "r3c2") + v(g, "r4c4")
        ),
    ),
]

# 6×6 over the 39,168 grids with first row 123456 (which is also given, so the reduced encoding
# drops variables inside cages and sums). Clues read off 123456 / 564123 / 351642 / 246531 /
# 412365 / 635214.
FIRST_ROW = Grid(6, (1, 2, 3, 4, 5, 6) + (0,) * 30)
CAGE_3 = ("r2c2", "r3c2", "r3c3")  # 6+5+1 = 12: {1,5,6}, {2,4,6}, {3,4,5}
CAGE_2 = ("r1c1", "r2c1")  # 1+5 = 6: {1,5}, {2,4}; the given 1 leaves {1,5}
CAGE_4 = ("r4c5", "r4c6", "r5c6", "r6c6")  # 3+1+5+4 = 13: {1,2,4,6}, {1,3,4,5}
RENBAN_6 = ("r6c4", "r6c5", "r5c4")  # 2,1,3: four runs of three
DIAG_1 = ("r2c1", "r3c2", "r4c3", "r5c4", "r6c5")  # 5+5+6+3+1 = 20, a repeat
DIAG_2 = ("r1c2", "r2c3", "r3c4", "r4c5", "r5c6")  # 2+4+6+3+5 = 20, starts at a given
BULB = ("r5c2", "r5c3")  # "12"
SHAFT = ("r4c2", "r4c3", "r3c3", "r6c5")  # 4+6+1+1 = 12
CASES_6X6: list[tuple[str, list[dict[str, Any]], Predicate]] = [
    (
        "killer-several-sets",
        [_killer((CAGE_3, 12), (CAGE_2, 6), (CAGE_4, 13))],
        lambda g: _cage_ok(g, CAGE_3, 12) and _cage_ok(g, CAGE_2, 6) and _cage_ok(g, CAGE_4, 13),
    ),
    (
        "renban-and-cage",
        [{"type": "renban", "lines": [list(RENBAN_6)]}, _killer((CAGE_3, 12))],
        lambda g: (
            max(vals := _values(g, RENBAN_6)) - min(vals) == 2
            and len(set(vals)) == 3
            and _cage_ok(g, CAGE_3, 12)
        ),
    ),
    (
        "littlekillers-and-arrows",
        [
            {
                "type": "littlekiller",
                "clues": [{"cells": list(DIAG_1), "sum": 20}, {"cells": list(DIAG_2), "sum": 20}],
            },
            {
                "type": "arrow",
                "arrows": [
                    {"bulb": list(BULB), "shaft": list(SHAFT)},
                    {"bulb": ["r1c6"], "shaft": ["r2c4", "r3c5", "r4c6"]},
                ],
            },
        ],
        lambda g: (
            sum(_values(g, DIAG_1)) == 20
            and sum(_values(g, DIAG_2)) == 20
            and _number(g, BULB) == sum(_values(g, SHAFT))
            and v(g, "r1c6") == sum(_values(g, ("r2c4", "r3c5", "r4c6")))
        ),
    ),
]


def _count(name: str, options: dict[str, Any], puzzle: Puzzle, limit: int) -> int:
    result = get_backend(name, **options).solve(puzzle, limit=limit)
    assert result.exhausted and result.count is not None, (name, options, result.status)
    return result.count


@pytest.fixture(params=BACKENDS, ids=BACKEND_IDS)
def backend_spec(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    spec: tuple[str, dict[str, Any]] = request.param
    return spec


@pytest.mark.parametrize(
    ("specs", "oracle"), [c[1:] for c in CASES_4X4], ids=[c[0] for c in CASES_4X4]
)
def test_4x4_counts_match_the_oracle(
    backend_spec: tuple[str, dict[str, Any]], specs: list[dict[str, Any]], oracle: Predicate
) -> None:
    shape = Shape(2, 2)
    rules = tuple(make_rule(spec, shape) for spec in specs)
    for givens, keep in ((Grid.empty(4), lambda g: True), (GIVENS_4, _agrees_with(GIVENS_4))):
        expected = sum(1 for g in all_4x4() if keep(g) and oracle(g))
        got = _count(*backend_spec, Puzzle(shape, givens, rules), 300)
        assert got == expected, givens


# Each backend on one 6x6 case by default, the cheapest that keeps every case (3.0 -> ~0.5 s).
DEFAULT_6X6 = {
    "sat-minimal": "killer-several-sets",
    "sat-efficient": "killer-several-sets",
    "sat-extended": "littlekillers-and-arrows",
    "sat-reduced": "renban-and-cage",
    "cpsat-boolean": "littlekillers-and-arrows",
    "cpsat-integer": "killer-several-sets",
    "bitmask-tables": "killer-several-sets",
    "bitmask": "littlekillers-and-arrows",
}


@pytest.mark.parametrize(
    ("backend_spec", "specs", "oracle"),
    backend_grid([(c[0], tuple(c[1:])) for c in CASES_6X6], DEFAULT_6X6),
)
def test_6x6_counts_match_the_oracle(
    backend_spec: tuple[str, dict[str, Any]], specs: list[dict[str, Any]], oracle: Predicate
) -> None:
    shape = Shape(2, 3)
    rules = tuple(make_rule(spec, shape) for spec in specs)
    expected = count_6x6(oracle)
    assert _count(*backend_spec, Puzzle(shape, FIRST_ROW, rules), expected + 1) == expected


def _agrees_with(givens: Grid) -> Predicate:
    n = givens.size

    def keep(g: Rows) -> bool:
        return all(not d or g[i // n][i % n] == d for i, d in enumerate(givens.values))

    return keep


def test_the_cases_are_not_trivial() -> None:
    """Each case cuts the grids down but keeps some, and the cages have several fitting sets."""
    for _, _, oracle in CASES_4X4:
        assert 0 < sum(1 for g in all_4x4() if oracle(g)) < 288
    for _, _, oracle in CASES_6X6:
        assert 0 < count_6x6(oracle) < 39_168
    assert [len(digit_sets(6, len(c), s)) for c, s in ((CAGE_3, 12), (CAGE_4, 13))] == [3, 2]


# ---------------------------------------------------------------------------------------------
# 9×9: sums no table can hold.

SOLVED = "692183547518947263347526819124368975935271684876459132769835421281794356453612798"
MAIN = tuple((i, i) for i in range(9))
ANTI = tuple((i, 8 - i) for i in range(9))


def _completions(values: list[int], keep: Callable[[list[int]], bool]) -> Iterator[list[int]]:
    """Every completion of a 9×9 grid (0 = blank) that `keep` accepts: plain backtracking."""
    blanks = [i for i, d in enumerate(values) if not d]

    def peers_hold(i: int, d: int) -> bool:
        r, c = divmod(i, 9)
        box = [(r // 3 * 3 + a) * 9 + c // 3 * 3 + b for a in range(3) for b in range(3)]
        return any(
            values[j] == d for j in [r * 9 + k for k in range(9)] + list(range(c, 81, 9)) + box
        )

    def extend(k: int) -> Iterator[list[int]]:
        if k == len(blanks):
            if keep(values):
                yield list(values)
            return
        i = blanks[k]
        for d in range(1, 10):
            if not peers_hold(i, d):
                values[i] = d
                yield from extend(k + 1)
                values[i] = 0

    yield from extend(0)


def _diagonal_puzzle() -> tuple[Puzzle, list[list[int]]]:
    """The janko grid with both diagonals blank, and a little killer along each diagonal."""
    solved = [int(ch) for ch in SOLVED]
    blanks = {r * 9 + c for r, c in MAIN + ANTI}
    givens = [0 if i in blanks else d for i, d in enumerate(solved)]
    totals = [sum(solved[r * 9 + c] for r, c in line) for line in (MAIN, ANTI)]
    spec = {
        "type": "littlekiller",
        "clues": [
            {"cells": [f"r{r + 1}c{c + 1}" for r, c in line], "sum": total}
            for line, total in zip((MAIN, ANTI), totals, strict=True)
        ],
    }
    shape = Shape(3, 3)
    puzzle = Puzzle(shape, Grid(9, tuple(givens)), (make_rule(spec, shape),))

    def keep(g: list[int]) -> bool:
        return all(
            sum(g[r * 9 + c] for r, c in line) == total
            for line, total in zip((MAIN, ANTI), totals, strict=True)
        )

    return puzzle, list(_completions(list(givens), keep))


def test_a_9x9_diagonal_sum_beyond_max_table_solves_on_sat_and_cpsat() -> None:
    puzzle, oracle = _diagonal_puzzle()
    (line_sum,) = [c for c in puzzle.constraints() if isinstance(c, Sum)][:1]
    with pytest.raises(TableTooLargeError):  # the Table path would need > MAX_TABLE tuples
        line_sum.decompose(puzzle.shape)
    assert MAX_TABLE < 9**9
    solved = Grid(9, tuple(int(ch) for ch in SOLVED))
    assert [Grid(9, tuple(g)) for g in oracle] == [solved]
    for name, options in BACKENDS[:6]:
        result = get_backend(name, **options).solve(puzzle)
        assert result.status is Status.UNIQUE and result.solutions == (solved,), options


def test_a_7_cell_cage_is_no_permutation_table() -> None:
    """A 9×9 seven-cell cage with several sets: selectors, not 20,160 tuples."""
    cells = tuple((0, c) for c in range(7))
    cage = DigitSets(cells, digit_sets(9, 7, 30), "sum 30")
    assert len(cage.fitting_sets()) > 1
    shape = Shape(3, 3)
    plain = encode_puzzle(Puzzle.empty(shape))
    puzzle = Puzzle.empty(
        shape, (make_rule(_killer((tuple(f"r1c{c + 1}" for c in range(7)), 30)), shape),)
    )
    caged = encode_puzzle(puzzle)
    assert len(caged.clauses) - len(plain.clauses) < 1000
    assert caged.num_vars == 729 + len(cage.fitting_sets())  # one selector per set
    again = encode_puzzle(puzzle)
    assert again.clauses == caged.clauses  # certificates re-encode and compare


# ---------------------------------------------------------------------------------------------
# Certificates and the CP-SAT side paths.

KILLER_6 = REPO / "models" / "variants" / "killer" / "killer-6x6.json"


def test_killer_certificate_verifies_and_tampering_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = prove_one(KILLER_6, tmp_path)
    assert "unique" in capsys.readouterr().out
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["variables"] > 6**3  # the cages brought selector variables
    assert main(["verify-certificate", str(folder)]) == 0
    assert "VERIFIED" in capsys.readouterr().out
    formula = (folder / "formula.cnf").read_text().splitlines()
    selector = max(range(len(formula)), key=lambda i: _top_var(formula[i]))
    formula[selector] = " ".join(formula[selector].split()[1:])  # drop one literal: stronger
    (folder / "formula.cnf").write_text("\n".join(formula) + "\n")
    assert main(["verify-certificate", str(folder)]) == 1
    assert "not justified" in capsys.readouterr().out


def _top_var(line: str) -> int:
    if line.startswith(("c", "p")) or not line.strip():
        return 0
    return max(abs(int(x)) for x in line.split())


def test_model_export_and_certified_cp_mode_with_native_constraints() -> None:
    (puzzle,) = read_puzzles(KILLER_6)
    for model in cpsat.MODEL_NAMES:
        text = cpsat.model_text(puzzle, model)
        assert "bool_or" in text or "enforcement_literal" in text  # the cage selectors
    with pytest.raises(PuzzleError, match="classic Sudoku only"):
        CpSatBackend(certified=True).solve(puzzle)


def test_a_sum_with_negative_weights_and_no_solution() -> None:
    """A two-digit bulb (at least 12) over a two-cell shaft (at most 8): no grid at all."""
    shape = Shape(2, 2)
    spec = {"type": "arrow", "arrows": [{"bulb": ["r1c1", "r1c2"], "shaft": ["r2c1", "r2c2"]}]}
    puzzle = Puzzle.empty(shape, (make_rule(spec, shape),))
    for name, options in BACKENDS:
        result = get_backend(name, **options).solve(puzzle)
        assert result.status is Status.UNSATISFIABLE, (name, options)


def test_lone_two_cell_cages_keep_every_grid_their_sets_allow() -> None:
    """Selectors must not over-constrain: every total of a two-cell cage across boxes."""
    shape = Shape(2, 2)
    cells = ("r1c1", "r2c3")
    for total in range(3, 8):
        rules = (make_rule(_killer((cells, total)), shape),)
        expected = sum(1 for g in all_4x4() if _cage_ok(g, cells, total))
        for name, options in BACKENDS:
            assert _count(name, options, Puzzle.empty(shape, rules), 300) == expected, total


@dataclass(frozen=True)
class _OffBoardCage:
    """A test-only rule: a two-cell cage whose sets include one with a digit past 4."""

    type: ClassVar[str] = "test-off-board-cage"

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        sets = frozenset({frozenset({1, 4}), frozenset({2, 3}), frozenset({5, 6})})
        yield DigitSets(((0, 0), (1, 2)), sets)

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type}


def test_digit_sets_beyond_the_board_never_fit() -> None:
    shape = Shape(2, 2)
    puzzle = Puzzle.empty(shape, (_OffBoardCage(),))
    expected = sum(1 for g in all_4x4() if _cage_ok(g, ("r1c1", "r2c3"), 5))
    for name, options in BACKENDS:
        assert _count(name, options, puzzle, 300) == expected, (name, options)
