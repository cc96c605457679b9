"""CP-SAT batch speed: a naive loop (new model per puzzle, solve, exclude, re-solve) against the
backend's reused model (givens through proto domains, up to 2 solutions in one search).

Run: python benchmarks/bench_cpsat.py [--sample N] [--seed S]. Reads ../shared/data when present,
else the bundled samples in tests/data. Both variants run interleaved, puzzle by puzzle, so a
busy machine slows them alike and the ratio stays meaningful.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from ortools.sat.python import cp_model

from satsudoku.backends.cpsat import CpSatBackend
from satsudoku.io import read_text
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
DATASETS = ("17clue.txt", "top1465.txt", "forum-hardest-1106.txt")


def naive_solve(puzzle: Puzzle) -> Status:
    """The textbook loop: build a model, solve, forbid the solution, solve again."""
    n = puzzle.size
    model = cp_model.CpModel()
    cells = []
    for index, value in enumerate(puzzle.givens.values):
        low, high = (value, value) if value else (1, n)
        cells.append(model.new_int_var(low, high, f"c{index}"))
    for house in puzzle.shape.house_indices:
        model.add_all_different([cells[i] for i in house])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Status.UNSATISFIABLE
    first = [solver.value(var) for var in cells]
    differs = []
    for var, value in zip(cells, first, strict=True):
        flag = model.new_bool_var("")
        model.add(var != value).only_enforce_if(flag)  # returns None in 9.15: do not chain
        differs.append(flag)
    model.add_bool_or(differs)
    second = solver.solve(model)
    if second in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Status.MULTIPLE
    return Status.UNIQUE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=300, help="puzzles per dataset")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    folder = SHARED if SHARED.is_dir() else REPO / "tests" / "data"
    if folder != SHARED:
        print(f"{SHARED} not found: using the bundled samples in {folder}", file=sys.stderr)
    backend = CpSatBackend()
    print(f"data: {folder}; {args.sample} puzzles per dataset, seed {args.seed}")
    print(f"{'dataset':<24} {'naive/s':>9} {'reused/s':>9} {'speed-up':>9}")
    for name in DATASETS:
        lines = [line for line in (folder / name).read_text().splitlines() if line.strip()]
        chosen = random.Random(args.seed).sample(lines, min(args.sample, len(lines)))
        sample = [read_text(line, source=name)[0] for line in chosen]
        naive_times, reused_times = [], []
        for puzzle in sample:  # interleaved: both see the same machine load
            start = time.perf_counter()
            expected = naive_solve(puzzle)
            naive_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            result = backend.solve(puzzle, limit=2)
            reused_times.append(time.perf_counter() - start)
            if result.status is not expected:
                raise SystemExit(f"{name}: verdicts differ: {result.status} vs {expected}")
        naive_rate = len(sample) / sum(naive_times)
        reused_rate = len(sample) / sum(reused_times)
        print(
            f"{name:<24} {naive_rate:>9.1f} {reused_rate:>9.1f} {reused_rate / naive_rate:>8.2f}x"
            f"   (median {statistics.median(naive_times) * 1e3:.2f} vs "
            f"{statistics.median(reused_times) * 1e3:.2f} ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
