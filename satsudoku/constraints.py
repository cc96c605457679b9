"""The shared constraint vocabulary: what rules emit, backends post and the verifier checks.

Core kinds (`AllDifferent`, `Allowed`, `Table`) must be handled by every backend; any other
kind provides `decompose()` into simpler kinds, so a backend that lacks a native version still
accepts it (CPMpy's design). `check()` is safe on partial assignments.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol, TypeVar, runtime_checkable

from satsudoku.deadline import building, check_building
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Digit, Shape, cell_name


@runtime_checkable
class Constraint(Protocol):
    """Anything a solution must obey; `cells` is its scope."""

    @property
    def cells(self) -> tuple[Cell, ...]: ...

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        """Return False only if the assigned cells already break the constraint."""
        ...


@runtime_checkable
class Decomposable(Constraint, Protocol):
    """A constraint that can be rewritten into simpler (eventually core) constraints."""

    def decompose(self, shape: Shape) -> tuple[Constraint, ...]: ...


@dataclass(frozen=True, slots=True)
class AllDifferent:
    """No digit appears twice among `cells` (a house when it has n cells)."""

    cells: tuple[Cell, ...]

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        placed = [values[cell] for cell in self.cells if cell in values]
        return len(placed) == len(set(placed))

    def __str__(self) -> str:
        return f"all-different({', '.join(map(cell_name, self.cells))})"


@dataclass(frozen=True, slots=True)
class Allowed:
    """`cell` holds one of `digits` (odd/even cells, givens as a domain, …)."""

    cell: Cell
    digits: frozenset[Digit]

    @property
    def cells(self) -> tuple[Cell, ...]:
        return (self.cell,)

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        return self.cell not in values or values[self.cell] in self.digits

    def __str__(self) -> str:
        return f"{cell_name(self.cell)} in {{{', '.join(map(str, sorted(self.digits)))}}}"


@dataclass(frozen=True, slots=True)
class Table:
    """The digits of `cells`, read in order, form one of the `tuples`: the universal fallback."""

    cells: tuple[Cell, ...]
    tuples: frozenset[tuple[Digit, ...]]

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        known = [(i, values[cell]) for i, cell in enumerate(self.cells) if cell in values]
        return any(all(row[i] == v for i, v in known) for row in self.tuples)

    def __str__(self) -> str:
        return f"table({', '.join(map(cell_name, self.cells))}; {len(self.tuples)} tuples)"


@dataclass(frozen=True, slots=True)
class Less:
    """`low` holds a smaller digit than `high` (thermometers, inequality signs)."""

    low: Cell
    high: Cell

    @property
    def cells(self) -> tuple[Cell, ...]:
        return (self.low, self.high)

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        if self.low in values and self.high in values:
            return values[self.low] < values[self.high]
        return True

    def decompose(self, shape: Shape) -> tuple[Constraint, ...]:
        """Less as the table of increasing digit pairs."""
        digits = range(1, shape.size + 1)
        pairs = frozenset((a, b) for a in digits for b in digits if a < b)
        return (Table((self.low, self.high), pairs),)

    def __str__(self) -> str:
        return f"{cell_name(self.low)} < {cell_name(self.high)}"


CORE_KINDS: tuple[type, ...] = (AllDifferent, Allowed, Table)


def lower(
    constraints: Iterable[Constraint],
    shape: Shape,
    native: tuple[type, ...] = CORE_KINDS,
    deadline: float | None = None,
    each: Callable[[Constraint], object] | None = None,
) -> list[Constraint]:
    """Decompose every constraint a backend has no native support for, recursively; OutOfTime
    once `deadline` (a perf_counter time, else the build's under way: `deadline.building`) has
    passed, also from inside a long decomposition.

    `each` sees every native constraint as it is produced, so a caller can refuse a budget
    after one decomposition too many rather than after all of them (a certificate's checker:
    36 skyscraper clues are gigabytes of tables)."""
    out: list[Constraint] = []
    spent = _Spent()
    token = _SPENT.set(spent)
    try:
        with building(deadline) if deadline is not None else contextlib.nullcontext():
            _lower(constraints, shape, native, each, out, spent)
    finally:
        _SPENT.reset(token)
    out.reverse()
    return out


def _lower(
    constraints: Iterable[Constraint],
    shape: Shape,
    native: tuple[type, ...],
    each: Callable[[Constraint], object] | None,
    out: list[Constraint],
    spent: _Spent,
) -> None:
    """`lower`'s loop, charging every native Table's rows to the puzzle's budget under the
    name of the rule's constraint it came from."""
    # The clock is read per constraint against the build's deadline (this one, else a
    # backend's `building`): the rules' generators and thousands of small decompositions
    # take seconds too (300,000 arrows: 7 s before the first decomposition).
    pending: list[tuple[Constraint, Constraint]] = []  # (constraint, the one it came from)
    for constraint in constraints:
        check_building()
        pending.append((constraint, constraint))
    while pending:
        check_building()
        constraint, origin = pending.pop()
        if isinstance(constraint, native):
            if isinstance(constraint, Table):
                spent.charge_rows(len(constraint.tuples), origin)
            out.append(constraint)
            if each is not None:
                each(constraint)
        elif isinstance(constraint, Decomposable):
            pending.extend((part, origin) for part in constraint.decompose(shape))
        else:
            raise TypeError(f"{type(constraint).__name__} is neither native nor decomposable")


# Puzzle-wide budgets, on top of each table's MAX_TABLE and each automaton's MAX_TRANSITIONS:
# 196 skyscraper clues of a 49x49 each stay under the latter and took 1.2 GB together. A
# transition kept costs about 100 bytes as Python tuples, a table row about as much.
MAX_PUZZLE_TRANSITIONS = 4_000_000
MAX_PUZZLE_ROWS = 2_000_000


class _Spent:
    """What one `lower` has built so far: automaton transitions tried, native table rows."""

    __slots__ = ("transitions", "rows")

    def __init__(self) -> None:
        self.transitions = 0
        self.rows = 0

    def charge_transitions(self, count: int, what: str) -> None:
        self.transitions += count
        if self.transitions > MAX_PUZZLE_TRANSITIONS:
            raise TableTooLargeError(
                f"{what}: the puzzle's automata unroll into more than "
                f"{MAX_PUZZLE_TRANSITIONS:,} transitions in total ({self.transitions:,} so far), "
                "too large to post"
            )

    def charge_rows(self, count: int, origin: Constraint) -> None:
        self.rows += count
        if self.rows > MAX_PUZZLE_ROWS:
            raise TableTooLargeError(
                f"{origin}: the puzzle's tables hold more than {MAX_PUZZLE_ROWS:,} tuples in total "
                f"({self.rows:,} so far), too large to post"
            )


_SPENT: ContextVar[_Spent | None] = ContextVar("satsudoku_lower_spent", default=None)


# ---------------------------------------------------------------------------------------------
# Variant kinds. Each decomposes exactly into the core kinds; the comments on each say which
# backends gain by supporting it natively. `MAX_TABLE` bounds every Table a decomposition builds:
# past it the generic path would be exact but unusably large, so it refuses with a clear error.

MAX_TABLE = 200_000


class TableTooLargeError(PuzzleError):
    """A constraint's exact Table decomposition exceeds MAX_TABLE tuples."""


def table_of(cells: tuple[Cell, ...], holds: Callable[..., bool], size: int) -> Table:
    """The Table of every digit tuple over `cells` for which `holds(*digits)` is true."""
    digits = range(1, size + 1)
    _check_space(size ** len(cells), f"a predicate over {len(cells)} cells")
    rows = []
    for count, digits_tuple in enumerate(itertools.product(digits, repeat=len(cells))):
        if count % 4096 == 0:
            check_building()
        if holds(*digits_tuple):
            rows.append(digits_tuple)
    return Table(cells, frozenset(rows))


# Layouts of one sandwich clue (crust positions and the digit set between): a 9×9 clue has at
# most 70, a 16×16 one 5,902; a 25×25 clue near the middle of its range has millions, which no
# backend could post (each layout is a selector with a clause or a table entry per cell).
MAX_SANDWICH_LAYOUTS = 50_000


def sets_of_sum(items: Sequence[int], k: int, total: int) -> Iterator[tuple[int, ...]]:
    """The k-subsets of the ascending `items` that add up to `total`, in lexicographic order:
    killer cages' digit sets (`rules.sums.digit_sets`) and sandwich gaps (`Sandwich.gap_sets`).
    A branch is entered only when the digits left can still reach the total both ways."""
    n = len(items)
    prefix = [0, *itertools.accumulate(items)]
    chosen: list[int] = []
    steps = 0

    def walk(start: int, left: int, need: int) -> Iterator[tuple[int, ...]]:
        nonlocal steps
        if left == 0:
            if need == 0:
                yield tuple(chosen)
            return
        most_after = prefix[n] - prefix[n - left + 1]  # the left-1 largest items
        for i in range(start, n - left + 1):
            steps += 1
            if steps % 4096 == 0:
                check_building()
            rest = need - items[i]
            if rest < prefix[i + left] - prefix[i + 1]:  # even the smallest after i overshoot
                return
            if rest > most_after:
                continue
            chosen.append(items[i])
            yield from walk(i + 1, left - 1, rest)
            chosen.pop()

    yield from walk(0, k, total)


def _check_space(count: int, what: str) -> None:
    if count > MAX_TABLE:
        raise TableTooLargeError(
            f"{what} needs a table of {count:,} tuples (limit {MAX_TABLE:,}), too large for "
            "the generic Table path"
        )


class Relation(Enum):
    """How the two digits of a `Pair` relate; `value` is the difference, ratio or sum."""

    EQUAL = "="  # clones, palindromes
    LESS_EQUAL = "<="  # slow thermometers
    DIFFERENCE = "diff"  # |a - b| == value: white kropki (value 1)
    NOT_DIFFERENCE = "!diff"  # nonconsecutive, negative white kropki
    AT_LEAST = ">=diff"  # |a - b| >= value: German whispers (value 5)
    RATIO = "ratio"  # a == value * b or b == value * a: black kropki (value 2)
    NOT_RATIO = "!ratio"
    SUM = "sum"  # a + b == value: X (10) and V (5)
    NOT_SUM = "!sum"

    def holds(self, a: Digit, b: Digit, value: int) -> bool:
        """Whether digits `a` and `b` satisfy this relation with parameter `value`."""
        return _RELATIONS[self](a, b, value)


_RELATIONS: dict[Relation, Callable[[int, int, int], bool]] = {
    Relation.EQUAL: lambda a, b, v: a == b,
    Relation.LESS_EQUAL: lambda a, b, v: a <= b,
    Relation.DIFFERENCE: lambda a, b, v: abs(a - b) == v,
    Relation.NOT_DIFFERENCE: lambda a, b, v: abs(a - b) != v,
    Relation.AT_LEAST: lambda a, b, v: abs(a - b) >= v,
    Relation.RATIO: lambda a, b, v: a == v * b or b == v * a,
    Relation.NOT_RATIO: lambda a, b, v: a != v * b and b != v * a,
    Relation.SUM: lambda a, b, v: a + b == v,
    Relation.NOT_SUM: lambda a, b, v: a + b != v,
}


@dataclass(frozen=True, slots=True)
class Pair:
    """The digits of two cells satisfy a binary `relation` (dots, X/V, whispers, clones, …).

    Native support is cheap everywhere (CP-SAT: an allowed-assignments pair or linear terms;
    SAT: forbidden-pair clauses), but the Table fallback is already small: at most n² tuples.
    """

    first: Cell
    second: Cell
    relation: Relation
    value: int = 0

    @property
    def cells(self) -> tuple[Cell, ...]:
        return (self.first, self.second)

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        if self.first in values and self.second in values:
            return self.relation.holds(values[self.first], values[self.second], self.value)
        return True

    def decompose(self, shape: Shape) -> tuple[Constraint, ...]:
        """The table of related digit pairs."""
        digits = range(1, shape.size + 1)
        rel, value = self.relation, self.value
        pairs = frozenset((a, b) for a in digits for b in digits if rel.holds(a, b, value))
        return (Table(self.cells, pairs),)

    def __str__(self) -> str:
        shown = f" {self.value}" if self.value else ""
        return f"{cell_name(self.first)} {self.relation.value}{shown} {cell_name(self.second)}"


@dataclass(frozen=True, slots=True)
class DigitSets:
    """`cells` hold pairwise different digits whose set is one of `sets` (killer cages, renban).

    The decomposition is exact: AllDifferent, every cell within the union of the sets, and,
    when more than one set fits, the Table of the permutations of each set. With a single set
    the first two already say everything (k distinct digits drawn from a k-set are that set),
    which covers 8- and 9-cell killer cages. The table part grows as |sets| · k! (up to 20,160
    tuples for a 9×9 seven-cell cage), so every backend posts this kind natively: SAT and
    CP-SAT with one selector per set (selector → no digit outside the set in any cell, each of
    its digits somewhere; at least one selector; plus the AllDifferent), the bitmask search by
    keeping each cell within the union of the still-possible sets. The decomposition remains
    the generic path (`BitmaskBackend(generic=True)` cross-checks against it).
    """

    cells: tuple[Cell, ...]
    sets: frozenset[frozenset[Digit]]
    label: str = field(default="", compare=False)  # e.g. "sum 17", for messages only

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        placed = [values[cell] for cell in self.cells if cell in values]
        if len(placed) != len(set(placed)):
            return False
        seen = set(placed)
        return any(len(s) == len(self.cells) and seen <= s for s in self.sets)

    def fitting_sets(self) -> list[frozenset[Digit]]:
        """The sets a solution can actually use: those with exactly one digit per cell."""
        return sorted((s for s in self.sets if len(s) == len(self.cells)), key=sorted)

    def decompose(self, shape: Shape) -> tuple[Constraint, ...]:
        sets = self.fitting_sets()
        union = frozenset().union(*sets)
        out: list[Constraint] = [AllDifferent(self.cells)]
        if union != frozenset(range(1, shape.size + 1)):
            out.extend(Allowed(cell, union) for cell in self.cells)
        if len(sets) > 1:
            _check_space(len(sets) * math.factorial(len(self.cells)), f"{self}")
            rows = frozenset(p for s in sets for p in itertools.permutations(sorted(s)))
            out.append(Table(self.cells, rows))
        return tuple(out)

    def __str__(self) -> str:
        what = self.label or f"{len(self.sets)} digit sets"
        return f"cage({', '.join(map(cell_name, self.cells))}; {what})"


@dataclass(frozen=True, slots=True)
class Sum:
    """Σ weights[i] · digit(cells[i]) == total, digits free to repeat unless a `distinct` pair
    of positions says otherwise (little killers, arrows with their bulbs read as numbers).

    `distinct` lists position pairs that must differ (cells that share a house); stating it
    here keeps the Table fallback small and exact. Empty `weights` means all ones. Natively:
    CP-SAT posts one linear equality, SAT a prefix-sum (reachable partial sums) encoding, and
    the bitmask search prunes by the bounds of the open cells.
    """

    cells: tuple[Cell, ...]
    total: int
    weights: tuple[int, ...] = ()
    distinct: tuple[tuple[int, int], ...] = ()

    def coefficients(self) -> tuple[int, ...]:
        return self.weights or (1,) * len(self.cells)

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        for i, j in self.distinct:
            a, b = self.cells[i], self.cells[j]
            if a in values and b in values and values[a] == values[b]:
                return False
        if not all(cell in values for cell in self.cells):
            return True
        coefficients = self.coefficients()
        return sum(w * values[c] for w, c in zip(coefficients, self.cells, strict=True)) == (
            self.total
        )

    def tuples(self, size: int) -> frozenset[tuple[Digit, ...]]:
        """Every digit tuple that meets the sum and the distinct pairs (depth-first, pruned by
        the reachable range of the remaining cells); refuses past MAX_TABLE tuples."""
        weights = self.coefficients()
        k = len(self.cells)
        lows = [min(w, w * size) for w in weights]
        highs = [max(w, w * size) for w in weights]
        rest_low = [sum(lows[i:]) for i in range(k + 1)]
        rest_high = [sum(highs[i:]) for i in range(k + 1)]
        earlier: list[list[int]] = [[] for _ in range(k)]
        for i, j in self.distinct:
            earlier[max(i, j)].append(min(i, j))
        rows: list[tuple[Digit, ...]] = []
        prefix: list[Digit] = []

        def extend(i: int, remaining: int) -> None:
            if i == k:
                if remaining == 0:
                    rows.append(tuple(prefix))
                    if len(rows) > MAX_TABLE:
                        _check_space(len(rows), str(self))
                return
            for d in range(1, size + 1):
                left = remaining - weights[i] * d
                if not rest_low[i + 1] <= left <= rest_high[i + 1]:
                    continue
                if any(prefix[j] == d for j in earlier[i]):
                    continue
                prefix.append(d)
                extend(i + 1, left)
                prefix.pop()

        extend(0, self.total)
        return frozenset(rows)

    def decompose(self, shape: Shape) -> tuple[Constraint, ...]:
        """The exact table of the sum (a contradiction when no tuple fits)."""
        return (Table(self.cells, self.tuples(shape.size)),)

    def __str__(self) -> str:
        terms = " + ".join(
            (f"{w}*" if w != 1 else "") + cell_name(c)
            for w, c in zip(self.coefficients(), self.cells, strict=True)
        )
        return f"{terms} = {self.total}"


@dataclass(frozen=True, slots=True)
class Sandwich:
    """`cells` (a whole row or column) hold distinct digits, and those strictly between the
    digits `low` and `high` add up to `total`.

    Exact fallback: AllDifferent plus the Table of the qualifying permutations (at most 80,640
    of the 9! for a 9-cell row; counted before they are built, so 12×12 and larger lines are
    refused). Every backend posts it natively instead, by its `layouts`: where the two crusts
    stand and which digit set lies between them (at most 70 per 9×9 clue and 444 per 12×12
    one, where the table has up to 80,640 rows). See each backend for how.
    """

    cells: tuple[Cell, ...]
    total: int
    low: Digit
    high: Digit

    def __post_init__(self) -> None:
        if self.low == self.high:  # nothing lies "between" one digit and itself
            raise PuzzleError(f"a sandwich needs two different crust digits, not {self.low} twice")

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        placed = [values[cell] for cell in self.cells if cell in values]
        if len(placed) != len(set(placed)):
            return False
        if len(placed) < len(self.cells):
            return True
        return _sandwich_total(tuple(placed), self.low, self.high) == self.total

    def gap_sets(self, size: int) -> list[tuple[Digit, ...]]:
        """Every digit set that can lie between the crusts and make the total, by size, then
        in lexicographic order (as `itertools.combinations` gives them).

        Found by a search that never enters a branch whose least or greatest reachable sum
        misses the total, so its work follows the sets it finds, not the 2^(n-2) subsets of
        the other digits (a 25×25 row took minutes); the deadline is read as it goes, and a
        clue with more than MAX_SANDWICH_LAYOUTS layouts is refused (`layouts`).
        """
        width = len(self.cells)
        if not (1 <= self.low <= size and 1 <= self.high <= size):
            return []
        inner = [d for d in range(1, size + 1) if d not in (self.low, self.high)]
        found: list[tuple[Digit, ...]] = []
        places = 0  # layouts so far: 2 per set and position of its gap
        for k in range(min(len(inner), width - 2) + 1):
            for between in sets_of_sum(inner, k, self.total):
                found.append(between)
                places += 2 * (width - k - 1)
                if places > MAX_SANDWICH_LAYOUTS:
                    raise TableTooLargeError(
                        f"{self}: more than {MAX_SANDWICH_LAYOUTS:,} ways to place its crusts "
                        "and the digits between them, too large to post"
                    )
        return found

    def layouts(self, size: int) -> list[tuple[int, int, tuple[Digit, ...]]]:
        """Every (position of low, position of high, digit set between) that fits the total.

        With the line's digits distinct, a solution matches exactly one layout: its crusts fix
        both positions, and k different digits in the k cells between them are a k-set. None
        when a crust is off the board (equal crusts are refused on construction).
        """
        width = len(self.cells)
        out: list[tuple[int, int, tuple[Digit, ...]]] = []
        for between in self.gap_sets(size):
            k = len(between)
            for i in range(width - k - 1):
                out.append((i, i + k + 1, between))
                out.append((i + k + 1, i, between))
        return out

    def layout_digits(self, size: int) -> list[tuple[frozenset[Digit], ...]]:
        """Per layout (in `layouts` order), the digits each cell may hold under it: its crust,
        the set between, or the digits left for the cells outside."""
        every = frozenset(range(1, size + 1))
        out = []
        for p_low, p_high, between in self.layouts(size):
            first, last = sorted((p_low, p_high))
            middle = frozenset(between)
            outer = every - middle - {self.low, self.high}
            digits = [middle if first < i < last else outer for i in range(len(self.cells))]
            digits[p_low], digits[p_high] = frozenset({self.low}), frozenset({self.high})
            out.append(tuple(digits))
        return out

    def count(self, size: int) -> int:
        """How many digit rows qualify, computed without building them."""
        width = len(self.cells)
        outside = size - 2  # digits other than low and high
        ways = 0
        for _, _, between in self.layouts(size):
            rest = width - 2 - len(between)  # cells outside the sandwich
            ways += math.factorial(len(between)) * math.perm(outside - len(between), rest)
        return ways

    def _rows(self, size: int) -> Iterator[tuple[Digit, ...]]:
        width = len(self.cells)
        others = [d for d in range(1, size + 1) if d not in (self.low, self.high)]
        for p_low, p_high, between in self.layouts(size):
            inside = range(min(p_low, p_high) + 1, max(p_low, p_high))
            rest_positions = [
                i for i in range(width) if i not in inside and i not in (p_low, p_high)
            ]
            rest_digits = [d for d in others if d not in between]
            row = [0] * width
            row[p_low], row[p_high] = self.low, self.high
            for middle in itertools.permutations(between):
                for i, d in zip(inside, middle, strict=True):
                    row[i] = d
                for outer in itertools.permutations(rest_digits, len(rest_positions)):
                    for i, d in zip(rest_positions, outer, strict=True):
                        row[i] = d
                    yield tuple(row)

    def decompose(self, shape: Shape) -> tuple[Constraint, ...]:
        size = shape.size
        _check_space(self.count(size), str(self))
        return (AllDifferent(self.cells), Table(self.cells, frozenset(self._rows(size))))

    def __str__(self) -> str:
        first, last = cell_name(self.cells[0]), cell_name(self.cells[-1])
        return f"sandwich({first}..{last}) = {self.total}"


def _sandwich_total(row: tuple[Digit, ...], low: Digit, high: Digit) -> int | None:
    """Sum strictly between `low` and `high` in `row`, or None if either is missing."""
    if low not in row or high not in row:
        return None
    i, j = sorted((row.index(low), row.index(high)))
    return sum(row[i + 1 : j])


@dataclass(frozen=True, slots=True)
class Between:
    """`cell` holds a digit strictly between those of `first` and `last` (between lines).

    Exact fallback: one table of at most n³ triples per middle cell.
    """

    first: Cell
    last: Cell
    cell: Cell

    @property
    def cells(self) -> tuple[Cell, ...]:
        return (self.first, self.last, self.cell)

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        if all(c in values for c in self.cells):
            a, b, m = (values[c] for c in self.cells)
            return min(a, b) < m < max(a, b)
        return True

    def decompose(self, shape: Shape) -> tuple[Constraint, ...]:
        digits = range(1, shape.size + 1)
        rows = frozenset(
            (a, b, m) for a in digits for b in digits for m in digits if min(a, b) < m < max(a, b)
        )
        return (Table(self.cells, rows),)

    def __str__(self) -> str:
        a, b, m = map(cell_name, self.cells)
        return f"{m} between {a} and {b}"


@dataclass(frozen=True, slots=True)
class Contains:
    """Among `cells`, every digit of `digits` appears (as often as it is listed): quadruples.

    Exact fallback: the table over the (usually four) cells.
    """

    cells: tuple[Cell, ...]
    digits: tuple[Digit, ...]

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        placed = Counter(values[cell] for cell in self.cells if cell in values)
        need = Counter(self.digits)
        open_cells = sum(1 for cell in self.cells if cell not in values)
        missing = sum((need - placed).values())
        return missing <= open_cells

    def decompose(self, shape: Shape) -> tuple[Constraint, ...]:
        need = Counter(self.digits)
        _check_space(shape.size ** len(self.cells), str(self))
        rows = frozenset(
            t
            for t in itertools.product(range(1, shape.size + 1), repeat=len(self.cells))
            if not need - Counter(t)
        )
        return (Table(self.cells, rows),)

    def __str__(self) -> str:
        digits = "".join(map(str, self.digits))
        return f"quadruple({', '.join(map(cell_name, self.cells))} ∋ {digits})"


# ---------------------------------------------------------------------------------------------
# Automata along a line: a layered MDD shared by the backends that post it natively.

State = tuple[int, ...]  # states need a total order, so encodings number them the same each time
V = TypeVar("V")  # a model's variable type (CP-SAT, MathOpt)
SEARCH_LIMIT = 2_000_000  # digit orders a distinct-digit enumeration may search (9! = 362,880)
# Transitions an unrolling may try (reached states × digits, summed over the cells): a 9×9
# skyscraper clue tries under 2,000, a 25×25 one up to ~200,000; a 64×64 clue of 32 would try
# 17 M and an x-sum of 300 there more, each a few hundred bytes once encoded.
MAX_TRANSITIONS = 400_000


@dataclass(frozen=True, slots=True)
class Layers:
    """An automaton unrolled along its cells over given per-cell domains: at each position only
    the states reachable from the start that can still reach acceptance (forward ∩ backward),
    and only the arcs between such states. Empty layers mean no digit sequence is accepted."""

    states: tuple[tuple[State, ...], ...]  # layers 0..k, each sorted
    arcs: tuple[tuple[tuple[State, Digit, State], ...], ...]  # positions 0..k-1, sorted

    def digits(self, i: int) -> frozenset[Digit]:
        """The digits of position `i` on some accepted path: what GAC leaves there."""
        return frozenset(d for _, d, _ in self.arcs[i])

    def arc_groups(
        self, i: int, chosen: Sequence[V]
    ) -> tuple[dict[Digit, list[V]], dict[State, list[V]], dict[State, list[V]]]:
        """Position `i`'s arc variables (`chosen`, one per arc in order) grouped by the digit
        each reads, the state it leaves and the state it enters: the path formulations of
        CP-SAT and MIP tie digits to cells and balance each state's flow with these."""
        reads: dict[Digit, list[V]] = {}
        out: dict[State, list[V]] = {}
        into: dict[State, list[V]] = {}
        for a, (u, d, v) in zip(chosen, self.arcs[i], strict=True):
            reads.setdefault(d, []).append(a)
            out.setdefault(u, []).append(a)
            into.setdefault(v, []).append(a)
        return reads, out, into

    def paths(self) -> int:
        """How many digit sequences the layers accept (repeats allowed)."""
        count: dict[State, int] = dict.fromkeys(self.states[0], 1)
        for layer in self.arcs:
            after: dict[State, int] = {}
            for u, _, v in layer:
                after[v] = after.get(v, 0) + count[u]
            count = after
        return sum(count.values())


def unroll(
    start: State,
    step: Callable[[State, Digit], State | None],
    accepting: Callable[[State], bool],
    domains: Sequence[Iterable[Digit]],
    what: str = "an automaton",
) -> Layers:
    """The live layers of an automaton read along `len(domains)` cells (`Layers`).

    The same idea as the prefix-sum states of `Sum` in the SAT encoder: the work and the size
    are O(k · states · digits), whatever the number of accepted digit tuples. Refuses
    (TableTooLargeError, naming `what`) past MAX_TRANSITIONS tried transitions, and past
    MAX_PUZZLE_TRANSITIONS tried by the puzzle's automata together while `lower` runs."""
    moves: list[list[tuple[State, Digit, State]]] = []
    reached: set[State] = {start}
    tried = 0
    spent = _SPENT.get()  # the puzzle's budget while `lower` runs
    for domain in domains:
        check_building()
        digits = sorted(set(domain))
        tried += len(reached) * len(digits)
        if spent is not None:
            spent.charge_transitions(len(reached) * len(digits), what)
        if tried > MAX_TRANSITIONS:
            raise TableTooLargeError(
                f"{what} unrolls into more than {MAX_TRANSITIONS:,} automaton transitions, "
                "too large to post"
            )
        layer = []
        for u in reached:
            for d in digits:
                v = step(u, d)
                if v is not None:
                    layer.append((u, d, v))
        moves.append(layer)
        reached = {v for _, _, v in layer}
    alive = {v for v in reached if accepting(v)}
    final = tuple(sorted(alive))
    arcs: list[tuple[tuple[State, Digit, State], ...]] = []
    for layer in reversed(moves):
        kept = tuple(sorted(arc for arc in layer if arc[2] in alive))
        arcs.append(kept)
        alive = {u for u, _, _ in kept}
    arcs.reverse()
    if not arcs:
        return Layers((final,), ())
    states = [tuple(sorted({u for u, _, _ in layer})) for layer in arcs]
    last = tuple(sorted({v for _, _, v in arcs[-1]}))
    return Layers((*states, last), tuple(arcs))


@dataclass(frozen=True, slots=True)
class Automaton:
    """The digits of `cells`, read in order from `start` by `step`, end in an accepting state;
    with `distinct`, they are also pairwise different (a skyscraper clue's row).

    `step(state, digit)` is the next state or None (dead); states are tuples of ints, so
    encodings number them in a fixed order. Natively every solver posts the unrolled layers
    (`layers`, a layered MDD of a few hundred arcs, where a 9×9 skyscraper clue's Table has up
    to 118,124 rows): SAT with state and arc variables whose unit propagation is GAC on the
    automaton, CP-SAT a chain of (state, digit, state) tables or a path of arc Booleans, MIP a
    flow over the arcs, the bitmask search a forward/backward pass. The exact fallback is the
    Table of accepted tuples, enumerated depth-first along the live layers.
    """

    cells: tuple[Cell, ...]
    size: int  # the alphabet: digits 1..size
    start: State
    step: Callable[[State, Digit], State | None] = field(compare=False)
    accepting: Callable[[State], bool] = field(compare=False)
    label: str = ""  # compared: it tells automata on the same cells apart (e.g. "sees 3")
    distinct: bool = False
    # The layers over every digit, once unrolled: the rule unrolls a clue as it posts it (to
    # refuse one too large before any encoding), and the backend that reads it then reuses them.
    _unrolled: list[Layers] = field(default_factory=list, compare=False, repr=False)

    def layers(self, domains: Sequence[Iterable[Digit]] | None = None) -> Layers:
        """The live layers over per-cell `domains` (all digits 1..size when None, computed
        once); distinct digits are not taken into account (the houses or an AllDifferent say
        that)."""
        if domains is not None:
            return unroll(self.start, self.step, self.accepting, domains, self.label or str(self))
        if not self._unrolled:
            every = [range(1, self.size + 1)] * len(self.cells)
            self._unrolled.append(
                unroll(self.start, self.step, self.accepting, every, self.label or str(self))
            )
        return self._unrolled[0]

    def accepts(self, digits: Sequence[Digit]) -> bool:
        """Whether the automaton accepts this digit sequence (`distinct` not included)."""
        state: State | None = self.start
        for d in digits:
            assert state is not None
            state = self.step(state, d)
            if state is None:
                return False
        return state is not None and self.accepting(state)

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        """False only when no completion of the assigned cells is accepted (or, with
        `distinct`, two of them repeat a digit)."""
        placed = [values[cell] for cell in self.cells if cell in values]
        if self.distinct and len(placed) != len(set(placed)):
            return False
        every = range(1, self.size + 1)
        domains = [(values[cell],) if cell in values else every for cell in self.cells]
        return bool(self.layers(domains).states[0])

    def decompose(self, shape: Shape) -> tuple[Constraint, ...]:
        """The Table of accepted tuples (distinct ones with `distinct`), depth-first along the
        live layers so that every prefix searched extends to an accepted sequence; refused
        past MAX_TABLE rows, and up front when the search would be too long."""
        k = len(self.cells)
        what = self.label or str(self)
        if self.distinct and math.perm(self.size, k) > SEARCH_LIMIT:
            raise TableTooLargeError(
                f"{what} needs a search over more than {SEARCH_LIMIT:,} digit orders "
                f"({k} cells of {self.size} digits), too large for the generic Table path"
            )
        layers = self.layers()
        if not self.distinct:
            _check_space(layers.paths(), what)
        onward: list[dict[State, list[tuple[Digit, State]]]] = []
        for layer in layers.arcs:
            out: dict[State, list[tuple[Digit, State]]] = {}
            for u, d, v in layer:
                out.setdefault(u, []).append((d, v))
            onward.append(out)
        rows: list[tuple[Digit, ...]] = []
        prefix: list[Digit] = []
        visited = [0]

        def extend(i: int, state: State) -> None:
            visited[0] += 1
            if visited[0] % 4096 == 0:
                check_building()
            if i == k:
                rows.append(tuple(prefix))
                if len(rows) > MAX_TABLE:
                    _check_space(len(rows), what)
                return
            for d, v in onward[i].get(state, ()):
                if self.distinct and d in prefix:
                    continue
                prefix.append(d)
                extend(i + 1, v)
                prefix.pop()

        if layers.states[0]:
            extend(0, self.start)
        return (Table(self.cells, frozenset(rows)),)

    def __str__(self) -> str:
        what = self.label or "automaton"
        return f"{what}({', '.join(map(cell_name, self.cells))})"


# The built-in kinds whose exact decomposition holds a Table: never all-different groups alone,
# so a backend that takes groups only can refuse them without building their tables.
NEEDS_TABLES: tuple[type, ...] = (
    Table,
    Less,
    Pair,
    DigitSets,
    Sum,
    Sandwich,
    Between,
    Contains,
    Automaton,
)
