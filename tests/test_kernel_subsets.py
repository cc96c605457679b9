"""Naked and hidden pairs in the reference kernel (`_Kernel._subsets`, found by SWAR sums)
against a plain per-house, per-pair reading of the rules, to the same fixpoint with singles and
locked candidates (deletion rules: their fixpoint does not depend on their order), and whole
searches with the pairs at every node against an independent enumeration of the grids."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from satsudoku.backends import bitmask
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_puzzles, read_text
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule
from satsudoku.search import kernel as kernel_module
from satsudoku.search.kernel import Masks, _Kernel, search_kernel
from tests.conftest import REPO
from tests.test_kernel_locked import plain_locked
from tests.test_rules import all_4x4, all_6x6_first_row

DATA = REPO / "tests" / "data"


def plain_subsets(kernel: _Kernel, cands: Masks) -> int:
    """One pass of naked and hidden pairs, house by house, pair by pair: dirty houses, or -1
    on contradiction."""
    dirty = 0
    for house in kernel.houses:
        for a, b in combinations(house, 2):  # naked: two cells, the same two digits
            m = cands[a]
            if m == cands[b] and m.bit_count() == 2:
                for c in house:
                    if c not in (a, b) and cands[c] & m:
                        changed = kernel._narrow(cands, c, cands[c] & ~m)
                        if changed < 0:
                            return -1
                        dirty |= changed
        for d, e in combinations(kernel.bit, 2):  # hidden: two digits, the same two places
            at_d = [c for c in house if cands[c] & d]
            at_e = [c for c in house if cands[c] & e]
            if len(at_d) == 2 and at_d == at_e:
                for c in at_d:
                    if cands[c] & ~(d | e) & kernel.full:
                        changed = kernel._narrow(cands, c, d | e)
                        if changed < 0:
                            return -1
                        dirty |= changed
    return dirty


def plain_fixpoint(kernel: _Kernel, cands: Masks) -> Masks | None:
    """Singles, `plain_locked` and `plain_subsets` until none removes anything."""
    cands = list(cands)
    dirty = (1 << len(kernel.houses)) - 1
    while True:
        if dirty < 0 or not kernel.propagate(cands, dirty):
            return None
        dirty = plain_locked(kernel, cands)
        if dirty == 0:
            dirty = plain_subsets(kernel, cands)
        if dirty == 0:
            return cands


def states(kernel: _Kernel, puzzle: Puzzle, count: int) -> list[Masks]:
    """The root (singles and locked candidates only) and `count` states below it: each the
    last one with its branch cell's lowest digit placed and singles propagated."""
    root = kernel.initial(puzzle.givens.values)
    assert root is not None
    found = [root]
    while len(found) <= count:
        cands = list(found[-1])
        cell = kernel.branch_cell(cands)
        if cell < 0:
            break
        dirty = kernel.assign(cands, cell, cands[cell] & -cands[cell])
        if dirty < 0 or not kernel.propagate(cands, dirty):
            break
        found.append(cands)
    return found


def cases() -> list[tuple[str, Puzzle]]:
    found = [(f"top1465:{k}", p) for k, p in enumerate(read_puzzles(DATA / "top1465.txt")[:6])]
    found += [("acwing16", p) for p in read_puzzles(DATA / "16x16-acwing169-sample.txt")[:2]]
    durr = (DATA / "25x25-durr-example.txt").read_text().splitlines()[0]
    found += [("durr25", p) for p in read_text(durr, box=(5, 5))]
    return found


@pytest.mark.parametrize(
    "puzzle",
    [
        pytest.param(p, id=name, marks=[pytest.mark.slow] if name == "durr25" else [])
        for name, p in cases()
    ],
)
def test_pairs_reach_the_plain_fixpoint(puzzle: Puzzle, monkeypatch: pytest.MonkeyPatch) -> None:
    """`settle` with pairs (run from _LOCKED_FROM up; here on every size) ends where the plain
    rules do, on the root and on states down one branch."""
    monkeypatch.setattr(kernel_module, "_LOCKED_FROM", 4)
    kernel = search_kernel(puzzle)
    every = (1 << len(kernel.houses)) - 1
    for state in states(kernel, puzzle, 6):
        expected = plain_fixpoint(kernel, state)
        cands = list(state)
        settled = kernel.settle(cands, every, locked=True)
        assert settled == (expected is not None)
        if settled:
            assert cands == expected


def open_candidates(kernel: _Kernel, cands: Masks) -> int:
    return sum(m.bit_count() for m in cands if m & kernel.full)


