"""The pencil-mark state a human solver works on: candidates per cell, placed digits, and the
houses and peers derived from the puzzle's shape and its region-like rules."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, reduce
from operator import or_
from typing import Any

from satsudoku.bits import bit_indices
from satsudoku.constraints import AllDifferent, Allowed, Constraint, DigitSets
from satsudoku.getters import Getter, getter
from satsudoku.grid import Cell, Digit, Shape, cell_name
from satsudoku.puzzle import Puzzle

Candidate = tuple[int, Digit]  # (flat cell index, digit): one pencil mark
BOX_KINDS = ("box", "region")  # the house kinds a person calls a box (a jigsaw: region)
# Digits a candidate mask may hold in an int64: the compiled searches take boards up to this
# size, wider ones (63×63, 64×64) the Python searches.
WIDEST = 62


@dataclass(frozen=True, slots=True)
class House:
    """A group of n cells holding every digit once: row, column, box/region or a rule's group."""

    kind: str  # "row", "column", "box", "region" (jigsaw) or the rule type ("diagonal", …)
    name: str  # what a person says: "row 3", "box 5", "diagonal 1"
    cells: tuple[int, ...]  # flat row-major indices

    @property
    def is_box(self) -> bool:
        return self.kind in BOX_KINDS


@dataclass(frozen=True, slots=True)
class Restriction:
    """A vocabulary constraint other than all-different (cage sum, dot, line), kept as
    flat indices; its candidates are narrowed by the `restriction` technique."""

    constraint: Constraint
    cells: tuple[int, ...]
    label: str


@dataclass(frozen=True)
class Layout:
    """Everything derived once per puzzle: houses, peers, restrictions. Shared by every copy."""

    n: int
    houses: tuple[House, ...]
    peers: tuple[frozenset[int], ...]  # cells that may not repeat a digit of this cell
    houses_of: tuple[tuple[int, ...], ...]  # indices into `houses` per cell
    restrictions: tuple[Restriction, ...]
    lines: tuple[int, ...] = field(default=())  # indices of rows then columns (fish bases)
    # Pairs of houses sharing two or more cells, with the shared cells (locked candidates).
    overlaps: tuple[tuple[int, int, frozenset[int]], ...] = field(default=())
    plain: bool = True  # no variant rules: uniqueness arguments hold

    def name(self, index: int) -> str:
        return cell_name(divmod(index, self.n))

    @cached_property
    def box_of(self) -> tuple[int, ...]:
        """The box (or jigsaw region) house index of each cell, -1 where there is none."""
        out = [-1] * (self.n * self.n)
        for index, house in enumerate(self.houses):
            if house.is_box:
                for cell in house.cells:
                    out[cell] = index
        return tuple(out)

    @cached_property
    def peer_tuples(self) -> tuple[tuple[int, ...], ...]:
        """`peers` as tuples, for the hot loops (a tuple iterates faster than a frozenset)."""
        return tuple(tuple(sorted(p)) for p in self.peers)

    @cached_property
    def house_bits(self) -> tuple[int, ...]:
        """Per cell, the bit set of its houses (bit i: `houses[i]`)."""
        return tuple(sum(1 << h for h in houses) for houses in self.houses_of)

    @cached_property
    def peer_masks(self) -> tuple[int, ...]:
        """Per cell, the bit set of its peers (bit i: cell i)."""
        return tuple(sum(1 << p for p in peers) for peers in self.peers)

    @cached_property
    def house_masks(self) -> tuple[int, ...]:
        """Per house, the bit set of its cells (bit i: cell i)."""
        return tuple(sum(1 << c for c in h.cells) for h in self.houses)

    @cached_property
    def overlap_parts(
        self,
    ) -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
        """Per entry of `overlaps` (a, b, shared): a, b, the shared cells (in the order the set
        gives them), the rest of a and the rest of b (each in its house's order)."""
        return tuple(
            (
                a,
                b,
                tuple(shared),
                tuple(c for c in self.houses[a].cells if c not in shared),
                tuple(c for c in self.houses[b].cells if c not in shared),
            )
            for a, b, shared in self.overlaps
        )

    @cached_property
    def house_getters(self) -> tuple[Getter, ...]:
        """Per house, a getter of its cells' entries from a per-cell list, in house order
        (one C call where the hot loops would walk the cells)."""
        return tuple(getter(h.cells) for h in self.houses)

    @cached_property
    def overlap_rests(self) -> tuple[Getter, ...]:
        """Per entry of `overlap_parts`, a getter of the rest of house a."""
        return tuple(getter(rest) for _a, _b, _shared, rest, _rest_b in self.overlap_parts)

    @cached_property
    def house_cells(self) -> tuple[tuple[int, ...], ...]:
        """Each house's cells, indexed as `houses`."""
        return tuple(h.cells for h in self.houses)

    def sees(self, a: int, b: int) -> bool:
        return b in self.peers[a]


