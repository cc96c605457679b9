"""The propagation queue (`satsudoku.search.watch`): `settle` runs a step only when a cell it
reads changed, so its fixpoint must be the one of running every step again and again until
nothing changes. Checked on random nodes of real puzzles: a forum killer (cages, needed
digits, listed implied sums, which the root walks), a killer-X and variant models with sums,
segments of one sum and two-cell relations."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from satsudoku.io import read_puzzles, read_text
from satsudoku.puzzle import Puzzle
from satsudoku.search.kernel import Masks, _Kernel, search_kernel

REPO = Path(__file__).resolve().parent.parent


def full_reruns(kernel: _Kernel, cands: Masks) -> bool:
    """Every house and every step (`active` and `derived`), again and again until a whole
    pass changes nothing; False on contradiction."""
    every_house = (1 << len(kernel.houses)) - 1
    while True:
        before = cands.copy()
        if not kernel.propagate(cands, every_house):
            return False
        for get, step, index in (*kernel.active, *kernel.derived):
            if step(cands, index, get(cands)) < 0:
                return False
        if cands == before:
            return True


def compare(puzzle: Puzzle, trials: int, seed: int) -> tuple[int, int]:
    """Random children of random nodes (a third of them the root's, where the listed sums
    are owed a first run), settled by the queue and by full reruns: the same verdict and
    masks. Returns how many children were compared and in how many the steps beyond houses
    and active steps (the derived ones) narrowed something."""
    kernel = search_kernel(puzzle)
    root = kernel.initial(puzzle.givens.values)
    assert root is not None and kernel.settle(root, (1 << len(kernel.houses)) - 1, False, True)
    rng = random.Random(seed)
    node, compared, derived = root, 0, 0
    for _ in range(trials):
        if rng.random() < 1 / 3:
            node = root
        open_cells = [i for i, m in enumerate(node) if not m & kernel.guard and m & (m - 1)]
        if not open_cells:
            node = root
            continue
        cell = rng.choice(open_cells)
        digits = [b for b in kernel.bit if node[cell] & b]
        bit = rng.choice(digits)
        queued, full, plain = node.copy(), node.copy(), node.copy()
        dirty = kernel.assign(queued, cell, bit)
        kernel.assign(full, cell, bit)
        kernel.assign(plain, cell, bit)
        ok = dirty >= 0 and kernel.settle(queued, dirty, False)
        assert ok == (dirty >= 0 and full_reruns(kernel, full))
        compared += 1
        if ok:
            assert queued == full
            derived += kernel.propagate(plain, dirty) and plain != full
            node = queued
    return compared, derived


@pytest.mark.parametrize("number", [29, 37])  # 29: five listed sums narrow the walked root
def test_queue_keeps_the_fixpoint_of_forum_killers(shared_data: Path, number: int) -> None:
    line = (shared_data / "killer-hard-forum-9x9.txt").read_text().splitlines()[number - 1]
    (puzzle,) = read_text(line, fmt="killer")
    compared, derived = compare(puzzle, 300, number)
    assert compared == 300
    assert derived > 20  # the implied sums and needed digits do narrow these nodes


def test_queue_keeps_the_fixpoint_of_a_killer_x(shared_data: Path) -> None:
    line = (shared_data / "killer-x-hard-forum-9x9.txt").read_text().splitlines()[4]
    (puzzle,) = read_text(line, fmt="killer", rules=("diagonal",))
    compared, derived = compare(puzzle, 200, 5)
    assert compared == 200 and derived > 10


@pytest.mark.parametrize(
    "path",
    [
        "tests/data/published-slow/raw-spaghetti.json",  # region sum lines: joined segments
        "models/variants/miracle/miracle-sudoku.json",  # two-cell relations
        "models/variants/real/pill-arrow.json",  # arrows: sums over groups
        "models/variants/real/lockout-double-arrows.json",  # tables and sums
    ],
)
def test_queue_keeps_the_fixpoint_of_variants(path: str) -> None:
    (puzzle,) = read_puzzles(REPO / path)
    compared, _ = compare(puzzle, 150, 1)
    assert compared > 100
