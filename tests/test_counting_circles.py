"""`countingcircles` against an oracle written from the rules text ("any digit in a circle
indicates exactly how many circles contain that digit"): every 4×4 grid (288) and every 6×6
grid with a fixed first row (39,168) filtered by it, each backend counting as many; the
published puzzles read from SudokuPad and f-puzzles data with --cell; proofs on bitmask."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.cli import main
from satsudoku.constraints import Automaton, TableTooLargeError
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_puzzles
from satsudoku.io.fpuzzles_export import fpuzzles_data
from satsudoku.puzzle import Puzzle
from satsudoku.rules import counting, make_rule
from satsudoku.verify import violations
from tests.conftest import REPO
from tests.test_fpuzzles_lines import answer, corpus_entry, read
from tests.test_rules import FIRST_ROW, Rows, all_4x4, all_6x6_first_row, count_6x6, count_with

Names = list[str]


def circled(g: Rows, names: Names) -> list[int]:
    return [g[int(name[1]) - 1][int(name[3]) - 1] for name in names]


def counts_right(g: Rows, names: Names) -> bool:
    """The wording: for each circle, the number of circles holding its digit is that digit."""
    digits = circled(g, names)
    return all(digits.count(digit) == digit for digit in digits)


CASES_4X4: list[Names] = [
    ["r1c1", "r2c3", "r4c4"],  # 1+2 (a 1 and two 2s) is the only way to fill three circles
    ["r1c1", "r1c2", "r2c1", "r2c2"],  # one box: four different digits cannot count themselves
    ["r1c1", "r1c3", "r3c2", "r4c4", "r2c2"],  # 1+4 or 2+3
    ["r1c1", "r1c2", "r2c3", "r3c4", "r4c1", "r4c2"],  # 2+4, or 1+2+3
    ["r4c1", "r3c1", "r4c4", "r2c4", "r2c3", "r4c2", "r2c2", "r1c1", "r1c2"],  # puzzle 71's
    ["r1c1"],  # a lone circle holds 1
]
CASES_6X6: list[Names] = [
    ["r2c6", "r2c5", "r3c3", "r1c4", "r2c1", "r3c5", "r6c2"],  # the 6x6 model's circles
    ["r2c2", "r3c3", "r4c4", "r5c5", "r6c6", "r3c1", "r5c2", "r6c4", "r4c6", "r2c5"],
]


@pytest.mark.parametrize("backend_name", available())
@pytest.mark.parametrize("names", CASES_4X4, ids=[str(len(c)) for c in CASES_4X4])
def test_4x4_counts_match_the_oracle(backend_name: str, names: Names) -> None:
    expected = sum(1 for g in all_4x4() if counts_right(g, names))
    spec = [{"type": "countingcircles", "cells": names}]
    assert count_with(backend_name, Shape(2, 2), Grid.empty(4), spec, 300) == expected


@pytest.mark.parametrize("backend_name", available())
def test_one_automaton_per_digit_past_the_joint_one_counts_the_same(
    backend_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the joint automaton refused (as 45 circles on a 9x9 are), the per-digit automata
    count the same grids."""

    def too_large(*args: Any, **kwargs: Any) -> None:
        raise TableTooLargeError("the joint automaton, refused here")

    monkeypatch.setattr(counting, "_joint_step", too_large)
    for names in CASES_4X4:
        expected = sum(1 for g in all_4x4() if counts_right(g, names))
        rule = make_rule({"type": "countingcircles", "cells": names}, Shape(2, 2))
        (condition,) = rule.constraints(Shape(2, 2))
        automata = [c for c in condition.decompose(Shape(2, 2)) if isinstance(c, Automaton)]
        assert len(automata) == min(4, len(names))  # one per digit
        spec = [{"type": "countingcircles", "cells": names}]
        assert count_with(backend_name, Shape(2, 2), Grid.empty(4), spec, 300) == expected


@pytest.mark.parametrize("names", CASES_4X4[1:5], ids=[str(len(c)) for c in CASES_4X4[1:5]])
def test_4x4_counts_on_mip(names: Names) -> None:
    """MIP (on request only: slow to enumerate) on the cases with few grids (0 to 8)."""
    expected = sum(1 for g in all_4x4() if counts_right(g, names))
    spec = [{"type": "countingcircles", "cells": names}]
    assert count_with("mip", Shape(2, 2), Grid.empty(4), spec, 300) == expected


def test_the_4x4_cases_bite() -> None:
    counts = [sum(1 for g in all_4x4() if counts_right(g, names)) for names in CASES_4X4]
    assert counts[1] == 0 and counts[5] == 288 // 4  # four different digits; r1c1 = 1
    assert all(0 < count < 288 for i, count in enumerate(counts) if i not in (1, 5))


# The seven-circle case on bitmask (0.95 s of CPU) under -m slow: bitmask counts the ten-circle
# one, sat and cpsat the seven-circle one, by default.
@pytest.mark.parametrize(
    ("names", "backend_name"),
    [
        pytest.param(
            names,
            backend_name,
            marks=[pytest.mark.slow] if (len(names), backend_name) == (7, "bitmask") else [],
            id=f"{len(names)}-{backend_name}",
        )
        for names in CASES_6X6
        for backend_name in available()
    ],
)
def test_6x6_counts_match_the_oracle(backend_name: str, names: Names) -> None:
    expected = count_6x6(lambda g: counts_right(g, names), key=("countingcircles", *names))
    assert 0 < expected < 2_000
    spec = [{"type": "countingcircles", "cells": names}]
    assert count_with(backend_name, Shape(2, 3), FIRST_ROW, spec, 2_001) == expected


