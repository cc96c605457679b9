"""Locked candidates in the reference kernel (`_Kernel._locked`, judged on one snapshot from
running sums) against a plain per-house, per-digit reading of the rule, to the same fixpoint
with singles: the fixpoint of these deletion rules does not depend on their order."""

from __future__ import annotations

import pytest

from satsudoku.io import read_puzzles, read_text
from satsudoku.puzzle import Puzzle
from satsudoku.search.kernel import Masks, _Kernel, search_kernel
from tests.conftest import REPO

DATA = REPO / "tests" / "data"


def plain_locked(kernel: _Kernel, cands: Masks) -> int:
    """One pass of pointing/claiming, house pair by house pair and digit by digit: dirty
    houses, or -1 on contradiction."""
    dirty = 0
    houses = kernel.houses
    for a, house_a in enumerate(houses):
        for house_b in houses[a + 1 :]:
            both = set(house_a) & set(house_b)
            if len(both) < 2:
                continue
            rest_a = [i for i in house_a if i not in both]
            rest_b = [i for i in house_b if i not in both]
            for bit in kernel.bit:
                here = any(kernel.open_bits(cands[i]) & bit for i in both)
                in_a = any(kernel.open_bits(cands[i]) & bit for i in rest_a)
                in_b = any(kernel.open_bits(cands[i]) & bit for i in rest_b)
                for lose, keep, cells in ((in_b, in_a, rest_b), (in_a, in_b, rest_a)):
                    if not (here and lose and not keep):
                        continue
                    for i in cells:
                        if cands[i] & bit:  # open there (a placed digit sits in its guard bit)
                            changed = kernel._narrow(cands, i, cands[i] & ~bit)
                            if changed < 0:
                                return -1
                            dirty |= changed
    return dirty


def plain_root(kernel: _Kernel, puzzle: Puzzle) -> Masks | None:
    """`kernel.initial` with `plain_locked` in place of `_locked`."""
    cands = list(kernel.allowed)
    for i, value in enumerate(puzzle.givens.values):
        bit = kernel.bit[value - 1] if value else 0
        if bit and cands[i] & (cands[i] - 1) and kernel.assign(cands, i, bit) < 0:
            return None
    if not kernel.propagate(cands, (1 << len(kernel.houses)) - 1):
        return None
    while True:
        dirty = plain_locked(kernel, cands)
        if dirty == 0:
            return cands
        if dirty < 0 or not kernel.propagate(cands, dirty):
            return None


def puzzles() -> list[tuple[str, Puzzle]]:
    """Classic 9×9, 16×16 and 25×25 boards, jigsaws (house sums from cells) and X-sudoku
    (diagonals cut into three box parts each)."""
    cases = [(f"top1465:{k}", p) for k, p in enumerate(read_puzzles(DATA / "top1465.txt")[:12])]
    cases += [("acwing16", p) for p in read_puzzles(DATA / "16x16-acwing169-sample.txt")[:3]]
    durr = (DATA / "25x25-durr-example.txt").read_text().splitlines()[0]
    cases += [("durr25", p) for p in read_text(durr, box=(5, 5))]
    for model in (
        "variants/real/jigsaw.json",
        "variants/real/jigsaw-16x16.json",
        "x-sudoku/diagonal-sample.json",
    ):
        cases += [(model, p) for p in read_puzzles(REPO / "models" / model)]
    return cases


SLOW = {"durr25", "acwing16", "variants/real/jigsaw-16x16.json"}  # the plain pass: 1-5 s


@pytest.mark.parametrize(
    "puzzle",
    [
        pytest.param(p, id=name, marks=[pytest.mark.slow] if name in SLOW else [])
        for name, p in puzzles()
    ],
)
def test_locked_candidates_reach_the_plain_fixpoint(puzzle: Puzzle) -> None:
    kernel = search_kernel(puzzle)
    assert kernel.locks  # every case has house pairs sharing cells
    expected = plain_root(kernel, puzzle)
    assert kernel.initial(puzzle.givens.values) == expected


def test_house_sums_come_from_parts_only_where_houses_are_cut_whole() -> None:
    """Boxes cut rows, columns and (in threes) the diagonals; a jigsaw's regions meet some rows
    in one cell, which no lock covers, so its house sums add cells."""
    durr = (DATA / "25x25-durr-example.txt").read_text().splitlines()[0]
    (classic,) = read_text(durr, box=(5, 5))
    (diagonal,) = read_puzzles(REPO / "models" / "x-sudoku" / "diagonal-sample.json")
    (jigsaw,) = read_puzzles(REPO / "models" / "variants" / "real" / "jigsaw.json")
    assert search_kernel(classic).house_parts is not None
    assert search_kernel(diagonal).house_parts is not None
    assert search_kernel(jigsaw).house_parts is None


def test_a_fixpoint_stays() -> None:
    """`_locked` on the root's fixpoint removes nothing, placed digits included."""
    puzzle = read_puzzles(DATA / "top1465.txt")[0]
    kernel = search_kernel(puzzle)
    root = kernel.initial(puzzle.givens.values)
    assert root is not None
    before = list(root)
    assert kernel._locked(root) == 0 and root == before
