"""Puzzle documents (FORMATS.md §2): JSON or TOML objects with size, box, regions, givens, rules."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.grid import MAX_SIZE, Grid, Shape
from satsudoku.io.text import ReadOptions, make_shape, parse_line, parse_rows
from satsudoku.puzzle import Puzzle
from satsudoku.rules import Rule, make_rule
from satsudoku.symbols import Alphabet, check_symbols
from satsudoku.verify import violations

MAX_CELLS = MAX_SIZE * MAX_SIZE

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
    if symbols is not None:
        try:
            check_symbols(symbols)
        except PuzzleError as exc:
            raise PuzzleError("field 'symbols'" + exc.message.removeprefix("symbols")) from None
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
    title, source, notes = (_text(doc, name) for name in ("title", "source", "notes"))
    puzzle = Puzzle(
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
    if solution is not None:
        check_solution(puzzle, solution, "field 'solution'")
    return puzzle


def check_solution(puzzle: Puzzle, solution: Grid, what: str) -> None:
    """Refuse a stated solution that breaks the givens or a rule: the file contradicts itself,
    and a test or a user trusting it would be misled."""
    problems = violations(puzzle, solution)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise PuzzleError(f"{what} does not solve the puzzle: {problems[0]}{more}")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _text(doc: Mapping[str, Any], name: str) -> str | None:
    """A free-text field; a lone surrogate (a JSON escape such as \\ud800 with no partner)
    becomes U+FFFD, since no output could encode it."""
    value = doc.get(name)
    if value is not None and not isinstance(value, str):
        raise PuzzleError(f"field {name!r} must be a string")
    return None if value is None else _LONE_SURROGATE.sub("\ufffd", value)


def _size(doc: Mapping[str, Any], givens: Any) -> int:
    """The board size, stated or read off the givens, regions or box, within 1..MAX_SIZE."""
    size = doc.get("size")
    if size is not None:
        if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= MAX_SIZE:
            raise PuzzleError(f"field 'size' must be an integer 1..{MAX_SIZE}, not {size!r}")
        return int(size)
    size = _inferred_size(doc, givens)
    if not 1 <= size <= MAX_SIZE:
        raise PuzzleError(f"the board would be {size}x{size}, outside the supported 1..{MAX_SIZE}")
    return size


def _inferred_size(doc: Mapping[str, Any], givens: Any) -> int:
    if isinstance(givens, str):
        _check_length(givens, "givens")
        cells = _cell_count(givens)
        if math.isqrt(cells) ** 2 != cells:
            raise PuzzleError(
                f"field 'givens' has {cells} cells, not n² for an n×n board (81 for 9x9)"
            )
        return math.isqrt(cells)
    if isinstance(givens, list) and givens:
        return len(givens)
    if isinstance(doc.get("regions"), list) and doc["regions"]:
        return len(doc["regions"])
    box = doc.get("box")
    if isinstance(box, list) and len(box) == 2 and all(isinstance(b, int) for b in box):
        return max(0, int(box[0] * box[1]))
    raise PuzzleError("cannot tell the board size: give 'size', 'givens' or 'box'")


def _cell_count(givens: str) -> int:
    """How many cells a grid string holds: spaced numbers or symbols, or one symbol a cell."""
    text = givens.strip()
    return len(text.split()) if " " in text else len(text)


def _check_length(text: str, field: str) -> None:
    """Refuse, before parsing, a grid string longer than any board can need (a cell is a
    symbol or a number of at most two digits, with a separator)."""
    if len(text) > MAX_CELLS * 4:
        raise PuzzleError(
            f"field {field!r} has {len(text):,} characters, more than a {MAX_SIZE}x{MAX_SIZE} "
            f"board's {MAX_CELLS} cells can need"
        )


def _shape(doc: Mapping[str, Any], size: int, options: ReadOptions) -> Shape:
    regions = doc.get("regions")
    if regions is not None:
        if isinstance(regions, str):
            regions = [regions[i * size : (i + 1) * size] for i in range(size)]
        if not isinstance(regions, list) or not all(isinstance(r, str) for r in regions):
            raise PuzzleError("field 'regions' must be a list of n strings of region labels")
        rows = [row.replace(" ", "") for row in regions]
        if len(rows) != size or any(len(row) != size for row in rows):
            index = next((i for i, row in enumerate(rows) if len(row) != size), len(rows))
            found = (
                f"row {index + 1} has {len(rows[index])} labels"
                if index < len(rows)
                else (f"there are {len(rows)} rows")
            )
            raise PuzzleError(f"field 'regions': {found}, the board is {size}x{size}")
        shape = Shape.jigsaw([list(row) for row in rows])
        if doc.get("box") is not None:
            boxes = _shape({"box": doc["box"]}, size, options)
            if set(map(frozenset, boxes.regions())) != set(map(frozenset, shape.regions())):
                raise PuzzleError(
                    f"fields 'box' {doc['box']!r} and 'regions' disagree: give one of them"
                )
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
    if isinstance(value, str):
        _check_length(value, field)
    try:
        if isinstance(value, str):
            puzzle = parse_line(value.strip(), options)
        elif isinstance(value, list) and all(isinstance(row, str) for row in value):
            puzzle = parse_rows([(i + 1, row) for i, row in enumerate(value)], options)
        else:
            raise PuzzleError("must be a string or a list of row strings")
    except PuzzleError as exc:
        where = f" (row {exc.line})" if isinstance(value, list) and exc.line else ""
        message = exc.message
        if isinstance(value, str) and (found := _cell_count(value)) != size * size:
            # The board's size is known here: name its count, not the generic n² hint.
            message = f"expected {size * size} cells for the {size}x{size} board, found {found}"
        raise PuzzleError(f"field {field!r}{where}: {message}") from None
    if puzzle.size != size:
        raise PuzzleError(
            f"field {field!r} is {puzzle.size}x{puzzle.size}, the board {size}x{size}"
        )
    if not allow_blanks and not puzzle.givens.is_complete():
        raise PuzzleError(f"field {field!r} has empty cells")
    return puzzle.givens, puzzle.alphabet
