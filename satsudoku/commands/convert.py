"""`satsudoku convert`: rewrite puzzles as lines, pretty grids, LeetCode boards or documents."""

from __future__ import annotations

import argparse
import json
from typing import Any

from satsudoku.commands.common import add_input_options, load_puzzles
from satsudoku.io import format_board, format_grid, format_line, puzzle_document

TARGETS = ("line", "grid", "leetcode", "json")


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "convert",
        help="rewrite puzzles in another format",
        description="Read puzzles in any supported format and write them as one-line strings, "
        "pretty grids, LeetCode boards or JSON puzzle documents.",
    )
    add_input_options(parser)
    parser.add_argument("--to", choices=TARGETS, default="json", help="output format")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    documents = []
    for puzzle in load_puzzles(args):
        if args.to == "line":
            print(format_line(puzzle.givens, puzzle.symbols))
        elif args.to == "grid":
            print(format_grid(puzzle.givens, puzzle.shape, puzzle.symbols) + "\n")
        elif args.to == "leetcode":
            print(format_board(puzzle.givens, puzzle.symbols))
        else:
            documents.append(puzzle_document(puzzle))
    if documents:
        payload = documents[0] if len(documents) == 1 else {"puzzles": documents}
        print(json.dumps(payload, indent=2))
    return 0
