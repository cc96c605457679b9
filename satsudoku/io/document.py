"""Puzzle documents (FORMATS.md §2): JSON or TOML objects with size, box, regions, givens, rules."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.io.text import ReadOptions, make_shape, parse_line, parse_rows
from satsudoku.puzzle import Puzzle
from satsudoku.rules import Rule, make_rule
from satsudoku.symbols import Alphabet

# "count", "source" and "notes" document a model (known solution count, provenance) for
# people and tests; solving ignores them.
_FIELDS = {
    "title",
    "size",
    "box",
    "regions",
    "givens",
    "rules",
    "solution",
    "symbols",
    "count",
    "source",
    "notes",
}


def puzzle_from_document(doc: Any, options: ReadOptions) -> Puzzle:
    """Build a puzzle from a parsed document; every error names the field at fault."""
    if not isinstance(doc, Mapping):
        raise PuzzleError("a puzzle document must be an object/table", source=options.source)
    try:
        return _from_document(doc, options)
    except PuzzleError as exc:
        raise PuzzleError(exc.message, source=options.source) from None


def _from_document(doc: Mapping[str, Any], options: ReadOptions) -> Puzzle:
    unknown = sorted(set(doc) - _FIELDS)
    if unknown:
        raise PuzzleError(f"unknown field {unknown[0]!r}; fields are {', '.join(sorted(_FIELDS))}")
    symbols = doc.get("symbols", options.symbols)
    if symbols is not None and not isinstance(symbols, str):
        raise PuzzleError("field 'symbols' must be a string such as '0123456789ABCDEF'")
    givens_doc = doc.get("givens")
    size = _size(doc, givens_doc)
    shape = _shape(doc, size, options)
    inner = ReadOptions(symbols=symbols, shape=shape)
    givens, alphabet = _grid_field(givens_doc, "givens", size, inner, allow_blanks=True)
    rules_doc = doc.get("rules", [])
    if not isinstance(rules_doc, list):
        raise PuzzleError("field 'rules' must be a list of rule objects")
    rules: list[Rule] = []
    for index, spec in enumerate(rules_doc):
        if not isinstance(spec, Mapping):
            raise PuzzleError(f"rules[{index}] must be an object with a 'type'")
        rules.append(make_rule(spec, shape))
    solution = None
    if doc.get("solution") is not None:
        solution, _ = _grid_field(doc["solution"], "solution", size, inner, allow_blanks=False)
    title, source, notes = (doc.get(name) for name in ("title", "source", "notes"))
    for name, value in (("title", title), ("source", source), ("notes", notes)):
        if value is not None and not isinstance(value, str):
            raise PuzzleError(f"field {name!r} must be a string")
    return Puzzle(
        shape,
        givens,
        tuple(rules),
        title=title,
        alphabet=alphabet,
        layout="document",
        solution=solution,
        origin=options.source,
        source=source,
        notes=notes,
    )


def _size(doc: Mapping[str, Any], givens: Any) -> int:
    size = doc.get("size")
    if size is not None:
        if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= 64:
            raise PuzzleError(f"field 'size' must be an integer 1..64, not {size!r}")
        return int(size)
    if isinstance(givens, str) and math.isqrt(len(givens.strip())) ** 2 == len(givens.strip()):
        return math.isqrt(len(givens.strip()))
    if isinstance(givens, list) and givens:
        return len(givens)
    if isinstance(doc.get("regions"), list) and doc["regions"]:
        return len(doc["regions"])
    box = doc.get("box")
    if isinstance(box, list) and len(box) == 2 and all(isinstance(b, int) for b in box):
        return int(box[0] * box[1])
    raise PuzzleError("cannot tell the board size: give 'size', 'givens' or 'box'")


def _shape(doc: Mapping[str, Any], size: int, options: ReadOptions) -> Shape:
    regions = doc.get("regions")
    if regions is not None:
        if isinstance(regions, str):
            regions = [regions[i * size : (i + 1) * size] for i in range(size)]
        if not isinstance(regions, list) or not all(isinstance(r, str) for r in regions):
            raise PuzzleError("field 'regions' must be a list of n strings of region labels")
        shape = Shape.jigsaw([list(row.replace(" ", "")) for row in regions])
        if shape.size != size:
            raise PuzzleError(f"field 'regions' describes a {shape.size}x{shape.size} board")
        return shape
    box = doc.get("box")
    if box is None:
        return make_shape(size, options.box)
    if (
        not isinstance(box, list)
        or len(box) != 2
        or not all(isinstance(b, int) and not isinstance(b, bool) and b > 0 for b in box)
    ):
        raise PuzzleError(f"field 'box' must be [rows, cols], not {box!r}")
    return make_shape(size, (box[0], box[1]))


def _grid_field(
    value: Any, field: str, size: int, options: ReadOptions, *, allow_blanks: bool
) -> tuple[Grid, Alphabet | None]:
    """Read `givens`/`solution`: one line-format string or a list of row strings."""
    if value is None:
        return Grid.empty(size), None
    try:
        if isinstance(value, str):
            puzzle = parse_line(value.strip(), options)
        elif isinstance(value, list) and all(isinstance(row, str) for row in value):
            puzzle = parse_rows([(i + 1, row) for i, row in enumerate(value)], options)
        else:
            raise PuzzleError("must be a string or a list of row strings")
    except PuzzleError as exc:
        where = f" (row {exc.line})" if isinstance(value, list) and exc.line else ""
        raise PuzzleError(f"field {field!r}{where}: {exc.message}") from None
    if puzzle.size != size:
        raise PuzzleError(
            f"field {field!r} is {puzzle.size}x{puzzle.size}, the board {size}x{size}"
        )
    if not allow_blanks and not puzzle.givens.is_complete():
        raise PuzzleError(f"field {field!r} has empty cells")
    return puzzle.givens, puzzle.alphabet
