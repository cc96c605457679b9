"""Naked subsets (k cells holding only k digits) and hidden subsets (k digits with only k
places) in any house, k = 2..4; SE: naked 3.0/3.6/5.0, hidden 3.4/4.0/5.4, and the direct
hidden pair/triple (2.0/2.5) whose eliminations leave a hidden single at once."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from satsudoku.logic.singles import direct_single
from satsudoku.logic.state import WIDEST, Barren, Board, House, digits_of
from satsudoku.logic.step import Finder, Step, cells_text, removal_text

try:  # the compiled scans need Numba (the `fast` extra); without it, every house is searched
    from satsudoku.logic import compiled_easy
except ImportError:
    compiled_easy = None  # type: ignore[assignment]

NAMES = {2: "pair", 3: "triple", 4: "quad"}
NAKED_LEVEL = {2: 3.0, 3: 3.6, 4: 5.0}
HIDDEN_LEVEL = {2: 3.4, 3: 4.0, 4: 5.4}
DIRECT_HIDDEN_LEVEL = {2: 2.0, 3: 2.5}


def _compiled(board: Board) -> bool:
    """Whether the compiled scans take this board (Numba, masks in an int64)."""
    return compiled_easy is not None and board.n <= WIDEST


def naked_steps(board: Board, size: int, only: int | None = None) -> Iterator[Step]:
    """k open cells of a house (house `only`, if given) whose candidates together are k
    digits."""
    layout, cands, values = board.layout, board.cands, board.values
    name = f"naked {NAMES[size]}"
    for house in layout.houses if only is None else layout.houses[only : only + 1]:
        if board.expired():
            return
        small = [c for c in house.cells if not values[c] and 2 <= cands[c].bit_count() <= size]
        for group in combinations(small, size):
            union = 0
            for c in group:
                union |= cands[c]
            if union.bit_count() != size:
                continue
            # Every house holding all k cells loses those digits elsewhere (a "locked" pair).
            members = set(group)
            common = set(layout.houses_of[group[0]]).intersection(
                *(layout.houses_of[c] for c in group[1:])
            )
            eliminations = sorted(
                {
                    (c, d)
                    for index in common
                    for c in layout.houses[index].cells
                    if c not in members and not values[c]
                    for d in digits_of(cands[c] & union)
                }
            )
            if eliminations:
                digits = "".join(map(str, digits_of(union)))
                text = (
                    f"{name} {digits} in {house.name} ({cells_text(layout, group)}): "
                    f"{removal_text(layout, eliminations)}"
                )
                yield Step(name, NAKED_LEVEL[size], text, eliminations=tuple(eliminations))


def _hidden_in(board: Board, house: House, size: int) -> Iterator[Step]:
    """The hidden subsets of `size` in one house (they depend on its cells alone)."""
    layout, cands, values = board.layout, board.cands, board.values
    name = f"hidden {NAMES[size]}"
    places = [0] * (board.n + 1)  # per digit, the bit set of its places (bit i: house.cells[i])
    for i, cell in enumerate(house.cells):
        if not values[cell]:
            mask, at = cands[cell], 1 << i
            while mask:
                low = mask & -mask
                mask ^= low
                places[low.bit_length()] |= at
    if sum(1 for where in places if where) <= size:
        return  # only a naked subset (or singles) could be left
    few = [d for d, where in enumerate(places) if 2 <= where.bit_count() <= size]
    for digits in combinations(few, size):
        where = 0
        for d in digits:
            where |= places[d]
        if where.bit_count() != size:
            continue
        keep = sum(1 << (d - 1) for d in digits)
        cells = [c for i, c in enumerate(house.cells) if where >> i & 1]
        eliminations = tuple((c, d) for c in sorted(cells) for d in digits_of(cands[c] & ~keep))
        if eliminations:
            text = (
                f"{name} {''.join(map(str, digits))} in {house.name} "
                f"({cells_text(layout, cells)}): {removal_text(layout, eliminations)}"
            )
            yield Step(name, HIDDEN_LEVEL[size], text, eliminations=eliminations)


def naked_subset(size: int) -> Finder:
    def find(board: Board) -> Step | None:
        if _compiled(board):
            if board.expired():
                return None
            house = compiled_easy.naked_house(board.cands, board.values, board.layout, size, 0)
            if house < 0:
                return None
            return next(naked_steps(board, size, house))
        return next(naked_steps(board, size), None)

    find.__doc__ = f"The first naked {NAMES[size]}."
    return find


def hidden_subset(size: int) -> Finder:
    barren = Barren()

    def find(board: Board) -> Step | None:
        if _compiled(board):
            if board.expired():
                return None
            index = compiled_easy.hidden_house(board.cands, board.values, board.layout, size, 0)
            if index < 0:
                return None
            return next(_hidden_in(board, board.layout.houses[index], size))
        for index, house in enumerate(board.layout.houses):
            key = barren.key(board, index)
            if key in barren.known:
                continue
            step = next(_hidden_in(board, house, size), None)
            if step is not None or board.expired():
                return step
            barren.add(key)
        return None

    find.__doc__ = f"The first hidden {NAMES[size]}."
    return find


def direct_hidden(size: int) -> Finder:
    barren = Barren()

    def find(board: Board) -> Step | None:
        for index in _hidden_houses(board, size):
            house = board.layout.houses[index]
            key = barren.key(board, index)
            if key in barren.known:
                continue
            for step in _hidden_in(board, house, size):
                # Sudoku Explainer's direct form: another digit left with one place in the
                # same house once the subset's cells hold only the subset's digits.
                single = direct_single(board, step, (index,))
                if single is not None:
                    cell, digit = single
                    text = f"direct {step.text} → hidden single {board.layout.name(cell)} = {digit}"
                    return Step(
                        f"direct {step.technique}",
                        DIRECT_HIDDEN_LEVEL[size],
                        text,
                        placements=(single,),
                        eliminations=step.eliminations,
                    )
            if board.expired():
                return None
            barren.add(key)
        return None

    find.__doc__ = f"A hidden {NAMES[size]} that leaves a hidden single at once."
    return find


def _hidden_houses(board: Board, size: int) -> Iterator[int]:
    """The houses, in order, that may hold a hidden subset of `size` removing something:
    with the compiled scan, only those that do."""
    if not _compiled(board):
        yield from range(len(board.layout.houses))
        return
    index = -1
    while True:
        index = compiled_easy.hidden_house(board.cands, board.values, board.layout, size, index + 1)
        if index < 0:
            return
        yield index
