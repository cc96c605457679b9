"""Extension variables for three-cell tables (between and lockout lines, entropic and modular
runs): pair variables, so that unit propagation is the kernel's arc consistency on them.

The formula forbids a three-cell table's missing rows one ternary clause each, and the binary
projections (`supports.triple_projections`) give unit propagation only the pairwise part of
arc consistency: a digit whose partners at each other cell are all open, but no two of them
in one row, stays. So the proof defines, at its root, for two cells q, r of a table and digits
e, f of some row there, Y ↔ x(q, e) ∧ x(r, f): (¬Y ∨ x(q, e)), (¬Y ∨ x(r, f)), (Y ∨ ¬x(q, e)
∨ ¬x(r, f)), RAT on Y (extended resolution, as `proof.extension` does for sums). A pair of
cells shared by several tables (a between line's two ends, one table per middle cell) gets
its variables once. Then, per third cell p and digit d, lemmas each RUP once those before it
are written:

- per digit e of q: ¬x(p, d) ∨ ¬x(q, e) ∨ ⋁ Y(e, f) over the rows (d, e, f) (with the Y
  false, each such f is ruled out by Y's definition, every other by its forbidden-tuple
  clause: r's at-least-one clause fails); with no such row, the binary nogood;
- the support: ¬x(p, d) ∨ ⋁ Y(e, f) over the rows with d at p (the lemmas above rule out
  every digit of q).

With them, x(p, d) is false by unit propagation exactly when no row with d at p has both its
other digits open: the kernel's revision of the table. Such a table is `covered` when each of
its lemmas is RUP (the caller checks: the kernel's rows are the table as the kernel holds it).
Digits false at the root (`absent`) get no variables and no lemmas.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from satsudoku.encoders.cnf import Clause

Triple = tuple[tuple[int, int, int], Sequence[tuple[int, int, int]]]  # flat cells, digit rows


@dataclass
class TripleExtension:
    """The definitions (first, RAT) and per table its lemmas, in proof order."""

    definitions: list[Clause] = field(default_factory=list)
    lemmas: list[list[Clause]] = field(default_factory=list)  # per table
    top: int = 0  # the last variable defined
    pairs: int = 0  # pair variables defined


def root_facts(clauses: Sequence[Clause], n: int) -> tuple[frozenset[int], set[frozenset[int]]]:
    """One pass over the formula: the cell digits its unit and binary clauses make false at
    the root (unit propagation on those clauses alone: the givens, their cells' other digits
    and their peers', the digits rules leave out), and its ternary clauses of negative
    literals as sets (the forbidden rows). The sums' automata take the whole closure, which
    costs a solver loaded with the formula (between: 0.06 s, more than the tables' lemmas)."""
    top = n**3
    units: list[int] = []
    implies: dict[int, list[int]] = {}
    held: set[frozenset[int]] = set()
    for clause in clauses:
        size = len(clause)
        if size == 3:
            if clause[0] < 0 and clause[1] < 0 and clause[2] < 0:
                held.add(frozenset(clause))
        elif size == 2:
            a, b = clause
            implies.setdefault(-a, []).append(b)
            implies.setdefault(-b, []).append(a)
        elif size == 1:
            units.append(clause[0])
    true: set[int] = set()
    pending = units
    while pending:
        lit = pending.pop()
        if lit in true:
            continue
        true.add(lit)
        pending.extend(implies.get(lit, ()))
    if any(-lit in true for lit in true):
        return frozenset(), held  # the root conflicts: no digit is left out, all stay RUP
    return frozenset(-lit for lit in true if -top <= lit < 0), held


def forbidden_held(
    table: Triple, n: int, held: set[frozenset[int]], absent: frozenset[int]
) -> bool:
    """Whether the formula forbids every triple of digits open at the root that is no row of
    `table` (a clause over its three literals): then each lemma `extend_triples`
    writes for it is RUP, by the argument in the module, and needs no check."""
    cells, rows = table
    present = set(rows)
    open_digits = [[d for d in range(1, n + 1) if c * n + d not in absent] for c in cells]
    a, b, c = (cell * n for cell in cells)
    for d in open_digits[0]:
        for e in open_digits[1]:
            for f in open_digits[2]:
                if (d, e, f) not in present and (
                    frozenset((-(a + d), -(b + e), -(c + f))) not in held
                ):
                    return False
    return True


def extend_triples(
    tables: Sequence[Triple], n: int, top: int, absent: frozenset[int] = frozenset()
) -> TripleExtension:
    """Pair variables from `top` + 1 and each table's lemmas (see the module): RUP when
    `forbidden_held` holds for every table (the caller checks)."""
    found = TripleExtension(top=top)
    pair_vars: dict[tuple[int, int, int, int], int] = {}

    def pair(a: int, e: int, b: int, f: int) -> int:
        key = (a, e, b, f) if a < b else (b, f, a, e)
        y = pair_vars.get(key)
        if y is None:
            found.top += 1
            y = pair_vars[key] = found.top
            xa, xb = key[0] * n + key[1], key[2] * n + key[3]
            found.definitions += [[-y, xa], [-y, xb], [y, -xa, -xb]]
        return y

    for cells, rows in tables:
        live = [
            row for row in set(rows) if all(cells[k] * n + row[k] not in absent for k in range(3))
        ]
        lemmas: list[Clause] = []
        for p, q, r in ((0, 1, 2), (1, 0, 2), (2, 0, 1)):
            cp, cq, cr = cells[p], cells[q], cells[r]
            q_digits = [e for e in range(1, n + 1) if cq * n + e not in absent]
            r_digits = [f for f in range(1, n + 1) if cr * n + f not in absent]
            every = len(q_digits) * len(r_digits)
            with_d: dict[int, dict[int, list[int]]] = {}
            for row in live:
                with_d.setdefault(row[p], {}).setdefault(row[q], []).append(row[r])
            for d in range(1, n + 1):
                x = cp * n + d
                if x in absent:
                    continue
                partners = with_d.get(d, {})
                if sum(len(fs) for fs in partners.values()) == every:
                    continue  # every open pair is a row with d: the table never removes d
                support: list[int] = []
                for e in q_digits:
                    ys = [pair(cq, e, cr, f) for f in sorted(partners.get(e, ()))]
                    lemmas.append([-x, -(cq * n + e), *ys])
                    support += ys
                lemmas.append([-x, *support])
        found.lemmas.append(lemmas)
    found.pairs = len(pair_vars)
    return found
