"""The fast backend side by side with pencilmark's C++ engine, tdoku and the pysat prototype.

Usage: python benchmarks/bench_fast.py [--count N] [--rounds R] [--tdoku LIB] [--cli N]
[--breakdown] [--sat] [--prototype].
Puzzles/s, uniqueness proved by every engine (limit 2), on samples of 17clue, top1465 and
forum-hardest-1106 from ../shared/data (tests/data when absent). Engines run in one process,
interleaved, best of R rounds, so load from other processes hits all alike; ratios are to
pencilmark (`pip install pencilmark`, structure built once, `_csolver.brute_solve`). tdoku is
measured when its shared library is given (built from t-dillon/tdoku: g++ -O3 -march=native
-shared -fPIC src/solver_dpll_triad_simd.cc src/util.cc). `--cli N` adds `satsudoku solve FILE
--json --backend fast` end to end (time for N puzzles minus time for one: start-up excluded),
and `--breakdown` times the CLI's stages in-process (read, kernel, results and verification,
JSON). Every engine's answers are checked against the fast backend's verified grids.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_sat's prototype

from bench_sat import DATASETS, load, prototype, to_puzzles  # noqa: E402

from satsudoku.backends.fast import FastBackend, _Compilation, structure_for  # noqa: E402
from satsudoku.backends.fast import kernel as fast_kernel  # noqa: E402
from satsudoku.backends.sat import SatBackend  # noqa: E402
from satsudoku.commands.common import result_json  # noqa: E402
from satsudoku.io import read_puzzles  # noqa: E402
from satsudoku.puzzle import Puzzle  # noqa: E402
from satsudoku.result import Result, Status  # noqa: E402
from satsudoku.verify import violations  # noqa: E402

PENCILMARK = "pencilmark C++ (in-process)"
TDOKU = "tdoku C++ SIMD (ctypes)"
PROTOTYPE = "pysat prototype (extended, cadical195)"
Answers = list[str]  # per puzzle: the unique solution's 81 digits, or "" when not unique


def fast_api(puzzles: Sequence[Puzzle]) -> Answers:
    """The backend as a library user calls it: Results, every grid verified."""
    return [_answer(r) for r in FastBackend().solve_many(puzzles)]


def fast_kernel_only(puzzles: Sequence[Puzzle]) -> Answers:
    """One batch call of the compiled kernel: no Result, no verification (the floor)."""
    structure = structure_for(puzzles[0])
    givens = np.array([p.givens.values for p in puzzles], dtype=np.uint8)
    sols = np.empty((len(puzzles), 2, 81), dtype=np.uint8)
    found = np.zeros(len(puzzles), dtype=np.int64)
    counters = np.zeros((len(puzzles), 3), dtype=np.int64)
    fast_kernel.solve_batch(
        givens, structure.allowed, *structure.args(), True, False, 1 << 40, sols, found, counters
    )
    return ["".join(map(str, sols[k, 0])) if found[k] == 1 else "" for k in range(len(puzzles))]


def sat_default(puzzles: Sequence[Puzzle]) -> Answers:
    backend = SatBackend()
    answers = [_answer(r) for r in backend.solve_many(puzzles)]
    backend.close()
    return answers


def _answer(result: Result) -> str:
    grid = result.solution
    return "".join(map(str, grid.values)) if result.status is Status.UNIQUE and grid else ""


def pencilmark_engine() -> Callable[[Sequence[Puzzle]], Answers] | None:
    """pencilmark's C++ search with its classic structure built once (None if not installed)."""
    try:
        from pencilmark import _csolver, cbackend, model
    except ImportError:
        return None
    classic = model.standard(9, 3, 3)
    classic.finalize()
    structure = cbackend.to_cpuzzle(classic)

    def run(puzzles: Sequence[Puzzle]) -> Answers:
        answers = []
        for puzzle in puzzles:
            givens = [(i, v) for i, v in enumerate(puzzle.givens.values) if v]
            sols, complete = _csolver.brute_solve(structure, givens, 2, 2_000_000, None, True)
            unique = complete and len(sols) == 1
            answers.append("".join(map(str, sols[0])) if unique else "")
        return answers

    return run


