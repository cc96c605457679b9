"""Uniqueness techniques, off unless asked for: they assume the puzzle has one solution, so a
pattern that would allow two (a "deadly pattern") cannot be the answer. Unique rectangle type 1
(SE 4.5) and BUG+1 (SE 5.6); only on puzzles without variant rules, whose extra constraints
could tell the two answers apart."""

from __future__ import annotations

from itertools import combinations

from satsudoku.logic.state import Board, digits_of
from satsudoku.logic.step import Step, removal_text

UNIQUE_RECTANGLE, BUG = 4.5, 5.6


def unique_rectangle(board: Board) -> Step | None:
    """Four open cells in two rows, two columns and two boxes, three of them exactly {a, b}:
    the fourth cannot be a or b, or a and b could be swapped."""
    layout, cands, n = board.layout, board.cands, board.n
    if not layout.plain:
        return None
    box_of = board.layout.box_of
    bivalue = [c for c in board.open_cells() if cands[c].bit_count() == 2]
    for a, b in combinations(bivalue, 2):
        if cands[a] != cands[b]:
            continue
        ra, ca = divmod(a, n)
        rb, cb = divmod(b, n)
        if ra == rb or ca == cb:
            continue  # the diagonal pair of the rectangle: the other two cells follow
        for c, d in ((ra * n + cb, rb * n + ca), (rb * n + ca, ra * n + cb)):
            pair = cands[a]
            if board.values[c] or board.values[d] or len({box_of[x] for x in (a, b, c, d)}) != 2:
                continue
            if cands[c] == pair and cands[d] & pair == pair and cands[d] != pair:
                gone = tuple((d, digit) for digit in digits_of(pair))
                digits = "".join(map(str, digits_of(pair)))
                corners = ", ".join(layout.name(x) for x in sorted((a, b, c, d)))
                text = (
                    f"unique rectangle type 1 on {digits} ({corners}): {layout.name(d)} must "
                    f"break it, or {digits} could swap; {removal_text(layout, gone)}"
                )
                return Step("unique rectangle", UNIQUE_RECTANGLE, text, eliminations=gone)
    return None


def bug_plus_one(board: Board) -> Step | None:
    """Every open cell bivalue but one with three candidates: that cell takes the digit that
    appears three times in its houses (else every digit would appear twice: two solutions)."""
    layout, cands = board.layout, board.cands
    if not layout.plain:
        return None
    open_cells = list(board.open_cells())
    triple = [c for c in open_cells if cands[c].bit_count() != 2]
    if len(triple) != 1 or cands[triple[0]].bit_count() != 3:
        return None
    cell = triple[0]
    for digit in digits_of(cands[cell]):
        if all(len(board.positions(layout.houses[h], digit)) == 3 for h in layout.houses_of[cell]):
            text = (
                f"BUG+1: every open cell but {layout.name(cell)} has two candidates, and {digit} "
                f"appears three times in each of its houses → {layout.name(cell)} = {digit}"
            )
            return Step("BUG+1", BUG, text, placements=((cell, digit),))
    return None
