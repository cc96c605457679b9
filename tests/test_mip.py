"""MIP backend: real SCIP and HiGHS solves; counts by no-good cuts, models, limits, agreement."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from satsudoku.backends import available, backend_names, get_backend
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.backends.mip import MIP_SOLVERS, MipBackend
from satsudoku.bench import parse_configs
from satsudoku.cli import main
from satsudoku.constraints import Constraint, Sum, TableTooLargeError
from satsudoku.crosscheck import CrossCheckBackend
from satsudoku.encoders import mip as mip_encoder
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from tests.conftest import BUNDLED, REPO, puzzle_from_line, referee, sample_lines
from tests.test_cpsat import _Extras, interrupt

# Every kind of the constraint vocabulary is in one of these: tables of 2 cells (dots, chess,
# whispers, thermometers), of 3 (between) and 4+ (nabner, parity, region-sum lines), killer
# cages and renban (DigitSets), sums (little killer, arrows), quadruples, sandwiches (x-sum's
# cousin in the 9x9 sandwich model), domains (odd/even, fortress), extra houses. CPU seconds
# with SCIP, measured: each under 0.15 s, the 9×9 ones included; the Miracle's rules on an empty
# grid, doggo and pill-arrow are left out (minutes: docs/backends.md).
FAST_MODELS = sorted(
    p
    for p in (REPO / "models").rglob("*")
    if p.suffix in (".json", ".toml") and "6x6" in p.name and "first-row" not in p.name
) + [
    REPO / "models/classic/ai-escargot.toml",
    REPO / "models/variants/killer/wikipedia-killer.json",
    REPO / "models/variants/miracle/miracle-sudoku.json",
    REPO / "models/variants/real/sandwich.json",
]
HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"


@pytest.fixture(scope="module", params=MIP_SOLVERS)
def mip(request: pytest.FixtureRequest) -> MipBackend:
    return MipBackend(request.param)


def test_registry_lists_mip_on_request_only() -> None:
    assert "mip" in backend_names() and "mip" in available(partial=True)
    assert "mip" not in available()  # too slow for every all-backends test (see registry)
    assert isinstance(get_backend("mip", mip_solver="highs"), MipBackend)


def test_unknown_solver_is_a_user_error() -> None:
    with pytest.raises(PuzzleError, match="unknown MIP solver 'cbc'; choose from scip, highs"):
        MipBackend("cbc")


@pytest.mark.slow  # seconds of waiting or solving: CI's `pytest -m slow` runs it
def test_empty_4x4_has_288_grids_by_no_good_cuts() -> None:
    result = MipBackend().solve(Puzzle.empty(Shape(2, 2)), limit=300)
    assert result.count == 288 and result.status is Status.MULTIPLE
    assert result.stats["solves"] == 289  # one per grid, and the infeasible one that ends it
    assert result.proof and result.proof.method == "mip-exhausted"
    assert str(result.proof.details["trust"]).startswith("solver-trusted")


def test_4x4_with_its_first_row_given_has_12_grids(mip: MipBackend) -> None:
    puzzle = Puzzle(Shape(2, 2), Grid(4, (1, 2, 3, 4) + (0,) * 12))
    result = mip.solve(puzzle, limit=20)
    expected = BitmaskBackend().solve(puzzle, limit=20)
    assert result.count == 12 and set(result.solutions) == set(expected.solutions)


def test_the_limit_stops_the_enumeration(mip: MipBackend) -> None:
    result = mip.solve(Puzzle.empty(Shape(2, 3)), limit=5)  # 28,200 grids exist
    assert len(result.solutions) == 5 and result.count is None
    assert result.status is Status.MULTIPLE and result.proof and result.proof.method == "witness"


# A 6x6 by default (~0.1 s of CPU a solver); the 9x9 HARD (0.6-1.1 s) under -m slow.
@pytest.mark.parametrize(
    "line",
    [
        pytest.param(".2.4.6.5.......56...4.3.3....5...31.", id="6x6"),  # unique
        pytest.param(HARD, id="9x9", marks=pytest.mark.slow),
    ],
)
def test_cuts_are_removed_so_the_shared_model_serves_the_next_puzzle(
    mip: MipBackend, line: str
) -> None:
    first, second = puzzle_from_line(line), puzzle_from_line("4" + "." * (len(line) - 1))
    before = mip.solve(first)
    assert mip.solve(second, limit=3).status is Status.MULTIPLE
    after = mip.solve(first)
    assert before.status is after.status is Status.UNIQUE
    assert before.solutions == after.solutions


# Region-sum lines run by default on regionsumline-6x6.json (0.03 s); these two published ones
# take 1.1-1.4 s of CPU each on MIP: under -m slow. So do the 9x9 miracle (0.85 s) and published
# sandwich (0.69 s): their rules run by default on the chess/ and sums/sandwich 6x6 models.
MIP_SLOW = {
    "variants/real/out-of-the-blue-6x6.json",
    "variants/real/sumthings-6x6.json",
    "variants/miracle/miracle-sudoku.json",
    "variants/real/sandwich.json",
}


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(
            p,
            marks=[pytest.mark.slow] if str(p.relative_to(REPO / "models")) in MIP_SLOW else [],
            id=str(p.relative_to(REPO / "models")),
        )
        for p in FAST_MODELS
    ],
)
def test_fast_models_verdict_and_solution(path: Path) -> None:
    (puzzle,) = read_puzzles(path)
    result = MipBackend().solve(puzzle)
    assert result.status is Status.UNIQUE
    assert puzzle.solution is not None and result.solution == puzzle.solution


def test_clashing_givens_are_unsatisfiable(mip: MipBackend) -> None:
    result = mip.solve(puzzle_from_line("11" + "." * 79))
    assert result.status is Status.UNSATISFIABLE and result.count == 0


def test_unsatisfiable_without_direct_clash(mip: MipBackend) -> None:
    # r1c9 sees 1..8 in its row, and 9 in its column: no digit is left for it.
    puzzle = puzzle_from_line("12345678." + "........9" + "." * 63)
    result = mip.solve(puzzle)
    assert result.status is Status.UNSATISFIABLE and result.exhausted
    assert result.proof and result.proof.method == "mip-exhausted"


def test_given_outside_a_rule_domain_is_a_domain_conflict() -> None:
    givens = Grid(4, (2,) + (0,) * 15)  # r1c1 must be odd
    result = MipBackend().solve(Puzzle(Shape(2, 2), givens, (_Extras(),)))  # type: ignore[arg-type]
    assert result.status is Status.UNSATISFIABLE
    assert result.proof and result.proof.method == "domain-conflict"


def test_every_core_kind_counts_like_bitmask(mip: MipBackend) -> None:
    puzzle = Puzzle.empty(Shape(2, 2), (_Extras(),))  # type: ignore[arg-type]
    expected = BitmaskBackend().solve(puzzle, limit=300)
    got = mip.solve(puzzle, limit=300)
    assert got.count == expected.count and set(got.solutions) == set(expected.solutions)
    assert 0 < (got.count or 0) < 288


# One puzzle a dataset by default, four under -m slow (~1.8 s of CPU).
@pytest.mark.parametrize("k", [1, pytest.param(4, marks=pytest.mark.slow)])
def test_agrees_with_bitmask_on_bundled_samples(k: int) -> None:
    backend = MipBackend()
    for name in ("top1465.txt", "17clue.txt", "forum-hardest-1106.txt", "serg-benchmark.txt"):
        for line in sample_lines(BUNDLED / name, k):
            puzzle = puzzle_from_line(line)
            expected, got = referee(puzzle), backend.solve(puzzle)
            assert got.status is expected.status, (name, line)
            assert set(got.solutions) <= set(expected.solutions) or not expected.exhausted


def test_timeout_gives_unknown_stopped_by_timeout(mip: MipBackend) -> None:
    (puzzle,) = read_puzzles(REPO / "models/variants/miracle/miracle-rules-72.json")
    mip.warm_up(puzzle)
    started = time.perf_counter()
    result = mip.solve(puzzle, timeout=0.5)  # minutes without a limit
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "timeout"
    assert result.count is None and time.perf_counter() - started < 5


def test_timeout_while_building_gives_unknown() -> None:
    puzzle = Puzzle.empty(Shape(5, 7))  # 42,875 binaries: seconds to build, never cached before
    backend = MipBackend()
    backend.warm_up(puzzle, timeout=1e-9)  # bench's warm-up is bounded too: it builds nothing
    started = time.perf_counter()
    result = backend.solve(puzzle, timeout=0.05)
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "timeout"
    assert result.proof and result.proof.details["status"] == "model not built"
    assert time.perf_counter() - started < 2


def test_too_many_table_selectors_are_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mip_encoder, "MAX_SELECTORS", 10)
    (puzzle,) = read_puzzles(REPO / "models/variants/lines/between-6x6.json")
    with pytest.raises(TableTooLargeError, match="selector binaries .limit 10.; use --backend"):
        mip_encoder.build(puzzle.shape, puzzle.rules)


def test_backend_all_runs_mip_beside_the_others(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(REPO / "models/classic/project-euler-96-grid-01.toml")
    assert main(["solve", path, "--backend", "all", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unique" and record["stats"]["mip_status"] == "unique"
    assert "mip" in record["proof"]["agreeing"]


def test_crosscheck_with_mip_counts_alike() -> None:
    puzzle = Puzzle(Shape(2, 2), Grid(4, (1, 2, 3, 4) + (0,) * 12))
    result = CrossCheckBackend(["bitmask", "mip"]).solve(puzzle, limit=20)
    assert result.count == 12


@pytest.mark.slow  # seconds of waiting or solving: CI's `pytest -m slow` runs it
def test_ctrl_c_stops_a_mip_solve_at_once() -> None:
    miracle = str(REPO / "models/variants/miracle/miracle-rules-72.json")
    code, err, waited = interrupt(["solve", miracle, "--backend", "mip"], after=4)
    assert (code, err) == (130, "satsudoku: interrupted\n") and waited < 10


def test_mip_solver_option_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(REPO / "models/classic/project-euler-96-grid-01.toml")
    assert main(["solve", path, "--backend", "mip", "--mip-solver", "highs", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stats"]["solver"] == "highs"
    assert main(["solve", path, "--backend", "mip", "--mip-solver", "cbc"]) == 2
    assert "unknown MIP solver 'cbc'; choose from scip, highs" in capsys.readouterr().err
    assert main(["solve", path, "--backend", "sat", "--mip-solver", "highs"]) == 2


def test_bench_names_mip_configurations() -> None:
    configs = parse_configs("mip,mip:highs")
    assert [(c.backend, dict(c.options)) for c in configs] == [
        ("mip", {}),
        ("mip", {"mip_solver": "highs"}),
    ]
    with pytest.raises(PuzzleError, match="unknown MIP solver 'glpk'"):
        parse_configs("mip:glpk")


@dataclass(frozen=True)
class _Sum:
    """A test-only rule: weight·r1c1 + r1c2 = total."""

    type: ClassVar[str] = "test-sum"
    total: int
    weight: int = 1

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        yield Sum(((0, 0), (0, 1)), self.total, (self.weight, 1))

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type}


def test_sums_out_of_reach_or_of_double_precision() -> None:
    unreachable = Puzzle.empty(Shape(2, 2), (_Sum(21),))  # type: ignore[arg-type]
    assert MipBackend().solve(unreachable).status is Status.UNSATISFIABLE  # at most 4 + 4
    reachable = Puzzle(Shape(2, 2), Grid(4, (3,) + (0,) * 15), (_Sum(5),))  # type: ignore[arg-type]
    assert {grid.values[1] for grid in MipBackend().solve(reachable, limit=5).solutions} == {2}
    huge = Puzzle.empty(Shape(2, 2), (_Sum(2**54, 2**52),))  # type: ignore[arg-type]
    with pytest.raises(PuzzleError, match="past 2\\^53"):
        MipBackend().solve(huge)


def test_prove_certifies_a_mip_verdict_by_a_checked_sat_proof(tmp_path: Path) -> None:
    path = str(REPO / "models/classic/project-euler-96-grid-01.toml")
    certs = tmp_path / "certs"
    assert main(["prove", path, "--backend", "mip", "--certificate", str(certs)]) == 0
    manifest = json.loads(next(certs.rglob("manifest.json")).read_text())
    assert manifest["status"] == "unique"
