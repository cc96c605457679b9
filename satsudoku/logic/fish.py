"""Fish on one digit: k rows whose places lie in k columns (or the transpose) clear those
columns elsewhere: X-wing, swordfish, jellyfish (SE 3.2, 3.8, 5.2), and their finned forms,
where extra places (fins) in one box only clear the cover cells that box shares."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from satsudoku.logic.state import Board, Layout
from satsudoku.logic.step import Finder, Step, removal_text

try:  # the compiled search needs Numba (the `fast` extra); without it, fish_steps runs
    from satsudoku.logic import compiled_chains, compiled_fish
except ImportError:
    compiled_fish = None  # type: ignore[assignment]

NAMES = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}
LEVEL = {2: 3.2, 3: 3.8, 4: 5.2}
# Sudoku Explainer has no finned fish (it finds them as chains); these figures place them
# after the wings and below the chains, as HoDoKu orders them.
FINNED_LEVEL = {2: 4.3, 3: 4.7, 4: 5.3}


def _places(board: Board) -> tuple[list[int], list[int]]:
    """Per digit (index digit - 1), its open places as one mask read row by row (bit
    r·n + c) and one read column by column (bit c·n + r): a line's places are then a shift."""
    n, cands, values = board.n, board.cands, board.values
    by_rows, by_cols = [0] * n, [0] * n
    for cell, mask in enumerate(cands):
        if values[cell] or not mask:
            continue
        r, c = divmod(cell, n)
        across, down = 1 << cell, 1 << (c * n + r)
        while mask:
            low = mask & -mask
            d = low.bit_length() - 1
            by_rows[d] |= across
            by_cols[d] |= down
            mask ^= low
    return by_rows, by_cols


def _lines(n: int, places: int) -> list[tuple[int, int]]:
    """(line number, mask of the cross-line numbers where the digit can go) per open line,
    from the digit's places read line by line."""
    full = (1 << n) - 1
    out = []
    for line in range(n):
        where = places >> (line * n) & full
        if where:
            out.append((line, where))
    return out


def _bases(
    eligible: list[tuple[int, int]], size: int, widest: int
) -> list[tuple[tuple[tuple[int, int], ...], int]]:
    """The `size`-line bases of `eligible` whose places span at most `widest` cross lines,
    with that span, in the order itertools.combinations lists them (a wider partial base is
    not grown: more lines only widen it)."""
    out: list[tuple[tuple[tuple[int, int], ...], int]] = []

    def grow(start: int, chosen: tuple[tuple[int, int], ...], union: int) -> None:
        if len(chosen) == size:
            out.append((chosen, union))
            return
        for i in range(start, len(eligible) - (size - len(chosen)) + 1):
            line = eligible[i]
            wider = union | line[1]
            if wider.bit_count() <= widest:
                grow(i + 1, (*chosen, line), wider)

    grow(0, (), 0)
    return out


def _fins(
    board: Board,
    base: tuple[tuple[int, int], ...],
    cover: frozenset[int],
    box: int,
    by_rows: bool,
    box_of: tuple[int, ...],
) -> list[int]:
    """The base places outside the cover (all in `box`, by construction)."""
    n = board.n
    fins = [_cell(n, ln, k, by_rows) for ln, w in base for k in _crosses(w) if k not in cover]
    return fins


def _cell(n: int, line: int, cross: int, by_rows: bool) -> int:
    return line * n + cross if by_rows else cross * n + line


