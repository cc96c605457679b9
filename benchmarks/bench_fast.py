"""The fast backend side by side with pencilmark's C++ engine, tdoku and the pysat prototype.

Usage: python benchmarks/bench_fast.py [--count N] [--rounds R] [--tdoku LIB] [--cli N]
[--cli-code DIR] [--breakdown] [--sat] [--prototype].
Puzzles per CPU second (user + system: on a shared machine wall time mostly waits for a core),
uniqueness proved by every engine (limit 2), on samples of 17clue, top1465 and
forum-hardest-1106 from ../shared/data (tests/data when absent). Engines run in one process,
interleaved, best of R rounds, so load from other processes hits all alike; ratios are to
pencilmark (`pip install pencilmark`, structure built once, `_csolver.brute_solve`). tdoku is
measured when its shared library is given (built from t-dillon/tdoku: g++ -O3 -march=native
-shared -fPIC src/solver_dpll_triad_simd.cc src/util.cc). The kernel's floor is its call alone,
on output arrays made and written before the timing. `--cli N` adds `satsudoku solve FILE
--json --backend fast` end to end (CPU time of the child for N puzzles minus the median of
three one-puzzle runs: start-up excluded), compared per round with the kernel on the same N
puzzles timed just before; the same difference taken inside the command by cli_split.py (its
kernel calls against everything else, same process, same seconds: free of the start-ups'
±0.05-0.2 s); `--cli-code DIR` the same command run from another source tree (the code
before a change), and `--breakdown` times the stages of its array path in-process (reading
plain lines, kernel, compiled verifier, JSON lines). Every engine's answers are checked
against the fast backend's verified grids, and the CLI's lines against them too.
"""

from __future__ import annotations

import argparse
import ctypes
import io
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_sat's prototype

from bench_sat import DATASETS, load, prototype, to_puzzles  # noqa: E402

from satsudoku.backends import fast_lines  # noqa: E402
from satsudoku.backends.fast import FastBackend, _Compilation, structure_for, verifier  # noqa: E402
from satsudoku.backends.fast import kernel as fast_kernel  # noqa: E402
from satsudoku.backends.sat import SatBackend  # noqa: E402
from satsudoku.cli import build_parser  # noqa: E402
from satsudoku.commands.common import Progress  # noqa: E402
from satsudoku.commands.solve import _PlainAnswers  # noqa: E402
from satsudoku.io.classic_lines import ClassicRun, Lines  # noqa: E402
from satsudoku.puzzle import Puzzle  # noqa: E402
from satsudoku.result import Result, Status  # noqa: E402

PENCILMARK = "pencilmark C++ (in-process)"
KERNEL = "satsudoku fast: kernel only"
CLI = "satsudoku solve --json --backend fast (CLI)"
CLI_BEFORE = "the same CLI from --cli-code DIR"
TDOKU = "tdoku C++ SIMD (ctypes)"
PROTOTYPE = "pysat prototype (extended, cadical195)"
Answers = list[str]  # per puzzle: the unique solution's 81 digits, or "" when not unique
VERIFIED = "satsudoku fast: kernel + compiled verifier"
SPLIT = Path(__file__).resolve().parent / "cli_split.py"
STAGES = ("reading", "verifier", "assembling", "writing")  # cli_split's, beside the kernel


@dataclass
class Engine:
    """An engine timed on its own work: `prepare` makes its input from the puzzles and
    `answers` reads its output, both untimed; only `run` is timed."""

    run: Callable[[Any], Any]
    prepare: Callable[[Sequence[Puzzle]], Any] = list
    answers: Callable[[Any], Answers] = list


def givens_of(puzzles: Sequence[Puzzle]) -> npt.NDArray[np.uint8]:
    return np.array([p.givens.values for p in puzzles], dtype=np.uint8)


@dataclass
class KernelInput:
    """The kernel's givens and its output arrays, made and written once before the timing:
    the floor is the search alone, not the page faults of fresh output memory (which the
    command pays, and must count as its own)."""

    givens: npt.NDArray[np.uint8]
    sols: npt.NDArray[np.uint8]
    found: npt.NDArray[np.int64]
    counters: npt.NDArray[np.int64]