# The last classic (rule-free) layout, by shape: rating a dataset builds one layout, and what is
# derived from it (peer masks, house getters, the compiled searches' tables) is derived once.
_PLAIN: dict[Shape, Layout] = {}


def layout_of(puzzle: Puzzle) -> tuple[Layout, list[int]]:
    """The puzzle's layout and its initial candidate masks (given-candidate rules applied)."""
    n = puzzle.size
    shape = puzzle.shape
    if not puzzle.rules and shape in _PLAIN:
        return _PLAIN[shape], [(1 << n) - 1] * (n * n)
    houses: list[House] = []
    seen: set[frozenset[int]] = set()

    def add_house(kind: str, name: str, cells: tuple[Cell, ...]) -> None:
        flat = tuple(r * n + c for r, c in cells)
        key = frozenset(flat)
        if key not in seen:  # an extra region equal to a box is the same house
            seen.add(key)
            houses.append(House(kind, name, flat))

    for i, row in enumerate(shape.rows(), 1):
        add_house("row", f"row {i}", row)
    for i, col in enumerate(shape.columns(), 1):
        add_house("column", f"column {i}", col)
    region_kind = "region" if shape.is_jigsaw else "box"
    for i, region in enumerate(shape.regions(), 1):
        add_house(region_kind, f"{region_kind} {i}", region)
    groups: list[tuple[int, ...]] = [h.cells for h in houses]
    restrictions: list[Restriction] = []
    masks = [(1 << n) - 1] * (n * n)
    for rule in puzzle.rules:
        kind = str(rule.to_spec()["type"])
        count = 0
        for constraint in rule.constraints(shape):
            flat = tuple(r * n + c for r, c in constraint.cells)
            if isinstance(constraint, Allowed):
                masks[flat[0]] &= sum(1 << (d - 1) for d in constraint.digits if 1 <= d <= n)
                continue
            if isinstance(constraint, AllDifferent | DigitSets):
                groups.append(flat)
                if isinstance(constraint, AllDifferent) and len(set(flat)) == n:
                    count += 1
                    add_house(kind, f"{kind} {count}", constraint.cells)
                    continue
                if isinstance(constraint, AllDifferent):
                    continue
            restrictions.append(Restriction(constraint, flat, _label(kind, constraint)))
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for group in groups:
        for a in group:
            peers[a].update(group)
    for i, p in enumerate(peers):
        p.discard(i)
    houses_of: list[list[int]] = [[] for _ in range(n * n)]
    for index, house in enumerate(houses):
        for cell in house.cells:
            houses_of[cell].append(index)
    lines = tuple(i for i, h in enumerate(houses) if h.kind == "row") + tuple(
        i for i, h in enumerate(houses) if h.kind == "column"
    )
    cell_sets = [frozenset(h.cells) for h in houses]
    overlaps = tuple(
        (a, b, cell_sets[a] & cell_sets[b])
        for a in range(len(houses))
        for b in range(len(houses))
        if a != b and len(cell_sets[a] & cell_sets[b]) >= 2
    )
    layout = Layout(
        n,
        tuple(houses),
        tuple(frozenset(p) for p in peers),
        tuple(tuple(h) for h in houses_of),
        tuple(restrictions),
        lines,
        overlaps,
        not puzzle.rules,
    )
    if not puzzle.rules:
        _PLAIN.clear()
        _PLAIN[shape] = layout
    return layout, masks


def _label(kind: str, constraint: Constraint) -> str:
    """What a step calls a constraint: its rule and first cell, e.g. 'killer (sum 15) at r1c1'."""
    cells = constraint.cells
    where = cell_name(cells[0]) + ("" if len(cells) == 1 else "…")
    label = getattr(constraint, "label", "")
    return f"{kind} ({label}) at {where}" if label else f"{kind} at {where}"


