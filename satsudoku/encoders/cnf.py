"""CNF encodings of a puzzle: Lynce & Ouaknine's minimal/efficient/extended, Kwon & Jain's reduced.

Cell-digit variables use the standard numbering var(r, c, d) = (r-1)·n² + (c-1)·n + d (1-based),
so formulas interoperate with other tools; auxiliary variables come from an IDPool after n³:
selectors of large tables, of killer cages (`DigitSets`) and of sandwich layouts, and
prefix-sum states of `Sum`.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from satsudoku.constraints import (
    CORE_KINDS,
    AllDifferent,
    Allowed,
    Automaton,
    Constraint,
    DigitSets,
    Sandwich,
    State,
    Sum,
    Table,
    lower,
)
from satsudoku.deadline import check
from satsudoku.encoders.house_sums import fold_houses, out_of_reach
from satsudoku.errors import PuzzleError
from satsudoku.gc_pause import without_gc
from satsudoku.grid import Cell, Grid, Shape, cell_name
from satsudoku.puzzle import Puzzle

Clause = list[int]
_MAX_FORBIDDEN = 4096  # a table with more forbidden tuples gets the selector encoding instead
NATIVE_KINDS: tuple[type, ...] = (*CORE_KINDS, DigitSets, Sum, Sandwich, Automaton)


class Encoding(Enum):
    """Which clauses say 'each cell one digit, each house each digit once'."""

    MINIMAL = "minimal"  # cell at-least-one + house at-most-one (Lynce & Ouaknine 2006)
    EFFICIENT = "efficient"  # + cell at-most-one
    EXTENDED = "extended"  # + house at-least-one: the most propagation, the most clauses
    REDUCED = "reduced"  # extended without what the givens settle (Kwon & Jain 2006)


class AtMostOne(Enum):
    """How 'at most one of these literals' becomes clauses (pysat CardEnc names)."""

    PAIRWISE = "pairwise"  # k(k-1)/2 binary clauses, no auxiliaries
    SEQCOUNTER = "seqcounter"  # Sinz 2005: O(k) clauses, auxiliaries from the IDPool
    LADDER = "ladder"
    TOTALIZER = "totalizer"
    MTOTALIZER = "mtotalizer"
    KMTOTALIZER = "kmtotalizer"
    BITWISE = "bitwise"  # Frisch et al.: log2(k) auxiliaries
    SORTNETWRK = "sortnetwrk"
    CARDNETWRK = "cardnetwrk"
    NATIVE = "native"  # the solver's own cardinality constraint (minicard, gluecard): no clauses
    AUTO = "auto"  # pairwise up to AUTO_PAIRWISE_MAX literals, the sequential counter beyond


# AtMostOne.AUTO keeps pairwise for groups of up to this many literals, so boards up to 25×25
# encode exactly as before; longer groups (36×36 and up) get Sinz's sequential counter:
# 3k-4 clauses and k-1 auxiliaries instead of k(k-1)/2 clauses. Measured on an empty 36×36
# (extended): 3.27 M clauses, 877 MB peak, ~11 s to encode and load pairwise, against 0.54 M
# clauses, 194 MB, ~2.4 s (ladder 0.75 M, bitwise 1.12 M clauses). On 25×25 puzzles with 42%
# givens the counter searched ~6x slower (8.3 s against 1.4 s CPU for four), hence not below.
AUTO_PAIRWISE_MAX = 25


def amo_for(amo: AtMostOne, length: int) -> AtMostOne:
    """The encoding `amo` means for a group of `length` literals (only AUTO depends on it)."""
    if amo is not AtMostOne.AUTO:
        return amo
    return AtMostOne.PAIRWISE if length <= AUTO_PAIRWISE_MAX else AtMostOne.SEQCOUNTER


# Tools that solve one formula many times (explain's core shrinking, minimal's oracle) keep
# pairwise at-most-one up to 36×36, whose grids their solves find faster so (3.3 M clauses,
# 0.9 GB), and use AUTO beyond: a 64×64 pairwise is 33 M clauses, a MemoryError at 3.7 GB.
PAIRWISE_BOARD_MAX = 36


def board_amo(size: int) -> AtMostOne:
    """The at-most-one encoding those tools use on a board of `size`."""
    return AtMostOne.PAIRWISE if size <= PAIRWISE_BOARD_MAX else AtMostOne.AUTO


def parse_encoding(name: str | Encoding) -> Encoding:
    """An Encoding from its name; a PuzzleError naming the choices otherwise."""
    if isinstance(name, Encoding):
        return name
    try:
        return Encoding(name)
    except ValueError:
        choices = ", ".join(e.value for e in Encoding)
        raise PuzzleError(f"unknown encoding {name!r}; choose from {choices}") from None


def parse_amo(name: str | AtMostOne) -> AtMostOne:
    """An AtMostOne from its name; a PuzzleError naming the choices otherwise."""
    if isinstance(name, AtMostOne):
        return name
    try:
        return AtMostOne(name)
    except ValueError:
        choices = ", ".join(a.value for a in AtMostOne)
        raise PuzzleError(f"unknown at-most-one encoding {name!r}; choose from {choices}") from None


@dataclass(frozen=True, slots=True)
class VarMap:
    """Dense DIMACS numbering of 'cell holds digit': 1 .. size**3 (cells 0-based here)."""

    size: int

    def lit(self, cell: Cell, digit: int) -> int:
        row, col = cell
        return (row * self.size + col) * self.size + digit

    def cell_digit(self, var: int) -> tuple[Cell, int]:
        """Inverse of `lit` for 1 <= var <= size**3."""
        index, digit0 = divmod(var - 1, self.size)
        return divmod(index, self.size), digit0 + 1

    @property
    def top(self) -> int:
        return self.size**3


@dataclass
class CnfFormula:
    """Clauses plus what is needed to read models back and to block a solution."""

    shape: Shape
    encoding: Encoding
    amo: AtMostOne
    clauses: list[Clause]
    num_vars: int
    fixed: dict[int, int] = field(default_factory=dict)  # flat cell -> digit settled by encoding
    candidates: tuple[tuple[int, ...], ...] = ()  # flat cell -> digits that have a variable
    atmost: list[Clause] = field(default_factory=list)  # AtMostOne.NATIVE: at most one holds
    streamed: int = 0  # clauses sent straight to a solver (`encode_rules(sink=...)`), not kept
    # Per `Sum` posted, its prefix-sum state variables (`_sum`), in posting order: the bitmask
    # proofs define extension variables over them (`proof.extension`).
    sums: list[SumStates] = field(default_factory=list)

    @property
    def size(self) -> int:
        """Every constraint the formula posts: clauses kept or streamed, native at-most-ones."""
        return len(self.clauses) + self.streamed + len(self.atmost)

    def used_vars(self, deadline: float | None = None) -> int:
        """How many distinct variables the clauses mention (the reduced encoding drops many).

        Seconds for a 64×64 board's 33 M clauses, so `deadline` is checked between chunks.
        """
        seen: set[int] = set()
        step = 1 << 16
        for start in range(0, len(self.clauses), step):
            check(deadline)
            seen.update(abs(lit) for clause in self.clauses[start : start + step] for lit in clause)
        return len(seen)

    @property
    def varmap(self) -> VarMap:
        return VarMap(self.shape.size)

    def decode(self, model: Sequence[int]) -> Grid:
        """The grid a model describes; only variables this formula defines are read.

        (CaDiCaL reports variables that occur in no clause as true, so a variable the reduced
        encoding left out must never be consulted.)
        """
        n = self.shape.size
        values = [0] * (n * n)
        for index, digit in self.fixed.items():
            values[index] = digit
        size = len(model)
        for index, digits in enumerate(self.candidates):
            if index in self.fixed:
                continue
            base = index * n
            for d in digits:
                if base + d <= size and model[base + d - 1] > 0:
                    values[index] = d
                    break
        return Grid(n, tuple(values))

    def block(self, grid: Grid, givens: Grid | None = None) -> Clause:
        """The clause that forbids `grid`: a negated literal for every cell not given."""
        n = self.shape.size
        skip = givens.values if givens is not None else (0,) * (n * n)
        return [
            -(index * n + digit)
            for index, digit in enumerate(grid.values)
            if not skip[index] and index not in self.fixed
        ]


@dataclass(frozen=True, slots=True)
class SumStates:
    """A posted sum's layers: flat cells, weights, total, per-cell domains, and per layer
    0..k the live partial sums with their variables (0: a constant, true)."""

    cells: tuple[int, ...]
    weights: tuple[int, ...]
    total: int
    domains: tuple[tuple[int, ...], ...]
    states: tuple[dict[int, int], ...]


class ClauseSink:
    """Where the builder's clauses go instead of a list: straight into a solver, counted.

    A 64×64 board's 3.1 M clauses held as Python lists cost ~500 MB on top of the solver's own
    copy; streamed, only the solver's copy exists. Only what `_Builder` calls is provided.
    """

    def __init__(self, add: Callable[[Clause], object]) -> None:
        self.add = add
        self.count = 0

    def append(self, clause: Clause) -> None:
        self.add(clause)
        self.count += 1

    def extend(self, clauses: Iterable[Clause]) -> None:
        add, before = self.add, self.count
        for clause in clauses:
            add(clause)
            before += 1
        self.count = before


class FormulaTooLarge(PuzzleError):
    """The rules' encoding passed the size its caller allowed (`encode_rules(max_items=...)`)."""

    def __init__(self, max_items: int) -> None:
        super().__init__(f"the rules' encoding needs more than {max_items:,} literals and clauses")
        self.max_items = max_items


