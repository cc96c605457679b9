"""Draw a puzzle as SVG (PNG through the optional cairosvg), so a user sees what was read: the
grid, regions, givens, every rule element and, when asked, the solution in another colour."""

from __future__ import annotations

import importlib
import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from satsudoku.errors import SatsudokuError
from satsudoku.grid import Grid
from satsudoku.puzzle import Puzzle
from satsudoku.render.elements import DRAWERS, Scene
from satsudoku.render.svg import CELL, Canvas, Layer, line, text
from satsudoku.rules import Rule

GIVEN_INK, SOLUTION_INK = "#000000", "#1E5FD8"
# Rules with clues beside the grid get a margin a cell wide for them; others a narrow one.
OUTSIDE = {"sandwich", "xsum", "skyscraper", "numberedroom", "littlekiller", "frame"}
OUTSIDE |= {"minmaxsum", "minmaxdifference", "maxposition", "evensandwich", "besidelargest"}
OUTSIDE |= {"prefixsum", "ascendingsum", "longestascending", "paritylongest", "tripletsum"}
OUTSIDE |= {"besidelargestdigits", "adjacentpair", "descriptivepair"}


def render_svg(
    puzzle: Puzzle, solution: Grid | None = None, marks: Sequence[Iterable[int]] | None = None
) -> str:
    """The SVG text of `puzzle`; `solution`'s digits fill the empty cells in blue; `marks`
    (per cell, row-major, digits) are drawn small in the cells without a given, as pencil
    marks (`satsudoku candidates --render`)."""
    specs = [(rule, rule.to_spec()) for rule in puzzle.rules]
    margin = 1.0 if any(spec["type"] in OUTSIDE for _, spec in specs) else 0.25
    header = 0.8 if puzzle.title else 0
    # First draw on a scratch canvas to learn the caption, which sets the footer's height.
    probe = Scene(Canvas(puzzle.size, margin=margin), puzzle.shape)
    for rule, spec in specs:
        _draw(probe, rule, spec)
    width = puzzle.size + 2 * margin
    caption = _wrap(" · ".join(dict.fromkeys(probe.caption)), width)
    footer = 0.45 * len(caption) + 0.35 * bool(caption)
    scene = Scene(Canvas(puzzle.size, margin=margin, header=header, footer=footer), puzzle.shape)
    for rule, spec in specs:
        _draw(scene, rule, spec)
    _grid_lines(scene, puzzle)
    _digits(scene, puzzle, solution)
    if marks is not None:
        _marks(scene, puzzle, marks)
    canvas = scene.canvas
    if puzzle.title:  # a long title shrinks to the width (a character is ~0.6 of its size)
        size = min(0.4 * CELL, 0.95 * canvas.width / (0.62 * len(puzzle.title)))
        at = (canvas.width / 2, 0.45 * CELL)
        canvas.add(Layer.CLUES, text(at, puzzle.title, size, class_="title", font_weight="bold"))
    top = canvas.height - footer * CELL + 0.3 * CELL
    for index, words in enumerate(caption):
        at = (canvas.width / 2, top + (index + 0.5) * 0.45 * CELL)
        canvas.add(Layer.CLUES, text(at, words, 0.3 * CELL, class_="caption", fill="#404040"))
    return canvas.document(puzzle.title)


def _draw(scene: Scene, rule: Rule, spec: Mapping[str, Any]) -> None:
    drawer = DRAWERS.get(str(spec["type"]))
    if drawer is None:  # a plugin's rule: named, since its look is unknown
        scene.caption.append(str(spec["type"]))
    else:
        drawer(scene, spec, rule)


def _wrap(words: str, cells: float) -> list[str]:
    """Caption lines that fit `cells` cells (a character is about 0.17 of a cell wide)."""
    return textwrap.wrap(words, max(10, int(cells / 0.17))) if words else []


