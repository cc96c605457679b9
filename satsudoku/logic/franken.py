"""Franken fish on one digit: k base houses whose places all lie in k cover houses, where boxes
(jigsaw regions, a rule's houses such as diagonals) may stand beside the rows (base) and the
columns (cover), or the reverse; finned when a few base places stay outside the cover."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from satsudoku.logic.fish import NAMES
from satsudoku.logic.state import WIDEST, Board, House, Layout
from satsudoku.logic.step import Finder, Step, Technique, removal_text

try:  # the compiled search needs Numba (the `fast` extra); without it, _fishes runs
    from satsudoku.logic import compiled_franken
except ImportError:
    compiled_franken = None  # type: ignore[assignment]

# Sudoku Explainer has no franken fish. HoDoKu scores them above its nice loops (AIC, 280) and
# below its forcing chains (500): franken X-wing / swordfish 300 / 350, finned 390 / 410. Our
# figures map those scores linearly from AIC (7.0) to forcing chain (8.8).
LEVEL = {2: 7.2, 3: 7.6}
FINNED_LEVEL = {2: 7.9, 3: 8.1}
MAX_FINS = 2  # beyond this few fins share a peer (HoDoKu allows 5)
LINES = ("row", "column")


@dataclass(frozen=True)
class _Fish:
    base: tuple[int, ...]  # house indices
    cover: tuple[int, ...]
    fins: tuple[int, ...]  # cells
    eliminations: tuple[tuple[int, int], ...]


def technique(size: int, *, finned: bool = False) -> Technique:
    """The solver's entry for a (finned) franken fish of `size`, searched digit by digit."""
    name = ("finned " if finned else "") + "franken " + NAMES[size]
    level = (FINNED_LEVEL if finned else LEVEL)[size]
    return Technique(name, level, franken(size, finned=finned), per_digit=True)


def franken(size: int, *, finned: bool = False) -> Finder:
    """A finder of the first (finned) franken fish of `size` base houses."""

    def find(board: Board) -> Step | None:
        first = 1
        if compiled_franken is not None and not finned and board.n <= WIDEST:
            status, digit, base, cover = compiled_franken.first_fish(
                board.cands, board.values, board.layout, size, 1
            )
            if status == compiled_franken.FOUND:
                return _step(board, digit, size, _found(board, digit, base, cover))
            if status == compiled_franken.NOTHING:
                return None
            first = digit  # too many places to number in one word: the plain search
        for digit in range(first, board.n + 1):
            for fish in _fishes(board, digit, size, finned):
                return _step(board, digit, size, fish)
            if board.expired():
                return None
        return None

    find.__doc__ = f"The first {'finned ' if finned else ''}franken {NAMES[size]}."
    return find


def _fishes(board: Board, digit: int, size: int, finned: bool) -> Iterator[_Fish]:
    """Franken fish on `digit`: rows (or columns) and other houses as base, the crossing
    lines and other houses as cover; at least one house of either set is not a line."""
    layout = board.layout
    bit = 1 << (digit - 1)
    values, cands = board.values, board.cands
    open_with = 0  # bit mask of the open cells holding `digit`
    for c, mask in enumerate(cands):
        if mask & bit and not values[c]:
            open_with |= 1 << c
    places = [open_with & h for h in layout.house_masks]  # per house, its places of `digit`
    everywhere = open_with
    peer_masks = list(layout.peer_masks) if finned else []
    shape = _shape(layout)
    for base_line, cover_line in LINES, LINES[::-1]:
        covering, options = shape.covers[base_line]
        barred = shape.of_kind[cover_line]
        base_pool = [h for h, mask in enumerate(places) if h not in barred and mask & (mask - 1)]
        widest = max((places[h].bit_count() for h in covering), default=0)
        for base in _bases(base_pool, places, size):
            union = 0
            for h in base:
                union |= places[h]
            outside = everywhere & ~union
            covers = _covers(places, options, base, size, peer_masks, widest, union, outside)
            for cover, fins in covers:
                if all(shape.is_line[h] for h in (*base, *cover)):
                    continue  # a basic fish: fish.py finds it, at its own level
                gone = _eliminations(places, cover, union, fins, peer_masks)
                if gone:
                    yield _Fish(base, cover, fins, tuple((c, digit) for c in gone))


def _found(board: Board, digit: int, base: tuple[int, ...], cover: tuple[int, ...]) -> _Fish:
    """The fish the compiled search found (its cover in search order, as _covers sorts it)."""
    bit = 1 << (digit - 1)
    open_with = 0
    for c, mask in enumerate(board.cands):
        if mask & bit and not board.values[c]:
            open_with |= 1 << c
    places = [open_with & h for h in board.layout.house_masks]
    union = 0
    for h in base:
        union |= places[h]
    cover = tuple(sorted(cover))
    gone = _eliminations(places, cover, union, (), [])
    return _Fish(base, cover, (), tuple((c, digit) for c in gone))


