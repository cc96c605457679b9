"""`satsudoku count`: the exact number of solutions of each puzzle, or an estimate of it."""

from __future__ import annotations

import argparse
import json
import math
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

from satsudoku.backends import Backend
from satsudoku.cluster import add_cluster_options, cluster_from_args, each, on_puzzle
from satsudoku.commands.common import (
    TUNING,
    Progress,
    add_backend_options,
    add_input_options,
    add_progress_option,
    backend_from_args,
    load_puzzles,
    positive_int,
    result_json,
    seed_argument,
)
from satsudoku.errors import SatsudokuError
from satsudoku.puzzle import Puzzle
from satsudoku.result import Proof, Result, status_from
from satsudoku.tools.counting import Count, count_solutions
from satsudoku.tools.estimate import Estimate, estimate_count

ENUMERATE_LIMIT = 100_000  # solutions a listing backend keeps at most, unless --limit says


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "count",
        help="count solutions exactly, or estimate how many there are",
        description="Print how many solutions every puzzle in FILE has. The bitmask and fast "
        "backends count without listing them (bitmask, when every rule is digit-symmetric, "
        "visits one grid per relabelling of the digits no given uses; fast visits every grid, "
        "compiled); the other backends enumerate up to --limit. "
        "A count cut short prints a lower bound ('>= K'). --estimate N samples the search "
        "tree instead (Knuth's estimator).",
    )
    add_input_options(parser)
    limit_help = (
        "stop at K solutions and print '>= K' (default: none for bitmask and fast, which keep "
        f"no list; {ENUMERATE_LIMIT} for the other backends, which list what they count)"
    )
    add_backend_options(parser, default_limit=None, limit_help=limit_help)
    parser.add_argument(
        "--no-symmetry",
        dest="symmetry",
        action="store_false",
        help="bitmask: visit every grid, even when relabelling digits maps grids onto grids",
    )
    parser.add_argument(
        "--estimate",
        type=positive_int,
        metavar="N",
        help="estimate the count from N random walks down the bitmask search tree (Knuth's "
        "unbiased estimator): mean, standard error, 95%% interval; --timeout ends it early",
    )
    parser.add_argument(
        "--seed",
        type=seed_argument,
        default=0,
        metavar="S",
        help="--estimate: random seed; the same seed gives the same estimate (default: 0)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    add_progress_option(parser, "when stderr is a terminal")
    add_cluster_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    args.dask = cluster_from_args(args)
    if args.estimate is not None:
        return _run_estimates(args)
    if not args.symmetry and args.backend != "bitmask":
        raise SatsudokuError(f"--no-symmetry does not apply to --backend {args.backend}")
    if args.backend not in ("bitmask", "fast"):  # the others list what they count
        return _run_enumeration(args)
    backend_from_args(args)  # refuses tuning options the backend does not take, as solve does
    counter = _counter(args)
    if args.dask is not None:
        count = partial(
            counter,
            limit=args.limit,
            timeout=args.timeout,
            max_nodes=args.max_nodes,
        )

        def counted_line(index: int, puzzle: Puzzle, counted: Count) -> str:
            return _counted(index, puzzle, counted, args)

        return _run_on_cluster(args, count, counted_line, lambda counted: counted.count)
    progress = Progress(args.progress, solutions=True, beside_terminal_output=True)
    try:
        for index, puzzle in enumerate(load_puzzles(args)):
            progress.phase("counting")
            before = progress.solutions

            def show(partial: int, before: int = before) -> None:
                progress.solutions = before + partial

            counted = counter(
                puzzle,
                limit=args.limit,
                timeout=args.timeout,
                max_nodes=args.max_nodes,
                on_progress=show,
            )
            progress.emit(_counted(index, puzzle, counted, args))
            progress.solutions = before + counted.count
            progress.update()
    finally:
        progress.close()
    return 0


def _counter(args: argparse.Namespace) -> Callable[..., Count]:
    """The backend's counting walk, which lists nothing: bitmask's (one grid per relabelling
    of interchangeable digits unless --no-symmetry) or the compiled search's (every grid)."""
    if args.backend == "fast":
        from satsudoku.backends.fast import count_solutions as count_compiled

        return count_compiled
    return partial(count_solutions, symmetry=args.symmetry)


def _run_enumeration(args: argparse.Namespace) -> int:
    """Backends other than bitmask list the solutions they count, so the list is capped."""
    backend = backend_from_args(args)
    limit = args.limit or ENUMERATE_LIMIT
    if args.dask is not None:
        options = {name: getattr(args, name, None) for name in ("backend", *TUNING)}
        solve = partial(_solve_one, uuid.uuid4().hex, options, limit, args.timeout)
        shown = partial(_enumerated, as_json=args.json)
        return _run_on_cluster(args, solve, shown, lambda result: len(result.solutions))
    progress = Progress(args.progress, solutions=True, beside_terminal_output=True)
    try:
        for index, puzzle in enumerate(load_puzzles(args)):
            progress.phase("counting")
            result = backend.solve(puzzle, limit=limit, timeout=args.timeout)
            progress.emit(_enumerated(index, puzzle, result, as_json=args.json))
            progress.update(result)
    finally:
        progress.close()
    return 0


def _run_estimates(args: argparse.Namespace) -> int:
    if args.backend != "bitmask":
        raise SatsudokuError(
            f"--estimate walks the bitmask search tree, not --backend {args.backend}"
        )
    for flag, value in (("--limit", args.limit), ("--max-nodes", args.max_nodes)):
        if value is not None:  # a walk is bounded by the board's depth, a count by --timeout
            raise SatsudokuError(f"{flag} does not apply to --estimate (--timeout bounds it)")
    backend_from_args(args)
    if args.dask is not None:
        walks = partial(estimate_count, samples=args.estimate, seed=args.seed, timeout=args.timeout)

        def estimated_line(index: int, puzzle: Puzzle, estimate: Estimate) -> str:
            return _estimated(index, puzzle, estimate, args)

        return _run_on_cluster(args, walks, estimated_line, None)
    progress = Progress(args.progress, solutions=False, beside_terminal_output=True)
    try:
        for index, puzzle in enumerate(load_puzzles(args)):

            def show(drawn: int, index: int = index) -> None:
                progress.current = (
                    f"puzzle {index + 1}: estimating, {drawn}/{args.estimate} samples"
                )

            progress.phase("estimating")
            estimate = estimate_count(
                puzzle, args.estimate, seed=args.seed, timeout=args.timeout, on_sample=show
            )
            progress.emit(_estimated(index, puzzle, estimate, args))
            progress.update()
    finally:
        progress.close()
    return 0


def _run_on_cluster(
    args: argparse.Namespace,
    compute: Callable[[Puzzle], Any],
    shown: Callable[[int, Puzzle, Any], str],
    solutions: Callable[[Any], int] | None,
) -> int:
    """Each puzzle's `compute` on Dask, in chunks, printed by `shown` in input order (or as
    chunks finish with --unordered: each line's index, in JSON, says which puzzle); the
    progress line counts `solutions` of each value when given."""
    progress = Progress(args.progress, solutions=bool(solutions), beside_terminal_output=True)
    try:
        numbered = enumerate(load_puzzles(args))
        for (index, puzzle), value in each(partial(on_puzzle, compute), numbered, args.dask):
            progress.emit(shown(index, puzzle, value))
            progress.solutions += solutions(value) if solutions else 0
            progress.update()
    finally:
        progress.close()
    return 0


def _solve_one(
    run_id: str, options: dict[str, Any], limit: int, timeout: float | None, puzzle: Puzzle
) -> Result:
    """List a puzzle's solutions with this worker thread's backend for the run (kept)."""
    from satsudoku.cluster import session

    backend: Backend = session(run_id, lambda: backend_from_args(argparse.Namespace(**options)))
    return backend.solve(puzzle, limit=limit, timeout=timeout)


def _counted(index: int, puzzle: Puzzle, counted: Count, args: argparse.Namespace) -> str:
    """The exact count, or '>= K (why it stopped)'; with --json, the record `solve` writes."""
    shown = counted.count
    if counted.stopped == "limit":
        shown = min(shown, args.limit)  # K asked for: '>= K', as when listing
    if not args.json:
        return str(shown) if counted.complete else f">= {shown} ({counted.stopped} reached)"
    stats: dict[str, int | float | str] = {"nodes": counted.nodes, "time_s": counted.time_s}
    if counted.symmetric_digits > 1:
        stats["symmetry"] = math.factorial(counted.symmetric_digits)  # most grids a leaf stands for
    if counted.stopped:
        stats["stopped"] = counted.stopped
    status = status_from(shown, limit=args.limit or shown + 1, exhausted=counted.complete)
    method = "exhaustive-search" if counted.complete else "witness"
    proof = Proof(method, {"nodes": counted.nodes, "complete": counted.complete})
    # No more witnesses than the count shown: at --limit 1 the walk finds a second grid (to
    # tell '1' from '>= 1'), which the record listed beside 'solved' and 'at_least': 1.
    witnesses = counted.witnesses[:shown]
    result = Result(status, witnesses, args.backend, stats, proof, counted.complete)
    record = result_json(index, puzzle, result)
    record["count"] = shown if counted.complete else None
    if not counted.complete:
        record["at_least"] = shown
    return json.dumps(record)


def _enumerated(index: int, puzzle: Puzzle, result: Result, *, as_json: bool) -> str:
    """The exact count, or '>= K (why it stopped)' when the search was cut short."""
    found = len(result.solutions)
    if as_json:
        record = result_json(index, puzzle, result)
        record["solutions"] = record["solutions"][:2]  # the count is the point, not the list
        return json.dumps(record)
    if result.exhausted:
        return str(found)
    reason = result.stats.get("stopped", "limit")
    return f">= {found} ({reason} reached)"


def _estimated(index: int, puzzle: Puzzle, estimate: Estimate, args: argparse.Namespace) -> str:
    """'~ mean ± stderr (95%: low..high; N samples, Z% dead ends)', or its JSON record."""
    if args.json:
        record: dict[str, Any] = {"index": index, **estimate.to_json(), "seed": args.seed}
        record["time_s"] = round(estimate.time_s, 6)
        if estimate.stopped:
            record["stopped"] = estimate.stopped
        if puzzle.origin:
            record["source"] = puzzle.origin
        if puzzle.title:
            record["title"] = puzzle.title
        return json.dumps(record)
    reached = f", {estimate.stopped} reached" if estimate.stopped else ""
    if not estimate.samples:
        return f"unknown (no sample drawn{reached})"
    if estimate.samples == 1:  # one walk: a number, but no spread to judge it by
        return f"~ {_number(estimate.estimate)} (1 sample, no error estimate{reached})"
    low, high = estimate.ci95
    return (
        f"~ {_number(estimate.estimate)} ± {_number(estimate.stderr)} "
        f"(95%: {_number(low)}..{_number(high)}; {estimate.samples} samples, "
        f"{estimate.zero_fraction:.1%} dead ends{reached})"
    )


def _number(value: float) -> str:
    """Four significant digits: an estimate is no more precise than that. An int past a
    float's range (estimates on 25×25 and larger boards) is rounded from its decimal digits."""
    if isinstance(value, float) or abs(value) < 10**300:
        return f"{value:.4g}"
    digits = str(round(value, 4 - len(str(value))))  # round to four significant digits
    rest = digits[1:4].rstrip("0")
    return f"{digits[0]}{'.' + rest if rest else ''}e+{len(digits) - 1}"
