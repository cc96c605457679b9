"""The reference backend: depth-first search over candidate bitmasks with singles propagation.

A cell's mask has one bit per digit that is still possible there. Placing a digit removes it
from every peer (naked singles, cascading); every full house must still offer every digit
somewhere, and a digit with one place left goes there (hidden singles). The root also gets
locked candidates (pointing/claiming between any two houses that share cells). Branching picks
the cell with the fewest candidates, ties going to the one with most open peers. The kernel is
generic over houses: any all-different group adds peers, any n-cell group also takes part in
hidden singles and locked candidates, and tables are kept arc-consistent (two-cell ones through
per-digit supports). Killer cages and renban lines (`DigitSets`) and linear sums (`Sum`: little
killers, arrows) and sandwiches are native rather than Tables, which grow as |sets|·k! and
past MAX_TABLE: a cage keeps its cells within the still-possible digit sets, a sum is kept arc
consistent over its distinct-digit groups (`search.sums`), a sandwich keeps its cells within
its still-possible layouts. The plain search adds the sums that cages and houses imply
(innies and outies) and restarts on 25×25 and up (`_search`).

Masks are "spread": digit d owns a field of `width` bits starting at bit (d-1)*width, so that
summing the masks of a house counts, per digit, the cells that still allow it (SWAR). The open
candidate is the field's lowest bit; once a cell is placed its bit moves to the field's top
("guard") bit, which makes placed digits stand out in the sum. See `_Kernel.__init__`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache, reduce
from itertools import accumulate, repeat
from math import comb
from operator import add, and_, mul, or_, sub, truediv, xor
from typing import Any

from satsudoku.constraints import (
    CORE_KINDS,
    AllDifferent,
    Allowed,
    Automaton,
    Constraint,
    DigitSets,
    Sandwich,
    Sum,
    Table,
    lower,
)
from satsudoku.deadline import check_building
from satsudoku.getters import Getter, getter
from satsudoku.grid import Shape
from satsudoku.puzzle import Puzzle
from satsudoku.rules import Rule
from satsudoku.search.sandwiches import SandwichLine
from satsudoku.search.sums import DERIVED_TERMS, SumSupport, SumTable, Unit, implied_sums
from satsudoku.search.watch import Watch

Masks = list[int]
# Boards from this size on run locked candidates at every search node (25×25 at 45 % givens,
# lines 801-1000 of 25x25-lewis-general.txt: 801 settles in 2,334 nodes, 3.2 s CPU, instead of
# no answer after 8,580; 811 in 472; 821 in 75). Below it they cost 2-2.5× the CPU for 1-30 %
# fewer nodes (forum-hardest-1106 and the 16×16 band, samples of 20-40).
_LOCKED_FROM = 25
_CLOCKED_ROWS = 2048  # a Table this long reads the clock before each scan (the rest: per node)
_CLIQUE_SETS = 5000  # digit sets kept for a clique of two-cell relations (9×9 nabner: ≤ 35)
_MEMO_CAP = 1 << 16  # entries per relation memo of two-cell supports
_CAGE_MEMO = 1 << 13  # entries per cage memo of its still-possible sets (~2 MB at most)
# Widest range of values (Σ|w|·n) a sum gets arc consistency for: its partial sums are bitsets
# of that many bits. Wider ones (a bulb of many digits read as a number) keep to bounds.
_SUM_SPAN = 1 << 14
# A sum gets arc consistency while each group of k peers has at most this many digit sets,
# C(n, k): a 12-cell segment in a 25×25 box would have millions. Else it keeps to bounds.
_GROUP_SETS = 5000
# Candidate count (a byte: masks hold at most 2·64 bits) -> 1 if the cell is open (2 or
# more), for bytes.translate (`branch_cell`).
_OPEN = bytes([0, 0, *([1] * 254)])
# An implied sum whose solutions take at most this many digits tried to list lists them once
# (`SumTable`): on 9x9 3, 4, 5 and 6 terms take ~90, ~740, ~6,300 and 31,000-50,000.
_TABLE_STEPS = 1 << 13
_SUM_MEMO = 1 << 12  # masks remembered per such sum (`_SumTableIdx.memo`: ~0.5 MB at most)
_ROOT_SLACK = 2  # implied sums longer than DERIVED_TERMS this near an extreme narrow the root
_Step = Callable[[list[int], Any, tuple[int, ...]], int]  # one constraint's narrowing


NATIVE_KINDS: tuple[type, ...] = (*CORE_KINDS, DigitSets, Sum, Sandwich, Automaton)  # as they are


class _Meets(dict[int, int]):
    """Cell mask -> the sets (bit k: `sets[k]`) holding one of its digits, open or placed.

    A search meets the same few hundred masks of a cage's cells over and over, while the
    cage's masks as a whole rarely recur (forum killer line 37: ~72 misses a node of a memo
    keyed by them); so the sets that fit are found as the AND of one remembered entry per
    cell instead of a Python loop over every set and cell.
    """

    def __init__(self, sets: tuple[int, ...], up: int, full: int) -> None:
        super().__init__()
        self.sets, self.up, self.full = sets, up, full

    def __missing__(self, mask: int) -> int:
        digits = (mask | mask >> self.up) & self.full
        found = 0
        for k, bits in enumerate(self.sets):
            if bits & digits:
                found |= 1 << k
        if len(self) >= _CAGE_MEMO:
            self.clear()
        self[mask] = found
        return found


class _Within(dict[int, int]):
    """Digits (open bits) -> the sets (bit k: `sets[k]`) using none but them."""

    def __init__(self, sets: tuple[int, ...]) -> None:
        super().__init__()
        self.sets = sets

    def __missing__(self, digits: int) -> int:
        found = 0
        for k, bits in enumerate(self.sets):
            if not bits & ~digits:
                found |= 1 << k
        if len(self) >= _CAGE_MEMO:
            self.clear()
        self[digits] = found
        return found


class _Spans(dict[int, tuple[int, int]]):
    """Sets (bit k: `sets[k]`) -> their union (-1 if none) and their intersection."""

    def __init__(self, sets: tuple[int, ...]) -> None:
        super().__init__()
        self.sets = sets

    def __missing__(self, chosen: int) -> tuple[int, int]:
        union, need, rest = 0, -1, chosen
        while rest:
            low = rest & -rest
            rest ^= low
            bits = self.sets[low.bit_length() - 1]
            union |= bits
            need &= bits
        if len(self) >= _CAGE_MEMO:
            self.clear()
        found = self[chosen] = (union or -1), need
        return found


@dataclass(frozen=True)
class _CageIdx:
    """A `DigitSets` over flat cell indices; each set as the open bits of its digits, and the
    tables `_Kernel._cage_sets` reads (`up`, `full`: the kernel's width - 1 and open bits)."""

    cells: tuple[int, ...]
    get: Getter
    sets: tuple[int, ...]
    up: int
    full: int
    meets: _Meets = field(init=False, compare=False)
    within: _Within = field(init=False, compare=False)
    spans: _Spans = field(init=False, compare=False)
    # The masks and answer of the last `_Kernel._cage_sets` call: `_needed` asks again about
    # the masks `_cage` has just settled on.
    last: list[Any] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "meets", _Meets(self.sets, self.up, self.full))
        object.__setattr__(self, "within", _Within(self.sets))
        object.__setattr__(self, "spans", _Spans(self.sets))
        object.__setattr__(self, "last", [None, None])


@dataclass(frozen=True)
class _SumIdx:
    """A `Sum` over flat cell indices: Σ weights[i] · digit(cells[i]) == total."""

    cells: tuple[int, ...]
    get: Getter
    weights: tuple[int, ...]
    total: int
    # Positions of terms that must hold distinct digits (pairwise peers) under one weight: a
    # group of k cells sums to at least its k smallest distinct values, not k times the least.
    groups: tuple[tuple[int, ...], ...] = ()
    # The groups and the other terms of nonzero weight, as `SumSupport` takes them; empty when
    # the values span too wide a range for its bitsets (bounds only, then).
    units: tuple[Unit, ...] = ()


@dataclass(frozen=True)
class _SumTableIdx:
    """A short implied sum: walked (`_Kernel._sum`) in the root's settle, with its solutions
    listed (`SumTable`, at its first step past it) below, unless they are too many to list."""

    constraint: _SumIdx
    apart: tuple[tuple[int, int], ...]  # positions whose cells are peers
    # [the table once listed, or False if too long to list]: an easy killer never lists.
    state: list[Any] = field(init=False, compare=False, repr=False, default_factory=lambda: [None])
    # Masks -> the (cell, digits kept) it narrows, None if it fails: masks recur across a
    # node's probes and its children (forum killer line 62: 3 calls in 4).
    memo: dict[tuple[int, ...], tuple[tuple[int, int], ...] | None] = field(
        init=False, compare=False, repr=False, default_factory=dict
    )


@dataclass(frozen=True)
class _EqualIdx:
    """Segments that all have one sum (a region sum line's, a zipper's): cells flattened, and
    per segment its slice of them and its units (positions within the segment, weight 1)."""

    cells: tuple[int, ...]
    get: Getter
    segments: tuple[tuple[int, int, tuple[Unit, ...]], ...]


