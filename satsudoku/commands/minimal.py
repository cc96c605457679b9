"""`satsudoku minimal`: is each puzzle minimal (unique, and unique without no given or rule
instance), which of its parts are redundant, and with --reduce a minimal puzzle."""

from __future__ import annotations

import argparse
import json
from functools import partial
from typing import Any

from satsudoku.cluster import add_cluster_options, cluster_from_args, each
from satsudoku.commands.common import (
    add_input_options,
    load_puzzles,
    plural,
    positive_float,
    seed_argument,
)
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, cell_name
from satsudoku.io import format_line, puzzle_document
from satsudoku.io.writers import format_as_read
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import parse_cell
from satsudoku.tools.minimal import (
    BACKENDS,
    Minimality,
    Reduction,
    find_redundant,
    reduce_puzzle,
)


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "minimal",
        help="redundant givens and rule instances; --reduce writes a minimal puzzle",
        description="For each unique puzzle, list the givens (and the rule instances: a cage, "
        "a dot, a line, an arrow, an outside clue) it stays unique without; it is minimal when "
        "there is none. Minimality is defined for unique puzzles only: a puzzle with several "
        "solutions or none is reported as such. --reduce removes parts one at a time while "
        "the puzzle stays unique and writes the minimal puzzle reached.",
    )
    add_input_options(parser)
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="sat",
        help="sat (default: one incremental solver, assumptions), or cpsat/bitmask (each test "
        "a new solve: slower, an independent check)",
    )
    parser.add_argument(
        "--givens-only",
        action="store_true",
        help="examine the givens only; the rules stay whole",
    )
    parser.add_argument(
        "--reduce", action="store_true", help="write a minimal puzzle with the same solution"
    )
    parser.add_argument(
        "--seed",
        type=seed_argument,
        default=0,
        metavar="N",
        help="--reduce: order of removal (default 0)",
    )
    parser.add_argument(
        "--keep",
        default="",
        metavar="CELLS",
        help="--reduce: givens to try last, so they are the ones kept when there is a choice, "
        "e.g. r1c1,r5c5",
    )
    parser.add_argument(
        "--timeout", type=positive_float, metavar="S", help="seconds per puzzle (then: unknown)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle (JSONL)")
    add_cluster_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    dask = cluster_from_args(args)
    options = {
        "backend": args.backend,
        "rules": not args.givens_only,
        "reduce": args.reduce,
        "seed": args.seed,
        "timeout": args.timeout,
    }
    items = (
        (index, puzzle, _keep_cells(args.keep, puzzle) if args.reduce else [])
        for index, puzzle in enumerate(load_puzzles(args))
    )
    for (index, puzzle, _), answer in each(partial(_examine, options), items, dask):
        if args.json:
            print(json.dumps(minimal_json(index, puzzle, answer)), flush=True)
        else:
            print(render_minimal(index, puzzle, answer), flush=True)
    return 0


def _examine(
    options: dict[str, Any], item: tuple[int, Puzzle, list[Cell]]
) -> Minimality | Reduction:
    """One puzzle's redundant parts, or its reduction; here or on a Dask worker."""
    _, puzzle, keep = item
    if options["reduce"]:
        return reduce_puzzle(
            puzzle,
            options["backend"],
            rules=options["rules"],
            seed=options["seed"],
            keep=keep,
            timeout=options["timeout"],
        )
    return find_redundant(
        puzzle, options["backend"], rules=options["rules"], timeout=options["timeout"]
    )


def _keep_cells(text: str, puzzle: Puzzle) -> list[Cell]:
    return [parse_cell(part, puzzle.shape, "--keep") for part in text.split(",") if part.strip()]