def _crosses(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def fish_steps(board: Board, size: int, *, finned: bool) -> Iterator[Step]:
    """Every (finned) fish of `size` base lines, rows first then columns."""
    n = board.n
    segments, box_bits, _cross_bits = _tables(board)
    across, down = _places(board)
    full = (1 << n) - 1
    for digit in range(1, n + 1):
        if not across[digit - 1]:
            continue
        for by_rows in (True, False):
            places = across[digit - 1] if by_rows else down[digit - 1]
            lines = _lines(n, places)
            # A finned line adds at most one box width of places: cap the search there.
            limit = size + 3 if finned else size
            eligible = [
                (ln, w)
                for ln, w in lines
                if w.bit_count() <= limit and (finned or w.bit_count() >= 2)
            ]
            if board.expired():
                return
            for base, union in _bases(eligible, size, limit):
                spread = union.bit_count()
                if not finned:
                    if spread != size:
                        continue
                    covers: list[tuple[frozenset[int], int]] = [(frozenset(_crosses(union)), -1)]
                elif spread <= size or spread > size + 3:
                    continue  # a basic fish (found at its own level), or fins in many boxes
                outside = places  # the digit's places off the base lines
                for ln, _ in base:
                    outside &= ~(full << (ln * n))
                if finned:
                    cleared = outside, box_bits[by_rows]
                    covers = _finned_covers(base, size, segments[by_rows], cleared)
                for cover, box in covers:
                    step = _cover_step(board, digit, size, by_rows, base, outside, cover, box)
                    if step is not None:
                        yield step


def _cover_step(
    board: Board,
    digit: int,
    size: int,
    by_rows: bool,
    base: tuple[tuple[int, int], ...],
    outside: int,
    cover: frozenset[int],
    box: int,
) -> Step | None:
    """The fish on `base` and `cover` (with fins in `box`, or none if box < 0), if it clears
    something: the cover's places off the base lines (`outside`: the digit's places there),
    with fins in that box only."""
    n = board.n
    cross_bits = _tables(board)[2]
    gone = 0
    for cross in cover:
        gone |= outside & cross_bits[cross]
    box_of = board.layout.box_of
    cells = []
    while gone:
        low = gone & -gone
        gone ^= low
        cell = _cell(n, *divmod(low.bit_length() - 1, n), by_rows)
        if box < 0 or box_of[cell] == box:
            cells.append(cell)
    if not cells:
        return None
    fins = _fins(board, base, cover, box, by_rows, box_of) if box >= 0 else []
    return _step(
        board,
        digit,
        size,
        by_rows,
        {ln for ln, _ in base},
        cover,
        fins,
        tuple((cell, digit) for cell in sorted(cells)),
    )


def _finned_covers(
    base: tuple[tuple[int, int], ...],
    size: int,
    segments: list[dict[int, int]],
    cleared: tuple[int, dict[int, int]],
) -> list[tuple[frozenset[int], int]]:
    """Cover choices whose leftover places (the fins) all sit in one box: (cover, fin box).

    For each box holding base places, the places outside it fix most of the cover; the
    cover is completed from the box's own cross lines, and what stays outside are the fins.
    Places are bit masks of cross-line numbers; `segments[line]` maps box -> crosses.
    A box where the digit has no place off the base lines is passed over: its fins would
    clear nothing (`cleared`: those places, and each box's cells, line-ordered masks).
    """
    out = []
    outside, box_bits = cleared
    # Boxes in the order the base lines first reach them (a dict as an ordered set): the
    # order fixes which of two fins a step names, and the compiled search follows it.
    boxes = {box: None for line, w in base for box, mask in segments[line].items() if w & mask}
    for box in boxes:
        if not outside & box_bits[box]:
            continue
        fixed = inside = 0
        for line, w in base:
            mask = segments[line].get(box, 0)
            fixed |= w & ~mask
            inside |= w & mask
        free = size - fixed.bit_count()
        inside &= ~fixed
        if free < 0 or free > inside.bit_count():
            continue
        for extra in combinations(_crosses(inside), free):
            cover = fixed
            for k in extra:
                cover |= 1 << k
            if inside & ~cover:  # some place is left over: a fin
                out.append((frozenset(_crosses(cover)), box))
    return out


Tables = tuple[dict[bool, list[dict[int, int]]], dict[bool, dict[int, int]], list[int]]
_TABLES: dict[int, tuple[Layout, Tables]] = {}


def _tables(board: Board) -> Tables:
    """What the search needs of the layout, derived once per layout: per orientation (by
    rows or not) the box segments of each line and each box's cells as a line-ordered mask,
    and in a digit's line-ordered mask (bit line·n + cross) each cross line's bits."""
    layout, n = board.layout, board.n
    known = _TABLES.get(id(layout))
    if known is not None and known[0] is layout:
        return known[1]
    segments = {True: _segments(board, True), False: _segments(board, False)}
    box_bits = {way: _box_bits(n, parts) for way, parts in segments.items()}
    cross_bits = [sum(1 << (line * n + k) for line in range(n)) for k in range(n)]
    _TABLES.clear()
    _TABLES[id(layout)] = (layout, (segments, box_bits, cross_bits))
    return segments, box_bits, cross_bits


def _box_bits(n: int, segments: list[dict[int, int]]) -> dict[int, int]:
    """Per box, its cells as a line-ordered mask (bit line·n + cross)."""
    out: dict[int, int] = {}
    for line, parts in enumerate(segments):
        for box, crosses in parts.items():
            out[box] = out.get(box, 0) | crosses << (line * n)
    return out


def _segments(board: Board, by_rows: bool) -> list[dict[int, int]]:
    """Per line, the boxes it crosses with the mask of cross-line numbers inside each."""
    n = board.n
    box_of = board.layout.box_of
    out: list[dict[int, int]] = []
    for line in range(n):
        masks: dict[int, int] = {}
        for k in range(n):
            box = box_of[_cell(n, line, k, by_rows)]
            if box >= 0:
                masks[box] = masks.get(box, 0) | 1 << k
        out.append(masks)
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
        if compiled_fish is not None and compiled_chains.usable(board.n):
            return _compiled_first(board, size, finned)
        return next(fish_steps(board, size, finned=finned), None)

    find.__doc__ = f"The first {'finned ' if finned else ''}{NAMES[size]}."
    return find


def _compiled_first(board: Board, size: int, finned: bool) -> Step | None:
    """`fish_steps`' first step, found in compiled code and worded here."""
    if board.expired():
        return None
    segments = _tables(board)[0]
    found = compiled_fish.search(board.cands, board.values, board.layout, segments, size, finned)
    if found is None:
        return None
    digit, by_rows, cover, box, lines = found
    n, full = board.n, (1 << board.n) - 1
    across, down = _places(board)
    places = (across if by_rows else down)[digit - 1]
    base = tuple((ln, places >> (ln * n) & full) for ln in lines)
    outside = places
    for ln in lines:
        outside &= ~(full << (ln * n))
    step = _cover_step(board, digit, size, by_rows, base, outside, frozenset(_crosses(cover)), box)
    assert step is not None, "the compiled fish clears nothing"
    return step
