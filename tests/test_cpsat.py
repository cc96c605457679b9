"""CP-SAT backend: real solves agree with the bitmask reference; counts, edge cases, model text."""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from ortools.sat.python import cp_model

from satsudoku.backends import cpsat as cpsat_backend
from satsudoku.backends import get_backend
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.backends.cpsat import CpSatBackend, certify
from satsudoku.cli import main
from satsudoku.constraints import Allowed, Constraint, Less, Table
from satsudoku.encoders.cpsat import MODEL_NAMES, build, model_text
from satsudoku.errors import BackendBugError, PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_text
from satsudoku.puzzle import Puzzle
from satsudoku.result import Proof, Status
from satsudoku.rules import load_plugin
from tests.conftest import (
    BUNDLED,
    REPO,
    grid_from_line,
    puzzle_from_line,
    referee,
    sample_lines,
)

HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"


@pytest.fixture(params=MODEL_NAMES)
def cpsat(request: pytest.FixtureRequest) -> CpSatBackend:
    return CpSatBackend(model=request.param)


@dataclass(frozen=True)
class _Extras:
    """A test-only rule emitting every core kind plus a decomposable one."""

    type: ClassVar[str] = "test-extras"

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        yield Allowed((0, 0), frozenset({1, 3}))  # odd
        yield Less((0, 1), (0, 2))  # decomposed into a Table by lower()
        yield Table(((1, 0), (1, 1)), frozenset({(2, 1), (4, 3), (3, 4)}))

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type}


def sample_puzzles(path: Path, k: int, seed: int = 2026) -> list[Puzzle]:
    """k puzzles of a one-puzzle-per-line file, drawn reproducibly, read by the real parser."""
    return [read_text(line, source=path.name)[0] for line in sample_lines(path, k, seed)]


def test_registry_builds_cpsat() -> None:
    assert isinstance(get_backend("cpsat", model="integer", workers=2), CpSatBackend)


@pytest.mark.parametrize("presolve", [True, False])
def test_empty_4x4_has_288_grids(cpsat: CpSatBackend, presolve: bool) -> None:
    cpsat.presolve = presolve
    result = cpsat.solve(Puzzle.empty(Shape(2, 2)), limit=300)
    assert len(result.solutions) == 288 and result.status is Status.MULTIPLE
    assert result.count == 288 and result.proof and result.proof.method == "cp-exhausted"


def test_empty_2x3_count_is_stopped_by_the_limit(cpsat: CpSatBackend) -> None:
    result = cpsat.solve(Puzzle.empty(Shape(2, 3)), limit=50)  # 28,200 grids exist
    assert len(result.solutions) == 50 and result.status is Status.MULTIPLE
    assert result.count is None


# Two puzzles a dataset by default (~0.7 s of CPU for both models), eight under -m slow.
@pytest.mark.parametrize("k", [2, pytest.param(8, marks=pytest.mark.slow)])
def test_agrees_with_bitmask_on_bundled_samples(cpsat: CpSatBackend, k: int) -> None:
    for path in sorted(BUNDLED.glob("*.txt")):
        if path.name.endswith(".solutions.txt") or "x-sudoku" in path.name:
            continue
        for puzzle in sample_puzzles(path, k):
            expected, got = referee(puzzle), cpsat.solve(puzzle)
            assert got.status is expected.status, puzzle.origin
            if expected.status is Status.UNIQUE:
                assert got.solutions == expected.solutions


def test_16x16_and_25x25_match_known_solutions() -> None:
    backend = CpSatBackend()
    for stem in ("16x16-acwing169-sample", "25x25-durr-example"):
        puzzle = puzzle_from_line((BUNDLED / f"{stem}.txt").read_text())
        known = grid_from_line((BUNDLED / f"{stem}.solutions.txt").read_text())
        result = backend.solve(puzzle, limit=1)
        assert result.status is Status.SOLVED and result.solution == known


def test_limit_one_with_workers_solves() -> None:
    result = CpSatBackend(workers=2).solve(puzzle_from_line(HARD), limit=1)
    assert result.status is Status.SOLVED and result.stats["workers"] == 2