class Board:
    """Candidates (bit d-1 set ⇔ digit d still possible) and placed digits (0 = open).

    Invariant: a placed cell's mask is its digit's bit and no peer keeps that bit.
    """

    __slots__ = ("layout", "n", "cands", "values", "deadline")

    def __init__(
        self, layout: Layout, cands: list[int], values: list[int], deadline: float | None = None
    ) -> None:
        self.layout = layout
        self.n = layout.n
        self.cands = cands
        self.values = values
        self.deadline = deadline  # perf_counter time after which long searches give up

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle) -> Board:
        """The starting pencil marks: every digit, minus what the givens and given candidate
        sets rule out (the marks a person writes before the first deduction)."""
        layout, masks = layout_of(puzzle)
        board = cls(layout, masks, [0] * (layout.n * layout.n))
        for (r, c), digit in puzzle.given_cells():
            board.place(r * layout.n + c, digit)
        return board

    def copy(self) -> Board:
        return Board(self.layout, self.cands.copy(), self.values.copy(), self.deadline)

    def expired(self) -> bool:
        """True once the time allowed is spent: long searches then stop and find nothing."""
        return self.deadline is not None and time.perf_counter() > self.deadline

    def place(self, cell: int, digit: Digit) -> None:
        """Write `digit` in `cell` and strike it from every peer."""
        bit = 1 << (digit - 1)
        self.values[cell] = digit
        self.cands[cell] &= bit  # 0 if the digit was not a candidate: broken() says so
        cands = self.cands
        for peer in self.layout.peers[cell]:
            cands[peer] &= ~bit

    def eliminate(self, cell: int, digit: Digit) -> None:
        self.cands[cell] &= ~(1 << (digit - 1))

    def has(self, cell: int, digit: Digit) -> bool:
        return bool(self.cands[cell] >> (digit - 1) & 1)

    def solved(self) -> bool:
        return all(self.values)

    def open_cells(self) -> Iterator[int]:
        return (i for i, v in enumerate(self.values) if not v)

    def positions(self, house: House, digit: Digit) -> list[int]:
        """Open cells of `house` where `digit` is still a candidate."""
        bit = 1 << (digit - 1)
        values, cands = self.values, self.cands
        return [c for c in house.cells if not values[c] and cands[c] & bit]

    def placed_in(self, house: House) -> int:
        """Mask of the digits already placed in `house`."""
        mask = 0
        for c in house.cells:
            if self.values[c]:
                mask |= 1 << (self.values[c] - 1)
        return mask

    def broken(self, houses: Iterable[int] | None = None) -> str | None:
        """Why this state has no solution (an empty cell, a digit with no place, a clash);
        `houses` (ascending indices) limits the house checks to those, e.g. the ones a step
        changed on a board that was not broken before it."""
        layout, cands, values, n = self.layout, self.cands, self.values, self.n
        if 0 in cands:
            return f"{layout.name(cands.index(0))} has no candidate left"
        full = (1 << n) - 1
        getters = layout.house_getters
        for index in range(len(layout.houses)) if houses is None else houses:
            house, get = layout.houses[index], getters[index]
            covered = reduce(or_, get(cands))
            if covered != full:
                missing = (~covered & full).bit_length()
                return f"{house.name} has no place for {missing}"
            placed = get(values)
            empty = placed.count(0)
            if len(set(placed)) != n - empty + (1 if empty else 0):
                return f"{house.name} holds a digit twice"
        return None

    def unmet(self) -> str | None:
        """The first rule restriction (cage, dot, line) the placed digits break. Singles place
        digits without reading them and `restriction` only narrows open cells, so a board
        filled up on an unsatisfiable puzzle can break one: it is then no solution."""
        n, values = self.n, self.values
        for item in self.layout.restrictions:
            placed = {divmod(c, n): values[c] for c in item.cells if values[c]}
            if not item.constraint.check(placed):
                return f"{item.label} does not hold"
        return None


class Barren:
    """The houses where one finder found nothing, by their contents: for a finder whose
    answer in a house depends on that house's cells alone (hidden singles and subsets), an
    unchanged house is not searched again. It remembers one layout at a time (classic
    puzzles of one shape share theirs: a house with the same contents gives the same answer)."""

    LIMIT = 20_000  # houses (a 9×9 solve needs ~2,000); past it, it starts afresh

    def __init__(self) -> None:
        self.layout: Layout | None = None
        self.known: set[tuple[int, Any, Any]] = set()

    def key(self, board: Board, index: int) -> tuple[int, Any, Any]:
        """House `index` of `board` with its contents: its cells' candidates and digits."""
        if board.layout is not self.layout:  # another layout: nothing known applies
            self.layout = board.layout
            self.known.clear()
        get = board.layout.house_getters[index]
        return index, get(board.cands), get(board.values)

    def add(self, key: tuple[int, Any, Any]) -> None:
        if len(self.known) >= self.LIMIT:
            self.known.clear()
        self.known.add(key)


def digits_of(mask: int) -> list[Digit]:
    """The digits whose bits are set, ascending."""
    return bit_indices(mask, 1)


def seen_by_all(board: Board, cells: list[int], digit: int) -> tuple[tuple[int, int], ...]:
    """Open cells other than `cells` that see every one of them and still hold `digit`."""
    layout, bit = board.layout, 1 << (digit - 1)
    common = set(layout.peers[cells[0]]).intersection(*(layout.peers[c] for c in cells[1:]))
    return tuple(
        (c, digit)
        for c in sorted(common - set(cells))
        if not board.values[c] and board.cands[c] & bit
    )
