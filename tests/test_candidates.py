"""True candidates: known counts (empty 4x4, diagonals by brute force, unique puzzles), pysat's
backbone as an independent oracle, and every backend agreeing on every model tried."""

from __future__ import annotations

import functools
import itertools
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from pysat.examples.bbscan import BBScan
from pysat.formula import CNF

from satsudoku.backends import available, get_backend
from satsudoku.cli import main
from satsudoku.encoders.cnf import encode_puzzle
from satsudoku.errors import OptionError
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from satsudoku.tools.candidates import STRATEGIES, agree, true_candidates
from tests.conftest import BUNDLED, REPO, puzzle_from_line

BACKENDS = [name for name in STRATEGIES if name in available()]
SEVENTEEN = (BUNDLED / "17clue.txt").read_text().splitlines()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@functools.cache
def all_4x4_grids() -> list[tuple[int, ...]]:
    """Every 4x4 Sudoku grid, by brute force over row permutations (no solver involved)."""
    rows = list(itertools.permutations(range(1, 5)))

    def fits(above: tuple[tuple[int, ...], ...], row: tuple[int, ...]) -> bool:
        columns = all(row[i] != other[i] for other in above for i in range(4))
        partner = above[-1] if len(above) % 2 else None  # the row sharing this row's boxes
        boxes = partner is None or all(
            {row[j], row[j + 1]}.isdisjoint({partner[j], partner[j + 1]}) for j in (0, 2)
        )
        return columns and boxes

    grids: list[tuple[tuple[int, ...], ...]] = [()]
    for _ in range(4):
        grids = [grid + (row,) for grid in grids for row in rows if fits(grid, row)]
    return [tuple(v for row in grid for v in row) for grid in grids]


def brute_counts(grids: list[tuple[int, ...]], cap: int) -> list[dict[int, int]]:
    per_cell: list[Counter[int]] = [Counter(grid[i] for grid in grids) for i in range(16)]
    return [{d: min(k, cap) for d, k in counter.items()} for counter in per_cell]


def two_clues_removed() -> Puzzle:
    """The first 17-clue puzzle without its first two givens: tens of thousands of grids."""
    puzzle = puzzle_from_line(SEVENTEEN[0])
    values = list(puzzle.givens.values)
    for index in [i for i, v in enumerate(values) if v][:2]:
        values[index] = 0
    return replace(puzzle, givens=Grid(9, tuple(values)))


def test_brute_force_oracle_counts_288_grids() -> None:
    assert len(all_4x4_grids()) == 288


@pytest.mark.parametrize("line", SEVENTEEN[:3])
def test_unique_puzzle_candidates_are_its_solution(backend: str, line: str) -> None:
    puzzle = puzzle_from_line(line)
    solution = get_backend("bitmask").solve(puzzle).solutions[0]
    found = true_candidates(puzzle, backend)
    assert found.status is Status.UNIQUE
    assert [dict(c) for c in found.counts] == [{d: 1} for d in solution.values]


@pytest.mark.parametrize(("cap", "expected"), [(1, 1), (50, 50), (100, 72)])
def test_empty_4x4_counts_are_72_each(backend: str, cap: int, expected: int) -> None:
    found = true_candidates(Puzzle.empty(Shape(2, 2)), backend, cap=cap)
    assert found.status is Status.MULTIPLE
    assert [dict(c) for c in found.counts] == [dict.fromkeys(range(1, 5), expected)] * 16


@pytest.mark.parametrize("cap", [1, 7, 100])
def test_4x4_with_both_diagonals_matches_brute_force(backend: str, cap: int) -> None:
    grids = [
        g
        for g in all_4x4_grids()
        if len({g[0], g[5], g[10], g[15]}) == 4 and len({g[3], g[6], g[9], g[12]}) == 4
    ]
    assert len(grids) == 48
    shape = Shape(2, 2)
    puzzle = Puzzle.empty(shape, [make_rule({"type": "diagonal"}, shape)])
    found = true_candidates(puzzle, backend, cap=cap)
    assert [dict(c) for c in found.counts] == brute_counts(grids, cap)


