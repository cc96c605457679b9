"""Generator speed against the issue's targets, every puzzle checked by another backend.

Run: python benchmarks/bench_generate.py [--count N] [--seed S] [--check K] [--out results.json]

Cases: minimal unique 9x9 classic puzzles per second, grid included (target >= 50/s on one
core); a minimal 16x16 (target <= 2 s each); a 9x9 killer with no givens, minimal over its
cages (target <= 5 s each); plus 9x9 with rot180 symmetry, diagonal, and kropki --minimal for
reference. Targets are judged by CPU time (one core's rate, whatever else the machine runs);
wall-clock figures are printed beside them. The first K puzzles of each case are checked
afterwards, outside the timing: unique by cpsat with the generator's solution, and minimal by
the SAT oracle of `minimal` (as groups under a symmetry: every orbit of givens needed).
Exit status 1 if a check fails or a target is missed. Numba's compile (or cache load) is paid
before timing, by one puzzle of each shape.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass

from satsudoku.backends import get_backend
from satsudoku.grid import Grid, regular_shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from satsudoku.tools.generate import Generated, Request, generate, orbits
from satsudoku.tools.minimal import find_redundant

NINE = regular_shape(3, 3)


@dataclass
class Row:
    """One case: its speed, its target, and how many of its puzzles were checked."""

    case: str
    puzzles: int
    per_second: float  # by wall clock
    s_per_puzzle: float
    cpu_per_second: float  # by this process's CPU time: one core's rate, whatever the load
    cpu_s_per_puzzle: float
    max_s: float  # the slowest puzzle, wall clock
    mean_givens: float
    mean_attempts: float
    target: str
    met: bool
    checked: int
    failures: int


def cases(count: int, seed: int) -> list[tuple[str, Request, int, str]]:
    """(name, request, puzzles, target) for each case; target 'P/s' or 'S s'."""
    diagonal = make_rule({"type": "diagonal"}, NINE)
    return [
        ("9x9 classic", Request(NINE, seed=seed), count, "50/s"),
        ("9x9 rot180", Request(NINE, symmetry="rot180", seed=seed), count, ""),
        ("9x9 diagonal", Request(NINE, (diagonal,), seed=seed), count, ""),
        ("16x16 classic", Request(regular_shape(4, 4), seed=seed), max(3, count // 20), "2 s"),
        (
            "9x9 killer, no givens, --minimal",
            Request(NINE, clues=("killer",), givens=False, minimal=True, seed=seed),
            max(3, count // 20),
            "5 s",
        ),
        (
            "9x9 kropki --minimal",
            Request(NINE, clues=("kropki",), minimal=True, seed=seed),
            max(3, count // 20),
            "",
        ),
    ]


def check(made: Generated, symmetry: str) -> str | None:
    """Why `made` fails (not unique by cpsat, or not minimal by SAT), or None."""
    result = get_backend("cpsat").solve(made.puzzle, limit=2)
    if result.status is not Status.UNIQUE or result.solutions[0] != made.solution:
        return f"cpsat says {result.status.value}"
    if symmetry == "none":
        verdict = find_redundant(made.puzzle, "sat")
        return None if verdict.minimal else f"redundant items {verdict.redundant}"
    n = made.puzzle.size
    sat = get_backend("sat")
    for group in orbits(n, symmetry):
        values = list(made.puzzle.givens.values)
        if not values[group[0][0] * n + group[0][1]]:
            continue
        for r, c in group:
            values[r * n + c] = 0
        fewer = Puzzle(made.puzzle.shape, Grid(n, tuple(values)), made.puzzle.rules)
        if sat.solve(fewer, limit=2).status is Status.UNIQUE:
            return f"the orbit of {group[0]} is redundant"
    return None


def run_case(name: str, request: Request, count: int, target: str, checks: int) -> Row:
    next(generate(Request(request.shape, seed=request.seed + 1), 1))  # compile/cache outside
    start, cpu_start = time.perf_counter(), time.process_time()
    made = list(generate(request, count))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    failures = 0
    for item in made[:checks]:
        why = check(item, request.symmetry)
        if why:
            failures += 1
            print(f"  FAIL {name}: {why}: {item.puzzle.givens}", file=sys.stderr)
    met = True
    if target.endswith("/s"):
        met = count / cpu >= float(target[:-2])
    elif target.endswith(" s"):
        met = cpu / count <= float(target[:-2])
    return Row(
        name,
        count,
        round(count / seconds, 2),
        round(seconds / count, 4),
        round(count / cpu, 2),
        round(cpu / count, 4),
        round(max(float(m.stats["time_s"]) for m in made), 3),
        round(sum(m.puzzle.givens.count_filled() for m in made) / count, 2),
        round(sum(m.attempts for m in made) / count, 2),
        target,
        met,
        min(checks, count),
        failures,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="9x9 puzzles per case")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", type=int, default=20, help="puzzles checked per case")
    parser.add_argument("--out", help="also write the rows as JSON")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; seed {args.seed}")
    header = (
        f"{'case':34} {'puzzles':>7} {'/s':>7} {'s each':>7} {'cpu /s':>7} {'cpu s':>7} "
        f"{'max s':>6} {'givens':>6} {'tries':>5}"
    )
    print(header + "  target   checked")
    rows = []
    for name, request, count, target in cases(args.count, args.seed):
        row = run_case(name, request, count, target, args.check)
        rows.append(row)
        verdict = "" if not target else ("met" if row.met else "MISSED")
        print(
            f"{row.case:34} {row.puzzles:7} {row.per_second:7.2f} {row.s_per_puzzle:7.3f} "
            f"{row.cpu_per_second:7.2f} {row.cpu_s_per_puzzle:7.3f} {row.max_s:6.2f} "
            f"{row.mean_givens:6.1f} {row.mean_attempts:5.2f}  {target:>5} {verdict:6} "
            f"{row.checked - row.failures}/{row.checked} ok",
            flush=True,
        )
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump([asdict(row) for row in rows], handle, indent=2)
    return 1 if any(row.failures or not row.met for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
