"""The shared killer (janko, krazydad, hard forum), killer-X (janko, hard forum), jigsaw and
X-Sudoku collections on every backend, read by the `--format killer` / `--format jigsaw` readers
(samples only: the full sets are benchmarks)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.io import read_puzzles, read_text
from satsudoku.io.datasets import parse_jigsaw, parse_killer
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from tests.conftest import sample_lines


def solve_checked(puzzle: Puzzle, backend_name: str) -> None:
    result = get_backend(backend_name).solve(puzzle, timeout=60)
    assert result.status is Status.UNIQUE, puzzle.origin
    assert result.solution == puzzle.solution, puzzle.origin


def sample(path: Path, fmt: str, k: int) -> list[Puzzle]:
    text = "\n".join(sample_lines(path, k))
    return read_text(text, fmt=fmt, source=path.name)


@pytest.mark.shared
@pytest.mark.slow  # a dataset sweep: CI runs it with pytest -m slow
@pytest.mark.parametrize("backend_name", available())
def test_janko_killers_are_unique_with_their_solutions(
    shared_data: Path, backend_name: str
) -> None:
    for puzzle in sample(shared_data / "killer-janko-9x9.txt", "killer", 6):
        solve_checked(puzzle, backend_name)


@pytest.mark.shared
@pytest.mark.slow  # a dataset sweep: CI runs it with pytest -m slow
@pytest.mark.parametrize("backend_name", available())
def test_killer_x_needs_its_diagonals(shared_data: Path, backend_name: str) -> None:
    backend = get_backend(backend_name)
    for puzzle in sample(shared_data / "killer-x-janko-9x9.txt", "killer", 3):
        with_x = replace(
            puzzle, rules=(*puzzle.rules, make_rule({"type": "diagonal"}, puzzle.shape))
        )
        solve_checked(with_x, backend_name)
        assert backend.solve(puzzle, timeout=60).status in (Status.UNIQUE, Status.MULTIPLE)


@pytest.mark.shared
@pytest.mark.slow  # a dataset sweep: CI runs it with pytest -m slow
@pytest.mark.parametrize("backend_name", available())
def test_krazydad_killers_are_unique_with_their_solutions(
    shared_data: Path, backend_name: str
) -> None:
    """20 of the 8000 "Intermediate" killers, read from ../shared/data only (krazydad's puzzles
    are test data, never copied into this repository); each takes < 0.1 s on every backend."""
    for puzzle in sample(shared_data / "killer-krazydad-9x9.txt", "killer", 20):
        solve_checked(puzzle, backend_name)


# 1-based lines of killer-x-hard-forum-9x9.txt that bitmask proves quickly (0.01-2.8 s each); lines
# 3, 5 and 7 took 61 s, 44 s and 47 s on bitmask (measured), under a second on sat and cpsat.
HARD_KILLER_X_ON_BITMASK = (1, 2, 4, 6)


@pytest.mark.shared
@pytest.mark.slow  # a dataset sweep: CI runs it with pytest -m slow
@pytest.mark.parametrize("backend_name", available())
def test_hard_forum_killer_x_needs_its_diagonals(shared_data: Path, backend_name: str) -> None:
    """The seven "human-solvable zero" killer-X puzzles (some cells in no cage): unique with both
    diagonals and equal to the published solutions; without the diagonals all but line 4 have
    several solutions (checked on sat and cpsat, where it is quick)."""
    path = shared_data / "killer-x-hard-forum-9x9.txt"
    puzzles = read_text(path.read_text(), fmt="killer", source=path.name)
    assert len(puzzles) == 7
    backend = get_backend(backend_name)
    for number, puzzle in enumerate(puzzles, start=1):
        if backend_name == "bitmask" and number not in HARD_KILLER_X_ON_BITMASK:
            continue
        with_x = replace(
            puzzle, rules=(*puzzle.rules, make_rule({"type": "diagonal"}, puzzle.shape))
        )
        solve_checked(with_x, backend_name)
        if backend_name != "bitmask":
            plain = backend.solve(puzzle, timeout=60).status
            assert plain is (Status.UNIQUE if number == 4 else Status.MULTIPLE), number


@pytest.mark.shared
@pytest.mark.slow  # a dataset sweep: CI runs it with pytest -m slow
@pytest.mark.parametrize("backend_name", available())
def test_janko_jigsaws_are_unique_with_their_solutions(
    shared_data: Path, backend_name: str
) -> None:
    for puzzle in sample(shared_data / "jigsaw-janko-9x9.txt", "jigsaw", 10):
        assert puzzle.shape.is_jigsaw
        solve_checked(puzzle, backend_name)


@pytest.mark.shared
@pytest.mark.slow  # a dataset sweep: CI runs it with pytest -m slow
@pytest.mark.parametrize("backend_name", available())
def test_x_sudoku_sample_is_unique_only_with_diagonals(
    shared_data: Path, backend_name: str
) -> None:
    givens, solution = (shared_data / "x-sudoku-sample.txt").read_text().split()
    (plain,) = read_text(givens)
    x = replace(plain, rules=(make_rule({"type": "diagonal"}, plain.shape),))
    backend = get_backend(backend_name)
    assert backend.solve(plain).status is Status.MULTIPLE
    result = backend.solve(x)
    assert result.status is Status.UNIQUE
    assert "".join(map(str, result.solution.values)) == solution  # type: ignore[union-attr]


@pytest.mark.shared
@pytest.mark.slow  # a dataset sweep: CI runs it with pytest -m slow
@pytest.mark.parametrize("backend_name", [b for b in available() if b != "bitmask"])
def test_a_hard_forum_killer_with_a_blank_total(shared_data: Path, backend_name: str) -> None:
    """Line 22 (tarek) has a cage whose total is 0, i.e. not given: all-different only."""
    line = (shared_data / "killer-hard-forum-9x9.txt").read_text().splitlines()[21]
    puzzle = parse_killer(line)
    (killer,) = puzzle.rules
    assert any(cage.total is None for cage in killer.cages)  # type: ignore[attr-defined]
    solve_checked(puzzle, backend_name)


def test_cli_reads_killer_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A 4x4 killer: cages A=r1c1+r1c2 (3), B=r2c1+r2c2 (7), the rest without totals.
    path = tmp_path / "k.txt"
    path.write_text("AABB" + "CCDD" + "EFGH" + "IJKL 3,7," + ",".join(["0"] * 10) + " -\n")
    (puzzle,) = read_puzzles(path, fmt="killer")
    assert puzzle.rules[0].to_spec()["cages"][0] == {"cells": ["r1c1", "r1c2"], "sum": 3}
    assert main(["solve", "--format", "killer", str(path), "--limit", "1"]) == 0
    assert capsys.readouterr().out.strip().endswith("solved")


def test_cli_reads_jigsaw_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.txt"
    path.write_text("1234341221434321 1122112233443344 1234341221434321\n")
    (puzzle,) = read_puzzles(path, fmt="jigsaw")
    assert puzzle.shape.is_jigsaw and puzzle.solution is not None
    assert main(["solve", "--format", "jigsaw", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "1234341221434321 unique"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("AABB 3", "expected three fields"),
        ("AAB 3 -", "not n*n"),
        ("AABBCCDDEEFFGGHH 3,7 -", "8 cages but 2 sums"),
        ("AABBCCDDEEFFGGHH 3,x,1,1,1,1,1,1 -", "comma-separated integers"),
        ("AAAAABBBCCCCDDDD 1,1,1,1 -", "cage 'A' has 5 cells"),
    ],
)
def test_killer_line_errors(line: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        parse_killer(line)


def test_jigsaw_line_errors_carry_the_line_number(tmp_path: Path) -> None:
    path = tmp_path / "j.txt"
    path.write_text("# comment\n1234341221434321 112211223344334 -\n")
    with pytest.raises(PuzzleError, match=r"j.txt:2: REGIONS has 15 labels"):
        read_puzzles(path, fmt="jigsaw")
    with pytest.raises(PuzzleError, match="'x' at r1c2 is not a digit"):
        parse_jigsaw("1x34341221434321 1122112233443344 -")
