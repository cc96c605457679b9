"""The bitmask reference's propagators (two-cell links and memoised arc consistency, sums and
the innie/outie sums of killer cages) and its restarts, against grid-by-grid oracles that share
no code with satsudoku (tests/test_rules.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import bitmask
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_puzzles, read_text
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from satsudoku.search import kernel as kernel_module
from satsudoku.search.kernel import search_kernel
from satsudoku.search.sums import SumSupport, implied_sums
from tests.conftest import REPO
from tests.test_rules import FIRST_ROW, Rows, all_4x4, all_6x6_first_row
from tests.test_rules import cell as cell_at

backend = BitmaskBackend()


def at(g: Rows, name: str) -> int:
    r, c = cell_at(name)  # memoised: the oracles look names up millions of times
    return g[r][c]


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


def zipper(g: Rows) -> bool:  # LINE as a zipper: both pairs around r4c3 add up to it
    a, b, centre, d, e = (at(g, c) for c in LINE)
    return a + e == centre == b + d


CASES: list[tuple[str, list[dict[str, Any]], Callable[[Rows], bool]]] = [
    ("zipper", [{"type": "zipperline", "lines": [LINE]}], zipper),
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
    (equal,) = [x[2] for x in kernel_of(CASES[0][1]).derived if hasattr(x[2], "segments")]
    assert sorted(end - start for start, end, _ in equal.segments) == [1, 2, 2]  # the zipper
    cages = [x[2] for x in kernel_of(nabner_specs).extras if hasattr(x[2], "sets")]
    assert sorted(len(cage.cells) for cage in cages) == [3, 3]
    assert all(len(cage.sets) == 4 for cage in cages)  # {1,3,5} {1,3,6} {1,4,6} {2,4,6}
    for specs in (arrow_specs, region_specs):
        groups = [x[2].groups for x in kernel_of(specs).extras if hasattr(x[2], "groups")]
        assert any(groups)
    # The first region sum line's three segments share one sum: joined for the plain search.
    (equal,) = [x[2] for x in kernel_of(region_specs).derived if hasattr(x[2], "segments")]
    assert [end - start for start, end, _ in equal.segments] == [1, 2, 1]


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


# Cages read off the grid 123456 / 564123 / 351642 / 246531 / 412365 / 635214: row 3 keeps two
# innies (r3c3 + r3c6 = 21 - 8 - 10), the r4c1-r5c1 cage sticks out of row 4 (an outie).
KILLER = [
    (["r3c1", "r3c2"], 8),
    (["r3c4", "r3c5"], 10),
    (["r4c1", "r5c1"], 6),
    (["r4c2", "r4c3", "r4c4"], 15),
    (["r6c5", "r6c6"], 5),
    (["r5c5", "r5c6", "r4c6"], 12),
]


def killer(g: Rows) -> bool:
    return all(
        sum(at(g, c) for c in cells) == total and len({at(g, c) for c in cells}) == len(cells)
        for cells, total in KILLER
    )


def killer_puzzle() -> Puzzle:
    spec = {"type": "killer", "cages": [{"cells": c, "sum": t} for c, t in KILLER]}
    return Puzzle(Shape(2, 3), FIRST_ROW, (make_rule(spec, Shape(2, 3)),))


def test_killer_with_implied_sums_counts_like_the_oracle() -> None:
    expected = sum(map(killer, all_6x6_first_row()))
    puzzle = killer_puzzle()
    assert search_kernel(puzzle).derived  # the innie/outie sums are in play
    result = backend.solve(puzzle, limit=expected + 1)
    assert result.exhausted and result.count == expected > 1


def test_long_implied_sums_at_the_root_keep_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every implied sum of 5-12 terms, however loose, narrows the root: the count is still
    the oracle's (a wrong innie/outie total would lose grids)."""
    expected = sum(map(killer, all_6x6_first_row()))
    monkeypatch.setattr(kernel_module, "_ROOT_SLACK", 10**6)
    kernel_module._cached_kernel.cache_clear()
    try:
        puzzle = killer_puzzle()
        assert len(search_kernel(puzzle).root_sums) == 55  # with box unions and mixed sums
        result = backend.solve(puzzle, limit=expected + 1)
        assert result.exhausted and result.count == expected > 1
    finally:
        kernel_module._cached_kernel.cache_clear()