def test_counting_uses_one_worker_even_when_more_are_asked() -> None:
    result = CpSatBackend(workers=2).solve(Puzzle.empty(Shape(2, 2)), limit=300)
    assert result.count == 288 and result.stats["workers"] == 1


def test_clashing_givens_are_unsatisfiable(cpsat: CpSatBackend) -> None:
    puzzle = puzzle_from_line("11" + "." * 79)
    result = cpsat.solve(puzzle)
    assert result.status is Status.UNSATISFIABLE and result.solutions == ()


def test_unsatisfiable_without_direct_clash(cpsat: CpSatBackend) -> None:
    # r1c9 sees 1..8 in its row, and 9 in its column: no digit is left for it.
    puzzle = puzzle_from_line("12345678." + "........9" + "." * 63)
    result = cpsat.solve(puzzle)
    assert result.status is Status.UNSATISFIABLE
    assert BitmaskBackend().solve(puzzle).status is Status.UNSATISFIABLE


def test_given_outside_a_rule_domain_is_unsatisfiable(cpsat: CpSatBackend) -> None:
    givens = Grid(4, (2,) + (0,) * 15)  # r1c1 must be odd
    result = cpsat.solve(Puzzle(Shape(2, 2), givens, (_Extras(),)))  # type: ignore[arg-type]
    assert result.status is Status.UNSATISFIABLE
    assert result.proof and result.proof.method == "domain-conflict"


def test_every_constraint_kind_counts_like_bitmask(cpsat: CpSatBackend) -> None:
    puzzle = Puzzle.empty(Shape(2, 2), (_Extras(),))  # type: ignore[arg-type]
    expected = BitmaskBackend().solve(puzzle, limit=300)
    got = cpsat.solve(puzzle, limit=300)
    assert got.count == expected.count and set(got.solutions) == set(expected.solutions)
    assert 0 < (got.count or 0) < 288


def test_timeout_gives_unknown() -> None:
    puzzle = Puzzle.empty(Shape(5, 5))  # 625 cells: loading alone outlasts a microsecond
    result = CpSatBackend().solve(puzzle, limit=2, timeout=1e-6)
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "timeout"
    assert result.count is None


def test_model_is_reused_across_a_batch() -> None:
    backend = CpSatBackend()
    first = puzzle_from_line(HARD)
    second = puzzle_from_line("4" + "." * 80)
    a1 = backend.solve(first)
    backend.solve(second)  # different givens in the same proto
    a2 = backend.solve(first)
    assert a1.solutions == a2.solutions and a1.status is Status.UNIQUE


@pytest.mark.parametrize("model", MODEL_NAMES)
def test_model_text_parses_back_and_solves(model: str) -> None:
    puzzle = puzzle_from_line(HARD)
    text = model_text(puzzle, model=model)
    parsed = cp_model.CpModel()
    parsed.Proto().parse_text_format(text)
    assert str(parsed.Proto()) == text
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(parsed) == cp_model.OPTIMAL
    expected = BitmaskBackend().solve(puzzle).solution
    assert build(puzzle.shape, (), model).decode(list(solver.response_proto.solution)) == expected


def test_unknown_model_name_is_a_user_error() -> None:
    with pytest.raises(PuzzleError, match="choose from integer, boolean"):
        CpSatBackend(model="sparse")


def test_agrees_with_bitmask_on_shared_data(shared_data: Path) -> None:
    backend, reference = CpSatBackend(), BitmaskBackend()
    for name in ("17clue.txt", "top1465.txt", "forum-hardest-1106.txt", "serg-benchmark.txt"):
        for puzzle in sample_puzzles(shared_data / name, 10, seed=11):
            expected, got = reference.solve(puzzle), backend.solve(puzzle)
            assert got.status is expected.status, puzzle.origin
            if got.status is Status.UNIQUE:
                assert got.solutions == expected.solutions


