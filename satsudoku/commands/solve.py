"""`satsudoku solve`: solve every puzzle of a file, streaming one verdict per puzzle."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from satsudoku.commands.common import (
    Progress,
    add_backend_options,
    add_input_options,
    backend_from_args,
    load_puzzles,
    render_text,
    result_json,
    write_json_line,
)


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
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress line on stderr (default: when stderr is a terminal and stdout is not)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    backend = backend_from_args(args)
    progress = Progress(args.progress)
    try:
        for index, puzzle in enumerate(load_puzzles(args)):
            result = backend.solve(puzzle, limit=args.limit, timeout=args.timeout)
            if args.json:
                write_json_line(result_json(index, puzzle, result))
            else:
                print(render_text(index, puzzle, result))
            sys.stdout.flush()
            progress.update(result)
    finally:
        progress.close()
    return 0