class Tdoku:
    """tdoku's TdokuSolverDpllTriadSimd through ctypes.

    Timed as tdoku counts: limit 2, configuration 0, which keeps no grid (answers are "1" for
    unique); `grids` fetches the solutions untimed (limit 1) to check them like the others.
    """

    def __init__(self, library: str) -> None:
        self.solve = ctypes.CDLL(library).TdokuSolverDpllTriadSimd
        self.solve.restype = ctypes.c_size_t
        self.solve.argtypes = [
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_uint32,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_size_t),
        ]
        self.solution = ctypes.create_string_buffer(82)
        self.guesses = ctypes.c_size_t(0)

    def __call__(self, puzzles: Sequence[Puzzle]) -> Answers:
        solve, solution, guesses = self.solve, self.solution, ctypes.byref(self.guesses)
        texts = [_text(p) for p in puzzles]
        return ["1" if solve(text, 2, 0, solution, guesses) == 1 else "" for text in texts]

    def grids(self, puzzles: Sequence[Puzzle]) -> Answers:
        answers = []
        for unique, puzzle in zip(self(puzzles), puzzles, strict=True):
            if unique:
                self.solve(_text(puzzle), 1, 0, self.solution, ctypes.byref(self.guesses))
            answers.append(self.solution.value[:81].decode() if unique else "")
        return answers


def _text(puzzle: Puzzle) -> bytes:
    return "".join(str(v) if v else "." for v in puzzle.givens.values).encode()


