"""Cross-checking: every available paradigm agrees on real puzzles, and a liar is caught."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from satsudoku import crosscheck
from satsudoku.backends import Backend, available, get_backend
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.backends.cpsat import CpSatBackend
from satsudoku.backends.sat import SatBackend
from satsudoku.bench import load_tasks
from satsudoku.cli import build_parser, main
from satsudoku.commands.common import backend_from_args
from satsudoku.crosscheck import CrossCheckBackend, CrossCheckError, cross_check, disagreement
from satsudoku.errors import PuzzleError
from satsudoku.grid import Shape
from satsudoku.io import format_line
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result, Status, make_result
from tests.conftest import BUNDLED, REPO, puzzle_from_line

UNIQUE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_bundled_samples_agree_everywhere() -> None:
    assert {"bitmask", "cpsat"} <= set(available())
    for path in sorted(BUNDLED.glob("*.txt")):
        if path.name.endswith(".solutions.txt"):
            continue
        for task in load_tasks([str(path)], sample=4, seed=3):
            results = cross_check(task.puzzle, timeout=20)
            assert set(results) == set(available())


def test_a_wrong_unique_solution_is_reported_with_both_answers() -> None:
    puzzle = puzzle_from_line(UNIQUE)
    results = cross_check(puzzle, backends=["bitmask", "cpsat"])
    many = cross_check(Puzzle.empty(Shape(3, 3)), backends=["bitmask"])["bitmask"]
    liar = replace(results["cpsat"], status=Status.MULTIPLE, solutions=many.solutions)
    message = disagreement(puzzle, {"bitmask": results["bitmask"], "cpsat": liar})
    assert message and "verdicts differ" in message
    assert "bitmask: unique [4" in message and "cpsat: multiple [" in message


def test_a_valid_grid_contradicts_unsatisfiable() -> None:
    puzzle = Puzzle.empty(Shape(2, 2))
    found = cross_check(puzzle, backends=["bitmask"], limit=1)["bitmask"]
    claim = replace(found, status=Status.UNSATISFIABLE, solutions=())
    assert disagreement(puzzle, {"a": found, "b": claim})  # SOLVED vs UNSATISFIABLE


def test_unknown_is_inconclusive_not_a_disagreement() -> None:
    puzzle = puzzle_from_line(UNIQUE)
    results = cross_check(puzzle, backends=["bitmask", "cpsat"])
    unknown = replace(results["cpsat"], status=Status.UNKNOWN, solutions=(), exhausted=False)
    assert disagreement(puzzle, {"bitmask": results["bitmask"], "cpsat": unknown}) is None


def test_crosscheck_backend_returns_the_agreed_result() -> None:
    result = CrossCheckBackend().solve(puzzle_from_line(UNIQUE))
    assert result.status is Status.UNIQUE and result.backend == "all"
    assert result.proof and set(result.proof.details["agreeing"]) == set(available())
    assert all(f"{name}_status" in result.stats for name in available())


def test_crosscheck_error_is_a_bug_report() -> None:
    assert issubclass(CrossCheckError, Exception)
    assert not issubclass(CrossCheckError, PuzzleError)  # not the user's fault


class _DropsOneGrid:
    """A lying backend: the real answer minus its last grid, still claiming exhaustion."""

    name = "liar"

    def __init__(self, honest: Backend) -> None:
        self.honest = honest

    def solve(self, puzzle: Puzzle, *, limit: int = 2, timeout: float | None = None) -> Result:
        real = self.honest.solve(puzzle, limit=limit, timeout=timeout)
        return make_result(
            puzzle,
            self.name,
            real.solutions[:-1],
            exhausted=True,
            limit=limit,
            stats=real.stats,
            proof=real.proof,
        )


def test_an_exhausted_count_missing_a_grid_is_caught() -> None:
    puzzle = Puzzle.empty(Shape(2, 2))
    backends = {"bitmask": get_backend("bitmask"), "liar": _DropsOneGrid(get_backend("cpsat"))}
    with pytest.raises(CrossCheckError, match=r"count differently \(bitmask 288, liar 287\)"):
        cross_check(puzzle, backends=backends, limit=1000)


def test_a_grid_outside_an_exhausted_set_is_caught() -> None:
    puzzle = Puzzle.empty(Shape(2, 2))
    honest = cross_check(puzzle, backends=["bitmask"], limit=1000)["bitmask"]
    liar = _DropsOneGrid(get_backend("bitmask")).solve(puzzle, limit=1000)
    missing = format_line(honest.solutions[-1], puzzle.symbols)
    partial = replace(honest, solutions=honest.solutions[-2:], exhausted=False)  # limit reached
    message = disagreement(puzzle, {"partial": partial, "liar": liar})
    assert message and "partial found a valid grid that liar's exhausted search (287 " in message
    assert missing in message


def test_equal_counts_with_different_grids_are_caught() -> None:
    puzzle = Puzzle.empty(Shape(2, 2))
    honest = cross_check(puzzle, backends=["bitmask"], limit=1000)["bitmask"]
    a = replace(honest, solutions=honest.solutions[:2])
    b = replace(honest, solutions=honest.solutions[2:4])
    message = disagreement(puzzle, {"a": a, "b": b})
    assert message and "found different solutions (a 2, b 2 each)" in message


def test_count_backend_all_exits_3_on_a_liar(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def rigged(name: str, **options: Any) -> Backend:
        backend = get_backend(name, **options)
        return _DropsOneGrid(backend) if name == "cpsat" else backend

    monkeypatch.setattr(crosscheck, "get_backend", rigged)
    assert main(["count", str(REPO / "models/classic/empty-4x4.toml"), "--backend", "all"]) == 3
    assert "count differently" in capsys.readouterr().err


def test_backend_all_passes_each_backend_its_tuning_options() -> None:
    argv = ["solve", "--backend", "all", "--max-nodes", "7", "--solver", "minisat22"]
    argv += ["--encoding", "minimal", "--amo", "seqcounter", "--model", "integer"]
    argv += ["--workers", "2", "--certified", "--presolve"]
    backend = backend_from_args(build_parser().parse_args(argv))
    assert isinstance(backend, CrossCheckBackend)
    bitmask, sat, cpsat = (backend.backends[name] for name in ("bitmask", "sat", "cpsat"))
    assert isinstance(bitmask, BitmaskBackend) and bitmask.max_nodes == 7
    assert isinstance(sat, SatBackend) and sat.solver == "minisat22"
    assert (sat.encoding.value, sat.amo.value) == ("minimal", "seqcounter")
    assert isinstance(cpsat, CpSatBackend) and cpsat.kind.value == "integer"
    assert (cpsat.workers, cpsat.certified, cpsat.presolve) == (2, True, True)


def test_backend_all_node_budget_reaches_bitmask() -> None:
    argv = ["solve", "--backend", "all", "--max-nodes", "1"]
    backend = backend_from_args(build_parser().parse_args(argv))
    hard = (BUNDLED / "forum-hardest-1106.txt").read_text().splitlines()[0]
    result = backend.solve(puzzle_from_line(hard))
    assert result.stats["bitmask_status"] == "unknown" and result.status is Status.UNIQUE


# Files the classic reader cannot read (killer cages need the killer reader); jigsaw and
# X-Sudoku files read as classic puzzles (their extra fields are trailing text), which is
# still the same puzzle for every backend, so they stay in.
def _readable(path: Path) -> bool:
    return not path.name.endswith((".solutions.txt", ".ratings.txt"))


def test_shared_datasets_agree_everywhere(shared_data: Path) -> None:
    """A few hundred puzzles drawn from every shared file, serg-benchmark's multiples included."""
    checked, skipped, verdicts = 0, [], set()
    for path in sorted(p for p in shared_data.glob("*.txt") if _readable(p)):
        big = path.name.startswith(("16x16", "25x25"))
        try:
            tasks = load_tasks([str(path)], sample=3 if big else 12, seed=5)
        except PuzzleError:
            skipped.append(path.name)
            continue
        for task in tasks:
            results = cross_check(task.puzzle, timeout=3 if big else 20)
            verdicts |= {r.status for r in results.values()}
            checked += 1
    assert checked >= 200, (checked, skipped)
    assert {Status.UNIQUE, Status.MULTIPLE, Status.UNSATISFIABLE} <= verdicts
    assert all(name.startswith("killer") for name in skipped), skipped