# Forum killer-X, "human-solvable zero" (ISS data/collections.js HS_KILLERS, MIT; forum.enjoysudoku
# .com/human-solvable-zero-t33357.html): rows 1-4 less cages A-G leave 8 cells summing to 65, of
# at most 66. Without that sum at the root the search found nothing in 7,762 nodes.
KILLER_X_ZERO = (
    "..ABCDEFG.ABCDEFG.ABCDEFG...ABCDEFG.HHH...III.JKLMNOP...JKLMNOP.JKLMNOP.JKLM.NOP. "
    "14,14,14,14,17,20,22,10,18,18,28,27,17,21,22,10 "
    "894637125725418369316259487952143678163872594478965231631784952589321746247596813"
)


def test_a_killer_built_on_a_tight_outie_settles_at_the_root() -> None:
    (puzzle,) = read_text(KILLER_X_ZERO, fmt="killer", rules=("diagonal",))
    kernel = search_kernel(puzzle)
    rooms = [(len(c.cells), c.total, kernel._room(c)) for _, _, c in kernel.root_sums]
    assert (8, 65, 1) in rooms and all(room <= 2 for *_, room in rooms)
    result = backend.solve(puzzle, limit=2)
    assert result.status is Status.UNIQUE and result.solution == puzzle.solution
    assert result.stats["nodes"] == 1


def test_implied_sums_of_a_row() -> None:
    """A 4×4's rows and columns; a cage r1c2-r1c3 of 3 inside row 1, a cage r1c1-r2c1 of 4
    sticking out of it. Innies: r1c1 + r1c4 = 10 - 3. Outies: r1c4 - r2c1 = 10 - 3 - 4. Row 2
    with the outie: r2c2 + r2c3 + r2c4 - r1c1 = 10 - 4. A house with no cage gives nothing."""
    n = 4
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    sums = implied_sums(n, rows + cols, [((1, 2), 3), ((0, 4), 4)])
    assert ((0, 3), (1, 1), 7) in sums
    assert ((3, 4), (1, -1), 3) in sums
    assert ((5, 6, 7, 0), (1, 1, 1, -1), 6) in sums
    assert ((3, 5, 6, 7), (1, 1, 1, 1), 13) in sums  # rows 1-2 hold both cages: 20 - 3 - 4
    assert not [cells for cells, _, _ in sums if set(cells) in map(set, rows + cols)]
    assert all(len(cells) <= 4 for cells, _, _ in sums)


def test_sum_support_is_arc_consistency() -> None:
    """a + b = 10 with a in {1,2,3}: b keeps {7,8,9}; a + b = 3 as two distinct cells: {1,2}
    each; a sum no digits reach fails."""
    bit = tuple(1 << (3 * d) for d in range(9))  # spread masks of width 3, as a 9×9 kernel's

    def mask(*digits: int) -> int:
        return sum(bit[d - 1] for d in digits)

    gac = SumSupport(bit)
    full = mask(*range(1, 10))
    assert gac.supports([mask(1, 2, 3), full], [((0,), 1), ((1,), 1)], 10) == [
        mask(1, 2, 3),
        mask(7, 8, 9),
    ]
    assert gac.supports([full, full], [((0, 1), 1)], 3) == [mask(1, 2), mask(1, 2)]
    # A hole bounds do not see: 2a - b = 0 with b odd has no solution.
    assert gac.supports([full, mask(1, 3, 5)], [((0,), 2), ((1,), -1)], 0) is None
    assert gac.supports([mask(1, 2), mask(1, 2)], [((0, 1), 1)], 4) is None


@pytest.fixture
def restart_always(monkeypatch: pytest.MonkeyPatch) -> None:
    """Restarts on every board, after 1, 1, 2, 1, 1, 2, 4, … nodes: many runs, many cutoffs."""
    monkeypatch.setattr(bitmask, "_RESTART_FROM", 1)
    monkeypatch.setattr(bitmask, "_RESTART_UNIT", 1)


@pytest.mark.usefixtures("restart_always")
def test_restarts_keep_verdicts_exact() -> None:
    """Unique, multiple and unsatisfiable stay so when the search restarts: a unique verdict
    comes only from a run that saw the whole tree, two solutions are two distinct grids."""
    (unique,) = read_puzzles(REPO / "models" / "classic" / "ai-escargot.toml")  # 41 nodes
    result = backend.solve(unique)
    assert result.status is Status.UNIQUE and result.solution == unique.solution
    assert result.exhausted and int(result.stats["restarts"]) > 3
    empty = Puzzle.empty(Shape(2, 2))
    result = backend.solve(empty, limit=2)
    assert result.status is Status.MULTIPLE and len({g.values for g in result.solutions}) == 2
    clash = Puzzle(Shape(2, 2), Grid(4, (1, 0, 0, 0, 0, 1) + (0,) * 10), ())  # one box, two 1s
    result = backend.solve(clash)
    assert result.status is Status.UNSATISFIABLE and result.exhausted