@dataclass(frozen=True)
class _Shape:
    """What the search needs of a layout's houses, derived once per layout."""

    is_line: list[bool]  # per house: a row or a column
    of_kind: dict[str, set[int]]  # "row", "column": the houses of that kind
    # Per base kind ("row", "column"): the cover houses, and per cell the cover houses through it.
    covers: dict[str, tuple[list[int], list[tuple[int, ...]]]]


_SHAPES: dict[int, tuple[Layout, _Shape]] = {}


def _shape(layout: Layout) -> _Shape:
    """The layout's _Shape, remembered for one layout at a time (the solver works on one
    puzzle at a time)."""
    known = _SHAPES.get(id(layout))
    if known is not None and known[0] is layout:
        return known[1]
    houses = layout.houses
    covers = {}
    for base_line in LINES:
        covering = [h for h, house in enumerate(houses) if house.kind != base_line]
        options = [
            tuple(h for h in layout.houses_of[c] if houses[h].kind != base_line)
            for c in range(len(layout.houses_of))
        ]
        covers[base_line] = (covering, options)
    shape = _Shape(
        [house.kind in LINES for house in houses],
        {kind: {h for h, house in enumerate(houses) if house.kind == kind} for kind in LINES},
        covers,
    )
    _SHAPES.clear()
    _SHAPES[id(layout)] = (layout, shape)
    return shape


def _bases(pool: list[int], places: list[int], size: int) -> list[tuple[int, ...]]:
    """Sets of `size` houses whose places of the digit do not overlap (an overlap would let
    one placement serve two base houses), in lexicographic order of their pool positions."""
    out: list[tuple[int, ...]] = []

    def grow(start: int, chosen: tuple[int, ...], union: int) -> None:
        if len(chosen) == size:
            out.append(chosen)
            return
        for i in range(start, len(pool)):
            h = pool[i]
            if not places[h] & union:
                grow(i + 1, (*chosen, h), union | places[h])

    grow(0, (), 0)
    return out


def _covers(
    places: list[int],
    options: list[tuple[int, ...]],
    base: tuple[int, ...],
    size: int,
    peer_masks: list[int],
    widest: int,
    union: int,
    outside: int,
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Sets of `size` cover houses taking every base place but the fins (none unless
    finned, i.e. `peer_masks` empty; at most MAX_FINS): each lowest uncovered place is either
    covered by one of its houses (`options`) or made a fin. Fins that see no place outside the
    base in common clear nothing, so such a choice is dropped at once. `widest`, the most places
    any cover house has, bounds what one cover takes."""
    limit = MAX_FINS if peer_masks else 0
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def grow(cover: tuple[int, ...], fins: int, todo: int, targets: int) -> None:
        left = size - len(cover)
        if todo.bit_count() > left * widest + limit - fins.bit_count():
            return  # the covers still to choose cannot take enough places
        if not left:
            fins |= todo
            if peer_masks and not fins:
                return  # no fin: the unfinned finder's fish
            for cell in _cells(todo):
                targets &= peer_masks[cell]
            if not peer_masks or targets:
                out.append((tuple(sorted(cover)), _cells(fins)))
            return
        if not todo:
            return
        low = todo & -todo
        cell = low.bit_length() - 1
        for h in options[cell]:
            # A house through a fin is skipped: taking it when that fin was met covers more.
            if h not in cover and h not in base and not places[h] & fins:
                grow((*cover, h), fins, todo & ~places[h], targets)
        if peer_masks and fins.bit_count() < limit and targets & peer_masks[cell]:
            grow(cover, fins | low, todo & ~low, targets & peer_masks[cell])

    grow((), 0, union, outside)
    return out


def _eliminations(
    places: list[int],
    cover: tuple[int, ...],
    union: int,
    fins: tuple[int, ...],
    peer_masks: list[int],
) -> tuple[int, ...]:
    """Cover places outside the base, each seeing every fin: the k base placements fill the
    k cover houses (each holds the digit once), unless a fin holds it."""
    gone = 0
    for h in cover:
        gone |= places[h]
    gone &= ~union
    for fin in fins:
        gone &= peer_masks[fin]
    return _cells(gone)


def _cells(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _step(board: Board, digit: int, size: int, fish: _Fish) -> Step:
    layout = board.layout
    name = ("finned " if fish.fins else "") + "franken " + NAMES[size]
    fin_text = ""
    if fish.fins:
        fin_names = ", ".join(layout.name(f) for f in fish.fins)
        fin_text = f" with fin{'s' * (len(fish.fins) > 1)} {fin_names}"
    text = (
        f"{name} on {digit}: its places in {_houses_text(layout.houses, fish.base)} all lie in "
        f"{_houses_text(layout.houses, fish.cover)}{fin_text}; "
        f"{removal_text(layout, fish.eliminations)}"
    )
    level = FINNED_LEVEL[size] if fish.fins else LEVEL[size]
    return Step(name, level, text, eliminations=fish.eliminations)


def _houses_text(houses: tuple[House, ...], chosen: tuple[int, ...]) -> str:
    return ", ".join(houses[h].name for h in sorted(chosen))
