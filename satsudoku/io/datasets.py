"""Readers for the shared variant collections: killer lines `CAGES SUMS SOLUTION` and jigsaw
lines `PUZZLE REGIONS SOLUTION` (formats in ../shared/data/SOURCES.md)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace

from satsudoku.errors import PuzzleError
from satsudoku.grid import MAX_SIZE, Cell, Grid, Shape
from satsudoku.io.document import check_solution
from satsudoku.io.limits import MAX_INT_DIGITS
from satsudoku.io.text import ReadOptions, is_number, make_shape
from satsudoku.puzzle import Puzzle
from satsudoku.rules.sums import Cage, Killer

DATASET_FORMATS = ("killer", "jigsaw")
_SUMS = re.compile(r"[0-9]+(,[0-9]+)*")  # ASCII: '\d' would take '١' and '²' too


def looks_like_killer(line: str) -> bool:
    """A killer collection line: n² cage labels with letters among them, then the sums.

    Safe to detect: three fields, letters among the labels, exactly one comma-separated total
    per label and a solution (or '-'), which a puzzle line with trailing ratings does not
    have. (Jigsaw lines are not guessed: their region labels look like a solution grid.)
    """
    fields = line.split()
    if len(fields) != 3 or not _SUMS.fullmatch(fields[1]):
        return False
    labels, _, solution = fields
    n = math.isqrt(len(labels))
    cages = set(labels) - {"."}
    return (
        n >= 4
        and n * n == len(labels)
        and any(ch.isalpha() for ch in labels)
        and len(cages) == fields[1].count(",") + 1  # one total per cage
        and (solution == "-" or (len(solution) == n * n and is_number(solution)))
    )


def iter_dataset(
    lines: Iterable[str], fmt: str, options: ReadOptions, start: int = 1
) -> Iterator[Puzzle]:
    """One puzzle per non-blank, non-comment line; errors carry the file and line (the first
    line being number `start`)."""
    parse = parse_killer if fmt == "killer" else parse_jigsaw
    source = options.source or "<input>"
    count = 0
    for lineno, line in enumerate(lines, start=start):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            puzzle = parse(text, options)
        except PuzzleError as exc:
            raise exc.at(source, lineno) from None
        count += 1
        yield Puzzle(
            puzzle.shape,
            puzzle.givens,
            puzzle.rules,
            layout="line",
            solution=puzzle.solution,
            origin=f"{source}:{lineno}",
        )
    if count == 0:
        raise PuzzleError(f"{source}: no {fmt} puzzle found")


def _fields(text: str, names: str) -> list[str]:
    fields = text.split()
    if len(fields) != 3:
        raise PuzzleError(f"expected three fields {names}, found {len(fields)}")
    return fields


def _side(length: int, what: str) -> int:
    n = math.isqrt(length)
    if n * n != length or not 4 <= n <= MAX_SIZE:
        raise PuzzleError(
            f"{what} has {length} characters, not n*n for a board of 4 <= n <= {MAX_SIZE}"
        )
    return n


def _solution(text: str, n: int) -> Grid | None:
    if text == "-":
        return None
    if len(text) != n * n or not is_number(text) or any(not 1 <= int(ch) <= n for ch in text):
        raise PuzzleError(f"solution must be {n * n} digits 1..{n} or '-'")
    return Grid(n, tuple(int(ch) for ch in text))


def parse_killer(text: str, options: ReadOptions | None = None) -> Puzzle:
    """`CAGES SUMS SOLUTION`: cage symbols per cell ('.' none), totals by first appearance
    (0 = no total), and the solution or '-'."""
    cages_text, sums_text, solution_text = _fields(text, "CAGES SUMS SOLUTION")
    n = _side(len(cages_text), "CAGES")
    cells: dict[str, list[Cell]] = {}
    for index, symbol in enumerate(cages_text):
        if symbol != ".":
            cells.setdefault(symbol, []).append(divmod(index, n))
    if not _SUMS.fullmatch(sums_text):
        raise PuzzleError(f"SUMS must be comma-separated integers, not {sums_text!r}")
    if len(longest := max(sums_text.split(","), key=len)) > MAX_INT_DIGITS:
        raise PuzzleError(f"SUMS: a number of {len(longest)} digits (at most {MAX_INT_DIGITS})")
    totals = [int(t) for t in sums_text.split(",")]
    if len(totals) != len(cells):
        raise PuzzleError(f"{len(cells)} cages but {len(totals)} sums")
    cages = tuple(
        Cage(tuple(group), total or None)
        for group, total in zip(cells.values(), totals, strict=True)
    )
    for symbol, group in cells.items():
        if len(group) > n:
            raise PuzzleError(f"cage {symbol!r} has {len(group)} cells, more than {n}")
    shape = make_shape(n, options.box if options else None)
    return _with_solution(
        Puzzle(shape, Grid.empty(n), (Killer(cages),)), _solution(solution_text, n)
    )


def parse_jigsaw(text: str, options: ReadOptions | None = None) -> Puzzle:
    """`PUZZLE REGIONS SOLUTION`: givens ('.' blank), a region label per cell, the solution."""
    givens_text, regions_text, solution_text = _fields(text, "PUZZLE REGIONS SOLUTION")
    n = _side(len(givens_text), "PUZZLE")
    if len(regions_text) != n * n:
        raise PuzzleError(f"REGIONS has {len(regions_text)} labels, expected {n * n}")
    shape = Shape.jigsaw([list(regions_text[r * n : (r + 1) * n]) for r in range(n)])
    values = []
    for index, ch in enumerate(givens_text):
        if ch in ".0":
            values.append(0)
        elif is_number(ch):
            values.append(int(ch))
        else:
            r, c = divmod(index, n)
            raise PuzzleError(f"PUZZLE: {ch!r} at r{r + 1}c{c + 1} is not a digit or '.'")
    return _with_solution(Puzzle(shape, Grid(n, tuple(values))), _solution(solution_text, n))


def _with_solution(puzzle: Puzzle, solution: Grid | None) -> Puzzle:
    """The puzzle carrying its SOLUTION field, once checked against the givens and rules."""
    if solution is None:
        return puzzle
    check_solution(puzzle, solution, "SOLUTION")
    return replace(puzzle, solution=solution)