class _CountedClauses(list[Clause]):
    """The builder's clause list, refusing to grow past `max_items` literals and clauses.

    For a checker whose formula file bounds what the rules may hold: the count is what a
    DIMACS file spends at least 2 bytes on each (a digit and a space, or "0" and a newline).
    """

    def __init__(self, max_items: int) -> None:
        super().__init__()
        self.max_items = max_items
        self.items = 0

    def append(self, clause: Clause) -> None:
        self.items += len(clause) + 1
        if self.items > self.max_items:
            raise FormulaTooLarge(self.max_items)
        super().append(clause)

    def extend(self, clauses: Iterable[Clause]) -> None:
        for clause in clauses:
            self.append(clause)


def _table_floor(n: int, max_items: int) -> Callable[[Constraint], None]:
    """A `lower` hook that refuses once the tables alone must encode to more than `max_items`:
    a table with more than `_MAX_FORBIDDEN` forbidden tuples takes, per row, k binary clauses
    (3k items) and its selector in the rows' at-least-one clause (`_table`). Raised before the
    encoder runs, and before the rest of the tables are built."""
    total = 0

    def charge(constraint: Constraint) -> None:
        nonlocal total
        if not isinstance(constraint, Table):
            return
        rows, arity = len(constraint.tuples), len(constraint.cells)
        if n**arity - rows > _MAX_FORBIDDEN:
            total += (3 * arity + 1) * rows
            if total > max_items:
                raise FormulaTooLarge(max_items)

    return charge


