"""Research tools checked against an independent brute force (every grid of a small board
enumerated and each rule's meaning read off the grid), and the wrong answers the hunt found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satsudoku.cli import main
from satsudoku.io import iter_puzzles
from satsudoku.io.document import puzzle_from_document
from satsudoku.io.text import ReadOptions
from satsudoku.logic.rating import rate
from satsudoku.logic.solver import for_puzzle, solve_logically, techniques
from satsudoku.logic.state import Board
from satsudoku.puzzle import Puzzle


def document(givens: str, rules: list[dict[str, object]], **extra: object) -> Puzzle:
    doc = {"size": 4, "givens": givens, "rules": rules, **extra}
    return puzzle_from_document(doc, ReadOptions())


# A full 4x4 grid whose white dot joins 3 (r1c3) and 1 (r2c3): no solution, yet every cell is
# placed, so `logic` said "solved by logic in 0 steps" and `rate` "logic solved".
BROKEN_DOT = ("1234341221434321", [{"type": "kropki", "white": [["r1c3", "r2c3"]]}])
# The hunt's case (seed 1020): singles fill the board after one arrow step, breaking the white
# dot r1c3-r1c4 (2 and 4); `logic` said "solved by logic in 16 steps".
FILLED_BY_SINGLES = (
    "3...............",
    [
        {"type": "diagonal"},
        {
            "type": "arrow",
            "arrows": [
                {"bulb": ["r3c1"], "shaft": ["r4c1", "r4c2"]},
                {"bulb": ["r3c4"], "shaft": ["r2c3"]},
            ],
        },
        {
            "type": "kropki",
            "white": [
                ["r1c3", "r1c4"], ["r2c1", "r2c2"], ["r2c1", "r3c1"], ["r2c2", "r2c3"],
                ["r2c2", "r3c2"], ["r3c1", "r3c2"], ["r4c2", "r4c3"], ["r4c3", "r4c4"],
            ],
            "black": [
                ["r1c1", "r2c1"], ["r1c3", "r2c3"], ["r3c2", "r4c2"], ["r3c4", "r4c4"],
                ["r1c1", "r1c2"], ["r2c3", "r2c4"], ["r2c3", "r3c3"], ["r2c4", "r3c4"],
                ["r3c3", "r3c4"], ["r4c1", "r4c2"],
            ],
            "negative": ["white"],
        },
    ],
)  # fmt: skip


@pytest.mark.parametrize(("givens", "rules"), [BROKEN_DOT, FILLED_BY_SINGLES])
def test_a_filled_board_that_breaks_a_rule_is_no_solution(
    givens: str, rules: list[dict[str, object]]
) -> None:
    result = solve_logically(Board.from_puzzle(document(givens, rules)))
    assert result.status == "contradiction"
    assert result.reason is not None and "kropki at r1c3" in result.reason


def test_logic_and_rate_say_no_solution_for_a_broken_full_grid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"size": 4, "givens": BROKEN_DOT[0], "rules": BROKEN_DOT[1]}))
    assert main(["logic", str(path)]) == 0
    assert "no solution: after 0 steps, kropki at r1c3… does not hold" in capsys.readouterr().out
    assert main(["rate", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["logic"] == "contradiction"


# Three solutions (the brute force's count): with --uniqueness a unique rectangle "solved" it
# to one of them. Uniqueness techniques now run only once a search finds the puzzle unique.
THREE_SOLUTIONS = "1....431...33..."
UR_PUZZLE = ".....54.........91.5894.3..7..594.....1.7.6.....613..7..5.3672.63.........94....."


def test_uniqueness_steps_are_left_out_when_the_puzzle_has_several_solutions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(THREE_SOLUTIONS + "\n")
    assert main(["count", str(path)]) == 0
    assert capsys.readouterr().out == "3\n"
    assert main(["logic", str(path), "--uniqueness", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["logic"] == "stuck" and record["search"] == "multiple"
    assert not any("rectangle" in step["technique"] for step in record["steps"])
    puzzle = puzzle_from_document({"size": 4, "givens": THREE_SOLUTIONS}, ReadOptions())
    assert rate(puzzle, techniques(uniqueness=True), machine=False).status == "stuck"


def test_uniqueness_steps_still_run_on_a_unique_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tests/test_logic_sound.py's unique rectangle puzzle (one solution): the step is taken."""
    path = tmp_path / "ur.txt"
    path.write_text(UR_PUZZLE + "\n")
    assert main(["logic", str(path), "--uniqueness", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["logic"] == "solved"
    assert "unique rectangle type 1" in [step["technique"] for step in record["steps"]]
    (puzzle,) = iter_puzzles(path)
    assert for_puzzle(puzzle, techniques(uniqueness=True)) == techniques(uniqueness=True)


def test_candidates_on_a_solver_without_phases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CaDiCaL 1.0.3 takes no phases: `candidates --solver cadical103` ended in a traceback
    (NotImplementedError from set_phases); the phases are only a hint, so it now saturates."""
    path = tmp_path / "p.txt"
    path.write_text(THREE_SOLUTIONS + "\n")
    assert main(["candidates", str(path), "--solver", "cadical103", "--cap", "5", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "multiple" and record["solutions_seen"] == 3
    # The three solutions (brute force) agree on r1c1 (1 in each); r4c4 holds 2 once, 4 twice.
    assert record["candidates"][0] == {"1": 3} and record["candidates"][15] == {"2": 1, "4": 2}