# One of forum-hardest by default, three under -m slow (~0.3 s of CPU each).
@pytest.mark.parametrize("hardest", [1, pytest.param(3, marks=pytest.mark.slow)])
def test_certified_mode_checks_cpsat_drat_with_our_checker(hardest: int) -> None:
    backend = CpSatBackend(certified=True)
    for line in sample_lines(BUNDLED / "forum-hardest-1106.txt", hardest) + [HARD]:
        result = backend.solve(puzzle_from_line(line))
        assert result.status is Status.UNIQUE and result.proof is not None
        assert result.proof.method == "cp-drat" and result.proof.details["certified"] is True
    unsat = backend.solve(puzzle_from_line("12345678." + "........9" + "." * 63))
    assert unsat.status is Status.UNSATISFIABLE and unsat.proof
    assert unsat.proof.method == "cp-drat"
    multiple = backend.solve(Puzzle.empty(Shape(2, 2)))
    assert multiple.proof and multiple.proof.method == "witness"  # two grids need no refutation


def test_certified_mode_is_classic_only() -> None:
    rules = (_Extras(),)
    grid = BitmaskBackend().solve(Puzzle.empty(Shape(2, 2), rules), limit=1).solution  # type: ignore[arg-type]
    assert grid is not None
    with pytest.raises(PuzzleError, match="classic Sudoku only"):
        CpSatBackend(certified=True).solve(Puzzle(Shape(2, 2), grid, rules))  # type: ignore[arg-type]


def _zero_solution_lines(k: int) -> list[str]:
    """tdoku's puzzles labelled with 0 solutions (PUZZLE:0), the first k."""
    lines = (BUNDLED / "tdoku-test-puzzles.labeled.txt").read_text().splitlines()
    return [line.partition(":")[0] for line in lines if line.partition(":")[2] == "0"][:k]


@pytest.mark.parametrize("line", _zero_solution_lines(3))
def test_certified_unsat_needs_and_checks_real_lemmas(line: str) -> None:
    result = CpSatBackend(certified=True).solve(puzzle_from_line(line))
    assert result.status is Status.UNSATISFIABLE and result.proof is not None
    assert result.proof.method == "cp-drat" and result.proof.details["lemmas"] > 100


