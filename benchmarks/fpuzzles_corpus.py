"""How much of Nickleaton/sudoku's published f-puzzles files satsudoku reads, and that it never
reads one wrongly.

Run: python benchmarks/fpuzzles_corpus.py [--corpus PATH] [--backend sat] [--check cpsat]
                                          [--timeout S] [-v] [--lines FILE]

The corpus is Nickleaton/sudoku (MIT): 615 files `problems/fpuzzles/goodjson/*.json`, each
`{"data": <f-puzzles object>, "url": …}`; 200 of the objects carry f-puzzles' own `solution`
(a list of digits, 0 for a cell it leaves open). PATH is a folder of those files or a git
directory holding them (the mirror, read with `git show`). The object is read as satsudoku reads
f-puzzles data (`read_text`), *without* its `solution` (the reader would refuse a puzzle whose
solution breaks a rule read; here that is a WRONG: without the solution the answer would be
another puzzle's), and classified by sudokupad_corpus.classify: solved, WRONG, incomplete,
refused, unknown. `--check BACKEND` solves every puzzle solved without a stored solution on a
second backend too; a different verdict or grid is a WRONG. The exit status is 1 on any WRONG.
Refusals are ranked by reason: the drawing keys, or the message with its numbers taken out.
`--lines FILE` (benchmarks/fpuzzles_corpus_lines.txt) gives files the options a user types
after reading their rules texts (`--outside TYPE`, `--line`, `--cell`, …), in the format of
sudokupad_corpus.py's.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sudokupad_corpus import DRAWN, classify, corpus_parser, json_files, summary, typed_options

from satsudoku.backends import get_backend
from satsudoku.io import read_text
from satsudoku.result import Status

REPO = Path(__file__).resolve().parent.parent
MIRROR = REPO.parent / ".mirror" / "Nickleaton+sudoku" / "repo"
FOLDER = "problems/fpuzzles/goodjson/"


def corpus(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(name, f-puzzles object) for every file, from a folder or a git directory."""
    for name, text in json_files(path, FOLDER, "*.json"):
        yield name, json.loads(text)["data"]


def entry_of(data: dict[str, Any]) -> dict[str, Any]:
    """The f-puzzles object as a sudokupad_corpus entry: the puzzle without its solution, the
    solution as a digit string ('0' open), the rules text."""
    puzzle = {key: value for key, value in data.items() if key != "solution"}
    solution = data.get("solution")
    digits = "".join(str(d) for d in solution) if isinstance(solution, list) else ""
    return {"encoded_puzzle": json.dumps(puzzle), "solution": digits, "rules": data.get("ruleset")}


def reasons(detail: str) -> list[str]:
    """What a refusal is for: each drawing key, else the message with cells and numbers out."""
    drawn = DRAWN.search(detail)
    if detail.startswith("drawings: ") or drawn:
        listed = drawn.group(1) if drawn else detail.removeprefix("drawings: ")
        return [part.split(" ×")[0] for part in listed.split(", ")]
    return [re.sub(r"\b[rR]\d+[cC]\d+\b|\d+", "#", detail)[:100]]


def checked(
    entry: dict[str, Any], backend: str, timeout: float, first: str, typed: dict[str, Any]
) -> str | None:
    """Why a second backend disagrees with `first`'s unique grid, or None when it agrees."""
    (puzzle,) = read_text(entry["encoded_puzzle"], **typed)
    first_grid = get_backend(first).solve(puzzle, limit=2, timeout=timeout).solution
    again = get_backend(backend).solve(puzzle, limit=2, timeout=timeout)
    if again.status is Status.UNKNOWN:
        return None
    if again.status is not Status.UNIQUE or again.solution != first_grid:
        return f"{backend}: {again.status.value}"
    return None


def main() -> int:
    parser = corpus_parser(__doc__, MIRROR, 10.0)
    parser.add_argument("--check", help="a second backend for puzzles with no stored solution")
    args = parser.parse_args()
    typed = typed_options(args.lines)
    counts: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    start = time.process_time()
    for name, data in corpus(args.corpus):
        entry = entry_of(data)
        options = typed.get(name, {})
        kind, detail = classify(entry, args.backend, args.timeout, options)
        if args.check and kind == "solved" and not entry["solution"]:
            differs = checked(entry, args.check, args.timeout, args.backend, options)
            if differs:
                kind, detail = "WRONG", f"{detail}; {differs}"
        counts[kind] += 1
        if kind == "refused":
            refused.update(reasons(detail))
        if args.verbose or kind == "WRONG":
            title = str(data.get("title", ""))[:30]
            print(f"{name}  {kind:<10}  {title:<30}  {detail[:110]}")
    seconds = f"{time.process_time() - start:.1f} s CPU"
    return summary(counts, seconds, "refused for: ", refused, "; ")


if __name__ == "__main__":
    sys.exit(main())
