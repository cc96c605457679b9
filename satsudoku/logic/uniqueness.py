"""Uniqueness techniques, off unless asked for: they assume the puzzle has one solution, so a
pattern that would allow two (a "deadly pattern") cannot be the answer. Unique rectangles of
types 1-6 and the hidden one, and the bivalue universal grave (BUG+1, BUG type 2); only on
puzzles without variant rules, whose extra constraints could tell the two answers apart."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from satsudoku.logic.state import Board, House, digits_of, seen_by_all
from satsudoku.logic.step import Step, cells_text, removal_text

# Sudoku Explainer: every unique rectangle type is 4.5, its type 3 adds 0.1 per digit of the
# naked set past the first; BUG type 1 (BUG+1) is 5.6, type 2 is 5.7. SE has no type 6 and
# no hidden rectangle: HoDoKu scores every rectangle type alike, so they take 4.5 too.
UNIQUE_RECTANGLE, BUG, BUG_TYPE_2 = 4.5, 5.6, 5.7


@dataclass(frozen=True)
class _Rectangle:
    """Four open cells over two rows, two columns and two boxes, all holding digits a and b.

    `corners` is (top-left, top-right, bottom-left, bottom-right): corners 0 and 3, and 1 and
    2, are diagonal. Were all four limited to {a, b}, a and b could swap: two solutions.
    """

    corners: tuple[int, int, int, int]
    pair: int  # mask of a and b

    def diagonal(self, corner: int) -> int:
        return self.corners[3 - self.corners.index(corner)]


def _rectangles(board: Board) -> Iterator[_Rectangle]:
    """Every rectangle with at least one corner holding exactly {a, b} (each type needs one)."""
    n, cands, values = board.n, board.cands, board.values
    box_of = board.layout.box_of
    seen: set[tuple[tuple[int, int, int, int], int]] = set()
    for first in board.open_cells():
        pair = cands[first]
        if pair.bit_count() != 2:
            continue
        row, col = divmod(first, n)
        for other_row in range(n):
            for other_col in range(n):
                if other_row == row or other_col == col:
                    continue
                top, bottom = sorted((row, other_row))
                left, right = sorted((col, other_col))
                corners = (top * n + left, top * n + right, bottom * n + left, bottom * n + right)
                if any(values[c] or cands[c] & pair != pair for c in corners):
                    continue
                if len({box_of[c] for c in corners}) != 2 or (corners, pair) in seen:
                    continue
                seen.add((corners, pair))
                yield _Rectangle(corners, pair)


def unique_rectangle(board: Board) -> Step | None:
    """The first unique rectangle step at the base figure, else the easiest (a type 3 with a
    larger naked set is harder)."""
    if not board.layout.plain:
        return None
    best: Step | None = None
    for rect in _rectangles(board):
        for step in _rectangle_steps(board, rect):
            if not step.eliminations:
                continue
            if best is None or step.difficulty < best.difficulty:
                best = step
            if best.difficulty == UNIQUE_RECTANGLE:
                return best
    return best


def _rectangle_steps(board: Board, rect: _Rectangle) -> Iterator[Step]:
    cands, layout = board.cands, board.layout
    pair = rect.pair
    a, b = digits_of(pair)
    extra = [c for c in rect.corners if cands[c] != pair]
    name = f"{a}{b} ({cells_text(layout, rect.corners)})"
    if len(extra) == 1:  # type 1: the only cell with more candidates must break the pattern
        (cell,) = extra
        gone = tuple((cell, d) for d in (a, b))
        said = (
            f"unique rectangle type 1 on {name}: {layout.name(cell)} must break it, "
            f"or {a}{b} could swap"
        )
        yield _ur(board, 1, UNIQUE_RECTANGLE, gone, said)
        return
    others = 0
    for c in extra:
        others |= cands[c] & ~pair
    if others.bit_count() == 1 and all((cands[c] & ~pair).bit_count() == 1 for c in extra):
        # Types 2 and 5: every extra cell has the same one extra digit x; one of them is x.
        x = others.bit_length()
        gone = seen_by_all(board, extra, x)
        kind = 2 if len(extra) == 2 and _share_line(board, *extra) else 5
        said = (
            f"unique rectangle type {kind} on {name}: one of {cells_text(layout, extra)} "
            f"must be {x}"
        )
        yield _ur(board, kind, UNIQUE_RECTANGLE, gone, said)
    if len(extra) == 2 and _share_line(board, *extra):
        yield from _type_4(board, rect, extra, name)
        yield from _type_3(board, rect, extra, others, name)
    if len(extra) == 2 and not _share_line(board, *extra):
        yield from _type_6(board, rect, extra, name)
    yield from _hidden(board, rect, name)


def _type_4(board: Board, rect: _Rectangle, extra: list[int], name: str) -> Iterator[Step]:
    """Two extra cells in a house where a has no other place: they hold a, so never b."""
    layout = board.layout
    for house in _shared_houses(board, extra):
        for a in digits_of(rect.pair):
            if sorted(board.positions(house, a)) != sorted(extra):
                continue
            b = digits_of(rect.pair & ~(1 << (a - 1)))[0]
            gone = tuple((c, b) for c in extra)
            said = (
                f"unique rectangle type 4 on {name}: {a} in {house.name} is at "
                f"{' or '.join(layout.name(c) for c in extra)} only, so neither is {b}"
            )
            yield _ur(board, 4, UNIQUE_RECTANGLE, gone, said)


def _type_3(
    board: Board, rect: _Rectangle, extra: list[int], others: int, name: str
) -> Iterator[Step]:
    """The extra digits of two cells in one house act as one more cell: with k-1 other cells
    they form a naked set of k digits, which leave the rest of the house."""
    if others.bit_count() < 2:
        return
    layout, cands = board.layout, board.cands
    for house in _shared_houses(board, extra):
        rest = [c for c in house.cells if not board.values[c] and c not in extra]
        for size in range(1, 4):
            for group in combinations(rest, size):
                digits = others
                for c in group:
                    digits |= cands[c]
                if digits.bit_count() != size + 1:
                    continue
                gone = tuple(
                    (c, d) for c in rest if c not in group for d in digits_of(cands[c] & digits)
                )
                level = round(UNIQUE_RECTANGLE + 0.1 * size, 1)
                said = (
                    f"unique rectangle type 3 on {name}: {cells_text(layout, extra)} hold one "
                    f"of {''.join(map(str, digits_of(others)))}, a naked set "
                    f"{''.join(map(str, digits_of(digits)))} with {cells_text(layout, group)} "
                    f"in {house.name}"
                )
                yield _ur(board, 3, level, gone, said)


def _type_6(board: Board, rect: _Rectangle, extra: list[int], name: str) -> Iterator[Step]:
    """Two diagonal extra cells, and a digit whose places in both rows (or both columns) are
    the rectangle's corners only: in either extra cell it would force the deadly pattern."""
    layout, n = board.layout, board.n
    for digit in digits_of(rect.pair):
        for kind in ("row", "column"):
            lines = _lines_of(board, rect.corners, kind)
            if all(set(board.positions(h, digit)) <= set(rect.corners) for h in lines):
                gone = tuple((c, digit) for c in extra)
                numbers = sorted({(c // n if kind == "row" else c % n) + 1 for c in rect.corners})
                said = (
                    f"unique rectangle type 6 on {name}: {digit} in {kind}s "
                    f"{' and '.join(map(str, numbers))} lies in the rectangle only, so "
                    f"{cells_text(layout, extra)} cannot be {digit}"
                )
                yield _ur(board, 6, UNIQUE_RECTANGLE, gone, said)


def _hidden(board: Board, rect: _Rectangle, name: str) -> Iterator[Step]:
    """A corner holding exactly {a, b}; if a's only places in the row and the column of the
    opposite corner are rectangle cells, that corner cannot be b."""
    layout, cands, n = board.layout, board.cands, board.n
    for corner in rect.corners:
        if cands[corner] != rect.pair:
            continue
        far = rect.diagonal(corner)
        if cands[far] == rect.pair:
            continue
        lines = _lines_of(board, (far,), "row") + _lines_of(board, (far,), "column")
        for a in digits_of(rect.pair):
            if all(set(board.positions(h, a)) <= set(rect.corners) for h in lines):
                b = digits_of(rect.pair & ~(1 << (a - 1)))[0]
                said = (
                    f"hidden unique rectangle on {name}: {a} in row {far // n + 1} and "
                    f"column {far % n + 1} lies in the rectangle only, so "
                    f"{layout.name(far)} cannot be {b}"
                )
                yield _ur(board, 0, UNIQUE_RECTANGLE, ((far, b),), said)


def _ur(
    board: Board, kind: int, level: float, gone: tuple[tuple[int, int], ...], said: str
) -> Step:
    name = f"unique rectangle type {kind}" if kind else "hidden unique rectangle"
    cands = board.cands
    real = tuple(sorted((c, d) for c, d in gone if cands[c] >> (d - 1) & 1))
    return Step(name, level, f"{said}; {removal_text(board.layout, real)}", eliminations=real)


def _lines_of(board: Board, cells: tuple[int, ...], kind: str) -> list[House]:
    """The rows (or columns) through `cells`."""
    layout = board.layout
    found = {h for c in cells for h in layout.houses_of[c] if layout.houses[h].kind == kind}
    return [layout.houses[h] for h in sorted(found)]


def _share_line(board: Board, p: int, q: int) -> bool:
    return p // board.n == q // board.n or p % board.n == q % board.n


def _shared_houses(board: Board, cells: list[int]) -> list[House]:
    layout = board.layout
    common = set(layout.houses_of[cells[0]]).intersection(*(layout.houses_of[c] for c in cells))
    return [layout.houses[h] for h in sorted(common)]


def bug_plus_one(board: Board) -> Step | None:
    """Bivalue universal grave: were a few candidates gone, every open cell would hold two and
    every digit two places in each house (0 or 2 solutions), so one of them is true. One such
    candidate is placed (BUG+1, SE 5.6); several of one digit clear it from every cell that
    sees them all (BUG type 2, 5.7)."""
    layout, cands = board.layout, board.cands
    if not layout.plain:
        return None
    open_cells = list(board.open_cells())
    poly = [c for c in open_cells if cands[c].bit_count() != 2]
    if not poly or any(cands[c].bit_count() < 2 for c in poly):
        return None
    counts = _place_counts(board)
    extra: list[tuple[int, int]] = []  # the candidates whose removal would leave the grave
    for cell in poly:
        for digit in digits_of(cands[cell]):
            if any(counts[h][digit] > 2 for h in layout.houses_of[cell]):
                extra.append((cell, digit))
    if not extra or not _grave_without(board, extra):
        return None
    cells = [c for c, _ in extra]
    digits = {d for _, d in extra}
    if len(extra) == 1:
        cell, digit = extra[0]
        text = (
            f"BUG+1: every open cell but {layout.name(cell)} has two candidates, and {digit} "
            f"appears three times in each of its houses → {layout.name(cell)} = {digit}"
        )
        return Step("BUG+1", BUG, text, placements=((cell, digit),))
    if len(digits) != 1 or len(set(cells)) != len(cells):
        return None
    (digit,) = digits
    gone = seen_by_all(board, cells, digit)
    if not gone:
        return None
    text = (
        f"BUG type 2: without {digit} in {cells_text(layout, cells)} every open cell would hold "
        f"two candidates and every digit two places per house, so one of them is {digit}; "
        f"{removal_text(layout, gone)}"
    )
    return Step("BUG type 2", BUG_TYPE_2, text, eliminations=gone)


def _place_counts(board: Board) -> list[list[int]]:
    """Per house, per digit, the number of open cells where the digit is a candidate."""
    cands, values = board.cands, board.values
    out = []
    for house in board.layout.houses:
        count = [0] * (board.n + 1)
        for c in house.cells:
            if not values[c]:
                for d in digits_of(cands[c]):
                    count[d] += 1
        out.append(count)
    return out


def _grave_without(board: Board, extra: list[tuple[int, int]]) -> bool:
    """True if removing `extra` leaves every open cell two candidates and every digit 0 or 2
    places in every house: the deadly pattern itself, not just its look near the extra cells."""
    cands = board.cands.copy()
    for cell, digit in extra:
        cands[cell] &= ~(1 << (digit - 1))
    if any(cands[c].bit_count() != 2 for c in board.open_cells()):
        return False
    for house in board.layout.houses:
        count = [0] * (board.n + 1)
        for c in house.cells:
            if not board.values[c]:
                for d in digits_of(cands[c]):
                    count[d] += 1
        if any(k not in (0, 2) for k in count):
            return False
    return True
