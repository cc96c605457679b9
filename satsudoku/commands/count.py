"""`satsudoku count`: the exact number of solutions of each puzzle, up to a limit."""

from __future__ import annotations

import argparse
import json
from typing import Any

from satsudoku.commands.common import (
    Progress,
    add_backend_options,
    add_input_options,
    add_progress_option,
    backend_from_args,
    load_puzzles,
    result_json,
)
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "count",
        help="count solutions exactly (up to --limit)",
        description="Enumerate the solutions of every puzzle in FILE and print how many there "
        "are; when --limit is reached first, print a lower bound ('>= K').",
    )
    add_input_options(parser)
    add_backend_options(parser, default_limit=100_000)
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    add_progress_option(parser, "when stderr is a terminal")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    backend = backend_from_args(args)
    progress = Progress(args.progress, solutions=True, beside_terminal_output=True)
    try:
        for index, puzzle in enumerate(load_puzzles(args)):
            progress.phase("counting")
            result = backend.solve(puzzle, limit=args.limit, timeout=args.timeout)
            progress.emit(_answer(index, puzzle, result, as_json=args.json))
            progress.update(result)
    finally:
        progress.close()
    return 0


def _answer(index: int, puzzle: Puzzle, result: Result, *, as_json: bool) -> str:
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
