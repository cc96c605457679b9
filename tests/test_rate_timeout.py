"""`satsudoku rate --timeout S` bounds the whole rating of a puzzle: the logic, the SAT figure
and every backtrack sample. A figure that does not finish is reported as timed out, never as a
count cut short. Forum killer line 37 (killer-hard-forum-9x9.txt in ../shared/data) is the
puzzle: its bitmask search needs 11,843 nodes, about 13 s of CPU, far past these bounds."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from satsudoku.cli import main
from satsudoku.io import iter_puzzles
from satsudoku.logic.rating import backtrack_rating, rate, sat_figures
from satsudoku.logic.restrictions import _supported, restriction
from satsudoku.logic.state import Board
from satsudoku.puzzle import Puzzle

KILLER_37 = (  # cages, their sums and the solution, as the dataset's line format has them
    "ABCDEFGHHIABCDEFGHJIABCKEFGLJIABCKMFNLJIAOPKMQNRJSTOPKUQNRVSTOPWUQXRVSTOWWUQXRVST "
    "24,27,17,9,16,24,12,16,18,18,23,8,9,18,13,10,20,24,24,21,12,21,18,3 "
    "264397518359861247871425693742983156915672384638154729126748935587239461493516872"
)
TOP1465 = Path(__file__).resolve().parent / "data" / "top1465.txt"
MODELS = Path(__file__).resolve().parent.parent / "models"


@pytest.fixture(name="killer")
def killer_path(tmp_path: Path) -> Path:
    path = tmp_path / "killer37.txt"
    path.write_text(KILLER_37 + "\n")
    return path


def _killer(path: Path) -> Puzzle:
    return next(iter_puzzles(path))


def test_backtrack_search_past_the_deadline_gives_no_figure(killer: Path) -> None:
    puzzle = _killer(killer)
    assert puzzle.rules  # a killer: the search runs on the puzzle as given, once
    assert backtrack_rating(puzzle, 8, 0, deadline=time.perf_counter() + 0.2) is None
    assert backtrack_rating(puzzle, 8, 0, deadline=time.perf_counter() - 1.0) is None


def test_rating_past_its_bound_names_the_figures_cut_short(killer: Path) -> None:
    """No techniques: logic is stuck at once, so the bound falls on the machine figures. The
    SAT figure may finish in its half of 0.3 s or not, but if it does it is the full count."""
    rating = rate(_killer(killer), (), timeout=0.3)
    assert (rating.rating, rating.status, rating.steps) == (12.0, "stuck", 0)
    assert rating.backtrack is None and "backtrack" in rating.timed_out
    if "sat" in rating.timed_out:
        assert rating.sat == {}
    else:
        assert rating.sat == {"conflicts": 13180.0, "decisions": 20375.0}
    assert rating.to_json()["timed_out"] == list(rating.timed_out)


def test_rate_cli_reports_timeout_in_text_and_json(
    killer: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rate", str(killer), "--timeout", "0.1"]) == 0
    fields = capsys.readouterr().out.rstrip("\n").split("\t")
    assert fields[0] == "12.0" and "backtrack timeout" in fields
    assert not any(field.startswith("backtrack ") and field[10:11].isdigit() for field in fields)
    assert main(["rate", str(killer), "--timeout", "0.1", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["rating"] == 12.0 and row["backtrack"] is None
    assert "backtrack" in row["timed_out"]


def test_figures_within_the_bound_are_the_unbounded_ones() -> None:
    """The first of top1465 (9.3, forcing chains) finishes well within 60 s: the same figures
    as without a bound, and nothing timed out."""
    puzzle = next(iter_puzzles(TOP1465))
    bounded, free = rate(puzzle, samples=3, timeout=60), rate(puzzle, samples=3)
    assert bounded == free
    assert bounded.timed_out == () and bounded.rating == 9.3
    assert bounded.sat == {"conflicts": 10.0, "decisions": 12.0}


@pytest.mark.slow
def test_sat_figure_does_not_move_with_a_bound(killer: Path) -> None:
    """The SAT figure's solver is interrupted by a timer, not run in clock-sized budgets, so a
    bound that is not reached leaves its counts as they are (CaDiCaL's moved by thousands)."""
    puzzle = _killer(killer)
    figures = {"conflicts": 13180.0, "decisions": 20375.0}
    assert sat_figures(puzzle) == figures
    assert sat_figures(puzzle, time.perf_counter() + 60) == figures


def test_restriction_search_stops_at_the_deadline_without_caching_it() -> None:
    """A constraint's support search reads the clock (one on i-bet-someone-did-this-already's
    81-cell arrow ran 9 s past a 1 s logic timeout); the search it cut short is not cached,
    so the same board without a deadline still finds its step."""
    puzzle = next(iter_puzzles(MODELS / "variants" / "killer" / "killer-6x6.json"))
    board = Board.from_puzzle(puzzle)
    _supported.cache_clear()
    board.deadline = time.perf_counter() - 1.0
    assert restriction(board) is None
    board.deadline = None
    step = restriction(board)
    assert step is not None and step.eliminations == ((0, 5), (6, 3))  # r1c1 5, r2c1 3
    assert step.text.startswith("killer (sum 7) at r1c1…: ")
