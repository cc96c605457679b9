"""f-puzzles import: the lz-string base64 text (or a link holding it, or its JSON) → a puzzle
document → a Puzzle. Every constraint key maps to a rule type; any other key is an error."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Grid, default_box
from satsudoku.io.document import puzzle_from_document
from satsudoku.io.text import ReadOptions
from satsudoku.io.writers import format_line
from satsudoku.puzzle import Puzzle
from satsudoku.symbols import Alphabet

_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
_BASE64_VALUE = {ch: i for i, ch in enumerate(_BASE64)}


def lz_decompress_base64(data: str) -> str:
    """lz-string's `decompressFromBase64` (pieroxy/lz-string 1.4): an LZW variant whose codes
    grow from 3 bits; code 0/1 introduces an 8/16-bit literal, 2 ends the stream."""
    try:
        values = [_BASE64_VALUE[ch] for ch in data.strip()]
    except KeyError as exc:
        raise PuzzleError(f"f-puzzles data: {exc.args[0]!r} is not a base64 character") from None
    if not values:
        return ""
    reader = _BitReader(values)
    dictionary: list[str] = ["", "", ""]  # codes 0..2 are the control codes above
    enlarge_in, bits = 4, 3
    kind = reader.read(2)
    if kind == 2:
        return ""
    if kind not in (0, 1):
        raise PuzzleError("f-puzzles data: not an lz-string stream")
    first = chr(reader.read(8 if kind == 0 else 16))
    dictionary.append(first)
    previous, out = first, [first]
    while True:
        if reader.exhausted():
            raise PuzzleError("f-puzzles data: the compressed text is truncated")
        code = reader.read(bits)
        if code in (0, 1):
            dictionary.append(chr(reader.read(8 if code == 0 else 16)))
            code = len(dictionary) - 1
            enlarge_in -= 1
        elif code == 2:
            return "".join(out)
        if enlarge_in == 0:
            enlarge_in, bits = 1 << bits, bits + 1
        if code < len(dictionary):
            entry = dictionary[code]
        elif code == len(dictionary):  # the LZW corner case: the code being defined right now
            entry = previous + previous[0]
        else:
            raise PuzzleError("f-puzzles data: corrupt lz-string stream")
        out.append(entry)
        dictionary.append(previous + entry[0])
        enlarge_in -= 1
        previous = entry
        if enlarge_in == 0:
            enlarge_in, bits = 1 << bits, bits + 1


class _BitReader:
    """Bits of 6-bit base64 values, most significant first, assembled least significant first."""

    def __init__(self, values: list[int]) -> None:
        self.values, self.index, self.mask = values, 0, 32

    def exhausted(self) -> bool:
        return self.index > len(self.values)

    def read(self, count: int) -> int:
        result = 0
        for k in range(count):
            value = self.values[self.index] if self.index < len(self.values) else 0
            if value & self.mask:
                result |= 1 << k
            self.mask >>= 1
            if not self.mask:
                self.mask, self.index = 32, self.index + 1
        return result


_LINK = re.compile(r"(?:[?&]load=|fpuz(?:zles)?)([A-Za-z0-9+/=%\- ]+)")


def looks_like_fpuzzles(text: str) -> bool:
    """A link holding f-puzzles data (f-puzzles' `?load=`, sudokupad's `/fpuzzles…` or
    `/fpuz…`), or the bare lz-string ('N4Ig' encodes '{"')."""
    text = text.strip()
    if text.startswith("N4Ig"):
        return True
    return text.startswith("http") and ("f-puzzles" in text or "fpuz" in text)


def fpuzzles_json(text: str) -> dict[str, Any]:
    """The f-puzzles JSON object inside a link, an lz-string or JSON text."""
    text = text.strip()
    if text.startswith("{"):
        raw = text
    else:
        if text.startswith("http"):
            text = _link_data(text)
        text = unquote(text).replace(" ", "+")  # a '+' that went through form decoding
        raw = lz_decompress_base64(text)
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise PuzzleError(f"f-puzzles data is not JSON after decompression: {exc.msg}") from None
    if not isinstance(value, dict) or "grid" not in value:
        raise PuzzleError("f-puzzles data has no 'grid'")
    return value


def _link_data(link: str) -> str:
    """The lz-string in a link: the `load=` parameter, else what follows `fpuzzles`/`fpuz`."""
    query = parse_qs(urlparse(link).query).get("load")
    if query:
        return query[0]
    match = _LINK.search(link)
    if match:
        return match.group(1)
    raise PuzzleError(
        "f-puzzles link: no puzzle data in it (a short '?id=' link needs the site; "
        "copy the long '?load=' link instead)"
    )


def is_fpuzzles_document(value: Any) -> bool:
    """An f-puzzles JSON object (rather than a satsudoku document) has a 'grid' list of rows."""
    return isinstance(value, Mapping) and isinstance(value.get("grid"), list)


def iter_fpuzzles(text: str, options: ReadOptions) -> Iterator[Puzzle]:
    """The one puzzle an f-puzzles string, link or JSON describes; errors name the file, or a
    short form of the link when the link itself was the input."""
    options = replace(options, source=short_source(options.source))
    try:
        doc = fpuzzles_document(fpuzzles_json(text))
    except PuzzleError as exc:
        raise exc.at(options.source) from None
    yield puzzle_from_document(doc, options)


def short_source(source: str | None, keep: int = 48) -> str | None:
    """A link or lz-string used as the input's name, cut to `keep` characters."""
    if source is None or len(source) <= keep or not looks_like_fpuzzles(source):
        return source
    return source[: keep - 1] + "…"


