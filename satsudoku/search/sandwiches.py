"""Sandwich clues for the reference search: which digits each cell of the line keeps.

A layout of a sandwich is where its two crusts stand and which digit set S lies between them
(`Sandwich.layouts`). Under a layout the k cells between hold exactly S (k distinct digits
in k cells), the crusts hold theirs, and the cells outside hold digits of neither: on a whole
line, exactly the rest R = inner − S. A layout stays possible while

- the crusts' cells allow them,
- every cell between meets S and every cell outside meets R,
- the cells between can hold every digit of S and, on a whole line, those outside every
  digit of R (a digit of R that only fits between the crusts leaves S no room);

each cell keeps the digits of the layouts still possible. The sets are indexed once per clue
and every test above is an AND of bitsets over them, remembered per mask (`_SetMemo`, shared
by the lines of one clue): a cell's candidates recur far more often than the line's. Layouts
sharing their crusts' positions are tried together, as one bitset of the sets of their gap's
length.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache, reduce
from operator import and_, or_

from satsudoku.bits import bit_indices
from satsudoku.constraints import Sandwich
from satsudoku.deadline import check_building
from satsudoku.getters import Getter, getter

_MEMO = 1 << 13  # entries per memo (a memo of a 9-cell line's masks holds at most 2^9)


class _SetMemo(dict[int, int]):
    """Digits (open bits) -> the sets (bit j: `sets[j]`) that meet them, or that lie `within`
    them, found per digit rather than per set (a clue of 20 has dozens of sets)."""

    def __init__(self, sets: tuple[int, ...], bits: tuple[int, ...], within: bool) -> None:
        super().__init__()
        self.within, self.every = within, (1 << len(sets)) - 1
        # per digit: its open bit and the sets holding it
        self.having = tuple(
            (bit, sum(1 << j for j, digits in enumerate(sets) if digits & bit)) for bit in bits
        )

    def __missing__(self, digits: int) -> int:
        found = 0
        if self.within:  # no digit outside `digits`
            for bit, having in self.having:
                if not digits & bit:
                    found |= having
            found = self.every & ~found
        else:
            for bit, having in self.having:
                if digits & bit:
                    found |= having
        if len(self) >= _MEMO:
            self.clear()
        self[digits] = found
        return found


@lru_cache(maxsize=64)
def _memos(
    sets: tuple[int, ...], rests: tuple[int, ...], bits: tuple[int, ...]
) -> tuple[_SetMemo, _SetMemo, _SetMemo, _SetMemo]:
    """The four memos of `SandwichLine`, shared by every line of one clue (and crusts): a
    9×9 of 18 clues has a handful of distinct ones, so a short search fills each once."""
    return (
        _SetMemo(sets, bits, False),
        _SetMemo(rests, bits, False),
        _SetMemo(sets, bits, True),
        _SetMemo(rests, bits, True),
    )


@dataclass(frozen=True)
class _Gap:
    """Crusts at two given positions: what `SandwichLine.support` reads and writes there. The
    line's supports are one integer of a `slot`-bit field per position, so a layout adds its
    digits to every cell between (outside) by one multiplication and mask."""

    between: Getter  # the masks of the positions between the crusts
    outside: Getter  # and of those outside them
    sizes: int  # the sets of the gap's length, as bits over `SandwichLine.sets`
    inside: int  # every field of a position between, all ones
    around: int  # every field of a position outside
    crusts: int  # the two crusts' digits in their fields


@dataclass(frozen=True)
class SandwichLine:
    """One sandwich over flat cell indices, its layouts as (crust positions, sets of the gap's
    length); `support` narrows a line's masks (open bits, one per position)."""

    cells: tuple[int, ...]
    get: Getter  # the line's masks from the board's
    low: int  # open bit of the low crust (0: off the board, no layout)
    high: int
    gaps: tuple[tuple[_Gap | None, ...], ...]  # [position of low][position of high]
    sets: tuple[int, ...]  # the digit sets between the crusts that make the total (open bits)
    rests: tuple[int, ...]  # per set, the other digits but the crusts (the outside's, if whole)
    inner: int  # every digit but the crusts (open bits)
    whole: bool  # the line has a cell per digit: its outside holds exactly the rest
    slot: int  # bits per position in a packed support
    repeat: int  # 1 in the lowest bit of every position's slot: x * repeat copies x to each
    bits: tuple[int, ...]  # each digit's open bit
    meets_in: _SetMemo = field(init=False, compare=False)  # sets a cell between can hold
    meets_out: _SetMemo = field(init=False, compare=False)  # sets a cell outside allows
    fill_in: _SetMemo = field(init=False, compare=False)  # sets the cells between can hold all of
    fill_out: _SetMemo = field(init=False, compare=False)  # sets whose rest the outside holds
    spans: dict[int, tuple[int, int]] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        memos = _memos(self.sets, self.rests, self.bits)
        object.__setattr__(self, "meets_in", memos[0])
        object.__setattr__(self, "meets_out", memos[1])
        object.__setattr__(self, "fill_in", memos[2])
        object.__setattr__(self, "fill_out", memos[3])
        object.__setattr__(self, "spans", {})

    @classmethod
    def build(cls, sandwich: Sandwich, cells: tuple[int, ...], bit: Sequence[int]) -> SandwichLine:
        """The clue's index; `bit[d - 1]` is digit d's open bit (the kernel's spread layout)."""
        n, width = len(bit), len(cells)
        low = bit[sandwich.low - 1] if 1 <= sandwich.low <= n else 0
        high = bit[sandwich.high - 1] if 1 <= sandwich.high <= n else 0
        inner = [d for d in range(1, n + 1) if d not in (sandwich.low, sandwich.high)]
        rest_all = sum(bit[d - 1] for d in inner)
        sets: list[int] = []
        by_size: dict[int, int] = {}  # gap length -> its sets as bits over `sets`
        if low and high:
            for between in sandwich.gap_sets(n):  # by size (the gap's length), each once
                k = len(between)
                by_size[k] = by_size.get(k, 0) | 1 << len(sets)
                sets.append(sum(bit[d - 1] for d in between))
        size = sum(bit).bit_length()
        ones = (1 << size) - 1

        def spread(positions: Sequence[int]) -> int:
            return sum(ones << (i * size) for i in positions)

        gaps: list[list[_Gap | None]] = [[None] * width for _ in range(width)]
        for a, b in itertools.permutations(range(width), 2):
            check_building()  # a 64-cell line has 4,032 pairs of crust positions
            first, last = sorted((a, b))
            sizes = by_size.get(last - first - 1, 0)
            if sizes:
                inside = range(first + 1, last)
                outside = [i for i in range(width) if not first <= i <= last]
                gaps[a][b] = _Gap(
                    getter(inside),
                    getter(outside),
                    sizes,
                    spread(inside),
                    spread(outside),
                    low << (a * size) | high << (b * size),
                )
        return cls(
            cells,
            getter(cells),
            low,
            high,
            tuple(map(tuple, gaps)),
            tuple(sets),
            tuple(rest_all & ~s for s in sets),
            rest_all,
            width == n,
            size,
            sum(1 << (i * size) for i in range(width)),
            tuple(bit),
        )

    def support(self, opened: list[int]) -> list[int] | None:
        """Per position, the digits (open bits) some still-possible layout allows there; None
        if no layout is left. Exact once every cell holds one digit."""
        low, high, gaps = self.low, self.high, self.gaps
        lows = [i for i, m in enumerate(opened) if m & low]
        highs = [i for i, m in enumerate(opened) if m & high]
        if not (lows and highs):
            return None
        meets_in, meets_out = self.meets_in, self.meets_out
        fill_in, fill_out, whole = self.fill_in, self.fill_out, self.whole
        into = [meets_in[m] for m in opened]  # per position, the sets it can hold between
        out = [meets_out[m] for m in opened]  # and those whose rest it can hold outside
        repeat = self.repeat
        packed = 0
        for a in lows:
            row = gaps[a]
            for b in highs:
                gap = row[b]
                if gap is None:
                    continue
                chosen = reduce(and_, gap.between(into), gap.sizes)
                if chosen:
                    chosen &= fill_in[reduce(or_, gap.between(opened), 0)]
                if chosen and whole:
                    chosen &= fill_out[reduce(or_, gap.outside(opened), 0)]
                if chosen:
                    chosen = reduce(and_, gap.outside(out), chosen)
                if chosen:
                    union, common = self._span(chosen)
                    packed |= (
                        union * repeat & gap.inside
                        | (self.inner & ~common) * repeat & gap.around
                        | gap.crusts
                    )
        if not packed:
            return None
        size, full = self.slot, (1 << self.slot) - 1
        return [packed >> (i * size) & full for i in range(len(opened))]

    def _span(self, chosen: int) -> tuple[int, int]:
        """The union and the intersection of the sets `chosen` (bits over `sets`)."""
        found = self.spans.get(chosen)
        if found is None:
            union, common = 0, -1
            for j in bit_indices(chosen):
                union |= self.sets[j]
                common &= self.sets[j]
            if len(self.spans) >= _MEMO:
                self.spans.clear()
            found = self.spans[chosen] = (union, common)
        return found
