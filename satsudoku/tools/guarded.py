"""CNF with groups of constraints behind guard literals: a group holds only while its guard is
assumed, so one solver can ask "unique without this cage?" by leaving one guard out.

Each group is encoded on its own by `encode_rules` (minimal encoding: the cell clauses it
repeats are the fixed part's and are dropped), its auxiliary variables moved above everything
numbered so far, and `¬guard` added to each of its clauses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from satsudoku.constraints import Constraint
from satsudoku.deadline import check
from satsudoku.encoders.cnf import Encoding, board_amo, encode_rules
from satsudoku.grid import Shape


@dataclass(frozen=True)
class GuardedCnf:
    """Clauses over the standard cell numbering; `guards[k]` switches group k on."""

    clauses: list[list[int]]
    guards: tuple[int, ...]
    num_vars: int


def guarded_cnf(
    shape: Shape,
    fixed: Sequence[Constraint],
    groups: Sequence[Sequence[Constraint]],
    deadline: float | None = None,
) -> GuardedCnf:
    """`fixed` always holds (extended encoding); group k holds when guard k is true."""
    base = encode_rules(shape, fixed, Encoding.EXTENDED, board_amo(shape.size), deadline=deadline)
    if base.atmost:  # not with the default pairwise at-most-one; guard against a change there
        raise ValueError("guarded_cnf needs clausal at-most-one constraints")
    cell_top = shape.size**3
    clauses = [list(clause) for clause in base.clauses]
    # Clauses over cell variables only mean the same in every formula: a group's copy of one
    # the fixed part already has is implied, guarded or not.
    known = set()
    if groups:
        known = {tuple(c) for c in clauses if all(abs(lit) <= cell_top for lit in c)}
    top = base.num_vars
    guards: list[int] = []
    for group in groups:
        check(deadline)
        part = encode_rules(shape, group, Encoding.MINIMAL, deadline=deadline)
        shift = top - cell_top  # the group's auxiliaries n³+1.. become top+1..
        guard = max(top, part.num_vars + shift) + 1
        for clause in part.clauses:
            if all(abs(lit) <= cell_top for lit in clause):
                if tuple(clause) in known:
                    continue
                moved = list(clause)
            else:
                moved = [
                    lit if abs(lit) <= cell_top else lit + shift if lit > 0 else lit - shift
                    for lit in clause
                ]
            clauses.append([-guard, *moved])
        guards.append(guard)
        top = guard
    return GuardedCnf(clauses, tuple(guards), top)