def test_a_rejected_certificate_is_a_bug_not_a_quiet_downgrade(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from satsudoku.proof import drat

    monkeypatch.setattr(drat, "check_drat", lambda *_: drat.DratVerdict(False, "forged"))
    with pytest.raises(BackendBugError, match="DRAT proof is rejected: forged"):
        CpSatBackend(certified=True).solve(puzzle_from_line(_zero_solution_lines(1)[0]))


def test_certifying_a_wrong_claim_is_a_bug() -> None:
    puzzle = puzzle_from_line(HARD)
    wrong = BitmaskBackend().solve(Puzzle.empty(Shape(3, 3)), limit=1).solution
    assert wrong is not None
    with pytest.raises(BackendBugError, match="certification failed"):
        certify(puzzle, wrong)  # its blocking clause leaves the real solution: satisfiable


def test_certification_out_of_time_gives_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    expired = functools.partial(cpsat_backend.certify, deadline=0.0)  # long past
    monkeypatch.setattr(cpsat_backend, "certify", lambda p, s, deadline: expired(p, s))
    result = CpSatBackend(certified=True).solve(puzzle_from_line(HARD), timeout=60)
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "timeout"
    assert result.proof and result.proof.details["certification"] == "timeout"
    assert len(result.solutions) == 1  # the grid found is still reported, just not proved


def test_certification_gets_the_remaining_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[float | None] = []
    real = cpsat_backend.certify

    def spy(puzzle: Puzzle, solution: Grid | None, *, deadline: float | None) -> Proof:
        seen.append(deadline)
        return real(puzzle, solution, deadline=deadline)

    monkeypatch.setattr(cpsat_backend, "certify", spy)
    before = time.perf_counter()
    CpSatBackend(certified=True).solve(puzzle_from_line(HARD), timeout=30)
    after = time.perf_counter()
    assert seen and seen[0] is not None and before + 30 < seen[0] < after + 30  # solve's deadline


# A plugin rule making seventeen cells all different on a 16x16 board (one per row plus one): a
# pigeonhole (17 cells, 16 digits) that CDCL search cannot refute in any reasonable time.
PIGEONHOLE_PLUGIN = """
from dataclasses import dataclass
from typing import ClassVar
from satsudoku.constraints import AllDifferent
from satsudoku.rules import register_rule

@register_rule("pigeonhole")
@dataclass(frozen=True)
class Pigeonhole:
    type: ClassVar[str] = "pigeonhole"

    @classmethod
    def from_spec(cls, spec, shape):
        return cls()

    def constraints(self, shape):
        n = shape.size
        yield AllDifferent(tuple((r, (r * 5) % n) for r in range(n)) + ((n - 1, 1),))

    def to_spec(self):
        return {"type": self.type}
"""


@pytest.fixture
def endless(tmp_path: Path) -> list[str]:
    return write_endless(tmp_path)


def write_endless(tmp_path: Path) -> list[str]:
    """Arguments of a CP-SAT solve that would run for hours: a hidden 17-into-16 pigeonhole."""
    plugin = tmp_path / "pigeonhole.py"
    plugin.write_text(PIGEONHOLE_PLUGIN)
    document = tmp_path / "p.json"
    document.write_text('{"size": 16, "rules": [{"type": "pigeonhole"}]}')
    return [str(document), "--plugin", str(plugin), "--backend", "cpsat"]


@pytest.mark.slow  # seconds of waiting or solving: CI's `pytest -m slow` runs it
def test_ctrl_c_stops_a_cpsat_search_like_bitmask(endless: list[str]) -> None:
    for command in ("solve", "count"):
        code, err, waited = interrupt([command, *endless, "--timeout", "120"], after=4)
        assert (code, err) == (130, "satsudoku: interrupted\n") and waited < 10


def interrupt(
    argv: list[str], *, after: float, ready: Callable[[], bool] | None = None
) -> tuple[int, str, float]:
    """Run `satsudoku ARGV`, press Ctrl-C after `after` s (and once `ready()` holds, if given,
    so a fast machine cannot finish first): exit code, stderr, time Ctrl-C took to act."""
    process = subprocess.Popen(
        [sys.executable, "-m", "satsudoku", *argv],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # even if inherited
    )
    time.sleep(after)
    while ready is not None and not ready() and process.poll() is None:
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    _, err = process.communicate(timeout=60)
    return process.returncode, err, time.perf_counter() - sent


def once_searching(action: Callable[[], object]) -> None:
    """Run `action` in a thread 0.2 s after a CP-SAT search has started. Not on a timer: at
    load 15 building the model took past 1 s, and a Ctrl-C or stop before the search starts
    is not the case under test."""

    def wait_then_act() -> None:
        for _ in range(3000):
            if cpsat_backend._RUNNING:
                break
            time.sleep(0.01)
        time.sleep(0.2)
        action()

    threading.Thread(target=wait_then_act, daemon=True).start()


def test_an_interrupted_search_is_never_called_a_timeout(endless: list[str]) -> None:
    load_plugin(endless[2])
    puzzle = read_text(Path(endless[0]).read_text())[0]
    previous = signal.signal(signal.SIGINT, lambda *_: None)  # a handler that does not raise
    try:
        once_searching(lambda: os.kill(os.getpid(), signal.SIGINT))
        started = time.perf_counter()
        result = CpSatBackend().solve(puzzle, timeout=60)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "interrupted"
    assert time.perf_counter() - started < 20


def test_a_search_stopped_with_time_left_is_a_bug_not_a_timeout(endless: list[str]) -> None:
    load_plugin(endless[2])
    puzzle = read_text(Path(endless[0]).read_text())[0]
    backend = CpSatBackend()
    once_searching(lambda: backend._solver.stop_search())
    with pytest.raises(BackendBugError, match="neither interrupted nor out of time"):
        backend.solve(puzzle, timeout=60)


def test_encode_exports_the_model_solve_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(HARD)
    assert main(["encode", str(path), "--backend", "cpsat"]) == 0
    default = CpSatBackend().kind.value
    assert default == "boolean"
    assert capsys.readouterr().out.rstrip("\n") == model_text(puzzle_from_line(HARD), default)


def test_presolve_is_switchable_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(HARD)
    for extra, presolve in (([], False), (["--presolve"], True)):
        assert main(["solve", str(path), "--backend", "cpsat", "--json", *extra]) == 0
        record = json.loads(capsys.readouterr().out)
        assert record["status"] == "unique" and record["stats"]["presolve"] is presolve