@dataclass(frozen=True)
class _AutomatonIdx:
    """An `Automaton`'s live layers over flat cell indices, states numbered per layer.

    `moves[i][u]`: the arcs out of state u of layer i as (open bit of the digit, bit of the
    state it leads to in layer i+1); layer 0 holds the start alone, and every state of the
    last layer accepts.
    """

    cells: tuple[int, ...]
    get: Getter
    moves: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    # masks -> the digits each cell keeps (open bits), () when no path is left
    memo: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class _PairIdx:
    """A two-cell table as supports: the partner digits (open bits) each digit still allows."""

    cells: tuple[int, int]
    get: Getter
    of_first: dict[int, int]  # bit of a digit in the first cell -> digits allowed in the second
    of_second: dict[int, int]  # and the other way round
    # Raw mask of one cell (open or placed) -> the union of its digits' supports in the other,
    # filled as masks occur and shared by every pair with the same relation (a board of
    # nonconsecutive pairs has one), so a revision is two dict lookups.
    first_memo: dict[int, int]
    second_memo: dict[int, int]
    # The most digits a partner's mask can hold and still leave some digit of this cell without
    # support (`_blind`): with more on both sides arc consistency narrows nothing, and `_pair`
    # returns before its lookups (nonconsecutive: 2, so most of a search's revisions stop there).
    first_blind: int
    second_blind: int


def _blind(of_partner: dict[int, int]) -> int:
    """The most digits a partner may hold while some digit of this cell has no support among
    them: for a digit x, every partner digit that forbids x (`of_partner` maps a partner
    digit's bit to the digits it allows here)."""
    targets = reduce(or_, of_partner, 0)  # every digit's bit: both cells have the same digits
    most = 0
    while targets:
        x = targets & -targets
        targets ^= x
        most = max(most, sum(1 for allowed in of_partner.values() if not allowed & x))
    return most


@dataclass(frozen=True)
class _TableIdx:
    """A table over flat cell indices, tuples stored as candidate bits per position."""

    cells: tuple[int, ...]
    get: Getter
    rows: tuple[tuple[int, ...], ...]


class _Segments:
    """The sums of several groups of a mask list, each over its own cells: one C-level getter
    over the groups laid end to end, running sums, and the differences at the group
    boundaries. Exact: Python integers carry no overflow, so a difference of running sums is
    the group's sum as if added alone (with the SWAR fields intact)."""

    def __init__(self, groups: Sequence[Sequence[int]]) -> None:
        cells = [i for group in groups for i in group]
        self.cells = getter(cells)
        bounds = list(accumulate(map(len, groups), initial=0))
        self.starts = getter(bounds[:-1])
        self.ends = getter(bounds[1:])
        # Groups all of one size k >= 2 (a 25×25's box-line intersections, its houses by
        # intersections): k getters, the j-th cell of every group, added column by column,
        # skip the running sums (lock sums of a band node: 81 -> 55 µs).
        sizes = set(map(len, groups))
        self.columns: tuple[Getter, ...] = ()
        if len(groups) >= 2 and len(sizes) == 1 and min(sizes) >= 2:
            self.columns = tuple(getter([g[j] for g in groups]) for j in range(min(sizes)))

    def __call__(self, cands: Masks) -> list[int]:
        if self.columns:
            first, *rest = self.columns
            total: Any = first(cands)
            for column in rest:
                total = map(add, total, column(cands))
            return list(total)
        running = list(accumulate(self.cells(cands), initial=0))
        return list(map(sub, self.ends(running), self.starts(running)))