@pytest.mark.usefixtures("restart_always")
def test_restarts_keep_the_killer_count() -> None:
    expected = sum(map(killer, all_6x6_first_row()))
    puzzle = killer_puzzle()
    assert expected > 2
    for limit in (1, 2, expected + 1):
        result = backend.solve(puzzle, limit=limit)
        grids = {g.values for g in result.solutions}
        assert len(grids) == min(limit, expected) and result.exhausted == (limit > expected)
        assert all(killer(tuple(g[r * 6 : r * 6 + 6] for r in range(6))) for g in grids)


def test_a_hard_forum_killer_falls_to_innies_and_outies(shared_data: Path) -> None:
    """killer-x-hard-forum line 3 (HS_KILLERS): not settled in 23,100 nodes before the implied
    sums, 40 nodes with them."""
    line = (shared_data / "killer-x-hard-forum-9x9.txt").read_text().splitlines()[2]
    (puzzle,) = read_text(line, fmt="killer", rules=("diagonal",))
    result = backend.solve(puzzle)
    assert result.status is Status.UNIQUE and result.solution == puzzle.solution
    assert int(result.stats["nodes"]) <= 200


def test_a_long_segment_keeps_to_bounds() -> None:
    """A region sum line with 15 cells in one 25×25 box: its digit sets would number C(25, 15)
    (millions), so the sum keeps to bounds, which see at once that 15 distinct digits (120 at
    least) cannot equal the 3 cells of the next box (75 at most)."""
    shape = Shape(5, 5)
    snake = [(r, c if r % 2 == 0 else 4 - c) for r in range(3) for c in range(5)]
    line = [f"r{r + 1}c{c + 1}" for r, c in snake] + ["r3c6", "r3c7", "r3c8"]
    puzzle = Puzzle.empty(shape, (make_rule({"type": "regionsumline", "lines": [line]}, shape),))
    (sum_index,) = [x[2] for x in search_kernel(puzzle).extras if hasattr(x[2], "units")]
    assert sum_index.units == () and sum_index.groups
    result = backend.solve(puzzle, timeout=10)
    assert result.status is Status.UNSATISFIABLE and result.stats["nodes"] == 0


def test_a_needed_cage_digit_leaves_the_cells_that_see_its_places() -> None:
    """A 6×6 cage r2c1-r2c2 of 3 holds {1, 2}: the rest of row 2 and of box 1 lose both digits
    (`_Kernel._needed`, in `settle`), which `propagate` alone (the proof mode's) leaves."""
    shape = Shape(2, 3)
    spec = {"type": "killer", "cages": [{"cells": ["r2c1", "r2c2"], "sum": 3}]}
    kernel = search_kernel(Puzzle.empty(shape, (make_rule(spec, shape),)))
    one_two = kernel.bit[0] | kernel.bit[1]
    root = kernel.initial([0] * 36)
    assert root is not None and kernel.propagate(root, (1 << len(kernel.houses)) - 1)
    assert root[6 + 2] & one_two == one_two  # r2c3: row 2 and box 1
    assert kernel.settle(root, (1 << len(kernel.houses)) - 1, False)
    for cell in (0, 1, 2, 8, 9, 10, 11):  # r1c1-r1c3 (box 1), r2c3-r2c6 (row 2)
        assert root[cell] & one_two == 0
    assert root[12] & one_two == one_two  # r3c1 sees r2c1 only (another box)


# Three seeds by default, all six under -m slow (another ~0.7 s of CPU).
@pytest.mark.parametrize(
    "seed", [s if s < 3 else pytest.param(s, marks=pytest.mark.slow) for s in range(6)]
)
def test_random_cages_count_like_the_oracle(seed: int) -> None:
    """Soundness of the cage steps: random cages (2-4 cells in a row of a 6×6 with its first row
    fixed, sums read off a random grid) give the search exactly the oracle's count, so no step
    removed a digit some solution uses."""
    rng = random.Random(seed)
    grids = all_6x6_first_row()
    source = rng.choice(grids)
    cages: list[tuple[list[str], int]] = []
    used: set[tuple[int, int]] = set()
    while len(cages) < 5:
        r, c, k = rng.randrange(1, 6), rng.randrange(6), rng.randrange(2, 5)
        cells = [(r, c + j) for j in range(k) if c + j < 6]
        if len(cells) < 2 or used & set(cells):
            continue
        used |= set(cells)
        cages.append(([f"r{a + 1}c{b + 1}" for a, b in cells], sum(source[a][b] for a, b in cells)))

    def oracle(g: Rows) -> bool:
        return all(sum(at(g, c) for c in cells) == total for cells, total in cages)

    expected = sum(map(oracle, grids))
    spec = {"type": "killer", "cages": [{"cells": c, "sum": t} for c, t in cages]}
    puzzle = Puzzle(Shape(2, 3), FIRST_ROW, (make_rule(spec, Shape(2, 3)),))
    result = backend.solve(puzzle, limit=expected + 1)
    assert result.exhausted and result.count == expected >= 1


