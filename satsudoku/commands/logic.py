"""`satsudoku logic`: solve as a person would, step by step, each step said in words."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from satsudoku.backends import get_backend
from satsudoku.commands.common import (
    add_input_options,
    load_logic_kernels,
    load_puzzles,
    positive_float,
    positive_int,
)
from satsudoku.grid import Grid
from satsudoku.logic.rating import logic_rating
from satsudoku.logic.show import candidates_text, pencil_marks, writing
from satsudoku.logic.solver import LogicResult, for_puzzle, solve_logically, techniques
from satsudoku.logic.state import Board
from satsudoku.puzzle import Puzzle


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "logic",
        help="solve by human techniques, explaining each step",
        description="Apply solving techniques in order of difficulty (singles, locked "
        "candidates, subsets, fish, wings, chains, forcing chains) and say what each step "
        "finds; where logic runs out, print the pencil marks and the search's verdict.",
    )
    add_input_options(parser)
    parser.add_argument("--steps", action="store_true", help="print every step, numbered")
    parser.add_argument(
        "--until",
        type=positive_int,
        metavar="STEP",
        help="stop after step STEP and print the pencil marks there",
    )
    parser.add_argument(
        "--uniqueness",
        action="store_true",
        help="also use unique rectangles (types 1-6, hidden) and BUG+1 and BUG type 2 (they "
        "assume a single solution)",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=60.0,
        metavar="S",
        help="seconds per puzzle before the logic gives up (default: 60)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    load_logic_kernels()
    for index, puzzle in enumerate(load_puzzles(args)):  # from 0 in JSON, as `solve`'s
        board = Board.from_puzzle(puzzle)
        start = time.perf_counter()
        chosen = for_puzzle(puzzle, techniques(uniqueness=args.uniqueness), args.timeout)
        left = max(args.timeout - (time.perf_counter() - start), 0.0)
        result = solve_logically(board, chosen, max_steps=args.until, timeout=left)
        done = result.status in ("solved", "contradiction")
        search = None if done else _search(puzzle, board, args.timeout)
        if args.json:
            print(json.dumps(_record(index, puzzle, result, search)))
            continue
        if args.steps or args.until:
            for number, step in enumerate(result.steps, 1):
                print(f"{number:4d}. {step.text}")
        print(f"puzzle {index + 1}: {_summary(result)}")
        if search is not None:
            print(pencil_marks(result.board, puzzle))
            print(f"search from here (bitmask): {search}")
    return 0


def _summary(result: LogicResult) -> str:
    count = f"{len(result.steps)} step{'s' * (len(result.steps) != 1)}"
    hardest = (
        f"; hardest: {result.hardest.technique} ({result.hardest.difficulty})"
        if result.hardest
        else ""
    )
    if result.status == "solved":
        return f"solved by logic in {count}{hardest}"
    if result.status == "contradiction":
        return f"no solution: after {count}, {result.reason}{hardest}"
    if result.status == "stopped":
        return f"stopped after {count}{hardest}"
    if result.status == "timeout":
        return f"gave up (--timeout) after {count}{hardest}"
    return f"logic runs out after {count}{hardest}"


def _search(puzzle: Puzzle, board: Board, timeout: float) -> str:
    """The bitmask search's verdict from the logic's placements (all of them sound), within
    its own --timeout: on an empty 64x64 the search alone ran for more than 10 minutes.
    Past it the verdict is 'unknown', as `solve` reports it."""
    here = Puzzle(puzzle.shape, Grid(puzzle.size, tuple(board.values)), puzzle.rules)
    return get_backend("bitmask").solve(here, limit=2, timeout=timeout).status.value


def _record(index: int, puzzle: Puzzle, result: LogicResult, search: str | None) -> dict[str, Any]:
    layout = result.board.layout
    record: dict[str, Any] = {
        "index": index,
        "logic": result.status,
        "rating": logic_rating(result),
        "technique": result.hardest.technique if result.hardest else None,
        "steps": [step.to_json(layout) for step in result.steps],
    }
    if result.reason:
        record["reason"] = result.reason
    if search is not None:
        symbols = writing(puzzle)
        record["candidates"] = [candidates_text(mask, symbols) for mask in result.board.cands]
        record["search"] = search
    return record