# Keys that describe the puzzle's presentation or the editor's state: no rule in them.
_IGNORED = {
    "size",
    "grid",
    "title",
    "author",
    "ruleset",
    "solution",
    "highlightConflicts",
    "activeConstraints",
    "disabledlogic",
    "truecandidatesoptions",
}
# Keys that only draw something: fine when empty, an error otherwise (their meaning lives in the
# ruleset text, which we cannot read).
_COSMETIC = {"text", "line", "circle", "rectangle", "cage"}
_LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def fpuzzles_document(data: Mapping[str, Any]) -> dict[str, Any]:
    """Translate f-puzzles JSON into a satsudoku puzzle document (FORMATS.md §2)."""
    size = data.get("size")
    if not isinstance(size, int) or not 1 <= size <= 64:
        raise PuzzleError(f"f-puzzles 'size' must be an integer, not {size!r}")
    grid = data["grid"]
    if len(grid) != size or any(not isinstance(row, list) or len(row) != size for row in grid):
        raise PuzzleError(f"f-puzzles 'grid' must be {size} rows of {size} cells")
    doc: dict[str, Any] = {"size": size}
    if isinstance(data.get("title"), str) and data["title"]:
        doc["title"] = data["title"]
    doc.update(_grid_fields(grid, size))
    solution = data.get("solution")
    if isinstance(solution, list) and len(solution) == size * size:
        if all(isinstance(v, int) and 1 <= v <= size for v in solution):
            doc["solution"] = format_line(Grid(size, tuple(solution)), Alphabet.default(size))
    rules: list[dict[str, Any]] = []
    for key, value in data.items():
        if key in _IGNORED or key == "negative":
            continue
        if key in _COSMETIC:
            if value:
                raise PuzzleError(
                    f"f-puzzles key {key!r} (a drawing whose meaning is in the rules text) "
                    "is not supported"
                )
            continue
        translate = _TRANSLATE.get(key)
        if translate is None:
            raise PuzzleError(f"f-puzzles key {key!r} is not supported")
        rules.extend(_translated(key, translate, value, size))
    rules.extend(_dots(data, _negative(data.get("negative", [])), size))
    doc["rules"] = [rule for rule in rules if rule]
    return doc


def _translated(
    key: str, translate: Callable[[Any, int], list[dict[str, Any]]], value: Any, size: int
) -> list[dict[str, Any]]:
    """Run one key's translator, turning a malformed entry into an error naming the key."""
    try:
        return translate(value, size)
    except KeyError as exc:
        raise PuzzleError(f"f-puzzles key {key!r}: malformed entry (no {exc.args[0]!r})") from None
    except (TypeError, ValueError, IndexError, AttributeError) as exc:
        raise PuzzleError(f"f-puzzles key {key!r}: malformed entry ({exc})") from None


