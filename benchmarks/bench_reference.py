"""Does the bitmask reference settle every real puzzle? Each one with a per-puzzle timeout.

Run: python benchmarks/bench_reference.py [--timeout S] [--sample N] [--band N] [--data DIR]
[--only SUBSTRING] [--cpu-clock] [--check]

Cases: every model in models/ (enumerated to its recorded `count` + 1, else limit 2), the
published puzzles of tests/data/published-slow, an evenly spaced sample of N lines of each
variant file of ../shared/data (killer, killer-X, jigsaw, x-sudoku), and N lines of the 25×25
phase-transition band (25x25-lewis-general.txt lines 801-1000, 45 % given). Skipped files are
named. A case settles when the search ends before the timeout (any verdict); a model's verdict
is also checked against its recorded count or solution, a dataset's against its solution when
the line carries one. Prints the load (`os.getloadavg`) before and after, how many settle, and
the slowest ten, with wall and CPU seconds (the timeout is wall time, as a user meets it; on a
shared machine the CPU column is the one to compare, and --cpu-clock counts the timeout in CPU
seconds too). --check also asks the sat backend (same limit, outside the timed part) about
every settled case whose verdict nothing above checks (the band's lines, the hard forum
killers), and counts another verdict or count as wrong. Exit status 1 on a wrong verdict.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

from satsudoku import deadline
from satsudoku.backends import bitmask, get_backend
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.io import read_puzzles, read_text
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
# (file, format, rules added to every line)
VARIANT_FILES = (
    ("killer-janko-9x9.txt", "killer", ()),
    ("killer-x-janko-9x9.txt", "killer", ("diagonal",)),
    ("killer-krazydad-9x9.txt", "killer", ()),
    ("killer-hard-forum-9x9.txt", "killer", ()),
    ("killer-x-hard-forum-9x9.txt", "killer", ("diagonal",)),
    ("jigsaw-janko-9x9.txt", "jigsaw", ()),
    ("x-sudoku-sample.txt", "auto", ("diagonal",)),
)
BAND = ("25x25-lewis-general.txt", 800, 1000)  # 0-based line range of the 45 % level


Case = tuple[str, Puzzle, int, int | None]  # name, puzzle, limit, expected count (None: any)


def model_cases() -> Iterator[Case]:
    paths = sorted(p for p in (REPO / "models").rglob("*") if p.suffix in (".json", ".toml"))
    paths += sorted((REPO / "tests" / "data" / "published-slow").glob("*.json"))
    for path in paths:
        text = path.read_text()
        doc = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
        count = doc.get("count")
        (puzzle,) = read_puzzles(path)
        name = str(path.relative_to(REPO))
        yield (name, puzzle, 2, 1) if count is None else (name, puzzle, count + 1, count)


def spaced(lines: list[str], sample: int) -> Iterator[tuple[int, str]]:
    """`sample` lines spread evenly over the file, with their 1-based line numbers."""
    step = max(1, len(lines) // max(1, sample))
    for index in range(0, len(lines), step)[:sample]:
        yield index + 1, lines[index]


def dataset_cases(data: Path, sample: int, band: int) -> Iterator[Case]:
    for name, fmt, rules in VARIANT_FILES:
        path = data / name
        if not path.exists():
            print(f"skipped (absent): {path}")
            continue
        lines = [line for line in path.read_text().splitlines() if line.strip()]
        for number, line in spaced(lines, sample):
            (puzzle,) = read_text(line, fmt=fmt, rules=rules)
            # SOURCES.md: every line is unique except some hard forum killers.
            expected = None if "hard-forum" in name else 1
            yield f"{name}:{number}", puzzle, 2, expected
    path = data / BAND[0]
    if not path.exists():
        print(f"skipped (absent): {path}")
        return
    lines = path.read_text().splitlines()[BAND[1] : BAND[2]]
    for number, line in spaced(lines, band):
        (puzzle,) = read_text(line, box=(5, 5))
        yield f"{BAND[0]}:{BAND[1] + number}", puzzle, 2, None


def row(seconds: float, cpu: float, name: str, verdict: str, nodes: int) -> str:
    return f"{seconds:7.2f} s wall {cpu:7.2f} s cpu {nodes:>8} nodes  {verdict:10} {name}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--sample", type=int, default=10, help="lines per variant file")
    parser.add_argument("--band", type=int, default=20, help="lines of the 25x25 band (of 200)")
    parser.add_argument("--data", type=Path, default=SHARED)
    parser.add_argument("--only", default="", help="run only cases whose name contains this")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="count the timeout in this process's CPU seconds (a loaded shared machine)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="cross-check verdicts nothing else checks against the sat backend",
    )
    args = parser.parse_args()
    if args.cpu_clock:
        # The backend and the build deadline read time.perf_counter(); both get the CPU clock.
        cpu_clock = SimpleNamespace(perf_counter=time.process_time)
        for module in (bitmask, deadline):
            module.__dict__["time"] = cpu_clock
    print(f"load before: {os.getloadavg()}")
    backend = BitmaskBackend()
    sat = get_backend("sat") if args.check else None
    rows: list[tuple[float, float, str, str, int]] = []
    wrong = unsettled = 0
    for name, puzzle, limit, expected in (
        *model_cases(),
        *dataset_cases(args.data, args.sample, args.band),
    ):
        if args.only not in name:
            continue
        start, cpu_start = time.perf_counter(), time.process_time()
        result = backend.solve(puzzle, limit=limit, timeout=args.timeout)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        settled = "stopped" not in result.stats
        unsettled += not settled
        verdict = result.status.value if settled else "TIMEOUT"
        if settled and expected is not None:
            bad = result.count != expected or (
                expected == 1 and puzzle.solution is not None and result.solution != puzzle.solution
            )
            if bad or (expected == 1 and result.status is not Status.UNIQUE):
                verdict += " WRONG"
                wrong += 1
        if settled and expected is None and sat is not None:
            other = sat.solve(puzzle, limit=limit)
            if (other.status, other.count) != (result.status, result.count):
                verdict += f" WRONG (sat: {other.status.value})"
                wrong += 1
        rows.append((seconds, cpu, name, verdict, int(result.stats["nodes"])))
        print(f"{row(*rows[-1])}", flush=True)
    print(f"load after: {os.getloadavg()}")
    print(
        f"settled {len(rows) - unsettled} of {len(rows)} within {args.timeout:g} s; {wrong} wrong;"
        f" {sum(r[1] for r in rows):.1f} s CPU in all"
    )
    print("slowest ten:")
    for line in sorted(rows, reverse=True)[:10]:
        print(f"  {row(*line)}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