@pytest.mark.slow  # the plain pass on a 25x25 and a 650-node search: ~10-20 s
def test_pairs_remove_candidates_on_a_band_line(shared_data: Path) -> None:
    """On 25x25 band line 925 the pairs remove what singles and locked candidates leave (so
    the fixpoint test above compares more than two no-ops), and the search then settles it."""
    line = (shared_data / "25x25-lewis-general.txt").read_text().splitlines()[924]
    (puzzle,) = read_text(line, box=(5, 5))
    kernel = search_kernel(puzzle)
    removed = 0
    for state in states(kernel, puzzle, 8):
        plain = plain_fixpoint(kernel, state)
        if plain is None:
            break
        without = list(state)
        dirty = (1 << len(kernel.houses)) - 1
        while dirty > 0 and kernel.propagate(without, dirty):
            dirty = kernel._locked(without)
        removed += open_candidates(kernel, without) - open_candidates(kernel, plain)
    assert removed > 0
    result = BitmaskBackend().solve(puzzle, limit=2)
    assert len(result.solutions) == 2  # as sat finds; before the pairs: over 16,000 nodes
    for grid in result.solutions:
        assert all(grid.values[i] == v for i, v in enumerate(puzzle.givens.values) if v)


def count_with_pairs(puzzle: Puzzle, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """Every grid of `puzzle` by the bitmask search with locked candidates and pairs at every
    node; also how many `_subsets` calls removed something."""
    monkeypatch.setattr(kernel_module, "_LOCKED_FROM", 4)
    monkeypatch.setattr(bitmask, "_LOCKED_FROM", 4)
    monkeypatch.setattr(bitmask, "_LOCKED_AFTER_BACKTRACKS", 0)
    fired = [0]
    original = _Kernel._subsets

    def counted(self: _Kernel, cands: Masks) -> int:
        changed = original(self, cands)
        fired[0] += changed != 0
        return changed

    monkeypatch.setattr(_Kernel, "_subsets", counted)
    result = BitmaskBackend().solve(puzzle, limit=100_000)
    assert result.count is not None
    for grid in result.solutions:
        assert all(grid.values[i] == v for i, v in enumerate(puzzle.givens.values) if v)
    return result.count, fired[0]


def test_empty_4x4_keeps_its_288_grids(monkeypatch: pytest.MonkeyPatch) -> None:
    count, _ = count_with_pairs(Puzzle(Shape(2, 2), Grid(4, (0,) * 16)), monkeypatch)
    assert count == len(all_4x4()) == 288  # (a 4x4 house's pairs follow from its singles)


@pytest.mark.parametrize(
    "givens",
    [
        {(1, 0): 4, (2, 1): 1},
        {(1, 0): 5, (3, 4): 2, (5, 5): 1},
        {(2, 2): 6, (4, 1): 3},
    ],
)
def test_6x6_counts_match_the_enumeration(
    givens: dict[tuple[int, int], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """6x6 grids with the first row 1..6 and a few more givens: the count of the plain
    enumeration of all 39,168 such grids that agree with them."""
    values = [1, 2, 3, 4, 5, 6] + [0] * 30
    for (r, c), v in givens.items():
        values[r * 6 + c] = v
    expected = sum(
        1 for g in all_6x6_first_row() if all(g[r][c] == v for (r, c), v in givens.items())
    )
    count, fired = count_with_pairs(Puzzle(Shape(2, 3), Grid(6, tuple(values))), monkeypatch)
    assert count == expected
    assert fired > 0


@pytest.mark.parametrize("total", [10, 11, 13, 15])
def test_6x6_with_a_killer_cage_counts_as_the_enumeration(
    total: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cage is a step of the propagation queue, whose bits ride above the houses' in each
    cell's house bits: the naked pairs read those bits as houses (an IndexError on any 25x25
    with a cage, found merging the queue with the pairs). Cage r2c1+r2c2+r3c1 = total,
    digits distinct, against the plain enumeration (11: 25 grids, 13: 34, 15: 21; 10: none)."""
    givens = {(3, 4): 2, (5, 5): 1, (4, 1): 3}
    values = [1, 2, 3, 4, 5, 6] + [0] * 30
    for (r, c), v in givens.items():
        values[r * 6 + c] = v
    cage = [(1, 0), (1, 1), (2, 0)]
    rule = make_rule(
        {"type": "killer", "cages": [{"cells": ["r2c1", "r2c2", "r3c1"], "sum": total}]},
        Shape(2, 3),
    )
    expected = sum(
        1
        for g in all_6x6_first_row()
        if sum(g[r][c] for r, c in cage) == total
        and len({g[r][c] for r, c in cage}) == 3
        and all(g[r][c] == v for (r, c), v in givens.items())
    )
    puzzle = Puzzle(Shape(2, 3), Grid(6, tuple(values)), (rule,))
    count, fired = count_with_pairs(puzzle, monkeypatch)
    assert count == expected == {10: 0, 11: 25, 13: 34, 15: 21}[total]
    assert fired > 0 or count == 0
