"""`satsudoku bench`: compare backend configurations on datasets; rows, summary table, plots."""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any, TextIO

from satsudoku import bench
from satsudoku.cluster import add_cluster_options, cluster_from_args
from satsudoku.commands.common import add_reading_options, positive_float, positive_int
from satsudoku.crosscheck import CrossCheckError
from satsudoku.errors import PuzzleError, SatsudokuError


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
        help="comma-separated configurations BACKEND[:VARIANT][+FLAG...]: bitmask[+generic], "
        "sat:ENCODING (minimal, efficient, extended, reduced), cpsat[:MODEL (boolean, integer)]"
        "[+presolve][+certified], mip[:SOLVER (scip, highs)], e.g. cpsat:integer+presolve "
        f"(default: {','.join(bench.DEFAULT_CONFIGS)})",
    )
    parser.add_argument("--solver", metavar="NAME", help="SAT solver for sat:* (pysat name)")
    parser.add_argument("--sample", type=positive_int, metavar="N", help="N puzzles per dataset")
    parser.add_argument("--seed", type=int, default=0, help="seed for --sample (default: 0)")
    parser.add_argument(
        "--timeout",
        type=timeout_argument,
        default=10.0,
        metavar="S",
        help="seconds per puzzle and configuration; 0 or 'none' for no limit (needed by SAT "
        "solvers that cannot stop early, e.g. --solver lingeling) (default: 10)",
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
    add_cluster_options(parser)
    parser.add_argument("--out", metavar="FILE", help="rows to FILE.csv or FILE.jsonl")
    parser.add_argument("--plot", metavar="PNG", help="cactus plot + throughput bars (matplotlib)")
    parser.add_argument("--resume", action="store_true", help="skip rows already in --out")
    parser.add_argument(
        "--cross-check",
        action="store_true",
        help="fail (exit 3) when configurations disagree on a verdict, a unique solution, an "
        "exact count or an exhausted solution set (needs two configurations or more)",
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
    for flag, path in (("--out", args.out), ("--plot", args.plot)):
        if path:  # before measuring: --plot is written only once the run is over
            bench.check_writable(path, flag)
    configs = bench.parse_configs(args.backends, solver=args.solver)
    args.dask = cluster_from_args(args)
    if args.dask is not None and args.workers > 1:
        raise SatsudokuError("--workers is the local pool; with Dask give --cluster local:N")
    if args.cross_check and len(configs) < 2:
        raise SatsudokuError("--cross-check needs two configurations or more in --backends")
    reading = bench.Reading(args.fmt, args.box, args.symbols, tuple(args.rule))
    meta = bench.metadata_record(
        seed=args.seed,
        sample=args.sample,
        timeout=args.timeout,
        workers=args.workers,
        limit=args.limit,
        configs=configs,
        datasets=args.datasets,
        reading=reading,
        cluster=args.dask.describe() if args.dask else None,
    )
    if args.resume and (recorded := bench.read_meta(args.out)):
        if conflict := bench.resume_conflict(recorded[-1], meta):
            raise SatsudokuError(conflict)
    tasks = bench.load_tasks(args.datasets, sample=args.sample, seed=args.seed, reading=reading)
    if args.resume and Path(args.out).exists() and (torn := bench.drop_torn_row(args.out)):
        print(
            f"satsudoku: {args.out}: dropped its last row, cut mid-line ({torn} bytes) by an "
            "interrupted run; that puzzle is measured again",
            file=sys.stderr,
        )
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
    rows, problems, warm, wall = _measure(args, configs, todo, meta, kept)
    summaries = bench.summarize(rows)
    print(bench.format_summary(summaries, markdown=args.markdown))
    if wall.puzzles:
        where = f"dask {args.dask.describe()}" if args.dask else ""
        print(
            bench.format_wall(wall, len(configs), args.workers, markdown=args.markdown, where=where)
        )
    if warm:
        spent = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in warm.items())
        print(f"model warm-up before timing (not in the times): {spent}", file=sys.stderr)
    if args.plot:
        bench.plot(rows, summaries, args.plot)
        print(f"plot written to {args.plot}", file=sys.stderr)
    if problems:
        raise CrossCheckError(
            f"{len(problems)} cross-check disagreement(s); first: {problems[0]}", {}
        )
    return 0


def _measure(
    args: argparse.Namespace,
    configs: list[bench.Config],
    todo: list[bench.Task],
    meta: dict[str, Any],
    kept: list[bench.Row],
) -> tuple[list[bench.Row], list[str], dict[str, float], bench.WallClock]:
    """Run the pending tasks, streaming rows to --out; rows, disagreements, warm-up, wall."""
    writer = bench.RowWriter(args.out, meta, resume=args.resume) if args.out else None
    done_keys = {bench.row_key(r) for r in kept}
    rows = list(kept)
    problems: list[str] = []
    warm: dict[str, float] = {}
    bar = _Bar(len(todo), args.progress)
    wall = bench.WallClock()
    outcomes = bench.run(
        todo,
        configs,
        limit=args.limit,
        timeout=args.timeout,
        workers=args.workers,
        cross_check=args.cross_check,
        cluster=args.dask,
        ready=wall.restart,  # a cluster's start-up is not the puzzles' wall time
    )
    try:
        with closing(outcomes):  # Ctrl-C anywhere here still ends the worker processes
            for outcome in outcomes:
                fresh = [r for r in outcome.rows if bench.row_key(r) not in done_keys]
                rows.extend(fresh)
                if writer:
                    writer.write(fresh)
                wall.record(outcome.rows[0]["dataset"])
                for name, seconds in outcome.warm_up.items():
                    warm[name] = warm.get(name, 0.0) + seconds
                if outcome.problem:
                    problems.append(outcome.problem)
                    print(f"satsudoku: {outcome.problem}", file=sys.stderr)
                bar.step()
    finally:
        bar.close()
        if writer:
            writer.close()
    return rows, problems, warm, wall


def timeout_argument(text: str) -> float | None:
    """Seconds per puzzle; 0 or 'none' means no limit at all."""
    if text.strip().lower() in ("0", "0.0", "none"):
        return None
    return positive_float(text)


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