class _Kernel:
    """Everything derived once per puzzle shape and rule set; search state is a mask list."""

    def __init__(self, size: int, constraints: Sequence[Constraint]) -> None:
        n = size
        self.n = n
        # Field layout: counts 0..n fit below the guard bit, so width = bit_length(n) + 1.
        width = n.bit_length() + 1
        self.width = width
        self.bit = tuple(1 << (d * width) for d in range(n))  # open candidate bit of digit d+1
        ones = sum(self.bit)  # the open bit of every digit: an empty cell's mask
        self.full = ones
        self.guard = ones << (width - 1)  # the top bit of every field: placed digits live here
        # Adding 2**(width-1) - k to a field sets its guard bit iff the field holds >= k; counts
        # stay <= n < 2**(width-1) and a placed digit holds exactly 2**(width-1), so no carry
        # ever crosses into the next field.
        self.add1 = self.guard - ones
        self.add2 = self.guard - 2 * ones
        self.low = (1 << (width - 1)) - 1  # times open bits: their fields' bits below the guard
        self.counts = ones * self.low  # every field's bits below its guard (SWAR counts)
        peer_sets: list[set[int]] = [set() for _ in range(n * n)]
        houses: list[tuple[int, ...]] = []
        allowed = [self.full] * (n * n)
        tables: list[_TableIdx] = []
        pairs: list[_PairIdx] = []
        cages: list[_CageIdx] = []
        sums: list[_SumIdx] = []
        sandwiches: list[SandwichLine] = []
        automata: list[_AutomatonIdx] = []
        groups: list[tuple[int, ...]] = []  # all-different groups: peers, and houses if n cells
        relations: dict[frozenset[tuple[int, ...]], tuple[dict[int, int], ...]] = {}
        relations_blind: dict[frozenset[tuple[int, ...]], tuple[int, int]] = {}
        links: list[list[tuple[int, dict[int, int]]]] = [[] for _ in range(n * n)]
        sum_cages: list[tuple[tuple[int, ...], int]] = []  # cages whose every set has one sum
        for constraint in constraints:
            check_building()  # a skyscraper clue's Table holds 10^4 rows: seconds in all
            if isinstance(constraint, AllDifferent):
                groups.append(tuple(r * n + c for r, c in constraint.cells))
            elif isinstance(constraint, DigitSets):
                group = tuple(r * n + c for r, c in constraint.cells)
                groups.append(group)
                sets = tuple(
                    sum(self.bit[d - 1] for d in s)
                    for s in constraint.fitting_sets()
                    if all(1 <= d <= n for d in s)  # a digit off the board: never fits
                )
                union = 0
                for bits in sets:
                    union |= bits
                for i in group:
                    allowed[i] &= union  # no fitting set: every cell empty, a contradiction
                if group and sets:
                    cages.append(_CageIdx(group, getter(group), sets, self.width - 1, self.full))
                totals = {sum(s) for s in constraint.fitting_sets() if all(d <= n for d in s)}
                if len(totals) == 1 and len(set(group)) == len(group):  # a killer cage's sum
                    sum_cages.append((group, totals.pop()))
            elif isinstance(constraint, Sum):
                cells = tuple(r * n + c for r, c in constraint.cells)
                for a, b in constraint.distinct:  # a binary all-different: the pair are peers
                    if cells[a] == cells[b]:
                        allowed[cells[a]] = 0  # a cell that must differ from itself
                    groups.append((cells[a], cells[b]))
                weights = constraint.coefficients()
                sums.append(_SumIdx(cells, getter(cells), weights, constraint.total))
            elif isinstance(constraint, Sandwich):
                group = tuple(r * n + c for r, c in constraint.cells)
                groups.append(group)  # its digits are distinct: the cells are peers
                sandwiches.append(SandwichLine.build(constraint, group, self.bit))
            elif isinstance(constraint, Automaton):
                cells = tuple(r * n + c for r, c in constraint.cells)
                if constraint.distinct:  # sorted: a row or column is then its house's tuple
                    groups.append(tuple(sorted(cells)))
                automata.append(self._automaton_index(constraint, cells))
            elif isinstance(constraint, Allowed):
                r, c = constraint.cell
                allowed[r * n + c] &= sum(self.bit[d - 1] for d in constraint.digits if 1 <= d <= n)
            elif isinstance(constraint, Table):
                cells = tuple(r * n + c for r, c in constraint.cells)
                rows = tuple(
                    tuple(self.bit[d - 1] if 1 <= d <= n else 0 for d in row)
                    for row in constraint.tuples
                )
                if len(cells) == 2 and cells[0] != cells[1]:  # dots, X/V, whispers, …
                    key = frozenset(rows)
                    if key not in relations:
                        of_first = dict.fromkeys(self.bit, 0)
                        of_second = dict.fromkeys(self.bit, 0)
                        for a, b in rows:
                            if a and b:  # a digit outside 1..n has no bit: the row never fits
                                of_first[a] |= b
                                of_second[b] |= a
                        relations[key] = (of_first, of_second, {}, {})
                    of_first, of_second, first_memo, second_memo = relations[key]
                    blind = relations_blind.get(key)
                    if blind is None:
                        blind = relations_blind[key] = (_blind(of_second), _blind(of_first))
                    first, second = cells
                    pairs.append(
                        _PairIdx(
                            (first, second),
                            getter(cells),
                            of_first,
                            of_second,
                            first_memo,
                            second_memo,
                            *blind,
                        )
                    )
                    links[first].append((second, of_first))
                    links[second].append((first, of_second))
                else:
                    tables.append(_TableIdx(cells, getter(cells), rows))
        for clique, sets in self._cliques(pairs):
            groups.append(clique)
            cages.append(_CageIdx(clique, getter(clique), sets, self.width - 1, self.full))
        group_bits = [0] * (n * n)  # per cell, the cells of its groups as one integer
        for group in groups:
            check_building()  # a 64×64's peers and locks take ~0.3 s before any search
            mask = reduce(or_, (1 << i for i in set(group)), 0)
            for i in group:
                peer_sets[i].update(group)
                group_bits[i] |= mask
            if len(set(group)) == n:  # pigeonhole: every digit occurs exactly once
                houses.append(group)
        for i, peers in enumerate(peer_sets):
            peers.discard(i)
        self.peers = tuple(tuple(sorted(p)) for p in peer_sets)
        # Per cell, its two-cell tables as (partner, digit bit -> digits the partner keeps):
        # placing a digit narrows each partner by one lookup, as placing narrows peers.
        self.links = tuple(map(tuple, links))
        self.houses = tuple(dict.fromkeys(houses))  # a house listed twice is checked once
        self.allowed = allowed
        # Constraints beyond houses, as (getter of their masks, narrowing step, index).
        self.extras: tuple[tuple[Getter, _Step, Any], ...] = (
            *((cage.get, self._cage, cage) for cage in cages),
            *((constraint.get, self._sum, self._grouped(constraint)) for constraint in sums),
            *((sandwich.get, self._sandwich, sandwich) for sandwich in sandwiches),
            *((automaton.get, self._automaton, automaton) for automaton in automata),
            *((pair.get, self._pair, pair) for pair in pairs),
            *((table.get, self._table, table) for table in tables),
        )
        # What propagate runs: the extras less the two-cell tables whose arc consistency never
        # goes beyond what `assign` does through `links` (every two digits of one cell support
        # all of the other's: nonconsecutive, anti-consecutive lines, …). `extras` stays whole
        # for the proof mode, which replays it to justify what the kernel removed.
        # The strong ones run as one step over their cells (`_pairs`): a step per pair made a
        # nonconsecutive board's 144 pairs half of the search's time.
        self.strong_pairs = tuple(pair for pair in pairs if self._strong(pair))
        merged: list[tuple[Getter, _Step, Any]] = []
        if self.strong_pairs:
            ends = sorted({i for pair in self.strong_pairs for i in pair.cells})
            revisions = tuple(
                (*pair.cells, pair.first_blind, pair.second_blind, pair)
                for pair in self.strong_pairs
            )
            merged.append((getter(ends), self._pairs, revisions))
        self.active = (
            *(extra for extra in self.extras if extra[1] not in (self._pair, self._table)),
            *merged,
            *(extra for extra in self.extras if extra[1] == self._table),
        )
        self.calm: list[tuple[int, ...] | None] = [None] * len(self.active)
        # Per sandwich, its cells, their getter and its crusts' open bits (`crust_places`).
        self.crusts = tuple(
            (line.cells, line.get, (line.low, line.high))
            for line in sandwiches
            if line.low and line.high
        )
        self.sum_support = SumSupport(self.bit)
        # The sums cages and houses imply (innies and outies), for the plain search only
        # (`settle`): the proof mode could justify them only by branching over whole houses.
        implied = [self._grouped(constraint) for constraint in self._implied(sum_cages)]
        self.derived: tuple[tuple[Getter, _Step, Any], ...] = (
            *(step for step in map(self._short_sum, implied) if step is not None),
            *((equal.get, self._equal, equal) for equal in self._equal_sums(sums)),
            *((self._around(cage.cells), self._needed, cage) for cage in cages),
        )
        self.derived_calm: list[tuple[int, ...] | None] = [None] * len(self.derived)
        self.walking = False  # in the root's settle: short implied sums walk (`_sum_table`)
        # Longer implied sums cost more per node than they prune (sums.DERIVED_TERMS), except
        # those a setter built the puzzle on: a total within _ROOT_SLACK of the least or greatest
        # its cells can hold. Those narrow the root once, by bounds (forum killer-X line 7:
        # 8 cells summing to 65 of at most 66; no answer in 7,762 nodes -> 1 node).
        self.root_sums: tuple[tuple[Getter, _Step, Any], ...] = tuple(
            (constraint.get, self._sum, replace(constraint, units=()))
            for constraint in implied
            if len(constraint.cells) > DERIVED_TERMS and self._room(constraint) <= _ROOT_SLACK
        )
        # Killer cages (one sum for all their digit sets): the plain search probes shallow
        # nodes of such puzzles (`search.probe`), where a trial propagates far.
        self.killer_cages = len(sum_cages)
        self.house_bits = [0] * (n * n)  # bit k set: the cell lies in house k (and `watch`)
        for k, house in enumerate(self.houses):
            for i in house:
                self.house_bits[i] |= 1 << k
        # The propagation queue (`search.watch`): with steps beyond houses, a dirty value also
        # names, above the house bits, the steps reading a changed cell, and a round runs only
        # those. Steps are numbered `active` first, then `derived`. A cage's needed digits
        # read its peers too, but only its own cells' changes can make it narrow again: a
        # peer that lacked a needed digit still lacks it once narrowed.
        everything = list(range(n * n))
        self.watch = Watch(
            n * n,
            self.houses,
            [
                index.cells if step == self._needed else get(everything)
                for get, step, index in (*self.active, *self.derived)
            ],
        )
        if self.active or self.derived:
            self.house_bits = list(map(or_, self.house_bits, self.watch.wake))
        self.active_steps = (1 << len(self.active)) - 1
        # The short implied sums the last root's settle walked and that narrow its masks once
        # listed (`_owed`; None: not yet known), and those masks.
        self.owed: int | None = 0
        self.root_fix: tuple[int, ...] | None = None
        # itemgetter fetches a house's masks in one C call (a 1-cell house would give a bare int).
        self.getters = tuple(getter(house) for house in self.houses)

        # Locked candidates: every pair of houses sharing >= 2 cells (box-line in classic boards).
        locks: list[tuple[tuple[int, ...], int, int, tuple[int, ...], tuple[int, ...]]] = []
        for a, house_a in enumerate(self.houses):
            check_building()
            for b in range(a + 1, len(self.houses)):
                house_b = self.houses[b]
                both = set(house_a) & set(house_b)
                if len(both) >= 2:
                    rest_a = tuple(i for i in house_a if i not in both)
                    rest_b = tuple(i for i in house_b if i not in both)
                    locks.append((tuple(sorted(both)), a, b, rest_a, rest_b))
        self.locks = tuple((a, b, rest_a, rest_b) for _, a, b, rest_a, rest_b in locks)
        # `_locked` sums every intersection and every house in C: one getter over their cells
        # laid end to end, running sums, and differences at the boundaries (`_Segments`).
        self.lock_sums = _Segments([both for both, *_ in locks])
        self.house_sums = _Segments(list(self.houses))
        # Where every house is cut into whole intersections (rows and columns by boxes, boxes
        # by rows), its sum adds those few intersection sums instead of all its cells.
        self.house_parts = self._house_parts([both for both, *_ in locks])
        self.lock_a = getter([a for _, a, *_ in locks])  # house sums -> each lock's house A
        self.lock_b = getter([b for _, _, b, *_ in locks])
        # Per cell, its peers as bits 8p, as `branch_cell` counts open peers (built lazily).
        self.peer_bytes: dict[int, int] = {}
        self.positions = tuple(range(n))  # a house's cells by position (`_subsets`)
        self.house_totals: list[int] = []  # the last `_locked` call's house sums
        # Per house, masks on which it holds no hidden pair (`_subsets`; as `calm`).
        self.pairs_calm: list[tuple[int, ...] | None] = [None] * len(self.houses)
        # Candidate count -> divisor of a conflict score: a placed cell (count 1) never wins.
        self.open_count = (1.0, float("inf"), *map(float, range(2, n + 1)))
        # Per cell, its peers as one integer (bit i: cell i), to intersect peer sets in C: its
        # groups' cells less itself (summing each peer's bit into a 4,096-bit integer took
        # 0.7 s on an empty 64×64, with no clock read, so '--timeout 0.3' answered after 1.1 s).
        self.peer_bits = tuple(bits & ~(1 << i) for i, bits in enumerate(group_bits))

    def _house_parts(self, boths: list[tuple[int, ...]]) -> _Segments | None:
        """Per house, locks whose intersections cut it into disjoint parts (the first that
        fit), as groups of lock indices; None unless every house is cut so."""
        parts: list[list[int]] = []
        for house in self.houses:
            left, chosen = set(house), []
            for k, both in enumerate(boths):
                if left.issuperset(both):
                    left.difference_update(both)
                    chosen.append(k)
            if left or not chosen:
                return None
            parts.append(chosen)
        return _Segments(parts) if parts else None

    def _cliques(self, pairs: list[_PairIdx]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Cells pairwise bound by one symmetric relation that forbids equal digits (a nabner
        line, a whisper-free clique of dots), with the digit sets they can hold together: kept
        as a cage, whose needed digits and hidden singles go beyond arc consistency per pair.
        Only cliques of 3+ cells whose sets number at most _CLIQUE_SETS."""
        by_relation: dict[int, dict[int, set[int]]] = {}
        of: dict[int, dict[int, int]] = {}
        for pair in pairs:
            if pair.of_first != pair.of_second or any(
                pair.of_first[b] & b for b in self.bit
            ):  # not symmetric, or some digit may repeat: no all-different clique
                continue
            graph = by_relation.setdefault(id(pair.of_first), {})
            of[id(pair.of_first)] = pair.of_first
            a, b = pair.cells
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set()).add(a)
        found: dict[frozenset[int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        for key, graph in by_relation.items():
            for a in sorted(graph):
                for b in sorted(graph[a]):
                    clique = [a, b]
                    for c in sorted(graph[a] & graph[b]):
                        if all(c in graph[x] for x in clique):
                            clique.append(c)
                    cells = frozenset(clique)
                    if len(cells) < 3 or cells in found:
                        continue
                    sets = self._clique_sets(len(cells), of[key])
                    if sets is not None:
                        found[cells] = (tuple(sorted(cells)), sets)
        return [found[c] for c in found if not any(c < other for other in found)]

    def _clique_sets(self, k: int, of_digit: dict[int, int]) -> tuple[int, ...] | None:
        """Every set of k digits pairwise allowed by the relation, as open bits; None past
        _CLIQUE_SETS."""
        sets: list[int] = []
        stack: list[tuple[int, int, int]] = [(0, 0, self.full)]  # (next digit, set, allowed)
        while stack:
            start, chosen, allowed = stack.pop()
            if chosen.bit_count() == k:
                sets.append(chosen)
                if len(sets) > _CLIQUE_SETS:
                    return None
                continue
            for d in range(start, self.n):
                bit = self.bit[d]
                if allowed & bit:
                    stack.append((d + 1, chosen | bit, allowed & of_digit[bit]))
        return tuple(sets)

    def _room(self, constraint: _SumIdx) -> int:
        """How far the total lies from the least or greatest sum the cells can make with any
        digits, their distinct-digit groups apart (0: every cell is forced to an extreme)."""
        weights, n = constraint.weights, self.n
        lows = [w if w >= 0 else w * n for w in weights]
        highs = [w * n if w >= 0 else w for w in weights]
        rise, fall = constraint.total - sum(lows), sum(highs) - constraint.total
        if constraint.groups:
            masks = tuple(self.full for _ in weights)
            slack = self._group_slack(constraint, masks, lows, highs)
            if slack is None:
                return -1
            # A term outside every group is cut by all groups; one inside by less.
            rise, fall = rise - max(slack[0]), fall - max(slack[1])
        return min(rise, fall)

    def _implied(self, sum_cages: list[tuple[tuple[int, ...], int]]) -> list[_SumIdx]:
        """The innie/outie sums of the cages that overlap no other cage (`implied_sums`), of
        up to 2n terms (`root_sums` keeps the long ones a setter built on; longer ones, over
        many rows of a large board, would cost their grouping's n^2 steps each for little)."""
        owner: dict[int, int] = {}
        for k, (cells, _) in enumerate(sum_cages):
            for i in cells:
                owner[i] = -1 if i in owner else k
        disjoint = [cage for k, cage in enumerate(sum_cages) if all(owner[i] == k for i in cage[0])]
        if not disjoint:
            return []
        return [
            _SumIdx(cells, getter(cells), weights, total)
            for cells, weights, total in implied_sums(self.n, self.houses, disjoint, 2 * self.n)
        ]

    def _short_sum(self, constraint: _SumIdx) -> tuple[Getter, _Step, Any] | None:
        """An implied sum's step at every node, for one of up to DERIVED_TERMS terms (None for
        a longer one): `_sum_table`."""
        cells = constraint.cells
        if len(cells) > DERIVED_TERMS:
            return None
        apart = tuple(
            (a, b)
            for a in range(len(cells))
            for b in range(a + 1, len(cells))
            if cells[b] in self.peers[cells[a]]
        )
        return constraint.get, self._sum_table, _SumTableIdx(constraint, apart)

    def _equal_sums(self, sums: list[_SumIdx]) -> list[_EqualIdx]:
        """Chains of `a == b` sums (total 0, weights ±1) joined into one constraint per set of
        segments that must share a sum: the pairs see that sum only through their cells'
        digits, all segments together see the values every one of them can reach."""
        parent: dict[frozenset[int], frozenset[int]] = {}

        def root(x: frozenset[int]) -> frozenset[int]:
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x

        for constraint in sums:
            weights = constraint.weights
            if constraint.total or len(set(constraint.cells)) != len(constraint.cells):
                continue
            if not set(weights) == {1, -1}:
                continue
            plus = frozenset(i for i, w in zip(constraint.cells, weights, strict=True) if w > 0)
            minus = frozenset(i for i, w in zip(constraint.cells, weights, strict=True) if w < 0)
            parent[root(plus)] = root(minus)
        classes: dict[frozenset[int], list[frozenset[int]]] = {}
        for segment in list(parent):
            classes.setdefault(root(segment), []).append(segment)
        found = []
        for segments in classes.values():
            if len(segments) < 3:
                continue  # two segments: their own sum already says everything
            cells: list[int] = []
            parts = []
            for segment in sorted(segments, key=sorted):
                members = tuple(sorted(segment))
                alone = _SumIdx(members, getter(members), (1,) * len(members), 0)
                parts.append((len(cells), len(cells) + len(members), self._grouped(alone).units))
                cells.extend(members)
            if all(units for _, _, units in parts):
                found.append(_EqualIdx(tuple(cells), getter(tuple(cells)), tuple(parts)))
        return found

    def _grouped(self, constraint: _SumIdx) -> _SumIdx:
        """The sum with its distinct-digit groups: cells of one weight that are all peers,
        gathered greedily (a region sum line's segment within a box, an arrow in a box)."""
        groups: list[list[int]] = []
        for k, (i, w) in enumerate(zip(constraint.cells, constraint.weights, strict=True)):
            for group in groups:
                first = group[0]
                if constraint.weights[first] == w and all(
                    constraint.cells[j] in self.peers[i] for j in group
                ):
                    group.append(k)
                    break
            else:
                if w:
                    groups.append([k])
        kept = tuple(tuple(group) for group in groups if len(group) > 1)
        units: tuple[Unit, ...] = ()
        if sum(abs(w) for w in constraint.weights) * self.n <= _SUM_SPAN:
            units = tuple((tuple(group), constraint.weights[group[0]]) for group in groups)
        if any(comb(self.n, len(group)) > _GROUP_SETS for group in groups):
            units = ()  # bounds, with the groups' k smallest/largest distinct digits
        return replace(constraint, groups=kept, units=units)

    def _strong(self, pair: _PairIdx) -> bool:
        """Whether arc consistency on `pair` can narrow a cell whose partner has two or more
        digits left (else placing the partner, in `assign`, makes every deduction it does)."""
        for support in (pair.of_first, pair.of_second):
            bits = [b for b in self.bit if support[b]]
            if any(support[a] | support[b] != self.full for a in bits for b in bits if a < b):
                return True
            if len(bits) < self.n:  # a digit without support: AC removes it from any mask
                return True
        return False

    def _locked(self, cands: Masks) -> int:
        """Pointing/claiming over every house pair: dirty houses, or -1 on contradiction.

        A digit still possible in A∩B but nowhere in A∖B must go in A∩B, so B∖A loses it (and
        vice versa). Run at the root: it roughly halves the nodes of top1465-like puzzles there.
        Inside the search (`settle`) only from _LOCKED_FROM up: on 9×9 and 16×16 it costs more
        than the nodes it saves, on 25×25 near the phase transition it saves far more.

        Every lock is judged on one snapshot, in C (maps over all locks at once): a 25×25 has
        250 locks and finds nothing to remove at most calls, which summing each lock's three
        parts in a Python loop made 60-75 % of the search's time (line 991 of the 25×25 band).
        A∖B is A's sum less A∩B's, exact field by field since both come from one snapshot.
        Removals are then applied one by one; the fixpoint (`settle` calls again while anything
        changes) is the same as judging the locks in turn, so the search tree is too.
        """
        if not self.locks:
            return 0
        guard, add1, up = self.guard, self.add1, self.width - 1
        inside = self.lock_sums(cands)
        parts = self.house_parts
        houses = self.house_sums(cands) if parts is None else parts(inside)
        self.house_totals = houses  # for `_subsets`, which runs on these masks if none change
        adds, guards = repeat(add1), repeat(guard)
        # Guard bits of the digits open or placed in A∩B, A∖B and B∖A (the house sums take
        # add1 once, not once per lock). A digit placed in A∩B is absent from both rests, so
        # it never causes a removal.
        houses = list(map(add, houses, adds))
        rests_a = list(map(sub, self.lock_a(houses), inside))
        rests_b = list(map(sub, self.lock_b(houses), inside))
        # A removal needs a digit in A∩B and in just one rest: most calls stop at this test.
        in_one = map(xor, rests_a, rests_b)
        if not any(map(and_, map(and_, map(add, inside, adds), in_one), guards)):
            return 0
        in_i = list(map(and_, map(add, inside, adds), guards))
        in_a = list(map(and_, rests_a, guards))
        in_b = list(map(and_, rests_b, guards))
        # In A∩B and B∖A but not in A∖B: B∖A loses it; and the other way round.
        from_b = list(map(and_, map(and_, in_i, in_b), map(xor, in_a, guards)))
        from_a = list(map(and_, map(and_, in_i, in_a), map(xor, in_b, guards)))
        house_bits, assign = self.house_bits, self.assign
        dirty = 0
        for k, (_, _, rest_a, rest_b) in enumerate(self.locks):
            for remove, cells in ((from_b[k] >> up, rest_b), (from_a[k] >> up, rest_a)):
                for c in cells if remove else ():
                    m = cands[c]
                    if m & remove:
                        m &= ~remove
                        if not m:
                            return -1
                        if m & (m - 1):
                            cands[c] = m
                            dirty |= house_bits[c]
                        else:
                            changed = assign(cands, c, m)
                            if changed < 0:
                                return -1
                            dirty |= changed
        return dirty

    def _subsets(self, cands: Masks) -> int:
        """Naked and hidden pairs in every house: dirty houses (after the first house that
        changed), or -1 on contradiction. Run where `_locked` has just found nothing to remove,
        on its house sums (`house_totals`).

        Naked pair: two open cells of a house with the same two digits; the house's other cells
        lose both. Hidden pair: two digits with the same two places in a house; those cells
        lose their other digits. Found by C-level sums, not per-cell loops: the cells of two
        candidates via `bytes.find` on their counts, and per house the digits with exactly two
        places from its SWAR sum (`add2`/`add3` tests, as `propagate` finds one place), whose
        places are told apart by a second sum, `sum(position * mask)`: a digit's field then
        holds its two places' positions added (at most 2n - 3 < 2**width), equal for a pair.
        """
        houses, house_bits, getters = self.houses, self.house_bits, self.getters
        in_houses = self.watch.houses  # house_bits also name the steps watching a cell
        up, guard, full = self.width - 1, self.guard, self.full
        add2 = self.add2
        add3 = add2 - (self.add1 - add2)  # a field's guard bit iff it holds >= 3
        counts = bytes(map(int.bit_count, cands))  # placed cells count 1
        seen: dict[int, int] = {}  # mask -> the first cell that has it
        more: dict[int, list[int]] = {}  # mask -> the cells after the first, when any
        find = counts.find
        i = find(2)
        while i >= 0:
            m = cands[i]
            first = seen.setdefault(m, i)
            if first == i:
                i = find(2, i + 1)
                continue
            mates = more.setdefault(m, [first])
            for j in mates:
                common = house_bits[i] & house_bits[j] & in_houses  # not the `watch` bits
                while common:
                    low = common & -common
                    common ^= low
                    k = low.bit_length() - 1
                    if (sum(getters[k](cands)) + add3) & (m << up):  # a third cell has one
                        dirty = 0
                        for c in houses[k]:
                            if c != i and c != j and cands[c] & m:
                                changed = self._narrow(cands, c, ~m)
                                if changed < 0:
                                    return -1
                                dirty |= changed
                        return dirty
            mates.append(i)
            i = find(2, i + 1)
        fields = (1 << self.width) - 1
        positions, calm = self.positions, self.pairs_calm
        # Which digits have two places only guides the search: a pair is kept only where its
        # two digits are open in just two cells of the house's masks as read now.
        totals = self.house_totals if self.locks else self.house_sums(cands)
        for k, total in enumerate(totals):
            two = ((total + add2) & ~(total + add3) & guard) >> up  # digits with two places
            if not two & (two - 1):
                continue
            masks = getters[k](cands)
            if masks == calm[k]:
                continue
            places = sum(map(mul, map(and_, masks, repeat(two)), positions))
            by_places: dict[int, list[int]] = {}
            dirty = 0
            while two:
                b = two & -two
                two ^= b
                digits = by_places.setdefault((places >> (b.bit_length() - 1)) & fields, [])
                for other in digits:
                    keep = other | b
                    cells = [c for c, m in zip(houses[k], masks, strict=True) if m & keep]
                    if len(cells) != 2:
                        continue  # other places that add up alike
                    for c in cells:
                        if cands[c] & ~keep & full:
                            changed = self._narrow(cands, c, keep)
                            if changed < 0:
                                return -1
                            dirty |= changed
                digits.append(b)
            if dirty:
                return dirty
            calm[k] = masks
        return 0

    def settle(self, cands: Masks, dirty: int, locked: bool = True, root: bool = False) -> bool:
        """`propagate`, then the implied sums (`derived`, and at the `root` also `root_sums`)
        and, if `locked` on boards of _LOCKED_FROM and up, locked candidates, all to a joint
        fixpoint; False on contradiction. Used by the plain search only: both go beyond unit
        propagation on the encoding, so the proof mode keeps to `propagate`. `dirty` as for
        `propagate`; the root runs every step."""
        if root:
            # The root walks its short implied sums, listed below it (`_sum_table`): the
            # same in every search, as the fixpoints `derived_calm` keeps below the root.
            self.walking = True
            try:
                return self._settle(cands, dirty, locked, root)
            finally:
                self.walking = False
                self.derived_calm[:] = [None] * len(self.derived_calm)
                self.root_fix, self.owed = tuple(cands), None
        return self._settle(cands, dirty, locked, root)

    def _settle(self, cands: Masks, dirty: int, locked: bool, root: bool) -> bool:
        """`settle`'s work."""
        pending = self.watch(dirty) if self.active else 0
        if not root:
            owed = self.owed
            if owed is None:
                owed = self.owed = self._owed()
            pending |= owed
        pending = self._propagate(cands, dirty, pending)
        if pending < 0:
            return False
        locked = locked and self.n >= _LOCKED_FROM
        derived, calm = self.derived, self.derived_calm
        if root and self.root_sums:
            derived = derived + self.root_sums
            calm = calm + [None] * len(self.root_sums)
        if not (locked or derived):
            return True
        shift, everything = len(self.active), (1 << len(derived)) - 1
        while True:
            run = everything if root else pending >> shift
            dirty = self._extras(cands, derived, calm, run, self.watch.shift + shift) if run else 0
            if dirty == 0 and locked:
                dirty = self._locked(cands)
                if dirty == 0:
                    dirty = self._subsets(cands)
            if dirty == 0:
                return True
            if dirty < 0:
                return False
            pending = self._propagate(cands, dirty, 0)
            if pending < 0:
                return False

    def _owed(self) -> int:
        """The short implied sums that the last root's settle walked (`_sum_table`) and that
        narrow its masks once listed: below the root they run at every settle's first round,
        as their cells' changes alone cannot say when they must (steps as bits, `watch`)."""
        owed, root, shift = 0, self.root_fix, len(self.active)
        for k, (get, step, index) in enumerate(self.derived):
            if root is not None and step == self._sum_table and self._listed(index, get(root)):
                owed |= 1 << (shift + k)
        return owed

    def branch_cell(self, cands: Masks, heat: list[int] | None = None) -> int:
        """The open cell with the fewest candidates, ties going to most open peers; -1 if none.
        With `heat` (per cell, failures of digits placed there), ties go to the most heat
        first, then to most open peers.

        The degree tie-break (choose the cell that constrains most others) halves the search
        tree on hard 9×9 puzzles. All per-cell counting runs in C (map, count, index, sum).
        """
        counts = list(map(int.bit_count, cands))  # placed cells count 1, open cells >= 2
        top = max(counts)
        if top < 2:
            return -1
        fewest = 2
        while fewest not in counts:
            fewest += 1
        ties = counts.count(fewest)
        if ties == 1:
            return counts.index(fewest)
        # Open cells as one integer, a byte per cell (bit 8i: cell i open), made in C; a
        # cell's degree is then one AND with its peers laid out alike (`_peer_bytes`) and a
        # bit count (a node of the 25×25 band, where ~33 cells tie: 141 -> 74 µs).
        opened = int.from_bytes(bytes(counts).translate(_OPEN), "little")
        peer_bytes = self.peer_bytes
        best = i = -1
        best_degree = -1
        for _ in range(ties):
            i = counts.index(fewest, i + 1)
            peers = peer_bytes[i] if i in peer_bytes else self._peer_bytes(i)
            degree = (peers & opened).bit_count()  # < 4096 cells: heat counts first
            if heat is not None:
                degree += heat[i] << 12
            if degree > best_degree:
                best, best_degree = i, degree
        return best

    def _peer_bytes(self, cell: int) -> int:
        """The cell's peers as bits 8p (`branch_cell`), made when first asked for: a 64×64's
        would take 8 MB and seconds to build up front."""
        layout = bytearray(self.n * self.n)
        for p in self.peers[cell]:
            layout[p] = 1
        found = self.peer_bytes[cell] = int.from_bytes(layout, "little")
        return found

    def branch_scored(self, cands: Masks, scores: list[int]) -> int:
        """The open cell with the most conflicts per candidate (`scores`, bumped by the search
        when a digit placed there fails; ties: the first), or `branch_cell`'s choice while no
        open cell has any; -1 if none is open. All per-cell work runs in C (map, max, index)."""
        spread = list(map(self.open_count.__getitem__, map(int.bit_count, cands)))
        keys = list(map(truediv, scores, spread))
        top = max(keys)
        return keys.index(top) if top > 0 else self.branch_cell(cands)

    def crust_places(self, cands: Masks) -> list[tuple[int, int]]:
        """Where the sandwich crust still unplaced in its line with the fewest places (2 or
        more) can go, as (cell, open bit); [] if every crust is placed.

        The plain search branches on these when they are no more than its cell's candidates:
        once a line's crusts stand, its clue fixes the digit set between them, where the
        cell's digits say little. Crust digits are distinct on their line, so the line's SWAR
        sum counts each one's open places (a placed one holds its guard bit, past n)."""
        n, low_field = self.n, (1 << self.width) - 1
        best: tuple[tuple[int, ...], int] | None = None
        fewest = n + 1
        for cells, get, bits in self.crusts:
            total = sum(get(cands))
            for bit in bits:
                places = total // bit & low_field
                if 2 <= places < fewest:
                    best, fewest = (cells, bit), places
        if best is None:
            return []
        cells, bit = best
        return [(i, bit) for i in cells if cands[i] & bit]

    def open_bits(self, mask: int) -> int:
        """The digits of a mask as open bits, whether the cell is placed (guard bit) or not."""
        return (mask | mask >> (self.width - 1)) & self.full

    def digit(self, mask: int) -> int:
        """The digit of a single-candidate mask, placed or not."""
        return (mask.bit_length() - 1) // self.width + 1

    def assign(self, cands: Masks, cell: int, bit: int) -> int:
        """Place `bit` at `cell` and cascade naked singles.

        Returns the set of houses (as bits) whose cells changed, or -1 on contradiction.
        """
        # Invariant: a cell is pushed exactly once, when its mask first becomes a single bit,
        # so every single-bit mask is placed-and-propagated once the stack is empty. Popping
        # moves the bit to its guard position ("placed"); placed masks never meet an open bit
        # in `m & b`, which is safe because a placed digit was already removed from all peers.
        peers, house_bits, up = self.peers, self.house_bits, self.width - 1
        links, guard = self.links, self.guard
        cands[cell] = bit
        dirty = house_bits[cell]
        stack = [cell]
        pop, push = stack.pop, stack.append
        while stack:
            j = pop()
            b = cands[j]
            cands[j] = b << up
            for p in peers[j]:
                m = cands[p]
                if m & b:
                    m ^= b
                    if not m:
                        return -1
                    cands[p] = m
                    dirty |= house_bits[p]
                    if not m & (m - 1):
                        push(p)
            # Two-cell tables: a placed partner already agrees (it narrowed this cell through
            # the same relation seen from its side), an open one keeps the digits `b` allows.
            for p, allow in links[j]:
                m = cands[p]
                if m & ~allow[b] and not m & guard:
                    m &= allow[b]
                    if not m:
                        return -1
                    cands[p] = m
                    dirty |= house_bits[p]
                    if not m & (m - 1):
                        push(p)
        return dirty

    def propagate(self, cands: Masks, dirty: int) -> bool:
        """Hidden singles (and table consistency) to a fixpoint; False on contradiction.

        `dirty`, as `assign` and the steps return it (`house_bits`), names what changed since
        `cands` was last at a fixpoint: the houses (bit k: house k), scanned again, and above
        them the steps reading a changed cell, run again (`watch`); houses alone (a caller's
        "every house") run every step reading a cell of theirs.
        """
        return self._propagate(cands, dirty, self.watch(dirty) if self.active else 0) >= 0

    def _propagate(self, cands: Masks, dirty: int, pending: int) -> int:
        """`propagate` with steps to run besides those `dirty` names (`pending`, bits as in
        `watch`): the `derived` steps among them and among those its changes wake, or -1 on
        contradiction."""
        houses, getters, assign = self.houses, self.getters, self.assign
        guard, add1, add2, up = self.guard, self.add1, self.add2, self.width - 1
        scan, every_house, shift = dirty & self.watch.houses, self.watch.houses, self.watch.shift
        touched = dirty
        while True:
            while scan:
                low = scan & -scan
                scan ^= low
                k = low.bit_length() - 1
                # Per-digit field: number of open cells, or exactly the guard value if placed.
                total = sum(getters[k](cands))
                some = (total + add1) & guard  # guard bits of digits placed or still possible
                if some != guard:
                    return -1  # some digit has no place left in this house
                # Exactly one open cell: >= 1 but not >= 2 (placed digits are both, so drop out).
                only = (some & ~(total + add2)) >> up
                if only:
                    for i in houses[k]:
                        m = cands[i]
                        hit = m & only
                        if hit:
                            if hit & (hit - 1):
                                return -1  # one cell is the only place of two digits
                            changed = assign(cands, i, hit)
                            if changed < 0:
                                return -1
                            scan |= changed & every_house
                            touched |= changed
            if not self.active:
                return 0  # no steps (derived ones come with active ones): houses alone
            pending |= touched >> shift
            run = pending & self.active_steps
            if not run:
                return pending
            pending ^= run
            touched = self._extras(cands, self.active, self.calm, run, shift)
            if touched <= 0:
                return pending if touched == 0 else -1
            scan = touched & every_house

    def _extras(
        self,
        cands: Masks,
        extras: tuple[tuple[Getter, _Step, Any], ...],
        calm: list[tuple[int, ...] | None],
        run: int,
        shift: int,
    ) -> int:
        """Cages, sums and tables (`active` or `derived`): the steps of `run` (bit k: step k)
        in order, and after a step's change the later steps it wakes (a dirty value's bits
        `shift`ed to `extras`' own, `watch`), as a full round over them would; dirty houses and
        steps, or -1 on contradiction.

        Each constraint's narrowing depends only on its own cells' masks, so once it has
        changed nothing on some masks it is skipped while they recur (`calm`, shared by every
        search on this kernel: any entry is a true fixpoint, so a stale one only costs a rerun).
        """
        dirty, everything = 0, (1 << len(extras)) - 1
        while run:
            low = run & -run
            run ^= low
            k = low.bit_length() - 1
            get, step, index = extras[k]
            masks = get(cands)
            if masks == calm[k]:
                continue
            changed = step(cands, index, masks)
            if changed < 0:
                return -1
            if changed:
                dirty |= changed
                run |= changed >> shift & everything & -(low << 1)
            else:
                calm[k] = masks
        return dirty

    def _narrow(self, cands: Masks, i: int, keep: int) -> int:
        """Keep only the open bits `keep` at open cell `i`: dirty houses, or -1 if none is left.

        A cell left with one digit is assigned (placing it and cascading), as the invariant of
        `assign` demands.
        """
        m = cands[i] & keep
        if not m:
            return -1
        if m & (m - 1):
            cands[i] = m
            return self.house_bits[i]
        return self.assign(cands, i, m)

    def _restrict(self, cands: Masks, i: int, keep: int) -> int:
        """Like `_narrow`, for a cell that may be placed already: a placed digit outside
        `keep` is a contradiction, one inside changes nothing (0)."""
        m = cands[i]  # read now: an earlier narrowing may have placed or narrowed it
        if m & self.guard:
            return 0 if (m >> (self.width - 1)) & keep else -1
        return self._narrow(cands, i, keep) if m & ~keep else 0

    def _cage(self, cands: Masks, cage: _CageIdx, masks: tuple[int, ...]) -> int:
        """Digit-set consistency on one cage: dirty houses, or -1 on contradiction.

        A set stays possible while it holds every digit placed in the cage, meets every open
        cell and is covered by the cells' candidates; the cells keep the union of those sets,
        and a digit every remaining set needs, with one open cell left, goes there.
        """
        guard, add1, add2, up = self.guard, self.add1, self.add2, self.width - 1
        union, need, placed, total = self._cage_sets(cage, masks)
        if union <= 0:
            return union  # -1: no set fits; 0: every cell placed, and rightly
        dirty = 0
        # The masks' sum counts each digit's open cells below its field's guard bit: a count
        # outside the union's fields is an open cell holding a digit no set allows.
        if total & self.counts & ~(union * self.low):
            for i in cage.cells:
                m = cands[i]  # re-read: an earlier narrowing may have placed or narrowed it
                if not m & guard and m & ~union:
                    changed = self._narrow(cands, i, union)
                    if changed < 0:
                        return -1
                    dirty |= changed
            total = sum(cage.get(cands))
        need &= ~placed
        if not need:
            return dirty
        some = (total + add1) & guard
        if (need << up) & ~some:
            return -1  # a digit every remaining set needs has no cell left
        only = ((some & ~(total + add2)) >> up) & need  # needed, with exactly one open cell
        if only:
            for i in cage.cells:
                hit = cands[i] & only
                if hit:
                    if hit & (hit - 1):
                        return -1  # one cell is the only place of two needed digits
                    changed = self.assign(cands, i, hit)
                    if changed < 0:
                        return -1
                    dirty |= changed
        return dirty

    def _around(self, cells: tuple[int, ...]) -> Getter:
        """A getter of `cells`' masks, then those of every peer of theirs: all that `_needed`
        reads, so that its `calm` entry is exact."""
        around = sorted({p for i in cells for p in self.peers[i]} - set(cells))
        return getter(cells + tuple(around))

    def _cage_sets(self, cage: _CageIdx, masks: tuple[int, ...]) -> tuple[int, int, int, int]:
        """The union and the intersection of the digit sets still possible on `masks`, the
        digits placed and the masks' sum; union -1 if none is, 0 if every cell is placed in a
        fitting set.

        A set stays possible while it holds every digit placed in the cage, meets every open
        cell and is covered by the cells' candidates: the AND of the cells' `meets` entries
        and the `within` entry of the digits present, as bits over the sets (see `_Meets`).
        """
        last = cage.last
        if last[0] == masks:
            found: tuple[int, int, int, int] = last[1]
            return found
        guard, up = self.guard, self.width - 1
        total = sum(masks)  # SWAR, as in a house: the cage's cells are pairwise peers
        placed = (total & guard) >> up  # a placed digit is in no other cell of the cage
        present = ((total + self.add1) & guard) >> up  # digits placed or possible somewhere
        chosen = reduce(and_, map(cage.meets.__getitem__, masks), cage.within[present])
        if not total & ~guard:
            # All placed (perhaps in one cascade that the cage never saw): only the set of
            # exactly the placed digits can be left, so the check is exact.
            found = (0 if chosen else -1), 0, placed, total
        else:
            union, need = cage.spans[chosen]
            found = union, need, placed, total
        last[0], last[1] = masks, found
        return found

    def _needed(self, cands: Masks, cage: _CageIdx, masks: tuple[int, ...]) -> int:
        """A digit every still-possible set of a cage holds, not yet placed there, goes in one
        of the cage's cells that allow it, so every cell that sees all of those loses it (the
        cells of a house outside a cage inside it, and cells outside a house that see all of
        a cage's places for the digit): dirty houses, or -1 on contradiction. For the plain
        search only (`derived`): unit propagation on the encoding does not make this step."""
        own = masks[: len(cage.cells)]
        union, need, placed, _ = self._cage_sets(cage, own)
        if union <= 0:
            return union
        need &= ~placed
        peer_bits, up, dirty = self.peer_bits, self.width - 1, 0
        while need:
            bit = need & -need
            need ^= bit
            common = -1  # cells that see every cell of the cage still open to the digit
            for i in cage.cells:
                m = cands[i]  # read now: an earlier narrowing may have placed the digit
                if m & bit:
                    common &= peer_bits[i]
                elif m & (bit << up):
                    common = 0  # placed in the cage since: its peers lost it then
                    break
            if common < 0:
                return -1  # no cell of the cage allows a digit every set needs
            while common:
                low = common & -common
                common ^= low
                j = low.bit_length() - 1
                if cands[j] & bit:  # an open bit: cell j is open (placed masks hold guards)
                    changed = self._narrow(cands, j, ~bit)
                    if changed < 0:
                        return -1
                    dirty |= changed
        return dirty

    def _sum(self, cands: Masks, constraint: _SumIdx, masks: tuple[int, ...]) -> int:
        """Arc consistency on one linear sum (`SumSupport`, over its distinct-digit groups):
        dirty houses, or -1 on contradiction. Exact once every cell is placed."""
        if not constraint.units:
            return self._sum_bounds(cands, constraint, masks)
        open_bits, supports = self.open_bits, self.sum_support.supports
        cells, units, total = constraint.cells, constraint.units, constraint.total
        dirty = 0
        while True:
            opened = list(map(open_bits, masks))
            keep = supports(opened, units, total)
            if keep is None:
                return -1
            narrowed = False  # some cell lost digits: another round on the new masks
            for i, mine, kept in zip(cells, opened, keep, strict=True):
                if mine == kept:
                    continue
                narrowed = True
                changed = self._restrict(cands, i, kept)
                if changed < 0:
                    return -1
                dirty |= changed
            if not narrowed:
                return dirty
            masks = constraint.get(cands)

    def _sum_table(self, cands: Masks, index: _SumTableIdx, masks: tuple[int, ...]) -> int:
        """Exact supports on a short implied sum (`SumTable`): dirty houses, or -1 on
        contradiction. One round is the sum's fixpoint: a kept digit keeps its solution. The
        root's settle walks instead (`walking`): listing 4 terms takes ~1 ms, and an easy
        killer, solved there, took twice its CPU (40 Janko killers: 1.3 -> 2.8-3.3 s)."""
        table = None if self.walking else self._listing(index)
        if table is None:
            return self._sum(cands, index.constraint, masks)
        changes = self._changes(index, table, masks)
        if changes is None:
            return -1
        dirty = 0
        for i, kept in changes:
            changed = self._restrict(cands, i, kept)
            if changed < 0:
                return -1
            dirty |= changed
        return dirty

    def _changes(
        self, index: _SumTableIdx, table: SumTable, masks: tuple[int, ...]
    ) -> tuple[tuple[int, int], ...] | None:
        """The (cell, digits kept) the listed sum narrows on `masks`, None if it fails
        (memoised per masks: `_SumTableIdx.memo`)."""
        memo = index.memo
        try:
            return memo[masks]
        except KeyError:
            pass
        up, full = self.width - 1, self.full
        opened = [(m | m >> up) & full for m in masks]
        keep = table.supports(opened)
        changes = None
        if keep is not None:
            changes = tuple(
                (i, kept)
                for i, mine, kept in zip(index.constraint.cells, opened, keep, strict=True)
                if mine != kept
            )
        if len(memo) >= _SUM_MEMO:
            memo.clear()
        memo[masks] = changes
        return changes

    def _listing(self, index: _SumTableIdx) -> SumTable | None:
        """The short sum's solutions, listed at the first call; None if too many to list
        (walked for good, then)."""
        table = index.state[0]
        if table is None:
            constraint = index.constraint
            table = _sum_table(self.bit, constraint.weights, constraint.total, index.apart)
            index.state[0] = table = table if table.complete else False
        return table or None

    def _listed(self, index: _SumTableIdx, masks: tuple[int, ...]) -> bool:
        """Whether the short sum, listed (as below the root), narrows `masks` or fails there;
        False if it is too long to list (it walks everywhere, then)."""
        table = self._listing(index)
        return table is not None and self._changes(index, table, masks) != ()

    def _equal(self, cands: Masks, equal: _EqualIdx, masks: tuple[int, ...]) -> int:
        """Segments of one common sum: the sum lies among the values every segment can reach,
        and each segment keeps the digits of its ways to reach one of those. Dirty houses, or
        -1 on contradiction."""
        open_bits, support = self.open_bits, self.sum_support
        cells = equal.cells
        dirty = 0
        while True:
            opened = list(map(open_bits, masks))
            values = -1
            for start, end, units in equal.segments:
                values &= support.reachable(opened[start:end], units)
                if not values:
                    return -1
            narrowed = False
            for start, end, units in equal.segments:
                keep = support.within(opened[start:end], units, values)
                if keep is None:
                    return -1
                for k, kept in enumerate(keep, start):
                    if opened[k] == kept:
                        continue
                    narrowed = True
                    changed = self._restrict(cands, cells[k], kept)
                    if changed < 0:
                        return -1
                    dirty |= changed
            if not narrowed:
                return dirty
            masks = equal.get(cands)

    def _sum_bounds(self, cands: Masks, constraint: _SumIdx, masks: tuple[int, ...]) -> int:
        """Bounds consistency on one linear sum: dirty houses, or -1 on contradiction.

        With lo/hi the smallest/largest value of each term w·d over the cell's candidates, a
        term can rise at most total - Σlo above its lo and fall at most Σhi - total below its
        hi; digits outside that window go, until the sum's fixpoint. Once every cell is
        placed, lo = hi and this is the exact check. A group of distinct-digit terms tightens
        the bounds of the terms outside it by its k smallest (largest) distinct values, and of
        each term inside it by those of the group's other k-1 cells (`_group_slack`).
        """
        width, full, guard, up = self.width, self.full, self.guard, self.width - 1
        cells, weights, total = constraint.cells, constraint.weights, constraint.total
        dirty = 0
        while True:
            lows: list[int] = []
            highs: list[int] = []
            for m, w in zip(masks, weights, strict=True):
                if m & guard:
                    m >>= up
                low_digit = ((m & -m).bit_length() - 1) // width + 1
                high_digit = (m.bit_length() - 1) // width + 1
                if w >= 0:
                    lows.append(w * low_digit)
                    highs.append(w * high_digit)
                else:
                    lows.append(w * high_digit)
                    highs.append(w * low_digit)
            rise = total - sum(lows)  # how far above Σlo the total lies
            fall = sum(highs) - total  # how far below Σhi
            if rise < 0 or fall < 0:
                return -1
            rises = falls = None
            if constraint.groups:
                slack = self._group_slack(constraint, masks, lows, highs)
                if slack is None:
                    return -1
                rises = [rise - x for x in slack[0]]
                falls = [fall - x for x in slack[1]]
                if min(rises) < 0 or min(falls) < 0:
                    return -1
            narrowed = False
            for k, (i, w, low, high) in enumerate(zip(cells, weights, lows, highs, strict=True)):
                if rises is not None and falls is not None:
                    rise, fall = rises[k], falls[k]
                if w == 0 or (high - low <= rise and high - low <= fall):
                    continue  # the window [high - fall, low + rise] holds every value
                top, bottom = low + rise, high - fall  # the term's value window
                if w > 0:
                    first, last = -(-bottom // w), top // w
                else:
                    first, last = -(-top // w), bottom // w
                first, last = max(first, 1), min(last, self.n)
                if first > last:
                    return -1
                keep = ((1 << (last * width)) - (1 << ((first - 1) * width))) & full
                if cands[i] & ~keep & ~guard:  # an open cell loses digits: another round
                    narrowed = True
                changed = self._restrict(cands, i, keep)
                if changed < 0:
                    return -1
                dirty |= changed
            if not narrowed:
                return dirty
            masks = constraint.get(cands)

    def _group_slack(
        self, constraint: _SumIdx, masks: tuple[int, ...], lows: list[int], highs: list[int]
    ) -> tuple[list[int], list[int]] | None:
        """Per term, how much more than Σlo (less than Σhi) the other terms must sum to, as
        their distinct-digit groups demand; None if a group has fewer digits than cells."""
        weights, count = constraint.weights, len(constraint.cells)
        opened = list(map(self.open_bits, masks))
        inside: dict[int, tuple[int, int, int, int]] = {}  # position -> its group's (lo, hi)
        lo_all = hi_all = 0  # and its own slack without it
        for group in constraint.groups:
            w = weights[group[0]]
            extremes = self._extremes(reduce(or_, (opened[k] for k in group)), len(group), w)
            if extremes is None:
                return None
            lo = max(0, extremes[0] - sum(lows[k] for k in group))
            hi = max(0, sum(highs[k] for k in group) - extremes[1])
            lo_all, hi_all = lo_all + lo, hi_all + hi
            for k in group:
                rest = [j for j in group if j != k]
                others = self._extremes(reduce(or_, (opened[j] for j in rest)), len(rest), w)
                if others is None:
                    return None
                lo_k = max(0, others[0] - sum(lows[j] for j in rest))
                hi_k = max(0, sum(highs[j] for j in rest) - others[1])
                inside[k] = (lo, hi, lo_k, hi_k)
        rise_cut, fall_cut = [lo_all] * count, [hi_all] * count
        for k, (lo, hi, lo_k, hi_k) in inside.items():
            rise_cut[k] = lo_all - lo + lo_k
            fall_cut[k] = hi_all - hi + hi_k
        return rise_cut, fall_cut

    def _extremes(self, union: int, k: int, w: int) -> tuple[int, int] | None:
        """The least and greatest Σ w·d over k distinct digits of `union` (open bits)."""
        digits = [d + 1 for d in range(self.n) if union & self.bit[d]]
        if len(digits) < k:
            return None
        small, large = sum(digits[:k]), sum(digits[len(digits) - k :])
        return (w * small, w * large) if w > 0 else (w * large, w * small)

    def _sandwich(self, cands: Masks, sandwich: SandwichLine, masks: tuple[int, ...]) -> int:
        """Layout consistency on one sandwich (`SandwichLine.support`): dirty houses, or -1 on
        contradiction."""
        opened = list(map(self.open_bits, masks))
        support = sandwich.support(opened)
        if support is None:
            return -1
        dirty = 0
        for i, mine, keep in zip(sandwich.cells, opened, support, strict=True):
            if mine & ~keep:  # its digits then were all kept: so are its fewer ones now
                changed = self._restrict(cands, i, keep)
                if changed < 0:
                    return -1
                dirty |= changed
        return dirty

    def _automaton_index(self, automaton: Automaton, cells: tuple[int, ...]) -> _AutomatonIdx:
        """The automaton's layers over all digits (`Automaton.layers`) as bit tables."""
        layers = automaton.layers()
        number = [{u: j for j, u in enumerate(states)} for states in layers.states]
        moves = []
        for i, arcs in enumerate(layers.arcs):
            out: list[list[tuple[int, int]]] = [[] for _ in layers.states[i]]
            for u, d, v in arcs:
                out[number[i][u]].append((self.bit[d - 1], 1 << number[i + 1][v]))
            moves.append(tuple(map(tuple, out)))
        return _AutomatonIdx(cells, getter(cells), tuple(moves))

    def _automaton(self, cands: Masks, automaton: _AutomatonIdx, masks: tuple[int, ...]) -> int:
        """GAC on one automaton (its distinct digits are the houses' business): the states
        reachable from the start over the cells' digits, then back from the accepting ones;
        each cell keeps the digits of the arcs between states on both sides."""
        support = automaton.memo.get(masks)
        if support is None:
            support = self._automaton_support(automaton, masks)
            if len(automaton.memo) >= _CAGE_MEMO:
                automaton.memo.clear()
            automaton.memo[masks] = support
        if not support:
            return -1
        dirty = 0
        open_bits = self.open_bits
        for i, keep in zip(automaton.cells, support, strict=True):
            if open_bits(cands[i]) & ~keep:  # re-read: an earlier narrowing may reach it
                changed = self._restrict(cands, i, keep)
                if changed < 0:
                    return -1
                dirty |= changed
        return dirty

    def _automaton_support(
        self, automaton: _AutomatonIdx, masks: tuple[int, ...]
    ) -> tuple[int, ...]:
        """Per cell the digits on some accepted path through `masks`; () if there is none."""
        opened = list(map(self.open_bits, masks))
        reached = [1]  # layer 0: the start
        for moves, digits in zip(automaton.moves, opened, strict=True):
            here, after = reached[-1], 0
            for u, arcs in enumerate(moves):
                if here >> u & 1:
                    for bit, v in arcs:
                        if digits & bit:
                            after |= v
            if not after:
                return ()
            reached.append(after)
        alive = reached[-1]
        support = [0] * len(opened)
        for i in range(len(opened) - 1, -1, -1):
            here, digits, keep, before = reached[i], opened[i], 0, 0
            for u, arcs in enumerate(automaton.moves[i]):
                if here >> u & 1:
                    for bit, v in arcs:
                        if digits & bit and alive & v:
                            keep |= bit
                            before |= 1 << u
            support[i], alive = keep, before
        return tuple(support)

    def _pairs(
        self, cands: Masks, rows: tuple[tuple[int, int, int, int, _PairIdx], ...], masks: Any
    ) -> int:
        """Arc consistency on every strong two-cell table: dirty houses, or -1 on
        contradiction. A pair is revised only when a side holds few enough digits to leave the
        other's without support (`_blind`); `masks`, all their cells', only keep it calm."""
        dirty, supports, restrict = 0, self._supports, self._restrict
        for first, second, first_blind, second_blind, pair in rows:
            a, b = cands[first], cands[second]
            if b.bit_count() <= first_blind:  # the first cell may lose digits
                keep = pair.second_memo.get(b)
                if keep is None:
                    keep = supports(b, pair.of_second, pair.second_memo)
                if a & ~keep:
                    changed = restrict(cands, first, keep)
                    if changed < 0:
                        return -1
                    dirty |= changed
                    a = cands[first]
            if a.bit_count() <= second_blind:  # the second may
                keep = pair.first_memo.get(a)
                if keep is None:
                    keep = supports(a, pair.of_first, pair.first_memo)
                b = cands[second]  # the first's assign may have reached it
                if b & ~keep:
                    changed = restrict(cands, second, keep)
                    if changed < 0:
                        return -1
                    dirty |= changed
        return dirty

    def _pair(self, cands: Masks, pair: _PairIdx, masks: tuple[int, ...]) -> int:
        """Arc consistency on a two-cell table: each cell keeps the digits its partner allows."""
        first_mask, second_mask = masks
        if (
            second_mask.bit_count() > pair.first_blind
            and first_mask.bit_count() > pair.second_blind
        ):
            return 0
        to_second = pair.first_memo.get(first_mask)
        if to_second is None:
            to_second = self._supports(first_mask, pair.of_first, pair.first_memo)
        to_first = pair.second_memo.get(second_mask)
        if to_first is None:
            to_first = self._supports(second_mask, pair.of_second, pair.second_memo)
        dirty = 0
        first, second = pair.cells
        for i, support in ((first, to_first), (second, to_second)):
            # Re-read: the first cell's assign may reach this one. Supports hold guard bits
            # too, so a placed digit stays or fails.
            if cands[i] & ~support:
                changed = self._restrict(cands, i, support)
                if changed < 0:
                    return -1
                dirty |= changed
        return dirty

    def _supports(self, mask: int, of_digit: dict[int, int], memo: dict[int, int]) -> int:
        """The union of the supports of a mask's digits, remembered in `memo`."""
        m, support = self.open_bits(mask), 0
        while m:
            bit = m & -m
            m ^= bit
            support |= of_digit[bit]
        support |= support << (self.width - 1)  # placed digits (guard bits) count as supported
        if len(memo) >= _MEMO_CAP:  # masks seen by a long 25×25 search: bound the memory
            memo.clear()
        memo[mask] = support
        return support

    def _table(self, cands: Masks, table: _TableIdx, masks: tuple[int, ...]) -> int:
        """Generalised arc consistency on one table: dirty houses, or -1 on contradiction."""
        dirty = 0
        open_bits = self.open_bits
        cells = table.cells
        if not table.rows:
            return -1  # no tuple at all (with no cells, nothing narrows to show it)
        if len(table.rows) > _CLOCKED_ROWS:
            check_building()  # a skyscraper clue's scan takes ~10 ms: the deadline comes first
        opened = [open_bits(m) for m in masks]
        if len(cells) == 3:  # between and lockout lines: unrolled, several times faster
            o0, o1, o2 = opened
            s0 = s1 = s2 = 0
            for r0, r1, r2 in table.rows:
                if r0 & o0 and r1 & o1 and r2 & o2:
                    s0 |= r0
                    s1 |= r1
                    s2 |= r2
            support = [s0, s1, s2]
        elif len(cells) == 4:  # quadruple clues
            o0, o1, o2, o3 = opened
            s0 = s1 = s2 = s3 = 0
            for r0, r1, r2, r3 in table.rows:
                if r0 & o0 and r1 & o1 and r2 & o2 and r3 & o3:
                    s0 |= r0
                    s1 |= r1
                    s2 |= r2
                    s3 |= r3
            support = [s0, s1, s2, s3]
        else:
            support = [0] * len(cells)
            for row in table.rows:
                if all(bit & mask for bit, mask in zip(row, opened, strict=True)):
                    for k, bit in enumerate(row):
                        support[k] |= bit
        for k, i in enumerate(cells):
            # Re-read the cell: an assign earlier in this loop may have narrowed or placed
            # it. Support counted on the older (wider) masks is still a sound filter.
            if open_bits(cands[i]) & ~support[k]:  # a placed cell can only stay or fail here
                changed = self._restrict(cands, i, support[k])
                if changed < 0:
                    return -1
                dirty |= changed
        return dirty

    def initial(self, givens: Sequence[int]) -> Masks | None:
        """Masks after posting domains and givens and propagating; None if contradictory."""
        cands = list(self.allowed)
        if any(m == 0 for m in cands):
            return None
        for i, value in enumerate(givens):
            if value:
                bit, m = self.bit[value - 1], cands[i]
                if not self.open_bits(m) & bit:
                    return None
                # A given may already be placed by an earlier given's cascade: nothing to do.
                if m & (m - 1) and self.assign(cands, i, bit) < 0:
                    return None
        for i, m in enumerate(cands):
            # A domain that starts as a single digit is a given in disguise: place it too.
            if not m & (m - 1) and self.allowed[i] == m and not givens[i]:
                if self.assign(cands, i, m) < 0:
                    return None
        if not self.propagate(cands, (1 << len(self.houses)) - 1):
            return None
        while True:  # locked candidates and singles, to a joint fixpoint
            dirty = self._locked(cands)
            if dirty == 0:
                return cands
            if dirty < 0 or not self.propagate(cands, dirty):
                return None


@lru_cache(maxsize=256)
def _sum_table(
    bits: tuple[int, ...], weights: tuple[int, ...], total: int, apart: tuple[tuple[int, int], ...]
) -> SumTable:
    """`SumTable`s shared by every kernel: innie/outie sums of one shape recur from killer to
    killer, and listing one takes ~1 ms of the ~40 ms an easy 9x9 killer takes in all."""
    return SumTable(bits, weights, total, apart, _TABLE_STEPS)


@lru_cache(maxsize=32)
def _cached_kernel(shape: Shape, rules: tuple[Rule, ...], native: tuple[type, ...]) -> _Kernel:
    puzzle = Puzzle.empty(shape, rules)
    return _Kernel(shape.size, lower(puzzle.constraints(), shape, native))


def _kernel_for(puzzle: Puzzle, native: tuple[type, ...] = NATIVE_KINDS) -> _Kernel:
    """Kernels depend only on shape and rules, so a batch of puzzles shares one."""
    try:
        return _cached_kernel(puzzle.shape, puzzle.rules, native)
    except TypeError:  # a user rule that is not hashable: build afresh
        return _Kernel(puzzle.size, lower(puzzle.constraints(), puzzle.shape, native))


def search_kernel(puzzle: Puzzle) -> _Kernel:
    """The puzzle's kernel, for tools that run their own search over it (true candidates):
    `initial`, `branch_cell`, `assign`, `propagate`, `open_bits` and `digit` are theirs to use."""
    return _kernel_for(puzzle)
