"""SudokuPad import: a sudokupad.app link, its `scl…` payload or the puzzle's JSON → the
f-puzzles form (the one translation to rules) → a Puzzle.

SudokuPad stores pictures, not rules: cages, lines, arrows and overlays with their colours and
sizes. A picture is read as a constraint only when it has the exact style that SudokuPad's
f-puzzles converter (fpuzzlesdecoder.js) gives that constraint; killer cages (cells, a total,
`unique`) and givens are read as they are. Any other picture is a drawing whose meaning is in
the rules text, refused or left out (--ignore-drawings) as for f-puzzles.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from satsudoku.errors import PuzzleError
from satsudoku.io.fpuzzles import fpuzzles_puzzle, refuse_drawings, short_source
from satsudoku.io.limits import MAX_SIZE, load_json
from satsudoku.io.lzstring import lz_decompress_base64
from satsudoku.io.sclzip import unzip
from satsudoku.io.text import ReadOptions
from satsudoku.puzzle import Puzzle

_HOSTS = ("sudokupad.app", "crackingthecryptic.com", "sudokupad.svencodes.com")
_PAYLOAD = re.compile(r"^(?:scl|ctc)[A-Za-z0-9+/=%\- ]{8,}$")
_ZIPPED = re.compile(r"^\{\s*(?:id|cs|ce|ca|re|metadata|cellSize|cells)\s*:")


def looks_like_sudokupad(text: str) -> bool:
    """A SudokuPad link (not an f-puzzles one: those go to the f-puzzles reader), an `scl…`
    payload, or SudokuPad's zipped JSON."""
    text = text.strip()
    if text.startswith("http"):
        host = urlparse(text).hostname or ""
        return any(host == h or host.endswith("." + h) for h in _HOSTS)
    return bool(_PAYLOAD.match(text) or _ZIPPED.match(text))


def is_sudokupad_document(value: Any) -> bool:
    """SudokuPad's puzzle JSON has `cells`, rows of cell objects (satsudoku documents do not)."""
    return isinstance(value, Mapping) and isinstance(value.get("cells"), list)


def iter_sudokupad(text: str, options: ReadOptions) -> Iterator[Puzzle]:
    """The one puzzle a SudokuPad link, payload or JSON describes."""
    options = replace(options, source=short_source(options.source, is_link=looks_like_sudokupad))
    try:
        data, drawings = fpuzzles_data(sudokupad_json(text))
        if drawings and not options.ignore_drawings:
            refuse_drawings("SudokuPad", drawings)
    except PuzzleError as exc:
        raise exc.at(options.source) from None
    puzzle = fpuzzles_puzzle(data, options, site="SudokuPad")
    yield replace(puzzle, ignored=tuple(drawings.items()))


def sudokupad_json(text: str) -> dict[str, Any]:
    """The SudokuPad puzzle object inside a link, an `scl…`/`ctc…` payload or (zipped) JSON."""
    text = text.strip()
    if text.startswith("http"):
        text = _link_payload(text)
    if text[:3] in ("scl", "ctc"):
        payload = unquote(text[3:]).replace(" ", "+")  # a '+' that went through form decoding
        text = lz_decompress_base64(payload, "SudokuPad data")
    if not text.startswith("{"):
        raise PuzzleError("SudokuPad data: not a puzzle (expected scl…, ctc… or JSON)")
    try:
        value = load_json(text, "SudokuPad")
    except PuzzleError:
        value = unzip(text)  # PuzzleZipper's compact form, as SudokuPad reads it after JSON
    if not is_sudokupad_document(value):
        raise PuzzleError("SudokuPad data has no 'cells'")
    return dict(value)


def _link_payload(link: str) -> str:
    """What follows the host (`/scl…`, `/sudoku/scl…`, `?puzzleid=scl…`); a short id names a
    puzzle kept on SudokuPad's server, which satsudoku does not fetch."""
    parsed = urlparse(link)
    query = parse_qs(parsed.query).get("puzzleid")
    payload = query[0] if query else unquote(parsed.path).strip("/")
    payload = payload.removeprefix("sudoku/").removeprefix("puzzle/")
    if payload[:3] in ("scl", "ctc") or payload.startswith("{"):
        return payload
    short = payload or "(none)"
    raise PuzzleError(
        f"SudokuPad link: {short!r} names a puzzle kept on SudokuPad's server, which satsudoku "
        f"does not fetch; save https://sudokupad.app/api/puzzle/{payload} to a file and read "
        "that file"
    )


