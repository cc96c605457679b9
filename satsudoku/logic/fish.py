"""Fish on one digit: k rows whose places lie in k columns (or the transpose) clear those
columns elsewhere: X-wing, swordfish, jellyfish (SE 3.2, 3.8, 5.2), and their finned forms,
where extra places (fins) in one box only clear the cover cells that box shares."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from satsudoku.logic.state import Board
from satsudoku.logic.step import Finder, Step, removal_text

NAMES = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}
LEVEL = {2: 3.2, 3: 3.8, 4: 5.2}
# Sudoku Explainer has no finned fish (it finds them as chains); these figures place them
# after the wings and below the chains, as HoDoKu orders them.
FINNED_LEVEL = {2: 4.3, 3: 4.7, 4: 5.3}
_BOXES = ("box", "region")


def _lines(board: Board, digit: int, by_rows: bool) -> list[tuple[int, frozenset[int]]]:
    """(line number, the cross-line numbers where `digit` can go) for each open line."""
    n, bit, cands, values = board.n, 1 << (digit - 1), board.cands, board.values
    out = []
    for line in range(n):
        cells = [line * n + k for k in range(n)] if by_rows else [k * n + line for k in range(n)]
        where = frozenset(k for k, c in enumerate(cells) if not values[c] and cands[c] & bit)
        if where:
            out.append((line, where))
    return out


def _cell(n: int, line: int, cross: int, by_rows: bool) -> int:
    return line * n + cross if by_rows else cross * n + line


def fish_steps(board: Board, size: int, *, finned: bool) -> Iterator[Step]:
    """Every (finned) fish of `size` base lines, rows first then columns."""
    n = board.n
    box_of = _box_index(board)
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        for by_rows in (True, False):
            lines = _lines(board, digit, by_rows)
            # A finned line adds at most one box width of places: cap the search there.
            limit = size + 3 if finned else size
            eligible = [(ln, w) for ln, w in lines if len(w) <= limit and (finned or len(w) >= 2)]
            for base in combinations(eligible, size):
                union = frozenset().union(*(w for _, w in base))
                base_lines = {ln for ln, _ in base}
                if not finned:
                    if len(union) != size:
                        continue
                    covers: list[tuple[frozenset[int], list[int]]] = [(union, [])]
                elif len(union) <= size or len(union) > size + 3:
                    continue  # a basic fish (found at its own level), or fins in many boxes
                else:
                    covers = _finned_covers(base, union, size, n, by_rows, box_of)
                for cover, fins in covers:
                    eliminations = []
                    for cross in sorted(cover):
                        for line in range(n):
                            cell = _cell(n, line, cross, by_rows)
                            if line in base_lines or board.values[cell]:
                                continue
                            if not board.cands[cell] & bit:
                                continue
                            if fins and box_of[cell] != box_of[fins[0]]:
                                continue
                            eliminations.append((cell, digit))
                    if eliminations:
                        yield _step(
                            board,
                            digit,
                            size,
                            by_rows,
                            base_lines,
                            cover,
                            fins,
                            tuple(sorted(eliminations)),
                        )


def _finned_covers(
    base: tuple[tuple[int, frozenset[int]], ...],
    union: frozenset[int],
    size: int,
    n: int,
    by_rows: bool,
    box_of: list[int],
) -> list[tuple[frozenset[int], list[int]]]:
    """Cover choices whose leftover places (the fins) all sit in one box.

    For each box holding base places, the places outside it fix most of the cover; the
    cover is completed from the box's own cross lines, and what stays outside are the fins.
    """
    places = [(_cell(n, ln, k, by_rows), k) for ln, w in base for k in w]
    out = []
    for box in {box_of[cell] for cell, _ in places if box_of[cell] >= 0}:
        fixed = frozenset(k for cell, k in places if box_of[cell] != box)
        if len(fixed) > size:
            continue
        inside = sorted({k for cell, k in places if box_of[cell] == box} - fixed)
        for extra in combinations(inside, size - len(fixed)):
            cover = fixed | frozenset(extra)
            fins = [cell for cell, k in places if k not in cover]
            if fins and len(cover) == size:
                out.append((cover, fins))
    return out


def _box_index(board: Board) -> list[int]:
    """The box (or jigsaw region) number of each cell, -1 where there is none."""
    out = [-1] * (board.n * board.n)
    for index, house in enumerate(board.layout.houses):
        if house.kind in _BOXES:
            for cell in house.cells:
                out[cell] = index
    return out


def _step(
    board: Board,
    digit: int,
    size: int,
    by_rows: bool,
    base: set[int],
    cover: frozenset[int],
    fins: list[int],
    eliminations: tuple[tuple[int, int], ...],
) -> Step:
    base_word, cover_word = ("rows", "columns") if by_rows else ("columns", "rows")
    name = ("finned " if fins else "") + NAMES[size]
    fin_names = ", ".join(board.layout.name(f) for f in sorted(fins))
    fin_text = f" with fin{'s' * (len(fins) > 1)} {fin_names}" if fins else ""
    text = (
        f"{name} on {digit} in {base_word} {','.join(str(b + 1) for b in sorted(base))}, "
        f"{cover_word} {','.join(str(c + 1) for c in sorted(cover))}{fin_text}: "
        f"{removal_text(board.layout, eliminations)}"
    )
    level = FINNED_LEVEL[size] if fins else LEVEL[size]
    return Step(name, level, text, eliminations=eliminations)


def fish(size: int, *, finned: bool = False) -> Finder:
    def find(board: Board) -> Step | None:
        return next(fish_steps(board, size, finned=finned), None)

    find.__doc__ = f"The first {'finned ' if finned else ''}{NAMES[size]}."
    return find
