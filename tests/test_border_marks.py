"""`--cell COLOUR=sum|contains`: numbers in shapes on a border (or corner), read as the rules
text says ("digits separated by an XV sum to 15", "the digit in a white circle appears in one
of the two cells"), counted on every backend against predicates written here from those texts
over every 4×4 grid (288) and every 6×6 grid with the first row 123456 (39,168)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.border_marks import mark_digits, mark_total, roman
from satsudoku.io.sudokupad import fpuzzles_data
from satsudoku.io.sudokupad_lines import parse_cell_type
from satsudoku.puzzle import Puzzle
from tests.mirrors import nickleaton
from tests.test_rules import Rows, all_4x4, all_6x6_first_row, v

WHITE = "#FFFFFF"
GREY = "#BABABA"


def mark(cells: list[str], value: str = "", colour: str = WHITE) -> dict[str, Any]:
    """An f-puzzles circle on the border (two cells) or corner (four cells) of `cells`."""
    shape = {"cells": cells, "baseC": colour, "outlineC": "#000000", "width": 0.4, "height": 0.4}
    return {**shape, "value": value} if value else shape


def fpuzzles(size: int, first_row: str = "", **drawings: Any) -> str:
    grid = [
        [
            {"value": int(first_row[c]), "given": True} if r == 0 and first_row else {}
            for c in range(size)
        ]
        for r in range(size)
    ]
    return json.dumps({"size": size, "grid": grid, **drawings})


def read(text: str, *cells: str) -> Puzzle:
    (puzzle,) = read_text(text, cells=[parse_cell_type(c) for c in cells])
    return puzzle


def count(puzzle: Puzzle, backend: str) -> int:
    result = get_backend(backend).solve(puzzle, limit=500)
    assert result.exhausted
    return result.count


def test_roman_numerals_and_numbers() -> None:
    assert [roman(t) for t in ("XV", "vi", "XIII", "VIII", "xii", "IX", "XL")] == [
        15,
        6,
        13,
        8,
        12,
        9,
        40,
    ]
    assert [roman(t) for t in ("", "XIIII", "IVX", "VV", "IIV", "X V", "ten")] == [None] * 7
    assert mark_total(" 12 ") == 12 and mark_total("XV") == 15 and mark_total("5+") is None
    assert mark_digits("12", 9) == [1, 2] and mark_digits("1 2", 9) == [1, 2]
    assert mark_digits("10 12", 16) == [10, 12] and mark_digits("0", 9) is None
    assert mark_digits("7", 4) is None and mark_digits("1/2", 9) is None


# Sums: a VII (7), a 3, and a VI written as f-puzzles text over a blank circle (its picture).
SUMS_4 = {
    "circle": [
        mark(["R1C1", "R1C2"], "VII"),
        mark(["R3C2", "R2C2"], "3"),
        mark(["R4C1", "R4C2"]),
    ],
    "text": [{"cells": ["R4C2", "R4C1"], "fontC": "#000000", "size": 0.5, "value": "VI"}],
}


def sums_4(g: Rows) -> bool:
    return (
        v(g, "r1c1") + v(g, "r1c2") == 7
        and v(g, "r2c2") + v(g, "r3c2") == 3
        and v(g, "r4c1") + v(g, "r4c2") == 6
    )


# Contains: a 1 on a border, a 2 twice around the centre, 4 and 3 in a box (always there).
CONTAINS_4 = {
    "circle": [
        mark(["R1C1", "R2C1"], "1"),
        mark(["R2C2", "R2C3", "R3C2", "R3C3"], "22"),
        mark(["R1C3", "R1C4", "R2C3", "R2C4"], "43"),
    ]
}


def holds(g: Rows, cells: list[str], digits: list[int]) -> bool:
    return not Counter(digits) - Counter(v(g, c) for c in cells)


def contains_4(g: Rows) -> bool:
    return (
        holds(g, ["r1c1", "r2c1"], [1])
        and holds(g, ["r2c2", "r2c3", "r3c2", "r3c3"], [2, 2])
        and holds(g, ["r1c3", "r1c4", "r2c3", "r2c4"], [3, 4])
    )


MIXED_6 = {
    "circle": [
        mark(["R2C1", "R2C2"], "XI", GREY),
        mark(["R3C4", "R4C4"], "4", GREY),
        mark(["R2C3", "R3C3"], "5"),
        mark(["R4C5", "R4C6", "R5C5", "R5C6"], "16"),
        mark(["R5C2", "R6C2"], "4"),
    ]
}


def mixed_6(g: Rows) -> bool:
    return (
        v(g, "r2c1") + v(g, "r2c2") == 11
        and v(g, "r3c4") + v(g, "r4c4") == 4
        and holds(g, ["r2c3", "r3c3"], [5])
        and holds(g, ["r4c5", "r4c6", "r5c5", "r5c6"], [1, 6])
        and holds(g, ["r5c2", "r6c2"], [4])
    )


# Largest: a 3 on a border, a 4 around the centre; excluded: 1 around a corner, 34 on a border.
LARGEST_4 = {
    "circle": [mark(["R1C2", "R2C2"], "3"), mark(["R2C2", "R2C3", "R3C2", "R3C3"], "4")],
    "rectangle": [
        {**mark(["R3C2", "R3C3", "R4C2", "R4C3"], "1"), "baseC": GREY},
        {**mark(["R1C3", "R1C4"], "34"), "baseC": GREY},
    ],
}


def largest_4(g: Rows) -> bool:
    return (
        max(v(g, "r1c2"), v(g, "r2c2")) == 3
        and max(v(g, c) for c in ("r2c2", "r2c3", "r3c2", "r3c3")) == 4
        and 1 not in {v(g, c) for c in ("r3c2", "r3c3", "r4c2", "r4c3")}
        and not {3, 4} & {v(g, "r1c3"), v(g, "r1c4")}
    )


MIXED_LARGEST_6 = {
    "circle": [
        mark(["R2C1", "R2C2"], "5"),
        mark(["R3C3", "R3C4", "R4C3", "R4C4"], "4"),
        mark(["R4C1", "R5C1"], "XI", GREY),
    ],
    "rectangle": [mark(["R5C5", "R5C6", "R6C5", "R6C6"], "6")],
}


def mixed_largest_6(g: Rows) -> bool:
    return (
        max(v(g, "r2c1"), v(g, "r2c2")) == 5
        and max(v(g, c) for c in ("r3c3", "r3c4", "r4c3", "r4c4")) == 4
        and 6 not in {v(g, c) for c in ("r5c5", "r5c6", "r6c5", "r6c6")}
        and v(g, "r4c1") + v(g, "r5c1") == 11
    )


CASES = {
    "sums-4x4": (fpuzzles(4, **SUMS_4), ("ffffff:round=sum",), all_4x4, sums_4),
    "contains-4x4": (fpuzzles(4, **CONTAINS_4), ("fff=contains",), all_4x4, contains_4),
    "mixed-6x6": (
        fpuzzles(6, "123456", **MIXED_6),
        ("bababa=sum", "ffffff=contains"),
        all_6x6_first_row,
        mixed_6,
    ),
    "largest-excludes-4x4": (
        fpuzzles(4, **LARGEST_4),
        ("fff=largest", "bababa:square=excludes"),
        all_4x4,
        largest_4,
    ),
    "largest-6x6": (
        fpuzzles(6, "123456", **MIXED_LARGEST_6),
        ("fff:round=largest", "fff:square=excludes", "bababa=sum"),
        all_6x6_first_row,
        mixed_largest_6,
    ),
}


@pytest.mark.parametrize("backend", available())
@pytest.mark.parametrize("case", CASES)
def test_marks_count_what_the_rules_text_means(case: str, backend: str) -> None:
    text, specs, grids, oracle = CASES[case]
    expected = sum(1 for g in grids() if oracle(g))
    assert 0 < expected < len(grids())
    assert count(read(text, *specs), backend) == expected


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_marks_count_the_same_on_mip(case: str) -> None:
    text, specs, grids, oracle = CASES[case]
    assert count(read(text, *specs), "mip") == sum(1 for g in grids() if oracle(g))


def test_unread_marks_are_refused_naming_the_option() -> None:
    with pytest.raises(PuzzleError, match=r"--cell FFFFFF:round=TYPE \(sum, contains, largest, "):
        read(fpuzzles(4, circle=[mark(["R1C1", "R1C2"], "5")]))
    # a blank circle under a text stays a drawing without a mark type, and so does the text
    with pytest.raises(PuzzleError, match="circle ×3, text ×1"):
        read(fpuzzles(4, **SUMS_4))
    with pytest.raises(
        PuzzleError, match="contains needs 1..2 digits of 1..4 in the mark, not 'VII'"
    ):
        read(fpuzzles(4, **SUMS_4), "ffffff=contains")


@pytest.mark.parametrize(
    ("drawn", "spec", "message"),
    [
        (mark(["R1C1", "R1C2", "R2C1", "R2C2"], "5"), "fff=sum", "border of two cells"),
        (mark(["R1C1", "R2C2"], "1"), "fff=contains", "border of two cells or the corner"),
        (mark(["R1C1", "R1C2"], "5?"), "fff=sum", "needs a sum in the mark"),
        (mark(["R1C1", "R1C2"], "123"), "fff=contains", "needs 1..2 digits of 1..4"),
        (mark(["R1C1", "R1C2"], "5"), "fff=odd", "drawings whose meaning"),
        (mark(["R1C1", "R1C2"], "34"), "fff=largest", "needs 1..1 digits of 1..4"),
        (mark(["R1C2", "R2C1"], "4"), "fff=excludes", "border of two cells or the corner"),
    ],
)
def test_marks_that_cannot_mean_the_type_are_refused(
    drawn: dict[str, Any], spec: str, message: str
) -> None:
    """A sum on a corner, digits on two diagonal cells (their centre is a corner: not read as
    four cells), text that is no number: refused, not guessed; a one-cell type leaves marks."""
    with pytest.raises(PuzzleError, match=message):
        read(fpuzzles(4, circle=[drawn]), spec)


def test_sudokupad_marks_read_as_on_f_puzzles() -> None:
    """SudokuPad overlays centred on a border or corner, with text; a blank white dot beside
    them is still a kropki dot, not a mark."""
    dot = {"width": 0.4, "height": 0.4, "backgroundColor": "#FFFFFF", "rounded": True}
    kropki = {**dot, "width": 0.25, "height": 0.25, "borderColor": "#000000"}
    sums = [
        {**dot, "center": [0.5, 1], "text": "XV"},
        {**dot, "center": [3.5, 1], "text": "3"},
        {**kropki, "center": [3, 3.5]},
    ]
    pad = {"cells": [[{} for _ in range(4)] for _ in range(4)], "overlays": sums}
    data, drawings = fpuzzles_data(pad, cells=(parse_cell_type("fff=sum"),))
    assert data["killercage"] == [
        {"cells": ["R1C1", "R1C2"], "value": "15"},
        {"cells": ["R4C1", "R4C2"], "value": "3"},
    ]
    assert drawings == {} and len(data["difference"]) == 1
    corner = {**dot, "center": [2, 2], "text": "34"}
    data, drawings = fpuzzles_data(
        {**pad, "overlays": [corner, *sums[1:]]}, cells=(parse_cell_type("fff=contains"),)
    )
    assert data["quadruple"] == [
        {"cells": ["R2C2", "R2C3", "R3C2", "R3C3"], "values": [3, 4]},
        {"cells": ["R4C1", "R4C2"], "values": [3]},
    ]
    assert drawings == {} and len(data["difference"]) == 1
    with pytest.raises(PuzzleError, match="border of two cells; this one is not"):
        fpuzzles_data({**pad, "overlays": [corner]}, cells=(parse_cell_type("fff=sum"),))


PUBLISHED = [
    ("28c2bh75", "fff=sum", "killer"),  # XV Sudoku: "separated by the marking XV … add up to 15"
    ("28m38r5l", "fff=sum", "killer"),  # Excessivenesses: V 5, X 10, XV 15 (text over circles)
    ("2huhazjn", "bababa=sum", "killer"),  # Sumdotty: "digits in dots give the sum"
    ("242tbxwo", "fff=contains", "quadruple"),  # Either/Or: "contained in one of those two"
    ("26ed79b6", "fff=contains", "quadruple"),  # Either/Or: "in one of the two adjacent cells"
    ("2ppkp88j", "fff=contains", "killer,quadruple"),  # Koffing: corner quadruples
    ("23s4jb5o", "fff=largest", "givencandidates,quadruple"),  # Greater: "the larger of the two"
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "spec", "kinds"), PUBLISHED)
def test_published_mark_puzzles_solve_to_their_published_solution(
    name: str, spec: str, kinds: str
) -> None:
    """Nickleaton/sudoku's f-puzzles files (MIT): each is refused without the option, and with
    it solves uniquely to the solution stored in the file (which the reader also checks against
    every rule read)."""
    data = nickleaton(name)
    with pytest.raises(PuzzleError, match="drawings whose meaning"):
        read(json.dumps(data))
    puzzle = read(json.dumps(data), spec)
    assert ",".join(sorted({rule.type for rule in puzzle.rules})) == kinds
    result = get_backend("sat").solve(puzzle, limit=2)
    assert result.status.value == "unique" and result.solution is not None
    assert list(result.solution.values) == data["solution"]
