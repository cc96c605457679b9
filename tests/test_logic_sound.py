"""The explainer never says something false: every step on samples of the bundled datasets
and on variant models (jigsaw, diagonals, windoku, extra regions, killer cages) is confirmed by
the SAT backend, and the commands `logic` and `rate` answer as documented."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satsudoku.cli import main
from satsudoku.io import iter_puzzles
from satsudoku.io.text import ReadOptions, parse_line
from satsudoku.logic.check import false_claims
from satsudoku.logic.rating import STUCK, rate
from satsudoku.logic.solver import (
    TECHNIQUE_NAMES,
    TECHNIQUES,
    load_compiled_kernels,
    solve_logically,
)
from satsudoku.logic.state import Board
from satsudoku.logic.step import length_bonus
from satsudoku.logic.uniqueness import unique_rectangle

DATA = Path(__file__).parent / "data"
MODELS = Path(__file__).parent.parent / "models"
FAST = TECHNIQUES[:-3]  # everything but forcing chains: the samples stay quick


def _lines(name: str, count: int) -> list[str]:
    return [
        line.split()[0].split(":")[0]
        for line in (DATA / name).read_text().split("\n")
        if line.strip()
    ][:count]


SAMPLES = (
    [("sudoku-exchange-graded.txt", line) for line in _lines("sudoku-exchange-graded.txt", 16)]
    + [("norvig-easy50.txt", line) for line in _lines("norvig-easy50.txt", 4)]
    + [("top1465.txt", line) for line in _lines("top1465.txt", 3)]
)


@pytest.mark.parametrize(
    ("name", "line"), SAMPLES, ids=[f"{n}:{i}" for i, (n, _) in enumerate(SAMPLES)]
)
def test_every_step_is_true(name: str, line: str) -> None:
    puzzle = parse_line(line, ReadOptions())
    result = solve_logically(Board.from_puzzle(puzzle), FAST)
    assert result.status in ("solved", "stuck")
    assert false_claims(puzzle, result.steps) == []


VARIANTS = [
    "variants/real/jigsaw.json",
    "x-sudoku/diagonal-sample.json",
    "variants/groups/windoku-6x6.json",
    "variants/groups/extraregion-6x6.json",
    "variants/groups/disjointgroups-6x6.json",
    "variants/killer/killer-6x6.json",
    "variants/real/odd-even.json",
    "variants/dots/kropki-6x6.json",
    "variants/lines/thermometer-6x6.json",
]


@pytest.mark.parametrize("model", VARIANTS)
def test_variants_solve_by_logic_and_every_step_is_true(model: str) -> None:
    (puzzle,) = iter_puzzles(MODELS / model)
    result = solve_logically(Board.from_puzzle(puzzle), FAST)
    assert result.status == "solved"
    assert puzzle.solution is None or tuple(result.board.values) == puzzle.solution.values
    assert false_claims(puzzle, result.steps) == []


def test_rule_houses_take_part_in_singles() -> None:
    """X-Sudoku's diagonals are houses: a hidden single can be found on one."""
    (puzzle,) = iter_puzzles(MODELS / "x-sudoku/diagonal-sample.json")
    board = Board.from_puzzle(puzzle)
    assert [h.name for h in board.layout.houses if h.kind == "diagonal"] == [
        "diagonal 1",
        "diagonal 2",
    ]
    result = solve_logically(board, FAST)
    assert any("diagonal" in step.text for step in result.steps)


def test_cages_narrow_candidates_as_steps() -> None:
    (puzzle,) = iter_puzzles(MODELS / "variants/killer/killer-6x6.json")
    result = solve_logically(Board.from_puzzle(puzzle), FAST)
    restrictions = [s for s in result.steps if s.technique == "restriction"]
    assert restrictions and all(s.eliminations for s in restrictions)


def test_clashing_givens_are_a_contradiction() -> None:
    line = "11" + "." * 79
    result = solve_logically(Board.from_puzzle(parse_line(line, ReadOptions())))
    assert result.status == "contradiction"
    assert result.reason == "row 1 holds a digit twice" or "no candidate" in str(result.reason)