def minimal_json(index: int, puzzle: Puzzle, answer: Minimality | Reduction) -> dict[str, Any]:
    """One JSON Lines record: `minimal`, `redundant` (cells, e.g. "r1c1"), `redundant_rules`;
    with --reduce, `reduced` (the puzzle as a line, or a document) and what was `removed`."""
    verdict = answer.verdict if isinstance(answer, Reduction) else answer
    unique = verdict.status is Status.UNIQUE
    record: dict[str, Any] = {"index": index, "status": verdict.status.value}
    if isinstance(answer, Reduction):
        removals = answer.removals()
        record["reduced"] = _reduced_form(answer.puzzle, as_json=True)
        record["removed"] = [
            cell_name(items.givens[k][0]) for items, k in removals if k < len(items.givens)
        ]
        record["removed_rules"] = [
            items.instances[k - len(items.givens)].to_json()
            for items, k in removals
            if k >= len(items.givens)
        ]
        record["givens"] = answer.puzzle.givens.count_filled()
    else:
        record["minimal"] = verdict.minimal
        record["redundant"] = [cell_name(c) for c in verdict.redundant_givens] if unique else None
        record["redundant_rules"] = (
            [i.to_json() for i in verdict.redundant_instances] if unique else None
        )
        record["givens"] = puzzle.givens.count_filled()
        record["rule_instances"] = len(verdict.items.instances) if unique else None
    record["backend"] = verdict.backend
    record["time_s"] = round(
        float(verdict.stats.get("time_s", verdict.stats.get("verdict_s", 0))), 6
    )
    record["stats"] = {
        k: round(v, 6) if isinstance(v, float) else v for k, v in verdict.stats.items()
    }
    if puzzle.origin:
        record["source"] = puzzle.origin
    if puzzle.title:
        record["title"] = puzzle.title
    return record


def render_minimal(index: int, puzzle: Puzzle, answer: Minimality | Reduction) -> str:
    """`# puzzle N: <verdict>` lines; --reduce adds the minimal puzzle in the input's layout."""
    verdict = answer.verdict if isinstance(answer, Reduction) else answer
    header = f"# puzzle {index + 1}"
    if puzzle.title:
        header += f" ({puzzle.title})"
    status = verdict.status
    if status is Status.MULTIPLE:
        return (
            f"{header}: multiple solutions: not minimal (minimality is defined for unique puzzles)"
        )
    if status is Status.UNSATISFIABLE:
        return f"{header}: unsatisfiable: no solution, so not minimal"
    if status is Status.UNKNOWN:
        why = verdict.stats.get("stopped", "stopped")
        return f"{header}: unknown ({why} before minimality was settled)"
    if isinstance(answer, Reduction):
        removed = ", ".join(items.name(k) for items, k in answer.removals()) or "nothing"
        lines = [
            f"{header}: unique; reduced to a minimal puzzle of "
            f"{plural(answer.puzzle.givens.count_filled(), 'given')}",
            f"# removed: {removed}",
            _reduced_form(answer.puzzle, as_json=False),
        ]
        return "\n".join(lines)
    g = len(verdict.items.givens)
    counted = plural(g, "given")
    if verdict.items.instances:
        counted += f", {plural(len(verdict.items.instances), 'rule instance')}"
    if verdict.minimal:
        return f"{header}: unique and minimal ({counted}, each needed)"
    lines = [f"{header}: unique, not minimal ({counted}); redundant, each on its own:"]
    if verdict.redundant_givens:
        lines.append("# givens: " + " ".join(cell_name(c) for c in verdict.redundant_givens))
    for instance in verdict.redundant_instances:
        lines.append(f"# rule: {instance.label}")
    return "\n".join(lines)


def _reduced_form(puzzle: Puzzle, *, as_json: bool) -> Any:
    """A puzzle with rules or regions as a document; a classic one in its own layout."""
    if puzzle.rules or puzzle.shape.is_jigsaw or puzzle.layout == "document":
        document = puzzle_document(puzzle)
        return document if as_json else json.dumps(document, indent=2)
    if puzzle.layout == "line" or as_json:
        return format_line(puzzle.givens, puzzle.symbols)
    try:
        return format_as_read(puzzle.givens, puzzle)
    except PuzzleError:
        return format_line(puzzle.givens, puzzle.symbols)
