"""0-1 integer programs of a puzzle (Bartlett et al., "An Integer Programming Model for the
Sudoku Problem", 2008): one binary per (cell, digit), built in OR-Tools MathOpt once per shape
and rules; givens are variable bounds and no-good cuts are rows, both swapped per puzzle.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ortools.math_opt.python import mathopt

from satsudoku.constraints import (
    CORE_KINDS,
    AllDifferent,
    Automaton,
    Constraint,
    Contains,
    DigitSets,
    Sandwich,
    State,
    Sum,
    Table,
    TableTooLargeError,
    lower,
)
from satsudoku.deadline import BuildCache, check
from satsudoku.encoders.domains import allowed_domains, given_conflict
from satsudoku.encoders.house_sums import folded_constraints
from satsudoku.errors import PuzzleError
from satsudoku.grid import Digit, Grid, Shape, cell_name
from satsudoku.puzzle import Puzzle
from satsudoku.rules import Rule

NATIVE_KINDS: tuple[type, ...] = (*CORE_KINDS, DigitSets, Sum, Sandwich, Contains, Automaton)

# Tables of three or more cells cost one binary per tuple. Measured: MathOpt adds ~90,000
# binaries a second from Python, and the solvers' presolve grows with them, so a model stops
# at this many selectors (cages and sandwiches take one per digit set or layout, sums none).
MAX_SELECTORS = 50_000


@dataclass
class MipEncoding:
    """A MathOpt model of one shape + rule set; `x[i*n + d-1]` means "cell `i` holds `d`".

    Not thread-safe: `set_givens` and the cuts mutate the shared model.
    """

    size: int
    model: mathopt.Model
    x: list[mathopt.Variable]
    domains: list[frozenset[Digit]]  # per cell: the digits its Allowed constraints leave
    selectors: int  # tuple and layout binaries beyond the n³ cell-digit ones
    _fixed: list[mathopt.Variable] = field(default_factory=list)

    def conflict(self, givens: Grid) -> str | None:
        """Why these givens cannot be posted as bounds (lower 1 above upper 0), or None."""
        return given_conflict(self.domains, givens)

    def set_givens(self, givens: Grid) -> None:
        """Fix each given by a lower bound of 1, releasing the previous puzzle's; the cell's
        sum-to-one row then clears its other digits. Check `conflict(givens)` first."""
        for var in self._fixed:
            var.lower_bound = 0
        n = self.size
        self._fixed = [self.x[i * n + v - 1] for i, v in enumerate(givens.values) if v]
        for var in self._fixed:
            var.lower_bound = 1

    def decode(self, values: Sequence[float]) -> Grid:
        """The grid in the solver's values of `x` (a binary counts as set above 0.5)."""
        n = self.size
        digits = [0] * (n * n)
        for var, value in enumerate(values):
            if value > 0.5:
                digits[var // n] = var % n + 1
        return Grid(n, tuple(digits))

    def add_cut(self, grid: Grid, givens: Grid) -> mathopt.LinearConstraint:
        """The no-good "some open cell differs from `grid`": Σ x[open cell, its digit] ≤ open−1.

        Givens stay out of the sum: their variables are fixed, so they add nothing but rows.
        """
        n = self.size
        chosen = [self.x[i * n + v - 1] for i, v in enumerate(grid.values) if not givens.values[i]]
        return self.model.add_linear_constraint(mathopt.fast_sum(chosen) <= len(chosen) - 1)


def build(shape: Shape, rules: Sequence[Rule] = (), deadline: float | None = None) -> MipEncoding:
    """A fresh model of `shape` and `rules`, no givens yet; OutOfTime once `deadline` passes."""
    n = shape.size
    native = lower(Puzzle.empty(shape, rules).constraints(), shape, NATIVE_KINDS, deadline)
    constraints = folded_constraints(native, n)  # whole houses in sums: their totals
    domains = allowed_domains(constraints, n)
    for constraint in constraints:
        if isinstance(constraint, DigitSets):  # no cage cell holds a digit of no fitting set
            union = frozenset().union(*_on_board(constraint, n))
            for r, c in constraint.cells:
                domains[r * n + c] &= union
    builder = _Builder(shape, domains, deadline)
    builder.groups = {frozenset(c.cells) for c in constraints if isinstance(c, AllDifferent)}
    for constraint in constraints:
        check(deadline)
        builder.post(constraint)
    return MipEncoding(n, builder.model, builder.x, domains, builder.selectors)


_MODELS: BuildCache[MipEncoding] = BuildCache()


def encoding_for(puzzle: Puzzle, deadline: float | None = None) -> MipEncoding:
    """The shared model for the puzzle's shape and rules (built once per process);
    OutOfTime if `deadline` passes while it is built."""
    key = (puzzle.shape, puzzle.rules)
    try:
        hash(key)
    except TypeError:  # a user rule that is not hashable: build afresh
        return build(puzzle.shape, puzzle.rules, deadline)
    return _MODELS.get(key, lambda: build(puzzle.shape, puzzle.rules, deadline))


def _on_board(cage: DigitSets, size: int) -> list[frozenset[int]]:
    """The fitting sets whose digits all exist on a board of `size` (others can never fit)."""
    return [digits for digits in cage.fitting_sets() if max(digits, default=0) <= size]


class _Builder:
    """Posts each constraint kind as linear rows over the one-hot cell-digit binaries."""

    def __init__(
        self, shape: Shape, domains: Sequence[frozenset[Digit]], deadline: float | None
    ) -> None:
        self.n = n = shape.size
        self.deadline = deadline
        self.model = mathopt.Model(name="satsudoku")
        self.x: list[mathopt.Variable] = []
        self.selectors = 0
        self.groups: set[frozenset[tuple[int, int]]] = set()  # cells of the AllDifferents
        for index, digits in enumerate(domains):
            check(deadline)
            name = cell_name(divmod(index, n))
            for digit in range(1, n + 1):
                # A digit its rules forbid stays as a variable fixed to 0: the numbering stays
                # dense, and `conflict()` reports a given there before any bound is set.
                upper = 1.0 if digit in digits else 0.0
                self.x.append(
                    self.model.add_variable(lb=0, ub=upper, is_integer=True, name=f"{name}={digit}")
                )
            self.model.add_linear_constraint(mathopt.fast_sum(self.x[-n:]) == 1)

    def lit(self, cell: tuple[int, int], digit: Digit) -> mathopt.Variable:
        r, c = cell
        return self.x[(r * self.n + c) * self.n + digit - 1]

    def post(self, constraint: Constraint) -> None:
        if isinstance(constraint, AllDifferent):
            self._all_different(constraint.cells)
        elif isinstance(constraint, Table):
            self._table(constraint)
        elif isinstance(constraint, DigitSets):
            self._digit_sets(constraint)
        elif isinstance(constraint, Sum):
            self._sum(constraint)
        elif isinstance(constraint, Sandwich):
            self._all_different(constraint.cells)
            self._sandwich(constraint)
        elif isinstance(constraint, Contains):
            self._contains(constraint)
        elif isinstance(constraint, Automaton):
            if constraint.distinct and frozenset(constraint.cells) not in self.groups:
                self.groups.add(frozenset(constraint.cells))
                self._all_different(constraint.cells)
            self._automaton(constraint)
        # Allowed is already in the variable bounds.

    def _row(self, terms: Sequence[mathopt.Variable], *, lb: float, ub: float) -> None:
        self.model.add_linear_constraint(lb=lb, ub=ub, expr=mathopt.fast_sum(terms))

    def _all_different(self, scope: Sequence[tuple[int, int]]) -> None:
        """Assignment rows: each digit at most once, exactly once in a house of n cells."""
        cells = list(dict.fromkeys(scope))
        lower_bound = 1.0 if len(cells) == self.n else 0.0  # pigeonhole: a full house has all
        for digit in range(1, self.n + 1):
            self._row([self.lit(cell, digit) for cell in cells], lb=lower_bound, ub=1)

    def _new_selectors(self, count: int, what: object) -> list[mathopt.Variable]:
        self.selectors += count
        if self.selectors > MAX_SELECTORS:
            raise TableTooLargeError(
                f"{what} brings the MIP model to {self.selectors:,} selector binaries "
                f"(limit {MAX_SELECTORS:,}); use --backend sat or cpsat for it"
            )
        return [self.model.add_binary_variable() for _ in range(count)]

    def _table(self, table: Table) -> None:
        """Two cells: support rows, no new variables; more: one selector per tuple."""
        n = self.n
        rows = sorted(t for t in table.tuples if all(1 <= d <= n for d in t))
        if len(table.cells) == 2:
            self._binary_table(table.cells[0], table.cells[1], rows)
            return
        # x[cell p, d] = Σ selectors whose tuple has d at p. Summed over d this gives
        # Σ selectors = 1 (each cell holds one digit), so exactly one tuple is chosen.
        selectors = self._new_selectors(len(rows), table)
        for position, cell in enumerate(table.cells):
            check(self.deadline)
            supports: dict[Digit, list[mathopt.Variable]] = {}
            for selector, row in zip(selectors, rows, strict=True):
                supports.setdefault(row[position], []).append(selector)
            for digit in range(1, n + 1):
                chosen = supports.get(digit, [])
                self.model.add_linear_constraint(
                    mathopt.fast_sum(chosen) - self.lit(cell, digit) == 0
                )

    def _binary_table(
        self, first: tuple[int, int], second: tuple[int, int], rows: Sequence[tuple[int, ...]]
    ) -> None:
        """x[first, a] ≤ Σ x[second, b] over the pairs (a, b), and the mirror rows.

        Exact over one-hot cells (holding a forces a partner), and its LP relaxation is as
        tight as the selector form's, without n² binaries for a kropki dot or thermometer step.
        Pairs, Less and other two-cell rules arrive here as their tables.
        """
        partners: dict[Digit, set[Digit]] = {}
        backers: dict[Digit, set[Digit]] = {}
        for a, b in rows:
            partners.setdefault(a, set()).add(b)
            backers.setdefault(b, set()).add(a)
        for digit in range(1, self.n + 1):
            self._support(self.lit(first, digit), second, partners.get(digit, set()))
            self._support(self.lit(second, digit), first, backers.get(digit, set()))

    def _support(self, var: mathopt.Variable, cell: tuple[int, int], digits: set[Digit]) -> None:
        """var ≤ Σ x[cell, d in digits], written over the shorter side: since Σ_d x[cell, d]
        = 1, it is the same as var + Σ x[cell, d not in digits] ≤ 1, and a nonconsecutive or
        kropki pair needs 3 terms instead of n − 1."""
        others = [d for d in range(1, self.n + 1) if d not in digits]
        if len(others) < len(digits):
            terms = [var, *(self.lit(cell, d) for d in others)]
            self.model.add_linear_constraint(mathopt.fast_sum(terms) <= 1)
        else:
            support = [self.lit(cell, d) for d in sorted(digits)]
            self.model.add_linear_constraint(var - mathopt.fast_sum(support) <= 0)

    def _digit_sets(self, cage: DigitSets) -> None:
        """All different, digits within the fitting sets' union (in the bounds), and with
        several sets a selector each: Σ_cells x[cell, d] = Σ selectors of the sets holding d.

        Exact: each digit appears at most once, so digit d is in the cage iff its set is the
        chosen one, and k different digits of one k-set fill the k cells.
        """
        self._all_different(cage.cells)
        sets = _on_board(cage, self.n)
        if len(sets) <= 1:  # one set: the union bounds and all-different already say it all
            return
        selectors = self._new_selectors(len(sets), cage)
        self.model.add_linear_constraint(mathopt.fast_sum(selectors) == 1)
        cells = list(dict.fromkeys(cage.cells))
        for digit in sorted(frozenset().union(*sets)):
            holders = [self.lit(cell, digit) for cell in cells]
            chosen = [s for s, digits in zip(selectors, sets, strict=True) if digit in digits]
            self.model.add_linear_constraint(
                mathopt.fast_sum(holders) - mathopt.fast_sum(chosen) == 0
            )

    def _sum(self, constraint: Sum) -> None:
        """Σ_cells w · Σ_d d·x[cell, d] = total; distinct positions share no digit.

        Rows are doubles: a total no digits can reach is posted as the empty row 0 = 1, and
        sums whose reachable range passes 2^53 (where doubles skip integers) are refused.
        """
        weights = constraint.coefficients()
        low = sum(min(w, w * self.n) for w in weights)
        high = sum(max(w, w * self.n) for w in weights)
        if not low <= constraint.total <= high:
            self._row([], lb=1, ub=1)
            return
        if max(-low, high) > 2**53:
            raise PuzzleError(
                f"{constraint}: sums past 2^53 are beyond the MIP backend's floating-point rows; "
                "use --backend sat or cpsat"
            )
        terms = [
            w * d * self.lit(cell, d)
            for w, cell in zip(weights, constraint.cells, strict=True)
            for d in range(1, self.n + 1)
        ]
        self.model.add_linear_constraint(mathopt.fast_sum(terms) == constraint.total)
        for a, b in constraint.distinct:
            # n rows a pair, a Python call each: a little killer clue over a whole 25x25 board
            # has 22,500 peer pairs, 31 s of rows past --timeout 3 before the clock was read.
            check(self.deadline)
            first, second = constraint.cells[a], constraint.cells[b]
            for d in range(1, self.n + 1):
                self._row([self.lit(first, d), self.lit(second, d)], lb=0, ub=1)

    def _sandwich(self, sandwich: Sandwich) -> None:
        """One selector per layout, exactly one chosen; a cell's digit needs a chosen layout
        that allows it there (x[cell, d] ≤ Σ such selectors), which also keeps the chosen
        layout's cells within their digits."""
        layouts = sandwich.layout_digits(self.n)
        selectors = self._new_selectors(len(layouts), sandwich)
        self.model.add_linear_constraint(mathopt.fast_sum(selectors) == 1)  # none: infeasible
        for position, cell in enumerate(sandwich.cells):
            check(self.deadline)
            for digit in range(1, self.n + 1):
                support = [
                    s
                    for s, allowed in zip(selectors, layouts, strict=True)
                    if digit in allowed[position]
                ]
                self.model.add_linear_constraint(
                    self.lit(cell, digit) - mathopt.fast_sum(support) <= 0
                )

    def _automaton(self, automaton: Automaton) -> None:
        """A path through the live layers: one binary per arc, x[cell i, d] = Σ arcs of layer
        i reading d (so one arc a layer), and into every inner state as many arcs as out of it.

        A 9×9 skyscraper clue takes at most 1,029 arcs where its Table took a binary per row
        (up to 118,124, past MAX_SELECTORS)."""
        layers = automaton.layers()
        if not layers.states[0]:
            self._row([], lb=1, ub=1)  # nothing is accepted
            return
        into: dict[State, list[mathopt.Variable]] = {}
        for i, arcs in enumerate(layers.arcs):
            check(self.deadline)
            chosen = self._new_selectors(len(arcs), automaton)
            reads, out, entering = layers.arc_groups(i, chosen)
            for digit in range(1, self.n + 1):
                terms = reads.get(digit, [])
                x = self.lit(automaton.cells[i], digit)
                self.model.add_linear_constraint(mathopt.fast_sum(terms) - x == 0)
            if i:
                for u in layers.states[i]:
                    self.model.add_linear_constraint(
                        mathopt.fast_sum(into[u]) - mathopt.fast_sum(out[u]) == 0
                    )
            into = entering

    def _contains(self, quad: Contains) -> None:
        """Each listed digit appears among the cells at least as often as it is listed."""
        for digit, times in Counter(quad.digits).items():
            holders = [self.lit(cell, digit) for cell in quad.cells] if 1 <= digit <= self.n else []
            self._row(holders, lb=times, ub=float("inf"))
