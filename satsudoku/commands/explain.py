"""`satsudoku explain`: for a puzzle without solution, a minimal set of givens that clash."""

from __future__ import annotations

import argparse
import time
from typing import Any

from satsudoku.commands.common import add_input_options, load_puzzles, plural, positive_float
from satsudoku.deadline import OutOfTime
from satsudoku.errors import PuzzleError
from satsudoku.grid import cell_name
from satsudoku.proof.core import CORE_SOLVER, minimal_conflict
from satsudoku.sat.solvers import parse_solver


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "explain",
        help="name a minimal set of givens that cannot hold together",
        description="For each puzzle without a solution, print a minimal set of givens that "
        "already contradict the rules (an unsatisfiable core over the givens, shrunk until "
        "removing any one of them leaves a satisfiable set).",
    )
    add_input_options(parser)
    parser.add_argument(
        "--solver",
        type=solver_argument,
        default=CORE_SOLVER,
        help=f"pysat solver (default: {CORE_SOLVER})",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        metavar="S",
        help="seconds per puzzle; past them the puzzle is 'unknown' (no limit by default)",
    )
    parser.set_defaults(run=run)


def solver_argument(text: str) -> str:
    """An unknown solver name is a usage error (exit 2), found while parsing."""
    try:
        return parse_solver(text)
    except PuzzleError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def run(args: argparse.Namespace) -> int:
    solver = parse_solver(args.solver)  # the default, too, in its canonical spelling
    for index, puzzle in enumerate(load_puzzles(args), 1):
        deadline = None if args.timeout is None else time.perf_counter() + args.timeout
        try:
            conflict = minimal_conflict(puzzle, solver=solver, deadline=deadline)
        except OutOfTime:
            limit = f"--timeout {args.timeout:g} s"
            print(f"puzzle {index}: unknown (no minimal conflict within {limit})")
            continue
        if conflict is None:
            print(f"puzzle {index}: has a solution; nothing to explain")
        elif not conflict:
            print(f"puzzle {index}: the rules alone have no solution, whatever the givens")
        else:
            named = ", ".join(
                f"{cell_name(cell)}={puzzle.symbols.symbol(d)}" for cell, d in conflict
            )
            print(
                f"puzzle {index}: {named}: conflict ({plural(len(conflict), 'given')} "
                "that cannot hold together)"
            )
    return 0
