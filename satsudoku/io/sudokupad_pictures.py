"""SudokuPad pictures read as f-puzzles constraints when they have exactly a style that some
editor gives that constraint and no other: SudokuPad's f-puzzles converter (fpuzzlesdecoder.js),
Sudoku Maker, or SudokuPad's own editor. The rest are drawings.

Coordinates are SudokuPad's: [row, col] from the grid's top-left corner, cell (r, c) spanning
[r, r+1) × [c, c+1), so its centre is [r + 0.5, c + 0.5]; f-puzzles names it R{r+1}C{c+1}.
Every lookup between pictures (a bulb for an arrow, the ends of a between line) goes through an
index built once, so the work stays linear in the number of pictures.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.io.border_marks import (
    CAGE_TYPES,
    MARK_TYPES,
    cage_entry,
    mark_digits,
    mark_entries,
)
from satsudoku.io.outside_text import OUTSIDE_KEYS, outside_clue, outside_option
from satsudoku.io.sudokupad_lines import (
    CELL_TYPES,
    LINE_TYPES,
    READ_APART,
    THIRDS,
    WHISPER_DIFFERENCE,
    CellType,
    LineType,
    option_colour,
    rgba,
    third_digits,
    walk_lines,
)
from satsudoku.io.text import ReadOptions

Picture = Mapping[str, Any]
Style = Mapping[str, Any]  # property → value; a tuple value is a choice among values
Entries = dict[str, list[dict[str, Any]]]

PICTURE_KEYS = ("cages", "lines", "arrows", "overlays", "underlays")
_GLOBALS = {
    "antiknight": "antiknight",
    "antiking": "antiking",
    "nonconsecutive": "nonconsecutive",
    "disjoint": "disjointgroups",
}
_NEGATIVE = {"antiratio": "ratio", "antidifference": "difference", "antixv": "xv"}

# The converter's styles: the properties each constraint's picture carries.
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
_PILL = {"color": "#a1a1a1", "opacity": 0.7}  # a bent pill: this line, and inside it …
_PILL_INSIDE = {"color": "#ffffff", "opacity": 0.8}  # … a white one on the same points
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
_LITTLE_ARROW = {"color": "#000000", "thickness": 2}  # from 0.3 to 0.48 cells out, diagonally
_QUAD = {
    "backgroundColor": "#FFFFFF",
    "borderColor": "#000000",
    "fontSize": 14,
    "rounded": True,
    "width": 0.7,
    "height": 0.7,
}
_PARITY = {"borderColor": "#CFCFCF", "backgroundColor": "#CFCFCF", "width": 0.7, "height": 0.7}

# The editors' own styles, as seen in published puzzles (Sudoku-Bench challenge_100: Sudoku
# Maker ids start `sxsm_`). A tuple is a choice: Sudoku Maker scales some sizes by 0.64 (3 →
# 3.2 wide, 30 → 19.2), by version. Each editor pairs a line with its own bulb: a grey line and
# a round grey bulb centred on its first point is a thermometer; a grey arrow starting in a
# white circle with a grey rim is an arrow. A coloured line alone (renban, whispers, region
# sums, entropic, …: only the rules text tells) and the editors' text stay drawings.
_MAKER_GREY, _MAKER_ARROW_GREY = "#CCCCCC", "#AAAAAA"
_THERMOS: tuple[tuple[Style, str, Style], ...] = (
    (_THERMO, "underlays", _THERMO_BULB),
    (
        {"color": _MAKER_GREY, "thickness": (19, 19.2)},  # Sudoku Maker
        "underlays",
        {"backgroundColor": _MAKER_GREY, "rounded": True, "width": 0.8, "height": 0.8},
    ),
    (
        {"color": "#CFCFCF", "thickness": 11},  # SudokuPad's editor
        "overlays",
        {
            "backgroundColor": "#CFCFCF",
            "borderColor": "#CFCFCF",
            "rounded": True,
            "width": 0.65,
            "height": 0.65,
        },
    ),
)
_MAKER_ARROW = {"color": _MAKER_ARROW_GREY, "headLength": 0.35, "thickness": (3, 3.2, 5)}
_MAKER_ARROW_BULB = {
    "backgroundColor": "#FFFFFF",
    "borderColor": _MAKER_ARROW_GREY,
    "rounded": True,
    "width": (0.82, 0.88),
    "height": (0.82, 0.88),
}
_KROPKI: dict[str, tuple[Style, ...]] = {
    "ratio": (
        {**_DOT, "backgroundColor": "#000000"},
        {
            "backgroundColor": "#000000",
            "rounded": True,
            "width": (0.33, 0.34),
            "height": (0.33, 0.34),
        },  # Sudoku Maker
        {**_DOT, "backgroundColor": "#000000", "width": 0.25, "height": 0.25},  # SudokuPad
    ),
    "difference": (
        {**_DOT, "backgroundColor": "#FFFFFF"},
        {**_DOT, "backgroundColor": "#FFFFFF", "width": 0.34, "height": 0.34},  # Sudoku Maker
        {**_DOT, "backgroundColor": "#FFFFFF", "width": 0.25, "height": 0.25},  # SudokuPad
    ),
}
# X and V: the letter on a small white disc that hides the grid line under it.
_XVS: tuple[Style, ...] = (
    _XV,
    {
        "backgroundColor": "#FFFFFF",
        "fontSize": 14,
        "rounded": True,
        "width": 0.35,
        "height": 0.35,
        "borderColor": (None, "#FFFFFF"),
    },  # Sudoku Maker, SudokuPad
    {
        "backgroundColor": "#FFFFFF",
        "borderColor": "#FFFFFF",
        "fontSize": 15,
        "rounded": True,
        "width": 0.3,
        "height": 0.2,
    },  # SudokuPad
)
# Rules texts (and titles) that give a drawn constraint another meaning than its picture's
# usual one (seen in published puzzles: "Slow Thermos", "Digits on an arrow have the DIFFERENCE
# of the digit in the attached circle", "Negative Arrows"). A match only turns reads into
# refusals, never the reverse.
_NEAR = r"[^.\n]{0,120}"
_TWISTS = {
    "thermometer": re.compile(
        rf"slow{_NEAR}thermo|thermo{_NEAR}(?:slow|(?:may|can)\s+repeat|not\s+strictly"
        r"|stays?\s+the\s+same|or\s+(?:be\s+)?equal|decreas)",
        re.IGNORECASE,
    ),
    "littlekiller": re.compile(
        rf"(?:diagonal|little\s+killer){_NEAR}(?:product|multipl|differen|count|parity)",
        re.IGNORECASE,
    ),
    "arrow": re.compile(
        rf"arrow{_NEAR}(?:differen|product|multipl|negat|minus)"
        rf"|(?:negat|multiplicat|differen)\w*\s+arrow",
        re.IGNORECASE,
    ),
}
# Sudoku Maker's little killer: the total in an outside cell, and a short arrow from 0.234 cells
# out along the diagonal it sums ("Values outside the grid give the sum along the indicated
# diagonal"). The same arrow without a total is a drawing ("Every indicated diagonal has the
# same product").
_MAKER_TOTAL = {"width": 1, "height": 1, "fontSize": 32, "rounded": True, "color": "#000000"}
_MAKER_LITTLE = {"color": "#000000", "headLength": 0.18, "thickness": (2.56, 3)}
_DIRECTIONS = {(-1, 1): "UR", (1, 1): "DR", (1, -1): "DL", (-1, -1): "UL"}
_EPSILON = 1e-6


def read_pictures(
    size: int,
    pictures: Mapping[str, list[Picture]],
    flags: Any,
    rules_text: str = "",
    typed: ReadOptions | None = None,
    regions: Mapping[tuple[int, int], Any] | None = None,
) -> tuple[dict[str, Any], dict[str, int], tuple[str, str]]:
    """The f-puzzles keys the pictures and global flags amount to, the pictures left unread
    per SudokuPad key (the drawings), and the first of those described for a message, with
    the option that could read it. Lines
    and cells the user typed (`typed`: --line, --cell) are read first: the user's word wins
    over an editor's style; with --unique-cages a cage without a total is a killer cage.
    Where the rules text twists a constraint's usual meaning (slow thermometers, arrows that
    subtract), its pictures stay drawings. `regions`: each cell's region (region sum loops)."""
    twisted = {name for name, pattern in _TWISTS.items() if pattern.search(rules_text)}
    typed = typed or ReadOptions()
    reader = _Reader(
        size,
        pictures,
        twisted,
        unique_cages=typed.unique_cages,
        regions=regions,
        cage_type=typed.cage,
    )
    data: dict[str, Any] = {}
    for read in (
        partial(reader.typed, typed.lines),
        partial(reader.marked, typed.cells),
        reader.cages,
        reader.lines,
        reader.arrows,
        reader.dots,
        partial(reader.clues, sandwiches=typed.outside in (None, "sandwich")),
        partial(reader.outside_text, typed.outside),
        reader.cells,
    ):
        for key, entries in read().items():
            if entries:
                data.setdefault(key, []).extend(entries)
    data.update(dict.fromkeys(reader.flags, True))
    data.update(_globals(flags))
    return data, reader.leftover(), reader.first_drawing()