class _Builder:
    """Collects clauses over given candidate domains, handing out auxiliaries from an IDPool."""

    def __init__(
        self,
        shape: Shape,
        amo: AtMostOne,
        domains: list[tuple[int, ...]],
        deadline: float | None = None,
        sink: ClauseSink | None = None,
    ) -> None:
        self.n = shape.size
        self.deadline = deadline  # checked per at-most-one: a 64×64 board takes many seconds
        self.amo = amo
        self.domains = domains
        self.pool = IDPool(start_from=self.n**3 + 1)
        self.clauses: list[Clause] | ClauseSink = [] if sink is None else sink
        self.atmost: list[Clause] = []  # native at-most-one constraints (AtMostOne.NATIVE)
        self.sums: list[SumStates] = []  # what `_sum` posted, for `CnfFormula.sums`
        self.houses: list[frozenset[int]] = []  # flat all-different groups of n cells
        self._fresh = 0

    def var(self, cell: Cell, digit: int) -> int:
        return (cell[0] * self.n + cell[1]) * self.n + digit

    def has(self, cell: Cell, digit: int) -> bool:
        return digit in self.domains[cell[0] * self.n + cell[1]]

    def at_most_one(self, lits: list[int]) -> None:
        check(self.deadline)
        if len(lits) < 2:
            return
        amo = amo_for(self.amo, len(lits))
        if amo is AtMostOne.PAIRWISE:
            self.clauses.extend([-a, -b] for a, b in itertools.combinations(lits, 2))
            return
        if amo is AtMostOne.NATIVE:
            self.atmost.append(list(lits))
            return
        if amo is AtMostOne.SEQCOUNTER:
            self._sequential_counter(lits)
            return
        encoded = CardEnc.atmost(
            lits, bound=1, vpool=self.pool, encoding=getattr(EncType, amo.value)
        )
        self.clauses.extend(encoded.clauses)

    def _sequential_counter(self, lits: list[int]) -> None:
        """Sinz 2005, k = 1: s_i ("one of x_1..x_i holds") for i < k; x_i → s_i, s_i → s_(i+1),
        s_(i-1) → ¬x_i. Unit propagation keeps it arc-consistent; written here rather than by
        CardEnc because the per-call cost of CardEnc dominated a 36×36 build (5,184 groups).
        The s_i come from the pool in request order, so re-encoding numbers them the same."""
        k = len(lits)
        first = self.pool.top + 1
        self.pool.top = first + k - 2  # IDPool hands out top + 1 next
        counters = range(first, first + k - 1)
        out = self.clauses
        out.append([-lits[0], first])
        for i in range(1, k - 1):
            s, prev, x = counters[i], counters[i - 1], lits[i]
            out.extend(([-x, s], [-prev, s], [-prev, -x]))
        out.append([-counters[k - 2], -lits[k - 1]])

    def fresh(self) -> int:
        """A new auxiliary variable (numbered in request order, so re-encoding repeats it)."""
        self._fresh += 1
        return int(self.pool.id(("aux", self._fresh)))

    def contradiction(self) -> None:
        """Make the formula unsatisfiable on purpose (an empty domain or table)."""
        aux = self.pool.id(("false",))
        self.clauses.extend([[aux], [-aux]])

    @property
    def num_vars(self) -> int:
        return max(self.n**3, int(self.pool.top))


@without_gc
def encode_rules(
    shape: Shape,
    constraints: Iterable[Constraint],
    encoding: Encoding = Encoding.EXTENDED,
    amo: AtMostOne = AtMostOne.PAIRWISE,
    givens: Grid | None = None,
    deadline: float | None = None,
    sink: Callable[[Clause], object] | None = None,
    max_items: int | None = None,
) -> CnfFormula:
    """Encode `constraints` over every cell-digit variable; givens become unit clauses.

    With `sink` (e.g. a solver's add_clause), clauses go there as they are made and the
    formula keeps none (`streamed` counts them): for boards too large to hold twice.

    With `max_items`, FormulaTooLarge is raised as soon as the clauses (literals plus one per
    clause) would pass it, or the rules' tables show they must: a certificate's checker knows
    its formula file holds every rule clause, so the file's size bounds the work of
    re-encoding a stranger's claimed puzzle (not with `sink` or the reduced encoding).

    With `Encoding.REDUCED`, `givens` instead shrink the formula: variables of given cells and
    of digits a given peer rules out are dropped, with every clause they satisfy (Kwon & Jain).
    `DigitSets`, `Sum` and `Sandwich` are encoded natively and bring auxiliary variables, as
    large tables do (see `_digit_sets`, `_sum`, `_sandwich`); the clauses are the same, in the
    same order, every time the same constraints are encoded, which certificates rely on to
    justify them. Raises `OutOfTime` once `deadline` (a perf_counter time) has passed.
    """
    n = shape.size
    if max_items is not None and (sink is not None or encoding is Encoding.REDUCED):
        raise ValueError("max_items bounds kept clauses of a non-reduced encoding only")
    charge = None if max_items is None else _table_floor(n, max_items)
    core = _split_cages(lower(constraints, shape, NATIVE_KINDS, deadline, charge), shape)
    every = tuple(range(1, n + 1))
    domains = [every] * (n * n)
    fixed: dict[int, int] = {}
    reduced = encoding is Encoding.REDUCED
    if reduced:
        domains, fixed = _reduce_domains(shape, core, givens)
    stream = None if sink is None else ClauseSink(sink)
    builder = _Builder(shape, amo, domains, deadline, stream)
    builder.houses = _houses(core, n)
    if max_items is not None:
        builder.clauses = _CountedClauses(max_items)
    cells = list(shape.cells())
    for cell in cells:
        index = cell[0] * n + cell[1]
        if index in fixed:
            continue
        lits = [builder.var(cell, d) for d in domains[index]]
        if not lits:
            builder.contradiction()
            continue
        builder.clauses.append(lits)  # at least one digit per cell
        if encoding is not Encoding.MINIMAL:
            builder.at_most_one(lits)
    for constraint in core:
        check(deadline)
        if isinstance(constraint, AllDifferent):
            _all_different(builder, constraint, encoding, fixed)
        elif isinstance(constraint, Allowed):
            if not reduced:  # the reduced domains already exclude these digits
                cell = constraint.cell
                builder.clauses.extend(
                    [-builder.var(cell, d)] for d in every if d not in constraint.digits
                )
        elif isinstance(constraint, Table):
            _table(builder, constraint, fixed)
        elif isinstance(constraint, DigitSets):
            _digit_sets(builder, constraint, fixed)
        elif isinstance(constraint, Sum):
            _sum(builder, constraint, fixed)
        elif isinstance(constraint, Sandwich):
            _sandwich(builder, constraint, fixed)
        elif isinstance(constraint, Automaton):
            _automaton(builder, constraint, fixed)
    if givens is not None and not reduced:
        for index, digit in enumerate(givens.values):
            if digit:
                builder.clauses.append([index * n + digit])
    kept = builder.clauses if isinstance(builder.clauses, list) else []
    formula = CnfFormula(shape, encoding, amo, kept, builder.num_vars, fixed, tuple(domains))
    formula.atmost = builder.atmost
    formula.sums = builder.sums
    formula.streamed = stream.count if stream is not None else 0
    return formula