@pytest.mark.parametrize("name", ["sat", "bitmask"])  # cpsat takes ~2 s here: see the 6x6 ones
def test_two_clues_removed_agree_with_pysat_backbone(name: str) -> None:
    """A digit is a candidate exactly when 'not this digit here' is not a backbone literal."""
    puzzle = two_clues_removed()
    formula = encode_puzzle(puzzle)
    backbone = set(BBScan(CNF(from_clauses=formula.clauses), solver="g3").compute())
    possible = [
        {d for d in range(1, 10) if -(index * 9 + d) not in backbone} for index in range(81)
    ]
    found = true_candidates(puzzle, name)
    assert found.status is Status.MULTIPLE
    assert [set(c) for c in found.counts] == possible
    assert sum(len(c) for c in possible) == 350  # measured once; pins the example


VARIANTS = [
    "cells/odd-even-6x6.json",
    "chess/antiknight-6x6.json",
    "dots/kropki-6x6.json",
    "groups/jigsaw-6x6.json",
    "killer/killer-6x6.json",
    "lines/thermometer-6x6.json",
]


@pytest.mark.parametrize("model", VARIANTS)
def test_variant_models_every_backend_agrees(model: str) -> None:
    """Half the givens removed, so there are several solutions; counts to 2 must agree."""
    puzzle = read_puzzles(REPO / "models" / "variants" / model)[0]
    values = list(puzzle.givens.values)
    for index in [i for i, v in enumerate(values) if v][::2]:
        values[index] = 0
    loose = replace(puzzle, givens=Grid(puzzle.size, tuple(values)))
    results = [true_candidates(loose, name, cap=2) for name in BACKENDS]
    agreed = agree(results)  # raises on any difference
    assert agreed.status is Status.MULTIPLE
    assert all(found.complete for found in results)


def test_unsatisfiable_puzzle_has_no_candidates(backend: str) -> None:
    # No house repeats a given, but r1c3 and r1c4 must hold 3 and 4 while r2c3 holds the 3.
    puzzle = puzzle_from_line("12....3.........")
    found = true_candidates(puzzle, backend)
    assert get_backend("bitmask").solve(puzzle).status is Status.UNSATISFIABLE
    assert found.status is Status.UNSATISFIABLE
    assert not any(found.counts)


def test_timeout_leaves_status_unknown() -> None:
    found = true_candidates(two_clues_removed(), "sat", timeout=1e-9)
    assert found.status is Status.UNKNOWN and not found.complete


def test_cap_out_of_range_is_refused() -> None:
    with pytest.raises(OptionError, match="^cap must be an integer from 1 to 1,000, not 0$"):
        true_candidates(Puzzle.empty(Shape(2, 2)), cap=0)


def test_cli_text_shows_the_solution_as_pencil_marks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(SEVENTEEN[0] + "\n")
    assert main(["candidates", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("# puzzle 1: unique (81 candidates")
    solution = get_backend("bitmask").solve(puzzle_from_line(SEVENTEEN[0])).solutions[0]
    rows = [line.replace("|", "").split() for line in out[1:12] if "+" not in line]
    assert [int(d) for row in rows for d in row] == list(solution.values)


def test_cli_json_counts_and_backend_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text("." * 16 + "\n" + "12....3........." + "\n")
    assert main(["candidates", str(path), "--json", "--cap", "100", "--backend", "all"]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["status"] == "multiple" and first["cap"] == 100
    assert first["candidates"] == [{"1": 72, "2": 72, "3": 72, "4": 72}] * 16
    assert second["status"] == "unsatisfiable" and second["candidates"] == [{}] * 16


def test_cli_bad_cap_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["candidates", "--cap", "0", "-"])
    assert stop.value.code == 2
    assert "--cap" in capsys.readouterr().err


def test_cli_render_draws_every_candidate_as_a_pencil_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, out = tmp_path / "p.txt", tmp_path / "marks.svg"
    path.write_text("..3.\n....\n....\n.1..\n")
    assert main(["candidates", str(path), "--render", str(out)]) == 0
    assert "44 candidates" in capsys.readouterr().out
    assert out.read_text().count('class="mark"') == 44 - 2  # the two givens are drawn as such
    assert main(["candidates", str(path), "--render", str(tmp_path / "marks.txt")]) == 2
    assert "name an .svg or .png file" in capsys.readouterr().err