def cli_times(lines: Sequence[str], count: int) -> tuple[float, float]:
    """Seconds of `satsudoku solve FILE --json --backend fast` on `count` puzzles (the sample
    repeated as needed) and on one; their difference is the throughput, start-up excluded."""
    many_lines = [lines[k % len(lines)] for k in range(count)]
    with tempfile.TemporaryDirectory() as folder:
        many, one = Path(folder, "many.txt"), Path(folder, "one.txt")
        many.write_text("\n".join(many_lines) + "\n")
        one.write_text(lines[0] + "\n")
        times = []
        for target in (many, one):
            command = [sys.executable, "-m", "satsudoku", "solve", str(target), "--json"]
            start = time.perf_counter()
            subprocess.run([*command, "--backend", "fast"], check=True, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
    return times[0], times[1]


def breakdown(lines: Sequence[str], rounds: int) -> dict[str, float]:
    """Seconds per 1000 puzzles for each stage of `solve --json` (in-process, best of rounds)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
    best: dict[str, float] = {}

    def timed(stage: str, work: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        value = work()
        best[stage] = min(best.get(stage, float("inf")), time.perf_counter() - start)
        return value

    try:
        for _ in range(rounds):
            puzzles = timed("read", partial(read_puzzles, handle.name))
            timed("kernel", partial(fast_kernel_only, puzzles))
            results = timed("solve_many", partial(fast_api_results, puzzles))
            pairs = list(zip(puzzles, results, strict=True))
            timed("verify", partial(verify_all, pairs))
            timed("json", partial(json_all, pairs))
    finally:
        os.unlink(handle.name)
    scale = 1000 / len(lines)
    return {
        "read (parse the file into Puzzles)": best["read"] * scale,
        "kernel (one batch call)": best["kernel"] * scale,
        "results: grids, Result, make_result": (best["solve_many"] - best["kernel"]) * scale,
        "  of which the verifier (violations)": best["verify"] * scale,
        "json (result_json + dumps)": best["json"] * scale,
    }


def fast_api_results(puzzles: Sequence[Puzzle]) -> list[Result]:
    return list(FastBackend().solve_many(puzzles))


def verify_all(pairs: Sequence[tuple[Puzzle, Result]]) -> None:
    for puzzle, result in pairs:
        for grid in result.solutions:
            violations(puzzle, grid)


def json_all(pairs: Sequence[tuple[Puzzle, Result]]) -> None:
    for index, (puzzle, result) in enumerate(pairs):
        json.dumps(result_json(index, puzzle, result))


def check(label: str, answers: Answers, truth: Answers) -> None:
    if answers != truth:
        wrong = sum(a != t for a, t in zip(answers, truth, strict=True))
        raise SystemExit(f"{label} disagrees with the fast backend's verified grids on {wrong}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="puzzles per dataset")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tdoku", default="/tmp/tdoku-build/libtdoku_shared.so")
    parser.add_argument(
        "--cli",
        type=int,
        default=0,
        metavar="N",
        help="also time the CLI end to end on N puzzles (the sample repeated), minus one puzzle",
    )
    parser.add_argument("--breakdown", action="store_true", help="time the CLI's stages")
    parser.add_argument("--sat", action="store_true", help="also the sat backend (default)")
    parser.add_argument("--prototype", action="store_true", help="also the pysat prototype")
    args = parser.parse_args()
    compiled = _Compilation.ensure()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    if compiled:
        print(f"(kernel compiled in {compiled:.1f} s first)")
    engines: dict[str, Callable[[Sequence[Puzzle]], Answers]] = {}
    if (pencilmark := pencilmark_engine()) is not None:
        engines[PENCILMARK] = pencilmark
    tdoku = Tdoku(args.tdoku) if args.tdoku and Path(args.tdoku).is_file() else None
    if tdoku is not None:
        engines[TDOKU] = tdoku
    engines["satsudoku fast: kernel only"] = fast_kernel_only
    engines["satsudoku fast: solve_many"] = fast_api
    if args.sat:
        engines["satsudoku sat (default)"] = sat_default
    for name in DATASETS:
        source, lines = load(name, args.count)
        puzzles = to_puzzles(lines)
        truth = fast_api(puzzles)
        if tdoku is not None:
            check(f"{TDOKU}'s grids", tdoku.grids(puzzles), truth)
        runs = dict(engines)
        if args.prototype:  # it counts unique puzzles only: checked by that count
            runs[PROTOTYPE] = lambda _, ls=lines: ["unique"] * prototype(ls)
        best: dict[str, float] = {}
        cli_many, cli_one = float("inf"), float("inf")
        for _ in range(args.rounds):
            for label, run in runs.items():
                start = time.perf_counter()
                answers = run(puzzles)
                best[label] = min(best.get(label, float("inf")), time.perf_counter() - start)
                if label in (PROTOTYPE, TDOKU):  # unique counts only (grids: see above)
                    if sum(map(bool, answers)) != sum(map(bool, truth)):
                        raise SystemExit(f"{label}: {len(answers)} unique, expected otherwise")
                else:
                    check(label, answers, truth)
            if args.cli:
                many, one = cli_times(lines, args.cli)
                cli_many, cli_one = min(cli_many, many), min(cli_one, one)
        print(f"\n{name}: {len(lines)} puzzles from {source}, best of {args.rounds} rounds")
        rates = {label: len(lines) / seconds for label, seconds in best.items()}
        if args.cli:
            rates["satsudoku solve --json --backend fast (CLI)"] = (args.cli - 1) / (
                cli_many - cli_one
            )
        base = rates.get(PENCILMARK)
        for label, rate in rates.items():
            ratio = f"{rate / base:6.2f}x pencilmark" if base else ""
            print(f"  {label:46s} {rate:9.0f} puzzles/s  {ratio}")
        if args.breakdown:
            print("  CLI stages, ms per 1000 puzzles:")
            for stage, seconds in breakdown(lines, args.rounds).items():
                print(f"    {stage:44s} {seconds * 1000:8.1f}")
    print("\nload average at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