def encode_puzzle(
    puzzle: Puzzle,
    encoding: Encoding = Encoding.EXTENDED,
    amo: AtMostOne = AtMostOne.PAIRWISE,
    deadline: float | None = None,
) -> CnfFormula:
    """The whole puzzle, rules and givens, as one formula."""
    constraints = lowered(puzzle, deadline)
    return encode_rules(puzzle.shape, constraints, encoding, amo, puzzle.givens, deadline)


_LOWERED: dict[tuple[Shape, tuple[object, ...]], list[Constraint]] = {}
# Rule sets whose lowering is kept, the oldest dropped first: a batch needs one, and a large
# board's tables may run to a puzzle-wide 2,000,000 rows (MAX_PUZZLE_ROWS), so few are kept.
_LOWERED_KEPT = 4
_LOWERED_LOCK = threading.Lock()  # backends may encode from several threads


def lowered(puzzle: Puzzle, deadline: float | None = None) -> Iterable[Constraint]:
    """The puzzle's constraints decomposed to the kinds encoded here, kept per shape and
    rules: every puzzle of a batch (or a proof after its search) shares one lowering, as the
    search kernel's cache shares one kernel. Decomposing is most of some encodings: four
    quadruple clues walk 9^4 digit tuples each (broken-paperclip: 0.22 of 0.28 s). Rules
    that cannot be hashed are lowered afresh (by `encode_rules`)."""
    key = (puzzle.shape, tuple(puzzle.rules))
    try:
        with _LOWERED_LOCK:
            found = _LOWERED.get(key)
    except TypeError:  # a user rule that is not hashable
        return puzzle.constraints()
    if found is None:
        found = lower(puzzle.constraints(), puzzle.shape, NATIVE_KINDS, deadline)
        with _LOWERED_LOCK:
            while len(_LOWERED) >= _LOWERED_KEPT:
                del _LOWERED[next(iter(_LOWERED))]
            _LOWERED[key] = found
    return found


def _reduce_domains(
    shape: Shape, core: Sequence[Constraint], givens: Grid | None
) -> tuple[list[tuple[int, ...]], dict[int, int]]:
    """Candidate digits per cell after the givens remove themselves from all their peers."""
    n = shape.size
    domains = [set(range(1, n + 1)) for _ in range(n * n)]
    for constraint in core:
        if isinstance(constraint, Allowed):
            r, c = constraint.cell
            domains[r * n + c] &= constraint.digits
    fixed: dict[int, int] = {}
    if givens is not None:
        fixed = {i: d for i, d in enumerate(givens.values) if d}
    for constraint in core:
        if isinstance(constraint, AllDifferent):
            group = [r * n + c for r, c in constraint.cells]
            placed = {fixed[i] for i in group if i in fixed}
            for i in group:
                if i not in fixed:
                    domains[i] -= placed
    for i, d in fixed.items():
        domains[i] = {d} if d in domains[i] else set()
    out = [tuple(sorted(ds)) for ds in domains]
    # A given that its own domain (or a clashing given peer) forbids keeps no variable and
    # would be silently dropped: keep such a cell undetermined, with an empty domain.
    clashing = _clashing(core, n, fixed)
    for i in list(fixed):
        if not out[i] or i in clashing:
            del fixed[i]
            out[i] = ()
    return out, fixed


def _clashing(core: Sequence[Constraint], n: int, fixed: dict[int, int]) -> set[int]:
    """The given cells that share a group with another cell given the same digit.

    One pass over the groups (a 64×64 with 90% givens: 0.05 s, where asking per given cell
    took 20 s)."""
    out: set[int] = set()
    for constraint in core:
        if isinstance(constraint, AllDifferent):
            holder: dict[int, int] = {}  # digit -> the first given cell holding it here
            for r, c in constraint.cells:
                i = r * n + c
                d = fixed.get(i)
                if d is None:
                    continue
                first = holder.setdefault(d, i)
                if first != i:
                    out.update((first, i))
    return out


