"""No grid leaves the library unverified: make_result refuses wrong and repeated grids, and a
backend bug reaches the user as exit status 3, never as a verdict."""

from __future__ import annotations

from typing import Any

import pytest

from satsudoku import Puzzle, Shape, Status
from satsudoku.backends import Backend
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.cli import main
from satsudoku.commands import common
from satsudoku.errors import BackendBugError
from satsudoku.grid import Grid
from satsudoku.result import CheckedGrids, Result, make_result
from satsudoku.rules import make_rule
from tests.conftest import grid_from_line, puzzle_from_line

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def _make(puzzle: Puzzle, grids: list[Grid], exhausted: bool = True) -> Result:
    return make_result(puzzle, "test", grids, exhausted=exhausted, limit=2, stats={})


def test_a_verified_grid_becomes_a_verdict() -> None:
    puzzle = puzzle_from_line(EASY)
    result = _make(puzzle, [grid_from_line(SOLUTION)])
    assert result.status is Status.UNIQUE and result.count == 1


@pytest.mark.parametrize(
    ("index", "digit", "complaint"),
    [
        (0, 3, "house r1c1..r1c9 repeats a digit"),  # r1c1 (open) now repeats the given 3
        (2, 4, "r1c3 is 4 but the given is 3"),  # a given overwritten
    ],
)
def test_a_wrong_grid_is_refused(index: int, digit: int, complaint: str) -> None:
    values = list(map(int, SOLUTION))
    values[index] = digit
    with pytest.raises(BackendBugError, match=f"backend 'test' returned a grid that {complaint}"):
        _make(puzzle_from_line(EASY), [Grid(9, tuple(values))])


def test_a_grid_breaking_a_variant_rule_is_refused() -> None:
    shape = Shape(3, 3)
    diagonal = make_rule({"type": "diagonal"}, shape)
    puzzle = Puzzle(shape, puzzle_from_line(EASY).givens, (diagonal,))
    with pytest.raises(BackendBugError, match="breaks"):  # the classic solution has repeats
        _make(puzzle, [grid_from_line(SOLUTION)])


def test_the_same_grid_twice_is_refused() -> None:
    puzzle = Puzzle.empty(Shape(2, 2))
    grid = BitmaskBackend().solve(puzzle, limit=1).solutions[0]
    with pytest.raises(BackendBugError, match="the same solution twice"):
        _make(puzzle, [grid, grid], exhausted=False)


def test_grids_checked_as_they_arrive_are_checked_for_this_puzzle_only() -> None:
    puzzle = puzzle_from_line(EASY)
    checked = CheckedGrids(puzzle, "test")
    wrong = list(map(int, SOLUTION))
    wrong[2] = 4  # the given 3 overwritten
    with pytest.raises(BackendBugError, match="r1c3 is 4 but the given is 3"):
        checked.add(Grid(9, tuple(wrong)))
    checked.add(grid_from_line(SOLUTION))
    with pytest.raises(BackendBugError, match="the same solution twice"):
        checked.add(grid_from_line(SOLUTION))
    result = make_result(puzzle, "test", checked, exhausted=True, limit=2, stats={})
    assert result.status is Status.UNIQUE and result.solutions == (grid_from_line(SOLUTION),)
    other = puzzle_from_line(EASY)  # equal, but not the puzzle the grids were checked for
    with pytest.raises(BackendBugError, match="checked its grids for another puzzle"):
        make_result(other, "test", checked, exhausted=True, limit=2, stats={})
    with pytest.raises(BackendBugError, match="checked its grids for another puzzle"):
        make_result(puzzle, "other", checked, exhausted=True, limit=2, stats={})


class _Forger:
    """A backend whose every answer is the first row repeated: make_result must stop it."""

    name = "forger"

    def solve(self, puzzle: Puzzle, *, limit: int = 2, timeout: float | None = None) -> Result:
        n = puzzle.size
        forged = Grid(n, tuple(range(1, n + 1)) * n)
        return make_result(puzzle, self.name, [forged], exhausted=True, limit=limit, stats={})


def test_a_backend_bug_exits_3_with_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    def forged(name: str, **options: Any) -> Backend:
        return _Forger()

    monkeypatch.setattr(common, "get_backend", forged)
    path = tmp_path / "p.txt"
    path.write_text(EASY + "\n")
    assert main(["solve", str(path)]) == 3
    captured = capsys.readouterr()
    assert captured.out == "" and "backend 'forger' returned a grid that" in captured.err
    assert "Traceback" not in captured.err


def test_a_grid_prints_as_rows_of_symbols() -> None:
    """`print(result.solution)` (README's API example) shows the grid, not a dataclass."""
    result = BitmaskBackend().solve(puzzle_from_line(EASY))
    assert str(result.solution) == "\n".join(SOLUTION[r * 9 : r * 9 + 9] for r in range(9))
    sixteen = Grid.from_rows(
        [[(r * 4 + r // 4 + c) % 16 + 1 for c in range(16)] for r in range(16)]
    )
    assert str(sixteen).splitlines()[0] == "123456789ABCDEFG"  # 1-9 then letters, as read
    assert str(Grid.empty(4)) == "....\n....\n....\n...."
    wide = str(Grid.from_rows([[1] * 62] * 62)).splitlines()  # past 61 symbols: numbers
    assert len(wide) == 62 and wide[0] == " ".join(["1"] * 62)
