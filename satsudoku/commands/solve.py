"""`satsudoku solve`: solve every puzzle of a file, streaming one verdict per puzzle."""

from __future__ import annotations

import argparse
import inspect
import json
import random
import sys
import uuid
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import closing
from functools import partial
from typing import Any

from satsudoku.backends import Backend, backend_class
from satsudoku.cluster import Cluster, add_cluster_options, cluster_from_args
from satsudoku.commands.common import (
    TUNING,
    Progress,
    add_backend_options,
    add_input_options,
    add_progress_option,
    backend_from_args,
    load_puzzles,
    render_text,
    result_json,
    seed_argument,
)
from satsudoku.errors import SatsudokuError
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "solve",
        help="solve puzzles and settle uniqueness",
        description="Solve every puzzle in FILE and print the solution with its verdict "
        "(unique, multiple, unsatisfiable, unknown; solved with --limit 1).",
    )
    add_input_options(parser)
    add_backend_options(parser)
    parser.add_argument(
        "--random",
        action="store_true",
        help="search in a random order, so a puzzle with many solutions shows a random one: a "
        "solution reached by a randomised search, not uniformly sampled (bitmask: digit order; "
        "sat: phases; cpsat: polarity and branching); the verdict is still exact",
    )
    parser.add_argument(
        "--seed",
        type=seed_argument,
        metavar="S",
        help="--random: the seed (0..2^31-1); the same seed, puzzle and backend give the same "
        "solution on any machine (default: drawn afresh and printed on stderr)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle (JSONL)")
    add_progress_option(parser, "when stderr is a terminal and stdout is not")
    add_cluster_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    drawn = _choose_seed(args)
    dask = cluster_from_args(args)
    backend = backend_from_args(args)  # on a cluster too: a bad option fails here, once
    if drawn:  # said once the options are known to be good: this run can be repeated
        print(f"satsudoku: --random with --seed {args.seed}", file=sys.stderr)
    progress = Progress(args.progress)
    try:
        if dask is None:
            pairs = solve_stream(
                backend, load_puzzles(args), limit=args.limit, timeout=args.timeout
            )
            solved: Iterator[tuple[int, Puzzle, Result]] = (
                (index, puzzle, result) for index, (puzzle, result) in enumerate(pairs)
            )
        else:
            solved = _solve_on_cluster(args, dask)
        for index, puzzle, result in solved:
            if args.json:
                record = result_json(index, puzzle, result)
                if args.random_seed is not None:
                    record["seed"] = args.random_seed
                progress.emit(json.dumps(record))
            else:
                progress.emit(render_text(index, puzzle, result))
            progress.update(result)
    finally:
        progress.close()
    return 0


def _solve_on_cluster(
    args: argparse.Namespace, dask: Cluster
) -> Iterator[tuple[int, Puzzle, Result]]:
    """Chunks of the file solved on Dask, each puzzle with its index in the file."""
    from satsudoku import cluster

    options = {"backend": args.backend, **{name: getattr(args, name, None) for name in TUNING}}
    work = partial(_solve_chunk, uuid.uuid4().hex, options, args.limit, args.timeout)
    with cluster.connect(dask) as client:
        numbered = enumerate(load_puzzles(args))
        results = cluster.stream(
            client, work, numbered, chunk_size=dask.chunk_size, ordered=dask.ordered
        )
        with closing(results):  # cancels the queued chunks before the client closes
            for (index, puzzle), result in results:
                yield index, puzzle, result


def _solve_chunk(
    run_id: str,
    options: dict[str, Any],
    limit: int,
    timeout: float | None,
    chunk: list[tuple[int, Puzzle]],
) -> list[Result]:
    """A cluster task: one chunk, by this worker thread's backend for the run (kept between
    chunks, so an incremental SAT session or a CP-SAT model serves the whole file)."""
    from satsudoku.cluster import session

    backend = session(run_id, lambda: backend_from_args(argparse.Namespace(**options)))
    pairs = solve_stream(backend, (puzzle for _, puzzle in chunk), limit=limit, timeout=timeout)
    return [result for _, result in pairs]


def _choose_seed(args: argparse.Namespace) -> bool:
    """Set `args.random_seed` (the backends' option) from --random and --seed; True when the
    seed was drawn here rather than given."""
    args.random_seed = None
    if not args.random:
        if args.seed is not None:
            raise SatsudokuError("--seed needs --random")
        return False
    if args.backend != "all":
        accepted = inspect.signature(backend_class(args.backend).__init__).parameters
        if "random_seed" not in accepted:
            raise SatsudokuError(f"--random does not apply to --backend {args.backend}")
    drawn = args.seed is None
    if drawn:
        args.seed = random.SystemRandom().randrange(2**31)
    args.random_seed = args.seed
    return drawn


def solve_stream(
    backend: Backend, puzzles: Iterable[Puzzle], *, limit: int, timeout: float | None
) -> Iterator[tuple[Puzzle, Result]]:
    """Pair each puzzle with its result, using the backend's batch path when it has one.

    A batch path (`solve_many`, e.g. one incremental SAT solver for a whole file) may read a
    few puzzles ahead; the queue keeps each result with the puzzle it belongs to.
    """
    solve_many = getattr(backend, "solve_many", None)
    if solve_many is None:
        for puzzle in puzzles:
            yield puzzle, backend.solve(puzzle, limit=limit, timeout=timeout)
        return
    pending: deque[Puzzle] = deque()

    def feed() -> Iterator[Puzzle]:
        for puzzle in puzzles:
            pending.append(puzzle)
            yield puzzle

    for result in solve_many(feed(), limit=limit, timeout=timeout):
        yield pending.popleft(), result
