"""Support lemmas: clauses RUP on the puzzle's formula, written once at the root of a bitmask
proof, after which unit propagation makes the deductions the kernel's propagators make.

Two kinds, both the support encoding's clauses (Gent 2002) derived from what the encoding
already says, so every one is RUP on the formula alone and the order does not matter:

- two-cell tables (`pair_supports`): ¬x(a, d) ∨ ⋁ x(b, e) over the partner digits e that d
  allows (assume x(a, d) and those x(b, e) false: the forbidden pairs falsify the rest of b's
  at-least-one clause);
- selector groups (`selector_supports`): an at-least-one clause over auxiliary variables
  s_1 ∨ … ∨ s_m (a cage's digit sets, a sandwich's layouts, a large table's tuples, a sum's
  last states), each s_j ruling out cell digits (binary ¬s_j ∨ ¬x, or ¬s_j ∨ x(c, e), which
  rules out c's other digits) and needing some of a set P of cell digits (¬s_j ∨ P). Then
  x → ⋁ {s_j not ruling x out}, s_j → ⋁ {the digits of c it leaves}, and P ∨ ⋁ {s_j not
  needing P} are RUP (assume the clause false: every other selector is ruled out, or the
  cell has no digit left, and the group's at-least-one clause is falsified).

A lemma unit propagation already gets from the formula (one selector or one digit left out)
is not written.

Sums' prefix-sum states (`encoders.cnf._sum`) get candidates (`state_supports`) whose RUP
argument rests on the whole layered structure, so the caller checks each before writing it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from satsudoku.encoders.cnf import Clause
from satsudoku.search.kernel import _Kernel


def pair_supports(kernel: _Kernel, givens: Sequence[int] = ()) -> Iterator[Clause]:
    """The support clauses of every two-cell table the kernel revises (`active`: pairs whose
    revision never goes beyond placing a partner need none), each once.

    With `givens` (flat cell -> digit, 0 if open), a clause the givens satisfy at level 0 is
    left out: ¬x(a, d) for a given a not holding d (its cell's at-most-one clause), x(b, e) for
    a given b holding a partner e (its unit clause). Every unit propagation the checker or the
    search runs starts from those, where such a clause can never propagate; on 159 (1 node),
    1,728 support lemmas -> 1,314."""
    n, bits = kernel.n, kernel.bit
    given = list(givens) or [0] * (n * n)
    # Per relation (pairs with the same table share one, a board of nonconsecutive pairs has
    # one): the digits d that rule out two partner digits or more, with the partners they
    # allow, and a number per distinct such list, so that a relation posted twice on the same
    # cells (or a reversed copy of one) is written once.
    shapes: dict[int, tuple[int, tuple[tuple[int, int, tuple[int, ...]], ...]]] = {}
    kinds: dict[tuple[tuple[int, int, tuple[int, ...]], ...], int] = {}
    seen: set[tuple[int, int, int]] = set()  # (a, b, kind) written
    units: set[int] = set()  # ¬x(a, d) for a digit no partner allows: every pair at a says it
    for pair in kernel.strong_pairs:
        for (a, b), supports in ((pair.cells, pair.of_first), (pair.cells[::-1], pair.of_second)):
            found = shapes.get(id(supports))
            if found is None:
                shape = _shape(kernel, supports)
                found = shapes[id(supports)] = (kinds.setdefault(shape, len(kinds)), shape)
            kind, shape = found
            if (a, b, kind) in seen:
                continue
            seen.add((a, b, kind))
            at_a, at_b = given[a], given[b]
            base_a, base_b = a * n, b * n
            for d, allowed, partners in shape:
                if at_a and at_a != d:
                    continue  # ¬x(a, d) holds at level 0
                if at_b and allowed & bits[at_b - 1]:
                    continue  # x(b, at_b) holds at level 0 and is in the clause
                if partners:
                    yield [-(base_a + d), *[base_b + e for e in partners]]
                elif base_a + d not in units:
                    units.add(base_a + d)
                    yield [-(base_a + d)]


def _shape(
    kernel: _Kernel, supports: dict[int, int]
) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """A relation's support clauses, cells left out: (d, its partners' bits, the partners) for
    each digit d that rules out two partner digits or more (one is its binary clause)."""
    n, full, bits = kernel.n, kernel.full, kernel.bit
    found = []
    for d in range(1, n + 1):
        allowed = supports[bits[d - 1]]
        missing = full & ~allowed
        if missing & (missing - 1):
            found.append((d, allowed, tuple(e for e in range(1, n + 1) if allowed & bits[e - 1])))
    return tuple(found)


@dataclass
class Selectors:
    """What the formula says about its selector groups (see the module), read once."""

    n: int
    groups: list[Clause] = field(default_factory=list)  # at-least-one clauses of selectors
    rules: dict[int, dict[int, set[int]]] = field(default_factory=dict)  # s -> cell -> digits
    needs: dict[int, set[tuple[int, ...]]] = field(default_factory=dict)  # s -> P it needs
    false: set[int] = field(default_factory=set)  # cell digits ruled out by unit clauses


def read_selectors(clauses: Sequence[Clause], n: int) -> Selectors:
    """One pass over the formula: selector groups, what each selector rules out and needs."""
    top = n**3
    every = frozenset(range(1, n + 1))
    found = Selectors(n)
    rules, needs = found.rules, found.needs
    for clause in clauses:
        first = clause[0] if clause else 0
        if first > top:
            if len(clause) > 1 and all(lit > top for lit in clause):
                found.groups.append(clause)
        elif first < -top:
            rest = clause[1:]
            if len(rest) == 1 and 0 < -rest[0] <= top:
                cell, d = divmod(-rest[0] - 1, n)
                rules.setdefault(-first, {}).setdefault(cell, set()).add(d + 1)
            elif rest and all(0 < lit <= top for lit in rest):
                needs.setdefault(-first, set()).add(tuple(sorted(rest)))
                if len(rest) == 1:  # s → x(c, e): s rules out c's other digits
                    cell, d = divmod(rest[0] - 1, n)
                    ruled = rules.setdefault(-first, {}).setdefault(cell, set())
                    ruled.update(every - {d + 1})
        elif len(clause) == 1 and -top <= first < 0:
            found.false.add(-first)
    return found


def selector_supports(selectors: Selectors) -> Iterator[Clause]:
    """The support clauses of every group of selectors the encoding has (see the module)."""
    for group in selectors.groups:
        yield from _group_supports(
            group, selectors.rules, selectors.needs, selectors.false, selectors.n
        )


Cage = tuple[tuple[int, ...], set[frozenset[int]]]  # flat cells, digit sets


def covered_cages(selectors: Selectors, cages: Sequence[Cage]) -> bool:
    """Whether every cage (cells, digit sets) has a selector group with one selector per
    set, ruling out exactly the cage's other digits in every cell and needing each of its
    digits somewhere in the cage, and whether every digit outside the sets' union is ruled
    out at the root: then, with `selector_supports` written, unit propagation makes every
    deduction of the kernel's cage revision (a set dies when a placed digit is outside it,
    a digit of it has no cell or a cell has none of its digits; cells keep the union of the
    living sets; a digit all of them need goes to its only cell)."""
    n = selectors.n
    by_cells: dict[frozenset[int], list[Clause]] = {}
    for group in selectors.groups:
        ruled = frozenset(c for s in group for c in selectors.rules.get(s, {}))
        by_cells.setdefault(ruled, []).append(group)
    for cells, sets in cages:
        if len(sets) < 2:
            return False
        union = frozenset().union(*sets)
        members = frozenset(cells)
        if any(
            c * n + d not in selectors.false
            for c in members
            for d in range(1, n + 1)
            if d not in union
        ):
            return False
        if not any(
            _matches(selectors, group, members, sets, union) for group in by_cells.get(members, [])
        ):
            return False
    return True


Table = tuple[tuple[int, ...], set[tuple[int, ...]]]  # flat cells, digit rows


def covered_tables(selectors: Selectors, tables: Sequence[Table]) -> bool:
    """Whether every table (distinct cells, its rows of digits 1..n) has a selector group with
    one selector per row, each ruling out every other digit of each cell (¬s ∨ x(c, d)): the
    encoding of a table with more than 4,096 forbidden rows (a quadruple's). Then, with
    `selector_supports` written (x(c, d) → the selectors of the rows with d at c), unit
    propagation makes the kernel's table revision: a digit stays only while a row with it
    has every digit open, and no row left is a conflict (the group's at-least-one clause)."""
    by_cells: dict[frozenset[int], list[Clause]] = {}
    for group in selectors.groups:
        ruled = frozenset(c for s in group for c in selectors.rules.get(s, {}))
        by_cells.setdefault(ruled, []).append(group)
    for cells, rows in tables:
        if len(set(cells)) != len(cells) or not rows:
            return False
        if not any(
            _rows_match(selectors, g, cells, rows) for g in by_cells.get(frozenset(cells), [])
        ):
            return False
    return True


def _rows_match(
    selectors: Selectors, group: Clause, cells: tuple[int, ...], rows: set[tuple[int, ...]]
) -> bool:
    """Whether `group` has one selector per row of `rows` on `cells` (`covered_tables`)."""
    every = frozenset(range(1, selectors.n + 1))
    found: set[tuple[int, ...]] = set()
    for s in group:
        ruled = selectors.rules.get(s, {})
        if len(ruled) != len(cells):
            return False
        row = []
        for cell in cells:
            left = every - ruled.get(cell, every)
            if len(left) != 1:
                return False
            row.append(next(iter(left)))
        found.add(tuple(row))
    return len(found) == len(group) and found == rows


def _matches(
    selectors: Selectors,
    group: Clause,
    cells: frozenset[int],
    sets: set[frozenset[int]],
    union: frozenset[int],
) -> bool:
    """Whether `group` selects among `sets` on `cells` (see `covered_cages`)."""
    n = selectors.n
    found: set[frozenset[int]] = set()
    for s in group:
        ruled = selectors.rules.get(s, {})
        outs = {frozenset(ruled.get(c, ())) for c in cells}
        if len(outs) != 1:
            return False
        digits = union - next(iter(outs))
        if digits not in sets or digits in found:
            return False
        needs = selectors.needs.get(s, set())
        if any(tuple(sorted(c * n + d for c in cells)) not in needs for d in digits):
            return False
        found.add(digits)
    return found == sets


def _group_supports(
    group: Clause,
    rules: dict[int, dict[int, set[int]]],
    needs: dict[int, set[tuple[int, ...]]],
    false: set[int],
    n: int,
) -> Iterator[Clause]:
    """The lemmas of one selector group (`selector_supports`)."""
    m = len(group)
    ruling = [rules.get(s, {}) for s in group]
    cells = sorted({cell for ruled in ruling for cell in ruled})
    for cell in cells:  # x(c, d) → the selectors leaving d to c
        for d in range(1, n + 1):
            lit = cell * n + d
            if lit in false:
                continue
            keep = [
                s for s, ruled in zip(group, ruling, strict=True) if d not in ruled.get(cell, ())
            ]
            if len(keep) < m - 1:
                yield [-lit, *keep]
    for s, ruled in zip(group, ruling, strict=True):  # s → the digits it leaves each cell
        for cell, out in ruled.items():
            left = [cell * n + d for d in range(1, n + 1) if d not in out]
            left = [lit for lit in left if lit not in false]
            if len(out) > 1 and not (len(left) == 1 and (left[0],) in needs.get(s, ())):
                yield [-s, *left]
    parts = {part for s in group for part in needs.get(s, ())}
    for part in sorted(parts):  # P ∨ the selectors that do not need P
        keep = [s for s in group if part not in needs.get(s, ())]
        if len(keep) < m - 1:
            yield [*part, *keep]


def state_supports(clauses: Sequence[Clause], n: int) -> Iterator[Clause]:
    """Candidate supports of a layered sum, read from its transitions s ∧ x → t (clauses
    ¬s ∨ ¬x ∨ t): x → ⋁ {s it leaves} and x → ⋁ {t it reaches} (a digit needs a state
    before and after it), s → ⋁ {t} (a state needs a successor). With every other state of
    s's layer ruled out under x, the states after it lose their predecessors layer by layer
    up to the total, which then has none: RUP, when the layers are whole."""
    top = n**3
    before: dict[int, set[int]] = {}
    after: dict[int, set[int]] = {}
    onward: dict[int, set[int]] = {}
    for clause in clauses:
        if len(clause) == 3 and clause[0] < -top and -top <= clause[1] < 0 and clause[2] > top:
            state, lit, target = -clause[0], -clause[1], clause[2]
            before.setdefault(lit, set()).add(state)
            after.setdefault(lit, set()).add(target)
            onward.setdefault(state, set()).add(target)
    for lit, states in before.items():
        yield [-lit, *sorted(states)]
        yield [-lit, *sorted(after[lit])]
    for state, targets in onward.items():
        yield [-state, *sorted(targets)]


def triple_projections(kernel: _Kernel) -> Iterator[Clause]:
    """Candidate lemmas for the three-cell tables the kernel revises (between lines, entropic
    and modular runs), in an order where each is RUP once the earlier ones are written:

    - binary nogoods ¬x(p, d) ∨ ¬x(q, e) where no row has d at p and e at q (assume both: the
      third cell's every digit is forbidden with them, and its at-least-one clause fails);
    - unit nogoods ¬x(p, d) where no row has d at p (every partner at q is a nogood);
    - supports ¬x(p, d) ∨ ⋁ x(q, e) over the digits e some row pairs with d (the others are
      nogoods with d, so q's at-least-one clause fails when these are false).

    With them unit propagation makes the pairwise part of the kernel's arc consistency on the
    table, which the proof otherwise justified by branching (between: 612 refined nodes for a
    2-node search). Callers check each candidate before writing it: the kernel's rows are
    the table as the kernel holds it, not necessarily as the formula encodes it.
    """
    n = kernel.n
    digits = range(1, n + 1)
    nogoods: dict[tuple[int, ...], None] = {}
    units: dict[tuple[int, ...], None] = {}
    supports: dict[tuple[int, ...], None] = {}
    for _, step, table in kernel.active:
        if step != kernel._table or len(table.cells) != 3:
            continue
        rows = [tuple(map(kernel.digit, row)) for row in table.rows]
        cells = table.cells
        for p, q in ((0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)):
            partners: dict[int, set[int]] = {}
            for row in rows:
                partners.setdefault(row[p], set()).add(row[q])
            a, b = cells[p] * n, cells[q] * n
            for d in digits:
                found = partners.get(d, set())
                if not found:
                    units[(-(a + d),)] = None
                    continue
                if len(found) >= n - 1:
                    continue  # none or one partner ruled out: the nogood alone says it
                for e in digits:
                    if e not in found:
                        nogoods[tuple(sorted((-(a + d), -(b + e))))] = None
                supports[(-(a + d), *(b + e for e in sorted(found)))] = None
    for group in (nogoods, units, supports):
        for clause in group:
            yield list(clause)
