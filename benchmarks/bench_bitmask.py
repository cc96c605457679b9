"""Bitmask backend speed: puzzles/s, mean search nodes and uniqueness verdicts per dataset.

Run: python benchmarks/bench_bitmask.py [--sample N] [--seed S] [--data DIR] [--out results.json]

Each puzzle is solved with the default limit=2, so uniqueness is proven, and every verdict must
be `unique` (all three datasets hold unique puzzles); anything else is counted as a failure and
makes the exit status 1. Without --seed the first N lines are used (how the targets are quoted);
with --seed a random sample of N. Data comes from --data, else ../shared/data next to the repo,
else the bundled tests/data. Only solve() is timed; load is noisy on shared machines, so compare
runs side by side and note the load average printed with the results.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.io import read_text
from satsudoku.result import Status

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
DATASETS = ("17clue.txt", "top1465.txt", "forum-hardest-1106.txt")


@dataclass
class Row:
    """One dataset's figures."""

    dataset: str
    puzzles: int
    seconds: float
    per_second: float
    mean_nodes: float
    unique: int
    failures: int


def find_data(explicit: Path | None) -> Path:
    """The folder to read, falling back from ../shared/data to tests/data, with a message."""
    if explicit is not None:
        if not explicit.is_dir():
            raise SystemExit(f"--data {explicit}: no such folder")
        return explicit
    if SHARED.is_dir():
        return SHARED
    bundled = REPO / "tests" / "data"
    if any(bundled.glob("*.txt")):
        print(f"{SHARED} not found: falling back to {bundled}", file=sys.stderr)
        return bundled
    raise SystemExit(f"no puzzle data: neither {SHARED} nor {bundled}/*.txt exists (try --data)")


def choose(lines: list[str], sample: int, seed: int | None) -> list[str]:
    if seed is None:
        return lines[:sample]
    return random.Random(seed).sample(lines, min(sample, len(lines)))


def bench(path: Path, sample: int, seed: int | None) -> Row:
    """Solve a sample of one dataset; times only the solver calls."""
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    puzzles = [read_text(line, source=path.name)[0] for line in choose(lines, sample, seed)]
    backend = BitmaskBackend()
    seconds, nodes, unique = 0.0, 0, 0
    for puzzle in puzzles:
        start = time.perf_counter()
        result = backend.solve(puzzle)
        seconds += time.perf_counter() - start
        nodes += int(result.stats["nodes"])
        unique += result.status is Status.UNIQUE
    count = max(1, len(puzzles))
    return Row(
        dataset=path.name,
        puzzles=len(puzzles),
        seconds=round(seconds, 4),
        per_second=round(len(puzzles) / seconds, 1) if seconds else 0.0,
        mean_nodes=round(nodes / count, 1),
        unique=unique,
        failures=len(puzzles) - unique,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=500, help="puzzles per dataset (500)")
    parser.add_argument("--seed", type=int, default=None, help="random sample (default: first N)")
    parser.add_argument("--data", type=Path, default=None, help="folder with the dataset files")
    parser.add_argument("--out", type=Path, default=None, help="write the results as JSON")
    args = parser.parse_args()
    folder = find_data(args.data)
    present = [folder / name for name in DATASETS if (folder / name).is_file()]
    for name in DATASETS:
        if not (folder / name).is_file():
            print(f"{folder / name} not found: skipped", file=sys.stderr)
    if not present:
        raise SystemExit(f"none of {', '.join(DATASETS)} is in {folder}")

    load_before = os.getloadavg()
    how = "first" if args.seed is None else f"seed {args.seed},"
    print(f"data: {folder}; {how} {args.sample} puzzles per dataset; load {load_before[0]:.2f}")
    print(f"{'dataset':<26} {'puzzles':>7} {'puzzles/s':>10} {'mean nodes':>11} {'unique':>7}")
    rows = []
    for path in present:
        row = bench(path, args.sample, args.seed)
        rows.append(row)
        print(
            f"{row.dataset:<26} {row.puzzles:>7} {row.per_second:>10.1f} "
            f"{row.mean_nodes:>11.1f} {row.unique:>7}",
            flush=True,
        )
    load_after = os.getloadavg()
    failures = sum(row.failures for row in rows)
    print(f"load average after: {load_after[0]:.2f}; failures (verdict not unique): {failures}")
    if args.out is not None:
        report = {
            "backend": "bitmask",
            "data": str(folder),
            "sample": args.sample,
            "seed": args.seed,
            "python": platform.python_version(),
            "load_before": load_before,
            "load_after": load_after,
            "command": sys.argv,
            "results": [asdict(row) for row in rows],
        }
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
