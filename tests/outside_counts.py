"""Counting a clue type beside the grid on every 4x4 grid against a predicate written from its
rules text, and the same count asked of each backend: one mechanism for the clue-type tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from satsudoku.backends import get_backend
from satsudoku.grid import Shape
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule
from tests.test_differential_oracle import all_grids, line_of

Holds = Callable[[list[int], int], bool]  # (the line read from the clue's side, clue) -> met
Clues = dict[str, list[int]]  # side -> one clue per row or column, 0 for none


def count_4x4(holds: Holds, clues: Clues) -> int:
    """Grids of the 288 4x4 sudokus that meet every clue."""
    return sum(
        all(
            not clue or holds(list(line_of(grid, side, i)), clue)
            for side, row in clues.items()
            for i, clue in enumerate(row)
        )
        for grid in all_grids(4)
    )


def assert_4x4_counts(
    kind: str, clues: Clues, holds: Holds, backends: Sequence[str] = ("bitmask", "sat", "cpsat")
) -> int:
    """Each backend counts the rule `kind` with `clues` on an empty 4x4 as the predicate does;
    that count."""
    shape = Shape(2, 2)
    puzzle = Puzzle.empty(shape, [make_rule({"type": kind, **clues}, shape)])
    want = count_4x4(holds, clues)
    for name in backends:
        got = get_backend(name).solve(puzzle, limit=want + 1).count
        assert got == want, f"{name}: {kind} {clues}: {got} != {want}"
    return want


SIDES = ("left", "right", "top", "bottom")


def assert_every_clue_on_every_side(kind: str, holds: Holds, highest: int) -> None:
    """Clues 1..highest, one at a time on each side (a different row or column for each), count
    on every backend as the predicate does."""
    for side_index, side in enumerate(SIDES):
        for clue in range(1, highest + 1):
            row = [0] * 4
            row[(clue + side_index) % 4] = clue
            assert_4x4_counts(kind, {side: row}, holds)