def _globals(flags: Any) -> dict[str, Any]:
    """SudokuPad's `global` list: whole-grid rules, and f-puzzles' negative constraints."""
    if flags is None:
        return {}
    if not isinstance(flags, list):
        raise PuzzleError("SudokuPad 'global' must be a list of rule names")
    out: dict[str, Any] = {}
    for name in flags:
        if not isinstance(name, str):
            raise PuzzleError(f"SudokuPad 'global': {name!r:.40} is not a rule name")
        if name in _GLOBALS:
            out[_GLOBALS[name]] = True
        elif name in _NEGATIVE:
            out.setdefault("negative", []).append(_NEGATIVE[name])
        else:
            raise PuzzleError(f"SudokuPad global rule {name!r:.40} is not supported")
    return out


# --- geometry ---


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _point(value: Any) -> tuple[float, float] | None:
    if isinstance(value, list) and len(value) == 2 and _number(value[0]) and _number(value[1]):
        return float(value[0]), float(value[1])
    return None


def _name(r: int, c: int) -> str:
    return f"R{r + 1}C{c + 1}"


def _cell(value: Any, size: int) -> tuple[int, int] | None:
    """The (row, col) a point lies in, or None outside the grid."""
    point = _point(value)
    if point is None:
        return None
    r, c = math.floor(point[0]), math.floor(point[1])
    return (r, c) if 0 <= r < size and 0 <= c < size else None


def _turn(picture: Picture) -> float | None:
    """A mark's rotation in degrees clockwise: f-puzzles' `angle` (put by the f-puzzles reader
    as `fpuzzlesAngle`); 0 for a picture with no rotation key; None for a SudokuPad picture
    turned by a key whose sense is not known here (`angle`, `rotation`)."""
    stated = picture.get("fpuzzlesAngle")
    if stated is not None:
        return float(stated) if isinstance(stated, int | float) else None
    if any(picture.get(key) not in (None, 0) for key in ("angle", "rotation")):
        return None
    return 0


def cell_at(value: Any, size: int, *, outside: bool = False) -> str | None:
    """The cell a point lies in, or None; `outside` admits the ring of clue cells."""
    point = _point(value)
    if point is None:
        return None
    r, c = math.floor(point[0]), math.floor(point[1])
    low, high = (-1, size) if outside else (0, size - 1)
    return _name(r, c) if low <= r <= high and low <= c <= high else None


def _fraction_is(value: float, fraction: float) -> bool:
    return abs(value % 1 - fraction) < _EPSILON or abs(value % 1 - fraction - 1) < _EPSILON


