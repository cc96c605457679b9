"""Sum reasoning for the bitmask reference: arc consistency on linear sums, and the sums a
killer's cages and houses imply together (the "45 rule": innies and outies).

Masks here are open bits only (one bit per digit, at the kernel's spread positions); the kernel
converts placed cells before calling. Sets of values (partial sums) are Python ints used as
bitsets, bit `offset + s` standing for the value s, so that adding a term to every reachable
partial sum is one shift.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, repeat
from math import comb
from operator import and_

Unit = tuple[tuple[int, ...], int]  # positions of pairwise-distinct terms, their common weight
_MEMO_CAP = 1 << 15  # feasible-set entries kept per kernel (masks seen by a long search)
# Innie/outie sums of more terms prune more nodes but cost more per node: on 7 forum killers
# (8,000-node cap) 6 terms took 19.2 s CPU, 4 terms 11.4 s, none 10.0 s settling none of them,
# with the partial-sum walk. Listed (`SumTable`), 5 terms settled 8 of forum killer lines 9,
# 15, 21, 37-39, 41 and 62 in 30 s of CPU each (70.7 s in all), 4 terms 6 (92.8 s); but
# listing the 5-term sums took 0.1-0.6 s a puzzle (a one-node Janko killer: 0.04 -> 0.64 s)
# and line 37 went from 6 s to 12 s, past the 10 s the forum killers are measured at.
DERIVED_TERMS = 4
_UNIONS_UP_TO = 25  # boards whose unions of consecutive rows (columns) are regions too
# The digit sets a group's cells can be matched to are enumerated, up to 2^u of them for u open
# digits: a full row of a 25x25 on one sum (a little killer clue over the whole board) walked
# 33 million sets per node, minutes and a gigabyte before any clock was read. A group that could
# pass this many sets is read as separate terms instead: weaker (the distinct digits are left
# to its houses), still sound, and exact again once few digits are open. 4,096 keeps a 9x9 or
# 12x12 house whole (at most 2^12).
_GROUP_SETS = 1 << 12


class SumSupport:
    """Generalised arc consistency on Σ w·digit == total over units of distinct digits.

    A unit is one term, or a group of terms with one weight whose cells are pairwise peers (a
    region sum line's segment in a box, an arrow's shaft in a box): its values are those of the
    digit sets its cells can hold together, found exactly (a matching exists) by walking the
    cells one by one over the sets of digits used so far. Across units the reachable partial
    sums run forwards and the completable ones backwards (Trick 2003, knapsack constraints:
    dynamic programming over partial sums), so a unit keeps exactly the values that extend to
    the total. Within a group a cell keeps the digits of the supported sets it can hold, which
    is sound and, for single terms, exact.
    """

    def __init__(self, bits: Sequence[int]) -> None:
        self.digit_of = {bit: d + 1 for d, bit in enumerate(bits)}
        self.sums: dict[int, int] = {}  # a set's open bits -> the sum of its digits
        self.sets: dict[tuple[int, ...], dict[int, int]] = {}
        self.states: dict[tuple[int, ...], frozenset[int]] = {}

    def digit_sum(self, mask: int) -> int:
        """The sum of the digits whose open bits are in `mask` (memoised)."""
        total = self.sums.get(mask)
        if total is None:
            total, m = 0, mask
            while m:
                bit = m & -m
                m ^= bit
                total += self.digit_of[bit]
            self.sums[mask] = total
        return total

    def matchings(self, masks: tuple[int, ...]) -> frozenset[int]:
        """Every set of digits (open bits) that cells with these masks can hold pairwise
        different, one digit each: exactly the sets the cells can be matched to. The walk grows
        the sets of digits used so far cell by cell. Memoised on the masks, which recur
        throughout a search."""
        found = self.states.get(masks)
        if found is None:
            states = {0}
            for mask in masks:
                grown = set()
                for used in states:
                    free = mask & ~used
                    while free:
                        bit = free & -free
                        free ^= bit
                        grown.add(used | bit)
                states = grown
            found = frozenset(states)
            if len(self.states) >= _MEMO_CAP:
                self.states.clear()
            self.states[masks] = found
        return found

    def group_values(self, masks: tuple[int, ...]) -> dict[int, int]:
        """Per digit sum, the union of the digit sets the cells (`masks`) can be matched to
        that add up to it (`matchings`), memoised."""
        found = self.sets.get(masks)
        if found is None:
            found = {}
            digit_sum = self.digit_sum
            for digits in self.matchings(masks):
                value = digit_sum(digits)
                found[value] = found.get(value, 0) | digits
            if len(self.sets) >= _MEMO_CAP:
                self.sets.clear()
            self.sets[masks] = found
        return found

    def supports(
        self, opened: Sequence[int], units: Sequence[Unit], total: int
    ) -> list[int] | None:
        """Per position, the digits (open bits) some solution of the sum gives it; None if the
        sum cannot be met. Positions in no unit (weight 0) keep their digits."""
        units = self._affordable(opened, units)
        walk = self._walk(opened, units)
        if walk is None:
            return None
        tables, reach, offset = walk
        target = total + offset
        if not 0 <= target < reach[-1].bit_length():
            return None  # past every reachable sum: 1 << 10**11 would take 12.5 GB
        return self._back(opened, units, tables, reach, 1 << target)

    def reachable(self, opened: Sequence[int], units: Sequence[Unit]) -> int:
        """The values the units can add up to, as a bitset (bit v: value v); 0 if none. For
        units of positive weight only (no offset)."""
        walk = self._walk(opened, self._affordable(opened, units))
        return 0 if walk is None else walk[1][-1]

    def within(self, opened: Sequence[int], units: Sequence[Unit], values: int) -> list[int] | None:
        """`supports` for a total that may be any of `values` (a bitset, positive weights)."""
        units = self._affordable(opened, units)
        walk = self._walk(opened, units)
        if walk is None:
            return None
        return self._back(opened, units, walk[0], walk[1], values)

    @staticmethod
    def _affordable(opened: Sequence[int], units: Sequence[Unit]) -> Sequence[Unit]:
        """`units`, each group whose matchings could pass _GROUP_SETS split into its terms."""
        if all(len(positions) == 1 for positions, _ in units):
            return units
        out: list[Unit] = []
        for positions, weight in units:
            union = 0
            for p in positions:
                union |= opened[p]
            digits = union.bit_count()
            size = sum(comb(digits, k) for k in range(min(len(positions), digits) + 1))
            if len(positions) > 1 and size > _GROUP_SETS:
                out.extend(((p,), weight) for p in positions)
            else:
                out.append((positions, weight))
        return out

    def _walk(
        self, opened: Sequence[int], units: Sequence[Unit]
    ) -> tuple[list[dict[int, int]], list[int], int] | None:
        """Per unit its values (value -> union of the sets giving it), the partial sums
        reachable before each unit and after the last (bitsets shifted by the offset), and the
        offset; None if some unit has no value."""
        tables: list[dict[int, int]] = []
        offset = 0  # shifts every partial sum to >= 0
        digit_sum = self.digit_sum
        for positions, weight in units:
            by_value: dict[int, int] = {}
            if len(positions) == 1:
                m = opened[positions[0]]
                while m:
                    bit = m & -m
                    m ^= bit
                    by_value[weight * digit_sum(bit)] = bit
            else:
                values = self.group_values(tuple(opened[p] for p in positions))
                by_value = values if weight == 1 else {weight * v: d for v, d in values.items()}
            if not by_value:
                return None
            offset += max(0, -min(by_value))
            tables.append(by_value)
        reach = [1 << offset]  # reach[j]: partial sums of the units before j
        for by_value in tables:
            before, after = reach[-1], 0
            for value in by_value:
                after |= before << value if value >= 0 else before >> -value
            reach.append(after)
        return tables, reach, offset

    @staticmethod
    def _back(
        opened: Sequence[int],
        units: Sequence[Unit],
        tables: list[dict[int, int]],
        reach: list[int],
        need: int,
    ) -> list[int] | None:
        """The backward pass: from the wanted totals `need`, each unit keeps the values that
        join a reachable partial sum to a completable one."""
        if not need & reach[-1]:
            return None
        keep = list(opened)
        for j in range(len(units) - 1, -1, -1):
            before, wanted, kept = reach[j], 0, 0
            for value, digits in tables[j].items():
                shifted = need >> value if value >= 0 else need << -value
                if shifted & before:
                    wanted |= shifted
                    kept |= digits
            need = wanted & before  # partial sums before unit j that the rest can complete
            for p in units[j][0]:
                keep[p] = opened[p] & kept
        return keep


def implied_sums(
    n: int,
    houses: Sequence[tuple[int, ...]],
    cages: Sequence[tuple[tuple[int, ...], int]],
    limit: int = DERIVED_TERMS,
) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Linear sums that cages of known total and houses imply: (cells, weights, total) each.

    A region made of houses (one house, or, on boards up to _UNIONS_UP_TO, consecutive rows,
    columns or boxes) adds up to a known total. Less the cages inside it, its other cells
    (innies) add up to the rest; less also the cages that stick out, the innies left minus the
    cells outside (outies) do; and less the cages mostly inside it, the other cells inside
    minus those cages' cells outside do (mixed: fewest terms). The forum killers are set for
    solvers who use exactly this; a search sees it only cell by cell. Only sums of 1..`limit`
    terms are kept, and none that repeats a cage or another sum (also negated: rows 1-2 and
    rows 3-9 imply the same one). `cages` must not overlap (the caller drops those that do).
    The work is one pass over each region's cells (unions of rows hold n^4/6 cells in all,
    hence the bound).
    """
    house_total = n * (n + 1) // 2
    regions: list[tuple[tuple[int, ...], int]] = [(house, house_total) for house in houses]
    as_sets = {frozenset(house) for house in houses}
    for lines in (
        [tuple(r * n + c for c in range(n)) for r in range(n)],
        [tuple(r * n + c for r in range(n)) for c in range(n)],
    ):
        if n <= _UNIONS_UP_TO and all(frozenset(line) in as_sets for line in lines):
            for first in range(n):
                for last in range(first + 2, min(n, first + n - 1) + 1):
                    cells = tuple(i for line in lines[first:last] for i in line)
                    regions.append((cells, house_total * (last - first)))
    regions += _block_unions(n, houses, house_total)
    owner = {i: k for k, (cells, _) in enumerate(cages) for i in cells}
    seen = {frozenset(cells) for cells, _ in cages}
    found: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
    signatures: set[tuple[tuple[int, ...], tuple[int, ...], int]] = set()
    for region, region_total in regions:
        loose: list[int] = []  # cells of the region in no cage
        meets: dict[int, int] = {}  # cage -> how many of its cells lie in the region
        for i in region:
            k = owner.get(i, -1)
            if k < 0:
                loose.append(i)
            else:
                meets[k] = meets.get(k, 0) + 1
        inside = [k for k, count in meets.items() if count == len(cages[k][0])]
        across = [k for k, count in meets.items() if count < len(cages[k][0])]
        rest = region_total - sum(cages[k][1] for k in inside)
        candidates: list[tuple[list[int], list[int], int]] = []
        # Innies: else (no cage inside) they are the region itself, whose sum the houses state.
        if inside and len(loose) + sum(meets[k] for k in across) <= limit:
            within = set(region)
            plus = loose + [i for k in across for i in cages[k][0] if i in within]
            candidates.append((plus, [], rest))
        if across and len(loose) + sum(len(cages[k][0]) - meets[k] for k in across) <= limit:
            within = set(region)
            minus = [i for k in across for i in cages[k][0] if i not in within]
            candidates.append((loose, minus, rest - sum(cages[k][1] for k in across)))
        # Mixed (ISS's innies and outies): a cage mostly inside counts whole, its cells outside
        # as outies; one mostly outside leaves its cells inside as innies. Fewest terms of all.
        mostly = [k for k in across if 2 * meets[k] > len(cages[k][0])]
        if mostly and len(mostly) < len(across):
            within = set(region)
            plus = loose + [
                i for k in across if k not in mostly for i in cages[k][0] if i in within
            ]
            minus = [i for k in mostly for i in cages[k][0] if i not in within]
            if len(plus) + len(minus) <= limit:
                candidates.append((plus, minus, rest - sum(cages[k][1] for k in mostly)))
        for plus, minus, total in candidates:
            signature = (tuple(sorted(plus)), tuple(sorted(minus)), total)
            mirror = (signature[1], signature[0], -total)  # the same sum, negated
            if not plus + minus or signature in signatures or mirror in signatures:
                continue
            if not minus and frozenset(plus) in seen:
                continue  # a cage's own sum
            signatures.add(signature)
            found.append(
                (signature[0] + signature[1], (1,) * len(plus) + (-1,) * len(minus), total)
            )
    return found


