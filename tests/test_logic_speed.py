"""The logic engine's shortcuts find exactly what the plain searches find: forcing propagations
followed to budgets in turn pick the contradiction a full propagation of every candidate picks,
and re-running a per-digit technique on changed digits only takes the same steps."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from satsudoku.io.text import ReadOptions, parse_line
from satsudoku.logic import forcing
from satsudoku.logic.solver import TECHNIQUE_NAMES, TECHNIQUES, solve_logically
from satsudoku.logic.state import Board, digits_of

DATA = Path(__file__).parent / "data"
LINES = [line.split()[0] for line in (DATA / "top1465.txt").read_text().split("\n") if line]
# Bundled top1465 puzzles 1 and 24 (1-based) need dynamic forcing chains (both rate 9.3);
# puzzle 4 needs Nishio, fish and static forcing chains (8.3).
FORCING = {"top1465:1": LINES[0], "top1465:24": LINES[23]}
BEFORE_FORCING = TECHNIQUES[: TECHNIQUE_NAMES.index("forcing chain")]


def _stuck(line: str) -> Board:
    """The board where every technique before the dynamic forcing chains is stuck."""
    result = solve_logically(Board.from_puzzle(parse_line(line, ReadOptions())), BEFORE_FORCING)
    assert result.status == "stuck"
    return result.board


def _plain_shortest(board: Board) -> tuple[int, int, int, str]:
    """Every candidate propagated to its end, no budget: the fewest deductions (assumption
    counted), the first such candidate in grid order."""
    best: tuple[int, int, int, str] | None = None
    for cell in board.open_cells():
        for digit in digits_of(board.cands[cell]):
            trial = board.copy()
            trial.place(cell, digit)
            made, why = forcing.propagate(trial)  # every cell and house looked at
            if why is not None and (best is None or made + 1 < best[0]):
                best = (made + 1, cell, digit, why)
    assert best is not None
    return best


@pytest.mark.parametrize("line", FORCING.values(), ids=FORCING.keys())
def test_budgeted_forcing_finds_the_plain_shortest_contradiction(line: str) -> None:
    board = _stuck(line)
    _outcomes, shortest = forcing._outcomes(board, (), cells_only=False)
    assert shortest == _plain_shortest(board)


def test_propagation_resumed_after_a_budget_ends_as_one_run() -> None:
    board = _stuck(LINES[0])
    for cell in list(board.open_cells())[:12]:
        for digit in digits_of(board.cands[cell]):
            whole = forcing.Propagation(forcing.assume(board, cell, digit)[0])
            whole.run()
            steps = forcing.Propagation(forcing.assume(board, cell, digit)[0])
            for budget in (1, 2, 3, 5, 8, 13):
                steps.run(budget)
            steps.run()
            assert (steps.made, steps.why, steps.board.cands, steps.board.values) == (
                whole.made,
                whole.why,
                whole.board.cands,
                whole.board.values,
            )


def test_per_digit_reruns_take_the_same_steps() -> None:
    """top1465 puzzle 4 with every technique searching every digit at every call."""
    puzzle = parse_line(LINES[3], ReadOptions())
    everything = tuple(replace(t, per_digit=False) for t in TECHNIQUES)
    fast = solve_logically(Board.from_puzzle(puzzle))
    plain = solve_logically(Board.from_puzzle(puzzle), everything)
    assert fast.status == plain.status == "solved"
    assert [s.text for s in fast.steps] == [s.text for s in plain.steps]
    assert fast.rating == plain.rating == 8.3
    assert {"Nishio", "finned X-wing"} <= {s.technique for s in fast.steps}
