"""`satsudoku bench`: compare backend configurations on datasets; rows, summary table, plots."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

from satsudoku import bench
from satsudoku.commands.common import add_reading_options, positive_float, positive_int
from satsudoku.crosscheck import CrossCheckError
from satsudoku.errors import PuzzleError


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bench",
        help="benchmark backends on datasets",
        description="Run every configuration on every puzzle of the DATASETs, stream one row "
        "per (puzzle, configuration) to --out, and print puzzles/s and latency percentiles.",
    )
    parser.add_argument("datasets", nargs="+", metavar="DATASET", help="puzzle files")
    add_reading_options(parser)
    parser.add_argument(
        "--backends",
        default=",".join(bench.DEFAULT_CONFIGS),
        metavar="LIST",
        help="comma-separated configurations: bitmask, sat:ENCODING (minimal, efficient, "
        "extended, reduced), cpsat or cpsat:MODEL (boolean, integer) "
        f"(default: {','.join(bench.DEFAULT_CONFIGS)})",
    )
    parser.add_argument("--solver", metavar="NAME", help="SAT solver for sat:* (pysat name)")
    parser.add_argument("--sample", type=positive_int, metavar="N", help="N puzzles per dataset")
    parser.add_argument("--seed", type=int, default=0, help="seed for --sample (default: 0)")
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=10.0,
        metavar="S",
        help="seconds per puzzle and configuration (default: 10)",
    )
    parser.add_argument(
        "--limit",
        type=positive_int,
        default=2,
        metavar="K",
        help="solutions to look for; 2 settles uniqueness (default: 2)",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        metavar="N",
        help="parallel processes (default: 1; times are cleanest with 1)",
    )
    parser.add_argument("--out", metavar="FILE", help="rows to FILE.csv or FILE.jsonl")
    parser.add_argument("--plot", metavar="PNG", help="cactus plot + throughput bars (matplotlib)")
    parser.add_argument("--resume", action="store_true", help="skip rows already in --out")
    parser.add_argument(
        "--cross-check",
        action="store_true",
        help="fail when configurations disagree on a verdict or a unique solution",
    )
    parser.add_argument("--markdown", action="store_true", help="summary as a Markdown table")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.resume and not args.out:
        raise PuzzleError("--resume needs --out FILE (the rows to continue)")
    if args.plot:
        bench.require_matplotlib()
    configs = bench.parse_configs(args.backends, solver=args.solver)
    reading = bench.Reading(args.fmt, args.box, args.symbols, tuple(args.rule))
    tasks = bench.load_tasks(args.datasets, sample=args.sample, seed=args.seed, reading=reading)
    earlier = bench.read_rows(args.out) if args.out and args.resume else []
    wanted = {(t.dataset, t.index) for t in tasks}
    names = {c.name for c in configs}
    kept = [r for r in earlier if (r["dataset"], r["index"]) in wanted and r["config"] in names]
    todo = bench.pending(tasks, configs, {bench.row_key(r) for r in kept})
    if earlier:
        print(
            f"resuming: {len(tasks) - len(todo)} of {len(tasks)} puzzles already measured",
            file=sys.stderr,
        )
    meta = bench.metadata_record(
        seed=args.seed,
        sample=args.sample,
        timeout=args.timeout,
        workers=args.workers,
        limit=args.limit,
        configs=configs,
        datasets=args.datasets,
        reading=reading,
    )
    writer = bench.RowWriter(args.out, meta, resume=args.resume) if args.out else None
    done_keys = {bench.row_key(r) for r in kept}
    rows = list(kept)
    problems: list[str] = []
    bar = _Bar(len(todo), args.progress)
    try:
        for task_rows, problem in bench.run(
            todo,
            configs,
            limit=args.limit,
            timeout=args.timeout,
            workers=args.workers,
            cross_check=args.cross_check,
        ):
            fresh = [r for r in task_rows if bench.row_key(r) not in done_keys]
            rows.extend(fresh)
            if writer:
                writer.write(fresh)
            if problem:
                problems.append(problem)
                print(f"satsudoku: {problem}", file=sys.stderr)
            bar.step()
    finally:
        bar.close()
        if writer:
            writer.close()
    summaries = bench.summarize(rows)
    print(bench.format_summary(summaries, markdown=args.markdown))
    if args.plot:
        bench.plot(rows, summaries, args.plot)
        print(f"plot written to {args.plot}", file=sys.stderr)
    if problems:
        raise CrossCheckError(
            f"{len(problems)} cross-check disagreement(s); first: {problems[0]}", {}
        )
    return 0


class _Bar:
    """A progress bar with rate and ETA on stderr, drawn at most five times a second."""

    def __init__(self, total: int, enabled: bool | None, stream: TextIO | None = None) -> None:
        stream = stream or sys.stderr  # looked up now: tests and callers may swap sys.stderr
        self.total, self.stream = total, stream
        self.enabled = stream.isatty() if enabled is None else enabled
        self.done, self.start, self.last = 0, time.perf_counter(), 0.0

    def step(self) -> None:
        self.done += 1
        now = time.perf_counter()
        if self.enabled and (now - self.last > 0.2 or self.done == self.total):
            self.last = now
            rate = self.done / max(now - self.start, 1e-9)
            eta = (self.total - self.done) / rate if rate else 0.0
            filled = int(30 * self.done / max(1, self.total))
            self.stream.write(
                f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} puzzles "
                f"{rate:.1f}/s ETA {eta:.0f}s "
            )
            self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.done:
            self.stream.write("\n")
            self.stream.flush()