def _is_centre(value: Any) -> bool:
    point = _point(value)
    return point is not None and all(_fraction_is(v, 0.5) for v in point)


def _edge(value: Any, size: int) -> list[str] | None:
    """The two orthogonal neighbours whose shared edge has its middle at the point."""
    point = _point(value)
    if point is None:
        return None
    y, x = point
    if _fraction_is(y, 0) and _fraction_is(x, 0.5):  # on the line between two rows
        pair = [(round(y) - 1, math.floor(x)), (round(y), math.floor(x))]
    elif _fraction_is(x, 0) and _fraction_is(y, 0.5):  # between two columns
        pair = [(math.floor(y), round(x) - 1), (math.floor(y), round(x))]
    else:
        return None
    if all(0 <= r < size and 0 <= c < size for r, c in pair):
        return [_name(r, c) for r, c in pair]
    return None


def _corner(value: Any, size: int) -> list[str] | None:
    """The four cells around a grid corner not on the border."""
    point = _point(value)
    if point is None or not all(_fraction_is(v, 0) for v in point):
        return None
    r, c = round(point[0]), round(point[1])
    if not (1 <= r < size and 1 <= c < size):
        return None
    return [_name(r + dr - 1, c + dc - 1) for dr in (0, 1) for dc in (0, 1)]


# --- styles ---


def _same(value: Any, expected: Any) -> bool:
    """A style property equal to an editor's (colours as RGBA, numbers nearly; a tuple is a
    choice, None the property's absence)."""
    if isinstance(expected, tuple):
        return any(_same(value, choice) for choice in expected)
    if expected is None:
        return value is None
    if isinstance(expected, str) and expected.startswith("#"):
        return isinstance(value, str) and rgba(value) == rgba(expected)
    if isinstance(expected, str):
        return isinstance(value, str) and value.upper() == expected.upper()
    if isinstance(expected, bool):
        return value is expected
    if _number(expected):
        return _number(value) and abs(value - expected) < _EPSILON
    return bool(value == expected)


def _styled(picture: Picture, style: Style | tuple[Style, ...]) -> bool:
    """The picture has every property of the style (or of one of several styles)."""
    if isinstance(style, tuple):
        return any(_styled(picture, one) for one in style)
    return all(_same(picture.get(key), value) for key, value in style.items())