def kernel_input(puzzles: Sequence[Puzzle]) -> KernelInput:
    return kernel_buffers(givens_of(puzzles))


def kernel_buffers(givens: npt.NDArray[np.uint8]) -> KernelInput:
    arrays = (np.empty((len(givens), 2, 81), np.uint8), np.empty(len(givens), np.int64))
    counters = np.empty((len(givens), 3), np.int64)
    for array in (*arrays, counters):
        array.fill(0)  # touched: its pages are mapped before the timing
    return KernelInput(givens, *arrays, counters)


def fast_kernel_only(work: KernelInput) -> tuple[Any, Any]:
    """One batch call of the compiled kernel: no Result, no verification (the floor)."""
    structure = structure_for(Puzzle.empty(fast_lines.CLASSIC))
    fast_kernel.solve_batch(
        work.givens, structure.allowed, *structure.args(), True, False, 1 << 40, work.sols,
        work.found, work.counters,
    )  # fmt: skip
    return work.sols, work.found


def kernel_answers(raw: tuple[Any, Any]) -> Answers:
    sols, found = raw
    return ["".join(map(str, sols[k, 0])) if found[k] == 1 else "" for k in range(len(found))]


def fast_verified(givens: npt.NDArray[np.uint8]) -> list[fast_lines.Verdicts]:
    """The CLI's engine: kernel calls paced as the command paces them, every grid through the
    compiled verifier."""
    pace, batches, start = fast_lines.Pace(2), [], 0
    while start < len(givens):
        batches.append(fast_lines.solve_classic(givens[start : start + pace()], 2))
        pace.took(batches[-1])
        start += len(batches[-1].found)
    return batches


def verified_answers(batches: list[fast_lines.Verdicts]) -> Answers:
    answers: Answers = []
    for verdicts in batches:
        if verdicts.refused is not None or not verdicts.finished.all():
            raise SystemExit(f"the kernel + verifier: {verdicts.refused or 'over its slice'}")
        answers += kernel_answers((verdicts.sols, verdicts.found))
    return answers


def fast_api(puzzles: Sequence[Puzzle]) -> list[Result]:
    """The backend as a library user calls it: Results, every grid verified."""
    return list(FastBackend().solve_many(puzzles))


def sat_default(puzzles: Sequence[Puzzle]) -> list[Result]:
    backend = SatBackend()
    results = list(backend.solve_many(puzzles))
    backend.close()
    return results


def result_answers(results: list[Result]) -> Answers:
    return [_answer(result) for result in results]


def _answer(result: Result) -> str:
    grid = result.solution
    return "".join(map(str, grid.values)) if result.status is Status.UNIQUE and grid else ""


def pencilmark_engine() -> Engine | None:
    """pencilmark's C++ search with its classic structure built once (None if not installed);
    its input is the list of (cell, digit) givens it takes."""
    try:
        from pencilmark import _csolver, cbackend, model
    except ImportError:
        return None
    classic = model.standard(9, 3, 3)
    classic.finalize()
    structure = cbackend.to_cpuzzle(classic)

    def prepare(puzzles: Sequence[Puzzle]) -> list[list[tuple[int, int]]]:
        return [[(i, v) for i, v in enumerate(p.givens.values) if v] for p in puzzles]

    def run(inputs: list[list[tuple[int, int]]]) -> list[Any]:
        return [_csolver.brute_solve(structure, g, 2, 2_000_000, None, True) for g in inputs]

    def answers(raw: list[Any]) -> Answers:
        unique = [complete and len(sols) == 1 for sols, complete in raw]
        return ["".join(map(str, r[0][0])) if u else "" for r, u in zip(raw, unique, strict=True)]

    return Engine(run, prepare, answers)


