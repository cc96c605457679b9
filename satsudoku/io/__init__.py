"""Reading and writing puzzles in every format of FORMATS.md, with format auto-detection."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from io import BytesIO
from pathlib import Path

from satsudoku.errors import PuzzleError
from satsudoku.io.added_rules import NEGATIVE_KINDS, with_rules
from satsudoku.io.datasets import DATASET_FORMATS, iter_dataset, looks_like_killer
from satsudoku.io.document import puzzle_from_document
from satsudoku.io.fpuzzles import is_fpuzzles_document, iter_fpuzzles, looks_like_fpuzzles
from satsudoku.io.leetcode import format_board, puzzles_from_json_list
from satsudoku.io.limits import load_json, load_toml
from satsudoku.io.painted import PaintType
from satsudoku.io.source import InputText, Notify, open_input
from satsudoku.io.sudokupad import is_sudokupad_document, iter_sudokupad, looks_like_sudokupad
from satsudoku.io.sudokupad_lines import CellType, LineType, refuse_clashing_styles
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

FORMATS = (
    "auto",
    "line",
    "grid",
    "leetcode",
    "json",
    "toml",
    "fpuzzles",
    "sudokupad",
    *DATASET_FORMATS,
)

__all__ = [
    "FORMATS",
    "NEGATIVE_KINDS",
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
    notify: Notify | None = None,
    ignore_drawings: bool = False,
    lines: Sequence[LineType] = (),
    cells: Sequence[CellType] = (),
    unique_cages: bool = False,
    negative: Sequence[str] = (),
    outside: str | None = None,
    cage: str | None = None,
    paints: Sequence[PaintType] = (),
) -> Iterator[Puzzle]:
    """Stream the puzzles of a file (or `-` for standard input), each with the parameterless
    rule types in `rules` added (what `--rule` does on the command line) and the negative
    constraint of the mark kinds in `negative` (`--negative`: white, black, x, v); `outside`
    names the clue type of numbers written beside the grid (`--outside`), `cage` what the text
    of a cage that is no killer cage says (`--cage`), `paints` what painted cells are
    (`--paint`).

    `notify` receives one-line notices: reading is about to wait for a person or a process
    (a terminal on standard input, a named pipe nobody writes to yet), or the input is read
    but looks meant otherwise (a jigsaw layout after a classic line); without it the latter
    go to Python's `warnings`.
    """
    refuse_clashing_styles(lines, cells)
    source = "<stdin>" if str(path) == "-" else str(path)
    options = ReadOptions(
        box=box,
        symbols=symbols,
        source=source,
        ignore_drawings=ignore_drawings,
        notify=_once_per_warning(notify) if notify else None,
        lines=tuple(lines),
        cells=tuple(cells),
        unique_cages=unique_cages,
        outside=outside,
        cage=cage,
        paints=tuple(paints),
        added_rules=tuple(rules),
        added_negative=tuple(negative),
    )
    for puzzle in _iter_source(path, source, fmt, options, notify):
        if rules or negative:
            try:
                puzzle = with_rules(puzzle, rules, negative)
            except PuzzleError as exc:
                raise exc.at(puzzle.origin) from None
        yield puzzle


def _iter_source(
    path: str | Path, source: str, fmt: str, options: ReadOptions, notify: Notify | None
) -> Iterator[Puzzle]:
    """The puzzles as read, by format: a link or payload given as the name, standard input,
    or a file."""
    if fmt == "auto" and source.endswith(".toml"):
        fmt = "toml"
    if fmt == "auto" and source.endswith(".json"):
        fmt = "json"
    if fmt in ("auto", "fpuzzles") and looks_like_fpuzzles(source):  # a link or string, no file
        yield from iter_fpuzzles(source, options)
        return
    if fmt in ("auto", "sudokupad") and looks_like_sudokupad(source):
        yield from iter_sudokupad(source, options)
        return
    if str(path) == "-":
        raw = getattr(sys.stdin, "buffer", None)
        if raw is None:  # a text stream put in place of stdin (tests, embedding programs)
            raw = BytesIO(sys.stdin.read().encode("utf-8", "surrogatepass"))
        if notify is not None and sys.stdin.isatty():
            notify("reading puzzles from standard input (Ctrl-D to end)")
        yield from _iter_input(InputText(raw, source), fmt, options)
        return
    with open_input(str(path), source, notify) as raw:
        yield from _iter_input(InputText(raw, source), fmt, options)


def _once_per_warning(notify: Notify) -> Notify:
    """`notify`, passing each kind of warning ("warning: FILE:LINE: text") on only for the
    first line it is about."""
    said: set[str] = set()

    def say(message: str) -> None:
        kind = _WARNING_PLACE.sub("", message, count=1)
        if kind != message and kind in said:
            return
        said.add(kind)
        notify(message)

    return say


_WARNING_PLACE = re.compile(r"^warning: .*?:[0-9]+: ")


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
    lines: Sequence[LineType] = (),
    cells: Sequence[CellType] = (),
    unique_cages: bool = False,
    negative: Sequence[str] = (),
    outside: str | None = None,
    cage: str | None = None,
    paints: Sequence[PaintType] = (),
    ignore_drawings: bool = False,
) -> list[Puzzle]:
    """Parse puzzles from a string (the same detection as files), `rules` added to each and
    `negative` applied (--rule, --negative); `lines`, `cells`, `unique_cages`, `outside` and
    `cage` say what SudokuPad and f-puzzles pictures mean (--line, --cell, --unique-cages,
    --outside, --cage), `paints` what f-puzzles painted cells are (--paint);
    `ignore_drawings` solves without the drawings whose meaning only a rules text gives
    (--ignore-drawings: "normal sudoku rules apply, and that's it")."""
    refuse_clashing_styles(lines, cells)
    options = ReadOptions(
        box=box,
        symbols=symbols,
        source=source,
        ignore_drawings=ignore_drawings,
        lines=tuple(lines),
        cells=tuple(cells),
        unique_cages=unique_cages,
        outside=outside,
        cage=cage,
        paints=tuple(paints),
        added_rules=tuple(rules),
        added_negative=tuple(negative),
    )
    raw = BytesIO(text.encode("utf-8", "surrogatepass"))
    puzzles = _iter_input(InputText(raw, source or "<input>"), fmt, options)
    return [with_rules(puzzle, rules, negative) for puzzle in puzzles]


def _iter_input(src: InputText, fmt: str, options: ReadOptions) -> Iterator[Puzzle]:
    if fmt not in FORMATS:
        raise PuzzleError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
    skipped, skipped_chars, first = src.skip_to_content()  # the first line tells the format
    start = first.lstrip()
    if fmt in DATASET_FORMATS or (fmt == "auto" and looks_like_killer(start)):
        kind = fmt if fmt in DATASET_FORMATS else "killer"
        yield from iter_dataset(src.text_lines(first), kind, options, start=skipped + 1)
        return
    if fmt == "fpuzzles" or (fmt == "auto" and looks_like_fpuzzles(start)):
        text = src.document(first, skipped, skipped_chars, "f-puzzles")
        yield from iter_fpuzzles(text.strip(), options)
        return
    if fmt == "sudokupad" or (fmt == "auto" and looks_like_sudokupad(start)):
        text = src.document(first, skipped, skipped_chars, "SudokuPad")
        yield from iter_sudokupad(text.strip(), options)
        return
    if fmt == "auto":
        if start.startswith("["):
            fmt = "leetcode"
        elif start.startswith("{"):
            fmt = "json"
        elif not first and not skipped:
            raise PuzzleError(f"{options.source or '<input>'}: empty input, no puzzle found")
    if fmt in ("leetcode", "json", "toml"):
        text = src.document(first, skipped, skipped_chars, fmt.upper() if fmt == "toml" else "JSON")
        puzzles: Iterable[Puzzle] = _structured(text, fmt, options)
    else:
        puzzles = iter_text_puzzles(src.text_lines(first), options, fmt, start=skipped + 1)
    count = 0
    for puzzle in puzzles:
        count += 1
        yield puzzle
    if count == 0:  # `[]`, `{"puzzles": []}` and comment-only text alike
        raise PuzzleError(f"{options.source or '<input>'}: no puzzle found")


def _structured(text: str, fmt: str, options: ReadOptions) -> Iterator[Puzzle]:
    source = options.source or "<input>"
    if fmt == "toml":
        yield puzzle_from_document(load_toml(text, source), options)
        return
    value = load_json(text, source)
    if is_fpuzzles_document(value):
        yield from iter_fpuzzles(text, options)
    elif is_sudokupad_document(value):
        yield from iter_sudokupad(text, options)
    elif isinstance(value, list):
        yield from list(puzzles_from_json_list(value, options, text))  # all or none, as parsed
    elif isinstance(value, dict) and isinstance(value.get("puzzles"), list):
        for doc in value["puzzles"]:
            yield puzzle_from_document(doc, options)
    else:
        yield puzzle_from_document(value, options)
