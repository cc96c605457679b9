"""How much of a real SudokuPad corpus satsudoku reads, and that it never reads one wrongly.

Run: python benchmarks/sudokupad_corpus.py [--corpus PATH] [--backend sat] [--timeout S] [-v]
                                           [--lines FILE]

The corpus is SakanaAI's Sudoku-Bench `challenge_100` (MIT): files `puzzle_NNNN.json` holding
`encoded_puzzle` (a SudokuPad `scl…` payload or f-puzzles data), `rules` and the published
`solution`. PATH is a folder of those files or a git directory holding them (the mirror of
Hubiele/Sudoku-Bench, read with `git show`). Each puzzle is imported and, when read, solved:

  solved     read; unique, and equal to the published solution
  WRONG      read, but unsat, unique with another grid, or the published grid breaks a rule
             read (a bug: the exit status is then 1)
  incomplete read; several solutions, the published one among them: the rules text carries a
             rule no picture holds (when it names a global rule, solved again with --rule)
  refused    not read: drawings whose meaning only the rules text gives (keys counted), a
             stored solution breaking a rule read, or a key SudokuPad's format has and we lack
  unknown    read; no verdict within the time limit

--lines FILE gives some puzzles the `--line COLOUR=TYPE` (and `--cell`, `--unique-cages`,
`--negative`) options a user would type after reading their rules text
(benchmarks/sudokupad_corpus_lines.txt: `puzzle_NNNN [--cell SPEC] [--unique-cages]
[--negative KIND] LINE-SPEC ...`, '# ' starts a comment).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from satsudoku.backends import get_backend
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid
from satsudoku.io import read_text
from satsudoku.io.painted import parse_paint_type
from satsudoku.io.sudokupad import global_rules_named, negatives_named
from satsudoku.io.sudokupad_lines import parse_cell_type, parse_line_type
from satsudoku.result import Status
from satsudoku.verify import violations

REPO = Path(__file__).resolve().parent.parent
MIRROR = REPO.parent / ".mirror" / "Hubiele+Sudoku-Bench" / "repo"
FOLDER = "Sudoku-Bench_json_conversion/challenge/"
DRAWN = re.compile(r"drawings whose meaning is in the rules text: ([^;(]*[^;( ])")


def corpus(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(name, entry) for every puzzle file, from a folder or a git directory."""
    for name, text in json_files(path, FOLDER, "puzzle_*.json"):
        yield name, json.loads(text)


