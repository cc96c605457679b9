"""f-puzzles export: a Puzzle → f-puzzles JSON (the inverse of io/fpuzzles.py) and the f-puzzles
and SudokuPad links that carry it. One exporter per rule type; a rule f-puzzles cannot express
exactly is refused by name rather than written as a different puzzle."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from satsudoku.constraints import AllDifferent
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, default_box
from satsudoku.io.lzcompress import lz_compress_base64
from satsudoku.puzzle import Puzzle
from satsudoku.rules import Rule, parse_cell, rule_classes
from satsudoku.rules.fields import outside_clues
from satsudoku.rules.schema import FpuzzlesKey

FPUZZLES_LINK = "https://www.f-puzzles.com/?load="
# SudokuPad opens f-puzzles data after this prefix (its "fpuzzles" loader); f-puzzles' own
# "Open in SudokuPad" and puzzle hubs write links of this form.
SUDOKUPAD_LINK = "https://sudokupad.app/fpuzzles"

_TEXT_CLUE = "f-puzzles has no such clue (its setters write them as text beside the grid)"
# Rule types f-puzzles (with rangsk's Fpuzzles-NewConstraints tools, which setters use) has no
# constraint for; a drawing would carry their meaning only in the rules text.
UNEXPRESSIBLE: dict[str, str] = {
    "rellik": "f-puzzles has no rellik cage",
    "sumcage": "f-puzzles' cages forbid repeated digits",
    "numberedroom": "f-puzzles has no numbered room clue",
    "parityline": "f-puzzles has no parity line",
    "sameparityline": "f-puzzles has no same-parity line",
    "distinctline": "f-puzzles has no line counting its distinct digits",
    "arithmeticline": "f-puzzles has no arithmetic sequence line",
    "segmentsumline": "f-puzzles has no line of runs with one sum",
    "monotoneline": "f-puzzles has no line increasing from either end",
    "lockout": "f-puzzles has no lockout line",
    "greaterthan": "f-puzzles has no inequality sign",
    "countingcircles": "f-puzzles has no counting circle",
    "frame": "f-puzzles has no frame clue (its setters write them as text beside the grid)",
    "minmaxsum": _TEXT_CLUE,
    "minmaxdifference": _TEXT_CLUE,
    "maxposition": _TEXT_CLUE,
    "evensandwich": _TEXT_CLUE,
    "besidelargest": _TEXT_CLUE,
    "prefixsum": _TEXT_CLUE,
    "ascendingsum": _TEXT_CLUE,
    "longestascending": _TEXT_CLUE,
    "paritylongest": _TEXT_CLUE,
    "tripletsum": _TEXT_CLUE,
    "besidelargestdigits": _TEXT_CLUE,
    "adjacentpair": _TEXT_CLUE,
    "descriptivepair": _TEXT_CLUE,
    "maxarrow": "f-puzzles has no maximum arrow (the key is Nickleaton/sudoku's files')",
    "productarrow": "f-puzzles has no product arrow (the key is Nickleaton/sudoku's files')",
}


def fpuzzles_link(puzzle: Puzzle) -> str:
    """An f-puzzles link that opens `puzzle` with every rule."""
    return FPUZZLES_LINK + fpuzzles_payload(puzzle)


def sudokupad_link(puzzle: Puzzle) -> str:
    """A SudokuPad link to the same f-puzzles data."""
    return SUDOKUPAD_LINK + fpuzzles_payload(puzzle)


def fpuzzles_payload(puzzle: Puzzle) -> str:
    """The lz-string text of the f-puzzles JSON. ASCII JSON (non-ASCII as \\u escapes) keeps
    the payload free of 16-bit literals whatever the title holds."""
    return lz_compress_base64(json.dumps(fpuzzles_data(puzzle), separators=(",", ":")))


def fpuzzles_data(puzzle: Puzzle) -> dict[str, Any]:
    """The f-puzzles JSON object of `puzzle`: size, grid (givens, regions), title, author,
    rules text, solution and one key per constraint, as f-puzzles itself writes them."""
    out = _Export(puzzle)
    specs = [(rule, rule.to_spec()) for rule in puzzle.rules]
    _check_combinations([spec for _, spec in specs])
    for rule, spec in specs:
        kind = str(spec["type"])
        if kind in UNEXPRESSIBLE:
            raise PuzzleError(
                f"--to fpuzzles: rule {kind!r} cannot be written: {UNEXPRESSIBLE[kind]}"
            )
        exporter = EXPORTERS.get(kind) or _declared_exporter(rule)
        if exporter is None:
            raise PuzzleError(f"--to fpuzzles: rule {kind!r} has no f-puzzles form")
        try:
            exporter(out, spec, rule)
        except PuzzleError as exc:
            raise PuzzleError(f"--to fpuzzles: rule {kind!r}: {exc.message}") from None
    return out.data


def fpuzzles_cell(cell: Cell) -> str:
    """f-puzzles' cell name, 'R3C5' for (2, 4); row or column 0 and n+1 lie outside the grid."""
    return f"R{cell[0] + 1}C{cell[1] + 1}"