def _block_unions(
    n: int, houses: Sequence[tuple[int, ...]], house_total: int
) -> list[tuple[tuple[int, ...], int]]:
    """Unions of 2 to n-1 consecutive boxes (or jigsaw pieces: the houses other than rows and
    columns, when they tile the board), in reading order and in column order: the Interactive
    Sudoku Solver's regions besides rows and columns. Two side by side boxes and their cages
    leave innies and outies that no union of rows or columns does (forum killer line 41)."""
    if n > _UNIONS_UP_TO:
        return []
    lines = {frozenset(range(r * n, r * n + n)) for r in range(n)}
    lines |= {frozenset(range(c, n * n, n)) for c in range(n)}
    blocks = [h for h in houses if frozenset(h) not in lines and len(set(h)) == n]
    if len(blocks) != n or len(set().union(*map(set, blocks))) != n * n:
        return []  # not a tiling (extra regions, diagonals): their unions may overlap
    found: dict[frozenset[int], tuple[tuple[int, ...], int]] = {}
    for key in (min, lambda b: min((i % n, i // n) for i in b)):
        order = sorted(blocks, key=key)
        for first in range(n):
            for last in range(first + 2, min(n, first + n - 1) + 1):
                cells = tuple(sorted(i for block in order[first:last] for i in block))
                if frozenset(cells) not in found:
                    found[frozenset(cells)] = (cells, house_total * (last - first))
    return list(found.values())


class SumTable:
    """Every solution of a short linear sum, as bit positions of Python ints: exact supports
    (generalised arc consistency) in a few big-integer ANDs per call.

    `SumSupport` walks the partial sums for every new combination of masks, and on the forum
    killers its innie/outie sums of 3-4 cells met a new one at most calls (line 62: 35,000
    walks in 800 nodes, half the CPU). Here the solutions are listed once: solution s sets bit
    s of `of_bit[k][bit]` when it gives position k that digit, so the solutions a set of masks
    leaves are the AND over positions of the ORs of their digits' entries (memoised per mask:
    at most 2^n masks a position), and a position keeps the digits some of those give it.
    Exact per cell, so it also removes what the unit-level walk keeps within a group."""

    def __init__(
        self,
        bits: Sequence[int],
        weights: Sequence[int],
        total: int,
        apart: Sequence[tuple[int, int]],
        steps: int,
    ) -> None:
        """`bits`: each digit's open bit; `apart`: pairs of positions whose digits differ.
        Listing stops after `steps` digits tried (`complete` is then False): a long sum on a
        large board has too many solutions to list."""
        n, size = len(bits), len(weights)
        self.bits = tuple(bits)
        # [position][digit - 1] -> the solutions giving it, as a bitmap (an int at the end:
        # OR-ing 1 << s into a growing int would take time quadratic in the solutions).
        having = [[bytearray() for _ in range(n)] for _ in range(size)]
        differ = [
            [j for a, b in apart for j in (a, b) if k in (a, b) and j < k] for k in range(size)
        ]
        # The least and greatest the positions from k on can add (bounds cut the listing).
        least = [0] * (size + 1)
        most = [0] * (size + 1)
        for k in range(size - 1, -1, -1):
            w = weights[k]
            least[k] = least[k + 1] + min(w, w * n)
            most[k] = most[k + 1] + max(w, w * n)
        digits = [0] * size
        count = 0
        budget = steps

        def record() -> None:
            nonlocal count
            byte, bit = divmod(count, 8)
            for j in range(size):
                row = having[j][digits[j] - 1]
                if len(row) <= byte:
                    row.extend(bytes(byte + 1 - len(row)))
                row[byte] |= 1 << bit
            count += 1

        def place(k: int, partial: int) -> None:
            nonlocal budget
            if k == size:  # reached only through a last term of weight 0
                if partial == total:
                    record()
                return
            w = weights[k]
            if k == size - 1 and w:  # the last digit is what the total leaves: no loop
                rest = total - partial
                if rest % w:
                    return
                d = rest // w
                if 1 <= d <= n and all(digits[j] != d for j in differ[k]):
                    digits[k] = d
                    record()
                return
            low, high = least[k + 1], most[k + 1]
            for d in range(1, n + 1):
                budget -= 1
                if budget < 0:
                    return
                rest = total - partial - w * d
                if low <= rest <= high and all(digits[j] != d for j in differ[k]):
                    digits[k] = d
                    place(k + 1, partial + w * d)

        place(0, 0)
        self.complete = budget >= 0
        # Per position, digit bit -> its solutions, for the digits some solution gives it.
        self.of_bit = [
            {
                bit: int.from_bytes(sols, "little")
                for bit, sols in zip(self.bits, row, strict=True)
                if sols
            }
            for row in having
        ]
        self.useful = [sum(of_bit) for of_bit in self.of_bit]  # their bits
        self.meets: list[dict[int, int]] = [{} for _ in range(size)]  # mask -> solutions
        # Per position, every digit's solutions in digit order (0: none), beside `bits`: a
        # digit's entry meets the solutions left only if some of them give it (`supports`).
        self.columns = [tuple(of_bit.get(bit, 0) for bit in self.bits) for of_bit in self.of_bit]

    def supports(self, opened: Sequence[int]) -> tuple[int, ...] | None:
        """Per position, the digits (open bits) some solution within `opened` gives it; None
        if no solution is left."""
        alive = -1
        for k, mask in enumerate(opened):
            meets = self.meets[k]
            found = meets.get(mask)
            if found is None:
                found, of_bit, m = 0, self.of_bit[k], mask & self.useful[k]
                while m:
                    bit = m & -m
                    m ^= bit
                    found |= of_bit[bit]
                if len(meets) >= _GROUP_SETS:
                    meets.clear()  # 16x16 and up: 2^n masks a position at most
                meets[mask] = found
            alive &= found
            if not alive:
                return None
        # The solutions left lie within every mask, so a digit whose solutions meet them is
        # one of its position's: the digits kept, judged in C (ANDs, compress, a sum of bits).
        bits, every = self.bits, repeat(alive)
        return tuple(sum(compress(bits, map(and_, column, every))) for column in self.columns)
