"""Readers of document values (cells, lines, numbers; errors name the field) and board geometry
that rules share; `schema` builds rule fields from the readers."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Set
from functools import lru_cache
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Shape, cell_name
from satsudoku.rules import parse_cell


def check_fields(
    spec: Mapping[str, Any], required: Set[str], optional: Set[str] = frozenset()
) -> None:
    """Reject a missing required field or any field the rule does not know."""
    for name in sorted(required):
        if name not in spec:
            raise PuzzleError(f"missing field {name!r}")
    unknown = sorted(set(spec) - required - optional - {"type"})
    if unknown:
        known = ", ".join(sorted(required | optional)) or "none"
        raise PuzzleError(f"unexpected field {unknown[0]!r} (fields: {known})")


def as_list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise PuzzleError(f"{where} must be a list, not {value!r}")
    return list(value)


def cells_of(value: Any, shape: Shape, where: str, *, minimum: int = 1) -> tuple[Cell, ...]:
    """A list of distinct cells, at least `minimum` of them."""
    cells = tuple(
        parse_cell(item, shape, f"{where}[{i}]") for i, item in enumerate(as_list(value, where))
    )
    if len(cells) < minimum:
        raise PuzzleError(f"{where} needs at least {minimum} cell(s), got {len(cells)}")
    if len(set(cells)) != len(cells):
        repeated = next(c for c in cells if cells.count(c) > 1)
        raise PuzzleError(f"{where} lists {cell_name(repeated)} twice")
    return cells


def line_of(value: Any, shape: Shape, where: str, *, minimum: int = 2) -> tuple[Cell, ...]:
    """A list of distinct cells, each a king's move from the one before."""
    line = cells_of(value, shape, where, minimum=minimum)
    for a, b in zip(line, line[1:], strict=False):
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            raise PuzzleError(f"{where}: {cell_name(a)} and {cell_name(b)} are not neighbours")
    return line


# ASCII digits only: str.isdigit() also admits '²' and '３', which int() then rejects or reads;
# at most 20 digits, since int() refuses (with a traceback) strings past 4,300 digits.
_INTEGER_TEXT = re.compile(r"-?[0-9]{1,20}")


def integer(value: Any, where: str, *, low: int | None = None, high: int | None = None) -> int:
    """An integer within [low, high] (strings of digits, as f-puzzles writes them, too)."""
    if isinstance(value, str) and _INTEGER_TEXT.fullmatch(value.strip()):
        value = int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isascii() and len(value) > 20:
        if value.strip().lstrip("-").isdigit():
            raise PuzzleError(f"{where} has {len(value.strip())} characters; at most 20 digits")
    if not isinstance(value, int) or isinstance(value, bool):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise PuzzleError(f"{where} must be an integer, not {shown}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low if low is not None else '…'}..{high if high is not None else '…'}"
        raise PuzzleError(f"{where} = {value} is outside {bounds}")
    return int(value)


def orthogonal_pairs(shape: Shape) -> Iterator[tuple[Cell, Cell]]:
    """Every pair of orthogonally adjacent cells, each once (right and down)."""
    n = shape.size
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                yield (r, c), (r, c + 1)
            if r + 1 < n:
                yield (r, c), (r + 1, c)


def neighbours(cell: Cell, offsets: tuple[tuple[int, int], ...], n: int) -> Iterator[Cell]:
    """Cells at the given offsets from `cell` that lie on the board."""
    r, c = cell
    for dr, dc in offsets:
        if 0 <= r + dr < n and 0 <= c + dc < n:
            yield r + dr, c + dc


ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))


def adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


@lru_cache(maxsize=16)
def same_house(shape: Shape) -> dict[Cell, frozenset[Cell]]:
    """For each cell, the cells that share a row, column or region with it."""
    peers: dict[Cell, set[Cell]] = {cell: set() for cell in shape.cells()}
    for house in shape.houses():
        for cell in house:
            peers[cell].update(house)
    return {cell: frozenset(p - {cell}) for cell, p in peers.items()}


def distinct_positions(cells: tuple[Cell, ...], shape: Shape) -> tuple[tuple[int, int], ...]:
    """Position pairs of `cells` that share a house, so the houses already make them differ."""
    peers = same_house(shape)
    return tuple(
        (i, j)
        for i in range(len(cells))
        for j in range(i + 1, len(cells))
        if cells[j] in peers[cells[i]]
    )


# Where a clue beside the grid stands, by the spec field that lists it: `left`/`right`/`top`/
# `bottom` (X-sum, skyscraper, numbered room) or a sandwich's `rows` and `cols`.
_CLUE_SIDES: dict[str, Callable[[int, int], Cell]] = {
    "left": lambda i, n: (i, -1),
    "rows": lambda i, n: (i, -1),
    "right": lambda i, n: (i, n),
    "top": lambda i, n: (-1, i),
    "cols": lambda i, n: (-1, i),
    "bottom": lambda i, n: (n, i),
}


def outside_clues(
    spec: Mapping[str, Any], n: int, *, zero_is_clue: bool
) -> Iterator[tuple[Cell, Any]]:
    """Each clue of a rule's document form with the cell outside the grid it stands in.

    None is no clue; so is 0 unless `zero_is_clue` (a sandwich of 0: the crusts touch). X-sum,
    skyscraper and numbered-room documents write 0 for "no clue", since TOML has no null.
    """
    for side, place in _CLUE_SIDES.items():
        for index, clue in enumerate(spec.get(side) or []):
            if clue is None or (clue == 0 and not zero_is_clue):
                continue
            yield place(index, n), clue
