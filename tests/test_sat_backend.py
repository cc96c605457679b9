"""The SAT backend: statistics, limits, timeouts that stop, sessions, batches, certificates."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from satsudoku import Puzzle, PuzzleError, Result, Shape, Status
from satsudoku.backends import sat
from satsudoku.backends.sat import SatBackend
from satsudoku.constraints import Allowed, Constraint
from satsudoku.grid import Grid
from satsudoku.proof.certificate import SatCertificate, check_certificate
from tests.conftest import BUNDLED, puzzle_from_line, referee, sample_lines

NINE = Shape(3, 3)


def _puzzles(name: str, k: int) -> list[Puzzle]:
    return [puzzle_from_line(line, NINE) for line in sample_lines(BUNDLED / name, k)]


def test_statistics_are_reported() -> None:
    result = SatBackend().solve(_puzzles("top1465.txt", 1)[0])
    assert result.status is Status.UNIQUE
    for key in ("variables", "clauses", "conflicts", "decisions", "propagations", "time_s"):
        assert key in result.stats
    assert result.stats["variables"] == 729 and result.proof is not None
    assert result.proof.method == "sat-refutation"


def test_limit_one_is_solved_and_limit_counts() -> None:
    backend = SatBackend()
    assert backend.solve(_puzzles("17clue.txt", 1)[0], limit=1).status is Status.SOLVED
    result = backend.solve(Puzzle.empty(Shape(2, 2)), limit=5)
    assert result.status is Status.MULTIPLE and len(set(result.solutions)) == 5


def test_counting_guards_its_blocking_clauses_with_one_selector() -> None:
    """The 288 grids of the empty 4x4, twice on one session: the second count sees none of the
    first one's blocking clauses, and each count adds one selector variable, not one per grid
    (one per grid made the k-th solver call carry k assumptions: 39,168 6x6 grids took 292 s)."""
    backend = SatBackend()
    empty = Puzzle.empty(Shape(2, 2))
    first = backend.solve(empty, limit=1000)
    assert first.status is Status.MULTIPLE and first.exhausted
    assert len(set(first.solutions)) == 288
    session = backend._session
    assert isinstance(session, sat._Session)
    before = session.next_var
    again = backend.solve(empty, limit=1000)
    assert set(again.solutions) == set(first.solutions) and again.exhausted
    assert session.next_var == before + 1


@dataclass(frozen=True)
class _Pigeons:
    """Row 1 may only use digits 1..n-1: a hidden pigeonhole, hopeless for CDCL (minimal CNF)."""

    type: ClassVar[str] = "test-pigeons"

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        digits = frozenset(range(1, shape.size))
        for c in range(shape.size):
            yield Allowed((0, c), digits)

    def to_spec(self) -> dict[str, Any]:
        return {"type": self.type}


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_timeout_really_stops(solver: str) -> None:
    puzzle = Puzzle.empty(Shape(4, 4), [_Pigeons()])
    start = time.perf_counter()
    result = SatBackend(encoding="minimal", solver=solver).solve(puzzle, timeout=0.5)
    assert time.perf_counter() - start < 3.0
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "timeout"


def test_interruptible_solvers_are_not_slowed_by_a_timeout() -> None:
    """MapleChrono ran 5-7x slower in conflict-budget slices (restarts at every slice); with
    a timer interrupt a timed solve is the very same search as an untimed one."""
    line = (BUNDLED / "tdoku-test-puzzles.labeled.txt").read_text().splitlines()[10]
    puzzle = puzzle_from_line(line.split(":")[0], NINE)
    backend = SatBackend(encoding="extended", solver="maplechrono")
    free = backend.solve(puzzle)
    timed = SatBackend(encoding="extended", solver="maplechrono").solve(puzzle, timeout=60)
    assert timed.status is free.status and timed.solutions == free.solutions
    assert timed.stats["conflicts"] == free.stats["conflicts"]  # the same search, not slices


@pytest.mark.parametrize("solver", ["maplechrono", "minisat22"])
def test_interrupted_solvers_stop_at_the_deadline(solver: str) -> None:
    puzzle = Puzzle.empty(Shape(4, 4), [_Pigeons()])
    result = SatBackend(encoding="minimal", solver=solver).solve(puzzle, timeout=0.3)
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "timeout"
    assert result.time_s < 1.5


def test_every_pysat_spelling_of_a_solver_is_accepted() -> None:
    assert sat.parse_solver("g4") == "glucose4" and sat.parse_solver("cd19") == "cadical195"
    assert sat.parse_solver("mgh") == "minisatgh" == sat.parse_solver("minisatgh")
    result = SatBackend(solver="minisatgh").solve(_puzzles("top1465.txt", 1)[0])
    assert result.status is Status.UNIQUE and result.proof is not None
    assert result.proof.details["solver"] == "minisatgh"


def test_kissat_reports_no_counters_rather_than_zeros() -> None:
    result = SatBackend(solver="kissat404").solve(_puzzles("top1465.txt", 1)[0])
    assert result.status is Status.UNIQUE
    assert "conflicts" not in result.stats and "decisions" not in result.stats


def test_timeout_during_enumeration_keeps_what_was_found() -> None:
    start = time.perf_counter()
    result = SatBackend().solve(Puzzle.empty(NINE), limit=10**9, timeout=1.0)  # build, grids
    assert time.perf_counter() - start < 3.0
    assert result.status is Status.MULTIPLE and result.stats["stopped"] == "timeout"


def test_solvers_that_cannot_stop_refuse_a_timeout() -> None:
    with pytest.raises(PuzzleError, match="cannot stop early"):
        SatBackend(solver="lingeling").solve(_puzzles("17clue.txt", 1)[0], timeout=1.0)


def test_bad_names_are_user_errors() -> None:
    with pytest.raises(PuzzleError, match="unknown encoding"):
        SatBackend(encoding="tiny")
    with pytest.raises(PuzzleError, match="unknown SAT solver"):
        SatBackend(solver="picosat")
    with pytest.raises(PuzzleError, match="at-most-one"):
        SatBackend(amo="magic")


def test_kissat_runs_one_shot_without_assumptions() -> None:
    backend = SatBackend(solver="kissat404")
    for puzzle in _puzzles("serg-benchmark.txt", 3) + _puzzles("top1465.txt", 2):
        assert backend.solve(puzzle).status is referee(puzzle).status


def test_session_rebuilds_and_batches_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sat, "REBUILD_EVERY", 3)
    puzzles = _puzzles("serg-benchmark.txt", 5) + _puzzles("forum-hardest-1106.txt", 5)
    puzzles.append(Puzzle.empty(Shape(2, 2)))  # a new shape switches the session
    puzzles += _puzzles("17clue.txt", 3)
    expected = [referee(p) for p in puzzles]
    got = list(SatBackend().solve_many(puzzles))
    assert [r.status for r in got] == [r.status for r in expected]
    assert [r.solution for r in got if r.status is Status.UNIQUE] == [
        r.solution for r in expected if r.status is Status.UNIQUE
    ]


@pytest.mark.parametrize("solver", sorted(sat.UP_PROOF))
def test_unit_propagation_shortcut_agrees_with_the_blocking_call(
    solver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzles = _puzzles("17clue.txt", 20) + _puzzles("serg-benchmark.txt", 10)
    puzzles += _puzzles("top1465.txt", 5) + [Puzzle.empty(Shape(2, 2))]

    def verdicts(results: Iterator[Result]) -> list[tuple[Status, Grid | None]]:
        # a second solution depends on the search path; the verdict and a unique one do not
        return [(r.status, r.solution if r.status is Status.UNIQUE else None) for r in results]

    fast = verdicts(SatBackend(solver=solver).solve_many(puzzles))
    assert sum(status is Status.MULTIPLE for status, _ in fast) == 11
    monkeypatch.setattr(sat, "UP_PROOF", {})  # always make the second, blocking call
    assert verdicts(SatBackend(solver=solver).solve_many(puzzles)) == fast
    assert verdicts(referee(p) for p in puzzles) == fast


@pytest.mark.parametrize("solver", sorted(sat.UP_PROOF))
def test_a_kept_trail_does_not_pass_for_unit_propagation(solver: str) -> None:
    # CaDiCaL keeps the last call's trail between calls (incremental lazy backtracking): after
    # a limit-1 solve, the empty grid came back with no decisions and was called unique.
    backend = SatBackend(solver=solver)
    first = backend.solve(Puzzle(Shape(2, 3), Grid(6, (2, 1, 6, 5, 4, 3) + (0,) * 30)), limit=1)
    assert first.status is Status.SOLVED
    again = backend.solve(Puzzle.empty(Shape(2, 3)), limit=2)
    assert again.status is Status.MULTIPLE and len(again.solutions) == 2
    assert backend.solve(Puzzle.empty(Shape(2, 2)), limit=300).count == 288


@pytest.mark.parametrize("line", ["11" + "." * 79, None])
def test_certify_attaches_a_checkable_certificate(line: str | None) -> None:
    puzzle = puzzle_from_line(line, NINE) if line else _puzzles("top1465.txt", 1)[0]
    result = SatBackend().solve(puzzle, certify=True)
    assert result.status in (Status.UNIQUE, Status.UNSATISFIABLE)
    assert result.proof is not None
    certificate = result.proof.certificate
    assert isinstance(certificate, SatCertificate)
    assert certificate.status == result.status.value
    assert check_certificate(certificate).ok
    assert result.proof.to_json()["certificate"]["lemmas"] >= 0
