"""The bitmask reference's two-cell propagation (placement links and memoised arc consistency)
against grid-by-grid oracles that share no code with satsudoku (tests/test_rules.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from satsudoku.backends.bitmask import BitmaskBackend, search_kernel
from satsudoku.grid import Shape
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from tests.conftest import REPO
from tests.test_rules import FIRST_ROW, Rows, all_4x4, all_6x6_first_row

backend = BitmaskBackend()


def at(g: Rows, name: str) -> int:
    r, c = name[1:].split("c")
    return g[int(r) - 1][int(c) - 1]


def orthogonal(n: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    return [
        ((r, c), (r + dr, c + dc))
        for r in range(n)
        for c in range(n)
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < n and c + dc < n
    ]


def nonconsecutive(g: Rows) -> bool:
    return all(abs(g[a][b] - g[c][d]) != 1 for (a, b), (c, d) in orthogonal(len(g)))


WHITE = [["r2c1", "r2c2"], ["r4c4", "r5c4"], ["r6c2", "r6c3"]]
BLACK = [["r3c5", "r3c6"], ["r5c1", "r6c1"]]


def kropki(g: Rows) -> bool:
    def ratio(a: int, b: int) -> bool:
        return a == 2 * b or b == 2 * a

    return all(abs(at(g, x) - at(g, y)) == 1 for x, y in WHITE) and all(
        ratio(at(g, x), at(g, y)) for x, y in BLACK
    )


LINE = ["r2c1", "r3c2", "r4c3", "r5c4", "r6c5"]


def whispers(g: Rows) -> bool:  # 6×6 German whispers: neighbours differ by at least 3
    return all(abs(at(g, x) - at(g, y)) >= 3 for x, y in zip(LINE, LINE[1:], strict=False))


NABNER = [["r2c1", "r3c2", "r4c3"], ["r4c4", "r5c5", "r6c6"]]  # 424 grids


def nabner(g: Rows) -> bool:  # no two digits of a line equal or consecutive
    return all(abs(at(g, x) - at(g, y)) > 1 for line in NABNER for x in line for y in line if x < y)


ARROWS = [(["r2c1"], ["r3c1", "r3c2"]), (["r5c5", "r5c6"], ["r6c5", "r6c6", "r4c6"])]


def arrows(g: Rows) -> bool:  # each shaft sums to its bulb (a two-cell bulb reads as 10a + b)
    def value(cells: list[str]) -> int:
        return int("".join(str(at(g, c)) for c in cells))

    return all(value(bulb) == sum(at(g, c) for c in shaft) for bulb, shaft in ARROWS)


# Every line is split by boxes: each segment of a region sum line sums to the same total.
SEGMENTS = [[["r4c2"], ["r5c2", "r5c3"], ["r5c4"]], [["r3c2", "r3c3"], ["r3c4", "r4c4"]]]


def region_sums(g: Rows) -> bool:
    return all(len({sum(at(g, c) for c in segment) for segment in line}) == 1 for line in SEGMENTS)


CASES: list[tuple[str, list[dict[str, Any]], Callable[[Rows], bool]]] = [
    ("kropki", [{"type": "kropki", "white": WHITE, "black": BLACK}], kropki),
    (
        "whispers",
        [
            {
                "type": "whispers",
                "lines": [LINE],
                "difference": 3,
            }
        ],
        whispers,
    ),
    (
        "whispers+kropki",
        [{"type": "whispers", "lines": [LINE]}, {"type": "kropki", "white": WHITE, "black": BLACK}],
        lambda g: whispers(g) and kropki(g),
    ),
    ("nabner cliques", [{"type": "nabner", "lines": NABNER}], nabner),
    (
        "arrow groups",
        [{"type": "arrow", "arrows": [{"bulb": b, "shaft": s} for b, s in ARROWS]}],
        arrows,
    ),
    (
        "region sum groups",
        [{"type": "regionsumline", "lines": [sum(line, []) for line in SEGMENTS]}],
        region_sums,
    ),
]


@pytest.mark.parametrize(("name", "specs", "oracle"), CASES, ids=[c[0] for c in CASES])
def test_two_cell_rules_count_like_the_oracle(
    name: str, specs: list[dict[str, Any]], oracle: Callable[[Rows], bool]
) -> None:
    shape = Shape(2, 3)
    expected = sum(map(oracle, all_6x6_first_row()))
    puzzle = Puzzle(shape, FIRST_ROW, tuple(make_rule(spec, shape) for spec in specs))
    result = backend.solve(puzzle, limit=expected + 1)
    assert result.exhausted and result.count == expected, name
    assert expected > 0 or name == "whispers+kropki"  # a refutation, also checked


def test_nonconsecutive_4x4_counts_every_grid() -> None:
    shape = Shape(2, 2)
    expected = sum(map(nonconsecutive, all_4x4()))
    assert expected == 0  # no 4×4 grid avoids consecutive neighbours: the search must say so
    rules = (make_rule({"type": "nonconsecutive"}, shape),)
    result = backend.solve(Puzzle.empty(shape, rules), limit=2)
    assert result.exhausted and result.count == 0


def test_placed_cells_that_break_a_pair_are_caught() -> None:
    """Masks handed in from outside (the proof mode builds its own) with two placed neighbours
    that are consecutive: the pair's check, not only `assign`, must refuse them."""
    shape = Shape(2, 2)
    puzzle = Puzzle.empty(shape, (make_rule({"type": "nonconsecutive"}, shape),))
    kernel = search_kernel(puzzle)
    up = kernel.width - 1
    cands = list(kernel.allowed)
    cands[0], cands[1] = kernel.bit[0] << up, kernel.bit[1] << up  # r1c1=1, r1c2=2, placed
    assert not kernel.propagate(cands, (1 << len(kernel.houses)) - 1)
    assert len(kernel.active) <= len(kernel.extras)  # the proof mode replays every extra


def test_the_cases_reach_the_new_propagators() -> None:
    """The nabner lines become clique cages, the arrow's and region sums' box segments groups."""
    shape = Shape(2, 3)

    def kernel_of(specs: list[dict[str, Any]]) -> Any:
        rules = tuple(make_rule(spec, shape) for spec in specs)
        return search_kernel(Puzzle(shape, FIRST_ROW, rules))

    (_, nabner_specs, _), (_, arrow_specs, _), (_, region_specs, _) = CASES[-3:]
    cages = [x[2] for x in kernel_of(nabner_specs).extras if hasattr(x[2], "sets")]
    assert sorted(len(cage.cells) for cage in cages) == [3, 3]
    assert all(len(cage.sets) == 4 for cage in cages)  # {1,3,5} {1,3,6} {1,4,6} {2,4,6}
    for specs in (arrow_specs, region_specs):
        groups = [x[2].groups for x in kernel_of(specs).extras if hasattr(x[2], "groups")]
        assert any(groups)


@pytest.mark.parametrize(
    ("name", "nodes"),
    [("arrow", 45), ("pill-arrow", 514), ("littlekiller", 47)],
)
def test_published_sum_puzzles_stay_small(name: str, nodes: int) -> None:
    """Published arrow and little-killer puzzles, unique, within twice the nodes measured with
    the distinct-digit groups (199, 3,304 and 77 nodes without them)."""
    (puzzle,) = read_puzzles(REPO / "models" / "variants" / "real" / f"{name}.json")
    result = backend.solve(puzzle)
    assert result.status is Status.UNIQUE and result.solution == puzzle.solution
    assert int(result.stats["nodes"]) <= 2 * nodes
