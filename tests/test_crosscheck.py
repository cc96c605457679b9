"""Cross-checking: every available paradigm agrees on real puzzles, and a liar is caught."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from satsudoku import crosscheck
from satsudoku.backends import Backend, available, get_backend
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.backends.cpsat import CpSatBackend
from satsudoku.backends.sat import SatBackend
from satsudoku.bench import Reading, Task, load_tasks
from satsudoku.cli import build_parser, main
from satsudoku.commands.common import backend_from_args
from satsudoku.crosscheck import CrossCheckBackend, CrossCheckError, cross_check, disagreement
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.io import format_line, read_text
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result, Status, make_result
from tests.conftest import BUNDLED, REPO, puzzle_from_line

UNIQUE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


# One puzzle of each 9x9 dataset by default (~0.2 s CPU); the 16x16 and 25x25 samples (~3.4 s
# of the 3.6 s that one puzzle a dataset took) and four a dataset under -m slow. Each backend's
# own tests compare it with bitmask on eight puzzles a dataset.
@pytest.mark.parametrize(
    ("sample", "larger"),
    [
        pytest.param(1, False, id="1"),
        pytest.param(1, True, id="1-larger", marks=pytest.mark.slow),
        pytest.param(4, True, id="4", marks=pytest.mark.slow),
    ],
)
def test_bundled_samples_agree_everywhere(sample: int, larger: bool) -> None:
    assert {"bitmask", "cpsat"} <= set(available())
    for path in sorted(BUNDLED.glob("*.txt")):
        if path.name.endswith(".solutions.txt"):
            continue
        if not larger and path.name.startswith(("16x16", "25x25")):
            continue
        for task in load_tasks([str(path)], sample=sample, seed=3):
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


@pytest.mark.slow  # 288 grids counted on every backend, mip too (~20 s): CI runs pytest -m slow
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


@dataclass(frozen=True)
class SharedFile:
    """How to read one shared dataset, what of it to check, and what SOURCES.md says."""

    fmt: str = "auto"  # killer collections are detected; jigsaw lines never are
    rules: tuple[str, ...] = ()
    sample: int | None = 12  # puzzles drawn with a fixed seed; None: all of them
    lines: tuple[int, ...] = ()  # or exactly these lines (1-based)
    timeout: float = 10.0  # per backend; "unknown" is inconclusive, never a failure
    verdict: Status | None = None  # what every puzzle of the file is, per SOURCES.md


ONE, MANY = Status.UNIQUE, Status.MULTIPLE  # per SOURCES.md: all unique, all >= 2
SHARED_FILES = {
    "16x16-acwing169-sample.txt": SharedFile(verdict=ONE),
    "16x16-janko.txt": SharedFile(sample=3, timeout=3, verdict=ONE),
    "16x16-lewis-general.txt": SharedFile(sample=3, timeout=3),
    "17clue-royle-49151.txt": SharedFile(verdict=ONE),
    "17clue.txt": SharedFile(verdict=ONE),
    "25x25-durr-example.txt": SharedFile(verdict=ONE),
    "25x25-lewis-general.txt": SharedFile(sample=1, timeout=3),
    "famous-hard-16.txt": SharedFile(),
    "forum-hardest-1106.txt": SharedFile(verdict=ONE),
    "forum-hardest-1905-11plus.txt": SharedFile(verdict=ONE),
    "jigsaw-janko-9x9.txt": SharedFile(fmt="jigsaw", verdict=ONE),
    # Bitmask settles few of these within minutes, 14 are unresolved by anyone: lines that
    # sat and cpsat settle in well under a second, two of them bitmask too.
    "killer-hard-forum-9x9.txt": SharedFile(lines=(11, 20, 23, 57), timeout=1.5),
    "killer-janko-9x9.txt": SharedFile(sample=6, verdict=ONE),
    "killer-krazydad-9x9.txt": SharedFile(sample=6, verdict=ONE),
    "killer-x-hard-forum-9x9.txt": SharedFile(rules=("diagonal",), lines=(2, 4, 6), timeout=1.5),
    "killer-x-janko-9x9.txt": SharedFile(rules=("diagonal",), sample=6, verdict=ONE),
    "lewis-9x9-general.txt": SharedFile(),
    "magictour-subig20.txt": SharedFile(verdict=ONE),
    "magictour-top2365.txt": SharedFile(),
    "norvig-easy50.txt": SharedFile(verdict=ONE),
    "norvig-hardest.txt": SharedFile(verdict=ONE),
    "norvig-sudoku10k.txt": SharedFile(verdict=ONE),
    "norvig-top95.txt": SharedFile(verdict=ONE),
    "serg-benchmark.txt": SharedFile(verdict=MANY),
    "sudoku-exchange-graded.txt": SharedFile(verdict=ONE),
    "tdoku-test-puzzles.labeled.txt": SharedFile(sample=None),  # counts 0, 1, 3 ... 847
    "top1465.txt": SharedFile(verdict=ONE),
    "x-sudoku-sample.txt": SharedFile(rules=("diagonal",), verdict=ONE),
}
COUNT_UP_TO = 150  # tdoku counts up to this are counted exactly by every backend


def _known(task: Task, path: Path) -> tuple[Grid | None, int | None]:
    """The answer the dataset carries for a puzzle: a solution grid and/or a solution count.

    Killer and jigsaw readers keep the solution field; `X.solutions.txt` holds line k's
    solution on line k; tdoku lines end `:COUNT[:SOLUTION]`, the X-Sudoku line ` SOLUTION`.
    """
    if task.puzzle.solution is not None:
        return task.puzzle.solution, None
    solutions = path.with_name(path.stem + ".solutions.txt")
    if solutions.exists():
        line = solutions.read_text().splitlines()[task.index]
        return read_text(line)[0].givens, None
    number = int((task.puzzle.origin or "").rpartition(":")[2])
    fields = path.read_text().splitlines()[number - 1].replace(":", " ").split()[1:]
    count = next((int(f) for f in fields if f.isdigit() and len(f) < 10), None)
    grids = [f for f in fields if len(f) == task.puzzle.size**2]
    return (read_text(grids[0])[0].givens if grids else None), count


def _assert_known(results: dict[str, Result], grid: Grid | None, count: int | None) -> None:
    for name, result in results.items():
        if result.status is Status.UNKNOWN:
            continue  # inconclusive: ran out of time
        if count is not None and result.exhausted:
            assert result.count == count, name
        if count is not None:
            assert (result.status is Status.MULTIPLE) == (count >= 2), name
        if grid is not None:
            assert result.status is not Status.UNSATISFIABLE, name
            if result.exhausted:
                assert grid in result.solutions, name


def _tasks(path: Path, spec: SharedFile) -> list[Task]:
    reading = Reading(fmt=spec.fmt, rules=spec.rules)
    sample = None if spec.lines else spec.sample
    tasks = load_tasks([str(path)], sample=sample, seed=5, reading=reading)
    if spec.lines:
        tasks = [
            t for t in tasks if int((t.puzzle.origin or ":0").rpartition(":")[2]) in spec.lines
        ]
        assert len(tasks) == len(spec.lines)
    return tasks


@pytest.mark.slow  # a dataset sweep: CI runs it with pytest -m slow
def test_shared_datasets_agree_everywhere(shared_data: Path) -> None:
    """Puzzles from every shared file, read as what they are, checked against known answers.

    About 270 puzzles (every tdoku count exactly), in about 20 s on this project's 2 cores.
    """
    puzzle_files = {
        p.name
        for p in shared_data.glob("*.txt")
        if not p.name.endswith(("solutions.txt", "ratings.txt"))
    }
    assert puzzle_files == set(SHARED_FILES), "a shared file without a reading in SHARED_FILES"
    checked, verdicts = 0, set()
    for name, spec in SHARED_FILES.items():
        for task in _tasks(shared_data / name, spec):
            grid, count = _known(task, shared_data / name)
            limit = count + 1 if count is not None and 2 <= count <= COUNT_UP_TO else 2
            results = cross_check(task.puzzle, limit=limit, timeout=spec.timeout)
            _assert_known(results, grid, count)
            statuses = {r.status for r in results.values()}
            assert statuses - {Status.UNKNOWN}, f"nothing conclusive for {task.puzzle.origin}"
            if spec.verdict is not None:
                assert statuses <= {spec.verdict, Status.UNKNOWN}, task.puzzle.origin
            verdicts |= statuses
            checked += 1
    assert checked >= 240, checked
    assert {Status.UNIQUE, Status.MULTIPLE, Status.UNSATISFIABLE} <= verdicts
