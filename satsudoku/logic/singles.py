"""Singles: the last open cell of a house, a digit with one place in a house, a cell with one
candidate (SE 1.0, 1.2 in a box, 1.5 in a line or other house, 2.3)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from satsudoku.logic.state import WIDEST, Barren, Board, House
from satsudoku.logic.step import Step

try:  # the compiled scans need Numba (the `fast` extra); without it, every house is searched
    from satsudoku.logic import compiled_easy
except ImportError:
    compiled_easy = None  # type: ignore[assignment]

FULL_HOUSE, HIDDEN_BOX, HIDDEN_LINE, NAKED = 1.0, 1.2, 1.5, 2.3


def full_house(board: Board) -> Step | None:
    """A house with one open cell: its missing digit goes there."""
    layout, values = board.layout, board.values
    houses = zip(layout.houses, layout.house_getters, strict=True)
    if compiled_easy is not None and board.n <= WIDEST:
        index = compiled_easy.full_house(board.cands, values, layout, 0)
        if index < 0:
            return None
        houses = zip(layout.houses[index:], layout.house_getters[index:], strict=True)
    for house, get in houses:
        digits = get(values)
        if digits.count(0) == 1:
            cell = house.cells[digits.index(0)]
            missing = ~board.placed_in(house) & board.cands[cell]
            if missing and not missing & (missing - 1):
                digit = missing.bit_length()
                text = f"full house: {digit} is missing from {house.name} → {layout.name(cell)}"
                return Step("full house", FULL_HOUSE, text, placements=((cell, digit),))
    return None


def hidden_single(board: Board, *, boxes: bool | None = None) -> Step | None:
    """A digit with one place in a house; `boxes` picks box/region houses (True), the others
    (False), or any (None)."""
    return _HIDDEN[boxes](board)


def _hidden_finder(boxes: bool | None) -> Callable[[Board], Step | None]:
    barren = Barren()

    def find(board: Board) -> Step | None:
        layout = board.layout
        if compiled_easy is not None and board.n <= WIDEST:
            # Straight to the first house with a single.
            index = compiled_easy.single_house(board.cands, board.values, layout, boxes, 0)
            return None if index < 0 else _hidden_in(board, layout.houses[index])
        for index, house in enumerate(layout.houses):
            if boxes is not None and house.is_box != boxes:
                continue
            key = barren.key(board, index)
            if key in barren.known:
                continue
            step = _hidden_in(board, house)
            if step is not None:
                return step
            barren.add(key)
        return None

    return find


def _hidden_in(board: Board, house: House) -> Step | None:
    """The hidden single of the lowest digit with one place in `house`, if any."""
    cands, values = board.cands, board.values
    once = twice = 0
    for cell in house.cells:
        if not values[cell]:
            twice |= once & cands[cell]
            once |= cands[cell]
    single = once & ~twice
    if not single:
        return None
    low = single & -single  # the lowest such digit
    digit = low.bit_length()
    cell = next(c for c in house.cells if not values[c] and cands[c] & low)
    text = f"hidden single: {digit} in {house.name} → {board.layout.name(cell)}"
    level = HIDDEN_BOX if house.is_box else HIDDEN_LINE
    return Step("hidden single", level, text, placements=((cell, digit),))


_HIDDEN = {boxes: _hidden_finder(boxes) for boxes in (True, False, None)}


def hidden_single_box(board: Board) -> Step | None:
    return hidden_single(board, boxes=True)


def hidden_single_line(board: Board) -> Step | None:
    return hidden_single(board, boxes=False)


def naked_single(board: Board) -> Step | None:
    """An open cell with one candidate left."""
    layout, cands = board.layout, board.cands
    for cell in board.open_cells():
        mask = cands[cell]
        if mask and not mask & (mask - 1):
            digit = mask.bit_length()
            text = f"naked single: {layout.name(cell)} can only be {digit}"
            return Step("naked single", NAKED, text, placements=((cell, digit),))
    return None


def direct_single(
    board: Board, step: Step, houses: Iterable[int] | None = None
) -> tuple[int, int] | None:
    """The hidden single that `step`'s eliminations create in one of `houses` (default: the
    houses of the eliminated cells), if any: what makes a pointing or a hidden pair "direct"
    in Sudoku Explainer (rated below the naked single)."""
    layout = board.layout
    if not step.placements:  # the marks after the step: these candidates gone, no copy made
        cands, values, gone = board.cands, board.values, set(step.eliminations)
        for cell, digit in step.eliminations:
            bit = 1 << (digit - 1)
            for index in layout.houses_of[cell] if houses is None else houses:
                house = layout.houses[index]
                if board.placed_in(house) & bit:
                    continue
                places = [
                    c
                    for c in house.cells
                    if not values[c] and cands[c] & bit and (c, digit) not in gone
                ]
                if len(places) == 1:
                    return places[0], digit
        return None
    after = board.copy()
    step.apply(after)
    for cell, digit in step.eliminations:
        for index in layout.houses_of[cell] if houses is None else houses:
            house = layout.houses[index]
            if board.placed_in(house) >> (digit - 1) & 1:
                continue
            places = after.positions(house, digit)
            if len(places) == 1:
                return places[0], digit
    return None
