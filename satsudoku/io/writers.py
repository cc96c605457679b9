"""Writers: a grid as one line, as rows, as a pretty grid with box borders, as a puzzle document,
or in the layout its puzzle was read in (FORMATS.md §3)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from satsudoku.grid import Grid, Shape
from satsudoku.io.leetcode import format_board
from satsudoku.puzzle import Puzzle
from satsudoku.symbols import Alphabet


def format_line(grid: Grid, alphabet: Alphabet, blank: str | None = None) -> str:
    """Row-major symbols on one line, `.` blank; numbers are space-separated, `0` blank."""
    symbols = _symbols(alphabet, blank or alphabet.blank)
    translation = _byte_table(symbols)
    if translation is not None:  # one C call for the whole grid: the hot path of `solve --json`
        table, unwritable = translation
        try:
            line = bytes(grid.values).translate(table).decode("latin-1")
        except ValueError:  # a value bytes() refuses (outside 0..255): refused below
            line = unwritable
        if unwritable not in line:
            return line
    separator = " " if alphabet.is_numeric else ""
    return separator.join(map(symbols.__getitem__, _checked(grid.values, symbols)))


def format_rows(
    grid: Grid, alphabet: Alphabet, separator: str = "", blank: str | None = None
) -> str:
    """One row per line without borders: `483921657`, or judge rows `4 8 3 …` / `12 5 3 …`."""
    symbols = _symbols(alphabet, blank or alphabet.blank)
    _checked(grid.values, symbols)
    separator = separator or (" " if alphabet.is_numeric else "")  # numbers need a separator
    return "\n".join(separator.join(map(symbols.__getitem__, row)) for row in grid.rows())


@lru_cache(maxsize=64)
def _symbols(alphabet: Alphabet, blank: str) -> tuple[str, ...]:
    """Each digit's symbol, indexed by the digit (0: `blank`), built once per alphabet."""
    count = alphabet.numbers or len(alphabet.symbols)
    return (blank, *(alphabet.symbol(digit) for digit in range(1, count + 1)))


@lru_cache(maxsize=64)
def _byte_table(symbols: tuple[str, ...]) -> tuple[bytes, str] | None:
    """`symbols` as a bytes.translate table (digit byte -> symbol byte) that turns every other
    byte into a character no symbol uses, and that character; None unless each symbol is one
    Latin-1 character (numbers, wider characters)."""
    if len(symbols) >= 256 or any(len(s) != 1 or ord(s) > 255 for s in symbols):
        return None
    unwritable = next(chr(code) for code in range(256) if chr(code) not in symbols)
    written = "".join(symbols) + unwritable * (256 - len(symbols))
    return written.encode("latin-1"), unwritable


def _checked(values: tuple[int, ...], symbols: tuple[str, ...]) -> tuple[int, ...]:
    """`values`, after making sure each has a symbol (a digit past the alphabet is a bug)."""
    if values and (min(values) < 0 or max(values) >= len(symbols)):
        bad = next(v for v in values if not 0 <= v < len(symbols))
        raise ValueError(f"digit {bad} has no symbol (0..{len(symbols) - 1} can be written)")
    return values


def format_grid(grid: Grid, shape: Shape, alphabet: Alphabet, blank: str | None = None) -> str:
    """Rows of space-separated symbols with `|` and `+` box borders (none for jigsaw shapes)."""
    blank = blank or alphabet.blank
    n = grid.size
    width = max(len(alphabet.symbol(d)) for d in range(1, n + 1))
    boxed = not shape.is_jigsaw and shape.box_cols < n
    lines: list[str] = []
    for r, row in enumerate(grid.rows()):
        if boxed and r and r % shape.box_rows == 0:
            lines.append(_rule(shape, width))
        cells = [alphabet.symbol(v, blank).rjust(width) for v in row]
        if boxed:
            groups = [" ".join(cells[c : c + shape.box_cols]) for c in range(0, n, shape.box_cols)]
            lines.append(" | ".join(groups))
        else:
            lines.append(" ".join(cells))
    return "\n".join(lines)


def _rule(shape: Shape, width: int) -> str:
    """The border line between box bands, e.g. '------+-------+------'."""
    n = shape.size
    group = (width + 1) * shape.box_cols - 1
    segments = ["-" * (group + 1)] + ["-" * (group + 2)] * (n // shape.box_cols - 2)
    segments.append("-" * (group + 1))
    return "+".join(segments) if n // shape.box_cols > 1 else "-" * group


def _as_line(grid: Grid, puzzle: Puzzle) -> str:
    return format_line(grid, puzzle.symbols)


def _as_rows(grid: Grid, puzzle: Puzzle) -> str:
    return format_rows(grid, puzzle.symbols)


def _as_spaced_rows(grid: Grid, puzzle: Puzzle) -> str:
    return format_rows(grid, puzzle.symbols, " ")


def _as_board(grid: Grid, puzzle: Puzzle) -> str:
    return format_board(grid, puzzle.symbols)


def _as_grid(grid: Grid, puzzle: Puzzle) -> str:
    return format_grid(grid, puzzle.shape, puzzle.symbols)


_LAYOUT_WRITERS: dict[str, Callable[[Grid, Puzzle], str]] = {
    "line": _as_line,
    "rows": _as_rows,
    "spaced-rows": _as_spaced_rows,
    "leetcode": _as_board,
    "grid": _as_grid,
}


def format_as_read(grid: Grid, puzzle: Puzzle) -> str:
    """`grid` in the layout `puzzle` was read in (documents: a pretty grid), so it reads back."""
    return _LAYOUT_WRITERS.get(puzzle.layout, _as_grid)(grid, puzzle)


def puzzle_document(puzzle: Puzzle, solution: Grid | None = None) -> dict[str, Any]:
    """The puzzle as a FORMATS.md §2 document (JSON/TOML-ready), round-trippable."""
    symbols = puzzle.symbols
    doc: dict[str, Any] = {}
    if puzzle.title:
        doc["title"] = puzzle.title
    for name, text in (("source", puzzle.source), ("notes", puzzle.notes)):
        if text:
            doc[name] = text
    doc["size"] = puzzle.size
    if puzzle.shape.is_jigsaw:
        labels = puzzle.shape.region_labels
        n = puzzle.size
        doc["regions"] = ["".join(labels[r * n : (r + 1) * n]) for r in range(n)]
    else:
        doc["box"] = [puzzle.shape.box_rows, puzzle.shape.box_cols]
    if symbols.name == "custom":
        doc["symbols"] = symbols.symbols
    doc["givens"] = format_line(puzzle.givens, symbols)
    doc["rules"] = [rule.to_spec() for rule in puzzle.rules]
    known = solution or puzzle.solution
    if known is not None:
        doc["solution"] = format_line(known, symbols)
    return doc


def format_document(puzzle: Puzzle, solution: Grid | None = None) -> str:
    return json.dumps(puzzle_document(puzzle, solution), indent=2)
