"""Bitmask backend speed on variant puzzles: killer datasets and the Miracle's 72-grid count.

Run: python benchmarks/bench_variants.py [--sample N] [--data DIR] [--skip-miracle]

Killers (the first N lines of each killer file) are solved with the default limit=2, so every
verdict must be `unique` and match the recorded solution; the Miracle rules (anti-knight,
anti-king, non-consecutive) on an empty 9×9 must give exactly 72 grids. Any miss is a failure
and makes the exit status 1. Only solve() is timed; compare runs side by side under equal load.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.grid import Shape
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
KILLERS = ("killer-janko-9x9.txt", "killer-x-janko-9x9.txt", "killer-krazydad-9x9.txt")
WITH_DIAGONALS = "killer-x"  # these files' rules include both main diagonals (SOURCES.md)


def bench_killers(path: Path, sample: int) -> tuple[int, float, float, int]:
    """(puzzles, seconds, mean nodes, failures) over the first `sample` lines of `path`."""
    puzzles = read_puzzles(path, fmt="killer")[:sample]
    if path.name.startswith(WITH_DIAGONALS):
        diagonals = make_rule({"type": "diagonal"}, Shape(3, 3))
        puzzles = [replace(p, rules=(*p.rules, diagonals)) for p in puzzles]
    backend = BitmaskBackend()
    seconds, nodes, failures = 0.0, 0, 0
    for puzzle in puzzles:
        start = time.perf_counter()
        result = backend.solve(puzzle)
        seconds += time.perf_counter() - start
        nodes += int(result.stats["nodes"])
        failures += result.status is not Status.UNIQUE or result.solution != puzzle.solution
    return len(puzzles), seconds, nodes / max(1, len(puzzles)), failures


def bench_miracle() -> tuple[float, int, int]:
    """(seconds, nodes, count) for every grid the Miracle's rules allow on an empty 9×9."""
    shape = Shape(3, 3)
    kinds = ("antiknight", "antiking", "nonconsecutive")
    rules = tuple(make_rule({"type": t}, shape) for t in kinds)
    start = time.perf_counter()
    result = BitmaskBackend().solve(Puzzle.empty(shape, rules), limit=100)
    return time.perf_counter() - start, int(result.stats["nodes"]), result.count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=100, help="puzzles per killer file (100)")
    parser.add_argument("--data", type=Path, default=SHARED, help="folder with the killer files")
    parser.add_argument("--skip-miracle", action="store_true", help="killers only")
    args = parser.parse_args()
    print(f"data: {args.data}; first {args.sample} per file; load {os.getloadavg()[0]:.2f}")
    print(f"{'dataset':<26} {'puzzles':>7} {'puzzles/s':>10} {'mean nodes':>11} {'failures':>8}")
    failures = 0
    for name in KILLERS:
        path = args.data / name
        if not path.is_file():
            print(f"{path} not found: skipped", file=sys.stderr)
            continue
        count, seconds, nodes, failed = bench_killers(path, args.sample)
        failures += failed
        rate = count / seconds if seconds else 0.0
        print(f"{name:<26} {count:>7} {rate:>10.2f} {nodes:>11.1f} {failed:>8}", flush=True)
    if not args.skip_miracle:
        seconds, nodes, count = bench_miracle()
        failures += count != 72
        print(f"miracle empty 9x9: {count} grids in {seconds:.2f} s, {nodes} nodes")
    print(f"load average after: {os.getloadavg()[0]:.2f}; failures: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
