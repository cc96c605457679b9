"""Indexer cells ("159" puzzles): a cell's digit names where in its row, column or region its
own position number goes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from satsudoku.constraints import Constraint
from satsudoku.grid import Cell, Shape, cell_name
from satsudoku.rules import register_rule
from satsudoku.rules.condition import Condition, Digits, implication_table
from satsudoku.rules.schema import Cells, Declared, empty, spec

KINDS = ("rows", "columns", "boxes")
INDEXERS = Cells(minimum=0)


def indexed(house: Digits, position: int) -> bool:
    """The digit X at `position` (0-based) of an ordered house puts position+1 at place X."""
    return house[house[position] - 1] == position + 1


def index_house(shape: Shape, kind: str, cell: Cell) -> tuple[tuple[Cell, ...], int]:
    """The ordered house a cell indexes and its own position there.

    rows: rRcC holding X puts R in rXcC (the column, top to bottom); columns: rRcC holding X
    puts C in rRcX (the row, left to right); boxes: the cell at position P of its region, in
    reading order, holding X puts P at position X of that region.
    """
    r, c = cell
    if kind == "rows":
        return tuple((i, c) for i in range(shape.size)), r
    if kind == "columns":
        return tuple((r, j) for j in range(shape.size)), c
    region = next(tuple(sorted(reg)) for reg in shape.regions() if cell in reg)
    return region, region.index(cell)


def _index_parts(house: tuple[Cell, ...], position: int, shape: Shape) -> tuple[Constraint, ...]:
    """'The indexer holds X ⇒ place X holds its position' for every X but its own position
    (which points at the indexer itself and always holds)."""
    cell, value = house[position], frozenset({position + 1})
    return tuple(
        implication_table((cell, house[x - 1]), shape.size, x, value, True)
        for x in range(1, shape.size + 1)
        if x - 1 != position
    )


@register_rule("indexer")
@dataclass(frozen=True)
class Indexer(Declared):
    """Row, column and box indexer cells.

    A cell in `columns` (a column indexer), rRcC holding X, says rRcX holds C; in `rows`, rXcC
    holds R; in `boxes`, position X of the cell's region (reading order) holds the cell's own
    position. The "159" puzzle has columns 1, 5 and 9 as column indexers.

    Meaning: f-puzzles keys `rowindexer`, `columnindexer`, `boxindexer` as rangsk's
    SudokuSolver reads them (its Row/Col/Box Indexer: target (X, C) ← R, (R, X) ← C, region
    cell X ← own index) and ISS `Indexing~C` / `Indexing~R`. Posted per cell as "holds X ⇒
    the target holds the position", one table of at most n² pairs for each X.
    """

    type: ClassVar[str] = "indexer"
    rows: tuple[Cell, ...] = spec(INDEXERS, absent=[], omit=empty, default=())
    columns: tuple[Cell, ...] = spec(INDEXERS, absent=[], omit=empty, default=())
    boxes: tuple[Cell, ...] = spec(INDEXERS, absent=[], omit=empty, default=())

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for kind, cells in zip(KINDS, (self.rows, self.columns, self.boxes), strict=True):
            for cell in cells:
                house, position = index_house(shape, kind, cell)
                label = f"{kind[:-1]} indexer {cell_name(cell)}"
                test = partial(indexed, position=position)
                yield Condition(house, label, test, partial(_index_parts, house, position))