def prototype_engine(lines: Sequence[str]) -> Engine:
    """The issue's pysat prototype on the sample's lines; it returns the count of unique ones."""

    def prepare(puzzles: Sequence[Puzzle]) -> list[str]:
        return list(lines)

    def answers(count: int) -> Answers:
        return ["unique"] * count

    return Engine(prototype, prepare, answers)


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

    def engine(self) -> Engine:
        def run(texts: list[bytes]) -> list[int]:
            solve, solution, guesses = self.solve, self.solution, ctypes.byref(self.guesses)
            return [solve(text, 2, 0, solution, guesses) for text in texts]

        def answers(counts: list[int]) -> Answers:
            return ["1" if count == 1 else "" for count in counts]

        return Engine(run, lambda puzzles: [_text(p) for p in puzzles], answers)

    def grids(self, puzzles: Sequence[Puzzle]) -> Answers:
        answers = []
        for puzzle in puzzles:
            text = _text(puzzle)
            unique = self.solve(text, 2, 0, self.solution, ctypes.byref(self.guesses)) == 1
            if unique:
                self.solve(text, 1, 0, self.solution, ctypes.byref(self.guesses))
            answers.append(self.solution.value[:81].decode() if unique else "")
        return answers


def _text(puzzle: Puzzle) -> bytes:
    return "".join(str(v) if v else "." for v in puzzle.givens.values).encode()


def cli_times(
    lines: Sequence[str], count: int, truth: Answers, code: str | None = None
) -> tuple[float, float, dict[str, list[float]] | None]:
    """CPU seconds of `satsudoku solve FILE --json --backend fast` on `count` puzzles (the
    sample repeated as needed) and on one (the median of three runs: start-up varies by 0.05 s
    on a quiet machine, 0.2 s at load 4, and the least of three would bias the difference
    up); their difference is the work, start-up excluded. `code` runs the command from
    another source tree (e.g. the code before a change). Without `code`, also the split of
    the `count` puzzles' run inside the command (benchmarks/cli_split.py: its kernel calls and
    the rest, timed in the same process). Every line written is checked against `truth`."""
    many_lines = [lines[k % len(lines)] for k in range(count)]
    expected = [truth[k % len(truth)] for k in range(count)]
    env = None if code is None else {**os.environ, "PYTHONPATH": code}
    with tempfile.TemporaryDirectory() as folder:
        many, one = Path(folder, "many.txt"), Path(folder, "one.txt")
        many.write_text("\n".join(many_lines) + "\n")
        one.write_text(lines[0] + "\n")
        times = []
        for target in (many, one, one, one):
            command = [sys.executable, "-m", "satsudoku", "solve", str(target), "--json"]
            seconds, written = _child([*command, "--backend", "fast"], env, code)
            times.append(seconds)
            if target == many:
                check("the CLI", _solutions(written), expected)
        split = None
        if code is None:  # the same difference, taken inside the command: N puzzles minus one
            reports = []
            for target in (many, one):
                _, written, report = _child(
                    [sys.executable, str(SPLIT), str(target)], None, None, True
                )
                if target == many:
                    check("the CLI (split)", _solutions(written), expected)
                reports.append(json.loads(report.splitlines()[-1]))
            split = {
                stage: [seconds - reports[1].get(stage, [0.0])[0], calls]
                for stage, (seconds, calls) in reports[0].items()
            }
    return times[0], statistics.median(times[1:]), split


