"""The portfolio backend: the first decided verdict of several processes, verified here."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from satsudoku import Puzzle, PuzzleError, Shape, Status
from satsudoku.backends import get_backend
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.backends.race import RaceBackend
from satsudoku.cli import main
from satsudoku.rules import make_rule
from satsudoku.tools.holes import qcp_puzzle
from tests.conftest import BUNDLED, puzzle_from_line, referee, sample_lines

HARDEST = [
    puzzle_from_line(line.split()[0])
    for line in sample_lines(BUNDLED / "forum-hardest-1106.txt", 2)
]


def test_race_answers_as_the_reference_does_and_names_its_winner() -> None:
    race = get_backend("race")
    for puzzle in HARDEST:
        ours, theirs = race.solve(puzzle), referee(puzzle)
        assert ours.status is theirs.status is Status.UNIQUE
        assert ours.solution == theirs.solution
        assert ours.backend == "race"
        assert ours.stats["winner"] in str(ours.stats["entrants"]).split(",")
        assert ours.proof is not None and ours.proof.details["winner"] == ours.stats["winner"]


def test_race_finds_several_solutions_and_unsatisfiability() -> None:
    race = RaceBackend(["sat", "cpsat"])
    several = race.solve(Puzzle.empty(Shape(2, 2)))
    assert several.status is Status.MULTIPLE and len(several.solutions) == 2
    # r1c1 sees 2 and 3 in its row, 4 in its column and 1 in its box: no digit left
    unsat = puzzle_from_line("0230010040000000")
    assert BitmaskBackend().solve(unsat).status is Status.UNSATISFIABLE
    assert race.solve(unsat).status is Status.UNSATISFIABLE


def test_fast_sits_out_rules_it_does_not_take() -> None:
    shape = Shape(3, 3)
    thermo = make_rule({"type": "thermometer", "lines": [["r1c1", "r1c2", "r1c3"]]}, shape)
    race = RaceBackend(["sat", "fast"])
    assert race.runners(Puzzle.empty(shape, (thermo,))) == ["sat"]
    assert race.runners(Puzzle.empty(shape)) == ["sat", "fast"]


def test_race_gives_up_at_the_timeout() -> None:
    puzzle = qcp_puzzle(Shape(6, 6), 0.45, 4)  # near the phase transition: minutes of search
    start = time.perf_counter()
    result = RaceBackend(["sat", "cpsat"]).solve(puzzle, timeout=1.0)
    assert result.status in (Status.UNKNOWN, Status.MULTIPLE)
    assert time.perf_counter() - start < 20


def test_unknown_entrant_is_one_line() -> None:
    with pytest.raises(PuzzleError, match="unknown race entrant 'glpk'"):
        RaceBackend(["sat", "glpk"])


def test_cli_backend_race(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text(sample_lines(BUNDLED / "forum-hardest-1106.txt", 1)[0].split()[0] + "\n")
    assert main(["solve", str(path), "--backend", "race"]) == 0
    assert "unique" in capsys.readouterr().out
