"""Reading and writing puzzles in every format of FORMATS.md, with format auto-detection."""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from satsudoku.errors import PuzzleError
from satsudoku.io.datasets import DATASET_FORMATS, iter_dataset, looks_like_killer
from satsudoku.io.document import puzzle_from_document
from satsudoku.io.fpuzzles import is_fpuzzles_document, iter_fpuzzles, looks_like_fpuzzles
from satsudoku.io.leetcode import format_board, puzzles_from_json_list
from satsudoku.io.text import ReadOptions, iter_text_puzzles, parse_line
from satsudoku.io.writers import (
    format_as_read,
    format_document,
    format_grid,
    format_line,
    format_rows,
    puzzle_document,
)
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule

FORMATS = ("auto", "line", "grid", "leetcode", "json", "toml", "fpuzzles", *DATASET_FORMATS)

__all__ = [
    "FORMATS",
    "ReadOptions",
    "format_as_read",
    "format_board",
    "format_document",
    "format_grid",
    "format_line",
    "format_rows",
    "iter_puzzles",
    "parse_line",
    "puzzle_document",
    "read_puzzles",
    "read_text",
    "with_rules",
]


def iter_puzzles(
    path: str | Path,
    *,
    fmt: str = "auto",
    box: tuple[int, int] | None = None,
    symbols: str | None = None,
    rules: Sequence[str] = (),
) -> Iterator[Puzzle]:
    """Stream the puzzles of a file (or `-` for standard input), each with the parameterless
    rule types in `rules` added (what `--rule` does on the command line)."""
    if rules:
        for puzzle in iter_puzzles(path, fmt=fmt, box=box, symbols=symbols):
            yield with_rules(puzzle, rules)
        return
    source = "<stdin>" if str(path) == "-" else str(path)
    options = ReadOptions(box=box, symbols=symbols, source=source)
    if fmt == "auto" and source.endswith(".toml"):
        fmt = "toml"
    if fmt == "auto" and source.endswith(".json"):
        fmt = "json"
    if fmt in ("auto", "fpuzzles") and looks_like_fpuzzles(source):  # a link or string, no file
        yield from iter_fpuzzles(source, options)
        return
    if str(path) == "-":
        yield from _iter_stream(sys.stdin, fmt, options)
        return
    try:
        handle = open(path, encoding="utf-8-sig")  # noqa: SIM115 - closed by the with below
    except FileNotFoundError:
        raise PuzzleError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise PuzzleError(f"{source}: is a directory, not a puzzle file") from None
    except OSError as exc:
        raise PuzzleError(f"{source}: cannot read ({exc.strerror})") from None
    with handle:
        try:
            yield from _iter_stream(handle, fmt, options)
        except UnicodeDecodeError as exc:
            raise PuzzleError(f"{source}: not a UTF-8 text file ({exc.reason})") from None


def read_puzzles(path: str | Path, **kwargs: object) -> list[Puzzle]:
    return list(iter_puzzles(path, **kwargs))  # type: ignore[arg-type]


def read_text(
    text: str,
    *,
    fmt: str = "auto",
    box: tuple[int, int] | None = None,
    symbols: str | None = None,
    source: str | None = None,
    rules: Sequence[str] = (),
) -> list[Puzzle]:
    """Parse puzzles from a string (the same detection as files), `rules` added to each."""
    options = ReadOptions(box=box, symbols=symbols, source=source)
    puzzles = _iter_stream(iter(text.splitlines(keepends=True)), fmt, options)
    return [with_rules(puzzle, rules) for puzzle in puzzles]


def with_rules(puzzle: Puzzle, types: Sequence[str]) -> Puzzle:
    """The puzzle with parameterless rules of these types added (e.g. `diagonal`)."""
    if not types:
        return puzzle
    extra = tuple(make_rule({"type": name}, puzzle.shape) for name in types)
    return replace(puzzle, rules=puzzle.rules + extra)


def _iter_stream(lines: Iterable[str], fmt: str, options: ReadOptions) -> Iterator[Puzzle]:
    if fmt not in FORMATS:
        raise PuzzleError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
    if fmt in DATASET_FORMATS:
        yield from iter_dataset(lines, fmt, options)
        return
    iterator = iter(lines)
    head: list[str] = []
    first = ""
    for line in iterator:  # peek at the first meaningful line to detect the format
        head.append(line)
        if line.strip() and not line.lstrip().startswith("#"):
            first = line.lstrip()
            break
    if fmt == "fpuzzles" or (fmt == "auto" and looks_like_fpuzzles(first)):
        yield from iter_fpuzzles("".join(head) + "".join(iterator), options)
        return
    if fmt == "auto" and looks_like_killer(first):
        yield from iter_dataset(_chain(head, iterator), "killer", options)
        return
    if fmt == "auto":
        if first.startswith("["):
            fmt = "leetcode"
        elif first.startswith("{"):
            fmt = "json"
        elif not first and not head:
            raise PuzzleError(f"{options.source or '<input>'}: empty input, no puzzle found")
    if fmt in ("leetcode", "json", "toml"):
        puzzles = _structured("".join(head) + "".join(iterator), fmt, options)
    else:
        puzzles = iter_text_puzzles(_chain(head, iterator), options, fmt)
    count = 0
    for puzzle in puzzles:
        count += 1
        yield puzzle
    if count == 0:  # `[]`, `{"puzzles": []}` and comment-only text alike
        raise PuzzleError(f"{options.source or '<input>'}: no puzzle found")


def _chain(head: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from head
    yield from rest


def _structured(text: str, fmt: str, options: ReadOptions) -> Iterator[Puzzle]:
    source = options.source or "<input>"
    if fmt == "toml":
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise PuzzleError(f"{source}: invalid TOML: {exc}") from None
        yield puzzle_from_document(doc, options)
        return
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PuzzleError(
            f"invalid JSON: {exc.msg}", source=source, line=exc.lineno, column=exc.colno
        ) from None
    if is_fpuzzles_document(value):
        yield from iter_fpuzzles(text, options)
    elif isinstance(value, list):
        yield from puzzles_from_json_list(value, options, text)
    elif isinstance(value, dict) and isinstance(value.get("puzzles"), list):
        for doc in value["puzzles"]:
            yield puzzle_from_document(doc, options)
    else:
        yield puzzle_from_document(value, options)