class _Export:
    """The JSON being built: the grid first, then constraint keys in the order rules add them."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.size = n = puzzle.size
        self.grid: list[list[dict[str, Any]]] = [[{} for _ in range(n)] for _ in range(n)]
        self.data: dict[str, Any] = {"size": n, "grid": self.grid}
        for key, text in (
            ("title", puzzle.title),
            ("author", puzzle.source),
            ("ruleset", puzzle.notes),
        ):
            if text:
                self.data[key] = text
        for (r, c), digit in puzzle.given_cells():
            self.grid[r][c].update(value=digit, given=True)
        if _needs_regions(puzzle):
            for index, region in enumerate(puzzle.shape.regions()):
                for r, c in region:
                    self.grid[r][c]["region"] = index
        if puzzle.solution is not None:
            self.data["solution"] = list(puzzle.solution.values)

    def cell(self, name: Any) -> str:
        """A document cell ('r1c1' or [1, 1]) as f-puzzles names it."""
        return fpuzzles_cell(parse_cell(name, self.puzzle.shape, "cell"))

    def cells(self, names: Iterable[Any]) -> list[str]:
        return [self.cell(name) for name in names]

    def add(self, key: str, entry: dict[str, Any]) -> None:
        self.data.setdefault(key, []).append(entry)

    def flag(self, key: str) -> None:
        self.data[key] = True

    def negative(self, name: str) -> None:
        listed = self.data.setdefault("negative", [])
        if name not in listed:
            listed.append(name)

    def drawing(self, key: str, entry: dict[str, Any], constraint: str) -> None:
        """A cosmetic copy, marked `fromConstraint`, as rangsk's tools add for constraints that
        plain f-puzzles and SudokuPad do not draw themselves."""
        self.add(key, {**entry, "fromConstraint": constraint})


def _needs_regions(puzzle: Puzzle) -> bool:
    """Regions are written cell by cell unless they are the boxes f-puzzles infers."""
    shape = puzzle.shape
    if shape.is_jigsaw:
        return True
    try:
        inferred = default_box(shape.size)
    except PuzzleError:
        inferred = (1, shape.size)  # f-puzzles' rows for a prime size
    return (shape.box_rows, shape.box_cols) != inferred


Exporter = Callable[[_Export, Mapping[str, Any], Rule], None]


def _flags(*keys: str) -> Exporter:
    def export(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
        for key in keys:
            out.flag(key)

    return export


def _disjoint_groups(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    if _needs_regions(out.puzzle):
        raise PuzzleError("f-puzzles forms disjoint groups only from its own default boxes")
    out.flag("disjointgroups")


def _windoku(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    """f-puzzles has no windoku switch: setters draw each window as an extra region."""
    for constraint in rule.constraints(out.puzzle.shape):
        if not isinstance(constraint, AllDifferent):
            raise PuzzleError("windoku windows are not plain all-different groups")
        out.add("extraregion", {"cells": [fpuzzles_cell(c) for c in constraint.cells]})


def _cells_entries(key: str) -> Exporter:
    """One `{cells}` entry per rule (extra regions)."""

    def export(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
        out.add(key, {"cells": out.cells(spec["cells"])})

    return export


def _cell_entries(key: str) -> Exporter:
    """One `{cell}` entry per listed cell (odd, even, minimum, maximum)."""

    def export(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
        for name in spec["cells"]:
            out.add(key, {"cell": out.cell(name)})

    return export


# rangsk's Fpuzzles-NewConstraints: the constraint name (its cosmetic `fromConstraint` mark)
# and the colour and width its export draws the line with.
_TOOL_LINES: dict[str, tuple[str, str, float]] = {
    "renban": ("Renban", "#F067F0", 0.25),
    "entropicline": ("Entropic Line", "#FFCCAA", 0.15625),
    "modularline": ("Modular Line", "#33BBBB", 0.15625),
    "regionsumline": ("Region Sum Line", "#2ECBFF", 0.15625),
    "nabner": ("Nabner", "#C9C883", 0.25),
    "doublearrow": ("Double Arrow", "#C54B8B", 0.15),
    "zipperline": ("Zipper Line", "#CDB1EC", 0.15625),
    "slowthermometer": ("Slow Thermometer", "#6495ED", 0.3),
}


def _lines(key: str) -> Exporter:
    """One `{lines: [line]}` entry per line; a tools constraint also gets its cosmetic line
    (and circles where the tool draws them: a double arrow's ends, a slow thermometer's bulb)."""

    def export(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
        for line in spec["lines"]:
            cells = out.cells(line)
            out.add(key, {"lines": [cells]})
            if key in _TOOL_LINES:
                name, colour, width = _TOOL_LINES[key]
                out.drawing("line", {"lines": [cells], "outlineC": colour, "width": width}, name)
                ends = {"doublearrow": [cells[0], cells[-1]], "slowthermometer": [cells[0]]}
                for end in ends.get(key, []):
                    circle = {"cells": [end], "baseC": colour, "outlineC": colour}
                    out.drawing("circle", {**circle, "width": 0.85, "height": 0.85}, name)

    return export


def _modular(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    modulus = spec.get("modulus", 3)
    if modulus != 3:
        raise PuzzleError(f"f-puzzles' modular line is modulo 3, not {modulus}")
    _lines("modularline")(out, spec, rule)


def _whispers(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    """Whispers carry their difference as `value`, as rangsk's tools export German (⌈n/2⌉) and
    Dutch (⌈n/2⌉-1) whispers under one key."""
    german = math.ceil(out.size / 2)
    difference = int(spec.get("difference", german))
    name, colour = (
        ("Dutch Whispers", "#FF9A00")
        if difference == german - 1
        else (
            "German Whispers",
            "#67F067",
        )
    )
    for line in spec["lines"]:
        cells = out.cells(line)
        out.add("whispers", {"lines": [cells], "value": str(difference)})
        out.drawing("line", {"lines": [cells], "outlineC": colour, "width": 0.1875}, name)


def _killer(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    for cage in spec["cages"]:
        entry: dict[str, Any] = {"cells": out.cells(cage["cells"])}
        if cage.get("sum") is not None:
            entry["value"] = str(cage["sum"])
        out.add("killercage", entry)


_STEPS = {(-1, 1): "UR", (1, 1): "DR", (1, -1): "DL", (-1, -1): "UL"}


def _little_killer(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    """f-puzzles stores a clue's outside cell and direction: the cells must be a whole
    diagonal, from one edge of the grid to the other."""
    n = out.size
    for clue in spec["clues"]:
        cells = [parse_cell(name, out.puzzle.shape, "cell") for name in clue["cells"]]
        start, step = _diagonal_run(cells, n)
        first = (start[0] - step[0], start[1] - step[1])
        out.add(
            "littlekillersum",
            {
                "cell": fpuzzles_cell(first),
                "direction": _STEPS[step],
                "value": str(clue["sum"]),
                "cells": [fpuzzles_cell(c) for c in cells],
            },
        )


def _diagonal_run(cells: Sequence[Cell], n: int) -> tuple[Cell, Cell]:
    """The end a whole diagonal `cells` is entered from, and the step along it. The clue
    goes before the first listed cell when it can, so the cells read back in their order."""
    names = ", ".join(fpuzzles_cell(c) for c in cells)
    ordered = sorted(cells)
    ends = [(cells[0], cells[-1]), (cells[-1], cells[0]), (ordered[0], ordered[-1])]
    for start, other in ends:
        steps = list(_STEPS)
        if start != other:
            steps = [(_sign(other[0] - start[0]), _sign(other[1] - start[1]))]
        for step in steps:
            before = (start[0] - step[0], start[1] - step[1])
            walked = _walk(start, step, n)
            if step in _STEPS and not _inside(*before, n) and sorted(walked) == ordered:
                return start, step
    raise PuzzleError(f"little killer cells {names} are not a whole diagonal of the grid")


def _walk(start: Cell, step: Cell, n: int) -> list[Cell]:
    cells, (r, c) = [], start
    while _inside(r, c, n):
        cells.append((r, c))
        r, c = r + step[0], c + step[1]
    return cells


def _inside(r: int, c: int, n: int) -> bool:
    return 0 <= r < n and 0 <= c < n


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _outside_clues(key: str) -> Exporter:
    """Clues beside the grid (`left`, `right`, `top`, `bottom`, or a sandwich's `rows` and
    `cols`, read from the left and the top) as `{cell, value}` with the cell outside."""

    def export(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
        for place, clue in outside_clues(spec, out.size, zero_is_clue=key == "sandwichsum"):
            cell = fpuzzles_cell(place)
            out.add(key, {"cell": cell, "value": str(clue)})
            if key in _TOOL_TEXT:
                name, symbol = _TOOL_TEXT[key]
                for value, size in ((symbol, 1.2), (str(clue), 0.7)):
                    text = {"cells": [cell], "value": value, "fontC": "#000000"}
                    out.drawing("text", {**text, "size": size}, name)

    return export


_TOOL_TEXT = {"xsum": ("X Sum", "\u25ef"), "skyscraper": ("Skyscraper", "\u25af")}


def _arrow(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    """f-puzzles reads a pill's digits in reading order and draws the shaft from a bulb cell."""
    shape = out.puzzle.shape
    for arrow in spec["arrows"]:
        bulb = [parse_cell(name, shape, "bulb") for name in arrow["bulb"]]
        shaft = [parse_cell(name, shape, "shaft") for name in arrow["shaft"]]
        if bulb != sorted(bulb):
            raise PuzzleError(
                f"the pill {', '.join(map(fpuzzles_cell, bulb))} reads in another order than "
                "f-puzzles' (left to right, top down)"
            )
        near = [b for b in bulb if max(abs(b[0] - shaft[0][0]), abs(b[1] - shaft[0][1])) == 1]
        root = near[0] if near else bulb[-1]
        line = [fpuzzles_cell(c) for c in (root, *shaft)]
        out.add("arrow", {"cells": [fpuzzles_cell(c) for c in bulb], "lines": [line]})


