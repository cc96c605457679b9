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
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from satsudoku.encoders.cnf import Clause
from satsudoku.search.kernel import _Kernel


def pair_supports(kernel: _Kernel) -> Iterator[Clause]:
    """The support clauses of every two-cell table the kernel revises (`active`: pairs whose
    revision never goes beyond placing a partner need none), each once."""
    n, full, bits = kernel.n, kernel.full, kernel.bit
    written: set[tuple[int, ...]] = set()
    for _, step, pair in kernel.active:
        if step != kernel._pair:
            continue
        for (a, b), supports in ((pair.cells, pair.of_first), (pair.cells[::-1], pair.of_second)):
            for d in range(1, n + 1):
                allowed = supports[bits[d - 1]]
                missing = full & ~allowed
                if not missing & (missing - 1):  # none or one partner digit ruled out
                    continue
                clause = (
                    -(a * n + d),
                    *(b * n + e for e in range(1, n + 1) if allowed & bits[e - 1]),
                )
                if clause not in written:  # a relation posted twice on the same cells
                    written.add(clause)
                    yield list(clause)


def selector_supports(clauses: Sequence[Clause], n: int) -> Iterator[Clause]:
    """The support clauses of every group of selectors the encoding has (see the module)."""
    top = n**3
    every = frozenset(range(1, n + 1))
    rules: dict[int, dict[int, set[int]]] = {}  # selector -> cell -> digits it rules out
    needs: dict[int, set[tuple[int, ...]]] = {}  # selector -> cell-digit sets it needs one of
    groups: list[Clause] = []
    false: set[int] = set()  # cell digits ruled out by unit clauses
    for clause in clauses:
        first = clause[0] if clause else 0
        if first > top:
            if len(clause) > 1 and all(lit > top for lit in clause):
                groups.append(clause)
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
            false.add(-first)
    for group in groups:
        yield from _group_supports(group, rules, needs, false, n)


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
