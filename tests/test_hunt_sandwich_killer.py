"""An attacker's checks of the sandwich propagator, crust branching, implied sums and probing (h78).

Sandwich clues (impossible values and the maximum included, on rows and columns at once) and
killer cages (across box borders, whole houses, without sums) are judged by predicates written
here from docs/rules.md alone, over every 4x4 grid, against each backend's solutions at limits 1,
2, 3 and all; probing is switched off and widened to every depth, so the trees differ but the
answers may not. Two sandwich-only puzzles whose proofs branch on where a crust goes are proved
by the bitmask search, verified, and tampered with.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import satsudoku.backends.bitmask as bitmask_module
from satsudoku.backends import Backend, available, get_backend
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.cli import main
from satsudoku.io.document import puzzle_from_document
from satsudoku.io.text import ReadOptions
from satsudoku.proof.certificate import verify_certificate
from satsudoku.result import Status

Values = tuple[int, ...]
Holds = Callable[[Values], bool]
N = 4
TOP = 2 + 3  # the largest 4x4 sandwich total


@cache
def grids_4x4() -> tuple[Values, ...]:
    """All 288 4x4 grids, filled cell by cell against rows, columns and 2x2 boxes."""
    found: list[Values] = []

    def fill(grid: list[int]) -> None:
        if len(grid) == N * N:
            found.append(tuple(grid))
            return
        r, c = divmod(len(grid), N)
        seen = {
            grid[i]
            for i in range(len(grid))
            if i // N == r or i % N == c or (i // N // 2, i % N // 2) == (r // 2, c // 2)
        }
        for digit in range(1, N + 1):
            if digit not in seen:
                fill([*grid, digit])

    fill([])
    return tuple(found)


def between(line: list[int]) -> int:
    """The sum strictly between the 1 and the n of a full line of distinct digits."""
    a, b = sorted((line.index(1), line.index(N)))
    return sum(line[a + 1 : b])


def row(g: Values, k: int) -> list[int]:
    return list(g[k * N : k * N + N])


def col(g: Values, k: int) -> list[int]:
    return list(g[k::N])


def name(i: int) -> str:
    return f"r{i // N + 1}c{i % N + 1}"


def random_cage(rng: random.Random, taken: set[int]) -> list[int]:
    """A random orthogonally connected cage of free cells (whole houses now and then)."""
    if rng.random() < 0.15:
        k = rng.randrange(N)
        house = (
            [k * N + c for c in range(N)] if rng.random() < 0.5 else [r * N + k for r in range(N)]
        )
        return [] if taken & set(house) else house
    cells = [rng.choice([i for i in range(N * N) if i not in taken] or [0])]
    if cells[0] in taken:
        return []
    for _ in range(rng.randint(0, 3)):
        r, c = divmod(rng.choice(cells), N)
        steps = [(r + a) * N + c + b for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0))]
        free = [
            s
            for s, (a, b) in zip(steps, ((0, 1), (1, 0), (0, -1), (-1, 0)), strict=True)
            if 0 <= r + a < N and 0 <= c + b < N and s not in taken and s not in cells
        ]
        if free:
            cells.append(rng.choice(free))
    return cells


def random_case(rng: random.Random) -> tuple[dict[str, Any], Holds]:
    """A sandwich rule, killer cages or both, mostly read off a random grid, and what they mean."""
    base = rng.choice(grids_4x4())
    rules: list[dict[str, Any]] = []
    tests: list[Holds] = []
    if rng.random() < 0.75:
        clues: dict[str, list[int | None]] = {}
        for side, line in (("rows", row), ("cols", col)):
            if rng.random() < 0.2:
                continue
            values: list[int | None] = []
            for k in range(N):
                if rng.random() < 0.4:
                    values.append(None)
                elif rng.random() < 0.15:  # 1 and 4 never fit between 1 and 4 on a 4x4
                    values.append(rng.choice((0, 1, 4, TOP)))
                else:
                    values.append(between(line(base, k)))
            clues[side] = values
        rules.append({"type": "sandwich", **clues})

        def sandwich(g: Values, clues: dict[str, list[int | None]] = clues) -> bool:
            return all(
                v is None or between(line(g, k)) == v
                for side, line in (("rows", row), ("cols", col))
                for k, v in enumerate(clues.get(side, []))
            )

        tests.append(sandwich)
    if not rules or rng.random() < 0.5:
        taken: set[int] = set()
        cages: list[tuple[list[int], int | None]] = []
        for _ in range(rng.randint(1, 5)):
            cells = random_cage(rng, taken)
            if not cells:
                continue
            taken |= set(cells)
            total: int | None = sum(base[i] for i in cells)
            if rng.random() < 0.15:
                total = rng.randint(1, 10)
            elif rng.random() < 0.1:
                total = None
            cages.append((cells, total))
        rules.append(
            {
                "type": "killer",
                "cages": [
                    {"cells": [name(i) for i in cells], **({} if t is None else {"sum": t})}
                    for cells, t in cages
                ],
            }
        )

        def killer(g: Values, cages: list[tuple[list[int], int | None]] = cages) -> bool:
            return all(
                len({g[i] for i in cells}) == len(cells)
                and (t is None or sum(g[i] for i in cells) == t)
                for cells, t in cages
            )

        tests.append(killer)
    density = rng.choice((0, 0.15, 0.3))
    givens = "".join(str(d) if rng.random() < density else "." for d in base)
    tests.append(lambda g: all(ch in (".", str(d)) for ch, d in zip(givens, g, strict=True)))
    doc = {"size": N, "givens": givens, "rules": rules}
    return doc, lambda g: all(t(g) for t in tests)


@contextmanager
def probing(depth: int, widest_below: int) -> Iterator[None]:
    """The bitmask search's probing depth and width below the root, for the block."""
    saved = bitmask_module._PROBE_DEPTH, bitmask_module._PROBE_WIDEST_BELOW
    bitmask_module._PROBE_DEPTH, bitmask_module._PROBE_WIDEST_BELOW = depth, widest_below
    try:
        yield
    finally:
        bitmask_module._PROBE_DEPTH, bitmask_module._PROBE_WIDEST_BELOW = saved


