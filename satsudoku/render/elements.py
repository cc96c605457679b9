"""How each rule type looks: one drawer per registered rule type, styled as f-puzzles and
SudokuPad draw it (grey thermometers, pink renban, green whispers, dashed killer cages, …).
Every drawn item carries a class naming what it is, so a test can count them."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from satsudoku.constraints import AllDifferent
from satsudoku.grid import Cell, Shape
from satsudoku.render.svg import (
    CELL,
    Canvas,
    Layer,
    Point,
    attrs,
    circle,
    line,
    points,
    polyline,
    text,
)
from satsudoku.rules import Rule, parse_cell
from satsudoku.rules.fields import outside_clues

# A drawer gets the canvas, the rule's document form and the rule, and may name itself in the
# caption under the grid (for rules that have nothing to draw: anti-knight, …).
Drawer = Callable[["Scene", Mapping[str, Any], Rule], None]


class Scene:
    """The canvas of one puzzle plus what drawers share: its shape and the caption."""

    def __init__(self, canvas: Canvas, shape: Shape) -> None:
        self.canvas, self.shape = canvas, shape
        self.caption: list[str] = []

    def cell(self, name: Any) -> Cell:
        return parse_cell(name, self.shape, "cell")

    def cells(self, names: Iterable[Any]) -> list[Cell]:
        return [self.cell(name) for name in names]

    def add(self, layer: Layer, element: str) -> None:
        self.canvas.add(layer, element)


# --- lines ------------------------------------------------------------------------------------


# Colour and width (fraction of a cell) of each line rule, as f-puzzles and rangsk's tools draw
# them; the ends each rule marks are drawn by `_line_ends`.
LINE_STYLES: dict[str, tuple[str, float]] = {
    "thermometer": ("#C0C0C0", 0.3),
    "slowthermometer": ("#6495ED", 0.3),
    "palindrome": ("#C0C0C0", 0.2),
    "renban": ("#F067F0", 0.25),
    "whispers": ("#67F067", 0.2),
    "between": ("#A0C8FF", 0.12),
    "entropicline": ("#FFCCAA", 0.2),
    "modularline": ("#33BBBB", 0.2),
    "parityline": ("#F08080", 0.2),
    "sameparityline": ("#B0B0B0", 0.2),
    "distinctline": ("#00A3CC", 0.12),
    "arithmeticline": ("#A0A0A0", 0.15),
    "segmentsumline": ("#E0E0E0", 0.2),
    "monotoneline": ("#00FF2F", 0.12),
    "regionsumline": ("#2ECBFF", 0.2),
    "nabner": ("#C9C883", 0.25),
    "lockout": ("#FFA040", 0.12),
    "doublearrow": ("#C54B8B", 0.12),
    "zipperline": ("#CDB1EC", 0.2),
}


def _lines(kind: str) -> Drawer:
    colour, width = LINE_STYLES[kind]

    def draw(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
        for cells in spec["lines"]:
            path = [scene.canvas.centre(c) for c in scene.cells(cells)]
            style = attrs(
                class_=f"line {kind}",
                stroke=colour,
                stroke_width=width * CELL,
                stroke_linecap="round",
                stroke_linejoin="round",
            )
            group = [f"<g {style}>", polyline(path), *_line_ends(kind, path, colour), "</g>"]
            scene.add(Layer.LINES, "".join(group))
        if kind == "whispers" and spec.get("difference") is not None:
            scene.caption.append(f"whispers: difference ≥ {spec['difference']}")
        if kind == "modularline" and spec.get("modulus", 3) != 3:
            scene.caption.append(f"modular lines: modulo {spec['modulus']}")
        if kind == "lockout" and spec.get("difference", 4) != 4:
            scene.caption.append(f"lockout ends differ by ≥ {spec['difference']}")

    return draw


def _line_ends(kind: str, path: Sequence[Point], colour: str) -> list[str]:
    """Bulbs (thermometers), circles at both ends (between lines, double arrows) and diamonds
    (lockout lines)."""
    bulb = 0.4 * CELL
    if kind in ("thermometer", "slowthermometer"):
        ends = [circle(path[0], bulb, fill=colour, stroke="none", class_="bulb")]
        if kind == "slowthermometer":  # a pale core tells it from a strict one
            ends.append(polyline(path, stroke="#E8F4FF", stroke_width=0.1 * CELL))
        return ends
    if kind in ("between", "doublearrow"):
        ring = dict(fill="#FFFFFF", stroke=colour, stroke_width=0.06 * CELL, class_="end")
        return [circle(path[0], 0.38 * CELL, **ring), circle(path[-1], 0.38 * CELL, **ring)]
    if kind == "lockout":
        diamonds = []
        for x, y in (path[0], path[-1]):
            r = 0.38 * CELL
            shape = points([(x, y - r), (x + r, y), (x, y + r), (x - r, y)])
            style = attrs(fill="#FFFFFF", stroke=colour, stroke_width=0.06 * CELL, class_="end")
            diamonds.append(f"<polygon points={_q(shape)} {style}/>")
        return diamonds
    return []


def _q(value: str) -> str:
    return f'"{value}"'


def _arrow(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    """A circle (or a pill round several cells) and a shaft ending in an arrowhead."""
    canvas = scene.canvas
    grey, width = "#A0A0A0", 0.06 * CELL
    for arrow in spec["arrows"]:
        bulb, shaft = scene.cells(arrow["bulb"]), scene.cells(arrow["shaft"])
        parts = [f"<g {attrs(class_='arrow', fill='none', stroke=grey, stroke_width=width)}>"]
        radius = 0.38 * CELL
        if len(bulb) == 1:
            parts.append(circle(canvas.centre(bulb[0]), radius, fill="#FFFFFF"))
        else:  # a pill: a wide grey stroke with a white core
            centres = [canvas.centre(c) for c in bulb]
            parts.append(polyline(centres, stroke_width=2 * radius + width, stroke_linecap="round"))
            parts.append(
                polyline(
                    centres,
                    stroke="#FFFFFF",
                    stroke_width=2 * radius - width,
                    stroke_linecap="round",
                )
            )
        root = min(bulb, key=lambda b: math.dist(canvas.centre(b), canvas.centre(shaft[0])))
        path = [canvas.centre(root), *(canvas.centre(c) for c in shaft)]
        path[0] = _towards(path[0], path[1], radius)
        parts.append(polyline(path, stroke_linejoin="round"))
        parts.append(polyline(_arrowhead(path[-2], path[-1]), stroke_linejoin="round"))
        parts.append("</g>")
        scene.add(Layer.LINES, "".join(parts))


def _marked_arrow(mark: str, kind: str) -> Drawer:
    """An arrow whose bulb is not a sum (maximum, product): drawn as one, with `mark` in the
    bulb cell's corner so the picture does not read as a sum."""

    def draw(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
        _arrow(scene, spec, rule)
        for arrow in spec["arrows"]:
            _corner_label(scene, scene.cells(arrow["bulb"])[0], mark, kind)

    return draw


def _towards(a: Point, b: Point, distance: float) -> Point:
    length = math.dist(a, b) or 1.0
    return a[0] + (b[0] - a[0]) * distance / length, a[1] + (b[1] - a[1]) * distance / length


def _arrowhead(before: Point, tip: Point) -> list[Point]:
    angle = math.atan2(tip[1] - before[1], tip[0] - before[0])
    size = 0.22 * CELL
    wings = [angle + math.pi - 0.5, angle + math.pi + 0.5]
    left, right = ((tip[0] + size * math.cos(w), tip[1] + size * math.sin(w)) for w in wings)
    return [left, tip, right]


# --- cages ------------------------------------------------------------------------------------


def cage_outline(cells: Iterable[Cell], canvas: Canvas, inset: float = 0.08) -> str:
    """SVG path data of the outline of a cell set, `inset` (a fraction of a cell) inside it.

    Each cell side on the boundary becomes one segment; at either end it stops short by the
    inset at a convex corner, runs to the cell edge where the boundary goes straight on, and
    runs past it by the inset at a concave corner, so the segments meet exactly.
    """
    inside = set(cells)
    d = inset
    segments = []
    for r, c in sorted(inside):
        # (outward normal, the two neighbours along the side: start and end direction)
        for (nr, nc), (ar, ac) in (
            ((-1, 0), (0, 1)),
            ((1, 0), (0, 1)),
            ((0, -1), (1, 0)),
            ((0, 1), (1, 0)),
        ):
            if (r + nr, c + nc) in inside:
                continue
            ends = []
            for sign in (-1, 1):
                along = (r + sign * ar, c + sign * ac)
                diagonal = (along[0] + nr, along[1] + nc)
                if along not in inside:
                    ends.append(0.5 - d)  # convex: stop at the perpendicular inset line
                elif diagonal in inside:
                    ends.append(0.5 + d)  # concave: meet the neighbour's side beyond the edge
                else:
                    ends.append(0.5)  # straight on into the neighbour's segment
            # the side lies 0.5 - d from the centre along the normal
            cr, cc = r + 0.5 + nr * (0.5 - d), c + 0.5 + nc * (0.5 - d)
            start = canvas.corner(cr - ar * ends[0], cc - ac * ends[0])
            end = canvas.corner(cr + ar * ends[1], cc + ac * ends[1])
            segments.append(f"M{start[0]:g},{start[1]:g}L{end[0]:g},{end[1]:g}")
    return "".join(segments)


def _cages(kind: str) -> Drawer:
    """Dashed outlines with the clue in the top-left cell's corner (killer, rellik, sum cages)."""

    def draw(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
        for cage in spec["cages"]:
            cells = scene.cells(cage["cells"])
            outline = cage_outline(cells, scene.canvas)
            style = attrs(
                class_=f"cage {kind}",
                fill="none",
                stroke="#000000",
                stroke_width=0.025 * CELL,
                stroke_dasharray=f"{0.1 * CELL:g},{0.06 * CELL:g}",
            )
            scene.add(Layer.CAGES, f'<path d="{outline}" {style}/>')
            if cage.get("sum") is not None:
                label = ("≠" if kind == "rellik" else "") + str(cage["sum"])
                _corner_label(scene, min(cells), label, f"cage-sum {kind}")
        if kind == "sumcage":
            scene.caption.append("sum cages: digits may repeat")

    return draw


def _corner_label(scene: Scene, cell: Cell, label: str, kind: str) -> None:
    """A small clue in a cell's top-left corner, on white so the cage's dashes stop under it."""
    x, y = scene.canvas.corner(cell[0], cell[1])
    size = 0.24 * CELL
    width = 0.16 * CELL * len(label) + 0.04 * CELL
    box = attrs(x=x + 0.04 * CELL, y=y + 0.04 * CELL, width=width, height=size, fill="#FFFFFF")
    at = (x + 0.04 * CELL + width / 2, y + 0.04 * CELL + size / 2)
    scene.add(Layer.CLUES, f"<rect {box}/>" + text(at, label, size, class_=kind))


# --- shading ----------------------------------------------------------------------------------


def _shade(scene: Scene, cells: Iterable[Cell], colour: str, kind: str, opacity: float = 1) -> None:
    for r, c in cells:
        x, y = scene.canvas.corner(r, c)
        box = attrs(
            x=x, y=y, width=CELL, height=CELL, fill=colour, fill_opacity=opacity, class_=kind
        )
        scene.add(Layer.SHADING, f"<rect {box}/>")


def _extra_region(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    _shade(scene, scene.cells(spec["cells"]), "#D8D8D8", "extraregion")


def _windoku(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    """The windows, found from the rule itself: whatever it makes all-different."""
    for constraint in rule.constraints(scene.shape):
        if isinstance(constraint, AllDifferent):
            _shade(scene, constraint.cells, "#D8D8D8", "windoku")


_CLONE_COLOURS = ("#FFE0A0", "#C8E6FF", "#D8F0C8", "#F4D0F0", "#E0E0FF", "#FFD0C8")


def _clone(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    for index, (first, second) in enumerate(spec["pairs"]):
        colour = _CLONE_COLOURS[index % len(_CLONE_COLOURS)]
        for part in (first, second):
            cells = scene.cells([part] if isinstance(part, str) else part)
            _shade(scene, cells, colour, "clone")


def _parity(kind: str) -> Drawer:
    """Odd: a grey circle; even: a grey square (f-puzzles' marks)."""

    def draw(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
        for cell in scene.cells(spec["cells"]):
            x, y = scene.canvas.centre(cell)
            if kind == "odd":
                scene.add(Layer.SHADING, circle((x, y), 0.38 * CELL, fill="#CCCCCC", class_=kind))
            else:
                half = 0.38 * CELL
                box = attrs(
                    x=x - half,
                    y=y - half,
                    width=2 * half,
                    height=2 * half,
                    fill="#CCCCCC",
                    class_=kind,
                )
                scene.add(Layer.SHADING, f"<rect {box}/>")

    return draw


def _counting_circles(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    """A white disc with a black ring in each cell, as the published puzzles draw them."""
    for cell in scene.cells(spec["cells"]):
        at = scene.canvas.centre(cell)
        ring = dict(fill="#FFFFFF", stroke="#000000", stroke_width=0.03 * CELL)
        scene.add(Layer.SHADING, circle(at, 0.4 * CELL, **ring, class_="countingcircle"))


def _fortress(kind: str) -> Drawer:
    """Minimum and maximum cells: grey shading with a chevron at each side pointing in
    (minimum: the neighbours are larger) or out (maximum)."""

    def draw(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
        for r, c in scene.cells(spec["cells"]):
            _shade(scene, [(r, c)], "#E4E4E4", f"{kind}-shade")
            tip, base = (0.38, 0.46) if kind == "minimum" else (0.46, 0.38)
            marks = []
            for side in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                wings = [(base, -0.1), (tip, 0.0), (base, 0.1)]
                marks.append(polyline([_offset(scene, (r, c), side, *w) for w in wings]))
            style = attrs(class_=kind, stroke="#606060", stroke_width=0.03 * CELL)
            scene.add(Layer.MARKS, f"<g {style}>{''.join(marks)}</g>")

    return draw


def _offset(scene: Scene, cell: Cell, side: Cell, out: float, across: float) -> Point:
    """The point `out` from the cell's centre towards `side`, shifted `across` along it."""
    (r, c), (dr, dc) = cell, side
    return scene.canvas.corner(r + 0.5 + dr * out + dc * across, c + 0.5 + dc * out + dr * across)


_INDEXER_COLOURS = {"rows": "#7CC77C", "columns": "#C77C7C", "boxes": "#7C7CC7"}


def _indexer(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    for field, colour in _INDEXER_COLOURS.items():
        _shade(scene, scene.cells(spec.get(field) or []), colour, f"indexer {field}", 0.35)


def _given_candidates(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    """Small digits in a keypad layout, as pencil marks are drawn."""
    n = scene.shape.size
    side = math.ceil(math.sqrt(n))
    for name, digits in spec["candidates"].items():
        r, c = scene.cell(name)
        for digit in digits:
            row, col = divmod(int(digit) - 1, side)
            at = scene.canvas.corner(r + (row + 0.5) / side, c + (col + 0.5) / side)
            scene.add(
                Layer.DIGITS,
                text(at, str(digit), 0.7 * CELL / side, fill="#505050", class_="candidate"),
            )


# --- marks on the grid lines --------------------------------------------------------------------


def _between(scene: Scene, a: Cell, b: Cell) -> Point:
    ax, ay = scene.canvas.centre(a)
    bx, by = scene.canvas.centre(b)
    return (ax + bx) / 2, (ay + by) / 2


def _kropki(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    for colour, fill, default in (("white", "#FFFFFF", 1), ("black", "#000000", 2)):
        for dot in spec.get(colour, []):
            cells, value = (
                (dot["cells"], dot.get("value", default))
                if isinstance(dot, Mapping)
                else (dot, default)
            )
            a, b = scene.cells(cells)
            at = _between(scene, a, b)
            mark = circle(
                at,
                0.13 * CELL,
                fill=fill,
                stroke="#000000",
                stroke_width=0.025 * CELL,
                class_=f"kropki {colour}",
            )
            if value != default:
                ink = "#000000" if colour == "white" else "#FFFFFF"
                mark += text(at, str(value), 0.16 * CELL, fill=ink)
            scene.add(Layer.MARKS, mark)
    if spec.get("negative"):
        which = spec["negative"]
        named = "all dots" if which is True else " and ".join(f"{w} dots" for w in which)
        scene.caption.append(f"kropki: negative constraint ({named} are all given)")


def _xv(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    for mark in ("x", "v"):
        for pair in spec.get(mark, []):
            a, b = scene.cells(pair)
            at = _between(scene, a, b)
            back = circle(at, 0.14 * CELL, fill="#FFFFFF", stroke="none")
            scene.add(
                Layer.MARKS,
                back + text(at, mark.upper(), 0.3 * CELL, class_=f"xv {mark}", font_weight="bold"),
            )
    if spec.get("negative"):
        scene.caption.append("XV: negative constraint (all X and V are given)")


def _greater_than(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    """A chevron on the shared edge, its point towards the smaller cell (`a > b`)."""
    for pair in spec["pairs"]:
        a, b = scene.cells(pair)
        mid = _between(scene, a, b)
        dr, dc = b[0] - a[0], b[1] - a[1]
        size = 0.12 * CELL
        tip = (mid[0] + dc * size, mid[1] + dr * size)
        wings = [
            (mid[0] - dc * size + dr * size, mid[1] - dr * size + dc * size),
            (mid[0] - dc * size - dr * size, mid[1] - dr * size - dc * size),
        ]
        style = dict(stroke="#000000", stroke_width=0.04 * CELL, class_="greaterthan")
        scene.add(Layer.MARKS, polyline([wings[0], tip, wings[1]], **style))


def _quadruple(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    """A circle where the clue's cells meet, holding its digits."""
    for clue in spec["clues"]:
        cells = scene.cells(clue["cells"])
        centres = [scene.canvas.centre(c) for c in cells]
        at = (sum(x for x, _ in centres) / len(centres), sum(y for _, y in centres) / len(centres))
        digits = "".join(str(d) for d in clue["digits"])
        label = digits if len(digits) <= 2 else digits[:2] + "\n" + digits[2:]
        group = [
            circle(
                at,
                0.24 * CELL,
                fill="#FFFFFF",
                stroke="#000000",
                stroke_width=0.025 * CELL,
                class_="quadruple",
            )
        ]
        rows = label.split("\n")
        for index, row in enumerate(rows):
            y = at[1] + (index - (len(rows) - 1) / 2) * 0.17 * CELL
            group.append(text((at[0], y), row, 0.17 * CELL))
        scene.add(Layer.MARKS, "".join(group))


# --- outside the grid ---------------------------------------------------------------------------


def _outside(kind: str) -> Drawer:
    """Clues beside rows and columns: plain (sandwich, numbered room, frame), circled (X-sum)
    or boxed (skyscraper), in the margin cell next to the line they read."""

    def draw(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
        zero_is_clue = kind == "sandwich"
        for place, clue in outside_clues(spec, scene.shape.size, zero_is_clue=zero_is_clue):
            at = scene.canvas.centre(place)
            frame = ""
            if kind == "xsum":
                frame = circle(
                    at, 0.3 * CELL, fill="none", stroke="#000000", stroke_width=0.03 * CELL
                )
            elif kind == "skyscraper":
                half = 0.3 * CELL
                box = attrs(
                    x=at[0] - half,
                    y=at[1] - half,
                    width=2 * half,
                    height=2 * half,
                    fill="none",
                    stroke="#000000",
                    stroke_width=0.03 * CELL,
                )
                frame = f"<rect {box}/>"
            label = text(at, str(clue), 0.4 * CELL, class_=f"clue {kind}")
            scene.add(Layer.CLUES, frame + label)

    return draw


def _line_digits(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    """A clue's digits in the margin cell before its line's first cell."""
    for clue in spec.get("clues", []):
        first, second = (parse_cell(name, scene.shape, "cells") for name in clue["cells"][:2])
        outside = (2 * first[0] - second[0], 2 * first[1] - second[1])
        digits = " ".join(str(d) for d in clue["digits"])
        label = text(scene.canvas.centre(outside), digits, 0.3 * CELL, class_="clue digits")
        scene.add(Layer.CLUES, label)


def _little_killer(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
    """The sum beside the grid where the diagonal starts, with a small arrow along it."""
    n = scene.shape.size
    for clue in spec["clues"]:
        cells = scene.cells(clue["cells"])
        start, step = _diagonal_start(cells, n)
        outside = (start[0] - step[0], start[1] - step[1])
        at = scene.canvas.centre(outside)
        # the number sits towards the cell it points from; the arrow towards the grid
        label_at = (at[0] - step[1] * 0.12 * CELL, at[1] - step[0] * 0.12 * CELL)
        tail = (at[0] + step[1] * 0.12 * CELL, at[1] + step[0] * 0.12 * CELL)
        tip = (at[0] + step[1] * 0.42 * CELL, at[1] + step[0] * 0.42 * CELL)
        style = dict(stroke="#000000", stroke_width=0.03 * CELL)
        parts = [
            text(label_at, str(clue["sum"]), 0.3 * CELL, class_="clue littlekiller"),
            line(tail, tip, **style),
            polyline(_arrowhead(tail, tip), **style),
        ]
        scene.add(Layer.CLUES, "".join(parts))


def _diagonal_start(cells: Sequence[Cell], n: int) -> tuple[Cell, Cell]:
    """Which end of a clue's diagonal lies at the grid's edge, and the step away from it."""
    if len(cells) == 1:
        (r, c) = cells[0]
        for step in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            before = (r - step[0], c - step[1])
            if not (0 <= before[0] < n and 0 <= before[1] < n):
                return cells[0], step
        return cells[0], (1, 1)
    for start, other in ((cells[0], cells[1]), (cells[-1], cells[-2])):
        step = (_sign(other[0] - start[0]), _sign(other[1] - start[1]))
        before = (start[0] - step[0], start[1] - step[1])
        if not (0 <= before[0] < n and 0 <= before[1] < n):
            return start, step
    return cells[0], (_sign(cells[1][0] - cells[0][0]), _sign(cells[1][1] - cells[0][1]))


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


# --- whole-grid rules -----------------------------------------------------------------------------


def _diagonals(*which: str) -> Drawer:
    def draw(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
        n = scene.shape.size
        ends = {"+": ((n, 0), (0, n)), "-": ((0, 0), (n, n))}
        for sign in which:
            (r1, c1), (r2, c2) = ends[sign]
            scene.add(
                Layer.LINES,
                line(
                    scene.canvas.corner(r1, c1),
                    scene.canvas.corner(r2, c2),
                    stroke="#5B8DB8",
                    stroke_width=0.04 * CELL,
                    class_=f"diagonal diagonal{sign}",
                ),
            )

    return draw


def _caption(words: str) -> Drawer:
    """Rules with nothing to draw are named under the grid."""

    def draw(scene: Scene, spec: Mapping[str, Any], rule: Rule) -> None:
        scene.caption.append(words)

    return draw


DRAWERS: dict[str, Drawer] = {
    "diagonal": _diagonals("+", "-"),
    "diagonal+": _diagonals("+"),
    "diagonal-": _diagonals("-"),
    "antiknight": _caption("anti-knight"),
    "antiking": _caption("anti-king"),
    "nonconsecutive": _caption("nonconsecutive"),
    "disjointgroups": _caption("disjoint groups"),
    "windoku": _windoku,
    "extraregion": _extra_region,
    "killer": _cages("killer"),
    "rellik": _cages("rellik"),
    "sumcage": _cages("sumcage"),
    "littlekiller": _little_killer,
    "sandwich": _outside("sandwich"),
    "xsum": _outside("xsum"),
    "skyscraper": _outside("skyscraper"),
    "numberedroom": _outside("numberedroom"),
    "frame": _outside("frame"),
    "minmaxsum": _outside("minmaxsum"),
    "minmaxdifference": _outside("minmaxdifference"),
    "maxposition": _outside("maxposition"),
    "evensandwich": _outside("evensandwich"),
    "besidelargest": _outside("besidelargest"),
    "prefixsum": _outside("prefixsum"),
    "ascendingsum": _outside("ascendingsum"),
    "longestascending": _outside("longestascending"),
    "paritylongest": _outside("paritylongest"),
    "tripletsum": _outside("tripletsum"),
    "besidelargestdigits": _line_digits,
    "adjacentpair": _line_digits,
    "descriptivepair": _line_digits,
    "arrow": _arrow,
    "maxarrow": _marked_arrow("max", "maxarrow"),
    "productarrow": _marked_arrow("\u00d7", "productarrow"),
    **{kind: _lines(kind) for kind in LINE_STYLES},
    "kropki": _kropki,
    "xv": _xv,
    "greaterthan": _greater_than,
    "odd": _parity("odd"),
    "even": _parity("even"),
    "minimum": _fortress("minimum"),
    "maximum": _fortress("maximum"),
    "quadruple": _quadruple,
    "clone": _clone,
    "indexer": _indexer,
    "givencandidates": _given_candidates,
    "countingcircles": _counting_circles,
}
