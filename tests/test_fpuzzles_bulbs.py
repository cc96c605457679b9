"""`maxarrow` and `productarrow` (keys of Nickleaton/sudoku's f-puzzles files) against oracles
written from their rules texts: every 4x4 grid (288) on each backend and every 6x6 grid with a
fixed first row (39,168) on sat and bitmask; hand-made f-puzzles payloads; the two published
puzzles (skipped without the mirror) solved alike on three backends, obeying the wording."""

from __future__ import annotations

import json
from functools import reduce
from operator import mul
from typing import Any

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_text
from satsudoku.result import Status
from satsudoku.verify import violations
from tests.mirrors import nickleaton
from tests.test_rules import FIRST_ROW, Rows, all_4x4, count_6x6, count_with

Arrows = list[tuple[str, list[str]]]  # (bulb, shaft)


def digit(g: Rows, name: str) -> int:
    return g[int(name[1]) - 1][int(name[3]) - 1]


def max_oracle(g: Rows, arrows: Arrows) -> bool:
    """Rules text: the bulb tells the largest digit on the line; at least one line digit
    equals it, all others are less."""
    for bulb, shaft in arrows:
        b, line = digit(g, bulb), [digit(g, c) for c in shaft]
        if any(d > b for d in line) or b not in line:
            return False
    return True


def product_oracle(g: Rows, arrows: Arrows) -> bool:
    """Rules text: digits along each arrow multiply to give the product in the circle."""
    return all(
        reduce(mul, (digit(g, c) for c in shaft), 1) == digit(g, bulb) for bulb, shaft in arrows
    )


ORACLES = {"maxarrow": max_oracle, "productarrow": product_oracle}


def spec(kind: str, arrows: Arrows) -> dict[str, Any]:
    return {"type": kind, "arrows": [{"bulb": [b], "shaft": s} for b, s in arrows]}


CASES_4X4: list[tuple[str, Arrows]] = [
    ("maxarrow", [("r1c1", ["r2c2", "r3c2"])]),
    ("maxarrow", [("r1c1", ["r2c3"]), ("r4c4", ["r3c1", "r2c2", "r4c3"])]),
    ("maxarrow", [("r2c2", ["r1c1", "r1c2", "r3c3"])]),  # two in its box: below the bulb
    ("productarrow", [("r1c1", ["r2c2", "r3c3"])]),
    ("productarrow", [("r1c4", ["r2c2"]), ("r4c1", ["r3c2", "r3c3"])]),
    ("productarrow", [("r1c1", ["r2c3", "r3c2", "r4c4"])]),  # digits may repeat: 1*1*4, 2*2*1
]
CASES_6X6: list[tuple[str, Arrows]] = [
    ("maxarrow", [("r2c1", ["r3c2", "r4c3", "r5c4"]), ("r6c6", ["r5c3", "r4c4"])]),
    ("productarrow", [("r3c3", ["r4c4", "r5c5"]), ("r6c1", ["r5c2", "r4c2"])]),
]


# CP-SAT and MIP enumerate each case's dozens of grids in seconds: with the slow tests.
BACKENDS = [
    pytest.param(name, marks=pytest.mark.slow) if name in ("cpsat", "mip") else name
    for name in available()
]


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize(
    "kind,arrows", CASES_4X4, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES_4X4)]
)
def test_4x4_counts_match_the_oracle(backend_name: str, kind: str, arrows: Arrows) -> None:
    expected = sum(1 for g in all_4x4() if ORACLES[kind](g, arrows))
    assert 0 < expected < 288
    assert count_with(backend_name, Shape(2, 2), Grid.empty(4), [spec(kind, arrows)], 300) == (
        expected
    )


@pytest.mark.slow
@pytest.mark.parametrize("backend_name", ["sat", "bitmask"])
@pytest.mark.parametrize("kind,arrows", CASES_6X6, ids=["maxarrow", "productarrow"])
def test_6x6_counts_match_the_oracle(backend_name: str, kind: str, arrows: Arrows) -> None:
    oracle = ORACLES[kind]
    expected = count_6x6(lambda g: oracle(g, arrows), (kind, str(arrows)))
    assert 0 < expected < 39_168
    got = count_with(backend_name, Shape(2, 3), FIRST_ROW, [spec(kind, arrows)], 40_000)
    assert got == expected