def test_the_verifier_reads_the_wording_and_the_rule_round_trips() -> None:
    shape = Shape(2, 3)
    names = CASES_6X6[1]
    rule = make_rule({"type": "countingcircles", "cells": names}, shape)
    assert make_rule(rule.to_spec(), shape) == rule and rule.to_spec()["cells"] == names
    grids = all_6x6_first_row()
    good = next(g for g in grids if counts_right(g, names))
    bad = next(g for g in grids if not counts_right(g, names))
    puzzle = Puzzle(shape, Grid.empty(6), (rule,))
    assert violations(puzzle, Grid.from_rows(good)) == []
    (problem,) = violations(puzzle, Grid.from_rows(bad))
    assert "counting circles r2c2, r3c3, r4c4, …" in problem


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"type": "countingcircles"}, "cells"),
        ({"type": "countingcircles", "cells": []}, "cells"),
        ({"type": "countingcircles", "cells": ["r1c1", "r1c1"]}, "r1c1"),
        ({"type": "countingcircles", "cells": ["r5c1"]}, "outside the 4x4 board"),
        ({"type": "countingcircles", "cells": ["r1c1"], "digit": 2}, "unexpected field 'digit'"),
    ],
)
def test_errors_name_the_rule_and_the_field(spec: dict[str, Any], message: str) -> None:
    with pytest.raises(PuzzleError) as info:
        make_rule(spec, Shape(2, 2))
    assert message in str(info.value) and "rule 'countingcircles'" in str(info.value)


def test_fpuzzles_has_no_counting_circle() -> None:
    (puzzle,) = read_puzzles(REPO / "models/variants/cells/counting-circles-6x6.json")
    with pytest.raises(PuzzleError, match="f-puzzles has no counting circle"):
        fpuzzles_data(puzzle)


@pytest.mark.parametrize(
    "name",
    [
        "variants/cells/counting-circles-6x6.json",
        "variants/real/counting-circles-intro-4x4.json",
        "variants/real/zippers-and-circles-4x4.json",
    ],
)
def test_the_models_prove_on_bitmask(name: str, tmp_path: Path) -> None:
    """The automata lower to what the bitmask search proves: a checked certificate."""
    assert (
        main(
            [
                "prove",
                str(REPO / "models" / name),
                "--backend",
                "bitmask",
                "--certificate",
                str(tmp_path / "cert"),
                "--no-progress",
            ]
        )
        == 0
    )


def test_introduction_to_counting_circles_from_sudokupad() -> None:
    """Sudoku-Bench puzzle_0071 (SudokuPad): nine white circles, no givens. Without --cell the
    circles are drawings whose refusal offers the type."""
    entry = corpus_entry("0071")
    listed = r"--cell FFFFFF=TYPE \(odd, even, low, middle, high, countingcircles\)"
    with pytest.raises(PuzzleError, match=listed):
        read(entry["encoded_puzzle"])
    puzzle = read(entry["encoded_puzzle"], cells=("fff:round=countingcircles",))
    (rule,) = puzzle.rules
    assert (
        rule.to_spec()
        == read_puzzles(REPO / "models/variants/real/counting-circles-intro-4x4.json")[0]
        .rules[0]
        .to_spec()
    )
    assert answer(puzzle) == ("unique", entry["solution"])


def test_zippers_and_circles_from_fpuzzles() -> None:
    """Sudoku-Bench puzzle_0076 (f-puzzles): gray zippers and six circles."""
    entry = corpus_entry("0076")
    puzzle = read(entry["encoded_puzzle"], "ccc=zipperline", cells=("fff:round=countingcircles",))
    assert sorted(rule.to_spec()["type"] for rule in puzzle.rules) == [
        "countingcircles",
        "zipperline",
    ]
    assert answer(puzzle) == ("unique", entry["solution"])


def test_circles_of_two_styles_are_one_rule() -> None:
    """Two --cell options naming countingcircles: every circle they read counts with the others
    (two circles each holding 2, one grey and one white, in a payload written here)."""

    def disc(cell: str, colour: str) -> dict[str, Any]:
        return {
            "cells": [cell],
            "baseC": colour,
            "outlineC": "#000000",
            "width": 0.7,
            "height": 0.7,
        }

    grid: list[list[dict[str, Any]]] = [[{} for _ in range(4)] for _ in range(4)]
    grid[0][0] = {"value": 2, "given": True}
    data = {"size": 4, "grid": grid, "circle": [disc("R1C1", "#FFFFFF"), disc("R2C3", "#BFBFBF")]}
    puzzle = read(json.dumps(data), cells=("fff=countingcircles", "bfbfbf=countingcircles"))
    (rule,) = puzzle.rules
    assert sorted(rule.to_spec()["cells"]) == ["r1c1", "r2c3"]
    result = get_backend("bitmask").solve(puzzle, limit=300)
    expected = sum(1 for g in all_4x4() if g[0][0] == 2 and counts_right(g, ["r1c1", "r2c3"]))
    assert result.exhausted and result.count == expected > 0
