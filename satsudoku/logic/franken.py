"""Franken fish on one digit: k base houses whose places all lie in k cover houses, where boxes
(jigsaw regions, a rule's houses such as diagonals) may stand beside the rows (base) and the
columns (cover), or the reverse; finned when a few base places stay outside the cover."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from satsudoku.logic.fish import NAMES
from satsudoku.logic.state import Board, House
from satsudoku.logic.step import Finder, Step, Technique, removal_text

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
        for digit in range(1, board.n + 1):
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
    places: list[int] = []  # per house, bit mask of its open cells holding `digit`
    for house in layout.houses:
        mask = 0
        for c in house.cells:
            if not board.values[c] and board.cands[c] & bit:
                mask |= 1 << c
        places.append(mask)
    everywhere = 0
    for mask in places:
        everywhere |= mask
    peer_masks = _peer_masks(board) if finned else []
    houses = layout.houses
    for base_line, cover_line in LINES, LINES[::-1]:
        covering = [h for h, house in enumerate(houses) if house.kind != base_line]
        base_pool = [
            h
            for h, house in enumerate(houses)
            if house.kind != cover_line and places[h].bit_count() >= 2
        ]
        # Per cell, the houses that may cover it (base houses are skipped as they come).
        options = [
            tuple(h for h in layout.houses_of[c] if houses[h].kind != base_line)
            for c in range(len(layout.houses_of))
        ]
        widest = max((places[h].bit_count() for h in covering), default=0)
        for base in _bases(base_pool, places, size):
            union = 0
            for h in base:
                union |= places[h]
            search = _CoverSearch(places, options, base, size, peer_masks, widest)
            for cover, fins in search.covers(union, everywhere & ~union):
                if all(houses[h].kind in LINES for h in (*base, *cover)):
                    continue  # a basic fish: fish.py finds it, at its own level
                gone = _eliminations(places, cover, union, fins, peer_masks)
                if gone:
                    yield _Fish(base, cover, fins, tuple((c, digit) for c in gone))


def _bases(pool: list[int], places: list[int], size: int) -> Iterator[tuple[int, ...]]:
    """Sets of `size` houses whose places of the digit do not overlap (an overlap would let
    one placement serve two base houses)."""

    def grow(start: int, chosen: tuple[int, ...], union: int) -> Iterator[tuple[int, ...]]:
        if len(chosen) == size:
            yield chosen
            return
        for i in range(start, len(pool)):
            h = pool[i]
            if places[h] & union:
                continue
            yield from grow(i + 1, (*chosen, h), union | places[h])

    yield from grow(0, (), 0)


@dataclass(frozen=True)
class _CoverSearch:
    """Sets of `size` cover houses taking every base place but the fins (none unless
    finned, at most MAX_FINS): each lowest uncovered place is either covered by one of its
    houses or made a fin. Fins that see no place outside the base in common clear nothing,
    so such a choice is dropped at once."""

    places: list[int]
    options: list[tuple[int, ...]]  # per cell, the cover houses through it
    base: tuple[int, ...]
    size: int
    peer_masks: list[int]  # empty unless finned
    widest: int  # the most places any cover house has: a bound on what one cover takes

    def covers(self, union: int, outside: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
        return self._grow((), 0, union, outside)

    def _grow(
        self, cover: tuple[int, ...], fins: int, todo: int, targets: int
    ) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
        peer_masks = self.peer_masks
        limit = MAX_FINS if peer_masks else 0
        left = self.size - len(cover)
        if todo.bit_count() > left * self.widest + limit - fins.bit_count():
            return  # the covers still to choose cannot take enough places
        if not left:
            fins |= todo
            if peer_masks and not fins:
                return  # no fin: the unfinned finder's fish
            for cell in _cells(todo):
                targets &= peer_masks[cell]
            if not peer_masks or targets:
                yield tuple(sorted(cover)), _cells(fins)
            return
        if not todo:
            return
        low = todo & -todo
        cell = low.bit_length() - 1
        for h in self.options[cell]:
            # A house through a fin is skipped: taking it when that fin was met covers more.
            if h not in cover and h not in self.base and not self.places[h] & fins:
                yield from self._grow((*cover, h), fins, todo & ~self.places[h], targets)
        if peer_masks and fins.bit_count() < limit and targets & peer_masks[cell]:
            yield from self._grow(cover, fins | low, todo & ~low, targets & peer_masks[cell])


def _peer_masks(board: Board) -> list[int]:
    """Each cell's peers as a bit mask over the cells."""
    out = []
    for peers in board.layout.peers:
        mask = 0
        for p in peers:
            mask |= 1 << p
        out.append(mask)
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
