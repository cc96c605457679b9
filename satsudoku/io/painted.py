"""`--paint COLOUR=clone|magicsquare|extraregion|rowindexer|columnindexer|boxindexer`: cells an
f-puzzles setter painted in one colour are clones ("orange regions are clones, and must contain
the same digits in the same orientation"), extra regions ("each colored region must contain the
digits 1-9 exactly once each"), magic squares ("each blue region is a magic square: it contains
the digits 1 through 9 once each, so that the sum of each row, column, and diagonal within the
square is equal to 15"), or indexer cells, each on its own ("each digit in column 1 indicates
which column the 1 appears in its respective row": a column indexer; the `indexer` rule).

A painted colour carries no type (blue is a magic square in one puzzle, a clone in another),
so the user names it. Each orthogonally connected group of cells of the colour is one region;
all of them must have the same shape, moved without turning (as the rules texts say: "in the
same relative positions", "no rotation or reflection"), and each is then a clone of the first:
cells at the same place in two regions hold the same digit. Regions of different shapes, or a
single region, are refused: the meaning would be a guess. For `magicsquare` each region must be
a 3×3 square on a 9×9 board; it holds 1..9 once each (an extra region) and its three rows,
three columns and two diagonals each sum to 15 (killer cages: the only total a magic square of
1..9 has, 45 / 3). For `extraregion` each region must have n cells; a colour whose regions do
not, but which paints exactly n cells in all, is one region drawn in pieces ("the central orange
region is connected diagonally").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from satsudoku.errors import PuzzleError

INDEXERS = ("rowindexer", "columnindexer", "boxindexer")  # f-puzzles' own keys for them
PAINT_TYPES = ("clone", "magicsquare", "extraregion", *INDEXERS)
MAGIC_TOTAL = 15  # each line of a 3×3 magic square of 1..9: 45 / 3
_SPEC = re.compile(r"^#?([0-9A-Fa-f]{6})=([a-z]+)$")
Place = tuple[int, int]


@dataclass(frozen=True)
class PaintType:
    """Cells painted `colour` (RRGGBB, upper case) are `kind`."""

    colour: str
    kind: str

    @property
    def spec(self) -> str:
        return f"{self.colour}={self.kind}"


def parse_paint_type(text: str) -> PaintType:
    """`RRGGBB=TYPE` → a PaintType; ValueError with the reason, one line."""
    match = _SPEC.match(text.strip())
    if not match:
        raise ValueError(f"{text!r:.60} is not RRGGBB=TYPE (e.g. d0d0ff=clone)")
    colour, kind = match.groups()
    if kind not in PAINT_TYPES:
        raise ValueError(f"paint type {kind!r} is not one of {', '.join(PAINT_TYPES)}")
    return PaintType(colour.upper(), kind)


def painted(grid: Any, colour: str) -> set[Place]:
    """The (row, col) of every cell painted `colour` (`c`, or one of `cArray`)."""
    out: set[Place] = set()
    for r, row in enumerate(grid if isinstance(grid, list) else []):
        for c, cell in enumerate(row if isinstance(row, list) else []):
            if not isinstance(cell, Mapping):
                continue
            several = cell.get("cArray")
            colours = [cell.get("c"), *(several if isinstance(several, list) else [])]
            if any(
                isinstance(x, str) and x.strip().upper() in (colour, "#" + colour) for x in colours
            ):
                out.add((r, c))
    return out


def regions(cells: set[Place]) -> list[list[Place]]:
    """The orthogonally connected groups of `cells`, each in reading order, by first cell."""
    left, groups = set(cells), []
    for start in sorted(cells):
        if start not in left:
            continue
        group, todo = [], [start]
        left.discard(start)
        while todo:
            r, c = todo.pop()
            group.append((r, c))
            for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if step in left:
                    left.discard(step)
                    todo.append(step)
        groups.append(sorted(group))
    return groups


def paint_entries(grid: Any, size: int, paint: PaintType) -> dict[str, list[dict[str, Any]]]:
    """The f-puzzles entries (by key) the colour's regions amount to as `paint.kind` says."""
    if paint.kind == "magicsquare":
        return magic_entries(grid, size, paint)
    if paint.kind == "extraregion":
        return {"extraregion": region_entries(grid, size, paint)}
    if paint.kind in INDEXERS:
        return {paint.kind: [indexer_entry(grid, paint)]}
    return {"clone": clone_entries(grid, paint)}


