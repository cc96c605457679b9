"""The rating measured: agreement with Sudoku Explainer, speed, and SAT-checked steps.

Run: python benchmarks/bench_rate.py {se,speed,check} [--sample N] [--seed S] [--data DIR]

- se: rate a random sample (default 2,000) of sudoku-exchange-graded.txt, whose .ratings.txt
  holds each puzzle's Sukaku Explainer rating; print Spearman's rho, the per-band confusion,
  and for SE <= 4.4 how often our hardest figure equals SE's exactly (--uniqueness: with UR
  and BUG+1).
- speed: rate the first N (default 1,000) puzzles of top1465.txt on one core (logic only,
  and the full rate with backtrack and SAT figures on a tenth of them), in CPU seconds.
- check: run the logic on N puzzles (default 20) of every 9x9 dataset and confirm every claimed
  elimination and placement with the SAT backend; any false claim makes the exit status 1.

Data come from ../shared/data; without it the benchmark says so and exits 0.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

from satsudoku.io.text import ReadOptions, parse_line
from satsudoku.logic.check import false_claims
from satsudoku.logic.rating import STUCK, rate
from satsudoku.logic.solver import solve_logically, techniques
from satsudoku.logic.state import Board

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
BANDS = (0.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 99.0)
CLASSIC_9X9 = (
    "sudoku-exchange-graded.txt",
    "top1465.txt",
    "magictour-top2365.txt",
    "norvig-top95.txt",
    "norvig-hardest.txt",
    "norvig-easy50.txt",
    "norvig-sudoku10k.txt",
    "17clue.txt",
    "forum-hardest-1106.txt",
    "forum-hardest-1905-11plus.txt",
    "famous-hard-16.txt",
    "magictour-subig20.txt",
    "tdoku-test-puzzles.labeled.txt",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("se", "speed", "check"))
    parser.add_argument("--sample", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", type=Path, default=SHARED)
    parser.add_argument("--uniqueness", action="store_true", help="se: allow UR and BUG+1")
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"bench_rate: no data at {args.data}; skipped")
        return 0
    return {"se": _se, "speed": _speed, "check": _check}[args.what](args)


def _puzzle_lines(path: Path) -> list[str]:
    out = []
    for line in path.read_text().splitlines():
        field = line.split()[0].split(":")[0] if line.strip() else ""
        if len(field) == 81:
            out.append(field)
    return out


def _band(value: float) -> int:
    return max(i for i, low in enumerate(BANDS) if value >= low)


def _band_name(index: int) -> str:
    low, high = BANDS[index], BANDS[index + 1]
    return f"{low:.1f}+" if high > 50 else f"{low:.1f}-{high - 0.1:.1f}"


def _se(args: argparse.Namespace) -> int:
    lines = _puzzle_lines(args.data / "sudoku-exchange-graded.txt")
    se = [float(x) for x in (args.data / "sudoku-exchange-graded.ratings.txt").read_text().split()]
    picks = sorted(random.Random(args.seed).sample(range(len(lines)), args.sample or 2000))
    ours: list[float] = []
    chosen = techniques(uniqueness=args.uniqueness)
    start = time.perf_counter()
    for done, k in enumerate(picks, 1):
        puzzle = parse_line(lines[k], ReadOptions())
        ours.append(rate(puzzle, chosen, machine=False).rating)
        if done % 100 == 0:
            print(f"  {done} rated, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    theirs = [se[k] for k in picks]
    rho = spearman(ours, theirs)
    print(f"puzzles: {len(picks)} (seed {args.seed}), {time.perf_counter() - start:.0f} s")
    print(f"Spearman rho with SE: {rho:.3f}")
    easy = [(o, t) for o, t in zip(ours, theirs, strict=True) if t <= 4.4]
    exact = sum(1 for o, t in easy if o == t)
    share = 100 * exact / max(1, len(easy))
    print(f"SE <= 4.4: {exact}/{len(easy)} with the same figure ({share:.1f} %)")
    used = sorted({_band(t) for t in theirs} | {_band(o) for o in ours})
    print("\nrows: SE band; columns: our band")
    print("| SE \\ ours | " + " | ".join(_band_name(b) for b in used) + " |")
    print("|---" * (len(used) + 1) + "|")
    for row in sorted({_band(t) for t in theirs}):
        counts = [
            sum(1 for o, t in zip(ours, theirs, strict=True) if _band(t) == row and _band(o) == col)
            for col in used
        ]
        print(f"| {_band_name(row)} | " + " | ".join(str(c) for c in counts) + " |")
    return 0


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation with average ranks for ties (Pearson on the ranks)."""
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else 0.0


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def _speed(args: argparse.Namespace) -> int:
    lines = _puzzle_lines(args.data / "top1465.txt")[: args.sample or 1000]
    puzzles = [parse_line(line, ReadOptions()) for line in lines]
    # CPU time, not wall time: the figure must not depend on what else the machine runs.
    load = os.getloadavg()[0]
    start, wall = time.process_time(), time.perf_counter()
    ratings = [rate(p, machine=False) for p in puzzles]
    logic_s, logic_wall = time.process_time() - start, time.perf_counter() - wall
    stuck = sum(1 for r in ratings if r.rating == STUCK)
    print(
        f"logic rating: {len(puzzles)} top1465 puzzles in {logic_s:.1f} s CPU "
        f"({1000 * logic_s / len(puzzles):.0f} ms each; {logic_wall:.1f} s wall, load "
        f"{load:.1f}; {stuck} where logic runs out)"
    )
    tenth = puzzles[: max(1, len(puzzles) // 10)]
    start = time.process_time()
    for p in tenth:
        rate(p)
    full_s = time.process_time() - start
    print(f"full rate (with backtrack and SAT figures): {len(tenth)} puzzles in {full_s:.1f} s CPU")
    return 0


def _check(args: argparse.Namespace) -> int:
    failures = 0
    for name in CLASSIC_9X9:
        path = args.data / name
        if not path.exists():
            continue
        lines = _puzzle_lines(path)
        picks = random.Random(args.seed).sample(lines, min(len(lines), args.sample or 20))
        steps = 0
        start = time.perf_counter()
        for line in picks:
            puzzle = parse_line(line, ReadOptions())
            result = solve_logically(Board.from_puzzle(puzzle))
            steps += len(result.steps)
            for problem in false_claims(puzzle, result.steps):
                failures += 1
                print(f"{name}: {line}: {problem}")
        print(
            f"{name}: {len(picks)} puzzles, {steps} steps checked, "
            f"{time.perf_counter() - start:.0f} s"
        )
    print("false claims:", failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