def _default_box(size: int) -> tuple[int, int]:
    """f-puzzles' default regions: the factor pair closest to square, and for a prime size
    (5, 7, …) 1×n, i.e. each row is its own region (rows already hold every digit)."""
    try:
        return default_box(size)
    except PuzzleError:
        return 1, size


def _grid_fields(grid: list[Any], size: int) -> dict[str, Any]:
    """Givens and the region layout (`box`, or jigsaw `regions` when any cell names one)."""
    box = _default_box(size)
    givens = [0] * (size * size)
    labels: list[str] = []
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            where = f"f-puzzles cell r{r + 1}c{c + 1}"
            if not isinstance(cell, Mapping):
                raise PuzzleError(f"{where} must be an object, not {cell!r}")
            givens[r * size + c] = _given(cell, size, where)
            labels.append(_LABELS[_region(cell, (r // box[0]) * box[0] + c // box[1], size, where)])
    fields: dict[str, Any] = {
        "givens": format_line(Grid(size, tuple(givens)), Alphabet.default(size))
    }
    if any("region" in cell for row in grid for cell in row):
        fields["regions"] = ["".join(labels[r * size : (r + 1) * size]) for r in range(size)]
    else:
        fields["box"] = list(box)
    return fields


def _given(cell: Mapping[str, Any], size: int, where: str) -> int:
    """A given digit, or 0: a value the player typed (no `given`) is not part of the puzzle."""
    if not cell.get("given") or not cell.get("value"):
        return 0
    value = cell["value"]
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= size:
        raise PuzzleError(f"{where}: given {value!r} is not a digit 1..{size}")
    return value


def _region(cell: Mapping[str, Any], default: int, size: int, where: str) -> int:
    region = cell.get("region", default)
    if region is None:
        raise PuzzleError(f"{where} belongs to no region (region null); every cell needs one")
    if not isinstance(region, int) or isinstance(region, bool) or not 0 <= region < size:
        raise PuzzleError(f"{where}: region {region!r} is not a region number 0..{size - 1}")
    return region


def _negative(value: Any) -> set[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PuzzleError(f"f-puzzles 'negative' must be a list of names, not {value!r}")
    unknown = sorted(set(value) - {"ratio", "difference", "xv"})
    if unknown:
        raise PuzzleError(f"f-puzzles 'negative' entry {unknown[0]!r} is not supported")
    return set(value)


def _flag(kind: str) -> Callable[[Any, int], list[dict[str, Any]]]:
    return lambda value, size: [{"type": kind}] if value else []


def _cells(entry: Mapping[str, Any], key: str = "cells") -> list[str]:
    return [str(c).lower() for c in entry[key]]


def _line_rule(kind: str) -> Callable[[Any, int], list[dict[str, Any]]]:
    def translate(value: Any, size: int) -> list[dict[str, Any]]:
        lines = [[str(c).lower() for c in line] for entry in value for line in entry["lines"]]
        return [{"type": kind, "lines": lines}] if lines else []

    return translate


def _cell_rule(kind: str) -> Callable[[Any, int], list[dict[str, Any]]]:
    def translate(value: Any, size: int) -> list[dict[str, Any]]:
        cells = [str(entry["cell"]).lower() for entry in value]
        return [{"type": kind, "cells": cells}] if cells else []

    return translate


def _killer(value: Any, size: int) -> list[dict[str, Any]]:
    """Cages may overlap in f-puzzles (magic squares): one killer rule per set of disjoint cages."""
    groups: list[tuple[set[str], list[dict[str, Any]]]] = []
    for entry in value:
        cage: dict[str, Any] = {"cells": _cells(entry)}
        if str(entry.get("value", "")).strip():
            cage["sum"] = int(entry["value"])
        cells = set(cage["cells"])
        group = next((g for g in groups if not g[0] & cells), None)
        if group is None:
            groups.append((cells, [cage]))
        else:
            group[0].update(cells)
            group[1].append(cage)
    return [{"type": "killer", "cages": cages} for _, cages in groups]


def _little_killer(value: Any, size: int) -> list[dict[str, Any]]:
    clues = [
        {"cells": _diagonal(entry, size), "sum": int(entry["value"])}
        for entry in value
        if str(entry.get("value", "")).strip()
    ]
    return [{"type": "littlekiller", "clues": clues}] if clues else []


_OUTSIDE = re.compile(r"^R(\d+)C(\d+)$", re.IGNORECASE)
_DIRECTIONS = {"UR": (-1, 1), "DR": (1, 1), "DL": (1, -1), "UL": (-1, -1)}


def _diagonal(entry: Mapping[str, Any], size: int) -> list[str]:
    """A little killer's cells: f-puzzles stores the clue's outside `cell` and a `direction`;
    `cells` is optional and, when present, must be that diagonal."""
    listed = _cells(entry) if "cells" in entry else None
    if "cell" not in entry or "direction" not in entry:
        if listed is None:
            raise ValueError("a clue needs 'cell' and 'direction' (or 'cells')")
        return listed
    walked = _walk(str(entry["cell"]), str(entry["direction"]), size)
    if listed is not None and set(listed) != set(walked):
        raise ValueError(
            f"cells {listed} are not the diagonal {walked} "
            f"from {entry['cell']} going {entry['direction']}"
        )
    return walked


def _walk(start: str, direction: str, size: int) -> list[str]:
    """The cells from an outside clue cell, one diagonal step at a time, while on the grid."""
    r, c = _cell_key(start)
    if 1 <= r <= size and 1 <= c <= size:
        raise ValueError(f"clue cell {start} is inside the grid, not beside it")
    step = _DIRECTIONS.get(direction.upper())
    if step is None:
        raise ValueError(f"direction {direction!r} is not UR, DR, DL or UL")
    cells = []
    r, c = r + step[0], c + step[1]
    while 1 <= r <= size and 1 <= c <= size:
        cells.append(f"r{r}c{c}")
        r, c = r + step[0], c + step[1]
    if not cells:
        raise ValueError(f"the clue at {start} going {direction} misses the grid")
    return cells


def _sandwich(value: Any, size: int) -> list[dict[str, Any]]:
    rows: list[int | None] = [None] * size
    cols: list[int | None] = [None] * size
    for entry in value:
        if not str(entry.get("value", "")).strip():
            continue
        match = _OUTSIDE.match(str(entry["cell"]))
        if not match:
            raise ValueError(f"sandwich clue cell {entry['cell']!r}")
        r, c = int(match.group(1)), int(match.group(2))
        if r in (0, size + 1) and 1 <= c <= size:
            cols[c - 1] = int(entry["value"])
        elif c in (0, size + 1) and 1 <= r <= size:
            rows[r - 1] = int(entry["value"])
        else:
            raise ValueError(f"sandwich clue at {entry['cell']!r} is not outside the grid")
    if all(v is None for v in rows + cols):
        return []
    return [{"type": "sandwich", "rows": rows, "cols": cols}]


def _arrow(value: Any, size: int) -> list[dict[str, Any]]:
    arrows = []
    for entry in value:
        bulb = sorted(_cells(entry), key=_cell_key)  # a pill reads left to right, top down
        for line in entry["lines"]:
            shaft = [c for c in (str(x).lower() for x in line) if c not in bulb]
            if shaft:
                arrows.append({"bulb": bulb, "shaft": shaft})
    return [{"type": "arrow", "arrows": arrows}] if arrows else []


def _cell_key(name: str) -> Cell:
    match = _OUTSIDE.match(name)
    if not match:
        raise ValueError(f"cell {name!r}")
    return int(match.group(1)), int(match.group(2))


def _quadruple(value: Any, size: int) -> list[dict[str, Any]]:
    clues = [
        {"cells": _cells(entry), "digits": [int(d) for d in entry["values"]]} for entry in value
    ]
    return [{"type": "quadruple", "clues": clues}] if clues else []


def _clone(value: Any, size: int) -> list[dict[str, Any]]:
    pairs = [[_cells(entry), _cells(entry, "cloneCells")] for entry in value]
    return [{"type": "clone", "pairs": pairs}] if pairs else []


def _extra_region(value: Any, size: int) -> list[dict[str, Any]]:
    return [{"type": "extraregion", "cells": _cells(entry)} for entry in value]


def _held(value: Any, size: int) -> list[dict[str, Any]]:
    """difference, ratio and xv are gathered by `_dots`, with the negative constraint."""
    if not isinstance(value, list):
        raise TypeError("expected a list")
    return []


def _held_flag(value: Any, size: int) -> list[dict[str, Any]]:
    """nonconsecutive is the negative constraint of the white dots: `_dots` applies it."""
    return []


def _dots(data: Mapping[str, Any], negative: set[str], size: int) -> list[dict[str, Any]]:
    """Kropki dots and XV marks with f-puzzles' negative constraints. `nonconsecutive` (or
    `negative: ["difference"]`) forbids a difference of 1 only between cells that carry no
    dot of either colour, and `negative: ["ratio"]` a ratio of 2: satsudoku's kropki
    `negative`, which exempts the same dotted pairs."""
    try:
        white = [_dot(e, 1) for e in data.get("difference", [])]
        black = [_dot(e, 2) for e in data.get("ratio", [])]
        xs = [_cells(e) for e in data.get("xv", []) if str(e.get("value", "")).upper() == "X"]
        vs = [_cells(e) for e in data.get("xv", []) if str(e.get("value", "")).upper() == "V"]
        if any(str(e.get("value", "")).upper() not in ("X", "V") for e in data.get("xv", [])):
            raise ValueError("an xv entry without value 'X' or 'V'")
    except KeyError as exc:
        raise PuzzleError(f"f-puzzles dots: malformed entry (no {exc.args[0]!r})") from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise PuzzleError(f"f-puzzles dots: malformed entry ({exc})") from None
    no_consecutive = bool(data.get("nonconsecutive")) or "difference" in negative
    if "difference" in negative:
        _only_default(white, 1, "difference")
    if "ratio" in negative:
        _only_default(black, 2, "ratio")
    kinds = ["white"] * no_consecutive + ["black"] * ("ratio" in negative)
    rules: list[dict[str, Any]] = []
    if white or black or "black" in kinds:
        kropki: dict[str, Any] = {"type": "kropki", "white": white, "black": black}
        if kinds:
            kropki["negative"] = True if len(kinds) == 2 else kinds
        rules.append(kropki)
    elif no_consecutive:  # no dot anywhere: exactly the global rule
        rules.append({"type": "nonconsecutive"})
    if xs or vs or "xv" in negative:
        rules.append({"type": "xv", "x": xs, "v": vs, "negative": "xv" in negative})
    return rules


def _only_default(dots: list[Any], default: int, key: str) -> None:
    """f-puzzles' negative constraint also forbids every other value its dots carry between
    undotted cells (a ratio-3 dot forbids ratio 3 elsewhere); the kropki rule's negative covers
    only the default value, so refuse rather than solve a different puzzle."""
    for dot in dots:
        if isinstance(dot, dict):
            a, b = dot["cells"]
            raise PuzzleError(
                f"f-puzzles negative {key!r} with a {key} dot of value {dot['value']} "
                f"({a.upper()}-{b.upper()}): the negative constraint for values other than "
                f"{default} cannot be expressed"
            )


def _dot(entry: Mapping[str, Any], default: int) -> Any:
    cells = _cells(entry)
    value = str(entry.get("value", "")).strip()
    if value and int(value) != default:
        return {"cells": cells, "value": int(value)}
    return cells


_TRANSLATE: dict[str, Callable[[Any, int], list[dict[str, Any]]]] = {
    "diagonal+": _flag("diagonal+"),
    "diagonal-": _flag("diagonal-"),
    "antiknight": _flag("antiknight"),
    "antiking": _flag("antiking"),
    "disjointgroups": _flag("disjointgroups"),
    "nonconsecutive": _held_flag,
    "killercage": _killer,
    "littlekillersum": _little_killer,
    "sandwichsum": _sandwich,
    "arrow": _arrow,
    "thermometer": _line_rule("thermometer"),
    "slowthermometer": _line_rule("slowthermometer"),
    "palindrome": _line_rule("palindrome"),
    "renban": _line_rule("renban"),
    "whispers": _line_rule("whispers"),
    "betweenline": _line_rule("between"),
    "difference": _held,
    "ratio": _held,
    "xv": _held,
    "odd": _cell_rule("odd"),
    "even": _cell_rule("even"),
    "minimum": _cell_rule("minimum"),
    "maximum": _cell_rule("maximum"),
    "extraregion": _extra_region,
    "quadruple": _quadruple,
    "clone": _clone,
}

SUPPORTED_KEYS = tuple(sorted(_TRANSLATE))
