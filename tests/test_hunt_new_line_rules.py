"""An attacker's checks of this session's line, region and sign rules (h72).

Each rule is judged by a predicate written here from its rules text alone (docs/rules.md), over
every 4x4 grid, against each backend's count on random lines, signs and givens; and two bugs
found so: a segment line of thousands of runs ended the verifier in RecursionError, and a
`--line` total of four digits (a 64x64 row sums to 2,080) was refused as a malformed option.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.grid import Grid
from satsudoku.io.document import puzzle_from_document
from satsudoku.io.sudokupad_lines import parse_line_type
from satsudoku.io.text import ReadOptions
from satsudoku.rules.linesets import splits_into
from satsudoku.verify import violations

Values = tuple[int, ...]
Holds = Callable[[Values], bool]
N = 4


@cache
def grids_4x4() -> tuple[Values, ...]:
    """All 288 4x4 grids, filled cell by cell against rows, columns and boxes."""
    found: list[Values] = []

    def fill(grid: list[int]) -> None:
        if len(grid) == N * N:
            found.append(tuple(grid))
            return
        r, c = divmod(len(grid), N)
        seen = {grid[i] for i in range(len(grid)) if peers(i, r, c)}
        for digit in range(1, N + 1):
            if digit not in seen:
                fill([*grid, digit])

    fill([])
    return tuple(found)


def peers(i: int, r: int, c: int) -> bool:
    a, b = divmod(i, N)
    return a == r or b == c or (a // 2, b // 2) == (r // 2, c // 2)


def runs_of(total: int, digits: Sequence[int]) -> bool:
    """Whether some cut of the digits into consecutive runs gives every run `total` (tried
    every way, the slow obvious way, independent of the library's one pass)."""
    if not digits:
        return True
    return any(
        sum(digits[:k]) == total and runs_of(total, digits[k:]) for k in range(1, len(digits) + 1)
    )


def arithmetic(d: Sequence[int]) -> bool:
    return len({b - a for a, b in zip(d, d[1:], strict=False)}) <= 1


def monotone(d: Sequence[int]) -> bool:
    steps = [b - a for a, b in zip(d, d[1:], strict=False)]
    return all(s > 0 for s in steps) or all(s < 0 for s in steps)


def king_path(rng: random.Random, length: int) -> list[int]:
    """A walk of distinct cells, each a king's move from the last (may stop short)."""
    path = [rng.randrange(N * N)]
    while len(path) < length:
        r, c = divmod(path[-1], N)
        steps = [
            (r + a) * N + c + b
            for a in (-1, 0, 1)
            for b in (-1, 0, 1)
            if 0 <= r + a < N and 0 <= c + b < N and (r + a) * N + c + b not in path
        ]
        if not steps:
            break
        path.append(rng.choice(steps))
    return path if len(path) > 1 else [*path, path[0] + 1 if path[0] % N < N - 1 else path[0] - 1]


def name(index: int) -> str:
    return f"r{index // N + 1}c{index % N + 1}"


def random_case(rng: random.Random, kind: str) -> tuple[dict[str, Any], Holds]:
    """A rule of `kind` on a few random lines (or cells, or signs) and what it means."""
    if kind == "greaterthan":
        pairs = []
        for _ in range(rng.randint(1, 5)):
            cell = rng.randrange(N * N)
            other = cell + 1 if cell % N < N - 1 else cell + N if cell < N * (N - 1) else cell - 1
            pairs.append((cell, other) if rng.random() < 0.5 else (other, cell))
        signs = {"type": kind, "pairs": [[name(a), name(b)] for a, b in pairs]}
        return signs, lambda g: all(g[a] > g[b] for a, b in pairs)
    if kind == "extraregion":
        cells = rng.sample(range(N * N), rng.randint(2, N))
        return {
            "type": kind,
            "cells": [name(i) for i in cells],
        }, lambda g: len({g[i] for i in cells}) == len(cells)
    lines = [king_path(rng, rng.randint(2, N + 2)) for _ in range(rng.choice((1, 1, 2)))]
    rule: dict[str, Any] = {"type": kind, "lines": [[name(i) for i in line] for line in lines]}
    holds: Callable[[list[int]], bool]
    if kind == "distinctline":
        count = rng.randint(1, N)
        rule["count"] = count
        holds = lambda d: len(set(d)) == count  # noqa: E731
    elif kind == "segmentsumline":
        total = rng.choice((1, 3, 4, 5, 6, 7, 10, 40))
        rule["total"] = total
        holds = lambda d: runs_of(total, d)  # noqa: E731
    else:
        holds = {
            "sameparityline": lambda d: len({x % 2 for x in d}) == 1,
            "arithmeticline": arithmetic,
            "monotoneline": monotone,
        }[kind]
    return rule, lambda g: all(holds([g[i] for i in line]) for line in lines)


KINDS = (
    "sameparityline",
    "distinctline",
    "arithmeticline",
    "segmentsumline",
    "monotoneline",
    "extraregion",
    "greaterthan",
)


def check_cases(backend: str, seed: int, cases: int) -> int:
    """Solve `cases` random puzzles; assert each count and grid; return how many ran."""
    rng = random.Random(seed)
    solver = get_backend(backend)
    for _ in range(cases):
        kind = rng.choice(KINDS)
        rule, holds = random_case(rng, kind)
        base = rng.choice(grids_4x4())
        givens = [d if rng.random() < rng.choice((0.0, 0.25, 0.4)) else 0 for d in base]
        fits = [g for g in grids_4x4() if all(x in (0, y) for x, y in zip(givens, g, strict=True))]
        good = {g for g in fits if holds(g)}
        doc = {"size": N, "givens": "".join(str(d or ".") for d in givens), "rules": [rule]}
        puzzle = puzzle_from_document(doc, ReadOptions())
        result = solver.solve(puzzle, limit=len(good) + 1)
        assert len(result.solutions) == len(good), doc
        assert {s.values for s in result.solutions} <= good, doc
        for grid in fits[:20]:
            assert (not violations(puzzle, Grid(N, grid))) == (grid in good), (doc, grid)
    return cases


@pytest.mark.parametrize("backend", available())
def test_random_lines_count_what_the_rules_text_means(backend: str) -> None:
    cases = 10 if backend == "cpsat" else 25  # CP-SAT's ~35 ms a model: ~0.4 s CPU each here
    assert check_cases(backend, seed=72, cases=cases) == cases


@pytest.mark.slow
@pytest.mark.parametrize("backend", available(partial=True))
def test_many_random_lines_count_what_the_rules_text_means(backend: str) -> None:
    if backend in ("race", "fast"):  # race: a process per entrant; fast: all-different only
        pytest.skip(f"{backend} is not run on these")
    assert check_cases(backend, seed=7272, cases=300) == 300


def test_a_segment_line_of_two_thousand_runs_is_judged_without_recursion() -> None:
    # Before: RecursionError (one recursive call per run), a traceback on a 64x64 document
    # whose stored solution's 4,032-cell line cuts into 2,016 runs of 65.
    runs = (1, 64) * 2016
    assert splits_into(65, runs)
    assert not splits_into(65, (*runs[:-1], 63))
    assert not splits_into(65, (*runs, 1))
    assert splits_into(130, runs) and not splits_into(130, runs[:-2])


def test_one_pass_split_agrees_with_trying_every_cut() -> None:
    for digits in itertools.product(range(1, 5), repeat=5):
        for total in range(1, 12):
            assert splits_into(total, digits) == runs_of(total, digits), (total, digits)


def test_a_line_total_of_four_digits_is_read() -> None:
    # Before: '00a3cc=segmentsumline:2080' is not COLOUR[:THICKNESS]=TYPE (K had 1-3 digits).
    assert parse_line_type("00a3cc=segmentsumline:2080").count == 2080
    with pytest.raises(ValueError, match=r"=TYPE\[:K\]"):
        parse_line_type("00a3cc=segmentsumline:" + "1" + "0" * 30)
