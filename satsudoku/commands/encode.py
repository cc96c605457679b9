"""`satsudoku encode`: one puzzle as DIMACS CNF (or, with --backend cpsat, as a CP-SAT model)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from satsudoku.commands.common import add_input_options, load_puzzles, positive_int
from satsudoku.encoders.cnf import (
    AtMostOne,
    Encoding,
    dimacs,
    encode_puzzle,
    header_comments,
    parse_amo,
    parse_encoding,
)
from satsudoku.errors import BackendUnavailableError, PuzzleError
from satsudoku.io.output import write_output
from satsudoku.puzzle import Puzzle


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "encode",
        help="write a puzzle as DIMACS CNF (or a CP-SAT model)",
        description="Write one puzzle as DIMACS CNF with a comment header naming the puzzle, "
        "shape, rules, encoding and variable numbering var(r,c,d) = (r-1)n² + (c-1)n + d.",
    )
    add_input_options(parser)
    parser.add_argument(
        "--backend",
        choices=("sat", "cpsat"),
        default="sat",
        help="sat: DIMACS CNF (default); cpsat: the CP-SAT model as text",
    )
    parser.add_argument(
        "--encoding",
        default=Encoding.EXTENDED.value,
        choices=[e.value for e in Encoding],
        help="CNF encoding (default: extended)",
    )
    parser.add_argument(
        "--amo",
        default=AtMostOne.PAIRWISE.value,
        choices=[a.value for a in AtMostOne],
        help="at-most-one encoding (default: pairwise, no auxiliary variables)",
    )
    parser.add_argument(
        "--model",
        default="boolean",
        choices=("boolean", "integer"),
        help="with --backend cpsat: one-hot Booleans (default: the model `solve` runs) or "
        "integer cells with AllDifferent",
    )
    parser.add_argument(
        "--index",
        type=positive_int,
        metavar="K",
        help="encode the K-th puzzle of FILE (1-based); needed when FILE holds several",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="write here instead of stdout, whole or not at all ('-': stdout)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    puzzle = _pick(list(load_puzzles(args)), args.index, args.file)
    if args.backend == "cpsat":
        text = _cpsat_text(puzzle, args.model)
    else:
        formula = encode_puzzle(puzzle, parse_encoding(args.encoding), parse_amo(args.amo))
        text = dimacs(formula, header_comments(puzzle, formula, source=puzzle.origin))
    if args.output and args.output != "-":
        write_output(args.output, text)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _pick(puzzles: list[Puzzle], index: int | None, source: str) -> Puzzle:
    if not puzzles:
        raise PuzzleError(f"{source}: no puzzle found")
    if index is None:
        if len(puzzles) > 1:
            raise PuzzleError(f"{source}: holds {len(puzzles)} puzzles; choose one with --index K")
        return puzzles[0]
    if index > len(puzzles):
        raise PuzzleError(f"{source}: --index {index}, but it holds {len(puzzles)} puzzles")
    return puzzles[index - 1]


def _cpsat_text(puzzle: Puzzle, model: str) -> str:
    """The CP-SAT model text (OR-Tools is imported only now: plain CNF export needs none)."""
    try:
        from satsudoku.encoders.cpsat import model_text
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("ortools"):
            raise
        raise BackendUnavailableError(
            f"--backend cpsat needs {exc.name}, which this installation lacks"
        ) from None
    text = model_text(puzzle, model)
    return text if text.endswith("\n") else text + "\n"
