"""CP-SAT models of a puzzle: integer cells with AllDifferent per house, or one-hot Booleans.

A model depends only on shape and rules; givens live in the variable domains of
`model.Proto()`, so one model serves a whole batch of puzzles of one shape (`set_givens`).
Killer cages (`DigitSets`) are posted natively with one selector per fitting digit set (the cage
total as an extra linear equality measured slower on both models, so it is not posted); sums
(`Sum`) as one linear equality; sandwiches (`Sandwich`) by one selector per layout; automata
(`Automaton`) as CP-SAT's own automaton over the live layers (integer model) or a path of arcs
through them (Boolean model).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ortools.sat.python import cp_model

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
from satsudoku.deadline import BuildCache, check
from satsudoku.encoders.domains import allowed_domains, given_conflict
from satsudoku.encoders.house_sums import folded_constraints
from satsudoku.errors import PuzzleError
from satsudoku.grid import Digit, Grid, Shape, cell_name
from satsudoku.puzzle import Puzzle
from satsudoku.rules import Rule


class ModelKind(Enum):
    """How a cell's digit is represented in the CP-SAT model."""

    INTEGER = "integer"  # one IntVar per cell, AddAllDifferent per house
    BOOLEAN = "boolean"  # one BoolVar per (cell, digit), exactly-one per cell and house-digit


MODEL_NAMES = tuple(kind.value for kind in ModelKind)
NATIVE_KINDS: tuple[type, ...] = (*CORE_KINDS, DigitSets, Sum, Sandwich, Automaton)


def model_kind(name: str | ModelKind) -> ModelKind:
    """The model kind called `name`; a PuzzleError lists the choices otherwise."""
    if isinstance(name, ModelKind):
        return name
    try:
        return ModelKind(name)
    except ValueError:
        raise PuzzleError(
            f"unknown CP-SAT model {name!r}; choose from {', '.join(MODEL_NAMES)}"
        ) from None


