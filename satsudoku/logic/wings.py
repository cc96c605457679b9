"""Wings: XY-wing (SE 4.2), XYZ-wing (4.4) and W-wing: a pivot or a strong link forces one of
two pincers to hold z, so z leaves every cell that sees both (and the pivot, for XYZ)."""

from __future__ import annotations

from itertools import combinations

from satsudoku.logic.state import WIDEST, Board, digits_of, seen_by_all
from satsudoku.logic.step import Step, removal_text

try:  # the compiled scans need Numba (the `fast` extra); without it, every cell is tried
    from satsudoku.logic import compiled_easy
except ImportError:
    compiled_easy = None  # type: ignore[assignment]

XY_WING, XYZ_WING, W_WING = 4.2, 4.4, 4.4  # W-wing: SE has none; placed with the XYZ-wing


def xy_wing(board: Board) -> Step | None:
    """Pivot xy; pincers xz and yz, each seeing the pivot: z leaves cells seeing both pincers."""
    return _wing(board, pivot_size=2)


def xyz_wing(board: Board) -> Step | None:
    """Pivot xyz; pincers xz and yz: z leaves cells seeing the pivot and both pincers."""
    return _wing(board, pivot_size=3)


def _compiled(board: Board) -> bool:
    """Whether the compiled scans take this board (Numba, masks in an int64)."""
    return compiled_easy is not None and board.n <= WIDEST


def _wing(board: Board, pivot_size: int) -> Step | None:
    layout, cands = board.layout, board.cands
    start = 0
    if _compiled(board):  # the first pivot of a wing, or none
        start = compiled_easy.wing_pivot(cands, board.values, layout, pivot_size, 0)
        if start < 0:
            return None
    bivalue = [c for c in board.open_cells() if cands[c].bit_count() == 2]
    for pivot in board.open_cells():
        if pivot < start:
            continue
        pmask = cands[pivot]
        if pmask.bit_count() != pivot_size:
            continue
        pincers = [c for c in bivalue if c != pivot and c in layout.peers[pivot]]
        for a, b in combinations(pincers, 2):
            ma, mb = cands[a], cands[b]
            if ma == mb:
                continue
            z_mask = ma & mb
            if z_mask.bit_count() != 1:
                continue
            if pivot_size == 2:
                if (ma | mb) & ~z_mask != pmask or pmask & z_mask:
                    continue
                cells = [a, b]
            else:
                if (ma | mb) != pmask:
                    continue
                cells = [pivot, a, b]
            z = z_mask.bit_length()
            eliminations = seen_by_all(board, cells, z)
            if eliminations:
                name = "XY-wing" if pivot_size == 2 else "XYZ-wing"
                digits = "".join(map(str, digits_of(pmask)))
                text = (
                    f"{name}: pivot {layout.name(pivot)} ({digits}), pincers "
                    f"{layout.name(a)}, {layout.name(b)}: one of them is {z}; "
                    f"{removal_text(layout, eliminations)}"
                )
                level = XY_WING if pivot_size == 2 else XYZ_WING
                return Step(name, level, text, eliminations=eliminations)
    return None


def w_wing(board: Board) -> Step | None:
    """Two unlinked cells both xy, and a house where x's only two places see one each: one of
    the cells is y, so y leaves every cell seeing both."""
    layout, cands = board.layout, board.cands
    if _compiled(board):  # the first pair of a W-wing, or none
        a, b = compiled_easy.w_wing_pair(cands, board.values, layout)
        return None if a < 0 else _w_pair(board, a, b)
    bivalue = [c for c in board.open_cells() if cands[c].bit_count() == 2]
    for a, b in combinations(bivalue, 2):
        if cands[a] != cands[b] or b in layout.peers[a]:
            continue
        step = _w_pair(board, a, b)
        if step is not None:
            return step
    return None


def _w_pair(board: Board, a: int, b: int) -> Step | None:
    """The W-wing on cells a and b (both xy, not peers), if one removes something."""
    layout, cands = board.layout, board.cands
    for x in digits_of(cands[a]):
        y = (cands[a] & ~(1 << (x - 1))).bit_length()
        eliminations = seen_by_all(board, [a, b], y)
        if not eliminations:
            continue
        for house in layout.houses:
            places = board.positions(house, x)
            if len(places) != 2 or a in places or b in places:
                continue
            p, q = places
            if (p in layout.peers[a] and q in layout.peers[b]) or (
                q in layout.peers[a] and p in layout.peers[b]
            ):
                text = (
                    f"W-wing: {layout.name(a)} and {layout.name(b)} are both {x}{y}, and "
                    f"{x} in {house.name} is at {layout.name(p)} or {layout.name(q)}: "
                    f"one of the pair is {y}; {removal_text(layout, eliminations)}"
                )
                return Step("W-wing", W_WING, text, eliminations=eliminations)
    return None
