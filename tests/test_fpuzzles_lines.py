"""--line / --cell on f-puzzles data: generic `line` drawings (cells, outlineC, width) and
circles/rectangles, typed by the user as on SudokuPad (one mechanism: sudokupad_pictures' reader).
Small hand-written payloads per behaviour, and the Sudoku-Bench puzzle it makes solvable checked
against its published solution (skipped without the corpus mirror)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.sudokupad_lines import parse_cell_type, parse_line_type
from satsudoku.puzzle import Puzzle

# 1234 / 3412 / 2143 / 4321; rows 1-2 given, so rows 3-4 have four completions.
SOLUTION = "1234341221434321"
GREY = "#BFBFBF"


def payload(**drawings: Any) -> str:
    grid = [
        [{"value": int(SOLUTION[4 * r + c]), "given": True} if r < 2 else {} for c in range(4)]
        for r in range(4)
    ]
    return json.dumps({"size": 4, "grid": grid, **drawings})


def line(cells: list[str], colour: str = GREY, width: float = 0.5) -> dict[str, Any]:
    return {"lines": [cells], "outlineC": colour, "width": width}


def circle(cell: str, colour: str = GREY) -> dict[str, Any]:
    return {"cells": [cell], "baseC": colour, "outlineC": colour, "width": 0.7, "height": 0.7}


def read(text: str, *specs: str, cells: tuple[str, ...] = ()) -> Puzzle:
    (puzzle,) = read_text(
        text,
        lines=[parse_line_type(s) for s in specs],
        cells=[parse_cell_type(s) for s in cells],
    )
    return puzzle


def answer(puzzle: Puzzle) -> tuple[str, str]:
    result = get_backend("sat").solve(puzzle, limit=2, timeout=60)
    digits = "".join(map(str, result.solution.values)) if result.solution else ""
    return result.status.value, digits


THERMO = line(["R4C1", "R4C2", "R4C3", "R4C4"])  # drawn from the tip: its bulb is at R4C4


def test_a_typed_thermometer_takes_its_bulb_and_direction_from_the_circle() -> None:
    puzzle = read(payload(line=[THERMO], circle=[circle("R4C4")]), "bfbfbf=thermometer")
    assert answer(puzzle) == ("unique", SOLUTION)  # 1 < 2 < 3 < 4 from r4c4 leftwards
    flipped = read(payload(line=[THERMO], circle=[circle("R4C1")]), "bfbfbf=thermometer")
    assert answer(flipped)[0] == "unsatisfiable"  # from r4c1: 2|4 < 1|3 < 2|4 < 1|3 fails


def test_an_untyped_line_is_refused_naming_it_and_the_option() -> None:
    text = payload(line=[THERMO], circle=[circle("R4C4")])
    with pytest.raises(PuzzleError) as caught:
        read(text)
    message = str(caught.value)
    assert "line BFBFBF (width 0.5) through r4c1 r4c2 r4c3 r4c4" in message
    assert "--line BFBFBF=TYPE" in message and "--ignore-drawings" in message
    assert "\n" not in message
    with pytest.raises(PuzzleError, match="line BFBFBF"):
        read(text, "bfbfbf:0.3=thermometer")  # another width: not this line


def test_a_typed_thermometer_without_a_bulb_is_refused() -> None:
    with pytest.raises(PuzzleError, match=r"^f-puzzles: line BFBFBF .*needs a round bulb"):
        read(payload(line=[THERMO]), "bfbfbf=thermometer")


def test_the_cli_takes_line_for_f_puzzles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "thermo.json"
    path.write_text(payload(line=[THERMO], circle=[circle("R4C4")]))
    assert main(["solve", str(path), "--line", "bfbfbf=thermometer"]) == 0
    assert "unique" in capsys.readouterr().out
    assert main(["solve", str(path)]) != 0
    assert "--line BFBFBF=TYPE" in capsys.readouterr().err


def test_zipper_centres_circled_or_marked_between_two_cells_go_with_their_line() -> None:
    lavender = "#CDB1EC"
    odd = line(["R3C2", "R4C2", "R4C3"], lavender)  # 1 + 2 = 3 round r4c2
    even = line(["R2C3", "R2C4", "R3C4", "R3C3"], lavender)  # 1+4 = 2+3, no centre cell
    diamond = {
        "cells": ["R2C4", "R3C4"],
        "baseC": lavender,
        "outlineC": lavender,
        "width": 0.4,
        "height": 0.4,
        "angle": 45,
    }
    text = payload(line=[odd], circle=[circle("R4C2", lavender)])
    assert answer(read(text, "cdb1ec=zipperline"))[0] == "unique"
    both = payload(line=[odd, even], circle=[circle("R4C2", lavender)], rectangle=[diamond])
    assert answer(read(both, "cdb1ec=zipperline"))[0] == "unique"
    with pytest.raises(PuzzleError, match="circle"):  # the circle is not this line's centre
        read(payload(line=[even], circle=[circle("R4C2", lavender)]), "cdb1ec=zipperline")


def test_cell_types_read_f_puzzles_circles() -> None:
    yellow = "#D4DA31"
    text = payload(circle=[circle("R3C1", yellow)])  # r3c1 is 2 or 4
    with pytest.raises(PuzzleError, match="circle"):
        read(text)
    assert answer(read(text, cells=("d4da31:round=odd",)))[0] == "unsatisfiable"
    assert answer(read(text, cells=("d4da31:round=even",)))[0] == "multiple"
    with pytest.raises(PuzzleError, match="circle"):
        read(text, cells=("d4da31:square=even",))  # a square: the circle stays a drawing


MIRROR = Path(__file__).resolve().parents[2] / ".mirror" / "Hubiele+Sudoku-Bench" / "repo"


def corpus_entry(number: str) -> dict[str, Any]:
    if not MIRROR.is_dir():
        pytest.skip("the Sudoku-Bench mirror is absent")
    name = f"HEAD:Sudoku-Bench_json_conversion/challenge/puzzle_{number}.json"
    shown = subprocess.run(
        ["git", "--git-dir", str(MIRROR), "show", name], capture_output=True, check=True
    )
    entry: dict[str, Any] = json.loads(shown.stdout)
    return entry


def test_aad_van_ced_zippers_solves_to_its_published_solution() -> None:
    """Sudoku-Bench puzzle_0091 (f-puzzles): 'lavender Zipper Line', odd centres circled, the
    even line's centre a diamond between its middle cells."""
    entry = corpus_entry("0091")
    puzzle = read(entry["encoded_puzzle"], "cdb1ec=zipperline")
    assert answer(puzzle) == ("unique", entry["solution"])