class _Reader:
    """Takes the pictures that render a constraint; what remains is drawn."""

    def __init__(
        self,
        size: int,
        pictures: Mapping[str, list[Picture]],
        twisted: set[str] | None = None,
        *,
        unique_cages: bool = False,
        regions: Mapping[tuple[int, int], Any] | None = None,
        cage_type: str | None = None,
    ) -> None:
        self.size = size
        self.regions = regions
        self.unique_cages = unique_cages  # --unique-cages: a cage without a total is a killer
        self.cage_type = cage_type  # --cage contains: a cage's text lists digits in it
        self.pictures = pictures
        self.twisted = twisted or set()  # constraints the rules text gives another meaning
        # Remaining pictures per key, as an ordered set of indices (dict keys).
        self.left = {key: dict.fromkeys(range(len(pictures.get(key, [])))) for key in PICTURE_KEYS}
        for key in ("underlays", "overlays"):
            for index, picture in enumerate(pictures.get(key, [])):
                if _invisible(picture):
                    del self.left[key][index]  # draws nothing (SudokuPad's board-position box)
        self.flags: set[str] = set()

    def leftover(self) -> dict[str, int]:
        return {key: len(left) for key, left in self.left.items() if left}

    def first_drawing(self) -> tuple[str, str]:
        """The first picture left unread, as a message names it (lines first: --line can say
        what they are), and the option that could say what it is ('' if none); empty when all
        were read."""
        for key in ("lines", "arrows", "cages", "underlays", "overlays"):
            for index in self.left[key]:
                picture = self.pictures[key][index]
                return _describe(key, picture, self.size), _option(key, picture, self.size)
        return "", ""

    # --- lines the user typed (--line) ---

    def typed(self, types: Sequence[LineType]) -> Entries:
        """Every remaining line in a style the user typed, read as that type, with the
        decorations its type draws (a bulb, end circles, a centre dot). A typed line that is
        no path of cell centres, or a thermometer whose bulb end is not clear, is refused:
        the user said what it is, so leaving it out silently would be wrong."""
        out: Entries = {}
        if not types:
            return out
        marks = {
            key: self.index(key, {}, lambda p: [_point_key(p.get("center"))])
            for key in ("underlays", "overlays")
        }
        bulbs: set[Any] = set()  # bulb centres claimed (several lines may leave one bulb)
        drawn: dict[tuple[LineType, tuple[int, int]], Picture] = {}  # cells of whole-line types
        arrows = [t for t in types if LINE_TYPES[t.kind][1] == "circle"]
        heads = self.index("lines", {}, partial(_head_tip, arrows)) if arrows else {}
        chevrons = {index for found in heads.values() for index in found}
        for index in list(self.left["lines"]):
            line = self.pictures["lines"][index]
            kind = next((t for t in types if t.matches(line)), None)
            if kind is None or index in chevrons or index not in self.left["lines"]:
                continue
            cells = self.typed_cells(line, kind)
            points = [_point_key(p) for p in line["wayPoints"]]
            colour = rgba(str(line.get("color")))
            key, mark, walk = LINE_TYPES[kind.kind]
            if mark in ("bulb", "circle"):
                start = self.bulb_end(marks, bulbs, line, kind, rim=mark == "circle")
                if start != points[0]:
                    cells.reverse()
                if mark == "circle":  # an arrow: its head on the other end goes with it
                    self.claim(
                        "lines", heads.get(points[-1] if start == points[0] else points[0], [])
                    )
            elif mark == "ends":
                for end in (points[0], points[-1]):
                    self.mark(marks, end, colour)
            elif mark == "middle" and len(cells) % 2:
                self.mark(marks, _centre_key(cells[len(cells) // 2]), colour)
            if kind.kind not in READ_APART:
                self.separate(drawn, kind, line, cells)
            lines = walk_lines(cells, walk, self.regions.get if self.regions else None)
            if lines is None:
                raise PuzzleError(
                    f"SudokuPad: {_describe('lines', line, self.size)} closes a loop or comes "
                    f"back to a cell, which a {kind.kind} line cannot: --line {kind.spec} "
                    "cannot read it"
                )
            entry: dict[str, Any] = {"lines": [[_name(r, c) for r, c in part] for part in lines]}
            if key == "arrow":
                entry["cells"] = [_name(*cells[0])]
            if kind.count is not None:
                entry["value"] = str(kind.count)
            if kind.kind in WHISPER_DIFFERENCE:
                entry["value"] = str(WHISPER_DIFFERENCE[kind.kind])
            out.setdefault(key, []).append(entry)
            del self.left["lines"][index]
        return out

    def bulb_end(
        self,
        marks: dict[str, dict[Any, list[int]]],
        bulbs: set[Any],
        line: Picture,
        kind: LineType,
        *,
        rim: bool,
    ) -> Any:
        """The end of a thermometer or arrow holding its bulb (claimed, or shared with a line
        read before); refused unless exactly one end has one."""
        points = [_point_key(p) for p in line["wayPoints"]]
        colour = rgba(str(line.get("color")))
        ends = (points[0], points[-1])
        # An end on a bulb read before counts too: a thermometer whose tip runs into another's
        # bulb has one at each end, and which is its own is not for satsudoku to guess.
        at = [
            end
            for end in ends
            if end in bulbs or self.mark(marks, end, colour, bulb=True, rim=rim, claim=False)
        ]
        if len(at) != 1 or ends[0] == ends[1]:
            what = "a round bulb of its colour" if not rim else "a circle of its colour"
            raise PuzzleError(
                f"SudokuPad: {_describe('lines', line, self.size)}: --line {kind.spec} "
                f"needs {what} at exactly one end, found at {len(at)}"
            )
        if at[0] not in bulbs:
            self.mark(marks, at[0], colour, bulb=True, rim=rim)
        bulbs.add(at[0])
        return at[0]

    def separate(
        self,
        drawn: dict[tuple[LineType, tuple[int, int]], Picture],
        kind: LineType,
        line: Picture,
        cells: list[tuple[int, int]],
    ) -> None:
        """Refuse a line sharing a cell with another of its style, for a type read on the
        whole line (renban, region sums' segments, palindromes): pictures that meet may be one
        line drawn in pieces or two that cross, and the two readings differ (READ_APART)."""
        for cell in cells:
            other = drawn.setdefault((kind, cell), line)
            if other is not line:
                raise PuzzleError(
                    f"SudokuPad: {_describe('lines', line, self.size)} meets another "
                    f"{option_colour(line.get('color'))} line at r{cell[0] + 1}c{cell[1] + 1}: "
                    f"one {kind.kind} line drawn in pieces or two that cross, which satsudoku "
                    "does not guess"
                )

    def marked(self, types: Sequence[CellType]) -> Entries:
        """Cells holding a circle or square in a style the user typed (--cell): one cell's
        picture at most, centred on it; for a mark type (sum, contains, largest, excludes,
        greaterthan) a shape with text centred on a border of two cells or a corner of four
        (border_marks)."""
        out: Entries = {}
        for key in ("underlays", "overlays") if types else ():
            for index in list(self.left[key]):
                picture = self.pictures[key][index]
                kind = next((t for t in types if t.matches(picture)), None)
                if kind is None:
                    continue
                centre = picture.get("center")
                if kind.on_border:
                    cells = _edge(centre, self.size) or _corner(centre, self.size)
                    stated = picture.get("cellNames")  # f-puzzles: the cells it is drawn on
                    if stated is not None and set(stated) != set(cells or ()):
                        cells = None  # e.g. two diagonal cells, whose centre is a corner
                    for key_read, entry in mark_entries(
                        kind.kind,
                        cells,
                        str(picture.get("text", "")),
                        self.size,
                        "SudokuPad: " + _describe(key, picture, self.size),
                        kind.spec,
                        _turn(picture),
                    ):
                        out.setdefault(key_read, []).append(entry)
                    del self.left[key][index]
                    continue
                cell = cell_at(centre, self.size)
                size = _point([picture.get("width"), picture.get("height")])
                if (
                    cell is None
                    or not _is_centre(centre)
                    or size is None
                    or not all(0 < side <= 1 for side in size)
                ):
                    raise PuzzleError(
                        f"SudokuPad: {_describe(key, picture, self.size)} is not a shape within "
                        f"one cell, centred on it: --cell {kind.spec} cannot read it"
                    )
                if kind.kind in THIRDS:
                    try:
                        digits = third_digits(kind.kind, self.size)
                    except ValueError as exc:
                        raise PuzzleError(f"SudokuPad: --cell {kind.spec}: {exc}") from None
                    entry = {"cells": [cell], "values": digits}  # given candidates
                    out.setdefault("markcandidates", []).append(entry)
                else:
                    out.setdefault(kind.kind, []).append({"cell": cell})
                del self.left[key][index]
        return out

    def typed_cells(self, line: Picture, kind: LineType) -> list[tuple[int, int]]:
        """The cells of a typed line: its points are cell centres, each cell visited once."""
        points = line.get("wayPoints")
        cells = self.path(line, fill=True) if isinstance(points, list) else None
        if cells is None or not all(_is_centre(p) for p in points or ()):
            problem = "is not a path through cell centres"
        elif len(set(cells)) < 2:
            problem = "has one cell"
        else:
            return [_rc_of(name) for name in cells]
        raise PuzzleError(
            f"SudokuPad: {_describe('lines', line, self.size)} {problem}; "
            f"--line {kind.spec} cannot read it"
        )

    def mark(
        self,
        marks: dict[str, dict[Any, list[int]]],
        at: Any,
        colour: str | None,
        *,
        bulb: bool = False,
        rim: bool = True,
        claim: bool = True,
    ) -> bool:
        """Claim (unless `claim` is False) a decoration of the line's colour (fill, or rim
        unless a thermometer's bulb: `rim` False), round if a bulb, centred at `at`, with no
        text; True if one was there."""
        for key in ("underlays", "overlays"):
            for index in marks[key].get(at, []):
                picture = self.pictures[key][index]
                fill = rgba(str(picture.get("backgroundColor")))
                edge = rgba(str(picture.get("borderColor")))
                ours = (fill, *((edge,) if rim else ()))
                if (
                    index in self.left[key]
                    and colour is not None
                    and any(c is not None and c[:6] == colour[:6] for c in ours)
                    and not str(picture.get("text", "")).strip()
                    and (picture.get("rounded") or not bulb)
                ):
                    if claim:
                        del self.left[key][index]
                    return True
        return False

    def take(self, key: str, style: Style | tuple[Style, ...]) -> Iterator[tuple[int, Picture]]:
        """Each remaining picture of `key` with this style, removed as it is yielded."""
        for index in list(self.left[key]):
            picture = self.pictures[key][index]
            if index in self.left[key] and _styled(picture, style):
                del self.left[key][index]
                yield index, picture

    def keep(self, key: str, index: int) -> None:
        """Put a picture back among the drawings: it had a style but not the shape."""
        self.left[key][index] = None

    def index(
        self, key: str, style: Style | tuple[Style, ...], places: Callable[[Picture], list[Any]]
    ) -> dict[Any, list[int]]:
        """The remaining pictures of `key` with this style by each place `places` gives."""
        found: dict[Any, list[int]] = {}
        for index in self.left[key]:
            picture = self.pictures[key][index]
            if _styled(picture, style):
                for place in places(picture):
                    found.setdefault(place, []).append(index)
        return found

    def claim(self, key: str, candidates: list[int]) -> int | None:
        """Take the first still-remaining picture among `candidates`; its index."""
        for index in candidates:
            if index in self.left[key]:
                del self.left[key][index]
                return index
        return None

    def path(self, picture: Picture, *, fill: bool = False) -> list[str] | None:
        """The cells of a line or arrow's points, when every point is inside the grid. The
        converter draws one point per f-puzzles cell, which are the line's cells even where two
        are apart; with `fill` (the editors, which keep only turning points) the cells between
        two points are added, and a piece that runs along no row, column or diagonal makes the
        picture a drawing."""
        points = picture.get("wayPoints")
        if not isinstance(points, list) or len(points) < 2:
            return None
        cells: list[tuple[int, int]] = []
        for point in points:  # one at a time: a hostile line stops at the length cap
            corner = _cell(point, self.size)
            if corner is None:
                return None
            if fill and cells and corner != cells[-1]:
                (r, c), (dr, dc) = cells[-1], (corner[0] - cells[-1][0], corner[1] - cells[-1][1])
                if dr and dc and abs(dr) != abs(dc):
                    return None  # a knight-like jump crosses cells ambiguously
                steps = max(abs(dr), abs(dc))
                step_r, step_c = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
                cells += [(r + k * step_r, c + k * step_c) for k in range(1, steps)]
            if not (fill and cells and corner == cells[-1]):  # the rim, then the centre
                cells.append(corner)
            if len(cells) > 4 * self.size * self.size:
                return None  # no constraint's line is this long
        return [_name(r, c) for r, c in cells]

    # --- the constraints ---

    def cages(self) -> Entries:
        """Killer cages: cells, `unique` and a whole-number total. A cage without a total is a
        drawing: SudokuPad itself lets the rules text decide what it means (Sudoku Maker sets
        `unique` even where the rules let digits repeat). Also extra regions; cages without
        cells (metadata such as `title: …`) and the converter's disjoint-group cages (the
        global `disjoint` is read instead) draw nothing."""
        killer: list[dict[str, Any]] = []
        extra: list[dict[str, Any]] = []
        contains: list[dict[str, Any]] = []
        for index in list(self.left["cages"]):
            cage = self.pictures["cages"][index]
            written = str(cage.get("value") or "").strip()
            if not cage.get("cells") or cage.get("type") == "disjoint":
                del self.left["cages"][index]
            elif self.cage_type == "contains" and written and not cage.get("hidden"):
                described = "SudokuPad: " + _describe("cages", cage, self.size)
                contains.append(cage_entry(self.cage_cells(cage), written, self.size, described))
                del self.left["cages"][index]
            elif (total := _total(cage)) is not None:
                killer.append({"cells": self.cage_cells(cage), "value": str(total)})
                del self.left["cages"][index]
            elif self.unique_cages and _blank_killer(cage):
                killer.append({"cells": self.cage_cells(cage)})
                del self.left["cages"][index]
            elif cage.get("style") == "extraregion":
                extra.append({"cells": self.cage_cells(cage)})
                del self.left["cages"][index]
        return {"killercage": killer, "extraregion": extra, "quadruple": contains}

    def cage_cells(self, cage: Picture) -> list[str]:
        cells = cage.get("cells")
        if not isinstance(cells, list) or len(cells) > self.size * self.size:
            raise PuzzleError("SudokuPad cage: 'cells' must be a list of [row, col]")
        return [_name(*rc(cell, self.size, "SudokuPad cage")) for cell in cells]

    def lines(self) -> Entries:
        """Thermometers (with their bulb), palindromes, between lines (with their two end
        circles) and the two diagonals."""
        n = self.size
        out: Entries = {"thermometer": [], "palindrome": [], "betweenline": []}
        for index, line in self.take("lines", _DIAGONAL):
            points = line.get("wayPoints")
            if points == [[0, n], [n, 0]]:
                self.flags.add("diagonal+")
            elif points == [[0, 0], [n, n]]:
                self.flags.add("diagonal-")
            else:
                self.keep("lines", index)
        for line_style, key, bulb_style in () if "thermometer" in self.twisted else _THERMOS:
            fill = line_style is not _THERMO
            out["thermometer"] += self.thermometers(line_style, key, bulb_style, fill=fill)
        for index, line in self.take("lines", _PALINDROME):
            cells = self.path(line)
            if cells is None:
                self.keep("lines", index)
                continue
            out["palindrome"].append({"lines": [cells]})
        ends = self.index("overlays", _BETWEEN_END, lambda o: [cell_at(o.get("center"), n)])
        for index, line in self.take("lines", _BETWEEN):
            cells = self.path(line)
            if cells is None or len(cells) < 2 or not self.claim_ends(ends, cells):
                self.keep("lines", index)
                continue
            out["betweenline"].append({"lines": [cells]})
        return out

    def thermometers(
        self, line_style: Style, key: str, bulb_style: Style, *, fill: bool
    ) -> list[Any]:
        """Lines of one editor's thermometer style whose first point is the centre of a bulb of
        that editor's style; several lines may leave one bulb (SudokuPad's editor draws a
        branching thermometer so), the converter draws one bulb per line."""
        bulbs = self.index(key, bulb_style, lambda u: [_point(u.get("center"))])
        shared: set[tuple[float, float]] = set()  # centres of the bulbs already claimed
        found: list[Any] = []
        for index, line in self.take("lines", line_style):
            cells = self.path(line, fill=fill)
            first = _point(line["wayPoints"][0]) if cells else None
            if first is None or (
                self.claim(key, bulbs.get(first, [])) is None and first not in shared
            ):
                self.keep("lines", index)
                continue
            shared.add(first)
            found.append({"lines": [cells]})
        return found

    def claim_ends(self, ends: dict[Any, list[int]], cells: list[str]) -> bool:
        """Both end circles of a between line, or neither (left as drawings)."""
        start = self.claim("overlays", ends.get(cells[0], []))
        if start is None:
            return False
        if self.claim("overlays", ends.get(cells[-1], [])) is None:
            self.keep("overlays", start)
            return False
        return True

    def arrows(self) -> Entries:
        """Arrows: the shaft from the converter's grey arrow; the bulb from the round overlay
        (one cell, or a straight pill 0.83 + one per extra cell long) or the pair of thick
        lines (a bent pill) holding the arrow's first cell. Arrows share their bulb's picture."""
        bulbs: dict[tuple[str, ...], list[list[str]]] = {}
        owner: dict[str, tuple[str, ...]] = {}  # bulb cell → its bulb, once read
        if "arrow" in self.twisted:
            return {}
        self.arrows_of(_ARROW, _ARROW_BULB, bulbs, owner, pills=True)
        self.arrows_of(_MAKER_ARROW, _MAKER_ARROW_BULB, bulbs, owner, pills=False)
        return {"arrow": [{"cells": list(b), "lines": lines} for b, lines in bulbs.items()]}

    def arrows_of(
        self,
        arrow_style: Style,
        bulb_style: Style,
        bulbs: dict[tuple[str, ...], list[list[str]]],
        owner: dict[str, tuple[str, ...]],
        *,
        pills: bool,
    ) -> None:
        """One editor's arrows into `bulbs` (bulb cells → shafts); `pills`: the converter's,
        whose bent bulbs are a pair of lines and whose points are cells (no `fill`). Sudoku
        Maker starts the shaft on the bulb's rim, inside the bulb's cell as the converter's
        centre is."""
        circles = self.index("overlays", bulb_style, self.bulb_cells)
        bent = self.index("lines", _PILL, lambda line: self.path(line) or []) if pills else {}
        insides = self.index("lines", _PILL_INSIDE, lambda line: [_points_key(line)])
        for index, arrow in self.take("arrows", arrow_style):
            cells = self.path(arrow, fill=not pills)
            if cells is None:
                self.keep("arrows", index)
                continue
            bulb = owner.get(cells[0])
            circle = None if bulb else self.claim("overlays", circles.get(cells[0], []))
            if circle is not None:
                bulb = tuple(self.bulb_cells(self.pictures["overlays"][circle]))
            pill = None if bulb else self.claim("lines", bent.get(cells[0], []))
            if pill is not None:
                line = self.pictures["lines"][pill]
                if self.claim("lines", insides.get(_points_key(line), [])) is None:
                    self.keep("lines", pill)  # a grey line alone is no bulb
                else:
                    bulb = tuple(self.path(line) or [])
            if not bulb:
                self.keep("arrows", index)
                continue
            owner.update(dict.fromkeys(bulb, bulb))
            bulbs.setdefault(bulb, []).append(cells)

    def bulb_cells(self, overlay: Picture) -> list[str]:
        """The cells of a converter bulb: a straight run of cells around its centre."""
        centre = _point(overlay.get("center"))
        size = _point([overlay.get("height"), overlay.get("width")])
        if centre is None or size is None:
            return []
        height, width = size
        rows, cols = round(height - 0.83) + 1, round(width - 0.83) + 1
        if min(rows, cols) != 1 or max(rows, cols) > self.size:
            return []
        top, left = centre[0] - rows / 2, centre[1] - cols / 2
        cells = [
            cell_at([top + dr + 0.5, left + dc + 0.5], self.size)
            for dr in range(rows)
            for dc in range(cols)
        ]
        return [] if None in cells else [cell for cell in cells if cell is not None]

    def dots(self) -> Entries:
        """Kropki dots (black: ratio, white: difference; a number on one is its value), X/V."""
        out: Entries = {"ratio": [], "difference": [], "xv": []}
        for key, styles in _KROPKI.items():
            for index, dot in self.take("overlays", styles):
                pair = _edge(dot.get("center"), self.size)
                if pair is None:
                    self.keep("overlays", index)
                    continue
                entry: dict[str, Any] = {"cells": pair}
                if text := str(dot.get("text", "")).strip():
                    entry["value"] = text
                out[key].append(entry)
        for index, mark in self.take("overlays", _XVS):
            pair = _edge(mark.get("center"), self.size)
            text = str(mark.get("text", "")).strip().upper()
            if pair is None or text not in ("X", "V"):
                self.keep("overlays", index)
                continue
            out["xv"].append({"cells": pair, "value": text})
        return out

    def clues(self, sandwiches: bool = True) -> Entries:
        """Outside clues: sandwich totals, little killers (a total and a small black arrow
        starting 0.3 cells diagonally out from the clue's centre). Without `sandwiches` (the
        user said numbers beside the grid are other clues: --outside) the converter's sandwich
        style is left to them: the user's word wins over a style."""
        n = self.size
        sandwich: list[dict[str, Any]] = []
        little: list[dict[str, Any]] = []
        for index, clue in self.take("overlays", _SANDWICH if sandwiches else ()):
            centre = clue.get("center")
            cell = cell_at(centre, n, outside=True)
            if cell is None or cell_at(centre, n) is not None or not _is_centre(centre):
                self.keep("overlays", index)
                continue
            sandwich.append({"cell": cell, "value": str(clue.get("text", "")).strip()})
        if "littlekiller" not in self.twisted:
            little += self.little_killers(_LITTLE_KILLER, _LITTLE_ARROW, 0.3, converter=True)
            little += self.little_killers(_MAKER_TOTAL, _MAKER_LITTLE, 0.234, converter=False)
        return {"sandwichsum": sandwich, "littlekillersum": little}

    def outside_text(self, kind: str | None) -> Entries:
        """--outside TYPE: whole numbers alone at the centre of a cell beside the grid, as
        that type's clues (after the styled clues took theirs)."""
        if kind is None:
            return {}
        clues: list[dict[str, str]] = []
        for key in ("overlays", "underlays"):
            for index in list(self.left[key]):
                picture = self.pictures[key][index]
                centre = picture.get("center")
                cell = cell_at(centre, self.size, outside=True)
                if cell is None or cell_at(centre, self.size) is not None:
                    continue
                clue = outside_clue(cell, str(picture.get("text", "")), self.size, kind)
                if clue is not None and _is_centre(centre):
                    del self.left[key][index]
                    clues.append(clue)
        return {OUTSIDE_KEYS[kind]: clues}

    def little_killers(
        self, total_style: Style, arrow_style: Style, offset: float, *, converter: bool
    ) -> list[dict[str, Any]]:
        """A total in an outside cell and a small black arrow starting `offset` cells out from
        its centre along a diagonal, which gives the direction. The converter's `_` is a clue
        left blank; an editor's total must be a whole number outside the grid."""
        n = self.size
        starts = self.index("arrows", arrow_style, lambda a: [_start_key(a)])
        little: list[dict[str, Any]] = []
        for index, clue in self.take("overlays", total_style):
            centre = _point(clue.get("center"))
            cell = cell_at(clue.get("center"), n, outside=True)
            value = str(clue.get("text", "")).strip()
            direction = None
            if (
                cell is not None
                and centre is not None
                and _is_centre(clue.get("center"))
                and (converter or (cell_at(centre, n) is None and is_whole(value)))
            ):
                for (dr, dc), name in _DIRECTIONS.items():
                    key = (
                        round((centre[0] + offset * dr) * 100),
                        round((centre[1] + offset * dc) * 100),
                    )
                    if self.claim("arrows", starts.get(key, [])) is not None:
                        direction = name
                        break
            if direction is None or cell is None:
                self.keep("overlays", index)
                continue
            little.append(
                {"cell": cell, "direction": direction, "value": "" if value == "_" else value}
            )
        return little

    def cells(self) -> Entries:
        """Odd (grey circle) and even (grey square) cells, quadruples on cell corners."""
        out: Entries = {"odd": [], "even": [], "quadruple": []}
        for key, rounded in (("odd", True), ("even", False)):
            for index, mark in self.take("underlays", {**_PARITY, "rounded": rounded}):
                centre = mark.get("center")
                cell = cell_at(centre, self.size)
                if cell is None or not _is_centre(centre):
                    self.keep("underlays", index)
                    continue
                out[key].append({"cell": cell})
        for index, quad in self.take("overlays", _QUAD):
            cells = _corner(quad.get("center"), self.size)
            digits = re.findall(r"\d", str(quad.get("text", "")))
            if cells is None or not digits or len(digits) > 4:
                self.keep("overlays", index)
                continue
            out["quadruple"].append({"cells": cells, "values": [int(d) for d in digits]})
        return out


def rc(value: Any, size: int, where: str) -> tuple[int, int]:
    """A [row, col] pair (0-based) inside the grid."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(v) is int and 0 <= v < size for v in value)
    ):
        raise PuzzleError(f"{where}: {value!r:.40} is not a cell [row, col] of the grid")
    return value[0], value[1]


def _blank_killer(cage: Picture) -> bool:
    """A cage in SudokuPad's default style with cells and no total, shown (--unique-cages)."""
    value = cage.get("value")
    return (
        cage.get("style") in (None, "killer")
        and not cage.get("hidden")
        and (value is None or (isinstance(value, str) and not value.strip()))
    )


def _total(cage: Picture) -> int | None:
    """A killer cage's total: unique digits, SudokuPad's default style, a whole number."""
    if cage.get("unique") is not True or cage.get("style") not in (None, "killer"):
        return None
    if cage.get("hidden"):
        return None
    value = cage.get("value")
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,6}", value.strip()):
        value = int(value.strip())
    return value if type(value) is int and value > 0 else None


def is_whole(text: str) -> bool:
    """A total as the editors write it: ASCII digits, at most six."""
    return re.fullmatch(r"[0-9]{1,6}", text) is not None


def _points_key(line: Picture) -> Any:
    """A hashable form of a line's points, to pair a bent pill with its white inside."""
    points = line.get("wayPoints")
    if not isinstance(points, list):
        return None
    return tuple(_point(point) for point in points)


def _start_key(arrow: Picture) -> Any:
    """Where a little killer's arrow starts, to a hundredth of a cell."""
    points = arrow.get("wayPoints")
    if not isinstance(points, list) or len(points) != 2 or (start := _point(points[0])) is None:
        return None
    return round(start[0] * 100), round(start[1] * 100)


def _invisible(picture: Picture) -> bool:
    """A box whose fill is fully transparent, with no rim, text or text colour: nothing."""
    fill = rgba(str(picture.get("backgroundColor")))
    return (
        fill is not None
        and fill.endswith("00")
        and all(picture.get(key) in (None, "", "none") for key in ("borderColor", "text", "color"))
        and picture.get("stroke") in (None, "none")
    )


def _head_tip(arrows: list[LineType], line: Picture) -> list[Any]:
    """Where an arrowhead drawn as its own line points: a chevron of three points in a typed
    arrow style, its middle on a cell centre and its ends within half a cell of it, off the
    centres; [] for any other line."""
    points = line.get("wayPoints")
    if not any(kind.matches(line) for kind in arrows) or not isinstance(points, list):
        return []
    if len(points) != 3 or not _is_centre(points[1]):
        return []
    tip = _point(points[1])
    ends = [_point(points[0]), _point(points[2])]
    if tip is None or None in ends or any(_is_centre(points[i]) for i in (0, 2)):
        return []
    near = all(
        end is not None and 0 < math.hypot(end[0] - tip[0], end[1] - tip[1]) <= 0.5 for end in ends
    )
    return [_point_key(points[1])] if near else []


def _point_key(value: Any) -> Any:
    """A point to a thousandth of a cell, to pair a line's ends with the pictures on them."""
    point = _point(value)
    return None if point is None else (round(point[0] * 1000), round(point[1] * 1000))


def _centre_key(cell: tuple[int, int]) -> Any:
    return _point_key([cell[0] + 0.5, cell[1] + 0.5])


def _rc_of(name: str) -> tuple[int, int]:
    """(row, col), 0-based, of an `R{r}C{c}` name."""
    row, _, col = name[1:].partition("C")
    return int(row) - 1, int(col) - 1


_SINGULAR = {"lines": "line", "arrows": "arrow", "cages": "cage"}


def _option(key: str, picture: Picture, size: int) -> str:
    """The option that could say what a drawing is: --line for a line, --cell for a filled
    shape within a cell, --unique-cages for a shown cage without a total, --outside for a
    number beside the grid; '' for the rest."""
    if key == "lines":
        if rgba(str(picture.get("color"))) is None:
            return ""  # a colour --line cannot name (not hex)
        colour = option_colour(picture.get("color"))
        return f"--line {colour}=TYPE ({', '.join(list(LINE_TYPES)[:4])}, …)"
    if key == "cages" and _blank_killer(picture):
        return "--unique-cages"
    if key == "cages" and mark_digits(str(picture.get("value") or ""), size):
        return f"--cage TYPE ({', '.join(CAGE_TYPES)})"
    centre = picture.get("center")
    if key in ("underlays", "overlays") and cell_at(centre, size) is None and _is_centre(centre):
        beside = outside_option(cell_at(centre, size, outside=True), str(picture.get("text")), size)
        if beside:
            return beside
    fill = picture.get("backgroundColor")
    extent = _point([picture.get("width"), picture.get("height")])
    between = _edge(centre, size) or _corner(centre, size)
    written = str(picture.get("text", "")).strip()
    if key in ("underlays", "overlays") and rgba(str(fill)) is not None and between and written:
        return f"--cell {option_colour(fill)}=TYPE ({', '.join(MARK_TYPES)})"
    if (
        key in ("underlays", "overlays")
        and rgba(str(fill)) is not None
        and not str(picture.get("text", "")).strip()
        and extent is not None
        and all(0 < side <= 1 for side in extent)
    ):
        return f"--cell {option_colour(fill)}=TYPE ({', '.join(CELL_TYPES)})"
    return ""


def _describe(key: str, picture: Picture, size: int) -> str:
    """A picture as a message names it: its kind, colour (and width) and cells, e.g. `line
    F067F0 (thickness 9.6) through r1c2 r2c3 r3c3`."""
    kind = _SINGULAR.get(key, key.removesuffix("s"))
    order = ("color", "backgroundColor", "borderColor")  # a shape by its fill, a line by its own
    if key in ("underlays", "overlays"):
        order = ("backgroundColor", "borderColor", "color")
    colour = next((picture[k] for k in order if picture.get(k)), None)
    out = kind + (f" {option_colour(colour)}" if colour is not None else "")
    if key in ("lines", "arrows") and _number(picture.get("thickness")):
        out += f" (thickness {picture['thickness']:g})"
    if key == "cages" and isinstance(picture.get("cells"), list):
        cells = [
            cell_at([p[0] + 0.5, p[1] + 0.5], size)
            if isinstance(p, list) and len(p) == 2 and all(map(_number, p))
            else None
            for p in picture["cells"][:9]  # a message names a few: a hostile list is long
        ]
    elif key in ("lines", "arrows") and isinstance(picture.get("wayPoints"), list):
        cells = [cell_at(p, size) for p in picture["wayPoints"][:9]]
    else:
        cells = [cell_at(picture.get("center"), size)]
    named = [c.lower() for c in cells if c is not None]
    if not named:
        return out + " outside the grid"
    shown = " ".join(named[:8]) + (" …" if len(cells) > 8 else "")
    return out + (" through " if key in ("lines", "arrows") else " at ") + shown
