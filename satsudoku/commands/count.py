"""`satsudoku count`: the exact number of solutions of each puzzle, up to a limit."""

from __future__ import annotations

import argparse
from typing import Any

from satsudoku.commands.common import (
    add_backend_options,
    add_input_options,
    backend_from_args,
    load_puzzles,
    result_json,
    write_json_line,
)


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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    backend = backend_from_args(args)
    for index, puzzle in enumerate(load_puzzles(args)):
        result = backend.solve(puzzle, limit=args.limit, timeout=args.timeout)
        found = len(result.solutions)
        if args.json:
            record = result_json(index, puzzle, result)
            record["solutions"] = record["solutions"][:2]  # the count is the point, not the list
            write_json_line(record)
        elif result.exhausted:
            print(found)
        else:
            reason = result.stats.get("stopped", "limit")
            print(f">= {found} ({reason} reached)")
    return 0
