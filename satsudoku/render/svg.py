"""A small SVG canvas in grid coordinates: elements collected by layer, written as one document."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from enum import IntEnum
from xml.sax.saxutils import escape, quoteattr

from satsudoku.grid import Cell

CELL = 48  # pixels per cell; every other measure is a fraction of it
# Characters XML 1.0 forbids even escaped (a NUL in a title made an SVG no reader parses, and
# cairosvg fail with a traceback): dropped from text before it is escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
Point = tuple[float, float]


class Layer(IntEnum):
    """Drawing order, bottom first, as SudokuPad stacks a puzzle: shading under lines under
    the grid, then cages, marks on the grid lines, clues, and digits on top."""

    SHADING = 0
    LINES = 1
    GRID = 2
    CAGES = 3
    MARKS = 4
    CLUES = 5
    DIGITS = 6


class Canvas:
    """An n×n board with `margin` cells of room on every side for clues outside the grid."""

    def __init__(self, size: int, *, margin: float = 1, header: float = 0, footer: float = 0):
        self.size = size
        self.margin = margin
        self.header = header * CELL
        self.width = (size + 2 * margin) * CELL
        self.height = self.header + (size + 2 * margin) * CELL + footer * CELL
        self._layers: dict[Layer, list[str]] = {layer: [] for layer in Layer}

    def corner(self, r: float, c: float) -> Point:
        """The pixel of grid point (r, c): the top-left corner of cell (r, c); fractions and
        values outside 0..n name points between cells or beside the grid."""
        return (self.margin + c) * CELL, self.header + (self.margin + r) * CELL

    def centre(self, cell: Cell) -> Point:
        return self.corner(cell[0] + 0.5, cell[1] + 0.5)

    def add(self, layer: Layer, element: str) -> None:
        self._layers[layer].append(element)

    def document(self, title: str | None = None) -> str:
        """The whole SVG text, white background first."""
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:g}" '
            f'height="{self.height:g}" viewBox="0 0 {self.width:g} {self.height:g}">'
        )
        body = [head]
        if title:
            body.append(f"<title>{xml_text(title)}</title>")
        body.append(f'<rect width="{self.width:g}" height="{self.height:g}" fill="#FFFFFF"/>')
        for layer in Layer:
            body.extend(self._layers[layer])
        body.append("</svg>")
        return "\n".join(body) + "\n"


def xml_text(value: str) -> str:
    """`value` as XML character data: escaped, and without the characters XML cannot hold."""
    return escape(_NOT_XML.sub("", value))


def attrs(**values: object) -> str:
    """XML attributes from keywords: `class_` → class, `stroke_width` → stroke-width."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = f"{value:g}" if isinstance(value, float) else str(value)
        parts.append(f"{name}={quoteattr(text)}")
    return " ".join(parts)


def points(path: Iterable[Point]) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in path)


def polyline(path: Sequence[Point], **style: object) -> str:
    return f"<polyline {attrs(points=points(path), fill='none', **style)}/>"


def line(a: Point, b: Point, **style: object) -> str:
    return f"<line {attrs(x1=a[0], y1=a[1], x2=b[0], y2=b[1], **style)}/>"


def circle(at: Point, radius: float, **style: object) -> str:
    return f"<circle {attrs(cx=at[0], cy=at[1], r=radius, **style)}/>"


def text(at: Point, value: str, size: float, **style: object) -> str:
    """Text centred on `at` (both ways)."""
    style.setdefault("fill", "#000000")
    placed = attrs(
        x=at[0],
        y=at[1],
        font_size=size,
        font_family="DejaVu Sans, Arial, sans-serif",
        text_anchor="middle",
        dominant_baseline="central",
        **style,
    )
    return f"<text {placed}>{xml_text(value)}</text>"
