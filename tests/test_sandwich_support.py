"""The reference's sandwich narrowing (`search.sandwiches.SandwichLine.support`) against brute
force over every line of distinct digits: it keeps every digit some qualifying line allows
(sound), finds a contradiction only where no line qualifies, and is exact on placed lines."""

from __future__ import annotations

import itertools
import random

import pytest

from satsudoku.constraints import Sandwich
from satsudoku.search.sandwiches import SandwichLine


def _bits(size: int) -> list[int]:
    """The kernel's spread layout: digit d's open bit at (d - 1) * width."""
    width = size.bit_length() + 1
    return [1 << (d * width) for d in range(size)]


def _total(line: tuple[int, ...], low: int, high: int) -> int:
    i, j = sorted((line.index(low), line.index(high)))
    return sum(line[i + 1 : j])


def _line(size: int, width: int, total: int, low: int, high: int) -> tuple[Sandwich, SandwichLine]:
    clue = Sandwich(tuple((0, c) for c in range(width)), total, low, high)
    return clue, SandwichLine.build(clue, tuple(range(width)), _bits(size))


def _qualifying(size: int, width: int, total: int, low: int, high: int) -> list[tuple[int, ...]]:
    return [
        line
        for line in itertools.permutations(range(1, size + 1), width)
        if low in line and high in line and _total(line, low, high) == total
    ]


@pytest.mark.parametrize(
    ("size", "width", "low", "high"), [(4, 4, 1, 4), (6, 6, 1, 6), (6, 6, 5, 2), (6, 5, 1, 6)]
)
def test_support_keeps_every_qualifying_digit(size: int, width: int, low: int, high: int) -> None:
    """Random candidates per cell (1 to `size` digits), every total: the support holds each
    digit of each qualifying line within them, and None means there is no such line."""
    bit = _bits(size)
    rng = random.Random(size * 100 + width * 10 + low)
    narrowed = 0  # cases where the support is strictly inside the candidates
    for total in range(sum(range(1, size + 1)) - low - high + 2):
        _, line = _line(size, width, total, low, high)
        lines = _qualifying(size, width, total, low, high)
        for _ in range(60):
            digits = [
                rng.sample(range(1, size + 1), rng.choice([1, 2, 2, 3, 3, size]))
                for _ in range(width)
            ]
            opened = [sum(bit[d - 1] for d in ds) for ds in digits]
            fits = [ln for ln in lines if all(d in ds for d, ds in zip(ln, digits, strict=True))]
            support = line.support(opened)
            if not fits:
                continue  # any answer is sound: the kernel fails this state or narrows it
            assert support is not None, (total, digits)
            for i, mask in enumerate(opened):
                need = sum({bit[ln[i] - 1] for ln in fits})
                assert need & ~support[i] == 0, (total, digits, i)
                narrowed += bool(mask & ~support[i])
    assert narrowed  # the cases exercise narrowing, not only agreement


@pytest.mark.parametrize(("size", "width"), [(4, 4), (6, 6), (6, 5)])
def test_support_is_exact_on_placed_lines(size: int, width: int) -> None:
    """Every line of distinct digits, placed: each digit kept iff the line qualifies, else None."""
    bit = _bits(size)
    for total in range(sum(range(2, size)) + 1):
        clue, line = _line(size, width, total, 1, size)
        for row in itertools.permutations(range(1, size + 1), width):
            placed = [bit[d - 1] for d in row]
            support = line.support(placed)
            if clue.check(dict(zip(clue.cells, row, strict=True))):
                assert support is not None, (total, row)
                assert all(m & ~s == 0 for m, s in zip(placed, support, strict=True)), (total, row)
            else:
                assert support is None, (total, row)


def test_the_outside_needs_room_for_the_rest() -> None:
    """A 6-cell line clued 5 with 1 and 6 two apart: 5 lies between them, so the outside holds
    2, 3 and 4, but 4 fits only between. Each cell alone meets its layout's digits; the line
    still fails, as it must."""
    bit = _bits(6)
    _, line = _line(6, 6, 5, 1, 6)
    digits = [[1], [4, 5], [6], [2, 3, 5], [2, 3, 5], [2, 3, 5]]
    assert line.support([sum(bit[x - 1] for x in ds) for ds in digits]) is None