def test_length_bonus_follows_se_thresholds() -> None:
    assert [length_bonus(k) for k in (4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25)] == [
        0.0,
        0.1,
        0.1,
        0.2,
        0.2,
        0.3,
        0.3,
        0.4,
        0.4,
        0.5,
        0.5,
        0.6,
    ]


def test_singles_only_puzzle_rates_as_singles() -> None:
    """Project Euler's first grid needs nothing beyond hidden singles in boxes (SE 1.2)."""
    (puzzle,) = iter_puzzles(MODELS / "classic/project-euler-96-grid-01.toml")
    rating = rate(puzzle, samples=2)
    assert (rating.rating, rating.technique, rating.status) == (1.2, "hidden single", "solved")
    assert rating.backtrack is not None and rating.sat["conflicts"] >= 0


def test_logic_cli_says_each_step(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(MODELS / "classic/project-euler-96-grid-01.toml")
    assert main(["logic", path, "--steps"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("   1. hidden single: ") and " in box " in out[0]
    assert out[-1] == "puzzle 1: solved by logic in 49 steps; hardest: hidden single (1.2)"


def test_logic_cli_until_prints_pencil_marks_and_search(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(MODELS / "classic/project-euler-96-grid-01.toml")
    assert main(["logic", path, "--until", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[3] == "puzzle 1: stopped after 3 steps; hardest: hidden single (1.2)"
    assert len(out) == 4 + 11 + 1  # 9 rows and 2 box rules, then the verdict
    assert out[-1] == "search from here (bitmask): unique"  # within the default 60 s


def test_logic_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(MODELS / "classic/project-euler-96-grid-01.toml")
    assert main(["logic", path, "--json", "--until", "1"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["logic"] == "stopped" and len(record["steps"]) == 1
    assert record["steps"][0]["placements"][0].count("=") == 1
    assert record["search"] == "unique" and len(record["candidates"]) == 81


def test_rate_cli_streams_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(DATA / "norvig-easy50.txt")
    easy = str(MODELS / "classic/project-euler-96-grid-01.toml")
    assert main(["rate", easy, path, "--json", "--logic-only"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 1 + 10
    assert records[0]["rating"] == 1.2 and records[0]["file"] == easy
    assert all(r["logic"] == "solved" and 1.0 <= r["rating"] < STUCK for r in records)


def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Kernels loaded first: a process's first load that takes over a second (an empty cache, or
    # another worker compiling them) says so on stderr, a line this test is not about.
    load_compiled_kernels()
    bad = tmp_path / "bad.txt"
    bad.write_text("12x" + "." * 78 + "\n")
    assert main(["rate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.txt" in err


def test_uniqueness_needs_a_puzzle_without_rules(tmp_path: Path) -> None:
    """With a variant rule, swapping a rectangle's digits may break the rule: no UR there."""
    line = ".....54.........91.5894.3..7..594.....1.7.6.....613..7..5.3672.63.........94....."
    path = tmp_path / "ur.txt"
    path.write_text(line + "\n")
    (plain,) = iter_puzzles(path)
    before_chains = TECHNIQUES[: TECHNIQUE_NAMES.index("alternating inference chain")]
    board = solve_logically(Board.from_puzzle(plain), before_chains).board
    assert unique_rectangle(board) is not None
    (ruled,) = iter_puzzles(path, rules=["disjointgroups"])
    ruled_board = Board.from_puzzle(ruled)
    ruled_board.cands, ruled_board.values = board.cands.copy(), board.values.copy()
    assert unique_rectangle(ruled_board) is None


def test_a_timeout_stops_the_search_for_a_step(capsys: pytest.CaptureFixture[str]) -> None:
    """A 16x16 that needs forcing chains: the time limit ends the logic, the steps so far
    stand and the pencil marks are printed with the search's verdict."""
    path = str(DATA / "16x16-acwing169-sample.txt")
    assert main(["logic", path, "--timeout", "0.3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("puzzle 1: gave up (--timeout) after ")
    # The search has its own 0.3 s: it settles 'unique' unless the machine is busy.
    assert out[-1] in ("search from here (bitmask): unique", "search from here (bitmask): unknown")