def _two_cell_rules(rng: random.Random, shape: Shape) -> list[dict[str, Any]]:
    """A random mix of the rules that become two-cell tables: dots, X/V, 2-cell whispers,
    sometimes nonconsecutive everywhere."""
    n = shape.size
    pairs = rng.sample(orthogonal(n), 8)
    name = [f"r{r + 1}c{c + 1}" for pair in pairs for r, c in pair]
    specs: list[dict[str, Any]] = [
        {"type": "kropki", "white": [name[0:2], name[2:4]], "black": [name[4:6]]},
        {"type": "xv", "x": [name[6:8]], "v": [name[8:10]]},
        {"type": "whispers", "lines": [name[10:12], name[12:14]], "difference": rng.choice((2, 3))},
    ]
    if rng.random() < 0.5:
        specs.append({"type": "nonconsecutive"})
    return specs


@pytest.mark.parametrize("seed", range(12))
def test_propagation_leaves_every_two_cell_table_arc_consistent(seed: int) -> None:
    """Whatever `propagate` skips as unable to narrow (`_pairs` revises a pair only when a side
    holds few digits), its fixpoint is arc consistent on every two-cell table: each digit left
    in a cell has a partner digit left beside it that the constraint's own check allows."""
    rng = random.Random(seed)
    shape = Shape(2, 3)
    while True:  # rules some grid satisfies, so that its digits make consistent givens
        rules = tuple(make_rule(spec, shape) for spec in _two_cell_rules(rng, shape))
        puzzle = Puzzle.empty(shape, rules)
        found = backend.solve(puzzle, limit=1)
        if found.solutions:
            solution = found.solutions[0].values
            break
    kernel = search_kernel(puzzle)
    tables = [c for c in puzzle.constraints() if type(c).__name__ in ("Pair", "Table")]
    assert all(len(table.cells) == 2 for table in tables)
    assert tables and kernel.strong_pairs
    checked = 0
    for _ in range(20):
        givens = [0] * 36
        for i in rng.sample(range(36), rng.randrange(0, 9)):
            givens[i] = solution[i]
        cands = kernel.initial(givens)
        assert cands is not None  # a grid extends the givens
        opened = [kernel.open_bits(m) for m in cands]
        digits = [{d for d, bit in enumerate(kernel.bit, 1) if m & bit} for m in opened]
        for table in tables:
            one, other = table.cells
            first, second = digits[one[0] * 6 + one[1]], digits[other[0] * 6 + other[1]]
            fits = {(a, b) for a in first for b in second if table.check({one: a, other: b})}
            assert {a for a, _ in fits} == first, (seed, str(table), first, second)
            assert {b for _, b in fits} == second, (seed, str(table), first, second)
        checked += len(tables)
    assert checked >= 20 * 5


def test_blind_widths_of_known_relations() -> None:
    """`_blind`: the most digits a partner can hold and still leave a digit here unsupported.
    Nonconsecutive: 2 ({1, 3} both forbid 2). A white dot (consecutive): 1 is unsupported
    while the partner lacks 2, so the partner may hold the n - 1 others. A relation that leaves a
    digit no partner at all: n."""
    n = 6
    bits = [1 << d for d in range(n)]

    def of(allowed: Callable[[int, int], bool]) -> dict[int, int]:
        return {
            bits[a - 1]: sum(bits[b - 1] for b in range(1, n + 1) if allowed(a, b))
            for a in range(1, n + 1)
        }

    assert kernel_module._blind(of(lambda a, b: abs(a - b) != 1)) == 2
    assert kernel_module._blind(of(lambda a, b: abs(a - b) == 1)) == n - 1
    assert kernel_module._blind(of(lambda a, b: a != 6 and b != 6)) == n
    assert kernel_module._blind(of(lambda a, b: True)) == 0