def indexer_entry(grid: Any, paint: PaintType) -> dict[str, Any]:
    """One f-puzzles indexer entry holding every cell painted in the colour (the `indexer`
    rule: rRcC of a column indexer holding X says rRcX holds C); PuzzleError when none is."""
    cells = sorted(painted(grid, paint.colour))
    if not cells:
        raise PuzzleError(f"f-puzzles: --paint {paint.spec}: no cell is painted so")
    return {"cells": [f"R{r + 1}C{c + 1}" for r, c in cells]}


def region_entries(grid: Any, size: int, paint: PaintType) -> list[dict[str, Any]]:
    """An `extraregion` entry per region painted in the colour (each of n cells), or one for
    all the colour's cells when they are n in all; PuzzleError otherwise."""
    cells = painted(grid, paint.colour)
    found = regions(cells)
    if found and all(len(region) == size for region in found):
        groups = found
    elif len(cells) == size:
        groups = [sorted(cells)]  # one region drawn in pieces
    else:
        first = next((r for r in found if len(r) != size), None)
        where = f"f-puzzles: --paint {paint.spec}"
        if first is None:
            raise PuzzleError(f"{where}: no cell is painted so")
        raise PuzzleError(
            f"{where}: the region at r{first[0][0] + 1}c{first[0][1] + 1} has {len(first)} "
            f"cells, and the colour {len(cells)}; an extra region has {size}"
        )
    return [{"cells": [f"R{r + 1}C{c + 1}" for r, c in group]} for group in groups]


def magic_entries(grid: Any, size: int, paint: PaintType) -> dict[str, list[dict[str, Any]]]:
    """An `extraregion` and eight `killercage` entries (total 15: rows, columns, diagonals) per
    region painted in the colour; PuzzleError unless each is a 3×3 square of a 9×9 board."""
    where = f"f-puzzles: --paint {paint.spec}"
    if size != 9:
        raise PuzzleError(f"{where}: a magic square of the digits 1..9 needs a 9x9 board")
    found = regions(painted(grid, paint.colour))
    if not found:
        raise PuzzleError(f"{where}: no cell is painted so")
    out: dict[str, list[dict[str, Any]]] = {"extraregion": [], "killercage": []}
    for region in found:
        top, left = region[0]
        square = [(top + dr, left + dc) for dr in range(3) for dc in range(3)]
        if region != square:
            raise PuzzleError(
                f"{where}: the region at r{top + 1}c{left + 1} is not a 3x3 square "
                f"({len(region)} cells)"
            )
        name = [f"R{r + 1}C{c + 1}" for r, c in square]
        lines = [name[0:3], name[3:6], name[6:9], name[0::3], name[1::3], name[2::3]]
        lines += [name[0::4], name[2:7:2]]  # the two diagonals
        out["extraregion"].append({"cells": name})
        out["killercage"].extend({"cells": line, "value": str(MAGIC_TOTAL)} for line in lines)
    return out


def clone_entries(grid: Any, paint: PaintType) -> list[dict[str, Any]]:
    """f-puzzles `clone` entries (`cells`, `cloneCells`) making every region painted in the
    colour a clone of the first; PuzzleError when the regions are fewer than two or differ in
    shape."""
    found = regions(painted(grid, paint.colour))
    where = f"f-puzzles: --paint {paint.spec}"
    if len(found) < 2:
        raise PuzzleError(f"{where}: {len(found)} region painted so; clones need two or more")
    first = found[0]
    shape = [(r - first[0][0], c - first[0][1]) for r, c in first]
    entries = []
    for other in found[1:]:
        if [(r - other[0][0], c - other[0][1]) for r, c in other] != shape:
            at = f"r{other[0][0] + 1}c{other[0][1] + 1}"
            raise PuzzleError(
                f"{where}: the region at {at} has another shape than the one at "
                f"r{first[0][0] + 1}c{first[0][1] + 1}; clones are the same shape, not turned"
            )
        entries.append(
            {
                "cells": [f"R{r + 1}C{c + 1}" for r, c in first],
                "cloneCells": [f"R{r + 1}C{c + 1}" for r, c in other],
            }
        )
    return entries
