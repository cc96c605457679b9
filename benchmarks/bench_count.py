"""Counting: exact counts with and without digit symmetry, and Knuth estimates against known
counts. Every exact count must equal its known value and every estimate must lie within three
standard errors of it; a miss makes the exit status 1.

Run: python benchmarks/bench_count.py [--samples N] [--seeds K] [--no-symmetry-too]

Known counts: 4×4 288; 4×4 with both diagonals 48; 6×6 with both diagonals 8,640; 6×6
28,200,960 (Pettersen); 8×8 with 2×4 boxes 29,136,487,207,403,520 (OEIS A107739); 9×9
6,670,903,752,021,072,936,960 (Felgenhauer & Jarvis 2005). Times are seconds of one process;
compare runs under equal load.
"""

from __future__ import annotations

import argparse
import sys

from satsudoku.grid import regular_shape
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule
from satsudoku.tools.counting import count_solutions
from satsudoku.tools.estimate import estimate_count

EXACT = [  # (box rows, box cols, rules, known count)
    (2, 2, (), 288),
    (2, 2, ("diagonal",), 48),
    (2, 3, ("diagonal",), 8_640),
    (2, 3, (), 28_200_960),
]
ESTIMATED = [
    (2, 3, 28_200_960),
    (2, 4, 29_136_487_207_403_520),
    (3, 3, 6_670_903_752_021_072_936_960),
]
TOO_MANY_WITHOUT_SYMMETRY = 1_000_000  # one leaf per grid: past this, minutes of Python


def empty(rows: int, cols: int, rules: tuple[str, ...] = ()) -> Puzzle:
    shape = regular_shape(rows, cols)
    return Puzzle.empty(shape, [make_rule({"type": rule}, shape) for rule in rules])


def bench_exact(also_plain: bool) -> int:
    """Print one row per known count; return the number of wrong counts."""
    print(f"{'puzzle':<18} {'count':>12} {'nodes':>9} {'s':>7}   without symmetry")
    failures = 0
    for rows, cols, rules, known in EXACT:
        puzzle = empty(rows, cols, rules)
        name = f"{rows * cols}x{rows * cols}" + "".join(f"+{rule}" for rule in rules)
        counted = count_solutions(puzzle)
        failures += counted.count != known
        row = f"{name:<18} {counted.count:>12,} {counted.nodes:>9,} {counted.time_s:>7.2f}"
        if also_plain and known <= TOO_MANY_WITHOUT_SYMMETRY:
            plain = count_solutions(puzzle, symmetry=False)
            failures += plain.count != known
            row += f"   {plain.nodes:>9,} nodes {plain.time_s:>7.2f} s"
        print(row)
    return failures


def bench_estimates(samples: int, seeds: int) -> int:
    """Print one row per board and seed; return the number of estimates beyond 3 SE."""
    header = ("board", "seed", "estimate", "rel. SE", "z", "zero", "s")
    print("\n{:<6} {:>4} {:>11} {:>8} {:>6} {:>5} {:>6}".format(*header))
    failures = 0
    for rows, cols, known in ESTIMATED:
        for seed in range(seeds):
            estimate = estimate_count(empty(rows, cols), samples, seed=seed)
            z = (estimate.estimate - known) / estimate.stderr
            failures += abs(z) > 3
            print(
                f"{rows * cols}x{rows * cols:<4} {seed:>4} {estimate.estimate:>11.4g} "
                f"{estimate.stderr / known:>8.1%} {z:>+6.2f} {estimate.zero_fraction:>5.2f} "
                f"{estimate.time_s:>6.2f}"
            )
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=1000, help="walks per estimate")
    parser.add_argument("--seeds", type=int, default=3, help="estimates per board")
    parser.add_argument(
        "--no-symmetry-too",
        action="store_true",
        help="also count without symmetry where that is feasible (up to 1,000,000 grids)",
    )
    args = parser.parse_args()
    failures = bench_exact(args.no_symmetry_too) + bench_estimates(args.samples, args.seeds)
    print(f"\n{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