# --- SudokuPad → f-puzzles -------------------------------------------------------------------

# Keys with no rule in them: presentation, media, fog (which hides cells, not constraints).
_PRESENTATION = {"id", "cellSize", "metadata", "videos", "duration", "foglight", "triggereffect"}
_PICTURES = ("cages", "lines", "arrows", "overlays", "underlays")
_GLOBALS = {"antiknight", "antiking", "nonconsecutive", "disjoint"}
_NEGATIVE = {"antiratio": "ratio", "antidifference": "difference", "antixv": "xv"}


def fpuzzles_data(pad: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    """The f-puzzles JSON a SudokuPad puzzle amounts to, and its unread drawings per key."""
    unknown = sorted(
        k
        for k, v in pad.items()
        if v and k not in _PRESENTATION | {"cells", "regions", "global", *_PICTURES}
    )
    if unknown:
        raise PuzzleError(f"SudokuPad key {unknown[0]!r} is not supported")
    size, grid = _grid(pad.get("cells"))
    data: dict[str, Any] = {"size": size, "grid": grid}
    _regions(pad.get("regions"), grid, size)
    pictures = {key: _elements(pad, key) for key in _PICTURES}
    data.update(_metadata(pad, pictures["cages"], size))
    reader = _Reader(size, pictures)
    reader.read_all(data, pad.get("global"))
    return data, reader.leftover()


def _grid(cells: Any) -> tuple[int, list[list[dict[str, Any]]]]:
    if not isinstance(cells, list) or not cells:
        raise PuzzleError("SudokuPad 'cells' must be rows of cells")
    size = len(cells)
    if size > MAX_SIZE:
        raise PuzzleError(f"SudokuPad grid has {size} rows; the largest board is {MAX_SIZE}")
    if any(not isinstance(row, list) or len(row) != size for row in cells):
        raise PuzzleError(f"SudokuPad 'cells' must be {size} rows of {size} cells (a square)")
    grid: list[list[dict[str, Any]]] = []
    for r, row in enumerate(cells):
        out: list[dict[str, Any]] = []
        for c, cell in enumerate(row):
            value = cell.get("value") if isinstance(cell, Mapping) else None
            if value in (None, ""):
                out.append({})
                continue
            digit = int(value) if isinstance(value, str) and value.isdigit() else value
            if type(digit) is not int or not 1 <= digit <= size:
                raise PuzzleError(
                    f"SudokuPad cell r{r + 1}c{c + 1}: given {value!r} is not 1..{size}"
                )
            out.append({"value": digit, "given": True})
        grid.append(out)
    return size, grid


def _regions(regions: Any, grid: list[list[dict[str, Any]]], size: int) -> None:
    """Region numbers into the f-puzzles cells. Without regions SudokuPad has none: only rows
    and columns, which row-shaped regions express exactly."""
    if not regions:
        for r, row in enumerate(grid):
            for cell in row:
                cell["region"] = r
        return
    if not isinstance(regions, list) or len(regions) != size:
        raise PuzzleError(f"SudokuPad 'regions' must be {size} lists of cells")
    for index, region in enumerate(regions):
        cells = [_rc(rc, size, f"SudokuPad region {index + 1}") for rc in region or ()]
        if len(cells) != size:
            raise PuzzleError(f"SudokuPad region {index + 1} has {len(cells)} cells, not {size}")
        for r, c in cells:
            if "region" in grid[r][c]:
                raise PuzzleError(f"SudokuPad cell r{r + 1}c{c + 1} is in two regions")
            grid[r][c]["region"] = index


def _rc(value: Any, size: int, where: str) -> tuple[int, int]:
    """A [row, col] pair (0-based) inside the grid."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(v) is int and 0 <= v < size for v in value)
    ):
        raise PuzzleError(f"{where}: {value!r:.40} is not a cell [row, col] of the grid")
    return value[0], value[1]


def _elements(pad: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    value = pad.get(key) or []
    if not isinstance(value, list) or not all(isinstance(e, Mapping) for e in value):
        raise PuzzleError(f"SudokuPad {key!r} must be a list of objects")
    return value


_META = re.compile(r"^([A-Za-z]+):\s*(.*)$", re.DOTALL)


def _metadata(pad: Mapping[str, Any], cages: list[Mapping[str, Any]], size: int) -> dict[str, Any]:
    """Title, author, rules and solution: the `metadata` object, or the older form, cages
    without cells whose value reads `title: …`."""
    meta: dict[str, Any] = {}
    for cage in cages:
        match = _META.match(str(cage.get("value", ""))) if not cage.get("cells") else None
        if match:
            meta.setdefault(match.group(1).lower(), match.group(2))
    if isinstance(pad.get("metadata"), Mapping):
        meta.update(pad["metadata"])
    out: dict[str, Any] = {}
    for key, field in (("title", "title"), ("author", "author"), ("rules", "ruleset")):
        if isinstance(meta.get(key), str):
            out[field] = meta[key]
    solution = str(meta.get("solution", ""))
    if size <= 9 and len(solution) == size * size and solution.isdigit() and "0" not in solution:
        out["solution"] = [int(ch) for ch in solution]
    for flag in ("antiknight", "antiking"):
        if meta.get(flag) is True:
            out[flag] = True
    return out


def _cell(point: Any, size: int, *, outside: bool = False) -> str | None:
    """The f-puzzles name of the cell a point lies in (cell r, c spans [r, r+1) × [c, c+1)),
    or None; `outside` admits the ring of clue cells around the grid."""
    if not isinstance(point, list) or len(point) != 2:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in point):
        return None
    r, c = math.floor(point[0]), math.floor(point[1])
    low, high = (-1, size) if outside else (0, size - 1)
    if not (low <= r <= high and low <= c <= high):
        return None
    return f"R{r + 1}C{c + 1}"


def _is_centre(point: Any) -> bool:
    return (
        isinstance(point, list)
        and len(point) == 2
        and all(isinstance(v, int | float) and abs(v % 1 - 0.5) < 1e-6 for v in point)
    )


def _edge(point: Any, size: int) -> list[str] | None:
    """The two orthogonal neighbours whose shared edge has its middle at `point`."""
    if not isinstance(point, list) or len(point) != 2:
        return None
    y, x = point
    if not all(isinstance(v, int | float) for v in (y, x)):
        return None
    if abs(y % 1) < 1e-6 and abs(x % 1 - 0.5) < 1e-6:  # between two rows
        r, c = round(y), math.floor(x)
        pair = [(r - 1, c), (r, c)]
    elif abs(x % 1) < 1e-6 and abs(y % 1 - 0.5) < 1e-6:  # between two columns
        r, c = math.floor(y), round(x)
        pair = [(r, c - 1), (r, c)]
    else:
        return None
    if not all(0 <= a < size and 0 <= b < size for a, b in pair):
        return None
    return [f"R{a + 1}C{b + 1}" for a, b in pair]


def _same(value: Any, expected: Any) -> bool:
    """A style property equal to the converter's (colours compared without case)."""
    if isinstance(expected, str) and isinstance(value, str):
        return value.upper() == expected.upper()
    if isinstance(expected, float | int) and not isinstance(expected, bool):
        return isinstance(value, int | float) and abs(value - expected) < 1e-6
    return bool(value == expected)


def _styled(element: Mapping[str, Any], **style: Any) -> bool:
    return all(_same(element.get(key), value) for key, value in style.items())


def _style(**style: Any) -> Callable[[Mapping[str, Any]], bool]:
    """A test for pictures with these style properties."""
    return lambda element: _styled(element, **style)


def _style_in(cell: str, size: int, **style: Any) -> Callable[[Mapping[str, Any]], bool]:
    """A test for pictures with this style centred in `cell`."""
    return lambda element: _styled(element, **style) and _cell(element.get("center"), size) == cell


# The converter's styles (fpuzzlesdecoder.js): properties each constraint's picture carries.
_THERMO = {"color": "#CFCFCF", "thickness": 21}
_THERMO_BULB = {
    "borderColor": "#CFCFCF",
    "backgroundColor": "#CFCFCF",
    "rounded": True,
    "width": 0.85,
    "height": 0.85,
}
_PALINDROME = {"color": "#CFCFCF", "thickness": 16}
_BETWEEN = {"color": "#CFCFCF", "thickness": 2}
_BETWEEN_END = {
    "borderColor": "#CFCFCF",
    "backgroundColor": "#FFFFFF",
    "rounded": True,
    "width": 0.8,
    "height": 0.8,
}
_DIAGONAL = {"color": "#34BBE6", "thickness": 2}
_ARROW = {"color": "#a1a1a1", "headLength": 0.3, "thickness": 5}
_ARROW_BULB = {"borderColor": "#a1a1a1", "backgroundColor": "#ffffff", "rounded": True}
_PILL = {"color": "#a1a1a1", "opacity": 0.7}
_PILL_INSIDE = {"color": "#ffffff", "opacity": 0.8}
_DOT = {"borderColor": "#000000", "rounded": True, "width": 0.3, "height": 0.3}
_XV = {
    "backgroundColor": "#FFFFFF",
    "borderColor": "#FFFFFF",
    "fontSize": 21,
    "rounded": False,
    "width": 0.25,
    "height": 0.25,
}
_SANDWICH = {**_XV, "fontSize": 32}
_LITTLE_KILLER = {**_XV, "fontSize": 28}
_LITTLE_ARROW = {"color": "#000000", "thickness": 2}
_QUAD = {
    "backgroundColor": "#FFFFFF",
    "borderColor": "#000000",
    "fontSize": 14,
    "rounded": True,
    "width": 0.7,
    "height": 0.7,
}
_PARITY = {"borderColor": "#CFCFCF", "backgroundColor": "#CFCFCF", "width": 0.7, "height": 0.7}


class _Reader:
    """Takes the pictures that render a constraint out of the lists; what remains is drawn."""

    def __init__(self, size: int, pictures: dict[str, list[Mapping[str, Any]]]) -> None:
        self.size = size
        self.left = {key: list(range(len(items))) for key, items in pictures.items()}
        self.pictures = pictures
        self.flags: set[str] = set()  # f-puzzles' true/false keys, e.g. diagonal+

    def leftover(self) -> dict[str, int]:
        return {key: len(indices) for key, indices in self.left.items() if indices}

    def take(
        self, key: str, test: Callable[[Mapping[str, Any]], bool]
    ) -> Iterator[tuple[int, Mapping[str, Any]]]:
        """Each remaining picture of `key` that passes `test`, removed as it is yielded."""
        for index in list(self.left[key]):
            element = self.pictures[key][index]
            if index in self.left[key] and test(element):
                self.left[key].remove(index)
                yield index, element

    def find(self, key: str, test: Callable[[Mapping[str, Any]], bool]) -> bool:
        """Remove one remaining picture of `key` passing `test`; False if there is none."""
        return next(self.take(key, test), None) is not None

    def path(self, element: Mapping[str, Any]) -> list[str] | None:
        """The cells a line or arrow passes through, when every point is inside the grid."""
        points = element.get("wayPoints")
        if not isinstance(points, list) or len(points) < 2:
            return None
        cells = [_cell(point, self.size) for point in points]
        return None if None in cells else [c for c in cells if c is not None]

    def read_all(self, data: dict[str, Any], flags: Any) -> None:
        for read in (self.cages, self.lines, self.arrows, self.dots, self.clues, self.cells):
            for key, entries in read().items():
                if entries:
                    data.setdefault(key, []).extend(entries)
        self.globals(data, flags)
        data.update(dict.fromkeys(self.flags, True))

    def globals(self, data: dict[str, Any], flags: Any) -> None:
        if not isinstance(flags, list | type(None)):
            raise PuzzleError("SudokuPad 'global' must be a list of rule names")
        for name in flags or ():
            if name in _GLOBALS:
                self.flags.add("disjointgroups" if name == "disjoint" else str(name))
            elif name in _NEGATIVE:
                data.setdefault("negative", []).append(_NEGATIVE[name])
            else:
                raise PuzzleError(f"SudokuPad global rule {name!r} is not supported")

    def cages(self) -> dict[str, list[dict[str, Any]]]:
        """Killer cages (cells, `unique`, a whole-number total or none at all is refused as a
        drawing: only the rules text says what a cage without a total means), extra regions."""
        killer: list[dict[str, Any]] = []
        extra: list[dict[str, Any]] = []
        list(self.take("cages", lambda cage: not cage.get("cells")))  # title: … and empty ones
        for _, cage in self.take("cages", self.is_killer):
            cells = self.cage_cells(cage)
            killer.append({"cells": cells, "value": str(int(cage["value"]))})
        for _, cage in self.take("cages", lambda c: c.get("style") == "extraregion"):
            extra.append({"cells": self.cage_cells(cage)})
        list(self.take("cages", lambda c: c.get("type") == "disjoint"))  # read as the global
        return {"killercage": killer, "extraregion": extra}

    def is_killer(self, cage: Mapping[str, Any]) -> bool:
        value = cage.get("value")
        total = int(value) if isinstance(value, str) and value.strip().isdigit() else value
        return (
            cage.get("unique") is True
            and cage.get("style") in (None, "killer")
            and not cage.get("hidden")
            and type(total) is int
            and total > 0
        )

    def cage_cells(self, cage: Mapping[str, Any]) -> list[str]:
        cells = cage.get("cells")
        if not isinstance(cells, list):
            raise PuzzleError("SudokuPad cage: 'cells' must be a list of [row, col]")
        return [
            "R{}C{}".format(*(v + 1 for v in _rc(rc, self.size, "SudokuPad cage"))) for rc in cells
        ]

    def lines(self) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {
            "thermometer": [],
            "palindrome": [],
            "betweenline": [],
        }
        n = self.size
        for index, line in self.take("lines", _style(**_DIAGONAL)):
            points = line.get("wayPoints")
            if points == [[0, n], [n, 0]]:
                self.flags.add("diagonal+")
            elif points == [[0, 0], [n, n]]:
                self.flags.add("diagonal-")
            else:
                self.left["lines"].append(index)  # the same style elsewhere: a drawing
        for key, style in (("thermometer", _THERMO), ("palindrome", _PALINDROME)):
            for index, line in self.take("lines", _style(**style)):
                cells = self.path(line)
                bulb_ok = key != "thermometer" or (
                    cells is not None
                    and self.find("underlays", _style(**_THERMO_BULB, center=line["wayPoints"][0]))
                )
                if cells is None or not bulb_ok:
                    self.left["lines"].append(index)
                    continue
                out[key].append({"lines": [cells]})
        for index, line in self.take("lines", _style(**_BETWEEN)):
            cells = self.path(line)
            ends = [] if cells is None else [cells[0], cells[-1]]
            found = [self.find("overlays", _style_in(end, n, **_BETWEEN_END)) for end in ends]
            if cells is None or not all(found) or len(found) != 2:
                self.left["lines"].append(index)
                continue
            out["betweenline"].append({"lines": [cells]})
        return {key: value for key, value in out.items() if value}

    def arrows(self) -> dict[str, list[dict[str, Any]]]:
        """Arrows: the shaft from the converter's grey arrow, the bulb from the round overlay
        (a straight bulb) or the pair of thick lines (a bent pill) holding its first cell."""
        bulbs: dict[tuple[str, ...], list[list[str]]] = {}  # bulb cells → its arrows' paths
        for index, arrow in self.take("arrows", lambda e: _styled(e, **_ARROW)):
            cells = self.path(arrow)
            bulb = None
            if cells:  # arrows sharing a bulb share its picture, read by the first of them
                known = (b for b in bulbs if cells[0] in b)
                bulb = next(known, None) or self.arrow_bulb(cells[0])
            if cells is None or bulb is None:
                self.left["arrows"].append(index)
                continue
            bulbs.setdefault(bulb, []).append(cells)
        return {"arrow": [{"cells": list(b), "lines": lines} for b, lines in bulbs.items()]}

    def arrow_bulb(self, first: str) -> tuple[str, ...] | None:
        for _, overlay in self.take(
            "overlays", lambda o: _styled(o, **_ARROW_BULB) and first in self.box_cells(o)
        ):
            return tuple(self.box_cells(overlay))
        for index, pill in self.take(
            "lines", lambda e: _styled(e, **_PILL) and first in (self.path(e) or [])
        ):
            cells = self.path(pill) or []
            inside = self.find("lines", _style(**_PILL_INSIDE, wayPoints=pill.get("wayPoints")))
            if inside:
                return tuple(cells)
            self.left["lines"].append(index)
        return None

    def box_cells(self, overlay: Mapping[str, Any]) -> list[str]:
        """The cells a converter bulb spans: 0.83 wide for one cell, one more per cell."""
        centre, width, height = overlay.get("center"), overlay.get("width"), overlay.get("height")
        if not isinstance(width, int | float) or not isinstance(height, int | float):
            return []
        if not isinstance(centre, list) or len(centre) != 2:
            return []
        rows = round(height - 0.83) + 1
        cols = round(width - 0.83) + 1
        top, left = centre[0] - rows / 2, centre[1] - cols / 2
        cells = [
            _cell([top + dr + 0.5, left + dc + 0.5], self.size)
            for dr in range(rows)
            for dc in range(cols)
        ]
        return [] if None in cells else [c for c in cells if c is not None]

    def dots(self) -> dict[str, list[dict[str, Any]]]:
        """Kropki dots (black: ratio, white: difference; a number on it is its value) and X/V."""
        out: dict[str, list[dict[str, Any]]] = {"ratio": [], "difference": [], "xv": []}
        for key, colour in (("ratio", "#000000"), ("difference", "#FFFFFF")):
            for index, dot in self.take("overlays", _style(**_DOT, backgroundColor=colour)):
                pair = _edge(dot.get("center"), self.size)
                if pair is None:
                    self.left["overlays"].append(index)
                    continue
                entry: dict[str, Any] = {"cells": pair}
                if str(dot.get("text", "")).strip():
                    entry["value"] = str(dot["text"]).strip()
                out[key].append(entry)
        for index, mark in self.take("overlays", _style(**_XV)):
            pair = _edge(mark.get("center"), self.size)
            text = str(mark.get("text", "")).strip().upper()
            if pair is None or text not in ("X", "V"):
                self.left["overlays"].append(index)
                continue
            out["xv"].append({"cells": pair, "value": text})
        return {key: value for key, value in out.items() if value}

    def clues(self) -> dict[str, list[dict[str, Any]]]:
        """Outside clues: sandwich totals, little killers (a total and a small black arrow)."""
        n = self.size
        sandwich: list[dict[str, Any]] = []
        little: list[dict[str, Any]] = []
        for index, clue in self.take("overlays", _style(**_SANDWICH)):
            cell = _cell(clue.get("center"), n, outside=True)
            if cell is None or _cell(clue.get("center"), n) is not None:
                self.left["overlays"].append(index)
                continue
            sandwich.append({"cell": cell, "value": str(clue.get("text", ""))})
        for index, clue in self.take("overlays", _style(**_LITTLE_KILLER)):
            centre = clue.get("center")
            cell = _cell(centre, n, outside=True)
            direction = self.little_arrow(centre) if cell else None
            if cell is None or direction is None:
                self.left["overlays"].append(index)
                continue
            value = str(clue.get("text", "")).strip()
            little.append(
                {"cell": cell, "direction": direction, "value": "" if value == "_" else value}
            )
        return {"sandwichsum": sandwich, "littlekillersum": little}

    def little_arrow(self, centre: Any) -> str | None:
        """The direction of the converter's little arrow drawn from the clue's centre."""
        names = {(-1, 1): "UR", (1, 1): "DR", (1, -1): "DL", (-1, -1): "UL"}
        for index, arrow in self.take("arrows", _style(**_LITTLE_ARROW)):
            points = arrow.get("wayPoints")
            if isinstance(points, list) and len(points) == 2 and _is_centre(centre):
                first = points[0]
                if isinstance(first, list) and len(first) == 2:
                    step = (
                        int(math.copysign(1, first[0] - centre[0])),
                        int(math.copysign(1, first[1] - centre[1])),
                    )
                    offset = [abs(first[k] - centre[k]) for k in (0, 1)]
                    if all(abs(o - 0.3) < 1e-6 for o in offset):  # 0.3 cell out, diagonally
                        return names[step]
            self.left["arrows"].append(index)
        return None

    def cells(self) -> dict[str, list[dict[str, Any]]]:
        """Odd (grey circle) and even (grey square) cells, quadruple circles on cell corners."""
        out: dict[str, list[dict[str, Any]]] = {"odd": [], "even": [], "quadruple": []}
        for key, rounded in (("odd", True), ("even", False)):
            for index, mark in self.take("underlays", _style(**_PARITY, rounded=rounded)):
                cell = _cell(mark.get("center"), self.size)
                if cell is None or not _is_centre(mark.get("center")):
                    self.left["underlays"].append(index)
                    continue
                out[key].append({"cell": cell})
        for index, quad in self.take("overlays", _style(**_QUAD)):
            corner = quad.get("center")
            digits = re.findall(r"\d", str(quad.get("text", "")))
            cells = self.corner_cells(corner)
            if cells is None or not digits:
                self.left["overlays"].append(index)
                continue
            out["quadruple"].append({"cells": cells, "values": [int(d) for d in digits]})
        return {key: value for key, value in out.items() if value}

    def corner_cells(self, corner: Any) -> list[str] | None:
        if not isinstance(corner, list) or len(corner) != 2:
            return None
        if not all(isinstance(v, int | float) and abs(v % 1) < 1e-6 for v in corner):
            return None
        r, c = round(corner[0]), round(corner[1])
        if not (1 <= r < self.size and 1 <= c < self.size):
            return None
        return [f"R{r + dr}C{c + dc}" for dr in (0, 1) for dc in (0, 1)]
