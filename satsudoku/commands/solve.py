"""`satsudoku solve`: solve every puzzle of a file, streaming one verdict per puzzle."""

from __future__ import annotations

import argparse
import json
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from satsudoku.backends import Backend
from satsudoku.commands.common import (
    Progress,
    add_backend_options,
    add_input_options,
    add_progress_option,
    backend_from_args,
    load_puzzles,
    render_text,
    result_json,
)
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
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle (JSONL)")
    add_progress_option(parser, "when stderr is a terminal and stdout is not")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    backend = backend_from_args(args)
    progress = Progress(args.progress)
    try:
        pairs = solve_stream(backend, load_puzzles(args), limit=args.limit, timeout=args.timeout)
        for index, (puzzle, result) in enumerate(pairs):
            if args.json:
                progress.emit(json.dumps(result_json(index, puzzle, result)))
            else:
                progress.emit(render_text(index, puzzle, result))
            progress.update(result)
    finally:
        progress.close()
    return 0


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