def _houses(core: Sequence[Constraint], n: int) -> list[frozenset[int]]:
    """The all-different groups of n distinct cells (flat indices): each holds 1..n once."""
    found: dict[frozenset[int], None] = {}
    for constraint in core:
        if isinstance(constraint, AllDifferent):
            group = frozenset(r * n + c for r, c in constraint.cells)
            if len(group) == n:
                found[group] = None
    return list(found)


def _all_different(
    builder: _Builder, constraint: AllDifferent, encoding: Encoding, fixed: dict[int, int]
) -> None:
    """At most one cell per digit; a full house (n distinct cells) also at least one."""
    n = builder.n
    cells = tuple(dict.fromkeys(constraint.cells))
    full = len(cells) == n and encoding in (Encoding.EXTENDED, Encoding.REDUCED)
    placed = {fixed[r * n + c] for r, c in cells if r * n + c in fixed}
    for d in range(1, n + 1):
        if d in placed:
            continue  # the given settles this digit here; its peers dropped d already
        lits = [
            builder.var(cell, d)
            for cell in cells
            if cell[0] * n + cell[1] not in fixed and builder.has(cell, d)
        ]
        builder.at_most_one(lits)
        if full:
            if lits:
                builder.clauses.append(lits)
            else:
                builder.contradiction()


def _table(builder: _Builder, table: Table, fixed: dict[int, int]) -> None:
    """Forbidden-tuple clauses when there are few, else one selector variable per tuple.

    The forbidden tuples are found by walking the domains' product against the table's own
    set (a tuple can only be allowed if the table holds it): no filtered copy of the table is
    made unless the selector encoding needs one. Profiled on 159 (216 pair tables), the
    filtered copy and per-literal `var` calls were most of `prove`'s time.
    """
    n = builder.n
    cells = table.cells
    indices = [r * n + c for r, c in cells]
    domains = [(fixed[i],) if i in fixed else builder.domains[i] for i in indices]
    tuples = table.tuples
    space = 1
    for dom in domains:
        space *= len(dom)
    forbidden: list[tuple[int, ...]] | None = None
    if space - len(tuples) <= _MAX_FORBIDDEN:  # else more than that are surely forbidden
        forbidden = []
        for combo in itertools.product(*domains):
            if combo not in tuples:
                forbidden.append(combo)
                if len(forbidden) > _MAX_FORBIDDEN:
                    forbidden = None
                    break
    if forbidden is not None:
        free = [k for k, i in enumerate(indices) if i not in fixed]
        bases = [indices[k] * n for k in free]  # var(cell, d) = index·n + d
        if len(free) == 2:  # pair relations (dots, whispers, ...): most tables, no comprehension
            (k0, k1), (b0, b1) = free, bases
            builder.clauses.extend([-(b0 + c[k0]), -(b1 + c[k1])] for c in forbidden)
            return
        for combo in forbidden:
            clause = [-(base + combo[k]) for base, k in zip(bases, free, strict=True)]
            if not clause:
                builder.contradiction()
                return
            builder.clauses.append(clause)
        return
    allowed = [t for t in tuples if all(d in dom for d, dom in zip(t, domains, strict=True))]
    # Selector encoding: s_t → every cell takes its digit in t; at least one s_t holds.
    selectors: list[int] = []
    for t in allowed:
        s = builder.pool.id((table, t))
        selectors.append(s)
        for cell, i, d in zip(cells, indices, t, strict=True):
            if i not in fixed:
                builder.clauses.append([-s, builder.var(cell, d)])
    if not selectors:
        builder.contradiction()
        return
    builder.clauses.append(selectors)


def _on_board(cage: DigitSets, size: int) -> list[frozenset[int]]:
    """The fitting sets whose digits all exist on a board of `size` (others can never fit)."""
    return [digits for digits in cage.fitting_sets() if max(digits, default=0) <= size]


def _split_cages(core: Sequence[Constraint], shape: Shape) -> list[Constraint]:
    """Each `DigitSets` as its AllDifferent and union domains (so the reduced encoding sees
    them), followed by itself when more than one digit set fits and selectors are needed;
    each `Sandwich` as its AllDifferent followed by itself; each `distinct` `Automaton` after
    its AllDifferent unless a group on the same cells has one already (a skyscraper's row)."""
    every = frozenset(range(1, shape.size + 1))
    out: list[Constraint] = []
    groups = {frozenset(c.cells) for c in core if isinstance(c, AllDifferent)}
    for constraint in core:
        if isinstance(constraint, Automaton):
            if constraint.distinct and frozenset(constraint.cells) not in groups:
                groups.add(frozenset(constraint.cells))
                out.append(AllDifferent(constraint.cells))
            out.append(constraint)
            continue
        if isinstance(constraint, Sandwich):
            out.extend((AllDifferent(constraint.cells), constraint))
            continue
        if not isinstance(constraint, DigitSets):
            out.append(constraint)
            continue
        sets = _on_board(constraint, shape.size)
        union = frozenset().union(*sets)
        out.append(AllDifferent(constraint.cells))
        if union != every:
            out.extend(Allowed(cell, union) for cell in constraint.cells)
        if len(sets) > 1:
            out.append(constraint)
    return out