def expect(solver: Backend, doc: dict[str, Any], good: set[Values]) -> None:
    """Every limit's verdict and grids agree with the exact set `good` (unknown is a failure
    here: these are 4x4s)."""
    puzzle = puzzle_from_document(doc, ReadOptions())
    count = len(good)
    for limit in (1, 2, 3, count + 1):
        result = solver.solve(puzzle, limit=limit)
        grids = [s.values for s in result.solutions]
        assert len(set(grids)) == len(grids) and set(grids) <= good, (doc, limit)
        assert len(grids) == min(limit, count), (doc, limit, count)
        if count == 0:
            assert result.status is Status.UNSATISFIABLE, doc
        elif limit == 1:
            assert result.status in (Status.SOLVED, Status.UNIQUE), doc
        else:
            want = Status.UNIQUE if count == 1 else Status.MULTIPLE
            assert result.status is want, (doc, limit, count)
        if limit > count:
            assert result.exhausted and result.count == count, (doc, limit)


def check_cases(solver: Backend, seed: int, cases: int) -> int:
    rng = random.Random(seed)
    for _ in range(cases):
        doc, holds = random_case(rng)
        expect(solver, doc, {g for g in grids_4x4() if holds(g)})
    return cases


@pytest.mark.parametrize("backend", available())
def test_sandwiches_and_cages_count_what_the_rules_text_means(backend: str) -> None:
    cases = 6 if backend == "cpsat" else 30  # CP-SAT: ~35 ms a model, 4 limits a case
    assert check_cases(get_backend(backend), seed=78, cases=cases) == cases


@pytest.mark.parametrize(("depth", "widest"), [(-1, 2), (1000, 3)])
def test_probing_off_or_everywhere_keeps_the_answers(depth: int, widest: int) -> None:
    with probing(depth, widest):
        assert check_cases(BitmaskBackend(), seed=7878, cases=30) == 30


@pytest.mark.slow
@pytest.mark.parametrize("backend", [*available(), "mip", "bitmask-generic"])
def test_many_sandwiches_and_cages_count_what_the_rules_text_means(backend: str) -> None:
    solver = BitmaskBackend(generic=True) if backend == "bitmask-generic" else get_backend(backend)
    assert check_cases(solver, seed=787878, cases=300) == 300


# Sandwich-only puzzles (h78's generator, classified by sat) whose bitmask proofs branch on
# crusts: the 8x8 ten times (unsatisfiable), the 9x9 once (unique).
CRUST_PUZZLES: dict[str, dict[str, Any]] = {
    "unsatisfiable": {
        "size": 8,
        "box": [2, 4],
        "rules": [
            {
                "type": "sandwich",
                "rows": [0, 10, 11, 7, 15, None, 14, 21],
                "cols": [18, 2, 4, 8, 0, 11, 5, 7],
            }
        ],
    },
    "unique": {
        "size": 9,
        "givens": "." * 9 + "5" + "." * 27 + "3" + "." * 35 + "1" + "." * 7,
        "rules": [
            {
                "type": "sandwich",
                "rows": [5, 30, 12, 18, 24, 6, 6, 16, 19],
                "cols": [9, 33, None, 21, 12, 18, 0, 15, 0],
            }
        ],
    },
}


@pytest.mark.slow
@pytest.mark.parametrize("verdict", sorted(CRUST_PUZZLES))
def test_crust_branching_certificates_verify_and_tampering_is_rejected(
    verdict: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = CRUST_PUZZLES[verdict]
    assert len(doc.get("givens", "." * 64)) == doc["size"] ** 2
    source = tmp_path / "p.json"
    source.write_text(json.dumps(doc))
    cert = tmp_path / "cert"
    assert main(["prove", "--backend", "bitmask", "--certificate", str(cert), str(source)]) == 0
    assert f"puzzle 1: {verdict}" in capsys.readouterr().out
    assert verify_certificate(cert, use_drat_trim=False).ok
    lines = (cert / "proof.drat").read_text().splitlines()
    lemmas = [i for i, line in enumerate(lines) if not line.startswith("d") and line != "0"]
    assert lemmas, "a real refutation, not unit propagation alone"
    rejected = 0
    for i in lemmas:  # without a lemma some proof step fails; drop them one by one
        bad = tmp_path / f"bad{i}"
        shutil.copytree(cert, bad)
        (bad / "proof.drat").write_text("\n".join(lines[:i] + lines[i + 1 :]) + "\n")
        rejected += not verify_certificate(bad, use_drat_trim=False).ok
        shutil.rmtree(bad)
        if rejected:
            break
    assert rejected
    manifest = json.loads((cert / "manifest.json").read_text())
    clues = manifest["puzzle"]["rules"][0]["cols"]
    clues[0] = None  # a weaker puzzle: the formula's clauses of that clue are not its own
    (cert / "manifest.json").write_text(json.dumps(manifest))
    assert not verify_certificate(cert, use_drat_trim=False).ok