def json_files(path: Path, folder: str, pattern: str) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of every file matching `pattern` in the folder `path`, or else of every
    file under `folder` in the git directory `path` (a bare mirror, read with `git show`)."""
    if path.is_dir() and any(path.glob(pattern)):
        for file in sorted(path.glob(pattern)):
            yield file.stem, file.read_bytes()
        return
    git = ["git", "--git-dir", str(path)]
    listed = subprocess.run(
        [*git, "ls-tree", "-r", "--name-only", "HEAD", folder], capture_output=True, text=True
    )
    names = listed.stdout.split()
    if not names:
        raise SystemExit(f"{path}: no {pattern} files, nor a git directory holding {folder}")
    for name in sorted(names):
        show = subprocess.run([*git, "show", f"HEAD:{name}"], check=True, capture_output=True)
        yield Path(name).stem, show.stdout


def typed_options(path: Path | None) -> dict[str, dict[str, Any]]:
    """Puzzle name → read_text's --line/--cell/--unique-cages/--negative/--outside/--cage/
    --paint/--ignore-drawings arguments, from a file of `NAME [--cell SPEC] [--unique-cages]
    [--negative KIND] [--outside TYPE] [--cage TYPE] [--paint SPEC] [--ignore-drawings]
    [LINE-SPEC] ...` lines (a bare SPEC is a --line; several lines for one puzzle add up)."""
    if path is None:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for raw in path.read_text().splitlines():
        words = re.split(r"(?:^|\s)#(?:\s|$)", raw)[0].split()  # '# ' starts a comment
        if len(words) < 2:
            continue
        typed = out.setdefault(
            words[0], {"lines": [], "cells": [], "unique_cages": False, "negative": []}
        )
        rest = iter(words[1:])
        for word in rest:
            if word == "--unique-cages":
                typed["unique_cages"] = True
            elif word == "--ignore-drawings":
                typed["ignore_drawings"] = True
            elif word == "--cell":
                typed["cells"].append(parse_cell_type(next(rest)))
            elif word == "--negative":
                typed["negative"].append(next(rest))
            elif word == "--outside":
                typed["outside"] = next(rest)
            elif word == "--cage":
                typed["cage"] = next(rest)
            elif word == "--paint":
                typed.setdefault("paints", []).append(parse_paint_type(next(rest)))
            else:
                typed["lines"].append(parse_line_type(word))
    return out


def classify(
    entry: dict[str, Any], backend: str, timeout: float, typed: dict[str, Any] | None = None
) -> tuple[str, str]:
    """(class, detail) for one corpus entry; see the module docstring. `typed`: the --line,
    --cell and --unique-cages its rules text calls for, as read_text takes them."""
    published = str(entry.get("solution") or "")  # '0' or '.': a cell the solution leaves open
    typed = typed or {}
    try:
        (puzzle,) = read_text(str(entry["encoded_puzzle"]), **typed)
    except PuzzleError as exc:
        drawn = DRAWN.search(str(exc))
        return "refused", (f"drawings: {drawn.group(1)}" if drawn else str(exc))
    size = puzzle.shape.size
    whole = len(published) == size * size and not set(published) & set("0.")
    broken = violations(puzzle, Grid(size, tuple(int(ch) for ch in published))) if whole else []
    result = get_backend(backend).solve(puzzle, limit=2, timeout=timeout)
    kinds = ",".join(sorted({rule.to_spec()["type"] for rule in puzzle.rules})) or "classic"
    if broken or result.status is Status.UNSATISFIABLE:
        return "WRONG", f"{kinds}: {broken[0] if broken else 'no solution'}"
    if result.status is Status.UNIQUE:
        digits = "".join(map(str, result.solution.values)) if result.solution else ""
        if not published:
            return "solved", f"{kinds} (no stored solution)"
        same = len(digits) == len(published) and all(
            want in "0." or want == got for want, got in zip(published, digits, strict=True)
        )
        return ("solved", kinds) if same else ("WRONG", f"{kinds}: another grid")
    if result.status is Status.MULTIPLE:
        text = str(entry.get("rules", ""))
        named = global_rules_named(text)
        negative = [k for k in negatives_named(text) if k not in typed.get("negative", ())]
        if not named and not negative:
            return "incomplete", f"{kinds}; the rules text names no global rule"
        more = {**typed, "negative": [*typed.get("negative", ()), *negative]}
        (ruled,) = read_text(str(entry["encoded_puzzle"]), rules=named, **more)
        again = get_backend(backend).solve(ruled, limit=2, timeout=timeout)
        digits = "".join(map(str, again.solution.values)) if again.solution else ""
        verdict = "solved" if again.status is Status.UNIQUE and digits == published else "not"
        options = [f"--rule {name}" for name in named] + [f"--negative {k}" for k in negative]
        return "incomplete", f"{kinds}; with {' '.join(options)}: {verdict}"
    return "unknown", f"{kinds}: {result.status.value}"


def corpus_parser(doc: str, mirror: Path, timeout: float) -> argparse.ArgumentParser:
    """The options both corpus scripts take: where the corpus is, the backend and its time
    limit, one line per puzzle, and the options a user types per puzzle (--lines FILE)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=mirror)
    parser.add_argument("--backend", default="sat")
    parser.add_argument("--timeout", type=float, default=timeout)
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per puzzle")
    parser.add_argument(
        "--lines", type=Path, help="options per puzzle, as a user reads its rules text (see above)"
    )
    return parser


def main() -> int:
    args = corpus_parser(__doc__, MIRROR, 20.0).parse_args()
    typed = typed_options(args.lines)
    counts: Counter[str] = Counter()
    keys: Counter[str] = Counter()
    start = time.perf_counter()
    for name, entry in corpus(args.corpus):
        kind, detail = classify(entry, args.backend, args.timeout, typed.get(name))
        counts[kind] += 1
        if kind == "refused" and detail.startswith("drawings: "):
            for part in detail.removeprefix("drawings: ").split(", "):
                keys[part.split(" ×")[0]] += 1
        if args.verbose or kind == "WRONG":
            print(f"{name}  {kind:<10}  {str(entry.get('title', ''))[:30]:<30}  {detail[:110]}")
    seconds = f"{time.perf_counter() - start:.1f} s"
    return summary(counts, seconds, "refused for drawings under: ", keys, ", ")


def summary(
    counts: Counter[str], seconds: str, refused_as: str, refused: Counter[str], joint: str
) -> int:
    """Print the totals by class and the refusals by reason; the exit status (1 on WRONG)."""
    total = sum(counts.values())
    order = ("solved", "incomplete", "refused", "unknown", "WRONG")
    print(f"{total} puzzles in {seconds}: " + ", ".join(f"{k} {counts[k]}" for k in order))
    print(refused_as + joint.join(f"{k} {n}" for k, n in refused.most_common()))
    return 1 if counts["WRONG"] else 0


if __name__ == "__main__":
    sys.exit(main())