def test_a_thermometer_branch_drawn_alone_runs_from_the_bulb() -> None:
    """f-puzzles draws a branch as its own line starting mid-thermometer, with no bulb."""
    trunk = line(["R4C4", "R3C4", "R3C3"])  # 1 < 3 < 4
    branch = line(["R3C4", "R4C3"])  # from r3c4 (3): r4c3 must pass 3, so 4
    text = payload(line=[trunk, branch], circle=[circle("R4C4")])
    puzzle = read(text, "bfbfbf=thermometer")
    (rule,) = puzzle.rules
    assert sorted(rule.lines) == [((3, 3), (2, 3), (2, 2)), ((3, 3), (2, 3), (3, 2))]
    assert answer(puzzle)[0] == "unsatisfiable"  # r4c3 is 2 in every completion
    loose = payload(line=[trunk, line(["R4C1", "R4C2"])], circle=[circle("R4C4")])
    with pytest.raises(PuzzleError, match="needs a round bulb"):
        read(loose, "bfbfbf=thermometer")  # touches no thermometer: no bulb to run from


def test_the_two_headed_martian_solves_to_its_published_solution() -> None:
    """Sudoku-Bench puzzle_0050 (f-puzzles): green German whispers, grey slow thermometers, one
    with a branch drawn as a line of its own."""
    entry = corpus_entry("0050")
    puzzle = read(entry["encoded_puzzle"], "56ff00=whispers", "bfbfbf=slowthermometer")
    assert answer(puzzle) == ("unique", entry["solution"])
