"""Minimality speed: puzzles/s and ms per puzzle of `find_redundant` (and --reduce), per dataset
and backend, with a cross-check that every backend finds the same redundant givens.

Run: python benchmarks/bench_minimal.py [--sample N] [--backend B|all] [--check K]
     [--data DIR] [--out results.json]

Datasets: 17clue (every puzzle minimal), "17clue+8" (8 of the solution's cells added: not
minimal, each added cell redundant), top1465 and forum-hardest-1106, read as in
bench_candidates.py (--data, else ../shared/data, else tests/data; a missing file is said and
skipped); then the variant models of models/variants (rule instances examined too). Each test
on sat is one call under assumptions (the issue's target: <= 10 ms per 9x9). Exit status 1 if
backends disagree or a 17-clue puzzle is not found minimal.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from bench_candidates import REPO, datasets, find_data  # the same data, read the same way

from satsudoku.grid import Grid
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.tools.minimal import BACKENDS, Reduction, find_redundant, reduce_puzzle


def plus_cells(puzzle: Puzzle, count: int) -> Puzzle:
    """The puzzle with `count` cells of its solution added, spread over the board."""
    solution = find_redundant(puzzle, "sat").solution
    assert solution is not None
    values = list(puzzle.givens.values)
    empty = [i for i, v in enumerate(values) if not v]
    for index in empty[:: max(1, len(empty) // count)][:count]:
        values[index] = solution.values[index]
    return replace(puzzle, givens=Grid(puzzle.size, tuple(values)))


@dataclass
class Row:
    """One dataset on one backend."""

    dataset: str
    backend: str
    mode: str  # "redundant" (find_redundant) or "reduce"
    puzzles: int
    per_second: float
    ms_per_puzzle: float
    ms_per_test: float
    minimal: int
    mean_redundant: float


def bench(name: str, puzzles: list[Puzzle], backend: str, reduce: bool) -> Row:
    seconds, tests, minimal, redundant = 0.0, 0, 0, 0
    for puzzle in puzzles:
        start = time.perf_counter()
        if reduce:
            answer = reduce_puzzle(puzzle, backend)
            seconds += time.perf_counter() - start
            if isinstance(answer, Reduction):
                tests += int(answer.verdict.stats.get("tests", 0))
                redundant += len(answer.removed)
                minimal += not answer.removed
            continue
        verdict = find_redundant(puzzle, backend)
        seconds += time.perf_counter() - start
        tests += int(verdict.stats.get("tests", 0))
        minimal += verdict.minimal
        redundant += len(verdict.redundant)
    count = max(1, len(puzzles))
    return Row(
        name,
        backend,
        "reduce" if reduce else "redundant",
        len(puzzles),
        round(len(puzzles) / seconds, 1) if seconds else 0.0,
        round(1000 * seconds / count, 2),
        round(1000 * seconds / max(1, tests), 3),
        minimal,
        round(redundant / count, 2),
    )


def variant_models() -> list[Puzzle]:
    """The unique variant models shipped in models/variants (rules cut into instances)."""
    found = []
    for path in sorted((REPO / "models" / "variants").rglob("*.json")):
        puzzle = read_puzzles(path)[0]
        if puzzle.size <= 9:
            found.append(puzzle)
    return found


def cross_check(sets: dict[str, list[Puzzle]], check: int) -> int:
    """The first `check` puzzles of each dataset on every backend: same redundant items?"""
    failures = 0
    for name, puzzles in sets.items():
        for puzzle in puzzles[:check]:
            answers = {b: find_redundant(puzzle, b) for b in BACKENDS}
            if len({(a.status, a.redundant) for a in answers.values()}) != 1:
                failures += 1
                shown = {b: (a.status.value, a.redundant) for b, a in answers.items()}
                print(f"{name}: {puzzle.origin}: backends disagree: {shown}", file=sys.stderr)
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=100, help="puzzles per dataset (100)")
    parser.add_argument("--backend", choices=[*BACKENDS, "all"], default="sat")
    parser.add_argument("--check", type=int, default=3, help="puzzles per dataset cross-checked")
    parser.add_argument("--data", type=Path, default=None, help="folder with the dataset files")
    parser.add_argument("--out", type=Path, default=None, help="write the results as JSON")
    args = parser.parse_args()
    folder = find_data(args.data)
    sets = {k: v for k, v in datasets(folder, args.sample).items() if k != "17clue-less2"}
    if "17clue" in sets:
        sets["17clue+8"] = [plus_cells(p, 8) for p in sets["17clue"]]
    sets["variant models"] = variant_models()
    backends = list(BACKENDS) if args.backend == "all" else [args.backend]
    print(f"data: {folder}; first {args.sample} per dataset; load {os.getloadavg()[0]:.2f}")
    print(
        f"{'dataset':<20} {'backend':<8} {'mode':<9} {'puzzles':>7} {'puzzles/s':>9} "
        f"{'ms/puzzle':>9} {'ms/test':>8} {'minimal':>7} {'redundant':>9}"
    )
    rows = []
    for name, puzzles in sets.items():
        for backend in backends:
            for reduce in (False, True) if name == "17clue+8" else (False,):
                row = bench(name, puzzles, backend, reduce)
                rows.append(row)
                print(
                    f"{row.dataset:<20} {row.backend:<8} {row.mode:<9} {row.puzzles:>7} "
                    f"{row.per_second:>9} {row.ms_per_puzzle:>9} {row.ms_per_test:>8} "
                    f"{row.minimal:>7} {row.mean_redundant:>9}",
                    flush=True,
                )
    failures = cross_check(sets, args.check)
    seventeen = [r for r in rows if r.dataset == "17clue" and r.mode == "redundant"]
    failures += sum(r.puzzles - r.minimal for r in seventeen)  # every 17-clue puzzle is minimal
    print(
        f"cross-check: {args.check} puzzles per dataset on {', '.join(BACKENDS)}; failures "
        f"{failures}; load after {os.getloadavg()[0]:.2f}"
    )
    if args.out is not None:
        report = {"data": str(folder), "command": sys.argv, "rows": [asdict(r) for r in rows]}
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