def payload(key: str, entries: list[dict[str, Any]], **more: Any) -> str:
    grid = [[{} for _ in range(4)] for _ in range(4)]
    return json.dumps({"size": 4, "grid": grid, key: entries, **more})


@pytest.mark.parametrize("key", ["maxarrow", "productarrow"])
def test_fpuzzles_key_reads_bulb_and_shaft(key: str) -> None:
    entry = {"cells": ["R1C1"], "lines": [["R1C1", "R2C2", "R3C2"], ["R1C1", "R1C2"]]}
    (puzzle,) = read_text(payload(key, [entry]))
    (rule,) = puzzle.rules
    assert rule.to_spec() == {
        "type": key,
        "arrows": [
            {"bulb": ["r1c1"], "shaft": ["r2c2", "r3c2"]},
            {"bulb": ["r1c1"], "shaft": ["r1c2"]},
        ],
    }


def test_product_payload_solves_to_an_obeying_grid() -> None:
    """A 4x4 with product arrows r1c1 <- r2c2 r3c3 and r1c4 <- r3c3 r4c2 (four grids obey
    them) and the given r3c1 = 1: one answer, found alike by sat and bitmask."""
    arrows = [("r1c1", ["r2c2", "r3c3"]), ("r1c4", ["r3c3", "r4c2"])]
    entries = [
        {"cells": [bulb.upper()], "lines": [[bulb.upper(), *(c.upper() for c in shaft)]]}
        for bulb, shaft in arrows
    ]
    grid: list[list[dict[str, Any]]] = [[{} for _ in range(4)] for _ in range(4)]
    grid[2][0] = {"value": 1, "given": True}
    (puzzle,) = read_text(json.dumps({"size": 4, "grid": grid, "productarrow": entries}))
    sat = get_backend("sat").solve(puzzle, limit=2)
    bitmask = get_backend("bitmask").solve(puzzle, limit=2)
    assert sat.status is Status.UNIQUE and bitmask.status is Status.UNIQUE
    assert sat.solution == bitmask.solution and sat.solution is not None
    values = sat.solution.values
    assert product_oracle([list(values[4 * r : 4 * r + 4]) for r in range(4)], arrows)
    assert "".join(map(str, values)) == "2314413214233241"  # 2 = 1*2, 4 = 2*2


def test_a_grid_breaking_a_max_arrow_is_reported() -> None:
    entry = {"cells": ["R1C1"], "lines": [["R1C1", "R3C2"]]}
    (puzzle,) = read_text(payload("maxarrow", [entry]))
    broken = Grid(4, (1, 2, 3, 4, 3, 4, 1, 2, 4, 3, 2, 1, 2, 1, 4, 3))  # r1c1 1 < r3c2 3
    assert [str(v) for v in violations(puzzle, broken)] == ["breaks maximum arrow r1c1"]
    kept = Grid(4, (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1))  # r1c1 1 = r3c2 1
    assert violations(puzzle, kept) == []


@pytest.mark.parametrize(
    "entry,message",
    [
        (
            {"cells": ["R1C1", "R1C2"], "lines": [["R1C2", "R2C2"]]},
            "a maxarrow bulb is one cell, not 2",
        ),
    ],
)
def test_a_pill_bulb_is_refused(entry: dict[str, Any], message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        read_text(payload("maxarrow", [entry]))


@pytest.mark.slow
@pytest.mark.parametrize("name,key", [("y6oshl9l", "maxarrow"), ("ya824y7m", "productarrow")])
def test_published_puzzle_is_solved_alike_and_obeys_its_text(name: str, key: str) -> None:
    """No stored solution: sat, cpsat and bitmask agree on one grid, which obeys the oracle
    on the file's own arrows."""
    data = nickleaton(name)
    (puzzle,) = read_text(json.dumps(data))
    results = [
        get_backend(b).solve(puzzle, limit=2, timeout=60) for b in ("sat", "cpsat", "bitmask")
    ]
    assert all(r.status is Status.UNIQUE for r in results)
    assert results[0].solution == results[1].solution == results[2].solution
    assert results[0].solution is not None
    values = results[0].solution.values
    rows = [list(values[9 * r : 9 * r + 9]) for r in range(9)]
    arrows = [
        (entry["cells"][0].lower(), [c.lower() for c in line[1:]])
        for entry in data[key]
        for line in entry["lines"]
    ]
    assert ORACLES[key](rows, arrows)
