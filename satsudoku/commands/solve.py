"""`satsudoku solve`: solve every puzzle of a file, streaming one verdict per puzzle."""

from __future__ import annotations

import argparse
import inspect
import json
import os
import random
import stat
import sys
import time
import uuid
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import closing
from functools import partial
from itertools import islice
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
        batch = _may_batch(args)
        if dask is None:
            puzzles = _read_ahead(load_puzzles(args)) if batch else load_puzzles(args)
            pairs = solve_stream(backend, puzzles, limit=args.limit, timeout=args.timeout)
            solved: Iterator[tuple[int, Puzzle, Result]] = (
                (index, puzzle, result) for index, (puzzle, result) in enumerate(pairs)
            )
        else:
            solved = _solve_on_cluster(args, dask)
        for answered in _batches(solved, batch):
            progress.emit("\n".join(_answer(args, *done) for done in answered))
            for done in answered:
                progress.update(done[2])
    finally:
        progress.close()
    return 0


def _answer(args: argparse.Namespace, index: int, puzzle: Puzzle, result: Result) -> str:
    """One puzzle's output: a JSON line, or the text answer in the input's own layout."""
    if not args.json:
        return render_text(index, puzzle, result)
    record = result_json(index, puzzle, result)
    if args.random_seed is not None:
        record["seed"] = args.random_seed
    return json.dumps(record)


BATCH, BATCH_SECONDS = 64, 0.1


def _may_batch(args: argparse.Namespace) -> bool:
    """True when nobody waits on each answer: the input is a regular file (reading it never
    waits for a person or a process) and standard output is not a terminal."""
    try:
        regular = args.file != "-" and stat.S_ISREG(os.stat(args.file).st_mode)
    except (OSError, ValueError):
        regular = False  # a link, or a name the reader will refuse in its own words
    return regular and not sys.stdout.isatty()


def _read_ahead(puzzles: Iterable[Puzzle]) -> Iterator[Puzzle]:
    """`puzzles`, read BATCH at a time (from a regular file: reading never waits); those read
    before a bad one are still answered before its error."""
    stream = iter(puzzles)
    while True:
        chunk: list[Puzzle] = []
        try:
            for puzzle in islice(stream, BATCH):
                chunk.append(puzzle)
        except Exception:
            yield from chunk
            raise
        if not chunk:
            return
        yield from chunk


def _batches(
    solved: Iterable[tuple[int, Puzzle, Result]], batch: bool
) -> Iterator[list[tuple[int, Puzzle, Result]]]:
    """The results one by one, or, with `batch`, up to BATCH at a time and no batch held past
    BATCH_SECONDS when the next result comes: formatting and writing a batch in one go keeps
    the solver's and the writer's code and data hot in the cache (sat on 17-clue puzzles: the
    CLI's cost over the engine's roughly halves). A result may then wait for the one after it."""
    if not batch:
        yield from ([done] for done in solved)
        return
    pending: list[tuple[int, Puzzle, Result]] = []
    started = 0.0
    stream = iter(solved)
    while True:
        try:
            done = next(stream)
        except StopIteration:
            break
        except BaseException:  # a bad puzzle, Ctrl-C: the answers known go out first
            if pending:
                yield pending
            raise
        if not pending:
            started = time.perf_counter()
        pending.append(done)
        if len(pending) >= BATCH or time.perf_counter() - started > BATCH_SECONDS:
            yield pending
            pending = []
    if pending:
        yield pending


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
