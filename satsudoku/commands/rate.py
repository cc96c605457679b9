"""`satsudoku rate`: an SE-like difficulty per puzzle, streamed, with the raw machine figures."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from functools import partial
from typing import Any

from satsudoku.cluster import add_cluster_options, cluster_from_args, each
from satsudoku.commands.common import (
    Progress,
    add_progress_option,
    add_reading_options,
    load_logic_kernels,
    load_puzzles,
    positive_float,
    positive_int,
)
from satsudoku.logic.rating import Rating, rate
from satsudoku.logic.solver import techniques
from satsudoku.puzzle import Puzzle


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "rate",
        help="rate difficulty on a Sudoku Explainer-like scale",
        description="Rate every puzzle by the hardest technique the logical solver needs "
        "(SE-like: 1.2 hidden single ... 3.2 X-wing ... 7+ chains, 8.8+ forcing chains, 12 "
        "when logic runs out), with the backtrack rating (mean log2 guesses of the bitmask "
        "search over random relabellings) and SAT conflicts beside it.",
    )
    parser.add_argument(
        "files", nargs="*", default=["-"], metavar="FILE", help="puzzle files ('-' for stdin)"
    )
    add_reading_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle (JSONL)")
    parser.add_argument(
        "--samples",
        type=positive_int,
        default=8,
        metavar="K",
        help="relabelled copies the backtrack rating averages over (default: 8)",
    )
    parser.add_argument(
        "--logic-only",
        action="store_true",
        help="skip the backtrack and SAT figures (faster on large datasets)",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=60.0,
        metavar="S",
        help="seconds per puzzle for the whole rating: the logic, then the SAT figure (within "
        "half of what is left) and the backtrack samples (default: 60); past it the rating is "
        "12.0 with logic 'timeout', and a machine figure not finished reads 'timeout' (JSON: "
        "left out and named in 'timed_out')",
    )
    parser.add_argument(
        "--uniqueness",
        action="store_true",
        help="also use unique rectangles (types 1-6, hidden) and BUG+1 and BUG type 2 (they "
        "assume a single solution)",
    )
    add_progress_option(parser, "when stderr is a terminal and stdout is not")
    add_cluster_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    dask = cluster_from_args(args)
    options = {
        "uniqueness": args.uniqueness,
        "samples": args.samples,
        "machine": not args.logic_only,
        "timeout": args.timeout,
    }
    progress = Progress(args.progress)
    load_logic_kernels()
    try:
        progress.phase("rating")
        for (name, index, _), rating in each(partial(_rate, options), _puzzles(args), dask):
            progress.emit(_line(name, index, rating, as_json=args.json))
            progress.update()
    finally:
        progress.close()
    return 0


def _puzzles(args: argparse.Namespace) -> Iterator[tuple[str, int, Puzzle]]:
    """Every puzzle of every file, with its file's name and its index there (from 0, as in
    `solve`'s and `count`'s JSON)."""
    for name in args.files or ["-"]:
        args.file = name
        for index, puzzle in enumerate(load_puzzles(args)):
            yield name, index, puzzle


def _rate(options: dict[str, Any], item: tuple[str, int, Puzzle]) -> Rating:
    """One puzzle's rating, here or on a Dask worker (`options` travel, not argparse)."""
    return rate(
        item[2],
        techniques(uniqueness=options["uniqueness"]),
        samples=options["samples"],
        machine=options["machine"],
        timeout=options["timeout"],
    )


def _line(name: str, index: int, rating: Rating, *, as_json: bool) -> str:
    if as_json:
        return json.dumps({"file": name, "index": index, **rating.to_json()})
    parts = [f"{rating.rating:.1f}", rating.technique or "nothing to do", f"{rating.steps} steps"]
    if rating.status != "solved":
        parts.append(f"logic {rating.status}")
    if rating.backtrack is not None:
        parts.append(f"backtrack {rating.backtrack:.2f}")
    elif "backtrack" in rating.timed_out:
        parts.append("backtrack timeout")
    if "conflicts" in rating.sat:
        parts.append(f"sat conflicts {rating.sat['conflicts']:.0f}")
    elif "sat" in rating.timed_out:
        parts.append("sat timeout")
    return "\t".join(parts)