def _grid_lines(scene: Scene, puzzle: Puzzle) -> None:
    """Thin cell lines, thick lines where regions meet (any jigsaw shape), a thick frame."""
    n, canvas = puzzle.size, scene.canvas
    region = {cell: index for index, cells in enumerate(puzzle.shape.regions()) for cell in cells}
    thin = dict(stroke="#000000", stroke_width=0.02 * CELL, stroke_linecap="square")
    thick = dict(stroke="#000000", stroke_width=0.07 * CELL, stroke_linecap="square")
    for r in range(n):
        for c in range(n):
            if c + 1 < n:  # the edge right of (r, c)
                bold = region[(r, c)] != region[(r, c + 1)]
                a, b = canvas.corner(r, c + 1), canvas.corner(r + 1, c + 1)
                scene.add(
                    Layer.GRID,
                    line(
                        a, b, **(thick if bold else thin), class_="region-border" if bold else None
                    ),
                )
            if r + 1 < n:  # the edge below (r, c)
                bold = region[(r, c)] != region[(r + 1, c)]
                a, b = canvas.corner(r + 1, c), canvas.corner(r + 1, c + 1)
                scene.add(
                    Layer.GRID,
                    line(
                        a, b, **(thick if bold else thin), class_="region-border" if bold else None
                    ),
                )
    x, y = canvas.corner(0, 0)
    frame = f'x="{x:g}" y="{y:g}" width="{n * CELL:g}" height="{n * CELL:g}"'
    scene.add(
        Layer.GRID,
        f'<rect {frame} fill="none" stroke="#000000" '
        f'stroke-width="{0.08 * CELL:g}" class="frame"/>',
    )


def _digits(scene: Scene, puzzle: Puzzle, solution: Grid | None) -> None:
    symbols = puzzle.symbols
    size = (0.62 if puzzle.size <= 9 else 0.5) * CELL

    def symbol(digit: int) -> str:
        return str(digit) if symbols.is_numeric else symbols.symbols[digit - 1]

    for cell, digit in puzzle.given_cells():
        scene.add(
            Layer.DIGITS,
            text(scene.canvas.centre(cell), symbol(digit), size, fill=GIVEN_INK, class_="given"),
        )
    if solution is None:
        return
    for index, digit in enumerate(solution.values):
        cell = divmod(index, puzzle.size)
        if digit and not puzzle.givens[cell]:
            scene.add(
                Layer.DIGITS,
                text(
                    scene.canvas.centre(cell),
                    symbol(digit),
                    size,
                    fill=SOLUTION_INK,
                    class_="solved",
                ),
            )


def _marks(scene: Scene, puzzle: Puzzle, marks: Sequence[Iterable[int]]) -> None:
    """Digit d at its place in a small rows × cols keypad (1 2 3 / 4 5 6 / 7 8 9 on 9×9)."""
    n = puzzle.size
    rows = puzzle.shape.box_rows or max(r for r in range(1, math.isqrt(n) + 1) if n % r == 0)
    cols = -(-n // rows)
    step = CELL / max(rows, cols)
    symbols = puzzle.symbols
    for index, digits in enumerate(marks):
        cell = divmod(index, n)
        if puzzle.givens[cell]:
            continue
        x, y = scene.canvas.centre(cell)
        for digit in digits:
            row, col = divmod(digit - 1, cols)
            at = (x + (col - (cols - 1) / 2) * step, y + (row - (rows - 1) / 2) * step)
            mark = symbols.symbol(digit)
            scene.add(Layer.DIGITS, text(at, mark, 0.75 * step, fill=SOLUTION_INK, class_="mark"))


def svg_to_png(svg: str) -> bytes:
    """Rasterise with cairosvg, the optional extra `satsudoku[png]`."""
    try:
        cairosvg: Any = importlib.import_module("cairosvg")
    except (ImportError, OSError) as exc:  # OSError: the package is there, libcairo is not
        raise SatsudokuError(
            f"PNG output needs cairosvg ({exc}): pip install 'satsudoku[png]', or write .svg"
        ) from None
    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    return png
