"""Batch speed of the SAT backend, side by side with the issue's 40-line prototype baseline.

Usage: python benchmarks/bench_sat.py [--count N] [--rounds R] [--configs all|default]
Puzzles/s (uniqueness included) on samples of 17clue, top1465 and forum-hardest-1106 from
../shared/data, falling back to tests/data when that folder is absent. Rounds interleave the
configurations and the best round counts, so load from other processes hits all alike.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pysat.solvers import Solver

from satsudoku.backends.sat import SatBackend
from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
DATASETS = ("17clue.txt", "top1465.txt", "forum-hardest-1106.txt")


def prototype_clauses() -> list[list[int]]:
    """The prototype's extended 9×9 encoding, pairwise, written out by hand."""
    n, b = 9, 3

    def v(r: int, c: int, d: int) -> int:
        return r * n * n + c * n + d + 1

    houses = [[(r, c) for c in range(n)] for r in range(n)]
    houses += [[(r, c) for r in range(n)] for c in range(n)]
    houses += [
        [(br + i, bc + j) for i in range(b) for j in range(b)]
        for br in range(0, n, b)
        for bc in range(0, n, b)
    ]
    clauses = []
    for r, c in itertools.product(range(n), repeat=2):
        clauses.append([v(r, c, d) for d in range(n)])
        clauses += [[-v(r, c, a), -v(r, c, e)] for a, e in itertools.combinations(range(n), 2)]
    for house in houses:
        for d in range(n):
            clauses.append([v(r, c, d) for r, c in house])
            clauses += [[-v(*p, d), -v(*q, d)] for p, q in itertools.combinations(house, 2)]
    return clauses


def prototype(lines: Sequence[str], solver: str = "cadical195", rebuild: int = 1000) -> int:
    """The baseline: givens as assumptions, selector-guarded blocking clause; unique count."""
    clauses = prototype_clauses()
    sat, top, unique = None, 729, 0
    for k, line in enumerate(lines):
        if k % rebuild == 0:
            if sat is not None:
                sat.delete()
            sat, top = Solver(name=solver, bootstrap_with=clauses), 729
        assumptions = [i * 9 + int(ch) for i, ch in enumerate(line[:81]) if ch not in ".0"]
        if not sat.solve(assumptions=assumptions):
            continue
        given = set(assumptions)
        top += 1
        sat.add_clause(
            [-top] + [-lit for lit in sat.get_model()[:729] if lit > 0 and lit not in given]
        )
        unique += not sat.solve(assumptions=assumptions + [top])
        sat.add_clause([-top])
    if sat is not None:
        sat.delete()
    return unique


def ours(puzzles: Sequence[Puzzle], encoding: str, solver: str, amo: str = "pairwise") -> int:
    backend = SatBackend(encoding=encoding, solver=solver, amo=amo)
    unique = sum(r.status.value == "unique" for r in backend.solve_many(puzzles))
    backend.close()
    return unique


def load(name: str, count: int) -> tuple[str, list[str]]:
    folder = SHARED if (SHARED / name).is_file() else REPO / "tests" / "data"
    lines = [line.split()[0] for line in (folder / name).read_text().splitlines() if line.strip()]
    lines = [line for line in lines if len(line) == 81]
    if len(lines) > count:
        lines = random.Random(2026).sample(lines, count)
    return str(folder / name), lines


def to_puzzles(lines: Sequence[str]) -> list[Puzzle]:
    shape = Shape(3, 3)  # one Shape object: its cached house indices serve the verifier
    return [
        Puzzle(shape, Grid(9, tuple(0 if ch in ".0" else int(ch) for ch in line))) for line in lines
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="puzzles per dataset")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--configs", choices=("all", "default"), default="all")
    args = parser.parse_args()
    configs: list[tuple[str, str, str]] = [
        ("extended", "cadical195", "pairwise"),
        ("reduced", "minicard", "native"),
    ]
    if args.configs == "all":
        configs += [(e, "cadical195", "pairwise") for e in ("minimal", "efficient", "reduced")]
        others = ("cadical153", "glucose4", "minisat22", "maplechrono")
        configs += [("extended", s, "pairwise") for s in others]
        configs += [("extended", "minicard", "native"), ("reduced", "gluecard4", "native")]
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    for name in DATASETS:
        source, lines = load(name, args.count)
        puzzles = to_puzzles(lines)
        runs: dict[str, Callable[[], int]] = {
            "prototype (extended, cadical195)": functools.partial(prototype, lines)
        }
        for encoding, solver, amo in configs:
            label = f"satsudoku {encoding}, {solver}" + (f", {amo}" if amo != "pairwise" else "")
            runs[label] = functools.partial(ours, puzzles, encoding, solver, amo)
        best: dict[str, float] = {}
        answers: dict[str, int] = {}
        for _ in range(args.rounds):
            for label, run in runs.items():
                start = time.perf_counter()
                answers[label] = run()
                best[label] = min(best.get(label, float("inf")), time.perf_counter() - start)
        base = len(lines) / best["prototype (extended, cadical195)"]
        print(f"\n{name}: {len(lines)} puzzles from {source}, best of {args.rounds} rounds")
        for label, seconds in best.items():
            rate = len(lines) / seconds
            print(
                f"  {label:44s} {rate:8.0f} puzzles/s  {rate / base:5.2f}x  unique={answers[label]}"
            )
    print("load average at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
