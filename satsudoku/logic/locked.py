"""Locked candidates between any two overlapping houses: pointing (box → line, SE 2.6),
claiming (line → box, 2.8), any other pair of houses (2.8), and their direct forms (1.7, 1.9)
whose eliminations leave a hidden single at once."""

from __future__ import annotations

from collections.abc import Iterator
from functools import reduce
from operator import or_

from satsudoku.logic.singles import direct_single
from satsudoku.logic.state import BOX_KINDS, WIDEST, Board
from satsudoku.logic.step import Step, cells_text, removal_text

try:  # the compiled scan needs Numba (the `fast` extra); without it, every overlap is searched
    from satsudoku.logic import compiled_easy
except ImportError:
    compiled_easy = None  # type: ignore[assignment]

_LEVEL = {"pointing": 2.6, "claiming": 2.8, "locked candidates": 2.8}
_DIRECT_LEVEL = {"pointing": 1.7, "claiming": 1.9, "locked candidates": 1.9}


def _kind(a: str, b: str) -> str:
    if a in BOX_KINDS and b in ("row", "column"):
        return "pointing"
    if a in ("row", "column") and b in BOX_KINDS:
        return "claiming"
    return "locked candidates"


Locked = tuple[str, int, int, int, list[int], tuple[tuple[int, int], ...]]


def _locked(board: Board) -> Iterator[Locked]:
    """Every locked-candidates deduction, unworded: (kind, house A, house B, digit, its places
    in A, eliminations) for a digit whose places in house A all lie in house B."""
    layout = board.layout
    houses, cands, values = layout.houses, board.cands, board.values
    parts, rests = layout.overlap_parts, layout.overlap_rests
    for entry in _entries(board):
        (a, b, shared, _rest_a, rest_b), get_rest = parts[entry], rests[entry]
        # Digits that can go in A's open shared cells but nowhere else in A (a placed cell in
        # the rest of A adds its digit, which no open cell of A holds anyway).
        inside = 0
        for c in shared:
            if not values[c]:
                inside |= cands[c]
        locked = inside & ~reduce(or_, get_rest(cands), 0)
        while locked:
            low = locked & -locked
            locked ^= low
            removed = [c for c in rest_b if not values[c] and cands[c] & low]
            if not removed:
                continue
            digit = low.bit_length()
            places = [c for c in shared if not values[c] and cands[c] & low]
            if len(places) < 2:
                continue  # a hidden single, found as one
            kind = _kind(houses[a].kind, houses[b].kind)
            yield kind, a, b, digit, places, tuple((c, digit) for c in removed)


def _entries(board: Board) -> Iterator[int]:
    """The overlaps (indices into layout.overlap_parts), in order, that may yield locked
    candidates: with the compiled scan, only those that do."""
    layout = board.layout
    if compiled_easy is None or board.n > WIDEST:
        yield from range(len(layout.overlap_parts))
        return
    entry = -1
    while True:
        entry = compiled_easy.locked_entry(board.cands, board.values, layout, entry + 1)
        if entry < 0:
            return
        yield entry


def _step(board: Board, found: Locked) -> Step:
    kind, a, b, digit, places, eliminations = found
    layout = board.layout
    text = (
        f"{kind}: {digit} in {layout.houses[a].name} lies in {layout.houses[b].name} "
        f"({cells_text(layout, places)}): {removal_text(layout, eliminations)}"
    )
    return Step(kind, _LEVEL[kind], text, eliminations=eliminations)


def direct_locked(board: Board) -> Step | None:
    """A locked-candidates step whose eliminations leave a hidden single (placed with it);
    direct pointing (1.7) is preferred to direct claiming (1.9)."""
    best: Step | None = None
    layout = board.layout
    for found in _locked(board):
        kind, eliminations = found[0], found[5]
        if best is not None and _DIRECT_LEVEL[kind] >= best.difficulty:
            continue
        # Only a single in a box counts: with lines too, puzzles SE rates 2.5-2.8 came out at
        # 1.7-2.0 (measured on sudoku-exchange-graded: 91 % exact agreement up to SE 4.4 with
        # boxes only, 73 % with every house).
        boxes = [i for c, _ in eliminations for i in layout.houses_of[c] if layout.houses[i].is_box]
        single = direct_single(board, Step(kind, 0.0, "", eliminations=eliminations), boxes)
        if single is not None:
            cell, digit = single
            step = _step(board, found)
            text = f"direct {step.text} → hidden single {board.layout.name(cell)} = {digit}"
            best = Step(
                f"direct {kind}",
                _DIRECT_LEVEL[kind],
                text,
                placements=(single,),
                eliminations=eliminations,
            )
    return best


def locked_candidates(board: Board) -> Step | None:
    """The easiest locked-candidates step: pointing before claiming and the others."""
    first: Locked | None = None
    for found in _locked(board):
        if found[0] == "pointing":
            return _step(board, found)
        first = first or found
    return None if first is None else _step(board, first)
