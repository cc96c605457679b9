"""`search.sums.SumTable`, the listed solutions of a short implied sum: exact supports per
cell, against brute force over every digit combination the masks allow; and the search's use
of it (walked at the root, listed below)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.io import read_text
from satsudoku.result import Status
from satsudoku.search import kernel as kernel_module
from satsudoku.search.kernel import search_kernel
from satsudoku.search.sums import SumTable

BIT = tuple(1 << (5 * d) for d in range(9))  # spread masks of width 5, as a 9×9 kernel's


def mask(*digits: int) -> int:
    return sum(BIT[d - 1] for d in digits)


def brute(
    opened: list[int], weights: tuple[int, ...], total: int, apart: list[tuple[int, int]]
) -> tuple[int, ...] | None:
    """Per position, the digits some assignment within `opened` meeting the sum gives it."""
    choices = [[d for d in range(1, 10) if m & BIT[d - 1]] for m in opened]
    keep = [0] * len(opened)
    for digits in itertools.product(*choices):
        if sum(w * d for w, d in zip(weights, digits, strict=True)) != total:
            continue
        if any(digits[a] == digits[b] for a, b in apart):
            continue
        for k, d in enumerate(digits):
            keep[k] |= BIT[d - 1]
    return tuple(keep) if any(keep) else None


def test_known_supports() -> None:
    """a + b - c = 0 with a, b, c distinct and c in {3}: {a, b} = {1, 2}; with a, b free to
    repeat a single 3 also needs 1.5, so the same; a + b = 17 as peers: 8 and 9 only."""
    full = mask(*range(1, 10))
    table = SumTable(BIT, (1, 1, -1), 0, [(0, 1), (0, 2), (1, 2)], 1 << 20)
    assert table.supports([full, full, mask(3)]) == (mask(1, 2), mask(1, 2), mask(3))
    assert table.supports([mask(1), mask(1), mask(2)]) is None
    peers = SumTable(BIT, (1, 1), 17, [(0, 1)], 1 << 20)
    assert peers.supports([full, full]) == (mask(8, 9), mask(8, 9))
    # What a walk over the group's digit sets keeps: a + b + c = 6 as peers, a and b in
    # {1, 2}, c in {1, 2, 3}: the set {1, 2, 3} fits and c may hold each of its digits, but
    # only 3 is left for c once a and b take 1 and 2.
    group = SumTable(BIT, (1, 1, 1), 6, [(0, 1), (0, 2), (1, 2)], 1 << 20)
    assert group.supports([mask(1, 2), mask(1, 2), mask(1, 2, 3)]) == (
        mask(1, 2),
        mask(1, 2),
        mask(3),
    )
    assert group.supports([mask(1, 2), mask(1, 2), mask(1, 2)]) is None


def test_a_term_of_weight_zero_takes_every_digit() -> None:
    """2a + 0b = 4: a is 2 and b anything (anything but 2 when apart from a), whichever place
    the zero has; the last term's shortcut (its digit is what the total leaves) once divided
    by its weight and, at 0, dropped every solution."""
    full = mask(*range(1, 10))
    for weights, apart in (((2, 0), []), ((0, 2), []), ((2, 0), [(0, 1)]), ((0, 2), [(0, 1)])):
        table = SumTable(BIT, weights, 4, apart, 1 << 20)
        expected = brute([full, full], weights, 4, apart)
        assert expected is not None and table.supports([full, full]) == expected, weights


def test_random_sums_match_brute_force() -> None:
    """600 random sums of 1-4 terms (weights ±1, random pairs apart), each asked about 5
    random sets of masks: the same supports as brute force, None exactly when it finds none."""
    rng = random.Random(88)
    answered = failed = 0
    for _ in range(600):
        size = rng.randint(1, 4)
        weights = tuple(rng.choice((1, 1, -1)) for _ in range(size))
        pairs = [(a, b) for a in range(size) for b in range(a + 1, size)]
        apart = [p for p in pairs if rng.random() < 0.5]
        lo = sum(w * (1 if w > 0 else 9) for w in weights)
        hi = sum(w * (9 if w > 0 else 1) for w in weights)
        total = rng.randint(lo, hi)
        table = SumTable(BIT, weights, total, apart, 1 << 20)
        for _ in range(5):
            opened = [mask(*rng.sample(range(1, 10), rng.randint(1, 9))) for _ in range(size)]
            expected = brute(opened, weights, total, apart)
            assert table.supports(opened) == expected, (weights, total, apart, opened)
            answered += expected is not None
            failed += expected is None
    assert answered > 500 and failed > 500  # both outcomes well exercised


def test_a_search_repeats_itself_though_the_tables_are_listed_once(shared_data: Path) -> None:
    """The root's settle walks the short implied sums and the nodes below use the listed
    tables, kept by the kernel across searches: forum killer line 36 (unique) takes the same
    tree the second time, when every table is listed already."""
    line = (shared_data / "killer-hard-forum-9x9.txt").read_text().splitlines()[35]
    (puzzle,) = read_text(line, fmt="killer")
    kernel_module._cached_kernel.cache_clear()
    try:
        first = BitmaskBackend().solve(puzzle, limit=2)
        kernel = search_kernel(puzzle)
        listed = [i for _, step, i in kernel.derived if step == kernel._sum_table]
        assert listed and all(isinstance(i.state[0], SumTable) for i in listed)
        second = BitmaskBackend().solve(puzzle, limit=2)
    finally:
        kernel_module._cached_kernel.cache_clear()
    assert first.status is second.status is Status.UNIQUE
    assert first.solution == second.solution == puzzle.solution
    assert first.stats["nodes"] == second.stats["nodes"] > 1