def _digit_sets(builder: _Builder, cage: DigitSets, fixed: dict[int, int]) -> None:
    """One selector per digit set that can still fit; the cage's AllDifferent and union are
    posted separately (`_split_cages`).

    s_j → no cell holds a digit outside S_j; s_j → every digit of S_j is in some cell; at
    least one s_j. With k different digits in k cells at most one selector can hold, so the
    selectors are functions of the cells and model counts stay those of the puzzle. This is
    |sets|·k·n clauses where the permutation table of a 7-cell cage has 20,160 tuples.
    """
    n = builder.n
    cells = [cell for cell in dict.fromkeys(cage.cells) if cell[0] * n + cell[1] not in fixed]
    placed = {fixed[i] for r, c in cage.cells if (i := r * n + c) in fixed}
    sets = _on_board(cage, n)
    union = frozenset().union(*sets)
    holders = {
        d: [builder.var(cell, d) for cell in cells if builder.has(cell, d)] for d in sorted(union)
    }
    # A set is out when a given in the cage lies outside it or one of its digits has no cell.
    live = [
        s for s in sets if placed <= s and all(holders[d] for d in sorted(s) if d not in placed)
    ]
    if not live:
        builder.contradiction()
        return
    if len(live) == 1:  # the givens settled the set: plain unit clauses
        (only,) = live
        for cell in cells:
            builder.clauses.extend(
                [-builder.var(cell, d)] for d in sorted(union - only) if builder.has(cell, d)
            )
        return
    selectors = [builder.fresh() for _ in live]
    builder.clauses.append(selectors)
    for s, digits in zip(selectors, live, strict=True):
        for cell in cells:
            builder.clauses.extend(
                [-s, -builder.var(cell, d)] for d in sorted(union - digits) if builder.has(cell, d)
            )
        builder.clauses.extend([-s, *holders[d]] for d in sorted(digits) if d not in placed)


def _sum(builder: _Builder, constraint: Sum, fixed: dict[int, int]) -> None:
    """The distinct pairs, then the weighted sum as prefix-sum states (a layered MDD).

    State s(i, v) says "the first i cells add up to v"; only values reachable from both ends
    get a variable (s(0, 0) and s(k, total) are constants). Clauses: s(i-1, u) ∧ x(c_i, d) →
    s(i, u + w_i·d) (or ¬x when that state is dead), plus supports for propagation: a state
    needs a predecessor state and a digit leading to it, and a digit leading on. The size is
    O(k · states · n), independent of the number of digit tuples. Whole houses among the
    cells are folded into the total first (`house_sums`): the layers then cover only the
    cells left, while the distinct pairs stay as the constraint states them.
    """
    n = builder.n
    if out_of_reach(constraint, n):  # a total or bulb past any digits: no layers to unroll
        builder.contradiction()
        return
    for a, b in constraint.distinct:
        _differ(builder, constraint.cells[a], constraint.cells[b], fixed)
    flat = [r * n + c for r, c in constraint.cells]
    cells, weights, total = fold_houses(
        flat, constraint.coefficients(), constraint.total, builder.houses, n
    )
    if not cells:  # every cell folded into the total (or weighed 0)
        if total:
            builder.contradiction()
        return
    k = len(cells)
    indices = list(cells)
    domains = [(fixed[i],) if i in fixed else builder.domains[i] for i in indices]
    try:
        states = _sum_states(weights, domains, total, builder.deadline)
    except _TooManyStates as exc:
        more = f", … ({k} cells)" if k > 3 else ""
        raise PuzzleError(
            f"the sum over {', '.join(cell_name(c) for c in constraint.cells[:3])}{more}: "
            f"its SAT encoding would unroll into {exc.args[0]} transitions, too large to post; "
            "try --backend bitmask or cpsat"
        ) from None
    if not states[0]:
        builder.contradiction()
        return
    # lit[i][v]: the variable of s(i, v); 0 means the constant true (layers 0 and k).
    lit: list[dict[int, int]] = [{v: 0 for v in states[0]}]
    lit += [{v: builder.fresh() for v in sorted(states[i])} for i in range(1, k)]
    lit.append({v: 0 for v in states[k]})
    if not fixed:
        builder.sums.append(SumStates(cells, weights, total, tuple(domains), tuple(lit)))

    def add(clause: list[int]) -> None:
        if clause:
            builder.clauses.append(clause)
        else:
            builder.contradiction()

    for i in range(k):
        check(builder.deadline)  # a long shaft under a 3-digit pill: seconds of layers
        w, here, after = weights[i], lit[i], lit[i + 1]
        if indices[i] in fixed:
            _sum_given_layer(w, here, after, domains[i], add)
            continue
        # The cell's literals are worked out once per layer, not per arc: an 81-term arrow
        # writes 317,000 clauses here (0.9 s when each arc asked for its literal).
        base = indices[i] * n
        steps = [(d, w * d, base + d) for d in domains[i]]
        append = builder.clauses.append
        for u, s in here.items():
            onward: list[int] = []  # digits that lead from s(i, u) to a live state
            for _, step, x in steps:
                target = after.get(u + step)
                if target is None:  # a dead end: not this digit after this prefix
                    append([-s, -x] if s else [-x])
                    continue
                onward.append(x)
                if target:  # 0: the constant s(k, total)
                    append([-s, -x, target] if s else [-x, target])
            add([-s, *onward] if s else onward)
        for v, t in after.items():  # a reached state needs a state and a digit before it
            before = [(d, x) for d, step, x in steps if v - step in here]
            preds = [here[v - w * d] for d, _ in before]
            if 0 not in preds:  # else reachable from the constant s(0, 0)
                add(([-t] if t else []) + preds)
            if t:
                append([-t] + [x for _, x in before])


def _sum_given_layer(
    w: int,
    here: dict[int, int],
    after: dict[int, int],
    domain: tuple[int, ...],
    add: Callable[[list[int]], None],
) -> None:
    """`_sum`'s clauses for a layer whose cell is given (the reduced encoding): the cell's
    literal is true, so it drops out of every clause."""
    for u, s in here.items():
        unless = [-s] if s else []
        for d in domain:
            target = after.get(u + w * d)
            if target is None:
                add(unless)
            elif target:
                add(unless + [target])
    for v, t in after.items():
        preds = [here[v - w * d] for d in domain if v - w * d in here]
        if 0 not in preds:
            add(([-t] if t else []) + preds)


