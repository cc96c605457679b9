"""True candidates speed: puzzles/s, ms per puzzle and ms inside the solver, per dataset and
backend, with a cross-check that every backend gives the same counts on a sample.

Run: python benchmarks/bench_candidates.py [--sample N] [--backend B|all] [--check K]
     [--cap K] [--data DIR] [--out results.json]
     python benchmarks/bench_candidates.py --models 60   # every model, every backend, agree?

Datasets: 17clue (unique), the same puzzles less their first two givens ("17clue-less2": tens
of thousands of solutions each), top1465 and forum-hardest-1106; read from --data, else
../shared/data beside the repo, else the bundled tests/data (a missing file is said and
skipped). The first N puzzles of each are used. Solver time is the time inside SAT or CP-SAT
calls (the issue's targets: unique 9x9 <= 5 ms, 17clue-less2 <= 100 ms, on sat); the whole
call adds encoding and checking every grid. The load average is printed: compare runs side by
side on a shared machine. Exit status 1 if any backends disagree.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from bench_bitmask import find_data  # ../shared/data, else tests/data, saying so

from satsudoku.grid import Grid
from satsudoku.io import read_puzzles, read_text
from satsudoku.puzzle import Puzzle
from satsudoku.tools.candidates import STRATEGIES, agree, true_candidates

REPO = Path(__file__).resolve().parent.parent
FILES = ("17clue.txt", "top1465.txt", "forum-hardest-1106.txt")


def less_two(puzzle: Puzzle) -> Puzzle:
    """The puzzle without its first two givens (row-major)."""
    values = list(puzzle.givens.values)
    for index in [i for i, v in enumerate(values) if v][:2]:
        values[index] = 0
    return replace(puzzle, givens=Grid(puzzle.size, tuple(values)))


def datasets(folder: Path, sample: int) -> dict[str, list[Puzzle]]:
    """Name → the first `sample` puzzles, with the derived 17clue-less2 after 17clue."""
    found: dict[str, list[Puzzle]] = {}
    for name in FILES:
        path = folder / name
        if not path.is_file():
            print(f"{path} not found: skipped", file=sys.stderr)
            continue
        lines = [line for line in path.read_text().splitlines() if line.strip()][:sample]
        found[path.stem] = [read_text(line, source=name)[0] for line in lines]
        if name == "17clue.txt":
            found["17clue-less2"] = [less_two(p) for p in found[path.stem]]
    return found


@dataclass
class Row:
    """One dataset on one backend."""

    dataset: str
    backend: str
    puzzles: int
    per_second: float
    ms_per_puzzle: float
    solver_ms_per_puzzle: float | None  # None: the bitmask backend has no separate solver
    max_solver_ms: float | None
    mean_candidates: float


def bench(name: str, puzzles: list[Puzzle], backend: str, cap: int) -> Row:
    seconds, solver, worst, candidates = 0.0, 0.0, 0.0, 0
    for puzzle in puzzles:
        start = time.perf_counter()
        found = true_candidates(puzzle, backend, cap=cap)
        seconds += time.perf_counter() - start
        inside = float(found.stats.get("solve_s", 0.0))
        solver, worst = solver + inside, max(worst, inside)
        candidates += sum(len(c) for c in found.counts)
    count = max(1, len(puzzles))
    has_solver = backend != "bitmask"
    return Row(
        name,
        backend,
        len(puzzles),
        round(len(puzzles) / seconds, 1) if seconds else 0.0,
        round(1000 * seconds / count, 2),
        round(1000 * solver / count, 2) if has_solver else None,
        round(1000 * worst, 2) if has_solver else None,
        round(candidates / count, 1),
    )


def cross_check(sets: dict[str, list[Puzzle]], check: int, run: Callable[..., object]) -> int:
    """Run the first `check` puzzles of each dataset on every backend; count disagreements."""
    failures = 0
    for name, puzzles in sets.items():
        for puzzle in puzzles[:check]:
            try:
                run([true_candidates(puzzle, b, cap=1) for b in STRATEGIES])
            except Exception as exc:  # a BackendBugError names the cell; keep going
                failures += 1
                print(f"{name}: {puzzle.origin}: {exc}", file=sys.stderr)
    return failures


def models_sweep(timeout: float) -> int:
    """Every puzzle in models/ on every backend (each under `timeout`): same candidates?"""
    puzzles: list[Puzzle] = []
    for path in sorted((REPO / "models").rglob("*")):
        if path.suffix in (".json", ".toml"):
            puzzles += read_puzzles(path)
    failures, stopped, start = 0, 0, time.perf_counter()
    for puzzle in puzzles:
        results = [true_candidates(puzzle, b, timeout=timeout) for b in STRATEGIES]
        stopped += sum(not found.complete for found in results)
        try:
            agree(results)
        except Exception as exc:
            failures += 1
            print(f"{puzzle.origin}: {exc}", file=sys.stderr)
    print(
        f"models: {len(puzzles)} puzzles on {', '.join(STRATEGIES)} in "
        f"{time.perf_counter() - start:.0f} s: {failures} disagreements, {stopped} runs "
        f"stopped at {timeout:g} s (not compared)"
    )
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=100, help="puzzles per dataset (100)")
    parser.add_argument("--backend", choices=[*STRATEGIES, "all"], default="sat")
    parser.add_argument("--cap", type=int, default=1, help="count up to K (default 1)")
    parser.add_argument("--check", type=int, default=3, help="puzzles per dataset cross-checked")
    parser.add_argument("--data", type=Path, default=None, help="folder with the dataset files")
    parser.add_argument("--out", type=Path, default=None, help="write the results as JSON")
    parser.add_argument(
        "--models",
        type=float,
        metavar="S",
        help="instead: every puzzle in models/ on every backend, S seconds each; must agree",
    )
    args = parser.parse_args()
    if args.models is not None:
        return 1 if models_sweep(args.models) else 0
    folder = find_data(args.data)
    sets = datasets(folder, args.sample)
    backends = list(STRATEGIES) if args.backend == "all" else [args.backend]
    load = os.getloadavg()[0]
    print(f"data: {folder}; first {args.sample} per dataset; cap {args.cap}; load {load:.2f}")
    print(
        f"{'dataset':<22} {'backend':<8} {'puzzles':>7} {'puzzles/s':>10} {'ms/puzzle':>10} "
        f"{'solver ms':>10} {'max solver':>10} {'candidates':>10}"
    )
    rows = []
    for name, puzzles in sets.items():
        for backend in backends:
            row = bench(name, puzzles, backend, args.cap)
            rows.append(row)
            solver = "-" if row.solver_ms_per_puzzle is None else f"{row.solver_ms_per_puzzle}"
            worst = "-" if row.max_solver_ms is None else f"{row.max_solver_ms}"
            print(
                f"{row.dataset:<22} {row.backend:<8} {row.puzzles:>7} {row.per_second:>10} "
                f"{row.ms_per_puzzle:>10} {solver:>10} {worst:>10} {row.mean_candidates:>10}",
                flush=True,
            )
    failures = cross_check(sets, args.check, agree)
    checked = args.check * len(sets)
    print(
        f"cross-check: {checked} puzzles on {', '.join(STRATEGIES)}: {failures} disagreements; "
        f"load after {os.getloadavg()[0]:.2f}"
    )
    if args.out is not None:
        report = {"data": str(folder), "command": sys.argv, "rows": [asdict(r) for r in rows]}
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