def _kropki(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    """White dots go under `difference`, black under `ratio`; the rule's negative becomes
    f-puzzles' negative constraint, which also forbids any other value its dots carry, so a
    negative colour with valued dots is refused."""
    negative = spec.get("negative", False)
    colours = {"white", "black"} if negative is True else set(negative or [])
    for colour, key, default in (("white", "difference", 1), ("black", "ratio", 2)):
        for dot in spec.get(colour, []):
            if isinstance(dot, Mapping):
                cells, value = dot["cells"], int(dot.get("value", default))
            else:
                cells, value = dot, default
            entry: dict[str, Any] = {"cells": out.cells(cells)}
            if value != default:
                if colour in colours:
                    raise PuzzleError(
                        f"a {colour} dot of value {value} with the negative rule: f-puzzles' "
                        f"negative would also forbid {value} elsewhere"
                    )
                entry["value"] = str(value)
            out.add(key, entry)
        if colour in colours:
            out.negative(key)


def _xv(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    for mark in ("x", "v"):
        for pair in spec.get(mark, []):
            out.add("xv", {"cells": out.cells(pair), "value": mark.upper()})
    negative = spec.get("negative", False)
    if negative is True:
        out.negative("xv")
    elif negative:  # f-puzzles' one xv flag forbids both sums between unmarked cells
        raise PuzzleError(
            f"--to fpuzzles: an xv negative for {' and '.join(negative).upper()} alone: "
            "f-puzzles' negative xv forbids both sums (10 and 5) between unmarked cells"
        )


def _quadruple(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    for clue in spec["clues"]:
        digits = [int(d) for d in clue["digits"]]
        out.add("quadruple", {"cells": out.cells(clue["cells"]), "values": digits})


def _clone(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    for first, second in spec["pairs"]:
        one = [first] if isinstance(first, str) else first
        two = [second] if isinstance(second, str) else second
        out.add("clone", {"cells": out.cells(one), "cloneCells": out.cells(two)})


def _indexer(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    """Row, column and box indexers, one cell per entry; each kind also drawn as the tool's
    shaded cage."""
    tools = {
        "rows": ("rowindexer", "Row Indexer", "#7CC77C"),
        "columns": ("columnindexer", "Column Indexer", "#C77C7C"),
        "boxes": ("boxindexer", "Box Indexer", "#7C7CC7"),
    }
    for field, (key, name, colour) in tools.items():
        cells = out.cells(spec.get(field) or [])
        for cell in cells:
            out.add(key, {"cells": [cell]})
        if cells:
            cage = {"cells": cells, "outlineC": colour, "fontC": "#000000"}
            out.drawing("cage", cage, name)


def _given_candidates(out: _Export, spec: Mapping[str, Any], rule: Rule) -> None:
    """f-puzzles keeps a setter's candidates in the grid cell, as `givenPencilMarks`."""
    for name, digits in spec["candidates"].items():
        r, c = parse_cell(name, out.puzzle.shape, "cell")
        out.grid[r][c]["givenPencilMarks"] = sorted(int(d) for d in digits)


def _check_combinations(specs: Sequence[Mapping[str, Any]]) -> None:
    """Refuse rule combinations that f-puzzles' keys would merge into another meaning."""
    kinds = [str(spec["type"]) for spec in specs]
    if "nonconsecutive" in kinds and "kropki" in kinds:
        raise PuzzleError(
            "--to fpuzzles: 'nonconsecutive' beside kropki dots: in f-puzzles it would exempt "
            "the dotted pairs (write the kropki rule's negative instead)"
        )
    for kind in ("kropki", "xv"):
        same = [spec for spec in specs if spec["type"] == kind]
        if len(same) > 1 and any(spec.get("negative") for spec in same):
            raise PuzzleError(
                f"--to fpuzzles: several {kind!r} rules with a negative: f-puzzles has one "
                "negative constraint for all its dots (merge them into one rule)"
            )
    for kind in ("minimum", "maximum"):
        sets = [{str(c).lower() for c in spec["cells"]} for spec in specs if spec["type"] == kind]
        if len(sets) > 1 and _sets_touch(sets):
            raise PuzzleError(
                f"--to fpuzzles: several {kind!r} rules whose cells touch: f-puzzles has one "
                f"set of {kind} cells"
            )


def _sets_touch(sets: Sequence[set[str]]) -> bool:
    """Whether cells of two different sets are orthogonal neighbours."""

    def rc(name: str) -> Cell:
        row, _, col = name[1:].partition("c")
        return int(row), int(col)

    owner = {rc(name): index for index, cells in enumerate(sets) for name in cells}
    return any(
        owner.get((r + dr, c + dc), index) != index
        for (r, c), index in owner.items()
        for dr, dc in ((0, 1), (1, 0))
    )


def _declared_exporter(rule: Rule) -> Exporter | None:
    """The writer of a rule that declares its f-puzzles key (`schema.Declared.fpuzzles`): its
    field in that key's standard form. Plugin rules that declare one are written too."""
    declared = getattr(rule, "fpuzzles", None)
    if not isinstance(declared, FpuzzlesKey):
        return None
    forms: dict[str, Callable[[str], Exporter]] = {
        "lines": _lines,
        "cell": _cell_entries,
        "flag": _flags,
    }
    return forms[declared.form](declared.key)


def exported_types() -> set[str]:
    """Every rule type written to f-puzzles: those with a writer here and those that declare
    their f-puzzles key (built-in or plugin)."""
    declared = {
        kind
        for kind, cls in rule_classes().items()
        if isinstance(getattr(cls, "fpuzzles", None), FpuzzlesKey)
    }
    return set(EXPORTERS) | declared


# Rules whose f-puzzles form is not their declared field as it stands (`_declared_exporter`
# writes those: thermometers, renban, odd cells, anti-knight, …).
EXPORTERS: dict[str, Exporter] = {
    "diagonal": _flags("diagonal+", "diagonal-"),
    "diagonal+": _flags("diagonal+"),
    "diagonal-": _flags("diagonal-"),
    "nonconsecutive": _flags("nonconsecutive"),
    "disjointgroups": _disjoint_groups,
    "windoku": _windoku,
    "extraregion": _cells_entries("extraregion"),
    "killer": _killer,
    "littlekiller": _little_killer,
    "sandwich": _outside_clues("sandwichsum"),
    "xsum": _outside_clues("xsum"),
    "skyscraper": _outside_clues("skyscraper"),
    "arrow": _arrow,
    "modularline": _modular,
    "whispers": _whispers,
    "kropki": _kropki,
    "xv": _xv,
    "quadruple": _quadruple,
    "clone": _clone,
    "indexer": _indexer,
    "givencandidates": _given_candidates,
}