# A sum's live states times digits, the arcs its encoding is built from: the largest published
# puzzle needs 221,229 (an 81-term arrow); a little killer clue over a whole 25x25 board made
# 125 million, 1 GB and 15 s past --timeout 5, in set building the clock never saw. The
# forward pass alone may try more (a 255-cell shaft under a one-cell bulb: 16 million, all dead,
# refuted in a second), up to MAX_SUM_TRIED.
MAX_SUM_ARCS = 4_000_000
MAX_SUM_TRIED = 40_000_000


class _TooManyStates(Exception):
    """A sum past MAX_SUM_ARCS or MAX_SUM_TRIED: (how many, as text)."""


def _sum_states(
    weights: Sequence[int],
    domains: Sequence[tuple[int, ...]],
    total: int,
    deadline: float | None = None,
) -> list[set[int]]:
    """Per layer i = 0..k, the partial sums of the first i cells that can still reach `total`;
    the clock is read and the arcs counted layer by layer."""
    k = len(weights)
    forward = [{0}]
    tried = 0
    for w, dom in zip(weights, domains, strict=True):
        check(deadline)
        tried += len(forward[-1]) * len(dom)
        if tried > MAX_SUM_TRIED:
            raise _TooManyStates(f"more than {MAX_SUM_TRIED:,}")
        forward.append({u + w * d for u in forward[-1] for d in dom})
    backward = [{total} & forward[k]]
    for i in range(k - 1, -1, -1):
        check(deadline)
        w = weights[i]
        backward.append({v - w * d for v in backward[-1] for d in domains[i]} & forward[i])
    backward.reverse()
    arcs = sum(len(backward[i]) * len(domains[i]) for i in range(k))
    if arcs > MAX_SUM_ARCS:
        raise _TooManyStates(f"{arcs:,} (more than {MAX_SUM_ARCS:,})")
    return backward


def _automaton(builder: _Builder, automaton: Automaton, fixed: dict[int, int]) -> None:
    """The automaton's live layers (`Automaton.layers` over the cells' domains) with a
    variable per state and per arc, so that unit propagation is GAC on the automaton (the
    regular constraint's encoding, Bacchus 2007); its AllDifferent is posted apart.

    Arc a = (i, u, d, v) ⇔ s(i, u) ∧ x(c_i, d), and a → s(i+1, v); a state needs an arc in
    and an arc out, a digit an arc that reads it, and a live state's digit that leads
    nowhere is forbidden after it (dead ends). A dead state's arcs fall, its neighbours lose
    their supports, layer by layer: unit propagation removes exactly the digits on no
    accepted path. Constants stand for what cannot vary: the state of a layer with one state
    (the start, and every layer after a given), the last layer (all accepting), the digit of
    a given cell; an arc whose state or digit is constant is the other one. Every auxiliary
    is a function of the digits, so model counts are the puzzle's.
    """
    n = builder.n
    indices = [r * n + c for r, c in automaton.cells]
    domains = [(fixed[i],) if i in fixed else builder.domains[i] for i in indices]
    layers = automaton.layers(domains)
    if not layers.states[0]:
        builder.contradiction()
        return
    k = len(indices)
    # lit[i][u]: s(i, u), 0 for the constant true (layers with one state, and the last).
    lit: list[dict[State, int]] = []
    for i, states in enumerate(layers.states):
        single = len(states) == 1 or i == k
        lit.append({u: 0 if single else builder.fresh() for u in states})

    def add(positive: Sequence[int], negative: Sequence[int]) -> None:
        """The clause ⋁ positive ∨ ⋁ ¬negative; 0 is true (satisfies, or drops out)."""
        if 0 in positive:
            return
        clause = list(dict.fromkeys([*positive, *(-x for x in negative if x)]))
        if any(-x in clause for x in clause):
            return  # a tautology (an arc that is its state or its digit)
        if clause:
            builder.clauses.append(clause)
        else:
            builder.contradiction()

    for i in range(k):
        check(builder.deadline)
        cell, given = automaton.cells[i], indices[i] in fixed
        here, after = lit[i], lit[i + 1]
        reads: dict[int, list[int]] = {d: [] for d in domains[i]}  # digit -> its arcs
        into: dict[State, list[int]] = {v: [] for v in after}
        out: dict[State, list[int]] = {u: [] for u in here}
        leads: dict[State, set[int]] = {u: set() for u in here}
        for u, d, v in layers.arcs[i]:
            s, x = here[u], 0 if given else builder.var(cell, d)
            a = x if not s else s if not x else builder.fresh()
            if a not in (s, x):
                add([s], [a])
                add([x], [a])
                add([a], [s, x])
            add([after[v]], [a])
            reads[d].append(a)
            into[v].append(a)
            out[u].append(a)
            leads[u].add(d)
        for u, s in here.items():  # dead ends, then a state needs an arc out
            if not given:
                for d in domains[i]:
                    if d not in leads[u]:
                        add([], [s, builder.var(cell, d)])
            add(out[u], [s])
        if i + 1 < k or len(after) == 1:  # the last layer's states are sinks, not each true
            for v, t in after.items():  # a state needs an arc in
                add(into[v], [t])
        if not given:  # a digit needs an arc that reads it
            for d, arcs in reads.items():
                add(arcs, [builder.var(cell, d)])


_Layout = tuple[tuple[frozenset[int], ...], tuple[int, ...], range]  # digits per cell, set, between


