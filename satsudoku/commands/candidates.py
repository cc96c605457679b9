"""`satsudoku candidates`: the true candidates of each puzzle (digits some solution puts there),
as a pencil-mark grid or JSON, optionally with how many solutions put each digit there."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from satsudoku.commands.common import (
    add_input_options,
    load_puzzles,
    plural,
    positive_float,
    positive_int,
)
from satsudoku.errors import PuzzleError, SatsudokuError
from satsudoku.io.output import write_output
from satsudoku.puzzle import Puzzle
from satsudoku.render import render_svg, svg_to_png
from satsudoku.result import Status
from satsudoku.tools.candidates import (
    MAX_CAP,
    STRATEGIES,
    CandidateCounts,
    agree,
    true_candidates,
)


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "candidates",
        help="true candidates: the digits some solution puts in each cell",
        description="For every cell, the digits that some solution of the puzzle puts there, "
        "as a pencil-mark grid; with --cap K, how many solutions put each digit there, "
        "counted up to K. A unique puzzle's candidates are its solution.",
    )
    add_input_options(parser)
    parser.add_argument(
        "--cap",
        type=positive_int,
        default=1,
        metavar="K",
        help=f"count solutions per cell and digit up to K (default 1: possible or not; "
        f"at most {MAX_CAP:,})",
    )
    parser.add_argument(
        "--backend",
        choices=[*STRATEGIES, "all"],
        default="sat",
        help="sat (default, fastest), cpsat or bitmask; 'all' runs every one and fails "
        "(exit 3) unless they agree",
    )
    parser.add_argument("--solver", metavar="NAME", help="sat: pysat solver (default cadical195)")
    parser.add_argument(
        "--timeout", type=positive_float, metavar="S", help="seconds per puzzle (then: unknown)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle (JSONL)")
    parser.add_argument(
        "--render",
        metavar="OUT",
        help="also draw the puzzle with its candidates as pencil marks: OUT.svg or OUT.png "
        "(one puzzle per input)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.cap > MAX_CAP:
        raise SatsudokuError(f"--cap {args.cap} is above the supported {MAX_CAP:,}")
    if args.solver is not None:
        if args.backend not in ("sat", "all"):
            raise SatsudokuError(f"--solver does not apply to --backend {args.backend}")
        from satsudoku.sat.solvers import NON_INCREMENTAL, parse_solver  # pysat: now

        try:
            args.solver = parse_solver(args.solver)  # a bad name is a usage error, up front
        except PuzzleError as exc:
            raise SatsudokuError(f"--solver: {exc.message}") from None
        if args.solver in NON_INCREMENTAL:
            raise SatsudokuError(f"--solver {args.solver} is not incremental; pick another")
    if args.render is not None:
        _render_kind(args.render)  # a bad name fails before any solving
    for index, puzzle in enumerate(load_puzzles(args)):
        if args.render is not None and index:
            raise PuzzleError("--render draws one puzzle, but the input holds several")
        found = _candidates(puzzle, args)
        if args.render is not None and found.complete and found.status is not Status.UNSATISFIABLE:
            svg = render_svg(puzzle, marks=[sorted(digits) for digits in found.counts])
            kind = _render_kind(args.render)
            write_output(args.render, svg_to_png(svg) if kind == "png" else svg)
        if args.json:
            print(json.dumps(candidates_json(index, puzzle, found)), flush=True)
        else:
            print(render_candidates(index, puzzle, found), flush=True)
    return 0


def _render_kind(output: str) -> str:
    suffix = Path(output).suffix.lower()
    if suffix not in (".svg", ".png"):
        raise SatsudokuError(f"--render {output}: name an .svg or .png file")
    return suffix[1:]


def _candidates(puzzle: Puzzle, args: argparse.Namespace) -> CandidateCounts:
    """One backend's counts, or every backend's, which must agree ('all')."""
    names = list(STRATEGIES) if args.backend == "all" else [args.backend]
    results = []
    for name in names:
        solver = args.solver if name == "sat" else None
        results.append(
            true_candidates(puzzle, name, cap=args.cap, timeout=args.timeout, solver=solver)
        )
    return agree(results)


def candidates_json(index: int, puzzle: Puzzle, found: CandidateCounts) -> dict[str, Any]:
    """One JSON Lines record: `candidates` is per cell (row-major) {digit: capped count}."""
    record: dict[str, Any] = {
        "index": index,
        "status": found.status.value,
        "cap": found.cap,
        "candidates": [{str(d): count for d, count in sorted(c.items())} for c in found.counts],
        "solutions_seen": found.solutions,
        "backend": found.backend,
        "time_s": round(float(found.stats.get("time_s", 0.0)), 6),
        "stats": {k: round(v, 6) if isinstance(v, float) else v for k, v in found.stats.items()},
    }
    if puzzle.origin:
        record["source"] = puzzle.origin
    if puzzle.title:
        record["title"] = puzzle.title
    return record


def render_candidates(index: int, puzzle: Puzzle, found: CandidateCounts) -> str:
    """A header with the verdict, then the pencil-mark grid (none when there is nothing to show).

    Cells list their digits in the puzzle's symbols; with --cap above 1 each digit carries its
    count (`1=3`), and a count that reached the cap is marked `+` (at least that many).
    """
    header = f"# puzzle {index + 1}"
    if puzzle.title:
        header += f" ({puzzle.title})"
    status = found.status
    total = sum(len(c) for c in found.counts)
    about = f"{plural(total, 'candidate')}, {plural(found.solutions, 'solution')} seen"
    time_s = float(found.stats.get("time_s", 0.0))
    header += f": {status.value} ({about}) [{found.backend}, {time_s:.3f} s]"
    if status is Status.UNSATISFIABLE:
        return f"{header}\n# no solution, so no cell has a candidate\n"
    if status is Status.UNKNOWN:
        why = found.stats.get("stopped", "stopped")
        return f"{header}\n# {why}: the search did not finish, candidates are not settled\n"
    return f"{header}\n{pencil_grid(puzzle, found)}\n"


def pencil_grid(puzzle: Puzzle, found: CandidateCounts) -> str:
    """Rows of cells, each its candidates, columns padded alike, with box borders when regular."""
    symbols = puzzle.symbols
    joiner = "," if symbols.is_numeric else ""
    cells: list[str] = []
    for _, digits in found.cells():
        parts = []
        for d in sorted(digits):
            text = symbols.symbol(d)
            if found.cap > 1:
                count = digits[d]
                text += f"={count}{'+' if count >= found.cap else ''}"
            parts.append(text)
        cells.append((joiner if found.cap == 1 else ",").join(parts) or "-")
    width = max(len(text) for text in cells)
    shape = puzzle.shape
    n = puzzle.size
    boxed = not shape.is_jigsaw and shape.box_cols < n
    lines: list[str] = []
    for r in range(n):
        row = [cells[r * n + c].ljust(width) for c in range(n)]
        if boxed:
            groups = [" ".join(row[c : c + shape.box_cols]) for c in range(0, n, shape.box_cols)]
            line = " | ".join(groups)
            if r and r % shape.box_rows == 0:
                lines.append("-+-".join("-" * len(g) for g in groups))
        else:
            line = " ".join(row)
        lines.append(line.rstrip())
    return "\n".join(lines)