def _child(
    command: list[str], env: dict[str, str] | None, cwd: str | None, report: bool = False
) -> Any:
    """Run `command`: its CPU seconds (user + system) and standard output (and its standard
    error with `report`)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    child = subprocess.run(command, check=True, capture_output=True, text=True, env=env, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return (seconds, child.stdout, child.stderr) if report else (seconds, child.stdout)


def _solutions(written: str) -> Answers:
    records = [json.loads(line) for line in written.splitlines()]
    return [r["solution"] if r["status"] == "unique" else "" for r in records]


def breakdown(lines: Sequence[str], rounds: int) -> dict[str, float]:
    """CPU ms per 1000 puzzles for each stage of `solve --json`'s array path (best of rounds)."""
    data = ("\n".join(lines) + "\n").encode()
    args = build_parser("solve").parse_args(["solve", "x.txt", "--json", "--backend", "fast"])
    best: dict[str, float] = {}

    def timed(stage: str, work: Callable[[], Any]) -> Any:
        start = time.process_time()
        value = work()
        best[stage] = min(best.get(stage, float("inf")), time.process_time() - start)
        return value

    def solve(batches: list[Lines]) -> list[fast_lines.Verdicts]:
        return [fast_lines.solve_classic(batch.givens, 2) for batch in batches]

    def kernel(buffers: list[KernelInput]) -> None:
        for work in buffers:
            fast_kernel_only(work)

    def verify(batches: list[Lines], answers: list[fast_lines.Verdicts]) -> None:
        for batch, verdicts in zip(batches, answers, strict=True):
            verifier.first_bad(batch.givens, verdicts.sols, verdicts.found, 3, 3)

    def write(batches: list[Lines], answers: list[fast_lines.Verdicts]) -> None:
        plain, progress = _PlainAnswers(args, "x.txt", None), Progress(False)
        out, index = io.BytesIO(), 0
        for batch, verdicts in zip(batches, answers, strict=True):
            data, _ = plain.write(index, batch.linenos, verdicts, progress)
            index += verdicts.verified
            out.write(data)

    sizes = paced_sizes(data)
    for _ in range(rounds):
        batches = timed("read", lambda: list(ClassicRun(io.BytesIO(data)).batches(sizes())))
        buffers = [kernel_buffers(batch.givens) for batch in batches]
        timed("kernel", partial(kernel, buffers))
        answers = timed("solve", partial(solve, batches))
        timed("verify", partial(verify, batches, answers))
        timed("json", partial(write, batches, answers))
    scale = 1000 / len(lines)
    return {
        "read (plain lines to arrays of givens)": best["read"] * scale,
        "kernel (the same calls, paced by time)": best["kernel"] * scale,
        "compiled verifier": best["verify"] * scale,
        "kernel + verifier (fast_lines.solve_classic)": best["solve"] * scale,
        "JSON lines (_PlainAnswers)": best["json"] * scale,
    }


def paced_sizes(data: bytes) -> Callable[[], Callable[[], int]]:
    """The sizes of the command's kernel calls on `data` (paced by time), to replay: each call
    gives a fresh `size` callable for ClassicRun.batches."""
    pace, sizes = fast_lines.Pace(2), []
    for batch in ClassicRun(io.BytesIO(data)).batches(pace):
        pace.took(fast_lines.solve_classic(batch.givens, 2))
        sizes.append(len(batch.givens))
    return lambda: iter(sizes).__next__


