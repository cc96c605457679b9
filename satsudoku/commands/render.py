"""`satsudoku render`: draw one puzzle (and, with --solution, its solution) as SVG or PNG."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from satsudoku.commands.common import (
    add_backend_options,
    add_input_options,
    backend_from_args,
    load_puzzles,
    say_on_stderr,
)
from satsudoku.errors import PuzzleError, SatsudokuError
from satsudoku.grid import Grid
from satsudoku.io.output import write_output
from satsudoku.puzzle import Puzzle
from satsudoku.render import render_svg, svg_to_png
from satsudoku.result import Status


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "render",
        help="draw a puzzle as SVG or PNG",
        description="Draw one puzzle: grid, regions, givens and every rule element (cages, "
        "lines, dots, clues outside the grid, …), so you can see that it was read as meant. "
        "With --solution, solve it and draw the solved digits in blue. SVG is written "
        "directly; PNG needs the extra: pip install 'satsudoku[png]'.",
    )
    add_input_options(parser)
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="OUT.svg or OUT.png ('-' writes SVG to standard output)",
    )
    parser.add_argument(
        "--solution", action="store_true", help="solve the puzzle and draw its solution"
    )
    add_backend_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    kind = _output_kind(args.output)
    puzzle = _single(args)
    solution = _solve(puzzle, args) if args.solution else None
    svg = render_svg(puzzle, solution)
    write_output(args.output, svg_to_png(svg) if kind == "png" else svg)
    return 0


def _output_kind(output: str) -> str:
    if output == "-":
        return "svg"
    suffix = Path(output).suffix.lower()
    if suffix not in (".svg", ".png"):
        raise SatsudokuError(f"-o {output}: name an .svg or .png file (or '-' for SVG)")
    return suffix[1:]


def _single(args: argparse.Namespace) -> Puzzle:
    """The one puzzle of the input: a drawing shows one puzzle."""
    puzzles = load_puzzles(args)
    first = next(puzzles, None)
    if first is None:
        raise PuzzleError("no puzzle to draw", source=args.file)
    if next(puzzles, None) is not None:
        raise PuzzleError("render draws one puzzle, but the input holds several", source=args.file)
    return first


def _solve(puzzle: Puzzle, args: argparse.Namespace) -> Grid:
    """A solution to draw; a puzzle with several is drawn with one of them, said on stderr."""
    result = backend_from_args(args).solve(puzzle, limit=args.limit, timeout=args.timeout)
    if result.status is Status.UNSATISFIABLE:
        raise PuzzleError("--solution: the puzzle has no solution", source=puzzle.origin)
    if result.solution is None:
        raise PuzzleError(
            "--solution: no solution found within the limits (try --timeout)",
            source=puzzle.origin,
        )
    if result.status is Status.MULTIPLE:
        where = f"{puzzle.origin}: " if puzzle.origin else ""
        say_on_stderr(f"warning: {where}the puzzle has several solutions; drawing one")
    return result.solution