def _sandwich(builder: _Builder, sandwich: Sandwich, fixed: dict[int, int]) -> None:
    """One selector per layout the domains still allow; its AllDifferent is posted apart.

    s → each cell holds a digit its layout allows there (low and high at their positions, the
    set between them in the cells between, the rest outside: binary clauses forbidding the
    others), s → each digit of the set somewhere between, at least one s, and supports: a cell
    holding d needs a selected layout that allows d there, which makes unit propagation
    arc-consistent on the layouts. With distinct digits at most one selector can hold, so model
    counts stay those of the puzzle. Measured against the line read by an automaton over
    (phase, sum so far) states (a layered MDD like `_sum`'s), uniqueness in seconds (one run each):
    published 9×9 0.38 vs 1.60, all 18 clues 0.39 vs 1.83, a 12×12 with all 24 clues 1.4 vs
    over 60; a 9×9 clue has at most 70 layouts, a 16×16 one up to 5,902.
    """
    n = builder.n
    cells = sandwich.cells
    indices = [r * n + c for r, c in cells]
    live = _live_layouts(builder, sandwich, fixed)
    if not live:
        builder.contradiction()
        return
    selectors = [builder.fresh() for _ in live] if len(live) > 1 else [0]  # 0: the only one
    if len(live) > 1:
        builder.clauses.append(selectors)

    def add(clause: list[int]) -> None:
        if clause:
            builder.clauses.append(clause)
        else:
            builder.contradiction()

    open_cells = [(i, cell) for i, cell in enumerate(cells) if indices[i] not in fixed]
    for s, (allowed, between, inside) in zip(selectors, live, strict=True):
        unless = [-s] if s else []
        for i, cell in open_cells:
            for d in builder.domains[indices[i]]:
                if d not in allowed[i]:
                    add([*unless, -builder.var(cell, d)])
        for d in between:
            if any(fixed.get(indices[i]) == d for i in inside):
                continue
            holders = [
                builder.var(cells[i], d)
                for i in inside
                if indices[i] not in fixed and builder.has(cells[i], d)
            ]
            add(unless + holders)
    if len(live) > 1:
        for i, cell in open_cells:
            for d in builder.domains[indices[i]]:
                support = [
                    s for s, layout in zip(selectors, live, strict=True) if d in layout[0][i]
                ]
                add([-builder.var(cell, d), *support])


def _live_layouts(builder: _Builder, sandwich: Sandwich, fixed: dict[int, int]) -> list[_Layout]:
    """The sandwich's layouts in which every cell's domain (or given) meets what it allows."""
    n = builder.n
    indices = [r * n + c for r, c in sandwich.cells]
    domains = [{fixed[i]} if i in fixed else set(builder.domains[i]) for i in indices]
    live: list[_Layout] = []
    for (p_low, p_high, between), allowed in zip(
        sandwich.layouts(n), sandwich.layout_digits(n), strict=True
    ):
        if all(digits & domain for digits, domain in zip(allowed, domains, strict=True)):
            first, last = sorted((p_low, p_high))
            live.append((allowed, between, range(first + 1, last)))
    return live


def _differ(builder: _Builder, a: Cell, b: Cell, fixed: dict[int, int]) -> None:
    """Cells `a` and `b` hold different digits: one binary clause per shared digit."""
    n = builder.n
    ia, ib = a[0] * n + a[1], b[0] * n + b[1]
    for d in range(1, n + 1):
        lits = []
        for cell, i in ((a, ia), (b, ib)):
            if i in fixed:
                if fixed[i] != d:
                    break  # the given holds another digit: nothing to forbid
            elif builder.has(cell, d):
                lits.append(-builder.var(cell, d))
            else:
                break  # this cell cannot hold d anyway
        else:
            if lits:
                builder.clauses.append(lits)
            else:
                builder.contradiction()


def dimacs(formula: CnfFormula, comments: Sequence[str] = ()) -> str:
    """The formula in DIMACS CNF, with `c` comment lines first."""
    if formula.atmost:
        raise PuzzleError("native at-most-one constraints have no DIMACS form; pick another --amo")
    lines = [f"c {text}".rstrip() for comment in comments for text in comment.splitlines()]
    lines.append(f"p cnf {formula.num_vars} {len(formula.clauses)}")
    lines.extend(" ".join(map(str, clause)) + " 0" for clause in formula.clauses)
    return "\n".join(lines) + "\n"


def header_comments(puzzle: Puzzle, formula: CnfFormula, source: str | None = None) -> list[str]:
    """The comment header of an exported formula: puzzle, shape, rules, encoding, numbering."""
    from satsudoku.io import format_line  # io imports puzzle; keep this module's imports light

    n = puzzle.size
    lines = [
        "satsudoku CNF export",
        f"puzzle: {format_line(puzzle.givens, puzzle.symbols)}",
    ]
    if source or puzzle.origin:
        lines.append(f"source: {source or puzzle.origin}")
    if puzzle.title:
        lines.append(f"title: {puzzle.title}")
    lines += [
        f"shape: {puzzle.shape.describe()}",
        f"rules: {', '.join(puzzle.rule_names())}",
        f"encoding: {formula.encoding.value} (at-most-one: {formula.amo.value})",
        f"numbering: var(r, c, d) = (r-1)*{n * n} + (c-1)*{n} + d for 1 <= r, c, d <= {n}; "
        f"variables above {n**3} are auxiliary",
        f"variables: {formula.num_vars}, clauses: {len(formula.clauses)}",
    ]
    if formula.encoding is Encoding.REDUCED:
        lines.append("reduced: givens and the digits they rule out have no clauses")
    else:
        lines.append("givens: unit clauses at the end")
    return lines