def print_split(splits: list[dict[str, list[float]]], count: int) -> None:
    """The command's time inside its own process over its kernel calls' (cli_split.py), per
    round, and its stages in µs a puzzle (medians of the rounds); each figure is the run on
    `count` puzzles minus the run on one, as for the command end to end (the first call of
    each compiled function loads it from the disk cache: start-up, paid once)."""
    extras = [split["main"][0] / split["kernel"][0] - 1 for split in splits]
    print(
        "  inside the command (cli_split.py), its time over its own kernel calls': "
        + ", ".join(f"{100 * extra:+.1f} %" for extra in extras)
        + f" (median {100 * statistics.median(extras):+.1f} %)"
    )

    def micro(split: dict[str, list[float]], stage: str) -> float:
        return 1e6 * split[stage][0] / (count - 1)

    kernel = statistics.median(micro(split, "kernel") for split in splits)
    parts = {stage: statistics.median(micro(s, stage) for s in splits) for stage in STAGES}
    rest = statistics.median(
        micro(s, "main") - micro(s, "kernel") - sum(micro(s, stage) for stage in STAGES)
        for s in splits
    )
    described = ", ".join(f"{stage} {value:.2f}" for stage, value in parts.items())
    print(f"    µs a puzzle: kernel {kernel:.2f}; {described}, the rest {rest:.2f}")


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
    parser.add_argument(
        "--cli-code",
        metavar="DIR",
        help="with --cli: also time the command run from the source tree DIR (the package "
        "folder's parent, e.g. `git archive COMMIT satsudoku | tar -x -C DIR`), interleaved",
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
    engines: dict[str, Engine] = {}
    if (pencilmark := pencilmark_engine()) is not None:
        engines[PENCILMARK] = pencilmark
    tdoku = Tdoku(args.tdoku) if args.tdoku and Path(args.tdoku).is_file() else None
    if tdoku is not None:
        engines[TDOKU] = tdoku.engine()
    engines[KERNEL] = Engine(fast_kernel_only, kernel_input, kernel_answers)
    engines[VERIFIED] = Engine(fast_verified, givens_of, verified_answers)
    engines["satsudoku fast: solve_many (Results)"] = Engine(fast_api, answers=result_answers)
    if args.sat:
        engines["satsudoku sat (default)"] = Engine(sat_default, answers=result_answers)
    for name in DATASETS:
        source, lines = load(name, args.count)
        puzzles = to_puzzles(lines)
        truth = result_answers(fast_api(puzzles))
        if tdoku is not None:
            check(f"{TDOKU}'s grids", tdoku.grids(puzzles), truth)
        runs = dict(engines)
        if args.prototype:  # it counts unique puzzles only: checked by that count
            runs[PROTOTYPE] = prototype_engine(lines)
        inputs = {label: engine.prepare(puzzles) for label, engine in runs.items()}
        best: dict[str, float] = {}
        # The kernel on the command's own N puzzles, one call just before its runs, each round:
        # a floor as long as the command's run and taken at the same moment (a best of short
        # runs would be luckier than any long one).
        long_input = kernel_buffers(np.resize(givens_of(puzzles), (max(1, args.cli), 81)))
        long_truth = [truth[k % len(truth)] for k in range(len(long_input.givens))]
        long_rounds: list[float] = []  # seconds a puzzle, each round
        cli_runs: dict[str, list[tuple[float, float]]] = {CLI: [], CLI_BEFORE: []}
        splits: list[dict[str, list[float]]] = []
        for _ in range(args.rounds):
            for label, engine in runs.items():
                start = time.process_time()
                raw = engine.run(inputs[label])
                took = time.process_time() - start
                best[label] = min(best.get(label, float("inf")), took)
                answers = engine.answers(raw)
                if label in (PROTOTYPE, TDOKU):  # unique counts only (grids: see above)
                    if sum(map(bool, answers)) != sum(map(bool, truth)):
                        raise SystemExit(f"{label}: {len(answers)} unique, expected otherwise")
                else:
                    check(label, answers, truth)
            if args.cli:
                start = time.process_time()
                raw = fast_kernel_only(long_input)
                long_rounds.append((time.process_time() - start) / args.cli)
                check(KERNEL, kernel_answers(raw), long_truth)
                many, one, split = cli_times(lines, args.cli, truth)
                cli_runs[CLI].append((many, one))
                if split is not None:
                    splits.append(split)
            if args.cli and args.cli_code:
                many, one, _ = cli_times(lines, args.cli, truth, args.cli_code)
                cli_runs[CLI_BEFORE].append((many, one))
        print(f"\n{name}: {len(lines)} puzzles from {source}, best of {args.rounds} rounds")
        rates = {label: len(lines) / seconds for label, seconds in best.items()}
        for label, pairs in cli_runs.items():
            if pairs:  # best of rounds, as for the engines
                rates[label] = (args.cli - 1) / min(many - one for many, one in pairs)
        base = rates.get(PENCILMARK)
        for label, rate in rates.items():
            ratio = f"{rate / base:6.2f}x pencilmark" if base else ""
            print(f"  {label:46s} {rate:9.0f} puzzles/s  {ratio}")
        for label, pairs in cli_runs.items():
            if pairs:  # the command's time a puzzle over the kernel's on the same N puzzles
                best_extra = min(many - one for many, one in pairs) / (args.cli - 1)
                best_extra = best_extra / min(long_rounds) - 1
                paired = [
                    (many - one) / (args.cli - 1) / kernel - 1
                    for (many, one), kernel in zip(pairs, long_rounds, strict=True)
                ]
                print(
                    f"  {label}: over the kernel's time on the same {args.cli} puzzles "
                    f"{100 * best_extra:+.1f} % (best rounds), "
                    f"{100 * statistics.median(paired):+.1f} % (median of the rounds: "
                    + ", ".join(f"{100 * extra:+.1f}" for extra in paired)
                    + ")"
                )
        if splits:
            print_split(splits, args.cli)
        if args.breakdown:
            print("  stages of the CLI's array path, CPU ms per 1000 puzzles:")
            for stage, seconds in breakdown(lines, args.rounds).items():
                print(f"    {stage:44s} {seconds * 1000:8.1f}")
    print("\nload average at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