@dataclass
class CpSatEncoding:
    """A CP-SAT model of one shape + rule set, with the bookkeeping to swap givens in and out.

    Cell variables come first in the proto, so a solution vector decodes without lookups:
    integer model, variable `i` is cell `i` (row-major); Boolean model, variable `i*n + d-1`
    means "cell `i` holds `d`". Not thread-safe: `set_givens` mutates the shared proto.
    """

    kind: ModelKind
    size: int
    model: cp_model.CpModel
    domains: list[frozenset[Digit]]  # per cell: the digits its Allowed constraints leave
    base: dict[int, list[int]]  # flattened proto domain of every cell variable, no givens
    _fixed: list[int] = field(default_factory=list)  # variables the last `set_givens` narrowed

    def conflict(self, givens: Grid) -> str | None:
        """Why these givens cannot be posted as domains, or None when they can."""
        return given_conflict(self.domains, givens)

    def set_givens(self, givens: Grid) -> None:
        """Fix every given through its variable's domain, undoing the previous puzzle's givens.

        Check `conflict(givens)` first: a given outside its cell's domain would widen it.
        """
        variables = self.model.Proto().variables  # never IntVar.Proto(): 9.15 crashes at exit
        for var in self._fixed:
            _set_domain(variables[var].domain, self.base[var])
        n = self.size
        fixed: list[int] = []
        for index, value in enumerate(givens.values):
            if not value:
                continue
            if self.kind is ModelKind.INTEGER:
                var, bounds = index, [value, value]
            else:
                var, bounds = index * n + value - 1, [1, 1]  # exactly-one clears the others
            _set_domain(variables[var].domain, bounds)
            fixed.append(var)
        self._fixed = fixed

    def decode(self, values: Sequence[int]) -> Grid:
        """The grid in a CP-SAT solution vector (`response.solution`)."""
        n = self.size
        cells = n * n
        if self.kind is ModelKind.INTEGER:
            return Grid(n, tuple(values[:cells]))
        digits = [0] * cells
        for var in range(cells * n):
            if values[var]:
                digits[var // n] = var % n + 1
        return Grid(n, tuple(digits))

    def text(self) -> str:
        """The model, with the current givens, as a CP-SAT text proto."""
        return str(self.model.Proto())


def _set_domain(domain: Any, bounds: Sequence[int]) -> None:
    domain.clear()
    domain.extend(bounds)


def build(
    shape: Shape,
    rules: Sequence[Rule] = (),
    kind: str | ModelKind = "integer",
    deadline: float | None = None,
) -> CpSatEncoding:
    """A fresh model of `shape` and `rules`, with no givens posted yet.

    OutOfTime once `deadline` has passed: a 64×64 Boolean model takes seconds to build.
    """
    kind = model_kind(kind)
    native = lower(Puzzle.empty(shape, rules).constraints(), shape, NATIVE_KINDS, deadline)
    n = shape.size
    constraints = folded_constraints(_split_cages(native, shape), n)
    domains = allowed_domains(constraints, n)
    builder = _IntegerBuilder if kind is ModelKind.INTEGER else _BooleanBuilder
    model = builder(shape, domains, deadline).post(constraints)
    variables = model.Proto().variables
    cell_vars = n * n if kind is ModelKind.INTEGER else n * n * n
    base: dict[int, list[int]] = {}
    for var in range(cell_vars):
        if not var & 4095:
            check(deadline)
        base[var] = list(variables[var].domain)
    return CpSatEncoding(kind, n, model, domains, base)


_MODELS: BuildCache[CpSatEncoding] = BuildCache()


def encoding_for(
    puzzle: Puzzle, kind: str | ModelKind = "integer", deadline: float | None = None
) -> CpSatEncoding:
    """The shared model for the puzzle's shape and rules (built once per process and kind);
    OutOfTime if `deadline` passes while it is built."""
    kind = model_kind(kind)
    key = (puzzle.shape, puzzle.rules, kind)
    try:
        hash(key)
    except TypeError:  # a user rule that is not hashable: build afresh
        return build(puzzle.shape, puzzle.rules, kind, deadline)
    return _MODELS.get(key, lambda: build(puzzle.shape, puzzle.rules, kind, deadline))


def model_text(puzzle: Puzzle, model: str = "integer") -> str:
    """The puzzle's CP-SAT model (givens as fixed domains) as a text proto, for other tools."""
    encoding = build(puzzle.shape, puzzle.rules, model)
    if reason := encoding.conflict(puzzle.givens):
        raise PuzzleError(f"cannot write a CP-SAT model: {reason}")
    encoding.set_givens(puzzle.givens)
    return encoding.text()


def _on_board(cage: DigitSets, size: int) -> list[frozenset[int]]:
    """The fitting sets whose digits all exist on a board of `size` (others can never fit)."""
    return [digits for digits in cage.fitting_sets() if max(digits, default=0) <= size]


def _split_cages(core: Sequence[Constraint], shape: Shape) -> list[Constraint]:
    """Each `DigitSets` as its AllDifferent and union domains, followed by itself (for the
    selectors of several fitting sets); each `Sandwich` as its AllDifferent and itself; each
    `distinct` `Automaton` after its AllDifferent, unless a group on its cells has one."""
    every = frozenset(range(1, shape.size + 1))
    out: list[Constraint] = []
    groups = {frozenset(c.cells) for c in core if isinstance(c, AllDifferent)}
    for constraint in core:
        if isinstance(constraint, Automaton) and constraint.distinct:
            if frozenset(constraint.cells) not in groups:
                groups.add(frozenset(constraint.cells))
                out.append(AllDifferent(constraint.cells))
        if isinstance(constraint, Sandwich):
            out.append(AllDifferent(constraint.cells))
        if isinstance(constraint, DigitSets):
            union = frozenset().union(*_on_board(constraint, shape.size))
            out.append(AllDifferent(constraint.cells))
            if union != every:
                out.extend(Allowed(cell, union) for cell in constraint.cells)
        out.append(constraint)
    return out


class _IntegerBuilder:
    """Cells as IntVars whose domains are their allowed digits."""

    def __init__(
        self, shape: Shape, domains: Sequence[frozenset[Digit]], deadline: float | None = None
    ) -> None:
        self.deadline = deadline  # checked per cell and per constraint
        self.model = cp_model.CpModel()
        n = shape.size
        self.n = n
        self.cells: list[cp_model.IntVar] = []
        for index, digits in enumerate(domains):
            check(deadline)
            # An empty domain is not a valid proto; `conflict()` reports such a cell instead.
            domain = cp_model.Domain.from_values(sorted(digits or {1}))
            name = cell_name(divmod(index, n))
            self.cells.append(self.model.new_int_var_from_domain(domain, name))

    def post(self, constraints: Sequence[Constraint]) -> cp_model.CpModel:
        n = self.n
        for constraint in constraints:
            check(self.deadline)
            if isinstance(constraint, AllDifferent):
                self.model.add_all_different([self.cells[r * n + c] for r, c in constraint.cells])
            elif isinstance(constraint, Table):
                scope = [self.cells[r * n + c] for r, c in constraint.cells]
                self.model.add_allowed_assignments(scope, sorted(constraint.tuples))
            elif isinstance(constraint, DigitSets):
                self._digit_sets(constraint)
            elif isinstance(constraint, Sum):
                self._sum(constraint)
            elif isinstance(constraint, Sandwich):
                self._sandwich(constraint)
            elif isinstance(constraint, Automaton):
                self._automaton(constraint)
        return self.model

    def _automaton(self, automaton: Automaton) -> None:
        """A state variable per layer and, per cell, the table of its layer's arcs (state,
        digit, next state): a chain of tables, arc consistent as a whole.

        CP-SAT's own `add_automaton` expands into much the same in presolve, which the backend
        leaves off (`--presolve`): without it, counting the published 6×6's solutions took
        2 M branches and 15 s against 0.01 s for these tables.
        """
        n = self.n
        layers = automaton.layers()
        if not layers.states[0]:
            self.model.add_bool_or([])  # nothing is accepted
            return
        states = [
            self.model.new_int_var(0, len(layer) - 1, "") if len(layer) > 1 else None
            for layer in layers.states
        ]
        number = [{u: j for j, u in enumerate(layer)} for layer in layers.states]
        for i, arcs in enumerate(layers.arcs):
            r, c = automaton.cells[i]
            triple = (states[i], self.cells[r * n + c], states[i + 1])  # None: one state only
            scope = [var for var in triple if var is not None]
            rows = [
                tuple(
                    value
                    for value, var in zip((number[i][u], d, number[i + 1][v]), triple, strict=True)
                    if var is not None
                )
                for u, d, v in arcs
            ]
            self.model.add_allowed_assignments(scope, sorted(set(rows)))

    def _sandwich(self, sandwich: Sandwich) -> None:
        """One selector per layout, enforcing each cell's digits under it; exactly one holds.

        Measured against CP-SAT's own `add_automaton` over (phase, sum so far) states, median
        of 5 interleaved runs: search time 0.02-0.10 s vs 0.03-0.22 s on three 9×9 puzzles.
        """
        n = self.n
        cells = [self.cells[r * n + c] for r, c in sandwich.cells]
        layouts = sandwich.layout_digits(n)
        selectors = _one_selector_each(self.model, layouts)
        for selector, allowed in zip(selectors, layouts, strict=True):
            for cell, digits in zip(cells, allowed, strict=True):
                domain = cp_model.Domain.from_values(sorted(digits))
                self.model.add_linear_expression_in_domain(cell, domain).only_enforce_if(selector)

    def _digit_sets(self, cage: DigitSets) -> None:
        """Per fitting set a selector that, when chosen, keeps every cell within the set; one
        is chosen.

        The AllDifferent and the union domains are posted separately (`_split_cages`).
        """
        n = self.n
        cells = [self.cells[r * n + c] for r, c in dict.fromkeys(cage.cells)]
        sets = _on_board(cage, self.n)
        if len(sets) > 1:
            selectors = [self.model.new_bool_var("") for _ in sets]
            self.model.add_exactly_one(selectors)  # k different digits fit only one k-set
            for selector, digits in zip(selectors, sets, strict=True):
                domain = cp_model.Domain.from_values(sorted(digits))
                for cell in cells:
                    self.model.add_linear_expression_in_domain(cell, domain).only_enforce_if(
                        selector
                    )

    def _sum(self, constraint: Sum) -> None:
        """One linear equality over the cell values, and the distinct pairs."""
        n = self.n
        cells = [self.cells[r * n + c] for r, c in constraint.cells]
        terms = zip(constraint.coefficients(), cells, strict=True)
        self.model.add(sum(w * cell for w, cell in terms) == constraint.total)
        for a, b in constraint.distinct:
            self.model.add(cells[a] != cells[b])


class _BooleanBuilder:
    """Cells as one-hot BoolVars: the classic SAT view, posted as CP-SAT cardinality constraints."""

    def __init__(
        self, shape: Shape, domains: Sequence[frozenset[Digit]], deadline: float | None = None
    ) -> None:
        self.deadline = deadline  # checked per cell and per constraint
        self.model = cp_model.CpModel()
        n = shape.size
        self.n = n
        self.lits: list[cp_model.IntVar] = []
        variables = self.model.Proto().variables
        for index, digits in enumerate(domains):
            check(deadline)
            name = cell_name(divmod(index, n))
            for digit in range(1, n + 1):
                lit = self.model.new_bool_var(f"{name}={digit}")
                if digit not in digits:  # fixed to 0, not left out: keeps the numbering dense
                    _set_domain(variables[lit.index].domain, [0, 0])
                self.lits.append(lit)
        for index in range(n * n):
            self.model.add_exactly_one(self.lits[index * n : (index + 1) * n])

    def lit(self, r: int, c: int, digit: Digit) -> cp_model.IntVar:
        return self.lits[(r * self.n + c) * self.n + digit - 1]

    def post(self, constraints: Sequence[Constraint]) -> cp_model.CpModel:
        n = self.n
        for constraint in constraints:
            check(self.deadline)
            if isinstance(constraint, AllDifferent):
                cells = dict.fromkeys(constraint.cells)
                for digit in range(1, n + 1):
                    lits = [self.lit(r, c, digit) for r, c in cells]
                    if len(cells) == n:  # pigeonhole: a full house holds every digit once
                        self.model.add_exactly_one(lits)
                    else:
                        self.model.add_at_most_one(lits)
            elif isinstance(constraint, Table):
                self._table(constraint)
            elif isinstance(constraint, DigitSets):
                self._digit_sets(constraint)
            elif isinstance(constraint, Sum):
                self._sum(constraint)
            elif isinstance(constraint, Sandwich):
                self._sandwich(constraint)
            elif isinstance(constraint, Automaton):
                self._automaton(constraint)
        return self.model

    def _automaton(self, automaton: Automaton) -> None:
        """One Boolean per live arc: exactly one per layer, a cell holds d iff an arc of its
        layer reads d, and into every inner state as many arcs as out of it (a path)."""
        layers = automaton.layers()
        if not layers.states[0]:
            self.model.add_bool_or([])
            return
        into: dict[State, list[cp_model.IntVar]] = {}
        for i, arcs in enumerate(layers.arcs):
            r, c = automaton.cells[i]
            chosen = [self.model.new_bool_var("") for _ in arcs]
            self.model.add_exactly_one(chosen)
            reads, out, entering = layers.arc_groups(i, chosen)
            for digit in range(1, self.n + 1):
                self.model.add(sum(reads.get(digit, [])) == self.lit(r, c, digit))
            if i:
                for u in layers.states[i]:
                    self.model.add(sum(into[u]) == sum(out[u]))
            into = entering

    def _sandwich(self, sandwich: Sandwich) -> None:
        """The SAT encoder's layout selectors: each implies its cells' digits, exactly one
        holds, and a cell's digit needs a selected layout that allows it (supports).

        Measured against `add_automaton` over integer views of the cells, median of 5
        interleaved runs: search time 0.03 s vs 0.07-0.28 s on three 9×9 puzzles.
        """
        cells = sandwich.cells
        layouts = sandwich.layout_digits(self.n)
        selectors = _one_selector_each(self.model, layouts)
        for selector, allowed in zip(selectors, layouts, strict=True):
            for (r, c), digits in zip(cells, allowed, strict=True):
                for digit in range(1, self.n + 1):
                    if digit not in digits:
                        self.model.add_implication(selector, ~self.lit(r, c, digit))
        for position, (r, c) in enumerate(cells):
            for digit in range(1, self.n + 1):
                support = [
                    s
                    for s, allowed in zip(selectors, layouts, strict=True)
                    if digit in allowed[position]
                ]
                self.model.add_bool_or([~self.lit(r, c, digit), *support])

    def _digit_sets(self, cage: DigitSets) -> None:
        """The SAT encoder's selectors (one per fitting set: no digit outside it, each of its
        digits somewhere, one set chosen).

        The AllDifferent and the union domains are posted separately (`_split_cages`).
        """
        cells = list(dict.fromkeys(cage.cells))
        sets = _on_board(cage, self.n)
        union = frozenset().union(*sets)
        if len(sets) > 1:
            selectors = [self.model.new_bool_var("") for _ in sets]
            self.model.add_exactly_one(selectors)  # k different digits fit only one k-set
            for selector, digits in zip(selectors, sets, strict=True):
                for r, c in cells:
                    for digit in sorted(union - digits):
                        self.model.add_implication(selector, ~self.lit(r, c, digit))
                for digit in sorted(digits):
                    holders = [self.lit(r, c, digit) for r, c in cells]
                    self.model.add_bool_or([~selector, *holders])

    def _sum(self, constraint: Sum) -> None:
        """Σ_c Σ_d w_c·d·[c holds d] == total, and a binary clause per distinct pair and digit."""
        terms = [
            w * d * self.lit(r, c, d)
            for w, (r, c) in zip(constraint.coefficients(), constraint.cells, strict=True)
            for d in range(1, self.n + 1)
        ]
        self.model.add(sum(terms) == constraint.total)
        for a, b in constraint.distinct:
            (ra, ca), (rb, cb) = constraint.cells[a], constraint.cells[b]
            for d in range(1, self.n + 1):
                self.model.add_bool_or([~self.lit(ra, ca, d), ~self.lit(rb, cb, d)])

    def _table(self, table: Table) -> None:
        """Support encoding: one selector per tuple, exactly one chosen, each implying its digits.

        The reverse implications (a digit needs a selected tuple that supports it) make unit
        propagation on the selectors as strong as arc consistency on the table (Bacchus 2007).
        """
        rows = sorted(table.tuples)
        selectors = [self.model.new_bool_var("") for _ in rows]
        self.model.add_exactly_one(selectors)
        for position, (r, c) in enumerate(table.cells):
            supports: dict[Digit, list[cp_model.IntVar]] = {}
            for selector, row in zip(selectors, rows, strict=True):
                supports.setdefault(row[position], []).append(selector)
                self.model.add_implication(selector, self.lit(r, c, row[position]))
            for digit in range(1, self.n + 1):
                self.model.add_bool_or([~self.lit(r, c, digit), *supports.get(digit, [])])


def _one_selector_each(model: cp_model.CpModel, options: Sequence[object]) -> list[Any]:
    """One Boolean per option, exactly one of them true (no option: the model is infeasible)."""
    selectors = [model.new_bool_var("") for _ in options]
    if selectors:
        model.add_exactly_one(selectors)
    else:
        model.add_bool_or([])
    return selectors
