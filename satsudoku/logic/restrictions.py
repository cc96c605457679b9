"""Cage, dot and line restrictions: a candidate goes when no filling of the constraint's cells
from their candidates keeps it (a killer cage of 3 in two cells keeps only 1 and 2)."""

from __future__ import annotations

from functools import lru_cache

from satsudoku.deadline import OutOfTime, building, check_building
from satsudoku.grid import Cell
from satsudoku.logic.state import Board, Restriction, digits_of
from satsudoku.logic.step import Step, removal_text

RESTRICTION = 2.0  # our figure: SE rates classic Sudoku only; a setter reads cages this early
MAX_NODES = 20_000  # per constraint and state: past it, the constraint says nothing this time


def restriction(board: Board) -> Step | None:
    """The first constraint whose candidates can be narrowed, with what goes."""
    layout, n = board.layout, board.n
    for item in layout.restrictions:
        masks = tuple(board.cands[c] for c in item.cells)
        try:
            with building(board.deadline):  # one search may cost seconds (81-cell arrows)
                supported = _supported(item, masks, n)
        except OutOfTime:  # not cached: the same masks without a deadline are searched anew
            return None
        if supported is None:
            continue
        gone = tuple(
            sorted(
                {
                    (cell, d)
                    for cell, mask, keep in zip(item.cells, masks, supported, strict=True)
                    if not board.values[cell]
                    for d in digits_of(mask & ~keep)
                }
            )
        )
        if gone:
            removal = removal_text(layout, gone)
            text = f"{item.label}: no way to fill its cells keeps these; {removal}"
            return Step("restriction", RESTRICTION, text, eliminations=gone)
    return None


@lru_cache(maxsize=8192)
def _supported(item: Restriction, masks: tuple[int, ...], n: int) -> tuple[int, ...] | None:
    """Per cell, the digits some complete filling uses; None when the search is too large.

    Depth-first over the cells with `check` on each partial filling (every vocabulary
    constraint's check is safe on partial boards), cells with fewer candidates first. The
    clock is read every 64 nodes: a check on an 81-cell arrow costs 0.5 ms, so MAX_NODES of
    them took 9 s past a 1 s logic timeout; OutOfTime then.
    """
    cells: list[Cell] = [divmod(c, n) for c in item.cells]
    positions = sorted(range(len(cells)), key=lambda i: masks[i].bit_count())
    support = [0] * len(cells)
    values: dict[Cell, int] = {}
    nodes = 0
    check = item.constraint.check

    def walk(depth: int) -> bool:
        nonlocal nodes
        if depth == len(positions):
            for i, cell in enumerate(cells):
                support[i] |= 1 << (values[cell] - 1)
            return True
        i = positions[depth]
        cell = cells[i]
        if cell in values:  # a cell listed twice (a line crossing itself)
            return walk(depth + 1)
        for d in digits_of(masks[i]):
            nodes += 1
            if nodes > MAX_NODES:
                raise _TooLarge
            if nodes % 64 == 1:
                check_building()
            values[cell] = d
            if check(values):
                walk(depth + 1)
            del values[cell]
        return True

    try:
        walk(0)
    except _TooLarge:
        return None
    return tuple(support)


class _TooLarge(Exception):
    """The support search passed MAX_NODES."""
